//! Relations: equations and inequalities compared as sets of `d op 0` conditions, each side
//! proportional to the other (by a positive constant for inequalities), tested at random points.

use super::context::{integer_vars, Ctx, Stage, MIN_VALID_POINTS, POINTS};
use super::numeric::{self, close, Env, C};
use super::prepare::is_label;
use super::Equivalence;
use crate::latex::ast::canonical;
use crate::latex::{Expr, RelOp};

pub(super) fn is_inequality(e: &Expr) -> bool {
    matches!(e, Expr::Relation(_, ops) if ops.iter().all(|o| matches!(o, RelOp::Lt | RelOp::Le | RelOp::Gt | RelOp::Ge | RelOp::Ne)))
}

/// `d op 0` relations: `a < b` is `(a - b, Lt)`, `a > b` is `(b - a, Lt)`.
pub(super) fn simple_relations(v: &[Expr], ops: &[RelOp]) -> Vec<(Expr, RelOp)> {
    let diff = |a: &Expr, b: &Expr| Expr::Add(vec![a.clone(), Expr::Neg(Box::new(b.clone()))]);
    ops.iter()
        .enumerate()
        .map(|(k, op)| {
            let (a, b) = (&v[k], &v[k + 1]);
            match op {
                RelOp::Lt => (diff(a, b), RelOp::Lt),
                RelOp::Le => (diff(a, b), RelOp::Le),
                RelOp::Gt => (diff(b, a), RelOp::Lt),
                RelOp::Ge => (diff(b, a), RelOp::Le),
                RelOp::Ne => (diff(a, b), RelOp::Ne),
                RelOp::Eq | RelOp::Approx => (diff(a, b), RelOp::Eq),
            }
        })
        .collect()
}

/// A name on the left of a definition: a symbol (`y`) or a function of symbols (`f(x)`, `h(s,t)`).
fn is_name(e: &Expr) -> bool {
    match e {
        Expr::Sym(..) => true,
        Expr::Apply(_, args) => !args.is_empty() && args.iter().all(|a| matches!(a, Expr::Sym(..))),
        _ => false,
    }
}

impl Ctx<'_> {
    pub(super) fn compare_relations(&mut self, g: &Expr, p: &Expr) -> Equivalence {
        let (Expr::Relation(gv, gops), Expr::Relation(pv, pops)) = (g, p) else {
            return Equivalence::Undecided;
        };
        // Same name on the left: compare the values (`x = 11` vs `x = 7 = 11`).
        if gops.len() == 1 && pops.len() == 1 && gops[0] == RelOp::Eq && pops[0] == RelOp::Eq {
            if is_label(&gv[0])
                && is_label(&pv[0])
                && canonical(&gv[0]).to_string() == canonical(&pv[0]).to_string()
            {
                return self.compare(&gv[1], &pv[1]);
            }
            if gv[0] == Expr::sym("__chain") || pv[0] == Expr::sym("__chain") {
                return self.compare(&gv[1], &pv[1]);
            }
            // Different names on the left (`f(x) = 2x+3` vs `y = 2x+3`): the name is dropped on
            // either side, so equal right sides are the same answer. Otherwise the relations are
            // compared as equations below (`y = x+1` is `x = y-1`).
            if is_name(&gv[0])
                && is_name(&pv[0])
                && self.compare(&gv[1], &pv[1]) == Equivalence::Equal
            {
                return Equivalence::Equal;
            }
        }
        let gs = simple_relations(gv, gops);
        let ps = simple_relations(pv, pops);
        if self.opts.strict {
            return Equivalence::NotEqual;
        }
        if gs.len() == ps.len() {
            let mut all = true;
            let mut undecided = false;
            let mut used = vec![false; ps.len()];
            for (gd, gop) in &gs {
                let mut found = false;
                for (j, (pd, pop)) in ps.iter().enumerate() {
                    if used[j] || gop != pop {
                        continue;
                    }
                    match self.proportional(gd, pd, *gop) {
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
                    all = false;
                    break;
                }
            }
            if all {
                return Equivalence::Equal;
            }
            if undecided && !is_inequality(g) {
                return Equivalence::Undecided;
            }
        }
        if is_inequality(g) && is_inequality(p) {
            return self.compare_realsets(g, p);
        }
        Equivalence::NotEqual
    }

    /// Is `a = c * b` for a constant `c` (positive for inequalities)? Tested at random points.
    fn proportional(&mut self, a: &Expr, b: &Expr, op: RelOp) -> Equivalence {
        self.note(Stage::Symbolic);
        let mut vars = a.free_symbols();
        vars.extend(b.free_symbols());
        vars.sort();
        vars.dedup();
        if vars.is_empty() {
            return Equivalence::Undecided;
        }
        let ints = integer_vars(a, b);
        let mut ratio: Option<C> = None;
        let mut valid = 0;
        for k in 0..POINTS * 2 {
            let env = Env::random(&vars, &ints, 0x5eed_0000 + k as u64);
            let (Some(x), Some(y)) = (numeric::eval(a, &env), numeric::eval(b, &env)) else {
                continue;
            };
            let (zx, zy) = (x.norm() < 1e-12, y.norm() < 1e-12);
            if zx && zy {
                continue;
            }
            if zx != zy {
                return Equivalence::NotEqual;
            }
            let r = x / y;
            match ratio {
                None => ratio = Some(r),
                Some(r0) => {
                    if !close(r0, r, 1e-7) {
                        return Equivalence::NotEqual;
                    }
                }
            }
            valid += 1;
            if valid >= POINTS {
                break;
            }
        }
        let Some(r) = ratio else {
            return Equivalence::Undecided;
        };
        if valid < MIN_VALID_POINTS {
            return Equivalence::Undecided;
        }
        if r.im.abs() > 1e-9 * r.norm() {
            return Equivalence::NotEqual;
        }
        if matches!(op, RelOp::Lt | RelOp::Le) && r.re <= 0.0 {
            return Equivalence::NotEqual;
        }
        Equivalence::Equal
    }
}
