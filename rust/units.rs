//! Quantities with units in golds and answers (issue 33, docs/policies.md "Units"): `5 cm`,
//! `2 \text{ hours}`, `12\,\mathrm{cm}^2`, `\$5`, `30\%`.
//!
//! The number checker and the LaTeX engine drop unit words after a number, so `5 \text{ m}`
//! against the gold `5 cm` used to be correct. When BOTH sides carry a unit this module
//! recognises, the quantities are compared instead:
//!
//! - the same unit (or spelling of it): the numbers decide (`12\,\mathrm{cm}^2` = `12 cm²`);
//! - the same dimension at another scale: the answer is converted to the gold's unit and the
//!   numbers compared (`500 cm` = `5 m`, `2 hours` = `120 minutes`, `5 m` ≠ `5 cm`);
//! - different dimensions (`5 kg` against `5 m`, `5 \text{ cm}^2` against `5 cm`): incorrect;
//! - an unknown unit on either side, or a pair we do not convert (`2 years` and `730 days`): the
//!   verdict is the one without units.
//!
//! A unit word counts only right after a number (or after `\,`, `\ `, `~`, `\text{ }`), and the
//! value before it must be one number (`12`, `1,500`, `2.5`, `3/4`, `\frac{1}{2}`): `m = 5`,
//! `5s + 1`, `2x cm` have no unit. A one-letter unit (`m`, `s`, `g`, `h`, `l`, `L`) must be
//! written apart from the number (`5 m`, `5\,\mathrm{m}`, `5\text{m}`), never glued (`5m` may be
//! five times `m`).

use crate::number::{parse_number, WrittenNumber};

/// What a unit measures. `Calendar` (months, years) is kept apart from `Time`: the length of a
/// month or a year in days is a convention, so such a pair is not converted (nor called wrong).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dim {
    Length,
    Area,
    Volume,
    Mass,
    Time,
    Calendar,
    Money,
    Percent,
}

/// A unit: its dimension and its size in the dimension's base unit (metre, square metre, cubic
/// metre, gram, second, month, cent, percent), as an exact fraction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unit {
    pub dim: Dim,
    pub scale: (i128, i128),
}

/// A number with a unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Quantity {
    pub value: WrittenNumber,
    pub unit: Unit,
}

/// How an answer's quantity stands against the gold's.
#[derive(Debug, Clone, PartialEq)]
pub enum Against {
    /// A pair we do not judge (months against days): the verdict without units stands.
    Keep,
    /// The same unit (or spelling of it): the values are compared as they are.
    Same,
    /// Both units recognised, of different dimensions: the answer is wrong.
    OtherDimension,
    /// The same dimension at another scale: the answer's value in the gold's unit.
    Converted(WrittenNumber),
}

/// Lengths in metres.
const LENGTHS: &[(&[&str], (i128, i128))] = &[
    (
        &[
            "mm",
            "millimeter",
            "millimeters",
            "millimetre",
            "millimetres",
        ],
        (1, 1000),
    ),
    (
        &[
            "cm",
            "centimeter",
            "centimeters",
            "centimetre",
            "centimetres",
        ],
        (1, 100),
    ),
    (&["m", "meter", "meters", "metre", "metres"], (1, 1)),
    (
        &["km", "kilometer", "kilometers", "kilometre", "kilometres"],
        (1000, 1),
    ),
    (&["in", "inch", "inches"], (127, 5000)),
    (&["ft", "foot", "feet"], (381, 1250)),
    (&["yd", "yard", "yards"], (1143, 1250)),
    (&["mi", "mile", "miles"], (201_168, 125)),
];

/// Every other unit: names, dimension, size in the base unit.
const OTHERS: &[(&[&str], Dim, (i128, i128))] = &[
    (&["mg", "milligram", "milligrams"], Dim::Mass, (1, 1000)),
    (&["g", "gram", "grams"], Dim::Mass, (1, 1)),
    (&["kg", "kilogram", "kilograms"], Dim::Mass, (1000, 1)),
    (&["tonne", "tonnes"], Dim::Mass, (1_000_000, 1)),
    (
        &["lb", "lbs", "pound", "pounds"],
        Dim::Mass,
        (45_359_237, 100_000),
    ),
    (
        &["oz", "ounce", "ounces"],
        Dim::Mass,
        (45_359_237, 1_600_000),
    ),
    (
        &["s", "sec", "secs", "second", "seconds"],
        Dim::Time,
        (1, 1),
    ),
    (&["min", "mins", "minute", "minutes"], Dim::Time, (60, 1)),
    (&["h", "hr", "hrs", "hour", "hours"], Dim::Time, (3600, 1)),
    (&["day", "days"], Dim::Time, (86_400, 1)),
    (&["week", "weeks"], Dim::Time, (604_800, 1)),
    (&["month", "months"], Dim::Calendar, (1, 1)),
    (&["yr", "yrs", "year", "years"], Dim::Calendar, (12, 1)),
    (
        &[
            "ml",
            "mL",
            "milliliter",
            "milliliters",
            "millilitre",
            "millilitres",
            "cc",
        ],
        Dim::Volume,
        (1, 1_000_000),
    ),
    (
        &["l", "L", "liter", "liters", "litre", "litres"],
        Dim::Volume,
        (1, 1000),
    ),
    (
        &["gallon", "gallons", "gal"],
        Dim::Volume,
        (473_176_473, 125_000_000_000),
    ),
    (&["acre", "acres"], Dim::Area, (316_160_658, 78_125)),
    (&["hectare", "hectares"], Dim::Area, (10_000, 1)),
    (&["dollar", "dollars"], Dim::Money, (100, 1)),
    (&["cent", "cents", "¢"], Dim::Money, (1, 1)),
    (&["%", "percent", "per cent"], Dim::Percent, (1, 1)),
];

/// Units of one letter: only when written apart from the number.
const ONE_LETTER: &[&str] = &["m", "s", "g", "h", "l", "L"];

/// The unit a word names (a name of the tables, or a spelled-out name in any case).
fn unit_word(w: &str) -> Option<Unit> {
    let lower;
    let w = if w.len() > 3 && w.bytes().any(|c| c.is_ascii_uppercase()) {
        lower = w.to_ascii_lowercase();
        lower.as_str()
    } else {
        w
    };
    if let Some((_, s)) = LENGTHS.iter().find(|(names, _)| names.contains(&w)) {
        return Some(Unit {
            dim: Dim::Length,
            scale: *s,
        });
    }
    OTHERS
        .iter()
        .find(|(names, _, _)| names.contains(&w))
        .map(|&(_, dim, scale)| Unit { dim, scale })
}

/// A length unit raised to a power (2: area, 3: volume).
fn powered(u: Unit, p: u32) -> Option<Unit> {
    if u.dim != Dim::Length {
        return None;
    }
    let (n, d) = u.scale;
    Some(Unit {
        dim: if p == 2 { Dim::Area } else { Dim::Volume },
        scale: (n.checked_pow(p)?, d.checked_pow(p)?),
    })
}

/// The unit a tail names: `cm`, `cm^2`, `square feet`, `sq. ft`, `cubic centimeters`, `meters
/// squared`, `%`; `None` for anything else (`units`, `km/h`, `apples`, `in total`).
fn unit_of_tail(tail: &str) -> Option<Unit> {
    let t = tail.trim().trim_end_matches('.').trim();
    let (t, power) = match t.strip_suffix("^2").or_else(|| t.strip_suffix('²')) {
        Some(r) => (r.trim_end(), 2),
        None => match t.strip_suffix("^3").or_else(|| t.strip_suffix('³')) {
            Some(r) => (r.trim_end(), 3),
            None => (t, 1),
        },
    };
    let words: Vec<&str> = t.split_whitespace().collect();
    let (word, power) = match (words.as_slice(), power) {
        ([w], p) => (*w, p),
        (["per", "cent"], 1) => ("percent", 1),
        ([sq, w], 1) if matches!(*sq, "square" | "sq" | "sq." | "Square") => (*w, 2),
        ([cu, w], 1) if matches!(*cu, "cubic" | "cu" | "cu." | "Cubic") => (*w, 3),
        ([w, "squared"], 1) => (*w, 2),
        ([w, "cubed"], 1) => (*w, 3),
        _ => return None,
    };
    let u = unit_word(word)?;
    match power {
        1 => Some(u),
        p => powered(u, p),
    }
}

/// `\$` in [`plain_text`]'s output (where a lone `$` is a math delimiter, removed).
const DOLLAR: char = '¤';

/// `\text{…}`, `\mathrm{…}`, `\textrm{…}`, `\mbox{…}`, `\textnormal{…}`, `\operatorname{…}`
/// replaced by a space and their content (so `5\text{m}` reads as `5 m`); spacing commands by a
/// space; `\%` by `%`; `$` removed. `None` when a wrapper is not closed.
fn plain_text(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len() + 4);
    let mut rest = s;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let cmd = &rest[i..];
        if let Some(p) = [
            "\\text{",
            "\\mathrm{",
            "\\textrm{",
            "\\mbox{",
            "\\textnormal{",
            "\\operatorname{",
        ]
        .iter()
        .find(|p| cmd.starts_with(**p))
        {
            let inner = &cmd[p.len()..];
            let close = inner.find('}')?;
            out.push(' ');
            out.push_str(&inner[..close]);
            rest = &inner[close + 1..];
            continue;
        }
        if let Some(p) = ["\\,", "\\ ", "\\;", "\\:", "\\!", "\\quad", "\\qquad"]
            .iter()
            .find(|p| cmd.starts_with(**p))
        {
            out.push(' ');
            rest = &cmd[p.len()..];
            continue;
        }
        if let Some(r) = cmd.strip_prefix("\\%") {
            out.push('%');
            rest = r;
            continue;
        }
        if let Some(r) = cmd.strip_prefix("\\$") {
            out.push(DOLLAR);
            rest = r;
            continue;
        }
        // Any other command (`\frac`, `\$`) is kept.
        out.push('\\');
        rest = &cmd[1..];
    }
    out.push_str(rest);
    Some(
        out.replace(['$', '~'], " ")
            .replace("^{2}", "^2")
            .replace("^{3}", "^3"),
    )
}

/// Could `s` carry a unit? A digit and a letter, `%`, `$` or `¢` (a byte test: the common plain
/// number pays nothing more).
fn may_have_unit(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter().any(u8::is_ascii_digit)
        && b.iter()
            .any(|c| c.is_ascii_alphabetic() || matches!(c, b'%' | b'$' | 0xc2))
}

/// The quantity an answer states: one number and a recognised unit after it (or a `\$` before
/// it); `None` for anything else. An equation's right side is read (`r = 5 \text{ cm}`).
pub fn quantity(s: &str) -> Option<Quantity> {
    if !may_have_unit(s) {
        return None;
    }
    let s = s.trim().trim_end_matches('.');
    let s = match s.rfind('=') {
        Some(i) => &s[i + 1..],
        None => s,
    };
    let text = plain_text(s)?;
    let t = text.trim().trim_end_matches('.').trim_end();
    // `\$5`: dollars, with nothing after the number.
    if let Some(v) = t.strip_prefix(DOLLAR) {
        let value = parse_number(v.trim())?;
        let plain = !v.bytes().any(|c| c.is_ascii_alphabetic() || c == b'%');
        return plain.then_some(Quantity {
            value,
            unit: Unit {
                dim: Dim::Money,
                scale: (100, 1),
            },
        });
    }
    // The unit tail: the last run of letters, spaces, '.', '%', '¢' and powers (`^2`, `²`).
    let b = t.as_bytes();
    let mut start = b.len();
    let mut i = t.len();
    for (j, c) in t.char_indices().rev() {
        let power = (c == '2' || c == '3') && j > 0 && b[j - 1] == b'^';
        if c.is_ascii_alphabetic() || matches!(c, ' ' | '.' | '%' | '¢' | '²' | '³' | '^') || power
        {
            i = j;
            if c != ' ' {
                start = j;
            }
        } else {
            break;
        }
    }
    // The tail starts at its first non-space character; the value is all before it.
    if start >= b.len() || i >= b.len() {
        return None;
    }
    let value_text = t[..start].trim_end();
    let tail = &t[start..];
    if value_text.is_empty() || value_text.ends_with(['\\', '^', '_']) {
        return None;
    }
    if value_text.bytes().any(|c| c.is_ascii_alphabetic()) {
        // Letters in the value may only be those of `\frac` / `\dfrac` / `\tfrac`.
        let stripped = value_text
            .replace("\\dfrac", "")
            .replace("\\tfrac", "")
            .replace("\\frac", "");
        if stripped.bytes().any(|c| c.is_ascii_alphabetic()) {
            return None;
        }
    }
    let unit = unit_of_tail(tail)?;
    let apart = t[..start].ends_with(' ');
    if !apart && ONE_LETTER.contains(&tail.trim_end_matches(['^', '2', '3', '²', '³'])) {
        return None;
    }
    let value = parse_number(value_text)?;
    if value.percent {
        return None;
    }
    Some(Quantity { value, unit })
}

/// The answer's quantity against the gold's.
pub fn against(gold: &Quantity, pred: &Quantity) -> Against {
    let (g, p) = (gold.unit, pred.unit);
    if g.dim != p.dim {
        // Months and years against days or weeks: a convention we do not judge.
        let calendar = matches!(
            (g.dim, p.dim),
            (Dim::Time, Dim::Calendar) | (Dim::Calendar, Dim::Time)
        );
        return if calendar {
            Against::Keep
        } else {
            Against::OtherDimension
        };
    }
    if g.scale.0 * p.scale.1 == p.scale.0 * g.scale.1 {
        return Against::Same;
    }
    match convert(&pred.value, p.scale, g.scale) {
        Some(v) => Against::Converted(v),
        None => Against::Keep,
    }
}

/// `value` in units of size `from` written in units of size `to` (exact; `None` on overflow or a
/// value without an exact form).
fn convert(value: &WrittenNumber, from: (i128, i128), to: (i128, i128)) -> Option<WrittenNumber> {
    let (n, d) = value.exact?;
    // value * from / to = n * from.0 * to.1 / (d * from.1 * to.0)
    let num = n.checked_mul(from.0)?.checked_mul(to.1)?;
    let den = d.checked_mul(from.1)?.checked_mul(to.0)?;
    let g = num_integer::gcd(num, den);
    let (num, den) = (num / g, den / g);
    parse_number(&if den == 1 {
        num.to_string()
    } else {
        format!("{num}/{den}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn unit(s: &str) -> Option<(Dim, (i128, i128))> {
        quantity(s).map(|q| (q.unit.dim, q.unit.scale))
    }

    #[test]
    fn reads_units_as_people_write_them() {
        for (s, dim) in [
            ("5 cm", Dim::Length),
            ("5cm", Dim::Length),
            ("5 \\text{ m}", Dim::Length),
            ("5\\text{m}", Dim::Length),
            ("5\\,\\mathrm{m}", Dim::Length),
            ("5~m", Dim::Length),
            ("5\\ \\text{meters}", Dim::Length),
            ("r = 5 \\text{ Meters}", Dim::Length),
            ("1,500 km", Dim::Length),
            ("\\frac{1}{2} \\text{ hour}", Dim::Time),
            ("12 \\text{ cm}^2", Dim::Area),
            ("12\\,\\mathrm{cm}^{2}", Dim::Area),
            ("12 cm²", Dim::Area),
            ("12 square feet", Dim::Area),
            ("12 \\text{ sq ft}", Dim::Area),
            ("8 \\text{ cm}^3", Dim::Volume),
            ("8 cubic meters", Dim::Volume),
            ("2 L", Dim::Volume),
            ("250 mL", Dim::Volume),
            ("2 l", Dim::Volume),
            ("3 kg", Dim::Mass),
            ("3 lbs", Dim::Mass),
            ("2 hours", Dim::Time),
            ("90 min", Dim::Time),
            ("3 weeks", Dim::Time),
            ("2 years", Dim::Calendar),
            ("\\$5", Dim::Money),
            ("\\$1.50", Dim::Money),
            ("5 dollars", Dim::Money),
            ("50 cents", Dim::Money),
            ("30\\%", Dim::Percent),
            ("30 percent", Dim::Percent),
            ("2.5 km.", Dim::Length),
        ] {
            assert_eq!(unit(s).map(|u| u.0), Some(dim), "{s}");
        }
    }

    #[test]
    fn no_unit_where_a_letter_is_no_unit() {
        for s in [
            "5",
            "m = 5",
            "5m",
            "5s",
            "5t",
            "5 t",
            "2l",
            "2x cm",
            "5 units",
            "12 square units",
            "60 km/h",
            "5 apples",
            "5 in total",
            "x^2 + 5 m",
            "\\sqrt{2} cm",
            "5 \\text{ cm} + 3",
            "\\$5 million",
            "a",
            "120^\\circ",
            "5 \\text{ m} \\text{ or } 6",
        ] {
            assert_eq!(unit(s), None, "{s}");
        }
    }

    fn q(s: &str) -> Quantity {
        quantity(s).unwrap_or_else(|| panic!("{s}"))
    }

    fn converted(gold: &str, pred: &str) -> Option<f64> {
        match against(&q(gold), &q(pred)) {
            Against::Converted(v) => Some(v.value),
            _ => None,
        }
    }

    #[test]
    fn converts_within_a_dimension() {
        assert_eq!(converted("5 m", "500 cm"), Some(5.0));
        assert_eq!(converted("5 m", "50 cm"), Some(0.5));
        assert_eq!(converted("2 hours", "120 minutes"), Some(2.0));
        assert_eq!(converted("1 km", "1000 \\text{ m}"), Some(1.0));
        assert_eq!(converted("1 m^2", "10000 cm^2"), Some(1.0));
        assert_eq!(converted("1 L", "1000 cm^3"), Some(1.0));
        assert_eq!(converted("3 ft", "1 yd"), Some(3.0));
        assert_eq!(converted("1 lb", "16 oz"), Some(1.0));
        assert_eq!(converted("\\$5", "500 cents"), Some(5.0));
        assert_eq!(converted("5 cm", "5 m"), Some(500.0));
    }

    #[test]
    fn same_unit_keeps_and_other_dimensions_differ() {
        assert_eq!(
            against(&q("5 cm"), &q("5 \\text{ centimeters}")),
            Against::Same
        );
        assert_eq!(against(&q("2 years"), &q("730 days")), Against::Keep);
        assert_eq!(against(&q("5 m"), &q("5 kg")), Against::OtherDimension);
        assert_eq!(against(&q("5 cm"), &q("5 cm^2")), Against::OtherDimension);
        assert_eq!(
            against(&q("5\\%"), &q("5 dollars")),
            Against::OtherDimension
        );
    }

    proptest! {
        /// Never panics on text made of the pieces it reads.
        #[test]
        fn no_panic(s in r"(\\text\{|\\mathrm\{|\}|\\,|\\\$|\$|%|¢|²|\^2|\^|=|cm|m|s|in|square|per cent|1|2\.5|/|\\frac\{1\}\{2\}| )*") {
            if let Some(q) = quantity(&s) {
                let _ = against(&q, &q);
            }
        }

        /// A value converted to another unit of its dimension and back is itself; a value in a
        /// unit against the same value in a unit of another scale is never equal.
        #[test]
        fn conversion_round_trips(n in 1i64..1_000_000, a in 0usize..8, b in 0usize..8) {
            let (ua, ub) = (LENGTHS[a].0[0], LENGTHS[b].0[0]);
            let there = match against(&q(&format!("1 {ub}")), &q(&format!("{n} {ua}"))) {
                Against::Converted(v) => v,
                Against::Same => { prop_assert_eq!(a, b); return Ok(()); }
                _ => { prop_assert!(false); unreachable!() }
            };
            prop_assert_ne!(there.exact, Some((i128::from(n), 1)));
            let back = convert(&there, LENGTHS[b].1, LENGTHS[a].1).unwrap();
            prop_assert_eq!(back.exact, Some((i128::from(n), 1)));
        }
    }
}
