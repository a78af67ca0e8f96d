//! Text scanners that number parsing, the LaTeX lexer and answer extraction share, so each job
//! has one implementation (and one set of tests pinning its behaviour):
//!
//! - [`braces`]: the `}` matching a `{`, and the argument of a `\macro{...}` that is the whole text;
//! - [`clock`]: clock times (`09:15`, `9:15 P.M.`), compared as times of day;
//! - [`boxes`]: `\boxed{}` / `\fbox{}` spans and the answer a grader reads from them;
//! - [`debris`]: stray LaTeX at the ends of a whole answer (`185\`, `x+1\\`, `\left.9\right.`);
//! - [`digit_groups`]: thousands separators (`10,000`, `10{,}000`, `10\,000`, `10 000`, U+2009);
//! - [`html`]: HTML markup and entities in golds and answers (`3<sup>x</sup>`, `&le;`);
//! - [`replace`]: a chain of `str::replace` calls that skips the patterns that cannot occur.
//!
//! The seed emulation (`crate::xwin`) keeps its own scanners on purpose: it reproduces pyparsing's
//! rules, quirks included.

pub mod boxes;
pub mod braces;
pub mod clock;
pub mod debris;
pub mod digit_groups;
pub mod html;
pub mod replace;

/// ASCII white space as `char::is_whitespace` reads it (tab, line feed, vertical tab, form feed,
/// carriage return, space).
#[inline]
fn is_ascii_ws(b: u8) -> bool {
    b == b' ' || (b'\t'..=b'\r').contains(&b)
}

/// `s.trim_start()`, byte by byte while the text is ASCII (the std version decodes a char at
/// each step; the hot path trims several short answers per item). A non-ASCII byte hands over
/// to the std version, so Unicode white space is trimmed as before.
#[inline]
pub fn trim_start(s: &str) -> &str {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && is_ascii_ws(b[i]) {
        i += 1;
    }
    if i < b.len() && !b[i].is_ascii() {
        return s[i..].trim_start();
    }
    &s[i..]
}

/// `s.trim_end()`, byte by byte while the text is ASCII (see [`trim_start`]).
#[inline]
pub fn trim_end(s: &str) -> &str {
    let b = s.as_bytes();
    let mut j = b.len();
    while j > 0 && is_ascii_ws(b[j - 1]) {
        j -= 1;
    }
    if j > 0 && !b[j - 1].is_ascii() {
        return s[..j].trim_end();
    }
    &s[..j]
}

/// `s.trim()` (see [`trim_start`]).
#[inline]
pub fn trim(s: &str) -> &str {
    trim_end(trim_start(s))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn trims_equal_std(s in "[ \t\n\u{b}\u{c}\r\u{1c}\u{1f}\u{85}\u{a0}\u{2009}\u{3000}a.é$]{0,12}") {
            prop_assert_eq!(super::trim(&s), s.trim());
            prop_assert_eq!(super::trim_start(&s), s.trim_start());
            prop_assert_eq!(super::trim_end(&s), s.trim_end());
        }
    }
}
