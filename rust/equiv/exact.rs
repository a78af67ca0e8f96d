//! Exact evaluation to a big rational, under a size budget.
//!
//! Uses `num-bigint`/`num-rational` (pure Rust, well kept, no GMP to build) so an answer that
//! is rational is compared exactly: no float rounding, no chopping of tiny values
//! (`1/2004!` and `1/2006!` differ). Anything irrational (`\sqrt2`, `\pi`) or over budget is
//! `None`; over budget also sets [`Budget::over`].

use crate::latex::{Expr, Func};
use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

/// Size limits of exact arithmetic.
#[derive(Debug, Clone)]
pub struct Budget {
    /// Largest bit size of any value (numerator + denominator).
    pub max_bits: u64,
    /// Largest bit size of the result of a power.
    pub max_power_bits: u64,
    /// Node visits left.
    pub steps: usize,
    /// Set when a limit stopped the evaluation.
    pub over: bool,
}

impl Budget {
    pub fn new(max_digits: usize, max_power_bits: u64) -> Self {
        Budget {
            max_bits: (max_digits as u64).saturating_mul(10) / 3,
            max_power_bits,
            steps: 50_000,
            over: false,
        }
    }

    fn fits(&mut self, v: &BigRational) -> bool {
        if v.numer().bits() + v.denom().bits() > self.max_bits {
            self.over = true;
            false
        } else {
            true
        }
    }
}

fn bits(v: &BigRational) -> u64 {
    v.numer().bits() + v.denom().bits()
}

fn int(v: &BigRational) -> Option<BigInt> {
    v.is_integer().then(|| v.to_integer())
}

fn small(v: &BigRational) -> Option<i64> {
    int(v)?.to_i64()
}

/// Exact `n`-th root of a non-negative integer, if it is a perfect power.
fn exact_root(x: &BigInt, n: u32) -> Option<BigInt> {
    if x.is_negative() {
        if n % 2 == 1 {
            return exact_root(&-x, n).map(|r| -r);
        }
        return None;
    }
    let r = x.nth_root(n);
    (r.pow(n) == *x).then_some(r)
}

fn rational_root(v: &BigRational, n: u32) -> Option<BigRational> {
    if n == 0 {
        return None;
    }
    Some(BigRational::new(
        exact_root(v.numer(), n)?,
        exact_root(v.denom(), n)?,
    ))
}

pub fn eval(e: &Expr, b: &mut Budget) -> Option<BigRational> {
    if b.steps == 0 {
        b.over = true;
        return None;
    }
    b.steps -= 1;
    let v = match e {
        Expr::Num(n) => n.value.clone(),
        Expr::Neg(a) => -eval(a, b)?,
        Expr::Percent(a) => eval(a, b)? / BigRational::from_integer(100.into()),
        Expr::Add(v) => {
            let mut acc = BigRational::zero();
            for x in v {
                acc += eval(x, b)?;
                if !b.fits(&acc) {
                    return None;
                }
            }
            acc
        }
        Expr::Mul(v) => {
            let mut acc = BigRational::one();
            for x in v {
                acc *= eval(x, b)?;
                if !b.fits(&acc) {
                    return None;
                }
            }
            acc
        }
        Expr::Div(x, y) => {
            let d = eval(y, b)?;
            if d.is_zero() {
                return None;
            }
            eval(x, b)? / d
        }
        Expr::Pow(x, y) => {
            let base = eval(x, b)?;
            let exp = eval(y, b)?;
            pow(&base, &exp, b)?
        }
        Expr::Func(f, args) => func(*f, args, b)?,
        _ => return None,
    };
    b.fits(&v).then_some(v)
}

pub fn pow(base: &BigRational, exp: &BigRational, b: &mut Budget) -> Option<BigRational> {
    if exp.is_zero() {
        return Some(BigRational::one());
    }
    if base.is_zero() {
        return if exp.is_positive() {
            Some(BigRational::zero())
        } else {
            None
        };
    }
    if base.abs().is_one() && exp.is_integer() {
        let odd = exp.to_integer().is_odd();
        return Some(if base.is_negative() && odd {
            -BigRational::one()
        } else {
            BigRational::one()
        });
    }
    // Estimate the size before computing: |exp| * bits(base) must stay within budget.
    let q = exp.denom().to_u32().filter(|q| *q <= 64)?;
    let p = exp.numer().abs();
    let root = if q == 1 {
        base.clone()
    } else {
        rational_root(base, q)?
    };
    let est = bits(&root) as f64 * p.to_f64().unwrap_or(f64::INFINITY);
    if est.is_nan() || est > b.max_power_bits as f64 {
        b.over = true;
        return None;
    }
    let p = p.to_u32()?;
    let r = num_traits::pow(root, p as usize);
    Some(if exp.is_negative() { r.recip() } else { r })
}

fn func(f: Func, args: &[Expr], b: &mut Budget) -> Option<BigRational> {
    let one_arg = |b: &mut Budget| eval(&args[0], b);
    Some(match f {
        Func::Sqrt => rational_root(&one_arg(b)?, 2)?,
        Func::Root => {
            let n = small(&eval(&args[1], b)?)?;
            if !(1..=64).contains(&n) {
                return None;
            }
            rational_root(&one_arg(b)?, n as u32)?
        }
        Func::Abs => one_arg(b)?.abs(),
        Func::Floor => one_arg(b)?.floor(),
        Func::Ceil => one_arg(b)?.ceil(),
        Func::Factorial => {
            let n = small(&one_arg(b)?)?;
            if n < 0 {
                return None;
            }
            // log2(n!) ~ n log2 n: refuse before computing.
            let est = (n as f64) * ((n.max(2)) as f64).log2();
            if est > b.max_bits as f64 {
                b.over = true;
                return None;
            }
            let mut acc = BigInt::one();
            for k in 2..=n {
                acc *= k;
            }
            BigRational::from_integer(acc)
        }
        Func::Binom => {
            let n = int(&eval(&args[0], b)?)?;
            let k = small(&eval(&args[1], b)?)?;
            if k < 0 || n.is_negative() && k > 100_000 {
                return None;
            }
            // Each step is a big-rational multiply and divide: keep the loop short.
            if k > 2_000 {
                b.over = true;
                return None;
            }
            let mut acc = BigRational::one();
            for j in 0..k {
                acc = acc * BigRational::from_integer(&n - j)
                    / BigRational::from_integer(BigInt::from(j + 1));
                if !b.fits(&acc) {
                    return None;
                }
            }
            acc
        }
        Func::Gcd | Func::Lcm => {
            let mut acc: Option<BigInt> = None;
            for a in args {
                let v = int(&eval(a, b)?)?;
                acc = Some(match acc {
                    None => v.abs(),
                    Some(x) => {
                        if f == Func::Gcd {
                            x.gcd(&v)
                        } else {
                            x.lcm(&v)
                        }
                    }
                });
            }
            BigRational::from_integer(acc?)
        }
        Func::Max | Func::Min => {
            let mut vals = Vec::new();
            for a in args {
                vals.push(eval(a, b)?);
            }
            if f == Func::Max {
                vals.into_iter().max()?
            } else {
                vals.into_iter().min()?
            }
        }
        Func::Mod => {
            let x = eval(&args[0], b)?;
            let m = eval(&args[1], b)?;
            if m.is_zero() {
                return None;
            }
            let q = (&x / &m).floor();
            x - q * m
        }
        Func::Log => {
            // Exact only when the argument is an integer power of the base.
            let x = one_arg(b)?;
            let base = eval(&args[1], b)?;
            if !x.is_positive() || !base.is_positive() || base.is_one() {
                return None;
            }
            let approx = (x.to_f64()?.ln() / base.to_f64()?.ln()).round();
            if !approx.is_finite() || approx.abs() > 4096.0 {
                return None;
            }
            let k = BigRational::from_integer(BigInt::from(approx as i64));
            let check = pow(&base, &k, b)?;
            if check == x {
                k
            } else {
                return None;
            }
        }
        Func::Exp
        | Func::Sin
        | Func::Tan
        | Func::Asin
        | Func::Atan
        | Func::Sinh
        | Func::Tanh
        | Func::Asinh
        | Func::Atanh => {
            // f(0) = 0 is the only rational value at a rational point worth knowing.
            let x = one_arg(b)?;
            if !x.is_zero() {
                return None;
            }
            if f == Func::Exp {
                BigRational::one()
            } else {
                x
            }
        }
        Func::Cos | Func::Cosh => {
            if !one_arg(b)?.is_zero() {
                return None;
            }
            BigRational::one()
        }
        _ => return None,
    })
}

/// Round `v` to `d` decimals (half away from zero) — used to print and compare decimals.
pub fn round_to(v: &BigRational, d: u32) -> BigRational {
    let scale = BigRational::from_integer(BigInt::from(10u32).pow(d));
    let scaled = v * &scale;
    let half = BigRational::new(BigInt::one(), BigInt::from(2));
    let r = if scaled.is_negative() {
        -((-scaled + half).floor())
    } else {
        (scaled + half).floor()
    };
    r / scale
}

/// `|a - b| <= 10^-d / 2`, exactly.
pub fn within_half_ulp(a: &BigRational, b: &BigRational, d: u32) -> bool {
    let diff = (a - b).abs();
    let tol = BigRational::new(BigInt::one(), BigInt::from(2) * BigInt::from(10u32).pow(d));
    diff <= tol
}

/// Does `v` have a finite decimal expansion (its reduced denominator has no prime factor other
/// than 2 and 5)? `\frac{279}{125}` = 2.232 does, `\frac13` does not.
pub fn has_finite_decimal_form(v: &BigRational) -> bool {
    let mut den = v.denom().abs();
    for p in [2u32, 5] {
        let p = BigInt::from(p);
        while (&den % &p).is_zero() {
            den /= &p;
        }
    }
    den.is_one()
}

/// Significant digits of a decimal `v` written to `d` places: the digits of `|v| * 10^d` without
/// leading zeros (`2.230` -> 4, `0.067` -> 2).
pub fn significant_digits(v: &BigRational, d: u32) -> u32 {
    let scaled = (v * BigRational::from_integer(BigInt::from(10u32).pow(d))).abs();
    let digits = scaled.to_integer().to_string();
    let n = digits.trim_start_matches('0').len();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Sign of a big integer as -1/0/1 (helper for callers holding `BigInt`).
pub fn sign(v: &BigInt) -> i32 {
    match v.sign() {
        Sign::Minus => -1,
        Sign::NoSign => 0,
        Sign::Plus => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::latex::{parse, ParseOptions};

    fn ev(s: &str) -> Option<BigRational> {
        let e = parse(s, &ParseOptions::default()).unwrap();
        eval(&e, &mut Budget::new(10_000, 4096))
    }

    #[test]
    fn rational_values() {
        assert_eq!(ev("\\frac{3}{4} + 0.25"), Some(BigRational::one()));
        assert_eq!(
            ev("\\sqrt{169}"),
            Some(BigRational::from_integer(13.into()))
        );
        assert_eq!(ev("\\log_2 8"), Some(BigRational::from_integer(3.into())));
        assert_eq!(
            ev("\\binom{5}{2}"),
            Some(BigRational::from_integer(10.into()))
        );
        assert_eq!(ev("8^{2/3}"), Some(BigRational::from_integer(4.into())));
        assert_eq!(ev("\\sqrt{2}"), None);
        assert_ne!(ev("\\frac{1}{2004!}"), ev("\\frac{1}{2006!}"));
    }

    #[test]
    fn power_towers_stop_at_the_budget() {
        let e = parse(
            "\\dfrac{5^{(5^{(5^{(5^5)})} - 4)} - 5}{16}",
            &ParseOptions::default(),
        )
        .unwrap();
        let mut b = Budget::new(10_000, 4096);
        assert_eq!(eval(&e, &mut b), None);
        assert!(b.over);
    }
}
