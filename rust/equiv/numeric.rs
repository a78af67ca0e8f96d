//! Floating-point evaluation (complex `f64`) at a point, for irrational constants and for
//! random-point identity testing of expressions with free variables.
//!
//! Any non-finite intermediate (overflow, division by zero) gives `None`: an overflowing power
//! tower is "cannot tell", never "equal to another overflow". Unknown functions `f(x)` and
//! indexed symbols `a_{n-1}` get pseudo-random values from a hash of their name and argument
//! values, so `f(x)` and `f(y)` differ and `\sum_k F_k F_{n-k}` can be compared.

use crate::latex::{BigOp, Constant, Expr, Func};
use num_complex::Complex64;
use num_integer::gcd;
use num_traits::ToPrimitive;
use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;

pub type C = Complex64;

/// Variable values at one evaluation point.
#[derive(Debug, Clone)]
pub struct Env {
    pub vars: HashMap<String, C>,
    /// Seed of this point: hashed symbols and functions depend on it.
    pub seed: u64,
    /// Node evaluations left for this point, shared with the copies made inside sums, so
    /// nested `\sum` cannot multiply into a long loop.
    pub steps: Rc<Cell<u64>>,
}

/// Node evaluations allowed per point.
const STEPS_PER_POINT: u64 = 200_000;

/// splitmix64: a tiny deterministic generator, written out so the random points (and hence
/// verdicts) never change with a dependency's algorithm.
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn unit(state: &mut u64) -> f64 {
    (splitmix(state) >> 11) as f64 / (1u64 << 53) as f64
}

fn hash_str(s: &str, seed: u64) -> u64 {
    let mut h = seed ^ 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A value in [0.5, 2.5) determined by `key` and the point's seed.
fn hashed_value(key: &str, args: &[C], seed: u64) -> C {
    let mut h = hash_str(key, seed);
    for a in args {
        // Round so that equal arguments computed different ways hash alike.
        for part in [a.re, a.im] {
            let r = if part == 0.0 {
                0
            } else {
                (part * 1e6).round() as i64
            };
            h ^= r as u64;
            h = splitmix(&mut h);
        }
    }
    C::new(0.5 + 2.0 * unit(&mut h), 0.0)
}

impl Env {
    /// A random point: every name in `vars` gets a value; names in `ints` get small integers.
    pub fn random(vars: &[String], ints: &[String], seed: u64) -> Env {
        let mut state = seed;
        let mut map = HashMap::new();
        for v in vars {
            let x = if ints.contains(v) {
                (2 + splitmix(&mut state) % 7) as f64
            } else {
                0.35 + 2.4 * unit(&mut state)
            };
            map.insert(v.clone(), C::new(x, 0.0));
        }
        Env {
            vars: map,
            seed,
            steps: Rc::new(Cell::new(STEPS_PER_POINT)),
        }
    }
}

fn finite(c: C) -> Option<C> {
    (c.re.is_finite() && c.im.is_finite()).then_some(c)
}

fn real(c: C) -> Option<f64> {
    (c.im.abs() <= 1e-12 * c.re.abs().max(1.0)).then_some(c.re)
}

pub fn eval(e: &Expr, env: &Env) -> Option<C> {
    let left = env.steps.get();
    if left == 0 {
        return None;
    }
    env.steps.set(left - 1);
    let v = match e {
        Expr::Num(n) => C::new(n.value.to_f64()?, 0.0),
        Expr::Const(Constant::Pi) => C::new(std::f64::consts::PI, 0.0),
        Expr::Const(Constant::E) => C::new(std::f64::consts::E, 0.0),
        Expr::Const(Constant::I) => C::new(0.0, 1.0),
        Expr::Const(Constant::Infinity) => return None,
        Expr::Sym(name, None) => *env.vars.get(name)?,
        Expr::Sym(name, Some(sub)) => {
            let key = crate::latex::ast::symbol_key(name, Some(sub));
            match eval(sub, env) {
                Some(s) => hashed_value(name, &[s], env.seed),
                None => hashed_value(&key, &[], env.seed),
            }
        }
        Expr::Neg(a) => -eval(a, env)?,
        Expr::Percent(a) => eval(a, env)? / 100.0,
        Expr::Add(v) => {
            let mut acc = C::new(0.0, 0.0);
            for x in v {
                acc += eval(x, env)?;
            }
            acc
        }
        Expr::Mul(v) => {
            let mut acc = C::new(1.0, 0.0);
            for x in v {
                acc *= eval(x, env)?;
            }
            acc
        }
        Expr::Div(a, b) => {
            let d = eval(b, env)?;
            if d.norm() == 0.0 {
                return None;
            }
            eval(a, env)? / d
        }
        Expr::Pow(a, b) => {
            let base = eval(a, env)?;
            match odd_root_exponent(b) {
                // `u^{p/q}` with odd q and a negative real u: the real branch, as `\sqrt[q]{u}^p`
                // takes it (the principal complex power would make `(x^2-2)^{2/3}` differ from
                // `\sqrt[3]{x^2-2}^2` wherever the radicand is negative).
                Some((p, q)) if base.im == 0.0 && base.re < 0.0 => {
                    let m = (-base.re).powf(p as f64 / q as f64);
                    C::new(if p % 2 == 0 { m } else { -m }, 0.0)
                }
                _ => power(base, eval(b, env)?)?,
            }
        }
        Expr::Func(f, args) => func(*f, args, env)?,
        Expr::Apply(name, args) => {
            let mut vals = Vec::with_capacity(args.len());
            for a in args {
                vals.push(eval(a, env)?);
            }
            hashed_value(name, &vals, env.seed)
        }
        Expr::Big(op @ (BigOp::Sum | BigOp::Product), body, var, Some(lo), Some(hi)) => {
            let lo = real(eval(lo, env)?)?;
            let hi = real(eval(hi, env)?)?;
            if lo.fract() != 0.0 || hi.fract() != 0.0 || hi - lo > 5_000.0 {
                return None;
            }
            let mut inner = env.clone();
            let mut acc = if *op == BigOp::Sum {
                C::new(0.0, 0.0)
            } else {
                C::new(1.0, 0.0)
            };
            let mut k = lo;
            while k <= hi {
                inner.vars.insert(var.clone(), C::new(k, 0.0));
                let t = eval(body, &inner)?;
                if *op == BigOp::Sum {
                    acc += t
                } else {
                    acc *= t
                }
                k += 1.0;
            }
            acc
        }
        _ => return None,
    };
    finite(v)
}

/// `(p, q)` when the exponent is an exact rational p/q (lowest terms) with an odd q > 1.
fn odd_root_exponent(e: &Expr) -> Option<(i64, i64)> {
    if e.contains(&|x| matches!(x, Expr::Sym(..) | Expr::Const(..))) {
        return None;
    }
    let r = super::exact::eval(e, &mut super::exact::Budget::new(100, 64))?;
    let (p, q) = (r.numer().to_i64()?, r.denom().to_i64()?);
    (q > 1 && q % 2 == 1).then_some((p, q))
}

fn power(base: C, exp: C) -> Option<C> {
    if exp.im == 0.0 && exp.re.fract() == 0.0 && exp.re.abs() <= 1e6 {
        if base.norm() == 0.0 && exp.re < 0.0 {
            return None;
        }
        return Some(base.powi(exp.re as i32));
    }
    if base.im == 0.0 && base.re > 0.0 && exp.im == 0.0 {
        return Some(C::new(base.re.powf(exp.re), 0.0));
    }
    if base.norm() == 0.0 {
        return if exp.re > 0.0 {
            Some(C::new(0.0, 0.0))
        } else {
            None
        };
    }
    Some(base.powc(exp))
}

fn factorial(x: f64) -> Option<f64> {
    if x < 0.0 || x.fract() != 0.0 || x > 170.0 {
        return None;
    }
    Some((2..=x as u64).fold(1.0, |acc, k| acc * k as f64))
}

fn func(f: Func, args: &[Expr], env: &Env) -> Option<C> {
    let a = eval(&args[0], env)?;
    let one = C::new(1.0, 0.0);
    Some(match f {
        Func::Sin => a.sin(),
        Func::Cos => a.cos(),
        Func::Tan => a.tan(),
        Func::Cot => one / a.tan(),
        Func::Sec => one / a.cos(),
        Func::Csc => one / a.sin(),
        Func::Asin => a.asin(),
        Func::Acos => a.acos(),
        Func::Atan => a.atan(),
        Func::Acot => (one / a).atan(),
        Func::Asec => (one / a).acos(),
        Func::Acsc => (one / a).asin(),
        Func::Sinh => a.sinh(),
        Func::Cosh => a.cosh(),
        Func::Tanh => a.tanh(),
        Func::Asinh => a.asinh(),
        Func::Acosh => a.acosh(),
        Func::Atanh => a.atanh(),
        Func::Exp => a.exp(),
        Func::Log => {
            let b = eval(&args[1], env)?;
            if a.norm() == 0.0 {
                return None;
            }
            a.ln() / b.ln()
        }
        Func::Sqrt => a.sqrt(),
        Func::Root => {
            let n = real(eval(&args[1], env)?)?;
            // Real odd roots of negative numbers are real (`\sqrt[3]{-8} = -2`).
            if let Some(x) = real(a) {
                if x < 0.0 && n.fract() == 0.0 && (n as i64) % 2 != 0 {
                    return Some(C::new(-(-x).powf(1.0 / n), 0.0));
                }
            }
            power(a, C::new(1.0 / n, 0.0))?
        }
        Func::Abs => C::new(a.norm(), 0.0),
        Func::Floor => C::new(real(a)?.floor(), 0.0),
        Func::Ceil => C::new(real(a)?.ceil(), 0.0),
        Func::Factorial => C::new(factorial(real(a)?)?, 0.0),
        Func::Binom => {
            let n = real(a)?;
            let k = real(eval(&args[1], env)?)?;
            if k < 0.0 || k.fract() != 0.0 || k > 1000.0 {
                return None;
            }
            let mut acc = 1.0;
            let mut j = 0.0;
            while j < k {
                acc = acc * (n - j) / (j + 1.0);
                j += 1.0;
            }
            C::new(acc, 0.0)
        }
        Func::Max | Func::Min => {
            let mut best = real(a)?;
            for x in &args[1..] {
                let v = real(eval(x, env)?)?;
                best = if f == Func::Max {
                    best.max(v)
                } else {
                    best.min(v)
                };
            }
            C::new(best, 0.0)
        }
        Func::Mod => {
            let x = real(a)?;
            let m = real(eval(&args[1], env)?)?;
            if m == 0.0 {
                return None;
            }
            C::new(x - (x / m).floor() * m, 0.0)
        }
        Func::Gcd | Func::Lcm => {
            let mut acc = real(a)?;
            if acc.fract() != 0.0 {
                return None;
            }
            for x in &args[1..] {
                let v = real(eval(x, env)?)?;
                if v.fract() != 0.0 {
                    return None;
                }
                let g = gcd(acc.abs() as u64, v.abs() as u64) as f64;
                acc = if f == Func::Gcd {
                    g
                } else if g == 0.0 {
                    0.0
                } else {
                    (acc * v).abs() / g
                };
            }
            C::new(acc.abs(), 0.0)
        }
        Func::Det => return None,
    })
}

/// Are two values the same up to floating-point error?
pub fn close(a: C, b: C, rel: f64) -> bool {
    let scale = a.norm().max(b.norm());
    (a - b).norm() <= rel * scale + 1e-13
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::latex::{parse, ParseOptions};

    fn ev(s: &str) -> Option<C> {
        let e = parse(s, &ParseOptions::default()).unwrap();
        eval(&e, &Env::random(&e.free_symbols(), &[], 1))
    }

    #[test]
    fn constants_and_functions() {
        assert!(close(
            ev("\\sin\\frac{\\pi}{6}").unwrap(),
            C::new(0.5, 0.0),
            1e-12
        ));
        assert!(close(ev("e^{i\\pi}").unwrap(), C::new(-1.0, 0.0), 1e-12));
        assert!(close(
            ev("\\sqrt[3]{-8}").unwrap(),
            C::new(-2.0, 0.0),
            1e-12
        ));
        assert!(close(
            ev("\\sum_{k=1}^{10} k^2").unwrap(),
            C::new(385.0, 0.0),
            1e-12
        ));
    }

    #[test]
    fn nested_sums_stop_at_the_step_budget() {
        assert_eq!(
            ev("\\sum_{a=1}^{5000}\\sum_{b=1}^{5000}\\sum_{c=1}^{5000} abc"),
            None
        );
    }

    #[test]
    fn overflow_is_none() {
        assert_eq!(ev("5^{5^{5^{5}}}"), None);
        assert_eq!(ev("\\frac{1}{0}"), None);
    }
}
