//! The parser's command handlers: `\frac`, `\sqrt`, `\binom`, fonts and accents, floors and
//! ceilings, `\langle`, big operators (`\sum`, `\prod`, `\int`, `\lim`) with their scripts, and
//! matrix environments.

use super::{perr, Parser};
use crate::error::Result;
use crate::latex::ast::{BigOp, Constant, Expr, Func, ListKind, RelOp};
use crate::latex::lexer::Tok;
use crate::latex::vocabulary::func_by_name;

impl Parser {
    pub(super) fn command(&mut self, c: String, pos: usize) -> Result<Expr> {
        let name = c.as_str();
        if let Some(f) = func_by_name(name) {
            if !matches!(name, "sqrt") {
                return self.function(f, name);
            }
        }
        Ok(match name {
            "frac" | "dfrac" | "tfrac" | "cfrac" => {
                let a = self.parse_macro_arg()?;
                let b = self.parse_macro_arg()?;
                if let Some(var) = derivative_var(&a, &b) {
                    if !self.starts_operand(false) {
                        return perr("derivative without an operand", self.pos());
                    }
                    let body = self.parse_power()?;
                    return Ok(Expr::Big(
                        BigOp::Derivative,
                        Box::new(body),
                        var,
                        None,
                        None,
                    ));
                }
                Expr::Div(Box::new(a), Box::new(b))
            }
            "sqrt" => {
                if self.eat(&Tok::Open('[')) {
                    let n = self.parse_additive()?;
                    self.expect(&Tok::Close(']'), "']'")?;
                    let x = self.parse_macro_arg()?;
                    Expr::Func(Func::Root, vec![x, n])
                } else {
                    let x = self.parse_macro_arg()?;
                    Expr::Func(Func::Sqrt, vec![x])
                }
            }
            "binom" | "dbinom" | "tbinom" | "choose" => {
                let a = self.parse_macro_arg()?;
                let b = self.parse_macro_arg()?;
                Expr::Func(Func::Binom, vec![a, b])
            }
            "infty" => Expr::Const(Constant::Infinity),
            "emptyset" => Expr::EmptySet,
            "boxed" | "fbox" => self.parse_group()?,
            "mathbb"
                if self.peek() == Some(&Tok::Open('{'))
                    && self.peek_at(1) == Some(&Tok::Letter('R'))
                    && self.peek_at(2) == Some(&Tok::Close('}')) =>
            {
                // The real line: `\mathbb{R}` = `(-\infty, \infty)`.
                self.i += 3;
                let inf = Expr::Const(Constant::Infinity);
                Expr::Interval(
                    Box::new(Expr::Neg(Box::new(inf.clone()))),
                    Box::new(inf),
                    false,
                    false,
                )
            }
            "mathrm" | "mathit" | "mathbf" | "mathsf" | "mathbb" | "mathcal" | "boldsymbol"
            | "mathnormal" => {
                let g = self.parse_group()?;
                match g {
                    Expr::Const(Constant::E) | Expr::Const(Constant::I) => g,
                    other => other,
                }
            }
            "operatorname" => {
                let word = self.raw_word()?;
                if let Some(f) = func_by_name(&word) {
                    return self.function(f, &word);
                }
                if self.peek() == Some(&Tok::Open('(')) {
                    let args = self.paren_args()?;
                    return Ok(Expr::Apply(word, args));
                }
                Expr::Sym(word, None)
            }
            "overline" | "bar" | "hat" | "vec" | "widehat" | "tilde" | "dot" | "underline"
            | "overrightarrow" => {
                let inner = self.parse_macro_arg()?;
                let prefix = if name == "overline" { "bar" } else { name };
                let label = format!(
                    "{prefix}{{{}}}",
                    inner.to_string().trim_matches(|c| c == '(' || c == ')')
                );
                self.parse_subscripted(label)?
            }
            "lfloor" | "lceil" => {
                let inner = self.parse_additive()?;
                let close = if name == "lfloor" { "rfloor" } else { "rceil" };
                if self.peek() != Some(&Tok::Cmd(close.into())) {
                    return perr(format!("expected \\{close}"), self.pos());
                }
                self.i += 1;
                Expr::Func(
                    if name == "lfloor" {
                        Func::Floor
                    } else {
                        Func::Ceil
                    },
                    vec![inner],
                )
            }
            "langle" => {
                let inner = self.parse_list()?;
                if self.peek() != Some(&Tok::Cmd("rangle".into())) {
                    return perr("expected \\rangle", self.pos());
                }
                self.i += 1;
                match inner {
                    Expr::List(_, items) => Expr::Tuple(items),
                    e => Expr::Tuple(vec![e]),
                }
            }
            "begin" => self.environment(pos)?,
            "sum" | "prod" => {
                let (lo, hi) = self.scripts()?;
                let (var, lo) = match lo {
                    Some(Expr::Relation(mut v, ops)) if ops == [RelOp::Eq] && v.len() == 2 => {
                        let lo = v.pop().unwrap();
                        match v.pop().unwrap() {
                            Expr::Sym(n, None) => (n, lo),
                            _ => return perr("expected an index variable", pos),
                        }
                    }
                    _ => return perr("expected `_{k = ...}` after a sum or product", pos),
                };
                let Some(hi) = hi else {
                    return perr("expected an upper bound", pos);
                };
                let body = self.parse_product(false)?;
                let op = if name == "sum" {
                    BigOp::Sum
                } else {
                    BigOp::Product
                };
                Expr::Big(
                    op,
                    Box::new(body),
                    var,
                    Some(Box::new(lo)),
                    Some(Box::new(hi)),
                )
            }
            "int" => self.integral(pos)?,
            "lim" => self.limit(pos)?,
            _ => {
                if matches!(
                    name,
                    "end"
                        | "right"
                        | "to"
                        | "rightarrow"
                        | "cup"
                        | "cap"
                        | "in"
                        | "rfloor"
                        | "rceil"
                        | "rangle"
                ) {
                    return perr(format!("unexpected \\{name}"), pos);
                }
                // Unknown commands are opaque symbols (compared by name only).
                self.parse_subscripted(name.to_string())?
            }
        })
    }

    /// At `\end`: consume `\end{name}`, which must close the environment `env`.
    fn end_of(&mut self, env: &str) -> Result<()> {
        self.i += 1;
        let end = self.raw_word()?;
        if end != env {
            return perr(
                format!("\\begin{{{env}}} ended by \\end{{{end}}}"),
                self.pos(),
            );
        }
        Ok(())
    }

    /// Letters inside `{...}` (for `\operatorname`, environment names).
    pub(super) fn raw_word(&mut self) -> Result<String> {
        self.expect(&Tok::Open('{'), "'{'")?;
        let mut w = String::new();
        while let Some(t) = self.peek().cloned() {
            match t {
                Tok::Letter(c) => w.push(c),
                Tok::Name(n) => w.push_str(&n),
                Tok::Cmd(n) if n.len() > 1 => w.push_str(&n),
                Tok::Op('*') => w.push('*'),
                Tok::Close('}') => break,
                _ => return perr("unexpected token in a name", self.pos()),
            }
            self.i += 1;
        }
        self.expect(&Tok::Close('}'), "'}'")?;
        if w.is_empty() {
            return perr("empty name", self.pos());
        }
        Ok(w)
    }

    /// `_lo^hi` or `^hi_lo` after a big operator; empty groups mean "no bound".
    fn scripts(&mut self) -> Result<(Option<Expr>, Option<Expr>)> {
        let mut lo = None;
        let mut hi = None;
        for _ in 0..2 {
            let which = match self.peek() {
                Some(Tok::Op('_')) if lo.is_none() => 0,
                Some(Tok::Op('^')) if hi.is_none() => 1,
                _ => break,
            };
            self.i += 1;
            let v = if self.peek() == Some(&Tok::Open('{'))
                && self.peek_at(1) == Some(&Tok::Close('}'))
            {
                self.i += 2;
                None
            } else if let Some(Tok::Letter(c)) = self.peek().cloned() {
                // A bare letter or number bound takes no subscript: `\int^b_a` is from a to b.
                self.i += 1;
                Some(Expr::Sym(c.to_string(), None))
            } else if let Some(Tok::Num(n, _)) = self.peek().cloned() {
                self.i += 1;
                Some(Expr::Num(n))
            } else {
                Some(self.parse_script_arg()?)
            };
            if which == 0 {
                lo = v
            } else {
                hi = v
            }
        }
        Ok((lo, hi))
    }

    fn integral(&mut self, pos: usize) -> Result<Expr> {
        let (lo, hi) = self.scripts()?;
        if self.i >= self.toks.len() {
            return perr("integral without an integrand", pos);
        }
        let was = self.in_integral;
        self.in_integral = true;
        let body = self.parse_additive();
        self.in_integral = was;
        let body = body?;
        let mut var = None;
        let body = strip_differential(body, &mut var);
        let var = match var {
            Some(v) => v,
            None => {
                let free = body.free_symbols();
                if free.iter().any(|s| s == "x") {
                    "x".to_string()
                } else {
                    free.into_iter().next().unwrap_or_else(|| "x".to_string())
                }
            }
        };
        let (lo, hi) = match (lo, hi) {
            (Some(l), Some(h)) => (Some(Box::new(l)), Some(Box::new(h))),
            _ => (None, None),
        };
        Ok(Expr::Big(BigOp::Integral, Box::new(body), var, lo, hi))
    }

    fn limit(&mut self, pos: usize) -> Result<Expr> {
        if !self.eat(&Tok::Op('_')) {
            return perr("expected `_{x \\to a}` after \\lim", pos);
        }
        self.expect(&Tok::Open('{'), "'{'")?;
        let var = match self.bump() {
            Some(Tok::Letter(c)) => c.to_string(),
            Some(Tok::Name(n)) => n,
            _ => return perr("expected the limit variable", self.pos()),
        };
        match self.bump() {
            Some(Tok::Cmd(c))
                if matches!(
                    c.as_str(),
                    "to" | "rightarrow" | "Rightarrow" | "longrightarrow" | "Longrightarrow"
                ) => {}
            _ => return perr("expected \\to", self.pos()),
        }
        // `3^{+}` / `3^-` give the direction: cut them out before parsing the target.
        let mut dir = 1;
        let mut k = self.i;
        let mut depth = 0usize;
        while k < self.toks.len() {
            match &self.toks[k].tok {
                Tok::Open(_) => depth += 1,
                Tok::Close(_) if depth == 0 => break,
                Tok::Close(_) => depth -= 1,
                _ => {}
            }
            k += 1;
        }
        let window: Vec<&Tok> = self.toks[self.i..k].iter().map(|t| &t.tok).collect();
        let n = window.len();
        let cut = if n >= 4
            && *window[n - 4] == Tok::Op('^')
            && *window[n - 3] == Tok::Open('{')
            && *window[n - 1] == Tok::Close('}')
        {
            Some((4, window[n - 2].clone()))
        } else if n >= 2 && *window[n - 2] == Tok::Op('^') {
            Some((2, window[n - 1].clone()))
        } else {
            None
        };
        if let Some((len, sign)) = cut {
            if matches!(sign, Tok::Op('+') | Tok::Op('-')) {
                dir = if sign == Tok::Op('-') { -1 } else { 1 };
                self.toks.drain(k - len..k);
            }
        }
        let target = self.parse_additive()?;
        self.expect(&Tok::Close('}'), "'}'")?;
        if !self.starts_operand(false) {
            return perr("limit without a body", self.pos());
        }
        let body = self.parse_product(false)?;
        Ok(Expr::Big(
            BigOp::Limit,
            Box::new(body),
            var,
            Some(Box::new(target)),
            Some(Box::new(Expr::num(dir))),
        ))
    }

    fn environment(&mut self, pos: usize) -> Result<Expr> {
        let env = self.raw_word()?;
        let matrix_envs = [
            "pmatrix",
            "bmatrix",
            "Bmatrix",
            "vmatrix",
            "Vmatrix",
            "matrix",
            "smallmatrix",
            "array",
        ];
        if SYSTEM_ENVS.contains(&env.as_str()) {
            return self.system(env, pos);
        }
        if !matrix_envs.contains(&env.as_str()) {
            return perr(format!("unsupported environment {env}"), pos);
        }
        if env == "array" && self.peek() == Some(&Tok::Open('{')) {
            // Column specification, e.g. {cc|c}.
            while let Some(t) = self.bump() {
                if t == Tok::Close('}') {
                    break;
                }
            }
        }
        let mut rows: Vec<Vec<Expr>> = vec![Vec::new()];
        loop {
            match self.peek() {
                Some(Tok::Cmd(c)) if c == "end" => {
                    self.end_of(&env)?;
                    break;
                }
                Some(Tok::Cmd(c)) if c == "hline" => {
                    self.i += 1;
                }
                Some(Tok::Op('&')) => {
                    self.i += 1;
                    if rows.last().unwrap().is_empty() {
                        return perr("empty matrix cell", self.pos());
                    }
                }
                Some(Tok::RowSep) => {
                    self.i += 1;
                    rows.push(Vec::new());
                }
                None => return perr(format!("unclosed \\begin{{{env}}}"), pos),
                _ => {
                    let cell = self.parse_relation()?;
                    rows.last_mut().unwrap().push(cell);
                }
            }
        }
        if rows.last().is_some_and(|r| r.is_empty()) {
            rows.pop();
        }
        if rows.is_empty() || rows.iter().any(|r| r.len() != rows[0].len()) {
            return perr("matrix rows of different lengths", pos);
        }
        let m = Expr::Matrix(rows);
        Ok(if env == "vmatrix" {
            Expr::Func(Func::Det, vec![m])
        } else {
            m
        })
    }
}

/// Environments that hold a system of equations, one per row (issue 13): `cases` (a brace
/// around the system), `aligned`/`align` and `gathered`/`gather`/`split` (alignment marks `&` are
/// dropped: `x &= 5`).
const SYSTEM_ENVS: &[&str] = &[
    "cases",
    "aligned",
    "align",
    "align*",
    "gathered",
    "gather",
    "gather*",
    "split",
    "alignedat",
];

impl Parser {
    /// `\begin{cases} p+q=1 \\ p-q=2 \end{cases}`: the rows as a comma list, compared like
    /// `p+q=1, p-q=2` (a set of equations). A `cases` row with a `&` is a piecewise function
    /// (`x & x > 0`), which is not a system: unsupported.
    fn system(&mut self, env: String, pos: usize) -> Result<Expr> {
        if env == "alignedat" && self.peek() == Some(&Tok::Open('{')) {
            // Column count, e.g. {2}.
            while let Some(t) = self.bump() {
                if t == Tok::Close('}') {
                    break;
                }
            }
        }
        if env != "cases" {
            self.drop_alignment_marks();
        }
        let mut rows: Vec<Expr> = Vec::new();
        loop {
            match self.peek() {
                Some(Tok::Cmd(c)) if c == "end" => {
                    self.end_of(&env)?;
                    break;
                }
                Some(Tok::RowSep) => self.i += 1,
                Some(Tok::Op('&')) if env == "cases" => {
                    return perr("a piecewise function is not a system", self.pos());
                }
                Some(Tok::Op('&')) => self.i += 1,
                None => return perr(format!("unclosed \\begin{{{env}}}"), pos),
                _ => rows.push(self.parse_relation()?),
            }
        }
        match rows.len() {
            0 => perr("empty system", pos),
            1 => Ok(rows.pop().expect("one row")),
            _ => Ok(Expr::List(ListKind::Comma, rows)),
        }
    }

    /// Drop the alignment marks `&` of this environment (not those inside braces or a nested
    /// environment) so that each row parses as one relation: `x &= 5`. One pass over the tokens.
    fn drop_alignment_marks(&mut self) {
        let mut depth = 0usize;
        let mut drop = Vec::new();
        for (k, t) in self.toks.iter().enumerate().skip(self.i) {
            match &t.tok {
                Tok::Open(_) => depth += 1,
                Tok::Close(_) => depth = depth.saturating_sub(1),
                Tok::Cmd(c) if c == "begin" => depth += 1,
                Tok::Cmd(c) if c == "end" && depth == 0 => break,
                Tok::Cmd(c) if c == "end" => depth -= 1,
                Tok::Op('&') if depth == 0 => drop.push(k),
                _ => {}
            }
        }
        if drop.is_empty() {
            return;
        }
        let mut next = drop.iter().copied().peekable();
        let mut k = 0usize;
        self.toks.retain(|_| {
            let keep = next.peek() != Some(&k);
            if !keep {
                next.next();
            }
            k += 1;
            keep
        });
    }
}

/// `\frac{d}{dx}` is a derivative operator in `x`.
fn derivative_var(num: &Expr, den: &Expr) -> Option<String> {
    if !matches!(num, Expr::Sym(n, None) if n == "d") {
        return None;
    }
    match den {
        Expr::Mul(v) if v.len() == 2 && matches!(&v[0], Expr::Sym(n, None) if n == "d") => {
            match &v[1] {
                Expr::Sym(x, None) => Some(x.clone()),
                _ => None,
            }
        }
        Expr::Differential(x) => Some(x.clone()),
        _ => None,
    }
}

/// Removes the `dx` marker from an integrand (replacing it by 1) and reports its variable.
fn strip_differential(e: Expr, var: &mut Option<String>) -> Expr {
    match e {
        Expr::Differential(v) => {
            *var = Some(v);
            Expr::num(1)
        }
        Expr::Mul(items) => {
            let mut kept: Vec<Expr> = Vec::new();
            for it in items {
                match it {
                    Expr::Differential(v) => *var = Some(v),
                    other => kept.push(strip_differential(other, var)),
                }
            }
            match kept.len() {
                0 => Expr::num(1),
                1 => kept.pop().unwrap(),
                _ => Expr::Mul(kept),
            }
        }
        Expr::Add(items) => Expr::Add(
            items
                .into_iter()
                .map(|x| strip_differential(x, var))
                .collect(),
        ),
        Expr::Div(a, b) => Expr::Div(Box::new(strip_differential(*a, var)), b),
        Expr::Neg(a) => Expr::Neg(Box::new(strip_differential(*a, var))),
        other => other,
    }
}
