"""Bad arguments, bad outputs and interrupted runs, command by command (issue 31: items 4, 8, 11,
12, 16, 17).

Every case runs one command in a folder that already holds its inputs and a previous run's outputs,
and checks: the exit status; one line ``matheval-fast COMMAND: error: ...`` naming the option or file
and what to do; no traceback; and the folder afterwards byte for byte as before (inputs untouched,
the previous outputs intact, no temporary file, no new folder). Interrupted runs are stopped by a real
SIGINT / SIGTERM at a known point: a subprocess that reports when it got there (a request the fake
judge server holds, a record read from a pipe that stays open, or a step of the run that blocks after
writing its temporary files), never after a fixed sleep.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from matheval_fast._report import files as files_mod
from matheval_fast.cli import MAX_THREADS, float_range, int_range, main
from matheval_fast.judge.fake_server import FakeJudgeServer

from tests.judge_support import item, write_items

ROOT = Path(__file__).resolve().parents[1]
LM_LOG = next(
    (ROOT / "tests" / "data" / "logs" / "lm_eval" / "canned__gsm8k-math").glob("samples_gsm8k_local_*")
)
SEED_CONFIG = ROOT / "data" / "answer_check" / "eval_config_xwin.json"
NOWHERE = "http://127.0.0.1:9/v1"  # never reached: every judge case below fails before the network

# ---- the folder every case runs in ---------------------------------------------------------------


def _make_world(root: Path) -> None:
    """Inputs of every command, and one complete earlier run of each (the outputs that must survive)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "g.jsonl").write_text(
        '{"completion": "The answer is 4", "answer": "4"}\n{"completion": "5", "answer": "4"}\n',
        encoding="utf-8",
    )
    (root / "link.jsonl").symlink_to("g.jsonl")
    os.link(root / "g.jsonl", root / "hard.jsonl")
    (root / "a_file").write_text("not a folder\n", encoding="utf-8")
    (root / "a_folder").mkdir()
    (root / "notdb.sqlite").write_text("not a database\n", encoding="utf-8")
    logs = root / "logs"
    logs.mkdir()
    shutil.copy(LM_LOG, logs / LM_LOG.name)
    shutil.copy(SEED_CONFIG, root / "eval_config.json")
    (root / "cfg").mkdir()  # configs named like outputs of rescore and compare
    shutil.copy(SEED_CONFIG, root / "cfg" / "summary.json")
    shutil.copy(SEED_CONFIG, root / "cfg" / "compare.json")
    pairs = [
        {
            "id": f"p{i}",
            "topic": "t",
            "q": "what does it mean?",
            "q_prime": "what does she mean?",
            "scores": [1, 2, 3, 4, 5 + i],
            "scores_prime": [2, 3, 4, 5, 6],
        }
        for i in range(4)
    ]
    (root / "pairs_in.jsonl").write_text("".join(json.dumps(p) + "\n" for p in pairs), encoding="utf-8")
    # SelfAware outputs that need no embedding model: empty outputs are skipped by its rule.
    sa = [
        {"id": 1, "output": "", "answerable": True, "answer": ["4"]},
        {"id": 2, "output": "", "answerable": False, "answer": None},
    ]
    (root / "sa.jsonl").write_text("".join(json.dumps(r) + "\n" for r in sa), encoding="utf-8")
    write_items(
        root / "items_in.jsonl", [item(f"c{i}", flawed=i % 2 == 0, label=i % 2 == 0) for i in range(4)]
    )

    here = os.getcwd()
    os.chdir(root)
    try:
        assert main(["score", "g.jsonl", "--out", "prev/score.jsonl", "--quiet"]) == 0
        assert main(["rescore", "logs", "--out", "prev/rescore", "--quiet", "--threads", "1"]) == 0
        assert main(["compare", "logs", "--out", "prev/compare", "--math-verify", "off", "--quiet"]) == 0
        assert main(["consistency", "pairs_in.jsonl", "--out", "prev/consistency"]) == 0
        assert main(["unanswerable", "sa.jsonl", "--preset", "selfaware", "--out", "prev/unanswerable"]) == 0
        with FakeJudgeServer() as server:
            judge = ["judge", "items_in.jsonl", "--base-url", server.base_url, "--model", "test-judge"]
            assert main([*judge, "--no-api-key", "--out", "prev/judge", "--quiet", "--bootstrap", "10"]) == 0
    finally:
        os.chdir(here)
    # Consistency reading a file inside its own --out: the case "an output that is an input".
    shutil.copy(root / "prev" / "consistency" / "pairs.jsonl", root / "pairs_prev.jsonl")


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("bad_inputs") / "w"
    _make_world(root)
    return root


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` -> its bytes (None for a folder, the target for a link)."""
    out: dict[str, bytes | None] = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        if p.is_symlink():
            out[rel] = os.readlink(p).encode()
        elif p.is_dir():
            out[rel] = None
        else:
            out[rel] = p.read_bytes()
    return out


def assert_unchanged(before: dict[str, bytes | None], after: dict[str, bytes | None]) -> None:
    new = sorted(set(after) - set(before))
    gone = sorted(set(before) - set(after))
    changed = sorted(k for k in before.keys() & after.keys() if before[k] != after[k])
    assert not new and not gone and not changed, f"new: {new}; gone: {gone}; changed: {changed}"


# ---- the cases -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple[str, ...]
    #: what the error line must say (the option or file, and what to do)
    says: tuple[str, ...]
    #: an argparse usage error (``usage:`` then the error line) rather than one line
    usage: bool = False

    @property
    def command(self) -> str:
        return self.argv[0]


def _usage(name: str, argv: tuple[str, ...], option: str, allowed: str) -> Case:
    return Case(name, argv, (f"argument {option}", allowed), usage=True)


S = ("score", "g.jsonl")
R = ("rescore", "logs")
C = ("compare", "logs", "--math-verify", "off")
K = ("consistency", "pairs_in.jsonl")
J = (
    "judge",
    "items_in.jsonl",
    "--base-url",
    NOWHERE,
    "--model",
    "test-judge",
    "--no-api-key",
    "--no-preflight",
)
U = ("unanswerable", "sa.jsonl", "--preset", "selfaware")
THREADS = f"from 1 to {MAX_THREADS}"

CASES: list[Case] = [
    # score: an output that is an input or another output (item 4)
    Case(
        "score-out-is-the-input",
        (*S, "--out", "g.jsonl"),
        ("--out", "g.jsonl", "is also an input", "choose another --out"),
    ),
    Case(
        "score-summary-is-the-input",
        (*S, "--out", "o.jsonl", "--summary", "g.jsonl"),
        ("--summary", "is also an input", "choose another --summary"),
    ),
    Case(
        "score-summary-is-the-out",
        (*S, "--out", "o.jsonl", "--summary", "o.jsonl"),
        ("--summary", "also the output of --out", "its own file"),
    ),
    Case(
        "score-summary-is-the-rejected",
        (*S, "--out", "o.jsonl", "--summary", "o.rejected.jsonl"),
        ("--summary", "also the output of --out", "its own file"),
    ),
    Case(
        "score-out-is-a-symlink-to-the-input",
        (*S, "--out", "link.jsonl"),
        ("--out", "link.jsonl", "is also an input"),
    ),
    Case(
        "score-out-is-a-hard-link-to-the-input",
        (*S, "--out", "hard.jsonl"),
        ("--out", "hard.jsonl", "is also an input"),
    ),
    Case(
        "score-input-is-a-symlink-to-the-out",
        ("score", "link.jsonl", "--out", "g.jsonl"),
        ("--out", "is also an input (link.jsonl)"),
    ),
    Case(
        "score-out-is-a-parent-path-to-the-input",
        (*S, "--out", "logs/../g.jsonl"),
        ("--out", "is also an input"),
    ),
    Case(
        "score-summary-is-the-config",
        (*S, "--config", "eval_config.json", "--out", "o.jsonl", "--summary", "eval_config.json"),
        ("--summary", "eval_config.json", "is also an input"),
    ),
    Case(
        "score-out-is-the-previous-summary",
        (*S, "--out", "prev/score.jsonl", "--summary", "prev/score.rejected.jsonl"),
        ("--summary", "also the output of --out"),
    ),
    # score: outputs that cannot be written (item 16)
    Case(
        "score-out-is-a-folder",
        (*S, "--out", "a_folder"),
        ("--out", "a_folder", "is a folder", "name a file"),
    ),
    Case(
        "score-out-is-a-folder-with-a-format",
        (*S, "--out", "a_folder", "--out-format", "jsonl"),
        ("--out", "a_folder", "is a folder", "name a file"),
    ),
    Case(
        "score-out-inside-a-file",
        (*S, "--out", "a_file/o.jsonl"),
        ("--out", "a_file", "is a file, not a folder"),
    ),
    Case(
        "score-out-is-a-device",
        (*S, "--out", "/dev/null", "--out-format", "jsonl"),
        ("--out", "/dev/null", "not a regular file"),
    ),
    # score: numbers (items 11, 17)
    _usage("score-threads-negative", (*S, "--threads", "-1"), "--threads", THREADS),
    _usage("score-threads-zero", (*S, "--threads", "0"), "--threads", THREADS),
    _usage("score-threads-a-million", (*S, "--threads", "1000000"), "--threads", THREADS),
    _usage("score-threads-not-a-number", (*S, "--threads", "all"), "--threads", THREADS),
    _usage("score-timeout-nan", (*S, "--timeout", "nan"), "--timeout", "> 0"),
    _usage("score-timeout-zero", (*S, "--timeout", "0"), "--timeout", "> 0"),
    _usage("score-batch-rows-zero", (*S, "--batch-rows", "0"), "--batch-rows", ">= 1"),
    # rescore
    Case("rescore-out-is-a-file", (*R, "--out", "g.jsonl"), ("--out", "g.jsonl", "is a file, not a folder")),
    Case(
        "rescore-config-inside-out",
        (*R, "--config", "cfg/summary.json", "--out", "cfg"),
        ("--out", "summary.json", "is also an input"),
    ),
    _usage("rescore-threads-zero", (*R, "--out", "r", "--threads", "0"), "--threads", THREADS),
    _usage(
        "rescore-threads-too-many",
        (*R, "--out", "r", "--threads", str(MAX_THREADS + 1)),
        "--threads",
        THREADS,
    ),
    _usage("rescore-timeout-negative", (*R, "--out", "r", "--timeout", "-1"), "--timeout", "> 0"),
    _usage("rescore-examples-negative", (*R, "--out", "r", "--examples", "-3"), "--examples", ">= 0"),
    # compare
    Case("compare-out-is-a-file", (*C, "--out", "g.jsonl"), ("--out", "g.jsonl", "is a file, not a folder")),
    Case(
        "compare-config-inside-out",
        (*C, "--config", "cfg/compare.json", "--out", "cfg"),
        ("--out", "compare.json", "is also an input"),
    ),
    _usage(
        "compare-peer-timeout-negative", (*C, "--out", "c", "--peer-timeout", "-5"), "--peer-timeout", "> 0"
    ),
    _usage("compare-peer-timeout-inf", (*C, "--out", "c", "--peer-timeout", "inf"), "--peer-timeout", "> 0"),
    _usage("compare-threads-negative", (*C, "--out", "c", "--threads", "-1"), "--threads", THREADS),
    _usage("compare-timeout-nan", (*C, "--out", "c", "--timeout", "nan"), "--timeout", "> 0"),
    # consistency
    Case(
        "consistency-out-is-a-file", (*K, "--out", "g.jsonl"), ("--out", "g.jsonl", "is a file, not a folder")
    ),
    Case(
        "consistency-out-inside-a-file",
        (*K, "--out", "a_file/sub"),
        ("--out", "a_file", "is a file, not a folder"),
    ),
    Case(
        "consistency-input-inside-out",
        ("consistency", "prev/consistency/pairs.jsonl", "--out", "prev/consistency"),
        ("--out", "pairs.jsonl", "is also an input"),
    ),
    Case(
        "consistency-entailment-label-without-a-model",
        (*K, "--out", "prev/consistency", "--entailment-label", "entailment"),
        ("--entailment-label", "--nli-model"),
    ),
    _usage("consistency-alpha-zero", (*K, "--alpha", "0"), "--alpha", "> 0 and < 1"),
    _usage("consistency-alpha-one", (*K, "--alpha", "1"), "--alpha", "> 0 and < 1"),
    _usage("consistency-alpha-nan", (*K, "--alpha", "nan"), "--alpha", "> 0 and < 1"),
    _usage("consistency-batch-size-zero", (*K, "--batch-size", "0"), "--batch-size", ">= 1"),
    # judge
    Case("judge-out-is-a-file", (*J, "--out", "g.jsonl"), ("--out", "g.jsonl", "is a file, not a folder")),
    Case(
        "judge-input-inside-out",
        ("judge", "prev/judge/items.jsonl", *J[2:], "--out", "prev/judge"),
        ("--out", "items.jsonl", "is also an input"),
    ),
    Case(
        "judge-store-is-the-input",
        (*J, "--out", "prev/judge", "--store", "items_in.jsonl"),
        ("--store", "items_in.jsonl", "is also an input"),
    ),
    Case(
        "judge-store-is-an-output",
        (*J, "--out", "prev/judge", "--store", "prev/judge/summary.json"),
        ("--store", "also the output of --out", "its own file"),
    ),
    Case(
        "judge-store-is-not-a-database",
        (*J, "--out", "prev/judge", "--store", "notdb.sqlite"),
        ("notdb.sqlite", "not an SQLite database", "--store"),
    ),
    Case(
        "judge-store-inside-a-file",
        (*J, "--out", "prev/judge", "--store", "a_file/s.sqlite"),
        ("a_file", "is a file, not a folder", "--store"),
    ),
    Case(
        "judge-store-is-a-folder",
        (*J, "--out", "prev/judge", "--store", "a_folder"),
        ("a_folder", "is a folder", "--store"),
    ),
    Case(
        "judge-store-of-the-previous-run",
        (*J, "--out", "prev/judge", "--store", "prev/judge/judge.sqlite"),
        ("already holds", "--resume"),
    ),
    _usage(
        "judge-bootstrap-negative",
        (*J, "--out", "j", "--bootstrap", "-1"),
        "--bootstrap",
        "from 0 to 1000000",
    ),
    _usage(
        "judge-bootstrap-huge",
        (*J, "--out", "j", "--bootstrap", "10000000"),
        "--bootstrap",
        "from 0 to 1000000",
    ),
    _usage("judge-temperature-nan", (*J, "--out", "j", "--temperature", "nan"), "--temperature", ">= 0"),
    _usage(
        "judge-temperature-negative", (*J, "--out", "j", "--temperature", "-0.5"), "--temperature", ">= 0"
    ),
    _usage("judge-top-p-zero", (*J, "--out", "j", "--top-p", "0"), "--top-p", "> 0 and <= 1"),
    _usage("judge-top-p-above-one", (*J, "--out", "j", "--top-p", "1.5"), "--top-p", "> 0 and <= 1"),
    _usage("judge-timeout-zero", (*J, "--out", "j", "--timeout", "0"), "--timeout", "> 0"),
    _usage("judge-workers-zero", (*J, "--out", "j", "--workers", "0"), "--workers", "from 1 to 256"),
    _usage("judge-workers-huge", (*J, "--out", "j", "--workers", "100000"), "--workers", "from 1 to 256"),
    _usage(
        "judge-concurrency-zero", (*J, "--out", "j", "--concurrency", "0"), "--concurrency", "from 1 to 10000"
    ),
    _usage(
        "judge-concurrency-a-billion",
        (*J, "--out", "j", "--concurrency", "1000000000"),
        "--concurrency",
        "from 1 to 10000",
    ),
    _usage("judge-n-zero", (*J, "--out", "j", "--n", "0"), "--n", ">= 1"),
    _usage("judge-max-retries-negative", (*J, "--out", "j", "--max-retries", "-1"), "--max-retries", ">= 0"),
    _usage("judge-abort-after-negative", (*J, "--out", "j", "--abort-after", "-1"), "--abort-after", ">= 0"),
    _usage("judge-rpm-zero", (*J, "--out", "j", "--rpm", "0"), "--rpm", "> 0"),
    _usage("judge-tpm-inf", (*J, "--out", "j", "--tpm", "inf"), "--tpm", "> 0"),
    _usage(
        "judge-seed-past-64-bits",
        (*J, "--out", "j", "--seed", str(2**64)),
        "--seed",
        "to 9223372036854775807",
    ),
    _usage(
        "judge-progress-every-negative",
        (*J, "--out", "j", "--progress-every", "-1"),
        "--progress-every",
        "> 0",
    ),
    # unanswerable
    Case(
        "unanswerable-out-is-a-file",
        (*U, "--out", "g.jsonl"),
        ("--out", "g.jsonl", "is a file, not a folder"),
    ),
    Case(
        "unanswerable-input-inside-out",
        ("unanswerable", "prev/unanswerable/items.jsonl", *U[2:], "--out", "prev/unanswerable"),
        ("--out", "items.jsonl", "is also an input"),
    ),
    Case(
        "unanswerable-switch-threshold-five",
        (*U, "--out", "prev/unanswerable", "--switch", "threshold=5"),
        ("--switch threshold", ">= -1 and <= 1"),
    ),
    Case(
        "unanswerable-switch-window-zero",
        (*U, "--out", "prev/unanswerable", "--switch", "window=0"),
        ("--switch window", "an integer >= 1"),
    ),
    Case(
        "unanswerable-switch-window-text",
        (*U, "--out", "prev/unanswerable", "--switch", "window=six"),
        ("--switch window", "an integer >= 1"),
    ),
    Case(
        "unanswerable-pooling-without-a-model",
        (*U, "--out", "prev/unanswerable", "--pooling", "mean"),
        ("--pooling", "--model DIR"),
    ),
    _usage("unanswerable-batch-size-zero", (*U, "--batch-size", "0"), "--batch-size", ">= 1"),
    _usage("unanswerable-threshold-five", (*U, "--threshold", "5"), "--threshold", ">= -1 and <= 1"),
    _usage("unanswerable-threshold-nan", (*U, "--threshold", "nan"), "--threshold", ">= -1 and <= 1"),
    _usage("unanswerable-max-length-zero", (*U, "--max-length", "0"), "--max-length", ">= 1"),
]


def run_cli(argv: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``main(argv)`` in this process: (status, stdout, stderr); argparse's exit is a status too."""
    try:
        rc = main(list(argv))
    except SystemExit as exc:  # argparse's usage errors
        rc = int(exc.code or 0)
    captured = capsys.readouterr()
    return rc, captured.out, captured.err


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_bad_argument_or_output_is_refused_before_any_work(
    case: Case, world: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(world)
    before = snapshot(world)
    rc, out, err = run_cli(case.argv, capsys)
    assert rc == 2, (out, err)
    assert "Traceback" not in err and "Traceback" not in out
    lines = err.strip().splitlines()
    if case.usage:
        assert lines[0].startswith(f"usage: matheval-fast {case.command}"), err
    else:
        assert len(lines) == 1, err  # one line, nothing before it: the run stopped before any work
    last = lines[-1]
    assert last.startswith(f"matheval-fast {case.command}: error: "), err
    for words in case.says:
        assert words in last, (words, last)
    assert ".tmp" not in last  # a temporary name is no use to anyone
    assert_unchanged(before, snapshot(world))


UNWRITABLE = [
    (*S, "--out", "w/o.jsonl"),
    (*R, "--out", "w"),
    (*C, "--out", "w"),
    (*K, "--out", "w"),
    (*J, "--out", "w"),
    (*U, "--out", "w"),
]


@pytest.mark.parametrize("argv", UNWRITABLE, ids=[a[0] for a in UNWRITABLE])
def test_an_out_that_cannot_be_written_fails_before_the_work(
    argv: tuple[str, ...], world: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As a folder without write permission does (the tests may run as root, whom permissions do not
    stop): the first temporary file cannot be made. One line, before any input is read or request sent."""

    def refuse(*args: object, dir: str | None = None, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied", os.path.join(dir or ".", ".o.jsonl.x1y2.tmp"))

    monkeypatch.chdir(world)
    monkeypatch.setattr(files_mod.tempfile, "mkstemp", refuse)
    before = snapshot(world)
    rc, _, err = run_cli(argv, capsys)
    assert rc == 2 and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"matheval-fast {argv[0]}: error: --out: cannot write w"), err
    assert "Permission denied" in lines[0] and "choose a folder you can write to" in lines[0]
    assert ".tmp" not in lines[0]
    assert_unchanged(before, snapshot(world))  # the folder `w` it made is gone again


def test_the_library_calls_behind_the_commands_check_the_same_numbers(world: Path, tmp_path: Path) -> None:
    from matheval_fast.compare import compare
    from matheval_fast.rescore import rescore
    from matheval_fast.unanswerable import detect

    log = world / "logs" / LM_LOG.name
    with pytest.raises(ValueError, match="peer_timeout must be a finite positive number"):
        compare([log], tmp_path / "c", peer_timeout=-5, math_verify="off")
    with pytest.raises(ValueError, match="examples must be an integer >= 0, got -3"):
        rescore([log], tmp_path / "r", examples=-3)
    with pytest.raises(ValueError, match="batch_size must be an integer >= 1, got 0"):
        detect([""], preset="selfaware", batch_size=0)
    assert not list(tmp_path.iterdir())  # nothing written


def test_the_cases_cover_every_command() -> None:
    from matheval_fast.cli import SUBCOMMANDS

    assert {c.command for c in CASES} == set(SUBCOMMANDS)
    assert len({c.name for c in CASES}) == len(CASES)


# ---- interrupted runs ------------------------------------------------------------------------------

#: A child that runs the command line with one step of the run made to block once it has done its
#: work (``module.name``: it runs, prints READY, and waits): the interrupt arrives at a known point.
CHILD = """
import importlib, sys, threading
from matheval_fast.cli import main
module, name = sys.argv[1], sys.argv[2]
mod = importlib.import_module(module)
real = getattr(mod, name)
def blocking(*args, **kwargs):
    result = real(*args, **kwargs)
    print("READY", flush=True)
    threading.Event().wait()
    return result
setattr(mod, name, blocking)
sys.exit(main(sys.argv[3:]))
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT / "python")}


def _stop(proc: subprocess.Popen[bytes], sig: int) -> tuple[int, str]:
    # The whole process group, as a terminal's Ctrl-C does: helper processes get it too.
    os.killpg(proc.pid, sig)
    _, err = proc.communicate(timeout=120)
    return proc.returncode, err.decode()


def _wait_for(ready: Callable[[], bool], proc: subprocess.Popen[bytes]) -> None:
    """Poll for a condition the child reaches by itself (not a fixed sleep); fail if it exits first."""
    deadline = time.monotonic() + 120
    while not ready():
        assert proc.poll() is None, proc.communicate()[1].decode()
        assert time.monotonic() < deadline, "the child never reached the point"
        time.sleep(0.02)


def _assert_interrupted(rc: int, err: str, command: str, sig: int) -> None:
    assert rc == 128 + sig, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    word = "interrupted" if sig == signal.SIGINT else "terminated"
    last = [line for line in err.splitlines() if line.startswith("matheval-fast")]
    assert last == [last[-1]] and last[-1].startswith(f"matheval-fast {command}: {word}; "), err
    assert "no output was written" in last[-1] or "no output file was written" in last[-1]


BLOCKED = [
    # command line, the step that blocks (it has written some or all of the run's temporary files)
    pytest.param(
        ("rescore", "logs", "--out", "prev/rescore", "--threads", "1"),
        "matheval_fast.rescore",
        "_score_log",
        id="rescore",
    ),
    pytest.param(
        ("compare", "logs", "--out", "prev/compare", "--math-verify", "off"),
        "matheval_fast.compare",
        "_write",
        id="compare",
    ),
    pytest.param(
        ("consistency", "pairs_in.jsonl", "--out", "prev/consistency", "--alpha", "0.1"),
        "matheval_fast.cli.consistency",
        "write_histogram",
        id="consistency",
    ),
    pytest.param(
        ("unanswerable", "sa.jsonl", "--preset", "selfaware", "--out", "prev/unanswerable"),
        "matheval_fast._report.png",
        "write_histogram",
        id="unanswerable",
    ),
]


@pytest.mark.parametrize(("argv", "module", "name"), BLOCKED)
def test_ctrl_c_leaves_the_previous_outputs_whole(
    world: Path, argv: tuple[str, ...], module: str, name: str
) -> None:
    before = snapshot(world)
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, module, name, *argv],
        cwd=world,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"READY\n", proc.communicate()[1].decode()
    # The point reached: this run's temporary files exist beside the previous run's outputs.
    assert any(k.endswith(".tmp") for k in set(snapshot(world)) - set(before))
    rc, err = _stop(proc, signal.SIGINT)
    _assert_interrupted(rc, err, argv[0], signal.SIGINT)
    assert_unchanged(before, snapshot(world))


@pytest.mark.parametrize(
    "sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["SIGINT", "SIGTERM", "SIGHUP"]
)
def test_score_stopped_while_reading_a_pipe(world: Path, sig: int) -> None:
    before = snapshot(world)
    proc = subprocess.Popen(
        [sys.executable, "-m", "matheval_fast", "score", "-", "--out", "prev/score.jsonl"],
        cwd=world,
        env=_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert proc.stdin is not None
    proc.stdin.write(b'{"completion": "4", "answer": "4"}\n')
    proc.stdin.flush()  # and the pipe stays open: the run waits for more records
    prev = world / "prev"
    _wait_for(lambda: any(prev.glob(".score.jsonl.*.tmp")), proc)
    rc, err = _stop(proc, sig)
    _assert_interrupted(rc, err, "score", sig)
    assert_unchanged(before, snapshot(world))


@pytest.mark.parametrize("workers", [1, 2])
def test_judge_ctrl_c_while_a_request_is_in_flight(world: Path, tmp_path: Path, workers: int) -> None:
    """The previous run's files stay whole; the answers received so far stay in the store."""
    store = tmp_path / "store.sqlite"
    before = snapshot(world)
    with FakeJudgeServer(plan={"c2": ["slow"]}, slow_seconds=600) as server:
        argv = ["judge", "items_in.jsonl", "--base-url", server.base_url, "--model", "test-judge"]
        argv += ["--no-api-key", "--out", "prev/judge", "--store", str(store), "--workers", str(workers)]
        proc = subprocess.Popen(
            [sys.executable, "-m", "matheval_fast", *argv, "--quiet"],
            cwd=world,
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        _wait_for(lambda: any(r.tag == "c2" for r in server.requests), proc)
        rc, err = _stop(proc, signal.SIGINT)
    _assert_interrupted(rc, err, "judge", signal.SIGINT)
    assert "--resume" in err
    assert_unchanged(before, snapshot(world))
    assert store.exists()


# ---- the pieces: one set of outputs, and the validators --------------------------------------------


def _previous_run(d: Path) -> dict[str, bytes | None]:
    d.mkdir()
    for name in ("a.jsonl", "b.json", "c.png"):
        (d / name).write_bytes(f"previous {name}\n".encode())
    return snapshot(d)


def test_an_output_set_is_renamed_whole_even_when_ctrl_c_comes_between_two_renames(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = tmp_path / "out"
    _previous_run(d)
    real_replace = os.replace
    renames: list[str] = []

    def replace_then_interrupt(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        real_replace(src, dst)
        renames.append(Path(dst).name)
        if len(renames) == 1:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C after the first of three renames

    monkeypatch.setattr(files_mod.os, "replace", replace_then_interrupt)
    with (
        pytest.raises(KeyboardInterrupt),
        files_mod.output_set([d / "a.jsonl", d / "b.json", d / "c.png"]) as out,
    ):
        for name in ("a.jsonl", "b.json", "c.png"):
            out.path(name).write_text(f"new {name}\n")
    # The interrupt was delivered once the set was whole: three renames, three new files, no temporary.
    assert renames == ["a.jsonl", "b.json", "c.png"]
    assert {k: v for k, v in snapshot(d).items()} == {n: f"new {n}\n".encode() for n in renames}


def test_a_failed_run_leaves_the_previous_set_and_removes_what_it_made(tmp_path: Path) -> None:
    d = tmp_path / "out"
    before = _previous_run(d)
    with (
        pytest.raises(RuntimeError, match="half-way"),
        files_mod.output_set([d / "a.jsonl", d / "new" / "deeper" / "b.json"]) as out,
    ):
        out.path("a.jsonl").write_text("half")
        assert (d / "new" / "deeper").is_dir()  # made before the work
        raise RuntimeError("the run failed half-way")
    assert snapshot(d) == before  # no temporary file, and the folders it made are gone


def test_an_output_set_publishes_with_the_usual_permissions(tmp_path: Path) -> None:
    with files_mod.output_set([tmp_path / "x.json"]) as out:
        out.path("x.json").write_text("{}\n")
    mask = os.umask(0)
    os.umask(mask)
    assert (tmp_path / "x.json").stat().st_mode & 0o777 == 0o666 & ~mask
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


@given(st.integers(min_value=-(2**70), max_value=2**70), st.integers(-5, 5), st.integers(0, 2000))
def test_int_range_accepts_exactly_its_range(value: int, lo: int, width: int) -> None:
    hi = lo + width
    parse = int_range(lo, hi)
    if lo <= value <= hi:
        assert parse(str(value)) == value
    else:
        with pytest.raises(argparse.ArgumentTypeError, match=f"from {lo} to {hi}, got {value}"):
            parse(str(value))
    if value >= lo:
        assert int_range(lo)(str(value)) == value


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_float_range_accepts_finite_values_in_range_only(value: float) -> None:
    parse = float_range(0, 1, lo_open=True)
    ok = math.isfinite(value) and 0 < value <= 1
    if ok:
        assert parse(repr(value)) == value
    else:
        with pytest.raises(argparse.ArgumentTypeError, match="a finite number > 0 and <= 1"):
            parse(repr(value))
