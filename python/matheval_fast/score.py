"""Scoring a response file (protocol A) into per-item rows and accuracy tables.

Reads the seed's JSON format (an array of items with ``question``, ``answer``, ``type``,
``subtype``, ``level`` and a ``completion`` list, one entry per prompt), JSONL and Parquet with
configurable field names; one Type/Subtype/Level table per prompt with an overall total. The
command line is :mod:`matheval_fast.cli.score`.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matheval_fast._vocabulary import Compat, EvalPolicy, ExtractPolicy, Kind

__all__ = ["ScoreReport", "format_table", "read_records", "score_records"]


def read_records(path: Path) -> list[dict[str, Any]]:
    """Records from a seed JSON array, JSONL, or Parquet file."""
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        try:
            import pyarrow.parquet as pq
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ValueError("reading Parquet needs pyarrow: pip install 'matheval-fast[arrow]'") from exc
        return pq.read_table(path).to_pylist()
    text = path.read_text(encoding="utf-8")
    if suffix == ".jsonl":
        out = []
        for n, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path}:{n}: not valid JSON: {exc.msg}") from exc
        return out
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid JSON (line {exc.lineno}): {exc.msg}") from exc
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a JSON array of items")
    return data


@dataclass
class ScoreReport:
    """Per-item rows and the tables built from them."""

    rows: list[dict[str, Any]]
    prompts: int

    def table(self, prompt: int) -> list[tuple[str, str, str, int, int, int, float]]:
        """(Type, Subtype, Level, Correct, Incorrect, Total, Accuracy) rows plus an Overall row."""
        groups: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
        for r in self.rows:
            if r["prompt"] != prompt:
                continue
            g = groups[(r["type"], r["subtype"], str(r["level"]))]
            g[0 if r["correct"] else 1] += 1
        out = []
        for (t, s, lv), (c, i) in sorted(groups.items()):
            out.append((t, s, lv, c, i, c + i, c / (c + i)))
        c = sum(g[0] for g in groups.values())
        i = sum(g[1] for g in groups.values())
        out.append(("Overall", "", "", c, i, c + i, c / (c + i) if c + i else float("nan")))
        return out

    def summary(self) -> dict[str, Any]:
        per_prompt = []
        for p in range(self.prompts):
            rows = self.table(p)
            overall = rows[-1]
            per_prompt.append(
                {
                    "prompt": p,
                    "correct": overall[3],
                    "total": overall[5],
                    "accuracy": overall[6],
                    "reasons": dict(Counter(r["reason"] for r in self.rows if r["prompt"] == p)),
                    "paths": dict(Counter(r["path"] for r in self.rows if r["prompt"] == p)),
                    "by_group": [
                        {
                            "type": t,
                            "subtype": s,
                            "level": lv,
                            "correct": c,
                            "incorrect": i,
                            "total": n,
                            "accuracy": a,
                        }
                        for t, s, lv, c, i, n, a in rows[:-1]
                    ],
                }
            )
        return {"prompts": per_prompt}


def score_records(
    records: Sequence[dict[str, Any]],
    *,
    config: Any = None,
    compat: Compat = "fixed",
    response_field: str = "completion",
    gold_field: str = "answer",
    type_field: str = "type",
    subtype_field: str = "subtype",
    level_field: str = "level",
    threads: int | None = None,
    timeout: float | None = None,
    progress: bool = False,
) -> ScoreReport:
    """Score records: each record's policy comes from its type via the seed-format config."""
    from matheval_fast._sympy.pool import check_timeout
    from matheval_fast.answer import check_batch, load_config

    if timeout is not None:
        check_timeout(timeout)  # before any work
    cfg = load_config(config)
    flat: list[dict[str, Any]] = []
    prompts = 0
    for n, rec in enumerate(records):
        if not isinstance(rec, dict):
            raise ValueError(f"item {n} is not an object")
        if gold_field not in rec:
            raise ValueError(f"item {n} has no field {gold_field!r} (see --gold-field)")
        resp = rec.get(response_field)
        responses = resp if isinstance(resp, list) else [resp]
        prompts = max(prompts, len(responses))
        gold = rec[gold_field]
        gold = None if gold is None else str(gold)  # a numeric gold is the seed's silent-False trap
        for j, r in enumerate(responses):
            flat.append(
                {
                    "index": n,
                    "prompt": j,
                    "type": str(rec.get(type_field, "Default") or "Default"),
                    "subtype": str(rec.get(subtype_field, "") or ""),
                    "level": rec.get(level_field, 0),
                    "gold": gold,
                    "response": r if isinstance(r, str) or r is None else str(r),
                }
            )
    # One core lookup per dataset type, not per item.
    policies = {t: cfg.for_type(t) for t in {row["type"] for row in flat}}
    groups: dict[tuple[Kind, ExtractPolicy, EvalPolicy], list[int]] = defaultdict(list)
    for k, row in enumerate(flat):
        groups[policies[row["type"]]].append(k)
    for (kind, extract_policy, eval_policy), idx in groups.items():
        res = check_batch(
            [flat[k]["response"] for k in idx],
            [flat[k]["gold"] for k in idx],
            kinds=[kind] * len(idx),
            compat=compat,
            config=cfg,
            extract_policy=extract_policy,
            eval_policy=eval_policy,
            threads=threads,
            progress=progress,
            timeout=timeout,
        )
        for pos, k in enumerate(idx):
            flat[k].update(
                correct=bool(res.correct[pos]),
                reason=str(res.reason[pos]),
                extracted=res.extracted[pos],
                path=str(res.path[pos]),
            )
    return ScoreReport(flat, prompts)


def format_table(rows: list[tuple[str, str, str, int, int, int, float]]) -> str:
    head = ("Type", "Subtype", "Level", "Correct", "Incorrect", "Total", "Accuracy")
    cells = [head] + [(t, s, lv, str(c), str(i), str(n), f"{a:.4f}") for t, s, lv, c, i, n, a in rows]
    widths = [max(len(r[k]) for r in cells) for k in range(len(head))]
    line = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def fmt(r: tuple[str, ...]) -> str:
        cols = (v.ljust(w) if k < 3 else v.rjust(w) for k, (v, w) in enumerate(zip(r, widths, strict=True)))
        return "| " + " | ".join(cols) + " |"

    body = [fmt(r) for r in cells[1:]]
    return "\n".join([line, fmt(cells[0]), line, *body[:-1], line, body[-1], line])
