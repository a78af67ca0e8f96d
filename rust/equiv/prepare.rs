//! Answer-level rewriting before two answers are compared: the literal form, decimal commas,
//! names (`x = 5`, `f(x) = 5`), `\pm` expansion, assignment chains and `\approx` tails, and
//! matrix arithmetic folded into one matrix.

use crate::latex::ast::map_children;
use crate::latex::{Expr, Func, RelOp};

/// At most 2^4 sign choices for `\pm`.
const MAX_PM: usize = 4;

/// Answer-level normal form: `x \in S` -> S, assignment chains cut, `\approx` tails
/// dropped, matrix arithmetic folded.
pub(super) fn prepare(e: &Expr) -> Expr {
    match e {
        Expr::In(x, s) if is_label(x) => prepare(s),
        Expr::Relation(v, ops) if ops.iter().all(|o| matches!(o, RelOp::Eq | RelOp::Approx)) => {
            let mut v = v.clone();
            let mut ops = ops.clone();
            if let Some(k) = ops.iter().position(|o| *o == RelOp::Approx) {
                // `x = 1/3 \approx 0.33` and `\frac13 \approx 0.33`: the exact value counts, the
                // rounded tail never does; `x \approx 11` (a name on the left) keeps 11.
                if k >= 1 {
                    v.truncate(k + 1);
                    ops.truncate(k);
                } else if is_label(&v[0]) {
                    ops[0] = RelOp::Eq;
                    v.truncate(2);
                    ops.truncate(1);
                } else {
                    return prepare(&v[0]);
                }
            }
            if v.len() >= 3 {
                // `x = 5 + 5 + 1 = 11`: first and last member; a non-name first member
                // becomes a placeholder name so the last member is the answer.
                let first = v.remove(0);
                let last = v.pop().unwrap();
                let first = if is_label(&first) {
                    first
                } else {
                    Expr::sym("__chain")
                };
                return Expr::Relation(vec![first, prepare(&last)], vec![RelOp::Eq]);
            }
            if v.len() == 1 {
                return v.pop().unwrap();
            }
            Expr::Relation(v.iter().map(prepare).collect(), ops)
        }
        Expr::List(k, items) => {
            // `\frac{\pi}{4} + k\pi, k \in \mathbb{Z}`: the range of the answer's integer
            // parameter is no part of its value.
            let kept: Vec<&Expr> = items.iter().filter(|x| !integer_parameter(x)).collect();
            match kept.as_slice() {
                [one] if kept.len() < items.len() => prepare(one),
                _ if kept.len() < items.len() && !kept.is_empty() => {
                    Expr::List(*k, kept.into_iter().map(prepare).collect())
                }
                _ => Expr::List(*k, items.iter().map(prepare).collect()),
            }
        }
        Expr::Set(items) => Expr::Set(items.iter().map(prepare).collect()),
        _ => {
            if !matches!(e, Expr::Matrix(_)) && e.contains(&|x| matches!(x, Expr::Matrix(_))) {
                if let Some(m) = fold_matrix(e) {
                    return Expr::Matrix(m);
                }
            }
            e.clone()
        }
    }
}

/// `k \in \mathbb{Z}`, `n \in \mathbb{N}`: a one-letter name ranging over the integers or the
/// naturals.
fn integer_parameter(e: &Expr) -> bool {
    match e {
        Expr::In(x, set) => {
            matches!(x.as_ref(), Expr::Sym(n, None) if n.len() == 1)
                && matches!(set.as_ref(), Expr::Sym(s, None) if matches!(s.as_str(), "Z" | "N"))
        }
        _ => false,
    }
}

/// The string the literal path compares: no spaces, delimiters, sizing or spacing commands.
pub(super) fn literal_form(s: &str) -> String {
    let t = crate::scan::replace::replace_each(
        s.to_string(),
        &[
            ("\\left", ""),
            ("\\right", ""),
            ("\\dfrac", "\\frac"),
            ("\\tfrac", "\\frac"),
            ("\\displaystyle", ""),
            ("\\!", ""),
            ("\\,", ""),
            ("\\;", ""),
            ("\\:", ""),
            ("\\quad", ""),
            ("\\(", ""),
            ("\\)", ""),
            ("\\[", ""),
            ("\\]", ""),
            ("$", ""),
        ],
    );
    let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    t.trim_end_matches('.').to_string()
}

/// `1,5` / `0,111` / `1000,99` read with a decimal comma, when the text is exactly that.
pub(super) fn decimal_comma(s: &str) -> Option<String> {
    let t = s.trim().trim_matches('$').trim();
    let (a, b) = t.split_once(',')?;
    let ok = !a.is_empty()
        && !b.is_empty()
        && a.trim_start_matches('-')
            .chars()
            .all(|c| c.is_ascii_digit())
        && b.chars().all(|c| c.is_ascii_digit());
    ok.then(|| format!("{a}.{b}"))
}

/// Names an answer may be given under: `x`, `a_3`, `f(x)`, `|AB|`, `AB`, `A:B`, `(p, q)`.
pub(super) fn is_label(e: &Expr) -> bool {
    match e {
        Expr::Sym(..) => true,
        Expr::Apply(_, args) => args
            .iter()
            .all(|a| matches!(a, Expr::Sym(..) | Expr::Num(_))),
        Expr::Func(Func::Abs, v) => is_label(&v[0]),
        Expr::Mul(v) | Expr::Ratio(v) | Expr::Tuple(v) => v.iter().all(is_label),
        Expr::Div(a, b) => is_label(a) && is_label(b),
        _ => false,
    }
}

pub(super) fn single_equation(e: &Expr) -> Option<(&Expr, &Expr)> {
    match e {
        Expr::Relation(v, ops) if ops.len() == 1 && matches!(ops[0], RelOp::Eq | RelOp::Approx) => {
            Some((&v[0], &v[1]))
        }
        _ => None,
    }
}

/// Replace each `\pm` by `+` or `-` in every combination (at most 2^MAX_PM results).
pub(super) fn expand_pm(e: &Expr) -> Vec<Expr> {
    let mut count = 0;
    e.walk(&mut |x| {
        if matches!(x, Expr::PlusMinus(_)) {
            count += 1
        }
    });
    if count == 0 || count > MAX_PM {
        return vec![e.clone()];
    }
    (0..1usize << count)
        .map(|mask| {
            let mut idx = 0;
            choose_signs(e, mask, &mut idx)
        })
        .collect()
}

fn choose_signs(e: &Expr, mask: usize, idx: &mut usize) -> Expr {
    match e {
        Expr::PlusMinus(a) => {
            let bit = (mask >> *idx) & 1;
            *idx += 1;
            let inner = choose_signs(a, mask, idx);
            if bit == 1 {
                Expr::Neg(Box::new(inner))
            } else {
                inner
            }
        }
        _ => {
            // map_children takes a shared closure; thread the counter through a Cell.
            let cell = std::cell::Cell::new(*idx);
            let out = map_children(e, &|c| {
                let mut i = cell.get();
                let r = choose_signs(c, mask, &mut i);
                cell.set(i);
                r
            });
            *idx = cell.get();
            out
        }
    }
}

/// Fold matrix arithmetic (`A + B`, `2A`, `AB`) into one matrix of cell expressions.
fn fold_matrix(e: &Expr) -> Option<Vec<Vec<Expr>>> {
    match e {
        Expr::Matrix(rows) => Some(rows.clone()),
        Expr::Neg(a) => Some(
            fold_matrix(a)?
                .into_iter()
                .map(|r| r.into_iter().map(|c| Expr::Neg(Box::new(c))).collect())
                .collect(),
        ),
        Expr::Add(items) => {
            let mats: Vec<Vec<Vec<Expr>>> = items.iter().map(fold_matrix).collect::<Option<_>>()?;
            let (r, c) = (mats[0].len(), mats[0][0].len());
            if mats.iter().any(|m| m.len() != r || m[0].len() != c) {
                return None;
            }
            Some(
                (0..r)
                    .map(|i| {
                        (0..c)
                            .map(|j| Expr::Add(mats.iter().map(|m| m[i][j].clone()).collect()))
                            .collect()
                    })
                    .collect(),
            )
        }
        Expr::Mul(items) => {
            let mut acc: Option<Vec<Vec<Expr>>> = None;
            let mut scalar: Vec<Expr> = Vec::new();
            for it in items {
                match fold_matrix(it) {
                    Some(m) => {
                        acc = Some(match acc {
                            None => m,
                            Some(a) => {
                                if a[0].len() != m.len() {
                                    return None;
                                }
                                (0..a.len())
                                    .map(|i| {
                                        (0..m[0].len())
                                            .map(|j| {
                                                Expr::Add(
                                                    (0..m.len())
                                                        .map(|k| {
                                                            Expr::Mul(vec![
                                                                a[i][k].clone(),
                                                                m[k][j].clone(),
                                                            ])
                                                        })
                                                        .collect(),
                                                )
                                            })
                                            .collect()
                                    })
                                    .collect()
                            }
                        })
                    }
                    None => {
                        if it.contains(&|x| matches!(x, Expr::Matrix(_))) {
                            return None;
                        }
                        scalar.push(it.clone())
                    }
                }
            }
            let m = acc?;
            if scalar.is_empty() {
                return Some(m);
            }
            Some(
                m.into_iter()
                    .map(|r| {
                        r.into_iter()
                            .map(|c| {
                                Expr::Mul(
                                    scalar.iter().cloned().chain(std::iter::once(c)).collect(),
                                )
                            })
                            .collect()
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}
