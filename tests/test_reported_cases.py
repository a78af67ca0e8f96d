"""Grading errors that users reported in public threads of graders and frameworks (issue 33).

``tests/data/reported/reported_cases.jsonl`` holds one case a line: a response and a gold quoted from a
public issue or pull-request thread (its URL in ``source_url``) and the verdict that a maintainer, a merged
fix or plain mathematics settled (``expected``). Every case goes through ``matheval_fast.check(response,
gold)`` in fixed mode. The guard is exact: the ids where ``check()`` disagrees with ``expected`` must be the
ids listed in ``known_disagreements.json``, so a regression fails and so does a fix (drop the id from the
list then).

Run ``python tests/test_reported_cases.py`` for a summary; it also counts math-verify on the same cases when
``math_verify`` is importable.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import matheval_fast as mf

DATA = Path(__file__).resolve().parent / "data" / "reported"
FIELDS = {"id", "source_url", "what", "response", "gold", "expected", "settled_by", "note"}
SETTLED_BY = {"maintainer", "fix", "mathematics"}


def load_cases() -> list[dict]:
    lines = (DATA / "reported_cases.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def load_known() -> dict[str, str]:
    return json.loads((DATA / "known_disagreements.json").read_text(encoding="utf-8"))["disagreements"]


def ours(case: dict) -> bool:
    return bool(mf.check(case["response"], case["gold"], compat="fixed").correct)


def disagreements(cases: list[dict]) -> list[str]:
    return [c["id"] for c in cases if ours(c) != c["expected"]]


def test_cases_are_well_formed():
    cases = load_cases()
    assert len(cases) >= 60
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids))
    for c in cases:
        assert set(c) == FIELDS, c["id"]
        assert c["source_url"].startswith("https://github.com/"), c["id"]
        assert isinstance(c["expected"], bool), c["id"]
        assert c["settled_by"] in SETTLED_BY, c["id"]
        assert c["response"] is not None and c["gold"].strip(), c["id"]
        assert c["what"].strip(), c["id"]
    # both directions are represented: wrong answers that must stay wrong, right ones that must pass
    assert {c["expected"] for c in cases} == {True, False}


def test_known_disagreements_name_real_cases_with_a_reason():
    ids = {c["id"] for c in load_cases()}
    for cid, reason in load_known().items():
        assert cid in ids, cid
        assert reason.strip(), cid


def test_disagreements_are_exactly_the_known_ones():
    got = set(disagreements(load_cases()))
    known = set(load_known())
    new = sorted(got - known)
    fixed = sorted(known - got)
    assert not new, f"new disagreements with reported verdicts (regression): {new}"
    assert not fixed, f"now agree, drop from known_disagreements.json: {fixed}"


def _math_verify_count(cases: list[dict]) -> int | None:
    try:
        from math_verify import parse, verify
    except ImportError:
        return None
    right = 0
    for c in cases:
        try:
            got = bool(verify(parse(c["gold"]), parse(c["response"])))
        except Exception:  # math-verify raises on some inputs; that is a False verdict
            got = False
        right += got == c["expected"]
    return right


def main() -> int:
    cases = load_cases()
    bad = set(disagreements(cases))
    threads = {c["source_url"] for c in cases}
    print(f"{len(cases)} reported cases from {len(threads)} threads")
    print(f"matheval_fast.check (fixed): {len(cases) - len(bad)}/{len(cases)} agree with the settled verdict")
    for c in cases:
        if c["id"] in bad:
            v = mf.check(c["response"], c["gold"], compat="fixed")
            print(f"  {c['id']}: expected {c['expected']}, extracted {v.extracted!r}, reason {v.reason}")
    mv = _math_verify_count(cases)
    if mv is None:
        print("math-verify: not installed")
    else:
        print(f"math-verify verify(parse(gold), parse(response)): {mv}/{len(cases)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
