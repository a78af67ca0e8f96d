//! LaTeX / plain-math parsing to an expression tree ([`ast::Expr`]).
//!
//! [`parse`] reads one math string (delimiters such as `$`, `\(`, `\[` are tolerated) and
//! returns the tree or `Error::Parse { message, position }` (0-based character offset).
//! [`parse_answer`] first reduces an *answer* string the way a grader reads it: the contents
//! of `\boxed{}` (several boxes joined when only connectives separate them, see
//! [`crate::scan::boxes`]), then [`parse`].
//! Budgets: input length, node count and nesting depth; over budget is a parse error.

pub mod ast;
pub mod lexer;
pub mod parser;
pub mod vocabulary;

pub use ast::{canonical, BigOp, Constant, Expr, Func, ListKind, Number, RelOp};

use crate::error::{Error, Result};
use crate::scan::boxes::answer_text;

/// Limits of one parse. Over any limit is a parse error, never a hang.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseOptions {
    pub max_chars: usize,
    pub max_nodes: usize,
    pub max_depth: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            max_chars: 20_000,
            max_nodes: 5_000,
            max_depth: 100,
        }
    }
}

/// Messages of the parse errors that mean "over a budget" (length, size, nesting), not "not
/// mathematics": a verdict reports them as `over_budget`, and nothing hands such a string on to
/// SymPy.
pub const TOO_LONG: &str = "input longer than";
pub const TOO_LARGE: &str = "expression too large";
pub const TOO_DEEP: &str = "expression nested too deeply";

/// Is this parse error a budget (see [`TOO_LONG`], [`TOO_LARGE`], [`TOO_DEEP`])?
pub fn is_over_budget(e: &Error) -> bool {
    matches!(e, Error::Parse { message, .. }
        if [TOO_LONG, TOO_LARGE, TOO_DEEP].iter().any(|m| message.starts_with(m)))
}

/// Parse one math string.
pub fn parse(text: &str, opts: &ParseOptions) -> Result<Expr> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() > opts.max_chars {
        return Err(Error::Parse {
            message: format!("{TOO_LONG} {} characters", opts.max_chars),
            position: opts.max_chars,
        });
    }
    let toks = lexer::tokenize(&chars)?;
    // Braces and scripts make tokens outnumber nodes; the exact node count is checked below.
    if toks.len() > opts.max_nodes.saturating_mul(4) {
        return Err(Error::Parse {
            message: TOO_LARGE.into(),
            position: 0,
        });
    }
    let mut p = parser::Parser::new(toks, chars.len(), opts.max_depth);
    let e = p.parse_top()?;
    if e.size() > opts.max_nodes {
        return Err(Error::Parse {
            message: TOO_LARGE.into(),
            position: 0,
        });
    }
    Ok(e)
}

/// Parse an extracted answer: reduce it to its boxed part(s) first
/// ([`crate::scan::boxes::answer_text`]).
pub fn parse_answer(text: &str, opts: &ParseOptions) -> Result<Expr> {
    parse(&answer_text(text), opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> String {
        parse(s, &ParseOptions::default())
            .map(|e| e.to_string())
            .unwrap_or_else(|e| format!("ERR {e}"))
    }

    /// Issue 33: `m_{\max}` names a quantity; `\max` with arguments stays the function.
    #[test]
    fn max_and_min_alone_in_a_subscript_are_labels() {
        assert!(!p("m_{\\max} = n^2-n-1").starts_with("ERR"));
        assert!(!p("x_{\\min}").starts_with("ERR"));
        assert!(!p("\\max(1, 2)").starts_with("ERR")); // the function, with its arguments
        assert!(p("\\max").starts_with("ERR"));
    }

    /// Systems of equations (issue 13): `cases` rows and `aligned`-style rows (alignment marks
    /// dropped) read as a comma list of relations; a `cases` row with `&` is a piecewise function.
    #[test]
    fn systems_of_equations() {
        let list = p("p+q=1, p-q=2");
        assert_eq!(p("\\begin{cases} p+q=1 \\\\ p-q=2 \\end{cases}"), list);
        assert_eq!(p("\\begin{cases} p+q=1 \\\\ p-q=2 \\\\ \\end{cases}"), list);
        assert_eq!(
            p("\\begin{aligned} p+q &= 1 \\\\ p-q &= 2 \\end{aligned}"),
            list
        );
        assert_eq!(
            p("\\begin{align*} p+q &= 1 \\\\ p-q &= 2 \\end{align*}"),
            list
        );
        assert_eq!(
            p("\\begin{gathered} p+q = 1 \\\\ p-q = 2 \\end{gathered}"),
            list
        );
        assert_eq!(p("\\begin{cases} x = 3 \\end{cases}"), p("x = 3"));
        // A matrix inside an aligned row keeps its own cells.
        assert_eq!(
            p("\\begin{aligned} A &= \\begin{pmatrix} 1 & 2 \\end{pmatrix} \\end{aligned}"),
            p("A = \\begin{pmatrix} 1 & 2 \\end{pmatrix}")
        );
        assert!(p("\\begin{cases} x & x > 0 \\\\ -x & x \\le 0 \\end{cases}").starts_with("ERR"));
        assert!(p("\\begin{cases} x = 1 \\end{aligned}").starts_with("ERR"));
        assert!(p("\\begin{cases} \\end{cases}").starts_with("ERR"));
        assert!(p("\\begin{cases} x = 1").starts_with("ERR"));
    }

    #[test]
    fn numbers_and_separators() {
        assert_eq!(p("10{,}000"), "10000");
        assert_eq!(p("10\\,000"), "10000");
        assert_eq!(p("10 000"), "10000");
        assert_eq!(p("7,425,000"), "7425000");
        assert_eq!(p("1,000.99"), "1000.99");
        assert_eq!(p(".4"), "0.4");
        assert_eq!(p("2.5E2"), "250");
        assert_eq!(p("1e-7"), "(1/10000000)");
        assert_eq!(p("11,\\! 111,\\! 111,\\! 100"), "11111111100");
    }

    #[test]
    fn fractions_roots_and_mixed_numbers() {
        assert_eq!(p("\\frac12"), "(1/2)");
        assert_eq!(p("\\dfrac{1}{3}"), "(1/3)");
        assert_eq!(p("\\sqrt3"), "sqrt(3)");
        assert_eq!(p("\\sqrt[3]{x}"), "(x**(1/3))");
        assert_eq!(p("12\\frac{3}{5}"), "(12 + (3/5))");
        assert_eq!(p("1 3/4"), "(1 + (3/4))");
        assert_eq!(p("2\\frac{5}{3}"), "(2*(5/3))");
        assert_eq!(p("\\frac94\\pi"), "((9/4)*pi)");
    }

    #[test]
    fn functions_and_implicit_products() {
        assert_eq!(p("\\sin^{-1} a"), "asin(a)");
        assert_eq!(p("\\ln xy"), "log((x*y), E)");
        assert_eq!(p("\\sin a \\cos b"), "(sin(a)*cos(b))");
        assert_eq!(p("\\cos(x)^2"), "(cos(x)**2)");
        assert_eq!(p("f(x)"), "Function(\"f\")(x)");
        assert_eq!(p("x(x+1)"), "(x*(x + 1))");
        assert_eq!(p("|x||y|"), "(Abs(x)*Abs(y))");
        assert_eq!(p("||x||y||"), "Abs((Abs(x)*Abs(y)))");
        assert_eq!(p("2√5"), "(2*sqrt(5))");
        assert_eq!(p("π/2"), "(pi/2)");
    }

    #[test]
    fn collections() {
        assert_eq!(p("[0,1)"), "Interval(0, 1, False, True)");
        assert_eq!(p("(1,2)"), "Tuple(1, 2)");
        assert_eq!(p("\\{1,2\\}"), "FiniteSet(1, 2)");
        assert_eq!(
            p("\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}"),
            "Matrix([[1, 2], [3, 4]])"
        );
        assert_eq!(
            p("x \\in [-2,7]"),
            "Contains(x, Interval((-2), 7, False, False))"
        );
        assert_eq!(p("1 \\pm \\sqrt{19}"), "(1 + PlusMinus(sqrt(19)))");
    }

    #[test]
    fn bad_input_is_rejected_with_a_position() {
        for bad in [
            "(",
            ")",
            "\\frac{}{2}",
            "\\sqrt",
            "!",
            "a\\%",
            "()",
            "\\sin^x",
            "\\lfloor a \\rceil",
            "-",
            "@",
        ] {
            assert!(p(bad).starts_with("ERR"), "{bad} parsed as {}", p(bad));
        }
        match parse("1 + @", &ParseOptions::default()) {
            Err(Error::Parse { position, .. }) => assert_eq!(position, 4),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let s = "(".repeat(5000) + "1" + &")".repeat(5000);
        assert!(parse(&s, &ParseOptions::default()).is_err());
    }

    use proptest::prelude::*;

    /// Strings over an alphabet rich in LaTeX syntax, so the fuzzing reaches deep states.
    fn latexish() -> impl Strategy<Value = String> {
        let atoms = prop::sample::select(vec![
            "\\frac",
            "\\sqrt",
            "{",
            "}",
            "(",
            ")",
            "[",
            "]",
            "\\{",
            "\\}",
            "|",
            "^",
            "_",
            "1",
            "23",
            "4.5",
            "x",
            "y",
            "e",
            "i",
            "\\pi",
            "+",
            "-",
            "\\cdot",
            "/",
            "=",
            "<",
            "\\le",
            ",",
            ";",
            "\\pm",
            "!",
            "\\%",
            "\\left(",
            "\\right)",
            "\\sin",
            "\\log_",
            "\\begin{pmatrix}",
            "\\end{pmatrix}",
            "&",
            "\\\\",
            "\\text{ and }",
            "\\boxed{",
            "\\infty",
            "\\cup",
            "\\in",
            " ",
            "$",
            "\\sum_{k=1}^",
            "\\int",
            "d",
            "\\lim_{x\\to",
            "\\binom",
            "√",
            "π",
            "≤",
            "²",
            "10{,}000",
            "\\dfrac12",
        ]);
        prop::collection::vec(atoms, 0..40).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn parser_never_panics_on_arbitrary_text(s in "\\PC{0,80}") {
            let _ = parse(&s, &ParseOptions::default());
            let _ = answer_text(&s);
        }

        #[test]
        fn parser_never_panics_on_latex_soup(s in latexish()) {
            if let Err(Error::Parse { position, .. }) = parse(&s, &ParseOptions::default()) {
                prop_assert!(position <= s.chars().count());
            }
        }

        #[test]
        fn printing_is_stable(s in latexish()) {
            // A canonical form parses to the same canonical form (for the plain-math subset).
            if let Ok(e) = parse(&s, &ParseOptions::default()) {
                let once = canonical(&e).to_string();
                let twice = canonical(&canonical(&e)).to_string();
                prop_assert_eq!(once, twice);
            }
        }
    }
}
