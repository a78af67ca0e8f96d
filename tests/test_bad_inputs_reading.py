"""Bad inputs, as every command reads them (issue 31, the reading side).

One suite, command x case: each case is a file generated in ``tmp_path`` from one command's own
good records (binary data, a PNG, Parquet bytes, UTF-16 with and without a byte-order mark, Latin-1,
empty, blank lines only, truncated and corrupt gzip, a record over the size limit, a malformed line,
bad UTF-8 past the first 64 KiB; and good ones: a UTF-8 BOM, gzip). Every run is checked for: the
exit code, a message naming the file (and line) and what is wrong, no traceback, no temporary file
left, the input byte-identical afterwards, and every record counted (scored + rejected = read).

Then the cases of one command each: a log whose first record is over 64 KiB, files named twice,
rescore's own output folder, unreadable files in a folder, ``--response-field`` misspelt, ids, a
structured response, a metric of ``"yes"``, ``score_records`` given a string, JSON array items.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from matheval_fast.cli import main

COMMANDS = ("score", "rescore", "compare", "judge", "consistency", "unanswerable")
#: The record size limit the over-long case runs under (set through the environment).
SMALL_LIMIT = 4096
LM_EVAL_NAME = "samples_gsm8k_2024-06-01T10-00-00.jsonl"


def _lm_eval(i: int, response: Any = "2", metric: Any = 1.0) -> dict[str, Any]:
    return {
        "doc_id": i,
        "doc": {"question": f"q{i}"},
        "target": "2",
        "arguments": {"gen_args_0": {"arg_0": f"q{i}"}},
        "resps": [[response]],
        "filtered_resps": ["2"],
        "filter": "none",
        "metrics": ["exact_match"],
        "exact_match": metric,
    }


def good_record(command: str, i: int) -> dict[str, Any]:
    """One valid record of ``command``'s input (``i`` makes ids distinct)."""
    if command == "score":
        return {"id": i, "answer": "2", "completion": "The answer is 2"}
    if command in ("rescore", "compare"):
        return _lm_eval(i)
    if command == "judge":
        return {"id": f"j{i}", "problem": "1+1?", "response": "2", "label": "yes"}
    if command == "consistency":
        return {"id": i, "scores": [1, 2, 3], "scores_prime": [4, 5, 6]}
    # unanswerable (UMWP): labels in the record, an empty output (decided without a model)
    return {
        "id": i,
        "question": "q",
        "answer": [2.0],
        "answerable": True,
        "source": "S",
        "generated_text": "",
    }


def input_name(command: str) -> str:
    return LM_EVAL_NAME if command in ("rescore", "compare") else f"{command}_in.jsonl"


def argv(command: str, inp: Path, out: Path) -> list[str]:
    if command == "score":
        return ["score", str(inp), "--out", str(out / "o.jsonl"), "--quiet"]
    if command == "rescore":
        return ["rescore", str(inp), "--out", str(out), "--quiet"]
    if command == "compare":
        return ["compare", str(inp), "--out", str(out), "--math-verify", "off", "--quiet"]
    if command == "judge":  # a dry run reads and validates every item, sends nothing
        return ["judge", str(inp), "--model", "m", "--out", str(out), "--dry-run"]
    if command == "consistency":
        return ["consistency", str(inp), "--out", str(out)]
    return ["unanswerable", str(inp), "--preset", "umwp", "--out", str(out)]


def records_counted(command: str, out: Path) -> int:
    """Records the command accounted for: scored + rejected (or malformed)."""
    if command == "score":
        s = json.loads((out / "o.summary.json").read_text())
        return s["records"] + s["rejected"]
    if command == "rescore":
        s = json.loads((out / "summary.json").read_text())
        return sum(f["rows"] + f["malformed"] for f in s["files"])
    if command == "compare":
        s = json.loads((out / "compare.json").read_text())
        return s["records"] + s["malformed"]
    if command == "judge":
        return json.loads((out / "dry_run.json").read_text())["estimate"]["items"]
    if command == "consistency":
        return len((out / "pairs.jsonl").read_text().splitlines())
    return json.loads((out / "summary.json").read_text())["overall"]["items"]


def _lines(command: str, n: int = 2) -> bytes:
    return "".join(json.dumps(good_record(command, i)) + "\n" for i in range(n)).encode()


def _parquet(command: str) -> bytes:
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_pylist([good_record(command, 0)]), buf)
    return buf.getvalue()


def _late_bad_utf8(command: str) -> bytes:
    """A good record padded past the 64 KiB the head check reads, then a line with a Latin-1 byte (in
    a field the command reads)."""
    first = good_record(command, 0)
    first["pad"] = "x" * 70_000
    bad = good = json.dumps(good_record(command, 1)).encode()
    for read in (b'"answer": "2"', b'"target": "2"'):  # a field score / rescore read (the gold)
        bad = bad.replace(read, read[:-1] + b'\xe9"')
    if bad == good:  # the others decode the whole line
        bad = good.replace(b"{", b'{"note": "caf\xe9", ', 1)
    return (
        json.dumps(first).encode()
        + b"\n"
        + bad
        + b"\n"
        + json.dumps(good_record(command, 2)).encode()
        + b"\n"
    )


def _with_bad_line(command: str) -> bytes:
    rows = _lines(command, 3).splitlines(keepends=True)
    return rows[0] + b"{not json\n" + rows[2]


# name -> (the file's bytes from the command, what is expected). Expected: ("error", phrases the
# message has, line it names or None) or ("ok", records read). Where the commands differ (a bad
# record: score, rescore and compare count it and go on, the others stop at it), by command.
SKIPPERS = ("score", "rescore", "compare")
#: How a message names line 2: ``file:2:`` or ``file: line 2:``.
LINE_2 = r"(:| line )2:"
Expect = tuple[str, Any, Any]
CASES: dict[str, tuple[Callable[[str], bytes], Callable[[str], Expect]]] = {
    "binary": (lambda c: bytes(range(256)) * 40, lambda c: ("error", "binary data", None)),
    "png": (lambda c: b"\x89PNG\r\n\x1a\n" + bytes(200), lambda c: ("error", "a PNG image", None)),
    # rescore and compare read lighteval's Parquet: theirs says it is not lighteval's.
    "parquet_named_jsonl": (_parquet, lambda c: ("error", "Parquet", None)),
    "utf16_with_bom": (lambda c: _lines(c).decode().encode("utf-16"), lambda c: ("error", "UTF-16", None)),
    "utf16_no_bom": (lambda c: _lines(c).decode().encode("utf-16-le"), lambda c: ("error", "UTF-16", None)),
    "latin1_in_head": (
        lambda c: _lines(c, 1) + b'{"x": "caf\xe9"}\n',
        lambda c: ("error", "not UTF-8", LINE_2),
    ),
    "empty": (lambda c: b"", lambda c: ("error", "empty", None)),
    "blank_lines_only": (lambda c: b"\n\n   \n", lambda c: ("error", "empty", None)),
    "truncated_gzip": (
        lambda c: gzip.compress(_lines(c, 50))[:-30],
        lambda c: ("error", "truncated or corrupt gzip", None),
    ),
    "corrupt_gzip": (
        lambda c: gzip.compress(_lines(c, 50))[:20] + bytes(range(200)),
        lambda c: ("error", "gzip", None),
    ),
    "record_over_limit": (
        lambda c: _lines(c, 1) + b"a" * (SMALL_LIMIT * 20),
        lambda c: ("error", "longer than 4,096 bytes", LINE_2),
    ),
    "malformed_line": (
        _with_bad_line,
        lambda c: ("ok", 3, None) if c in SKIPPERS else ("error", "JSON", LINE_2),
    ),
    "bad_utf8_after_64k": (
        _late_bad_utf8,
        lambda c: ("ok", 3, None) if c in SKIPPERS else ("error", "not UTF-8", LINE_2),
    ),
    "utf8_bom": (lambda c: b"\xef\xbb\xbf" + _lines(c), lambda c: ("ok", 2, None)),
    "gzip_named_jsonl": (lambda c: gzip.compress(_lines(c)), lambda c: ("ok", 2, None)),
}

MATRIX = [(c, k) for c in COMMANDS for k in CASES]


def test_the_suite_size() -> None:
    """The number of command x case runs (reported in the issue's close)."""
    assert len(MATRIX) == len(COMMANDS) * len(CASES) == 90


def _tmp_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.name.endswith(".tmp") or ".tmp" in p.suffixes]


@pytest.mark.parametrize(("command", "case"), MATRIX, ids=[f"{c}-{k}" for c, k in MATRIX])
def test_bad_input(
    command: str,
    case: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    make, expect = CASES[case]
    data = make(command)
    inp = tmp_path / "in" / input_name(command)
    inp.parent.mkdir()
    inp.write_bytes(data)
    out = tmp_path / "out"
    if case == "record_over_limit":
        monkeypatch.setenv("MATHEVAL_FAST_MAX_RECORD_BYTES", str(SMALL_LIMIT))
    else:
        monkeypatch.delenv("MATHEVAL_FAST_MAX_RECORD_BYTES", raising=False)
    kind, what, where = expect(command)
    rc = main(argv(command, inp, out))
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    assert inp.read_bytes() == data  # never modified
    assert not _tmp_files(tmp_path), _tmp_files(tmp_path)
    if kind == "error":
        assert rc == 2, err
        assert str(inp) in err and what in err, err
        if where is not None:
            assert re.search(str(inp).replace(".", r"\.") + ".*" + where, err), err
        published = [p for p in out.rglob("*") if p.is_file()] if out.exists() else []
        assert not published, published  # nothing written from a bad input
        assert not (out / "items").exists()  # rescore: no empty items/ either
    else:
        assert rc == 0, err
        assert records_counted(command, out) == what
        if case == "bad_utf8_after_64k":  # the record is rejected saying what is wrong with it
            rejected = out / ("o.rejected.jsonl" if command == "score" else "rejected.jsonl")
            if command == "compare":
                reasons = json.loads((out / "compare.json").read_text())["malformed_examples"]
            else:
                reasons = rejected.read_text().splitlines()
            assert len(reasons) == 1 and "line is not UTF-8 text" in reasons[0], reasons


# ---------------------------------------------------------------------------------------------
# One command each


def _write_log(path: Path, records: list[Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return path


def _summary_rows(out: Path) -> list[tuple[str, int, int]]:
    s = json.loads((out / "summary.json").read_text())
    return [(f["file"], f["rows"], f["malformed"]) for f in s["files"]]


@pytest.mark.parametrize("how", ["folder", "file", "file --format lm_eval", "compare folder"])
def test_a_log_whose_first_record_is_over_64_kib_is_read(tmp_path: Path, how: str) -> None:
    big = _lm_eval(0, "Let me think step by step. " * 5000 + "The answer is 2")
    log = _write_log(tmp_path / "logs" / "model" / LM_EVAL_NAME, [big, _lm_eval(1), _lm_eval(2, "3", 0.0)])
    assert len(log.read_bytes().split(b"\n")[0]) > 1 << 17
    out = tmp_path / "out"
    if how == "compare folder":
        assert (
            main(["compare", str(tmp_path / "logs"), "--out", str(out), "--math-verify", "off", "--quiet"])
            == 0
        )
        assert json.loads((out / "compare.json").read_text())["records"] == 3
        return
    args = {"folder": [str(tmp_path / "logs")], "file": [str(log)]}.get(
        how, [str(log), "--format", "lm_eval"]
    )
    assert main(["rescore", *args, "--out", str(out), "--quiet"]) == 0
    assert _summary_rows(out) == [(str(log), 3, 0)]


def test_the_same_log_named_twice_is_read_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _write_log(tmp_path / "logs" / LM_EVAL_NAME, [_lm_eval(0), _lm_eval(1)])
    link = tmp_path / "logs" / "samples_link_2024-06-01T10-00-00.jsonl"
    link.symlink_to(log.name)
    hard = tmp_path / "elsewhere.jsonl"
    os.link(log, hard)
    out = tmp_path / "out"
    assert main(["rescore", str(log), str(tmp_path / "logs"), str(hard), "--out", str(out), "--quiet"]) == 0
    assert _summary_rows(out) == [(str(log), 2, 0)]
    err = capsys.readouterr().err
    assert f"{log} given twice: read once" in err
    assert f"{link} is the same file as {log}: read once" in err
    assert f"{hard} is the same file as {log}: read once" in err


def test_rescore_copies_in_the_input_folder_are_not_read_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "logs"
    _write_log(logs / LM_EVAL_NAME, [_lm_eval(0), _lm_eval(1)])
    out = logs / "rescored_run"
    for _ in range(2):
        assert main(["rescore", str(logs), "--copy", "--out", str(out), "--quiet"]) == 0
        assert [r[1:] for r in _summary_rows(out)] == [(2, 0)]
    assert (out / "rescored" / LM_EVAL_NAME).is_file()
    # Another run with another --out does not read the first run's copies either, and says so.
    capsys.readouterr()
    assert main(["rescore", str(logs), "--out", str(tmp_path / "o2"), "--quiet"]) == 0
    assert [r[1:] for r in _summary_rows(tmp_path / "o2")] == [(2, 0)]
    assert (
        f"skipped {out / 'rescored'}: matheval-fast rescore outputs, not new logs" in capsys.readouterr().err
    )


@pytest.mark.parametrize("items_format", ["jsonl", "parquet"])
def test_rescore_into_the_log_folder_itself_reads_the_logs_not_its_outputs(
    tmp_path: Path, items_format: str
) -> None:
    """``--out`` the input folder: its logs are read, its ``items/`` and ``rescored/`` never (a JSON
    Lines item file is named like the log it comes from)."""
    logs = tmp_path / "logs"
    _write_log(logs / LM_EVAL_NAME, [_lm_eval(0), _lm_eval(1)])
    for _ in range(2):
        args = ["rescore", str(logs), "--copy", "--items-format", items_format, "--out", str(logs), "--quiet"]
        assert main(args) == 0
        assert _summary_rows(logs) == [(str(logs / LM_EVAL_NAME), 2, 0)]


@pytest.mark.parametrize("bad", ["truncated_gzip", "binary"])
def test_an_unreadable_log_in_a_folder_is_an_error_not_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    logs = tmp_path / "logs"
    _write_log(logs / LM_EVAL_NAME, [_lm_eval(0)])
    broken = logs / "samples_other_2024-06-01T10-00-00.jsonl.gz"
    broken.write_bytes(CASES[bad][0]("rescore"))
    out = tmp_path / "out"
    assert main(["rescore", str(logs), "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert str(broken) in err and "Traceback" not in err
    assert not out.exists()


def test_a_file_named_like_a_log_in_another_format_is_skipped_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "logs"
    _write_log(logs / LM_EVAL_NAME, [_lm_eval(0)])
    other = _write_log(logs / "test_notes.jsonl", [{"what": "not a log"}])
    assert main(["rescore", str(logs), "--out", str(tmp_path / "out"), "--quiet"]) == 0
    assert f"note: skipped {other}: not a log format we know" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["rescore", "compare"])
@pytest.mark.parametrize("flag", ["--response-field", "--gold-field"])
def test_a_misspelt_field_stops_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, flag: str
) -> None:
    log = _write_log(tmp_path / LM_EVAL_NAME, [_lm_eval(0)])
    out = tmp_path / "out"
    extra = ["--math-verify", "off"] if command == "compare" else []
    assert main([command, str(log), "--out", str(out), flag, "nope", *extra]) == 2
    err = capsys.readouterr().err
    assert f"{log}: the first record has no field 'nope'" in err and flag in err
    assert not out.exists()


def test_compare_counts_malformed_records(tmp_path: Path) -> None:
    recs = [_lm_eval(0), _lm_eval(1), "not json", _lm_eval(3), _lm_eval(4, [{"text": "2"}])]
    log = _write_log(tmp_path / LM_EVAL_NAME, recs)
    out = tmp_path / "out"
    assert main(["compare", str(log), "--out", str(out), "--math-verify", "off", "--quiet"]) == 0
    rep = json.loads((out / "compare.json").read_text())
    assert (rep["records"], rep["malformed"], rep["items"]) == (3, 2, 3)
    assert rep["malformed_examples"][0] == f"{log}:line 3: not valid JSON: not a JSON object"


def test_rescore_refuses_a_structured_response_and_a_string_metric(tmp_path: Path) -> None:
    structured = _lm_eval(1)
    structured["resps"] = [[{"text": "2"}]]
    log = _write_log(tmp_path / LM_EVAL_NAME, [_lm_eval(0), structured, _lm_eval(2, metric="yes")])
    out = tmp_path / "out"
    assert main(["rescore", str(log), "--out", str(out), "--quiet"]) == 0
    assert _summary_rows(out) == [(str(log), 1, 2)]
    rejected = [json.loads(x) for x in (out / "rejected.jsonl").read_text().splitlines()]
    assert [(r["position"], r["message"]) for r in rejected] == [
        (
            2,
            "response field 'resps.0' holds a list holding arrays or objects, "
            "expected a string or a list of strings",
        ),
        (3, "metric 'exact_match' holds a string, expected a number or true/false"),
    ]


BIG = 1180591620717411303424


def test_ids_keep_their_value_and_type(tmp_path: Path) -> None:
    from matheval_fast.score import score_records

    recs = [
        {"id": BIG, "answer": "1", "completion": "1"},
        {"id": "a", "answer": "1", "completion": "1"},
        {"id": 7, "answer": "1", "completion": "1"},
        {"id": None, "answer": "1", "completion": "1"},
    ]
    inp = _write_log(tmp_path / "ids.jsonl", recs)
    with pytest.warns(UserWarning):
        assert [r["id"] for r in score_records(recs, id_fields=["id"]).rows] == [BIG, "a", 7, None]
    out = tmp_path / "o.jsonl"
    assert main(["score", str(inp), "--id-field", "id", "--out", str(out), "--quiet"]) == 0
    assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == [BIG, "a", 7, None]
    # Parquet has one type per column: the ids as text, exactly.
    pout = tmp_path / "o.parquet"
    assert main(["score", str(inp), "--id-field", "id", "--out", str(pout), "--quiet"]) == 0
    assert pq.read_table(pout).column("id").to_pylist() == [str(BIG), "a", "7", None]
    # Integers only: still an integer column.
    ints = _write_log(tmp_path / "ints.jsonl", [dict(recs[2]), dict(recs[2], id=8)])
    assert main(["score", str(ints), "--id-field", "id", "--out", str(pout), "--quiet"]) == 0
    assert pq.read_table(pout).column("id").type == pa.int64()
    # rescore: the id column is text, and exact.
    log = _write_log(tmp_path / LM_EVAL_NAME, [_lm_eval(BIG)])
    assert main(["rescore", str(log), "--out", str(tmp_path / "r"), "--quiet"]) == 0
    items = pq.read_table(next((tmp_path / "r" / "items").iterdir()))
    assert items.column("id").to_pylist() == [str(BIG)]


def test_judge_keeps_a_missing_id_missing(tmp_path: Path) -> None:
    from matheval_fast.judge.data import DatasetSpec, iter_items

    rows = [
        {"id": 2, "problem": "p", "response": "r"},
        {"id": None, "problem": "p", "response": "r"},
        {"problem": "p", "response": "r"},
    ]
    inp = _write_log(tmp_path / "j.jsonl", rows)
    items = list(iter_items(DatasetSpec(inp, inputs=("problem", "response"))))
    # Line 2's item is not "2" (the real id of line 1's): its id is None, its index tells it apart.
    assert [(i.id, i.index) for i in items] == [("2", 0), (None, 1), (None, 2)]


@pytest.mark.parametrize("records", ["abc", None, {"answer": "1"}, 42, b"xy"])
def test_score_records_wants_a_sequence_of_records(records: Any) -> None:
    from matheval_fast.score import score_records

    with pytest.raises(TypeError, match=r"a sequence of records \(dicts\)"):
        score_records(records)


def test_a_json_array_reports_items_not_lines(tmp_path: Path) -> None:
    good = {"answer": "1", "completion": "1"}
    inp = tmp_path / "a.json"
    inp.write_text(json.dumps([good, 5, good, {"completion": "1"}], indent=2))
    out = tmp_path / "o.jsonl"
    assert main(["score", str(inp), "--out", str(out), "--quiet"]) == 0
    rejected = [json.loads(x) for x in (tmp_path / "o.rejected.jsonl").read_text().splitlines()]
    assert [(r.get("item"), "line" in r) for r in rejected] == [(2, False), (4, False)]
    assert main(["score", str(inp), "--out", str(out), "--quiet", "--on-error", "fail"]) == 2


def test_the_record_limit_applies_to_stdin_without_newlines(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``score -`` on a stream with no newline: stopped at the limit, not buffered without end."""
    monkeypatch.setenv("MATHEVAL_FAST_MAX_RECORD_BYTES", str(SMALL_LIMIT))
    stream = io.BytesIO(b"a" * (SMALL_LIMIT * 50))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BufferedReader(stream)))
    assert main(["score", "-", "--out", str(tmp_path / "o.jsonl"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "stdin: line 1: a record longer than 4,096 bytes" in err
    assert stream.tell() < SMALL_LIMIT * 50  # it stopped reading
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("command", ["rescore", "compare", "score"])
def test_a_gzip_cut_past_its_head_stops_the_run_leaving_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """The first 64 KiB read well (the format is recognised, outputs are begun), then the stream
    ends: one line naming the file, and no empty ``items/`` or output folder left behind."""
    recs = [good_record(command, i) | {"pad": f"{i:08d}" * 40} for i in range(4000)]
    whole = gzip.compress("".join(json.dumps(r) + "\n" for r in recs).encode(), mtime=0)
    inp = tmp_path / "in" / (input_name(command) + ".gz")
    inp.parent.mkdir()
    inp.write_bytes(whole[: len(whole) * 3 // 4])
    out = tmp_path / "out"
    before = inp.read_bytes()
    assert main(argv(command, inp, out)) == 2
    err = capsys.readouterr().err
    assert f"{inp}: truncated or corrupt gzip data" in err and "Traceback" not in err
    assert not out.exists() or not any(out.rglob("*"))
    assert not _tmp_files(tmp_path) and inp.read_bytes() == before


FORCED = ["binary", "utf16_with_bom", "latin1_in_head", "empty", "truncated_gzip", "record_over_limit"]


@pytest.mark.parametrize("case", FORCED)
def test_bad_input_with_a_forced_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    """``rescore --format lm_eval`` meets the same checks as detection does."""
    if case == "record_over_limit":
        monkeypatch.setenv("MATHEVAL_FAST_MAX_RECORD_BYTES", str(SMALL_LIMIT))
    make, expect = CASES[case]
    inp = tmp_path / LM_EVAL_NAME
    inp.write_bytes(make("rescore"))
    out = tmp_path / "out"
    assert main(["rescore", str(inp), "--format", "lm_eval", "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    _, what, _ = expect("rescore")
    assert str(inp) in err and what in err and "Traceback" not in err, err
    assert not out.exists()


def test_a_corrupt_parquet_file_is_named(tmp_path: Path) -> None:
    """Issue 31 item 16: pyarrow's "Parquet magic bytes not found" said nothing of which file."""
    bad = tmp_path / "responses.parquet"
    bad.write_bytes(b"PAR1 this is not a parquet file")
    before = bad.read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "matheval_fast", "score", str(bad), "--out", str(tmp_path / "o" / "x.jsonl")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert f"{bad}: not a readable Parquet file" in done.stderr and "Traceback" not in done.stderr
    assert bad.read_bytes() == before and not (tmp_path / "o").exists()
