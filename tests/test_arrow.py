"""The Arrow kernel: RecordBatch in, RecordBatch with verdict columns out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

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


def test_check_by_type_uses_the_type_policy_and_auto_for_the_rest():
    """A type the config knows gets its policy; no type or an unknown one gets ``check``'s checker;
    verdicts come back in row order, and the rows that fell back are counted."""
    import matheval_fast as mf
    from matheval_fast.answer import load_config
    from matheval_fast.arrow import check_by_type

    responses = ["$(-\\infty, 3)$", "The answer is: 18.", "$\\pm 2$", "The answer is: 18."]
    golds = ["(-\\infty,3]", "18", "-2, 2", "18"]
    types = [None, "GSM8K", "unknown type", "GSM8K"]
    cfg = load_config(None)
    verdicts, fallback = check_by_type(
        pa.array(responses, pa.large_string()),
        pa.array(golds, pa.large_string()),
        pa.array(types, pa.large_string()),
        policies=cfg,
    )
    assert fallback == 2
    kind, extract_policy, eval_policy = cfg.for_type("GSM8K")
    want = [
        mf.check(responses[0], golds[0]),
        mf.check(responses[1], golds[1], kind=kind, extract_policy=extract_policy, eval_policy=eval_policy),
        mf.check(responses[2], golds[2]),
        mf.check(responses[3], golds[3], kind=kind, extract_policy=extract_policy, eval_policy=eval_policy),
    ]
    assert verdicts.column("correct").to_pylist() == [v.correct for v in want]
    assert verdicts.column("reason").to_pylist() == [v.reason for v in want]
    assert verdicts.column("correct").to_pylist() == [False, True, True, True]


@given(st.lists(st.text(), max_size=20), st.booleans())
def test_strings_builds_what_pa_array_builds(values, large):
    from matheval_fast._columns import strings

    arr = strings(values, large=large)
    arr.validate(full=True)
    assert arr.equals(pa.array(values, pa.large_string() if large else pa.string()))
