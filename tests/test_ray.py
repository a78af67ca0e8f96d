"""The Ray Data engine on a real local Ray instance: the same verdicts as the local engine.

Runs when Ray is installed (the ``ray`` extra; ``requirements-dev.txt`` installs it for CI).
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from matheval_fast.cli import main
from matheval_fast.io.responses import ResponseFields
from matheval_fast.score import read_records, score_records

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.ray

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "data" / "samples" / "demo_responses.json"


@pytest.fixture(scope="module")
def local_ray():
    from matheval_fast.distributed import start_ray

    start_ray(num_cpus=2)  # a new local instance, whatever Ray's temp folder says
    yield
    ray.shutdown()


@pytest.mark.timeout(180)
def test_a_stale_cluster_file_does_not_capture_the_local_instance(tmp_path):
    """After a cluster that was not stopped cleanly, ``ray_current_cluster`` still names it; Ray's
    default address would join it and refuse ``num_cpus``. ``start_ray`` starts its own instance."""
    import os
    import subprocess
    import sys
    import tempfile

    # A short folder: Ray's socket paths must fit the 107-byte limit.
    tmp = Path(tempfile.mkdtemp(prefix="rt", dir="/tmp"))
    try:
        (tmp / "ray").mkdir()
        (tmp / "ray" / "ray_current_cluster").write_text("127.0.0.1:9\n")
        code = (
            "import ray\n"
            "from matheval_fast.distributed import start_ray\n"
            "start_ray(num_cpus=1)\n"
            "print(ray.get(ray.put(41)) + 1)\n"
            "ray.shutdown()\n"
        )
        env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
        env["RAY_TMPDIR"] = str(tmp)
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=170
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert done.stdout.strip().splitlines()[-1] == "42"
    finally:
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)


def _records() -> list[dict]:
    recs = read_records(DEMO)
    for n, r in enumerate(recs):
        r["qid"] = f"q{n}"
        r["level"] = str(r["level"])  # the demo mixes numbers and strings; an Arrow column cannot
    return recs


def _key(rows: list[dict]) -> list[tuple]:
    return sorted((r["qid"], r["prompt"], r["correct"], r["reason"], r["extracted"], r["path"]) for r in rows)


@pytest.mark.timeout(300)
def test_ray_gives_the_local_verdicts(tmp_path, local_ray):
    from matheval_fast.distributed import score_with_ray

    recs = _records()
    local = score_records(recs, id_fields=["qid"])
    pf = tmp_path / "demo.parquet"
    pq.write_table(pa.Table.from_pylist(recs), pf, row_group_size=50)
    jl = tmp_path / "demo.jsonl"
    jl.write_text("".join(json.dumps(r) + "\n" for r in recs))
    fields = ResponseFields(ids=("qid",))
    for src in (pf, jl):
        out = tmp_path / f"scored_{src.suffix[1:]}"
        summary = score_with_ray(src, out, fields=fields, batch_rows=37)
        rows = pq.read_table(out).to_pylist()
        assert _key(rows) == _key(local.rows)
        if src == pf:  # row numbers across row groups and batches, as the local engine gives them
            lines = sorted((r["qid"], r["prompt"], r["line"]) for r in rows)
            assert lines == sorted((r["qid"], r["prompt"], r["line"]) for r in local.rows)
        assert summary["prompts"][0]["correct"] == local.summary()["prompts"][0]["correct"]
        assert summary["records"] == len(recs)
        assert json.loads((tmp_path / f"{out.name}.summary.json").read_text())["engine"] == "ray"


@pytest.mark.timeout(300)
def test_the_command_line_runs_on_ray(tmp_path, local_ray, capsys):
    recs = _records()
    pf = tmp_path / "demo.parquet"
    pq.write_table(pa.Table.from_pylist(recs), pf)
    out = tmp_path / "scored"
    assert main(["score", str(pf), "--engine", "ray", "--out", str(out), "--id-field", "qid"]) == 0
    assert "Overall" in capsys.readouterr().out
    assert len(pq.read_table(out)) == len(score_records(recs).rows)
    assert main(["score", str(pf), "--engine", "ray"]) == 2  # a directory is needed
    assert main(["score", str(pf), "--engine", "ray", "--out", str(out)]) == 2  # not over old results
    assert "not an empty directory" in capsys.readouterr().err


@pytest.mark.timeout(300)
def test_ray_reads_every_row_group_of_a_directory_once(tmp_path, local_ray):
    """A directory of Parquet files with many row groups: one task per row group, every row once."""
    from matheval_fast.distributed import parquet_units, score_with_ray

    recs = _records()
    local = score_records(recs, id_fields=["qid"])
    src = tmp_path / "parts" / "nested"
    src.mkdir(parents=True)
    half = len(recs) // 2
    pq.write_table(pa.Table.from_pylist(recs[:half]), src / "a.parquet", row_group_size=7)
    pq.write_table(pa.Table.from_pylist(recs[half:]), src / "b.parquet", row_group_size=5)
    (src / "notes.txt").write_text("not parquet")
    fields = ResponseFields(ids=("qid",))
    units = parquet_units([str(tmp_path / "parts")], fields)
    assert len(units) == -(-half // 7) + -(-(len(recs) - half) // 5)
    out = tmp_path / "scored"
    summary = score_with_ray(tmp_path / "parts", out, fields=fields, batch_rows=3)
    assert _key(pq.read_table(out).to_pylist()) == _key(local.rows)
    assert summary["records"] == len(recs)
    with pytest.raises(ValueError, match="no column 'nope' for the gold"):
        score_with_ray(src / "a.parquet", tmp_path / "x", fields=ResponseFields(gold="nope"))


@pytest.mark.timeout(300)
def test_ray_on_an_empty_file_writes_an_empty_dataset(tmp_path, local_ray):
    from matheval_fast.distributed import score_with_ray

    src = tmp_path / "empty.parquet"
    schema = pa.schema([("completion", pa.string()), ("answer", pa.string())])
    pq.write_table(schema.empty_table(), src)
    out = tmp_path / "scored"
    summary = score_with_ray(src, out)
    assert summary["rows"] == 0 and pq.read_table(out).num_rows == 0


@pytest.mark.timeout(300)
def test_rescore_on_ray_writes_what_the_local_engine_writes(tmp_path, local_ray):
    """One Ray task per log: the same groups, file entries and per-item files as the local run."""
    from matheval_fast.rescore import rescore

    logs = ROOT / "tests" / "data" / "logs"
    paths = [logs / "lm_eval", next((logs / "lighteval").rglob("details_gsm8k_local*.parquet"))]
    local = rescore(paths, tmp_path / "local", copy=True).summary()
    far = rescore(paths, tmp_path / "ray", copy=True, engine="ray").summary()
    assert len(local["files"]) >= 3
    assert json.dumps(far["groups"], sort_keys=True) == json.dumps(local["groups"], sort_keys=True)
    assert far["files"] == local["files"] and far["rows"] == local["rows"]
    for kind in ("items", "rescored"):
        names = sorted(p.name for p in (tmp_path / "local" / kind).iterdir())
        assert names == sorted(p.name for p in (tmp_path / "ray" / kind).iterdir())
        for name in names:
            a, b = (tmp_path / d / kind / name for d in ("local", "ray"))
            assert a.read_bytes() == b.read_bytes() or pq.read_table(a).equals(pq.read_table(b))


@pytest.mark.timeout(300)
def test_rescore_command_line_on_ray(tmp_path, local_ray, monkeypatch):
    """A relative log path: the summary names the files as given, as the local engine does."""
    monkeypatch.chdir(ROOT)
    log = "tests/data/logs/lm_eval"
    for engine in ("local", "ray"):
        assert main(["rescore", log, "--out", str(tmp_path / engine), "--engine", engine, "--quiet"]) == 0
    local, far = (json.loads((tmp_path / e / "summary.json").read_text()) for e in ("local", "ray"))
    assert far["options"]["engine"] == "ray"
    assert far["files"] == local["files"]
    assert json.dumps(far["groups"], sort_keys=True) == json.dumps(local["groups"], sort_keys=True)
    assert far["files"][0]["file"].startswith("tests/")
