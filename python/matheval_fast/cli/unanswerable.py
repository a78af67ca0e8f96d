"""``matheval-fast unanswerable``: protocol B, "did the model say the problem cannot be answered?" on
UMWP or SelfAware outputs, as the papers' eval scripts compute it. Writes ``items.jsonl``,
``summary.json``, ``summary.md`` and ``scores.png``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from matheval_fast.cli import float_range, int_range

HELP = "unanswerable-problem detection on UMWP / SelfAware outputs: P/R/F1/Acc as the papers (protocol B)"


def _switch(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name or not value:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE (e.g. capital_i=word), got {text!r}")
    return name, value


def _field_override(text: str) -> tuple[str, str]:
    name, sep, key = text.partition("=")
    if not sep or name not in ("text", "id") or not key:
        raise argparse.ArgumentTypeError(f"expected text=KEY or id=KEY, got {text!r}")
    return name, key


#: a cosine similarity: the threshold is compared with one
_threshold = float_range(-1, 1)
#: the integer switches (window, math_items) count words or items: at least one
_count = int_range(1)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "outputs",
        type=Path,
        help="model outputs: JSONL, JSON array or Parquet; UMWP: the 7 dataset fields + generated_text, "
        "SelfAware: the dataset fields + output (lower-cased, as its harness saves it)",
    )
    parser.add_argument("--preset", choices=["umwp", "selfaware"], required=True, help="which paper's script")
    parser.add_argument(
        "--model", type=Path, help="ONNX sentence-embedding model directory (models.Embedder)"
    )
    parser.add_argument(
        "--pooling",
        choices=["cls", "mean", "pooler"],
        default=None,
        help="how --model pools token states into a sentence vector, for a directory without "
        "matheval.json (cls: unsupervised SimCSE, mean: sentence-transformers, pooler: supervised SimCSE)",
    )
    parser.add_argument(
        "--max-length",
        type=int_range(1),
        default=None,
        help="--model's token limit per text, >= 1 (default: matheval.json, else the tokenizer's)",
    )
    parser.add_argument(
        "--threshold",
        type=_threshold,
        default=None,
        help="cosine threshold, strict >, from -1 to 1 (default 0.75)",
    )
    parser.add_argument(
        "--switch",
        action="append",
        default=[],
        type=_switch,
        metavar="NAME=VALUE",
        help="change one switch (repeatable), e.g. --switch references=umwp_as_written",
    )
    parser.add_argument(
        "--field",
        action="append",
        default=[],
        type=_field_override,
        metavar="NAME=KEY",
        help="read the output text or the id from another key: --field text=response --field id=qid",
    )
    parser.add_argument(
        "--dataset",
        type=Path,
        help="dataset to join by id when the outputs lack labels (default: the bundled one, in a checkout)",
    )
    parser.add_argument(
        "--batch-size",
        type=int_range(1),
        default=8192,
        help="windows per embedding call, >= 1 (default 8192)",
    )
    parser.add_argument("--out", type=Path, default=Path("out/unanswerable"), help="output directory")


def _parse_switches(pairs: list[tuple[str, str]], threshold: float | None) -> dict[str, Any]:
    from matheval_fast.unanswerable import Switches

    kinds = {f.name: f.type for f in fields(Switches)}
    out: dict[str, Any] = {}
    for name, value in pairs:
        kind = kinds.get(name)
        if kind is None:
            raise ValueError(f"unknown switch {name!r}; allowed: {', '.join(kinds)}")
        if kind == "bool":
            if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(f"switch {name} takes true or false, got {value!r}")
            out[name] = value.lower() in ("true", "1", "yes")
        elif kind in ("int", "float"):
            parse = _count if kind == "int" else _threshold
            try:
                out[name] = parse(value)
            except argparse.ArgumentTypeError as exc:
                raise ValueError(f"--switch {name}: {exc}") from None
        else:
            out[name] = value
    if threshold is not None:
        out["threshold"] = threshold
    return out


#: the files a run writes into --out, published together
OUTPUTS = ("items.jsonl", "summary.json", "summary.md", "scores.png")


def run(args: argparse.Namespace) -> int:
    from matheval_fast import unanswerable as ub
    from matheval_fast._report.files import output_set

    overrides = _parse_switches(args.switch, args.threshold)
    ub.switches(args.preset, **overrides)  # unknown values fail here, before any file is read
    if args.model is None and (args.pooling is not None or args.max_length is not None):
        raise ValueError("--pooling and --max-length set up --model: pass --model DIR too")
    inputs = [args.outputs] + ([args.dataset] if args.dataset is not None else [])
    # The outputs' temporary files first: an --out that cannot be written fails before the work.
    with output_set([args.out / name for name in OUTPUTS], inputs=inputs) as files:
        table, result, renderer = _detect(args, overrides, files.path)
    print(table)
    skipped = result.summary.overall.skipped
    if skipped:
        print(f"\n{skipped} empty output(s) skipped from TP/FP/FN/Acc (SelfAware rule)", file=sys.stderr)
    print(f"\nwrote {', '.join(OUTPUTS)} to {args.out} (histogram: {renderer})", file=sys.stderr)
    return 0


def _detect(
    args: argparse.Namespace, overrides: dict[str, Any], tmp: Callable[[str], Path]
) -> tuple[str, Any, str]:
    """The work of a run, written into the temporary files ``tmp(name)``; returns the table, the
    result and the histogram's renderer."""
    import numpy as np

    from matheval_fast import unanswerable as ub
    from matheval_fast._report.files import json_text
    from matheval_fast._report.png import write_histogram

    field = dict(args.field)
    records = ub.load_records(args.outputs)
    if not records:
        raise ValueError(f"{args.outputs}: the input is empty (no records); nothing to score")
    print(f"read {len(records)} outputs from {args.outputs}", file=sys.stderr)
    if any("answerable" not in r for r in records):
        path = args.dataset or ub.bundled_dataset(args.preset)
        records = ub.join_dataset(
            records, ub.load_records(path), preset=args.preset, id_field=field.get("id")
        )
        print(f"joined labels from {path} by id", file=sys.stderr)
    scorer = None
    if args.model is not None:
        from matheval_fast import models

        scorer = models.Embedder(args.model, pooling=args.pooling, max_length=args.max_length)
    try:
        result = ub.detect_records(
            records,
            preset=args.preset,
            scorer=scorer,
            text_field=field.get("text"),
            id_field=field.get("id"),
            batch_size=args.batch_size,
            progress=True,
            **overrides,
        )
    except ValueError as exc:
        if scorer is None and "need a similarity scorer" in str(exc):
            raise ValueError(f"{exc}; pass --model DIR (an ONNX sentence-embedding model)") from exc
        raise
    with open(tmp("items.jsonl"), "w", encoding="utf-8") as fh:
        for v in result.items:
            fh.write(json.dumps(v.to_dict(), ensure_ascii=False) + "\n")
    summary = {
        "outputs": str(args.outputs),
        "preset": args.preset,
        "model": str(args.model) if args.model else None,
        "switches": asdict(result.switches),
        "distinct_windows": result.distinct_queries,
        "windows": result.total_queries,
        **result.summary.to_dict(),
    }
    tmp("summary.json").write_text(json_text(summary, indent=1), encoding="utf-8")
    table = ub.format_summary(result.summary, title=f"{args.preset} protocol B: {args.outputs.name}")
    tmp("summary.md").write_text(table + "\n", encoding="utf-8")
    series = {
        name: np.array(
            [v.score for v in result.items if v.answerable is want and v.score is not None], dtype=float
        )
        for name, want in (("answerable", True), ("unanswerable", False))
    }
    renderer = write_histogram(
        tmp("scores.png"),
        series,
        result.switches.threshold,
        xlabel="best cosine to a reference sentence",
        ylabel="outputs",
        marker_label=f"threshold {result.switches.threshold}",
        value_range=(-0.2, 1.0),
        bins=30,
    )
    return table, result, renderer
