"""The human-labelled verifier development set (``tests/data/verifier/``, issue 33): well-formed,
reproducible from its builder, every class with correct and wrong items, and ``check()`` disagrees with the
labels exactly on the items ``known_misses.json`` lists.

The last test is the regression guard: a new disagreement fails it (a new false positive most of all), and
so does a listed item that now agrees (remove it from ``known_misses.json`` when its class is fixed). The
agreement table is ``benches/verifier_agreement.py``.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import matheval_fast as mf

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "verifier"

_spec = importlib.util.spec_from_file_location(
    "make_verifier_devset", ROOT / "scripts" / "make_verifier_devset.py"
)
assert _spec is not None and _spec.loader is not None
builder = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = builder
_spec.loader.exec_module(builder)

FIELDS = {"id", "source", "cls", "gold", "response", "label", "doubtful", "note"}
CLASSES = {
    "step_by_step",
    "c1_anchor_sentence",
    "c2_closing_prose",
    "c3_heading",
    "c4_gold_alternatives",
    "c5_equivalence",
    "c6_correction",
    "c7_set_in_words",
    "c8_none_gold",
}


def _items() -> list[dict]:
    return [json.loads(x) for x in (DATA / "devset.jsonl").read_text(encoding="utf-8").splitlines()]


def test_rows_are_well_formed_and_cover_every_class():
    items = _items()
    assert len(items) >= 400
    assert len({it["id"] for it in items}) == len(items)
    for it in items:
        assert set(it) == FIELDS, it["id"]
        assert it["id"].startswith(it["source"] + "/")
        assert it["cls"] in CLASSES, it["id"]
        assert isinstance(it["label"], bool) and isinstance(it["doubtful"], bool)
        assert it["gold"].strip() and it["response"].strip(), it["id"]
        assert not it["doubtful"] or it["note"], f"{it['id']}: a doubtful item says why"
    for cls in CLASSES:
        labels = {it["label"] for it in items if it["cls"] == cls}
        assert labels == {True, False}, f"{cls} needs correct and wrong items"


def test_file_is_what_the_builder_writes():
    built = builder.build()
    assert built == _items(), "run scripts/make_verifier_devset.py"


def test_check_disagrees_exactly_on_the_known_misses():
    known = json.loads((DATA / "known_misses.json").read_text(encoding="utf-8"))
    fp, fn = [], []
    for it in _items():
        got = mf.check(it["response"], it["gold"]).correct
        if got and not it["label"]:
            fp.append(it["id"])
        elif not got and it["label"]:
            fn.append(it["id"])
    assert sorted(fp) == sorted(known["false_positives"]), "false positives changed"
    assert sorted(fn) == sorted(known["false_negatives"]), "false negatives changed"
