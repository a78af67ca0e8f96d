"""Make the hand-converted fixtures in tests/data/logs/: layouts no installable framework writes today.

    python3 scripts/log_fixtures/make_small_layouts.py

- ``opencompass_old/.../results/canned-gsm8k/gsm8k.json`` (evaluator rows, OpenCompass <= 0.3: ``details``
  is the evaluator's list of ``{"pred", "answer", "correct"}``) and ``opencompass_formatted/.../gsm8k.json``
  (``OpenICLEvalTask.format_details``: ``{"type": "GEN", "0": {"prompt", "origin_prediction", "predictions",
  "references", "correct"}}``): converted from the GSM8K results and predictions that OpenCompass 0.5.4
  wrote itself (opencompass_real/, make_opencompass_real.py), with the same values in the older shapes.
  (Qwen2.5-Math's layout, once hand-converted here, is now written by Qwen's own code: qwen_math_real/.)
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests/data/logs"


def opencompass_old() -> None:
    src_run = LOGS / "opencompass_real/default/20260101_000000"
    model = "canned-qwen2.5-math-7b-instruct-outputs"
    res = json.loads((src_run / f"results/{model}/gsm8k.json").read_text())
    preds = json.loads((src_run / f"predictions/{model}/gsm8k.json").read_text())
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
    opencompass_old()
