//! The shared vocabulary of protocol A: modes, policies, checker kinds, the reason and the deciding
//! path of a verdict, the [`Verdict`] itself and the work handed to the SymPy fallback.
//!
//! Everything above (extraction, the seed emulation, the equivalence engine, the config reader,
//! the dispatcher, the bindings) speaks these types; this module imports nothing but the error
//! type and the name macro, so no import circle can run through it.

use crate::names::str_enum;

/// Which behaviour to follow: the seed tool's (quirks included) or the corrected default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Compat {
    #[default]
    Fixed,
    Xwin,
}

/// Seed `extract_policy`: `strict` uses only the anchor phrases, `flex` adds boxes and numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ExtractPolicy {
    #[default]
    Flex,
    Strict,
}

/// How a decimal compares with a value that has a finite decimal form (an integer, `2.232`,
/// `\frac{279}{125}`) when the two differ (docs/policies.md, "Precision of decimals").
///
/// `Exact` (the default): such a value is exact, a decimal must equal it, unless the coarser
/// decimal carries at least six significant digits (machine rounding: `0.0666668` = `0.066666793`).
/// `WrittenPrecision`: the finer side is rounded to the coarser side's written places (at least
/// two significant digits), so `2.23` = `2.232`. A value with no finite decimal form (`\frac13`,
/// `\pi`, `\sqrt2`) is compared at the decimal's written precision under both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FiniteDecimals {
    #[default]
    Exact,
    WrittenPrecision,
}

/// Significant digits from which a coarser decimal counts as a machine-rounded value of a finer
/// one even under [`FiniteDecimals::Exact`] (`0.6666667` = `\frac23`, `16386.16` = `16386.164`):
/// math-verify and AReaL round both sides to 6 places, and such values come from calculators.
pub const MACHINE_ROUNDED_DIGITS: u32 = 6;

/// Seed `eval_policy`. The first three belong to the simple checker, the last two to LaTeX.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EvalPolicy {
    Strict,
    ModelIncludeGt,
    GtIncludeModel,
    Aggressive,
    Conservative,
}

/// Which checker decides: the GSM8K-style number matcher or the MATH-style LaTeX checker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Kind {
    #[default]
    Auto,
    Simple,
    Latex,
}

/// Why a verdict is what it is. The order is the wire order (u8) used by the batch arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Reason {
    Correct = 0,
    Incorrect = 1,
    NoAnswer = 2,
    PredUnparseable = 3,
    GoldUnparseable = 4,
    Timeout = 5,
    OverBudget = 6,
    Error = 7,
}

/// Which stage decided. The order is the wire order (u8) used by the batch arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum DecidedBy {
    /// String comparison after normalisation.
    Literal = 0,
    /// Number parsing and tolerance.
    Numeric = 1,
    /// The Rust expression evaluator / equivalence engine.
    Symbolic = 2,
    /// The SymPy fallback (Python worker pool).
    Sympy = 3,
    /// Nothing compared (no answer extracted, bad gold, ...).
    None = 4,
}

/// What the SymPy fallback reported for one [`SympyTask`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SympyOutcome {
    /// Some pair compared equal.
    Equal,
    /// Every pair compared, none equal.
    NotEqual,
    /// The worker missed its deadline (it was killed and replaced).
    Timeout,
    /// The worker failed on the item.
    Error,
}

str_enum!(Compat, "compat" { Fixed => "fixed", Xwin => "xwin" });
str_enum!(ExtractPolicy, "extract_policy" { Flex => "flex", Strict => "strict" });
str_enum!(EvalPolicy, "eval_policy" {
    Strict => "strict",
    ModelIncludeGt => "model_include_gt",
    GtIncludeModel => "gt_include_model",
    Aggressive => "aggressive",
    Conservative => "conservative",
});
str_enum!(FiniteDecimals, "finite_decimals" {
    Exact => "exact",
    WrittenPrecision => "written_precision",
});
str_enum!(Kind, "kind" { Auto => "auto", Simple => "simple", Latex => "latex" });
str_enum!(Reason, "reason" {
    Correct => "correct",
    Incorrect => "incorrect",
    NoAnswer => "no_answer",
    PredUnparseable => "pred_unparseable",
    GoldUnparseable => "gold_unparseable",
    Timeout => "timeout",
    OverBudget => "over_budget",
    Error => "error",
});
str_enum!(DecidedBy, "path" {
    Literal => "literal",
    Numeric => "numeric",
    Symbolic => "symbolic",
    Sympy => "sympy",
    None => "none",
});
str_enum!(SympyOutcome, "sympy outcome" {
    Equal => "equal",
    NotEqual => "not_equal",
    Timeout => "timeout",
    Error => "error",
});

/// Work the core cannot finish itself: SymPy comparisons to run in the Python worker pool.
///
/// The verdict becomes correct iff **any** pair compares equal, tried in order (both the seed's
/// aggressive path and our fixed fallback are "first success wins").
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SympyTask {
    /// `Xwin` reproduces the seed's `symbolic_equal` (its dead tolerance branch included);
    /// `Fixed` is the corrected comparison.
    pub compat: Compat,
    /// (prediction, gold) pairs, already normalised by the core.
    pub pairs: Vec<(String, String)>,
}

/// The outcome of checking one response against one gold answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Verdict {
    pub correct: bool,
    pub reason: Reason,
    /// The extracted final answer, if any.
    pub extracted: Option<String>,
    pub path: DecidedBy,
    /// Set when only SymPy can decide; `correct`/`reason` are then provisional (incorrect, or
    /// over budget) until [`Verdict::settle`] applies SymPy's outcome.
    pub sympy: Option<SympyTask>,
}

impl Verdict {
    /// A decided comparison: correct or incorrect.
    pub fn decided(correct: bool, path: DecidedBy, extracted: Option<String>) -> Self {
        Verdict {
            correct,
            reason: if correct {
                Reason::Correct
            } else {
                Reason::Incorrect
            },
            extracted,
            path,
            sympy: None,
        }
    }

    /// A verdict for a given reason (correct only for [`Reason::Correct`]).
    pub fn with_reason(reason: Reason, path: DecidedBy, extracted: Option<String>) -> Self {
        Verdict {
            correct: reason == Reason::Correct,
            reason,
            extracted,
            path,
            sympy: None,
        }
    }

    /// The final verdict once SymPy has answered the pending task: equal is correct; a timeout
    /// or a worker error is that reason; not equal keeps a provisional `over_budget` (the engine
    /// gave up on size, and SymPy could not show equality either), else is incorrect.
    pub fn settle(self, outcome: SympyOutcome) -> Verdict {
        let reason = match outcome {
            SympyOutcome::Equal => Reason::Correct,
            SympyOutcome::Timeout => Reason::Timeout,
            SympyOutcome::Error => Reason::Error,
            SympyOutcome::NotEqual if self.reason == Reason::OverBudget => Reason::OverBudget,
            SympyOutcome::NotEqual => Reason::Incorrect,
        };
        Verdict {
            sympy: None,
            ..Verdict::with_reason(reason, self.path, self.extracted)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_order_is_declaration_order() {
        for (code, r) in Reason::ALL.iter().enumerate() {
            assert_eq!(*r as usize, code, "{r}");
        }
        for (code, p) in DecidedBy::ALL.iter().enumerate() {
            assert_eq!(*p as usize, code, "{p}");
        }
    }

    #[test]
    fn settling_applies_the_sympy_outcome() {
        let pending = |reason| Verdict {
            sympy: Some(SympyTask {
                compat: Compat::Fixed,
                pairs: vec![("a".into(), "b".into())],
            }),
            ..Verdict::with_reason(reason, DecidedBy::Sympy, Some("a".into()))
        };
        let cases = [
            (Reason::Incorrect, SympyOutcome::Equal, Reason::Correct),
            (Reason::OverBudget, SympyOutcome::Equal, Reason::Correct),
            (Reason::Incorrect, SympyOutcome::NotEqual, Reason::Incorrect),
            (
                Reason::OverBudget,
                SympyOutcome::NotEqual,
                Reason::OverBudget,
            ),
            (Reason::OverBudget, SympyOutcome::Timeout, Reason::Timeout),
            (Reason::Incorrect, SympyOutcome::Error, Reason::Error),
        ];
        for (provisional, outcome, want) in cases {
            let v = pending(provisional).settle(outcome);
            assert_eq!(v.reason, want, "{provisional} + {outcome}");
            assert_eq!(v.correct, want == Reason::Correct);
            assert_eq!(v.path, DecidedBy::Sympy);
            assert_eq!(v.extracted.as_deref(), Some("a"));
            assert!(v.sympy.is_none());
        }
    }

    #[test]
    fn unknown_names_are_invalid_values_naming_the_argument() {
        let e = "fast".parse::<Compat>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "compat must be one of 'fixed', 'xwin', got \"fast\""
        );
        assert_eq!("gt_include_model".parse(), Ok(EvalPolicy::GtIncludeModel));
    }
}
