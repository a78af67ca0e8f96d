"""Every bundled suite gives exactly the verdicts recorded in ``tests/data/verdict_snapshot/``.

The snapshot is what ``scripts/verdict_snapshot.py`` computes through the public API: for protocol A
per item ``correct``, ``reason``, ``extracted`` and ``path``, in both modes; for the parser and the
statistics their printed results. A change that moves any of them fails here with the changed items
listed. When the change is intended (a fidelity fix), run ``scripts/verdict_snapshot.py --update``
and commit the rewritten files: their diff is the record of what moved.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("verdict_snapshot", ROOT / "scripts" / "verdict_snapshot.py")
assert _spec is not None and _spec.loader is not None
snapshot = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(snapshot)


@pytest.fixture(scope="module")
def computed() -> dict[str, str]:
    return snapshot.compute()


def test_every_suite_is_identical_to_the_snapshot(computed):
    changes = snapshot.diff(computed, snapshot.SNAPSHOT_DIR)
    hint = "verdicts changed (intended? run scripts/verdict_snapshot.py --update):\n"
    assert not changes, hint + "\n".join(changes)


def test_committed_files_match_their_summary():
    # The summary is the index reviewers read; it must describe the committed JSONL files exactly.
    summary = json.loads((snapshot.SNAPSHOT_DIR / "summary.json").read_text(encoding="utf-8"))
    assert set(summary) == {*snapshot.SUITES, snapshot.SYMPY_SUITE}
    for name, entry in summary.items():
        data = (snapshot.SNAPSHOT_DIR / f"{name}.jsonl").read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], name
        assert data.count(b"\n") == entry["items"], name


def test_a_changed_verdict_is_reported_with_the_item(computed, tmp_path):
    # The comparison itself must be able to fail: flip one recorded verdict in a copy of the snapshot.
    name = "gsm8k.anchor.fixed"
    for f in snapshot.SNAPSHOT_DIR.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    rows = snapshot._jsonl(tmp_path / f"{name}.jsonl")
    rows[3]["correct"] = not rows[3]["correct"]
    text = snapshot.render(rows)
    (tmp_path / f"{name}.jsonl").write_text(text, encoding="utf-8")
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    summary[name] = snapshot.summarize(name, text)
    (tmp_path / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    changes = snapshot.diff(computed, tmp_path)
    assert changes[0].startswith(f"{name}: changed")
    assert any("id 3: correct:" in line for line in changes), changes
