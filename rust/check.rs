//! Modes, policies and the verdict of protocol A, and the single-item checker that the batch
//! driver and the Python API both call.

use crate::config::Config;
use crate::error::{Error, Result};

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

/// Which stage decided.
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

macro_rules! str_enum {
    ($ty:ty { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// The lower-case name used by the Python API and the output files.
            pub fn as_str(self) -> &'static str {
                match self { $(<$ty>::$variant => $name),+ }
            }
            /// Every accepted name, for error messages.
            pub const NAMES: &'static [&'static str] = &[$($name),+];
        }
        impl std::str::FromStr for $ty {
            type Err = Error;
            fn from_str(s: &str) -> Result<Self> {
                match s {
                    $($name => Ok(<$ty>::$variant),)+
                    _ => Err(Error::InvalidValue(format!(
                        "{} must be one of {:?}, got {:?}", stringify!($ty), <$ty>::NAMES, s
                    ))),
                }
            }
        }
    };
}

str_enum!(Compat { Fixed => "fixed", Xwin => "xwin" });
str_enum!(ExtractPolicy { Flex => "flex", Strict => "strict" });
str_enum!(EvalPolicy {
    Strict => "strict",
    ModelIncludeGt => "model_include_gt",
    GtIncludeModel => "gt_include_model",
    Aggressive => "aggressive",
    Conservative => "conservative",
});
str_enum!(Kind { Auto => "auto", Simple => "simple", Latex => "latex" });
str_enum!(Reason {
    Correct => "correct",
    Incorrect => "incorrect",
    NoAnswer => "no_answer",
    PredUnparseable => "pred_unparseable",
    GoldUnparseable => "gold_unparseable",
    Timeout => "timeout",
    OverBudget => "over_budget",
    Error => "error",
});
str_enum!(DecidedBy { Literal => "literal", Numeric => "numeric", Symbolic => "symbolic", Sympy => "sympy", None => "none" });

/// Work the core cannot finish itself: SymPy comparisons to run in the Python worker pool.
///
/// The verdict becomes correct iff **any** pair compares equal, tried in order (both the seed's
/// aggressive path and our fixed fallback are "first success wins").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SympyTask {
    /// `"xwin"` reproduces the seed's `symbolic_equal` (its dead tolerance branch included);
    /// `"fixed"` is the corrected comparison.
    pub compat: Compat,
    /// (prediction, gold) pairs, already normalised by the core.
    pub pairs: Vec<(String, String)>,
}

/// The outcome of checking one response against one gold answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub correct: bool,
    pub reason: Reason,
    /// The extracted final answer, if any.
    pub extracted: Option<String>,
    pub path: DecidedBy,
    /// Set when only SymPy can decide; `correct`/`reason` are then provisional (incorrect).
    pub sympy: Option<SympyTask>,
}

impl Verdict {
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

    pub fn with_reason(reason: Reason, path: DecidedBy, extracted: Option<String>) -> Self {
        Verdict {
            correct: reason == Reason::Correct,
            reason,
            extracted,
            path,
            sympy: None,
        }
    }
}

/// Everything that selects the behaviour of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckOptions {
    pub compat: Compat,
    pub kind: Kind,
    pub extract_policy: ExtractPolicy,
    /// `None`: the policy of the config (per type) or the checker's default.
    pub eval_policy: Option<EvalPolicy>,
    /// Anchor phrases (the seed's `extract_pattern`).
    pub split: Vec<String>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            compat: Compat::Fixed,
            kind: Kind::Auto,
            extract_policy: ExtractPolicy::Flex,
            eval_policy: None,
            split: Config::seed_default().extract_pattern,
        }
    }
}

/// Longest input we look at; longer text is judged on its last `MAX_INPUT_BYTES` bytes, where a
/// final answer lives. Keeps every check linear and bounded.
pub const MAX_INPUT_BYTES: usize = 1 << 20;
