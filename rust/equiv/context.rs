//! The state every comparer shares: the comparison context ([`Ctx`]: options, budgets spent, the
//! [`Stage`] reached), the random sample points of the identity tests, and the shapes the
//! dispatcher ([`super::compare`]), the set comparer ([`super::sets`]) and the relation comparer
//! ([`super::relations`]) all read. Each of them adds its own `impl Ctx` block; this module imports
//! none of them.

use super::EquivOptions;
use crate::latex::{BigOp, Constant, Expr, Func};
use crate::verdict::DecidedBy;

/// Random points tried for identity testing, and how many must be valid.
pub(super) const POINTS: usize = 8;
pub(super) const MIN_VALID_POINTS: usize = 3;

/// The strongest machinery a decision needed; it becomes the verdict's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Stage {
    /// Equal as written (canonical form, or the literal text).
    Literal,
    /// Number literals compared by value.
    Numeric,
    /// Expressions evaluated, rewritten or tested at random points.
    Symbolic,
}

impl From<Stage> for DecidedBy {
    fn from(s: Stage) -> DecidedBy {
        match s {
            Stage::Literal => DecidedBy::Literal,
            Stage::Numeric => DecidedBy::Numeric,
            Stage::Symbolic => DecidedBy::Symbolic,
        }
    }
}

/// The state of one comparison: options, budgets spent, and the stage reached.
pub(super) struct Ctx<'a> {
    pub(super) opts: &'a EquivOptions,
    pub(super) over_budget: bool,
    pub(super) stage: Stage,
    pub(super) steps: usize,
}

impl Ctx<'_> {
    /// Record that a decision needed `stage`.
    pub(super) fn note(&mut self, stage: Stage) {
        self.stage = self.stage.max(stage);
    }
}

/// Variables that must take integer values: summation bounds, factorial and binomial
/// arguments, subscripts.
pub(super) fn integer_vars(a: &Expr, b: &Expr) -> Vec<String> {
    let mut out = Vec::new();
    for e in [a, b] {
        e.walk(&mut |x| match x {
            Expr::Big(_, _, _, lo, hi) => {
                for bound in [lo, hi].into_iter().flatten() {
                    out.extend(bound.free_symbols());
                }
            }
            Expr::Func(Func::Factorial | Func::Binom, args) => {
                for a in args {
                    out.extend(a.free_symbols());
                }
            }
            Expr::Sym(_, Some(sub)) => out.extend(sub.free_symbols()),
            _ => {}
        });
    }
    out.sort();
    out.dedup();
    out
}

pub(super) fn is_infinity(e: &Expr) -> Option<i32> {
    match e {
        Expr::Const(Constant::Infinity) => Some(1),
        Expr::Neg(a) => is_infinity(a).map(|s| -s),
        Expr::Add(v) if v.len() == 1 => is_infinity(&v[0]),
        _ => None,
    }
}

/// Structured values that are never compared as plain scalars.
pub(super) fn is_compound(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Tuple(_)
            | Expr::Set(_)
            | Expr::List(..)
            | Expr::Interval(..)
            | Expr::Union(_)
            | Expr::Intersection(_)
            | Expr::EmptySet
            | Expr::Matrix(_)
            | Expr::Relation(..)
            | Expr::In(..)
            | Expr::Ratio(_)
            | Expr::Based(..)
            | Expr::Text(_)
    ) || matches!(e, Expr::Big(op, ..) if !matches!(op, BigOp::Sum | BigOp::Product))
}
