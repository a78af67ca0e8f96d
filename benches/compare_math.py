"""MATH-style answer checking: matheval_fast.check_batch vs math-verify, in the same run.

    .venv/bin/python benches/compare_math.py [--threads 2] [--repeat 3]

Two data sets, both bundled in data/answer_check/:
  * 800 real Qwen2.5-Math responses to MATH problems (full responses against the gold answer);
    agreement is with the majority of the four recorded grader verdicts;
  * math-verify 0.9.0's own 276 (gold, pred, expected) cases; math-verify runs each case with its
    recorded configuration (extraction targets, boxed priority, float_rounding, strict,
    allow_set_relation_comp), matheval_fast with its defaults, exactly as ``check(pred, gold)``
    (kind="auto"; solution-style golds are reduced to their answer by the checker itself).
For each: items/s (whole batch), per-item latency p50/p99 (one call per item), agreement, and the
ratio of items/s. math-verify needs ``pip install -r requirements-bench.txt``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "answer_check"
VERDICTS = (
    "qwen_grader_verdict",
    "math_verify_0_9_0_full_response",
    "math_verify_0_9_0_on_qwen_extracted",
    "prm800k_grade_answer_on_qwen_extracted",
)


def load(name: str) -> list[dict]:
    return [json.loads(x) for x in (DATA / name).read_text(encoding="utf-8").splitlines() if x.strip()]


def per_item(fn, items) -> tuple[list[float], list[object]]:
    times, outs = [], []
    for it in items:
        t = time.perf_counter()
        outs.append(fn(*it))
        times.append(time.perf_counter() - t)
    return times, outs


def pct(times: list[float], q: float) -> float:
    s = sorted(times)
    return s[min(len(s) - 1, int(q * (len(s) - 1)))] * 1e6


def mv_config(row: dict | None):
    from math_verify import ExprExtractionConfig, LatexExtractionConfig

    def configs(key: str) -> list:
        if row is None:
            return [LatexExtractionConfig(), ExprExtractionConfig()]
        out = []
        for kind in row[key]:
            if kind == "latex":
                out.append(LatexExtractionConfig(boxed_match_priority=row["boxed_match_priority"]))
            else:
                out.append(ExprExtractionConfig())
        return out

    return configs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    import matheval_fast as mf

    if mf.build_profile != "release":
        print(
            "WARNING: matheval_fast is a debug build; numbers are meaningless (make build)", file=sys.stderr
        )
    try:
        from math_verify import parse, verify
    except ImportError:
        sys.exit("math-verify is not installed: .venv/bin/pip install -r requirements-bench.txt")

    rows = []

    # ---- 800 Qwen2.5-Math responses ----
    qwen = load("qwen25math_math_cot_100_graded.jsonl")
    responses = [r["response"] for r in qwen]
    golds = [r["gold"] for r in qwen]
    consensus = [sum(bool(r[k]) for k in VERDICTS) * 2 > len(VERDICTS) for r in qwen]
    n = len(qwen)
    mf.check_batch(responses, golds, kinds=["latex"] * n, threads=args.threads)  # warm up
    best = float("inf")
    for _ in range(args.repeat):
        t = time.perf_counter()
        res = mf.check_batch(responses, golds, kinds=["latex"] * n, threads=args.threads)
        best = min(best, time.perf_counter() - t)
    ours_lat, _ = per_item(lambda r, g: mf.check(r, g, kind="latex"), zip(responses, golds, strict=True))
    agree = sum(int(c == k) for c, k in zip(res.correct.tolist(), consensus, strict=True))
    sympy_share = sum(p == "sympy" for p in res.path.tolist()) / n
    rows.append(
        ("qwen800", "matheval_fast check_batch", n, best, ours_lat, f"{agree}/{n}", f"{sympy_share:.1%}")
    )

    configs = mv_config(None)
    mv_items = [(f"${g}$", r) for g, r in zip(golds, responses, strict=True)]

    def mv_one(gold: str, resp: str) -> bool:
        return verify(parse(gold, configs("g")), parse(resp, configs("p")))

    mv_lat, mv_out = per_item(mv_one, mv_items)
    mv_agree = sum(int(c == k) for c, k in zip(mv_out, consensus, strict=True))
    rows.append(("qwen800", "math-verify 0.9.0", n, sum(mv_lat), mv_lat, f"{mv_agree}/{n}", "100%"))

    # ---- math-verify's 276 cases ----
    cases = load("math_verify_cases.jsonl")
    # The library's defaults, as `check(pred, gold)` uses them (see tests/test_math_verify_suite.py).
    golds2 = [c["gold"] for c in cases]
    preds2 = [c["pred"] for c in cases]
    m = len(cases)
    best = float("inf")
    for _ in range(args.repeat):
        t = time.perf_counter()
        res2 = mf.check_batch(preds2, golds2, threads=args.threads)
        best = min(best, time.perf_counter() - t)
    ours_lat2, _ = per_item(lambda p, g: mf.check(p, g), zip(preds2, golds2, strict=True))
    agree2 = sum(int(c == k["expected"]) for c, k in zip(res2.correct.tolist(), cases, strict=True))
    share2 = sum(p == "sympy" for p in res2.path.tolist()) / m
    rows.append(("mv276", "matheval_fast check_batch", m, best, ours_lat2, f"{agree2}/{m}", f"{share2:.1%}"))

    def mv_case(c: dict) -> bool:
        cfg = mv_config(c)
        g = parse(c["gold"], cfg("gold_extraction"))
        p = parse(c["pred"], cfg("pred_extraction"))
        return verify(
            g,
            p,
            float_rounding=c["float_rounding"],
            strict=c["strict"],
            allow_set_relation_comp=c["allow_set_relation_comp"],
        )

    mv_lat2, mv_out2 = per_item(mv_case, [(c,) for c in cases])
    mv_agree2 = sum(int(o == c["expected"]) for o, c in zip(mv_out2, cases, strict=True))
    rows.append(("mv276", "math-verify 0.9.0", m, sum(mv_lat2), mv_lat2, f"{mv_agree2}/{m}", "100%"))

    head = ("data", "checker", "items", "items/s", "p50 us", "p99 us", "agree", "sympy")
    fmt = "{:8} {:28} {:>6} {:>10} {:>9} {:>10} {:>8} {:>6}"
    print(fmt.format(*head))
    for data, name, k, total, lat, ag, sp in rows:
        cells = (f"{k / total:.0f}", f"{pct(lat, 0.5):.1f}", f"{pct(lat, 0.99):.1f}")
        print(fmt.format(data, name, k, *cells, ag, sp))
    for data in ("qwen800", "mv276"):
        ours = next(r for r in rows if r[0] == data and r[1].startswith("matheval"))
        peer = next(r for r in rows if r[0] == data and r[1].startswith("math-verify"))
        print(
            f"{data}: check_batch is {(ours[2] / ours[3]) / (peer[2] / peer[3]):.0f}x math-verify's items/s "
            f"(per item p50 {statistics.median(peer[4]) / statistics.median(ours[4]):.0f}x)"
        )


if __name__ == "__main__":
    main()
