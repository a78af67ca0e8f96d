//! Recursive-descent parser from tokens to [`Expr`], with a node budget and a nesting limit so
//! hostile input is rejected quickly instead of exhausting the stack.
//!
//! Precedence, loosest first: lists (`,`; then `;` / "and" / "or" groups), relation chains
//! (`= < \le \ne \approx \in`), set operations (`\cup \cap \setminus`), ratios (`a:b`), sums
//! (`+ - \pm`), products (explicit `* \cdot \times / \div \mod` and implicit), unary signs,
//! powers (right-associative) with postfix `!`, `'` and `\%`, then primaries.

use super::ast::{Constant, Expr, Func, ListKind, Number};
use super::lexer::{Tok, Token};
use super::vocabulary::{func_by_name, FUNCTION_LETTERS, FUNCTION_WORDS};
use crate::error::{Error, Result};
use num_traits::Signed;

mod commands;

pub struct Parser {
    toks: Vec<Token>,
    i: usize,
    end_pos: usize,
    depth: usize,
    max_depth: usize,
    abs_depth: usize,
    in_integral: bool,
    backtracks: usize,
    /// Inside the argument of a trigonometric function (degree marks become radians).
    trig_arg: usize,
}

/// Bound on the absolute-value backtracking so `|||...|||` stays linear-ish.
const MAX_BACKTRACKS: usize = 64;

fn perr<T>(message: impl Into<String>, position: usize) -> Result<T> {
    Err(Error::Parse {
        message: message.into(),
        position,
    })
}

impl Parser {
    pub fn new(toks: Vec<Token>, end_pos: usize, max_depth: usize) -> Self {
        Parser {
            toks,
            i: 0,
            end_pos,
            depth: 0,
            max_depth,
            abs_depth: 0,
            in_integral: false,
            backtracks: 0,
            trig_arg: 0,
        }
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.tok)
    }
    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.i + k).map(|t| &t.tok)
    }
    fn pos(&self) -> usize {
        self.toks.get(self.i).map_or(self.end_pos, |t| t.pos)
    }
    fn space_before(&self) -> bool {
        self.toks.get(self.i).is_some_and(|t| t.space)
    }
    fn bump(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.i).map(|t| t.tok.clone());
        self.i += 1;
        t
    }
    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == Some(t) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: &Tok, what: &str) -> Result<()> {
        if self.eat(t) {
            Ok(())
        } else {
            perr(format!("expected {what}"), self.pos())
        }
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return perr(super::TOO_DEEP, self.pos());
        }
        Ok(())
    }

    /// The whole input: a list, a relation or an expression, then the end.
    pub fn parse_top(&mut self) -> Result<Expr> {
        if self.toks.is_empty() {
            return perr("empty expression", 0);
        }
        let e = self.parse_list()?;
        // Sentence punctuation after the answer.
        while matches!(
            self.peek(),
            Some(Tok::Op('.') | Tok::Op(',') | Tok::Op(';'))
        ) {
            self.i += 1;
        }
        if self.i < self.toks.len() {
            return perr(
                format!("unexpected {}", describe(&self.toks[self.i].tok)),
                self.pos(),
            );
        }
        Ok(e)
    }

    fn list_end(&self) -> bool {
        matches!(
            self.peek(),
            None | Some(Tok::Close(_) | Tok::SetClose | Tok::RowSep | Tok::Op('&'))
        ) || matches!(self.peek(), Some(Tok::Cmd(c)) if c == "end")
    }

    fn parse_list(&mut self) -> Result<Expr> {
        let mut groups: Vec<Vec<Expr>> = vec![Vec::new()];
        loop {
            if self.list_end() {
                break;
            }
            match self.peek() {
                Some(Tok::Op(',')) => {
                    self.i += 1;
                    continue;
                }
                Some(Tok::Op(';') | Tok::Word) => {
                    self.i += 1;
                    if !groups.last().unwrap().is_empty() {
                        groups.push(Vec::new());
                    }
                    continue;
                }
                Some(Tok::Cmd(c)) if c == "dots" => {
                    self.i += 1;
                    continue;
                }
                Some(Tok::Op('.')) if matches!(self.peek_at(1), None | Some(Tok::Op('.'))) => {
                    self.i += 1;
                    continue;
                }
                _ => {}
            }
            let item = self.parse_relation()?;
            groups.last_mut().unwrap().push(item);
            if !matches!(self.peek(), Some(Tok::Op(',') | Tok::Op(';') | Tok::Word)) {
                break;
            }
        }
        if groups.last().is_some_and(|g| g.is_empty()) {
            groups.pop();
        }
        if groups.is_empty() {
            return perr("empty expression", self.pos());
        }
        let mut exprs: Vec<Expr> = groups
            .into_iter()
            .map(|mut g| {
                if g.len() == 1 {
                    g.pop().unwrap()
                } else {
                    Expr::List(ListKind::Comma, g)
                }
            })
            .collect();
        Ok(if exprs.len() == 1 {
            exprs.pop().unwrap()
        } else {
            Expr::List(ListKind::Group, exprs)
        })
    }

    fn parse_relation(&mut self) -> Result<Expr> {
        let first = self.parse_setexpr()?;
        let mut operands = vec![first];
        let mut ops = Vec::new();
        loop {
            match self.peek() {
                Some(Tok::Rel(op)) => {
                    let op = *op;
                    self.i += 1;
                    ops.push(op);
                    operands.push(self.parse_setexpr()?);
                }
                Some(Tok::Cmd(c)) if c == "in" => {
                    self.i += 1;
                    let set = self.parse_setexpr()?;
                    let lhs = if ops.is_empty() {
                        operands.pop().unwrap()
                    } else {
                        Expr::Relation(std::mem::take(&mut operands), std::mem::take(&mut ops))
                    };
                    return Ok(Expr::In(Box::new(lhs), Box::new(set)));
                }
                _ => break,
            }
        }
        Ok(if ops.is_empty() {
            operands.pop().unwrap()
        } else {
            Expr::Relation(operands, ops)
        })
    }

    fn parse_setexpr(&mut self) -> Result<Expr> {
        let first = self.parse_ratio()?;
        let mut unions = vec![first];
        loop {
            match self.peek() {
                Some(Tok::Cmd(c)) if c == "cup" || c == "sqcup" || c == "uplus" => {
                    self.i += 1;
                    unions.push(self.parse_ratio()?);
                }
                Some(Tok::Cmd(c)) if c == "cap" => {
                    self.i += 1;
                    let rhs = self.parse_ratio()?;
                    let lhs = unions.pop().unwrap();
                    unions.push(Expr::Intersection(vec![lhs, rhs]));
                }
                Some(Tok::Cmd(c)) if c == "setminus" => {
                    // Kept as structure: compared literally only.
                    self.i += 1;
                    let rhs = self.parse_ratio()?;
                    let lhs = unions.pop().unwrap();
                    unions.push(Expr::Apply("setminus".into(), vec![lhs, rhs]));
                }
                _ => break,
            }
        }
        Ok(if unions.len() == 1 {
            unions.pop().unwrap()
        } else {
            Expr::Union(unions)
        })
    }

    fn parse_ratio(&mut self) -> Result<Expr> {
        let first = self.parse_additive()?;
        let mut parts = vec![first];
        while self.peek() == Some(&Tok::Op(':')) {
            self.i += 1;
            parts.push(self.parse_additive()?);
        }
        Ok(if parts.len() == 1 {
            parts.pop().unwrap()
        } else {
            Expr::Ratio(parts)
        })
    }

    fn parse_additive(&mut self) -> Result<Expr> {
        self.enter()?;
        let mut terms = vec![self.parse_multiplicative()?];
        loop {
            match self.peek() {
                Some(Tok::Op('+')) => {
                    self.i += 1;
                    terms.push(self.parse_multiplicative()?);
                }
                Some(Tok::Op('-')) => {
                    self.i += 1;
                    let t = self.parse_multiplicative()?;
                    terms.push(Expr::Neg(Box::new(t)));
                }
                Some(Tok::Pm(_)) => {
                    self.i += 1;
                    let t = self.parse_multiplicative()?;
                    terms.push(Expr::PlusMinus(Box::new(t)));
                }
                _ => break,
            }
        }
        self.depth -= 1;
        Ok(if terms.len() == 1 {
            terms.pop().unwrap()
        } else {
            Expr::Add(terms)
        })
    }

    /// Can the current token start an operand of an implicit product?
    fn starts_operand(&self, in_function_arg: bool) -> bool {
        match self.peek() {
            Some(Tok::Num(..) | Tok::Letter(_) | Tok::SetOpen) => true,
            Some(Tok::Name(n)) => !(in_function_arg && is_function_name(n)),
            Some(Tok::Open('(' | '{')) => true,
            Some(Tok::Open('[')) => !in_function_arg,
            Some(Tok::Op('|')) => self.abs_depth == 0,
            Some(Tok::Cmd(c)) => {
                let c = c.as_str();
                if in_function_arg
                    && (func_by_name(c).is_some() || matches!(c, "sum" | "prod" | "int" | "lim"))
                {
                    return false;
                }
                !matches!(
                    c,
                    "cup"
                        | "cap"
                        | "setminus"
                        | "in"
                        | "notin"
                        | "to"
                        | "rightarrow"
                        | "Rightarrow"
                        | "longrightarrow"
                        | "Longrightarrow"
                        | "mod"
                        | "bmod"
                        | "end"
                        | "dots"
                        | "rfloor"
                        | "rceil"
                        | "rangle"
                        | "sqcup"
                        | "uplus"
                        | "implies"
                        | "iff"
                        | "mapsto"
                        | "forall"
                        | "exists"
                        | "land"
                        | "lor"
                        | "wedge"
                        | "vee"
                        | "neg"
                        | "not"
                        | "cong"
                        | "sim"
                        | "equiv"
                        | "perp"
                        | "parallel"
                        | "pmod"
                )
            }
            _ => false,
        }
    }

    fn parse_multiplicative(&mut self) -> Result<Expr> {
        self.parse_product(false)
    }

    fn parse_product(&mut self, in_function_arg: bool) -> Result<Expr> {
        self.enter()?;
        let mut acc = self.parse_unary()?;
        loop {
            match self.peek() {
                Some(Tok::Op('*')) if !in_function_arg => {
                    self.i += 1;
                    let rhs = self.parse_unary()?;
                    acc = mul(acc, rhs);
                }
                Some(Tok::Op('/')) if !in_function_arg => {
                    self.i += 1;
                    let rhs = self.parse_unary()?;
                    acc = Expr::Div(Box::new(acc), Box::new(rhs));
                }
                Some(Tok::Cmd(c)) if (c == "mod" || c == "bmod") && !in_function_arg => {
                    self.i += 1;
                    let rhs = self.parse_unary()?;
                    acc = Expr::Func(Func::Mod, vec![acc, rhs]);
                }
                Some(Tok::Cmd(c)) if c == "pmod" => {
                    // `a \pmod{m}` annotates a congruence; keep the residue as the value.
                    self.i += 1;
                    let m = self.parse_macro_arg()?;
                    acc = Expr::Func(Func::Mod, vec![acc, m]);
                }
                Some(Tok::Text(_)) if !in_function_arg => {
                    // Words after a value annotate it (`5 \text{ apples}` when not a known unit).
                    self.i += 1;
                }
                Some(Tok::Op('|')) if self.abs_depth > 0 => {
                    // Inside |...|: a bar followed by an operand may open a nested absolute
                    // value (`||x||y||`); try that, and fall back to "it closes this one".
                    // A bar followed by another bar closes.
                    let save = self.i;
                    let opens = match self.peek_at(1) {
                        Some(Tok::Op('|')) => false,
                        Some(_) => {
                            self.i += 1;
                            let s = self.starts_operand(false);
                            self.i = save;
                            s
                        }
                        None => false,
                    };
                    self.backtracks += 1;
                    if !opens || self.backtracks > MAX_BACKTRACKS {
                        break;
                    }
                    let (depth, abs) = (self.depth, self.abs_depth);
                    match self.parse_unary() {
                        Ok(rhs) => acc = mul(acc, rhs),
                        Err(_) => {
                            self.i = save;
                            self.depth = depth;
                            self.abs_depth = abs;
                            break;
                        }
                    }
                }
                _ => {
                    if !self.starts_operand(in_function_arg) {
                        break;
                    }
                    if let Some(mixed) = self.try_mixed_number(&acc)? {
                        acc = mixed;
                        continue;
                    }
                    let rhs = self.parse_power()?;
                    acc = mul(acc, rhs);
                }
            }
        }
        self.depth -= 1;
        Ok(acc)
    }

    /// `12\frac{3}{5}` and `1 3/4` are mixed numbers (integer, then a proper fraction of
    /// integer literals). Anything else is an implicit product.
    fn try_mixed_number(&mut self, acc: &Expr) -> Result<Option<Expr>> {
        let (whole, negative) = match acc {
            Expr::Num(n)
                if n.decimals.is_none() && n.value.is_integer() && !n.value.is_negative() =>
            {
                (n.clone(), false)
            }
            Expr::Neg(inner) => match inner.as_ref() {
                Expr::Num(n) if n.decimals.is_none() && n.value.is_integer() => (n.clone(), true),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        let save = self.i;
        let frac = match self.peek() {
            Some(Tok::Cmd(c)) if matches!(c.as_str(), "frac" | "dfrac" | "tfrac") => {
                self.i += 1;
                let a = self.parse_macro_arg()?;
                let b = self.parse_macro_arg()?;
                Some((a, b))
            }
            Some(Tok::Num(..)) if self.space_before() && self.peek_at(1) == Some(&Tok::Op('/')) => {
                let a = self.parse_primary()?;
                self.i += 1;
                if matches!(self.peek(), Some(Tok::Num(..))) {
                    let b = self.parse_primary()?;
                    Some((a, b))
                } else {
                    None
                }
            }
            _ => None,
        };
        if let Some((Expr::Num(p), Expr::Num(q))) = &frac {
            let proper = p.decimals.is_none()
                && q.decimals.is_none()
                && p.value.is_integer()
                && q.value.is_integer();
            if proper && p.value.is_positive() && p.value < q.value {
                let sum = Expr::Add(vec![
                    Expr::Num(whole),
                    Expr::Div(
                        Box::new(Expr::Num(p.clone())),
                        Box::new(Expr::Num(q.clone())),
                    ),
                ]);
                return Ok(Some(if negative {
                    Expr::Neg(Box::new(sum))
                } else {
                    sum
                }));
            }
        }
        self.i = save;
        Ok(None)
    }

    fn parse_unary(&mut self) -> Result<Expr> {
        self.enter()?;
        let e = match self.peek() {
            Some(Tok::Op('-')) => {
                self.i += 1;
                Expr::Neg(Box::new(self.parse_unary()?))
            }
            Some(Tok::Op('+')) => {
                self.i += 1;
                self.parse_unary()?
            }
            Some(Tok::Pm(_)) => {
                self.i += 1;
                Expr::PlusMinus(Box::new(self.parse_unary()?))
            }
            _ => self.parse_power()?,
        };
        self.depth -= 1;
        Ok(e)
    }

    fn parse_power(&mut self) -> Result<Expr> {
        self.enter()?;
        let base = self.parse_primary()?;
        let mut base = self.parse_postfix(base)?;
        if self.eat(&Tok::Op('^')) {
            let exp = self.parse_script_arg()?;
            base = Expr::Pow(Box::new(base), Box::new(exp));
            base = self.parse_postfix(base)?;
        }
        self.depth -= 1;
        Ok(base)
    }

    fn parse_postfix(&mut self, mut e: Expr) -> Result<Expr> {
        loop {
            match self.peek() {
                Some(Tok::Op('!')) => {
                    self.i += 1;
                    e = Expr::Func(Func::Factorial, vec![e]);
                }
                Some(Tok::Degree) => {
                    // Degrees are radians inside a trig argument (`\cos 60^\circ`); elsewhere
                    // an angle answer is its number (`30^\circ` = 30).
                    self.i += 1;
                    if self.trig_arg > 0 {
                        let rad = Expr::Div(
                            Box::new(Expr::Const(Constant::Pi)),
                            Box::new(Expr::num(180)),
                        );
                        e = Expr::Mul(vec![e, rad]);
                    }
                }
                Some(Tok::Percent) => {
                    let ok = e.is_number_literal() || matches!(e, Expr::Const(Constant::Infinity));
                    if !ok {
                        return perr(
                            "percent sign after something that is not a number",
                            self.pos(),
                        );
                    }
                    self.i += 1;
                    e = Expr::Percent(Box::new(e));
                }
                _ => return Ok(e),
            }
        }
    }

    /// The argument of `^` or `_`: a braced group, or one token (a whole number, a letter, a
    /// command), or a signed token, or a parenthesised group.
    fn parse_script_arg(&mut self) -> Result<Expr> {
        self.enter()?;
        let e = match self.peek() {
            Some(Tok::Open('{')) => self.parse_group()?,
            Some(Tok::Op('-')) => {
                self.i += 1;
                Expr::Neg(Box::new(self.parse_script_arg()?))
            }
            Some(Tok::Op('+')) => {
                self.i += 1;
                self.parse_script_arg()?
            }
            Some(Tok::Open('(')) => self.parse_primary()?,
            Some(Tok::Num(..) | Tok::Letter(_) | Tok::Name(_) | Tok::Cmd(_)) => {
                let p = self.parse_primary()?;
                self.parse_postfix(p)?
            }
            _ => return perr("missing exponent or subscript", self.pos()),
        };
        self.depth -= 1;
        Ok(e)
    }

    /// `{ ... }` with non-empty content.
    fn parse_group(&mut self) -> Result<Expr> {
        let open = self.pos();
        self.expect(&Tok::Open('{'), "'{'")?;
        if self.peek() == Some(&Tok::Close('}')) {
            return perr("empty group", open);
        }
        let e = self.parse_list()?;
        if !self.eat(&Tok::Close('}')) {
            return perr("expected '}'", self.pos());
        }
        Ok(e)
    }

    /// An argument of `\frac`, `\sqrt`, `\binom`: a group, or a single token, where a digit
    /// run gives only its first digit (`\frac12` is 1/2).
    fn parse_macro_arg(&mut self) -> Result<Expr> {
        match self.peek().cloned() {
            Some(Tok::Open('{')) => self.parse_group(),
            Some(Tok::Num(_, Some(raw))) if raw.len() > 1 => {
                let (first, rest) = raw.split_at(1);
                let rest_n = rest.parse::<num_bigint::BigInt>().unwrap_or_default();
                let pos = self.pos();
                self.toks[self.i] = Token {
                    tok: Tok::Num(
                        Number {
                            value: num_rational::BigRational::from_integer(rest_n),
                            decimals: None,
                        },
                        Some(rest.to_string()),
                    ),
                    pos: pos + 1,
                    space: false,
                };
                Ok(Expr::num(first.parse().unwrap_or(0)))
            }
            Some(Tok::Num(..) | Tok::Letter(_) | Tok::Name(_) | Tok::Cmd(_)) => {
                self.parse_primary()
            }
            _ => perr("missing argument", self.pos()),
        }
    }

    /// After a number: `.\overline{dd}` or `\overline{dd}` (no space) gives the repeating
    /// digits `dd`.
    fn repeating_part(&mut self) -> Result<Option<String>> {
        let save = self.i;
        if self.peek() == Some(&Tok::Op('.')) && !self.space_before() {
            self.i += 1;
        }
        if self.space_before() || self.peek() != Some(&Tok::Cmd("overline".into())) {
            self.i = save;
            return Ok(None);
        }
        self.i += 1;
        let braced = self.eat(&Tok::Open('{'));
        let digits = match self.bump() {
            Some(Tok::Num(_, Some(raw))) => raw,
            _ => {
                self.i = save;
                return Ok(None);
            }
        };
        if braced && !self.eat(&Tok::Close('}')) {
            return perr("expected '}'", self.pos());
        }
        Ok(Some(digits))
    }

    fn parse_subscripted(&mut self, name: String) -> Result<Expr> {
        let mut name = name;
        let mut sub = None;
        loop {
            if self.peek() == Some(&Tok::Op('_')) && sub.is_none() {
                self.i += 1;
                sub = Some(Box::new(self.parse_script_arg()?));
            } else if self.peek() == Some(&Tok::Op('\'')) {
                self.i += 1;
                name.push('\'');
            } else {
                break;
            }
        }
        Ok(Expr::Sym(name, sub))
    }

    fn parse_primary(&mut self) -> Result<Expr> {
        self.enter()?;
        let pos = self.pos();
        let Some(tok) = self.bump() else {
            return perr("unexpected end of input", pos);
        };
        let e = match tok {
            Tok::Num(n, raw) => {
                if let Some(rep) = self.repeating_part()? {
                    // `0.\overline{3}`, `0.1\overline{6}`: a repeating decimal, exactly.
                    let d = n.decimals.unwrap_or(0);
                    let k = rep.len() as u32;
                    let digits: num_bigint::BigInt = rep.parse().unwrap_or_default();
                    let ten = num_bigint::BigInt::from(10u32);
                    let den = (ten.pow(k) - 1u32) * ten.pow(d);
                    let value = &n.value + num_rational::BigRational::new(digits, den);
                    Expr::Num(Number {
                        value,
                        decimals: None,
                    })
                } else if self.peek() == Some(&Tok::Op('_')) {
                    // `204_5`: a numeral in another base, kept literal.
                    self.i += 1;
                    let base = self.parse_script_arg()?;
                    Expr::Based(
                        raw.unwrap_or_else(|| Expr::Num(n.clone()).to_string()),
                        base.to_string(),
                    )
                } else {
                    Expr::Num(n)
                }
            }
            Tok::Letter(c) => self.letter(c)?,
            Tok::Name(n) => self.name(n)?,
            Tok::Cmd(c) => self.command(c, pos)?,
            Tok::Open(open) => self.bracketed(open, pos)?,
            Tok::SetOpen => {
                if self.eat(&Tok::SetClose) {
                    Expr::EmptySet
                } else {
                    let inner = self.parse_list()?;
                    if !self.eat(&Tok::SetClose) {
                        return perr("expected '\\}'", self.pos());
                    }
                    match inner {
                        Expr::List(_, items) => Expr::Set(items),
                        e => Expr::Set(vec![e]),
                    }
                }
            }
            Tok::Op('|') => {
                self.abs_depth += 1;
                let inner = self.parse_additive();
                self.abs_depth -= 1;
                let inner = inner?;
                if !self.eat(&Tok::Op('|')) {
                    return perr("expected closing '|'", self.pos());
                }
                Expr::Func(Func::Abs, vec![inner])
            }
            Tok::Text(t) => Expr::Text(t),
            other => return perr(format!("unexpected {}", describe(&other)), pos),
        };
        self.depth -= 1;
        Ok(e)
    }

    fn letter(&mut self, c: char) -> Result<Expr> {
        if self.in_integral && c == 'd' {
            match self.peek().cloned() {
                Some(Tok::Letter(v)) => {
                    self.i += 1;
                    return Ok(Expr::Differential(v.to_string()));
                }
                Some(Tok::Name(v)) if !is_function_name(&v) => {
                    self.i += 1;
                    return Ok(Expr::Differential(v));
                }
                _ => {}
            }
        }
        let sym = self.parse_subscripted(c.to_string())?;
        let Expr::Sym(name, sub) = sym else {
            unreachable!()
        };
        if sub.is_none() && name.len() == 1 {
            match c {
                'e' => return Ok(Expr::Const(Constant::E)),
                'i' | 'I' => return Ok(Expr::Const(Constant::I)),
                _ => {}
            }
        }
        let base = name.trim_end_matches('\'');
        let is_fn_letter =
            base.len() == 1 && FUNCTION_LETTERS.contains(&base.chars().next().unwrap());
        if is_fn_letter && self.peek() == Some(&Tok::Open('(')) && !self.space_before() {
            let full = super::ast::symbol_key(&name, sub.as_deref());
            let args = self.paren_args()?;
            return Ok(Expr::Apply(full, args));
        }
        Ok(Expr::Sym(name, sub))
    }

    fn name(&mut self, n: String) -> Result<Expr> {
        if n == "pi" {
            return Ok(Expr::Const(Constant::Pi));
        }
        if FUNCTION_WORDS.contains(&n.as_str()) {
            if let Some(f) = func_by_name(&n) {
                return self.function(f, &n);
            }
        }
        self.parse_subscripted(n)
    }

    /// `( a, b, ... )` after a function name.
    fn paren_args(&mut self) -> Result<Vec<Expr>> {
        let open = self.pos();
        self.expect(&Tok::Open('('), "'('")?;
        if self.peek() == Some(&Tok::Close(')')) {
            return perr("empty argument list", open);
        }
        let inner = self.parse_list()?;
        if !self.eat(&Tok::Close(')')) {
            return perr("expected ')'", self.pos());
        }
        Ok(match inner {
            Expr::List(ListKind::Comma, items) => items,
            e => vec![e],
        })
    }

    /// A function: optional `_base` (log), optional `^power` (`^{-1}` = inverse), then the
    /// argument: parenthesised, braced, or an implicit product up to the next `+`/`-`.
    fn function(&mut self, f: Func, name: &str) -> Result<Expr> {
        let mut f = f;
        let mut base = None;
        let mut power = None;
        for _ in 0..2 {
            if self.peek() == Some(&Tok::Op('_')) && f == Func::Log && base.is_none() {
                self.i += 1;
                base = Some(self.parse_script_arg()?);
            } else if self.peek() == Some(&Tok::Op('^')) && power.is_none() {
                self.i += 1;
                let p = self.parse_script_arg()?;
                power = Some(p);
            }
        }
        if let Some(p) = &power {
            if matches!(p, Expr::Neg(x) if matches!(x.as_ref(), Expr::Num(n) if n.value == num_rational::BigRational::from_integer(1.into())))
            {
                match f.inverse() {
                    Some(inv) => {
                        f = inv;
                        power = None;
                    }
                    None => return perr(format!("no inverse for {name}"), self.pos()),
                }
            }
        }
        // `m_{\max}`, `x_{\min}`: a function name alone at the end of a group is a label, not a call.
        if base.is_none() && power.is_none() && matches!(f, Func::Max | Func::Min) {
            if let Some(Tok::Close('}')) = self.peek() {
                return Ok(Expr::sym(name.trim_start_matches('\\')));
            }
        }
        let trig = matches!(
            f,
            Func::Sin | Func::Cos | Func::Tan | Func::Cot | Func::Sec | Func::Csc
        );
        self.trig_arg += usize::from(trig);
        let args = self.function_args(name);
        self.trig_arg -= usize::from(trig);
        let args = args?;
        let arity_ok = match f {
            Func::Gcd | Func::Lcm | Func::Max | Func::Min => !args.is_empty(),
            Func::Binom | Func::Mod => args.len() == 2,
            _ => args.len() == 1,
        };
        if !arity_ok {
            return perr(format!("wrong number of arguments for {name}"), self.pos());
        }
        self.finish_function(f, name, base, power, args)
    }

    /// The argument(s) of a function: parenthesised, braced, or an implicit product.
    fn function_args(&mut self, name: &str) -> Result<Vec<Expr>> {
        Ok(match self.peek() {
            Some(Tok::Open('(')) => self.paren_args()?,
            Some(Tok::Open('{')) => match self.parse_group()? {
                Expr::List(ListKind::Comma, items) => items,
                e => vec![e],
            },
            _ => {
                if !self.starts_operand(false) {
                    return perr(format!("missing argument of {name}"), self.pos());
                }
                let first = self.parse_unary()?;
                let mut acc = first;
                while self.starts_operand(true) {
                    let rhs = self.parse_power()?;
                    acc = mul(acc, rhs);
                }
                vec![acc]
            }
        })
    }

    fn finish_function(
        &mut self,
        f: Func,
        name: &str,
        base: Option<Expr>,
        power: Option<Expr>,
        args: Vec<Expr>,
    ) -> Result<Expr> {
        let mut e = if f == Func::Log {
            let b = match (base, name) {
                (Some(b), _) => b,
                (None, "ln") => Expr::Const(Constant::E),
                (None, _) => Expr::num(10),
            };
            Expr::Func(Func::Log, vec![args.into_iter().next().unwrap(), b])
        } else {
            Expr::Func(f, args)
        };
        if let Some(p) = power {
            e = Expr::Pow(Box::new(e), Box::new(p));
        }
        Ok(e)
    }

    /// `( ... )`, `[ ... ]`, `{ ... }` (and `(a, b]` style intervals).
    fn bracketed(&mut self, open: char, pos: usize) -> Result<Expr> {
        if open == '{' {
            if self.peek() == Some(&Tok::Close('}')) {
                return perr("empty group", pos);
            }
            let inner = self.parse_list()?;
            if !self.eat(&Tok::Close('}')) {
                return perr("expected '}'", self.pos());
            }
            // `{1,3}` written without backslashes is still a set; a lone matrix in braces too.
            return Ok(match inner {
                Expr::List(_, items) => Expr::Set(items),
                m @ Expr::Matrix(_) => Expr::Set(vec![m]),
                e => e,
            });
        }
        if matches!(self.peek(), Some(Tok::Close(_))) {
            return perr("empty brackets", pos);
        }
        let inner = self.parse_list()?;
        let close = match self.bump() {
            Some(Tok::Close(c)) if c == ')' || c == ']' => c,
            _ => return perr(format!("unclosed '{open}'"), pos),
        };
        let items = match inner {
            Expr::List(ListKind::Comma, items) => items,
            Expr::List(ListKind::Group, groups)
                if groups.iter().all(|g| !matches!(g, Expr::List(..))) =>
            {
                groups
            }
            e => {
                if open == '(' && close != ')' {
                    return perr("mismatched brackets", pos);
                }
                return Ok(e);
            }
        };
        if items.len() == 2 && (open == '[' || close == ']') {
            let mut it = items.into_iter();
            let (a, b) = (it.next().unwrap(), it.next().unwrap());
            return Ok(Expr::Interval(
                Box::new(a),
                Box::new(b),
                open == '[',
                close == ']',
            ));
        }
        Ok(Expr::Tuple(items))
    }
}

fn is_function_name(n: &str) -> bool {
    FUNCTION_WORDS.contains(&n) && n != "pi"
}

fn mul(a: Expr, b: Expr) -> Expr {
    match a {
        Expr::Mul(mut v) => {
            v.push(b);
            Expr::Mul(v)
        }
        a => Expr::Mul(vec![a, b]),
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Num(..) => "number".into(),
        Tok::Letter(c) => format!("'{c}'"),
        Tok::Name(n) => format!("'{n}'"),
        Tok::Cmd(c) => format!("'\\{c}'"),
        Tok::Op(c) | Tok::Open(c) | Tok::Close(c) => format!("'{c}'"),
        Tok::SetOpen => "'\\{'".into(),
        Tok::SetClose => "'\\}'".into(),
        Tok::RowSep => "'\\\\'".into(),
        Tok::Text(_) => "text".into(),
        Tok::Percent => "'%'".into(),
        Tok::Degree => "degree sign".into(),
        Tok::Word => "connective word".into(),
        Tok::Rel(_) => "relation".into(),
        Tok::Pm(_) => "'\\pm'".into(),
    }
}
