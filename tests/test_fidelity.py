"""Issue 13 (answer-checking fidelity, round 2): one test group per class of disagreement with other
graders' test suites, with examples written here (not copied from any one suite).

Each case runs through ``check()`` defaults. A case marked ``xfail(strict=True)`` is one the current
code gets wrong; the stream that fixes the class removes its id from ``FAILING`` (strict xfail turns an
unexpected pass into a failure, so the list cannot go stale). Where the verdict is symmetric, a case is
checked in both argument orders: the prediction's answer is put into the response template and the
gold's answer is the gold, then the two are swapped.

The per-suite evidence behind the classes is printed by ``scripts/peer_suites_report.py``.
"""

from __future__ import annotations

import matheval_fast as mf
import pytest

from tests.reference import xwin_seed

ANCHOR = "The answer is ${}$"
BARE = "{}"


def _params(cls: str, rows: list[tuple], failing: set[str]) -> list:
    """rows: (id, template, pred answer, gold answer, expected, symmetric)."""
    out = []
    for rid, template, pred, gold, expected, symmetric in rows:
        orders = [("", pred, gold)] + ([("-swapped", gold, pred)] if symmetric else [])
        for suffix, p, g in orders:
            case_id = f"{rid}{suffix}"
            marks = [pytest.mark.xfail(strict=True, reason=f"issue 13: {cls}")] if case_id in failing else []
            out.append(pytest.param(template.format(p), g, expected, id=case_id, marks=marks))
    unknown = failing - {p.id for p in out}
    assert not unknown, f"FAILING names unknown case ids: {unknown}"
    return out


def _verdict(response: str, gold: str) -> bool:
    # A generous SymPy timeout so that machine load cannot turn a verdict into a timeout (a timed-out
    # item would be incorrect, which is what an xfail case expects, but it costs a worker restart).
    return mf.check(response, gold, timeout=10.0).correct


# --------------------------------------------------------------------------------------------
# Extraction: an anchor followed by prose that holds a box or display math. The box/display answer
# wins over the anchor's prose, also when the box comes on the line after the anchor's sentence, and a
# box earlier in the response wins over a later anchored sentence that holds no answer.

ANCHOR_PROSE = [
    (
        "box-next-line",
        "The final answer is the third power of two:\n\\[\\boxed{{{}}}\\]",
        "8",
        "8",
        True,
        False,
    ),
    (
        "box-next-line-word",
        "The final answer is the month of May:\n\\[\\boxed{{{}}}\\]",
        "\\text{May}",
        "\\text{May}",
        True,
        False,
    ),
    (
        "display-after-prose",
        "Answer: we keep the positive root, which gives\n\\[ x = {} \\]",
        "\\frac{7}{2}",
        "3.5",
        True,
        False,
    ),
    (
        "box-after-comma",
        "The answer is the smaller value, that is, $\\boxed{{{}}}$.",
        "-4",
        "-4",
        True,
        False,
    ),
    (
        "box-after-comma-wrong",
        "The answer is the smaller value, that is, $\\boxed{{{}}}$.",
        "-4",
        "4",
        False,
        False,
    ),
    (
        "earlier-box-beats-prose-anchor",
        "Hence the count is $\\boxed{{{}}}$.\nRemark: some texts say the answer is written out in words.",
        "35",
        "35",
        True,
        False,
    ),
    (
        "anchor-rejected-then-answer-colon",
        "So the total is $\\boxed{{{}}}$.\n\nAnswer:\nThe answer is indeed $\\boxed{{48}}$, each pair once.",
        "48",
        "48",
        True,
        False,
    ),
    ("plain-anchor-unchanged", "The answer is {}. Then we double-check with 5.", "18", "18", True, False),
    (
        "display-same-line",
        "The answer is the month after May, which is: \\[\\boxed{{{}}}\\]",
        "\\text{June}",
        "\\text{June}",
        True,
        False,
    ),
    (
        "hedge-gives-way-to-box",
        "So we get $\\boxed{{{}}}$.\nUsually the answer is written as 220, in other books as 0220 or 22.",
        "220",
        "220",
        True,
        False,
    ),
    (
        "hedge-gives-way-to-wrong-box",
        "So we get $\\boxed{{{}}}$.\nUsually the answer is written as 220, in other books as 0220 or 22.",
        "22",
        "220",
        False,
        False,
    ),
]
ANCHOR_PROSE_FAILING: set[str] = set()


@pytest.mark.parametrize(
    ("response", "gold", "expected"), _params("anchor followed by prose", ANCHOR_PROSE, ANCHOR_PROSE_FAILING)
)
def test_anchor_followed_by_prose(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# Approximation tails: in `exact \approx decimal` (or ≈) the exact left side is the answer, in the gold
# and in the prediction; the rounded value is never compared instead of it.

APPROX = [
    ("wrong-exact-right-decimal", ANCHOR, "\\frac{25}{2} \\approx 12.57", "4\\pi", False, False),
    ("wrong-exact-right-decimal-unicode", ANCHOR, "\\frac{5}{3} ≈ 2.33", "\\frac{7}{3}", False, False),
    ("wrong-exact-loose-decimal", ANCHOR, "\\frac{1}{3} \\approx 0.5", "\\frac12", False, False),
    ("right-exact", ANCHOR, "\\frac{1}{\\sqrt{2}} \\approx 0.707", "\\frac{\\sqrt{2}}{2}", True, True),
    ("right-exact-both-tails", ANCHOR, "\\sqrt{11} \\approx 3.32", "\\sqrt{11} \\approx 3.317", True, True),
    ("gold-tail-pred-exact", ANCHOR, "\\frac{9}{4}\\pi", "\\frac{9\\pi}{4} \\approx 7.07", True, False),
    ("gold-tail-pred-decimal", ANCHOR, "7.07", "\\frac{9\\pi}{4} \\approx 7.07", True, False),
    ("gold-tail-wrong-exact", ANCHOR, "\\frac{7\\pi}{4}", "\\frac{9\\pi}{4} \\approx 7.07", False, False),
    ("lone-approx-is-the-value", ANCHOR, "y \\approx 14", "14", True, False),
    ("named-exact-with-tail", ANCHOR, "x = \\frac{1}{3} \\approx 0.33", "\\frac13", True, True),
]
APPROX_FAILING: set[str] = set()


@pytest.mark.parametrize(
    ("response", "gold", "expected"), _params("approximation tails", APPROX, APPROX_FAILING)
)
def test_approximation_tails(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# Scientific notation is read at its written precision, like the same plain decimal.

SCI = [
    ("times", ANCHOR, "3.703703703704 \\times 10^{-3}", "\\frac{1}{270}", True, True),
    ("cdot", ANCHOR, "1.428571428571 \\cdot 10^{-1}", "\\frac{1}{7}", True, True),
    ("times-positive-exponent", ANCHOR, "1.6666666667 \\times 10^{4}", "\\frac{50000}{3}", True, True),
    ("e-notation", BARE, "The answer is 1.428571428571e-1", "\\frac17", True, False),
    ("too-coarse", ANCHOR, "3.703 \\times 10^{-3}", "\\frac{1}{270}", False, True),
    ("exact-mantissa", ANCHOR, "6.25 \\times 10^{-2}", "\\frac{1}{16}", True, True),
    ("negative-mantissa", ANCHOR, "-1.428571428571 \\times 10^{-1}", "-\\frac{1}{7}", True, True),
    ("wrong-value", ANCHOR, "3.703703703704 \\times 10^{-2}", "\\frac{1}{270}", False, True),
]
SCI_FAILING: set[str] = set()


@pytest.mark.parametrize(("response", "gold", "expected"), _params("scientific notation", SCI, SCI_FAILING))
def test_scientific_notation_at_written_precision(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# Names on the left: `f(x) = ...` and `y = ...` drop their names on either side.

NAMES = [
    ("function-vs-y", ANCHOR, "f(x) = 2x+3", "y = 2x+3", True, True),
    ("two-functions", ANCHOR, "g(t) = t^2 - 1", "h(t) = t^2-1", True, True),
    ("function-vs-bare", ANCHOR, "p(x)=x^3-x", "x^3-x", True, True),
    ("different-values", ANCHOR, "f(x) = 2x+3", "y = 2x+4", False, True),
    ("swapped-roles", ANCHOR, "y = 2x+3", "x = 2y+3", False, True),
    ("same-line-solved-for-the-other", ANCHOR, "y = x+1", "x = y-1", True, True),
]
NAMES_FAILING: set[str] = set()


@pytest.mark.parametrize(("response", "gold", "expected"), _params("names on the left", NAMES, NAMES_FAILING))
def test_names_on_the_left(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# Stray LaTeX debris around a plain value (a trailing `\`, `\\`, `\!`, `\,`, `\;`, an unmatched
# `\right.`) neither makes it unparseable nor unequal, in the gold or in the prediction.

DEBRIS = [
    ("trailing-backslash-gold", BARE, "The answer is 185", "185\\", True, False),
    ("trailing-backslash-decimal-gold", BARE, "The answer is 3.5", "3.5\\", True, False),
    ("trailing-backslash-fraction-gold", BARE, "The answer is $\\frac14$", "\\frac{1}{4}\\", True, False),
    ("left-right-dot-gold", BARE, "The answer is 9", "\\left.9\\right.", True, False),
    ("line-break-pred", ANCHOR, "x+1\\\\", "x+1", True, True),
    ("line-break-fraction-pred", ANCHOR, "\\frac{\\pi}{3}\\\\", "\\frac{\\pi}3", True, True),
    ("spacing-pred", ANCHOR, "2\\sqrt{3}\\,", "\\sqrt{12}", True, True),
    ("negthinspace-pred", ANCHOR, "\\sqrt{3}\\!", "\\sqrt3", True, True),
    ("thickspace-gold", BARE, "The answer is 9", "9\\;", True, False),
    ("right-dot-tuple", ANCHOR, "(1,2)\\right.", "(1,2)", True, False),
    ("debris-does-not-make-equal", BARE, "The answer is 186", "185\\", False, False),
]
DEBRIS_FAILING: set[str] = set()


@pytest.mark.parametrize(
    ("response", "gold", "expected"), _params("stray LaTeX debris", DEBRIS, DEBRIS_FAILING)
)
def test_stray_latex_debris(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# Short answers stand for themselves (a choice letter, a word); an extracted number word equals its
# number when the gold is a number.

SHORT = [
    ("letter", BARE, "C", "C", True, False),
    ("letter-wrong", BARE, "E", "A", False, False),
    ("parenthesised-letter", BARE, "(B)", "B", True, True),
    ("text-letter", BARE, "\\text{(D)}", "D", True, True),
    ("word", BARE, "yes", "yes", True, False),
    ("month", BARE, "June", "June", True, False),
    ("word-wrong", BARE, "no", "yes", False, False),
    ("number-word-anchored", BARE, "The answer is seven.", "7", True, False),
    ("hyphenated-number-word", BARE, "The answer is twenty-four", "24", True, False),
    ("number-words", BARE, "The answer is one hundred", "100", True, False),
    ("capitalised-number-word", BARE, "The answer is: Eleven", "11", True, False),
    ("bare-number-word", BARE, "twelve", "12", True, False),
    ("number-word-wrong", BARE, "The answer is seven.", "8", False, False),
    ("phrase-is-not-a-number", BARE, "The answer is one of the two", "1", False, False),
]


def test_a_sentence_without_an_answer_is_still_no_answer():
    assert mf.check("no digits here", "5").reason == "no_answer"
    assert mf.check("I do not know", "B").reason == "no_answer"


SHORT_FAILING: set[str] = set()


@pytest.mark.parametrize(("response", "gold", "expected"), _params("short answers", SHORT, SHORT_FAILING))
def test_short_answers_stand_for_themselves(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# Plain-text answers are case-insensitive when both sides are words; mathematics is not case-folded.

CASE = [
    ("yes", BARE, "The answer is Yes", "yes", True, False),
    ("yes-reversed", BARE, "The answer is yes", "Yes", True, False),
    ("month", BARE, "The answer is June", "june", True, False),
    ("month-reversed", BARE, "The answer is june", "June", True, False),
    ("text-word", BARE, "The answer is \\text{East}", "east", True, False),
    ("different-words", BARE, "The answer is No", "yes", False, False),
    ("variables-keep-case", ANCHOR, "X", "x", False, False),
    ("two-letter-no", BARE, "The answer is No.", "no", True, False),
    ("upper-word", ANCHOR, "EAST", "east", True, True),
    ("word-vs-expression", ANCHOR, "yes", "y e s + 1", False, True),
]
CASE_FAILING: set[str] = set()


@pytest.mark.parametrize(
    ("response", "gold", "expected"), _params("case-insensitive words", CASE, CASE_FAILING)
)
def test_plain_text_answers_are_case_insensitive(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# Real branches: odd roots and rational powers of negative reals take the real branch consistently
# (the radicands below are negative at some of the evaluator's points).

BRANCHES = [
    ("cube-root-squared", ANCHOR, "\\sqrt[3]{x^2-2}^2", "(x^2-2)^{2/3}", True, True),
    ("cube-root-of-square", ANCHOR, "\\sqrt[3]{(t-4)^2}", "(t-4)^{2/3}", True, True),
    ("reciprocal-cube-root", ANCHOR, "\\frac{1}{\\sqrt[3]{a-3}}", "(a-3)^{-1/3}", True, True),
    ("fifth-root", ANCHOR, "\\sqrt[5]{y^3-7}", "(y^3-7)^{1/5}", True, True),
    ("cube-root-vs-two-thirds", ANCHOR, "\\sqrt[3]{x^2-2}", "(x^2-2)^{2/3}", False, True),
    ("sign-of-an-odd-power", ANCHOR, "-\\sqrt[3]{(b-5)^4}", "(b-5)^{4/3}", False, True),
    ("square-root-stays-principal", ANCHOR, "\\sqrt{x-9}", "(x-9)^{1/2}", True, True),
]
BRANCHES_FAILING: set[str] = set()


@pytest.mark.parametrize(
    ("response", "gold", "expected"), _params("real branches of roots", BRANCHES, BRANCHES_FAILING)
)
def test_real_branches_of_odd_roots(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# NEW: a response that is only an answer (no prose, no delimiters) is its own answer. Today the
# last-number fallback takes `1` out of `x^2+2x+1`, so check() disagrees with verify() on bare answers.

BARE_ANSWERS = [
    ("tuple", BARE, "(3, 4)", "(3,4)", True, True),
    ("polynomial", BARE, "x^2 - 4x + 4", "(x-2)^2", True, True),
    ("radical", BARE, "2\\sqrt{5}", "\\sqrt{20}", True, True),
    ("mixed-number", BARE, "4\\frac{1}{3}", "13/3", True, False),
    ("interval", BARE, "[2, 5)", "[2,5)", True, True),
    ("set", BARE, "\\{1, 3\\}", "1, 3", True, True),
    ("pi-over", BARE, "\\pi/4", "\\frac{\\pi}{4}", True, True),
    ("sum-of-numbers", BARE, "3 + 2", "5", True, False),
    ("named-pair", BARE, "a = 3, b = -2", "(3,-2)", True, False),
    ("infinity", BARE, "\\infty", "\\infty", True, False),
    ("equation", BARE, "y = 3x - 1", "3x-1", True, True),
    ("column-vector", BARE, "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "(1,2)", True, False),
    ("membership", BARE, "x \\in (-\\infty, 2]", "(-\\infty,2]", True, False),
    ("trig", BARE, "\\cos x", "\\sin(\\frac{\\pi}{2}-x)", True, True),
    ("wrong-polynomial", BARE, "x^2 + 1", "x^2 + 2", False, True),
    ("wrong-tuple", BARE, "(4, 3)", "(3, 4)", False, True),
    ("fraction-already-works", BARE, "\\frac{7}{2}", "3.5", True, False),
]
BARE_ANSWERS_FAILING: set[str] = set()


@pytest.mark.parametrize(
    ("response", "gold", "expected"), _params("bare answers", BARE_ANSWERS, BARE_ANSWERS_FAILING)
)
def test_a_bare_answer_is_its_own_answer(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# NEW: multiple-choice letters in prose, when the gold is a choice letter: a response that starts
# with the letter, the letter right after an anchor, or the letter the conclusion names.

CHOICE = [
    ("leading-letter", BARE, "D. The other options fail the parity test.", "D", True, False),
    ("anchor-then-reason", BARE, "Answer: B, because A overcounts.", "B", True, False),
    ("anchor-paren-then-reason", BARE, "The answer is (E) since the others are too small.", "E", True, False),
    ("conclusion-names-letter", BARE, "After ruling out A and C, it must be D.", "D", True, False),
    ("option-phrase", BARE, "Comparing them, I think the correct option is B", "B", True, False),
    ("anchor-wrong-letter", BARE, "Answer: C, because A overcounts.", "B", False, False),
    ("leading-paren-letter", BARE, "(C) is the only one that works.", "C", True, False),
    ("gold-with-option-text", BARE, "The answer is B.", "(B) 42 apples", True, False),
    ("gold-with-option-text-wrong", BARE, "The answer is C.", "(B) 42 apples", False, False),
    ("boxed-text-letter", BARE, "Hence \\boxed{\\text{(D)}}.", "D", True, False),
    ("pronoun-is-not-a-choice", BARE, "I think it's A.", "A", True, False),
    # A letter-like answer that is not a choice keeps the usual checkers: `A = 5` is an equation.
    ("equation-gold-not-a-choice", BARE, "The answer is $A = 5$", "A = 5", True, False),
]
CHOICE_FAILING: set[str] = set()


@pytest.mark.parametrize(("response", "gold", "expected"), _params("choice letters", CHOICE, CHOICE_FAILING))
def test_choice_letters_in_prose(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# NEW: an anchored number followed by a clause about it ("12, not 15", "30 in 2 days"): the number is
# the answer; lists, expressions and unit words keep the whole sentence.

CONNECTIVE = [
    ("not", BARE, "The answer is 12, not 15.", "12", True, False),
    ("not-wrong", BARE, "The answer is 12, not 15.", "15", False, False),
    ("in-days", BARE, "So the answer is 30 in 2 days.", "30", True, False),
    ("after-steps", BARE, "The answer is 8 after 3 steps.", "8", True, False),
    ("because", BARE, "The final answer is 40 because each of the 4 boxes holds 10.", "40", True, False),
    ("currency-since", BARE, "The answer is $1,250 since the rest was spent.", "1250", True, False),
    ("list-stays-a-list", BARE, "The answer is 3 and 5.", "3", False, False),
]
CONNECTIVE_FAILING: set[str] = set()


@pytest.mark.parametrize(
    ("response", "gold", "expected"), _params("number before a connective", CONNECTIVE, CONNECTIVE_FAILING)
)
def test_anchored_number_before_a_connective(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# NEW: anchors in other languages ("la réponse est", "la respuesta es", "die Antwort ist", 答案是).

LANGUAGES = [
    ("french", BARE, "Donc la réponse est 12, et non 15.", "12", True, False),
    ("spanish", BARE, "Por lo tanto, la respuesta es 30 en 2 días.", "30", True, False),
    ("german", BARE, "Also ist die Antwort 8 nach 3 Schritten.", "8", True, False),
    ("chinese", BARE, "所以答案是 24，共 3 步。", "24", True, False),
    ("chinese-colon", BARE, "答案：36，用了 4 小时。", "36", True, False),
    ("french-wrong", BARE, "Donc la réponse est 12, et non 15.", "15", False, False),
    ("french-colon", BARE, "Réponse : 18, après 3 jours.", "18", True, False),
    ("french-final", BARE, "La réponse finale est $\\frac{3}{4}$.", "0.75", True, False),
    ("french-prose-first", BARE, "Réponse : Paul aura encore 45 € à payer dans 6 mois.", "45", True, False),
    (
        "french-prose-first-wrong",
        BARE,
        "Réponse : Paul aura encore 45 € à payer dans 6 mois.",
        "6",
        False,
        False,
    ),
    (
        "french-correct-is-not-an-answer",
        BARE,
        "On a \\boxed{7}. La réponse est correcte car 3+4=7.",
        "7",
        True,
        False,
    ),
    ("spanish-colon", BARE, "Respuesta: 14 para cada uno de los 3 grupos.", "14", True, False),
    ("spanish-final", BARE, "La respuesta final es 2,5.", "2.5", True, False),
    ("german-ist", BARE, "Die Antwort ist 72 nach 4 Runden.", "72", True, False),
    ("german-colon", BARE, "Antwort: 9 mit 2 Resten", "9", True, False),
    (
        "german-mention-is-not-an-anchor",
        BARE,
        "Die Antwort hängt von n ab. Wir erhalten 16.",
        "16",
        True,
        False,
    ),
    ("chinese-final", BARE, "因此，最终答案是 $\\frac{1}{2}$。", "0.5", True, False),
    ("chinese-wei", BARE, "答案为 5，共 2 种情况。", "5", True, False),
    ("chinese-whether", BARE, "检查答案是否正确：2 + 3 = 5，所以 \\boxed{5}", "5", True, False),
    ("japanese", BARE, "よって、答えは 42 です。3 回確認しました。", "42", True, False),
    ("japanese-colon", BARE, "答え：7，2 通りある。", "7", True, False),
    ("russian", BARE, "Ответ: 15 за 3 дня.", "15", True, False),
    ("russian-wrong", BARE, "Ответ: 15 за 3 дня.", "3", False, False),
    ("and-not", BARE, "The answer is 12 and not 15.", "12", True, False),
    ("list-stays-a-list-fr", BARE, "La réponse est 3 et 5.", "3", False, False),
    ("english-prose-first", BARE, "Answer: Janet still has 220 dollars left to pay.", "220", True, False),
]
LANGUAGES_FAILING: set[str] = set()


@pytest.mark.parametrize(
    ("response", "gold", "expected"), _params("non-English anchors", LANGUAGES, LANGUAGES_FAILING)
)
def test_anchors_in_other_languages(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# NEW: clock times. `09:15` = `09:15:00`, `21:15` = `9:15 P.M.`; a clock time (with seconds, a.m./p.m.
# or a leading-zero hour) is a time of day, never a ratio or a number. A bare `21:15` may be a ratio,
# so it is read as a time only against a definite clock time.

CLOCK = [
    ("seconds", BARE, "09:15:00", "09:15", True, True),
    ("pm", BARE, "9:15 P.M.", "21:15", True, True),
    ("pm-text", BARE, "09:15 \\text{P.M.}", "21:15", True, True),
    ("am-leading-zero", BARE, "7:05 a.m.", "07:05", True, True),
    ("midnight", BARE, "12:30 am", "00:30", True, True),
    ("noon", BARE, "12:30 p.m.", "12:30:00", True, True),
    ("hour-only", BARE, "7 pm", "19:00", True, True),
    ("pm-not-am", BARE, "9:15 a.m.", "21:15", False, True),
    ("other-seconds", BARE, "09:15:30", "09:15", False, True),
    ("not-a-ratio", ANCHOR, "\\frac{3}{5}", "09:15", False, True),
    ("not-a-number", ANCHOR, "9.25", "09:15", False, True),
    ("in-prose", BARE, "The train leaves at 9:15 P.M.", "21:15", True, False),
    ("in-prose-wrong", BARE, "The train leaves at 9:15 A.M.", "21:15", False, False),
    # A bare H:MM is still a ratio when nothing says it is a time.
    ("ratio-stays", ANCHOR, "3:5", "9:15", True, True),
]
CLOCK_FAILING: set[str] = set()


@pytest.mark.parametrize(("response", "gold", "expected"), _params("clock times", CLOCK, CLOCK_FAILING))
def test_clock_times(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# NEW: systems of equations in `cases` / `aligned` environments are read as a set of equations.

SYS = "\\begin{{cases}} {} \\\\ {} \\end{{cases}}"
ALIGNED = "\\begin{{aligned}} {} \\\\ {} \\end{{aligned}}"
SYSTEMS = [
    ("cases-same", ANCHOR, SYS.format("x+y=3", "x-y=1"), SYS.format("x+y=3", "x-y=1"), True, True),
    ("cases-rows-swapped", ANCHOR, SYS.format("x-y=1", "x+y=3"), SYS.format("x+y=3", "x-y=1"), True, True),
    ("cases-scaled-row", ANCHOR, SYS.format("2x+2y=6", "x-y=1"), SYS.format("x+y=3", "x-y=1"), True, True),
    ("cases-vs-list", ANCHOR, "x+y=3, x-y=1", SYS.format("x+y=3", "x-y=1"), True, True),
    ("cases-other-row", ANCHOR, SYS.format("x+y=3", "x-y=2"), SYS.format("x+y=3", "x-y=1"), False, True),
    ("cases-missing-row", ANCHOR, "x+y=3", SYS.format("x+y=3", "x-y=1"), False, True),
    (
        "cases-decimals",
        ANCHOR,
        SYS.format("p+q=0.25", "p-q=1.414"),
        SYS.format("p+q=\\frac14", "p-q=\\sqrt2"),
        True,
        True,
    ),
    ("aligned-assignments", ANCHOR, ALIGNED.format("x &= 2", "y &= 1"), "x = 2, y = 1", True, True),
    ("aligned-wrong", ANCHOR, ALIGNED.format("x &= 2", "y &= 3"), "x = 2, y = 1", False, True),
]
SYSTEMS_FAILING: set[str] = set()


@pytest.mark.parametrize(("response", "gold", "expected"), _params("systems", SYSTEMS, SYSTEMS_FAILING))
def test_systems_of_equations(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# NEW: a decimal inside an expression stands for the exact constant at its place on the other side,
# at its written precision, under the precision policy of bare decimals: a value with no finite
# decimal form (sqrt 3, pi, 1/3) matches a decimal of two or more significant digits; a value with
# one (1.25, 5/4) is exact.

DECIMAL_EXPR = [
    ("complex", ANCHOR, "2 + 1.732i", "2 + \\sqrt{3}i", True, True),
    ("complex-reordered", ANCHOR, "1.732i + 2", "2 + \\sqrt{3}i", True, True),
    ("complex-off", ANCHOR, "2 + 1.8i", "2 + \\sqrt{3}i", False, True),
    ("pi-area", ANCHOR, "3.14r^2", "\\pi r^2", True, True),
    ("pi-area-off", ANCHOR, "3.15r^2", "\\pi r^2", False, True),
    ("equation", ANCHOR, "y = 1.414x + 1", "y = \\sqrt2 x + 1", True, True),
    ("third", ANCHOR, "x + 0.333", "x + \\frac13", True, True),
    ("one-digit-is-exact", ANCHOR, "x + 0.3", "x + \\frac13", False, True),
    ("finite-decimal-is-exact", ANCHOR, "2 + 1.3i", "2 + 1.25i", False, True),
    ("finite-fraction-is-exact", ANCHOR, "2 + 1.3i", "2 + \\frac54 i", False, True),
]
DECIMAL_EXPR_FAILING: set[str] = set()


@pytest.mark.parametrize(
    ("response", "gold", "expected"),
    _params("decimals inside expressions", DECIMAL_EXPR, DECIMAL_EXPR_FAILING),
)
def test_decimals_inside_expressions(response, gold, expected):
    assert _verdict(response, gold) is expected


# A bracketed pair `[a, b]` against a two-entry vector is the list of its entries (NumPy's writing),
# not the closed interval; against an interval or a tuple nothing changes.
COL = "\\begin{matrix} \\frac14 \\\\ 3 \\end{matrix}"
ROW = "\\begin{pmatrix} \\frac14 & 3 \\end{pmatrix}"
BRACKET_VECTOR = [
    ("column", BARE, "[0.25, 3]", COL, True, False),
    ("column-anchored", ANCHOR, "[0.25, 3]", COL, True, True),
    ("row-anchored", ANCHOR, "[1/4, 3]", ROW, True, True),
    ("order-matters", ANCHOR, "[3, 0.25]", COL, False, True),
    ("half-open-is-an-interval", ANCHOR, "[0.25, 3)", COL, False, True),
    ("tuple-is-not-an-interval", ANCHOR, "(\\frac14, 3)", "[0.25, 3]", False, True),
]


@pytest.mark.parametrize(
    ("response", "gold", "expected"), _params("bracketed vectors", BRACKET_VECTOR, set())
)
def test_bracketed_pair_against_a_vector(response, gold, expected):
    assert _verdict(response, gold) is expected


def test_decimals_inside_expressions_follow_the_precision_option():
    assert mf.verify("2 + 1.25i", "2 + 1.3i", finite_decimals="written_precision")
    assert not mf.verify("2 + 1.25i", "2 + 1.3i")
    assert not mf.verify("2 + \\sqrt{3}i", "2 + 1.732i", strict=True)
    assert not mf.verify("2 + \\sqrt{3}i", "2 + 1.732i", rounding=False)


# --------------------------------------------------------------------------------------------
# NEW: a gold written as a short sentence with an anchor ("answer is 0.75") is reduced to its answer.

GOLD_SENTENCE = [
    ("decimal-gold", BARE, "The final answer is \\boxed{3/4}.", "the answer is 0.75", True, False),
    ("answer-colon-gold", BARE, "We get $\\boxed{\\frac{2}{5}}$", "Answer: 0.4", True, False),
    ("integer-gold", BARE, "So \\boxed{81}", "The answer is 81.", True, False),
    ("integer-gold-wrong", BARE, "So \\boxed{80}", "The answer is 81.", False, False),
    (
        "final-answer-gold",
        BARE,
        "Thus $x = \\frac{1}{2}$.",
        "The final answer is $\\frac{1}{2}$",
        True,
        False,
    ),
    ("machine-rounded-gold", BARE, "The final answer is \\boxed{2/3}.", "answer is 0.6666667", True, False),
    (
        "finite-decimal-gold-exact",
        BARE,
        "The final answer is \\boxed{0.13}.",
        "answer is 0.125",
        False,
        False,
    ),
]
GOLD_SENTENCE_FAILING: set[str] = set()


@pytest.mark.parametrize(
    ("response", "gold", "expected"), _params("gold sentences", GOLD_SENTENCE, GOLD_SENTENCE_FAILING)
)
def test_gold_sentence_is_reduced_to_its_answer(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# NEW: LaTeX escaped twice (`\\begin{pmatrix} ... \\\\ ...`, as JSON-escaped text arrives) reads as
# the LaTeX it stands for. Single `\\name` already works; whole escaped environments do not.

ESCAPED = [
    ("escaped-fraction", BARE, "The answer is $\\frac38$", "\\\\frac{3}{8}", True, False),
    (
        "escaped-matrix",
        BARE,
        "The answer is $\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}$",
        "\\\\begin{pmatrix} 1 \\\\\\\\ 2 \\\\end{pmatrix}",
        True,
        False,
    ),
    (
        "escaped-matrix-in-response",
        BARE,
        "The answer is $\\\\begin{pmatrix} 1 \\\\\\\\ 2 \\\\end{pmatrix}$",
        "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}",
        True,
        False,
    ),
    ("escaped-sqrt-sum", ANCHOR, "2 + \\sqrt{3}", "\\\\sqrt{3} + 2", True, True),
    ("escaped-sqrt-wrong", ANCHOR, "2 + \\sqrt{5}", "\\\\sqrt{3} + 2", False, True),
    # A line break `\\\\` followed by no command is not an escape: the text is read as written.
    ("line-break-kept", BARE, "The answer is $x+1$", "x+1\\\\", True, False),
    (
        "escaped-matrix-wrong",
        BARE,
        "The answer is $\\begin{pmatrix} 2 \\\\ 1 \\end{pmatrix}$",
        "\\\\begin{pmatrix} 1 \\\\\\\\ 2 \\\\end{pmatrix}",
        False,
        False,
    ),
]
ESCAPED_FAILING: set[str] = set()


@pytest.mark.parametrize(("response", "gold", "expected"), _params("escaped LaTeX", ESCAPED, ESCAPED_FAILING))
def test_doubly_escaped_latex(response, gold, expected):
    assert _verdict(response, gold) is expected


# --------------------------------------------------------------------------------------------
# Precision policy (RECOMMENDED default, see docs/fidelity_round2.md): a gold written as a terminating
# decimal is exact, so a prediction with fewer (or more) digits is wrong, unless the shorter decimal
# carries at least six significant digits (a machine-rounded value: math-verify's and AReaL's 6 places);
# a decimal still matches an exact gold that has no finite decimal form (1/3, pi, sqrt 2) at its written
# precision.

PRECISION = [
    ("fewer-digits", BARE, "The answer is 2.23", "2.232", False, False),
    ("fewer-digits-small", BARE, "The answer is 0.067", "0.066793", False, False),
    ("more-digits", BARE, "The answer is 2.232", "2.23", False, False),
    ("rounded-up", BARE, "The answer is 1.3", "1.25", False, False),
    ("integer-for-decimal", BARE, "The answer is 17", "17.001", False, False),
    ("trailing-zero", BARE, "The answer is 2.230", "2.23", True, False),
    ("same-value-fraction", BARE, "The answer is $\\frac{279}{125}$", "2.232", True, False),
    ("six-significant-digits", BARE, "The answer is 0.0666668", "0.066666793", True, False),
    ("seven-digit-gold-fraction", BARE, "The answer is $\\frac{2}{3}$", "0.6666667", True, False),
    ("cents", BARE, "The answer is 16386.16", "16386.164", True, False),
    ("thirds", BARE, "The answer is 0.33", "\\frac13", True, False),
    ("pi", BARE, "The answer is 3.14", "\\pi", True, False),
    ("root", BARE, "The answer is 1.414", "\\sqrt{2}", True, False),
]
PRECISION_FAILING: set[str] = set()


@pytest.mark.parametrize(
    ("response", "gold", "expected"), _params("precision policy", PRECISION, PRECISION_FAILING)
)
def test_precision_policy_recommended_default(response, gold, expected):
    assert _verdict(response, gold) is expected


# Today's lenient rule (the coarser written precision decides) stays behind
# ``finite_decimals="written_precision"``, in check, check_batch and verify, both argument orders.
LENIENT = [("2.23", "2.232"), ("0.067", "0.066793"), ("2.83", "2.828"), ("0.38", "\\frac38")]


@pytest.mark.parametrize(("pred", "gold"), LENIENT + [(g, p) for p, g in LENIENT])
def test_written_precision_option_keeps_the_lenient_rule(pred, gold):
    response = f"The answer is ${pred}$"
    assert not mf.check(response, gold).correct
    assert mf.check(response, gold, finite_decimals="written_precision").correct
    assert mf.check(response, gold, finite_decimals="exact").reason == "incorrect"
    batch = mf.check_batch([response], [gold], finite_decimals="written_precision")
    assert batch.correct.tolist() == [True]
    assert mf.check_batch([response], [gold]).correct.tolist() == [False]
    assert mf.verify(gold, pred, finite_decimals="written_precision")
    assert not mf.verify(gold, pred)


def test_finite_decimals_is_a_checked_name():
    with pytest.raises(ValueError, match="finite_decimals"):
        mf.check("The answer is 2.23", "2.232", finite_decimals="lenient")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="finite_decimals"):
        mf.verify("2.232", "2.23", finite_decimals=1)  # type: ignore[arg-type]


def test_xwin_mode_ignores_finite_decimals():
    # The seed compares with math.isclose(rel_tol=1e-3): 2.23 vs 2.232 is within it, 0.067 vs
    # 0.066793 is not; the option must not change that.
    for f in ("exact", "written_precision"):
        assert mf.check("The answer is: 2.23", "2.232", compat="xwin", finite_decimals=f).correct
        assert not mf.check("The answer is: 0.067", "0.066793", compat="xwin", finite_decimals=f).correct


# --------------------------------------------------------------------------------------------
# The xwin mode against the seed: latex_answer_check(model_ans, "", split=None) does no extraction
# (with split=None the seed never extracts), so the literal check decides, and the aggressive path
# crashes on the empty gold (the harness counts that as False).

XWIN_EMPTY_GOLD = ["", "$", ".", " ", "$$", "\\boxed{}", "abc", "5", "The answer is: $", "The answer is: 5"]


def _seed(model_ans: str) -> bool:
    try:
        return xwin_seed.latex_answer_check(model_ans, "", None, "flex", "aggressive")
    except IndexError:  # the seed indexes gt[0]; its harness records the crash as False
        return False


@pytest.mark.parametrize("model_ans", XWIN_EMPTY_GOLD, ids=repr)
def test_xwin_empty_gold_matches_the_seed(model_ans):
    assert mf.latex_answer_check(model_ans, "", split=None, compat="xwin") is _seed(model_ans)


def test_xwin_empty_gold_oracle_facts():
    # What the seed does, checked on the oracle itself (independent of our implementation).
    assert [_seed(m) for m in ["", "$", ".", " ", "$$"]] == [True] * 5
    with pytest.raises(IndexError):
        xwin_seed.latex_answer_check("The answer is: $", "", None, "flex", "aggressive")
    # With a split the seed extracts first ("The answer is: $" leaves "$", which is literally "").
    assert xwin_seed.latex_answer_check("The answer is: $", "", xwin_seed.SEED_SPLIT, "flex", "aggressive")


# --------------------------------------------------------------------------------------------
# The drop-in functions take the seed's keyword names (and this package's earlier ones as aliases).


def test_seed_keyword_names():
    r, g = "Some work.\nThe answer is: 1,450,000.", "1,450,000"
    assert mf.simple_answer_check(model_generated_answer=r, ground_truth=g) is True
    assert mf.simple_answer_check(
        model_generated_answer=r, ground_truth=g, extract_policy="flex", eval_policy="strict", split=None
    )
    assert mf.simple_answer_check(model_generated_answer="The answer is: 7", ground_truth="8") is False
    for compat in ("fixed", "xwin"):
        assert mf.extract_answer(model_generated_answer=r, compat=compat) == mf.extract_answer(
            r, compat=compat
        )
        assert mf.simple_answer_check(
            model_generated_answer="The answer is: 43.04", ground_truth="43", compat=compat
        ) is mf.simple_answer_check("The answer is: 43.04", "43", compat=compat)
    # latex_answer_check already uses the seed's names.
    assert mf.latex_answer_check(model_ans="\\frac12", gt="\\frac{1}{2}", split=None, compat="xwin")


def test_earlier_keyword_names_are_aliases():
    assert mf.extract_answer(text="The answer is: 7.") == "7"
    assert mf.simple_answer_check(model="The answer is: 7", gt="7") is True
    assert mf.simple_answer_check("The answer is: 7", gt="7") is True


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: mf.extract_answer(), "missing required argument: 'model_generated_answer'"),
        (lambda: mf.extract_answer("a", text="b"), "both 'model_generated_answer' and its alias 'text'"),
        (
            lambda: mf.simple_answer_check(ground_truth="5"),
            "missing required argument: 'model_generated_answer'",
        ),
        (lambda: mf.simple_answer_check("The answer is 5"), "missing required argument: 'ground_truth'"),
        (lambda: mf.simple_answer_check("x", "5", gt="5"), "both 'ground_truth' and its alias 'gt'"),
    ],
)
def test_seed_keyword_misuse_is_a_type_error(call, message):
    with pytest.raises(TypeError, match=message):
        call()
