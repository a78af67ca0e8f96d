//! One number literal at a position: digits with thousands separators (groups of exactly three),
//! decimals, scientific notation (`1.5e3`, `1.2 \times 10^{5}`), and fractions (`\frac{a}{b}`,
//! `\frac ab`, `a/b`).

use super::{divide, negate, WrittenNumber};
use crate::scan::digit_groups::{self, Context};

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
pub(super) fn literal_at(
    s: &str,
    i: usize,
    allow_space_groups: bool,
) -> Option<(WrittenNumber, usize)> {
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

fn pow10(k: u32) -> Option<i128> {
    10i128.checked_pow(k)
}

/// `\frac{a}{b}`, `\frac ab`, `a/b` (integers or decimals) at `i`.
/// `close_of(open)`: the `}` matching the `{` at `open` (a [`BraceIndex`] when many are asked).
pub(super) fn frac_at(
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
pub(super) fn slash_denominator(
    s: &str,
    a: &WrittenNumber,
    e1: usize,
) -> Option<(WrittenNumber, usize)> {
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

#[cfg(test)]
mod tests {
    use crate::number::{n, parse_number};

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
}
