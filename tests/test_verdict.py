"""The typed results of protocol A from the Rust core: ``Verdict``, ``SympyPending``, ``EvalConfig``."""

from __future__ import annotations

import copy
import pickle

import matheval_fast as mf
import pytest
from matheval_fast import _core


def test_verdict_is_the_core_class_and_frozen():
    v = mf.check("so \\boxed{7}", "7")
    assert type(v) is mf.Verdict is _core.Verdict
    with pytest.raises(AttributeError):
        v.correct = False  # type: ignore[misc]
    assert repr(v) == "Verdict(correct=True, reason='correct', extracted='7', path='numeric')"
    assert repr(mf.check("no answer here", "7")).endswith("extracted=None, path='none')")


def test_verdicts_compare_hash_and_pickle_by_value():
    a = mf.check("The answer is: 18.", "18")
    b = mf.Verdict(True, "correct", "18", "numeric")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != mf.Verdict(True, "correct", "18", "literal")
    # Round trip of our own object (the pickle is made here, not read from outside).
    for clone in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):  # noqa: S301
        assert clone == a and type(clone) is mf.Verdict


def test_constructor_checks_names_and_consistency():
    with pytest.raises(ValueError, match="reason must be one of"):
        mf.Verdict(False, "wrong", None, "none")
    with pytest.raises(ValueError, match="path must be one of"):
        mf.Verdict(False, "incorrect", None, "guess")
    with pytest.raises(ValueError, match="contradicts"):
        mf.Verdict(True, "incorrect", None, "none")
    with pytest.raises(TypeError):
        mf.Verdict(True, 0, None, "none")  # type: ignore[arg-type]


def test_batch_items_are_the_same_verdicts_as_single_calls():
    responses = ["The answer is: 4.", "nothing", "so \\boxed{\\frac12}", None]
    golds = ["4", "4", "0.5", "1"]
    r = mf.check_batch(responses, golds)
    assert [r.verdict(i) for i in range(len(r))] == [
        mf.check(x, g) for x, g in zip(responses, golds, strict=True)
    ]


def test_pending_verdicts_are_settled_by_the_core_rule():
    p = _core.check_one(
        "The answer is: 0.428571", "\\frac{3}{7}", kind="auto", compat="xwin", extract_policy="flex"
    )
    assert isinstance(p, _core.SympyPending)
    assert p.compat == "xwin" and p.pairs and all(len(pair) == 2 for pair in p.pairs)
    assert p.provisional == mf.Verdict(False, "incorrect", "0.428571", "sympy")
    assert p.settle("equal") == mf.Verdict(True, "correct", "0.428571", "sympy")
    assert p.settle("not_equal") == p.provisional
    assert p.settle("timeout").reason == "timeout"
    assert p.settle("error").reason == "error"
    with pytest.raises(ValueError, match="outcome must be one of"):
        p.settle("maybe")  # type: ignore[arg-type]
    # The public API runs SymPy and returns only settled verdicts.
    assert type(mf.check("The answer is: 0.428571", "\\frac{3}{7}", compat="xwin")) is mf.Verdict


def test_eval_config_is_parsed_once_by_the_core():
    cfg = mf.load_config()
    assert type(cfg) is mf.EvalConfig is _core.EvalConfig
    assert cfg == _core.EvalConfig.from_json(_core.SEED_CONFIG_JSON) == _core.EvalConfig.seed()
    assert cfg.for_type(None) == cfg.for_type("default") == cfg.for_type("no such type")
    assert cfg.policy["MATH"] == cfg.for_type("MATH") == ("latex", "flex", "aggressive")
    bare = mf.load_config({"extract_pattern": ["A:"], "policy": {}})
    assert bare.for_type("MATH") == ("simple", "flex", "strict")
    assert bare.extract_pattern == ("A:",)
    assert mf.load_config(bare) is bare
    with pytest.raises(TypeError):
        mf.load_config(3)  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        cfg.extract_pattern = ()  # type: ignore[misc]


@pytest.mark.timeout(60)
def test_frozen_results_are_shared_by_threads():
    # Frozen pyclasses need no lock: eight threads read the same objects at once.
    import threading

    v = mf.Verdict(True, "correct", "18", "numeric")
    cfg = mf.load_config()
    p = _core.check_one(
        "The answer is: 0.428571", "\\frac{3}{7}", kind="auto", compat="xwin", extract_policy="flex"
    )
    assert isinstance(p, _core.SympyPending)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(2000):
                assert v == mf.Verdict(True, "correct", "18", "numeric") and hash(v) == hash(v)
                assert cfg.for_type("MATH") == ("latex", "flex", "aggressive")
                assert p.settle("equal").correct and not p.provisional.correct
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
