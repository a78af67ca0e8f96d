"""Rescore a big lm-evaluation-harness samples log: samples/s, CPU-seconds and peak RSS.

    .venv/bin/python benches/rescore_lmeval.py [--n 1000000] [--fewshot 5] [--log
    /tmp/samples_gsm8k_bench.jsonl]
        [--copy] [--items-format parquet] [--threads N] [--keep] [--breakdown]

Generates (once; reused when the file exists with the same size) a GSM8K-style log in lm-eval's layout:
every line is what lm-eval 0.4.13 writes for its ``gsm8k`` task (doc, target = the GSM8K answer field
``solution\\n#### 18``, the 5-shot prompt in ``arguments`` as in tests/data/logs/lm_eval, ``resps``,
``filtered_resps``, ``filter``, ``metrics``, three hashes, ``exact_match``); lines are grouped by filter
(all ``strict-match`` lines, then all ``flexible-extract``) as lm-eval writes them. Questions and solutions
are the 1,319 GSM8K test items, cycled; responses are the solution followed by an answer line in one of six
styles; ``filtered_resps`` and ``exact_match`` come from the same regexes lm-eval's gsm8k filters use (done
here in Python, so they are close to lm-eval's, not lm-eval's own). Then runs ``matheval_fast.rescore`` on it
and prints samples/s (wall), samples per CPU-second, peak RSS and RSS over time (memory must stay flat),
with the load average before and after.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

STYLES = (
    "{sol}\n#### {ans}",
    "{sol}\nThe answer is {ans}.",
    "{sol}\nSo the final answer is $\\boxed{{{ans}}}$.",
    "{sol}\n#### {wrong}",
    "{sol}\nThe answer is {ans} dollars, which is 2 more than 3 weeks ago.",
    "I am not sure how to solve this problem.",
)
STRICT = re.compile(r"#### (\-?[0-9\.\,]+)")
FLEX = re.compile(r"(-?[$0-9.,]{2,})|(-?[0-9]+)")


def _norm(s: str) -> str:
    for pat in (",", r"\$", r"(?s).*#### ", r"\.$"):
        s = re.sub(pat, "", s)
    return s.lower().strip()


def fewshot_prefix(fewshot: int) -> str:
    if fewshot == 0:
        return ""
    line = next((ROOT / "tests/data/logs/lm_eval").glob("*/samples_gsm8k_local_*.jsonl")).open().readline()
    prompt = json.loads(line)["arguments"]["gen_args_0"]["arg_0"]
    shots = prompt.split("\n\n")[:-1][:fewshot]  # lm-eval joins shots with a blank line
    return "\n\n".join(shots) + "\n\n"


def generate(path: Path, n: int, fewshot: int) -> None:
    items = json.loads((ROOT / "data/answer_check/gsm8k_xwin.json").read_text(encoding="utf-8"))
    prefix = fewshot_prefix(fewshot)
    docs = n // 2
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for filt in ("strict-match", "flexible-extract"):
            for i in range(docs if filt == "strict-match" else n - docs):
                it = items[i % len(items)]
                sol = it["solution"].rstrip()
                target = f"{sol}\n#### {it['answer']}"
                style = STYLES[i % len(STYLES)]
                resp = " " + style.format(
                    sol=sol, ans=it["answer"], wrong=int(float(it["answer"].replace(",", ""))) + 1
                )
                if filt == "strict-match":
                    m = STRICT.findall(resp)
                    filtered = m[0] if m else "[invalid]"
                else:
                    m = [a or b for a, b in FLEX.findall(resp)]
                    filtered = m[-1] if m else "[invalid]"
                prompt = f"{prefix}Question: {it['question']}\nAnswer:"
                doc = {"question": it["question"], "answer": target}
                rec = {
                    "doc_id": i,
                    "doc": doc,
                    "target": target,
                    "arguments": {
                        "gen_args_0": {
                            "arg_0": prompt,
                            "arg_1": {
                                "until": ["Question:", "</s>", "<|im_end|>"],
                                "do_sample": False,
                                "temperature": 0.0,
                            },
                        }
                    },
                    "resps": [[resp]],
                    "filtered_resps": [filtered],
                    "filter": filt,
                    "metrics": ["exact_match"],
                    "doc_hash": hashlib.sha256(it["question"].encode()).hexdigest(),
                    "prompt_hash": hashlib.sha256(prompt.encode()).hexdigest(),
                    "target_hash": hashlib.sha256(target.encode()).hexdigest(),
                    "exact_match": float(_norm(filtered) == _norm(target)),
                }
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    os.replace(tmp, path)


class RssSampler(threading.Thread):
    """VmRSS of this process every `every` seconds: the peak and a timeline."""

    def __init__(self, every: float = 0.25) -> None:
        super().__init__(daemon=True)
        self.every = every
        self.samples: list[tuple[float, int]] = []
        self.stop = threading.Event()
        self.t0 = time.perf_counter()

    def run(self) -> None:
        while not self.stop.is_set():
            with open("/proc/self/status") as fh:
                kb = next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))
            self.samples.append((time.perf_counter() - self.t0, kb))
            self.stop.wait(self.every)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="lines (samples) in the log")
    ap.add_argument(
        "--fewshot", type=int, default=5, help="few-shot examples in each logged prompt (lm-eval: 5)"
    )
    ap.add_argument("--log", type=Path, default=None, help="where the generated log lives (default: /tmp)")
    ap.add_argument(
        "--copy", action="store_true", help="also write the rescored copy of the log (rescore --copy)"
    )
    ap.add_argument("--items-format", default="parquet", choices=["parquet", "jsonl"])
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--chunk-mib", type=int, default=32)
    ap.add_argument("--keep", action="store_true", help="keep the output folder")
    ap.add_argument(
        "--breakdown",
        action="store_true",
        help="also time each phase in CPU-seconds (serially: one Rust thread, no read-ahead; slower)",
    )
    args = ap.parse_args()

    import matheval_fast as mf
    from matheval_fast.rescore import rescore

    if mf.build_profile != "release":
        print(
            "WARNING: matheval_fast is a debug build; numbers are meaningless (make build)", file=sys.stderr
        )
    log = (
        args.log
        or Path(tempfile.gettempdir())
        / f"samples_gsm8k_bench-{args.n}-{args.fewshot}shot_2026-01-01T00-00-00.000000.jsonl"
    )
    if not log.exists():
        t = time.perf_counter()
        generate(log, args.n, args.fewshot)
        print(f"generated {log} in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    size = log.stat().st_size
    out = Path(tempfile.mkdtemp(prefix="rescore-bench-"))
    load_before = os.getloadavg()
    sampler = RssSampler()
    sampler.start()
    cpu0 = time.process_time()
    ru0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    rep = rescore(
        [log],
        out,
        copy=args.copy,
        items_format=args.items_format,
        threads=args.threads,
        chunk_bytes=args.chunk_mib << 20,
    )
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    sampler.stop.set()
    sampler.join()
    load_after = os.getloadavg()
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    rows = rep.rows
    timeline = sampler.samples
    q = [timeline[int(f * (len(timeline) - 1))] for f in (0.1, 0.25, 0.5, 0.75, 1.0)] if timeline else []
    print(f"log: {log} ({size / 1e9:.2f} GB, {args.n:,} lines, {args.fewshot}-shot prompts)")
    print(f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}")
    print(f"load average after:  {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    print(
        f"cores: {os.cpu_count()}, threads: {args.threads or 'all'}, copy: {args.copy}, "
        f"items: {args.items_format}"
    )
    print(f"rows scored: {rows:,} in {wall:.2f} s wall, {cpu:.2f} CPU-s (user+sys, all threads)")
    print(f"samples/s (wall): {rows / wall:,.0f}")
    print(f"samples per CPU-second: {rows / cpu:,.0f}")
    print(f"read throughput: {size / wall / 1e6:,.0f} MB/s")
    print(f"peak RSS: {peak_kb / 1024:.0f} MiB (ru_maxrss; before the run {ru0.ru_maxrss / 1024:.0f} MiB)")
    print("RSS over the run (s, MiB): " + ", ".join(f"{t:.1f}s {kb / 1024:.0f}" for t, kb in q))
    g = rep.groups
    for x in g:
        print(
            f"  {x['task']} [{x['filter']}]: lm-eval {100 * x['framework_accuracy']:.2f} %, "
            f"ours {100 * x['ours_accuracy']:.2f} %, "
            f"{x['disagreements']:,} disagreements"
        )
    if args.breakdown:
        breakdown(log, out / "breakdown", args)
    if args.keep:
        print(f"outputs: {out}")
    else:
        import shutil

        shutil.rmtree(out)


def breakdown(log: Path, out: Path, args: argparse.Namespace) -> None:
    """CPU-seconds per phase, measured serially (one Rust worker thread, no read-ahead)."""
    from collections import defaultdict

    import matheval_fast.answer as A
    import matheval_fast.io.logs.base as B
    import matheval_fast.io.logs.jsonl as J
    import matheval_fast.io.logs.lm_eval as L
    import matheval_fast.rescore as R

    spent: dict[str, float] = defaultdict(float)

    def timed(name, fn):
        def run(*a, **k):
            t = time.process_time()
            try:
                return fn(*a, **k)
            finally:
                spent[name] += time.process_time() - t

        return run

    def serial(path, chunk_bytes, fields):
        first = 1
        chunks = J.read_chunks(path, chunk_bytes)
        while True:
            data = timed("read file", lambda: next(chunks, None))()
            if data is None:
                return
            ch = timed("parse JSON (Rust)", J.fields_of)(data, first, fields)
            first += ch.line_count
            yield ch

    saved = (
        L.parsed_chunks,
        L.build_batch,
        R.score_log_batch,
        R._record_view,
        R._accumulate,
        R._ItemsWriter.write,
    )
    saved_core = A._core.check_batch
    saved_writer = R.BackgroundWriter

    class Inline:  # the items file written in this thread, so the phases add up
        def __init__(self, write):
            self.write = write

        def __call__(self, item):
            self.write(item)

        def close(self):
            pass

        def abandon(self):
            pass

    R.BackgroundWriter = Inline
    L.parsed_chunks = serial
    L.build_batch = timed("normalise batch (Arrow)", L.build_batch)
    B.gold_answer = B.gold_answer
    R.score_log_batch = timed("score (kernel)", R.score_log_batch)
    A._core.check_batch = timed("  of which the Rust checker", A._core.check_batch)
    R._record_view = timed("per-record view + kinds", R._record_view)
    R._accumulate = timed("summary statistics", R._accumulate)
    R._ItemsWriter.write = timed("write items (Parquet)", R._ItemsWriter.write)
    try:
        t = time.process_time()
        rep = R.rescore([log], out, copy=args.copy, threads=1, chunk_bytes=args.chunk_mib << 20)
        total = time.process_time() - t
    finally:
        (
            L.parsed_chunks,
            L.build_batch,
            R.score_log_batch,
            R._record_view,
            R._accumulate,
            R._ItemsWriter.write,
        ) = saved
        A._core.check_batch = saved_core
        R.BackgroundWriter = saved_writer
    print(f"breakdown (serial, CPU-seconds; total {total:.2f} s = {total / rep.rows * 1e6:.2f} us/row):")
    for k, v in spent.items():
        print(f"  {k:32s} {v:7.2f} s  {v / rep.rows * 1e6:6.2f} us/row")
    rest = total - sum(v for k, v in spent.items() if not k.startswith("  "))
    print(f"  {'other (copy, summary, glue)':32s} {rest:7.2f} s  {rest / rep.rows * 1e6:6.2f} us/row")


if __name__ == "__main__":
    main()
