"""Build the human-labelled verifier development set, ``tests/data/verifier/devset.jsonl`` (issue 33).

    .venv/bin/python scripts/make_verifier_devset.py

Three sources, each row labelled by reading the response as a careful grader ("is the final answer
correct?"); the labels are written here, by hand, never computed by a grader:

* ``qwen25math``: real Qwen2.5-Math-7B-Instruct responses to MATH problems, read from the bundled
  ``data/answer_check/qwen25math_math_cot_100_graded.jsonl`` (MIT): every response that some recorded
  grader rejected (72, real near misses) and 128 that all accepted (one or two per problem).
* ``nemo_skills``: real model responses from NeMo-Skills' test outputs, read from the bundled
  ``tests/data/peer_suites/nemo_skills_outputs.jsonl`` (Apache-2.0); only the rows whose final answer can be
  read from the response (truncated or off-task rows are left out), labelled by us, not by NeMo-Skills'
  grader (which reads its own extraction and disagrees with a person on a few rows, listed in NEMO_LABELS).
* ``constructed``: responses written by us, one class of issue 33 at a time, each correct item next to a
  near miss (the rounding of another value, one part of two, a reordered pair, the right number of the
  wrong quantity or unit).

The script reads only files of this repository and writes one JSON line per item:
``id, source, cls, gold, response, label, doubtful, note``.
"""

# ruff: noqa: E501  (the hand-written items below are one per line, long strings kept whole)

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "verifier" / "devset.jsonl"
QWEN = ROOT / "data" / "answer_check" / "qwen25math_math_cot_100_graded.jsonl"
NEMO = ROOT / "tests" / "data" / "peer_suites" / "nemo_skills_outputs.jsonl"
QWEN_VERDICTS = (
    "qwen_grader_verdict",
    "math_verify_0_9_0_full_response",
    "math_verify_0_9_0_on_qwen_extracted",
    "prm800k_grade_answer_on_qwen_extracted",
)

# --- qwen25math: our labels where a careful grader differs from "all recorded graders rejected" ------
# Gold "4:30p.." is MATH's "4:30 p.m." with its \text stripped; the response says 4:30 p.m.
QWEN_CORRECT_ALTHOUGH_REJECTED = {(3, s) for s in range(8)} | {(72, 7)}
# Accepted by every grader and correct, but the response degenerates into noise after its boxed answer.
QWEN_DOUBTFUL = {(25, 1), (45, 5)}

# --- nemo_skills: (row number) -> (label, doubtful, note); rows not listed are left out ----------------
_NEMO_TRUE = (
    "0001 0002 0003 0004 0005 0006 0007 0008 0009 0011 0014 0016 0018 0019 0020 0021 0022 0024 0029 0031 "
    "0037 0039 0040 0043 0044 0045 0046 0047 0051 0052 0053 0056 0057 0058 0059 0061 0063 0065 0066 0068 "
    "0069 0070 0072 0073 0074 0075 0076 0078 0079 0081 0083 0085 0086 0087 0089 0093 0094 0095 0096 0097 "
    "0100 0101 0102 0103 0104 0109 0111 0113 0114 0115 0118 0119 0120 0122 0123 0124 0126 0127 0128 0129 "
    "0130 0131 0133 0136 0137 0138 0139 0142 0143 0144 0145 0146 0147 0149"
).split()
NEMO_LABELS: dict[str, tuple[bool, bool, str]] = {k: (True, False, "") for k in _NEMO_TRUE}
NEMO_LABELS.update(
    {
        "0121": (True, False, "no box: the closing sentence states 60 as the least common multiple"),
        "0135": (True, False, "no box: the closing sentence ends in 11/15"),
        "0116": (True, False, "NeMo-Skills rejects (no box); 'Thus, the answer is: \\[207/64\\]' is right"),
        "0023": (True, False, "NeMo-Skills rejects '\\boxed{1320 km}'; the unit is the one asked for"),
        "0026": (True, False, "NeMo-Skills rejects '\\boxed{(x+y)^2=81}'; the asked quantity is named"),
        "0098": (True, True, "NeMo-Skills rejects; the closing sentence states \\fbox{958}"),
        "0035": (True, True, "boxed answer, then the model starts an unrelated new question"),
        "0064": (True, True, "boxed answer, then the model starts an unrelated new question"),
        "0017": (False, False, "(9, 19) against (5, -5)"),
        "0117": (False, False, "(8, 10) against (5, -5)"),
        "0088": (False, False, "-1 against 0"),
        "0108": (False, False, "5 against 7"),
        "0132": (False, False, "near miss: a^2+b^2+c^2 lacks the -4R^2 term"),
        "0071": (False, False, "answers another question"),
        "0030": (False, False, "answers another question with a vector"),
    }
)

# --- constructed: (class, gold, response, label, note) --------------------------------------------------
C1 = "c1_anchor_sentence"
C2 = "c2_closing_prose"
C3 = "c3_heading"
C4 = "c4_gold_alternatives"
C5 = "c5_equivalence"
C6 = "c6_correction"
C7 = "c7_set_in_words"
C8 = "c8_none_gold"
BASE = "step_by_step"

CONSTRUCTED: list[tuple[str, str, str, bool, str]] = [
    # 1. An answer sentence after the anchor
    (
        C1,
        "36",
        "Gerald's old time was 40 seconds. Improving by 10% means 40 × 0.9 = 36.\nThe answer is: Gerald's new time is 36 seconds.",
        True,
        "",
    ),
    (
        C1,
        "36",
        "Gerald's old time was 40 seconds. Improving by 15% means 40 × 0.85 = 34.\nThe answer is: Gerald's new time is 34 seconds.",
        False,
        "",
    ),
    (
        C1,
        "15",
        "Water is 25% of the 60 liters: 0.25 × 60 = 15.\nThe answer is: the mixture contains 15 liters of water.",
        True,
        "",
    ),
    (
        C1,
        "15",
        "Water is 75% of the 60 liters: 0.75 × 60 = 45.\nThe answer is: the mixture contains 45 liters of water.",
        False,
        "",
    ),
    (
        C1,
        "45",
        "The mixture has 60 liters and a quarter of it is alcohol.\nThe answer is: the mixture contains 60 liters in total, of which 15 liters are water.",
        False,
        "near miss: the gold's quantity is not what the sentence asserts",
    ),
    (
        C1,
        "9360",
        "Her salary of $9000 rises by 4%: 9000 × 1.04 = 9360.\nTherefore, the answer is: her salary will be $9360",
        True,
        "",
    ),
    (
        C1,
        "9360",
        "Her salary of $9000 rises by 4%, then falls by $360.\nTherefore, the answer is: her salary will be $9360 − $360 = $9000",
        False,
        "the sentence's value is its result, 9000",
    ),
    (
        C1,
        "5",
        "Only the fifth option satisfies all three conditions. The answer is 5!",
        True,
        "an exclamation, not a factorial",
    ),
    (C1, "5", "Only the sixth option satisfies all three conditions. The answer is 6!", False, ""),
    (
        C1,
        "55",
        "Since a ∥ b, ∠3 and ∠1 are corresponding angles, so ∠3 = ∠1 = 55°.\nThe answer is ∠3＝55°.",
        True,
        "",
    ),
    (
        C1,
        "55",
        "Since a ∥ b, ∠3 and ∠1 are supplementary, so ∠3 = 180° − 55° = 125°.\nThe answer is ∠3＝125°.",
        False,
        "",
    ),
    (
        C1,
        "52",
        "Angle 1 and angle 2 are complementary, so angle 2 = 90° − 38° = 52°.\nThe answer is: $\\angle 2$ measures 52 degrees.",
        True,
        "the angle's name holds a 2",
    ),
    (
        C1,
        "52",
        "Angle 1 and angle 2 are equal, so angle 2 = 38°.\nThe answer is: $\\angle 2$ measures 38 degrees.",
        False,
        "",
    ),
    (
        C1,
        "7",
        "She picked 12 apples and ate 5 of them, so 12 − 5 = 7 remain.\nThe answer is: there are 7 apples left in the basket.",
        True,
        "",
    ),
    (
        C1,
        "7",
        "She picked 12 apples and ate 5 of them.\nThe answer is: there were 12 apples in the basket.",
        False,
        "answers another quantity",
    ),
    (
        C1,
        "3.5",
        "The bill is $14 shared by 4 friends: 14 / 4 = 3.5.\nThe final answer is: each friend pays $3.50.",
        True,
        "",
    ),
    (
        C1,
        "3.5",
        "The bill is $14 shared by 4 friends.\nThe final answer is: each friend pays $3.05.",
        False,
        "",
    ),
    (
        C1,
        "250",
        "At 50 km/h for 5 hours the car covers 50 × 5 = 250 km.\nThe answer is: the car travels 250 km in 5 hours.",
        True,
        "",
    ),
    (
        C1,
        "50",
        "The car covers 250 km in 5 hours, so its speed is 250 / 5.\nThe answer is: the car travels 250 km in 5 hours.",
        False,
        "asked for the speed, the sentence asserts the distance",
    ),
    (
        C1,
        "\\frac{3}{4}",
        "Three of the four outcomes are favourable.\nThe answer is: the probability is $\\frac{3}{4}$.",
        True,
        "",
    ),
    (
        C1,
        "\\frac{3}{4}",
        "Four of the three outcomes are favourable.\nThe answer is: the probability is $\\frac{4}{3}$.",
        False,
        "",
    ),
    (C1, "4", "From 3x + 2 = 14 we get 3x = 12, so x = 4.\nThe answer is: the value of x is 4.", True, ""),
    (C1, "4", "From 3x + 2 = 44 we get 3x = 42, so x = 14.\nThe answer is: the value of x is 14.", False, ""),
    (
        C1,
        "18",
        "She sells 16 − 3 − 4 = 9 eggs at $2 each.\nAnswer: Janet makes $18 every day at the farmers' market.",
        True,
        "",
    ),
    (
        C1,
        "18",
        "She sells 16 − 3 − 5 = 8 eggs at $2 each.\nAnswer: Janet makes $16 every day at the farmers' market.",
        False,
        "",
    ),
    (
        C1,
        "2",
        "Working together they paint 1/3 + 1/6 = 1/2 of the wall per hour.\nThe answer is: it takes them 2 hours.",
        True,
        "",
    ),
    (
        C1,
        "2",
        "Working together they paint 1/3 + 1/10 of the wall per hour.\nThe answer is: it takes them 2.5 hours.",
        False,
        "",
    ),
    (C1, "60", "The triangle is equilateral.\nThe answer is: each angle is 60 degrees.", True, ""),
    (
        C1,
        "60",
        "The triangle is a right isosceles triangle.\nThe answer is: each acute angle is 45 degrees.",
        False,
        "",
    ),
    (
        C1,
        "12",
        "The perimeter is 4 × 3 = 12.\nThe answer is: the perimeter of the square is 12 cm.",
        True,
        "",
    ),
    (C1, "12", "The area is 3 × 3 = 9.\nThe answer is: the area of the square is 9 cm².", False, ""),
    # 2. No anchor and no box: the closing prose
    (
        C2,
        "239",
        "Strings of length n avoiding 'aa' satisfy a_n = a_{n-1} + a_{n-2}... after adding the cases we get 239.\nSo there are 239 such strings of length 6.",
        True,
        "",
    ),
    (C2, "239", "After adding the cases we get 293.\nSo there are 293 such strings of length 6.", False, ""),
    (
        C2,
        "\\frac{n(n-3)}{2}",
        "Each vertex joins n − 3 non-adjacent vertices and every diagonal is counted twice.\nThe number of diagonals is n(n-3)/2.",
        True,
        "",
    ),
    (
        C2,
        "\\frac{n(n-3)}{2}",
        "Each vertex joins n − 3 non-adjacent vertices.\nThe number of diagonals is n(n-3).",
        False,
        "forgets the halving",
    ),
    (
        C2,
        "No",
        "Modulo 3, x^2 − 3y^2 ≡ x^2, which is 0 or 1, but 17 ≡ 2 (mod 3).\nThere are no integer solutions to x^2 - 3y^2 = 17.",
        True,
        "",
    ),
    (
        C2,
        "none",
        "Modulo 3, x^2 − 3y^2 ≡ x^2, which is 0 or 1, but 17 ≡ 2 (mod 3).\nThere are no integer solutions to x^2 - 3y^2 = 17.",
        True,
        "",
    ),
    (
        C2,
        "Yes",
        "Modulo 3, x^2 − 3y^2 ≡ x^2, which is 0 or 1, but 17 ≡ 2 (mod 3).\nThere are no integer solutions to x^2 - 3y^2 = 17.",
        False,
        "",
    ),
    (
        C2,
        "No",
        "The labels sum to 36, so each face would need 36 · 4 / 6 = 24, but the corner at vertex 8 forces 25.\nIt is impossible to label the cube this way.",
        True,
        "",
    ),
    (
        C2,
        "Yes",
        "The labels sum to 36, so each face would need 24, but vertex 8 forces 25.\nIt is impossible to label the cube this way.",
        False,
        "",
    ),
    (
        C2,
        "a=3, b=-4",
        "Adding the equations gives 2a = 6, then substituting gives b.\nSolving the system we find a = 3 and b = -4.",
        True,
        "",
    ),
    (
        C2,
        "a=3, b=-4",
        "Adding the equations gives 2b = -8, then substituting gives a.\nSolving the system we find a = -4 and b = 3.",
        False,
        "swapped",
    ),
    (
        C2,
        "a=3, b=-4",
        "Adding the equations gives 2a = 6, then substituting gives b.\nSolving the system we find a = 3 and b = 4.",
        False,
        "sign of one part",
    ),
    (
        C2,
        "12",
        "There are 5 boys and 7 girls, and 5 + 7 = 12.\nHence the class has 12 students in total.",
        True,
        "",
    ),
    (
        C2,
        "12",
        "There are 5 boys and 7 girls.\nHence the class has 5 boys and 7 girls.",
        False,
        "parts, not the asked total",
    ),
    (
        C2,
        "2",
        "f(x) = (x − 1)^2 + 2 is smallest at x = 1.\nThus the smallest possible value is 2, attained when x = 1.",
        True,
        "",
    ),
    (
        C2,
        "1",
        "f(x) = (x − 1)^2 + 2 is smallest at x = 1.\nThus the smallest possible value is 2, attained when x = 1.",
        False,
        "asked for the minimum value; 1 is where it is attained",
    ),
    (
        C2,
        "x^2+2x+1",
        "Multiplying out (x + 1)(x + 1) term by term.\nExpanding, the polynomial is x^2 + 2x + 1.",
        True,
        "",
    ),
    (
        C2,
        "x^2+2x+1",
        "Multiplying out (x + 1)(x − 1) term by term.\nExpanding, the polynomial is x^2 + 2x - 1.",
        False,
        "",
    ),
    (
        C2,
        "7",
        "2^6 ≡ 1 (mod 9) and 100 = 6·16 + 4, so 2^100 ≡ 2^4 = 16 ≡ 7.\nTherefore 7 is the remainder when 2^{100} is divided by 9.",
        True,
        "the last number is the divisor",
    ),
    (
        C2,
        "9",
        "2^6 ≡ 1 (mod 9) and 100 = 6·16 + 4, so 2^100 ≡ 16 ≡ 7.\nTherefore 7 is the remainder when 2^{100} is divided by 9.",
        False,
        "",
    ),
    (
        C2,
        "7",
        "2^6 ≡ 1 (mod 9), so 2^100 ≡ 2^4 ≡ 7.\nTherefore, the remainder when 2^{100} is divided by 9 is 7.",
        True,
        "",
    ),
    (
        C2,
        "3, 5",
        "Case x ≥ 4 gives x = 5 and case x < 4 gives x = 3.\nChecking both cases, the solutions are x = 3 and x = 5.",
        True,
        "",
    ),
    (
        C2,
        "3, 5",
        "Case x ≥ 4 gives x = 5 and case x < 4 gives nothing.\nChecking both cases, the only solution is x = 5.",
        False,
        "one part of two",
    ),
    (C2, "No", "91 = 7 · 13.\nSince 91 has the divisor 7, 91 is not prime.", True, ""),
    (C2, "Yes", "91 = 7 · 13.\nSince 91 has the divisor 7, 91 is not prime.", False, ""),
    (
        C2,
        "Yes",
        "561 = 3 · 11 · 17 is squarefree and 2, 10 and 16 all divide 560.\nBy Korselt's criterion, 561 is indeed a Carmichael number.",
        True,
        "",
    ),
    (
        C2,
        "25",
        "The legs are 5√2 each, so the area is (5√2)^2 / 2 = 25.\nSo the area of triangle ABC is 25 square units.",
        True,
        "",
    ),
    (
        C2,
        "25",
        "The legs are 5 each, so the area is 5^2 / 2 = 12.5.\nSo the area of triangle ABC is 12.5 square units.",
        False,
        "",
    ),
    # 3. A Markdown heading that looks like GSM8K's marker
    (
        C3,
        "0.6875",
        "#### 1. Setting up\nEach toss is fair.\n#### 3. Probability of at least two heads\n1 − 5/16 = 11/16 = 0.6875.\n\nSo the probability is \\boxed{0.6875}.",
        True,
        "",
    ),
    (
        C3,
        "3",
        "#### 1. Setting up\nEach toss is fair.\n#### 3. Probability of at least two heads\n1 − 5/16 = 11/16 = 0.6875.\n\nSo the probability is \\boxed{0.6875}.",
        False,
        "the heading's number is no answer",
    ),
    (
        C3,
        "42",
        "#### 2) Counting\nThere are 6 · 7 = 42 ways.\n#### 3: Conclusion\nThe total is \\boxed{42}.",
        True,
        "",
    ),
    (
        C3,
        "2",
        "#### 2) Counting\nThere are 6 · 7 = 42 ways.\n#### 3: Conclusion\nThe total is \\boxed{42}.",
        False,
        "",
    ),
    (C3, "18", "She sells 16 − 3 − 4 = 9 eggs for 9 × 2 = 18 dollars.\n#### 18", True, ""),
    (C3, "18", "She sells 16 − 3 − 5 = 8 eggs for 8 × 2 = 16 dollars.\n#### 16", False, ""),
    # 4. Golds with alternatives, glosses and sentences
    (
        C4,
        "2*C(10, 5), or equivalently 504",
        "Choose the 5 seats, then the side: 2 · C(10, 5) = 2 · 252 = \\boxed{504}.",
        True,
        "",
    ),
    (
        C4,
        "2*C(10, 5), or equivalently 504",
        "Choose the 5 seats: C(10, 5) = \\boxed{252}.",
        False,
        "forgets the factor 2",
    ),
    (
        C4,
        "900 (i.e., all values)",
        "Every one of the 900 three-digit numbers works, so the count is \\boxed{900}.",
        True,
        "",
    ),
    (C4, "900 (i.e., all values)", "Only the multiples of 10 work, so the count is \\boxed{90}.", False, ""),
    (
        C4,
        "The limit exists and is equal to 3",
        "Dividing by n^2, the terms tend to 3/1, so the limit is \\boxed{3}.",
        True,
        "",
    ),
    (
        C4,
        "The limit exists and is equal to 3",
        "Dividing by n^2, the terms tend to 1/3, so the limit is \\boxed{\\frac{1}{3}}.",
        False,
        "",
    ),
    (
        C4,
        "The sequence is not periodic",
        "If it had period p then sqrt(2) would be rational. So the sequence is \\boxed{\\text{not periodic}}.",
        True,
        "",
    ),
    (
        C4,
        "The sequence is not periodic",
        "Computing terms, a_7 = a_1 and a_8 = a_2. So the sequence is \\boxed{\\text{periodic with period } 6}.",
        False,
        "",
    ),
    (
        C4,
        "$f(n)=n$, $g(n)=1$",
        "Substituting n = 1 forces g(1) = 1, and induction gives \\boxed{f(n)=n,\\ g(n)=1}.",
        True,
        "",
    ),
    (
        C4,
        "$f(n)=n$, $g(n)=1$",
        "Substituting n = 1 forces g(1) = 1, and induction gives \\boxed{f(n)=n,\\ g(n)=n}.",
        False,
        "one part of two",
    ),
    (C4, "$x=4$ or $x=-4$", "x^2 = 16 gives \\boxed{x = \\pm 4}.", True, "both solutions"),
    (
        C4,
        "$x=4$ or $x=-4$",
        "x^2 = 16 and x is a length here, so \\boxed{4}.",
        False,
        "one solution of two: 'or' lists solutions, it offers no alternative gold",
    ),
    (
        C4,
        "\\frac{1}{2} (that is, 0.5)",
        "One of the two outcomes wins, so the probability is \\boxed{0.5}.",
        True,
        "",
    ),
    (
        C4,
        "\\frac{1}{2} (that is, 0.5)",
        "One of the four outcomes wins, so the probability is \\boxed{0.25}.",
        False,
        "",
    ),
    (C4, "The answer is 7 days", "28 / 4 = 7, so it takes \\boxed{7} days.", True, ""),
    (C4, "The answer is 7 days", "28 / 4 + 1 = 8, so it takes \\boxed{8} days.", False, ""),
    (C4, "There are 20 such numbers.", "Counting by tens gives \\boxed{20}.", True, ""),
    (C4, "There are 20 such numbers.", "Counting by tens and including 100 gives \\boxed{21}.", False, ""),
    (
        C4,
        "$\\frac{\\sqrt{3}}{2}$ (approximately 0.866)",
        "sin 60° = \\boxed{\\frac{\\sqrt{3}}{2}}.",
        True,
        "",
    ),
    (
        C4,
        "$\\frac{\\sqrt{3}}{2}$ (approximately 0.866)",
        "sin 45° = \\boxed{\\frac{\\sqrt{2}}{2}}.",
        False,
        "",
    ),
    (C4, "12 (cm)", "The side is 48 / 4 = \\boxed{12} cm.", True, ""),
    (C4, "12 (cm)", "The side is 48 / 3 = \\boxed{16} cm.", False, ""),
    # 5. Equivalences people accept
    (C5, "(-1, 1)", "|x| < 1 means \\boxed{\\{x \\mid -1 < x < 1\\}}.", True, ""),
    (C5, "(-1, 1]", "|x| < 1 means \\boxed{\\{x \\mid -1 < x < 1\\}}.", False, "endpoint"),
    (
        C5,
        "(-\\infty,-6)\\cup(-6,\\frac32)",
        "The inequality holds for x < 3/2 and x = -6 is excluded: \\boxed{\\{x | x < \\frac32\\} - \\{-6\\}}.",
        True,
        "",
    ),
    (
        C5,
        "(-\\infty,-6)\\cup(-6,\\frac32)",
        "The inequality holds for x < 3/2: \\boxed{\\{x | x < \\frac32\\}}.",
        False,
        "misses the excluded point",
    ),
    (
        C5,
        "(4,8] \\cup [10,12)",
        "Combining both cases: \\boxed{4 < m \\leq 8 \\text{ or } 10 \\leq m < 12}.",
        True,
        "",
    ),
    (
        C5,
        "(4,8] \\cup [10,12)",
        "Combining both cases: \\boxed{4 < m < 8 \\text{ or } 10 \\leq m < 12}.",
        False,
        "endpoint 8",
    ),
    (
        C5,
        "(-\\infty,-2]\\cup\\{1\\}",
        "So the range of a is \\boxed{a \\leqslant -2 \\text{ or } a = 1}.",
        True,
        "",
    ),
    (
        C5,
        "(-\\infty,-2]\\cup\\{1\\}",
        "So the range of a is \\boxed{a \\leqslant -2}.",
        False,
        "one part of two",
    ),
    (C5, "\\frac{2\\pi}{3}", "The angle between the vectors is \\boxed{120^\\circ}.", True, ""),
    (C5, "\\frac{2\\pi}{3}", "The angle between the vectors is \\boxed{60^\\circ}.", False, ""),
    (C5, "120^\\circ", "cos θ = −1/2 gives θ = \\boxed{\\frac{2\\pi}{3}}.", True, ""),
    (C5, "120^\\circ", "cos θ = 1/2 gives θ = \\boxed{\\frac{\\pi}{3}}.", False, ""),
    (C5, "f(x)=x", "Setting y = 0 and then z = f(z) everywhere: \\boxed{f(z)=z}.", True, ""),
    (C5, "f(x)=x", "Setting y = 0 gives \\boxed{f(z)=-z}.", False, ""),
    (C5, "f(n)=2n+1007", "Induction on m gives \\boxed{f(m) = 2m + 1007}.", True, ""),
    (C5, "f(n)=2n+1007", "Induction on m gives \\boxed{f(m) = 2m + 1008}.", False, ""),
    (C5, "f(x)=x^2", "The only solution is \\boxed{x^2}.", True, "the right side of the definition"),
    (C5, "f(x)=x^2", "The only solution is \\boxed{x^3}.", False, ""),
    (C5, "n^2-n-1", "The bound is attained, so \\boxed{m_{\\max} = n^2-n-1}.", True, ""),
    (C5, "n^2-n-1", "The bound is attained, so \\boxed{m_{\\max} = n^2-n+1}.", False, ""),
    (C5, "12", "Counting the terms, it is the \\boxed{12^{\\mathrm{th}}} term.", True, ""),
    (C5, "12", "Counting the terms, it is the \\boxed{13^{\\text{th}}} term.", False, ""),
    (C5, "0", "The other roots are extraneous, so the answer is \\boxed{\\text{only } x=0}.", True, ""),
    (C5, "0", "The other roots are extraneous, so the answer is \\boxed{\\text{only } x=1}.", False, ""),
    (
        C5,
        "1, 3",
        "On [0, 2] the function ranges between its extremes: \\boxed{\\text{Minimum: } 1, \\text{ Maximum: } 3}.",
        True,
        "",
    ),
    (
        C5,
        "1, 3",
        "On [0, 2] the function ranges between its extremes: \\boxed{\\text{Minimum: } 1, \\text{ Maximum: } 4}.",
        False,
        "",
    ),
    (C5, "3<sup>x</sup>≥x<sup>2</sup>", "By induction, \\boxed{3^x \\geq x^2}.", True, ""),
    (C5, "3<sup>x</sup>≥x<sup>2</sup>", "By induction, \\boxed{3^x \\leq x^2}.", False, ""),
    (C5, "x＞2", "Dividing by 3 gives \\boxed{x > 2}.", True, ""),
    (C5, "x＞2", "Dividing by 3 gives \\boxed{x \\geq 2}.", False, ""),
    (C5, "a \\geqslant 1", "So the parameter satisfies \\boxed{a \\ge 1}.", True, ""),
    (C5, "a \\geqslant 1", "So the parameter satisfies \\boxed{a > 1}.", False, ""),
    (C5, "30\\textcirc", "The inscribed angle is half of 60°: \\boxed{30^\\circ}.", True, ""),
    (C5, "30\\textcirc", "The inscribed angle equals the central one: \\boxed{60^\\circ}.", False, ""),
    (C5, "(2, 3)", "Solving the system gives the point \\boxed{(3, 2)}.", False, "reordered pair"),
    (C5, "5 cm", "The radius is \\boxed{5} cm.", True, ""),
    (C5, "5 cm", "The radius is \\boxed{5 \\text{ m}}.", False, "wrong unit"),
    (C5, "6.25", "25/4 = \\boxed{\\frac{25}{4}}.", True, ""),
    (C5, "6.25", "25/4 ≈ \\boxed{6.3}.", False, "a rounding"),
    # 6. A correction after the answer
    (C6, "3", "The answer is \\boxed{2}. Wait, actually \\boxed{3}", True, ""),
    (C6, "2", "The answer is \\boxed{2}. Wait, actually \\boxed{3}", False, "graded on its final answer"),
    (
        C6,
        "8",
        "So the answer is \\boxed{6}.\n\nWait, I double counted: the correct count is \\boxed{8}.",
        True,
        "",
    ),
    (
        C6,
        "6",
        "So the answer is \\boxed{6}.\n\nWait, I double counted: the correct count is \\boxed{8}.",
        False,
        "",
    ),
    (C6, "10", "The final answer is 10. Let me verify: 4 + 6 = 10.", True, "a check is no correction"),
    (C6, "5", "The final answer is 10. Let me verify: 4 + 6 = 10, and half of it is 5.", False, ""),
    # 7. A set described in words or by difference
    (
        C7,
        "(-\\infty, -4) \\cup (-4, \\infty)",
        "The denominator vanishes at x = -4, so the domain is \\boxed{\\text{all real numbers except } -4}.",
        True,
        "",
    ),
    (
        C7,
        "(-\\infty, -4) \\cup (-4, \\infty)",
        "The denominator vanishes at x = 4, so the domain is \\boxed{\\text{all real numbers except } 4}.",
        False,
        "",
    ),
    (
        C7,
        "(-\\infty, -4) \\cup (-4, \\infty)",
        "The domain is \\boxed{\\mathbb{R} \\setminus \\{-4\\}}.",
        True,
        "",
    ),
    (
        C7,
        "(-\\infty, -4) \\cup (-4, \\infty)",
        "The domain is \\boxed{\\mathbb{R} \\setminus \\{4\\}}.",
        False,
        "",
    ),
    (
        C7,
        "(-\\infty, -4) \\cup (-4, \\infty)",
        "The domain is \\boxed{(-\\infty, -4)}.",
        False,
        "one part of two",
    ),
    (C7, "\\mathbb{R}", "Every x works, so the solution set is \\boxed{\\text{all real numbers}}.", True, ""),
    (
        C7,
        "\\mathbb{R}",
        "Only x > 0 works, so the solution set is \\boxed{\\text{all positive real numbers}}.",
        False,
        "",
    ),
    (
        C7,
        "[0, \\infty)",
        "The square root is defined for \\boxed{\\text{all nonnegative real numbers}}.",
        True,
        "",
    ),
    (
        C7,
        "[0, \\infty)",
        "The logarithm is defined for \\boxed{\\text{all positive real numbers}}.",
        False,
        "misses 0",
    ),
    (C7, "\\{1,2,3\\}", "Removing the excluded value: \\boxed{\\{1,2,3,4\\} \\setminus \\{4\\}}.", True, ""),
    (C7, "\\{1,2,3\\}", "Nothing is excluded: \\boxed{\\{1,2,3,4\\}}.", False, ""),
    # 8. A worked-solution gold whose answer line says there is no answer
    (
        C8,
        "The question does not say how many eggs she eats.\n#### None",
        "We are not told how many eggs she eats, so the answer cannot be determined from the information given.",
        True,
        "declines, as the gold does",
    ),
    (
        C8,
        "The question does not say how many eggs she eats.\n#### None",
        "Assuming she eats 3 eggs, she sells 13. The answer is 26.",
        False,
        "answers an unanswerable question",
    ),
    (
        C8,
        "None",
        "We are not told how many eggs she eats, so the answer cannot be determined from the information given.",
        True,
        "",
    ),
    # Step-by-step near misses of the common kind
    (BASE, "\\frac{9}{4}", "Simplifying, \\frac{18}{8} = \\boxed{\\frac{9}{4}}.", True, ""),
    (BASE, "\\frac{9}{4}", "Simplifying, \\frac{18}{8} ≈ \\boxed{2.2}.", False, "a rounding"),
    (BASE, "2\\sqrt{5}", "The distance is \\sqrt{20} = \\boxed{2\\sqrt{5}}.", True, ""),
    (BASE, "2\\sqrt{5}", "The distance is \\boxed{\\sqrt{5}}.", False, ""),
    (BASE, "(1, -2)", "The vertex is at \\boxed{(1, -2)}.", True, ""),
    (BASE, "(1, -2)", "The vertex is at \\boxed{(-2, 1)}.", False, "reordered pair"),
    # forms (helper, issue 33 part 2)
    # Units: the same quantity in another unit is correct; another unit, scale or dimension is not.
    (C5, "5 m", "The rope is 5 m long, that is \\boxed{500 \\text{ cm}}.", True, "the same length in cm"),
    (C5, "5 m", "The rope is \\boxed{50 \\text{ cm}} long.", False, "wrong scale"),
    (
        C5,
        "2 hours",
        "At 30 km/h, 60 km takes \\boxed{120 \\text{ minutes}}.",
        True,
        "the same time in minutes",
    ),
    (C5, "2 hours", "At 30 km/h, 60 km takes \\boxed{2 \\text{ minutes}}.", False, "wrong unit"),
    (C5, "12 cm^2", "The area is 3 × 4 = \\boxed{12\\,\\mathrm{cm}^2}.", True, ""),
    (C5, "12 cm^2", "The area is 3 × 4 = \\boxed{12 \\text{ m}^2}.", False, "wrong unit"),
    (C5, "12 cm^2", "The area is \\boxed{12 \\text{ cm}}.", False, "a length for an area"),
    (C5, "1.5 kg", "The bag holds \\boxed{1500 \\text{ g}} of flour.", True, "the same mass in grams"),
    (C5, "1.5 kg", "The bag holds \\boxed{150 \\text{ g}} of flour.", False, "wrong scale"),
    (
        C5,
        "\\$2.50",
        "Five coins of 50 cents make \\boxed{250 \\text{ cents}}.",
        True,
        "the same amount in cents",
    ),
    (C5, "\\$2.50", "Five coins of 50 cents make \\boxed{25 \\text{ cents}}.", False, "wrong scale"),
    (C5, "3 km", "The distance is \\boxed{3 \\text{ kilometers}}.", True, ""),
    (C5, "3 km", "The distance is \\boxed{3 \\text{ miles}}.", False, "wrong unit"),
    (C5, "4 m", "The top of the ladder is at a height of $\\boxed{400}$ cm.", True, "the unit after the box"),
    (
        C5,
        "4 m",
        "The top of the ladder is at a height of $\\boxed{4}$ cm.",
        False,
        "wrong unit after the box",
    ),
    (C5, "4 m", "The ladder reaches $\\boxed{400}$ cm up the wall.", True, "the unit after the box"),
    (C5, "4 m", "The ladder reaches $\\boxed{4}$ cm up the wall.", False, "wrong unit after the box"),
    # HTML and Unicode notation in golds and answers.
    (C5, "x<sub>1</sub> = 2", "The first root is \\boxed{x_1 = 2}.", True, ""),
    (C5, "x<sub>1</sub> = 2", "The first root is \\boxed{x_1 = 3}.", False, ""),
    (C5, "x &le; 5", "Hence \\boxed{x \\le 5}.", True, ""),
    (C5, "x &le; 5", "Hence \\boxed{x < 5}.", False, "endpoint"),
    (C5, "&minus;7", "The minimum value is \\boxed{-7}.", True, ""),
    (C5, "&minus;7", "The minimum value is \\boxed{7}.", False, "sign"),
    (C5, "2<sup>10</sup>", "There are \\boxed{1024} subsets.", True, ""),
    (C5, "2<sup>10</sup>", "There are \\boxed{1023} nonempty subsets.", False, "one less"),
    (C5, "√(x+1)", "The inverse is \\boxed{\\sqrt{x+1}}.", True, ""),
    (C5, "√(x+1)", "The inverse is \\boxed{\\sqrt{x}+1}.", False, "the root of x alone"),
    (C5, "⅓", "The probability is 2/6 = \\boxed{\\frac{1}{3}}.", True, ""),
    (C5, "⅓", "The probability is about \\boxed{0.3}.", False, "a rounding"),
    # A set of reals minus finitely many points.
    (
        C7,
        "(-\\infty,-6)\\cup(-6,\\infty)",
        "x = -6 makes the denominator zero: \\boxed{\\{x \\mid x \\ne -6\\}}.",
        True,
        "",
    ),
    (
        C7,
        "(-\\infty,-6)\\cup(-6,\\infty)",
        "x = 6 makes the denominator zero: \\boxed{\\{x \\mid x \\ne 6\\}}.",
        False,
        "wrong point",
    ),
    (
        C7,
        "(-\\infty,1)\\cup(1,3)",
        "We need x < 3 and x ≠ 1: \\boxed{(-\\infty, 3) \\setminus \\{1\\}}.",
        True,
        "",
    ),
    (
        C7,
        "(-\\infty,1)\\cup(1,3)",
        "We need x < 3 and x ≠ 1: \\boxed{(-\\infty, 3] \\setminus \\{1\\}}.",
        False,
        "closed at 3",
    ),
    (C7, "(-\\infty,1)\\cup(1,3)", "So \\boxed{\\{x \\mid x < 3, x \\neq 1\\}}.", True, ""),
    (C7, "(-\\infty,1)\\cup(1,3)", "So \\boxed{\\{x \\mid x < 3, x \\neq 2\\}}.", False, "wrong point"),
    (
        C7,
        "(-\\infty,-2)\\cup(-2,2)\\cup(2,\\infty)",
        "The domain is \\boxed{\\mathbb{R} \\setminus \\{-2, 2\\}}.",
        True,
        "",
    ),
    (
        C7,
        "(-\\infty,-2)\\cup(-2,2)\\cup(2,\\infty)",
        "The domain is \\boxed{\\mathbb{R} \\setminus \\{2\\}}.",
        False,
        "one point of two",
    ),
    # A sentence gold asserts its predicate.
    (
        C4,
        "The sequence is not periodic",
        "Hence the sequence is not periodic.",
        True,
        "the closing sentence asserts the gold",
    ),
    (
        C4,
        "The sequence is not periodic",
        "So the sequence is \\boxed{\\text{periodic}}.",
        False,
        "negated predicate",
    ),
    (
        C4,
        "The triangle is a right triangle",
        "By the converse of Pythagoras the triangle is \\boxed{\\text{a right triangle}}.",
        True,
        "",
    ),
    (
        C4,
        "The triangle is a right triangle",
        "The triangle is \\boxed{\\text{an isosceles triangle}}.",
        False,
        "",
    ),
]


#: Issue 33, second pass: closing prose read as a careful grader reads it (math spans, several named
#: values, computations in the sentence, the main verb's number) and yes / no stated in words; each
#: correct item beside its near miss. Ids `constructed/pNNN` (a list of its own, so that the items
#: above keep their ids).
_W = "We work through the problem step by step.\n\n"
PROSE: list[tuple[str, str, str, bool, str]] = [
    (C2, "60", _W + "Hence the average speed is 60 km per hour over 3 hours.", True, ""),
    (C2, "3", _W + "Hence the average speed is 60 km per hour over 3 hours.", False, "the given time"),
    (C2, "60", _W + "So the train covers 180 km in 3 hours.", False, "the distance, not the speed"),
    (C2, "(2, 7)", _W + "Thus $x = 2$ and $y = 7$.", True, ""),
    (C2, "(2, 7)", _W + "Thus $x = 7$ and $y = 2$.", False, "swapped"),
    (C2, "x=2, y=7", _W + "Thus $x = 2$.", False, "one part of two"),
    (C2, "-1, 4", _W + "So the roots are $x = -1$ and $x = 4$.", True, ""),
    (C2, "4", _W + "So the roots are $x = -1$ and $x = 4$.", False, "the gold has one root"),
    (C2, "14", _W + "Therefore she needs 14 more stickers to have 50 in total.", True, ""),
    (
        C2,
        "50",
        _W + "Therefore she needs 14 more stickers to have 50 in total.",
        False,
        "the target, not the answer",
    ),
    (C2, "48", _W + "So the area of the garden is 48 square meters.", True, ""),
    (C2, "5", _W + "It follows that $k = 5$ is the minimum.", True, ""),
    (C2, "2", _W + "The remainder when $2^{100}$ is divided by 7 is $2$.", True, ""),
    (C2, "7", _W + "The remainder when $2^{100}$ is divided by 7 is $2$.", False, "the divisor"),
    (C2, "56", _W + "So there are $\\binom{8}{3} = 56$ ways.", True, ""),
    (C2, "f(x)=x^2+1", _W + "Hence the function is $f(x) = x^2 + 1$ for every real $x$.", True, ""),
    (C2, "f(x)=x^2+1", _W + "Hence the function is $f(x) = x^2 - 1$ for every real $x$.", False, "sign"),
    (
        C2,
        "f(x)=x",
        "Substituting y = 0 gives f(f(x)) = x.\nThus $f(x) = x$ for all $x \\in \\mathbb{R}$.",
        True,
        "",
    ),
    (
        C2,
        "f(x)=x",
        "Substituting y = 0 gives f(f(x)) = 4x.\nThus $f(x) = 2x$ for all $x \\in \\mathbb{R}$.",
        False,
        "",
    ),
    (C2, "\\frac12", _W + "Hence the maximum value is $\\frac{1}{2}$, attained at $x = 1$.", True, ""),
    (
        C2,
        "1",
        _W + "Hence the maximum value is $\\frac{1}{2}$, attained at $x = 1$.",
        False,
        "the point, not the value",
    ),
    (C2, "3", _W + "The minimum value of the expression is 3, which occurs when $a=b=c=1$.", True, ""),
    (
        C2,
        "1",
        _W + "The minimum value of the expression is 3, which occurs when $a=b=c=1$.",
        False,
        "the point",
    ),
    (C2, "5", _W + "Therefore $n = 5$ works, and it is the smallest such $n$.", True, ""),
    (C2, "6", _W + "Therefore $n = 5$ works, and it is the smallest such $n$.", False, ""),
    (C2, "4", _W + "We conclude that $x=4$ is the only real root of $x^3 - 64 = 0$.", True, ""),
    (C2, "45", _W + "In total, she spent 45 dollars on 3 books.", True, ""),
    (C2, "3", _W + "In total, she spent 45 dollars on 3 books.", False, "the count of books"),
    (C2, "6", _W + "So it takes 6 hours for 3 workers to finish.", True, ""),
    (C2, "3", _W + "So it takes 6 hours for 3 workers to finish.", False, ""),
    (C2, "12", _W + "So Tom has 12 marbles left after giving 3 to Ann.", True, ""),
    (C2, "3", _W + "So Tom has 12 marbles left after giving 3 to Ann.", False, ""),
    (C2, "4", _W + "So the remainder is 4 when divided by 7.", True, ""),
    (C2, "p=2, q=3", _W + "So $p = 2$, $q = 3$.", True, ""),
    (C2, "p=2, q=3", _W + "So $p = 3$, $q = 2$.", False, "swapped"),
    (C2, "8", _W + "In the end, 8 of the 20 apples were red.", True, ""),
    (C2, "20", _W + "In the end, 8 of the 20 apples were red.", False, "the whole, not the part"),
    (C2, "35", _W + "So Maria has 35 dollars left after buying 3 books for 5 dollars each.", True, ""),
    (C2, "15", _W + "So Maria has 35 dollars left after buying 3 books for 5 dollars each.", False, ""),
    (C2, "7", _W + "So the minimum number of moves is 7 when there are 3 disks.", True, ""),
    (C2, "3", _W + "So the minimum number of moves is 7 when there are 3 disks.", False, ""),
    (C2, "(3,-2)", _W + "Thus the ordered pair is $(3, -2)$.", True, ""),
    (C2, "(3,-2)", _W + "Thus the ordered pair is $(-2, 3)$.", False, "reordered"),
    (C2, "a=3, b=-4", _W + "Solving the system we find $a = -4$ and $b = 3$.", False, "swapped"),
    (C2, "8", _W + "So he will be 5+3=8 in 3 years.", True, ""),
    (C2, "3", _W + "So he will be 5+3=8 in 3 years.", False, ""),
    (C2, "48", _W + "So, there are 16 x 3 = 48 kilograms of flour in 3 bags.", True, ""),
    (C2, "16", _W + "So, there are 16 x 3 = 48 kilograms of flour in 3 bags.", False, ""),
    # A closing check of the answer is not the answer.
    (C2, "36", "3 boxes with 12 apples each.\nSo there are 36 apples.\n\nCheck: 36 / 3 = 12 ✓", True, ""),
    (
        C2,
        "12",
        "3 boxes with 12 apples each.\nSo there are 36 apples.\n\nCheck: 36 / 3 = 12 ✓",
        False,
        "the check's value",
    ),
    (C2, "5", "So Mark needs 5 more days.\n\n**Double-check:** 5 × 20 = 100 pages. ✓", True, ""),
    (C2, "100", "So Mark needs 5 more days.\n\n**Double-check:** 5 × 20 = 100 pages. ✓", False, ""),
    # Yes / no and none stated in words.
    (C2, "No", _W + "Thus it is not possible to tile the board with these pieces.", True, ""),
    (C2, "No", _W + "Thus it is possible to tile the board with these pieces.", False, ""),
    (C2, "No", _W + "Therefore, such a triangle does not exist.", True, ""),
    (C2, "Yes", _W + "Therefore, such a triangle does not exist.", False, ""),
    (C2, "Yes", _W + "So yes, every such number is divisible by 3.", True, ""),
    (C2, "Yes", _W + "Thus such a coloring exists.", True, ""),
    (C2, "No", _W + "Thus such a coloring exists.", False, ""),
    (C2, "No", _W + "The answer is no, since 2 is even.", True, ""),
    (C2, "None", _W + "There is no such function.", True, ""),
    (C2, "f(x)=x", _W + "There is no such function.", False, ""),
    (C2, "No", _W + "Final answer: no such $n$ exists.", True, ""),
    (C1, "5", _W + "The answer is 5!", True, "an exclamation"),
    (C1, "6", _W + "The answer is 5!", False, ""),
    # Forms: a choice's text instead of its letter, a scale word, solutions joined by "or".
    (C5, "(B) 12", _W + "The answer is $\\boxed{12}$", True, "the option's content"),
    (C5, "(B) 12", _W + "The answer is $\\boxed{13}$", False, ""),
    (C5, "1500000", _W + "The answer is: 1.5 million", True, ""),
    (C5, "150000", _W + "The answer is: 1.5 million", False, "a power of ten off"),
    (C5, "1, 2", _W + "The final answer is $\\boxed{n = 1 \\text{ or } n = 2}$.", True, ""),
    (C5, "1, 3", _W + "The final answer is $\\boxed{n = 1 \\text{ or } n = 2}$.", False, ""),
    (
        C5,
        "\\frac{\\pi}{4}+k\\pi",
        _W + "So $x = \\boxed{\\frac{\\pi}{4} + k\\pi, k \\in \\mathbb{Z}}$.",
        True,
        "",
    ),
    (
        C5,
        "\\frac{\\pi}{4}+k\\pi",
        _W + "So $x = \\boxed{\\frac{\\pi}{4} + 2k\\pi, k \\in \\mathbb{Z}}$.",
        False,
        "half the solutions",
    ),
]


def _prose() -> list[dict]:
    return [
        {
            "id": f"constructed/p{i:03d}",
            "source": "constructed",
            "cls": cls,
            "gold": gold,
            "response": response,
            "label": label,
            "doubtful": False,
            "note": note,
        }
        for i, (cls, gold, response, label, note) in enumerate(PROSE)
    ]


def _last_line_numbers(text: str) -> list[str]:
    import re

    last = text.strip().split("\n")[-1]
    return re.findall(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.])", last.replace(",", ""))


def _gsm8k_solutions() -> list[dict]:
    """GSM8K's own worked solutions (written by people, correct), without their `####` line: they
    state the answer only in prose. Every solution whose last line holds two or more numbers (the
    hard case for a last-number rule), in dataset order, the first 80; the first 40 of them also
    against a near-miss gold (another number of that line). GSM8K, MIT licence (data/README.md)."""
    items = json.loads((ROOT / "data" / "answer_check" / "gsm8k_xwin.json").read_text(encoding="utf-8"))
    out: list[dict] = []
    picked = 0
    for k, it in enumerate(items):
        nums = _last_line_numbers(it["solution"])
        gold = it["answer"].replace(",", "")
        if len(set(nums)) < 2 or gold not in nums:
            continue
        base = {"source": "gsm8k", "cls": C2, "response": it["solution"], "doubtful": False}
        out.append({"id": f"gsm8k/{k:04d}", **base, "gold": it["answer"], "label": True, "note": ""})
        if picked < 40:
            other = next(n for n in nums if n != gold and float(n) != float(gold))
            out.append(
                {
                    "id": f"gsm8k/{k:04d}_miss",
                    **base,
                    "gold": other,
                    "label": False,
                    "note": "another number of the closing line",
                }
            )
        picked += 1
        if picked == 80:
            break
    return out


def _qwen() -> list[dict]:
    rows = [json.loads(x) for x in QWEN.read_text(encoding="utf-8").splitlines() if x.strip()]
    rejected = [r for r in rows if not all(r[v] for v in QWEN_VERDICTS)]
    accepted: dict[int, list[dict]] = {}
    for r in rows:
        if all(r[v] for v in QWEN_VERDICTS):
            accepted.setdefault(r["idx"], []).append(r)
    # One accepted response per problem, then a second one until 128 (a fixed, documented choice).
    chosen = [accepted[k][k % len(accepted[k])] for k in sorted(accepted)]
    for k in sorted(accepted):
        group = accepted[k]
        if len(group) > 1 and len(chosen) < 128:
            first = group[k % len(group)]
            second = group[(k + 3) % len(group)]
            chosen.append(second if second is not first else group[(k + 4) % len(group)])
    out = []
    for r in sorted(rejected + chosen, key=lambda r: (r["idx"], r["sample"])):
        key = (r["idx"], r["sample"])
        was_rejected = r in rejected
        label = key in QWEN_CORRECT_ALTHOUGH_REJECTED or not was_rejected
        note = ""
        if key in QWEN_CORRECT_ALTHOUGH_REJECTED:
            note = "every recorded grader rejects it; a person accepts it"
        elif key in QWEN_DOUBTFUL:
            note = "degenerates into noise after the boxed answer"
        out.append(
            {
                "id": f"qwen25math/{r['idx']:03d}_{r['sample']}",
                "source": "qwen25math",
                "cls": BASE,
                "gold": r["gold"],
                "response": r["response"],
                "label": label,
                "doubtful": key in QWEN_DOUBTFUL,
                "note": note,
            }
        )
    return out


def _nemo() -> list[dict]:
    rows = [json.loads(x) for x in NEMO.read_text(encoding="utf-8").splitlines() if x.strip()]
    out = []
    for r in rows:
        num = r["id"].rsplit("/", 1)[1]
        if num not in NEMO_LABELS:
            continue
        label, doubtful, note = NEMO_LABELS[num]
        out.append(
            {
                "id": f"nemo_skills/{num}",
                "source": "nemo_skills",
                "cls": C2 if num in {"0121", "0135"} else BASE,
                "gold": r["gold"],
                "response": r["pred"],
                "label": label,
                "doubtful": doubtful,
                "note": note,
            }
        )
    return out


def _constructed() -> list[dict]:
    out = []
    for i, (cls, gold, response, label, note) in enumerate(CONSTRUCTED):
        out.append(
            {
                "id": f"constructed/{i:03d}",
                "source": "constructed",
                "cls": cls,
                "gold": gold,
                "response": response,
                "label": label,
                "doubtful": False,
                "note": note,
            }
        )
    return out


def build() -> list[dict]:
    """Every item of the development set, in file order."""
    return _qwen() + _nemo() + _constructed() + _prose() + _gsm8k_solutions()


def main() -> None:
    items = build()
    ids = [it["id"] for it in items]
    assert len(ids) == len(set(ids)), "duplicate ids"
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("".join(json.dumps(it, ensure_ascii=False) + "\n" for it in items), encoding="utf-8")
    pos = sum(it["label"] for it in items)
    print(f"{len(items)} items ({pos} correct, {len(items) - pos} wrong) -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
