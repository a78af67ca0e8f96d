"""The fixed mode's LaTeX reader: the Rust parser's tree turned into SymPy by a whitelist walk."""

from __future__ import annotations

import pytest
import sympy
from matheval_fast._core import ParseError
from matheval_fast._sympy import tree
from matheval_fast._sympy.fixed import sympy_equal


@pytest.mark.parametrize(
    ("latex", "expected"),
    [
        (r"\int_0^1 x\,dx", sympy.Integral(sympy.Symbol("x"), (sympy.Symbol("x"), 0, 1))),
        (r"\frac12", sympy.Rational(1, 2)),
        (r"\sqrt[3]{8}", sympy.Integer(2)),
        (r"\log_2 8", sympy.Integer(3)),
        (r"[0,1)", sympy.Interval.Ropen(0, 1)),
        (r"\{1,2\}", sympy.FiniteSet(1, 2)),
        (r"\lambda+1", sympy.Symbol("lambda") + 1),  # a Python keyword as a symbol name
        (r"f(x)", sympy.Function("f")(sympy.Symbol("x"))),
        (r"e^{i\pi}", sympy.Integer(-1)),
        ("0.1234567890123456789", sympy.Float("0.1234567890123456789", 21)),  # the digits as written
    ],
)
def test_reads_the_parsers_tree(latex: str, expected: object) -> None:
    assert tree.from_latex(latex) == expected


@pytest.mark.parametrize("latex", [r"\text{cm}", r"\pm 2", "1:2", "204_5", "2^{100000}"])
def test_what_it_cannot_read_is_a_value_error(latex: str) -> None:
    with pytest.raises(ValueError):
        tree.from_latex(latex)


def test_what_the_parser_refuses_is_its_parse_error() -> None:
    with pytest.raises(ParseError):
        tree.from_latex(r"\in")


@pytest.mark.parametrize(
    ("pred", "gold", "equal"),
    [
        (r"\int_0^1 x\,dx", r"\frac12", True),
        (r"\int_0^1 x\,dx", r"\frac13", False),
        (r"\lim_{x\to 0}\frac{\sin x}{x}", "1", True),
        (r"\frac{x^2-1}{x-1}", "x+1", True),
        (r"\sin(y)", r"\cos(90^{\circ}-y)", True),
        (r"\boxed{2.232}", r"\boxed{2.23}", False),  # another rounding stays wrong
        (r"\sqrt{67}", r"\sqrt{67},-\sqrt{85}", None),  # one part of two is not decided equal
    ],
)
def test_fixed_comparison_through_the_tree(pred: str, gold: str, equal: bool | None) -> None:
    assert sympy_equal(pred, gold) is equal
