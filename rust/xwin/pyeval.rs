//! The seed's `eval` of the fraction strings its regexes match, *emulated*, never run: a
//! tokenizer and precedence parser for the one shape those regexes can produce (numeric literals,
//! single-character operators, `/`), giving the same value or the same failure (SyntaxError,
//! NameError, ZeroDivisionError, TypeError). Number semantics come from [`super::pynum`].

use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};
use std::cmp::Ordering;

use super::pynum::PyNum;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(PyNum),
    Op(&'static str),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvalError {
    /// SyntaxError / NameError / TypeError: the seed's except turns them all into False.
    Invalid,
    ZeroDivision,
}

const OPS: [&str; 22] = [
    "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+", "-", "*", "/", "%", "@", "&", "|", "^",
    "~", "<", ">", "(", ")",
];

fn tokenize(src: &str) -> Result<Vec<Tok>, EvalError> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b' ' || c == b'\t' || c == b'\x0c' {
            i += 1;
            continue;
        }
        if c == b'#' {
            break; // comment to end of line; the matched strings have no newline
        }
        if c.is_ascii_digit() || (c == b'.' && i + 1 < b.len() && b[i + 1].is_ascii_digit()) {
            let (tok, end) = number_literal(src, i)?;
            // A literal directly followed by a name character or another literal is a SyntaxError.
            if end < b.len()
                && (b[end].is_ascii_alphanumeric()
                    || b[end] == b'_'
                    || b[end] == b'.'
                    || b[end] >= 0x80)
            {
                return Err(EvalError::Invalid);
            }
            if matches!(out.last(), Some(Tok::Num(_))) {
                return Err(EvalError::Invalid);
            }
            out.push(Tok::Num(tok));
            i = end;
            continue;
        }
        match OPS.iter().find(|op| src[i..].starts_with(**op)) {
            Some(op) => {
                out.push(Tok::Op(op));
                i += op.len();
            }
            None => return Err(EvalError::Invalid),
        }
    }
    Ok(out)
}

/// A Python numeric literal starting at `i`: (value, end).
fn number_literal(src: &str, i: usize) -> Result<(PyNum, usize), EvalError> {
    let b = src.as_bytes();
    if b[i] == b'0'
        && i + 1 < b.len()
        && matches!(b[i + 1], b'x' | b'X' | b'o' | b'O' | b'b' | b'B')
    {
        let radix = match b[i + 1] {
            b'x' | b'X' => 16,
            b'o' | b'O' => 8,
            _ => 2,
        };
        let mut j = i + 2;
        let mut digits = String::new();
        let mut last_us = true; // `0x_1` is allowed: an underscore may follow the prefix
        while j < b.len() {
            let c = b[j] as char;
            if c == '_' {
                if last_us && !digits.is_empty() {
                    return Err(EvalError::Invalid);
                }
                last_us = true;
                j += 1;
                continue;
            }
            if !c.is_digit(radix) {
                break;
            }
            digits.push(c);
            last_us = false;
            j += 1;
        }
        if digits.is_empty() || (last_us && j > i + 2 && b[j - 1] == b'_') {
            return Err(EvalError::Invalid);
        }
        let v = BigInt::parse_bytes(digits.as_bytes(), radix).ok_or(EvalError::Invalid)?;
        return Ok((PyNum::Int(v), j));
    }
    // decimal: digitpart [. [digitpart]] [exponent] [j]
    let run = |mut j: usize| -> Result<usize, EvalError> {
        let start = j;
        while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'_') {
            if b[j] == b'_'
                && (j == start
                    || !b[j - 1].is_ascii_digit()
                    || j + 1 >= b.len()
                    || !b[j + 1].is_ascii_digit())
            {
                return Err(EvalError::Invalid);
            }
            j += 1;
        }
        Ok(j)
    };
    let int_end = run(i)?;
    let mut j = int_end;
    let mut is_float = false;
    if j < b.len() && b[j] == b'.' {
        is_float = true;
        j = run(j + 1)?;
    }
    if j < b.len() && (b[j] == b'e' || b[j] == b'E') {
        let mut k = j + 1;
        if k < b.len() && (b[k] == b'+' || b[k] == b'-') {
            k += 1;
        }
        if k < b.len() && b[k].is_ascii_digit() {
            j = run(k)?;
            is_float = true;
        } else {
            return Err(EvalError::Invalid);
        }
    }
    if j < b.len() && (b[j] == b'j' || b[j] == b'J') {
        return Err(EvalError::Invalid); // complex numbers cannot be compared by the seed either
    }
    let text: String = src[i..j].chars().filter(|&c| c != '_').collect();
    if is_float {
        let v = text.parse::<f64>().map_err(|_| EvalError::Invalid)?;
        return Ok((PyNum::Float(v), j));
    }
    // Python 3 forbids leading zeros in non-zero decimal integers ("05").
    if text.len() > 1 && text.starts_with('0') && text.bytes().any(|c| c != b'0') {
        return Err(EvalError::Invalid);
    }
    // A decimal literal over CPython's int_max_str_digits is a SyntaxError there.
    if text.len() > super::pynum::INT_MAX_STR_DIGITS {
        return Err(EvalError::Invalid);
    }
    let v: BigInt = text.parse().map_err(|_| EvalError::Invalid)?;
    Ok((PyNum::Int(v), j))
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
}

/// Largest exponent we evaluate for `int ** int`; Python would compute bigger ones (slowly),
/// the regex-matched strings never need them.
const MAX_POW: u32 = 10_000;

impl Parser {
    fn peek(&self) -> Option<&'static str> {
        match self.toks.get(self.pos) {
            Some(Tok::Op(o)) => Some(o),
            _ => None,
        }
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.peek() == Some(op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    // comparison: or_expr (('<'|'>'|'=='|'>='|'<='|'!=') or_expr)*  (chained, Python semantics)
    fn comparison(&mut self) -> Result<PyNum, EvalError> {
        let first = self.bitor()?;
        let mut left = first.clone();
        let mut result: Option<bool> = None;
        while let Some(op) = self
            .peek()
            .filter(|o| matches!(*o, "<" | ">" | "==" | ">=" | "<=" | "!="))
        {
            self.pos += 1;
            let right = self.bitor()?;
            let ok = compare(&left, &right, op)?;
            result = Some(result.unwrap_or(true) && ok);
            left = right;
        }
        Ok(match result {
            None => first,
            Some(r) => PyNum::Int(BigInt::from(r as u8)),
        })
    }

    fn bitor(&mut self) -> Result<PyNum, EvalError> {
        let mut l = self.bitxor()?;
        while self.eat("|") {
            let r = self.bitxor()?;
            l = int_op(&l, &r, |a, b| a | b)?;
        }
        Ok(l)
    }

    fn bitxor(&mut self) -> Result<PyNum, EvalError> {
        let mut l = self.bitand()?;
        while self.eat("^") {
            let r = self.bitand()?;
            l = int_op(&l, &r, |a, b| a ^ b)?;
        }
        Ok(l)
    }

    fn bitand(&mut self) -> Result<PyNum, EvalError> {
        let mut l = self.shift()?;
        while self.eat("&") {
            let r = self.shift()?;
            l = int_op(&l, &r, |a, b| a & b)?;
        }
        Ok(l)
    }

    fn shift(&mut self) -> Result<PyNum, EvalError> {
        let mut l = self.arith()?;
        loop {
            let left_shift = if self.eat("<<") {
                true
            } else if self.eat(">>") {
                false
            } else {
                return Ok(l);
            };
            let r = self.arith()?;
            let (PyNum::Int(a), PyNum::Int(b)) = (&l, &r) else {
                return Err(EvalError::Invalid);
            };
            let n = b
                .to_u32()
                .filter(|n| *n <= MAX_POW)
                .ok_or(EvalError::Invalid)?;
            l = PyNum::Int(if left_shift { a << n } else { a >> n });
        }
    }

    fn arith(&mut self) -> Result<PyNum, EvalError> {
        let mut l = self.term()?;
        loop {
            if self.eat("+") {
                let r = self.term()?;
                l = num_op(&l, &r, |a, b| a + b, |a, b| a + b);
            } else if self.eat("-") {
                let r = self.term()?;
                l = num_op(&l, &r, |a, b| a - b, |a, b| a - b);
            } else {
                return Ok(l);
            }
        }
    }

    fn term(&mut self) -> Result<PyNum, EvalError> {
        let mut l = self.factor()?;
        loop {
            let op = match self.peek() {
                Some(o @ ("*" | "/" | "//" | "%" | "@")) => o,
                _ => return Ok(l),
            };
            self.pos += 1;
            let r = self.factor()?;
            l = match op {
                "*" => num_op(&l, &r, |a, b| a * b, |a, b| a * b),
                "/" => true_div(&l, &r)?,
                "//" => floor_div(&l, &r)?,
                "%" => modulo(&l, &r)?,
                _ => return Err(EvalError::Invalid), // '@' on numbers: TypeError
            };
        }
    }

    fn factor(&mut self) -> Result<PyNum, EvalError> {
        if self.eat("-") {
            let v = self.factor()?;
            return Ok(match v {
                PyNum::Int(i) => PyNum::Int(-i),
                PyNum::Float(f) => PyNum::Float(-f),
            });
        }
        if self.eat("+") {
            return self.factor();
        }
        if self.eat("~") {
            return match self.factor()? {
                PyNum::Int(i) => Ok(PyNum::Int(-i - 1)),
                PyNum::Float(_) => Err(EvalError::Invalid),
            };
        }
        self.power()
    }

    fn power(&mut self) -> Result<PyNum, EvalError> {
        let base = self.atom()?;
        if self.eat("**") {
            let exp = self.factor()?;
            return pow(&base, &exp);
        }
        Ok(base)
    }

    fn atom(&mut self) -> Result<PyNum, EvalError> {
        match self.toks.get(self.pos).cloned() {
            Some(Tok::Num(n)) => {
                self.pos += 1;
                Ok(n)
            }
            Some(Tok::Op("(")) => {
                self.pos += 1;
                let v = self.comparison()?;
                if !self.eat(")") {
                    return Err(EvalError::Invalid);
                }
                Ok(v)
            }
            _ => Err(EvalError::Invalid),
        }
    }
}

fn as_f64(n: &PyNum) -> Result<f64, EvalError> {
    n.to_f64().ok_or(EvalError::Invalid)
}

fn num_op(
    a: &PyNum,
    b: &PyNum,
    fi: impl Fn(&BigInt, &BigInt) -> BigInt,
    ff: impl Fn(f64, f64) -> f64,
) -> PyNum {
    match (a, b) {
        (PyNum::Int(x), PyNum::Int(y)) => PyNum::Int(fi(x, y)),
        _ => PyNum::Float(ff(
            a.to_f64().unwrap_or(f64::INFINITY),
            b.to_f64().unwrap_or(f64::INFINITY),
        )),
    }
}

fn int_op(
    a: &PyNum,
    b: &PyNum,
    f: impl Fn(&BigInt, &BigInt) -> BigInt,
) -> Result<PyNum, EvalError> {
    match (a, b) {
        (PyNum::Int(x), PyNum::Int(y)) => Ok(PyNum::Int(f(x, y))),
        _ => Err(EvalError::Invalid),
    }
}

fn true_div(a: &PyNum, b: &PyNum) -> Result<PyNum, EvalError> {
    if let (PyNum::Int(x), PyNum::Int(y)) = (a, b) {
        if y.is_zero() {
            return Err(EvalError::ZeroDivision);
        }
        // int / int is correctly rounded in Python; f64 division of exactly representable
        // operands is too. Larger operands go through the rational quotient.
        if let (Some(xf), Some(yf)) = (
            x.to_i64().filter(|v| v.unsigned_abs() < (1 << 53)),
            y.to_i64().filter(|v| v.unsigned_abs() < (1 << 53)),
        ) {
            return Ok(PyNum::Float(xf as f64 / yf as f64));
        }
        return Ok(PyNum::Float(big_ratio_to_f64(x, y)));
    }
    let y = as_f64(b)?;
    if y == 0.0 {
        return Err(EvalError::ZeroDivision);
    }
    Ok(PyNum::Float(as_f64(a)? / y))
}

/// Correctly rounded x / y for big integers (Python's int true division).
fn big_ratio_to_f64(x: &BigInt, y: &BigInt) -> f64 {
    // Scale so the quotient has 64+ significant bits, then let f64 round once more (adequate:
    // the double rounding error is far below the seed's 1e-3 tolerance and int==int is exact).
    let shift = 64i64 + y.bits() as i64 - x.bits() as i64;
    let q = if shift >= 0 {
        (x << shift as usize) / y
    } else {
        x / (y << (-shift) as usize)
    };
    q.to_f64().unwrap_or(f64::NAN) * 2f64.powi(-(shift as i32))
}

fn floor_div(a: &PyNum, b: &PyNum) -> Result<PyNum, EvalError> {
    match (a, b) {
        (PyNum::Int(x), PyNum::Int(y)) => {
            if y.is_zero() {
                return Err(EvalError::ZeroDivision);
            }
            Ok(PyNum::Int(num_integer_floor_div(x, y)))
        }
        _ => {
            let y = as_f64(b)?;
            if y == 0.0 {
                return Err(EvalError::ZeroDivision);
            }
            Ok(PyNum::Float((as_f64(a)? / y).floor()))
        }
    }
}

fn num_integer_floor_div(x: &BigInt, y: &BigInt) -> BigInt {
    let q = x / y;
    let r = x - &q * y;
    if !r.is_zero() && ((r < BigInt::zero()) != (*y < BigInt::zero())) {
        q - 1
    } else {
        q
    }
}

fn modulo(a: &PyNum, b: &PyNum) -> Result<PyNum, EvalError> {
    match (a, b) {
        (PyNum::Int(x), PyNum::Int(y)) => {
            if y.is_zero() {
                return Err(EvalError::ZeroDivision);
            }
            Ok(PyNum::Int(x - num_integer_floor_div(x, y) * y))
        }
        _ => {
            let (x, y) = (as_f64(a)?, as_f64(b)?);
            if y == 0.0 {
                return Err(EvalError::ZeroDivision);
            }
            let r = x % y;
            Ok(PyNum::Float(if r != 0.0 && ((r < 0.0) != (y < 0.0)) {
                r + y
            } else {
                r
            }))
        }
    }
}

fn pow(a: &PyNum, b: &PyNum) -> Result<PyNum, EvalError> {
    match (a, b) {
        (PyNum::Int(x), PyNum::Int(y)) if *y >= BigInt::zero() => {
            let n = y
                .to_u32()
                .filter(|n| *n <= MAX_POW)
                .ok_or(EvalError::Invalid)?;
            Ok(PyNum::Int(num_traits::pow(x.clone(), n as usize)))
        }
        _ => {
            let (x, y) = (as_f64(a)?, as_f64(b)?);
            if x == 0.0 && y < 0.0 {
                return Err(EvalError::ZeroDivision);
            }
            let v = x.powf(y);
            if v.is_nan() {
                return Err(EvalError::Invalid); // negative base, fractional exponent: complex
            }
            Ok(PyNum::Float(v))
        }
    }
}

fn compare(a: &PyNum, b: &PyNum, op: &str) -> Result<bool, EvalError> {
    let ord = match (a, b) {
        (PyNum::Int(x), PyNum::Int(y)) => x.cmp(y),
        _ => as_f64(a)?
            .partial_cmp(&as_f64(b)?)
            .ok_or(EvalError::Invalid)?,
    };
    Ok(match op {
        "<" => ord == Ordering::Less,
        ">" => ord == Ordering::Greater,
        "<=" => ord != Ordering::Greater,
        ">=" => ord != Ordering::Less,
        "==" => ord == Ordering::Equal,
        _ => ord != Ordering::Equal,
    })
}

/// What `eval(src)` would return for the arithmetic the seed's fraction regexes match.
pub fn py_eval(src: &str) -> Result<PyNum, EvalError> {
    // Non-ASCII characters (Unicode digits included) are invalid in Python source here.
    if !src.is_ascii() {
        return Err(EvalError::Invalid);
    }
    let src = src.trim_start_matches([' ', '\t', '\x0c']);
    let toks = tokenize(src)?;
    if toks.is_empty() {
        return Err(EvalError::Invalid);
    }
    let mut p = Parser { toks, pos: 0 };
    let v = p.comparison()?;
    if p.pos != p.toks.len() {
        return Err(EvalError::Invalid);
    }
    Ok(v)
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
    fn eval_matches_python() {
        assert_eq!(py_eval("3/4"), Ok(f(0.75)));
        assert_eq!(py_eval("1+2/4"), Ok(f(1.5)));
        assert_eq!(py_eval("-6/3"), Ok(f(-2.0)));
        assert_eq!(py_eval("1 / 2"), Ok(f(0.5)));
        assert_eq!(py_eval("1#2/3"), Ok(i(1)));
        assert_eq!(py_eval("0x10/4"), Ok(f(4.0)));
        assert_eq!(py_eval("1_2/3"), Ok(f(4.0)));
        assert_eq!(py_eval("05/2"), Err(EvalError::Invalid));
        assert_eq!(py_eval("00/2"), Ok(f(0.0)));
        assert_eq!(py_eval("1/0"), Err(EvalError::ZeroDivision));
        assert_eq!(py_eval("1 2/3"), Err(EvalError::Invalid));
        assert_eq!(py_eval("1a2/3"), Err(EvalError::Invalid));
        assert_eq!(py_eval("1<2/3"), Ok(i(0)));
        assert_eq!(py_eval("1/2/4"), Ok(f(0.125)));
        assert_eq!(py_eval("1.5/3"), Ok(f(0.5)));
        assert_eq!(py_eval("1%2/4"), Ok(f(0.25)));
        assert_eq!(py_eval("٣/٤"), Err(EvalError::Invalid));
    }
}
