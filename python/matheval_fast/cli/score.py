"""``matheval-fast score``: score a response file (protocol A) and print accuracy tables.

Streams the file in bounded batches (JSON Lines, gzipped or not, ``-`` for stdin; Parquet; the
seed's JSON array) and writes per-item verdicts (``--out``: ``.jsonl`` or ``.parquet``), with
``<out stem>.summary.json`` and ``<out stem>.rejected.jsonl`` (records that could not be scored,
with their 1-based line and the reason) beside it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from matheval_fast._pipeline import use_streaming_memory_pool
from matheval_fast.cli import add_checking_arguments, add_engine_arguments, int_range, notes
from matheval_fast.score import default_out, format_table, response_fields, score_file

if TYPE_CHECKING:
    from matheval_fast.io.responses import ResponseFields

HELP = "score responses against reference answers (protocol A)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "file", help="responses: .jsonl (also .gz, or - for stdin), .parquet, or a seed JSON array"
    )
    p.add_argument(
        "--config", type=Path, default=None, help="seed-format eval_config.json (default: the seed's)"
    )
    p.add_argument(
        "--compat", choices=["fixed", "xwin"], default="fixed", help="fixed (default) or the seed's verdicts"
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help="per-item verdicts, .jsonl or .parquet (default: <file stem>.results.jsonl)",
    )
    p.add_argument(
        "--out-format", choices=["jsonl", "parquet"], default=None, help="default: from --out's suffix"
    )
    p.add_argument(
        "--input-format",
        choices=["jsonl", "json", "parquet"],
        default=None,
        help="default: from the name/content",
    )
    p.add_argument(
        "--summary", type=Path, default=None, help="summary JSON (default: <out stem>.summary.json)"
    )
    p.add_argument(
        "--response-field",
        default=None,
        metavar="PATH",
        help="field with the response, a string or a list of strings (default: 'completion'; when the "
        "first record has none, the first of 'response', 'output', 'prediction' it has)",
    )
    p.add_argument(
        "--gold-field",
        default=None,
        metavar="PATH",
        help="field with the reference answer (default: 'answer'; when the first record has none, the "
        "first of 'gold', 'target', 'ground_truth' it has)",
    )
    p.add_argument(
        "--type-field", default="type", help="field with the dataset type (picks the config's policy)"
    )
    p.add_argument("--subtype-field", default="subtype")
    p.add_argument("--level-field", default="level")
    p.add_argument(
        "--id-field",
        action="append",
        default=[],
        metavar="PATH",
        help="field copied to every output row (repeatable)",
    )
    p.add_argument(
        "--on-error",
        choices=["skip", "fail"],
        default="skip",
        help="a record that cannot be scored: skip it (counted, in <stem>.rejected.jsonl; default) or stop",
    )
    p.add_argument(
        "--finite-decimals",
        choices=["exact", "written_precision"],
        default="exact",
        help="a gold with a finite decimal form is exact (default), or decimals match at the coarser "
        "written precision (see docs/policies.md)",
    )
    add_checking_arguments(p)
    p.add_argument(
        "--batch-rows", type=int_range(1), default=65_536, help="records per batch, >= 1 (bounds memory)"
    )
    add_engine_arguments(p, "ray (Ray Data; --out is a directory of Parquet)")
    p.add_argument(
        "--report",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="also write <out stem>.report.html, one page to open in a browser (default: off)",
    )
    p.add_argument("--quiet", action="store_true", help="no tables on stdout")


def run(args: argparse.Namespace) -> int:
    out = args.out or default_out(args.file)
    use_streaming_memory_pool()
    with notes("score"):
        summary = _score(args, out)
    if args.report:
        from matheval_fast._report.html import write_score_report

        fields = _fields(args)
        write_score_report(summary, source=args.file, fields=fields, input_format=args.input_format)
    if not args.quiet:
        for p in summary["prompts"]:
            rows = [
                (g["type"], g["subtype"], g["level"], g["correct"], g["incorrect"], g["total"], g["accuracy"])
                for g in p["by_group"]
            ]
            rows.append(
                ("Overall", "", "", p["correct"], p["total"] - p["correct"], p["total"], p["accuracy"])
            )
            print(f"prompt {p['prompt']} ({args.compat} mode)")
            print(format_table(rows))
            print("reasons: " + ", ".join(f"{k}={v}" for k, v in sorted(p["reasons"].items())))
        if summary["rejected"]:
            print(f"rejected: {summary['rejected']} records (see {summary['outputs']['rejected']})")
        print(f"verdicts: {summary['outputs']['items']}\nsummary:  {summary['outputs']['summary']}")
    return 0


def _fields(args: argparse.Namespace) -> ResponseFields:
    """The record fields the command line names (the Ray engine and the report read them)."""
    return response_fields(
        args.response_field,
        args.gold_field,
        args.type_field,
        args.subtype_field,
        args.level_field,
        args.id_field,
    )


def _score(args: argparse.Namespace, out: Path) -> dict:
    if args.engine == "ray":
        from matheval_fast.distributed import score_with_ray

        if args.out is None:
            raise ValueError("--engine ray needs --out DIR (a directory of Parquet files)")
        fields = _fields(args)
        return score_with_ray(
            args.file,
            args.out,
            fields=fields,
            config=args.config,
            compat=args.compat,
            timeout=args.timeout,
            input_format=args.input_format,
            address=args.address,
            finite_decimals=args.finite_decimals,
        )
    return score_file(
        args.file,
        out,
        summary_path=args.summary,
        out_format=args.out_format,
        input_format=args.input_format,
        config=args.config,
        compat=args.compat,
        response_field=args.response_field,
        gold_field=args.gold_field,
        type_field=args.type_field,
        subtype_field=args.subtype_field,
        level_field=args.level_field,
        id_fields=args.id_field,
        threads=args.threads,
        timeout=args.timeout,
        on_error=args.on_error,
        batch_rows=args.batch_rows,
        progress=sys.stderr.isatty(),
        finite_decimals=args.finite_decimals,
    )
