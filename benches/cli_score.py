"""``matheval-fast score`` end to end on a big GSM8K-style file, against ``check_batch`` on the same rows.

    .venv/bin/python benches/cli_score.py [--n 2000000] [--repeat 3] [--dir /tmp] [--keep]

Generates (once; reused when present) ``score_bench_<n>.jsonl`` and ``.parquet``: records with ``id``,
``question``, ``completion`` (a GSM8K solution followed by an answer line in one of six styles) and
``answer``, no ``type`` (so every row takes ``kind="auto"``, as ``mf.check`` does). Then times, each in a
fresh process: ``check_batch`` on the rows already in memory (the ceiling: the Rust check alone, the
best of ``--repeat`` calls), and the command line from file to file (JSONL -> JSONL, JSONL -> Parquet,
Parquet -> Parquet; the median of ``--repeat`` runs), printing rows/s, the ratio to ``check_batch``, and
the peak RSS of each process, with the load average before and after.
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
sys.path.insert(0, str(ROOT / "benches"))

# The same six response styles as the rescore benchmark (answers, wrong answers, no answer).
from rescore_lmeval import STYLES  # noqa: E402


def generate(n: int, jl: Path, pq_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    items = json.loads((ROOT / "data" / "answer_check" / "gsm8k_xwin.json").read_text(encoding="utf-8"))
    if not jl.exists():
        with open(jl, "w", encoding="utf-8") as fh:
            for i in range(n):
                it = items[i % len(items)]
                resp = STYLES[i % len(STYLES)].format(
                    sol=it["solution"], ans=it["answer"], wrong=it["answer"] + "1"
                )
                rec = {
                    "id": f"gsm8k-{i}",
                    "question": it["question"],
                    "completion": resp,
                    "answer": it["answer"],
                }
                fh.write(json.dumps(rec) + "\n")
    if not pq_path.exists():
        writer = None
        with open(jl, encoding="utf-8") as fh:
            while True:
                lines = [fh.readline() for _ in range(200_000)]
                lines = [x for x in lines if x]
                if not lines:
                    break
                t = pa.Table.from_pylist([json.loads(x) for x in lines])
                writer = writer or pq.ParquetWriter(pq_path, t.schema)
                writer.write_table(t)
        if writer is not None:
            writer.close()


IN_MEMORY = """
import json, sys, time
import pyarrow.parquet as pq
import matheval_fast as mf
t = pq.read_table(sys.argv[1], columns=["completion", "answer"])
resp, gold = t.column("completion").combine_chunks(), t.column("answer").combine_chunks()
best = None
for _ in range(int(sys.argv[2])):  # the best of a few: the ceiling the command line is held to
    t0 = time.perf_counter(); c0 = time.process_time()
    res = mf.check_batch(resp, gold)
    run = (time.perf_counter() - t0, time.process_time() - c0)
    best = run if best is None or run[0] < best[0] else best
print(json.dumps({"rows": len(resp), "wall": best[0], "cpu": best[1], "correct": int(res.correct.sum())}))
"""


def run_measured(argv: list[str]) -> tuple[float, float, str]:
    """(wall seconds, peak RSS in MB, stdout) of one child process (VmHWM polled from /proc)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak = 0
    status = Path(f"/proc/{proc.pid}/status")
    while proc.poll() is None:
        try:
            for line in status.read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]))
        except OSError:
            pass
        time.sleep(0.05)
    wall = time.perf_counter() - t0
    out, err = proc.communicate()
    if proc.returncode:
        raise RuntimeError(f"{argv} failed: {err[-2000:]}")
    return wall, peak / 1024, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=2_000_000)
    ap.add_argument("--dir", type=Path, default=Path("/tmp"))  # noqa: S108 - a benchmark's scratch space
    ap.add_argument("--keep", action="store_true", help="keep the output files")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each measurement")
    args = ap.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    jl = args.dir / f"score_bench_{args.n}.jsonl"
    pqf = args.dir / f"score_bench_{args.n}.parquet"
    generate(args.n, jl, pqf)
    print(f"load average before: {os.getloadavg()}; cores: {os.cpu_count()}")
    print(
        f"input: {args.n:,} rows; JSONL {jl.stat().st_size / 1e6:.0f} MB, "
        f"Parquet {pqf.stat().st_size / 1e6:.0f} MB"
    )
    py = sys.executable
    _, rss, out = run_measured([py, "-c", IN_MEMORY, str(pqf), str(args.repeat)])
    base = json.loads(out)
    rate0 = base["rows"] / base["wall"]
    print(
        f"check_batch in memory, best of {args.repeat}: {rate0:,.0f} rows/s ({base['wall']:.2f} s wall, "
        f"{base['cpu']:.2f} s CPU; "
        f"process peak RSS {rss:.0f} MB with the rows loaded)"
    )
    runs = [
        ("JSONL -> JSONL", jl, args.dir / "score_bench_out.jsonl"),
        ("JSONL -> Parquet", jl, args.dir / "score_bench_out.parquet"),
        ("Parquet -> Parquet", pqf, args.dir / "score_bench_out2.parquet"),
    ]
    print(f"command line: median of {args.repeat} runs (each in a fresh process, start-up included)")
    head = ("rows/s", "x check_batch", "wall s", "all runs, s", "peak RSS MB")
    print(f"{'':<20} {head[0]:>12} {head[1]:>14} {head[2]:>8} {head[3]:>18} {head[4]:>12}")
    for name, src, dst in runs:
        walls, peak = [], 0.0
        for _ in range(args.repeat):
            wall, rss, _ = run_measured(
                [py, "-m", "matheval_fast", "score", str(src), "--out", str(dst), "--quiet"]
            )
            summary = json.loads(dst.with_name(dst.name.rsplit(".", 1)[0] + ".summary.json").read_text())
            assert summary["prompts"][0]["correct"] == base["correct"], "the CLI and check_batch disagree"
            walls.append(wall)
            peak = max(peak, rss)
        wall = statistics.median(walls)
        rate = args.n / wall
        each = " ".join(f"{w:.2f}" for w in walls)
        print(f"{name:<20} {rate:>12,.0f} {rate / rate0:>14.2f} {wall:>8.2f} {each:>18} {peak:>12.0f}")
        if not args.keep:
            dst.unlink()
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
