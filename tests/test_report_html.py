"""report.html of rescore, compare and score: the page read in Python, then opened in a real browser
(Debian's chromium driven by Playwright; skipped, with the reason, where either is missing)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from matheval_fast._report.html.page import Page, render, script_json
from matheval_fast._report.html.rescore import write_rescore_report
from matheval_fast._report.html.text import clip, find_span
from matheval_fast.rescore import rescore

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "tests" / "data" / "logs"
DATA = re.compile(r'<script type="application/json" id="report-data">(.*?)</script>', re.S)


def page_data(path: Path) -> dict[str, Any]:
    """The item browser's data, read from the page as the browser reads it."""
    m = DATA.search(path.read_text(encoding="utf-8"))
    assert m is not None
    return json.loads(m.group(1))


def at(doc: Any, pointer: str) -> Any:
    """The value of a JSON pointer (RFC 6901)."""
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def formatted(value: Any, fmt: str) -> str:
    if fmt == "int":
        return f"{value:,}"
    return "" if value is None else f"{100 * value:.2f}"


def title(data: dict[str, Any], i: int) -> str:
    """An item's heading, from the page's data."""

    def value(col: str) -> Any:
        v = data["cols"][col][i]
        return data["dicts"][col][v] if col in data["dicts"] else v

    return " · ".join(f"{prefix}{value(col)}" for prefix, col in data["title"])


def expected_disagreements(summary: dict[str, Any]) -> dict[tuple[str, str], int]:
    """(task label, metric) -> disagreements, from summary.json alone."""
    out: dict[tuple[str, str], int] = {}
    for g in summary["groups"]:
        label = g["task"] + (f" [{g['filter']}]" if g["filter"] else "")
        metrics = g["metrics"] or {g["framework_metric"] or "score": {"disagreements": g["disagreements"]}}
        for name, m in metrics.items():
            out[(label, name)] = out.get((label, name), 0) + m["disagreements"]
    return out


def qwen_log(path: Path, responses: list[str], *, gold: str = "18", pred: str = "17") -> Path:
    """A Qwen2.5-Math harness log (one sample per item) whose framework verdict is always wrong."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        for i, r in enumerate(responses):
            fh.write(json.dumps({"idx": i, "gt": gold, "code": [r], "pred": [pred], "score": [False]}) + "\n")
    return path


@pytest.fixture(scope="module")
def real(tmp_path_factory) -> tuple[Path, dict[str, Any]]:
    """The report of lm-eval's and lighteval's own logs of real MATH / GSM8K items, every sample read."""
    out = tmp_path_factory.mktemp("real")
    rep = rescore([LOGS / "lm_eval_real", LOGS / "lighteval_real"], out, samples="all")
    write_rescore_report(rep.summary(), out)
    return out / "report.html", json.loads((out / "summary.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------------------------------
# The page as a file


def test_data_cannot_close_its_script_element():
    text = script_json({"r": "</script><script>alert(1)</script><!-- \u2028"})
    assert "<" not in text and "\u2028" not in text
    assert json.loads(text) == {"r": "</script><script>alert(1)</script><!-- \u2028"}


def test_a_slot_is_filled_once_even_when_its_content_looks_like_a_slot():
    html = render(Page("rescore", "@@TITLE@@ <b>", "@@DATA@@", {"cols": {}, "n": 0}))
    assert "&lt;b&gt;" in html and "@@DATA@@" in html and "@@TITLE@@" in html


def test_the_extracted_answer_is_found_and_kept_when_a_long_text_is_cut():
    text = "x" * 50_000 + " The answer is 42." + "y" * 30_000
    span = find_span(text, "42")
    assert span is not None and text[span[0] : span[1]] == "42"
    cut, moved, note = clip(text, span, 5_000)
    assert cut is not None and moved is not None and note is not None
    assert len(cut) < 5_200 and cut[moved[0] : moved[1]] == "42"
    assert "characters left out" in cut and "of 80,018 characters left out" in note
    assert find_span("1,000", "1000") is None  # not written as extracted: no highlight


def test_every_disagreement_of_the_summary_is_in_the_page(real):
    path, summary = real
    data = page_data(path)
    want = expected_disagreements(summary)
    got: dict[tuple[str, str], int] = {}
    for t, m in zip(data["cols"]["task"], data["cols"]["metric"], strict=True):
        key = (data["dicts"]["task"][t], data["dicts"]["metric"][m])
        got[key] = got.get(key, 0) + 1
    assert {k: v for k, v in want.items() if v} == got
    assert data["n"] == data["total"] == sum(want.values()) > 0
    assert len(set(data["cols"]["anchor"])) == data["n"]  # every link names one item
    # The responses come back from the logs, and the highlight is our extracted answer.
    spans = list(zip(data["cols"]["response"], data["cols"]["span"], data["cols"]["extracted"], strict=True))
    assert all(r for r, _, _ in spans)
    assert all(r[s[0] : s[1]] == e.strip() for r, s, e in spans if s)
    assert sum(1 for _, s, _ in spans if s) > data["n"] // 2
    # The gold as written where the gold rule reduced it (a worked solution: MATH's box, GSM8K's ####),
    # nothing where it was taken as written.
    rule = data["dicts"]["gold_rule"]
    cols = data["cols"]
    for w, g, k in zip(cols["gold_written"], cols["gold"], cols["gold_rule"], strict=True):
        if rule[k] == "as_written":
            assert w is None
        elif rule[k] in ("boxed", "hashes"):
            assert w and g in w and len(w) > len(g)
    assert any(w for w in data["cols"]["gold_written"])
    # Repeated samples: the majority's sample is in its own vote group.
    samples = [s for s in data["cols"]["samples"] if s]
    assert samples
    for s in samples:
        if s["pick"] is not None:
            assert s["rows"][s["pick"]][2] == s["pick"]


def test_past_the_limit_the_page_says_what_it_left_out(tmp_path, real):
    _, summary = real
    summary = json.loads(json.dumps(summary))
    write_rescore_report(summary, tmp_path, limit=5)
    data = page_data(tmp_path / "report.html")
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    total = sum(expected_disagreements(summary).values())
    assert data["n"] == 5 and data["total"] == total
    assert f"holds the first 5 of {total:,} disagreements" in html
    left = re.search(r'id="left-out">(.*?)</p>', html, re.S)
    assert left is not None
    counts = [int(n.replace(",", "")) for n in re.findall(r": ([\d,]+)(?:,|\. )", left.group(1))]
    assert sum(counts) == total - 5
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary file left


def test_the_cli_writes_the_report_unless_told_not_to(tmp_path):
    log = qwen_log(tmp_path / "logs" / "m" / "test_gsm8k.jsonl", ["so 18 in all. The answer is 18."])
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    for flag, want in (([], True), (["--no-report"], False)):
        out = tmp_path / f"out{len(flag)}"
        subprocess.run(
            [sys.executable, "-m", "matheval_fast", "rescore", str(log), "--out", str(out), "--quiet", *flag],
            check=True,
            env=env,
        )
        assert (out / "report.html").exists() is want
        assert not list(out.glob(".*.tmp"))


@pytest.mark.filterwarnings("ignore:3 of 3 rows had no type")
def test_score_and_compare_pages(tmp_path):
    from matheval_fast._report.html import write_compare_report, write_score_report
    from matheval_fast.compare import compare
    from matheval_fast.score import score_file

    src = tmp_path / "r.jsonl"
    src.write_text(
        "\n".join(
            json.dumps({"completion": c, "answer": a, "type": "gsm8k"})
            for c, a in (
                ("The answer is 4.", "4"),
                ("<b>5</b> is it. The answer is 5", "6"),
                ("no idea", "7"),
            )
        )
        + "\n",
        encoding="utf-8",
    )
    summary = score_file(src, tmp_path / "r.results.jsonl")
    page = write_score_report(summary, source=src)
    assert page == tmp_path / "r.results.report.html"
    data = page_data(page)
    assert (
        data["n"] == data["total"] == summary["prompts"][0]["total"] - summary["prompts"][0]["correct"] == 2
    )
    assert "<b>5</b> is it. The answer is 5" in data["cols"]["response"]
    rep = compare([LOGS / "lm_eval_real"], tmp_path / "cmp", math_verify="off")
    page = write_compare_report(rep, tmp_path / "cmp", [LOGS / "lm_eval_real"])
    data = page_data(page)
    assert data["n"] > 0 and all(data["cols"]["response"])
    # An item is listed when its graders do not all agree: "correct" and "wrong" both in its pattern.
    for p in data["cols"]["main"]:
        assert "correct: none" not in p and "wrong: none" not in p


# ---------------------------------------------------------------------------------------------------
# In a browser


def _chromium() -> str | None:
    return os.environ.get("MATHEVAL_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip(
        "playwright.sync_api",
        reason="Playwright for Python is not installed (pip install -r requirements-dev.txt)",
    )
    exe = _chromium()
    if exe is None:
        pytest.skip("no chromium browser (Debian: apt-get install chromium; .ci/run installs it)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        yield b
        b.close()


class Opened:
    """A page opened from disk that fails on any request that is not to a file, and keeps the console."""

    def __init__(self, browser, path: Path, fragment: str = "") -> None:
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page = browser.new_page(viewport={"width": 1300, "height": 900})

        def route(r):
            if r.request.url.startswith("file://"):
                r.continue_()
            else:
                self.requests.append(r.request.url)
                r.abort()

        self.page.route("**/*", route)
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        t0 = time.perf_counter()
        self.page.goto(path.as_uri() + fragment)
        self.page.wait_for_selector("body[data-ready='1']")
        self.seconds = time.perf_counter() - t0

    def count(self) -> int:
        return int(self.page.get_attribute("#list", "data-count") or -1)

    def until(self, script: str, want: Any, timeout: float = 20.0) -> None:
        """Wait until ``script`` (evaluated in the page) gives ``want``: the page's CSP forbids the string
        evaluation ``wait_for_function`` polls with."""
        end = time.monotonic() + timeout
        while (got := self.page.evaluate(script)) != want:
            assert time.monotonic() < end, f"{script} is {got!r}, not {want!r}"
            time.sleep(0.05)

    def close(self) -> None:
        assert self.requests == [], "the page asked the network"
        assert self.errors == [], "the console logged errors"
        self.page.close()


def test_every_number_of_the_summary_is_summary_json(browser, real):
    path, summary = real
    o = Opened(browser, path)
    cells = o.page.eval_on_selector_all(
        "#summary [data-json]", "els => els.map(e => [e.dataset.json, e.dataset.fmt, e.textContent.trim()])"
    )
    assert len(cells) >= 9 * sum(len(g["metrics"]) or 1 for g in summary["groups"])
    for pointer, fmt, text in cells:
        assert text == formatted(at(summary, pointer), fmt), pointer
    # The other numbers of the summary: the intervals of Δ hold Δ, the chart's labels are the groups'.
    for ci, delta in o.page.eval_on_selector_all(
        "#summary tr:has([data-derived])",
        "rows => rows.map(r => [r.querySelector('[data-derived]').textContent,"
        " r.querySelector('[data-json$=\"/difference\"]').textContent])",
    ):
        if ci:
            lo, hi = (float(x) for x in ci.split(" … "))
            assert lo - 1e-9 <= float(delta) <= hi + 1e-9
    o.close()


def test_the_list_has_the_summarys_disagreements_and_each_filter_narrows_it(browser, real):
    path, summary = real
    data = page_data(path)
    want = expected_disagreements(summary)
    o = Opened(browser, path)
    pg = o.page
    assert o.count() == sum(want.values())
    rows = pg.locator("#list .row").count()
    assert 0 < rows <= min(o.count(), 60)  # a virtual list: the visible rows and a few more
    for f in data["filters"]:
        col, names = f["col"], data["dicts"][f["col"]]
        for code, name in enumerate(names):
            pg.select_option(f"#filter-{col}", str(code))
            expected = sum(1 for c in data["cols"][col] if c == code)
            if col == "metric":
                expected_summary = sum(v for (_, m), v in want.items() if m == name)
                assert expected == expected_summary
            if col == "task":
                assert expected == sum(v for (t, _), v in want.items() if t == name)
            assert o.count() == expected, (col, name)
            tops = pg.eval_on_selector_all("#list .row .top", "els => els.map(e => e.textContent)")
            if col in data["rowTop"]:
                assert tops and all(name in t.split(" · ") for t in tops), (col, name)
        pg.select_option(f"#filter-{col}", "-1")
        assert o.count() == data["n"]
    # Search: case-insensitive, over the texts it names.
    for query in ("farmer", "BOXED", "no such text anywhere"):
        pg.fill("#search", query)
        expected = sum(
            1
            for i in range(data["n"])
            if any(query.lower() in str(data["cols"][c][i] or "").lower() for c in data["search"])
        )
        o.until("document.getElementById('list').dataset.count", str(expected))
    # Two filters and a search together.
    pg.fill("#search", "")
    o.until("document.getElementById('list').dataset.count", str(data["n"]))
    pg.select_option("#filter-kind", str(data["dicts"]["kind"].index("extraction")))
    pg.select_option("#filter-metric", str(data["dicts"]["metric"].index("exact_match")))
    both = sum(
        1
        for k, m in zip(data["cols"]["kind"], data["cols"]["metric"], strict=True)
        if data["dicts"]["kind"][k] == "extraction" and data["dicts"]["metric"][m] == "exact_match"
    )
    assert 0 < both < data["n"]
    assert o.count() == both
    o.close()


def test_an_items_link_opens_it(browser, real):
    path, _ = real
    data = page_data(path)
    i = data["n"] - 1  # the last: far down the virtual list, not drawn until asked for
    anchor = data["cols"]["anchor"][i]
    o = Opened(browser, path, f"#item-{anchor}")
    pg = o.page
    assert pg.get_attribute("#detail", "data-item") == anchor
    assert pg.text_content("#detail h3") == title(data, i)
    assert pg.get_attribute(f'#list .row[data-item="{anchor}"]', "class") == "row sel"
    assert pg.text_content("#detail pre.response") == data["cols"]["response"][i]
    if data["cols"]["span"][i]:
        s, e = data["cols"]["span"][i]
        assert pg.text_content("#detail mark") == data["cols"]["response"][i][s:e]
    # A click on another row opens that one and changes the link.
    other = pg.locator("#list .row").first
    name = other.get_attribute("data-item")
    assert name != anchor
    other.click()
    assert pg.evaluate("location.hash") == "#item-" + name
    assert pg.get_attribute("#detail", "data-item") == name
    assert pg.text_content("#detail h3") == title(data, data["cols"]["anchor"].index(name))
    o.close()


def test_summary_tables_read_without_scripts(browser, real):
    path, summary = real
    ctx = browser.new_context(java_script_enabled=False)
    pg = ctx.new_page()
    pg.goto(path.as_uri())
    assert pg.locator("#summary table").count() >= 3
    assert pg.locator("#summary svg rect").count() >= len(summary["groups"])
    assert pg.locator("noscript").count() == 1
    ctx.close()


def test_compare_and_score_pages_show_their_json_and_open_an_item(browser, tmp_path):
    from matheval_fast._report.html import write_compare_report, write_score_report
    from matheval_fast.compare import compare
    from matheval_fast.score import score_file

    rep = compare([LOGS / "lm_eval_real"], tmp_path / "cmp", math_verify="off")
    pages = [
        (
            write_compare_report(rep, tmp_path / "cmp", [LOGS / "lm_eval_real"]),
            tmp_path / "cmp" / "compare.json",
        )
    ]
    demo = ROOT / "data" / "samples" / "demo_responses.json"
    summary = score_file(demo, tmp_path / "demo.jsonl")
    pages.append((write_score_report(summary, source=demo), Path(summary["outputs"]["summary"])))
    for page, source in pages:
        doc = json.loads(source.read_text(encoding="utf-8"))
        data = page_data(page)
        o = Opened(browser, page)
        cells = o.page.eval_on_selector_all(
            "#summary [data-json]",
            "els => els.map(e => [e.dataset.json, e.dataset.fmt, e.textContent.trim()])",
        )
        assert len(cells) > 10
        for pointer, fmt, text in cells:
            assert text == formatted(at(doc, pointer), fmt), (page.name, pointer)
        assert o.count() == data["n"] == data["total"] > 0
        anchor = data["cols"]["anchor"][-1]
        o.page.goto(page.as_uri() + "#item-" + anchor)
        o.until("document.getElementById('detail').dataset.item", anchor)
        assert o.page.text_content("#detail pre.response") == data["cols"]["response"][-1]
        o.close()


def test_a_run_with_no_disagreement_has_an_empty_list_and_says_so(browser, tmp_path):
    log = tmp_path / "logs" / "m" / "test_gsm8k.jsonl"
    log.parent.mkdir(parents=True)
    log.write_text(
        json.dumps({"idx": 0, "gt": "18", "code": ["The answer is 18"], "pred": ["18"], "score": [True]})
    )
    rep = rescore([log], tmp_path / "out")
    page = write_rescore_report(rep.summary(), tmp_path / "out")
    o = Opened(browser, page)
    assert o.count() == 0 and o.page.locator("#list .row").count() == 0
    assert o.page.text_content("#count") == "0 of 0 disagreements"
    o.close()


HOSTILE = [
    "<script>window.__pwned = 1</script> so the answer is 18",
    '<img src="x" onerror="window.__pwned = 2"> <b>bold</b> The answer is 18',
    "</script><script>window.__pwned = 3</script><!-- The answer is 18",
    "a" * 1_000_000 + " The answer is 18",
]


def test_a_hostile_response_is_shown_as_text_and_never_run(browser, tmp_path):
    log = qwen_log(tmp_path / "logs" / "m" / "test_gsm8k.jsonl", HOSTILE)
    rep = rescore([log], tmp_path / "out")
    page = write_rescore_report(rep.summary(), tmp_path / "out")
    assert page.stat().st_size < 200_000  # the megabyte is cut to the page's limit
    data = page_data(page)
    assert data["n"] == 4
    o = Opened(browser, page)
    pg = o.page
    for i in range(4):
        pg.evaluate(f"location.hash = 'item-{data['cols']['anchor'][i]}'")
        o.until("document.getElementById('detail').dataset.item", data["cols"]["anchor"][i])
        shown = pg.text_content("#detail pre.response")
        assert shown == data["cols"]["response"][i]
        if i < 3:
            assert shown == HOSTILE[i]
        else:
            assert "characters left out" in shown and shown.endswith(" The answer is 18")
            assert "of 1,000,017 characters left out" in pg.text_content("#detail")
        assert pg.locator("#detail img, #detail b, #detail script").count() == 0
    assert pg.evaluate("window.__pwned") is None
    assert pg.locator("body script").count() == 2  # the data and the report's own script
    o.close()


@pytest.mark.parametrize("n", [1_000, 100_000])
def test_many_disagreements_open_with_a_bounded_list(browser, tmp_path, n):
    """The page's size and opening time are printed (``-s``), not asserted: what is asserted is what is
    drawn, a few dozen rows of the virtual list wherever it is scrolled to."""
    responses = [f"Step {i}: 9 * 2 = 18 eggs are sold each day. The answer is 18" for i in range(n)]
    log = qwen_log(tmp_path / "logs" / "m" / "test_gsm8k.jsonl", responses)
    t0 = time.perf_counter()
    rep = rescore([log], tmp_path / "out")
    t1 = time.perf_counter()
    page = write_rescore_report(rep.summary(), tmp_path / "out")
    t2 = time.perf_counter()
    o = Opened(browser, page)
    pg = o.page
    assert o.count() == n
    rows = pg.locator("#list .row").count()
    assert 0 < rows <= 60
    far = n * 7 // 9
    pg.evaluate(f"document.getElementById('list').scrollTop = 44 * {far}")
    pg.wait_for_selector(f'#list .row[data-item="{page_data(page)["cols"]["anchor"][far]}"]')
    assert pg.locator("#list .row").count() <= 60
    pg.fill("#search", "step 424:")
    o.until("document.getElementById('list').dataset.count", "1")
    print(
        f"\n{n:,} disagreements: report {page.stat().st_size / 1e6:.1f} MB, rescore {t1 - t0:.1f} s, "
        f"report written in {t2 - t1:.1f} s, opened in {o.seconds:.2f} s (load: {os.getloadavg()[0]:.2f})"
    )
    o.close()
