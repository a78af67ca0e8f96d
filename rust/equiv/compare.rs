//! The comparison of two parsed answers: the driver ([`equivalent`]), the dispatch on their
//! shapes, and the scalar stages (exact rationals, numeric evaluation, random-point identity).
//! Collections and real sets live in [`super::sets`], relations in [`super::relations`], the
//! answer-level rewriting done before comparing in [`super::prepare`], the context they share
//! ([`Ctx`], [`Stage`], the sample points) in [`super::context`].

use super::context::{
    integer_vars, is_compound, is_infinity, Ctx, Stage, MIN_VALID_POINTS, POINTS,
};
use super::exact::{self, Budget};
use super::numeric::{self, close, Env, C};
use super::prepare::{decimal_comma, expand_pm, is_label, literal_form, prepare, single_equation};
use super::relations::is_inequality;
use super::sets::{elements, is_bag, is_realset};
use super::{EquivOptions, EquivOutcome, Equivalence};
use crate::latex::ast::canonical;
use crate::latex::{self, Constant, Expr, ParseOptions, RelOp};
use crate::scan::boxes::answer_text;
use crate::verdict::{DecidedBy, FiniteDecimals, MACHINE_ROUNDED_DIGITS};
use num_rational::BigRational;

/// Relative agreement required at every point / disagreement that proves inequality.
const REL_EQUAL: f64 = 1e-9;
const REL_DIFFERENT: f64 = 1e-6;
/// Comparisons allowed per call (nested collections multiply them).
const MAX_STEPS: usize = 4_000;

/// Is `pred` the same answer as `gold`? (See [`super::equivalent`].)
pub(super) fn equivalent(gold: &str, pred: &str, opts: &EquivOptions) -> EquivOutcome {
    let popts = ParseOptions {
        max_nodes: opts.max_nodes,
        ..ParseOptions::default()
    };
    let gs = gold_side(gold, &popts);
    let g_text = gs.text.as_str();
    let p_text = answer_of(pred);
    let pl = literal_form(&p_text);
    if !gs.literal.is_empty() && gs.literal == pl {
        return EquivOutcome::decided(true, DecidedBy::Literal);
    }
    // Two plain words ("Yes" / "yes", "June" / "june") are text, not products of symbols: they
    // compare case-insensitively. Single letters and other short names keep their case (`X` is not
    // `x`), except the answers yes and no.
    if let (Some(a), Some(b)) = (gs.word.as_ref(), plain_word(&p_text)) {
        return EquivOutcome::decided(*a == b, DecidedBy::Literal);
    }
    // A clock time is a time of day, never a ratio or a number: `09:15` = `09:15:00`, `21:15` =
    // `9:15 \text{P.M.}` (crate::scan::clock).
    if let Some(equal) = crate::scan::clock::compare_clock(g_text, &p_text) {
        return EquivOutcome::decided(equal, DecidedBy::Literal);
    }
    let g = gs.parsed.get_or_init(|| latex::parse(g_text, &popts));
    let p = latex::parse(&p_text, &popts);
    let (g, p) = match (g, p) {
        (Ok(g), Ok(p)) => (g, p),
        (g, p) => {
            let mut out = EquivOutcome::undecided();
            out.gold_parsed = g.is_ok();
            out.pred_parsed = p.is_ok();
            // The side that decides the reason: the gold when it failed, else the prediction.
            out.over_budget = match (g, &p) {
                (Err(e), _) | (Ok(_), Err(e)) => latex::is_over_budget(e),
                _ => false,
            };
            return out;
        }
    };
    let mut cx = Ctx {
        opts,
        over_budget: false,
        stage: Stage::Literal,
        steps: 0,
    };
    let mut r = cx.top(g, &p);
    // A decimal comma (`1,5`, `0,111`) is a list to the parser; read it as a decimal when the
    // other side is a single number.
    if r != Equivalence::Equal {
        if let Some(alt) = decimal_comma(&p_text).and_then(|t| latex::parse(&t, &popts).ok()) {
            if cx.top(g, &alt) == Equivalence::Equal {
                r = Equivalence::Equal;
            }
        }
        if let Some(alt) = decimal_comma(g_text).and_then(|t| latex::parse(&t, &popts).ok()) {
            if cx.top(&alt, &p) == Equivalence::Equal {
                r = Equivalence::Equal;
            }
        }
    }
    let path = DecidedBy::from(cx.stage);
    match r {
        Equivalence::Equal => EquivOutcome::decided(true, path),
        Equivalence::NotEqual => EquivOutcome::decided(false, path),
        Equivalence::Undecided => {
            let mut out = EquivOutcome::undecided();
            out.over_budget = cx.over_budget;
            out
        }
    }
}

/// An answer as the comparison reads it: doubled backslashes undone, stray LaTeX at the ends
/// removed, a box or `$...$` around it taken off.
fn answer_of(s: &str) -> String {
    use crate::scan::debris::{strip_debris, unescape_doubled};
    answer_text(strip_debris(&unescape_doubled(s)))
}

/// The gold's side of [`equivalent`]: its text, literal form, plain word, and its parse (made
/// when first needed).
struct GoldSide {
    text: String,
    literal: String,
    word: Option<String>,
    parsed: std::cell::OnceCell<crate::error::Result<Expr>>,
}

/// [`GoldSide`] of `gold`, from this thread's last one when the gold (and the parse budget) is
/// the same: the samples of a problem share their gold, and a batch's items come to a thread in
/// runs.
fn gold_side(gold: &str, popts: &ParseOptions) -> std::rc::Rc<GoldSide> {
    use std::cell::RefCell;
    use std::rc::Rc;
    type Last = Option<(String, ParseOptions, Rc<GoldSide>)>;
    thread_local! {
        static LAST: RefCell<Last> = const { RefCell::new(None) };
    }
    LAST.with(|last| {
        if let Some((g, o, side)) = last.borrow().as_ref() {
            if o == popts && g == gold {
                return Rc::clone(side);
            }
        }
        let text = answer_of(gold);
        let side = Rc::new(GoldSide {
            literal: literal_form(&text),
            word: plain_word(&text),
            parsed: std::cell::OnceCell::new(),
            text,
        });
        *last.borrow_mut() = Some((gold.to_string(), popts.clone(), Rc::clone(&side)));
        side
    })
}

impl Ctx<'_> {
    fn top(&mut self, g: &Expr, p: &Expr) -> Equivalence {
        let g = prepare(g);
        let p = prepare(p);
        let r = self.compare(&g, &p);
        // A decimal inside an expression (`2 + 1.732i`, `p - q = 1.414`) stands for the exact
        // constant at the same place on the other side, compared at its written precision by the
        // scalar rule (docs/policies.md, "Precision of decimals").
        if r != Equivalence::Equal
            && self.opts.rounding_tolerance
            && !self.opts.strict
            && !self.over_budget
            && (has_inner_decimal(&g) || has_inner_decimal(&p))
            && self.same_up_to_decimals(&g, &p)
        {
            self.note(Stage::Symbolic);
            return Equivalence::Equal;
        }
        r
    }

    /// Are `a` and `b` the same tree, except that a decimal literal on one side may stand where
    /// the other has a constant (no free variable) that the scalar rule finds equal to it? Sums,
    /// products and unordered collections match their terms in any order (greedily); a single
    /// equation may have its sides swapped.
    fn same_up_to_decimals(&mut self, a: &Expr, b: &Expr) -> bool {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            self.over_budget = true;
            return false;
        }
        let decimal_vs_constant = |x: &Expr, y: &Expr| {
            decimals_of(x).is_some() && !is_compound(y) && y.free_symbols().is_empty()
        };
        if decimal_vs_constant(a, b) || decimal_vs_constant(b, a) {
            return self.compare_scalars(a, b) == Equivalence::Equal;
        }
        let pairwise = |cx: &mut Self, x: &[Expr], y: &[Expr]| {
            x.len() == y.len() && x.iter().zip(y).all(|(u, v)| cx.same_up_to_decimals(u, v))
        };
        let any_order = |cx: &mut Self, x: &[Expr], y: &[Expr]| {
            if x.len() != y.len() {
                return false;
            }
            let mut used = vec![false; y.len()];
            x.iter().all(|u| {
                let found = (0..y.len()).find(|&k| !used[k] && cx.same_up_to_decimals(u, &y[k]));
                found.map(|k| used[k] = true).is_some()
            })
        };
        match (a, b) {
            (Expr::Add(x), Expr::Add(y))
            | (Expr::Mul(x), Expr::Mul(y))
            | (Expr::Set(x), Expr::Set(y))
            | (Expr::List(_, x), Expr::List(_, y)) => any_order(self, x, y),
            (Expr::Tuple(x), Expr::Tuple(y)) | (Expr::Ratio(x), Expr::Ratio(y)) => {
                pairwise(self, x, y)
            }
            (Expr::Neg(x), Expr::Neg(y)) | (Expr::PlusMinus(x), Expr::PlusMinus(y)) => {
                self.same_up_to_decimals(x, y)
            }
            (Expr::Div(x1, x2), Expr::Div(y1, y2)) | (Expr::Pow(x1, x2), Expr::Pow(y1, y2)) => {
                self.same_up_to_decimals(x1, y1) && self.same_up_to_decimals(x2, y2)
            }
            (Expr::Func(f, x), Expr::Func(h, y)) => f == h && pairwise(self, x, y),
            (Expr::Apply(f, x), Expr::Apply(h, y)) => f == h && pairwise(self, x, y),
            (Expr::Relation(x, xo), Expr::Relation(y, yo)) => {
                xo == yo
                    && (pairwise(self, x, y)
                        || (xo.len() == 1
                            && xo[0] == RelOp::Eq
                            && self.same_up_to_decimals(&x[0], &y[1])
                            && self.same_up_to_decimals(&x[1], &y[0])))
            }
            (Expr::Matrix(x), Expr::Matrix(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(u, v)| pairwise(self, u, v))
            }
            _ => canonical(a).to_string() == canonical(b).to_string(),
        }
    }

    pub(super) fn compare(&mut self, g: &Expr, p: &Expr) -> Equivalence {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            self.over_budget = true;
            return Equivalence::Undecided;
        }
        if canonical(g).to_string() == canonical(p).to_string() {
            return Equivalence::Equal;
        }
        // `\pm` makes a scalar two-valued: compare as sets.
        let gx = if is_bag(g) {
            vec![g.clone()]
        } else {
            expand_pm(g)
        };
        let px = if is_bag(p) {
            vec![p.clone()]
        } else {
            expand_pm(p)
        };
        if gx.len() > 1 || px.len() > 1 {
            let gx = if is_bag(g) { elements(g) } else { gx };
            let px = if is_bag(p) { elements(p) } else { px };
            return self.compare_bags(&gx, &px);
        }
        match (g, p) {
            (Expr::Text(_), _) | (_, Expr::Text(_)) => self.compare_text(g, p),
            (Expr::Percent(x), _) => self.compare_percent(x, g, p, true),
            (_, Expr::Percent(y)) => self.compare_percent(y, p, g, false),
            (Expr::Neg(x), _) if matches!(x.as_ref(), Expr::Percent(_)) => {
                self.compare_percent_neg(g, p, true)
            }
            (_, Expr::Neg(y)) if matches!(y.as_ref(), Expr::Percent(_)) => {
                self.compare_percent_neg(p, g, false)
            }
            _ => self.compare_shapes(g, p),
        }
    }

    fn compare_shapes(&mut self, g: &Expr, p: &Expr) -> Equivalence {
        // Equations against values: a named left side may be dropped.
        if let Some((l, r)) = single_equation(g) {
            if single_equation(p).is_none() && !is_inequality(p) {
                if is_label(l) {
                    return self.compare(r, p);
                }
                return Equivalence::NotEqual;
            }
        }
        if let Some((l, r)) = single_equation(p) {
            if single_equation(g).is_none() && !is_inequality(g) {
                if is_label(l) || r.free_symbols().is_empty() {
                    return self.compare(g, r);
                }
                return Equivalence::NotEqual;
            }
        }
        match (g, p) {
            (Expr::Relation(..), Expr::Relation(..)) => self.compare_relations(g, p),
            (Expr::Interval(a1, b1, l1, h1), Expr::Interval(a2, b2, l2, h2)) => {
                // Endpoint by endpoint (rounding-aware: `(3/5, 8/3]` = `(0.6, 2.6667]`).
                if l1 != l2 || h1 != h2 {
                    return Equivalence::NotEqual;
                }
                self.compare_seq(
                    &[(**a1).clone(), (**b1).clone()],
                    &[(**a2).clone(), (**b2).clone()],
                )
            }
            (Expr::Matrix(m), Expr::Interval(a, b, true, true))
            | (Expr::Interval(a, b, true, true), Expr::Matrix(m))
                if m.iter().flatten().count() == 2 && (m.len() == 1 || m[0].len() == 1) =>
            {
                // `[0.25, 3]` against a vector is the list of its entries (NumPy's writing), not
                // the closed interval: a vector is never a set of reals.
                let flat: Vec<Expr> = m.iter().flatten().cloned().collect();
                let ends = [(**a).clone(), (**b).clone()];
                if matches!(g, Expr::Matrix(_)) {
                    self.compare_seq(&flat, &ends)
                } else {
                    self.compare_seq(&ends, &flat)
                }
            }
            _ if (is_bag(g) || is_bag(p)) => self.compare_collections(g, p),
            _ if is_realset(g) || is_realset(p) || is_inequality(g) || is_inequality(p) => {
                self.compare_realsets(g, p)
            }
            (Expr::Tuple(a), Expr::Tuple(b)) => self.compare_seq(a, b),
            (Expr::Matrix(a), Expr::Matrix(b)) => {
                if a.len() != b.len() || a[0].len() != b[0].len() {
                    return Equivalence::NotEqual;
                }
                let fa: Vec<Expr> = a.iter().flatten().cloned().collect();
                let fb: Vec<Expr> = b.iter().flatten().cloned().collect();
                self.compare_seq(&fa, &fb)
            }
            (Expr::Matrix(m), Expr::Tuple(t)) | (Expr::Tuple(t), Expr::Matrix(m)) => {
                // A column or row vector equals the tuple of its entries.
                let flat: Vec<Expr> = m.iter().flatten().cloned().collect();
                if m.len() != 1 && m[0].len() != 1 {
                    return Equivalence::NotEqual;
                }
                if matches!(g, Expr::Matrix(_)) {
                    self.compare_seq(&flat, t)
                } else {
                    self.compare_seq(t, &flat)
                }
            }
            (Expr::Ratio(a), Expr::Ratio(b)) => {
                if a.len() != b.len() {
                    return Equivalence::NotEqual;
                }
                let parts = self.compare_seq(a, b);
                if parts == Equivalence::Equal || a.len() != 2 {
                    return parts;
                }
                let zero = |e: &Expr| {
                    exact::eval(e, &mut Budget::new(100, 64))
                        .is_none_or(|v| v == BigRational::from_integer(0.into()))
                };
                if zero(&a[1]) || zero(&b[1]) {
                    return parts;
                }
                // 2:4 = 1:2 when both second parts are non-zero.
                let q1 = Expr::Div(Box::new(a[0].clone()), Box::new(a[1].clone()));
                let q2 = Expr::Div(Box::new(b[0].clone()), Box::new(b[1].clone()));
                self.compare_scalars(&q1, &q2)
            }
            (Expr::Ratio(a), other) | (other, Expr::Ratio(a))
                if a.len() == 2 && !is_compound(other) =>
            {
                let q = Expr::Div(Box::new(a[0].clone()), Box::new(a[1].clone()));
                if matches!(g, Expr::Ratio(_)) {
                    self.compare_scalars(&q, other)
                } else {
                    self.compare_scalars(other, &q)
                }
            }
            _ if is_compound(g) || is_compound(p) => {
                if std::mem::discriminant(g) == std::mem::discriminant(p)
                    && !matches!(g, Expr::Big(..))
                {
                    Equivalence::NotEqual
                } else if matches!(g, Expr::Big(..)) || matches!(p, Expr::Big(..)) {
                    Equivalence::Undecided
                } else {
                    Equivalence::NotEqual
                }
            }
            _ => self.compare_scalars(g, p),
        }
    }

    fn compare_percent(
        &mut self,
        x: &Expr,
        _pct: &Expr,
        other: &Expr,
        pct_is_gold: bool,
    ) -> Equivalence {
        // `x%` equals both `x` and `x/100`. A written decimal keeps its precision, two places
        // further: `33.3\%` is 0.333 as written, which rounds 1/3 (issue 33).
        let scaled = match x {
            Expr::Num(n) if n.decimals.is_some() => Expr::Num(crate::latex::ast::Number {
                value: &n.value / BigRational::from_integer(100.into()),
                decimals: n.decimals.map(|d| d + 2),
            }),
            _ => Expr::Div(Box::new(x.clone()), Box::new(Expr::num(100))),
        };
        let mut any_undecided = false;
        for cand in [x.clone(), scaled] {
            let r = if pct_is_gold {
                self.compare(&cand, other)
            } else {
                self.compare(other, &cand)
            };
            match r {
                Equivalence::Equal => return Equivalence::Equal,
                Equivalence::Undecided => any_undecided = true,
                Equivalence::NotEqual => {}
            }
        }
        if any_undecided {
            Equivalence::Undecided
        } else {
            Equivalence::NotEqual
        }
    }

    fn compare_percent_neg(&mut self, neg: &Expr, other: &Expr, neg_is_gold: bool) -> Equivalence {
        let Expr::Neg(inner) = neg else {
            return Equivalence::Undecided;
        };
        let Expr::Percent(x) = inner.as_ref() else {
            return Equivalence::Undecided;
        };
        let negx = Expr::Neg(x.clone());
        self.compare_percent(&negx, neg, other, neg_is_gold)
    }

    fn compare_text(&mut self, g: &Expr, p: &Expr) -> Equivalence {
        self.note(Stage::Symbolic);
        match (text_form(g), text_form(p)) {
            (Some(a), Some(b)) => Equivalence::from_bool(a == b),
            _ => Equivalence::NotEqual,
        }
    }

    /// Ordered comparison, element by element.
    pub(super) fn compare_seq(&mut self, a: &[Expr], b: &[Expr]) -> Equivalence {
        if a.len() != b.len() {
            return Equivalence::NotEqual;
        }
        let mut undecided = false;
        for (x, y) in a.iter().zip(b) {
            match self.compare(x, y) {
                Equivalence::NotEqual => return Equivalence::NotEqual,
                Equivalence::Undecided => undecided = true,
                Equivalence::Equal => {}
            }
        }
        if undecided {
            Equivalence::Undecided
        } else {
            Equivalence::Equal
        }
    }

    pub(super) fn compare_scalars(&mut self, g: &Expr, p: &Expr) -> Equivalence {
        if has_nested_compound(g) || has_nested_compound(p) {
            return Equivalence::NotEqual;
        }
        if let (Some(a), Some(b)) = (is_infinity(g), is_infinity(p)) {
            self.note(Stage::Numeric);
            return Equivalence::from_bool(a == b);
        }
        if is_infinity(g).is_some() || is_infinity(p).is_some() {
            self.note(Stage::Numeric);
            return Equivalence::NotEqual;
        }
        let literals = g.is_number_literal() && p.is_number_literal();
        if self.opts.strict && !literals {
            self.note(Stage::Symbolic);
            return Equivalence::NotEqual;
        }
        let mut budget = Budget::new(self.opts.max_digits, self.opts.max_exponent_bits);
        let gv = exact::eval(g, &mut budget);
        let pv = if gv.is_some() {
            exact::eval(p, &mut budget)
        } else {
            None
        };
        self.over_budget |= budget.over;
        let (dg, dp) = (decimals_of(g), decimals_of(p));
        if let (Some(a), Some(b)) = (&gv, &pv) {
            self.note(if literals {
                Stage::Numeric
            } else {
                Stage::Symbolic
            });
            if self.opts.strict && !strict_literal_equal(g, p, a, b) {
                return Equivalence::NotEqual;
            }
            return Equivalence::from_bool(self.rounded_equal_exact(a, dg, b, dp));
        }
        if self.opts.strict {
            return Equivalence::NotEqual;
        }
        self.note(Stage::Symbolic);
        let mut vars = g.free_symbols();
        vars.extend(p.free_symbols());
        vars.sort();
        vars.dedup();
        if vars.is_empty() {
            let env = Env::random(&[], &[], 1);
            let (Some(a), Some(b)) = (numeric::eval(g, &env), numeric::eval(p, &env)) else {
                return Equivalence::Undecided;
            };
            if let Some(d) = dg.or(dp).filter(|_| self.opts.rounding_tolerance) {
                if dg.is_some() != dp.is_some() || dg == dp {
                    let tol = 0.5 * 10f64.powi(-(d as i32));
                    let diff = (a - b).norm();
                    let slack = 8.0 * f64::EPSILON * a.norm().max(b.norm());
                    return Equivalence::from_bool(diff <= tol + slack);
                }
            }
            return self.decide_close(a, b);
        }
        self.random_points(g, p, &vars)
    }

    fn rounded_equal_exact(
        &self,
        a: &BigRational,
        da: Option<u32>,
        b: &BigRational,
        db: Option<u32>,
    ) -> bool {
        if a == b {
            return true;
        }
        if !self.opts.rounding_tolerance {
            return false;
        }
        // The coarser decimal (fewer written places) and the finer value it may round.
        let (coarse, d, fine, fine_places) = match (da, db) {
            (None, None) => return false,
            (Some(d), None) => (a, d, b, None),
            (None, Some(d)) => (b, d, a, None),
            (Some(x), Some(y)) if x <= y => (a, x, b, Some(y)),
            (Some(x), Some(y)) => (b, y, a, Some(x)),
        };
        // A machine-rounded decimal (six or more significant digits) on either side is the
        // evidence that the value is not exact: `0.0666668` for `0.066666793`, and the other way
        // `26.6667` for `26.67` (as `80/3` is). Otherwise a finite decimal form is exact.
        let machine_rounded = |v: &BigRational, places: u32| {
            exact::significant_digits(v, places) >= MACHINE_ROUNDED_DIGITS
        };
        if self.opts.finite_decimals == FiniteDecimals::Exact
            && exact::has_finite_decimal_form(fine)
            && !machine_rounded(coarse, d)
            && !fine_places.is_some_and(|f| machine_rounded(fine, f))
        {
            return false;
        }
        exact::within_half_ulp(a, b, d)
    }

    pub(super) fn decide_close(&self, a: C, b: C) -> Equivalence {
        if close(a, b, REL_EQUAL) {
            Equivalence::Equal
        } else if !close(a, b, REL_DIFFERENT) {
            Equivalence::NotEqual
        } else {
            Equivalence::Undecided
        }
    }

    /// Schwartz–Zippel style identity test: equal at several random points (positive reals,
    /// small integers for summation bounds and factorials) means equal.
    fn random_points(&mut self, g: &Expr, p: &Expr, vars: &[String]) -> Equivalence {
        let ints = integer_vars(g, p);
        let mut valid = 0;
        let mut undecided = false;
        for k in 0..POINTS * 2 {
            let env = Env::random(vars, &ints, 0xabcd_0000 + k as u64);
            let (a, b) = (numeric::eval(g, &env), numeric::eval(p, &env));
            match (a, b) {
                (Some(a), Some(b)) => match self.decide_close(a, b) {
                    Equivalence::NotEqual => return Equivalence::NotEqual,
                    Equivalence::Undecided => undecided = true,
                    Equivalence::Equal => valid += 1,
                },
                (None, None) => {}
                _ => undecided = true,
            }
            if valid >= POINTS {
                break;
            }
        }
        if valid >= MIN_VALID_POINTS && !undecided {
            Equivalence::Equal
        } else {
            Equivalence::Undecided
        }
    }
}

/// Written decimals of a decimal literal that may be compared by rounding. A decimal with
/// fewer than two significant digits is exact (`0.3` is not `\frac13`; `0.33` is), the same rule
/// as the number checker's (`rust/number/compare.rs`).
fn decimals_of(e: &Expr) -> Option<u32> {
    match e {
        Expr::Num(n) => {
            let d = n.decimals.filter(|d| *d > 0)?;
            let scaled =
                &n.value * BigRational::from_integer(num_bigint::BigInt::from(10u32).pow(d));
            let digits = scaled
                .to_integer()
                .to_string()
                .trim_start_matches(['-', '0'])
                .len();
            (digits >= 2).then_some(d)
        }
        Expr::Neg(a) => decimals_of(a),
        // Scientific notation, `d \times 10^{k}` / `d \cdot 10^{k}`: the mantissa's written places
        // shifted by k (`3.7037 \times 10^{-3}` is written to 7 places), like `0.0037037`.
        Expr::Mul(v) if v.len() == 2 => {
            let k = power_of_ten_exponent(&v[1])?;
            let d = i64::from(decimals_of(&v[0])?) - k;
            (d > 0).then(|| u32::try_from(d).ok()).flatten()
        }
        _ => None,
    }
}

/// Does `e` hold a decimal literal (written with decimal places, two or more significant digits)
/// below its top, inside a larger expression?
fn has_inner_decimal(e: &Expr) -> bool {
    if decimals_of(e).is_some() {
        return false;
    }
    let mut found = false;
    e.walk(&mut |x| found |= matches!(x, Expr::Num(_)) && decimals_of(x).is_some());
    found
}

/// `k` when `e` is `10^{k}` with an integer literal `k` (possibly negative).
fn power_of_ten_exponent(e: &Expr) -> Option<i64> {
    use num_traits::ToPrimitive;
    let Expr::Pow(base, exp) = e else {
        return None;
    };
    let ten = BigRational::from_integer(num_bigint::BigInt::from(10u32));
    match base.as_ref() {
        Expr::Num(b) if b.value == ten && b.decimals.is_none_or(|d| d == 0) => {}
        _ => return None,
    }
    let int = |n: &crate::latex::ast::Number| {
        (n.value.is_integer() && n.decimals.is_none_or(|d| d == 0))
            .then(|| n.value.to_integer().to_i64())
            .flatten()
    };
    match exp.as_ref() {
        Expr::Num(n) => int(n).filter(|k| k.abs() <= 400),
        Expr::Neg(x) => match x.as_ref() {
            Expr::Num(n) => int(n).map(|k| -k).filter(|k| k.abs() <= 400),
            _ => None,
        },
        _ => None,
    }
}

/// Arithmetic on a collection (`-[0,1)`, `2\{1\}`): never equal to a plain value.
fn has_nested_compound(e: &Expr) -> bool {
    let mut found = false;
    crate::latex::ast::for_each_child(e, &mut |c| {
        found |= c.contains(&|x| is_compound(x) && !matches!(x, Expr::Relation(..)))
    });
    found
}

/// Strict mode: values must agree *as written* up to trivial rewriting: an integer never
/// equals an unreduced fraction (`649` vs `3245/5`).
fn strict_literal_equal(g: &Expr, p: &Expr, a: &BigRational, b: &BigRational) -> bool {
    if a != b {
        return false;
    }
    let frac = |e: &Expr| match e {
        Expr::Div(x, y) => Some((x.clone(), y.clone())),
        Expr::Neg(inner) => match inner.as_ref() {
            Expr::Div(x, y) => Some((x.clone(), y.clone())),
            _ => None,
        },
        _ => None,
    };
    match (frac(g), frac(p)) {
        (Some(_), None) | (None, Some(_)) => !a.is_integer(),
        _ => true,
    }
}

/// The words an expression spells, for comparing with `\text{}` answers: `\text{(C)}` -> "c",
/// `Even` (a product of letters) -> "even".
/// The lower-cased word when `s` is one plain word: letters only (a final period allowed), three
/// or more of them, or "yes"/"no" in any case. (Two letters stay algebra: `BA` is `AB`, as the
/// segment and as the product.)
fn plain_word(s: &str) -> Option<String> {
    let w = s.trim().trim_end_matches('.');
    if w.is_empty() || !w.chars().all(char::is_alphabetic) {
        return None;
    }
    let lower = w.to_lowercase();
    (w.chars().count() >= 3 || lower == "no").then_some(lower)
}

fn text_form(e: &Expr) -> Option<String> {
    let raw = match e {
        Expr::Text(t) => t.clone(),
        _ => letters(e)?,
    };
    let t: String = raw
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_lowercase();
    let t = t.trim_end_matches('.');
    let t = t
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(t);
    Some(t.to_string())
}

fn letters(e: &Expr) -> Option<String> {
    match e {
        Expr::Sym(n, None) => Some(n.clone()),
        Expr::Const(Constant::E) => Some("e".into()),
        Expr::Const(Constant::I) => Some("i".into()),
        Expr::Const(Constant::Pi) => Some("pi".into()),
        Expr::Mul(v) => v.iter().map(letters).collect(),
        Expr::Tuple(v) if v.len() == 1 => letters(&v[0]),
        _ => None,
    }
}
