//! Python number semantics the seed relies on: `int(str)`, `float(str)`, `str.isdigit`,
//! `math.isclose`, and `==` between int and float. The seed's `eval` of fraction strings is
//! emulated in [`super::pyeval`] on top of these.

use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// A Python number as the seed sees it (`bool` is an `int`).
#[derive(Debug, Clone, PartialEq)]
pub enum PyNum {
    Int(BigInt),
    Float(f64),
}

impl PyNum {
    /// `float(x)`; `None` where Python raises OverflowError (int too large).
    pub fn to_f64(&self) -> Option<f64> {
        match self {
            PyNum::Float(f) => Some(*f),
            PyNum::Int(i) => i.to_f64().filter(|f| f.is_finite()),
        }
    }
}

/// Python `==` between numbers: exact, also between an int and a float.
pub fn py_eq(a: &PyNum, b: &PyNum) -> bool {
    match (a, b) {
        (PyNum::Int(x), PyNum::Int(y)) => x == y,
        (PyNum::Float(x), PyNum::Float(y)) => x == y,
        (PyNum::Int(i), PyNum::Float(f)) | (PyNum::Float(f), PyNum::Int(i)) => {
            f.is_finite() && f.fract() == 0.0 && float_to_bigint(*f).is_some_and(|g| &g == i)
        }
    }
}

/// `math.isclose(a, b, rel_tol=rel, abs_tol=0.0)`.
pub fn isclose(a: f64, b: f64, rel: f64) -> bool {
    if a == b {
        return true;
    }
    if a.is_infinite() || b.is_infinite() {
        return false;
    }
    let diff = (a - b).abs();
    diff <= (rel * b).abs() || diff <= (rel * a).abs()
}

/// Exact integer value of a finite float with no fractional part (`int(f)` after truncation).
pub fn float_to_bigint(f: f64) -> Option<BigInt> {
    if !f.is_finite() {
        return None;
    }
    let t = f.trunc();
    if t.abs() < 9.0e15 {
        return Some(BigInt::from(t as i64));
    }
    // Exact conversion through the binary representation.
    let bits = t.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64 - 1075;
    let mant = (bits & ((1u64 << 52) - 1)) | (1u64 << 52);
    let mut v = BigInt::from(mant);
    if exp >= 0 {
        v <<= exp as usize;
    } else {
        v >>= (-exp) as usize;
    }
    Some(if t < 0.0 { -v } else { v })
}

/// Python's `str.isspace()` (Unicode White_Space plus the ASCII separators U+001C..U+001F).
pub fn py_isspace(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.isdigit()`: decimal digits plus characters with Numeric_Type=Digit
/// (superscripts, subscripts, circled and parenthesised digits, ...).
pub fn py_isdigit(c: char) -> bool {
    if c.is_ascii_digit() {
        return true;
    }
    if c.is_ascii() {
        return false;
    }
    decimal_value(c).is_some()
        || matches!(c,
            '\u{b2}' | '\u{b3}' | '\u{b9}' | '\u{1369}'..='\u{1371}' | '\u{19da}' | '\u{2070}' | '\u{2074}'..='\u{2079}'
            | '\u{2080}'..='\u{2089}' | '\u{2460}'..='\u{2468}' | '\u{2474}'..='\u{247c}' | '\u{2488}'..='\u{2490}'
            | '\u{24ea}' | '\u{24f5}'..='\u{24fd}' | '\u{24ff}' | '\u{2776}'..='\u{277e}' | '\u{2780}'..='\u{2788}'
            | '\u{278a}'..='\u{2792}' | '\u{10a40}'..='\u{10a43}' | '\u{10e60}'..='\u{10e68}' | '\u{11052}'..='\u{1105a}'
            | '\u{1f100}'..='\u{1f10a}')
}

/// Value of a Unicode decimal digit (general category Nd), as Python's `int()` reads it.
pub fn decimal_value(c: char) -> Option<u32> {
    if let Some(d) = c.to_digit(10) {
        return Some(d);
    }
    if c.is_ascii() {
        return None;
    }
    // Nd digits come in contiguous runs of ten starting at a zero; find the zero by scanning back.
    let cp = c as u32;
    if !is_nd(c) {
        return None;
    }
    for back in 0..10u32 {
        let z = cp.checked_sub(back)?;
        let zc = char::from_u32(z)?;
        if !is_nd(zc) {
            return None;
        }
        if is_nd_zero(zc) {
            return Some(back);
        }
    }
    None
}

fn is_nd(c: char) -> bool {
    use std::sync::OnceLock;
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    let re = RE.get_or_init(|| regex::Regex::new(r"^\p{Nd}$").expect("static regex"));
    let mut buf = [0u8; 4];
    re.is_match(c.encode_utf8(&mut buf))
}

fn is_nd_zero(c: char) -> bool {
    // Every Nd run of ten starts at a code point whose previous code point is not Nd, except
    // runs placed back to back (mathematical digits U+1D7CE..U+1D7FF): those start every 10
    // from U+1D7CE.
    let cp = c as u32;
    if (0x1d7ce..=0x1d7ff).contains(&cp) {
        return (cp - 0x1d7ce) % 10 == 0;
    }
    match char::from_u32(cp.wrapping_sub(1)) {
        Some(p) => !is_nd(p),
        None => true,
    }
}

/// CPython's default `sys.get_int_max_str_digits()` (3.11+, and the 3.7–3.10 security
/// releases since September 2022): `int()` of a decimal string, or a decimal literal, with more
/// digits raises ValueError. Emulating it also keeps the work linear: a decimal string of n
/// digits costs O(n^2) to convert to a big integer.
pub const INT_MAX_STR_DIGITS: usize = 4300;

/// Python `int(s)` for a base-10 string: surrounding whitespace, one sign, digits (any Nd
/// script), single underscores between digits; `None` where Python raises ValueError
/// (including more than [`INT_MAX_STR_DIGITS`] digits).
pub fn py_int(s: &str) -> Option<BigInt> {
    let t = s.trim_matches(py_isspace);
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let digits = underscored_digits(body)?;
    if digits.len() > INT_MAX_STR_DIGITS {
        return None;
    }
    let v: BigInt = digits.parse().ok()?;
    Some(if neg { -v } else { v })
}

/// Digits with single underscores between them, as ASCII; `None` if malformed.
fn underscored_digits(body: &str) -> Option<String> {
    let mut out = String::with_capacity(body.len());
    let mut prev_digit = false;
    let mut pending_us = false;
    for c in body.chars() {
        if c == '_' {
            if !prev_digit || pending_us {
                return None;
            }
            pending_us = true;
            continue;
        }
        let d = decimal_value(c)?;
        out.push(char::from_digit(d, 10)?);
        prev_digit = true;
        pending_us = false;
    }
    (!out.is_empty() && !pending_us).then_some(out)
}

/// Python `float(s)`.
pub fn py_float(s: &str) -> Option<f64> {
    let t = s.trim_matches(py_isspace);
    let (sign, body) = match t.as_bytes().first() {
        Some(b'-') => (-1.0, &t[1..]),
        Some(b'+') => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    let lower = body.to_ascii_lowercase();
    if lower == "inf" || lower == "infinity" {
        return Some(sign * f64::INFINITY);
    }
    if lower == "nan" {
        return Some(f64::NAN);
    }
    // mantissa [. fraction] [e|E [sign] exponent], each digit run with single underscores.
    let (mant, exp) = match body.find(['e', 'E']) {
        Some(p) => (&body[..p], Some(&body[p + 1..])),
        None => (body, None),
    };
    let (ip, fp) = match mant.find('.') {
        Some(p) => (&mant[..p], Some(&mant[p + 1..])),
        None => (mant, None),
    };
    let ip_d = if ip.is_empty() {
        Some(String::new())
    } else {
        underscored_digits(ip)
    }?;
    let fp_d = match fp {
        None => String::new(),
        Some("") => String::new(),
        Some(f) => underscored_digits(f)?,
    };
    if ip_d.is_empty() && fp_d.is_empty() {
        return None;
    }
    let mut lit = format!("{ip_d}.{fp_d}");
    if lit == "." {
        return None;
    }
    if lit.starts_with('.') {
        lit.insert(0, '0');
    }
    if let Some(e) = exp {
        let (esign, ebody) = match e.as_bytes().first() {
            Some(b'-') => ("-", &e[1..]),
            Some(b'+') => ("", &e[1..]),
            _ => ("", e),
        };
        let ed = underscored_digits(ebody)?;
        lit.push('e');
        lit.push_str(esign);
        lit.push_str(&ed);
    }
    lit.parse::<f64>().ok().map(|v| sign * v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(v: f64) -> PyNum {
        PyNum::Float(v)
    }
    fn i(v: i64) -> PyNum {
        PyNum::Int(BigInt::from(v))
    }

    #[test]
    fn int_and_float_parse_like_python() {
        assert_eq!(py_int(" 12 "), Some(BigInt::from(12)));
        assert_eq!(py_int("1_000"), Some(BigInt::from(1000)));
        assert_eq!(py_int("1__0"), None);
        assert_eq!(py_int("٣٤"), Some(BigInt::from(34)));
        assert_eq!(py_int("1e3"), None);
        assert_eq!(py_int("-"), None);
        // CPython's int_max_str_digits: 4300 digits convert, 4301 raise ValueError.
        assert!(py_int(&"7".repeat(INT_MAX_STR_DIGITS)).is_some());
        assert_eq!(py_int(&"7".repeat(INT_MAX_STR_DIGITS + 1)), None);
        assert_eq!(
            py_int(&format!("-{}", "1".repeat(INT_MAX_STR_DIGITS + 1))),
            None
        );
        assert_eq!(py_float("1.5e3"), Some(1500.0));
        assert_eq!(py_float(".5"), Some(0.5));
        assert_eq!(py_float("5."), Some(5.0));
        assert_eq!(py_float("5 . 3"), None);
        assert_eq!(py_float("1_0.5"), Some(10.5));
        assert!(py_float("Infinity").unwrap().is_infinite());
    }

    #[test]
    fn isdigit_covers_superscripts() {
        assert!(py_isdigit('²'));
        assert!(py_isdigit('٣'));
        assert!(!py_isdigit('½'));
        assert!(!py_isdigit('a'));
        assert_eq!(decimal_value('٣'), Some(3));
        assert_eq!(decimal_value('𝟗'), Some(9));
    }

    #[test]
    fn isclose_and_eq() {
        assert!(isclose(43.04, 43.0, 1e-3));
        assert!(!isclose(43.05, 43.0, 1e-3));
        assert!(py_eq(&i(1), &f(1.0)));
        assert!(!py_eq(&i(1), &f(1.5)));
    }
}
