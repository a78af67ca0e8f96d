"""The ``matheval-fast score`` command and ``score_records``: formats, field names, tables,
outputs, refused records, and the same verdicts as the API."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import matheval_fast as mf
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matheval_fast import score as score_mod
from matheval_fast.cli import main
from matheval_fast.score import RejectedRecordError, jsonl_bytes, read_records, score_file, score_records

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "data" / "samples" / "demo_responses.json"
MV_CASES = ROOT / "data" / "answer_check" / "math_verify_cases.jsonl"
QWEN = ROOT / "data" / "answer_check" / "qwen25math_math_cot_100_graded.jsonl"


def _rows(path: Path) -> list[dict]:
    if path.suffix == ".parquet":
        return pq.read_table(path).to_pylist()
    return [json.loads(line) for line in path.read_text().splitlines()]


def _jsonl(path: Path, recs: list) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


def test_demo_file_scores_and_writes_outputs(tmp_path, capsys):
    out = tmp_path / "res.jsonl"
    assert main(["score", str(DEMO), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Overall" in printed and "GSM8K" in printed and "MATH" in printed
    rows = _rows(out)
    assert len(rows) == 200
    assert {"line", "prompt", "type", "correct", "reason", "path", "extracted"} <= set(rows[0])
    assert rows[0]["line"] == 1  # 1-based, like every number this command prints
    # The summary sits beside the output, named after it: runs into other files never collide.
    summary = json.loads((tmp_path / "res.summary.json").read_text())
    assert not (tmp_path / "summary.json").exists()
    p0 = summary["prompts"][0]
    assert p0["total"] == 200
    assert p0["correct"] == sum(r["correct"] for r in rows)
    assert sum(p0["reasons"].values()) == 200
    assert summary["rejected"] == 0 and (tmp_path / "res.rejected.jsonl").read_text() == ""


def test_xwin_and_fixed_differ_on_the_demo():
    recs = read_records(DEMO)
    fixed = score_records(recs)
    xwin = score_records(recs, compat="xwin")
    f = {(r["line"], r["prompt"]): r["correct"] for r in fixed.rows}
    x = {(r["line"], r["prompt"]): r["correct"] for r in xwin.rows}
    assert f != x  # the demo includes the seed's "later anchor" quirk
    assert fixed.table(0)[-1][0] == "Overall"


RECS = [
    {"resp": "The answer is: 4", "gold": "4", "ds": "GSM8K", "id": "q1"},
    {"resp": "The answer is: 5", "gold": "4", "ds": "GSM8K", "id": "q2"},
    {"resp": "so \\boxed{\\frac{1}{2}}", "gold": "\\frac12", "ds": "MATH", "id": "q3"},
]
FIELD_ARGS = [
    "--response-field",
    "resp",
    "--gold-field",
    "gold",
    "--type-field",
    "ds",
    "--id-field",
    "id",
    "--quiet",
]


def test_every_input_format_gives_the_same_rows(tmp_path, monkeypatch):
    jl = _jsonl(tmp_path / "r.jsonl", RECS)
    gz = tmp_path / "r.jsonl.gz"
    gz.write_bytes(gzip.compress(jl.read_bytes()))
    pf = tmp_path / "r.parquet"
    pq.write_table(pa.Table.from_pylist(RECS), pf)
    arr = tmp_path / "r.json"
    arr.write_text(json.dumps(RECS))
    results = []
    for src in (jl, gz, pf, arr):
        out = tmp_path / f"o_{src.name}.jsonl"
        assert main(["score", str(src), "--out", str(out), *FIELD_ARGS]) == 0
        results.append([(r["line"], r["id"], r["correct"]) for r in _rows(out)])
    assert results[0] == [(1, "q1", True), (2, "q2", False), (3, "q3", True)]
    assert all(r == results[0] for r in results)
    # Standard input ("-"), gzipped or not.
    for data in (jl.read_bytes(), gz.read_bytes()):
        out = tmp_path / "stdin.jsonl"
        proc = subprocess.run(
            [sys.executable, "-m", "matheval_fast", "score", "-", "--out", str(out), *FIELD_ARGS],
            input=data,
            capture_output=True,
            check=True,
        )
        assert proc.returncode == 0
        assert [(r["line"], r["id"], r["correct"]) for r in _rows(out)] == results[0]


def test_parquet_output_by_suffix_keeps_ids(tmp_path):
    jl = _jsonl(tmp_path / "r.jsonl", RECS)
    out = tmp_path / "o.parquet"
    assert main(["score", str(jl), "--out", str(out), *FIELD_ARGS]) == 0
    rows = _rows(out)
    assert [(r["id"], r["correct"]) for r in rows] == [("q1", True), ("q2", False), ("q3", True)]
    assert (tmp_path / "o.summary.json").exists()
    # An output name that says no format needs --out-format.
    assert main(["score", str(jl), "--out", str(tmp_path / "o.txt"), *FIELD_ARGS]) == 2
    assert (
        main(["score", str(jl), "--out", str(tmp_path / "o.txt"), "--out-format", "parquet", *FIELD_ARGS])
        == 0
    )
    assert pq.read_table(tmp_path / "o.txt").num_rows == 3


def test_bad_lines_are_skipped_counted_and_written_aside(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"answer": "1", "completion": "1"}\nnot json\n\n{"answer": "2", "completion": "2"}\n')
    out = tmp_path / "o.jsonl"
    assert main(["score", str(bad), "--out", str(out)]) == 0
    assert [r["line"] for r in _rows(out)] == [1, 4]  # 1-based line numbers, blank lines counted
    rejected = _rows(tmp_path / "o.rejected.jsonl")
    assert [(r["file"], r["line"]) for r in rejected] == [(str(bad), 2)]
    summary = json.loads((tmp_path / "o.summary.json").read_text())
    assert summary["rejected"] == 1 and summary["records"] == 2
    assert "rejected: 1" in capsys.readouterr().out
    # --on-error fail stops at the first, naming file and line, and leaves no output behind.
    out2 = tmp_path / "o2.jsonl"
    assert main(["score", str(bad), "--out", str(out2), "--on-error", "fail"]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:2" in err and "Traceback" not in err
    assert not out2.exists() and not (tmp_path / "o2.summary.json").exists()


def test_missing_file_and_misspelt_fields_stop_with_one_clear_line(tmp_path, capsys):
    assert main(["score", str(tmp_path / "nope.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err
    f = _jsonl(tmp_path / "r.jsonl", [{"completion": "x", "answer": "1"}])
    assert main(["score", str(f), "--out", str(tmp_path / "o.jsonl"), "--response-field", "resp"]) == 2
    err = capsys.readouterr().err
    assert "'resp'" in err and "--response-field" in err and "completion" in err
    nogold = tmp_path / "nogold.json"
    nogold.write_text(json.dumps([{"completion": ["x"]}]))
    assert main(["score", str(nogold), "--out", str(tmp_path / "o.jsonl")]) == 2
    assert "'answer'" in capsys.readouterr().err
    pf = tmp_path / "r.parquet"
    pq.write_table(pa.Table.from_pylist([{"completion": "x", "answer": "1"}]), pf)
    assert main(["score", str(pf), "--out", str(tmp_path / "o.jsonl"), "--gold-field", "gold"]) == 2
    assert "no column 'gold'" in capsys.readouterr().err


def test_empty_response_lists_still_give_a_row():
    rep = score_records(
        [
            {"completion": [], "answer": "1"},
            {"completion": None, "answer": "1"},
            {"answer": "1"},
            {"completion": ["1", "2"], "answer": "1"},
        ]
    )
    got = [(r["line"], r["prompt"], r["reason"]) for r in rep.rows]
    assert got == [
        (1, 0, "no_answer"),
        (2, 0, "no_answer"),
        (3, 0, "no_answer"),
        (4, 0, "correct"),
        (4, 1, "incorrect"),
    ]
    assert rep.rejected == []


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        ({"completion": {"text": "1"}, "answer": "1"}, "response field 'completion' holds an object"),
        ({"completion": [["1"]], "answer": "1"}, "holds a list holding arrays or objects"),
        ({"completion": ["1", {"t": 1}], "answer": "1"}, "holds a list holding arrays or objects"),
        ({"completion": "1", "answer": ["1"]}, "gold field 'answer' holds an array"),
        ({"completion": "1", "answer": {"v": "1"}}, "gold field 'answer' holds an object"),
        ({"completion": "1", "answer": "1", "type": {"t": "MATH"}}, "type field 'type' holds an object"),
        ({"completion": "1"}, "no field 'answer'"),
        ([1, 2], "not a JSON object"),
        ({"completion": "1", "answer": float("nan")}, "not JSON data"),
    ],
)
def test_values_of_the_wrong_type_are_refused_never_stringified(record, reason):
    good = {"completion": "1", "answer": "1"}
    rep = score_records([good, record, good])
    assert [r["line"] for r in rep.rows] == [1, 3]
    assert len(rep.rejected) == 1 and rep.rejected[0][0] == 2 and reason in rep.rejected[0][1]
    with pytest.raises(RejectedRecordError, match="records: item 2"):
        score_records([good, record], on_error="fail")


def test_deeply_nested_json_is_a_clear_error(tmp_path, capsys):
    deep = "[" * 200_000 + "]" * 200_000
    f = tmp_path / "deep.jsonl"
    f.write_text('{"completion": "1", "answer": "1"}\n{"completion": ' + deep + ', "answer": "1"}\n')
    out = tmp_path / "o.jsonl"
    assert main(["score", str(f), "--out", str(out)]) == 0
    rej = _rows(tmp_path / "o.rejected.jsonl")
    assert rej[0]["line"] == 2 and "recursion limit" in rej[0]["reason"]
    arr = tmp_path / "deep.json"
    arr.write_text("[" + deep + "]")
    assert main(["score", str(arr), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "nested too deeply" in err and "Traceback" not in err


def test_unwritable_out_fails_before_scoring(tmp_path, monkeypatch, capsys):
    f = _jsonl(tmp_path / "r.jsonl", [{"completion": "1", "answer": "1"}])
    blocker = tmp_path / "file"
    blocker.write_text("")

    def no_scoring(*a, **k):
        raise AssertionError("scored before the output was known to be writable")

    monkeypatch.setattr(score_mod, "score_response_batch", no_scoring)
    assert main(["score", str(f), "--out", str(blocker / "o.jsonl")]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_an_interrupted_run_leaves_the_old_outputs_untouched(tmp_path, monkeypatch):
    f = _jsonl(tmp_path / "r.jsonl", [{"completion": str(i), "answer": "1"} for i in range(5)])
    out = tmp_path / "o.jsonl"
    out.write_text("old rows\n")
    (tmp_path / "o.summary.json").write_text("old summary\n")
    real = score_mod.score_response_batch
    calls = []

    def interrupt_second(*a, **k):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(score_mod, "score_response_batch", interrupt_second)
    with pytest.raises(KeyboardInterrupt):
        score_file(f, out, batch_rows=2)
    assert out.read_text() == "old rows\n"
    assert (tmp_path / "o.summary.json").read_text() == "old summary\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.jsonl", "o.summary.json", "r.jsonl"]


def test_batches_do_not_change_the_verdicts(tmp_path):
    recs = read_records(DEMO)
    one = score_records(recs)
    f = tmp_path / "demo.json"
    f.write_text(json.dumps(recs))
    for rows in (1, 7, 1000):
        out = tmp_path / f"o{rows}.parquet"
        score_file(f, out, batch_rows=rows)
        assert [(r["line"], r["prompt"], r["correct"], r["reason"]) for r in _rows(out)] == [
            (r["line"], r["prompt"], r["correct"], r["reason"]) for r in one.rows
        ]


def test_numeric_gold_is_not_a_silent_false():
    # The seed silently scores an int ground truth as wrong (reference §1.4); we read it as text.
    rep = score_records([{"answer": 18, "completion": ["The answer is: 18."], "type": "GSM8K"}])
    assert rep.rows[0]["correct"] is True


def _pairs() -> list[tuple[str, str]]:
    pairs = []
    for line in MV_CASES.read_text().splitlines():
        r = json.loads(line)
        pairs.append((r["pred"], r["gold"]))
    for line in QWEN.read_text().splitlines():
        r = json.loads(line)
        pairs.append((r["response"], r["gold"]))
    pairs += [
        ("$(-\\infty, 3)$", "(-\\infty,3]"),
        ("\\boxed{(-\\infty, 3)}", "(-\\infty,3]"),
        ("$\\pm 2$", "-2, 2"),
        ("\\boxed{-2, 2}", "\\pm 2"),
    ]
    return pairs


@pytest.mark.parametrize("compat", ["fixed", "xwin"])
def test_the_command_line_and_check_agree_on_the_bundled_suites(tmp_path, capsys, compat):
    """Rows with no type get ``check``'s checker: the CLI and the API give one verdict per pair."""
    pairs = _pairs()
    f = _jsonl(tmp_path / "pairs.jsonl", [{"completion": r, "answer": g} for r, g in pairs])
    out = tmp_path / "o.jsonl"
    assert main(["score", str(f), "--out", str(out), "--compat", compat, "--quiet", "--timeout", "30"]) == 0
    assert f"note: {len(pairs)} of {len(pairs)} rows had no type" in capsys.readouterr().err
    cli = [(r["correct"], r["reason"], r["extracted"]) for r in _rows(out)]
    api = [
        (v.correct, v.reason, v.extracted)
        for v in (mf.check(r, g, compat=compat, timeout=30) for r, g in pairs)
    ]
    assert len(cli) == len(api) == len(pairs)
    diff = [(pairs[i], cli[i], api[i]) for i in range(len(pairs)) if cli[i] != api[i]]
    assert not diff, diff[:5]
    if compat == "fixed":  # the interval and plus-minus pairs the issue reported, decided right
        assert [c[0] for c in cli[-4:]] == [False, False, True, True]


def test_console_script_runs_without_a_terminal(tmp_path):
    out = tmp_path / "o.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "matheval_fast", "score", str(DEMO), "--out", str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Overall" in proc.stdout
    assert proc.stderr == ""  # no progress bar when stderr is not a terminal


@settings(max_examples=200, deadline=None)
@given(
    texts=st.lists(st.one_of(st.none(), st.text()), min_size=1, max_size=20),
    flags=st.lists(st.one_of(st.none(), st.booleans()), min_size=20, max_size=20),
    start=st.integers(0, 3),
)
def test_jsonl_writer_writes_what_json_dumps_writes(texts, flags, start):
    """The core's JSON Lines writer against the slow reference: json.dumps per row."""
    n = len(texts)
    b = pa.record_batch(
        {
            "line": pa.array([None if i % 5 == 4 else i for i in range(n)], pa.int64()),
            "text": pa.array(texts, pa.large_string()),
            "ok": pa.array(flags[:n], pa.bool_()),
            "reason": pa.array(texts, pa.string()),
        }
    ).slice(min(start, n - 1))
    want = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in b.to_pylist())
    assert jsonl_bytes(b).decode("utf-8") == want


class _Bar:
    def __init__(self, total, **kw):
        self.total, self.kw, self.n, self.postfix = total, kw, 0, {}

    def update(self, n=1):
        self.n += n

    def set_postfix(self, refresh=True, **kw):
        self.postfix = kw

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def test_progress_counts_bytes_of_a_jsonl_file_and_rows_of_parquet(tmp_path, monkeypatch):
    import matheval_fast._report.progress as progress

    bars = []
    monkeypatch.setattr(
        progress, "progress_bar", lambda total, **kw: bars.append(_Bar(total, **kw)) or bars[-1]
    )
    jl = _jsonl(tmp_path / "r.jsonl", RECS)
    score_file(
        jl, tmp_path / "o.jsonl", response_field="resp", gold_field="gold", progress=True, batch_rows=2
    )
    assert bars[-1].total == bars[-1].n == jl.stat().st_size and bars[-1].kw["unit"] == "B"
    assert bars[-1].postfix == {"records": 3}
    pf = tmp_path / "r.parquet"
    pq.write_table(pa.Table.from_pylist(RECS), pf)
    score_file(
        pf, tmp_path / "o2.jsonl", response_field="resp", gold_field="gold", progress=True, batch_rows=2
    )
    assert bars[-1].total == bars[-1].n == 3 and bars[-1].kw["unit"] == "record"


def test_the_precision_policy_is_a_command_line_option(tmp_path):
    f = _jsonl(tmp_path / "r.jsonl", [{"completion": "The answer is 2.23", "answer": "2.232"}])
    for policy, want in (("exact", False), ("written_precision", True)):
        out = tmp_path / f"{policy}.jsonl"
        assert main(["score", str(f), "--out", str(out), "--quiet", "--finite-decimals", policy]) == 0
        assert _rows(out)[0]["correct"] is want
        assert json.loads((tmp_path / f"{policy}.summary.json").read_text())["finite_decimals"] == policy


def _score_demo_rows(_: int = 0) -> list[tuple]:
    rep = score_records(read_records(DEMO))
    return [(r["line"], r["prompt"], r["correct"], r["reason"], r["extracted"]) for r in rep.rows]


def test_same_rows_from_threads_and_forked_processes():
    """The files path from several threads at once and in forked workers (after the parent has run a
    batch, so the pools exist in the parent) gives the rows of a plain call."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

    want = _score_demo_rows()
    with ThreadPoolExecutor(4) as ex:
        assert all(rows == want for rows in ex.map(_score_demo_rows, range(4)))
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as ex:
        assert all(rows == want for rows in ex.map(_score_demo_rows, range(2)))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([0, 1]),
            st.sampled_from([None, "Algebra", "Geometry"]),
            st.sampled_from([None, "Level 1"]),
            st.booleans(),
            st.sampled_from(["matched", "mismatch", "no_answer"]),
            st.sampled_from(["number", "latex"]),
        ),
        min_size=1,
        max_size=30,
    ),
    st.booleans(),
)
def test_the_one_group_tally_counts_what_the_group_by_counts(rows, one_prompt):
    """The fast tally (one prompt, no type/subtype/level) and the Arrow group-by give one summary."""
    if one_prompt:
        rows = [(0, None, None, *r[3:]) for r in rows]
    prompt, ty, lv, correct, reason, path = zip(*rows, strict=True)
    out = pa.RecordBatch.from_pydict(
        {
            "prompt": pa.array(prompt, pa.int64()),
            "type": pa.array(ty, pa.large_string()),
            "subtype": pa.nulls(len(rows), pa.large_string()),
            "level": pa.array(lv, pa.large_string()),
            "correct": pa.array(correct),
            "reason": pa.array(reason),
            "path": pa.array(path),
        }
    )
    fast, slow = score_mod.ScoreTally(), score_mod.ScoreTally()
    fast.add(out)
    slow._add_one_group = lambda _b: False  # type: ignore[method-assign]
    slow.add(out)
    # (as JSON: a prompt with no rows has a NaN accuracy, which == would call unequal)
    assert json.dumps(fast.summary(), sort_keys=True) == json.dumps(slow.summary(), sort_keys=True)
