"""The fixed mode's SymPy comparison, for the few answers the Rust engine leaves undecided.

LaTeX is read by our Rust parser and turned into SymPy by a whitelist walk (:mod:`.tree`), not by
SymPy's ANTLR parser: that one runs only on the ANTLR 4.11 runtime, and verl and lighteval pin others, so
the fallback would have depended on what else is installed. Plain-text answers that are not LaTeX are
parsed by a whitelist walk over Python's ``ast`` (again no evaluation of text).
"""

from __future__ import annotations

import ast
import math
import re

import sympy

from matheval_fast._sympy.tree import from_latex

_FUNCS = {
    "sqrt": sympy.sqrt,
    "sin": sympy.sin,
    "cos": sympy.cos,
    "tan": sympy.tan,
    "log": sympy.log,
    "ln": sympy.log,
    "exp": sympy.exp,
    "abs": sympy.Abs,
}
_CONSTS = {"pi": sympy.pi, "e": sympy.E, "i": sympy.I, "oo": sympy.oo, "inf": sympy.oo}


def _from_ast(node: ast.AST) -> sympy.Expr:
    if isinstance(node, ast.Expression):
        return _from_ast(node.body)
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool)
    ):
        return sympy.Integer(node.value) if isinstance(node.value, int) else sympy.Float(repr(node.value))
    if isinstance(node, ast.Name):
        return _CONSTS.get(node.id) or sympy.Symbol(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _from_ast(node.operand)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        a, b = _from_ast(node.left), _from_ast(node.right)
        ops = {
            ast.Add: sympy.Add,
            ast.Sub: lambda x, y: x - y,
            ast.Mult: sympy.Mul,
            ast.Div: lambda x, y: x / y,
        }
        if isinstance(node.op, ast.Pow):
            if b.is_Number and abs(float(b)) > 1000:
                raise ValueError("exponent too large")
            return a**b
        for t, f in ops.items():
            if isinstance(node.op, t):
                return f(a, b)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCS
        and not node.keywords
    ):
        return _FUNCS[node.func.id](*[_from_ast(a) for a in node.args])
    raise ValueError(f"unsupported syntax: {type(node).__name__}")


# Shorthands SymPy's grammar rejects: \sqrt3, \frac12, \frac{a}2, \dfrac, \left( .. \right).
_REWRITES = [
    (re.compile(r"\\[dt]frac"), r"\\frac"),
    (re.compile(r"\\(left|right)(?=[\\()\[\]|.])"), ""),
    (re.compile(r"\\sqrt(\d)"), r"\\sqrt{\1}"),
    (re.compile(r"\\frac(\d)(\d)"), r"\\frac{\1}{\2}"),
    (re.compile(r"\\frac(\{[^{}]*\})(\d)"), r"\\frac\1{\2}"),
    (re.compile(r"\\frac(\d)(\{)"), r"\\frac{\1}\2"),
    (re.compile(r"\\[,;!:]|\\ "), ""),
]


def _tidy(t: str) -> str:
    for pat, rep in _REWRITES:
        t = pat.sub(rep, t)
    return t


def parse(text: str) -> sympy.Expr:
    """Parse an answer to a SymPy expression without executing it."""
    t = _tidy(text.strip())
    if len(t) > 2000:
        raise ValueError("answer too long for SymPy")
    if "\\" in t or "{" in t:
        return from_latex(t)
    try:
        return _from_ast(ast.parse(t.replace("^", "**"), mode="eval"))
    except (SyntaxError, ValueError):
        return from_latex(t)


def sympy_equal(pred: str, gold: str) -> bool | None:
    """True/False when SymPy decides, None when it cannot parse or compare."""
    try:
        a, b = parse(pred), parse(gold)
    except Exception:
        return None
    if isinstance(a, sympy.Equality) and isinstance(b, sympy.Equality):
        a, b = a.lhs - a.rhs, b.lhs - b.rhs
        try:
            ratio = sympy.simplify(a / b)
            return bool(ratio.is_number and ratio != 0)
        except Exception:
            return None
    if isinstance(a, sympy.Equality) and isinstance(a.lhs, sympy.Symbol):
        a = a.rhs
    if isinstance(b, sympy.Equality) and isinstance(b.lhs, sympy.Symbol):
        b = b.rhs
    try:
        if sympy.simplify(a - b) == 0:
            return True
    except Exception:  # noqa: S110 - simplify fails on mixed types; the numeric test below decides
        pass
    try:
        x, y = complex(sympy.N(a)), complex(sympy.N(b))
    except Exception:
        return None
    # Both sides numeric: equal only to a tight relative tolerance (rounding is the Rust engine's job).
    return math.isclose(x.real, y.real, rel_tol=1e-9, abs_tol=0.0) and math.isclose(
        x.imag, y.imag, rel_tol=1e-9, abs_tol=1e-12
    )
