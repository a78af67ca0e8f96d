"""Every entry point gives one thread's verdicts when many threads use it first, at once (issue 31).

Each test runs a fresh interpreter (nothing imported yet: numpy, pyarrow, the SymPy pool and the batch
pools are all first used by the threads themselves) in which 8 or 16 threads pass a barrier and call one
entry point each: ``check_batch`` on lists (reading the numpy columns, which imports numpy) and on Arrow,
``check``, ``verify``, the Arrow kernel, ``score_records`` and TRL's reward function, in both modes. Then
the main thread computes the same items one by one with ``check`` and the child reports every
difference and every exception. Nothing is timed; a deadlock fails through the timeouts.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data" / "answer_check"

CHILD = textwrap.dedent(
    """
    import json, sys, threading, traceback

    pairs = [tuple(p) for p in json.load(open(sys.argv[1], encoding="utf-8"))]
    n_threads = int(sys.argv[2])
    import matheval_fast as mf  # numpy and pyarrow are not imported by this

    assert "numpy" not in sys.modules and "pyarrow" not in sys.modules, "imported too early"
    resp = [r for r, _ in pairs]
    gold = [g for _, g in pairs]
    barrier = threading.Barrier(n_threads)
    got, errors = {}, []

    def rows(correct, reason, extracted, path):
        return [[bool(c), str(r), e, str(p)] for c, r, e, p in zip(correct, reason, extracted, path)]

    # Batches of 16 items, one after another: the threads' calls overlap the first imports of numpy
    # and pyarrow by other threads (where a partially imported module once raised).
    parts = [(resp[i : i + 16], gold[i : i + 16]) for i in range(0, len(resp), 16)]

    def batch_lists(compat):
        out = []
        for rs, gs in parts:
            r = mf.check_batch(rs, gs, compat=compat, threads=2)
            out += rows(r.correct.tolist(), r.reason.tolist(), r.extracted.tolist(), r.path.tolist())
        return out

    def batch_arrow(compat):
        import pyarrow as pa

        out = []
        for rs, gs in parts:
            r = mf.check_batch(pa.array(rs), pa.chunked_array([pa.array(gs)]), compat=compat, threads=2)
            t = r.to_arrow()
            out += rows(*(t.column(c).to_pylist() for c in ("correct", "reason", "extracted", "path")))
        return out

    def v4(v):
        return [bool(v.correct), v.reason, v.extracted, v.path]

    def single(compat):
        return [v4(mf.check(r, g, compat=compat)) for r, g in pairs]

    def kernel(compat):
        import pyarrow as pa
        from matheval_fast import arrow

        out = []
        for rs, gs in parts:
            t = arrow.score_batch(pa.table({"completion": rs, "answer": gs}), compat=compat)
            out += rows(*(t.column(c).to_pylist() for c in ("correct", "reason", "extracted", "path")))
        return out

    def records(compat):
        from matheval_fast.score import score_records

        out = []
        for rs, gs in parts:
            rep = score_records([{"response": r, "gold": g} for r, g in zip(rs, gs)], compat=compat)
            assert not rep.rejected, rep.rejected[:3]
            out += [[bool(w["correct"]), w["reason"], w["extracted"], w["path"]] for w in rep.rows]
        return out

    def verify(compat):
        # verify(gold, answer) on the extracted answer: correct or not, per item (None: nothing extracted)
        out = []
        for r, g in pairs:
            e = mf.extract_answer(r)
            out.append(None if e is None else bool(mf.verify(g, e)))
        return out

    def reward(compat):
        from matheval_fast.integrations.trl import accuracy_reward

        return [x for rs, gs in parts for x in accuracy_reward(rs, gs)]

    entries = [
        ("batch_lists", "fixed", batch_lists), ("batch_lists", "xwin", batch_lists),
        ("single", "fixed", single), ("single", "xwin", single),
        ("batch_arrow", "fixed", batch_arrow), ("kernel", "xwin", kernel),
        ("records", "fixed", records), ("reward", "fixed", reward),
        ("verify", "fixed", verify), ("batch_arrow", "xwin", batch_arrow),
        ("kernel", "fixed", kernel), ("records", "xwin", records),
        ("reward", "fixed", reward), ("batch_lists", "fixed", batch_lists),
        ("single", "xwin", single), ("batch_lists", "xwin", batch_lists),
    ][:n_threads]

    def run(k):
        name, compat, fn = entries[k]
        barrier.wait()
        try:
            got[k] = fn(compat)
        except BaseException:
            errors.append(f"{name}/{compat}: " + traceback.format_exc())

    threads = [threading.Thread(target=run, args=(k,)) for k in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    # The reference: one thread, one item at a time, after everything else.
    ref = {c: [v4(mf.check(r, g, compat=c)) for r, g in pairs] for c in ("fixed", "xwin")}
    diffs = []
    for k, (name, compat, _) in enumerate(entries):
        if k not in got:
            continue
        want = ref[compat]
        if name == "reward":
            want = [None if v[1] == "gold_unparseable" else float(v[0]) for v in want]
            have = [None if w is None else h for h, w in zip(got[k], want)]
        elif name == "verify":
            want = [
                None if mf.extract_answer(r) is None else bool(mf.verify(g, mf.extract_answer(r)))
                for r, g in pairs
            ]
            have = got[k]
        else:
            have = got[k]
        for i, (h, w) in enumerate(zip(have, want)):
            if h != w:
                diffs.append([name, compat, i, h, w])
        if len(have) != len(want):
            diffs.append([name, compat, "length", len(have), len(want)])
    print(json.dumps({"errors": errors, "diffs": diffs[:20], "n_diffs": len(diffs), "done": sorted(got)}))
    """
)


#: The slowest SymPy item we keep (math-verify's suite): ~5 s of a worker's CPU in xwin mode.
SLOW_GOLD = "\\sqrt{\\sqrt{11}+\\sqrt{194}}"


def _pairs() -> list[tuple[str, str]]:
    """Qwen2.5-Math's 100 MATH responses, a third of math-verify's suite (LaTeX, sets, intervals, items
    only SymPy decides in xwin mode) and 60 GSM8K worked solutions against ``#### n`` golds."""
    out = []
    for line in open(DATA / "qwen25math_math_cot_100_graded.jsonl", encoding="utf-8"):
        r = json.loads(line)
        out.append((r["response"], r["gold"]))
    for line in list(open(DATA / "math_verify_cases.jsonl", encoding="utf-8"))[::3]:
        r = json.loads(line)
        if SLOW_GOLD not in r["gold"]:  # tested alone below: five seconds per decision
            out.append((r["pred"], r["gold"]))
    for i, it in enumerate(json.loads((DATA / "gsm8k_xwin.json").read_text(encoding="utf-8"))[:60]):
        said = it["answer"] if i % 2 else it["answer"] + "1"
        out.append((f"{it['solution']}\nThe answer is {said}.", f"#### {it['answer']}"))
    return out


def _run_child(tmp_path: Path, script: str, *args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.timeout(600)
@pytest.mark.parametrize("n_threads", [8, 16])
def test_every_entry_point_from_many_threads_at_first_use_gives_one_threads_verdicts(tmp_path, n_threads):
    """Numbers, LaTeX, worked-solution golds and the SymPy path, all threads at once on two cores, as
    their first use of the package: no exception, and every verdict equal to the one-thread reference."""
    data = tmp_path / "pairs.json"
    data.write_text(json.dumps(_pairs()), encoding="utf-8")
    out = _run_child(tmp_path, CHILD, str(data), str(n_threads))
    assert out["errors"] == []
    assert out["n_diffs"] == 0, out["diffs"]
    assert out["done"] == list(range(n_threads))


LOADED = textwrap.dedent(
    """
    import json, subprocess, sys, threading
    import matheval_fast as mf

    slow = json.loads(sys.argv[1])
    # A process that keeps a core busy and a thread of batches: the SymPy worker gets about two thirds
    # of a CPU while it decides the slow item, so its ~5 s of CPU take well over 5 s of the clock.
    spin = "import time\\nend = time.time() + 600\\nwhile time.time() < end: pass"
    spinners = [subprocess.Popen([sys.executable, "-c", spin])]
    done = threading.Event()
    rounds = []

    def busy():
        n = 0
        while not done.is_set():
            mf.check_batch(["The answer is: %d" % i for i in range(20000)], ["7"] * 20000, threads=2)
            n += 1
        rounds.append(n)

    workers = [threading.Thread(target=busy)]
    try:
        for t in workers:
            t.start()
        loaded = mf.check_batch([slow[0]], [slow[1]], compat="xwin").verdict(0)
        done.set()
        for t in workers:
            t.join()
    finally:
        for p in spinners:
            p.kill()
    quiet = mf.check(slow[0], slow[1], compat="xwin")
    def v4(v):
        return [bool(v.correct), v.reason, v.extracted, v.path]

    print(json.dumps({"loaded": v4(loaded), "quiet": v4(quiet), "rounds": rounds}))
    """
)


@pytest.mark.timeout(600)
def test_a_slow_sympy_item_gets_the_same_verdict_on_a_loaded_machine(tmp_path):
    """The item that became ``timeout`` when eight threads checked at once (~5 s of SymPy CPU on a quiet
    machine, against a 5 s deadline that counted the clock): decided while a spinning process and a
    batch thread load the two cores, then alone, with the default deadline (30 s of the worker's CPU:
    the same item took 14 s of CPU with both hyperthreads of a core busy). Same verdict, ``correct``."""
    pair = next(
        (json.loads(line)["pred"], json.loads(line)["gold"])
        for line in open(DATA / "math_verify_cases.jsonl", encoding="utf-8")
        if SLOW_GOLD in json.loads(line)["gold"]
    )
    out = _run_child(tmp_path, LOADED, json.dumps(pair))
    assert out["loaded"] == out["quiet"]
    assert out["quiet"][:2] == [True, "correct"] and out["quiet"][3] == "sympy"
    assert min(out["rounds"]) >= 1  # the batches did run while the item was decided
