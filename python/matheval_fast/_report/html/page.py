"""The page every report shares: the template, its inline style and script, the data as JSON, tables and
SVG charts built here with :func:`html.escape` (no template engine: the page is one template with six
slots; docs/dependencies.md says why).

What is written from data is escaped once, here: text through :func:`esc`, the item data through
:func:`script_json` (every ``<`` becomes ``\\u003c``, so a response holding ``</script>`` cannot close
the data's tag), and the script puts every text into the page with ``textContent``.
"""

from __future__ import annotations

import html
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from matheval_fast._report.files import atomic_write, json_safe

__all__ = [
    "DEFAULT_LIMIT",
    "Page",
    "bar_chart",
    "esc",
    "heatmap",
    "num",
    "pct",
    "render",
    "script_json",
    "table",
    "write_page",
]

#: Items a report holds at most (the rest are counted, named by group, and left out; they are all in
#: the per-item output files). 100,000 GSM8K-sized items open in a few seconds (docs/guides/rescoring.md).
DEFAULT_LIMIT = 100_000
#: Characters of one response a report keeps (a longer one keeps its head and the part around the
#: extracted answer; the page says how much it left out).
RESPONSE_CHARS = 20_000
#: Characters of response text a report keeps in all; past it, each further response keeps
#: :data:`SHORT_RESPONSE_CHARS` around its extracted answer (the page says how many were shortened).
TEXT_BUDGET = 40_000_000
SHORT_RESPONSE_CHARS = 1_500


@dataclass
class Page:
    """One report: its title, the summary (HTML that reads without scripts) and the item browser's data."""

    command: str
    title: str
    summary_html: str
    data: dict[str, Any]
    browser_title: str = "Items"
    left_out_html: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def esc(value: Any) -> str:
    """Text as HTML (``None`` as an em dash)."""
    return "—" if value is None else html.escape(str(value), quote=True)


def num(x: Any) -> str:
    """A count with thousands separators, or the value as text."""
    return f"{x:,}" if isinstance(x, int) and not isinstance(x, bool) else esc(x)


def pct(x: float | None) -> str:
    """A share as a percentage with two decimals, as summary.md writes it; blank when there is none."""
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.2f}"


def table(head: Sequence[str], rows: Sequence[Sequence[Any]], *, cls: str = "") -> str:
    """A plain HTML table. A cell is text (escaped), or ``(html, attrs)`` for markup built here: numbers
    carry ``data-json`` (where summary.json holds them) so the tests can read them back."""
    out = [f'<table class="{esc(cls)}"><thead><tr>' + "".join(f"<th>{esc(h)}</th>" for h in head)]
    out.append("</tr></thead><tbody>")
    for r in rows:
        cells = []
        for c in r:
            if isinstance(c, tuple):
                inner, attrs = c
                cells.append(f"<td {attrs}>{inner}</td>")
            else:
                cells.append(f"<td>{esc(c)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def cell(text: str, json_path: str | None = None, fmt: str | None = None) -> tuple[str, str]:
    """A numeric table cell whose value summary.json (or compare.json) holds at ``json_path`` (a JSON
    pointer), written as ``fmt`` says (``int``: a count, ``pct``: :func:`pct`)."""
    attrs = 'class="num"'
    if json_path is not None:
        attrs += f' data-json="{esc(json_path)}"'
    if fmt is not None:
        attrs += f' data-fmt="{esc(fmt)}"'
    return esc(text), attrs


def pointer(*parts: Any) -> str:
    """A JSON pointer (RFC 6901) to a value of the summary file."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def bar_chart(
    labels: Sequence[str], series: Mapping[str, Sequence[float | None]], *, title: str, colours: Sequence[str]
) -> str:
    """Horizontal grouped bars (0–100 %) as inline SVG: one group per label, one bar per series."""
    bar, gap, left, width = 12, 10, 230, 420
    per = bar * len(series) + gap
    height = 30 + per * len(labels) + 24
    out = [
        f'<svg class="chart" role="img" aria-label="{esc(title)}" xmlns="http://www.w3.org/2000/svg" '
        f'width="{left + width + 70}" height="{height}" viewBox="0 0 {left + width + 70} {height}" '
        'font-family="system-ui, sans-serif" font-size="11">',
        f"<title>{esc(title)}</title>",
    ]
    for k, (name, colour) in enumerate(zip(series, colours, strict=False)):
        x = left + k * 150
        out.append(f'<rect x="{x}" y="6" width="10" height="10" fill="{colour}"/>')
        out.append(f'<text x="{x + 14}" y="15">{esc(name)}</text>')
    for t in range(0, 101, 25):
        gx = left + width * t / 100
        out.append(f'<line x1="{gx}" y1="24" x2="{gx}" y2="{height - 20}" stroke="#ddd"/>')
        out.append(f'<text x="{gx}" y="{height - 6}" text-anchor="middle">{t} %</text>')
    for i, label in enumerate(labels):
        y0 = 30 + i * per
        short = label if len(label) <= 38 else label[:36] + "…"
        out.append(
            f'<text x="{left - 6}" y="{y0 + per / 2}" text-anchor="end"><title>{esc(label)}</title>'
            f"{esc(short)}</text>"
        )
        for k, (values, colour) in enumerate(zip(series.values(), colours, strict=False)):
            v = values[i]
            y = y0 + k * bar
            if v is None or (isinstance(v, float) and math.isnan(v)):
                out.append(f'<text x="{left + 4}" y="{y + bar - 2}" fill="#888">no score</text>')
                continue
            w = max(width * v, 0.5)
            out.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar - 2}" fill="{colour}"/>')
            out.append(f'<text x="{left + w + 4:.1f}" y="{y + bar - 3}">{pct(v)}</text>')
    out.append("</svg>")
    return "".join(out)


def heatmap(
    labels: Sequence[str], rates: Sequence[Sequence[float | None]], counts: Sequence[Sequence[str]]
) -> str:
    """A square matrix of shares as inline SVG: white 0, red the largest; the value in each cell."""
    n = len(labels)
    # Room for the labels: about 6.5 px a character at 11 px; the column labels slant at 40°.
    text = 6.5 * max((len(str(x)) for x in labels), default=1)
    c, left, top = 74, round(12 + text), round(20 + 0.65 * text)
    finite = [v for row in rates for v in row if v is not None and not math.isnan(v)]
    vmax = max(finite, default=0.0) or 1.0
    w, h = left + n * c + round(0.77 * text), top + n * c + 10
    out = [
        '<svg class="chart" role="img" aria-label="pairwise disagreement" '
        'xmlns="http://www.w3.org/2000/svg" '
        f'width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="system-ui, sans-serif" font-size="11">',
        "<title>share of the items both graders scored on which they differ</title>",
    ]
    for j, label in enumerate(labels):
        x = left + j * c + c / 2
        out.append(f'<text transform="translate({x},{top - 6}) rotate(-40)">{esc(label)}</text>')
    for i, label in enumerate(labels):
        y = top + i * c
        out.append(f'<text x="{left - 6}" y="{y + c / 2 + 4}" text-anchor="end">{esc(label)}</text>')
        for j in range(n):
            v = rates[i][j]
            x = left + j * c
            if v is None or (isinstance(v, float) and math.isnan(v)) or i == j:
                fill, text = "#eee", "" if i == j else "—"
            else:
                t = min(max(v / vmax, 0.0), 1.0)
                g = round(255 * (1 - 0.85 * t))
                fill, text = f"rgb(255,{g},{g})", f"{pct(v)} %"
            out.append(f'<rect x="{x}" y="{y}" width="{c}" height="{c}" fill="{fill}" stroke="#999"/>')
            if text:
                out.append(f'<text x="{x + c / 2}" y="{y + c / 2}" text-anchor="middle">{esc(text)}</text>')
                if counts[i][j]:
                    out.append(
                        f'<text x="{x + c / 2}" y="{y + c / 2 + 13}" text-anchor="middle" fill="#555">'
                        f"{esc(counts[i][j])}</text>"
                    )
    out.append("</svg>")
    return "".join(out)


def script_json(obj: Any) -> str:
    """JSON for a ``<script type="application/json">`` element: every ``<`` written ``\\u003c`` (a string
    holding ``</script>`` or ``<!--`` cannot end or change the element), standard JSON (NaN -> null)."""
    try:
        text = json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except ValueError:  # a NaN somewhere: the (slower) walk that writes it as null
        text = json.dumps(json_safe(obj), ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    # U+2028/2029 are valid in JSON; escaped anyway so the data is also valid JavaScript source.
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _asset(name: str) -> str:
    return resources.files("matheval_fast._report.html").joinpath(name).read_text(encoding="utf-8")


def render(page: Page) -> str:
    """The whole page as one string (style, script, data and charts inline)."""
    from matheval_fast import __version__

    slots = {
        "VERSION": esc(__version__),
        "TITLE": esc(page.title),
        "COMMAND": esc(page.command),
        "BROWSER_TITLE": esc(page.browser_title),
        "STYLE": _asset("report.css"),
        "SUMMARY": page.summary_html,
        "LEFT_OUT": page.left_out_html,
        "DATA": script_json(page.data),
        "SCRIPT": _asset("report.js"),
    }
    # One pass over the template's own text: a slot's content is never searched for slots again.
    parts = _asset("template.html").split("@@")
    return "".join(slots[p] if k % 2 else p for k, p in enumerate(parts))


def write_page(path: str | os.PathLike[str], page: Page) -> Path:
    """Write the page atomically (a temporary name beside ``path``, renamed when complete)."""
    target = Path(path)
    with atomic_write(target) as fh:
        fh.write(render(page))
    return target
