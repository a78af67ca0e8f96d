"""Shared pytest set-up: Hypothesis profiles.

``fast`` (the default, used in CI) keeps property tests to a few seconds each and is derandomized, so
CI draws the same examples on every run and a red CI is always reproducible; ``slow`` runs many more
random examples for local soak runs. Pick one with ``HYPOTHESIS_PROFILE=slow pytest ...``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

# The reference oracles are imported as ``tests.reference...``; make that work under a bare ``pytest`` too
# (``python -m pytest`` already has the repository root on sys.path).
_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

# SymPy calls make single examples slow and uneven, so no per-example deadline; pytest-timeout
# still catches a hang.
settings.register_profile(
    "fast",
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "slow",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))
