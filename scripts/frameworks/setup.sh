#!/usr/bin/env bash
# One virtual environment per framework for `make test-frameworks`, made once and reused:
# $MATHEVAL_FAST_FW_CACHE/<name> (default ~/.cache/matheval_fast/fw/<name>), rebuilt only when
# scripts/frameworks/<name>.txt changes. matheval_fast itself is not installed there: the runs put the
# checkout's python/ (with the built extension) first on PYTHONPATH.
set -euo pipefail
name=$1
here=$(cd "$(dirname "$0")" && pwd)
PY=${PY:-python3.11}
CACHE=${MATHEVAL_FAST_FW_CACHE:-$HOME/.cache/matheval_fast/fw}
venv="$CACHE/$name"
want=$(sha256sum "$here/$name.txt" | cut -d' ' -f1)
if [ -f "$venv/.matheval-requirements" ] && [ "$(cat "$venv/.matheval-requirements")" = "$want" ]; then
  exit 0
fi
rm -rf "$venv"
mkdir -p "$CACHE"
"$PY" -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q -r "$here/$name.txt"
echo "$want" > "$venv/.matheval-requirements"   # last: an interrupted install is redone next time
