//! Number literals of the fixed mode and their comparison (DESIGN.md "Policies of the default
//! mode"): thousands separators, decimals, scientific notation, fractions, percent and currency;
//! integer golds need an equal value; otherwise rounding-aware tolerance; exact rationals so
//! tiny and huge values compare relatively, never with an absolute epsilon.

use std::borrow::Cow;

use num_integer::gcd;

use crate::scan::braces::{matching_brace, whole_macro_arg, BraceIndex};
use crate::scan::digit_groups::{self, Context};
use crate::scan::{trim, trim_start};
use crate::verdict::{FiniteDecimals, MACHINE_ROUNDED_DIGITS};

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
    fn from_ratio(num: i128, den: i128) -> Option<WrittenNumber> {
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

    /// Is the value an integer written as one (or an exact fraction equal to one)?
    pub fn is_integer(&self) -> bool {
        matches!(self.exact, Some((_, 1))) && self.decimals.is_none()
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

fn pow10(k: u32) -> Option<i128> {
    10i128.checked_pow(k)
}

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
        } else if let Some(scale) = match w {
            "thousand" => Some(1_000u64),
            "million" => Some(1_000_000),
            "billion" => Some(1_000_000_000),
            _ => None,
        } {
            total = total.checked_add(current.max(1).checked_mul(scale)?)?;
            current = 0;
        } else {
            return None;
        }
        words += 1;
    }
    (words > 0).then(|| total + current)
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
        out = out
            .replace(",\\! ", ",")
            .replace(",\\!", ",")
            .replace(",\\,", ",");
        out = out
            .replace("\\left", "")
            .replace("\\right", "")
            .replace("\\!", "")
            .replace("\\dfrac", "\\frac")
            .replace("\\tfrac", "\\frac")
            .replace("^\\circ", "")
            .replace("^{\\circ}", "")
            .replace("\\$", "")
            .replace("\\%", "%");
    }
    if out.contains('\u{b0}') {
        out = out.replace('\u{b0}', "");
    }
    out = out.split_whitespace().collect::<Vec<_>>().join(" ");
    Cow::Owned(out.trim().trim_end_matches('.').trim().to_string())
}

/// A scanned number with its byte span in the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub start: usize,
    pub end: usize,
    pub number: WrittenNumber,
}

/// Digits collected on the stack (numbers in answers are short; longer ones lose exactness only).
struct Digits {
    buf: [u8; 48],
    len: usize,
    overflow: bool,
}

impl Digits {
    fn new() -> Self {
        Digits {
            buf: [0; 48],
            len: 0,
            overflow: false,
        }
    }
    fn push(&mut self, d: u8) {
        if self.len < self.buf.len() {
            self.buf[self.len] = d;
            self.len += 1;
        } else {
            self.overflow = true;
        }
    }
    fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
    /// The value of up to 36 digits (it fits in i128); `None` when there are none. Read from the
    /// bytes directly: going through `str` would validate UTF-8 first, and most numbers take
    /// the u64 loop.
    fn value(&self) -> Option<i128> {
        let d = self.bytes();
        if d.is_empty() {
            return None;
        }
        if d.len() <= 19 {
            return Some(i128::from(
                d.iter().fold(0u64, |v, &c| v * 10 + u64::from(c - b'0')),
            ));
        }
        Some(d.iter().fold(0i128, |v, &c| v * 10 + i128::from(c - b'0')))
    }
}

/// Parse one number literal at byte `i` of `s` (no leading sign; the caller handles it).
/// Returns the number and its end. Thousands separators need groups of exactly three digits.
fn literal_at(s: &str, i: usize, allow_space_groups: bool) -> Option<(WrittenNumber, usize)> {
    let b = s.as_bytes();
    // Fast path, most numbers ("18", "540", "20 dollars" in prose): a short run of digits that
    // nothing below can extend (no separator, point, exponent or `\times 10^k` can start at the
    // next byte) is the integer the general path would build.
    let run = b[i.min(b.len())..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    let plain_end = match b.get(i + run) {
        None => true,
        // In prose a space groups no digits; it may still lead to `\times 10^k`.
        Some(b' ') => !allow_space_groups && !times_ten_possible(&b[i + run..]),
        Some(c) => !matches!(
            c,
            b'.' | b'e' | b'E' | b',' | b'{' | b'\\' | b'*' | 0xc2 | 0xc3 | 0xe2
        ),
    };
    if (1..=18).contains(&run) && plain_end {
        let v = b[i..i + run]
            .iter()
            .fold(0u64, |v, &c| v * 10 + u64::from(c - b'0'));
        let n = WrittenNumber {
            exact: Some((i128::from(v), 1)),
            value: v as f64,
            decimals: None,
            sig_digits: 0,
            percent: false,
            big_integer: None,
        };
        return Some((n, i + run));
    }
    let mut k = i;
    let mut digits = Digits::new();
    while k < b.len() && b[k].is_ascii_digit() {
        digits.push(b[k]);
        k += 1;
    }
    // Thousands groups (`crate::scan::digit_groups`): a bare space only in whole-answer parsing.
    if digit_groups::can_lead(&b[i..k]) {
        let context = if allow_space_groups {
            Context::NumberAnswer
        } else {
            Context::NumberText
        };
        // A separator the number reader knows starts with one of these bytes (the thin spaces
        // with 0xE2; a bare space only in whole answers): checking it here spares the char
        // iterator of `separator_at` after nearly every number.
        while let Some(sep) = b
            .get(k)
            .is_some_and(|&c| {
                matches!(c, b',' | b'{' | b'\\' | 0xe2) || (c == b' ' && allow_space_groups)
            })
            .then(|| digit_groups::separator_at(s[k..].chars(), context))
            .flatten()
        {
            let g = k + sep.len();
            for &d in &b[g..g + 3] {
                digits.push(d);
            }
            k = g + 3;
        }
    }
    let mut frac_len = 0usize;
    let mut has_point = false;
    if k < b.len() && b[k] == b'.' && k + 1 < b.len() && b[k + 1].is_ascii_digit() {
        has_point = true;
        k += 1;
        while k < b.len() && b[k].is_ascii_digit() {
            digits.push(b[k]);
            frac_len += 1;
            k += 1;
        }
    }
    if digits.len == 0 && !digits.overflow {
        return None;
    }
    let mant_end = k;
    // Exponent: e/E with digits not followed by a letter ("3e5", not "3eggs"), or x 10^k.
    let mut exp: i32 = 0;
    let mut has_exp = false;
    if k < b.len() && (b[k] == b'e' || b[k] == b'E') {
        let mut j = k + 1;
        let mut neg = false;
        if j < b.len() && (b[j] == b'-' || b[j] == b'+') {
            neg = b[j] == b'-';
            j += 1;
        }
        let ds = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > ds && !(j < b.len() && b[j].is_ascii_alphabetic()) && j - ds <= 4 {
            exp = s[ds..j].parse::<i32>().ok()?;
            if neg {
                exp = -exp;
            }
            has_exp = true;
            k = j;
        }
    }
    if !has_exp && k < b.len() && matches!(b[k], b' ' | b'\\' | b'*' | 0xc2 | 0xc3) {
        if let Some((e, end)) = times_ten_power(s, k) {
            exp = e;
            has_exp = true;
            k = end;
        }
    }
    let ds = digits.bytes();
    let trimmed_len = ds.len() - ds.iter().take_while(|&&c| c == b'0').count();
    let sig = if trimmed_len == 0 {
        1
    } else {
        trimmed_len as u32
    };
    let scale = frac_len as i32 - exp;
    let mantissa: Option<i128> = if !digits.overflow && digits.len <= 36 {
        digits.value()
    } else {
        None
    };
    let exact = mantissa.and_then(|m| {
        if scale >= 0 {
            pow10(scale as u32).map(|d| (m, d))
        } else {
            pow10((-scale) as u32)
                .and_then(|p| m.checked_mul(p))
                .map(|n| (n, 1))
        }
    });
    let mut n = match exact {
        Some((a, d)) => WrittenNumber::from_ratio(a, d)?,
        None => {
            // Rare: too many digits or a huge exponent. Keep an approximate value.
            let text = if digits.overflow {
                s[i..mant_end].replace(|c: char| !c.is_ascii_digit(), "")
            } else {
                ds.iter().map(|&c| char::from(c)).collect()
            };
            let v: f64 = text.parse::<f64>().ok()? * 10f64.powi(-scale.clamp(-400, 400));
            let big_integer = (!has_point && exp >= 0).then(|| {
                let lead = text.trim_start_matches('0');
                let mut d = String::with_capacity(lead.len() + exp as usize);
                if !lead.is_empty() {
                    d.push_str(lead);
                    d.extend(std::iter::repeat_n('0', exp as usize));
                } else {
                    d.push('0');
                }
                d
            });
            WrittenNumber {
                exact: None,
                value: v,
                decimals: None,
                sig_digits: 0,
                percent: false,
                big_integer,
            }
        }
    };
    if has_point || (has_exp && exp < 0) {
        n.decimals = Some(scale);
        n.sig_digits = sig;
    }
    Some((n, k))
}

/// `\times 10^{k}`, `\cdot 10^k`, `× 10^k`, `*10^k` at `i` (spaces allowed): (k, end).
/// May an operator of [`times_ten_power`] follow in `rest`? No when, after ASCII white space,
/// comes the end or an ASCII byte other than the first of `\times`, `\cdot` or `*` (`trim_start`
/// stops there too); a non-ASCII byte may be Unicode white space, `×` or `·`.
fn times_ten_possible(rest: &[u8]) -> bool {
    match rest.iter().find(|c| !matches!(c, b' ' | b'\t'..=b'\r')) {
        Some(&c) => !c.is_ascii() || c == b'\\' || c == b'*',
        None => false,
    }
}

fn times_ten_power(s: &str, i: usize) -> Option<(i32, usize)> {
    let rest = &s[i..];
    // Quick refusal ("20 dollars").
    if !times_ten_possible(rest.as_bytes()) {
        return None;
    }
    let t = rest.trim_start();
    let mut off = rest.len() - t.len();
    let mut matched = false;
    for op in ["\\times", "\\cdot", "\u{d7}", "*", "\u{b7}"] {
        if let Some(r) = t.strip_prefix(op) {
            off += op.len() + (r.len() - r.trim_start().len());
            matched = true;
            break;
        }
    }
    if !matched {
        return None;
    }
    let r = &s[i + off..];
    let r2 = r.strip_prefix("10^")?;
    off += 3;
    let (body, used) = if let Some(inner) = r2.strip_prefix('{') {
        let close = inner.find('}')?;
        (&inner[..close], close + 2)
    } else {
        let len = r2
            .char_indices()
            .take_while(|&(j, c)| c.is_ascii_digit() || (j == 0 && c == '-'))
            .count();
        (&r2[..len], len)
    };
    let e: i32 = body.trim().replace('\u{2212}', "-").parse().ok()?;
    if e.abs() > 400 {
        return None;
    }
    Some((e, i + off + used))
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

fn negate(n: &mut WrittenNumber) {
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

/// `\frac{a}{b}`, `\frac ab`, `a/b` (integers or decimals) at `i`.
/// `close_of(open)`: the `}` matching the `{` at `open` (a [`BraceIndex`] when many are asked).
fn frac_at(
    s: &str,
    i: usize,
    close_of: &dyn Fn(usize) -> Option<usize>,
) -> Option<(WrittenNumber, usize)> {
    let r = &s[i..];
    if let Some(after) = r
        .strip_prefix("\\frac")
        .or_else(|| r.strip_prefix("\\dfrac"))
        .or_else(|| r.strip_prefix("\\tfrac"))
    {
        let base = s.len() - after.len();
        let (a, e1) = frac_arg(s, base, close_of)?;
        let (b, e2) = frac_arg(s, e1, close_of)?;
        return Some((divide(&a, &b)?, e2));
    }
    let (a, e1) = literal_at(s, i, false)?;
    slash_denominator(s, &a, e1)
}

/// `a/b` with integer `a` (already parsed, ending at `e1`) and integer `b`.
fn slash_denominator(s: &str, a: &WrittenNumber, e1: usize) -> Option<(WrittenNumber, usize)> {
    if s.as_bytes().get(e1) != Some(&b'/') || a.decimals.is_some() {
        return None;
    }
    let (b, e2) = literal_at(s, e1 + 1, false)?;
    if b.decimals.is_some() {
        return None;
    }
    Some((divide(a, &b)?, e2))
}

/// One argument of `\frac`: `{number}` or a single digit.
fn frac_arg(
    s: &str,
    i: usize,
    close_of: &dyn Fn(usize) -> Option<usize>,
) -> Option<(WrittenNumber, usize)> {
    let b = s.as_bytes();
    let mut k = i;
    while k < b.len() && b[k] == b' ' {
        k += 1;
    }
    if k < b.len() && b[k] == b'{' {
        let close = close_of(k)?;
        let inner = s[k + 1..close].trim();
        let (neg, inner) = match inner.strip_prefix('-') {
            Some(r) => (true, r.trim_start()),
            None => (false, inner),
        };
        let (mut n, e) = literal_at(inner, 0, false)?;
        if e != inner.len() {
            return None;
        }
        if neg {
            negate(&mut n);
        }
        return Some((n, close + 1));
    }
    if k < b.len() && b[k].is_ascii_digit() {
        let d = (b[k] - b'0') as i128;
        return Some((WrittenNumber::from_ratio(d, 1)?, k + 1));
    }
    None
}

fn divide(a: &WrittenNumber, b: &WrittenNumber) -> Option<WrittenNumber> {
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

/// Are two numbers the same answer? `gold` first.
///
/// - An integer gold needs an equal value (`1000.0` = `1000`, `1000.4` != `1000`).
/// - Exact values compare exactly (so `1/2^99` != `1/2^98`, however small).
/// - A decimal written to `d` places (and at least two significant digits) equals a value that
///   rounds to it at `d` places when that value has no finite decimal form (`0.33` = `1/3`); a
///   value with a finite decimal form (`2.828`, `3/8`) is exact under `FiniteDecimals::Exact`
///   unless the decimal has six or more significant digits, and is rounded like the others under
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
    // only a machine-rounded decimal (six or more significant digits) may stand for it.
    if decimals == FiniteDecimals::Exact
        && fine.has_finite_decimal_form()
        && coarse.sig_digits < MACHINE_ROUNDED_DIGITS
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

    fn n(s: &str) -> WrittenNumber {
        parse_number(s).unwrap_or_else(|| panic!("{s} should parse"))
    }
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

    #[test]
    fn literals() {
        assert_eq!(n("10,000").exact, Some((10000, 1)));
        assert_eq!(n("10{,}000").exact, Some((10000, 1)));
        assert_eq!(n("10\\,000").exact, Some((10000, 1)));
        assert_eq!(n("10 000").exact, Some((10000, 1)));
        assert_eq!(n("$1,450,000").exact, Some((1450000, 1)));
        assert_eq!(n("-10").exact, Some((-10, 1)));
        assert_eq!(n("3.5e-3").exact, Some((7, 2000)));
        assert_eq!(n("1.2 \\times 10^{5}").exact, Some((120000, 1)));
        assert_eq!(n("\\frac{3}{4}").exact, Some((3, 4)));
        assert_eq!(n("\\frac12").exact, Some((1, 2)));
        assert_eq!(n("-\\frac{1}{2}").exact, Some((-1, 2)));
        assert_eq!(n("3/4").exact, Some((3, 4)));
        assert!(n("50%").percent);
        assert_eq!(n("18 dollars").exact, Some((18, 1)));
        assert_eq!(n("20 \\text{cm}^2").exact, Some((20, 1)));
        assert!(parse_number("1,2").is_none());
        assert!(parse_number("-").is_none());
        assert!(parse_number("x+1").is_none());
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
}
