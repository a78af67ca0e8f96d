//! A first equivalence engine: normalised literal comparison, then plain numbers with
//! rounding-aware tolerance; everything else is undecided (SymPy decides).

use super::{EquivOptions, EquivOutcome};
use crate::check::DecidedBy;
use crate::number;

pub(super) fn equivalent(gold: &str, pred: &str, opts: &EquivOptions) -> EquivOutcome {
    let g = number::normalize_answer(gold);
    let p = number::normalize_answer(pred);
    if g == p {
        return EquivOutcome::decided(true, DecidedBy::Literal);
    }
    if let (Some(gn), Some(pn)) = (number::parse_number(&g), number::parse_number(&p)) {
        return EquivOutcome::decided(
            number::numbers_equal(&gn, &pn, opts.rounding_tolerance),
            DecidedBy::Numeric,
        );
    }
    EquivOutcome::undecided()
}
