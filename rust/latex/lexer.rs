//! Tokens of LaTeX / plain math, with 0-based character positions into the input.
//!
//! The lexer does the character-level normalisation so the parser sees one vocabulary:
//! Unicode math (√ π ≤ ≥ ∞ ∪ · ² …) becomes the LaTeX token, spacing commands and `\left` /
//! `\right` vanish, thousands separators (`10{,}000`, `10\,000`, `10 000`, `1,000`, U+2009; the
//! table is [`crate::scan::digit_groups`]) are folded into the number, unit words after a number
//! are dropped, `percent`/`pct` become `\%`.

use super::ast::{Number, RelOp};
use super::vocabulary::{
    greek_char, is_unit_word, superscript_digit, FUNCTION_WORDS, GREEK, KNOWN_COMMANDS,
    PERCENT_WORDS, SIZING, SPACING, TEXT_COMMANDS,
};
use crate::error::{Error, Result};
use crate::scan::digit_groups::{self, Context};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    /// A number literal and its raw digits (`Some` only for a plain digit run, used to split
    /// malformed `\frac12`).
    Num(Number, Option<String>),
    /// A single Latin letter (implicit products split `xy` into `x`, `y`).
    Letter(char),
    /// A named symbol or function written as a command or a known word: `theta`, `sin`, `pi`.
    Name(String),
    /// Any other command, without the backslash.
    Cmd(String),
    /// Punctuation: `+ - * / ^ _ ! | , ; : ' & .`
    Op(char),
    Open(char),
    Close(char),
    SetOpen,
    SetClose,
    RowSep,
    /// Content of `\text{}` and friends that is not a number, unit or connective.
    Text(String),
    Percent,
    /// A degree mark (`^\circ`, `°`): dropped, except inside a trig argument (radians).
    Degree,
    /// A connective word between answers: "and", "or".
    Word,
    Rel(RelOp),
    /// `\pm` (true) or `\mp` (false).
    Pm(bool),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub pos: usize,
    /// Whitespace (or a spacing command) came right before this token.
    pub space: bool,
}

pub struct Lexer<'a> {
    chars: &'a [char],
    i: usize,
    out: Vec<Token>,
    space: bool,
    /// Bracket depth: inside `(`/`[` a bare comma is never a thousands separator.
    depth: usize,
    /// The previous token was a unit word (so `square feet`, `cm^2` keep being dropped).
    after_unit: bool,
}

pub fn tokenize(input: &[char]) -> Result<Vec<Token>> {
    crate::work::count(input.len());
    let mut lx = Lexer {
        chars: input,
        i: 0,
        out: Vec::new(),
        space: false,
        depth: 0,
        after_unit: false,
    };
    lx.run()?;
    Ok(lx.out)
}

/// The numerator and denominator of a Unicode vulgar fraction.
fn vulgar_fraction(c: char) -> (i64, i64) {
    match c {
        '½' => (1, 2),
        '⅓' => (1, 3),
        '⅔' => (2, 3),
        '¼' => (1, 4),
        '¾' => (3, 4),
        '⅕' => (1, 5),
        '⅖' => (2, 5),
        '⅗' => (3, 5),
        '⅘' => (4, 5),
        '⅙' => (1, 6),
        '⅚' => (5, 6),
        '⅛' => (1, 8),
        '⅜' => (3, 8),
        '⅝' => (5, 8),
        _ => (7, 8),
    }
}

fn err<T>(message: impl Into<String>, position: usize) -> Result<T> {
    Err(Error::Parse {
        message: message.into(),
        position,
    })
}

impl Lexer<'_> {
    fn peek(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    fn push(&mut self, tok: Tok, pos: usize) {
        let unit = false;
        self.after_unit = unit;
        match &tok {
            Tok::Open(_) => self.depth += 1,
            Tok::Close(_) => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        self.out.push(Token {
            tok,
            pos,
            space: self.space,
        });
        self.space = false;
    }

    fn prev_is_value(&self) -> bool {
        matches!(
            self.out.last().map(|t| &t.tok),
            Some(Tok::Num(..) | Tok::Close(_) | Tok::Percent | Tok::Degree)
        )
    }

    fn prev_is_number(&self) -> bool {
        matches!(self.out.last().map(|t| &t.tok), Some(Tok::Num(..)))
    }

    fn run(&mut self) -> Result<()> {
        while let Some(c) = self.peek(0) {
            let pos = self.i;
            // Quotes around an answer (`"$12$ and $13$"`) carry no meaning.
            if c.is_whitespace() || c == '~' || c == '\u{a0}' || c == '$' || c == '"' {
                self.i += 1;
                self.space = true;
                continue;
            }
            if c.is_ascii_digit() || (c == '.' && self.peek(1).is_some_and(|d| d.is_ascii_digit()))
            {
                self.number()?;
                continue;
            }
            if c.is_ascii_alphabetic() {
                self.word();
                continue;
            }
            if c == '\\' {
                self.command()?;
                continue;
            }
            self.i += 1;
            match c {
                '+' | '-' | '/' | '^' | '_' | '|' | ',' | ';' | ':' | '\'' | '&' | '.' => {
                    if c == '^' && self.after_unit_power() {
                        continue;
                    }
                    self.push(Tok::Op(c), pos)
                }
                '*' => {
                    if self.peek(0) == Some('*') {
                        self.i += 1;
                        self.push(Tok::Op('^'), pos)
                    } else {
                        self.push(Tok::Op('*'), pos)
                    }
                }
                '!' => {
                    if self.peek(0) == Some('=') {
                        self.i += 1;
                        self.push(Tok::Rel(RelOp::Ne), pos)
                    } else {
                        self.push(Tok::Op('!'), pos)
                    }
                }
                '=' => {
                    if self.peek(0) == Some('=') {
                        self.i += 1;
                    }
                    if self.peek(0) == Some('<') {
                        self.i += 1;
                        self.push(Tok::Rel(RelOp::Le), pos)
                    } else {
                        self.push(Tok::Rel(RelOp::Eq), pos)
                    }
                }
                '<' => {
                    if self.peek(0) == Some('=') {
                        self.i += 1;
                        self.push(Tok::Rel(RelOp::Le), pos)
                    } else {
                        self.push(Tok::Rel(RelOp::Lt), pos)
                    }
                }
                '>' => {
                    if self.peek(0) == Some('=') {
                        self.i += 1;
                        self.push(Tok::Rel(RelOp::Ge), pos)
                    } else {
                        self.push(Tok::Rel(RelOp::Gt), pos)
                    }
                }
                '(' | '[' | '{' | '（' => {
                    self.push(Tok::Open(if c == '（' { '(' } else { c }), pos)
                }
                ')' | ']' | '}' | '）' => {
                    self.push(Tok::Close(if c == '）' { ')' } else { c }), pos)
                }
                '%' => self.push(Tok::Percent, pos),
                '，' => self.push(Tok::Op(','), pos),
                '√' => self.push(Tok::Cmd("sqrt".into()), pos),
                'π' => self.push(Tok::Name("pi".into()), pos),
                '∞' => self.push(Tok::Cmd("infty".into()), pos),
                // Full-width relations of Chinese and Japanese texts (issue 33).
                '＝' => self.push(Tok::Rel(RelOp::Eq), pos),
                '＜' => self.push(Tok::Rel(RelOp::Lt), pos),
                '＞' => self.push(Tok::Rel(RelOp::Gt), pos),
                '≤' | '⩽' => self.push(Tok::Rel(RelOp::Le), pos),
                '≥' | '⩾' => self.push(Tok::Rel(RelOp::Ge), pos),
                '≠' => self.push(Tok::Rel(RelOp::Ne), pos),
                '≈' => self.push(Tok::Rel(RelOp::Approx), pos),
                '∪' => self.push(Tok::Cmd("cup".into()), pos),
                '∩' => self.push(Tok::Cmd("cap".into()), pos),
                '∈' => self.push(Tok::Cmd("in".into()), pos),
                '∅' => self.push(Tok::Cmd("emptyset".into()), pos),
                '·' | '⋅' | '×' | '∙' => self.push(Tok::Op('*'), pos),
                '÷' => self.push(Tok::Op('/'), pos),
                '−' | '–' | '—' => self.push(Tok::Op('-'), pos),
                '±' => self.push(Tok::Pm(true), pos),
                '∓' => self.push(Tok::Pm(false), pos),
                '′' => self.push(Tok::Op('\''), pos),
                '°' => self.push(Tok::Degree, pos),
                '€' | '£' | '¥' => self.space = true,
                '½' | '⅓' | '⅔' | '¼' | '¾' | '⅕' | '⅖' | '⅗' | '⅘' | '⅙' | '⅚' | '⅛' | '⅜'
                | '⅝' | '⅞' => {
                    // A vulgar fraction; after digits it is a mixed number (`1½` = 3/2).
                    let (p, q) = vulgar_fraction(c);
                    if pos > 0 && self.chars[pos - 1].is_ascii_digit() {
                        self.push(Tok::Op('+'), pos);
                    }
                    let n = Number {
                        value: BigRational::new(BigInt::from(p), BigInt::from(q)),
                        decimals: None,
                    };
                    self.push(Tok::Num(n, None), pos)
                }
                _ => {
                    if let Some(d) = superscript_digit(c) {
                        self.push(Tok::Op('^'), pos);
                        let mut digits = String::from(d);
                        while let Some(d2) = self.peek(0).and_then(superscript_digit) {
                            digits.push(d2);
                            self.i += 1;
                        }
                        let n = Number {
                            value: BigRational::from_integer(digits.parse::<BigInt>().unwrap()),
                            decimals: None,
                        };
                        self.push(Tok::Num(n, Some(digits)), pos);
                    } else if let Some(g) = greek_char(c) {
                        self.push(Tok::Name(g.into()), pos)
                    } else {
                        return err(format!("unexpected character {c:?}"), pos);
                    }
                }
            }
        }
        Ok(())
    }

    /// After a dropped unit word, `^2` / `^{2}` belongs to the unit (`cm^2`): drop it too.
    fn after_unit_power(&mut self) -> bool {
        if !self.after_unit {
            return false;
        }
        let rest: String = self.chars[self.i..self.chars.len().min(self.i + 3)]
            .iter()
            .collect();
        if rest.starts_with(|c: char| c.is_ascii_digit()) {
            self.i += 1;
            return true;
        }
        if rest.len() == 3
            && rest.as_bytes()[0] == b'{'
            && rest.as_bytes()[1].is_ascii_digit()
            && rest.as_bytes()[2] == b'}'
        {
            self.i += 3;
            return true;
        }
        false
    }

    fn digits(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek(0).filter(|c| c.is_ascii_digit()) {
            s.push(c);
            self.i += 1;
        }
        s
    }

    /// If a thousands separator followed by exactly three digits starts at the cursor, its
    /// length in characters (`crate::scan::digit_groups`; inside brackets no bare comma or space).
    fn thousands_sep(&self) -> Option<usize> {
        let context = if self.depth > 0 {
            Context::LatexInBrackets
        } else {
            Context::Latex
        };
        digit_groups::separator_at(self.chars[self.i..].iter().copied(), context)
            .map(|sep| sep.chars().count())
    }

    fn number(&mut self) -> Result<()> {
        let pos = self.i;
        let mut int = self.digits();
        let mut grouped = false;
        if digit_groups::can_lead(int.as_bytes()) {
            while let Some(n) = self.thousands_sep() {
                self.i += n;
                int.push_str(&self.digits());
                grouped = true;
            }
        }
        let mut frac = None;
        if self.peek(0) == Some('.') && self.peek(1).is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
            frac = Some(self.digits());
        }
        let mut exp: i64 = 0;
        if matches!(self.peek(0), Some('e' | 'E')) {
            let (sign_len, neg) = match self.peek(1) {
                Some('-') => (1, true),
                Some('+') => (1, false),
                _ => (0, false),
            };
            if self.peek(1 + sign_len).is_some_and(|c| c.is_ascii_digit()) {
                self.i += 1 + sign_len;
                let d = self.digits();
                if d.len() > 6 {
                    return err("exponent too large", pos);
                }
                exp = d.parse::<i64>().unwrap_or(0);
                if neg {
                    exp = -exp
                }
            }
        }
        let int_digits = if int.is_empty() {
            "0".to_string()
        } else {
            int.clone()
        };
        let frac_digits = frac.clone().unwrap_or_default();
        let mantissa: BigInt = format!("{int_digits}{frac_digits}")
            .parse()
            .unwrap_or_default();
        let scale = frac_digits.len() as i64 - exp;
        let ten = BigInt::from(10u32);
        let value = if scale >= 0 {
            BigRational::new(mantissa, ten.pow(scale as u32))
        } else {
            BigRational::from_integer(mantissa * ten.pow((-scale) as u32))
        };
        let decimals = frac.as_ref().map(|_| scale.max(0) as u32);
        let raw = if frac.is_none() && exp == 0 && !grouped && !int.is_empty() {
            Some(int)
        } else {
            None
        };
        let value = if value.is_zero() {
            BigRational::zero()
        } else {
            value
        };
        self.push(Tok::Num(Number { value, decimals }, raw), pos);
        Ok(())
    }

    fn word(&mut self) {
        let pos = self.i;
        let mut w = String::new();
        while let Some(c) = self.peek(0).filter(|c| c.is_ascii_alphabetic()) {
            w.push(c);
            self.i += 1;
        }
        let lower = w.to_ascii_lowercase();
        if lower == "and" || lower == "or" {
            self.push(Tok::Word, pos);
            return;
        }
        // Glued connectives: `1orW(x)`, `(11,7)or(7,11)`.
        if self.prev_is_value() {
            for conn in ["or", "and"] {
                if w.len() > conn.len() && w.starts_with(conn) {
                    self.push(Tok::Word, pos);
                    self.emit_letters(&w[conn.len()..], pos + conn.len());
                    return;
                }
            }
        }
        if (self.prev_is_value() || self.after_unit) && PERCENT_WORDS.contains(&lower.as_str()) {
            self.push(Tok::Percent, pos);
            return;
        }
        if (self.prev_is_number() || self.after_unit) && w.len() >= 2 && is_unit_word(&w) {
            self.space = true;
            self.after_unit = true;
            return;
        }
        if FUNCTION_WORDS.contains(&w.as_str()) || w == "pi" {
            self.push(Tok::Name(w), pos);
            return;
        }
        self.emit_letters(&w, pos);
    }

    fn emit_letters(&mut self, w: &str, pos: usize) {
        for (k, c) in w.chars().enumerate() {
            self.push(Tok::Letter(c), pos + k);
        }
    }

    fn command(&mut self) -> Result<()> {
        let pos = self.i;
        self.i += 1; // the backslash
        let Some(c) = self.peek(0) else {
            return err("lone backslash", pos);
        };
        if c == '\\' {
            // `\\frac` in double-escaped text is `\frac`; otherwise `\\` is a row separator.
            let name: String = self.chars[self.i + 1..]
                .iter()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect();
            if !name.is_empty()
                && KNOWN_COMMANDS
                    .iter()
                    .any(|k| *k == name || (name.starts_with(k) && k.len() > 2))
            {
                return Ok(()); // the next round lexes `\name`
            }
            self.i += 1;
            self.push(Tok::RowSep, pos);
            return Ok(());
        }
        if !c.is_ascii_alphabetic() {
            self.i += 1;
            match c {
                '{' => self.push(Tok::SetOpen, pos),
                '}' => self.push(Tok::SetClose, pos),
                '%' => self.push(Tok::Percent, pos),
                '$' | ',' | ';' | ':' | '!' | ' ' | '>' | '\n' | '\t' | '"' => {
                    if c == '$' && self.peek(0).is_none() && self.out.is_empty() {
                        return err("a currency sign with no amount", pos);
                    }
                    self.space = true
                }
                '|' => self.push(Tok::Op('|'), pos),
                '(' | '[' => {
                    self.space = true; // math delimiters `\(` `\[`
                }
                ')' | ']' => self.space = true,
                '#' | '&' | '_' => self.push(Tok::Op(c), pos),
                _ => return err(format!("unknown escape \\{c}"), pos),
            }
            return Ok(());
        }
        let start = self.i;
        while self.peek(0).is_some_and(|c| c.is_ascii_alphabetic()) {
            self.i += 1;
        }
        let mut name: String = self.chars[start..self.i].iter().collect();
        if !KNOWN_COMMANDS.contains(&name.as_str())
            && !GREEK.contains(&name.as_str())
            && !TEXT_COMMANDS.contains(&name.as_str())
        {
            // `\quadx`, `\pix`: split off the longest known command prefix.
            let known = KNOWN_COMMANDS
                .iter()
                .chain(GREEK.iter())
                .filter(|k| name.starts_with(**k) && k.len() >= 2)
                .max_by_key(|k| k.len());
            if let Some(k) = known {
                self.i = start + k.len();
                name = k.to_string();
            }
        }
        self.command_named(name, pos)
    }

    fn command_named(&mut self, name: String, pos: usize) -> Result<()> {
        let n = name.as_str();
        if SPACING.contains(&n) {
            self.space = true;
            return Ok(());
        }
        if SIZING.contains(&n) {
            self.space = true;
            // `\left.` / `\right.` are empty delimiters.
            while self.peek(0).is_some_and(|c| c == ' ') {
                self.i += 1;
            }
            if self.peek(0) == Some('.') {
                self.i += 1;
            }
            return Ok(());
        }
        if TEXT_COMMANDS.contains(&n) {
            return self.text_command(pos);
        }
        let tok = match n {
            "cdot" | "times" | "ast" => Tok::Op('*'),
            "div" => Tok::Op('/'),
            "pm" => Tok::Pm(true),
            "mp" => Tok::Pm(false),
            "le" | "leq" | "leqslant" => Tok::Rel(RelOp::Le),
            "ge" | "geq" | "geqslant" => Tok::Rel(RelOp::Ge),
            "ne" | "neq" => Tok::Rel(RelOp::Ne),
            "lt" => Tok::Rel(RelOp::Lt),
            "gt" => Tok::Rel(RelOp::Gt),
            "approx" | "simeq" | "thickapprox" => Tok::Rel(RelOp::Approx),
            "lbrace" => Tok::SetOpen,
            "rbrace" => Tok::SetClose,
            "lvert" | "rvert" | "vert" | "mid" => Tok::Op('|'),
            "colon" => Tok::Op(':'),
            "prime" => Tok::Op('\''),
            // `\textcirc`, `\textdegree`: the degree sign of text mode (golds, issue 33).
            "circ" | "degree" | "textcirc" | "textdegree" => {
                // `^\circ`, `^{\circ}`: drop the degree mark and its `^`.
                self.drop_degree_power();
                return Ok(());
            }
            "infin" => Tok::Cmd("infty".into()),
            "varnothing" => Tok::Cmd("emptyset".into()),
            "ldots" | "cdots" | "dots" => Tok::Cmd("dots".into()),
            _ if GREEK.contains(&n) => Tok::Name(name),
            "pi" => Tok::Name(name),
            _ => Tok::Cmd(name),
        };
        self.push(tok, pos);
        Ok(())
    }

    fn drop_degree_power(&mut self) {
        // Remove a trailing `^` or `^{` we already emitted for the degree sign.
        let n = self.out.len();
        if n >= 2 && self.out[n - 1].tok == Tok::Open('{') && self.out[n - 2].tok == Tok::Op('^') {
            self.out.truncate(n - 2);
            self.depth = self.depth.saturating_sub(1);
            // Skip the matching `}`.
            while self.peek(0) == Some(' ') {
                self.i += 1;
            }
            if self.peek(0) == Some('}') {
                self.i += 1;
            }
        } else if n >= 1 && self.out[n - 1].tok == Tok::Op('^') {
            self.out.truncate(n - 1);
        }
        let pos = self.i;
        self.push(Tok::Degree, pos);
    }

    /// `\text{...}`: numbers, connectives and units inside become ordinary tokens.
    fn text_command(&mut self, pos: usize) -> Result<()> {
        while self.peek(0) == Some(' ') {
            self.i += 1;
        }
        if self.peek(0) != Some('{') {
            return err("\\text needs a braced argument", pos);
        }
        let open = self.i;
        let mut depth = 0usize;
        let mut end = None;
        for k in self.i..self.chars.len() {
            match self.chars[k] {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(k);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            return err("unclosed \\text{", open);
        };
        let content: String = self.chars[open + 1..end].iter().collect();
        self.i = end + 1;
        let trimmed = content.trim();
        let lower = trimmed.to_ascii_lowercase();
        if trimmed.is_empty() || trimmed == "," {
            if trimmed == "," {
                self.push(Tok::Op(','), pos);
            } else {
                self.space = true;
            }
            return Ok(());
        }
        if lower == "and" || lower == "or" || lower == ", and" || lower == ", or" || lower == "or,"
        {
            self.push(Tok::Word, pos);
            return Ok(());
        }
        if PERCENT_WORDS.contains(&lower.as_str()) && self.prev_is_value() {
            self.push(Tok::Percent, pos);
            return Ok(());
        }
        let looks_numeric = trimmed
            .chars()
            .all(|c| c.is_ascii_digit() || ".,-+/ ".contains(c));
        if looks_numeric && trimmed.chars().any(|c| c.is_ascii_digit()) {
            // `\text{13}` is the number 13: lex the content in place.
            let inner: Vec<char> = trimmed.chars().collect();
            let toks = tokenize(&inner)?;
            for mut t in toks {
                t.pos = pos;
                self.out.push(t);
            }
            return Ok(());
        }
        // A unit after a number (`5\text{ cm}`, `\mbox{ cm}^2`), or units words of any kind.
        if self.prev_is_value() || self.after_unit {
            let words: Vec<&str> = trimmed
                .split(|c: char| c.is_whitespace() || c == '-')
                .filter(|w| !w.is_empty())
                .collect();
            if !words.is_empty()
                && words.len() <= 3
                && words
                    .iter()
                    .all(|w| w.chars().all(|c| c.is_ascii_alphabetic() || c == '.'))
            {
                self.space = true;
                self.after_unit = true;
                return Ok(());
            }
        }
        self.push(Tok::Text(trimmed.to_string()), pos);
        Ok(())
    }
}
