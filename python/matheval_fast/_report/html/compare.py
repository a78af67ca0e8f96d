"""``report.html`` for ``compare``: accuracy per grader, the pairwise disagreement matrix as a heat map, and
every item on which the graders do not all agree, with its response.

The verdicts come from ``items.parquet``; the responses (and our extracted answer, reason and path in fixed
mode, for the highlight) from the logs, read again for the disagreeing items only.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from matheval_fast._report.html.page import (
    DEFAULT_LIMIT,
    RESPONSE_CHARS,
    SHORT_RESPONSE_CHARS,
    TEXT_BUDGET,
    Page,
    cell,
    esc,
    heatmap,
    num,
    pct,
    pointer,
    table,
    write_page,
)
from matheval_fast._report.html.text import Budget, find_span

__all__ = ["write_compare_report"]


def _verdict(v: bool | None) -> str:
    return "—" if v is None else ("correct" if v else "wrong")


def write_compare_report(
    report: Any,
    out_dir: str | os.PathLike[str],
    logs: Sequence[str | os.PathLike[str]],
    *,
    read: Any = None,
    format: str | None = None,
    limit: int = DEFAULT_LIMIT,
) -> Path:
    """Write ``<out_dir>/report.html`` for a :class:`~matheval_fast.compare.CompareReport` whose
    ``items.parquet`` is in ``out_dir``; ``logs``, ``read`` and ``format`` as given to ``compare`` (the
    responses are read from them again). ``limit``: items the page holds at most."""
    import pyarrow.parquet as pq

    if limit < 0:
        raise ValueError(f"limit must be at least 0, got {limit}")
    out = Path(out_dir)
    r = report.to_dict()
    graders: list[str] = r["graders"]
    t = pq.read_table(out / "items.parquet")
    verdicts = {g: t.column(g).to_pylist() for g in graders}
    keys = (
        list(zip(*(t.column(c).to_pylist() for c in ("model", "task", "id", "sample")), strict=True))
        if t.num_rows
        else []
    )
    golds = t.column("gold").to_pylist() if t.num_rows else []
    differ = []
    for i in range(t.num_rows):
        seen = {v for v in (verdicts[g][i] for g in graders) if v is not None}
        if len(seen) > 1:
            differ.append(i)
    total = len(differ)
    shown = differ[:limit]
    found = _read_logs(logs, read, format, {keys[i] for i in shown})

    budget = Budget(TEXT_BUDGET, RESPONSE_CHARS, SHORT_RESPONSE_CHARS)
    dicts: dict[str, dict[str, int]] = {"model": {}, "task": {}, "pattern": {}, "fixed": {}}

    def code(c: str, v: Any) -> int | None:
        return None if v is None else dicts[c].setdefault(str(v), len(dicts[c]))

    cols: dict[str, list[Any]] = defaultdict(list)
    anchors: Counter = Counter()
    for i in shown:
        model, task, item_id, sample = keys[i]
        got = found.get(keys[i], {})
        text = got.get("response")
        span = find_span(text, got.get("extracted"))
        text, span, note = budget.take(text, span)
        yes = [g for g in graders if verdicts[g][i] is True]
        no = [g for g in graders if verdicts[g][i] is False]
        pattern = "correct: " + (", ".join(yes) or "none") + " · wrong: " + (", ".join(no) or "none")
        base = f"{task}-{item_id}-{sample}"
        anchors[base] += 1
        cols["anchor"].append(base if anchors[base] == 1 else f"{base}-{anchors[base]}")
        cols["sample"].append(sample)
        cols["main"].append(pattern)
        cols["model"].append(code("model", model))
        cols["task"].append(code("task", task))
        cols["pattern"].append(code("pattern", pattern))
        cols["fixed"].append(code("fixed", _verdict(verdicts[graders[0]][i])))
        cols["id"].append(str(item_id))
        cols["gold"].append(golds[i])
        cols["extracted"].append(got.get("extracted"))
        cols["ours"].append(
            f"{got.get('reason') or '—'} by {got.get('path') or '—'}; "
            f"extracted: {got.get('extracted') or '—'}"
        )
        cols["verdicts"].append("\n".join(f"{g}: {_verdict(verdicts[g][i])}" for g in graders))
        cols["response"].append(text)
        cols["span"].append(list(span) if span else None)
        cols["note"].append(note)
    data = {
        "schema": 1,
        "command": "compare",
        "noun": "items where the graders differ",
        "n": len(shown),
        "total": total,
        "filters": [
            {"col": "model", "label": "model"},
            {"col": "task", "label": "task"},
            {"col": "fixed", "label": graders[0]},
            {"col": "pattern", "label": "verdicts"},
        ],
        "dicts": {c: list(d) for c, d in dicts.items()},
        "cols": dict(cols),
        "rowTop": ["task", "fixed"],
        "rowMain": "main",
        "title": [["", "task"], ["id ", "id"], ["sample ", "sample"]],
        "fields": [
            ["id", "id"],
            ["model", "model"],
            ["task", "task"],
            ["gold", "gold", "mono"],
            ["verdicts", "verdicts", "mono"],
            ["ours (fixed): reason, path", "ours", "mono"],
        ],
        "responseCol": "response",
        "spanCol": "span",
        "noteCol": "note",
        "samplesCol": None,
        "search": ["response", "gold", "extracted", "id"],
        "searchLabel": "response, gold, our answer, id",
    }
    left = ""
    if total > len(shown):
        left = (
            f'<p class="warn" id="left-out">This report holds the first {len(shown):,} of {total:,} items '
            "where the graders differ (its limit); every item is in items.parquet.</p>"
        )
    page = Page(
        command="compare",
        title="Graders side by side",
        summary_html=_summary(r, graders),
        data=data,
        browser_title="Items where the graders differ",
        left_out_html=left,
    )
    return write_page(out / "report.html", page)


def _read_logs(
    logs: Sequence[str | os.PathLike[str]], read: Any, format: str | None, wanted: set[tuple]
) -> dict[tuple, dict[str, Any]]:
    """(model, task, id, sample) -> response and our fixed-mode verdict, for the wanted items only."""
    from matheval_fast.io.logs import ReadOptions, expand_paths, open_log
    from matheval_fast.rescore import score_log_batch

    out: dict[tuple, dict[str, Any]] = {}
    if not wanted:
        return out
    for path in expand_paths(list(logs)):
        reader = open_log(path, format, read or ReadOptions())
        model = reader.info.get("model")
        for lb in reader.batches():
            b = lb.batch
            col = b.schema.get_field_index
            ks = list(
                zip(
                    b.column(col("task")).to_pylist(),
                    b.column(col("id")).to_pylist(),
                    b.column(col("sample")).to_pylist(),
                    strict=True,
                )
            )
            alt = np.asarray(b.column(col("gold_alt")).to_numpy(zero_copy_only=False))
            hit = [k for k, (t, i, s) in enumerate(ks) if alt[k] == 0 and (model, t, i, s) in wanted]
            if not hit:
                continue
            sub = score_log_batch(b.take(pa.array(hit)), compat="fixed")
            for k, row in zip(
                hit, sub.select(["response", "extracted", "reason", "path"]).to_pylist(), strict=True
            ):
                out.setdefault((model, *ks[k]), row)
    return out


def _summary(r: dict[str, Any], graders: list[str]) -> str:
    generated = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        "<h2>Run</h2>",
        '<dl class="run">',
        f"<dt>matheval_fast</dt><dd>{esc(r['matheval_fast'])}</dd>",
        f"<dt>report written</dt><dd>{esc(generated)}</dd>",
        f'<dt>items</dt><dd><span data-json="/items" data-fmt="int">{num(r["items"])}</span></dd>',
        "</dl>",
        "<h2>Accuracy per model, task and grader</h2>",
        '<p class="note">One row per grader that scored items of the task (a log metric scores only its own '
        "task and filter).</p>",
    ]
    rows: list[list[Any]] = []
    for gi, g in enumerate(r["groups"]):
        first = True
        for x in graders:
            if not g["scored"][x]:
                continue
            rows.append(
                [
                    (g["model"] or "") if first else "",
                    (g["task"] or "") if first else "",
                    cell(num(g["items"]), pointer("groups", gi, "items"), "int") if first else "",
                    x,
                    cell(num(g["scored"][x]), pointer("groups", gi, "scored", x), "int"),
                    cell(pct(g["accuracy"][x]), pointer("groups", gi, "accuracy", x), "pct"),
                ]
            )
            first = False
    out.append(table(["model", "task", "items", "grader", "scored", "accuracy %"], rows))
    m = r["disagreement"]
    out.append("<h2>Pairwise disagreement, all items</h2>")
    out.append(
        '<p class="note">The share of the items both graders scored on which they differ, '
        "with the counts.</p>"
    )
    rates = [[m[a][b]["rate"] for b in graders] for a in graders]
    counts = [
        [f"{m[a][b]['disagree']}/{m[a][b]['both']}" if m[a][b]["both"] else "" for b in graders]
        for a in graders
    ]
    out.append(heatmap(graders, rates, counts))
    mrows = []
    for a in graders:
        row: list[Any] = [a]
        for b in graders:
            c = m[a][b]
            if a == b or not c["both"]:
                row.append("" if a == b else "—")
            else:
                row.append(
                    (
                        f'<span data-json="{esc(pointer("disagreement", a, b, "rate"))}" data-fmt="pct">'
                        f"{pct(c['rate'])}</span> % ({num(c['disagree'])}/{num(c['both'])})",
                        'class="num"',
                    )
                )
        mrows.append(row)
    out.append(table(["", *graders], mrows))
    if r["notes"]:
        out.append("<h2>Notes</h2><ul>" + "".join(f"<li>{esc(n)}</li>" for n in r["notes"]) + "</ul>")
    return "\n".join(out)
