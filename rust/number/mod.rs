//! Number literals of the fixed mode and their comparison (DESIGN.md "Policies of the default
//! mode"): thousands separators, decimals, scientific notation, fractions, percent and currency;
//! integer golds need an equal value; otherwise rounding-aware tolerance; exact rationals so
//! tiny and huge values compare relatively, never with an absolute epsilon.
//!
//! Files: `literal` (one literal at a position), `read` (a whole answer, or every number in free
//! text), `compare` (the precision rules), `text` (number words, normalisation); this file holds
//! [`WrittenNumber`] and its arithmetic.

use num_integer::gcd;

mod compare;
mod literal;
mod read;
mod text;

pub use compare::numbers_equal;
pub use read::{parse_number, scan_numbers, Found};
pub use text::{normalize_answer, number_words, scaled_number};

/// A number as written in an answer.
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenNumber {
    /// Exact value `num / den` (den > 0, reduced) when it fits in i128.
    pub exact: Option<(i128, i128)>,
    /// Floating value (always set; may be inexact).
    pub value: f64,
    /// Decimal places as written for decimal literals ("2.50" -> 2, "1.5e3" -> -2); `None` for
    /// integers and fractions, which are exact.
    pub decimals: Option<i32>,
    /// Significant digits as written (decimal literals only; 0 otherwise).
    pub sig_digits: u32,
    /// Written with a percent sign.
    pub percent: bool,
    /// An integer too long for `exact`: its digits, sign first, no leading zeros. Integers of any
    /// length compare digit for digit, never as floats (10^36 and 10^36 + 1 differ).
    pub big_integer: Option<String>,
}

impl WrittenNumber {
    pub(super) fn from_ratio(num: i128, den: i128) -> Option<WrittenNumber> {
        if den == 0 {
            return None;
        }
        // Nearly every number fits in i64, where gcd, division and the conversion to f64 are
        // native instructions instead of i128 library calls; same values (an integer converts to
        // the same nearest f64 from either width).
        if let (Ok(a), Ok(b)) = (i64::try_from(num), i64::try_from(den)) {
            if b == 1 {
                // An integer: already reduced.
                return Some(WrittenNumber {
                    exact: Some((num, 1)),
                    value: a as f64,
                    decimals: None,
                    sig_digits: 0,
                    percent: false,
                    big_integer: None,
                });
            }
            if a != i64::MIN && b != i64::MIN {
                let g = gcd(a.unsigned_abs(), b.unsigned_abs()) as i64;
                let (mut n, mut d) = (a / g.max(1), b / g.max(1));
                if d < 0 {
                    n = -n;
                    d = -d;
                }
                return Some(WrittenNumber {
                    exact: Some((i128::from(n), i128::from(d))),
                    value: n as f64 / d as f64,
                    decimals: None,
                    sig_digits: 0,
                    percent: false,
                    big_integer: None,
                });
            }
        }
        let g = gcd(num.unsigned_abs(), den.unsigned_abs()) as i128;
        let (mut n, mut d) = (num / g.max(1), den / g.max(1));
        if d < 0 {
            n = -n;
            d = -d;
        }
        Some(WrittenNumber {
            exact: Some((n, d)),
            value: n as f64 / d as f64,
            decimals: None,
            sig_digits: 0,
            percent: false,
            big_integer: None,
        })
    }

    /// Is the value an integer written as one (or an exact fraction equal to one)?
    pub fn is_integer(&self) -> bool {
        matches!(self.exact, Some((_, 1))) && self.decimals.is_none()
    }
}

pub(super) fn negate(n: &mut WrittenNumber) {
    n.value = -n.value;
    n.exact = n.exact.map(|(a, b)| (-a, b));
    if let Some(d) = &mut n.big_integer {
        if let Some(pos) = d.strip_prefix('-') {
            *d = pos.to_string();
        } else if d != "0" {
            d.insert(0, '-');
        }
    }
}

pub(super) fn divide(a: &WrittenNumber, b: &WrittenNumber) -> Option<WrittenNumber> {
    match (a.exact, b.exact) {
        (Some((an, ad)), Some((bn, bd))) if bn != 0 => {
            let num = an.checked_mul(bd)?;
            let den = ad.checked_mul(bn)?;
            WrittenNumber::from_ratio(num, den)
        }
        _ => {
            if b.value == 0.0 {
                return None;
            }
            Some(WrittenNumber {
                exact: None,
                value: a.value / b.value,
                decimals: None,
                sig_digits: 0,
                percent: false,
                big_integer: None,
            })
        }
    }
}

/// The number `parse_number` reads from `s` (the tests' shorthand; it must parse).
#[cfg(test)]
fn n(s: &str) -> WrittenNumber {
    parse_number(s).unwrap_or_else(|| panic!("{s} should parse"))
}
