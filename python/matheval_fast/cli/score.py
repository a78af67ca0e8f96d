"""``matheval-fast score``: score a response file (protocol A) and print accuracy tables.

Writes per-item verdicts with reasons (JSONL) and ``summary.json`` beside them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from matheval_fast._report.files import atomic_write, write_json
from matheval_fast._sympy.pool import check_timeout
from matheval_fast.score import format_table, read_records, score_records

HELP = "score responses against reference answers (protocol A)"


def _seconds(text: str) -> float:
    """``--timeout``: a finite positive number of seconds (``nan``, ``inf`` and ``0`` are refused)."""
    try:
        return check_timeout(float(text))
    except (TypeError, ValueError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path, help="responses: seed JSON array, .jsonl, or .parquet")
    p.add_argument(
        "--config", type=Path, default=None, help="seed-format eval_config.json (default: the seed's)"
    )
    p.add_argument(
        "--compat", choices=["fixed", "xwin"], default="fixed", help="fixed (default) or the seed's verdicts"
    )
    p.add_argument(
        "--out", type=Path, default=None, help="per-item verdicts, JSONL (default: <file stem>.results.jsonl)"
    )
    p.add_argument(
        "--summary", type=Path, default=None, help="summary JSON (default: summary.json beside --out)"
    )
    p.add_argument("--response-field", default="completion", help="field with the response (str or list)")
    p.add_argument("--gold-field", default="answer")
    p.add_argument("--type-field", default="type")
    p.add_argument("--subtype-field", default="subtype")
    p.add_argument("--level-field", default="level")
    p.add_argument("--threads", type=int, default=None, help="Rust worker threads (default: all cores)")
    p.add_argument("--timeout", type=_seconds, default=5.0, help="seconds per SymPy fallback comparison")
    p.add_argument("--quiet", action="store_true", help="no tables on stdout")


def run(args: argparse.Namespace) -> int:
    records = read_records(args.file)
    report = score_records(
        records,
        config=args.config,
        compat=args.compat,
        response_field=args.response_field,
        gold_field=args.gold_field,
        type_field=args.type_field,
        subtype_field=args.subtype_field,
        level_field=args.level_field,
        threads=args.threads,
        timeout=args.timeout,
        progress=sys.stderr.isatty(),
    )
    out = args.out or Path(f"{args.file.stem}.results.jsonl")
    out.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(out) as f:
        for r in report.rows:
            f.write(
                json.dumps(
                    {
                        k: r[k]
                        for k in (
                            "index",
                            "prompt",
                            "type",
                            "subtype",
                            "level",
                            "gold",
                            "extracted",
                            "correct",
                            "reason",
                            "path",
                        )
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
    summary_path = args.summary or out.parent / "summary.json"
    summary = {"file": str(args.file), "compat": args.compat, **report.summary()}
    write_json(summary_path, summary)
    if not args.quiet:
        for p in range(report.prompts):
            print(f"prompt {p} ({args.compat} mode)")
            print(format_table(report.table(p)))
            reasons = summary["prompts"][p]["reasons"]
            print("reasons: " + ", ".join(f"{k}={v}" for k, v in sorted(reasons.items())))
        print(f"verdicts: {out}\nsummary:  {summary_path}")
    return 0
