//! Answer-level equivalence of two already-extracted answers (the fixed mode's LaTeX path).
//!
//! This is the contract the rest of the crate relies on:
//! [`equivalent`]`(gold, pred, &EquivOptions) -> EquivOutcome`. The engine behind it:
//! - `prepare`: answer-level rewriting before comparing (names, `\pm`, chains, matrices);
//! - `context`: the comparison context every comparer shares (`Ctx`, `Stage`, sample points);
//! - `compare`: the driver, the dispatch on shapes and the scalar stages, with the `Stage`
//!   reached (literal < numeric < symbolic) that becomes the verdict's path;
//! - `sets`: collections and sets of reals; `relations`: equations and inequalities;
//! - [`exact`]: exact rationals under a budget; [`numeric`]: complex evaluation at points.

use crate::names::str_enum;
use crate::verdict::{DecidedBy, FiniteDecimals};

/// Limits that keep every comparison bounded. Over budget means "undecided", never a hang.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EquivOptions {
    /// Only trivial simplifications (no algebraic rewriting, no numeric identity testing).
    pub strict: bool,
    /// Compare a decimal prediction with an exact gold by rounding to the written precision.
    pub rounding_tolerance: bool,
    /// Whether a value with a finite decimal form is exact against a coarser decimal (see
    /// [`FiniteDecimals`]); only read when `rounding_tolerance` is on.
    pub finite_decimals: FiniteDecimals,
    /// Largest parsed expression (nodes) per side.
    pub max_nodes: usize,
    /// Largest exact power, in bits of the result (`5^{3125}` is over the default).
    pub max_exponent_bits: u64,
    /// Largest exact value, in decimal digits (`2006!` has 5,770 and fits the default).
    pub max_digits: usize,
}

impl Default for EquivOptions {
    fn default() -> Self {
        EquivOptions {
            strict: false,
            rounding_tolerance: true,
            finite_decimals: FiniteDecimals::Exact,
            max_nodes: 2_000,
            max_exponent_bits: 4_096,
            max_digits: 10_000,
        }
    }
}

/// The three-valued result of an equivalence test (also of every comparison inside the engine).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Equivalence {
    Equal,
    NotEqual,
    /// The engine could not decide within its budgets; hand over to SymPy.
    Undecided,
}

str_enum!(Equivalence, "equivalence" {
    Equal => "equal",
    NotEqual => "not_equal",
    Undecided => "undecided",
});

impl Equivalence {
    /// `Equal` or `NotEqual`.
    pub fn from_bool(equal: bool) -> Self {
        if equal {
            Equivalence::Equal
        } else {
            Equivalence::NotEqual
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EquivOutcome {
    pub result: Equivalence,
    /// Which stage decided (Literal, Numeric or Symbolic); `None` when undecided.
    pub path: DecidedBy,
    /// `false` when the gold could not be parsed at all (the verdict is `gold_unparseable`).
    pub gold_parsed: bool,
    /// `false` when the prediction could not be parsed at all (`pred_unparseable`).
    pub pred_parsed: bool,
    /// `true` when a budget stopped the engine (the verdict may become `over_budget`), or when
    /// the side that failed to parse (the gold if it did) was over a parse budget.
    pub over_budget: bool,
}

impl EquivOutcome {
    pub fn decided(equal: bool, path: DecidedBy) -> Self {
        EquivOutcome {
            result: if equal {
                Equivalence::Equal
            } else {
                Equivalence::NotEqual
            },
            path,
            gold_parsed: true,
            pred_parsed: true,
            over_budget: false,
        }
    }

    pub fn undecided() -> Self {
        EquivOutcome {
            result: Equivalence::Undecided,
            path: DecidedBy::None,
            gold_parsed: true,
            pred_parsed: true,
            over_budget: false,
        }
    }
}

/// Is `pred` the same answer as `gold`? Gold first, as in math-verify's `verify(gold, pred)`.
pub fn equivalent(gold: &str, pred: &str, opts: &EquivOptions) -> EquivOutcome {
    compare::equivalent(gold, pred, opts)
}

mod compare;
mod context;
pub mod exact;
pub mod numeric;
mod prepare;
mod relations;
mod sets;
#[cfg(test)]
mod tests;
