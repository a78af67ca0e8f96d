"""Throughput and memory of the judge client against the loopback fake server (answering at once).

Runs the real pipeline (streamed JSONL input -> loader -> request keys -> aiohttp client with
concurrency 64 -> verdict parsing -> batched SQLite commits) against
``matheval_fast.judge.fake_server`` in a subprocess, and, in the same run, the peers: the ``openai``
SDK's ``AsyncOpenAI`` and a bare ``httpx.AsyncClient`` loop sending the same requests with the same
concurrency (HTTP only: no store, no parsing), so the ratios are honest in our disfavour.

Prints items/s (wall), client and server CPU seconds, items per client CPU-second, the load average
before and after, and the resident memory of this process after 100k and after all items (with
``--sizes 100000 1000000``, the memory-flatness check).

    .venv/bin/python benches/judge_throughput.py     # 50k items, 1 and 2 client processes, peers on 10k
    .venv/bin/python benches/judge_throughput.py --sizes 1000000 --workers 1 --peers 0   # memory
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from matheval_fast.judge.client import ClientOptions
from matheval_fast.judge.data import DatasetSpec, iter_items
from matheval_fast.judge.parallel import run_judge_parallel
from matheval_fast.judge.run import JudgeConfig, SamplingParams, run_async, run_judge
from matheval_fast.judge.store import RunStore
from matheval_fast.judge.templates import load_template

CONCURRENCY = 64


def start_server() -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "matheval_fast.judge.fake_server", "--style", "plain", "--no-log"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("listening on "):
        proc.kill()
        raise RuntimeError(f"fake server did not start: {line!r}")
    return proc, line.split()[-1]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def write_items(path: Path, n: int) -> None:
    """Synthetic items of realistic size (about 700 bytes of problem + response each)."""
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            rec = {
                "id": f"b{i}",
                "problem": f"Problem {i}: a triangle has sides 3, 4 and {i % 13 + 8}. Find its area. " * 3,
                "response": f"Using Heron's formula with s = {i % 97}, the area is computed step by step. "
                * 5
                + ("The problem cannot be solved as stated." if i % 5 == 0 else "The area is 6."),
                "label": "yes" if i % 5 == 0 else "no",
                "fault_type": "mathematical contradiction",
                "level": i % 5 + 1,
            }
            fh.write(json.dumps(rec) + "\n")


async def ours(
    url: str, path: Path, n: int, store_path: Path, checkpoints: dict[int, float]
) -> tuple[float, int]:
    cfg = JudgeConfig(
        base_url=url,
        model="test-judge",
        template=load_template("simple"),
        sampling=SamplingParams(),
        client=ClientOptions(concurrency=CONCURRENCY, timeout=60),
    )
    spec = DatasetSpec(path=path, inputs=cfg.template.inputs, group_fields=("fault_type", "level"))
    done = 0

    def on_result(_r: object) -> None:
        nonlocal done
        done += 1
        if done in checkpoints:
            checkpoints[done] = rss_mib()

    with RunStore(store_path, commit_every=512) as store:
        t0 = time.perf_counter()
        stats = await run_judge(iter_items(spec), store, cfg, api_key=None, total=n, on_result=on_result)
        wall = time.perf_counter() - t0
        assert stats.done == n and stats.failed == 0, stats
        assert store.count() == n
    return wall, stats.sent


def peer_bodies(n: int) -> list[bytes]:
    tpl = load_template("simple")
    out = []
    for i in range(n):
        msgs = tpl.messages(
            {"problem": f"Problem {i}: find the area. " * 6, "response": "The area is 6. " * 30}
        )
        out.append(
            json.dumps({"model": "test-judge", "messages": msgs, "max_tokens": 16, "temperature": 0}).encode()
        )
    return out


async def peer_openai(url: str, n: int) -> float:
    import openai

    client = openai.AsyncOpenAI(base_url=url, api_key="bench", max_retries=0)
    bodies = [json.loads(b) for b in peer_bodies(n)]
    it = iter(bodies)

    async def worker() -> None:
        for b in it:
            r = await client.chat.completions.create(**b)
            assert r.choices[0].message.content

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
    wall = time.perf_counter() - t0
    await client.close()
    return wall


async def peer_httpx(url: str, n: int) -> float:
    import httpx

    bodies = peer_bodies(n)
    it = iter(bodies)
    limits = httpx.Limits(max_connections=CONCURRENCY, max_keepalive_connections=CONCURRENCY)
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:

        async def worker() -> None:
            for b in it:
                r = await client.post(
                    url + "/chat/completions", content=b, headers={"Content-Type": "application/json"}
                )
                assert json.loads(r.content)["choices"]

        t0 = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
        return time.perf_counter() - t0


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(label: str, fn, n: int, server_pid: int) -> dict[str, float]:
    """Run ``fn`` (returns wall seconds); client CPU = this process + worker processes it reaped."""
    c0, k0, s0 = time.process_time(), children_cpu(), cpu_seconds(server_pid)
    wall = fn()
    cpu = time.process_time() - c0 + children_cpu() - k0
    srv = cpu_seconds(server_pid) - s0
    row = {
        "items": n,
        "wall_s": wall,
        "items_per_s": n / wall,
        "client_cpu_s": cpu,
        "server_cpu_s": srv,
        "items_per_client_cpu_s": n / cpu if cpu else float("nan"),
    }
    print(
        f"{label:<38} {n:>9,} items  {wall:8.2f} s  {n / wall:7,.0f} items/s  client CPU {cpu:7.2f} s "
        f"({row['items_per_client_cpu_s']:,.0f}/CPU-s)  server CPU {srv:6.2f} s",
        flush=True,
    )
    return row


def ours_parallel(url: str, path: Path, n: int, store_path: Path, workers: int) -> float:
    cfg = JudgeConfig(
        base_url=url,
        model="test-judge",
        template=load_template("simple"),
        client=ClientOptions(concurrency=CONCURRENCY, timeout=60),
    )
    spec = DatasetSpec(path=path, inputs=cfg.template.inputs, group_fields=("fault_type", "level"))
    with RunStore(store_path):
        pass  # the schema, before the workers start
    t0 = time.perf_counter()
    stats = run_judge_parallel(spec, store_path, cfg, api_key=None, workers=workers, total=n)
    wall = time.perf_counter() - t0
    assert stats.done == n and stats.failed == 0, stats
    with RunStore(store_path) as store:
        assert store.count() == n
    return wall


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[50_000], help="item counts for our pipeline")
    ap.add_argument(
        "--workers", type=int, nargs="+", default=[1, 2], help="client processes to try (1 = in this process)"
    )
    ap.add_argument("--peers", type=int, default=10_000, help="items for each peer (0: skip peers)")
    args = ap.parse_args()
    try:
        import uvloop  # noqa: F401

        loop = "uvloop (as the judge uses when installed)"
    except ImportError:
        loop = "asyncio"
    print(
        f"load average before: {os.getloadavg()}, {os.cpu_count()} CPUs, "
        f"concurrency {CONCURRENCY}, loop {loop}"
    )
    proc, url = start_server()
    results = {}
    try:
        with tempfile.TemporaryDirectory(prefix="judge-bench-") as tmp:
            for n in args.sizes:
                data = Path(tmp) / f"items_{n}.jsonl"
                write_items(data, n)
                for workers in args.workers:
                    store = Path(tmp) / f"store_{n}_{workers}.sqlite"
                    if workers == 1:
                        marks = {k: float("nan") for k in (10_000, 100_000, n) if k <= n}
                        rss0 = rss_mib()

                        def pipeline(
                            data: Path = data, n: int = n, store: Path = store, marks: dict = marks
                        ) -> float:
                            return run_async(ours(url, data, n, store, marks))[0]

                        label = "matheval_fast judge, 1 process"
                        results[f"ours_{n}_1"] = timed(label, pipeline, n, proc.pid)
                        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                        print(
                            f"    RSS before {rss0:.0f} MiB; after "
                            + ", ".join(f"{k:,} items {v:.0f} MiB" for k, v in marks.items())
                            + f"; peak (ru_maxrss) {peak:.0f} MiB"
                            + f"; store {store.stat().st_size / 2**20:.0f} MiB",
                            flush=True,
                        )
                    else:

                        def parallel(
                            data: Path = data, n: int = n, store: Path = store, w: int = workers
                        ) -> float:
                            return ours_parallel(url, data, n, store, w)

                        label = f"matheval_fast judge, {workers} processes"
                        results[f"ours_{n}_{workers}"] = timed(label, parallel, n, proc.pid)
                    for f in Path(tmp).glob(f"store_{n}_{workers}.sqlite*"):
                        f.unlink()
                data.unlink()
            if args.peers:
                for name, fn in (
                    ("openai SDK AsyncOpenAI (HTTP only)", peer_openai),
                    ("httpx AsyncClient (HTTP only)", peer_httpx),
                ):
                    try:
                        results[name] = timed(
                            name, lambda fn=fn: run_async(fn(url, args.peers)), args.peers, proc.pid
                        )
                    except ImportError as exc:
                        print(f"{name}: skipped ({exc})")
        base = results[f"ours_{args.sizes[0]}_1"]
        for name, row in results.items():
            if not name.startswith("ours"):
                print(
                    f"ratio ours (1 process) / {name}: "
                    f"{base['items_per_s'] / row['items_per_s']:.1f}x items/s, "
                    f"{base['items_per_client_cpu_s'] / row['items_per_client_cpu_s']:.1f}x"
                    " per client CPU-second"
                )
    finally:
        proc.terminate()
        proc.wait(10)
    print(f"load average after: {os.getloadavg()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
