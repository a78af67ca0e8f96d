"""Build data/samples/unanswerable_demo_{umwp,selfaware}.jsonl: protocol B demo outputs (SYNTHETIC).

No UMWP or SelfAware model outputs are public, so these are written here: real dataset records
(UMWP and SelfAware, CC-BY-SA-4.0) with made-up outputs of the kinds models produce, one template
per quirk of the original scripts. Every record carries ``"synthetic": true``, the template name and,
for UMWP, ``expected_math`` (the expression the math-expression rule must find, null for none; written
by hand per template, checked by tests/test_unanswerable.py). Run from the repository root.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


# (template name, text with {gold}, expected math expression or None)
ANSWERABLE = [
    (
        "steps_then_answer",
        "First we add the two amounts.\n12 + 30 = 42, then we adjust.\nThe answer is {gold}.",
        None,
    ),
    ("hope_this_helps", "The answer is {gold}. I hope this helps!", "I"),  # capital I is a variable
    ("equals_hides_run", "So 3t + 5 = {gold} and we are done.", None),  # "=" hides the run
    ("decimal_split", "The answer is {gold}.0 dollars.", None),  # the splitter breaks 12.0: Acc miss
    ("name_not_in_dictionary", "The answer is {gold}. Weng keeps the rest.", "Weng"),
    ("contraction", "I'm fairly sure it's {gold}.", None),  # "'m" brings an apostrophe: not flagged
    ("plain", "She ends up with {gold} in total.", None),
    ("variable_expression", "So the answer is {gold}, which is 2x+3 when x is known.", "2x+3"),
]
UNANSWERABLE = [
    ("icl_phrase", "The question does not give the price.\nThus, this problem cannot be answered.", None),
    ("names_a_variable", "We need to know the value of n.", "n"),
    ("confident_number", "Adding everything up, the answer is 12.", None),
    ("empty", "", None),
    ("paraphrase", "There is not enough information given to determine how many are left.", None),
    ("symbolic", "Let the unknown price be p. Then the total is 5p dollars.", "5p"),
    ("unknown_reference", "The answer is unknown.", None),
    ("hedged_guess", "It is hard to say, maybe 7 or 8 apples.", None),
]
SELFAWARE_UNANSWERABLE = [
    ("substring_precheck", "nobody can say for sure. the answer is unknown."),
    ("paraphrase", "people disagree a lot about this; it depends on who you ask."),
    ("confident_answer", "the answer is 42."),
    ("empty", ""),
]
SELFAWARE_ANSWERABLE = [
    ("alias_in_output", "it is {alias}."),
    ("hedged_alias", "i'm not sure, but i think it is {alias}."),  # substring pre-check fires: FP, Acc hit
    ("wrong", "it is probably something else entirely."),
    ("empty", ""),
]


def main() -> None:
    rng = random.Random(20261126)
    umwp = [
        json.loads(line)
        for line in open(ROOT / "python/matheval_fast/datasets/umwp/StandardDataset.jsonl", encoding="utf-8")
    ]
    by_id = {r["id"]: r for r in umwp}
    out = []
    # Every (source, category) cell of the unanswerable half, with its paired answerable source.
    cells: dict[tuple[str, int], list[dict]] = {}
    for r in umwp:
        if not r["answerable"]:
            cells.setdefault((r["source"], r["category"]), []).append(r)
    k = 0
    for key in sorted(cells):
        picks = rng.sample(cells[key], min(8, len(cells[key])))
        for u in picks:
            a = by_id[u["relevant_ids"][0]]
            name, text, expected = ANSWERABLE[k % len(ANSWERABLE)]
            gold = _num(a["answer"][0])
            out.append(
                {**a, "generated_text": text.format(gold=gold), "template": name, "expected_math": expected}
            )
            name, text, expected = UNANSWERABLE[k % len(UNANSWERABLE)]
            out.append({**u, "generated_text": text, "template": name, "expected_math": expected})
            k += 1
    with open(ROOT / "data/samples/unanswerable_demo_umwp.jsonl", "w", encoding="utf-8") as f:
        for r in out:
            f.write(json.dumps({**r, "synthetic": True}, ensure_ascii=False) + "\n")

    sa = json.load(open(ROOT / "python/matheval_fast/datasets/selfaware/SelfAware.json", encoding="utf-8"))[
        "example"
    ]
    rows = []
    ans = [r for r in sa if r["answerable"]]
    una = [r for r in sa if not r["answerable"]]
    for i, r in enumerate(rng.sample(ans, 48)):
        name, text = SELFAWARE_ANSWERABLE[i % len(SELFAWARE_ANSWERABLE)]
        rows.append({**r, "output": text.format(alias=r["answer"][0]).lower(), "template": name})
    for i, r in enumerate(rng.sample(una, 32)):
        name, text = SELFAWARE_UNANSWERABLE[i % len(SELFAWARE_UNANSWERABLE)]
        rows.append({**r, "output": text, "template": name})
    rng.shuffle(rows)
    with open(ROOT / "data/samples/unanswerable_demo_selfaware.jsonl", "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps({**r, "synthetic": True}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
