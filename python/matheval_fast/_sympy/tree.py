"""A SymPy expression built from the Rust LaTeX parser's tree: the fixed mode's LaTeX reader.

SymPy's own LaTeX parser runs only on the ANTLR 4.11 runtime, and the frameworks our users run beside
pin others (verl 4.9.3 through omegaconf, lighteval 4.13.2); with any of those every item that needed it
got ``error``. Our Rust parser already reads these answers: ``_core.parse_latex`` prints its tree in
SymPy-shaped syntax (``Integral(x, (x, 0, 1))``, ``Interval(0, 1, False, True)``). That text is read
here with :func:`ast.parse` (a parser, nothing runs) and walked with a whitelist: numbers, symbols,
arithmetic, and a fixed table of SymPy constructors. Anything else (``Text(...)``, ``PlusMinus``,
``Ratio``, an unknown call) raises :class:`ValueError`, which the comparison reads as "cannot parse".
"""

from __future__ import annotations

import ast
import keyword
import re
from collections.abc import Callable
from typing import Any

import sympy

from matheval_fast import _core

__all__ = ["MAX_EXPONENT", "from_latex"]

#: An integer exponent past this is refused (``2^{100000}`` would make SymPy build a 30,000-digit number).
MAX_EXPONENT = 1000

_CONSTS: dict[str, Any] = {
    "pi": sympy.pi,
    "E": sympy.E,
    "I": sympy.I,
    "oo": sympy.oo,
    "EmptySet": sympy.EmptySet,
}


def _relation(cls: Any) -> Callable[..., Any]:
    # Unevaluated like SymPy's LaTeX parser, so `1 = 1` stays an equation and not `True`.
    return lambda a, b: cls(a, b, evaluate=False)


def _log(x: Any, base: Any = None) -> Any:
    return sympy.log(x) if base is None else sympy.log(x, base)


def _det(m: Any) -> Any:
    return m.det() if isinstance(m, sympy.MatrixBase) else sympy.Function("det")(m)


# The constructors the Rust printer emits (rust/latex/ast.rs, `impl Display for Expr`), and nothing else.
_CALLS: dict[str, Callable[..., Any]] = {
    **{
        name: getattr(sympy, name)
        for name in (
            "sin cos tan cot sec csc asin acos atan acot asec acsc sinh cosh tanh asinh acosh atanh "
            "exp sqrt Abs floor ceiling factorial binomial gcd lcm Max Min Mod"
        ).split()
    },
    "log": _log,
    "det": _det,
    "Eq": _relation(sympy.Eq),
    "Ne": _relation(sympy.Ne),
    "Lt": _relation(sympy.Lt),
    "Le": _relation(sympy.Le),
    "Gt": _relation(sympy.Gt),
    "Ge": _relation(sympy.Ge),
    "And": sympy.And,
    "FiniteSet": sympy.FiniteSet,
    "Tuple": sympy.Tuple,
    "Union": sympy.Union,
    "Intersection": sympy.Intersection,
    "Contains": lambda a, b: sympy.Contains(a, b, evaluate=False),
    "Interval": sympy.Interval,
    "Matrix": sympy.Matrix,
    "Integral": sympy.Integral,
    "Sum": sympy.Sum,
    "Product": sympy.Product,
    "Derivative": sympy.Derivative,
    "Limit": sympy.Limit,
}

# A symbol the printer names after a Python keyword (`\lambda` -> `lambda`) would not parse as Python.
# True/False are the printer's own (Interval's flags), never a symbol: `\text{True}` prints as Text("True").
_NAMES = sorted(set(keyword.kwlist) - {"True", "False", "None"}, key=len, reverse=True)
_KEYWORD = re.compile(r"\b(" + "|".join(_NAMES) + r")\b")
_KW_SUFFIX = "__kw"


def _pow(base: Any, exp: Any) -> Any:
    if exp.is_Integer and abs(int(exp)) > MAX_EXPONENT:
        raise ValueError(f"exponent {exp} over the limit of {MAX_EXPONENT}")
    return base**exp


class _Builder:
    def __init__(self, source: str) -> None:
        self.source = source

    def build(self, node: ast.AST) -> Any:
        if isinstance(node, ast.Expression):
            return self.build(node.body)
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.Name):
            name = node.id.removesuffix(_KW_SUFFIX)
            return _CONSTS[name] if name in _CONSTS else sympy.Symbol(name)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = self.build(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp):
            a, b = self.build(node.left), self.build(node.right)
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            if isinstance(node.op, ast.Div):
                return a / b
            if isinstance(node.op, ast.Pow):
                return _pow(a, b)
        if isinstance(node, (ast.Tuple, ast.List)):
            return [self.build(e) for e in node.elts]
        if isinstance(node, ast.Call):
            return self.call(node)
        raise ValueError(f"unsupported node {type(node).__name__}")

    def constant(self, node: ast.Constant) -> Any:
        v = node.value
        if isinstance(v, bool):
            return sympy.true if v else sympy.false  # only Interval's open/closed flags
        if isinstance(v, int):
            return sympy.Integer(v)
        if isinstance(v, float):
            # The digits as written, not the binary float Python read.
            text = ast.get_source_segment(self.source, node) or repr(v)
            return sympy.Float(text, max(15, len(text)))
        raise ValueError(f"unsupported literal {v!r}")

    def call(self, node: ast.Call) -> Any:
        func = node.func
        args = [self.build(a) for a in node.args]
        # `Function("f")(x)`: an unknown function applied to its arguments.
        if (
            isinstance(func, ast.Call)
            and isinstance(func.func, ast.Name)
            and func.func.id == "Function"
            and len(func.args) == 1
            and isinstance(func.args[0], ast.Constant)
            and isinstance(func.args[0].value, str)
            and not node.keywords
        ):
            return sympy.Function(func.args[0].value)(*args)
        if not isinstance(func, ast.Name) or func.id not in _CALLS:
            raise ValueError(f"unsupported call {ast.dump(func)[:80]}")
        kwargs: dict[str, Any] = {}
        for kw in node.keywords:
            # Only Limit's direction, as the printer writes it.
            if (
                func.id == "Limit"
                and kw.arg == "dir"
                and isinstance(kw.value, ast.Constant)
                and kw.value.value in ("+", "-")
            ):
                kwargs["dir"] = kw.value.value
            else:
                raise ValueError(f"unsupported keyword {kw.arg!r}")
        if func.id in ("Integral", "Sum", "Product") and len(args) == 2 and isinstance(args[1], list):
            args[1] = tuple(args[1])
        return _CALLS[func.id](*args, **kwargs)


def from_latex(text: str) -> Any:
    """The SymPy expression for a LaTeX (or plain) answer, read by the Rust parser; never executes text.

    Raises :class:`ValueError` for what it cannot read and ``_core.ParseError`` for what the parser refuses.
    """
    printed = _core.parse_latex(text)
    source = _KEYWORD.sub(lambda m: m.group(1) + _KW_SUFFIX, printed)
    tree = ast.parse(source, mode="eval")
    return _Builder(source).build(tree)
