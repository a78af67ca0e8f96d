"""The fixed xwin corpus: tricky inputs for the seed checker, with the oracle's answers.

``tests/data/xwin_corpus.jsonl`` holds one JSON object per line::

    {"fn": "extract_answer" | "simple_answer_check" | "latex_answer_check",
     "args": {...keyword arguments of the oracle function...},
     "expected": <result>}            # or "raises": "<exception class name>"

``split`` is stored as given to the seed (a list, or null for latex_answer_check meaning "no extraction"), so
the file is usable from Rust tests as well. ``tests/test_xwin_reference.py`` checks that the file still equals
what the oracle computes; regenerate it with ``python -m tests.reference.xwin_corpus`` from the repo root.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.reference import xwin_seed as seed

CORPUS_PATH = Path(__file__).resolve().parents[1] / "data" / "xwin_corpus.jsonl"
SPLIT = seed.SEED_SPLIT

# Extraction stress: display math, brackets, hyphens, scientific notation, headings, boxes, quotes, commas,
# Unicode digits, tabs, anchors in odd places.
TRICKY_TEXTS = [
    "",
    "   \n",
    "The answer is",
    "The answer is:",
    "The answer is: ",
    "####",
    "#### 42",
    "The answer is: 12\n#### Check",
    "#### 5\nThe answer is: 6",
    "The answer is: 12. The answer is correct because it adds up.",
    "The answer is 7, and The answer is: 8.",
    "The final answer is 12",
    "the answer is 12",
    "So we get $$x = \\frac{1}{2}$$",
    "So $$x = 3$$ and then 4",
    "\\[ x = \\frac{1}{2} \\]",
    "\\( y = 7 \\)",
    "the zoo-keeper fed 3 Post-it notes",
    "in 2023-11-23 we had 5-",
    "about 3.5e-3 grams",
    "roughly 1.2e1 m",
    "1e5 people",
    "6.02E23 atoms",
    "\\boxed{\\boxed{3}}",
    "\\boxed{1} and later \\boxed{\\frac{1}{2}}",
    '\\boxed{"}"} then 4',
    "\\boxed{it's 5}",
    "\\boxed {5}",
    "\\boxed\n{6}",
    "\\boxed{a",
    "\\fbox{3}",
    "\\boxed 5",
    "\\mbox{7 cm} and 8",
    "\\boxed{1,234}",
    "It costs $1,234,567 in total",
    "pay 1,2345 now",
    "1,234,5678",
    "12,345, and",
    "2,500,00",
    "1,234.56",
    "+1,234",
    "--5",
    "٣ apples and ٤ pears",
    "x² is 4",
    "a\t$x\ty$\tb",
    "\\boxed{\ta}",
    "$5$ boxes",
    "$400 \\text{meters}$",
    "400 \\text{meters}",
    "The answer is: $\\frac{3}{4}$.",
    "The answer is: \\boxed{\\frac{1}{2}}",
    "The answer is: 1/3",
    "The answer is: 3:15",
    "The answer is: 1<2/3",
    "The answer is: 1#2/3",
    "The answer is: 0x1/2",
    "The answer is: 1.0e3 2000/2",
    "The answer is: 50%",
    "The answer is: 20 cm^2",
    "The answer is: 1 2/3",
    "The answer is: 5. 3",
    "The answer is: 5/0",
    "The answer is: 2^3/4",
    "The answer is: ١٢٣٤",
    "The answer is: x=5",
    "The answer is: 0.[3]",
    "The answer is: \\sqrt{169}",
    "The answer is: 7x^2-63",
    "The answer is: (3, \\frac{\\pi}{2})",
    "The answer is: \\{3,5\\}",
    "The answer is: BA",
    "The answer is: \\Delta",
    "1/2/3",
    "-1/-2",
    ".5 and -.5",
    "a $ b",
    "$a$$b$",
    "ab\r\t$x\ty$",  # expandtabs restarts the column after \r and \n
    "line\n\t\\boxed{\t5}",
    "The answer is:\u00a05",  # no-break space: not the anchor "The answer is: "
    "$5$\u00a0boxes",
    "1\u00a0000 and 1\u2009000",
]
SIMPLE_GTS = ["", "12", "5", "0.5", "1234567", "-5", "3", "1001 999", "0", "abc", "1/3", "2,125"]
LATEX_GTS = ["5", "\\frac{1}{2}", "12", "7(x-3)(x+3)", "AB"]
LATEX_PAIRS = [
    ("0.428571", "\\frac{3}{7}"),
    ("3/7", "\\frac{3}{7}"),
    ("1.5708", "\\frac{\\pi}{2}"),
    ("0.25", "\\frac14"),
    ("0.99999", "1"),
    ("1000.4", "1000"),
    ("7x^2-63", "7(x-3)(x+3)"),
    ("\\sqrt{169}", "13"),
    ("5\\sqrt{2}", "\\sqrt{50}"),
    ("5\\sqrt2", "\\sqrt{50}"),
    ("\\dfrac{1}{2}", "\\frac{1}{2}"),
    ("x=5", "5"),
    ("2x+3", "y = 2x + 3"),
    ("$400 \\text{meters}$", "400"),
    ("400 \\text{meters}", "400"),
    ("$5$ boxes", "5"),
    ("(3, \\frac{\\pi}{2})", "\\left( 3, \\frac{\\pi}{2} \\right)"),
    ("3, 5", "5, 3"),
    ("(-∞,-\\frac{13}{6})∪[2,∞)", "(-∞,-13/6)∪[2,∞)"),
    ("1 \\frac{1}{2}", "\\frac{3}{2}"),
    ("10\\,000", "10000"),
    ("10,000", "10000"),
    ("10{,}000", "10000"),
    ("BA", "AB"),
    ("neve", "even"),
    ("(b)", "\\text{(B)}"),
    ("\\Delta", "\\delta"),
    ("0.[3]", "\\frac13"),
    ("$$", ""),
    ("5", ""),
    ("90^\\circ", "90"),
    ("\\$5", "5"),
    ("50\\%", "50"),
    ("π", "\\pi"),
    ("\\textbf{7}", "7"),
    ("x^2-4=0", "x^2-4"),
    ("1e3", "1000"),
    ("inf", "infinity"),
    ("\\boxed{\\frac{1}{2}}", "0.5"),
]


def _call(fn: str, args: dict[str, Any]) -> dict[str, Any]:
    try:
        return {"expected": getattr(seed, fn)(**args)}
    except Exception as exc:  # the seed crashes on these; its harness records them as wrong
        return {"raises": type(exc).__name__}


def _entries() -> Iterator[tuple[str, dict[str, Any]]]:
    for text in TRICKY_TEXTS:
        for split in (SPLIT, [], ["####"]):
            for policy in ("flex", "strict"):
                yield "extract_answer", {"text": text, "split": split, "extract_policy": policy}
        for gt in SIMPLE_GTS:
            yield (
                "simple_answer_check",
                {"model": text, "gt": gt, "extract_policy": "flex", "eval_policy": "strict", "split": SPLIT},
            )
        for gt in ("5", "12"):
            for policy in ("model_include_gt", "gt_include_model"):
                yield (
                    "simple_answer_check",
                    {
                        "model": text,
                        "gt": gt,
                        "extract_policy": "flex",
                        "eval_policy": policy,
                        "split": SPLIT,
                    },
                )
        for gt in LATEX_GTS:
            yield (
                "latex_answer_check",
                {
                    "model": text,
                    "gt": gt,
                    "split": SPLIT,
                    "extract_policy": "flex",
                    "eval_policy": "aggressive",
                },
            )
    for model, gt in LATEX_PAIRS:
        for split in (None, SPLIT):
            for policy in ("aggressive", "conservative"):
                yield (
                    "latex_answer_check",
                    {
                        "model": model,
                        "gt": gt,
                        "split": split,
                        "extract_policy": "flex",
                        "eval_policy": policy,
                    },
                )


def build_corpus() -> list[dict[str, Any]]:
    """Every corpus entry with the oracle's current answer."""
    return [{"fn": fn, "args": args, **_call(fn, args)} for fn, args in _entries()]


def load_corpus() -> list[dict[str, Any]]:
    with CORPUS_PATH.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def main() -> None:
    CORPUS_PATH.parent.mkdir(parents=True, exist_ok=True)
    with CORPUS_PATH.open("w", encoding="utf-8") as fh:
        for entry in build_corpus():
            fh.write(json.dumps(entry, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
