//! Text scanners that number parsing, the LaTeX lexer and answer extraction share, so each job
//! has one implementation (and one set of tests pinning its behaviour):
//!
//! - [`braces`]: the `}` matching a `{`, and the argument of a `\macro{...}` that is the whole text;
//! - [`clock`]: clock times (`09:15`, `9:15 P.M.`), compared as times of day;
//! - [`boxes`]: `\boxed{}` / `\fbox{}` spans and the answer a grader reads from them;
//! - [`debris`]: stray LaTeX at the ends of a whole answer (`185\`, `x+1\\`, `\left.9\right.`);
//! - [`digit_groups`]: thousands separators (`10,000`, `10{,}000`, `10\,000`, `10 000`, U+2009).
//!
//! The seed emulation (`crate::xwin`) keeps its own scanners on purpose: it reproduces pyparsing's
//! rules, quirks included.

pub mod boxes;
pub mod braces;
pub mod clock;
pub mod debris;
pub mod digit_groups;
