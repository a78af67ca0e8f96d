"""Agreement with people: matheval_fast and math-verify against human labels, side by side (issue 33).

    .venv/bin/python benches/verifier_agreement.py [--devset tests/data/verifier/devset.jsonl]
        [--no-math-verify] [--json OUT.json] [--misses]

Reads the human-labelled development set (``tests/data/verifier/``, see its README), grades every
response against its gold with ``matheval_fast.check(response, gold)`` (defaults, as a new user calls it)
and with math-verify 0.9.0 as its README shows it (``verify(parse(gold), parse(response))``, default
extraction), and prints accuracy, precision, recall and F1 against the labels: all items, without the
items marked doubtful, per source and per class. "Positive" is "the final answer is correct".
``--misses`` lists every item where matheval_fast disagrees with the label; ``--update-known-misses``
rewrites ``tests/data/verifier/known_misses.json`` (the regression guard's list) from this run.
math-verify needs ``pip install -r requirements-bench.txt``; without it (or with ``--no-math-verify``)
its column is left out.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEVSET = ROOT / "tests" / "data" / "verifier" / "devset.jsonl"


def load(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def scores(labels: Iterable[bool], preds: Iterable[bool]) -> dict[str, float | int]:
    tp = fp = fn = tn = 0
    for y, p in zip(labels, preds, strict=True):
        if p and y:
            tp += 1
        elif p:
            fp += 1
        elif y:
            fn += 1
        else:
            tn += 1
    n = tp + fp + fn + tn
    prec = tp / (tp + fp) if tp + fp else 1.0  # nothing called correct: no false positive
    rec = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return {
        "n": n,
        "acc": (tp + tn) / n if n else 0.0,
        "prec": prec,
        "rec": rec,
        "f1": f1,
        "fp": fp,
        "fn": fn,
    }


def grade_matheval(items: list[dict]) -> list[bool]:
    import matheval_fast as mf

    return [bool(mf.check(it["response"], it["gold"]).correct) for it in items]


def grade_math_verify(items: list[dict]) -> list[bool] | None:
    try:
        from math_verify import parse, verify
    except ImportError:
        print("math-verify is not installed: pip install -r requirements-bench.txt", file=sys.stderr)
        return None
    out = []
    for it in items:
        try:
            out.append(bool(verify(parse(it["gold"]), parse(it["response"]))))
        except Exception:  # a grader that raises has not called the answer correct
            out.append(False)
    return out


def table(items: list[dict], graders: dict[str, list[bool]]) -> list[str]:
    groups: list[tuple[str, Callable[[dict], bool]]] = [
        ("all items", lambda it: True),
        ("all, doubtful left out", lambda it: not it["doubtful"]),
    ]
    for src in sorted({it["source"] for it in items}):
        groups.append((f"source {src}", lambda it, s=src: it["source"] == s))
    for cls in sorted({it["cls"] for it in items}):
        groups.append((f"class {cls}", lambda it, c=cls: it["cls"] == c))
    names = list(graders)
    head = "| group | n | " + " | ".join(f"{g} acc | prec | rec | F1" for g in names) + " |"
    sep = "|---|---:|" + "---:|---:|---:|---:|" * len(names)
    lines = [head, sep]
    for title, keep in groups:
        idx = [i for i, it in enumerate(items) if keep(it)]
        labels = [items[i]["label"] for i in idx]
        cells = []
        for g in names:
            s = scores(labels, [graders[g][i] for i in idx])
            cells.append(f"{s['acc']:.1%} | {s['prec']:.1%} | {s['rec']:.1%} | {s['f1']:.1%}")
        lines.append(f"| {title} | {len(idx)} | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--devset", type=Path, default=DEVSET)
    ap.add_argument("--no-math-verify", action="store_true")
    ap.add_argument("--json", type=Path, help="also write every item's verdicts here")
    ap.add_argument("--misses", action="store_true", help="list matheval_fast's disagreements")
    ap.add_argument("--update-known-misses", action="store_true", help="rewrite known_misses.json")
    args = ap.parse_args()

    items = load(args.devset)
    graders: dict[str, list[bool]] = {"matheval_fast": grade_matheval(items)}
    if not args.no_math_verify:
        mv = grade_math_verify(items)
        if mv is not None:
            graders["math-verify"] = mv
    print(f"{len(items)} items, {sum(it['label'] for it in items)} labelled correct ({args.devset.name})\n")
    print("\n".join(table(items, graders)))
    if args.misses:
        import matheval_fast as mf

        print("\nmatheval_fast disagrees with the label on:")
        for it, p in zip(items, graders["matheval_fast"], strict=True):
            if p != it["label"]:
                v = mf.check(it["response"], it["gold"])
                kind = "FP" if p else "FN"
                print(
                    f"  {kind} {it['id']} [{it['cls']}] gold={it['gold']!r}"
                    f" extracted={v.extracted!r} {v.reason}"
                )
    if args.update_known_misses:
        mine = graders["matheval_fast"]
        known = {
            "note": "items where matheval_fast.check disagrees with the human label "
            "(tests/test_verifier_devset.py; rewrite: benches/verifier_agreement.py --update-known-misses)",
            "false_positives": [it["id"] for it, p in zip(items, mine, strict=True) if p and not it["label"]],
            "false_negatives": [it["id"] for it, p in zip(items, mine, strict=True) if not p and it["label"]],
        }
        path = args.devset.parent / "known_misses.json"
        path.write_text(json.dumps(known, indent=1) + "\n", encoding="utf-8")
    if args.json:
        rows = [
            {"id": it["id"], "label": it["label"], **{g: graders[g][i] for g in graders}}
            for i, it in enumerate(items)
        ]
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
