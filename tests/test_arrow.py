"""The Arrow kernel: RecordBatch in, RecordBatch with verdict columns out."""

from __future__ import annotations

import pytest

pa = pytest.importorskip("pyarrow")

from matheval_fast.arrow import score_batch  # noqa: E402


def test_record_batch_round_trip():
    rb = pa.RecordBatch.from_pydict(
        {"id": [1, 2, 3], "completion": ["The answer is: 4", None, "x \\boxed{7}"], "answer": ["4", "4", "7"]}
    )
    out = score_batch(rb)
    assert isinstance(out, pa.RecordBatch)
    assert out.schema.names == ["id", "completion", "answer", "correct", "reason", "extracted", "path"]
    assert out.column("correct").to_pylist() == [True, False, True]
    assert out.column("reason").to_pylist() == ["correct", "no_answer", "correct"]


def test_table_prefix_and_field_names():
    t = pa.table({"resp": ["The answer is: 1000.4"], "gold": ["1000"]})
    fixed = score_batch(t, response="resp", gold="gold", prefix="fixed_")
    xwin = score_batch(fixed, response="resp", gold="gold", prefix="xwin_", compat="xwin")
    assert isinstance(xwin, pa.Table)
    assert xwin.column("fixed_correct").to_pylist() == [False]
    assert xwin.column("xwin_correct").to_pylist() == [True]


def test_missing_column_is_a_clear_error():
    with pytest.raises(KeyError, match="completion"):
        score_batch(pa.table({"answer": ["1"]}))
