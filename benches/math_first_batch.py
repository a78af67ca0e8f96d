"""MATH-style checking as a user meets it: a fresh process imports matheval_fast and checks one batch
of ~16,000 Qwen2.5-Math responses (800 real responses, 20 times) from Python lists, and the same
from Arrow; math-verify 0.9.0 checks a sample of the same items in the same run for the ratio.

    .venv/bin/python benches/math_first_batch.py [--runs 5] [--peer-n 400]

Every figure is the median of ``--runs`` fresh processes (all runs printed), with the load average
it ran under. math-verify needs ``pip install -r requirements-bench.txt``.
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
rows = [json.loads(x) for x in open(sys.argv[1], encoding="utf-8")]
resp = [r["response"] for r in rows] * 20
gold = [r["gold"] for r in rows] * 20
threads = None if sys.argv[2] == "default" else int(sys.argv[2])
if sys.argv[3] == "arrow":
    import pyarrow as pa
    resp, gold = pa.array(resp, pa.large_string()), pa.array(gold, pa.large_string())
t = time.perf_counter()
r = mf.check_batch(resp, gold, threads=threads)
dt = time.perf_counter() - t
print(json.dumps({"n": len(r), "seconds": dt, "import": t1 - t0, "correct": int(r.correct.sum())}))
"""


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
        print(
            f"ours, threads={threads}, {source}: median {statistics.median(per_s):,.0f} responses/s "
            f"(runs: {', '.join(f'{x:,.0f}' for x in per_s)}; correct {runs[0]['correct']}/{runs[0]['n']})"
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
    print(f"two threads / one thread: {two / one:.2f}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
