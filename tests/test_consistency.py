"""Tests of the protocol-D pipeline (matheval_fast.consistency) with deterministic fake NLI scorers."""

from __future__ import annotations

import json
import math
import struct
import sys
import types
import zlib
from pathlib import Path

import numpy as np
import pytest
from matheval_fast import cli, consistency, stats
from matheval_fast._report import png

DATA = Path(__file__).parent.parent / "data" / "consistency" / "synthetic_pairs.jsonl"


def overlap_scorer(premises, hypotheses):
    """Deterministic fake P(entailment): word overlap |P & H| / |H| (order-sensitive, in [0, 1])."""
    out = []
    for p, h in zip(premises, hypotheses, strict=True):
        pw, hw = set(p.lower().split()), set(h.lower().split())
        out.append(len(pw & hw) / max(len(hw), 1))
    return np.array(out)


class FakeNLIModel:
    """Mimics matheval_fast.models.NLIModel: .entailment, .predict and .labels."""

    labels = ("contradiction", "neutral", "entailment")

    def __init__(self, model_dir=None):
        self.model_dir = model_dir
        self.calls = 0

    def entailment(self, premises, hypotheses):
        self.calls += 1
        return overlap_scorer(premises, hypotheses)

    def predict(self, premises, hypotheses):
        e = overlap_scorer(premises, hypotheses)
        return np.stack([(1 - e) / 2, (1 - e) / 2, e], axis=1)


@pytest.fixture(scope="module")
def pairs():
    return consistency.load_pairs(DATA)


def run_cli(argv, monkeypatch):
    return cli.main(argv)


# ---- text consistency -----------------------------------------------------------------------


def test_text_consistency_is_mean_over_other_premises():
    responses = ["a b c", "a b", "c d e f", "b"]
    tc = consistency.text_consistency([responses], overlap_scorer)[0]
    for i, hyp in enumerate(responses):
        want = np.mean([overlap_scorer([responses[j]], [hyp])[0] for j in range(4) if j != i])
        assert tc[i] == pytest.approx(want, abs=1e-15)
    rev = consistency.text_consistency([responses], overlap_scorer, direction="self_entails_others")[0]
    for i, prem in enumerate(responses):
        want = np.mean([overlap_scorer([prem], [responses[j]])[0] for j in range(4) if j != i])
        assert rev[i] == pytest.approx(want, abs=1e-15)
    assert not np.allclose(tc, rev)


def test_text_consistency_scorer_kinds_and_batching():
    sets = [["x y", "y z", "x z w"], ["p"], ["q r", "q", "r s", "t", "q r s t"]]
    base = consistency.text_consistency(sets, overlap_scorer)
    model = FakeNLIModel()
    via_model = consistency.text_consistency(sets, model, batch_size=3)
    via_predict = consistency.text_consistency(sets, model, entailment_label="Entailment")
    for a, b, c in zip(base, via_model, via_predict, strict=True):
        assert np.array_equal(a, b, equal_nan=True)
        assert np.allclose(a, c, equal_nan=True)
    assert model.calls == math.ceil((6 + 0 + 20) / 3)
    assert np.isnan(base[1]).all() and base[1].shape == (1,)


def test_text_consistency_rejects_bad_scorers():
    with pytest.raises(ValueError, match="shape"):
        consistency.text_consistency([["a", "b"]], lambda p, h: np.zeros((len(p), 3)))
    with pytest.raises(ValueError, match="probabilities"):
        consistency.text_consistency([["a", "b"]], lambda p, h: np.full(len(p), 2.0))
    with pytest.raises(TypeError):
        consistency.text_consistency([["a", "b"]], object())
    with pytest.raises(ValueError, match="not among"):
        consistency.text_consistency([["a", "b"]], FakeNLIModel(), entailment_label="entails")
    with pytest.raises(ValueError, match="direction"):
        consistency.text_consistency([["a", "b"]], overlap_scorer, direction="both")


# ---- records and the protocol ---------------------------------------------------------------


def test_synthetic_data_is_marked_and_well_formed(pairs):
    raw = [json.loads(line) for line in DATA.read_text().splitlines()]
    assert all(r["synthetic"] is True for r in raw)
    assert len(pairs) == 24 and {p.topic for p in pairs} == {"gender", "wisdom", "society"}
    assert all(len(p.responses) == 5 == len(p.scores_prime) for p in pairs)


def test_evaluate_scores_match_direct_tests(pairs):
    results = consistency.evaluate(pairs)
    for p, r in zip(pairs, results, strict=True):
        direct = stats.siegel_tukey(p.scores, p.scores_prime)
        assert r.score.pvalue == direct.pvalue and r.score.statistic == direct.statistic
        assert r.score.rejected == (direct.pvalue < 0.05)
        assert r.tc.status == "skipped" and not r.tc.rejected
    assert sum(r.score.rejected for r in results) >= 5
    loose = consistency.evaluate(pairs, alpha=0.5)
    assert sum(r.score.rejected for r in loose) > sum(r.score.rejected for r in results)


@pytest.mark.parametrize("variant", ["exact", "desctools"])
def test_evaluate_with_fake_scorer(pairs, variant):
    results = consistency.evaluate(pairs, overlap_scorer, variant=variant)
    for p, r in zip(pairs, results, strict=True):
        tc = consistency.text_consistency([p.responses], overlap_scorer)[0]
        tc2 = consistency.text_consistency([p.responses_prime], overlap_scorer)[0]
        assert r.tc_values == pytest.approx(tc.tolist()) and r.tc_values_prime == pytest.approx(tc2.tolist())
        if len(set(tc.tolist() + tc2.tolist())) > 1:
            direct = stats.siegel_tukey(tc, tc2, variant=variant)
            assert r.tc.pvalue == pytest.approx(direct.pvalue, abs=0) and r.tc.status == "ok"
        else:
            assert r.tc.status == "all_tied" and math.isnan(r.tc.pvalue)
    assert any(r.tc.rejected for r in results) or variant == "desctools"


def test_summary_counts_errors_and_kappa(pairs):
    results = consistency.evaluate(pairs)
    rows = consistency.summarize(pairs, results)
    assert [(r.topic, r.test) for r in rows][-2:] == [("all", "score"), ("all", "tc")]
    for row in rows:
        idx = [i for i, p in enumerate(pairs) if row.topic in ("all", p.topic)]
        rejected = [i for i in idx if getattr(results[i], row.test).rejected]
        assert row.rejected == len(rejected) and row.pairs == len(idx)
        for a in ("A1", "A2"):
            errs = sum(not pairs[i].annotations[a][row.test] for i in rejected)
            assert (row.annotators[a].errors, row.annotators[a].annotated) == (errs, len(rejected))
            if rejected:
                lo, hi = stats.wilson_interval(errs, len(rejected))
                assert (row.annotators[a].ci_low, row.annotators[a].ci_high) == (lo, hi)
        if rejected:
            k = stats.cohen_kappa(
                [pairs[i].annotations["A1"][row.test] for i in rejected],
                [pairs[i].annotations["A2"][row.test] for i in rejected],
            )
            assert row.kappa["A1 vs A2"] == k
    table = consistency.format_table(rows)
    assert table.splitlines()[0].startswith("| topic | test |") and "kappa A1 vs A2" in table


def test_record_validation(tmp_path):
    good = {"id": 1, "scores": [1, 2, "3"], "scores_prime": [4, None, 6]}
    rec = consistency.parse_record(good)
    assert rec.id == "1" and math.isnan(rec.scores_prime[1]) and rec.scores[2] == 3.0
    for bad, match in [
        ({"scores": [1, 2], "scores_prime": [1, 2]}, "missing field 'id'"),
        ({**good, "scores": "12"}, "list of numbers"),
        ({**good, "scores": [1, "x"]}, "not a number"),
        ({**good, "scores": [True, 2]}, "not a number"),
        ({**good, "responses": ["a", 3]}, "list of strings"),
        ({**good, "annotations": {"A1": {"score": "yes"}}}, "true/false"),
    ]:
        with pytest.raises(ValueError, match=match):
            consistency.parse_record(bad)
    f = tmp_path / "bad.jsonl"
    f.write_text(json.dumps(good) + "\n\n{not json\n")
    with pytest.raises(ValueError, match=r"bad.jsonl: line 3: not valid JSON"):
        consistency.load_pairs(f)


# ---- PNG ------------------------------------------------------------------------------------


def read_png(path):
    """Minimal PNG reader for our own files (8-bit RGB, filter 0): checks every CRC."""
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        tag, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(tag + body) & 0xFFFFFFFF
        chunks[tag] = chunks.get(tag, b"") + body
        pos += 12 + length
    w, h, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    return w, h, depth, colour, chunks


def test_png_writer_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, size=(7, 5, 3), dtype=np.uint8)
    png.write_png(tmp_path / "a.png", img)
    w, h, depth, colour, chunks = read_png(tmp_path / "a.png")
    assert (w, h, depth, colour) == (5, 7, 8, 2)
    raw = np.frombuffer(zlib.decompress(chunks[b"IDAT"]), np.uint8).reshape(7, 1 + 5 * 3)
    assert (raw[:, 0] == 0).all() and np.array_equal(raw[:, 1:].reshape(7, 5, 3), img)


def test_histogram_without_matplotlib(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails -> built-in raster
    series = {"score": np.array([0.01, 0.2, 0.5, np.nan, 1.0]), "tc": np.array([0.04, 0.9])}
    assert png.write_histogram(tmp_path / "h.png", series, 0.05) == "raster"
    w, h, *_ = read_png(tmp_path / "h.png")
    assert (w, h) == (640, 360)


# ---- command line ---------------------------------------------------------------------------


def test_cli_on_synthetic_data(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    assert run_cli(["consistency", str(DATA), "--out", str(out), "--alpha", "0.05"], monkeypatch) == 0
    printed = capsys.readouterr()
    assert "| all | score |" in printed.out and "skipped" in printed.err
    lines = (out / "pairs.jsonl").read_text().splitlines()
    assert len(lines) == 24
    first = json.loads(lines[0])
    assert first["id"] == "gender-00" and first["tc"]["status"] == "skipped" and first["tc"]["pvalue"] is None
    summary = json.loads((out / "summary.json").read_text())  # strict JSON: NaN was written as null
    assert summary["alpha"] == 0.05 and len(summary["rows"]) == 8
    assert (out / "summary.md").read_text().startswith("| topic |")
    assert read_png(out / "pvalues.png")[0] > 0


def test_cli_with_nli_model_and_renamed_fields(tmp_path, monkeypatch, capsys):
    fake = types.ModuleType("matheval_fast.models")
    created = []

    class Model(FakeNLIModel):
        def __init__(self, model_dir):
            super().__init__(model_dir)
            created.append(self)

    fake.NLIModel = Model
    monkeypatch.setitem(sys.modules, "matheval_fast.models", fake)
    # `from matheval_fast import models` reads the package attribute first, which exists once the
    # real module has been imported by another test.
    import matheval_fast

    monkeypatch.setattr(matheval_fast, "models", fake, raising=False)
    src = tmp_path / "renamed.jsonl"
    with open(src, "w") as fh:
        for line in DATA.read_text().splitlines():
            rec = json.loads(line)
            rec["question"] = rec.pop("q")
            rec["s1"], rec["s2"] = rec.pop("scores"), rec.pop("scores_prime")
            fh.write(json.dumps(rec) + "\n")
    out = tmp_path / "o"
    argv = ["consistency", str(src), "--nli-model", str(tmp_path), "--out", str(out)]
    argv += ["--field", "q=question", "--field", "scores=s1", "--field", "scores_prime=s2"]
    argv += ["--entailment-label", "entailment", "--variant", "desctools"]
    assert run_cli(argv, monkeypatch) == 0
    assert created and created[0].model_dir == tmp_path
    rows = [json.loads(x) for x in (out / "pairs.jsonl").read_text().splitlines()]
    assert all(r["tc"]["status"] in ("ok", "all_tied") for r in rows)
    assert all(len(r["tc_values"]) == 5 for r in rows)
    assert "skipped" not in capsys.readouterr().err


def test_cli_errors_exit_2(tmp_path, monkeypatch, capsys):
    missing = tmp_path / "nope.jsonl"
    assert run_cli(["consistency", str(missing), "--out", str(tmp_path)], monkeypatch) == 2
    assert "error" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1, "scores": [1, 2]}\n')
    assert run_cli(["consistency", str(bad), "--out", str(tmp_path)], monkeypatch) == 2
    assert "missing field 'scores_prime'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        run_cli(["consistency", str(bad), "--field", "nonsense"], monkeypatch)
