"""The judge client against a real HTTP server on 127.0.0.1 that injects faults on schedule.

Every fault ends as a retried success or a recorded failure with its reason, and the server's own
request log shows how many requests each item cost: none lost, none sent more than its schedule.
"""

from __future__ import annotations

import asyncio
import json
import pickle
import random
import socket
from pathlib import Path

import pytest
from matheval_fast.judge.client import (
    ChatClient,
    ClientOptions,
    EndpointError,
    RateLimiter,
    Secret,
    backoff_delay,
    parse_retry_after,
)
from matheval_fast.judge.fake_server import FakeJudgeServer
from matheval_fast.judge.store import RunStore

from tests.judge_support import chat_tags, config, item, run, write_items

# tag -> (fault schedule, requests the item must cost, status, verdict, reason fragment)
SCHEDULE = {
    "rate": (["429"], 2, "done", "yes", None),
    "err5xx": (["500", "503"], 3, "done", "no", None),
    "reset": (["reset"], 2, "done", "yes", None),
    "slow": (["slow"], 2, "done", "no", None),
    "badjson": (["malformed"], 2, "done", "yes", None),
    "empty": (["empty"], 2, "done", "no", None),
    "cut": (["length"], 1, "done", "yes", None),
    "filter": (["content_filter"], 1, "failed", None, "content_filter"),
    "down": (["503"] * 10, 4, "failed", None, "gave up after 4 attempts: HTTP 503"),
    "fine": ([], 1, "done", "no", None),
}


def test_every_fault_ends_as_retried_success_or_recorded_failure(tmp_path: Path) -> None:
    rows = [
        item(tag, flawed=verdict == "yes" or tag in ("filter", "down"))
        for tag, (_, _, _, verdict, _) in SCHEDULE.items()
    ]
    data = write_items(tmp_path / "items.jsonl", rows)
    plan = {tag: faults for tag, (faults, *_rest) in SCHEDULE.items()}
    with FakeJudgeServer(plan=plan, slow_seconds=1.0, style="plain") as server:
        stats = run(data, tmp_path / "s.sqlite", config(server.base_url, timeout=0.4))
    per_tag = chat_tags(server)
    assert per_tag == {tag: spec[1] for tag, spec in SCHEDULE.items()}
    assert stats.requests == sum(spec[1] for spec in SCHEDULE.values())
    assert (stats.sent, stats.done, stats.failed) == (10, 8, 2)
    with RunStore(tmp_path / "s.sqlite") as store:
        rows_by_id = {r.item_id: r for r in store.get_many(_all_keys(store)).values()}
    assert set(rows_by_id) == set(SCHEDULE)  # nothing lost
    for tag, (_, _, status, verdict, reason) in SCHEDULE.items():
        r = rows_by_id[tag]
        assert (r.status, r.verdict) == (status, verdict), tag
        if reason:
            assert reason in str(r.reason), (tag, r.reason)
        else:
            assert r.reason is None, (tag, r.reason)
    # A 429 waits at least its Retry-After (1 s) before the next attempt.
    t_rate = [r.t for r in server.requests if r.tag == "rate"]
    assert t_rate[1] - t_rate[0] >= 1.0
    cut = rows_by_id["cut"]
    assert json.loads(cut.finish_reasons) == ["length"] and json.loads(cut.texts) == ["Yes, the so"]
    assert rows_by_id["filter"].http_status == 200 and rows_by_id["down"].http_status == 503
    assert rows_by_id["slow"].attempts == 2 and rows_by_id["rate"].attempts == 2


def _all_keys(store: RunStore) -> list[str]:
    return [r[0] for r in store.db.execute("SELECT key FROM results")]


def test_cut_chain_of_thought_is_unparseable_with_reason(tmp_path: Path) -> None:
    data = write_items(tmp_path / "i.jsonl", [item("cot1", flawed=True)])
    with FakeJudgeServer(plan={"cot1": ["length"]}) as server:
        run(data, tmp_path / "s.sqlite", config(server.base_url, prompt="cot"))
    with RunStore(tmp_path / "s.sqlite") as store:
        (row,) = store.get_many(_all_keys(store)).values()
    assert (row.status, row.verdict) == ("done", "unparseable")
    assert row.reason == "answer cut by max_tokens (finish_reason=length)"


def test_client_errors_are_not_retried(tmp_path: Path) -> None:
    data = write_items(tmp_path / "i.jsonl", [item("a", flawed=True), item("b", flawed=False)])
    with FakeJudgeServer() as server:
        cfg = config(server.base_url)
        cfg = type(cfg)(**{**cfg.__dict__, "model": "no-such-model", "preflight": False})
        stats = run(data, tmp_path / "s.sqlite", cfg)
    assert chat_tags(server) == {"a": 1, "b": 1}
    assert stats.failed == 2
    assert list(stats.failure_reasons) == ["HTTP 404: model 'no-such-model' does not exist"]


def test_run_stops_after_consecutive_failures(tmp_path: Path) -> None:
    rows = [item(f"x{i}", flawed=True) for i in range(30)]
    data = write_items(tmp_path / "i.jsonl", rows)
    with FakeJudgeServer(plan={f"x{i}": ["500"] * 9 for i in range(30)}) as server:
        cfg = config(server.base_url, max_retries=0, concurrency=2)
        cfg = type(cfg)(**{**cfg.__dict__, "abort_after_failures": 5})
        stats = run(data, tmp_path / "s.sqlite", cfg)
    assert stats.aborted is not None and "5 items in a row failed" in stats.aborted
    # At most the failures that tripped the stop, plus the requests already in flight.
    assert 5 <= stats.sent <= 5 + 2
    assert len(chat_tags(server)) <= 5 + 2 + 2


def test_retry_after_and_backoff() -> None:
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:05 GMT"}, now=1445412480.0) == 5.0
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None
    rng = random.Random(0)
    for attempt in range(1, 12):
        d = backoff_delay(attempt, base=0.5, cap=8.0, retry_after=None, max_retry_after=600, rng=rng)
        assert 0.0 <= d <= min(8.0, 0.5 * 2 ** (attempt - 1))
    d = backoff_delay(1, base=0.5, cap=8.0, retry_after=30.0, max_retry_after=600, rng=rng)
    assert 30.0 <= d <= 33.0
    d = backoff_delay(1, base=0.5, cap=8.0, retry_after=86400.0, max_retry_after=600, rng=rng)
    assert 600.0 <= d <= 660.0


def test_rate_limiter_on_a_virtual_clock() -> None:
    now = [0.0]
    lim = RateLimiter(120, None, clock=lambda: now[0])
    waits = [lim.reserve(0) for _ in range(10)]
    # 120/min = one per 0.5 s; no burst at start.
    assert waits == pytest.approx([0.5 * i for i in range(10)])
    now[0] = 100.0  # after an idle spell, one second's worth (2) plus one go at once
    assert [lim.reserve(0) for _ in range(4)] == pytest.approx([0.0, 0.0, 0.0, 0.5])
    tok = RateLimiter(None, 6000, clock=lambda: now[0])  # 100 tokens per second
    assert tok.reserve(300) == 0.0
    assert tok.reserve(100) == pytest.approx(3.0)
    tok.settle(300, 100)  # the first request used 200 fewer tokens than reserved
    assert tok.reserve(0) == pytest.approx(2.0)


def test_requests_per_minute_limit_spaces_requests(tmp_path: Path) -> None:
    data = write_items(tmp_path / "i.jsonl", [item(f"r{i}", flawed=False) for i in range(5)])
    with FakeJudgeServer() as server:
        run(data, tmp_path / "s.sqlite", config(server.base_url, requests_per_minute=600))
    times = sorted(r.t for r in server.requests if r.path.endswith("/chat/completions"))
    # 600/min = 0.1 s apart (no burst at the start): five requests are reserved 0.4 s apart, minus
    # whatever delayed the first one on its way to the server. Unlimited, they would arrive together.
    assert times[-1] - times[0] >= 0.3


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_preflight_fails_fast_with_one_clear_message() -> None:
    async def check(url: str, key: Secret | None) -> None:
        async with ChatClient(url, api_key=key, options=ClientOptions()) as c:
            await c.preflight("test-judge")

    with pytest.raises(EndpointError, match=r"cannot reach endpoint http://127.0.0.1:\d+/v1"):
        asyncio.run(check(f"http://127.0.0.1:{free_port()}/v1", None))
    with FakeJudgeServer(api_key="right-key") as server:
        with pytest.raises(EndpointError, match=r"rejected the API key \(HTTP 401: invalid API key\)") as exc:
            asyncio.run(check(server.base_url, Secret("wrong-key-XYZ")))
        assert "wrong-key-XYZ" not in str(exc.value)
        asyncio.run(check(server.base_url, Secret("right-key")))
        assert server.requests[-1].authorization == "Bearer right-key"
    with pytest.raises(ValueError, match="must start with http"):
        ChatClient("127.0.0.1:8000", api_key=None)


def test_secret_never_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    s = Secret("sk-very-secret")
    assert "sk-very" not in repr(s) and "sk-very" not in str(s) and "sk-very" not in f"{s}"
    with pytest.raises(TypeError):
        pickle.dumps(s)
    assert s.scrub("bad key sk-very-secret!") == "bad key ***!"
    c = ChatClient("http://127.0.0.1:9/v1", api_key=s)
    assert "sk-very" not in repr(c)
    monkeypatch.delenv("NO_SUCH_KEY_VAR", raising=False)
    with pytest.raises(EndpointError, match="environment variable NO_SUCH_KEY_VAR is not set"):
        Secret.from_env("NO_SUCH_KEY_VAR")
    monkeypatch.setenv("EMPTY_KEY_VAR", "")
    with pytest.raises(EndpointError, match="EMPTY_KEY_VAR is not set"):
        Secret.from_env("EMPTY_KEY_VAR")


def test_fake_server_refuses_non_loopback_and_unknown_faults() -> None:
    with pytest.raises(ValueError, match="loopback addresses only"):
        FakeJudgeServer("0.0.0.0")  # noqa: S104 - must be refused
    with pytest.raises(ValueError, match="unknown fault"):
        FakeJudgeServer(plan={"a": ["explode"]})
