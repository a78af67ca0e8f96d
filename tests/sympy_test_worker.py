"""A SymPy worker for tests: the real worker plus two test-only request kinds.

Run by ``SympyPool(worker_command=[sys.executable, this file])``; ``--cold`` skips importing SymPy
before saying ready (for tests that only sleep or compare parities). ``compat="sleep"`` sleeps ``pairs[0][0]``
seconds (a stuck or slow item whose duration the test chooses, without loading the machine);
``compat="spin"`` burns ``pairs[0][0]`` seconds of this process's CPU time (a slow item by the
CPU-time deadline); ``compat="parity"`` answers at once whether the integer ``pairs[0][0]`` is even
(so a test can tell whose answer it got). Everything else goes to the real worker's comparison.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

from matheval_fast._sympy import worker


def decide(compat: str, pairs: Sequence[Sequence[str]]) -> bool:
    if compat == "sleep":
        time.sleep(float(pairs[0][0]))
        return True
    if compat == "spin":
        end = time.process_time() + float(pairs[0][0])
        while time.process_time() < end:
            pass
        return True
    if compat == "parity":
        return int(pairs[0][0]) % 2 == 0
    return worker.decide(compat, pairs)


if __name__ == "__main__":
    worker.serve(decide, warm="--cold" not in sys.argv[1:])
