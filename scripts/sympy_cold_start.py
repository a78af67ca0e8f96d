"""What the first item that needs the SymPy fallback costs, in a fresh process each time.

    .venv/bin/python scripts/sympy_cold_start.py [--repeat 3]

Scenarios (each in its own interpreter, so every pool starts cold):

- ``check, cold``: the first ``check()`` whose item only SymPy can decide (the worker starts, imports
  SymPy and loads the LaTeX parser while the caller waits), then a second such item;
- ``check after warm()``: ``get_pool().warm()`` first, then wait until the worker is ready, then the same
  item: what remains of the first call once the worker has started (its first comparison);
- ``check_batch``: 20,000 and 200,000 Rust-decidable LaTeX items and one SymPy item, with the automatic
  pre-warm (the default) and without it (``MATHEVAL_SYMPY_PREWARM=0``); the pre-warm overlaps the
  worker's start with the Rust work and the caller's own time between calls.

Prints one line per scenario: median seconds (and all runs). The runs are interleaved; on a small,
busy machine the batch rows are noisy (the pre-warmed worker's imports compete with the Rust threads).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

# Items the Rust engine leaves to SymPy (it does not evaluate integrals).
SYMPY_ITEM = ("The answer is $\\int_0^1 x \\, dx$", "\\frac12")
SYMPY_ITEM_2 = ("The answer is $\\int_0^2 x \\, dx$", "2")

CHILD = r"""
import json, sys, time
t_import = time.perf_counter()
import matheval_fast as mf
from matheval_fast._sympy.pool import get_pool
out = {"import_s": time.perf_counter() - t_import}
scenario, item, item2 = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
if scenario == "check":
    t = time.perf_counter(); v = mf.check(*item, timeout=60); out["first_s"] = time.perf_counter() - t
    out["path"] = v.path
    assert v.path == "sympy", v
    t = time.perf_counter(); mf.check(*item2, timeout=60); out["second_s"] = time.perf_counter() - t
elif scenario == "warm":
    pool = get_pool(); t = time.perf_counter(); pool.warm()
    while pool.ready_workers() < 1:
        time.sleep(0.01)
    out["warm_s"] = time.perf_counter() - t
    t = time.perf_counter(); mf.check(*item, timeout=60); out["first_s"] = time.perf_counter() - t
elif scenario.startswith("batch"):
    n = int(scenario[len("batch"):])
    responses = [f"The answer is $\\frac{{{k}}}{{{k + 1}}}$" for k in range(n)] + [item[0]]
    golds = [f"\\frac{{{2 * k}}}{{{2 * k + 2}}}" for k in range(n)] + [item[1]]
    t = time.perf_counter(); r = mf.check_batch(responses, golds, timeout=60)
    out["first_s"] = time.perf_counter() - t
    out["correct"] = int(r.correct.sum())
print(json.dumps(out))
"""


def run(scenario: str, env_extra: dict[str, str] | None = None) -> dict[str, float]:
    """One run in a fresh interpreter; ``{}`` when the scenario fails there (e.g. on a checkout
    without ``SympyPool.warm``, to measure the code before the warm-up)."""
    env = dict(os.environ, **(env_extra or {}))
    args = [sys.executable, "-c", CHILD, scenario, json.dumps(SYMPY_ITEM), json.dumps(SYMPY_ITEM_2)]
    done = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        return {}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    rows = [
        ("check, cold: first SymPy item", "check", None, "first_s"),
        ("check, cold: second SymPy item", "check", None, "second_s"),
        ("check after warm(): worker start (background)", "warm", None, "warm_s"),
        ("check after warm(): first SymPy item", "warm", None, "first_s"),
    ]
    off = {"MATHEVAL_SYMPY_PREWARM": "0"}
    for n in (20_000, 200_000):
        rows.append((f"check_batch {n + 1:,} items, pre-warm on (default)", f"batch{n}", None, "first_s"))
        rows.append((f"check_batch {n + 1:,} items, pre-warm off", f"batch{n}", off, "first_s"))
    # Runs are interleaved (one run of every scenario per round), so load that drifts during the
    # measurement affects the compared scenarios alike.
    keys = list(dict.fromkeys((scenario, json.dumps(env)) for _, scenario, env, _ in rows))
    cache: dict[tuple[str, str], list[dict[str, float]]] = {k: [] for k in keys}
    for _ in range(a.repeat):
        for scenario, env_json in keys:
            cache[(scenario, env_json)].append(run(scenario, json.loads(env_json)))
    for label, scenario, env, key in rows:
        vals = [r[key] for r in cache[(scenario, json.dumps(env))] if key in r]
        if not vals:
            print(f"{label:50s} n/a")
            continue
        runs = ", ".join(f"{v:.2f}" for v in vals)
        print(f"{label:50s} median {statistics.median(vals):5.2f} s   ({runs})")


if __name__ == "__main__":
    main()
