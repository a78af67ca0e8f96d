"""The mined peer-grader suites (``tests/data/peer_suites/``): well-formed rows with provenance, and
``check()`` disagrees with a suite's expected verdict exactly on the items ``classes.json`` lists.

The second test is the regression guard of issue 13: a new disagreement fails it, and so does a listed
item that now agrees (remove it from ``classes.json`` when its class is fixed). The full per-suite table
is ``scripts/peer_suites_report.py``.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import matheval_fast as mf

ROOT = Path(__file__).resolve().parents[1]
PEER = ROOT / "tests" / "data" / "peer_suites"

_spec = importlib.util.spec_from_file_location(
    "peer_suites_report", ROOT / "scripts" / "peer_suites_report.py"
)
assert _spec is not None and _spec.loader is not None
report = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = report  # dataclasses look their module up there
_spec.loader.exec_module(report)

MINED = sorted(p.stem for p in PEER.glob("*.jsonl"))


def test_rows_are_well_formed_with_provenance():
    ids = set()
    for name in MINED:
        rows = [json.loads(x) for x in (PEER / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
        assert rows, name
        for r in rows:
            assert set(r) == {"id", "gold", "pred", "expected", "kind", "config", "source"}, r["id"]
            assert r["id"].startswith(f"{name}/") and r["id"] not in ids
            ids.add(r["id"])
            assert r["expected"] in (True, False, None)
            assert r["kind"] in ("answer", "response")
            assert r["gold"] is None or isinstance(r["gold"], str)
            assert r["pred"] is None or isinstance(r["pred"], str)
            src = r["source"]
            assert src["repo"].count("/") == 1 and len(src["commit"]) == 40 and src["file"]
            assert src["line"] is not None or src["test"], r["id"]
    # The unlicensed suite holds self-written paraphrases only, each naming the fact it restates.
    for line in (PEER / "mario_eval_paraphrased.jsonl").read_text(encoding="utf-8").splitlines():
        assert json.loads(line)["config"]["paraphrase_of"]


def test_disagreements_are_exactly_the_classified_items():
    known = json.loads((PEER / "classes.json").read_text(encoding="utf-8"))
    assert set(known["items"].values()) <= set(known["classes"])
    items = [it for it in report.load_items() if it.suite in MINED]
    wrong = set()
    for it in items:
        v = mf.check(report.harness(it), it.gold, timeout=30.0)
        if not report.agrees(it.expected, v.correct, v.reason):
            wrong.add(it.id)
    listed = {i for i in known["items"] if i.split("/")[0] in MINED}
    assert wrong == listed, (
        f"new disagreements: {sorted(wrong - listed)}; now agreeing: {sorted(listed - wrong)}"
    )
