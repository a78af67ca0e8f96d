//! Collections and sets of reals: lists, sets and `\pm` values compared as unordered bags
//! (duplicates removed), tuples in order against bare lists, and intervals, unions and
//! one-variable inequalities compared by membership at their boundaries.

use super::context::{is_compound, is_infinity, Ctx, Stage};
use super::numeric::{self, Env, C};
use super::prepare::{expand_pm, is_label, single_equation};
use super::relations::{is_inequality, simple_relations};
use super::Equivalence;
use crate::latex::ast::canonical;
use crate::latex::{Expr, ListKind, RelOp};

/// Largest collection compared element by element.
const MAX_ELEMENTS: usize = 64;

pub(super) fn is_bag(e: &Expr) -> bool {
    matches!(e, Expr::List(..) | Expr::Set(_))
}

pub(super) fn is_realset(e: &Expr) -> bool {
    matches!(e, Expr::Interval(..) | Expr::Union(_) | Expr::EmptySet)
}

/// The elements of an answer read as a collection: labels dropped, `\pm` expanded,
/// `p=5,q=2; p=7,q=2` read as tuples.
pub(super) fn elements(e: &Expr) -> Vec<Expr> {
    let mut out = Vec::new();
    match e {
        Expr::List(ListKind::Group, groups) => {
            let tuple_groups = groups.len() > 1
                && groups.iter().all(|g| {
                    matches!(g, Expr::List(ListKind::Comma, items) if items.len() >= 2 && items.iter().all(|x| single_equation(x).is_some_and(|(l, _)| is_label(l))))
                });
            for g in groups {
                if tuple_groups {
                    if let Expr::List(_, items) = g {
                        let vals = items
                            .iter()
                            .map(|x| single_equation(x).unwrap().1.clone())
                            .collect();
                        out.push(Expr::Tuple(vals));
                    }
                } else {
                    out.extend(elements(g));
                }
            }
        }
        Expr::List(ListKind::Comma, items) | Expr::Set(items) => {
            for x in items {
                let x = match single_equation(x) {
                    Some((l, r)) if is_label(l) => r.clone(),
                    _ => x.clone(),
                };
                let x = match x {
                    Expr::In(l, s) if is_label(&l) => *s,
                    x => x,
                };
                if let Expr::List(..) = x {
                    out.extend(elements(&x));
                } else {
                    out.extend(expand_pm(&x));
                }
            }
        }
        _ => {
            let x = match single_equation(e) {
                Some((l, r)) if is_label(l) => r.clone(),
                _ => e.clone(),
            };
            out.extend(expand_pm(&x));
        }
    }
    out
}

/// `a=3, b=-4`: a comma list whose items all name a value, the names all different (two or
/// more); the names (canonical text) and values in written order. `x=3, x=5` (solutions of one
/// unknown) is not one.
fn named_values(e: &Expr) -> Option<Vec<(String, &Expr)>> {
    let Expr::List(ListKind::Comma, items) = e else {
        return None;
    };
    if items.len() < 2 {
        return None;
    }
    let mut out: Vec<(String, &Expr)> = Vec::with_capacity(items.len());
    for x in items {
        let (l, r) = single_equation(x).filter(|(l, _)| is_label(l))?;
        let name = canonical(l).to_string();
        if out.iter().any(|(n, _)| *n == name) {
            return None;
        }
        out.push((name, r));
    }
    Some(out)
}

impl Ctx<'_> {
    /// Values named by the gold (`a=3, b=-4`): each against the response's value of the same
    /// name, or against its bare list in written order; never as an unordered bag, where
    /// `a=-4, b=3` would pass (issue 33).
    fn compare_named(&mut self, gn: &[(String, &Expr)], p: &Expr) -> Option<Equivalence> {
        let pairs: Vec<(Expr, Expr)> = if let Some(pn) = named_values(p) {
            if pn.len() != gn.len() {
                return Some(Equivalence::NotEqual);
            }
            let mut pairs = Vec::with_capacity(gn.len());
            for (name, gv) in gn {
                // Other names (`x, y` against `a, b`): the bag comparison decides.
                let (_, pv) = pn.iter().find(|(n, _)| n == name)?;
                pairs.push(((*gv).clone(), (*pv).clone()));
            }
            pairs
        } else {
            let pe = match p {
                Expr::List(ListKind::Comma, items) | Expr::Tuple(items) => items,
                _ => return None,
            };
            if pe.len() != gn.len() || pe.iter().any(|x| single_equation(x).is_some()) {
                return None;
            }
            gn.iter()
                .map(|(_, gv)| (*gv).clone())
                .zip(pe.iter().cloned())
                .collect()
        };
        let (a, b): (Vec<Expr>, Vec<Expr>) = pairs.into_iter().unzip();
        Some(self.compare_seq(&a, &b))
    }

    pub(super) fn compare_collections(&mut self, g: &Expr, p: &Expr) -> Equivalence {
        if let Some(gn) = named_values(g) {
            if let Some(r) = self.compare_named(&gn, p) {
                return r;
            }
        }

        // A tuple against a bare list or set: compare in written order (`(1,3)` = `{1,3}`,
        // `(3,1)` != `{1,3}`).
        if let (Expr::Tuple(a), b) | (b, Expr::Tuple(a)) = (g, p) {
            if is_bag(b) {
                let be = elements(b);
                if be.len() == a.len() {
                    return if matches!(g, Expr::Tuple(_)) {
                        self.compare_seq(a, &be)
                    } else {
                        self.compare_seq(&be, a)
                    };
                }
            }
        }
        let ge = elements(g);
        let pe = elements(p);
        self.compare_bags(&ge, &pe)
    }

    /// Unordered comparison with duplicates removed.
    pub(super) fn compare_bags(&mut self, ge: &[Expr], pe: &[Expr]) -> Equivalence {
        if ge.len() > MAX_ELEMENTS || pe.len() > MAX_ELEMENTS {
            self.over_budget = true;
            return Equivalence::Undecided;
        }
        let ge = self.dedup(ge);
        let pe = self.dedup(pe);
        if ge.len() != pe.len() {
            return Equivalence::NotEqual;
        }
        let mut used = vec![false; pe.len()];
        let mut undecided = false;
        for x in &ge {
            let mut found = false;
            for (j, y) in pe.iter().enumerate() {
                if used[j] {
                    continue;
                }
                match self.compare(x, y) {
                    Equivalence::Equal => {
                        used[j] = true;
                        found = true;
                        break;
                    }
                    Equivalence::Undecided => undecided = true,
                    Equivalence::NotEqual => {}
                }
            }
            if !found {
                return if undecided {
                    Equivalence::Undecided
                } else {
                    Equivalence::NotEqual
                };
            }
        }
        Equivalence::Equal
    }

    fn dedup(&mut self, items: &[Expr]) -> Vec<Expr> {
        let mut kept: Vec<Expr> = Vec::new();
        let stage = self.stage;
        for x in items {
            let dup = kept.iter().any(|k| {
                let key_eq = canonical(k).to_string() == canonical(x).to_string();
                key_eq || self.compare(k, x) == Equivalence::Equal
            });
            if !dup {
                kept.push(x.clone());
            }
        }
        // Deduplication is bookkeeping, not the decision.
        self.stage = stage;
        kept
    }

    /// Sets of reals (intervals, unions, inequalities in one variable) compared by membership
    /// at every endpoint, just inside and outside it, between endpoints and far out.
    pub(super) fn compare_realsets(&mut self, g: &Expr, p: &Expr) -> Equivalence {
        self.note(Stage::Symbolic);
        let (Some(gs), Some(ps)) = (to_realset(g), to_realset(p)) else {
            return if is_compound(g) && is_compound(p) {
                Equivalence::NotEqual
            } else {
                Equivalence::Undecided
            };
        };
        if let (RealSet::Cond(_, gv), RealSet::Cond(_, pv)) = (&gs, &ps) {
            if gv != pv {
                return Equivalence::NotEqual;
            }
        }
        let mut cands = Vec::new();
        gs.boundaries(&mut cands);
        ps.boundaries(&mut cands);
        let mut extra: Vec<f64> = cands.iter().map(|c| -c).collect();
        cands.append(&mut extra);
        cands.retain(|c| c.is_finite());
        cands.sort_by(|a, b| a.partial_cmp(b).unwrap());
        cands.dedup();
        let mut points = vec![0.0, 1e9, -1e9, 0.5, -0.5];
        for (k, c) in cands.iter().enumerate() {
            let d = 1e-7 * c.abs().max(1.0);
            points.extend([*c, c - d, c + d]);
            if let Some(n) = cands.get(k + 1) {
                points.push((c + n) / 2.0);
            }
        }
        if let (Some(lo), Some(hi)) = (cands.first(), cands.last()) {
            points.extend([lo - 1.0, hi + 1.0]);
        }
        for x in points {
            match (gs.contains(x), ps.contains(x)) {
                (Some(a), Some(b)) if a != b => return Equivalence::NotEqual,
                (Some(_), Some(_)) => {}
                _ => return Equivalence::Undecided,
            }
        }
        Equivalence::Equal
    }
}

/// A subset of the real line.
enum RealSet {
    Interval(f64, f64, bool, bool),
    Points(Vec<f64>),
    Union(Vec<RealSet>),
    /// Relations in one variable (the name is kept to check both sides use the same one).
    Cond(Vec<(Expr, RelOp)>, String),
}

fn real_value(e: &Expr) -> Option<f64> {
    if let Some(s) = is_infinity(e) {
        return Some(s as f64 * f64::INFINITY);
    }
    let v = numeric::eval(e, &Env::random(&[], &[], 1))?;
    (v.im.abs() <= 1e-12 * v.re.abs().max(1.0)).then_some(v.re)
}

fn to_realset(e: &Expr) -> Option<RealSet> {
    match e {
        Expr::Interval(a, b, lc, hc) => {
            Some(RealSet::Interval(real_value(a)?, real_value(b)?, *lc, *hc))
        }
        Expr::Tuple(v) if v.len() == 2 => {
            let (a, b) = (real_value(&v[0])?, real_value(&v[1])?);
            (a < b).then_some(RealSet::Interval(a, b, false, false))
        }
        Expr::Union(parts) => Some(RealSet::Union(
            parts.iter().map(to_realset).collect::<Option<_>>()?,
        )),
        Expr::Set(items) => Some(RealSet::Points(
            items.iter().map(real_value).collect::<Option<_>>()?,
        )),
        Expr::EmptySet => Some(RealSet::Union(Vec::new())),
        Expr::In(_, s) => to_realset(s),
        // `lo < f(x) <= hi` with a named middle is the interval (lo, hi].
        Expr::Relation(v, ops)
            if ops.len() == 2
                && matches!(v[1], Expr::Sym(..) | Expr::Apply(..))
                && v[0].free_symbols().is_empty()
                && v[2].free_symbols().is_empty()
                && (ops.iter().all(|o| matches!(o, RelOp::Lt | RelOp::Le))
                    || ops.iter().all(|o| matches!(o, RelOp::Gt | RelOp::Ge))) =>
        {
            let (a, b) = (real_value(&v[0])?, real_value(&v[2])?);
            if matches!(ops[0], RelOp::Lt | RelOp::Le) {
                Some(RealSet::Interval(
                    a,
                    b,
                    ops[0] == RelOp::Le,
                    ops[1] == RelOp::Le,
                ))
            } else {
                Some(RealSet::Interval(
                    b,
                    a,
                    ops[1] == RelOp::Ge,
                    ops[0] == RelOp::Ge,
                ))
            }
        }
        Expr::Relation(v, ops) if is_inequality(e) => {
            let mut vars = Vec::new();
            for x in v {
                vars.extend(x.free_symbols());
            }
            vars.sort();
            vars.dedup();
            if vars.len() != 1 {
                return None;
            }
            Some(RealSet::Cond(simple_relations(v, ops), vars.pop().unwrap()))
        }
        _ => None,
    }
}

impl RealSet {
    fn boundaries(&self, out: &mut Vec<f64>) {
        match self {
            RealSet::Interval(a, b, _, _) => out.extend([*a, *b]),
            RealSet::Points(v) => out.extend(v),
            RealSet::Union(parts) => parts.iter().for_each(|p| p.boundaries(out)),
            RealSet::Cond(rels, var) => {
                // Constant members of the relations are likely boundaries.
                for (d, _) in rels {
                    if let Expr::Add(v) = d {
                        for x in v {
                            if x.free_symbols().is_empty() {
                                if let Some(c) = real_value(x) {
                                    out.push(c);
                                    out.push(-c);
                                }
                            }
                        }
                    }
                }
                let _ = var;
            }
        }
    }

    fn contains(&self, x: f64) -> Option<bool> {
        match self {
            RealSet::Interval(a, b, lc, hc) => {
                let lo_ok = if *lc { x >= *a } else { x > *a };
                let hi_ok = if *hc { x <= *b } else { x < *b };
                Some(lo_ok && hi_ok)
            }
            RealSet::Points(v) => Some(v.iter().any(|p| (p - x).abs() <= 1e-12 * p.abs().max(1.0))),
            RealSet::Union(parts) => {
                let mut any = false;
                for p in parts {
                    any |= p.contains(x)?;
                }
                Some(any)
            }
            RealSet::Cond(rels, var) => {
                let mut env = Env::random(&[], &[], 1);
                env.vars.insert(var.clone(), C::new(x, 0.0));
                for (d, op) in rels {
                    let v = numeric::eval(d, &env)?;
                    if v.im.abs() > 1e-9 * v.re.abs().max(1.0) {
                        return Some(false);
                    }
                    let zero = v.re.abs() <= 1e-9 * x.abs().max(1.0);
                    let ok = match op {
                        RelOp::Lt => v.re < 0.0 && !zero,
                        RelOp::Le => v.re < 0.0 || zero,
                        RelOp::Ne => !zero,
                        _ => zero,
                    };
                    if !ok {
                        return Some(false);
                    }
                }
                Some(true)
            }
        }
    }
}
