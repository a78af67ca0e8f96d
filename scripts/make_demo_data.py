"""Build data/samples/demo_responses.json: a small, deterministic demo in the seed's response format.

GSM8K items (MIT) get synthetic completions of the kinds real models produce (anchored, boxed,
bare last number, wrong, no answer); MATH-style items reuse real Qwen2.5-Math responses (MIT) from
data/answer_check/qwen25math_math_cot_100_graded.jsonl. Run from the repository root.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    rng = random.Random(20261121)
    gsm = json.loads((ROOT / "data/answer_check/gsm8k_xwin.json").read_text(encoding="utf-8"))
    items = []
    for it in gsm[:120]:
        gold = it["answer"]
        style = rng.choice(["anchor", "anchor", "boxed", "bare", "wrong", "none", "seedbug"])
        sol = it["solution"]
        if style == "anchor":
            c = f"{sol}\nThe answer is: {gold}."
        elif style == "boxed":
            c = f"{sol}\nSo the final result is $\\boxed{{{gold}}}$."
        elif style == "bare":
            c = sol
        elif style == "wrong":
            c = f"{sol}\nThe answer is: {int(gold.replace(',', '')) + rng.randint(1, 9)}."
        elif style == "none":
            c = "I am not sure how to solve this problem."
        else:  # the seed's "later anchor" quirk: a check sentence after the answer
            c = f"{sol}\nThe answer is: {gold}.\nThe answer is correct because we checked each step."
        items.append({**it, "completion": [c]})
    rows = [
        json.loads(line) for line in (ROOT / "data/answer_check/qwen25math_math_cot_100_graded.jsonl").open()
    ]
    for r in rows[::10]:
        items.append(
            {
                "question": f"MATH problem {r['idx']}",
                "solution": "",
                "answer": r["gold"],
                "type": "MATH",
                "subtype": "qwen2.5-math-cot",
                "level": r["level"],
                "completion": [r["response"]],
            }
        )
    out = ROOT / "data/samples/demo_responses.json"
    out.write_text(json.dumps(items, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(items)} items to {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
