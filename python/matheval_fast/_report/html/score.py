"""``report.html`` for ``score``: the accuracy tables by type, subtype and level, our reasons and paths, and
the items we marked wrong, with their response.

The verdicts come from the per-item output ``score`` wrote; the responses from the input file, read again
for the wrong items only (not from stdin, which cannot be read twice: the page then says so).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections import Counter, defaultdict
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
    num,
    pct,
    pointer,
    table,
    write_page,
)
from matheval_fast._report.html.text import Budget, find_span

__all__ = ["report_path", "write_score_report"]


def report_path(items: str | os.PathLike[str]) -> Path:
    """``<out stem>.report.html`` beside the per-item output (as ``<out stem>.summary.json``)."""
    p = Path(items)
    name = p.name
    for ext in (".jsonl", ".parquet", ".json"):
        if name.endswith(ext):
            name = name[: -len(ext)]
            break
    return p.with_name(name + ".report.html")


def _wrong_rows(items: Path, limit: int) -> tuple[list[dict[str, Any]], int]:
    """The rows marked wrong (``correct`` false), the first ``limit`` of them, and how many there are."""
    out: list[dict[str, Any]] = []
    total = 0
    if items.is_dir() or items.suffix == ".parquet":
        import pyarrow.compute as pc
        import pyarrow.parquet as pq

        # --engine ray writes a directory of Parquet files.
        for part in sorted(items.glob("*.parquet")) if items.is_dir() else [items]:
            f = pq.ParquetFile(part)
            for i in range(f.num_row_groups):
                t = f.read_row_group(i)
                wrong = t.filter(pc.invert(pc.fill_null(t.column("correct"), False)))
                total += wrong.num_rows
                room = max(limit - len(out), 0)
                out.extend(wrong.slice(0, room).to_pylist())
        return out, total
    with open(items, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            if not row.get("correct"):
                total += 1
                if len(out) < limit:
                    out.append(row)
    return out, total


def _responses(
    source: str | os.PathLike[str] | None, fields: Any, input_format: str | None, wanted: set[tuple[int, int]]
) -> dict[tuple[int, int], str | None]:
    """(line, prompt) -> response for the wanted rows, read again from the input."""
    from matheval_fast.io.responses import source_batches
    from matheval_fast.score import _explode

    out: dict[tuple[int, int], str | None] = {}
    if source is None or str(source) == "-" or not wanted:
        return out
    last = max(line for line, _ in wanted)
    for rb in source_batches(str(source), fields, input_format=input_format):
        b = rb.batch
        if not b.num_rows:
            continue
        rec, prompt, response = _explode(b)
        lines = np.asarray(b.column(0).to_numpy(zero_copy_only=False))[rec]
        hit = [k for k in range(len(rec)) if (int(lines[k]), int(prompt[k])) in wanted]
        if hit:
            texts = response.take(pa.array(hit)).to_pylist()
            for k, text in zip(hit, texts, strict=True):
                out[(int(lines[k]), int(prompt[k]))] = text
        if int(lines.max()) >= last:
            break
    return out


def write_score_report(
    summary: dict[str, Any],
    *,
    source: str | os.PathLike[str] | None = None,
    fields: Any = None,
    input_format: str | None = None,
    path: str | os.PathLike[str] | None = None,
    limit: int = DEFAULT_LIMIT,
) -> Path:
    """Write the report of a ``score`` run (the summary :func:`~matheval_fast.score.score_file` returned)
    to ``path`` (default: :func:`report_path` of its per-item output). ``source``/``fields``/
    ``input_format``: the input and how it was read, to show the responses (none from stdin)."""
    from matheval_fast.io.responses import ResponseFields

    if limit < 0:
        raise ValueError(f"limit must be at least 0, got {limit}")
    items_path = Path(summary["outputs"]["items"])
    target = Path(path) if path is not None else report_path(items_path)
    rows, total = _wrong_rows(items_path, limit)
    used = summary.get("fields") or {}
    if fields is None:
        fields = ResponseFields()
    from dataclasses import replace

    fields = replace(
        fields, response=used.get("response", fields.response), gold=used.get("gold", fields.gold), guess=()
    )
    texts = _responses(source, fields, input_format, {(int(r["line"]), int(r["prompt"])) for r in rows})
    budget = Budget(TEXT_BUDGET, RESPONSE_CHARS, SHORT_RESPONSE_CHARS)
    dict_cols = ("prompt", "type", "level", "reason", "path")
    dicts: dict[str, dict[str, int]] = {c: {} for c in dict_cols}

    def code(c: str, v: Any) -> int | None:
        return None if v is None or v == "" else dicts[c].setdefault(str(v), len(dicts[c]))

    cols: dict[str, list[Any]] = defaultdict(list)
    seen: Counter = Counter()
    id_names = [
        k
        for k in (rows[0] if rows else {})
        if k
        not in {
            "line",
            "prompt",
            "type",
            "subtype",
            "level",
            "gold",
            "extracted",
            "correct",
            "reason",
            "path",
        }
    ]
    for r in rows:
        base = f"{r['line']}-{r['prompt']}"
        seen[base] += 1
        text = texts.get((int(r["line"]), int(r["prompt"])))
        span = find_span(text, r.get("extracted"))
        text, span, note = budget.take(text, span)
        if text is None and str(source) == "-":
            note = "The input was read from stdin: its responses are not in this report."
        cols["anchor"].append(base if seen[base] == 1 else f"{base}-{seen[base]}")
        cols["main"].append(f"{r.get('reason')}: {r.get('extracted') or '—'} vs gold {r.get('gold')}")
        cols["prompt"].append(code("prompt", f"prompt {r.get('prompt')}"))
        cols["type"].append(
            code("type", " / ".join(x for x in (r.get("type"), r.get("subtype")) if x) or None)
        )
        cols["level"].append(code("level", None if r.get("level") in (None, "") else f"level {r['level']}"))
        cols["reason"].append(code("reason", r.get("reason")))
        cols["path"].append(code("path", r.get("path")))
        cols["line"].append(str(r["line"]))
        cols["ids"].append(", ".join(f"{k}={r[k]}" for k in id_names) or None)
        cols["gold"].append(r.get("gold"))
        cols["extracted"].append(r.get("extracted"))
        cols["response"].append(text)
        cols["span"].append(list(span) if span else None)
        cols["note"].append(note)
    data = {
        "schema": 1,
        "command": "score",
        "noun": "items marked wrong",
        "n": len(rows),
        "total": total,
        "filters": [
            {"col": "prompt", "label": "prompt"},
            {"col": "type", "label": "type / subtype"},
            {"col": "level", "label": "level"},
            {"col": "reason", "label": "our reason"},
            {"col": "path", "label": "our path"},
        ],
        "dicts": {c: list(d) for c, d in dicts.items()},
        "cols": dict(cols),
        "rowTop": ["prompt", "type", "level", "reason"],
        "rowMain": "main",
        "title": [["line ", "line"], ["", "prompt"]],
        "fields": [
            ["line", "line"],
            ["ids", "ids"],
            ["type / subtype", "type"],
            ["level", "level"],
            ["gold", "gold", "mono"],
            ["our answer", "extracted", "mono"],
            ["our reason", "reason"],
            ["our path", "path"],
        ],
        "responseCol": "response",
        "spanCol": "span",
        "noteCol": "note",
        "samplesCol": None,
        "search": ["response", "gold", "extracted", "line", "ids"],
        "searchLabel": "response, gold, our answer, line, ids",
    }
    left = ""
    if total > len(rows):
        left = (
            f'<p class="warn" id="left-out">This report holds the first {len(rows):,} of {total:,} items '
            f"marked wrong (its limit); every item is in {esc(items_path)}.</p>"
        )
    page = Page(
        command="score",
        title=f"Scored: {summary.get('file')}",
        summary_html=_summary(summary),
        data=data,
        browser_title="Items marked wrong",
        left_out_html=left,
    )
    return write_page(target, page)


def _summary(s: dict[str, Any]) -> str:
    generated = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        "<h2>Run</h2>",
        '<dl class="run">',
        f"<dt>input</dt><dd>{esc(s.get('file'))} (fields: {esc(s.get('fields'))})</dd>",
        f"<dt>mode</dt><dd>compat={esc(s.get('compat'))}, "
        f"finite decimals {esc(s.get('finite_decimals'))}</dd>",
        f"<dt>report written</dt><dd>{esc(generated)}</dd>",
        f'<dt>records</dt><dd><span data-json="/records" data-fmt="int">{num(s["records"])}</span>; rejected '
        f'<span data-json="/rejected" data-fmt="int">{num(s["rejected"])}</span></dd>',
        "</dl>",
    ]
    for pi, p in enumerate(s["prompts"]):
        out.append(f"<h2>Prompt {esc(p['prompt'])}: accuracy by type, subtype and level</h2>")
        rows: list[list[Any]] = []
        for gi, g in enumerate(p["by_group"]):
            at = ("prompts", pi, "by_group", gi)
            rows.append(
                [
                    g["type"],
                    g["subtype"],
                    g["level"],
                    cell(num(g["correct"]), pointer(*at, "correct"), "int"),
                    cell(num(g["incorrect"]), pointer(*at, "incorrect"), "int"),
                    cell(num(g["total"]), pointer(*at, "total"), "int"),
                    cell(pct(g["accuracy"]), pointer(*at, "accuracy"), "pct"),
                ]
            )
        rows.append(
            [
                "Overall",
                "",
                "",
                cell(num(p["correct"]), pointer("prompts", pi, "correct"), "int"),
                cell(num(p["total"] - p["correct"]), None, "int"),
                cell(num(p["total"]), pointer("prompts", pi, "total"), "int"),
                cell(pct(p["accuracy"]), pointer("prompts", pi, "accuracy"), "pct"),
            ]
        )
        out.append(table(["type", "subtype", "level", "correct", "incorrect", "total", "accuracy %"], rows))
        for key, title in (("reasons", "reason"), ("paths", "path")):
            out.append(
                table(
                    [f"our {title}", "rows"],
                    [
                        [k, cell(num(v), pointer("prompts", pi, key, k), "int")]
                        for k, v in sorted(p[key].items(), key=lambda kv: -kv[1])
                    ],
                )
            )
    return "\n".join(out)
