//! Are two numbers the same answer? The precision rules (DESIGN.md "Policies of the default
//! mode"): an integer gold needs an equal value, exact values compare exactly, a decimal rounds the
//! finer side to its written places (finite decimal forms under [`FiniteDecimals`]), a percent
//! equals its number and its number / 100.

use num_integer::gcd;

use super::WrittenNumber;
use crate::verdict::{FiniteDecimals, MACHINE_ROUNDED_DIGITS};

/// What comparing needs of a number: its decimal form, its integer digits, its percent scaled.
impl WrittenNumber {
    /// Does the value have a finite decimal expansion? Decimal literals and integers do; a
    /// fraction does when its reduced denominator is 2^a 5^b (`3/8` does, `1/3` does not). A value
    /// too large for `exact` is a decimal or an integer as written, so it does.
    fn has_finite_decimal_form(&self) -> bool {
        self.exact.is_none_or(|(_, mut d)| {
            for p in [2, 5] {
                while d % p == 0 {
                    d /= p;
                }
            }
            d == 1
        })
    }

    /// The integer's digits, sign first (`None` unless it is an integer written as one).
    fn integer_digits(&self) -> Option<std::borrow::Cow<'_, str>> {
        match (&self.big_integer, self.exact) {
            (Some(d), _) => Some(std::borrow::Cow::Borrowed(d.as_str())),
            (None, Some((n, 1))) if self.decimals.is_none() => Some(n.to_string().into()),
            _ => None,
        }
    }

    fn scaled_percent(&self) -> WrittenNumber {
        let mut n = self.clone();
        n.value /= 100.0;
        n.exact = self
            .exact
            .and_then(|(a, b)| b.checked_mul(100).map(|d| (a, d)))
            .map(|(a, d)| {
                let g = gcd(a.unsigned_abs(), d.unsigned_abs()) as i128;
                (a / g.max(1), d / g.max(1))
            });
        n.decimals = self.decimals.map(|d| d + 2);
        n.percent = false;
        n.big_integer = None;
        n
    }
}

/// Are two numbers the same answer? `gold` first.
///
/// - An integer gold needs an equal value (`1000.0` = `1000`, `1000.4` != `1000`).
/// - Exact values compare exactly (so `1/2^99` != `1/2^98`, however small).
/// - A decimal written to `d` places (and at least two significant digits) equals a value that
///   rounds to it at `d` places when that value has no finite decimal form (`0.33` = `1/3`); a
///   value with a finite decimal form (`2.828`, `3/8`) is exact under `FiniteDecimals::Exact`
///   unless a decimal on either side has six or more significant digits (machine-rounded:
///   `26.6667` = `26.67`, `0.0666668` = `0.066666793`), and is rounded like the others under
///   `FiniteDecimals::WrittenPrecision` (`2.83` = `2.828`).
/// - A percent equals its number and its number / 100 (`50%` = `50` = `0.5`).
pub fn numbers_equal(gold: &WrittenNumber, pred: &WrittenNumber, decimals: FiniteDecimals) -> bool {
    // The same pairs in the same order as before, without cloning either side: a percent adds
    // its scaled value after the number as written.
    let gs = gold.percent.then(|| gold.scaled_percent());
    let ps = pred.percent.then(|| pred.scaled_percent());
    std::iter::once(gold).chain(gs.as_ref()).any(|g| {
        std::iter::once(pred)
            .chain(ps.as_ref())
            .any(|p| plain_equal(g, p, decimals))
    })
}

fn plain_equal(g: &WrittenNumber, p: &WrittenNumber, decimals: FiniteDecimals) -> bool {
    // An integer too long for i128 on either side: equal only as the same integer.
    if g.big_integer.is_some() || p.big_integer.is_some() {
        if let (Some(a), Some(b)) = (g.integer_digits(), p.integer_digits()) {
            return a == b;
        }
    }
    if let (Some(a), Some(b)) = (g.exact, p.exact) {
        if a == b {
            return true;
        }
    } else if g.value == p.value || rel_close(g.value, p.value, 1e-12) {
        return true;
    }
    if g.is_integer() && p.decimals.is_none() {
        return false;
    }
    // Round the finer side to the coarser side's written precision.
    let coarse = match (g.decimals, p.decimals) {
        (Some(a), Some(b)) => {
            if a <= b {
                g
            } else {
                p
            }
        }
        (Some(_), None) => g,
        (None, Some(_)) => p,
        (None, None) => return false,
    };
    // An integer gold is never matched by rounding it away ("1000.4" != "1000").
    if g.is_integer() {
        return false;
    }
    let fine = if std::ptr::eq(coarse, g) { p } else { g };
    let Some(d) = coarse.decimals else {
        return false;
    };
    if coarse.sig_digits < 2 {
        return false;
    }
    // A finer value with a finite decimal form could have been written exactly: under `Exact`,
    // it is, unless a machine-rounded decimal (six or more significant digits) on either side
    // says the value is not exact: `0.0666668` for `0.066666793`, and the other way `26.6667`
    // for `26.67` (as `80/3` is).
    let machine_rounded =
        |x: &WrittenNumber| x.decimals.is_some() && x.sig_digits >= MACHINE_ROUNDED_DIGITS;
    if decimals == FiniteDecimals::Exact
        && fine.has_finite_decimal_form()
        && !machine_rounded(coarse)
        && !machine_rounded(fine)
    {
        return false;
    }
    let half_unit = 0.5 * 10f64.powi(-d);
    (fine.value - coarse.value).abs() <= half_unit * (1.0 + 1e-9)
}

fn rel_close(a: f64, b: f64, rel: f64) -> bool {
    a.is_finite() && b.is_finite() && (a - b).abs() <= rel * a.abs().max(b.abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::n;

    fn eq(g: &str, p: &str) -> bool {
        numbers_equal(&n(g), &n(p), FiniteDecimals::Exact)
    }

    #[test]
    fn integers_of_any_length_compare_exactly() {
        let big = format!("1{}", "0".repeat(36));
        let plus_one = format!("1{}1", "0".repeat(35));
        assert!(!eq(&big, &plus_one) && !eq(&plus_one, &big));
        assert!(eq(&big, &big.clone()));
        // Thousands separators, a sign, leading zeros and an integer exponent change nothing.
        let grouped = format!("1{}", ",000".repeat(12));
        assert!(eq(&big, &grouped));
        assert!(eq(&format!("-{big}"), &format!("-00{big}")));
        assert!(!eq(&format!("-{big}"), &big));
        assert!(eq(&big, "1e36") && eq("1e36", &big));
        let long = "7".repeat(60);
        assert!(eq(&long, &long.clone()));
        assert!(!eq(&long, &format!("{}8", "7".repeat(59))));
        // Small against big: never equal by float rounding.
        assert!(!eq("5", &long));
    }

    #[test]
    fn comparison_policies() {
        assert!(eq("1000", "1000.0"));
        assert!(!eq("1000", "1000.4"));
        assert!(!eq("123456", "123500.5"));
        assert!(eq("0.5", "50%"));
        assert!(eq("50", "50%"));
        assert!(eq("1/3", "0.33"));
        assert!(eq("1/3", "0.333"));
        assert!(!eq("1/3", "0.3"));
        assert!(!eq("0.25", "0.3"));
        assert!(eq("2.5", "2.50"));
        assert!(!eq("2.5", "3"));
        assert!(!eq("0.0000001", "0.0000002"));
        assert!(eq("3.5e-3", "0.0035"));
    }

    /// Issue 13's precision policy: a value with a finite decimal form is exact by default; the
    /// written-precision rule stays for values without one, and as an option for all.
    #[test]
    fn finite_decimals_are_exact_by_default() {
        let lenient =
            |g: &str, p: &str| numbers_equal(&n(g), &n(p), FiniteDecimals::WrittenPrecision);
        // Both orders: the rule does not depend on which side is the gold.
        for (a, b) in [
            ("2.232", "2.23"),
            ("0.066793", "0.067"),
            ("1.25", "1.3"),
            ("2.828", "2.83"),
            ("3/8", "0.38"),
            ("17.001", "17"),
            ("12.5%", "0.13"),
        ] {
            assert!(!eq(a, b) && !eq(b, a), "{a} vs {b}");
        }
        for (a, b) in [
            ("2.232", "2.23"),
            ("0.066793", "0.067"),
            ("2.828", "2.83"),
            ("3/8", "0.38"),
        ] {
            assert!(
                lenient(a, b) && lenient(b, a),
                "{a} vs {b} (written precision)"
            );
        }
        // Equal values, machine-rounded decimals (six or more significant digits), values with no
        // finite decimal form.
        for (a, b) in [
            ("2.23", "2.230"),
            ("2.232", "279/125"),
            ("0.066666793", "0.0666668"),
            ("16386.164", "16386.16"),
            ("2/3", "0.6666667"),
            ("1/3", "0.33"),
            ("2/7", "0.2857"),
            // Issue 22: the six-digit evidence counts on the finer side too.
            ("26.67", "26.6667"),
            ("26.67", "80/3"),
            ("3.14", "3.14159"),
        ] {
            assert!(eq(a, b) && eq(b, a), "{a} vs {b}");
            assert!(
                lenient(a, b) && lenient(b, a),
                "{a} vs {b} (written precision)"
            );
        }
        // Integers stay exact under both rules; one significant digit never rounds.
        for f in [eq, lenient] {
            assert!(!f("1000", "1000.4") && !f("1/3", "0.3") && !f("0.066793", "0.07"));
        }
    }
}
