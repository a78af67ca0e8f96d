"""Per-suite agreement of ``check()`` defaults (and math-verify 0.9.0) with other graders' test suites.

    .venv/bin/python scripts/peer_suites_report.py                 # table + every disagreement
    .venv/bin/python scripts/peer_suites_report.py --suite lighteval --suite hendrycks_math
    .venv/bin/python scripts/peer_suites_report.py --json out/peer_suites.json
    .venv/bin/python scripts/peer_suites_report.py --refresh-math-verify   # needs requirements-bench.txt

Suites: every ``tests/data/peer_suites/*.jsonl`` (facts mined from other graders' public tests, see
``data/README.md``) plus the three this project was built against: math-verify 0.9.0's own 276 cases,
the 800 Qwen2.5-Math responses (expected = the majority of the three recorded graders) and the 1,319
GSM8K anchor responses.

Each item runs through ``matheval_fast.check(pred, gold)`` with default arguments. The only harness
step applied is a suite's ``reasoning_delimiters`` (TRL's ``reasoning_accuracy_reward`` grades the text
after the last delimiter, and a response without one has no answer). An item whose expected verdict is
``null`` is one the suite skips because its gold cannot be parsed: we agree when our reason is
``gold_unparseable``. For items that are already-extracted answers (``kind == "answer"``) the table
also shows ``verify(gold, pred)``, which separates extraction from equivalence.

math-verify's column is read from ``tests/data/peer_suites/math_verify_0_9_0_verdicts.json`` so the
report stays cheap and deterministic; ``--refresh-math-verify`` recomputes it and exits. It needs only
math-verify, so it can run in the measurement setting of ``peer_graders.md`` (math-verify 0.9.0,
latex2sympy2_extended 1.11.0, sympy 1.14.0, antlr4-python3-runtime 4.13.2) without this package:

    python3.11 -m venv /tmp/mv && /tmp/mv/bin/pip install math-verify==0.9.0 sympy==1.14.0
    /tmp/mv/bin/python scripts/peer_suites_report.py --refresh-math-verify

It calls ``parse``/``verify`` (timeouts raised to 60 s), gold first: math-verify's own cases and
lighteval's with their per-row configuration; suites whose grader is math-verify on raw text (TRL,
open-r1, AReaL, verl, NeMo-Gym) with default ``parse`` on the raw strings; every other suite with golds,
and predictions that are already-extracted answers, wrapped in ``$..$`` when they have no delimiters
(math-verify reads LaTeX only inside delimiters), as ``peer_graders.md`` ran the answer-level suites.

``tests/data/peer_suites/classes.json`` names the class of every known disagreement (the issue-13
classes); a disagreement without a class is printed as ``NEW``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PEER = ROOT / "tests" / "data" / "peer_suites"
MV_CACHE = PEER / "math_verify_0_9_0_verdicts.json"
CLASSES = PEER / "classes.json"
ANSWER_CHECK = ROOT / "data" / "answer_check"
#: math-verify's own timeouts, raised from 5 s so that machine load cannot flip a cached verdict.
MV_TIMEOUT = 60
#: Suites whose grader is math-verify called on the raw gold and response: run the same way.
RAW_SUITES = {
    "trl_rewards",
    "open_r1_rewards",
    "areal_math_verify_reward",
    "verl_reward_score",
    "nemo_gym_math",
}


@dataclass
class Item:
    id: str
    suite: str
    gold: str | None
    pred: str | None
    expected: bool | None
    kind: str = "answer"
    config: dict[str, Any] = field(default_factory=dict)

    def key(self) -> str:
        """Fingerprint of the inputs, so a cached peer verdict is never applied to changed data."""
        blob = json.dumps([self.gold, self.pred, self.config], sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def load_items() -> list[Item]:
    items: list[Item] = []
    for path in sorted(PEER.glob("*.jsonl")):
        for r in _jsonl(path):
            items.append(
                Item(
                    r["id"], path.stem, r["gold"], r["pred"], r["expected"], r["kind"], r.get("config") or {}
                )
            )
    for r in _jsonl(ANSWER_CHECK / "math_verify_cases.jsonl"):
        cfg = {
            k: r[k]
            for k in (
                "gold_extraction",
                "pred_extraction",
                "boxed_match_priority",
                "float_rounding",
                "strict",
                "allow_set_relation_comp",
            )
        }
        items.append(Item(r["id"], "math_verify_0_9_0", r["gold"], r["pred"], r["expected"], "response", cfg))
    for r in _jsonl(ANSWER_CHECK / "qwen25math_math_cot_100_graded.jsonl"):
        votes = [
            r["qwen_grader_verdict"],
            r["math_verify_0_9_0_full_response"],
            r["prm800k_grade_answer_on_qwen_extracted"],
        ]
        items.append(
            Item(
                f"qwen25math_800/{r['idx']:03d}-{r['sample']}",
                "qwen25math_800",
                r["gold"],
                r["response"],
                sum(bool(v) for v in votes) >= 2,
                "response",
            )
        )
    gsm8k = json.loads((ANSWER_CHECK / "gsm8k_xwin.json").read_text(encoding="utf-8"))
    for i, it in enumerate(gsm8k):
        items.append(
            Item(
                f"gsm8k_anchor/{i:04d}",
                "gsm8k_anchor",
                it["answer"],
                f"Let me think.\nThe answer is: {it['answer']}.",
                True,
                "response",
            )
        )
    return items


def harness(item: Item) -> str | None:
    """The suite's own pre-processing of the response (only ``reasoning_delimiters`` exists)."""
    delims = item.config.get("reasoning_delimiters")
    if not delims or item.pred is None:
        return item.pred
    cut = max((item.pred.rfind(d) + len(d) if d in item.pred else -1) for d in delims)
    return item.pred[cut:] if cut >= 0 else ""


def agrees(expected: bool | None, correct: bool, reason: str) -> bool:
    if expected is None:
        return reason == "gold_unparseable"
    return correct is expected


# --------------------------------------------------------------------------------------------
# math-verify 0.9.0 (only for --refresh-math-verify)


def _mv_verdict(item: Item) -> bool | str:
    from latex2sympy2_extended.latex2sympy2 import NormalizationConfig  # noqa: F401
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, StringExtractionConfig, parse, verify

    if item.suite == "math_verify_0_9_0":
        cfg = item.config

        def targets(names: list[str]) -> list[Any]:
            out: list[Any] = []
            for n in names:
                if n == "latex":
                    out.append(LatexExtractionConfig(boxed_match_priority=cfg["boxed_match_priority"]))
                else:
                    out.append(ExprExtractionConfig())
            return out

        g = parse(item.gold, targets(cfg["gold_extraction"]), parsing_timeout=MV_TIMEOUT)
        p = parse(item.pred, targets(cfg["pred_extraction"]), parsing_timeout=MV_TIMEOUT)
        return bool(
            verify(
                g,
                p,
                float_rounding=cfg["float_rounding"],
                strict=cfg["strict"],
                allow_set_relation_comp=cfg["allow_set_relation_comp"],
                timeout_seconds=MV_TIMEOUT,
            )
        )
    gold, pred = item.gold, harness(item)
    if gold is None or not gold.strip():
        return "gold_unparseable"
    float_rounding = 6
    targets: list[Any] | None = None  # None: parse()'s default extraction
    if item.suite == "lighteval":
        # lighteval's compare_strings: the row's extraction targets and precision, raw strings.
        names = item.config.get("match_types", ["latex", "expr"])
        if "NativeLetters" in names:
            targets = [StringExtractionConfig()]
        else:
            targets = [LatexExtractionConfig() if n == "latex" else ExprExtractionConfig() for n in names]
        float_rounding = item.config.get("precision", 6)
    elif item.suite not in RAW_SUITES:
        # Graders that take answers: math-verify reads LaTeX only inside delimiters.
        gold = _wrap(gold)
        if item.kind == "answer" and pred:
            pred = _wrap(pred)
    g = (
        parse(gold, targets, parsing_timeout=MV_TIMEOUT)
        if targets
        else parse(gold, parsing_timeout=MV_TIMEOUT)
    )
    if not g:
        return "gold_unparseable"
    if not pred:
        return False
    p = (
        parse(pred, targets, parsing_timeout=MV_TIMEOUT)
        if targets
        else parse(pred, parsing_timeout=MV_TIMEOUT)
    )
    return bool(verify(g, p, float_rounding=float_rounding, timeout_seconds=MV_TIMEOUT))


def _wrap(s: str) -> str:
    return s if any(t in s for t in ("$", "\\(", "\\[", "\\boxed")) else f"${s}$"


def refresh_math_verify(items: list[Item]) -> None:
    import logging

    logging.disable(logging.CRITICAL)
    out: dict[str, Any] = {}
    t = time.perf_counter()
    for k, it in enumerate(items):
        try:
            v: Any = _mv_verdict(it)
        except Exception as e:  # a crash of the peer is its verdict: not correct
            v = f"error: {type(e).__name__}"
        out[it.id] = {"key": it.key(), "verdict": v}
        if k % 500 == 0:
            print(f"math-verify {k}/{len(items)} {time.perf_counter() - t:.0f}s", file=sys.stderr)
    MV_CACHE.write_text(
        json.dumps(out, indent=0, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"wrote {MV_CACHE.relative_to(ROOT)} ({len(out)} verdicts)", file=sys.stderr)


def mv_agrees(item: Item, cache: dict[str, Any]) -> bool | None:
    hit = cache.get(item.id)
    if hit is None or hit["key"] != item.key():
        return None
    v = hit["verdict"]
    if item.expected is None:
        return v == "gold_unparseable"
    return (v is True) is item.expected


# --------------------------------------------------------------------------------------------


def _short(s: str | None, n: int = 110) -> str:
    if s is None:
        return "None"
    s = s.replace("\n", "⏎")
    return s if len(s) <= n else "…" + s[-(n - 1) :]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", action="append", help="only these suites (repeatable)")
    ap.add_argument("--json", type=Path, help="also write every item's verdicts here")
    ap.add_argument("--refresh-math-verify", action="store_true", help="recompute the math-verify column")
    ap.add_argument("--timeout", type=float, default=30.0, help="SymPy fallback timeout per item (s)")
    args = ap.parse_args()

    items = load_items()
    if args.suite:
        unknown = set(args.suite) - {it.suite for it in items}
        if unknown:
            ap.error(f"unknown suites: {sorted(unknown)}")
        items = [it for it in items if it.suite in args.suite]
    if args.refresh_math_verify:
        if args.suite:
            ap.error("--refresh-math-verify recomputes every suite; drop --suite")
        refresh_math_verify(items)
        return 0

    import matheval_fast as mf

    cache = json.loads(MV_CACHE.read_text(encoding="utf-8")) if MV_CACHE.exists() else {}
    known = json.loads(CLASSES.read_text(encoding="utf-8")) if CLASSES.exists() else {}
    classes: dict[str, str] = known.get("items", {})
    class_doc: dict[str, str] = known.get("classes", {})

    t0 = time.perf_counter()
    rows: list[dict[str, Any]] = []
    for it in items:
        pred = harness(it)
        v = mf.check(pred, it.gold, timeout=args.timeout)
        ver = None
        if it.kind == "answer" and it.gold is not None and pred is not None and it.gold.strip():
            ver = mf.verify(it.gold, pred, timeout=args.timeout)
        rows.append(
            {
                "id": it.id,
                "suite": it.suite,
                "expected": it.expected,
                "correct": v.correct,
                "reason": v.reason,
                "extracted": v.extracted,
                "path": v.path,
                "agree": agrees(it.expected, v.correct, v.reason),
                "verify_agree": None if ver is None else agrees(it.expected, ver, "incorrect"),
                "mv_agree": mv_agrees(it, cache),
                "class": classes.get(it.id),
            }
        )
    elapsed = time.perf_counter() - t0

    by_suite: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_suite.setdefault(r["suite"], []).append(r)
    item_of = {it.id: it for it in items}

    head = ["suite", "items", "check() agrees", "verify() agrees (answers)", "math-verify 0.9.0 agrees"]
    table = []
    totals = Counter()
    for suite in sorted(by_suite):
        rs = by_suite[suite]
        ours = sum(r["agree"] for r in rs)
        vr = [r for r in rs if r["verify_agree"] is not None]
        mv = [r for r in rs if r["mv_agree"] is not None]
        totals.update(items=len(rs), ours=ours)
        table.append(
            [
                suite,
                len(rs),
                f"{ours}/{len(rs)}",
                f"{sum(r['verify_agree'] for r in vr)}/{len(vr)}" if vr else "-",
                f"{sum(r['mv_agree'] for r in mv)}/{len(mv)}" if len(mv) == len(rs) else "(no cache)",
            ]
        )
    from matheval_fast._report.tables import markdown_table

    print(markdown_table(head, table, align="lrrrr"))
    print(f"\n{totals['ours']}/{totals['items']} items agree; check() took {elapsed:.1f} s")

    counts = Counter()
    for suite in sorted(by_suite):
        bad = [r for r in by_suite[suite] if not r["agree"]]
        if not bad:
            continue
        print(f"\n## {suite}: {len(bad)} disagreement(s)")
        for r in bad:
            it = item_of[r["id"]]
            cls = r["class"] or "NEW"
            counts[cls] += 1
            mv = {True: "mv agrees", False: "mv disagrees", None: "mv ?"}[r["mv_agree"]]
            print(
                f"- {r['id']} [{cls}] expected={it.expected} ours={r['correct']} reason={r['reason']} "
                f"path={r['path']} extracted={_short(r['extracted'], 60)!s} ({mv})"
            )
            print(f"    gold: {_short(it.gold)}")
            print(f"    pred: {_short(harness(it))}")
    if counts:
        print("\n## disagreements by class")
        for cls, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"- {cls}: {n}" + (f" ({class_doc[cls]})" if cls in class_doc else ""))
    agree_of = {r["id"]: r["agree"] for r in rows}
    fixed = sorted(i for i in classes if agree_of.get(i))
    if fixed:
        print(f"\n{len(fixed)} classified item(s) now agree (update classes.json): {fixed}")

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
