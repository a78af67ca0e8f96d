"""Which gold each framework's metric compares with, per task family, as its own code derives it.

Every family below agrees with the general rule of ``rust/gold.rs`` (the last box of a worked
solution, else its ``####`` line, else its answer sentence, else the gold as written), so one rule
serves all of them; this table says, in the summary, what the framework itself does, and that a task
we do not know is scored with the general rule.
"""

from __future__ import annotations

import re

__all__ = ["gold_source"]

# (format, task pattern, what the framework's metric compares with)
_FAMILIES: list[tuple[str, re.Pattern[str], str]] = [
    (
        "lm_eval",
        re.compile(r"^gsm8k_cot"),
        "lm-eval gsm8k-cot / self-consistency: target = the answer after `#### ` (doc_to_target)",
    ),
    (
        "lm_eval",
        re.compile(r"^gsm8k"),
        "lm-eval gsm8k: target = the whole GSM8K answer; exact_match ignores `(?s).*#### ` (the #### line)",
    ),
    (
        "lm_eval",
        re.compile(r"^minerva_math"),
        "lm-eval minerva_math: process_docs answer = normalize_final_answer(last boxed of the solution)",
    ),
    (
        "lm_eval",
        re.compile(r"^hendrycks_math"),
        "lm-eval hendrycks_math: process_docs answer = remove_boxed(last boxed of the solution)",
    ),
    (
        "lighteval",
        re.compile(r"^(?:math_500|math|math_hard|aime|amc)", re.IGNORECASE),
        "lighteval math metrics: the gold choice (`ANSWER: <solution>` for math_500) read by its last "
        "box (math-verify's LaTeX extraction)",
    ),
    (
        "lighteval",
        re.compile(r"^gsm8k", re.IGNORECASE),
        "lighteval gsm8k: the gold choice `<solution>\\n#### n`, read by its #### line",
    ),
    (
        "opencompass",
        re.compile(r"gsm8k", re.IGNORECASE),
        "OpenCompass gsm8k_dataset_postprocess: the #### line",
    ),
    (
        "opencompass",
        re.compile(r"math", re.IGNORECASE),
        "OpenCompass MATH: the predictions file's gold (MATHDataset: the solution's last box; MATH-500's "
        "CustomDataset: the whole solution, read by its last box); MATHVerifyEvaluator's details hold "
        "a parse, not the gold",
    ),
    (
        "evalscope",
        re.compile(r""),
        "EvalScope `target`: the record's gold as its adapter sets it (GSM8K: after `####`; "
        "MATH-500: `answer`)",
    ),
    (
        "qwen_math",
        re.compile(r""),
        "Qwen2.5-Math grades against `gt` (its normalisation of the dataset answer, else of the solution's "
        "last box); read here: the record's `answer` (the dataset's) where it has one, else `gt`",
    ),
    ("seed", re.compile(r""), "the seed's `answer` field, as written"),
]


def gold_source(fmt: str, task: str | None) -> str:
    """What the framework's metric compares with for this task, or that the general rule applies."""
    name = (task or "").split("|")[0]
    for f, pattern, text in _FAMILIES:
        if f == fmt and pattern.search(name):
            return text
    return "task family not known: the general rule (last box, #### line, answer sentence, as written)"
