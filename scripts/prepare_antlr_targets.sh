#!/usr/bin/env bash
# The ANTLR runtimes the frameworks beside us pin, each in its own folder for tests/test_sympy_antlr.py:
# 4.11 (what SymPy's LaTeX parser needs), 4.9.3 (verl, through omegaconf), 4.13.2 (lighteval).
# Folders are made once and reused: $MATHEVAL_FAST_FW_CACHE/antlr-<version> (default ~/.cache/matheval_fast/fw).
set -euo pipefail
PY=${PY:-python3.11}
CACHE=${MATHEVAL_FAST_FW_CACHE:-$HOME/.cache/matheval_fast/fw}
for v in 4.11.1 4.9.3 4.13.2; do
  dir="$CACHE/antlr-$v"
  [ -d "$dir/antlr4" ] && continue
  rm -rf "$dir.tmp"
  "$PY" -m pip install -q --no-deps --target "$dir.tmp" "antlr4-python3-runtime==$v"
  mv "$dir.tmp" "$dir"   # whole or not at all: an interrupted install leaves no folder the test would trust
done
