"""``compare``: graders side by side against independent computations, with the real math-verify."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import matheval_fast as mf
import numpy as np
import pyarrow.parquet as pq
import pytest
from math_verify import parse as mv_parse
from math_verify import verify as mv_verify
from matheval_fast._report.png import heatmap_raster, write_heatmap
from matheval_fast.cli import main
from matheval_fast.compare import compare
from matheval_fast.peers import math_verify_gold

LOGS = Path(__file__).parent / "data" / "logs"
LM = LOGS / "lm_eval" / "canned__gsm8k-math"
GSM = next(LM.glob("samples_gsm8k_local_*.jsonl"))


def jsonl(path):
    return [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines() if x.strip()]


@pytest.fixture(scope="module")
def gsm_compare(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp")
    return out, compare([GSM], out, math_verify="on")


def test_graders_and_accuracies(gsm_compare):
    _out, rep = gsm_compare
    assert rep.graders == [
        "matheval_fast:fixed",
        "matheval_fast:xwin",
        "lm_eval:exact_match[strict-match]",
        "lm_eval:exact_match[flexible-extract]",
        "math-verify",
    ]
    ref = jsonl(GSM)
    g = next(x for x in rep.groups if x["task"] == "gsm8k_local")
    assert g["items"] == 12  # one item per doc, however many filters
    strict = [r["exact_match"] for r in ref if r["filter"] == "strict-match"]
    assert g["accuracy"]["lm_eval:exact_match[strict-match]"] == pytest.approx(np.mean(strict))
    docs = [r for r in ref if r["filter"] == "strict-match"]
    ours = [mf.check(r["resps"][0][0], r["target"]).correct for r in docs]
    assert g["accuracy"]["matheval_fast:fixed"] == pytest.approx(np.mean(ours))
    mv = [
        mv_verify(mv_parse(math_verify_gold(r["target"].rsplit("#### ", 1)[1])), mv_parse(r["resps"][0][0]))
        for r in docs
    ]
    assert g["accuracy"]["math-verify"] == pytest.approx(np.mean(mv))


def test_disagreement_matrix(gsm_compare):
    out, rep = gsm_compare
    m = rep.matrix
    items = pq.read_table(out / "items.parquet").to_pylist()
    for a in rep.graders:
        assert m[a][a]["disagree"] == 0
        for b in rep.graders:
            assert m[a][b] == m[b][a]
            both = [r for r in items if r[a] is not None and r[b] is not None]
            assert m[a][b]["both"] == len(both)
            assert m[a][b]["disagree"] == sum(r[a] != r[b] for r in both)
    fixed_vs_strict = m["matheval_fast:fixed"]["lm_eval:exact_match[strict-match]"]
    assert fixed_vs_strict["both"] == 12 and fixed_vs_strict["disagree"] == 6
    saved = json.loads((out / "compare.json").read_text())
    assert saved["disagreement"]["math-verify"]["matheval_fast:fixed"]["both"] == 12
    md = (out / "compare.md").read_text()
    assert "| canned__gsm8k-math | gsm8k_local | 12 |" in md and "Pairwise disagreement" in md
    assert (out / "disagreement.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_heatmap_raster_and_png():
    m = np.array([[0.0, 0.5], [0.5, np.nan]])
    img = heatmap_raster(m, cell=10)
    assert img.shape == (36, 36, 3)
    assert tuple(img[8 + 5, 8 + 15]) == (255, 0, 0)  # the largest value is full red
    assert tuple(img[8 + 15, 8 + 15]) == (200, 200, 200)  # NaN is grey


def test_write_heatmap_file(tmp_path):
    renderer = write_heatmap(tmp_path / "h.png", np.eye(3), ["a", "b", "c"])
    data = (tmp_path / "h.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and renderer in ("matplotlib", "raster")
    w, h = struct.unpack(">II", data[16:24])
    assert w > 0 and h > 0


def test_cli_compare_without_the_peer(tmp_path, capsys):
    assert main(["compare", str(GSM), "--out", str(tmp_path), "--math-verify", "off"]) == 0
    out = capsys.readouterr().out
    assert "math-verify" not in out.split("## Pairwise")[0]
    assert "| canned__gsm8k-math | gsm8k_local | 12 |" in out
