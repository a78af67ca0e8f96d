"""Judging a file end to end: check everything that can fail before sending, run, write the outputs.

:func:`judge_file` is what ``matheval-fast judge`` calls: it validates the whole input (fields,
labels) and the store, runs :func:`~matheval_fast.judge.run.run_judge`, then writes

- ``items.jsonl``: one line per input item (verdict, status, reason, votes, answers, labels, groups,
  tokens, latency, attempts, store key),
- ``summary.json`` / ``summary.md``: counts, tokens and cost, agreement with the human labels overall
  and per group with bootstrap and Wilson intervals, agreement between label fields.

:func:`dry_run_file` estimates tokens and cost without sending anything.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from matheval_fast._report.files import json_text, output_set
from matheval_fast._report.tables import markdown_table
from matheval_fast.judge.client import Secret
from matheval_fast.judge.cost import TokenEstimator
from matheval_fast.judge.data import DatasetSpec, ScanResult, iter_items, scan
from matheval_fast.judge.metrics import AgreementCounter, pairwise_kappa, summarize_counts
from matheval_fast.judge.run import (
    DryRunEstimate,
    JudgeConfig,
    RunStats,
    check_endpoint,
    collect,
    estimate,
    run_async,
    run_judge,
)
from matheval_fast.judge.store import RunStore

__all__ = [
    "JudgeReport",
    "config_with_price",
    "dry_run_file",
    "format_estimate",
    "format_summary",
    "judge_file",
    "open_store",
]

#: the files a run writes into ``out``, published together (the store is not one of them: it is
#: written as answers arrive, so that --resume can continue)
OUTPUTS = ("items.jsonl", "summary.json", "summary.md")


@dataclass
class JudgeReport:
    summary: dict[str, Any]
    stats: RunStats
    out: Path

    @property
    def aborted(self) -> str | None:
        return self.stats.aborted


def dataset_spec(
    path: Path,
    cfg: JudgeConfig,
    *,
    fields: Mapping[str, str] | None = None,
    label_fields: tuple[str, ...] | None = None,
    group_fields: tuple[str, ...] | None = None,
    limit: int | None = None,
) -> DatasetSpec:
    return DatasetSpec(
        path=Path(path),
        inputs=cfg.template.inputs,
        fields=dict(fields or {}),
        label_fields=label_fields if label_fields is not None else ("label",),
        labels_explicit=label_fields is not None,
        group_fields=group_fields,
        limit=limit,
    )


def open_store(path: Path, *, resume: bool) -> RunStore:
    """Open the run store; refuse to reuse a non-empty one without ``resume``."""
    if path.exists() and not resume:
        with RunStore(path) as probe:
            n = probe.count()
        if n:
            raise ValueError(
                f"{path} already holds {n:,} judged requests: pass --resume to continue that run "
                "(finished requests are not sent again), or choose another --out / --store"
            )
    return RunStore(path)


def check_store(path: Path, *, resume: bool) -> None:
    """Fail now, not after the input's scan, on a store that cannot be used: one that holds a run
    (without ``resume``), a file that is no store (:func:`open_store` says which), or a new store
    whose folder cannot be made or written. A new store is not created here: a run that fails
    before its first request leaves no empty store behind."""
    if path.exists() or path.is_symlink():
        open_store(path, resume=resume).close()
        return
    d = path.parent
    while not d.exists() and d != d.parent:
        d = d.parent
    if not d.is_dir():
        raise ValueError(f"run store {path}: {d} is a file, not a folder; name a store (--store) in a folder")
    if not os.access(d, os.W_OK | os.X_OK):
        raise ValueError(
            f"run store {path}: cannot write in {d}; name a store (--store) in a folder you can write to"
        )


def judge_file(
    responses: str | Path,
    out: str | Path,
    cfg: JudgeConfig,
    *,
    api_key: Secret | None,
    fields: Mapping[str, str] | None = None,
    label_fields: tuple[str, ...] | None = None,
    group_fields: tuple[str, ...] | None = None,
    limit: int | None = None,
    store_path: str | Path | None = None,
    resume: bool = False,
    unparseable: Literal["exclude", "as-no"] = "exclude",
    n_boot: int = 2000,
    progress: bool = False,
    progress_every: float = 10.0,
    workers: int = 1,
) -> JudgeReport:
    """Judge every item of ``responses`` and write ``items.jsonl``, ``summary.json``, ``summary.md``
    under ``out``. Raises ``ValueError`` for bad input before anything is sent, and
    :class:`~matheval_fast.judge.client.EndpointError` when the endpoint cannot be used.
    ``workers > 1`` runs the requests in that many processes (:mod:`~matheval_fast.judge.parallel`)."""
    out = Path(out)
    spec = dataset_spec(
        Path(responses), cfg, fields=fields, label_fields=label_fields, group_fields=group_fields, limit=limit
    )
    store_file = Path(store_path) if store_path is not None else out / "judge.sqlite"
    # The outputs' temporary files first (an --out that cannot be written fails before anything is
    # sent), renamed together at the end; the store keeps every answer as it arrives (--resume).
    with output_set([out / name for name in OUTPUTS], inputs=[spec.path, store_file]) as files:
        check_store(store_file, resume=resume)  # before anything is sent
        # Fail fast on the endpoint (seconds), then on the input (one pass over it), then run.
        if cfg.preflight:
            run_async(check_endpoint(cfg, api_key=api_key))
            cfg = replace(cfg, preflight=False)
        scanned = scan(spec)
        spec = scanned.spec
        with open_store(store_file, resume=resume) as store:
            if workers > 1:
                from matheval_fast.judge.parallel import run_judge_parallel

                stats = run_judge_parallel(
                    spec,
                    store_file,
                    cfg,
                    api_key=api_key,
                    workers=workers,
                    total=scanned.n_items,
                    progress=progress,
                    progress_every=progress_every,
                )
            else:
                stats = run_async(
                    run_judge(
                        iter_items(spec),
                        store,
                        cfg,
                        api_key=api_key,
                        total=scanned.n_items,
                        progress=progress,
                        progress_every=progress_every,
                    )
                )
            counter = AgreementCounter(spec.group_fields or (), unparseable=unparseable)
            with open(files.path("items.jsonl"), "w", encoding="utf-8") as fh:
                cs = collect(iter_items(spec), store, cfg, counter, label_fields=spec.label_fields, out=fh)
            totals = store.totals()
        agreement = summarize_counts(counter, n_boot=n_boot)
        summary: dict[str, Any] = {
            "input": str(spec.path),
            "store": str(store_file),
            "config": cfg.describe(),
            "fields": {name: spec.key(name) for name in (*cfg.template.inputs, "id")},
            "labels": {
                "fields": list(spec.label_fields),
                "gold": scanned.n_gold,
                "gold_positive": scanned.n_gold_positive,
                "split": scanned.n_split,
                "unlabeled": scanned.n_unlabeled,
            },
            "group_fields": list(spec.group_fields or ()),
            "items": {
                "total": cs.items,
                "done": cs.done,
                "failed": cs.failed,
                "pending": cs.pending,
                "yes": cs.yes,
                "no": cs.no,
                "unparseable": cs.unparseable,
            },
            "this_run": stats.to_dict(),
            "tokens": {
                "this_run": {"prompt": stats.prompt_tokens, "completion": stats.completion_tokens},
                "store_total": {"prompt": totals["prompt_tokens"], "completion": totals["completion_tokens"]},
            },
            "cost": None,
            "agreement": agreement,
            "label_agreement": pairwise_kappa({k: tuple(v) for k, v in cs.label_pairs.items()}),
            "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        if cfg.price is not None:
            summary["cost"] = {
                "currency": cfg.price.currency,
                "this_run": stats.cost,
                "store_total": cfg.price.cost(totals["prompt_tokens"], totals["completion_tokens"]),
            }
        files.path("summary.json").write_text(json_text(summary, indent=1), encoding="utf-8")
        files.path("summary.md").write_text(format_summary(summary) + "\n", encoding="utf-8")
    return JudgeReport(summary, stats, out)


def dry_run_file(
    responses: str | Path,
    out: str | Path,
    cfg: JudgeConfig,
    *,
    fields: Mapping[str, str] | None = None,
    label_fields: tuple[str, ...] | None = None,
    group_fields: tuple[str, ...] | None = None,
    limit: int | None = None,
    store_path: str | Path | None = None,
    tokenizer: str | Path | None = None,
) -> tuple[DryRunEstimate, ScanResult]:
    """Estimate what :func:`judge_file` would send (no network); writes ``OUT/dry_run.json``."""
    out = Path(out)
    spec = dataset_spec(
        Path(responses), cfg, fields=fields, label_fields=label_fields, group_fields=group_fields, limit=limit
    )
    store_file = Path(store_path) if store_path is not None else out / "judge.sqlite"
    with output_set([out / "dry_run.json"], inputs=[spec.path, store_file]) as files:
        scanned = scan(spec)
        estimator = TokenEstimator(tokenizer)
        if store_file.exists():
            with RunStore(store_file) as store:
                est = estimate(iter_items(scanned.spec), cfg, store=store, estimator=estimator)
        else:
            est = estimate(iter_items(scanned.spec), cfg, estimator=estimator)
        files.path("dry_run.json").write_text(
            json_text(
                {"input": str(spec.path), "config": cfg.describe(), "estimate": est.to_dict()}, indent=1
            ),
            encoding="utf-8",
        )
    return est, scanned


# ---- Markdown ------------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.2f}"


def _ci(entry: Mapping[str, Any], name: str) -> str:
    ci = entry.get("ci", {}).get(name)
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]" if ci else ""


def format_estimate(est: DryRunEstimate, cfg: JudgeConfig) -> str:
    rows = [
        ("items", f"{est.items:,}"),
        ("already finished in the store", f"{est.already_finished:,}"),
        ("duplicate requests", f"{est.duplicates:,}"),
        ("items to send", f"{est.to_send:,}"),
        ("requests", f"{est.requests:,}"),
        (f"prompt tokens ({est.token_method})", f"{est.prompt_tokens:,}"),
        (
            f"completion tokens, expected ({cfg.template.expected_output_tokens}/sample)",
            f"{est.completion_tokens_expected:,}",
        ),
        ("completion tokens, at most (max_tokens)", f"{est.completion_tokens_max:,}"),
    ]
    if est.cost_expected is not None:
        rows.append((f"cost expected ({est.currency})", f"{est.cost_expected:,.4f}"))
        rows.append((f"cost at most ({est.currency})", f"{est.cost_max:,.4f}"))
    else:
        rows.append(("cost", "no --price-table given"))
    return markdown_table(["dry run", "value"], rows, align="lr")


_METRIC_ROWS = [
    ("accuracy", "Accuracy"),
    ("macro_f1", "Macro-F1 (paper's F1)"),
    ("positive_f1", "Positive-class F1"),
    ("eval_rate", "Eval (judge Yes rate)"),
    ("gold_rate", "Human Yes rate"),
    ("precision", "Precision"),
    ("recall", "Recall"),
]


def format_summary(summary: Mapping[str, Any]) -> str:
    cfg = summary["config"]
    items = summary["items"]
    run = summary["this_run"]
    parts = [
        f"# Judge: {cfg['template']['name']} ({cfg['template']['version']}) with {cfg['model']}",
        "",
        f"Input `{summary['input']}`; endpoint `{cfg['base_url']}`.",
        f"Yes means: {cfg['template']['positive']}.",
        "",
    ]
    rate = run.get("items_per_s")
    count_rows = [
        ("items", items["total"]),
        ("judged Yes / No / unparseable", f"{items['yes']} / {items['no']} / {items['unparseable']}"),
        ("failed", items["failed"]),
        ("not judged yet", items["pending"]),
        ("sent by this run", run["sent"]),
        ("reused from the store", run["reused"]),
        ("HTTP requests (retries included)", run["requests"]),
        ("tokens this run (prompt / completion)", f"{run['prompt_tokens']:,} / {run['completion_tokens']:,}"),
        ("judged per second", f"{rate:,.1f}" if rate else ""),
    ]
    if summary.get("cost"):
        c = summary["cost"]
        count_rows.append(
            (
                f"cost this run / whole store ({c['currency']})",
                f"{c['this_run']:.4f} / {c['store_total']:.4f}",
            )
        )
    parts += [markdown_table(["run", "value"], [(a, str(b)) for a, b in count_rows], align="lr"), ""]
    agreement = summary["agreement"]
    overall = agreement["overall"]
    labels = summary["labels"]
    if overall.get("scored"):
        conf = round(100 * overall["confidence"])
        parts.append(
            f"## Agreement with human labels ({', '.join(labels['fields'])}; "
            f"{overall['scored']} scored items, unparseable verdicts: {agreement['unparseable_policy']})"
        )
        parts.append("")
        rows = [(f"{label} (%)", _pct(overall[name]), _ci(overall, name)) for name, label in _METRIC_ROWS]
        kappa_ci = overall.get("ci", {}).get("kappa")
        rows.insert(
            5,
            (
                "Cohen's kappa",
                f"{overall['kappa']:.3f}",
                f"[{kappa_ci[0]:.3f}, {kappa_ci[1]:.3f}]" if kappa_ci else "",
            ),
        )
        parts.append(markdown_table(["metric", "value", f"{conf}% bootstrap CI"], rows, align="lrr"))
        parts.append("")
        parts.append(
            f"Confusion (judge vs human, positive = Yes): TP {overall['tp']}, FP {overall['fp']}, "
            f"FN {overall['fn']}, TN {overall['tn']}; not scored: {overall['unparseable']} unparseable, "
            f"{overall['no_verdict']} without verdict, {overall['unlabeled']} without gold label."
        )
        parts.append("")
        for group, table in agreement["by_group"].items():
            parts.append(f"### By {group}")
            parts.append("")
            rows = []
            for value, e in table.items():
                if e.get("scored"):
                    rows.append(
                        (
                            value,
                            e["scored"],
                            _pct(e["accuracy"]),
                            _pct(e["macro_f1"]),
                            _pct(e["positive_f1"]),
                            _pct(e["eval_rate"]),
                            _pct(e["gold_rate"]),
                            f"{e['kappa']:.3f}",
                        )
                    )
                else:
                    rows.append((value, 0, "", "", "", "", "", ""))
            head = [group, "n", "Acc", "Macro-F1", "Pos-F1", "Eval", "Human Yes", "kappa"]
            parts += [markdown_table(head, rows, align="lrrrrrrr"), ""]
    else:
        parts += ["No item has both a gold label and a Yes/No verdict: no agreement metrics.", ""]
    if summary.get("label_agreement"):
        rows = [
            (
                f"{e['a']} vs {e['b']}",
                e["n"],
                _pct(e.get("agreement")),
                f"{e['kappa']:.3f}" if e.get("kappa") is not None else "",
            )
            for e in summary["label_agreement"]
        ]
        parts += [
            "## Agreement between label fields",
            "",
            markdown_table(["pair", "n", "agree %", "kappa"], rows),
            "",
        ]
    reasons = run.get("failure_reasons") or {}
    if reasons:
        parts += [
            "## Failures this run",
            "",
            markdown_table(["reason", "items"], list(reasons.items()), align="lr"),
            "",
        ]
    if run.get("aborted"):
        parts += [f"**Run stopped early:** {run['aborted']}", ""]
    return "\n".join(parts).rstrip()


def config_with_price(cfg: JudgeConfig, price_table: Any) -> JudgeConfig:
    """``cfg`` with the model's price from a :class:`~matheval_fast.judge.cost.PriceTable`."""
    return replace(cfg, price=price_table.price(cfg.model))
