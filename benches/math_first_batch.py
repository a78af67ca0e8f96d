"""MATH-style checking as a user meets it: a fresh process imports matheval_fast and checks one batch
of ~16,000 Qwen2.5-Math responses (800 real responses, 20 times) from Python lists, and the same
from Arrow; math-verify 0.9.0 checks a sample of the same items in the same run for the ratio.

    .venv/bin/python benches/math_first_batch.py [--runs 5] [--peer-n 400]

Every figure is the median of ``--runs`` fresh processes (all runs printed), with the load average
it ran under; besides the batch, the import and the first read of ``correct`` (which makes the
numpy array, importing numpy when nothing did before) are timed. math-verify needs
``pip install -r requirements-bench.txt``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "answer_check" / "qwen25math_math_cot_100_graded.jsonl"

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import matheval_fast as mf
t1 = time.perf_counter()
# 16,000 rows read as a user reads a file of them: every row its own str objects (a list of the 800
# repeated would hold 1 MB of distinct text instead of 19 MB, and flatter the caches).
lines = open(sys.argv[1], encoding="utf-8").read().splitlines() * 20
rows = [json.loads(x) for x in lines]
resp = [r["response"] for r in rows]
gold = [r["gold"] for r in rows]
threads = None if sys.argv[2] == "default" else int(sys.argv[2])
if sys.argv[3] == "arrow":
    import pyarrow as pa
    resp, gold = pa.array(resp, pa.large_string()), pa.array(gold, pa.large_string())
t = time.perf_counter()
r = mf.check_batch(resp, gold, threads=threads)
dt = time.perf_counter() - t
t = time.perf_counter()
correct = int(r.correct.sum())  # the first read makes the numpy array (and imports numpy)
read = time.perf_counter() - t
print(json.dumps({"n": len(r), "seconds": dt, "import": t1 - t0, "read": read, "correct": correct}))
"""


WARM = r"""
import json, statistics, sys, time
import matheval_fast as mf
lines = open(sys.argv[1], encoding="utf-8").read().splitlines() * 20
rows = [json.loads(x) for x in lines]
resp, gold = [r["response"] for r in rows], [r["gold"] for r in rows]
for t in (1, 2):
    mf.check_batch(resp, gold, threads=t)
pairs = []
for _ in range(int(sys.argv[2])):
    rate = {}
    for t in (1, 2):
        s = time.perf_counter()
        mf.check_batch(resp, gold, threads=t)
        rate[t] = len(resp) / (time.perf_counter() - s)
    pairs.append((rate[1], rate[2]))
print(json.dumps(pairs))
"""


def warm_pairs(rounds: int) -> list[tuple[float, float]]:
    """One process, the same 16,000-response batch on 1 and 2 threads in turn, after one of each."""
    out = subprocess.run(
        [sys.executable, "-c", WARM, str(DATA), str(rounds)], capture_output=True, text=True, check=True
    )
    return [tuple(p) for p in json.loads(out.stdout)]


def child(threads: str, source: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(DATA), threads, source], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--peer-n", type=int, default=400, help="items math-verify checks (its rate per item)")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    rates = {}
    for threads, source in [("default", "list"), ("default", "arrow"), ("1", "list"), ("2", "list")]:
        runs = [child(threads, source) for _ in range(args.runs)]
        per_s = [r["n"] / r["seconds"] for r in runs]
        rates[(threads, source)] = statistics.median(per_s)
        ms = {k: statistics.median(r[k] for r in runs) * 1e3 for k in ("import", "seconds", "read")}
        print(
            f"ours, threads={threads}, {source}: median {statistics.median(per_s):,.0f} responses/s "
            f"(runs: {', '.join(f'{x:,.0f}' for x in per_s)}; correct {runs[0]['correct']}/{runs[0]['n']}); "
            f"median ms: import {ms['import']:.0f}, batch {ms['seconds']:.1f}, "
            f"first read of correct {ms['read']:.1f}"
        )
    try:
        from math_verify import parse, verify
    except ImportError:
        print("math-verify not installed: pip install -r requirements-bench.txt")
        return
    rows = [json.loads(x) for x in DATA.open(encoding="utf-8")][: args.peer_n]
    t = time.perf_counter()
    for r in rows:
        verify(parse(f"${r['gold']}$"), parse(r["response"]))
    peer = len(rows) / (time.perf_counter() - t)
    print(f"math-verify 0.9.0: {peer:,.0f} responses/s ({len(rows)} items, one thread)")
    for key, rate in rates.items():
        print(f"ratio threads={key[0]} {key[1]}: {rate / peer:,.0f}x")
    one, two = rates[("1", "list")], rates[("2", "list")]
    print(f"two threads / one thread (first batch of a fresh process): {two / one:.2f}")
    pairs = warm_pairs(args.runs)
    ratios = [b / a for a, b in pairs]
    print(
        f"two threads / one thread (later batches of one process, {len(pairs)} pairs): median "
        f"{statistics.median(ratios):.2f} (1 thread {statistics.median(a for a, _ in pairs):,.0f}/s, "
        f"2 threads {statistics.median(b for _, b in pairs):,.0f}/s; "
        f"pairs: {', '.join(f'{r:.2f}' for r in ratios)})"
    )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
