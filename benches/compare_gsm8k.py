"""GSM8K-style answer checking: matheval_fast.check_batch vs math-verify vs the seed algorithm.

Runs all three on the same responses in one process and prints items/s and ratios.

    .venv/bin/python benches/compare_gsm8k.py [--n 1000000] [--mv-items 1319] [--threads 2]

Responses are the 1,319 GSM8K reference solutions followed by the seed's anchor
("The answer is: <gold>."), tiled to --n for matheval_fast. math-verify (PyPI) and the slow
pure-Python re-implementation of the seed (tests/reference/xwin_seed.py) run on the 1,319 items.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def timed(fn, *args, repeat: int = 1, **kw):
    best = float("inf")
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn(*args, **kw)
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="responses for matheval_fast")
    ap.add_argument("--mv-items", type=int, default=1319, help="items for math-verify and the seed reference")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()

    import matheval_fast as mf

    if mf.build_profile != "release":
        print(
            "WARNING: matheval_fast is a debug build; numbers are meaningless (make build)", file=sys.stderr
        )
    items = json.loads((ROOT / "data/answer_check/gsm8k_xwin.json").read_text(encoding="utf-8"))
    responses = [f"{it['solution']}\nThe answer is: {it['answer']}." for it in items]
    golds = [it["answer"] for it in items]
    reps = -(-args.n // len(items))
    big_r = (responses * reps)[: args.n]
    big_g = (golds * reps)[: args.n]

    rows = []
    for compat in ("fixed", "xwin"):
        mf.check_batch(big_r[:10_000], big_g[:10_000], compat=compat, threads=args.threads)  # warm up
        t, res = timed(mf.check_batch, big_r, big_g, compat=compat, threads=args.threads, repeat=3)
        rows.append((f"matheval_fast check_batch ({compat})", args.n, t, int(res.correct.sum())))
        t1, _ = timed(
            lambda c=compat: [mf.check(r, g, compat=c) for r, g in zip(responses, golds, strict=True)]
        )
        rows.append((f"matheval_fast check, one call per item ({compat})", len(items), t1, None))

    m = min(args.mv_items, len(items))
    from math_verify import parse, verify

    def run_mv():
        return sum(bool(verify(parse(g), parse(r))) for r, g in zip(responses[:m], golds[:m], strict=True))

    t, ok = timed(run_mv)
    rows.append(("math-verify 0.9.0 parse+verify", m, t, ok))

    try:
        from reference import xwin_seed
    except ImportError:
        xwin_seed = None
    if xwin_seed is not None:
        split = ["####", "The answer is: ", "The answer is"]

        def run_ref():
            return sum(
                bool(xwin_seed.simple_answer_check(r, g, "flex", "strict", split))
                for r, g in zip(responses[:m], golds[:m], strict=True)
            )

        t, ok = timed(run_ref)
        rows.append(("seed algorithm, pure Python (tests/reference)", m, t, ok))

    base = {name: n / t for name, n, t, _ in rows}
    fast = base["matheval_fast check_batch (fixed)"]
    print(f"\nGSM8K-style checking, {args.threads} Rust threads; correct counts are per run")
    print(
        f"{'implementation':55} {'items':>9} {'seconds':>9} {'items/s':>12} "
        f"{'fixed batch is':>15} {'correct':>9}"
    )
    for name, n, t, ok in rows:
        ratio = fast / base[name]
        print(f"{name:55} {n:>9} {t:>9.3f} {n / t:>12,.0f} {ratio:>14,.1f}x {'' if ok is None else ok:>9}")


if __name__ == "__main__":
    main()
