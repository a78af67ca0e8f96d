"""Make the hand-converted fixtures in tests/data/logs/: layouts no installable framework writes today.

    python3 scripts/log_fixtures/make_small_layouts.py

- ``qwen_math/Qwen2.5-Math-7B-Instruct/math_eval/math/test_qwen25-math-cot_-1_seed0_t0.0_s0_e-1.jsonl``: the
  output layout of QwenLM/Qwen2.5-Math ``evaluation/math_eval.py`` + ``evaluate.py`` (not on PyPI): one
  object per problem with ``idx``, ``question``, ``gt_cot``, ``gt``, ``level``, ``code`` (the 8 sampled
  responses), ``pred`` (Qwen's extracted answers), ``report`` and ``score`` (Qwen's ``math_equal``
  verdicts). Responses, extracted answers and verdicts are REAL
  (data/answer_check/qwen25math_math_cot_100_graded.jsonl, itself Qwen's ``math_cot_100.jsonl`` flattened);
  the question text is a placeholder (that file has none). First 12 problems.
- ``opencompass_old/.../results/canned-gsm8k/gsm8k.json`` (evaluator rows, OpenCompass <= 0.3: ``details``
  is the evaluator's list of ``{"pred", "answer", "correct"}``) and ``opencompass_formatted/.../gsm8k.json``
  (``OpenICLEvalTask.format_details``: ``{"type": "GEN", "0": {"prompt", "origin_prediction", "predictions",
  "references", "correct"}}``): converted from the real OpenCompass 0.5.4 fixture of make_opencompass.py,
  with the same values in the older shapes.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests/data/logs"


def qwen() -> None:
    rows = [json.loads(x) for x in (ROOT / "data/answer_check/qwen25math_math_cot_100_graded.jsonl").open()]
    by: dict[int, list[dict]] = defaultdict(list)
    for r in rows:
        by[r["idx"]].append(r)
    out = LOGS / "qwen_math/Qwen2.5-Math-7B-Instruct/math_eval/math"
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for idx in sorted(by)[:12]:
        s = sorted(by[idx], key=lambda r: r["sample"])
        lines.append(
            {
                "idx": idx,
                "question": f"MATH problem {idx} ({s[0]['level']})",
                "gt_cot": "None",
                "gt": s[0]["gold"],
                "level": s[0]["level"],
                "code": [r["response"] for r in s],
                "pred": [r["qwen_extracted"] for r in s],
                "report": [None for _ in s],
                "score": [r["qwen_grader_verdict"] for r in s],
            }
        )
    name = "test_qwen25-math-cot_-1_seed0_t0.0_s0_e-1.jsonl"
    (out / name).write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8"
    )


def opencompass_old() -> None:
    src_run = LOGS / "opencompass/default/20260101_000000"
    res = json.loads((src_run / "results/canned-gsm8k/gsm8k.json").read_text())
    preds = json.loads((src_run / "predictions/canned-gsm8k/gsm8k.json").read_text())
    old = {
        "accuracy": res["accuracy"],
        "details": [
            {"pred": d["pred"][0], "answer": d["answer"][0], "correct": d["correct"][0]}
            for d in res["details"]
        ],
    }
    target = LOGS / "opencompass_old/default/20240101_000000/results/canned-gsm8k/gsm8k.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(old, indent=4, ensure_ascii=False))
    formatted = {"accuracy": res["accuracy"], "details": {"type": "GEN"}}
    for i, d in enumerate(res["details"]):
        formatted["details"][str(i)] = {
            "prompt": preds[str(i)]["origin_prompt"],
            "origin_prediction": preds[str(i)]["prediction"],
            "predictions": d["pred"][0],
            "references": d["answer"][0],
            "correct": d["correct"][0],
        }
    target = LOGS / "opencompass_formatted/default/20240101_000000/results/canned-gsm8k/gsm8k.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(formatted, indent=4, ensure_ascii=False))


if __name__ == "__main__":
    qwen()
    opencompass_old()
