//! The expression tree the LaTeX parser builds, and its canonical printer.
//!
//! The printed form is SymPy-compatible syntax (`Eq(a, b)`, `x**2`, `Interval(0, 1, False, True)`)
//! so tests can hand it to SymPy as a trusted oracle; it is also the key of the literal
//! (structural) comparison, with commutative operands sorted by [`canonical`].

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::fmt::{self, Write};

/// A number literal: its exact value plus how many decimals were written (None = exact form,
/// e.g. an integer or a fraction). The written precision drives rounding-aware comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Number {
    pub value: BigRational,
    pub decimals: Option<u32>,
}

impl Number {
    pub fn int(v: i64) -> Number {
        Number {
            value: BigRational::from_integer(BigInt::from(v)),
            decimals: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Constant {
    Pi,
    E,
    I,
    Infinity,
}

/// Named functions with a known meaning (evaluated by the engine).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Func {
    Sin,
    Cos,
    Tan,
    Cot,
    Sec,
    Csc,
    Asin,
    Acos,
    Atan,
    Acot,
    Asec,
    Acsc,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Exp,
    /// `log(x, base)`: `\ln` has base e, `\log` base 10 (latex2sympy's reading), `\log_b`.
    Log,
    Sqrt,
    /// `root(x, n)`: the `n`-th root.
    Root,
    Abs,
    Floor,
    Ceil,
    Factorial,
    Binom,
    Gcd,
    Lcm,
    Max,
    Min,
    Mod,
    Det,
}

impl Func {
    pub fn sympy_name(self) -> &'static str {
        use Func::*;
        match self {
            Sin => "sin",
            Cos => "cos",
            Tan => "tan",
            Cot => "cot",
            Sec => "sec",
            Csc => "csc",
            Asin => "asin",
            Acos => "acos",
            Atan => "atan",
            Acot => "acot",
            Asec => "asec",
            Acsc => "acsc",
            Sinh => "sinh",
            Cosh => "cosh",
            Tanh => "tanh",
            Asinh => "asinh",
            Acosh => "acosh",
            Atanh => "atanh",
            Exp => "exp",
            Log => "log",
            Sqrt => "sqrt",
            Root => "root",
            Abs => "Abs",
            Floor => "floor",
            Ceil => "ceiling",
            Factorial => "factorial",
            Binom => "binomial",
            Gcd => "gcd",
            Lcm => "lcm",
            Max => "Max",
            Min => "Min",
            Mod => "Mod",
            Det => "det",
        }
    }

    /// The inverse for `\sin^{-1}` style notation.
    pub fn inverse(self) -> Option<Func> {
        use Func::*;
        Some(match self {
            Sin => Asin,
            Cos => Acos,
            Tan => Atan,
            Cot => Acot,
            Sec => Asec,
            Csc => Acsc,
            Sinh => Asinh,
            Cosh => Acosh,
            Tanh => Atanh,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RelOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Approx,
}

impl RelOp {
    fn sympy_name(self) -> &'static str {
        match self {
            RelOp::Eq | RelOp::Approx => "Eq",
            RelOp::Ne => "Ne",
            RelOp::Lt => "Lt",
            RelOp::Le => "Le",
            RelOp::Gt => "Gt",
            RelOp::Ge => "Ge",
        }
    }
}

/// Calculus notation kept as structure: compared structurally, never evaluated (except finite
/// sums and products with small integer bounds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BigOp {
    Sum,
    Product,
    Integral,
    Derivative,
    Limit,
}

/// How a list was separated; `;` and the words "and"/"or" group `,`-lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ListKind {
    Comma,
    Group,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Num(Number),
    Const(Constant),
    /// A variable: base name plus optional subscript (`x_1`, `a_{n-1}`, `\theta`, `f'`).
    Sym(String, Option<Box<Expr>>),
    /// `\text{...}` words that are not units, connectives or numbers.
    Text(String),
    /// A numeral with a base subscript such as `204_5`: kept literal.
    Based(String, String),
    Add(Vec<Expr>),
    Mul(Vec<Expr>),
    Neg(Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
    Pow(Box<Expr>, Box<Expr>),
    Func(Func, Vec<Expr>),
    /// Application of an unknown function: `f(x)`, `\operatorname{foo}(x)`.
    Apply(String, Vec<Expr>),
    Percent(Box<Expr>),
    /// `\pm a` (and `\mp a`, with the sign flipped): a two-valued term.
    PlusMinus(Box<Expr>),
    Tuple(Vec<Expr>),
    Set(Vec<Expr>),
    List(ListKind, Vec<Expr>),
    /// lower, upper, lower closed, upper closed.
    Interval(Box<Expr>, Box<Expr>, bool, bool),
    Union(Vec<Expr>),
    Intersection(Vec<Expr>),
    EmptySet,
    Matrix(Vec<Vec<Expr>>),
    /// A chain `a op b op c ...`: operands.len() == ops.len() + 1.
    Relation(Vec<Expr>, Vec<RelOp>),
    In(Box<Expr>, Box<Expr>),
    Ratio(Vec<Expr>),
    /// body, bound variable, lower, upper (Sum/Product/Integral); Derivative uses only the
    /// variable; Limit uses `lower` as the target and `upper` = Some(+1/-1) as the direction.
    Big(
        BigOp,
        Box<Expr>,
        String,
        Option<Box<Expr>>,
        Option<Box<Expr>>,
    ),
    /// The `d x` of an integral while it is being parsed (never survives parsing).
    Differential(String),
}

impl Expr {
    pub fn num(v: i64) -> Expr {
        Expr::Num(Number::int(v))
    }
    pub fn rational(v: BigRational) -> Expr {
        Expr::Num(Number {
            value: v,
            decimals: None,
        })
    }
    pub fn sym(name: &str) -> Expr {
        Expr::Sym(name.to_string(), None)
    }

    /// Number of nodes (the parser's size budget counts the same thing).
    pub fn size(&self) -> usize {
        let mut n = 0;
        self.walk(&mut |_| n += 1);
        n
    }

    /// Pre-order walk over every node.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Num(_)
            | Expr::Const(_)
            | Expr::Text(_)
            | Expr::Based(..)
            | Expr::EmptySet
            | Expr::Differential(_) => {}
            Expr::Sym(_, sub) => {
                if let Some(s) = sub {
                    s.walk(f)
                }
            }
            Expr::Add(v)
            | Expr::Mul(v)
            | Expr::Func(_, v)
            | Expr::Apply(_, v)
            | Expr::Tuple(v)
            | Expr::Set(v)
            | Expr::List(_, v)
            | Expr::Union(v)
            | Expr::Intersection(v)
            | Expr::Ratio(v)
            | Expr::Relation(v, _) => v.iter().for_each(|e| e.walk(f)),
            Expr::Neg(a) | Expr::Percent(a) | Expr::PlusMinus(a) => a.walk(f),
            Expr::Div(a, b) | Expr::Pow(a, b) | Expr::In(a, b) | Expr::Interval(a, b, _, _) => {
                a.walk(f);
                b.walk(f)
            }
            Expr::Matrix(rows) => rows.iter().flatten().for_each(|e| e.walk(f)),
            Expr::Big(_, body, _, lo, hi) => {
                body.walk(f);
                if let Some(l) = lo {
                    l.walk(f)
                }
                if let Some(h) = hi {
                    h.walk(f)
                }
            }
        }
    }

    pub fn contains(&self, pred: &dyn Fn(&Expr) -> bool) -> bool {
        let mut found = false;
        self.walk(&mut |e| found |= pred(e));
        found
    }

    /// Free variable names (symbols without a subscript, or subscripted symbols by full name),
    /// excluding variables bound by sums, integrals and limits.
    pub fn free_symbols(&self) -> Vec<String> {
        let mut out = Vec::new();
        collect_free(self, &mut Vec::new(), &mut out);
        out.sort();
        out.dedup();
        out
    }

    /// A plain number literal (possibly negated, a fraction or mixed number of literals).
    pub fn is_number_literal(&self) -> bool {
        match self {
            Expr::Num(_) => true,
            Expr::Neg(a) | Expr::Percent(a) => a.is_number_literal(),
            Expr::Div(a, b) => a.is_number_literal() && b.is_number_literal(),
            Expr::Add(v) => v.len() == 2 && v.iter().all(|e| e.is_number_literal()),
            _ => false,
        }
    }
}

fn collect_free(e: &Expr, bound: &mut Vec<String>, out: &mut Vec<String>) {
    match e {
        Expr::Sym(name, sub) => {
            let key = symbol_key(name, sub.as_deref());
            if sub.is_some() {
                // An index expression may mention bound or free variables itself.
                if let Some(s) = sub {
                    collect_free(s, bound, out);
                }
                if !bound.contains(&key)
                    && sub.as_ref().is_some_and(|s| s.free_symbols().is_empty())
                {
                    out.push(key);
                }
            } else if !bound.contains(name) {
                out.push(key);
            }
        }
        Expr::Big(_, body, var, lo, hi) => {
            if let Some(l) = lo {
                collect_free(l, bound, out)
            }
            if let Some(h) = hi {
                collect_free(h, bound, out)
            }
            bound.push(var.clone());
            collect_free(body, bound, out);
            bound.pop();
        }
        _ => {
            // Recurse into direct children only.
            for_each_child(e, &mut |c| collect_free(c, bound, out));
        }
    }
}

/// Calls `f` on each direct child.
pub fn for_each_child(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    match e {
        Expr::Num(_)
        | Expr::Const(_)
        | Expr::Text(_)
        | Expr::Based(..)
        | Expr::EmptySet
        | Expr::Differential(_) => {}
        Expr::Sym(_, sub) => {
            if let Some(s) = sub {
                f(s)
            }
        }
        Expr::Add(v)
        | Expr::Mul(v)
        | Expr::Func(_, v)
        | Expr::Apply(_, v)
        | Expr::Tuple(v)
        | Expr::Set(v)
        | Expr::List(_, v)
        | Expr::Union(v)
        | Expr::Intersection(v)
        | Expr::Ratio(v)
        | Expr::Relation(v, _) => v.iter().for_each(f),
        Expr::Neg(a) | Expr::Percent(a) | Expr::PlusMinus(a) => f(a),
        Expr::Div(a, b) | Expr::Pow(a, b) | Expr::In(a, b) | Expr::Interval(a, b, _, _) => {
            f(a);
            f(b)
        }
        Expr::Matrix(rows) => rows.iter().flatten().for_each(f),
        Expr::Big(_, body, _, lo, hi) => {
            f(body);
            if let Some(l) = lo {
                f(l)
            }
            if let Some(h) = hi {
                f(h)
            }
        }
    }
}

/// The name under which a (possibly subscripted) symbol is looked up: `x`, `x_1`, `a_{n + 1}`.
pub fn symbol_key(name: &str, sub: Option<&Expr>) -> String {
    match sub {
        None => name.to_string(),
        Some(Expr::Num(n)) if n.decimals.is_none() && n.value.is_integer() => {
            format!("{name}_{}", n.value)
        }
        Some(Expr::Sym(s, None)) => format!("{name}_{s}"),
        Some(s) => format!("{name}_{{{}}}", s),
    }
}

/// A canonical copy: nested sums/products flattened, commutative operands sorted by their
/// printed form, sets sorted and deduplicated. Two expressions with equal canonical prints are
/// equal up to commutativity/associativity (the literal path).
pub fn canonical(e: &Expr) -> Expr {
    match e {
        Expr::Add(v) => {
            let mut items = Vec::new();
            for x in v {
                match canonical(x) {
                    Expr::Add(inner) => items.extend(inner),
                    c => items.push(c),
                }
            }
            sort_by_print(&mut items);
            if items.len() == 1 {
                items.pop().unwrap()
            } else {
                Expr::Add(items)
            }
        }
        Expr::Mul(v) => {
            let mut items = Vec::new();
            for x in v {
                match canonical(x) {
                    Expr::Mul(inner) => items.extend(inner),
                    c => items.push(c),
                }
            }
            sort_by_print(&mut items);
            if items.len() == 1 {
                items.pop().unwrap()
            } else {
                Expr::Mul(items)
            }
        }
        Expr::Set(v) => {
            let mut items: Vec<Expr> = v.iter().map(canonical).collect();
            sort_by_print(&mut items);
            items.dedup_by(|a, b| a.to_string() == b.to_string());
            Expr::Set(items)
        }
        Expr::List(k, v) => {
            let mut items: Vec<Expr> = v.iter().map(canonical).collect();
            sort_by_print(&mut items);
            items.dedup_by(|a, b| a.to_string() == b.to_string());
            Expr::List(*k, items)
        }
        Expr::Union(v) => {
            let mut items: Vec<Expr> = v.iter().map(canonical).collect();
            sort_by_print(&mut items);
            Expr::Union(items)
        }
        Expr::Num(n) => Expr::Num(Number {
            value: n.value.clone(),
            decimals: None,
        }),
        Expr::Func(f @ (Func::Gcd | Func::Lcm | Func::Max | Func::Min), v) => {
            let mut items: Vec<Expr> = v.iter().map(canonical).collect();
            sort_by_print(&mut items);
            Expr::Func(*f, items)
        }
        _ => map_children(e, &canonical),
    }
}

fn sort_by_print(items: &mut [Expr]) {
    let mut keyed: Vec<(String, Expr)> = items.iter().map(|e| (e.to_string(), e.clone())).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    for (slot, (_, e)) in items.iter_mut().zip(keyed) {
        *slot = e;
    }
}

/// Rebuild `e` with `f` applied to each direct child.
pub fn map_children(e: &Expr, f: &dyn Fn(&Expr) -> Expr) -> Expr {
    let mv = |v: &Vec<Expr>| v.iter().map(f).collect::<Vec<_>>();
    let b = |a: &Expr| Box::new(f(a));
    match e {
        Expr::Num(_)
        | Expr::Const(_)
        | Expr::Text(_)
        | Expr::Based(..)
        | Expr::EmptySet
        | Expr::Differential(_) => e.clone(),
        Expr::Sym(n, sub) => Expr::Sym(n.clone(), sub.as_ref().map(|s| b(s))),
        Expr::Add(v) => Expr::Add(mv(v)),
        Expr::Mul(v) => Expr::Mul(mv(v)),
        Expr::Func(k, v) => Expr::Func(*k, mv(v)),
        Expr::Apply(n, v) => Expr::Apply(n.clone(), mv(v)),
        Expr::Tuple(v) => Expr::Tuple(mv(v)),
        Expr::Set(v) => Expr::Set(mv(v)),
        Expr::List(k, v) => Expr::List(*k, mv(v)),
        Expr::Union(v) => Expr::Union(mv(v)),
        Expr::Intersection(v) => Expr::Intersection(mv(v)),
        Expr::Ratio(v) => Expr::Ratio(mv(v)),
        Expr::Relation(v, ops) => Expr::Relation(mv(v), ops.clone()),
        Expr::Neg(a) => Expr::Neg(b(a)),
        Expr::Percent(a) => Expr::Percent(b(a)),
        Expr::PlusMinus(a) => Expr::PlusMinus(b(a)),
        Expr::Div(x, y) => Expr::Div(b(x), b(y)),
        Expr::Pow(x, y) => Expr::Pow(b(x), b(y)),
        Expr::In(x, y) => Expr::In(b(x), b(y)),
        Expr::Interval(x, y, lc, hc) => Expr::Interval(b(x), b(y), *lc, *hc),
        Expr::Matrix(rows) => {
            Expr::Matrix(rows.iter().map(|r| r.iter().map(f).collect()).collect())
        }
        Expr::Big(k, body, var, lo, hi) => Expr::Big(
            *k,
            b(body),
            var.clone(),
            lo.as_ref().map(|l| b(l)),
            hi.as_ref().map(|h| b(h)),
        ),
    }
}

fn fmt_rational(v: &BigRational, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if v.is_integer() {
        write!(f, "{}", v.numer())
    } else if v.is_negative() {
        write!(f, "(-{}/{})", v.numer().abs(), v.denom())
    } else {
        write!(f, "({}/{})", v.numer(), v.denom())
    }
}

fn join(f: &mut fmt::Formatter<'_>, items: &[Expr], sep: &str) -> fmt::Result {
    for (i, e) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        write!(f, "{e}")?;
    }
    Ok(())
}

/// SymPy-compatible identifiers: `h_{\theta}` -> `h_theta`.
fn ident(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() || c == '_' {
            s.push(c)
        } else if c == '\'' {
            s.push_str("_prime")
        }
    }
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 's');
    }
    s
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Num(n) => match n.decimals {
                Some(d) if d > 0 => {
                    // Print a written decimal as written (exactly representable in base 10).
                    let scale = BigInt::from(10u32).pow(d);
                    let scaled = (&n.value * BigRational::from_integer(scale.clone())).to_integer();
                    let neg = scaled.is_negative();
                    let digits = scaled.abs().to_string();
                    let d = d as usize;
                    let padded = if digits.len() <= d {
                        format!("{}{}", "0".repeat(d + 1 - digits.len()), digits)
                    } else {
                        digits
                    };
                    let (ip, fp) = padded.split_at(padded.len() - d);
                    write!(f, "{}{}.{}", if neg { "-" } else { "" }, ip, fp)
                }
                _ => fmt_rational(&n.value, f),
            },
            Expr::Const(c) => f.write_str(match c {
                Constant::Pi => "pi",
                Constant::E => "E",
                Constant::I => "I",
                Constant::Infinity => "oo",
            }),
            Expr::Sym(name, sub) => f.write_str(&ident(&symbol_key(name, sub.as_deref()))),
            Expr::Text(t) => write!(f, "Text({t:?})"),
            Expr::Based(d, b) => write!(f, "Based({d:?}, {b:?})"),
            Expr::Add(v) => {
                f.write_char('(')?;
                join(f, v, " + ")?;
                f.write_char(')')
            }
            Expr::Mul(v) => {
                f.write_char('(')?;
                join(f, v, "*")?;
                f.write_char(')')
            }
            Expr::Neg(a) => write!(f, "(-{a})"),
            Expr::Div(a, b) => write!(f, "({a}/{b})"),
            Expr::Pow(a, b) => write!(f, "({a}**{b})"),
            Expr::Func(Func::Root, v) if v.len() == 2 => write!(f, "({}**(1/{}))", v[0], v[1]),
            Expr::Func(Func::Log, v) if v.len() == 2 => write!(f, "log({}, {})", v[0], v[1]),
            Expr::Func(k, v) => {
                write!(f, "{}(", k.sympy_name())?;
                join(f, v, ", ")?;
                f.write_char(')')
            }
            Expr::Apply(name, v) => {
                write!(f, "Function({:?})(", ident(name))?;
                join(f, v, ", ")?;
                f.write_char(')')
            }
            Expr::Percent(a) => write!(f, "({a}/100)"),
            Expr::PlusMinus(a) => write!(f, "PlusMinus({a})"),
            Expr::Tuple(v) => {
                f.write_str("Tuple(")?;
                join(f, v, ", ")?;
                f.write_char(')')
            }
            Expr::Set(v) | Expr::List(_, v) => {
                f.write_str("FiniteSet(")?;
                join(f, v, ", ")?;
                f.write_char(')')
            }
            Expr::Interval(a, b, lc, hc) => {
                let py = |x: bool| if x { "True" } else { "False" };
                write!(f, "Interval({a}, {b}, {}, {})", py(!lc), py(!hc))
            }
            Expr::Union(v) => {
                f.write_str("Union(")?;
                join(f, v, ", ")?;
                f.write_char(')')
            }
            Expr::Intersection(v) => {
                f.write_str("Intersection(")?;
                join(f, v, ", ")?;
                f.write_char(')')
            }
            Expr::EmptySet => f.write_str("EmptySet"),
            Expr::Matrix(rows) => {
                f.write_str("Matrix([")?;
                for (i, r) in rows.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_char('[')?;
                    join(f, r, ", ")?;
                    f.write_char(']')?;
                }
                f.write_str("])")
            }
            Expr::Relation(v, ops) => {
                if ops.len() > 1 {
                    f.write_str("And(")?;
                }
                for (i, op) in ops.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}({}, {})", op.sympy_name(), v[i], v[i + 1])?;
                }
                if ops.len() > 1 {
                    f.write_char(')')?;
                }
                Ok(())
            }
            Expr::In(a, b) => write!(f, "Contains({a}, {b})"),
            Expr::Ratio(v) => {
                f.write_str("Ratio(")?;
                join(f, v, ", ")?;
                f.write_char(')')
            }
            Expr::Big(op, body, var, lo, hi) => {
                let v = ident(var);
                match op {
                    BigOp::Sum | BigOp::Product | BigOp::Integral => {
                        let name = match op {
                            BigOp::Sum => "Sum",
                            BigOp::Product => "Product",
                            _ => "Integral",
                        };
                        match (lo, hi) {
                            (Some(l), Some(h)) => write!(f, "{name}({body}, ({v}, {l}, {h}))"),
                            _ => write!(f, "{name}({body}, {v})"),
                        }
                    }
                    BigOp::Derivative => write!(f, "Derivative({body}, {v})"),
                    BigOp::Limit => {
                        let to = lo
                            .as_ref()
                            .map(|l| l.to_string())
                            .unwrap_or_else(|| "0".into());
                        let dir = match hi.as_deref() {
                            Some(Expr::Num(n)) if n.value.is_negative() => "-",
                            _ => "+",
                        };
                        write!(f, "Limit({body}, {v}, {to}, dir='{dir}')")
                    }
                }
            }
            Expr::Differential(v) => write!(f, "d{v}"),
        }
    }
}

/// `true` when `v` is zero (helper for callers that hold a `BigRational`).
pub fn is_zero(v: &BigRational) -> bool {
    v.is_zero()
}

/// `true` when `v` is one.
pub fn is_one(v: &BigRational) -> bool {
    v.is_one()
}
