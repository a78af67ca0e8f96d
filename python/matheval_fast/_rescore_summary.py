"""The summary of a rescore run: what it counts per (file, task, filter) and per framework metric
(:class:`GroupStats`, :class:`MetricStats`), and the same summary as Markdown
(:func:`summary_markdown`). :mod:`matheval_fast.rescore` fills them; this module imports nothing of
the run."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from matheval_fast._report.tables import markdown_table

__all__ = ["KINDS", "GroupStats", "MetricStats", "summary_markdown"]

KINDS = ("extraction", "equivalence", "gold", "unknown")


@dataclass
class GroupStats:
    file: str
    format: str
    model: str | None
    task: str | None
    filter: str | None
    metric: str | None
    records: int = 0
    rows: int = 0
    ours_sum: float = 0.0
    ours_n: int = 0
    fw_sum: float = 0.0
    fw_n: int = 0
    disagree: int = 0
    ours_only: int = 0  # we say correct (higher), the framework not
    fw_only: int = 0
    by_reason: Counter = field(default_factory=Counter)
    by_kind: Counter = field(default_factory=Counter)
    examples_reason: dict[str, list] = field(default_factory=lambda: defaultdict(list))
    examples_kind: dict[str, list] = field(default_factory=lambda: defaultdict(list))
    reasons: Counter = field(default_factory=Counter)  # over all scored rows
    paths: Counter = field(default_factory=Counter)
    compared_with: str | None = None
    gold_field: str | None = None
    gold_source: str | None = None
    truncation: str | None = None  # the framework's cut of the output before extraction, if it has one
    gold_rules: Counter = field(default_factory=Counter)  # per record
    unreduced_examples: list = field(default_factory=list)
    metrics: dict[str, MetricStats] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ours = self.ours_sum / self.ours_n if self.ours_n else math.nan
        fw = self.fw_sum / self.fw_n if self.fw_n else math.nan
        return {
            "file": self.file,
            "format": self.format,
            "model": self.model,
            "task": self.task,
            "filter": self.filter,
            "framework_metric": self.metric,
            "records": self.records,
            "rows": self.rows,
            "framework_accuracy": fw,
            "framework_scored": self.fw_n,
            "ours_accuracy": ours,
            "difference": ours - fw if self.fw_n else math.nan,
            "disagreements": self.disagree,
            "ours_correct_framework_not": self.ours_only,
            "framework_correct_ours_not": self.fw_only,
            "disagreements_by_reason": dict(self.by_reason.most_common()),
            "disagreements_by_kind": {k: self.by_kind.get(k, 0) for k in KINDS},
            "examples_by_reason": dict(self.examples_reason),
            "examples_by_kind": dict(self.examples_kind),
            "verdicts": dict(self.reasons.most_common()),
            "paths": dict(self.paths.most_common()),
            "compared_with": self.compared_with,
            "gold_field": self.gold_field,
            "gold_source": self.gold_source,
            "truncation": self.truncation,
            "gold_rules": dict(self.gold_rules.most_common()),
            "golds_unreduced": self.gold_rules.get("unreduced", 0),
            "golds_unreduced_examples": list(self.unreduced_examples),
            "ours_accuracy_without_unreduced_golds": (
                self.ours_sum / (self.ours_n - self.gold_rules.get("unreduced", 0))
                if self.ours_n > self.gold_rules.get("unreduced", 0)
                else math.nan
            ),
            "metrics": {k: m.to_dict() for k, m in self.metrics.items()},
        }


@dataclass
class MetricStats:
    """One framework metric of a group next to the aggregate of ours it is compared with."""

    compared_with: str
    aggregate: str
    fw_sum: float = 0.0
    fw_n: int = 0
    ours_sum: float = 0.0
    ours_n: int = 0
    disagree: int = 0
    ours_only: int = 0
    fw_only: int = 0

    def to_dict(self) -> dict[str, Any]:
        fw = self.fw_sum / self.fw_n if self.fw_n else math.nan
        ours = self.ours_sum / self.ours_n if self.ours_n else math.nan
        return {
            "compared_with": self.compared_with,
            "aggregate": self.aggregate,
            "framework": fw,
            "framework_scored": self.fw_n,
            "ours": ours,
            "difference": ours - fw if self.fw_n else math.nan,
            "disagreements": self.disagree,
            "ours_higher": self.ours_only,
            "framework_higher": self.fw_only,
        }

    def add(self, fw: np.ndarray, ours: np.ndarray) -> None:
        both = ~np.isnan(fw) & ~np.isnan(ours)
        self.fw_sum += float(np.nansum(fw[both]))
        self.fw_n += int(both.sum())
        self.ours_sum += float(np.nansum(ours[both]))
        self.ours_n += int(both.sum())
        dis = both & (np.abs(fw - ours) > 1e-9)
        self.disagree += int(dis.sum())
        self.ours_only += int((dis & (ours > fw)).sum())
        self.fw_only += int((dis & (ours < fw)).sum())


def _pct(x: float) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.2f}"


def summary_markdown(s: dict[str, Any]) -> str:
    """The summary as Markdown: one table of every task, then disagreements and examples."""
    opts = s["options"]
    head = [
        "model",
        "task",
        "filter",
        "items",
        "framework metric",
        "compared with",
        "framework %",
        "ours %",
        "Δ",
    ]
    head += ["disagree", "ours ✓ fw ✗", "ours ✗ fw ✓", *KINDS]
    rows = []
    for g in s["groups"]:
        k = g["disagreements_by_kind"]
        rows.append(
            [
                _esc(g["model"] or ""),
                _esc(g["task"] or ""),
                _esc(g["filter"] or ""),
                g["records"],
                g["framework_metric"] or "",
                _esc(g.get("compared_with") or ""),
                _pct(g["framework_accuracy"]),
                _pct(g["ours_accuracy"]),
                _pct(g["difference"]),
                g["disagreements"],
                g["ours_correct_framework_not"],
                g["framework_correct_ours_not"],
                *[k[x] for x in KINDS],
            ]
        )
    out = [
        f"# Rescored with matheval_fast {s['matheval_fast']} "
        f"(compat={opts['compat']}, samples={opts['samples']}"
        + (f", agg={opts['agg']}" if opts["samples"] == "all" else "")
        + ")",
        "",
        "`ours %` is the aggregate of our verdicts that the framework's metric reports (`compared with`); "
        "every metric of the logs is in the next table.",
        "",
        markdown_table(head, rows, align="lllrllrrrrrr" + "r" * len(KINDS)),
        "",
    ]
    metric_rows = [
        [
            _esc(g["task"] or ""),
            _esc(g["filter"] or ""),
            _esc(name),
            _esc(m["compared_with"]),
            _pct(m["framework"]),
            _pct(m["ours"]),
            _pct(m["difference"]),
            m["disagreements"],
        ]
        for g in s["groups"]
        for name, m in g.get("metrics", {}).items()
    ]
    if metric_rows:
        out += [
            "## Every metric of the logs",
            "",
            markdown_table(
                [
                    "task",
                    "filter",
                    "framework metric",
                    "compared with",
                    "framework %",
                    "ours %",
                    "Δ",
                    "disagree",
                ],
                metric_rows,
                align="llllrrrr",
            ),
            "",
        ]
    out += ["## Golds", ""]
    for g in s["groups"]:
        title = _esc(" / ".join(x for x in (g["task"], g["filter"]) if x) or g["file"])
        rules = ", ".join(f"{k} {v}" for k, v in g.get("gold_rules", {}).items()) or "none"
        out.append(
            f"- {title}: gold from `{g.get('gold_field') or '?'}`, reduced by: {rules} "
            f"({_esc(g.get('gold_source') or '')})"
            + (
                f"; output cut before extraction as the framework does: {_esc(g['truncation'])}"
                if g.get("truncation")
                else ""
            )
        )
        if g.get("golds_unreduced"):
            out.append(
                f"  - **{g['golds_unreduced']} golds are worked solutions with no answer to take** "
                "(scored `gold_unparseable`, not as wrong responses; accuracy without them: "
                f"{_pct(g['ours_accuracy_without_unreduced_golds'])} %). Examples:"
            )
            for e in g["golds_unreduced_examples"]:
                out.append(f"    - id {e['id']} (line/row {e['position']}): {_cell(e['gold'])}")
    out.append("")
    excluded = [f for f in s["files"] if f.get("excluded")]
    if excluded:
        out += ["## Samples the framework excluded (outside its denominator and ours)", ""]
        for f in excluded:
            first = ", ".join(f.get("excluded_ids", [])[:5])
            out.append(f"- `{f['file']}`: {f['excluded']} (first: {first})")
        out.append("")
    bad = [f for f in s["files"] if f["malformed"]]
    if bad:
        out += ["## Malformed records", ""]
        for f in bad:
            out.append(f"- `{f['file']}`: {f['malformed']} malformed (first: {f['malformed_examples'][0]})")
        out.append("")
    for g in s["groups"]:
        if not g["disagreements"]:
            continue
        title = _esc(" / ".join(x for x in (g["model"], g["task"], g["filter"]) if x))
        out += [f"## {title}: {g['disagreements']} disagreements", ""]
        out.append("By our reason: " + ", ".join(f"{k} {v}" for k, v in g["disagreements_by_reason"].items()))
        out.append("By kind: " + ", ".join(f"{k} {v}" for k, v in g["disagreements_by_kind"].items() if v))
        out.append("")
        for kind, exs in g["examples_by_kind"].items():
            out.append(f"### {kind}")
            out.append("")
            ex_rows = [
                [
                    e["id"],
                    e["position"],
                    _cell(e["gold"]),
                    _cell(e["extracted"]),
                    e["reason"],
                    _cell(e["framework_extracted"]),
                    e["framework_score"],
                    e["ours"],
                ]
                for e in exs
            ]
            out.append(
                markdown_table(
                    ["id", "line/row", "gold", "ours extracted", "our reason", "fw extracted", "fw", "ours"],
                    ex_rows,
                    align="llllllrr",
                )
            )
            out.append("")
    return "\n".join(out)


def _esc(t: str) -> str:
    return t.replace("|", "\\|")


def _cell(v: Any) -> str:
    if v is None:
        return "—"
    t = str(v).replace("|", "\\|").replace("\n", " ")
    return f"`{t[:80]}`" if t else "``"
