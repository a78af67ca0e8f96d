"""``matheval-fast compare``: several graders on the same logged items, side by side.

A thin shell over :func:`matheval_fast.compare.compare`.
"""

from __future__ import annotations

import argparse
import sys

from matheval_fast.cli import notes, seconds_arg
from matheval_fast.cli.rescore import add_logs_arguments

HELP = "grade logged items with ours (fixed, xwin), the log's own metrics and math-verify; tables + plot"


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_logs_arguments(p)
    p.add_argument(
        "--math-verify",
        choices=["auto", "on", "off"],
        default="auto",
        help="the math-verify peer: when installed (auto), required (on) or not (off)",
    )
    p.add_argument(
        "--peer-timeout",
        type=seconds_arg,
        default=30.0,
        help="seconds math-verify may take per item (> 0; default 30)",
    )
    p.add_argument(
        "--report",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="write report.html, one page to open in a browser (default: on)",
    )
    p.add_argument("--quiet", action="store_true", help="no table on stdout")


def run(args: argparse.Namespace) -> int:
    from matheval_fast.compare import compare
    from matheval_fast.io.logs import ReadOptions

    read = ReadOptions(
        samples=args.samples,
        response_field=args.response_field,
        gold_field=args.gold_field,
        id_fields=tuple(args.id_field),
        metric=args.metric,
        task=args.task,
        model=args.model,
        strict=args.strict,
    )
    with notes("compare"):  # files skipped or read once, said on stderr
        report = compare(
            args.logs,
            args.out,
            math_verify=args.math_verify,
            peer_timeout=args.peer_timeout,
            format=args.format,
            read=read,
            config=args.config,
            threads=args.threads,
            timeout=args.timeout,
            progress=sys.stderr.isatty(),
        )
    if args.report:
        from matheval_fast._report.html import write_compare_report

        write_compare_report(report, args.out, args.logs, read=read, format=args.format)
    if not args.quiet:
        text = (args.out / "compare.md").read_text(encoding="utf-8")
        print(text.split("\n### ")[0].rstrip())
        print(
            f"\n{report.items:,} items from {report.records + report.malformed:,} records read "
            f"({report.malformed:,} malformed, not graded); outputs in {args.out} "
            "(compare.md, compare.json, disagreement.png, items.parquet)"
        )
    return 0
