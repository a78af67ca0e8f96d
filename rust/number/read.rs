//! Reading numbers: a whole answer as one number ([`parse_number`]: sign, currency, literal or
//! fraction, percent, unit words) and every number in free text ([`scan_numbers`]).

use super::literal::{frac_at, literal_at, slash_denominator};
use super::{negate, WrittenNumber};
use crate::scan::braces::{matching_brace, whole_macro_arg, BraceIndex};
use crate::scan::{trim, trim_start};

/// A scanned number with its byte span in the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub start: usize,
    pub end: usize,
    pub number: WrittenNumber,
}

/// Parse a whole answer as one number: optional sign, currency, literal or fraction, percent,
/// trailing unit words. `None` if anything else remains.
pub fn parse_number(s: &str) -> Option<WrittenNumber> {
    crate::work::count(s.len());
    let t = strip_currency(trim(s));
    let (neg, body) = match t.chars().next() {
        Some('-') => (true, &t[1..]),
        Some('\u{2212}') => (true, &t['\u{2212}'.len_utf8()..]),
        Some('+') => (false, &t[1..]),
        _ => (false, t),
    };
    let body = strip_currency(trim_start(body));
    let (mut n, end) = if body.starts_with('\\') {
        frac_at(body, 0, &|o| matching_brace(body, o))?
    } else {
        let (a, e1) = literal_at(body, 0, true)?;
        match slash_denominator(body, &a, e1) {
            Some(f) => f,
            None => (a, e1),
        }
    };
    // `4t`, `2x`, `3n`, `4i`: a letter written onto the number is a variable (an answer in terms of
    // `t`, a complex number), not a unit; `5 t`, `5cm`, `5m`, `5k` stay a number with a unit.
    if is_glued_variable(&body[end..]) {
        return None;
    }
    let mut rest = trim_start(&body[end..]);
    if let Some(r) = rest
        .strip_prefix('%')
        .or_else(|| rest.strip_prefix("\\%"))
        .or_else(|| rest.strip_prefix("percent"))
    {
        n.percent = true;
        rest = r.trim_start();
    }
    if !rest.is_empty() && !is_unit_tail(rest) {
        return None;
    }
    if neg {
        negate(&mut n);
    }
    Some(n)
}

fn strip_currency(s: &str) -> &str {
    // Every prefix below starts with one of these bytes ('€' with 0xE2, '£' and '¥' with 0xC2).
    if !s
        .as_bytes()
        .first()
        .is_some_and(|c| matches!(c, b'\\' | b'$' | 0xe2 | 0xc2 | b'U'))
    {
        return s;
    }
    for c in ["\\$", "$", "\u{20ac}", "\u{a3}", "\u{a5}", "USD", "US$"] {
        if let Some(r) = s.strip_prefix(c) {
            return r.trim_start();
        }
    }
    s
}

/// Unit words after a number: letters (with `^2`, `/`, `\text{..}`), nothing numeric.
/// One letter right after a number, alone: one that names a variable in math answers (`t`, `x`,
/// `n`, `i`), not one a unit is abbreviated to (`m`, `s`, `g`, `h`, `k`, `l`, `e` of `5e3`).
fn is_glued_variable(tail: &str) -> bool {
    let t = tail.trim_end_matches(['.', '!', ' ', '$']);
    t.len() == 1 && "abcdijnpqrtuvwxyz".contains(t)
}

fn is_unit_tail(rest: &str) -> bool {
    let r = rest.trim_end_matches(['.', '!', ' ']);
    // A power on a wrapped unit: `\text{cm}^2`, `\mathrm{m}^{3}`.
    let unpowered = ["^2", "^3", "^{2}", "^{3}"]
        .iter()
        .find_map(|p| r.strip_suffix(p))
        .unwrap_or(r);
    if let Some(inner) = whole_macro_arg(unpowered, "\\text")
        .or_else(|| whole_macro_arg(unpowered, "\\mbox"))
        .or_else(|| whole_macro_arg(unpowered, "\\mathrm"))
    {
        return is_unit_tail(inner) || inner.trim().is_empty();
    }
    // Words, spaces, '/', '-', and `^2`/`^3` powers; no other LaTeX (so `4\sqrt{2}` is not "4 units").
    let b = r.as_bytes();
    !r.is_empty()
        && r.len() <= 40
        && r.chars().next().is_some_and(char::is_alphabetic)
        && r.char_indices().all(|(i, c)| {
            c.is_alphabetic()
                || matches!(c, ' ' | '/' | '-' | '\'' | '.' | '^')
                || (matches!(c, '2' | '3') && i > 0 && b[i - 1] == b'^')
        })
}

/// Every number in free text, left to right. A hyphen is a minus sign only when it directly
/// precedes a digit and does not follow a letter or digit ("x-axis", "5-3" are not negatives);
/// exponents of units (`cm^2`) are skipped; thousands separators need groups of three.
pub fn scan_numbers(s: &str) -> Vec<Found> {
    crate::work::count(s.len());
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut brace_index: Option<BraceIndex> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        // Only ASCII bytes start a number, so every slice below is at a char boundary.
        let starts_frac = c == b'\\'
            && (s[i..].starts_with("\\frac")
                || s[i..].starts_with("\\dfrac")
                || s[i..].starts_with("\\tfrac"));
        let starts_num = c.is_ascii_digit()
            || (c == b'.'
                && i + 1 < b.len()
                && b[i + 1].is_ascii_digit()
                && (i == 0 || !b[i - 1].is_ascii_digit()));
        if !(starts_num || starts_frac) {
            i += 1;
            continue;
        }
        // Skip digits glued to letters ("x2", "H2O") and unit exponents ("cm^2").
        if starts_num && i > 0 {
            let p = b[i - 1];
            if p.is_ascii_alphabetic()
                || p == b'_'
                || (p == b'^' && i >= 2 && b[i - 2].is_ascii_alphabetic())
            {
                while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                    i += 1;
                }
                continue;
            }
        }
        let parsed = if starts_frac {
            // One brace pass for the whole text, made on the first `\frac`.
            let braces = brace_index.get_or_insert_with(|| BraceIndex::new(s));
            frac_at(s, i, &|o| braces.matching(o))
        } else {
            literal_at(s, i, false).map(|(a, e1)| slash_denominator(s, &a, e1).unwrap_or((a, e1)))
        };
        let Some((mut n, mut end)) = parsed else {
            i += 1;
            continue;
        };
        // sign
        let mut start = i;
        if i > 0 && (b[i - 1] == b'-') {
            let before = if i >= 2 { Some(b[i - 2]) } else { None };
            if before.is_none_or(|p| !(p.is_ascii_alphanumeric() || p == b')' || p == b'}')) {
                negate(&mut n);
                start = i - 1;
            }
        } else if s[..i].ends_with('\u{2212}') {
            negate(&mut n);
            start = i - '\u{2212}'.len_utf8();
        }
        let rest = &s[end..];
        if let Some(r) = rest.strip_prefix('%').or_else(|| rest.strip_prefix("\\%")) {
            n.percent = true;
            end = s.len() - r.len();
        } else if rest.starts_with(" percent") || rest.starts_with(" per cent") {
            n.percent = true;
        }
        out.push(Found {
            start,
            end,
            number: n,
        });
        i = end.max(i + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scanning_free_text() {
        let v: Vec<f64> =
            scan_numbers("the zoo-keeper fed 3 x-axis 5-3 and -4, total 1,234.5 cm^2")
                .iter()
                .map(|f| f.number.value)
                .collect();
        assert_eq!(v, vec![3.0, 5.0, 3.0, -4.0, 1234.5]);
        let v: Vec<f64> = scan_numbers("\\frac{1}{2} and 25%")
            .iter()
            .map(|f| f.number.value)
            .collect();
        assert_eq!(v, vec![0.5, 25.0]);
    }

    /// Issue 32: the gold `4t` (an answer in terms of `t`) was read as 4, so `\boxed{4}` was right.
    #[test]
    fn a_letter_written_onto_a_number_is_a_variable_not_a_unit() {
        for s in ["4t", "2x", "3n", "4i", "-2y", "4t."] {
            assert!(parse_number(s).is_none(), "{s}");
        }
        for (s, v) in [
            ("5 t", 5.0),
            ("5m", 5.0),
            ("5cm", 5.0),
            ("5 km", 5.0),
            ("18", 18.0),
        ] {
            assert_eq!(parse_number(s).map(|n| n.value), Some(v), "{s}");
        }
    }
}
