#!/usr/bin/env bash
# `make test-frameworks`: real TRL, lighteval and verl runs, each in its own cached virtual environment
# (scripts/frameworks/setup.sh), against the checkout's python/ with its built extension. One framework
# at a time (set up, then run), so the machine does one heavy thing at once. Each run's output goes to
# $FW_OUT.<name>.log and its results (JSON lines: what it compared) to $FW_OUT (default
# out/frameworks.jsonl). A run that finds a difference fails with it, and so does this script.
set -euo pipefail
cd "$(dirname "$0")/../.."
CACHE=${MATHEVAL_FAST_FW_CACHE:-$HOME/.cache/matheval_fast/fw}
OUT=${FW_OUT:-out/frameworks.jsonl}
mkdir -p "$(dirname "$OUT")"
: > "$OUT"
for name in ${FRAMEWORKS:-trl verl lighteval}; do
  start=$(date +%s)
  scripts/frameworks/setup.sh "$name"
  ready=$(date +%s)
  PYTHONPATH="$PWD/python" TOKENIZERS_PARALLELISM=false HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 \
    "$CACHE/$name/bin/python" "scripts/frameworks/run_$name.py" > "$OUT.$name.log"
  sed -n 's/^RESULT //p' "$OUT.$name.log" | tee -a "$OUT"
  echo "$name: set-up $((ready - start)) s, run $(( $(date +%s) - ready )) s" >&2
done
