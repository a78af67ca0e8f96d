"""``matheval-fast judge`` end to end: outputs, the key's secrecy, bad input, and SIGKILL + resume."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from matheval_fast.cli import main
from matheval_fast.judge.fake_server import FakeJudgeServer

from tests.judge_support import chat_tags, config, item, run, write_items

ROOT = Path(__file__).resolve().parents[1]
SECRET = "sk-test-SECRET-0123456789abcdef"  # noqa: S105 - a made-up key the test hunts for


def judge_args(data: Path, out: Path, url: str, *extra: str) -> list[str]:
    return ["judge", str(data), "--base-url", url, "--model", "test-judge", "--out", str(out), *extra]


def test_cli_run_outputs_progress_and_the_key_never_leaks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [item(f"c{i}", flawed=i % 2 == 0, label=i % 2 == 0) for i in range(6)]
    rows.append(dict(rows[0], id="c0-again"))
    data = write_items(tmp_path / "items.jsonl", rows)
    prices = tmp_path / "prices.json"
    prices.write_text(
        json.dumps({"models": {"test-judge": {"input_per_million": 3, "output_per_million": 15}}})
    )
    monkeypatch.setenv("JUDGE_TEST_KEY", SECRET)
    out = tmp_path / "out"
    with FakeJudgeServer(
        api_key=SECRET, plan={"c3": ["echo500"] * 4, "c1": ["429"]}, retry_after="0"
    ) as server:
        rc = main(
            judge_args(
                data,
                out,
                server.base_url,
                "--api-key-env",
                "JUDGE_TEST_KEY",
                "--max-retries",
                "2",
                "--price-table",
                str(prices),
                "--progress-every",
                "0.05",
                "--bootstrap",
                "100",
            )
        )
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    # The key was sent (the server checks it) ...
    assert {r.authorization for r in server.requests} == {f"Bearer {SECRET}"}
    # ... and appears nowhere else: not in any output file (store and WAL included), not on screen.
    for path in out.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    assert SECRET not in captured.out and SECRET not in captured.err
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith("judge.sqlite")) == [
        "items.jsonl",
        "summary.json",
        "summary.md",
    ]
    lines = [json.loads(x) for x in (out / "items.jsonl").read_text().splitlines()]
    assert [x["id"] for x in lines] == [*(f"c{i}" for i in range(6)), "c0-again"]
    assert lines[-1]["verdict"] == lines[0]["verdict"] == "yes" and lines[-1]["key"] == lines[0]["key"]
    assert (
        lines[3]["status"] == "failed"
        # The server echoed the Authorization header in its error text; the stored reason is scrubbed.
        and lines[3]["reason"]
        == "gave up after 3 attempts: HTTP 500: upstream failed; request had Authorization: Bearer ***"
    )
    assert chat_tags(server) == {"c0": 1, "c1": 2, "c2": 1, "c3": 3, "c4": 1, "c5": 1}  # c0-again: not sent
    summary = json.loads((out / "summary.json").read_text())
    assert summary["this_run"]["sent"] == 6 and summary["this_run"]["duplicates"] == 1
    assert summary["cost"]["currency"] == "USD" and summary["cost"]["this_run"] > 0
    # Progress: a plain line on stderr (not a terminal) with rate, ETA, tokens and cost.
    progress = [ln for ln in captured.err.splitlines() if ln.startswith("judge: ")]
    assert progress and "judged/s" in progress[-1] and "ETA" in progress[-1]
    assert "tokens" in progress[-1] and "cost" in progress[-1] and "7/7 items" in progress[-1]
    assert "Macro-F1" in captured.out


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    rc = main(args)
    return rc, capsys.readouterr().err


def test_cli_fails_fast_before_sending(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write_items(tmp_path / "good.jsonl", [item("a", flawed=True, label=True)])
    bad = write_items(
        tmp_path / "bad.jsonl",
        [item("a", flawed=True, label=True), {**item("b", flawed=True), "label": "maybe"}],
    )
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with FakeJudgeServer() as server:
        url = server.base_url
        rc, err = run_cli(judge_args(good, tmp_path / "o1", url), capsys)
        assert rc == 2 and "environment variable OPENAI_API_KEY is not set" in err
        rc, err = run_cli(judge_args(bad, tmp_path / "o2", url, "--no-api-key", "--no-preflight"), capsys)
        assert (
            rc == 2
            and "bad.jsonl:2: label field 'label' has 'maybe'; expected one of yes, no, true, false, 1, 0"
            in err
        )
        rc, err = run_cli(judge_args(good, tmp_path / "o3", url, "--no-api-key", "--prompt", "cotx"), capsys)
        assert rc == 2 and "unknown prompt 'cotx': choose one of simple, explain, cot, umwp-abstain" in err
        rc, err = run_cli(
            judge_args(good, tmp_path / "o4", url, "--no-api-key", "--field", "question=q"), capsys
        )
        assert (
            rc == 2 and "unknown field name(s) ['question']: the template reads problem, response, id" in err
        )
        rc, err = run_cli(
            judge_args(good, tmp_path / "o5", url, "--no-api-key", "--prompt", "explain"), capsys
        )
        assert rc == 2 and "missing field 'explanation'" in err
        rc, err = run_cli(["judge", str(good), "--out", str(tmp_path / "o6")], capsys)
        assert rc == 2 and "--base-url and --model are required" in err
        # Nothing was judged for any of these (at most the GET /models check of the endpoint).
        assert chat_tags(server) == {} and {r.path for r in server.requests} <= {"/v1/models"}
        # A finished store is not silently reused without --resume.
        assert run_cli(judge_args(good, tmp_path / "o7", url, "--no-api-key", "--quiet"), capsys)[0] == 0
        rc, err = run_cli(judge_args(good, tmp_path / "o7", url, "--no-api-key"), capsys)
        assert rc == 2 and "already holds 1 judged requests: pass --resume" in err
        assert (
            run_cli(judge_args(good, tmp_path / "o7", url, "--no-api-key", "--resume", "--quiet"), capsys)[0]
            == 0
        )
        assert len(chat_tags(server)) == 1 and chat_tags(server)["a"] == 1
    # Nothing listens there any more: one clear line, before the input is read.
    rc, err = run_cli(judge_args(bad, tmp_path / "o8", url, "--no-api-key"), capsys)
    assert rc == 2 and f"cannot reach endpoint {url}" in err and err.count("\n") == 1


def test_cli_dry_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = write_items(tmp_path / "i.jsonl", [item(f"d{i}", flawed=True) for i in range(5)])
    prices = ROOT / "data" / "judge" / "demo_prices.json"
    rc = main(
        [
            "judge",
            str(data),
            "--model",
            "test-judge",
            "--out",
            str(tmp_path / "o"),
            "--dry-run",
            "--price-table",
            str(prices),
            "--n",
            "3",
        ]
    )
    out = capsys.readouterr().out
    assert rc == 0
    assert "| items to send | 5 |" in out and "| requests | 5 |" in out
    assert "| completion tokens, at most (max_tokens) | 240 |" in out and "cost at most (USD)" in out


def _store_rows(path: Path) -> dict[str, tuple]:
    with sqlite3.connect(path) as db:
        cols = "key, item_id, status, verdict, votes, texts, finish_reasons, prompt_tokens, completion_tokens"
        q = f"SELECT {cols} FROM results"  # noqa: S608 - constant column list
        return {r[0]: r[1:] for r in db.execute(q)}


def _committed_ids(path: Path) -> set[str]:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.1) as db:
            return {r[0] for r in db.execute("SELECT item_id FROM results")}
    except sqlite3.Error:
        return set()


@pytest.mark.parametrize("workers", [1, 2])
def test_sigkill_then_resume_sends_no_finished_item_twice_and_loses_none(
    tmp_path: Path, workers: int
) -> None:
    n = 300
    data = write_items(
        tmp_path / "items.jsonl", [item(f"k{i:03d}", flawed=i % 4 == 0, label=i % 4 == 0) for i in range(n)]
    )
    out = tmp_path / "out"
    store = out / "judge.sqlite"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    with FakeJudgeServer(delay=0.02) as server:
        args = [
            sys.executable,
            "-m",
            "matheval_fast",
            *judge_args(data, out, server.base_url),
            "--no-api-key",
            "--concurrency",
            "4",
            "--quiet",
            "--resume",
            "--workers",
            str(workers),
        ]
        proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while not _committed_ids(store) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        assert proc.returncode == -signal.SIGKILL, proc.stderr.read().decode() if proc.stderr else ""
        # Worker processes of a killed parent stop by themselves (within about a second): wait until
        # neither the server nor the store sees anything new for a second (bounded wait).
        seen = (-1, -1)
        for _ in range(30):
            now = (len(server.requests), len(_committed_ids(store)))
            if now == seen:
                break
            seen = now
            time.sleep(1.0)
        else:
            pytest.fail("orphaned workers kept sending for 30 s")
        phase1 = list(server.requests)
        finished_before = _committed_ids(store)
        assert 0 < len(finished_before) < n, "the kill must land mid-run"
        resumed = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
        assert resumed.returncode == 0, resumed.stderr
        phase2 = server.requests[len(phase1) :]
    tags1 = Counter(r.tag for r in phase1 if r.tag)
    tags2 = Counter(r.tag for r in phase2 if r.tag)
    # No item was requested twice within a phase, and no item finished before the kill was sent again.
    assert max(tags1.values()) == 1 and max(tags2.values()) == 1
    assert not (finished_before & set(tags2))
    # The only items sent in both phases are those in flight or not yet committed at the kill.
    resent = set(tags1) & set(tags2)
    assert resent == set(tags1) - finished_before
    # Nothing lost: every item is in the store, judged.
    rows = _store_rows(store)
    assert sorted(r[0] for r in rows.values()) == [f"k{i:03d}" for i in range(n)]
    assert {r[1] for r in rows.values()} == {"done"}
    # The same store as an uninterrupted run.
    with FakeJudgeServer() as server:
        stats = run(data, tmp_path / "reference.sqlite", config(server.base_url))
    assert stats.sent == n
    assert _store_rows(tmp_path / "reference.sqlite") == rows
