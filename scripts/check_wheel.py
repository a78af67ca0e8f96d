"""Check a built wheel as a user would meet it: installed outside the checkout, not the source tree.

    .venv/bin/python scripts/check_wheel.py dist/matheval_fast-*.whl      # `make wheel` runs it

Installs the wheel (no dependencies: they come from the running environment) into a scratch folder,
then, from another scratch folder, imports the package from there and checks that it is the wheel's
copy, that it holds the datasets protocol B joins labels from, that a check gives its verdict, and
that `matheval-fast unanswerable` finds the shipped UMWP dataset (the defect of issue 24: it was read
from the source checkout's data/). Exits non-zero with the reason on any failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

PROBE = r"""
import json, sys
from pathlib import Path
import matheval_fast as mf
from matheval_fast import unanswerable
from matheval_fast.cli import main
here = Path(mf.__file__).resolve().parent
assert str(here).startswith(sys.argv[1]), f"imported {here}, not the wheel's copy"
for preset in ("umwp", "selfaware"):
    assert unanswerable.bundled_dataset(preset).is_file(), preset
assert mf.check("The answer is: 18.", "18").correct
from matheval_fast._report.html.page import Page, render
assert 'id="report-data"' in render(Page("score", "t", "", {"n": 0, "cols": {}}))  # the page's files
Path("o.jsonl").write_text(json.dumps({"id": 1, "generated_text": "I do not know."}) + "\n")
rc = main(["unanswerable", "o.jsonl", "--preset", "umwp", "--out", "out"])
print("probe ok", here, rc)
"""


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    wheel = Path(argv[0]).resolve()
    names = zipfile.ZipFile(wheel).namelist()
    need = [
        "matheval_fast/datasets/umwp/StandardDataset.jsonl",
        "matheval_fast/datasets/selfaware/SelfAware.json",
        "matheval_fast/datasets/README.md",
        "matheval_fast/judge/templates/faultymath_simple.v1.toml",
        "matheval_fast/py.typed",
        "matheval_fast/_core.pyi",
        "matheval_fast/_report/html/template.html",
        "matheval_fast/_report/html/report.css",
        "matheval_fast/_report/html/report.js",
    ]
    missing = [n for n in need if n not in names]
    if missing:
        print(f"{wheel.name}: missing {missing}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as target, tempfile.TemporaryDirectory() as cwd:
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", target, str(wheel)],
            check=True,
        )
        env = {**os.environ, "PYTHONPATH": target}
        done = subprocess.run(
            [sys.executable, "-c", PROBE, str(Path(target).resolve())],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        err = done.stderr
        # The join happens before scoring, which then asks for --model (none here): exit 2 is expected.
        ok = done.returncode == 0 and "probe ok" in done.stdout and "joined labels from" in err
        if not ok or "source checkout" in err:
            print(done.stdout, err, sep="\n", file=sys.stderr)
            return 1
    size = wheel.stat().st_size
    print(json.dumps({"wheel": wheel.name, "bytes": size, "files": len(names), "installed_check": "ok"}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
