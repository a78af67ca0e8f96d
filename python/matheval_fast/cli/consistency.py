"""``matheval-fast consistency``: Siegel-Tukey on paired prompts' scores and NLI text consistency
(protocol D). Writes ``pairs.jsonl``, ``summary.json``, ``summary.md`` and ``pvalues.png``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from matheval_fast._report.files import json_text, output_set
from matheval_fast._report.png import write_histogram
from matheval_fast.cli import float_range, int_range
from matheval_fast.consistency import DEFAULT_FIELDS, TESTS, evaluate, format_table, load_pairs, summarize

HELP = "self-evaluation consistency on paired prompts: Siegel-Tukey on scores and NLI (protocol D)"


def _field_override(text: str) -> tuple[str, str]:
    name, sep, key = text.partition("=")
    if not sep or name not in DEFAULT_FIELDS or not key:
        names = ", ".join(DEFAULT_FIELDS)
        raise argparse.ArgumentTypeError(f"expected NAME=KEY with NAME one of {names}, got {text!r}")
    return name, key


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="JSONL of pairs {id, topic, q, q_prime, responses, ...}")
    parser.add_argument("--nli-model", type=Path, help="ONNX NLI model directory (models.NLIModel)")
    parser.add_argument(
        "--alpha",
        type=float_range(0, 1, lo_open=True, hi_open=True),
        default=0.05,
        help="significance level, between 0 and 1 (default 0.05)",
    )
    parser.add_argument("--alternative", choices=["two-sided", "greater", "less"], default="two-sided")
    parser.add_argument("--method", choices=["auto", "exact", "asymptotic"], default="auto")
    parser.add_argument("--variant", choices=["exact", "desctools"], default="exact")
    parser.add_argument(
        "--direction",
        choices=["others_entail_self", "self_entails_others"],
        default="others_entail_self",
        help="NLI order for TC_i: premise r_j, hypothesis r_i (default) or the reverse",
    )
    parser.add_argument(
        "--entailment-label",
        help="with --nli-model: use the model's .predict() column with this label instead of .entailment()",
    )
    parser.add_argument(
        "--field",
        action="append",
        default=[],
        type=_field_override,
        metavar="NAME=KEY",
        help="read field NAME from JSON key KEY (repeatable), e.g. --field q=question",
    )
    parser.add_argument(
        "--batch-size", type=int_range(1), default=256, help="NLI pairs per model call, >= 1 (default 256)"
    )
    parser.add_argument("--out", type=Path, default=Path("out/consistency"), help="output directory")


#: the files a run writes into --out, published together
OUTPUTS = ("pairs.jsonl", "summary.json", "summary.md", "pvalues.png")


def run(args: argparse.Namespace) -> int:
    if args.entailment_label is not None and args.nli_model is None:
        raise ValueError("--entailment-label picks a label of --nli-model's output: pass --nli-model DIR too")
    # The outputs' temporary files first: an --out that cannot be written fails before the work.
    with output_set([args.out / name for name in OUTPUTS], inputs=[args.file]) as files:
        table, results, renderer = _evaluate(args, files.path)
    print(table)
    skipped = sum(r.tc.status == "skipped" for r in results)
    if skipped:
        note = "no --nli-model and no tc fields"
        print(f"\ntext consistency skipped for {skipped} pair(s): {note}", file=sys.stderr)
    written = ", ".join(OUTPUTS)
    print(f"\nwrote {written} to {args.out} (histogram: {renderer})", file=sys.stderr)
    return 0


def _evaluate(args: argparse.Namespace, tmp: Callable[[str], Path]) -> tuple[str, list[Any], str]:
    """The work of a run, written into the temporary files ``tmp(name)``; returns the table, the
    per-pair results and the histogram's renderer."""
    pairs = load_pairs(args.file, dict(args.field))
    scorer = None
    if args.nli_model is not None:
        from matheval_fast import models

        scorer = models.NLIModel(args.nli_model)
    results = evaluate(
        pairs,
        scorer,
        alpha=args.alpha,
        alternative=args.alternative,
        method=args.method,
        variant=args.variant,
        direction=args.direction,
        entailment_label=args.entailment_label,
        batch_size=args.batch_size,
        progress=True,
    )
    rows = summarize(pairs, results)
    with open(tmp("pairs.jsonl"), "w", encoding="utf-8") as fh:
        for r in results:
            fh.write(json.dumps(r.to_dict(), ensure_ascii=False) + "\n")
    summary = {
        "file": str(args.file),
        "alpha": args.alpha,
        "alternative": args.alternative,
        "method": args.method,
        "variant": args.variant,
        "direction": args.direction,
        "tc_source": "nli-model" if scorer is not None else "file or skipped",
        "rows": [asdict(r) for r in rows],
    }
    tmp("summary.json").write_text(json_text(summary, indent=1), encoding="utf-8")
    table = format_table(rows)
    tmp("summary.md").write_text(table + "\n", encoding="utf-8")
    series = {
        test: np.array([getattr(r, test).pvalue for r in results], dtype=np.float64)
        for test in TESTS
        if any(getattr(r, test).status != "skipped" for r in results)
    }
    renderer = write_histogram(tmp("pvalues.png"), series, args.alpha, marker_label=f"alpha = {args.alpha}")
    return table, results, renderer
