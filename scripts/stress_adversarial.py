"""Adversarial inputs against the core, each in its own subprocess with a time limit.

Every class of input that once took the core seconds or minutes (issue 15: runs of anchors,
escaped dollars, unclosed display openers, nested fractions, piles of unclosed or nested boxes in
the seed emulation, a 900,000-digit number) is built at two sizes, checked in both modes through
``_core.check_one`` (the Rust call alone: no SymPy), and timed. A case fails when its subprocess
exceeds the time limit (a hang or a quadratic path) or raises; the report gives the core time
per case and the ratio between the two sizes (about 2 for linear work at double the size).

    .venv/bin/python scripts/stress_adversarial.py                  # full size: inputs up to 1 MiB
    .venv/bin/python scripts/stress_adversarial.py --scale 0.05     # the short form `make test` runs
    .venv/bin/python scripts/stress_adversarial.py --json out.json  # machine-readable results

The time limit is deliberately loose (seconds, not milliseconds): it catches a path that went
quadratic again on a shared CI machine, never a slow one. Exact work is pinned by the Rust tests
that count steps; this script is the end-to-end net, through the binding, in fresh processes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable

MIB = 1 << 20

# name -> (builder of (response, gold) at size n, compat, the n that fills about 1 MiB)
CASES: dict[str, tuple[Callable[[int], tuple[str, str]], str, int]] = {
    "anchors '####'*n": (lambda n: ("####" * n, "5"), "fixed", 250_000),
    "escaped dollars '\\\\$'*n + '5'": (lambda n: ("\\$" * n + "5", "5"), "fixed", 400_000),
    "unclosed '\\\\['*n + '5'": (lambda n: ("\\[" * n + "5", "5"), "fixed", 400_000),
    "unclosed '\\\\('*n + '5'": (lambda n: ("\\(" * n + "5", "5"), "fixed", 400_000),
    "nested $\\\\frac{1}{...}$": (
        lambda n: ("$" + "\\frac{1}{" * n + "1" + "}" * n + "$", "\\frac12"),
        "fixed",
        60_000,
    ),
    "unclosed '\\\\boxed{'*n (fixed)": (lambda n: ("\\boxed{" * n, "5"), "fixed", 140_000),
    "unclosed '\\\\boxed{'*n (xwin)": (lambda n: ("\\boxed{" * n, "5"), "xwin", 140_000),
    "unclosed '\\\\mbox{'*n (xwin)": (lambda n: ("\\mbox{" * n, "5"), "xwin", 160_000),
    "nested boxes (xwin)": (lambda n: ("\\boxed{" * n + "5" + "}" * n, "5"), "xwin", 120_000),
    "nested boxes (fixed)": (lambda n: ("\\boxed{" * n + "5" + "}" * n, "5"), "fixed", 120_000),
    "900k-digit number (xwin)": (lambda n: ("The answer is " + "7" * n, "5"), "xwin", 900_000),
    "900k-digit number (fixed)": (lambda n: ("The answer is " + "7" * n, "5"), "fixed", 900_000),
    "quoted unclosed boxes (xwin)": (lambda n: ('"' + "\\boxed{" * n, "5"), "xwin", 140_000),
    "'\\\\text{'*n (xwin latex)": (lambda n: ("\\text{" * n, "\\frac12"), "xwin", 160_000),
}


def _child(name: str, n: int) -> None:
    from matheval_fast import _core

    build, compat, _ = CASES[name]
    response, gold = build(n)
    assert len(response.encode()) <= MIB, f"{name}: {len(response)} bytes is over the 1 MiB limit"
    t0 = time.perf_counter()
    out = _core.check_one(response, gold, kind="auto", compat=compat, extract_policy="flex")
    elapsed = time.perf_counter() - t0
    reason = getattr(out, "reason", type(out).__name__)
    print(json.dumps({"seconds": elapsed, "reason": reason, "bytes": len(response)}))


def run_case(name: str, n: int, limit: float) -> dict:
    cmd = [sys.executable, __file__, "--child", name, "--n", str(n)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return {"case": name, "n": n, "ok": False, "why": f"over {limit:g} s"}
    if proc.returncode != 0:
        return {"case": name, "n": n, "ok": False, "why": proc.stderr.strip().splitlines()[-1:]}
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"case": name, "n": n, "ok": True, **res}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the 1 MiB sizes (default 1)")
    parser.add_argument("--limit", type=float, default=20.0, help="seconds per subprocess (default 20)")
    parser.add_argument("--json", help="write the results to this file")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--n", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child, args.n)
        return 0
    if not 0 < args.scale <= 1:
        parser.error("--scale must be in (0, 1]")
    results = []
    failed = 0
    print(f"{'case':36s} {'bytes':>9s} {'core ms':>9s} {'half-size ms':>13s}  reason")
    for name, (_, _, full) in CASES.items():
        n = max(2, int(full * args.scale))
        big = run_case(name, n, args.limit)
        half = run_case(name, n // 2, args.limit)
        results.append({"big": big, "half": half})
        if not (big["ok"] and half["ok"]):
            failed += 1
            print(f"{name:36s} FAILED: {big.get('why') or half.get('why')}")
            continue
        print(
            f"{name:36s} {big['bytes']:9d} {big['seconds'] * 1e3:9.1f} {half['seconds'] * 1e3:13.1f}  "
            f"{big['reason']}"
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    print(f"{len(CASES) - failed}/{len(CASES)} cases within {args.limit:g} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
