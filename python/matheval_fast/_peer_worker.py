"""Worker process for :mod:`matheval_fast.peers`: runs a peer grader (math-verify) on one item per
line of stdin and answers one line each, so the parent can kill it when an item hangs.

Protocol: the worker prints ``{"s": "ready"}`` (or ``{"s": "missing", "m": ...}``) once, then for each
``{"g": gold, "r": response}`` line prints ``{"v": true|false|null}`` (null: the peer raised).
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    try:
        from math_verify import parse, verify
    except ImportError as exc:
        print(json.dumps({"s": "missing", "m": str(exc)}), flush=True)
        return
    print(json.dumps({"s": "ready"}), flush=True)
    for line in sys.stdin:
        item = json.loads(line)
        try:
            v = bool(verify(parse(item["g"]), parse(item["r"])))
        except Exception:  # a peer's failure is a missing verdict, not ours to raise
            v = None
        print(json.dumps({"v": v}), flush=True)


if __name__ == "__main__":
    main()
