"""Adversarial inputs (issue 15): bounded work, exact big integers, honest reasons.

The Rust tests count the work of each scanner on repetitive inputs (``cargo test``:
``adversarial_runs_take_linear_work``, ``group_index_*``, ``the_index_equals_the_scan``); here the
same classes run end to end through the binding in fresh subprocesses with a time limit (the short
form of ``scripts/stress_adversarial.py``), and the verdict-level fixes are pinned.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import matheval_fast as mf
import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "stress_adversarial.py"
REASONS = {"correct", "incorrect", "no_answer", "pred_unparseable", "over_budget"}


def test_the_adversarial_corpus_finishes_in_subprocesses(tmp_path: Path) -> None:
    out = tmp_path / "stress.json"
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--scale", "0.04", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    results = json.loads(out.read_text())
    assert len(results) >= 14
    for r in results:
        for size in ("big", "half"):
            assert r[size]["ok"], r
            assert r[size]["reason"] in {
                "correct",
                "incorrect",
                "no_answer",
                "pred_unparseable",
                "over_budget",
            }


@pytest.mark.parametrize("compat", ["fixed"])
def test_integers_of_any_length_compare_exactly(compat: str) -> None:
    big = "1" + "0" * 36
    plus_one = "1" + "0" * 35 + "1"
    assert not mf.check(f"The answer is {plus_one}", big, compat=compat).correct
    assert not mf.check(f"The answer is {big}", plus_one, compat=compat).correct
    assert mf.check(f"The answer is {big}", big, compat=compat).correct
    huge = "9" * 200
    assert mf.check(f"The answer is {huge}.", huge, compat=compat).correct
    assert not mf.check(f"The answer is {huge[:-1]}8.", huge, compat=compat).correct


def test_xwin_follows_cpythons_int_digit_limit() -> None:
    # int() of a decimal string over 4,300 digits raises ValueError in CPython (3.11+, and the
    # 2022 security releases of 3.7-3.10), so the seed's cast fails and its verdict is False.
    ok = "7" * 4300
    over = "7" * 4301
    assert mf.simple_answer_check(f"The answer is {ok}", ok, compat="xwin")
    assert not mf.simple_answer_check(f"The answer is {over}", over, compat="xwin")


def test_over_the_parse_budgets_is_over_budget() -> None:
    big_gold = "+".join(["x"] * 3000)
    assert mf.check("The answer is $x$", big_gold).reason == "over_budget"
    n = 3000
    deep = "$" + "\\frac{1}{" * n + "1" + "}" * n + "$"
    v = mf.check(deep, "\\frac12")
    assert (v.correct, v.reason, v.path) == (False, "over_budget", "none")
    # A gold that is not mathematics stays unparseable.
    assert mf.check("The answer is 5", "\\frac{").reason == "gold_unparseable"
