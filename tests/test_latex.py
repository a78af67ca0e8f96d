"""The LaTeX parser and equivalence engine (``rust/latex``, ``rust/equiv``) against SymPy.

SymPy is the trusted oracle here: it only ever reads fixture strings and strings this test
generates, never model output.
"""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from matheval_fast._core import ParseError, latex_equivalent, parse_latex

DATA = Path(__file__).resolve().parent.parent / "data" / "answer_check"
CASES = [
    json.loads(line)
    for line in (DATA / "latex2sympy2_extended_parse_cases.jsonl").read_text().splitlines()
    if line.strip()
]
GOOD = [c for c in CASES if c["kind"] == "good"]
BAD = [c for c in CASES if c["kind"] == "bad"]


def _to_sympy(text: str) -> object:
    """Read a SymPy-syntax string (fixture or our printer's output) into a SymPy object."""
    text = re.sub(r"\{\\?(\w+)\}", r"\1", text)  # h_{\theta} -> h_theta, bar{x} -> barx
    text = text.replace("\\", "").replace("Matrix(", "ImmutableMatrix(")
    if text.startswith("{") and text.endswith("}"):
        text = "FiniteSet(" + text[1:-1] + ")"
    return sympy.sympify(text)


def _values(expr: object, seed: int) -> dict:
    rng = random.Random(seed)
    free = getattr(expr, "free_symbols", set())
    return {s: sympy.Rational(rng.randint(7, 29), rng.randint(3, 11)) for s in free}


def _numeric_equal(a: object, b: object) -> bool:
    """Equal as values: elementwise for containers, at random points for expressions."""
    if isinstance(a, sympy.MatrixBase) or isinstance(b, sympy.MatrixBase):
        if not (isinstance(a, sympy.MatrixBase) and isinstance(b, sympy.MatrixBase)) or a.shape != b.shape:
            return False
        return all(_numeric_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, sympy.FiniteSet) and isinstance(b, sympy.FiniteSet):
        left, right = list(a), list(b)
        return len(left) == len(right) and all(any(_numeric_equal(x, y) for y in right) for x in left)
    if isinstance(a, sympy.Tuple) and isinstance(b, sympy.Tuple):
        return len(a) == len(b) and all(_numeric_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, sympy.Interval) and isinstance(b, sympy.Interval):
        return (
            a.left_open == b.left_open
            and a.right_open == b.right_open
            and _numeric_equal(a.start, b.start)
            and _numeric_equal(a.end, b.end)
        )
    if isinstance(a, sympy.logic.boolalg.And) and isinstance(b, sympy.logic.boolalg.And):
        return _numeric_equal(sympy.Tuple(*a.args), sympy.Tuple(*b.args))
    if isinstance(a, sympy.core.relational.Relational) or isinstance(b, sympy.core.relational.Relational):
        return type(a) is type(b) and _numeric_equal(a.lhs, b.lhs) and _numeric_equal(a.rhs, b.rhs)
    if a == b:
        return True
    a = a.doit() if hasattr(a, "doit") else a
    b = b.doit() if hasattr(b, "doit") else b
    if a == b:
        return True
    for seed in range(3):
        vals = _values(sympy.Tuple(a, b), seed)
        x = complex(sympy.N(sympy.sympify(a).subs(vals), 30))
        y = complex(sympy.N(sympy.sympify(b).subs(vals), 30))
        if abs(x - y) > 1e-9 * max(1.0, abs(x), abs(y)):
            return False
    return True


@pytest.mark.parametrize("case", GOOD, ids=[c["latex"] for c in GOOD])
def test_good_parse_cases_equal_expected(case: dict) -> None:
    ours = _to_sympy(parse_latex(case["latex"]))
    expected = _to_sympy(case["expected_str"])
    assert _numeric_equal(ours, expected), (parse_latex(case["latex"]), case["expected_str"])


@pytest.mark.parametrize("case", BAD, ids=[c["latex"] for c in BAD])
def test_bad_parse_cases_are_rejected(case: dict) -> None:
    with pytest.raises(ParseError) as info:
        parse_latex(case["latex"])
    assert isinstance(info.value.position, int)
    assert 0 <= info.value.position <= len(case["latex"])


def test_parse_error_is_a_value_error_with_position() -> None:
    with pytest.raises(ValueError, match="position 4"):
        parse_latex("1 + @")


def test_wrong_argument_type_is_type_error() -> None:
    with pytest.raises(TypeError):
        parse_latex(3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("gold", "pred", "result"),
    [
        ("\\frac{1}{2}", "0.5", "equal"),
        ("10{,}000", "10000", "equal"),
        ("\\frac{1}{2004!}", "\\frac{1}{2006!}", "not_equal"),
        ("0.0000001", "0.0000002", "not_equal"),
        ("2\\sqrt{5}", "2√5", "equal"),
        ("\\frac{\\pi}{2}", "π/2", "equal"),
        ("(2,4)", "(2, 4)", "equal"),
        ("\\sqrt{1/n}", "\\frac{1}{\\sqrt{n}}", "equal"),
        ("1331, 1728", "1728", "not_equal"),
        ("\\dfrac{5^{(5^{(5^{(5^5)})} - 4)} - 5}{16}", "1", "undecided"),
    ],
)
def test_known_policy_cases(gold: str, pred: str, result: str) -> None:
    assert latex_equivalent(gold, pred)[0] == result


def test_strict_switch() -> None:
    assert latex_equivalent("649", "3245/5") == ("equal", "numeric")
    assert latex_equivalent("649", "3245/5", strict=True)[0] == "not_equal"


# ---- generated expressions: our parser + evaluator against SymPy ----

X, Y = sympy.symbols("x y", positive=True)


@st.composite
def expressions(draw: st.DrawFn, depth: int = 3) -> tuple[str, object]:
    """A random expression as (our LaTeX, the SymPy object it means)."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        kind = draw(st.sampled_from(["int", "x", "y", "frac"]))
        if kind == "int":
            n = draw(st.integers(1, 12))
            return str(n), sympy.Integer(n)
        if kind == "frac":
            p, q = draw(st.integers(1, 9)), draw(st.integers(2, 9))
            return f"\\frac{{{p}}}{{{q}}}", sympy.Rational(p, q)
        return (kind, X if kind == "x" else Y)
    op = draw(st.sampled_from(["+", "-", "*", "frac", "pow", "sqrt", "sin"]))
    a_tex, a = draw(expressions(depth - 1))
    if op == "sqrt":
        return f"\\sqrt{{{a_tex}}}", sympy.sqrt(a)
    if op == "sin":
        return f"\\sin\\left({a_tex}\\right)", sympy.sin(a)
    if op == "pow":
        k = draw(st.integers(2, 3))
        return f"\\left({a_tex}\\right)^{{{k}}}", a**k
    b_tex, b = draw(expressions(depth - 1))
    if op == "frac":
        return f"\\frac{{{a_tex}}}{{{b_tex}}}", a / b
    if op == "*":
        return f"\\left({a_tex}\\right) \\cdot \\left({b_tex}\\right)", a * b
    if op == "-":
        return f"{a_tex} - \\left({b_tex}\\right)", a - b
    return f"{a_tex} + {b_tex}", a + b


FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(expressions())
def test_evaluator_agrees_with_sympy_rewriting(pair: tuple[str, object]) -> None:
    tex, expr = pair
    # An expression that is undefined everywhere (0/0 after SymPy's automatic simplification) has no
    # value to agree on: SymPy prints it as NaN, which is not an answer either side could be equal to.
    assume(not expr.has(sympy.nan, sympy.zoo))
    # SymPy's own rewriting of the same expression, printed back as LaTeX.
    rewritten = sympy.latex(sympy.expand(expr))
    result, _ = latex_equivalent(tex, rewritten)
    assert result in ("equal", "undecided"), (tex, rewritten)


@FAST
@given(expressions())
def test_shifted_value_is_not_equal(pair: tuple[str, object]) -> None:
    tex, expr = pair
    shifted = sympy.latex(sympy.expand(expr + sympy.Rational(1, 7)))
    assert latex_equivalent(tex, shifted)[0] in ("not_equal", "undecided")


@FAST
@given(
    st.lists(st.integers(-50, 50), min_size=1, max_size=6),
    st.lists(st.integers(2, 9), min_size=1, max_size=6),
)
def test_exact_rational_sums_agree_with_fractions(nums: list[int], dens: list[int]) -> None:
    terms = list(zip(nums, dens, strict=False))
    tex = " + ".join(f"\\frac{{{p}}}{{{q}}}" for p, q in terms)
    total = sum((Fraction(p, q) for p, q in terms), Fraction(0))
    assert latex_equivalent(tex, f"{total.numerator}/{total.denominator}")[0] == "equal"


@FAST
@given(expressions(), expressions())
def test_equivalence_is_reflexive_and_symmetric(a: tuple[str, object], b: tuple[str, object]) -> None:
    assert latex_equivalent(a[0], a[0])[0] == "equal"
    assert latex_equivalent(a[0], b[0])[0] == latex_equivalent(b[0], a[0])[0]


@FAST
@given(st.lists(expressions(depth=2), min_size=2, max_size=5), st.randoms())
def test_reordering_sums_and_products_is_equal(terms: list[tuple[str, object]], rnd: random.Random) -> None:
    shuffled = terms[:]
    rnd.shuffle(shuffled)
    plus = lambda ts: " + ".join(f"\\left({t}\\right)" for t, _ in ts)  # noqa: E731
    times = lambda ts: " \\cdot ".join(f"\\left({t}\\right)" for t, _ in ts)  # noqa: E731
    assert latex_equivalent(plus(terms), plus(shuffled))[0] in ("equal", "undecided")
    assert latex_equivalent(times(terms), times(shuffled))[0] in ("equal", "undecided")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_never_crashes(text: str) -> None:
    try:
        parse_latex(text)
    except ParseError:
        pass
    assert latex_equivalent(text, "1")[0] in ("equal", "not_equal", "undecided")
