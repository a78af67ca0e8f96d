"""Siegel-Tukey batch throughput: matheval_fast against straightforward Python + SciPy, in the same run.

Workload: N pairs of 5-vs-5 integer self-evaluation scores in 1-10 (protocol D's shape), seeded.

- ours/exact: ``stats.siegel_tukey_batch`` (exact conditional permutation p-value) on all N pairs.
- ours/desctools: the same with ``variant="desctools"``.
- peer/exact: per pair, Siegel-Tukey ranks in NumPy and ``scipy.stats.permutation_test`` over all 252
  splits (``n_resamples=np.inf``, vectorized): the straightforward exact implementation.
- peer/desctools: per pair, the same ranks and ``scipy.stats.mannwhitneyu`` (asymptotic with
  continuity correction when tied, exact otherwise), the DescTools-compatible recipe.

The peers are timed on a random subset (``--peer-pairs``) because running them on millions of pairs
takes hours; throughput is pairs per second, and the subset's p-values are compared with ours.

    python benches/compare_siegel_tukey.py              # 1,000,000 pairs (README figures)
    python benches/compare_siegel_tukey.py --fast       # quick smoke run
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import matheval_fast
import numpy as np
from matheval_fast import stats
from scipy import stats as sps


def st_ranks(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tie-averaged Siegel-Tukey ranks, written the obvious way."""
    pooled = np.concatenate([x, y])
    n = len(pooled)
    order = np.argsort(pooled, kind="stable")
    raw = np.empty(n)
    lo, hi = 0, n - 1
    for i in range(1, n + 1):
        if i % 4 <= 1:
            raw[lo] = i
            lo += 1
        else:
            raw[hi] = i
            hi -= 1
    _, inv = np.unique(pooled[order], return_inverse=True)
    avg = np.bincount(inv, raw) / np.bincount(inv)
    ranks = np.empty(n)
    ranks[order] = avg[inv]
    return ranks[: len(x)], ranks[len(x) :]


def _sum_x(a, b, axis):
    return np.sum(a, axis=axis)


def peer_exact(x: np.ndarray, y: np.ndarray) -> float:
    rx, ry = st_ranks(x, y)
    res = sps.permutation_test(
        (rx, ry),
        _sum_x,
        permutation_type="independent",
        alternative="two-sided",
        n_resamples=np.inf,
        vectorized=True,
    )
    return float(res.pvalue)


def peer_desctools(x: np.ndarray, y: np.ndarray) -> float:
    # Equal sizes: DescTools puts y first (the "larger" group); N = 10 is even, so no median drop.
    rx, ry = st_ranks(x, y)
    tied = len(np.unique(np.concatenate([rx, ry]))) < len(rx) + len(ry)
    method = "asymptotic" if tied else "exact"
    return float(sps.mannwhitneyu(ry, rx, method=method, use_continuity=True).pvalue)


def best_of(fn, repeat: int) -> tuple[float, float, object]:
    """Best wall time of `repeat` runs, the process CPU time of that run, and its result."""
    best, cpu, out = float("inf"), float("nan"), None
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        out = fn()
        wall, used = time.perf_counter() - t0, time.process_time() - c0
        if wall < best:
            best, cpu = wall, used
    return best, cpu, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=1_000_000)
    ap.add_argument("--peer-pairs", type=int, default=2_000, help="pairs the SciPy peers run on")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs of ours (best is reported)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--fast", action="store_true", help="100k pairs, 300 peer pairs, 1 repeat")
    args = ap.parse_args()
    if args.fast:
        args.pairs, args.peer_pairs, args.repeat = 100_000, 300, 1
    if matheval_fast.build_profile != "release":
        print("WARNING: matheval_fast is a debug build; run `make build` first", file=sys.stderr)

    rng = np.random.default_rng(args.seed)
    x = rng.integers(1, 11, size=(args.pairs, 5)).astype(np.float64)
    y = rng.integers(1, 11, size=(args.pairs, 5)).astype(np.float64)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"# Siegel-Tukey, {args.pairs:,} pairs of 5 vs 5 integer scores in 1-10")
    print(
        f"# {platform.python_implementation()} {platform.python_version()}, numpy {np.__version__}, ", end=""
    )
    print(
        f"scipy {__import__('scipy').__version__}, matheval_fast {matheval_fast.__version__}, {cores} cores"
    )

    stats.siegel_tukey_batch(x[:1000], y[:1000])  # warm the per-thread caches of tie patterns
    t_exact, cpu_exact, ours = best_of(lambda: stats.siegel_tukey_batch(x, y), args.repeat)
    t_desc, cpu_desc, ours_desc = best_of(
        lambda: stats.siegel_tukey_batch(x, y, variant="desctools"), args.repeat
    )
    ok = ours.ok.mean()

    idx = rng.choice(args.pairs, size=min(args.peer_pairs, args.pairs), replace=False)
    sub = [i for i in idx if ours.ok[i]]  # all-tied rows have no p-value in either implementation
    c0, t0 = time.process_time(), time.perf_counter()
    peer_p = np.array([peer_exact(x[i], y[i]) for i in sub])
    t_peer, cpu_peer = time.perf_counter() - t0, time.process_time() - c0
    c0, t0 = time.process_time(), time.perf_counter()
    peer_dp = np.array([peer_desctools(x[i], y[i]) for i in sub])
    t_peer_desc, cpu_peer_desc = time.perf_counter() - t0, time.process_time() - c0
    diff = np.max(np.abs(peer_p - ours.pvalue[sub]))
    diff_desc = np.max(np.abs(peer_dp - ours_desc.pvalue[sub]))

    rate = args.pairs / t_exact
    rate_desc = args.pairs / t_desc
    rate_peer = len(sub) / t_peer
    rate_peer_desc = len(sub) / t_peer_desc
    print(f"# {ok:.4%} of pairs testable (the rest: all ten scores equal)\n")
    print("| implementation | pairs timed | wall s | pairs/s (wall) | CPU s | pairs per CPU-s | max p diff |")
    print("|---|---|---|---|---|---|---|")
    rows = [
        ("matheval_fast exact (batch)", args.pairs, t_exact, cpu_exact, ""),
        ("SciPy permutation_test, exact", len(sub), t_peer, cpu_peer, f"{diff:.1e}"),
        ("matheval_fast desctools (batch)", args.pairs, t_desc, cpu_desc, ""),
        ("SciPy mannwhitneyu on ST ranks", len(sub), t_peer_desc, cpu_peer_desc, f"{diff_desc:.1e}"),
    ]
    for name, n, wall, cpu, d in rows:
        print(f"| {name} | {n:,} | {wall:.3f} | {n / wall:,.0f} | {cpu:.3f} | {n / cpu:,.0f} | {d} |")
    print(f"\nwall-clock speed-up over SciPy: exact {rate / rate_peer:,.0f}x, ", end="")
    print(f"desctools {rate_desc / rate_peer_desc:,.0f}x")
    print(f"per CPU-second: exact {(args.pairs / cpu_exact) / (len(sub) / cpu_peer):,.0f}x, ", end="")
    print(f"desctools {(args.pairs / cpu_desc) / (len(sub) / cpu_peer_desc):,.0f}x")
    print(f"throughput: {rate / 1e6:.2f} M tests/s exact, {rate_desc / 1e6:.2f} M tests/s desctools ", end="")
    print(f"(load average {os.getloadavg()[0]:.1f} on {cores} cores)")
    if diff > 1e-9 or diff_desc > 1e-9:
        print("ERROR: p-values disagree with the peer", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
