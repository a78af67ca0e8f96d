"""Peer graders run beside ours (``matheval-fast compare``): math-verify, when it is installed.

math-verify is called the way lm-eval's ``math_verify`` metric and lighteval call it,
``verify(parse(gold), parse(response))`` with its defaults, gold first. A gold without a LaTeX
delimiter is wrapped in ``$...$`` first: math-verify only reads LaTeX between delimiters, and a log's
gold is an answer (``\\frac{1}{2}``), not a sentence. It runs in a worker process with a deadline per
item (math-verify's own ``signal.alarm`` timeouts cannot stop C-level big-integer work, peer_graders
§1.6): an item past the deadline kills the worker, counts as a missing verdict, and a new worker
goes on with the next item.
"""

from __future__ import annotations

import importlib.util
import json
import os
import selectors
import subprocess
import sys
from collections.abc import Iterable

__all__ = ["MathVerifyPeer", "math_verify_available", "math_verify_gold"]


def math_verify_available() -> bool:
    return importlib.util.find_spec("math_verify") is not None


def math_verify_gold(gold: str | None) -> str | None:
    """The gold as math-verify needs it: in ``$...$`` unless it has a delimiter or a box."""
    if gold is None:
        return None
    g = gold.strip()
    if "$" in g or "\\boxed" in g or "\\(" in g or "\\[" in g:
        return g
    return f"${g}$"


class MathVerifyPeer:
    """math-verify in a supervised worker process. ``timeout``: seconds per item (the worker
    starts with a generous one of its own: importing math-verify takes about 2 s)."""

    name = "math-verify"

    def __init__(self, timeout: float = 30.0, startup: float = 120.0) -> None:
        self.timeout = timeout
        self.startup = startup
        self.proc: subprocess.Popen[str] | None = None
        self.timeouts = 0
        self.errors = 0
        from importlib.metadata import version

        self.version = version("math-verify")

    def _start(self) -> None:
        env = dict(os.environ)
        pkg_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = os.pathsep.join([pkg_root, *filter(None, [env.get("PYTHONPATH")])])
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "matheval_fast._peer_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            env=env,
        )
        line = self._readline(self.startup)
        msg = json.loads(line) if line else {"s": "no answer"}
        if msg.get("s") != "ready":
            self.close()
            raise RuntimeError(f"math-verify worker did not start: {msg}")

    def _readline(self, timeout: float) -> str | None:
        assert self.proc is not None and self.proc.stdout is not None
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            if not sel.select(timeout):
                return None
        return self.proc.stdout.readline() or None

    def verdicts(self, pairs: Iterable[tuple[str | None, str | None]]) -> list[bool | None]:
        """math-verify's verdict per ``(gold, response)``; None where it raised or timed out, or
        where gold or response is missing."""
        out: list[bool | None] = []
        for gold, resp in pairs:
            if gold is None or resp is None:
                out.append(None)
                continue
            if self.proc is None:
                self._start()
            assert self.proc is not None and self.proc.stdin is not None
            self.proc.stdin.write(json.dumps({"g": math_verify_gold(gold), "r": resp}) + "\n")
            self.proc.stdin.flush()
            line = self._readline(self.timeout)
            if line is None:
                self.timeouts += 1
                self.close()
                out.append(None)
                continue
            v = json.loads(line)["v"]
            if v is None:
                self.errors += 1
            out.append(v)
        return out

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            for fh in (self.proc.stdin, self.proc.stdout):
                if fh is not None:
                    fh.close()
            self.proc = None

    def __enter__(self) -> MathVerifyPeer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
