"""What a new user hit on first contact (issue 24): each a defect, each fixed here and kept fixed."""

from __future__ import annotations

import gc
import gzip
import json
import subprocess
import sys
import warnings
from pathlib import Path

import matheval_fast
import pyarrow.parquet as pq
import pytest
from matheval_fast import unanswerable
from matheval_fast.cli import main, notes
from matheval_fast.io.responses import COMMON_FIELD_NAMES, ResponseFields
from matheval_fast.judge.metrics import Agreement, AgreementCounter, pairwise_kappa, summarize_counts
from matheval_fast.score import FieldsGuessedWarning, score_file, score_records


def _jsonl(path: Path, records: list) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# ---- the datasets protocol B joins labels from travel in the package ----


@pytest.mark.parametrize("preset", ["umwp", "selfaware"])
def test_the_bundled_datasets_are_package_data(preset):
    path = unanswerable.bundled_dataset(preset)
    assert path.is_file()
    # Inside the installed package, not the source checkout's data/: a wheel carries it.
    assert path.is_relative_to(Path(matheval_fast.__file__).resolve().parent / "datasets")


def test_unanswerable_joins_labels_from_the_shipped_dataset(tmp_path):
    outputs = _jsonl(tmp_path / "o.jsonl", [{"id": 1, "generated_text": "The answer is unknown."}])
    code = (
        "import sys; from matheval_fast.cli import main; "
        f"sys.exit(main(['unanswerable', {str(outputs)!r}, '--preset', 'umwp', '--out', 'out']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    # The labels are joined before any scoring (which then asks for --model: none is given here).
    assert f"joined labels from {unanswerable.bundled_dataset('umwp')} by id" in done.stderr, done.stderr
    assert "source checkout" not in done.stderr


# ---- score: the field names ----


@pytest.mark.parametrize(
    ("response", "gold"), [("response", "gold"), ("output", "target"), ("prediction", "ground_truth")]
)
def test_common_field_names_are_taken_when_the_defaults_are_absent(tmp_path, capsys, response, gold):
    f = _jsonl(tmp_path / "r.jsonl", [{response: "The answer is 18.", gold: "18"}])
    assert main(["score", str(f), "--out", str(tmp_path / "o.jsonl")]) == 0
    err = capsys.readouterr().err
    assert f"note: read the response from {response!r} and the gold from {gold!r}" in err
    assert _rows(tmp_path / "o.jsonl")[0]["correct"] is True
    summary = json.loads((tmp_path / "o.summary.json").read_text())
    assert summary["fields"] == {"response": response, "gold": gold}


def test_the_defaults_win_and_named_fields_are_never_guessed(tmp_path, capsys):
    both = {"completion": "The answer is 1.", "response": "The answer is 2.", "answer": "1", "gold": "2"}
    f = _jsonl(tmp_path / "r.jsonl", [both])
    assert main(["score", str(f), "--out", str(tmp_path / "o.jsonl")]) == 0
    assert "note: read" not in capsys.readouterr().err
    assert _rows(tmp_path / "o.jsonl")[0]["extracted"] == "1"
    g = _jsonl(tmp_path / "g.jsonl", [{"response": "The answer is 2.", "gold": "2"}])
    assert main(["score", str(g), "--response-field", "completion", "--out", str(tmp_path / "p.jsonl")]) == 2
    assert "--response-field" in capsys.readouterr().err


def test_guessing_covers_parquet_json_arrays_and_records(tmp_path):
    recs = [{"output": "The answer is 3.", "target": 3}]
    pq.write_table(__import__("pyarrow").Table.from_pylist(recs), tmp_path / "r.parquet")
    (tmp_path / "r.json").write_text(json.dumps(recs))
    for src in ("r.parquet", "r.json"):
        with pytest.warns(FieldsGuessedWarning):
            s = score_file(tmp_path / src, tmp_path / f"{src}.out.jsonl")
        assert s["fields"] == {"response": "output", "gold": "target"}
        assert s["prompts"][0]["correct"] == 1
    with pytest.warns(FieldsGuessedWarning):
        assert score_records(recs).rows[0]["correct"] is True
    assert ResponseFields(guess=("response",)).resolve(["x"]).response == "completion"  # none there
    assert COMMON_FIELD_NAMES["response"][0] == "completion" and COMMON_FIELD_NAMES["gold"][0] == "answer"


def test_score_help_says_the_defaults_and_the_common_names(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "default: 'completion'" in text and "default: 'answer'" in text
    for name in (*COMMON_FIELD_NAMES["response"][1:], *COMMON_FIELD_NAMES["gold"][1:]):
        assert repr(name) in text


# ---- score: reading and writing ----


def test_a_gzipped_input_leaves_no_unclosed_file(tmp_path, capsys):
    f = tmp_path / "r.jsonl.gz"
    with gzip.open(f, "wt") as fh:
        fh.write(json.dumps({"completion": "The answer is 1.", "answer": "1"}) + "\n")
    with warnings.catch_warnings():
        warnings.simplefilter("always", ResourceWarning)
        assert main(["score", str(f), "--out", str(tmp_path / "o.jsonl")]) == 0
        gc.collect()
    assert "unclosed" not in capsys.readouterr().err


def test_integer_ids_stay_integers(tmp_path):
    recs = [
        {"completion": "The answer is 1.", "answer": "1", "doc_id": 7, "uid": "a-1", "mixed": 1},
        {"completion": "The answer is 2.", "answer": "2", "doc_id": 8, "uid": "a-2", "mixed": "b"},
        {"completion": "The answer is 3.", "answer": "3", "uid": "a-3", "mixed": 2.5},
    ]
    f = _jsonl(tmp_path / "r.jsonl", recs)
    ids = ["--id-field", "doc_id", "--id-field", "uid", "--id-field", "mixed"]
    assert main(["score", str(f), *ids, "--out", str(tmp_path / "o.jsonl"), "--quiet"]) == 0
    rows = _rows(tmp_path / "o.jsonl")
    assert [r["doc_id"] for r in rows] == [7, 8, None]
    assert [r["uid"] for r in rows] == ["a-1", "a-2", "a-3"]
    assert [r["mixed"] for r in rows] == [1, "b", 2.5]  # mixed: each keeps its JSON value and type (issue 31)
    assert main(["score", str(f), *ids, "--out", str(tmp_path / "o.parquet"), "--quiet"]) == 0
    t = pq.read_table(tmp_path / "o.parquet")
    assert str(t.schema.field("doc_id").type) == "int64" and t.column("doc_id").to_pylist() == [7, 8, None]


def test_the_rejected_reason_says_it_once(tmp_path):
    good = json.dumps({"completion": "1", "answer": "1"})
    f = tmp_path / "r.jsonl"
    f.write_text(f'{good}\n[1, 2]\n{{"completion": \n{good}\n')
    assert main(["score", str(f), "--out", str(tmp_path / "o.jsonl"), "--quiet"]) == 0
    reasons = [r["reason"] for r in _rows(tmp_path / "o.rejected.jsonl")]
    assert reasons[0] == "not a JSON object"
    assert reasons[1].startswith("not valid JSON: ") and reasons[1].count("not ") == 1


# ---- the command line's own output ----


def test_notes_are_ours_and_other_packages_deprecations_are_not(capsys):
    with pytest.warns(UserWarning, match="heads up") as shown, notes("score"):
        warnings.warn_explicit("old API", DeprecationWarning, "/site-packages/ray/data/x.py", 1)
        warnings.warn_explicit("heads up", UserWarning, "/site-packages/ray/data/x.py", 2)
        warnings.warn(FieldsGuessedWarning("read the response from 'output'"), stacklevel=1)
    err = capsys.readouterr().err
    assert "old API" not in err and "heads up" not in err
    assert "matheval-fast score: note: read the response from 'output'" in err
    # Another package's other warnings go back to Python's own display and filters.
    assert [str(w.message) for w in shown] == ["heads up"]


def test_help_imports_no_sub_command():
    code = (
        "import sys\nfrom matheval_fast.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('aiohttp', 'matheval_fast.judge', 'matheval_fast.cli.score', "
        "'matheval_fast.rescore') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
    assert "score responses against reference answers" in done.stdout  # the list still has each HELP


def test_a_batch_of_lists_imports_neither_numpy_nor_pyarrow():
    # numpy's import starts OpenBLAS threads that spin on a core for about 0.1 s: a batch right
    # after `import matheval_fast` would share its cores with them (issue 25). The arrays are made
    # when first read, and behave as before (writable, bool/str dtypes).
    code = (
        "import sys\nimport matheval_fast as mf\n"
        "r = mf.check_batch(['The answer is: 4.', 'So \\\\boxed{5}', None], ['4', '4', '1'])\n"
        "print(sorted(m for m in ('numpy', 'pyarrow') if m in sys.modules))\n"
        "print(len(r), r.verdict(1).reason, r.verdict(2).reason)\n"
        "c = r.correct\nc[2] = True\n"
        "print(c.dtype, c.tolist(), r.reason.tolist(), r.path.tolist(), r.extracted.tolist())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    imported, head, arrays = done.stdout.strip().splitlines()
    assert imported == "[]"
    assert head == "3 incorrect no_answer"
    assert arrays == (
        "bool [True, False, True] ['correct', 'incorrect', 'no_answer'] "
        "['numeric', 'numeric', 'none'] ['4', '5', None]"
    )


# ---- judge summaries keep their keys ----


def test_an_agreement_with_nothing_scored_keeps_every_key_as_null():
    c = AgreementCounter(["fault_type"])
    c.add(None, "yes", {"fault_type": "x"})  # no gold label: nothing can be scored
    c.add(True, None, {"fault_type": "x"})  # no verdict
    s = summarize_counts(c, n_boot=0)
    for entry in (s["overall"], s["by_group"]["fault_type"]["x"]):
        assert entry["macro_f1"] is None and entry["kappa"] is None and entry["accuracy"] is None
        assert entry["n"] == 0 and entry["scored"] == 0
        assert set(Agreement.__dataclass_fields__) <= set(entry)
    assert pairwise_kappa({("a", "b"): [0, 0, 0, 0]})[0]["kappa"] is None
