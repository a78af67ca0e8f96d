"""The seed tool's ``symbolic_equal``, without its ``eval`` hole (``compat="xwin"``).

The Xwin-Math checker (reference doc, section 2.3) compares two already-normalised answer strings like this:

1. parse each side with SymPy's ``parse_latex``; if that raises, with ``parse_expr`` (which evaluates Python);
   if that raises too, keep the raw string;
2. ``True`` if ``simplify(a - b) == 0``;
3. ``False`` if ``N(a)`` is a real number: the line was meant to test both sides but tests ``a`` twice, so
   the tolerance test after it is dead (section 4, item 4);
4. ``True`` if ``isclose(N(a), N(b), rel_tol=1e-3)`` (unreachable in practice), else ``None``.

Every step keeps the seed's semantics except that model text is never evaluated as Python. ``parse_expr`` is
emulated: SymPy's own token transformations (``stringify_expr`` with the standard transformations) turn the
text into code exactly as in the seed, and that code is then interpreted by a small AST walker instead of
``eval``. The walker allows numbers, strings only as the literal argument of ``Symbol``/``Function``/
``Integer``/``Float``/``Rational`` (what the transformations insert), arithmetic, comparison and boolean
operators, list indexing, and calls of a fixed whitelist of SymPy functions and constants. Anything else
(attributes, comprehensions, f-strings, names outside the whitelist such as ``exec`` or ``open``) is a parse
failure, so the raw string is kept, as the seed does when ``parse_expr`` raises. ``N`` on a raw string
(which SymPy would ``sympify``, i.e. ``parse_expr`` again) goes through the same emulation.

Where the seed would build an integer too large to compute in its 5 s per-item budget (``9^{9999999}``), the
comparison gives ``None`` instead of hanging; the seed's harness records such an item as wrong as well.

The library's SymPy worker pool runs :func:`xwin_symbolic_equal`; the pure-Python reference of the seed
(``tests/reference/xwin_seed.py``) imports it from here, so both share one implementation.
"""

from __future__ import annotations

import ast
import builtins
import math
import operator
import types
from collections.abc import Callable
from typing import Any

import sympy
from sympy.core.function import UndefinedFunction
from sympy.parsing.sympy_parser import (
    convert_xor,
    rationalize,
    standard_transformations,
    stringify_expr,
)

from matheval_fast._sympy.latex import LatexParserUnavailable, parse_latex

__all__ = ["sympy_parse", "xwin_symbolic_equal"]

# A result larger than this many bits is not built: Python needs seconds for 9**9999999 (31.7M bits), past
# the seed's 5 s item timeout, while 3**999999 (1.6M bits) takes 50 ms.
_MAX_BITS = 4_000_000


class UnsafeExpression(ValueError):
    """The text would need real Python evaluation (or an unbounded computation) to be parsed."""


def _seed_global_dict() -> dict[str, Any]:
    """The namespace ``parse_expr`` evaluates in: ``from sympy import *`` plus builtin functions.

    Only used to let SymPy's ``auto_symbol`` transformation decide, as in the seed, which names stay names
    and which become ``Symbol(...)``; nothing in it is ever called unless it is in the whitelist below.
    """
    namespace = {name: getattr(sympy, name) for name in sympy.__all__}
    for name, obj in vars(builtins).items():
        if isinstance(obj, types.BuiltinFunctionType):
            namespace[name] = obj
    namespace["max"] = sympy.Max
    namespace["min"] = sympy.Min
    return namespace


_GLOBAL_DICT = _seed_global_dict()

# Names the walker resolves. The first line is what the transformations themselves insert.
_WHITELIST_NAMES = """
Symbol Function Integer Float Rational Lambda I factorial factorial2
E pi oo zoo nan true false EulerGamma GoldenRatio Catalan
sqrt cbrt root exp log ln sin cos tan cot sec csc asin acos atan acot asec acsc atan2
sinh cosh tanh coth sech csch asinh acosh atanh acoth gamma erf
Abs abs sign floor ceiling frac re im arg conjugate max min Max Min Mod round
""".split()
_WHITELIST = {name: _GLOBAL_DICT[name] for name in _WHITELIST_NAMES}
_WHITELIST_IDS = {id(obj) for obj in _WHITELIST.values()}
# Callees that may receive a Python string: SymPy parses these strings itself, without eval.
_STRING_TAKERS = {
    id(sympy.Symbol),
    id(sympy.Function),
    id(sympy.Integer),
    id(sympy.Float),
    id(sympy.Rational),
}
# Callees whose integer argument sets the size of an exact result.
_GROWERS = {id(sympy.factorial), id(sympy.factorial2), id(sympy.gamma)}

_TRANSFORMS_PARSE_EXPR = standard_transformations
_TRANSFORMS_SYMPIFY = (*standard_transformations, rationalize, convert_xor)


def _log2(n: int) -> float:
    return math.log2(abs(n)) if n else 0.0


def _exact_bits(value: Any) -> float | None:
    """Bits of an exact rational's larger part (log2 of numerator or denominator), or None when ``value``
    is not an exact rational. 0 for 0 and +-1, whose powers stay small."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return _log2(value)
    if isinstance(value, sympy.Rational):
        return max(_log2(int(value.p)), _log2(int(value.q)))
    return None


def _guard_power(base: Any, exponent: Any) -> None:
    base_bits = _exact_bits(base)
    exp_value = (
        exponent if isinstance(exponent, int | sympy.Rational) and not isinstance(exponent, bool) else None
    )
    if base_bits is None or exp_value is None or base_bits == 0:
        return
    if abs(float(exp_value)) * base_bits > _MAX_BITS:
        raise UnsafeExpression("power too large")


def _pow(base: Any, exponent: Any) -> Any:
    _guard_power(base, exponent)
    return operator.pow(base, exponent)


def _lshift(value: Any, shift: Any) -> Any:
    if isinstance(shift, int | sympy.Integer) and int(shift) > _MAX_BITS:
        raise UnsafeExpression("shift too large")
    return operator.lshift(value, shift)


_BINOPS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: _pow,
    ast.BitXor: operator.xor,
    ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_,
    ast.LShift: _lshift,
    ast.RShift: operator.rshift,
    ast.MatMult: operator.matmul,
}
_UNARYOPS: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
    ast.Invert: operator.invert,
    ast.Not: operator.not_,
}
_CMPOPS: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_CONTAINERS = (str, bytes, list, tuple)


def _holds_text(value: Any) -> bool:
    if isinstance(value, str | bytes):
        return True
    return isinstance(value, list | tuple) and any(_holds_text(v) for v in value)


def _check_operands(*values: Any) -> None:
    # Strings and sequences never become SymPy objects through operators; refusing them avoids
    # sequence repetition ('a' * 10**9) and %-formatting without changing any verdict.
    if any(isinstance(v, _CONTAINERS) for v in values):
        raise UnsafeExpression("operator on a string or sequence")


def _callable_ok(func: Any) -> bool:
    return id(func) in _WHITELIST_IDS or isinstance(func, UndefinedFunction | sympy.Lambda)


class _Walker:
    """Evaluates the code ``stringify_expr`` produced, the way ``eval`` would, for a safe subset."""

    def visit(self, node: ast.AST) -> Any:
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is None:
            raise UnsafeExpression(f"{type(node).__name__} is not allowed")
        return method(node)

    def visit_Expression(self, node: ast.Expression) -> Any:
        return self.visit(node.body)

    def visit_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def visit_Name(self, node: ast.Name) -> Any:
        if node.id in _WHITELIST:
            return _WHITELIST[node.id]
        raise UnsafeExpression(f"name {node.id!r} is not allowed")

    def visit_Tuple(self, node: ast.Tuple) -> Any:
        return tuple(self.visit(e) for e in node.elts)

    def visit_List(self, node: ast.List) -> Any:
        return [self.visit(e) for e in node.elts]

    def visit_Subscript(self, node: ast.Subscript) -> Any:
        value, index = self.visit(node.value), self.visit(node.slice)
        if not isinstance(value, list | tuple) or not isinstance(index, int | sympy.Integer):
            raise UnsafeExpression("subscript of something other than a list or tuple")
        return value[index]

    def visit_BinOp(self, node: ast.BinOp) -> Any:
        fn = _BINOPS[type(node.op)]
        left, right = self.visit(node.left), self.visit(node.right)
        _check_operands(left, right)
        return fn(left, right)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> Any:
        value = self.visit(node.operand)
        _check_operands(value)
        return _UNARYOPS[type(node.op)](value)

    def visit_Compare(self, node: ast.Compare) -> Any:
        # Python's chained comparison: a < b < c is (a < b) and (b < c), b evaluated once.
        left = self.visit(node.left)
        result: Any = True
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            fn = _CMPOPS.get(type(op))
            if fn is None:
                raise UnsafeExpression(f"{type(op).__name__} is not allowed")
            right = self.visit(right_node)
            _check_operands(left, right)
            result = fn(left, right)
            # Only a comparison followed by another one is tested for truth (bool() of a SymPy
            # relational raises, as it does in the seed's eval).
            if right_node is not node.comparators[-1] and not result:
                return result
            left = right
        return result

    def visit_BoolOp(self, node: ast.BoolOp) -> Any:
        is_and = isinstance(node.op, ast.And)
        value: Any = None
        for operand in node.values:
            value = self.visit(operand)
            if bool(value) != is_and:
                return value
        return value

    def visit_IfExp(self, node: ast.IfExp) -> Any:
        return self.visit(node.body) if self.visit(node.test) else self.visit(node.orelse)

    def visit_Call(self, node: ast.Call) -> Any:
        func = self.visit(node.func)
        if not _callable_ok(func):
            raise UnsafeExpression("call of a non-whitelisted object")
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise UnsafeExpression("argument unpacking is not allowed")
        args = [self.visit(a) for a in node.args]
        kwargs = {k.arg: self.visit(k.value) for k in node.keywords if k.arg is not None}
        # Any SymPy function sympifies a string argument, which is eval again: only the parsers that
        # the transformations call on a literal may see one.
        takes_text = id(func) in _STRING_TAKERS and len(args) == 1 and not kwargs
        if any(_holds_text(v) for v in [*args, *kwargs.values()]) and not takes_text:
            raise UnsafeExpression("string argument")
        if id(func) == id(sympy.Float) and (len(args) > 1 or kwargs):
            raise UnsafeExpression("Float precision argument")  # a huge precision would never finish
        if id(func) in _GROWERS and args:
            bits = _exact_bits(args[0])
            if bits is not None and bits > 17:  # n >= 131072: n! has more than 2M bits
                raise UnsafeExpression("factorial too large")
        if id(func) == id(builtins.round) and len(args) > 1:
            raise UnsafeExpression("round with digits")
        return func(*args, **kwargs)


def _emulate_parse_expr(text: str, transformations: tuple[Any, ...]) -> Any:
    """``parse_expr(text, transformations=...)`` without ``eval``; raises where the seed's call would."""
    code = stringify_expr(text, {}, _GLOBAL_DICT, transformations)
    # eval() of a string ignores leading spaces and tabs; ast.parse does not.
    tree = ast.parse(code.lstrip(" \t"), mode="eval")
    return _Walker().visit(tree)


def sympy_parse(text: str) -> Any:
    """The seed's ``sympy_parse``: ``parse_latex``, else (emulated) ``parse_expr``, else the raw string."""
    try:
        return parse_latex(text)
    except LatexParserUnavailable:
        raise  # the seed ran with a working parser: falling through would change its verdicts
    except Exception:  # noqa: S110 - the seed's bare except: any failure moves on to the next parser
        pass
    try:
        return _emulate_parse_expr(text, _TRANSFORMS_PARSE_EXPR)
    except Exception:  # noqa: S110
        pass
    return text


def _seed_N(value: Any) -> Any:
    """``sympy.N(value)``, which is ``sympify(value, rational=True).evalf(15)``, without eval for strings."""
    if isinstance(value, str):
        # sympify() drops newlines, then parse_expr adds rationalize and convert_xor; the parse result is
        # returned as is, so a non-SymPy result fails on .evalf exactly as in the seed.
        parsed = _emulate_parse_expr(value.replace("\n", ""), _TRANSFORMS_SYMPIFY)
        _check_size(parsed)
        return parsed.evalf(15)
    if isinstance(value, sympy.Basic):
        return value.evalf(15)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return sympy.N(value)
    # bool, None, tuples, lists: sympify() gives objects without .evalf (or would sympify strings inside).
    raise AttributeError("no evalf")


def _value_bits(expr: Any, depth: int = 0) -> float:
    """Upper estimate of log2|value| for the number-only parts of an unevaluated SymPy tree."""
    if depth > 200 or not isinstance(expr, sympy.Basic):
        return 0.0
    if isinstance(expr, sympy.Rational):
        return _exact_bits(expr) or 0.0
    if isinstance(expr, sympy.Pow):
        base, exponent = expr.args
        if base.free_symbols or exponent.free_symbols or isinstance(exponent, sympy.Float):
            return max(_value_bits(base, depth + 1), _value_bits(exponent, depth + 1))
        base_bits = _value_bits(base, depth + 1)
        if base_bits == 0:  # 0, 1 and -1 stay small
            return base_bits
        exp_bits = _value_bits(exponent, depth + 1)
        if exp_bits > 64:
            return math.inf
        # A rational exponent's value, not the size of its denominator, sets the result's size.
        magnitude = abs(float(exponent)) if isinstance(exponent, sympy.Rational) else 2.0**exp_bits
        return base_bits * magnitude
    if isinstance(expr, sympy.factorial | sympy.factorial2 | sympy.gamma):
        arg_bits = _value_bits(expr.args[0], depth + 1)
        if arg_bits > 64:
            return math.inf
        return arg_bits * 2.0**arg_bits
    if isinstance(expr, sympy.Mul):
        return sum(_value_bits(a, depth + 1) for a in expr.args)
    children = [_value_bits(a, depth + 1) for a in expr.args]
    return (max(children) + 1.0) if children else 0.0


def _check_size(expr: Any) -> None:
    if _value_bits(expr) > _MAX_BITS:
        raise UnsafeExpression("number too large")


def xwin_symbolic_equal(a: str, b: str) -> bool | None:
    """The seed's ``symbolic_equal(a, b)`` on already-normalised strings: ``True``, ``False`` or ``None``.

    Only ``True`` changes a verdict in the seed (``None`` and ``False`` both end as "wrong").
    """
    left, right = sympy_parse(a), sympy_parse(b)
    try:
        _check_size(left)
        _check_size(right)
    except UnsafeExpression:
        return None

    try:
        if sympy.simplify(left - right) == 0:
            return True
    except Exception:  # noqa: S110 - the seed's bare except
        pass

    # The seed's bug, kept: both halves test `a`, so any real N(a) ends the comparison with False.
    try:
        n_left = _seed_N(left)
        if math.isclose(n_left, float(n_left), rel_tol=1e-9) and math.isclose(
            n_left, float(n_left), rel_tol=1e-9
        ):
            return False
    except Exception:  # noqa: S110
        pass

    try:
        if math.isclose(_seed_N(left), _seed_N(right), rel_tol=1e-3):
            return True
    except Exception:  # noqa: S110
        pass
    return None
