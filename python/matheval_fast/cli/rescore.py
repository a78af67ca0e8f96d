"""``matheval-fast rescore``: rescore evaluation logs and set our verdicts beside the framework's.

A thin shell over :func:`matheval_fast.rescore.rescore` (see there for the outputs).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from matheval_fast.cli import add_checking_arguments, add_engine_arguments, int_range, notes

HELP = (
    "rescore evaluation logs (lm-eval, lighteval, OpenCompass, Qwen2.5-Math, EvalScope, seed) "
    "next to their own scores"
)


def add_logs_arguments(p: argparse.ArgumentParser) -> None:
    """The reading options ``rescore`` and ``compare`` share."""
    from matheval_fast.io.logs import FORMATS

    p.add_argument(
        "logs",
        nargs="+",
        type=Path,
        help="log files, or folders searched for samples_*.jsonl, details_*.parquet, results/*/*.json, "
        "test_*.jsonl, reviews/*/*.jsonl",
    )
    p.add_argument("--out", type=Path, required=True, help="output folder")
    p.add_argument(
        "--format",
        choices=list(FORMATS),
        default=None,
        help="force the log format (default: from the content)",
    )
    p.add_argument(
        "--samples",
        choices=["first", "all"],
        default="first",
        help="score each record's first sample (default) or every sample",
    )
    p.add_argument("--metric", default=None, help="the framework metric to compare with (default: its first)")
    p.add_argument("--response-field", default=None, help="dotted path of the response (e.g. resps.0)")
    p.add_argument("--gold-field", default=None, help="dotted path of the gold (e.g. doc.answer)")
    p.add_argument(
        "--id-field",
        action="append",
        default=[],
        metavar="PATH",
        help="dotted path copied to every output (repeatable), e.g. doc.unique_id",
    )
    p.add_argument("--task", default=None, help="task name (default: from the file name)")
    p.add_argument("--model", default=None, help="model name (default: from the folders)")
    p.add_argument("--strict", action="store_true", help="stop at the first malformed record")
    p.add_argument("--config", type=Path, default=None, help="seed-format config: per-task checker policies")
    add_checking_arguments(p)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_logs_arguments(p)
    p.add_argument(
        "--agg",
        choices=["auto", "mean", "any", "majority"],
        default="auto",
        help="with --samples all: how a record's samples give its score for the framework's primary "
        "metric: auto (default: as the metric or filter name says: maj@k = majority answer of the first "
        "k, pass@k = pass@k estimate, pass@1 over n = mean, else the first sample), mean, any or majority. "
        "Every other metric of the log is compared with the aggregate its name says",
    )
    p.add_argument(
        "--compat", choices=["fixed", "xwin"], default="fixed", help="fixed (default) or the seed's verdicts"
    )
    p.add_argument("--items-format", choices=["parquet", "jsonl"], default="parquet", help="per-item output")
    p.add_argument(
        "--keep-response", action="store_true", help="include the response text in the per-item output"
    )
    p.add_argument(
        "--copy",
        action="store_true",
        help="also write a rescored copy of each log in its own format (the whole log again: "
        "3.5 GB for a million 5-shot lm-eval lines)",
    )
    # Earlier releases wrote the copy unless --no-copy; the flag is still accepted.
    p.add_argument("--no-copy", action="store_true", help=argparse.SUPPRESS)
    p.add_argument(
        "--examples",
        type=int_range(0),
        default=3,
        help="examples per reason and per kind in the summary, >= 0 (default 3)",
    )
    add_engine_arguments(p, "ray (one Ray task per log file; the outputs are the same)")
    p.add_argument(
        "--report",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="write report.html, one page to open in a browser (default: on)",
    )
    p.add_argument("--quiet", action="store_true", help="no table on stdout")


def run(args: argparse.Namespace) -> int:
    from matheval_fast._pipeline import use_streaming_memory_pool
    from matheval_fast.rescore import RescoreOptions, rescore, summary_markdown

    use_streaming_memory_pool()

    opts = RescoreOptions(
        compat=args.compat,
        format=args.format,
        samples=args.samples,
        agg=args.agg,
        metric=args.metric,
        response_field=args.response_field,
        gold_field=args.gold_field,
        id_fields=tuple(args.id_field),
        task=args.task,
        model=args.model,
        strict=args.strict,
        config=args.config,
        copy=args.copy and not args.no_copy,
        items_format=args.items_format,
        keep_response=args.keep_response,
        threads=args.threads,
        timeout=args.timeout,
        examples=args.examples,
        progress=sys.stderr.isatty(),
        engine=args.engine,
        address=args.address,
    )
    with notes("rescore"):  # files skipped or read once, said on stderr
        report = rescore(args.logs, args.out, opts)
    summary = report.summary()
    if args.report:
        from matheval_fast._report.html import write_rescore_report

        write_rescore_report(summary, args.out)
    if not args.quiet:
        print(summary_markdown(summary).split("\n## ")[0].rstrip())
        bad = sum(f["malformed"] for f in summary["files"])
        print(f"\n{report.rows:,} rows in {report.seconds:.2f} s; malformed records: {bad}")
        print(f"summary: {summary['outputs']['markdown']} (and summary.json), items: {args.out / 'items'}")
    return 0
