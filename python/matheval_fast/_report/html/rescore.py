"""``report.html`` for ``rescore``: the summary of summary.json as tables and a chart, and every item where
a framework metric and ours differ, with its response.

The disagreements come from the per-item files the run wrote (``items/*``), recomputed per metric with the
run's own functions (the same aggregates, so the counts equal summary.json's); the responses, which those
files leave out unless ``--keep-response``, are read again from the logs for the disagreeing records only
(the reading stops after the last of them).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
from collections import Counter, defaultdict
from dataclasses import dataclass, field
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
    bar_chart,
    cell,
    esc,
    num,
    pct,
    pointer,
    table,
    write_page,
)
from matheval_fast._report.html.text import Budget, find_span

__all__ = ["write_rescore_report"]

_KINDS = ("extraction", "equivalence", "gold", "unknown")
#: What an item of the page takes from its row of the per-item file (``response`` with --keep-response).
_ROW_COLUMNS = (
    "id",
    "record",
    "position",
    "sample",
    "gold",
    "gold_rule",
    "extracted",
    "fw_extracted",
    "reason",
    "path",
    "response",
)


@dataclass
class _Pair:
    """Paired differences (ours − framework) per record, for a confidence interval of the difference."""

    n: int = 0
    s: float = 0.0
    ss: float = 0.0

    def add(self, d: np.ndarray) -> None:
        self.n += len(d)
        self.s += float(d.sum())
        self.ss += float((d * d).sum())

    def interval(self) -> tuple[float, float] | None:
        """95 % normal interval of the mean paired difference (None below two records)."""
        if self.n < 2:
            return None
        mean = self.s / self.n
        var = max((self.ss - self.n * mean * mean) / (self.n - 1), 0.0)
        half = 1.96 * math.sqrt(var / self.n)
        return mean - half, mean + half


@dataclass
class _Item:
    file: int
    group: int
    metric: str
    record: int
    rows: dict[str, Any]
    samples: list[dict[str, Any]] = field(default_factory=list)


def _score(x: float) -> str:
    return "—" if x is None or math.isnan(x) else f"{x:.4g}"


def _read_items(path: Path) -> list[pa.RecordBatch]:
    """The per-item file's batches as the run wrote them (records are never split between them)."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        f = pq.ParquetFile(path)
        out = []
        for i in range(f.num_row_groups):
            t = f.read_row_group(i)
            if t.num_rows:
                out.extend(t.combine_chunks().to_batches())
        return out
    rows = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rows.append(json.loads(line))
    if not rows:
        return []
    t = pa.Table.from_pylist(rows)
    return t.combine_chunks().to_batches()


def _collect(
    summary: dict[str, Any], limit: int
) -> tuple[list[_Item], dict[tuple[int, str], _Pair], Counter, Counter]:
    """Every (record, metric) where the framework and ours differ, up to ``limit``; paired differences
    per (group, metric); how many were left out per (group, metric), and how many were found."""
    from matheval_fast.io.logs.base import METRIC_PREFIX
    from matheval_fast.rescore import (
        RecordValues,
        RescoreOptions,
        _kinds,
        _record_means,
        primary_aggregate,
    )
    from matheval_fast.samples import Aggregate, aggregate_for

    opts = summary["options"]
    o = RescoreOptions(samples=opts.get("samples", "first"), agg=opts.get("agg", "auto"))
    gindex = {(g["file"], g["task"], g["filter"]): k for k, g in enumerate(summary["groups"])}
    items: list[_Item] = []
    pairs: dict[tuple[int, str], _Pair] = defaultdict(_Pair)
    left_out: Counter = Counter()
    found: Counter = Counter()
    for fi, (finfo, ipath) in enumerate(zip(summary["files"], summary["outputs"]["items"], strict=True)):
        for b in _read_items(Path(ipath)):
            col = b.schema.get_field_index
            sample = np.asarray(b.column(col("sample")).to_numpy(zero_copy_only=False))
            starts = np.flatnonzero(sample == 0)
            ends = np.append(starts[1:], b.num_rows)
            counts = ends - starts
            values = RecordValues(b, starts, ends)
            take = pa.array(starts)
            tasks = b.column(col("task")).take(take).to_pylist()
            filters = b.column(col("filter")).take(take).to_pylist()
            gcodes = np.array(
                [gindex.get((finfo["file"], t, f), -1) for t, f in zip(tasks, filters, strict=True)]
            )
            n_batch = int(counts.max()) if len(counts) else 1
            for gi in dict.fromkeys(gcodes.tolist()):
                if gi < 0:
                    continue
                g = summary["groups"][gi]
                recs = gcodes == gi
                n_max = int(counts[recs].max())
                filt = g["filter"]
                names = list(g.get("metrics") or {})
                for metric in names or [g.get("framework_metric") or "score"]:
                    if names:
                        agg = aggregate_for(metric, filt, n_max) if o.samples == "all" else Aggregate("first")
                        ours, rep = values.get(agg)
                        fw = _record_means(b.column(col(METRIC_PREFIX + metric)), starts)
                    else:
                        ours, rep = values.get(primary_aggregate(o, g.get("framework_metric"), filt, n_batch))
                        fw = _record_means(b.column(col("framework_item_score")), starts)
                    both = recs & ~np.isnan(fw) & ~np.isnan(ours)
                    pairs[(gi, metric)].add(ours[both] - fw[both])
                    dis = np.flatnonzero(both & (np.abs(fw - ours) > 1e-9))
                    found[(gi, metric)] += len(dis)
                    room = max(limit - len(items), 0)
                    if len(dis) > room:
                        left_out[(gi, metric)] += len(dis) - room
                        dis = dis[:room]
                    if not len(dis):
                        continue
                    reps = pa.array(rep[dis])
                    kinds = _kinds(
                        b.column(col("reason")).take(reps),
                        b.column(col("extracted")).take(reps),
                        b.column(col("fw_extracted")).take(reps),
                    )
                    keep = [c for c in _ROW_COLUMNS if c in b.schema.names]
                    taken = b.select(keep).take(reps)
                    rows = [
                        dict(zip(keep, values, strict=True))
                        for values in zip(*(taken.column(c).to_pylist() for c in keep), strict=True)
                    ]
                    for k, r in enumerate(dis):
                        row = rows[k]
                        row["ours_score"], row["fw_score_item"], row["kind"] = ours[r], fw[r], kinds[k]
                        item = _Item(fi, gi, metric, int(row["record"]), row)
                        if counts[r] > 1:
                            lo, hi = int(starts[r]), int(ends[r])
                            sl = b.slice(lo, hi - lo)
                            fwcol = (
                                sl.column(col(METRIC_PREFIX + metric))
                                if names
                                else sl.column(col("fw_score"))
                            )
                            item.samples = [
                                {"sample": s, "extracted": e, "correct": c, "fw": f}
                                for s, e, c, f in zip(
                                    sl.column(col("sample")).to_pylist(),
                                    sl.column(col("extracted")).to_pylist(),
                                    sl.column(col("correct")).to_pylist(),
                                    fwcol.to_pylist(),
                                    strict=True,
                                )
                            ]
                        items.append(item)
    return items, pairs, left_out, found


def _responses(
    summary: dict[str, Any], items: list[_Item]
) -> tuple[dict[tuple[int, int, int], str | None], dict[tuple[int, int], str | None]]:
    """(file, record, sample) -> response, and (file, record) -> the gold as the log wrote it, read
    again from the logs for the items' records only."""
    from matheval_fast.io.logs import ReadOptions, open_log

    opts = summary["options"]
    out: dict[tuple[int, int, int], str | None] = {}
    written: dict[tuple[int, int], str | None] = {}
    wanted: dict[int, set[int]] = defaultdict(set)
    for it in items:
        wanted[it.file].add(it.record)
    read = ReadOptions(
        samples=opts.get("samples", "first"),
        response_field=opts.get("response_field"),
        gold_field=opts.get("gold_field"),
        metric=opts.get("metric"),
        task=opts.get("task"),
        model=opts.get("model"),
    )
    for fi, records in wanted.items():
        finfo = summary["files"][fi]
        reader = open_log(finfo["file"], finfo.get("format") or opts.get("format"), read)
        last = max(records)
        for lb in reader.batches():
            b = lb.batch
            rec = np.asarray(b.column(b.schema.get_field_index("record")).to_numpy(zero_copy_only=False))
            hit = np.flatnonzero(np.isin(rec, list(records)))
            if len(hit):
                sub = b.take(pa.array(hit))
                for r, s, text, gold in zip(
                    sub.column(sub.schema.get_field_index("record")).to_pylist(),
                    sub.column(sub.schema.get_field_index("sample")).to_pylist(),
                    sub.column(sub.schema.get_field_index("response")).to_pylist(),
                    sub.column(sub.schema.get_field_index("gold_written")).to_pylist(),
                    strict=True,
                ):
                    out.setdefault((fi, r, s), text)
                    written.setdefault((fi, r), gold)
            if len(rec) and rec.max() >= last:
                break
    for it in items:
        if "response" in it.rows:  # --keep-response: the items file has it
            out[(it.file, it.record, int(it.rows["sample"]))] = it.rows["response"]
    return out, written


def _group_label(g: dict[str, Any]) -> str:
    return (g["task"] or "?") + (f" [{g['filter']}]" if g["filter"] else "")


def _summary_html(
    summary: dict[str, Any],
    pairs: dict[tuple[int, str], _Pair],
    found: Counter,
    generated: str,
) -> str:
    opts = summary["options"]
    groups = summary["groups"]
    mode = f"compat={opts.get('compat')}, samples={opts.get('samples')}" + (
        f", agg={opts.get('agg')}" if opts.get("samples") == "all" else ""
    )
    out = ["<h2>Run</h2>", '<dl class="run">']
    out.append(f"<dt>matheval_fast</dt><dd>{esc(summary.get('matheval_fast'))} ({esc(mode)})</dd>")
    out.append(f"<dt>report written</dt><dd>{esc(generated)}</dd>")
    out.append(
        f'<dt>rows scored</dt><dd><span data-json="/rows" data-fmt="int">{num(summary["rows"])}</span>'
        f" in {summary['seconds']:.2f} s</dd>"
    )
    out.append("</dl>")
    files = summary["files"]
    formats = ", ".join(sorted({f.get("format") or "?" for f in files}))
    out.insert(
        -1,
        f'<dt>logs</dt><dd>{len(files)} from {esc(formats)} (<a href="#inputs">the list</a>; the '
        "per-sample logs do not record the framework's version)</dd>",
    )
    # The main table: per model × task × metric.
    head = [
        "model",
        "task",
        "framework metric",
        "compared with",
        "items",
        "framework %",
        "ours %",
        "Δ (points)",
        "95 % CI of Δ",
        "disagree",
        "ours ✓ fw ✗",
        "ours ✗ fw ✓",
    ]
    rows = []
    for gi, g in enumerate(groups):
        metrics = g.get("metrics") or {}
        entries: list[tuple[str, dict[str, Any], tuple[str, ...]]]
        if metrics:
            entries = [
                (
                    name,
                    m,
                    (
                        "metrics",
                        name,
                        "framework",
                        "ours",
                        "difference",
                        "disagreements",
                        "ours_higher",
                        "framework_higher",
                    ),
                )
                for name, m in metrics.items()
            ]
        else:
            entries = [
                (
                    g.get("framework_metric") or "score",
                    g,
                    (
                        "",
                        "",
                        "framework_accuracy",
                        "ours_accuracy",
                        "difference",
                        "disagreements",
                        "ours_correct_framework_not",
                        "framework_correct_ours_not",
                    ),
                )
            ]
        for name, m, keys in entries:
            base: tuple[Any, ...] = ("groups", gi, keys[0], keys[1]) if keys[0] else ("groups", gi)
            ci = pairs.get((gi, name), _Pair()).interval()
            ci_text = "" if ci is None else f"{100 * ci[0]:+.2f} … {100 * ci[1]:+.2f}"
            rows.append(
                [
                    g.get("model") or "",
                    _group_label(g),
                    name,
                    m.get("compared_with") or "",
                    cell(num(g["records"]), pointer("groups", gi, "records"), "int"),
                    cell(pct(m[keys[2]]), pointer(*base, keys[2]), "pct"),
                    cell(pct(m[keys[3]]), pointer(*base, keys[3]), "pct"),
                    cell(pct(m[keys[4]]), pointer(*base, keys[4]), "pct"),
                    (esc(ci_text), 'class="num" data-derived="paired 95 % normal interval"'),
                    cell(num(m[keys[5]]), pointer(*base, keys[5]), "int"),
                    cell(num(m[keys[6]]), pointer(*base, keys[6]), "int"),
                    cell(num(m[keys[7]]), pointer(*base, keys[7]), "int"),
                ]
            )
    out.append("<h2>Framework and ours, per model, task and metric</h2>")
    out.append(
        '<p class="note">Δ = ours − framework, in points; its interval is a 95 % normal interval of the '
        "mean paired difference per item. <code>ours %</code> is the aggregate of our verdicts the "
        "framework's metric reports (<code>compared with</code>).</p>"
    )
    out.append(table(head, rows))
    labels = [_group_label(g) + (f" · {g['model']}" if g.get("model") else "") for g in groups]
    out.append(
        bar_chart(
            labels,
            {
                "framework": [g["framework_accuracy"] for g in groups],
                "ours": [g["ours_accuracy"] for g in groups],
            },
            title="framework vs ours per task (primary metric)",
            colours=["#ff7f0e", "#1f77b4"],
        )
    )
    # Kinds and reasons of the disagreements (the primary metric's, as summary.json counts them).
    krows = []
    for gi, g in enumerate(groups):
        krows.append(
            [
                _group_label(g),
                cell(num(g["disagreements"]), pointer("groups", gi, "disagreements"), "int"),
                *[
                    cell(
                        num(g["disagreements_by_kind"].get(k, 0)),
                        pointer("groups", gi, "disagreements_by_kind", k),
                        "int",
                    )
                    for k in _KINDS
                ],
                ", ".join(f"{r} {n}" for r, n in g["disagreements_by_reason"].items()) or "—",
                ", ".join(f"{r} {n}" for r, n in g["verdicts"].items()),
                ", ".join(f"{p} {n}" for p, n in g["paths"].items()),
            ]
        )
    out.append("<h2>Disagreements by kind and reason (primary metric)</h2>")
    out.append(
        '<p class="note"><em>extraction</em>: the two graders took different answers from the response; '
        "<em>equivalence</em>: the same answer, judged differently; <em>gold</em>: we could not read the "
        "gold; <em>unknown</em>: the log does not say what the framework extracted.</p>"
    )
    out.append(
        table(
            ["task", "disagree", *_KINDS, "by our reason", "our verdicts (all rows)", "our paths (all rows)"],
            krows,
        )
    )
    out.append("<h2>Golds</h2><ul>")
    for gi, g in enumerate(groups):
        rules = ", ".join(f"{k} {v}" for k, v in g.get("gold_rules", {}).items()) or "none"
        out.append(
            f"<li>{esc(_group_label(g))}: gold from <code>{esc(g.get('gold_field') or '?')}</code>, "
            "reduced by "
            f"{esc(rules)} ({esc(g.get('gold_source') or '')})"
        )
        if g.get("golds_unreduced"):
            out.append(
                f' — <strong class="warn"><span data-json="{pointer("groups", gi, "golds_unreduced")}" '
                f'data-fmt="int">{num(g["golds_unreduced"])}</span> golds could not be reduced</strong> '
                "(worked solutions with no answer to take; scored <code>gold_unparseable</code>):<ul>"
            )
            for e in g.get("golds_unreduced_examples", []):
                out.append(
                    f"<li>id {esc(e['id'])} (line/row {esc(e['position'])}): "
                    f"<code>{esc(e['gold'])}</code></li>"
                )
            out.append("</ul>")
        out.append("</li>")
    out.append("</ul>")
    out.append('<h2 id="inputs">Logs</h2>')
    out.append(
        table(
            ["log", "format", "model", "rows", "malformed"],
            [
                [
                    f["file"],
                    f.get("format") or "",
                    f.get("model") or "",
                    cell(num(f["rows"]), pointer("files", k, "rows"), "int"),
                    cell(num(f["malformed"]), pointer("files", k, "malformed"), "int"),
                ]
                for k, f in enumerate(files)
            ],
        )
    )
    bad = [f for f in files if f["malformed"]]
    if bad:
        out.append("<h2>Malformed records</h2><ul>")
        for f in bad:
            first = f["malformed_examples"][0] if f["malformed_examples"] else ""
            out.append(
                f"<li><code>{esc(f['file'])}</code>: {num(f['malformed'])} malformed "
                f"(first: {esc(first)})</li>"
            )
        out.append("</ul>")
    return "\n".join(out)


def _item_data(
    summary: dict[str, Any],
    items: list[_Item],
    responses: dict[tuple[int, int, int], str | None],
    total: int,
    written: dict[tuple[int, int], str | None] | None = None,
) -> tuple[dict[str, Any], Budget]:
    from matheval_fast.samples import vote_groups

    groups = summary["groups"]
    budget = Budget(TEXT_BUDGET, RESPONSE_CHARS, SHORT_RESPONSE_CHARS)
    # Values that repeat are written once, in a dictionary per column, and referred to by number.
    dict_cols = ("model", "task", "metric", "kind", "reason", "path", "log", "compared", "gold_rule")
    dicts: dict[str, dict[str, int]] = {c: {} for c in dict_cols}

    def code(c: str, v: Any) -> int | None:
        if v is None:
            return None
        d = dicts[c]
        k = d.get(v)
        if k is None:
            k = d[v] = len(d)
        return k

    votes = vote_groups([[s["extracted"] for s in it.samples] for it in items if it.samples])
    vote_iter = iter(votes)
    cols: dict[str, list[Any]] = defaultdict(list)
    seen: Counter = Counter()
    metric_no = {
        (gi, name): k for gi, g in enumerate(groups) for k, name in enumerate(g.get("metrics") or {})
    }
    # Per (group, metric): the codes every item of it shares.
    shared: dict[tuple[int, str], tuple[Any, ...]] = {}
    anchor_l, main_l, model_l, task_l, metric_l = (
        cols[c] for c in ("anchor", "main", "model", "task", "metric")
    )
    kind_l, reason_l, path_l, log_l, pos_l = (cols[c] for c in ("kind", "reason", "path", "log", "position"))
    id_l, compared_l, gold_l, rule_l = (cols[c] for c in ("id", "compared", "gold", "gold_rule"))
    fws_l, ours_l, sample_l, ext_l, fwext_l = (
        cols[c] for c in ("fw_score", "ours_score", "sample", "extracted", "fw_extracted")
    )
    resp_l, span_l, note_l = cols["response"], cols["span"], cols["note"]
    for it in items:
        g, r = groups[it.group], it.rows
        key = (it.group, it.metric)
        sh = shared.get(key)
        if sh is None:
            m = (g.get("metrics") or {}).get(it.metric) or g
            sh = shared[key] = (
                code("model", g.get("model")),
                code("task", _group_label(g)),
                code("metric", it.metric),
                code("log", g["file"]),
                code("compared", m.get("compared_with")),
                metric_no.get(key, 0),
            )
        # #item-<log>-<line/row>-<metric>, by their numbers in the summary: short, and safe in a URL.
        base = f"{it.file}-{r['position']}-{sh[5]}"
        seen[base] += 1
        anchor_l.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
        extracted, fw_extracted = r.get("extracted"), r.get("fw_extracted")
        text = responses.get((it.file, it.record, int(r["sample"])), r.get("response"))
        span = find_span(text, extracted)
        text, span, note = budget.take(text, span)
        if span is None and extracted and text is not None:
            note = ((note or "") + " Our extracted answer is not written in the text as extracted.").strip()
        ours, fw = _score(r["ours_score"]), _score(r["fw_score_item"])
        main_l.append(f"ours {extracted or '—'} ({ours}) · framework {fw_extracted or '—'} ({fw})")
        model_l.append(sh[0])
        task_l.append(sh[1])
        metric_l.append(sh[2])
        log_l.append(sh[3])
        compared_l.append(sh[4])
        kind_l.append(code("kind", r["kind"]))
        reason_l.append(code("reason", r.get("reason")))
        path_l.append(code("path", r.get("path")))
        pos_l.append(r.get("position"))
        id_l.append(str(r.get("id")))
        gold_l.append(r.get("gold"))
        rule_l.append(code("gold_rule", r.get("gold_rule")))
        # The gold as written, where the rule changed it (a worked solution); clipped like a response.
        as_written = (written or {}).get((it.file, it.record))
        if as_written is not None and as_written.strip() != (r.get("gold") or "").strip():
            as_written, _, _ = budget.take(as_written, None)
        else:
            as_written = None
        cols["gold_written"].append(as_written)
        fws_l.append(fw)
        ours_l.append(ours)
        sample_l.append(r.get("sample"))
        ext_l.append(extracted)
        fwext_l.append(fw_extracted)
        resp_l.append(text)
        span_l.append(list(span) if span else None)
        note_l.append(note)
        if it.samples:
            labels = next(vote_iter)
            tally = Counter(x for x in labels if x is not None)
            pick = max(tally, key=lambda k: (tally[k], -k)) if tally else None
            srows = []
            for s, lab in zip(it.samples, labels, strict=True):
                st, _, _ = budget.take(responses.get((it.file, it.record, int(s["sample"]))), None)
                srows.append([s["extracted"], s["correct"], lab, st, s["fw"]])
            cols["samples"].append({"rows": srows, "pick": pick})
        else:
            cols["samples"].append(None)
    data = {
        "schema": 1,
        "command": "rescore",
        "noun": "disagreements",
        "n": len(items),
        "total": total,
        "filters": [
            {"col": "model", "label": "model"},
            {"col": "task", "label": "task"},
            {"col": "metric", "label": "framework metric"},
            {"col": "kind", "label": "kind"},
            {"col": "reason", "label": "our reason"},
            {"col": "path", "label": "our path"},
        ],
        "dicts": {c: list(d) for c, d in dicts.items()},
        "cols": dict(cols),
        "rowTop": ["task", "metric", "kind", "reason"],
        "rowMain": "main",
        "title": [["", "task"], ["", "metric"], ["id ", "id"]],
        "fields": [
            ["log", "log"],
            ["line/row", "position"],
            ["id", "id"],
            ["model", "model"],
            ["task [filter]", "task"],
            ["framework metric", "metric"],
            ["compared with", "compared"],
            ["kind", "kind"],
            ["gold as written (before the gold rule)", "gold_written", "mono"],
            ["gold (as the metric compares it)", "gold", "mono"],
            ["gold rule", "gold_rule"],
            ["framework's score", "fw_score"],
            ["framework's answer", "fw_extracted", "mono"],
            ["our score", "ours_score"],
            ["our answer", "extracted", "mono"],
            ["our reason", "reason"],
            ["our path", "path"],
            ["sample shown", "sample"],
        ],
        "responseCol": "response",
        "spanCol": "span",
        "noteCol": "note",
        "samplesCol": "samples",
        "search": ["response", "gold", "extracted", "fw_extracted", "id"],
        "searchLabel": "response, gold, answers, id",
    }
    return data, budget


def write_rescore_report(
    summary: dict[str, Any], out_dir: str | os.PathLike[str], *, limit: int = DEFAULT_LIMIT
) -> Path:
    """Write ``<out_dir>/report.html`` for a rescore run's summary (:meth:`RescoreReport.summary`, or the
    summary.json it wrote). ``limit``: disagreements the page holds at most; the rest are counted, and
    the page says how many of which task and metric it left out."""
    if limit < 0:
        raise ValueError(f"limit must be at least 0, got {limit}")
    items, pairs, left_out, found = _collect(summary, limit)
    responses, written = _responses(summary, items)
    total = sum(found.values())
    data, budget = _item_data(summary, items, responses, total, written)
    generated = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    notes = []
    if left_out:
        groups = summary["groups"]
        parts = ", ".join(f"{_group_label(groups[g])} / {m}: {n:,}" for (g, m), n in sorted(left_out.items()))
        notes.append(
            f'<p class="warn" id="left-out">This report holds the first {len(items):,} of {total:,} '
            f"disagreements (its limit); left out: {esc(parts)}. Every item is in the per-item files "
            f"({esc(', '.join(summary['outputs']['items']))}).</p>"
        )
    if budget.shortened:
        notes.append(
            f'<p class="note" id="shortened">{budget.shortened:,} responses past the first '
            f"{TEXT_BUDGET:,} characters of text are shortened to {SHORT_RESPONSE_CHARS:,} characters around "
            "the extracted answer.</p>"
        )
    page = Page(
        command="rescore",
        title="Rescored: framework and matheval_fast, side by side",
        summary_html=_summary_html(summary, pairs, found, generated),
        data=data,
        browser_title="Disagreements",
        left_out_html="\n".join(notes),
    )
    return write_page(Path(out_dir) / "report.html", page)
