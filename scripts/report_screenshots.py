"""Remake the screenshots of report.html in docs/guides/img/: the summary and one item of each command's page.

    .venv/bin/python scripts/report_screenshots.py            # from the repository root

Runs ``rescore`` (lm-eval's and lighteval's own logs of real items, every sample), ``compare`` (the lm-eval
logs, without math-verify) and ``score --report`` (the demo responses) into a scratch folder, opens each
report in Debian's chromium through Playwright (``MATHEVAL_CHROMIUM`` names another browser) and writes
``report-<command>-summary.png`` and ``report-<command>-item.png`` (and compare's heat map,
``report-compare-heatmap.png``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMG = ROOT / "docs" / "guides" / "img"
DATA = re.compile(r'<script type="application/json" id="report-data">(.*?)</script>', re.S)


def _runs(tmp: Path) -> dict[str, Path]:
    from matheval_fast.cli import main

    logs = ROOT / "tests" / "data" / "logs"
    os.chdir(ROOT)  # the pages name the logs as given: relative to the repository
    rel = [str((logs / d).relative_to(ROOT)) for d in ("lm_eval_real", "lighteval_real")]
    assert main(["rescore", *rel, "--samples", "all", "--out", str(tmp / "rescored"), "--quiet"]) == 0
    assert main(["compare", rel[0], "--out", str(tmp / "compared"), "--math-verify", "off", "--quiet"]) == 0
    demo = str((ROOT / "data" / "samples" / "demo_responses.json").relative_to(ROOT))
    assert main(["score", demo, "--out", str(tmp / "scored" / "demo.jsonl"), "--report", "--quiet"]) == 0
    return {
        "rescore": tmp / "rescored" / "report.html",
        "compare": tmp / "compared" / "report.html",
        "score": tmp / "scored" / "demo.report.html",
    }


def _item(page: Path, command: str) -> str:
    """The anchor of the item to show: one with its answer highlighted (and, for rescore, several samples)."""
    m = DATA.search(page.read_text(encoding="utf-8"))
    assert m is not None
    d = json.loads(m.group(1))
    cols = d["cols"]
    best = 0
    for i in range(d["n"]):
        if cols["span"][i] and (command != "rescore" or cols["samples"][i]):
            best = i
            break
    return cols["anchor"][best]


def main() -> int:
    from playwright.sync_api import sync_playwright

    exe = os.environ.get("MATHEVAL_CHROMIUM") or shutil.which("chromium")
    if exe is None:
        print("no chromium: apt-get install chromium (or set MATHEVAL_CHROMIUM)", file=sys.stderr)
        return 2
    IMG.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as p:
        pages = _runs(Path(scratch))
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        for command, page in pages.items():
            view = browser.new_page(viewport={"width": 1280, "height": 1000})
            view.goto(page.as_uri())
            view.wait_for_selector("body[data-ready='1']")
            view.screenshot(path=str(IMG / f"report-{command}-summary.png"))
            if command == "compare":  # the heat map is below the accuracy table
                view.locator("#summary svg").screenshot(path=str(IMG / "report-compare-heatmap.png"))
            view.goto(page.as_uri() + "#item-" + _item(page, command))
            view.wait_for_selector("#detail h3")
            view.locator("#browser").screenshot(path=str(IMG / f"report-{command}-item.png"))
            view.close()
            print(IMG / f"report-{command}-summary.png", IMG / f"report-{command}-item.png")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
