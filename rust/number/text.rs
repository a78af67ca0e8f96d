//! Answers read as text: English number words ("twenty-four") and the light normalisation of an
//! answer for literal comparison.

use std::borrow::Cow;

use crate::scan::braces::whole_macro_arg;
use crate::scan::trim;

/// The value of an answer written in English number words ("seven", "twenty-four", "one
/// hundred and five", "Eleven"), the whole answer only (a final period allowed); `None` for
/// anything else ("one of the", "none").
pub fn number_words(s: &str) -> Option<u64> {
    const UNITS: [&str; 20] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ];
    const TENS: [&str; 8] = [
        "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    // A digit makes some word unknown: no lowercased copy needed to say so.
    if s.bytes().any(|c| c.is_ascii_digit()) {
        return None;
    }
    let text = s.trim().trim_end_matches('.').to_lowercase();
    let (mut total, mut current, mut words) = (0u64, 0u64, 0usize);
    for w in text.split(|c: char| c.is_whitespace() || c == '-') {
        if w.is_empty() || (w == "and" && words > 0) {
            continue;
        }
        if let Some(v) = UNITS.iter().position(|u| *u == w) {
            current = current.checked_add(v as u64)?;
        } else if let Some(k) = TENS.iter().position(|t| *t == w) {
            current = current.checked_add(20 + 10 * k as u64)?;
        } else if w == "hundred" {
            current = current.max(1).checked_mul(100)?;
        } else if let Some(scale) = scale_exponent(w).and_then(|k| 10u64.checked_pow(k)) {
            total = total.checked_add(current.max(1).checked_mul(scale)?)?;
            current = 0;
        } else {
            return None;
        }
        words += 1;
    }
    (words > 0).then(|| total + current)
}

/// The power of ten a scale word stands for: thousand 3, million 6, billion 9, trillion 12.
fn scale_exponent(word: &str) -> Option<u32> {
    match word {
        "thousand" => Some(3),
        "million" => Some(6),
        "billion" => Some(9),
        "trillion" => Some(12),
        _ => None,
    }
}

/// "1.5 million" → `1500000`: a decimal number and a scale word (thousand to trillion), exactly.
pub fn scaled_number(p: &str) -> Option<String> {
    let p = p.trim();
    let at = p.find(|c: char| c.is_ascii_alphabetic())?;
    let (num, word) = (&p[..at], p[at..].trim());
    let k = scale_exponent(&word.trim_end_matches('.').to_ascii_lowercase())? as usize;
    let num = num.trim().trim_start_matches('$');
    // Commas only as thousands groups ("2,500 thousand"; "2,5" is a decimal comma: left alone).
    if num
        .split(',')
        .skip(1)
        .any(|g| g.split('.').next().map(str::len) != Some(3))
    {
        return None;
    }
    let num = num.replace(',', "");
    if num.is_empty()
        || !num.bytes().all(|c| c.is_ascii_digit() || c == b'.')
        || num.matches('.').count() > 1
    {
        return None;
    }
    let (int, frac) = num.split_once('.').unwrap_or((&num, ""));
    if frac.len() > k || int.is_empty() && frac.is_empty() {
        return None;
    }
    let digits = format!("{int}{frac}{}", "0".repeat(k - frac.len()));
    let v = digits.trim_start_matches('0');
    Some(if v.is_empty() { "0".into() } else { v.into() })
}

/// Light normalisation of an answer for literal comparison: math delimiters, boxes, `\left`,
/// spacing macros, `\dfrac`/`\tfrac`, degree signs, currency and trailing period removed;
/// whitespace collapsed. Case is kept (no case-folding of LaTeX).
pub fn normalize_answer(s: &str) -> Cow<'_, str> {
    // Fast path for plain answers ("18", "1,450,000", "3.5 km"): no wrappers or macros to peel,
    // and the result is a slice of the input (no copy).
    if !s
        .bytes()
        .any(|b| matches!(b, b'$' | b'\\' | b'{' | b'\n' | b'\t' | b'\r') || b >= 0x80)
        && !s.as_bytes().windows(2).any(|w| w == b"  ")
    {
        return Cow::Borrowed(trim(trim(s).trim_end_matches('.')));
    }
    let mut t = s.trim().to_string();
    // Peel wrappers repeatedly: "$\boxed{5}$." -> "5".
    for _ in 0..8 {
        let before = t.len();
        t = t.trim().trim_end_matches('.').trim().to_string();
        for (open, close) in [("$$", "$$"), ("\\[", "\\]"), ("\\(", "\\)"), ("$", "$")] {
            if t.len() >= open.len() + close.len() && t.starts_with(open) && t.ends_with(close) {
                t = t[open.len()..t.len() - close.len()].to_string();
            }
        }
        if t.starts_with('\\') {
            for mac in [
                "\\boxed", "\\fbox", "\\text", "\\textbf", "\\mathrm", "\\mathbf", "\\mbox",
            ] {
                if let Some(inner) = whole_macro_arg(&t, mac) {
                    t = inner.to_string();
                }
            }
        }
        if t.len() == before {
            break;
        }
    }
    let mut out = t;
    if out.contains('\\') {
        // LaTeX thousands "11,\! 111" / "11,\,111" become plain "11,111".
        out = crate::scan::replace::replace_each(
            out,
            &[
                (",\\! ", ","),
                (",\\!", ","),
                (",\\,", ","),
                ("\\left", ""),
                ("\\right", ""),
                ("\\!", ""),
                ("\\dfrac", "\\frac"),
                ("\\tfrac", "\\frac"),
                ("^\\circ", ""),
                ("^{\\circ}", ""),
                ("\\$", ""),
                ("\\%", "%"),
            ],
        );
    }
    if out.contains('\u{b0}') {
        out = out.replace('\u{b0}', "");
    }
    out = out.split_whitespace().collect::<Vec<_>>().join(" ");
    Cow::Owned(out.trim().trim_end_matches('.').trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_words_are_whole_answers() {
        for (w, v) in [
            ("seven", 7),
            ("Seven.", 7),
            ("twenty-four", 24),
            ("one hundred", 100),
            ("one hundred and five", 105),
            ("two thousand three hundred forty-one", 2341),
            ("Eleven", 11),
            ("zero", 0),
            ("a million", 0),
        ] {
            if w == "a million" {
                assert_eq!(number_words(w), None);
            } else {
                assert_eq!(number_words(w), Some(v), "{w}");
            }
        }
        for w in ["one of the", "none", "", "and", "seven apples", "7"] {
            assert_eq!(number_words(w), None, "{w}");
        }
    }
}
