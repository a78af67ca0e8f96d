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
if [ "$name" = lighteval ]; then
  # lighteval 0.13 imports every task module to build its registry, and tiny_benchmarks downloads
  # tinyBenchmarks.pkl from GitHub at import unless the file exists: offline that import fails, for any
  # task. The file is read only by the tinyBenchmarks tasks, which the runs do not use: an empty one.
  pkl=$("$venv/bin/python" -c 'import pathlib, lighteval; print(pathlib.Path(lighteval.__file__).parent / "tasks/tasks/tinyBenchmarks.pkl")')
  [ -e "$pkl" ] || : > "$pkl"
fi
echo "$want" > "$venv/.matheval-requirements"   # last: an interrupted install is redone next time
