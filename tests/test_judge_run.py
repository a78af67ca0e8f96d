"""Runs against the fake server: the store, resuming, duplicates, votes, new templates, outputs."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from matheval_fast.judge.cost import Price, TokenEstimator, load_price_table
from matheval_fast.judge.data import DatasetSpec, iter_items, scan
from matheval_fast.judge.fake_server import FakeJudgeServer
from matheval_fast.judge.pipeline import dry_run_file, judge_file
from matheval_fast.judge.run import SamplingParams, estimate
from matheval_fast.judge.store import RunStore, request_key

from tests.judge_support import chat_tags, config, item, run, write_items


def test_resume_sends_only_what_is_missing_and_duplicates_once(tmp_path: Path) -> None:
    rows = [item(f"i{i}", flawed=i % 3 == 0, label=i % 3 == 0) for i in range(12)]
    rows.insert(2, dict(rows[1], id="dup-of-i1"))  # the same request as i1
    data = write_items(tmp_path / "items.jsonl", rows)
    store = tmp_path / "s.sqlite"
    with FakeJudgeServer() as server:
        first = run(data, store, config(server.base_url), limit=6)
        assert (first.sent, first.reused, first.duplicates) == (5, 0, 1)
        second = run(data, store, config(server.base_url))
        assert (second.sent, second.reused, second.duplicates) == (7, 6, 0)
        third = run(data, store, config(server.base_url))
        assert (third.sent, third.reused, third.requests) == (0, 13, 0)
        # Another prompt or temperature is another request.
        fourth = run(data, store, replace(config(server.base_url), sampling=SamplingParams(temperature=0.7)))
        assert fourth.sent == 12
    tags = chat_tags(server)
    assert tags == {f"i{i}": 2 for i in range(12)}  # once at temperature 0, once at 0.7
    with RunStore(store) as s:
        assert s.count() == 24
        assert len(s.runs()) == 4 and s.runs()[2]["stats"]["reused"] == 13


def test_retry_failed_resends_only_failures(tmp_path: Path) -> None:
    data = write_items(tmp_path / "i.jsonl", [item("ok", flawed=True), item("bad", flawed=True)])
    store = tmp_path / "s.sqlite"
    with FakeJudgeServer(plan={"bad": ["500"] * 4}) as server:
        cfg = config(server.base_url, max_retries=1)
        assert run(data, store, cfg).failed == 1
        assert run(data, store, cfg).sent == 0  # failed items are finished too
        again = run(data, store, replace(cfg, retry_failed=True))
        assert (again.sent, again.done, again.failed) == (1, 0, 1)  # plan: still two 500s left
        last = run(data, store, replace(cfg, retry_failed=True))
        assert (last.sent, last.done) == (1, 1)
    assert chat_tags(server) == {"ok": 1, "bad": 2 + 2 + 1}


@pytest.mark.parametrize("via", ["n", "requests"])
def test_majority_vote_over_samples(tmp_path: Path, via: str) -> None:
    rows = [
        item("v1", flawed=False, extra=" [votes:yes,no,yes]"),
        item("v2", flawed=False, extra=" [votes:no,no,yes]"),
        item("v3", flawed=False, extra=" [votes:yes,no]"),
    ]
    data = write_items(tmp_path / "i.jsonl", rows)
    n = 3 if via == "n" else 2 * 1 + 1
    with FakeJudgeServer(style="plain") as server:
        cfg = replace(config(server.base_url), sampling=SamplingParams(n=n, samples_via=via, temperature=1.0))
        run(data, tmp_path / "s.sqlite", cfg)
    expected_requests = 1 if via == "n" else n
    assert chat_tags(server) == {"v1": expected_requests, "v2": expected_requests, "v3": expected_requests}
    if via == "requests":
        assert sorted(r.seed for r in server.requests if r.tag == "v1") == [0, 1, 2]
    with RunStore(tmp_path / "s.sqlite") as s:
        got = {
            r.item_id: (r.verdict, json.loads(r.votes))
            for r in s.get_many(k[0] for k in s.db.execute("SELECT key FROM results")).values()
        }
    assert got["v1"] == ("yes", {"yes": 2, "no": 1, "unparseable": 0})
    assert got["v2"] == ("no", {"yes": 1, "no": 2, "unparseable": 0})
    # [votes:yes,no] cycles yes, no, yes over three samples.
    assert got["v3"] == ("yes", {"yes": 2, "no": 1, "unparseable": 0})


def test_protocol_b_template_is_a_file_not_code(tmp_path: Path) -> None:
    """Judging UMWP-style abstentions needs only the shipped template and the field names."""
    rows = [
        {
            "qid": "u1",
            "question": "[#u1] Tom has apples. How many?",
            "answer_text": "This cannot be answered: the number is missing.",
            "abstained": 1,
        },
        {
            "qid": "u2",
            "question": "[#u2] Tom has 3 apples and eats 1. How many?",
            "answer_text": "2",
            "abstained": 0,
        },
        {
            "qid": "u3",
            "question": "[#u3] How tall is the door?",
            "answer_text": "The door is 2 m tall.",
            "abstained": "1",
        },
    ]
    data = write_items(tmp_path / "umwp.jsonl", rows)
    with FakeJudgeServer(style="plain") as server:
        report = judge_file(
            data,
            tmp_path / "out",
            config(server.base_url, prompt="umwp-abstain"),
            api_key=None,
            fields={"response": "answer_text", "id": "qid"},
            label_fields=("abstained",),
            n_boot=100,
        )
    prompts = [r for r in server.requests if r.tag == "u1"]
    assert len(prompts) == 1
    items = [json.loads(x) for x in (tmp_path / "out" / "items.jsonl").read_text().splitlines()]
    assert [(i["id"], i["verdict"], i["gold"], i["agree"]) for i in items] == [
        ("u1", "yes", True, True),
        ("u2", "no", False, True),
        ("u3", "no", True, False),
    ]
    overall = report.summary["agreement"]["overall"]
    assert (overall["tp"], overall["fp"], overall["fn"], overall["tn"]) == (1, 0, 1, 1)
    assert report.summary["config"]["template"]["protocol"] == "B"


def test_outputs_follow_the_input_and_count_everything(tmp_path: Path) -> None:
    rows = [item(f"o{i}", flawed=i % 2 == 0, label=i % 4 == 0) for i in range(8)]
    rows[5].pop("label")
    data = write_items(tmp_path / "i.jsonl", rows)
    with FakeJudgeServer(style="plain", plan={"o7": ["content_filter"]}) as server:
        report = judge_file(
            data,
            tmp_path / "out",
            config(server.base_url),
            api_key=None,
            n_boot=200,
            group_fields=("fault_type",),
        )
    lines = [json.loads(x) for x in (tmp_path / "out" / "items.jsonl").read_text().splitlines()]
    assert [x["id"] for x in lines] == [f"o{i}" for i in range(8)]
    assert lines[7]["status"] == "failed" and "content_filter" in lines[7]["reason"]
    assert lines[0]["answers"] == ["Yes"] and lines[1]["verdict"] == "no"
    s = report.summary
    assert s["items"] == {
        "total": 8,
        "done": 7,
        "failed": 1,
        "pending": 0,
        "yes": 4,
        "no": 3,
        "unparseable": 0,
    }
    o = s["agreement"]["overall"]
    # Gold yes: o0, o4 (judged yes); gold no: o1 o2 o3 o6 (o2, o6 judged yes); o5 unlabeled; o7 failed.
    assert (o["tp"], o["fp"], o["fn"], o["tn"], o["no_verdict"], o["unlabeled"]) == (2, 2, 0, 2, 1, 1)
    assert set(s["agreement"]["by_group"]["fault_type"]) == {"contradiction", "none"}
    assert "ci" in o and o["n_boot"] == 200
    md = (tmp_path / "out" / "summary.md").read_text()
    assert "Macro-F1 (paper's F1)" in md and "Positive-class F1" in md and "By fault_type" in md
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["items"]["total"] == 8
    assert s["tokens"]["this_run"]["prompt"] > 0


def test_dry_run_estimates_and_sends_nothing(tmp_path: Path) -> None:
    rows = [item(f"d{i}", flawed=True) for i in range(10)]
    data = write_items(tmp_path / "i.jsonl", rows)
    prices = tmp_path / "prices.json"
    prices.write_text(
        json.dumps(
            {
                "currency": "EUR",
                "models": {"test-judge": {"input_per_million": 1.0, "output_per_million": 4.0}},
            }
        )
    )
    table = load_price_table(prices)
    with FakeJudgeServer() as server:
        cfg = replace(config(server.base_url), price=table.price("test-judge"))
        est, _ = dry_run_file(data, tmp_path / "out", cfg)
        assert server.requests == []
        assert (est.items, est.to_send, est.requests, est.already_finished) == (10, 10, 10, 0)
        assert est.completion_tokens_max == 10 * 16 and est.completion_tokens_expected == 10 * 3
        assert est.cost_max == pytest.approx((est.prompt_tokens * 1.0 + 160 * 4.0) / 1e6)
        assert est.currency == "EUR"
        judge_file(data, tmp_path / "out", cfg, api_key=None, limit=4, n_boot=0)
        est2, _ = dry_run_file(data, tmp_path / "out", cfg)
        assert (est2.already_finished, est2.to_send) == (4, 6)
    on_disk = json.loads((tmp_path / "out" / "dry_run.json").read_text())
    assert on_disk["estimate"]["to_send"] == 6
    with pytest.raises(ValueError, match="has no entry for model 'gpt-x'; it lists: test-judge"):
        table.price("gpt-x")
    prices.write_text(json.dumps({"models": {"m": {"input_per_million": "cheap"}}}))
    with pytest.raises(ValueError, match="needs numeric input_per_million"):
        load_price_table(prices)


def test_token_estimate_and_cost() -> None:
    msgs = [{"role": "user", "content": "x" * 41}]
    assert TokenEstimator().count(msgs) == 11 + 4 + 3
    assert Price(2.5, 10.0).cost(1_000_000, 100_000) == pytest.approx(3.5)


def test_store_key_covers_model_template_inputs_and_sampling(tmp_path: Path) -> None:
    msgs = [{"role": "user", "content": "Problem X: [‘p’]"}]
    params = {"temperature": 0.0, "seed": 0, "max_tokens": 16, "n": 1}
    k = request_key("m", "t/1", msgs, params)
    assert len(k) == 64 and k == request_key("m", "t/1", [dict(msgs[0])], dict(reversed(params.items())))
    assert request_key("m2", "t/1", msgs, params) != k
    assert request_key("m", "t/2", msgs, params) != k
    assert request_key("m", "t/1", msgs, {**params, "n": 3}) != k
    assert request_key("m", "t/1", [{"role": "user", "content": "Problem X: [‘q’]"}], params) != k
    assert request_key("m", "t/1", [{"role": "system", "content": msgs[0]["content"]}], params) != k
    data = write_items(tmp_path / "i.jsonl", [item("k1", flawed=True)])
    cfg = config("http://127.0.0.1:9/v1")
    spec = scan(DatasetSpec(data, inputs=cfg.template.inputs)).spec
    keys = set()
    for c in (
        cfg,
        replace(cfg, model="other"),
        replace(cfg, sampling=SamplingParams(seed=1)),
        replace(cfg, sampling=SamplingParams(max_tokens=5)),
        replace(cfg, sampling=SamplingParams(json_mode=True)),
    ):
        est = estimate(iter_items(spec), c)
        assert est.to_send == 1
        from matheval_fast.judge.run import prepare

        keys.add(prepare(next(iter_items(spec)), c, c.sampling.resolved(c.template)).key)
    assert len(keys) == 5


def test_store_refuses_unknown_schema(tmp_path: Path) -> None:
    with RunStore(tmp_path / "s.sqlite") as s:
        s.db.execute("UPDATE meta SET v = '99' WHERE k = 'schema'")
        s.db.commit()
    with pytest.raises(ValueError, match="schema 99"):
        RunStore(tmp_path / "s.sqlite")


def test_two_worker_processes_send_each_request_once(tmp_path: Path) -> None:
    rows = [item(f"p{i}", flawed=i % 3 == 0, label=i % 3 == 0) for i in range(40)]
    rows.insert(7, dict(rows[3], id="p3-again"))
    data = write_items(tmp_path / "i.jsonl", rows)
    with FakeJudgeServer(api_key="worker-key") as server:
        from matheval_fast.judge.client import Secret

        report = judge_file(
            data, tmp_path / "out", config(server.base_url), api_key=Secret("worker-key"), workers=2, n_boot=0
        )
    assert chat_tags(server) == {f"p{i}": 1 for i in range(40)}
    assert {r.authorization for r in server.requests} == {"Bearer worker-key"}
    assert (report.stats.sent, report.stats.duplicates, report.stats.items) == (40, 1, 41)
    assert report.summary["items"]["done"] == 41 and report.summary["items"]["pending"] == 0
    with RunStore(tmp_path / "out" / "judge.sqlite") as s:
        assert s.count() == 40 and len(s.runs()) == 2  # one run record per worker


def test_store_writer_backlog_is_bounded(tmp_path: Path) -> None:
    """The background writer never has more than a couple of batches queued (memory stays flat)."""
    from matheval_fast.judge.store import _MAX_BACKLOG, StoredResult

    def row(i: int) -> StoredResult:
        return StoredResult(
            f"{i:064x}", "done", "yes", "{}", None, '["Yes"]', '["stop"]', "x" * 300, 1, 1, 1.0, 1, 200,
            "m", "t/1", str(i), 1, 0.0,
        )  # fmt: skip

    with RunStore(tmp_path / "s.sqlite", commit_every=10) as store:
        for i in range(2000):
            store.add(row(i))
            assert store.submitted - store.committed <= _MAX_BACKLOG
        store.flush()
        assert store.committed == store.submitted == 200 and store.count() == 2000
