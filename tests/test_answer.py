"""Protocol A through the public Python API: round trips, policies, bad input, threads, Arrow."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import matheval_fast as mf
import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

DATA = Path(__file__).resolve().parents[1] / "data" / "answer_check"


@pytest.fixture(scope="module")
def gsm8k() -> list[dict]:
    return json.loads((DATA / "gsm8k_xwin.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("compat", ["fixed", "xwin"])
def test_gsm8k_anchor_round_trip(gsm8k, compat):
    responses = [f"Let me think.\nThe answer is: {it['answer']}." for it in gsm8k]
    golds = [it["answer"] for it in gsm8k]
    r = mf.check_batch(responses, golds, compat=compat)
    assert len(r) == 1319
    assert int(r.correct.sum()) == 1319
    assert set(r.reason.tolist()) == {"correct"}


def test_gsm8k_solutions_with_anchor_fixed(gsm8k):
    responses = [f"{it['solution']}\nThe answer is: {it['answer']}." for it in gsm8k]
    r = mf.check_batch(responses, [it["answer"] for it in gsm8k])
    assert int(r.correct.sum()) == 1319


def test_gsm8k_bare_solutions_beat_the_seed(gsm8k):
    # Rule-3-only extraction scores 1276/1319 in the seed (hyphens, spaced thousands).
    responses = [it["solution"] for it in gsm8k]
    golds = [it["answer"] for it in gsm8k]
    fixed = mf.check_batch(responses, golds)
    xwin = mf.check_batch(responses, golds, compat="xwin")
    assert int(xwin.correct.sum()) == 1276
    assert int(fixed.correct.sum()) > 1276


@pytest.mark.parametrize(
    ("response", "gold", "fixed", "xwin"),
    [
        ("The answer is: 1000.4", "1000", False, True),  # integer gold needs an equal value
        ("The answer is: 1000.0", "1000", True, True),
        ("The answer is: 123500.5", "123456", False, True),
        ("The answer is: 50%", "0.5", True, False),  # percent
        ("The answer is: $1,450,000.", "1,450,000", True, True),
        ("The answer is: 10 000", "10000", True, False),  # thousands with spaces
        ("The answer is: 18.\nThe answer is correct because 9*2=18.", "20", False, False),
        ("The answer is: 18.\nThe answer is correct because 9*2=18.", "18", True, False),
        ("We use the x-axis", "5", False, False),
        ("Total: 3.5e-3", "0.0035", True, False),  # scientific notation
        ("The final answer is 12", "12", True, True),
        ("Thus \\[ x = \\frac{1}{2} \\]", "0.5", True, False),
        ("so $$x=1$$", "1", True, False),
        ("The answer is: 0.33", "1/3", True, False),
        ("The answer is: 0.3", "1/3", False, False),
    ],
)
def test_policies(response, gold, fixed, xwin):
    assert mf.check(response, gold).correct is fixed
    assert mf.check(response, gold, compat="xwin").correct is xwin


def test_verdict_fields():
    v = mf.check("so \\boxed{7}", "7")
    assert (v.correct, v.reason, v.extracted, v.path) == (True, "correct", "7", "numeric")
    assert bool(v)
    v = mf.check("I don't know", "7")
    assert (v.correct, v.reason, v.extracted) == (False, "no_answer", None)
    assert mf.check("The answer is: 5", "").reason == "gold_unparseable"
    assert mf.check("The answer is: blue", "5").reason == "pred_unparseable"


def test_gold_may_be_wrapped():
    assert mf.check("The answer is: 5", "$5$").correct
    assert mf.check("The answer is: 5", "\\boxed{5}").correct


def test_seed_signatures():
    assert mf.simple_answer_check("The answer is: 43.04", "43", compat="xwin")
    assert not mf.simple_answer_check("The answer is: 43.04", "43")
    assert mf.latex_answer_check("The answer is: \\frac12", "\\frac{1}{2}", split=["The answer is: "])
    assert mf.latex_answer_check("\\frac12", "\\frac{1}{2}", compat="xwin")
    assert mf.extract_answer("so The answer is: 7.", compat="xwin") == "7."
    assert mf.extract_answer("so The answer is: 7.") == "7"
    assert mf.simple_answer_check(
        "The answer is: 200 ml of 5% and 400 ml", "400, 200", eval_policy="model_include_gt", compat="xwin"
    )


def test_verify_gold_first():
    assert mf.verify("0.5", "\\frac{1}{2}")
    assert mf.verify("1000", "1,000")
    assert not mf.verify("1000", "1000.4")


def test_config_is_data_not_code(tmp_path):
    cfg = mf.load_config()
    assert cfg.extract_pattern == ("####", "The answer is: ", "The answer is")
    assert cfg.for_type("MATH") == ("latex", "flex", "aggressive")
    assert cfg.for_type("SVAMP") == ("simple", "flex", "strict")
    assert mf.load_config(DATA / "eval_config_xwin.json") == cfg
    bad = {
        "extract_pattern": ["x"],
        "policy": {"t": {"function": "eval", "extract_policy": "flex", "eval_policy": "strict"}},
    }
    with pytest.raises(mf.ConfigError, match="function must be"):
        mf.load_config(bad)
    with pytest.raises(ValueError):
        mf.load_config({"extract_pattern": "oops"})
    custom = {"extract_pattern": ["ANSWER:"], "policy": {}}
    assert mf.check("ANSWER: 5. Then 6", "5", config=custom).correct


def test_bad_input_types_and_values():
    with pytest.raises(TypeError, match="response must be a str"):
        mf.check(5, "5")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        mf.check_batch("abc", ["a", "b", "c"])
    with pytest.raises(TypeError, match=r"responses\[1\] must be a str or None"):
        mf.check_batch(["a", 3], ["1", "2"])
    with pytest.raises(mf.ShapeError):
        mf.check_batch(["a"], ["1", "2"])
    with pytest.raises(ValueError, match="compat"):
        mf.check("a", "1", compat="nope")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="compat must be a str"):
        mf.check("a", "1", compat=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        mf.check_batch(["a"], ["1"], threads=0)
    with pytest.raises(ValueError, match="empty"):
        mf.extract_answer("x", split=[""])


def test_bad_data_gets_reasons():
    huge = "1" * (11 * 1024 * 1024)
    r = mf.check_batch([None, "", huge, "The answer is: 3"], ["3", "3", "3", None])
    assert r.reason.tolist() == ["no_answer", "no_answer", "over_budget", "gold_unparseable"]
    assert not r.correct.any()
    assert mf.check("\ud800 The answer is 3", "3").reason == "error"  # lone surrogate: not UTF-8


def test_numpy_and_arrow_inputs():
    pa = pytest.importorskip("pyarrow")
    resp = ["The answer is: 1", None, "The answer is: 3", "The answer is: 4"]
    gold = ["1", "2", "3", "5"]
    expected = [True, False, True, False]
    assert (
        mf.check_batch(np.array(resp, dtype=object), np.array(gold, dtype=object)).correct.tolist()
        == expected
    )
    arr = pa.chunked_array([pa.array(resp[:2]), pa.array(resp[2:])])
    r = mf.check_batch(arr, pa.array(gold))
    assert r.correct.tolist() == expected
    assert r.reason[1] == "no_answer"
    sliced = pa.array(["junk", *resp])[1:]
    assert mf.check_batch(sliced, gold).correct.tolist() == expected
    table = r.to_arrow()
    assert table.column_names == ["correct", "reason", "extracted", "path"]
    assert table.num_rows == 4
    # Invalid UTF-8 inside an Arrow binary column is a per-item error, not an exception.
    binary = pa.array([b"The answer is: 1", b"\xff\xfe"], type=pa.binary())
    r = mf.check_batch(binary, ["1", "1"])
    assert r.reason.tolist() == ["correct", "error"]


def test_batch_equals_single_and_progress_chunks(monkeypatch):
    resp = [f"The answer is: {i % 13}" for i in range(70_000)]
    gold = [str(i % 11) for i in range(70_000)]
    r = mf.check_batch(resp, gold, progress=True)
    r2 = mf.check_batch(resp, gold, threads=1)
    assert (r.correct == r2.correct).all()
    for i in (0, 5, 12, 69_999):
        assert r.verdict(i) == mf.check(resp[i], gold[i])


@pytest.mark.timeout(120)
def test_many_threads_share_the_library():
    errors: list[BaseException] = []
    resp = [f"The answer is: {i}" for i in range(2000)]

    def work() -> None:
        try:
            for _ in range(5):
                assert mf.check_batch(resp, [str(i) for i in range(2000)]).correct.all()
                assert mf.check("The answer is: 2", "2").correct
                assert mf.verify("2", "2.0")
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_sympy_fallback_decides_symbolic_cases():
    v = mf.check("The answer is: $7x^2-63$", "7(x-3)(x+3)", kind="latex")
    assert v.correct and v.path in {"symbolic", "sympy"}
    assert (
        mf.check("The answer is: 0.428571", "\\frac{3}{7}", compat="xwin").correct is False
    )  # seed bug kept


def test_model_text_is_never_executed(tmp_path):
    marker = tmp_path / "pwned"
    payload = f"__import__('pathlib').Path({str(marker)!r}).write_text('x')"
    for compat in ("fixed", "xwin"):
        mf.check(f"The answer is: {payload}", "1", compat=compat, kind="latex")
        mf.check(f"The answer is: {payload}", "1", compat=compat, kind="simple")
        mf.latex_answer_check(payload, "1", compat=compat)
    mf.verify("1", payload)
    assert not marker.exists()


BAD_TIMEOUTS = [float("nan"), float("inf"), -float("inf"), 0, -1.5, "5", True, [5]]


@pytest.mark.parametrize("bad", BAD_TIMEOUTS)
def test_timeout_is_checked_before_any_work(bad, monkeypatch):
    """nan/inf/non-positive/non-numeric timeouts are refused by every entry point, before the core runs."""
    from matheval_fast import _core, arrow, score

    def no_work(*args, **kwargs):
        raise AssertionError("the core ran before the timeout was checked")

    monkeypatch.setattr(_core, "check_one", no_work)
    monkeypatch.setattr(_core, "check_batch", no_work)
    monkeypatch.setattr(_core, "equivalent", no_work)
    calls = [
        lambda: mf.check("The answer is: 2", "2", timeout=bad),
        lambda: mf.verify("2", "2", timeout=bad),
        lambda: mf.check_batch(["The answer is: 2"], ["2"], timeout=bad),
        lambda: score.score_records([{"completion": "2", "answer": "2"}], timeout=bad),
        lambda: arrow.score_batch(pa.table({"completion": ["2"], "answer": ["2"]}), timeout=bad),
    ]
    for call in calls:
        with pytest.raises((TypeError, ValueError), match="timeout"):
            call()


@pytest.mark.parametrize("bad", ["nan", "inf", "0", "-2", "soon"])
def test_cli_refuses_bad_timeouts(bad, tmp_path, capsys):
    from matheval_fast.cli import main

    data = tmp_path / "r.jsonl"
    data.write_text('{"completion": "The answer is: 2", "answer": "2"}\n')
    with pytest.raises(SystemExit) as info:
        main(["score", str(data), "--timeout", bad, "--out", str(tmp_path / "out.jsonl")])
    assert info.value.code == 2
    assert "--timeout" in capsys.readouterr().err
    assert not (tmp_path / "out.jsonl").exists()


def test_good_timeouts_are_accepted():
    assert mf.check("The answer is: 2", "2", timeout=1).correct
    assert mf.verify("2", "2.0", timeout=0.5)
    assert mf.check_batch(["The answer is: 2"], ["2"], timeout=np.float64(3.0)).correct.all()


_CELLS = st.one_of(
    st.none(),
    st.sampled_from(["The answer is: 4", "so \\boxed{5}.", "#### 6", "", "x = 7", "é 8"]),
    st.text(max_size=12),
)


@settings(max_examples=150, deadline=None)
@given(
    resp=st.lists(_CELLS, min_size=0, max_size=30),
    golds=st.lists(st.sampled_from(["4", "5", "6", "7", "8", None, ""]), min_size=30, max_size=30),
    start=st.integers(0, 5),
    large=st.booleans(),
)
def test_arrow_columns_read_in_place_give_the_lists_verdicts(resp, golds, start, large):
    """check_batch reads Arrow string arrays from their buffers (offsets, bytes, validity; sliced
    arrays keep their offset): verdicts, reasons and extractions equal the list path's and check's."""
    gold = golds[: len(resp)]
    typ = pa.large_string() if large else pa.string()
    arr_r = pa.array(["pad"] * start + resp, typ).slice(start)
    arr_g = pa.array(["pad"] * start + gold, typ).slice(start)
    a = mf.check_batch(arr_r, arr_g)
    b = mf.check_batch(resp, gold)
    assert a.correct.tolist() == b.correct.tolist()
    assert a.reason.tolist() == b.reason.tolist()
    assert a.path.tolist() == b.path.tolist()
    assert a.extracted.tolist() == b.extracted.tolist()
    assert a.to_arrow().equals(b.to_arrow())
    for i, (r, g) in enumerate(zip(resp, gold, strict=True)):
        if r is not None and g is not None:
            assert a.verdict(i) == mf.check(r, g)


# ---- golds that say there is no answer (GSM-Plus critical thinking) ----


@pytest.mark.parametrize(
    ("response", "correct"),
    [
        ("The price of the pears is not given.\n\nSo the total cannot be determined.", True),
        ("We are not given enough information to answer this question.", True),
        ("The answer is: None", True),
        ("So the answer is $\\boxed{\\text{None}}$.", True),
        ("3 + 4 = 7.\n\nThe answer is 7.", False),
        ("At first it cannot be determined.\n\nBut 3 + 4 = 7, so the answer is $\\boxed{7}$.", False),
    ],
)
def test_a_no_answer_gold_is_matched_by_a_response_that_declines(response, correct):
    for gold in ("None", "none", "$\\text{None}$"):
        v = mf.check(response, gold)
        assert v.correct is correct, (response, gold, v)


def test_a_declining_response_to_a_real_gold_is_wrong():
    assert not mf.check("We are not given enough information.", "18").correct


# ---- verify decides what check decides, at once ----


def test_verify_over_the_budget_decides_as_check_does():
    from matheval_fast import _core

    huge = r"\dfrac{5^{(5^{(5^{(5^5)})} - 4)} - 5}{16}"
    # Decided by the core (a Verdict), never handed to SymPy (a SympyPending), as check() decides.
    v = _core.equivalent("1", huge)
    assert isinstance(v, _core.Verdict) and (v.correct, v.reason) == (False, "incorrect")
    assert mf.verify("1", huge) is False
    assert mf.check(huge, "1").correct is False
