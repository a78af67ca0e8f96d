"""``matheval-fast judge``: an LLM judge over model responses against an OpenAI-compatible endpoint
(protocol C, and any Yes/No judging a template describes). Writes ``items.jsonl``,
``summary.json`` and ``summary.md``; keeps every request in a resumable SQLite store."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from matheval_fast.cli import float_range, int_range, seconds_arg

HELP = "LLM judge over responses via an OpenAI-compatible endpoint; agreement with human labels (protocol C)"


def _field_override(text: str) -> tuple[str, str]:
    name, sep, key = text.partition("=")
    if not sep or not name or not key:
        raise argparse.ArgumentTypeError(f"expected NAME=KEY (e.g. problem=question), got {text!r}")
    return name, key


_positive_int = int_range(1)
#: bootstrap replicates: each is a row of four counts per group (32 bytes); a million is 32 MB
MAX_BOOTSTRAP = 1_000_000
#: requests in flight (``--concurrency``): one client task each, made up front
MAX_CONCURRENCY = 10_000
#: client processes (``--workers``): each is a Python process with its own event loop
MAX_WORKERS = 256
_per_second = float_range(0, lo_open=True)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from matheval_fast.judge.templates import builtin_names

    parser.add_argument("responses", type=Path, help="items to judge: JSONL, JSON array or Parquet")
    ep = parser.add_argument_group("endpoint")
    ep.add_argument("--base-url", help="OpenAI-compatible API root, e.g. https://api.openai.com/v1")
    ep.add_argument("--model", help="judge model name as the endpoint knows it")
    ep.add_argument(
        "--api-key-env",
        default="OPENAI_API_KEY",
        metavar="VAR",
        help="environment variable holding the API key (default OPENAI_API_KEY); never logged or stored",
    )
    ep.add_argument("--no-api-key", action="store_true", help="send no key (local servers that need none)")
    ep.add_argument("--no-preflight", action="store_true", help="skip the GET /models check before the run")

    pr = parser.add_argument_group("prompt and sampling")
    pr.add_argument(
        "--prompt",
        default="simple",
        help=f"built-in template ({', '.join(builtin_names())}) or a template .toml file (default simple)",
    )
    pr.add_argument("--temperature", type=float_range(0), default=0.0, help="finite, >= 0 (default 0)")
    pr.add_argument(
        "--seed",
        type=int_range(-(2**63), 2**63 - 1),
        default=0,
        help="sampling seed sent to the endpoint, a 64-bit integer (default 0)",
    )
    pr.add_argument("--no-seed", action="store_true", help="send no seed")
    pr.add_argument(
        "--top-p", type=float_range(0, 1, lo_open=True), default=None, help="nucleus sampling, in (0, 1]"
    )
    pr.add_argument("--max-tokens", type=_positive_int, default=None, help="default: the template's")
    pr.add_argument("--n", type=_positive_int, default=1, help="samples per item, majority-voted (default 1)")
    pr.add_argument(
        "--samples-via",
        choices=["n", "requests"],
        default="n",
        help="one request with n choices (default), or n requests (servers that ignore n)",
    )
    pr.add_argument(
        "--json-mode", action="store_true", help="ask for a JSON verdict (response_format json_object)"
    )

    da = parser.add_argument_group("data")
    da.add_argument(
        "--field",
        action="append",
        default=[],
        type=_field_override,
        metavar="NAME=KEY",
        help="read template field NAME (or id) from key KEY, e.g. --field problem=question (repeatable)",
    )
    da.add_argument(
        "--label-field",
        action="append",
        default=None,
        metavar="KEY",
        help="human label key (repeatable: gold = majority; default 'label' when present)",
    )
    da.add_argument(
        "--group-field",
        action="append",
        default=None,
        metavar="KEY",
        help="break metrics down by KEY (repeatable; default fault_type, subject, level when present)",
    )
    da.add_argument("--limit", type=_positive_int, default=None, help="judge only the first N items")

    rn = parser.add_argument_group("run")
    rn.add_argument("--out", type=Path, required=True, help="output directory")
    rn.add_argument("--store", type=Path, default=None, help="run store (default OUT/judge.sqlite)")
    rn.add_argument("--resume", action="store_true", help="continue the run in an existing store")
    rn.add_argument("--retry-failed", action="store_true", help="send again the items that failed before")
    rn.add_argument("--dry-run", action="store_true", help="estimate tokens and cost, send nothing")
    rn.add_argument("--price-table", type=Path, default=None, help="JSON/TOML prices per million tokens")
    rn.add_argument("--tokenizer", type=Path, default=None, help="local tokenizer.json for --dry-run counts")
    rn.add_argument(
        "--concurrency",
        type=int_range(1, MAX_CONCURRENCY),
        default=16,
        help=f"requests in flight, 1 to {MAX_CONCURRENCY} (default 16)",
    )
    rn.add_argument(
        "--workers",
        type=int_range(1, MAX_WORKERS),
        default=1,
        help="client processes sharing --concurrency, for servers faster than one client core "
        f"(1 to {MAX_WORKERS}; default 1)",
    )
    rn.add_argument("--rpm", type=_per_second, default=None, help="requests per minute limit (> 0)")
    rn.add_argument("--tpm", type=_per_second, default=None, help="tokens per minute limit (> 0)")
    rn.add_argument(
        "--timeout", type=seconds_arg, default=120.0, help="seconds per request (> 0; default 120)"
    )
    rn.add_argument(
        "--max-retries", type=int_range(0), default=6, help="retries per request (>= 0; default 6)"
    )
    rn.add_argument(
        "--abort-after",
        type=int_range(0),
        default=50,
        metavar="N",
        help="stop when N items in a row fail (default 50; 0 never)",
    )
    rn.add_argument(
        "--unparseable",
        choices=["exclude", "as-no"],
        default="exclude",
        help="unreadable verdicts: leave out of the metrics (default) or count as No",
    )
    rn.add_argument(
        "--bootstrap",
        type=int_range(0, MAX_BOOTSTRAP),
        default=2000,
        help=f"bootstrap replicates for intervals, 0 (none) to {MAX_BOOTSTRAP:,} (default 2000)",
    )
    rn.add_argument(
        "--progress-every",
        type=_per_second,
        default=10.0,
        help="seconds between progress lines off a terminal (> 0; default 10)",
    )
    rn.add_argument("--quiet", action="store_true", help="no progress output")


def _refuse_overlaps(args: argparse.Namespace) -> None:
    """The run store and the outputs are none of the files read, nor each other (before any work)."""
    from matheval_fast._report.files import refuse_overlap
    from matheval_fast.judge.pipeline import OUTPUTS

    prompt = Path(args.prompt)
    read = [args.responses] + [
        p for p in (prompt if prompt.suffix == ".toml" else None, args.price_table, args.tokenizer) if p
    ]
    outputs = [(args.out / name, "--out") for name in (("dry_run.json",) if args.dry_run else OUTPUTS)]
    refuse_overlap(outputs + ([(args.store, "--store")] if args.store is not None else []), read)


def run(args: argparse.Namespace) -> int:
    from matheval_fast.judge.client import ClientOptions, EndpointError, Secret
    from matheval_fast.judge.cost import load_price_table
    from matheval_fast.judge.pipeline import config_with_price, dry_run_file, format_estimate, judge_file
    from matheval_fast.judge.run import JudgeConfig, SamplingParams
    from matheval_fast.judge.templates import load_template

    _refuse_overlaps(args)
    template = load_template(args.prompt)
    if not args.dry_run and (not args.base_url or not args.model):
        raise ValueError("--base-url and --model are required (except with --dry-run, which needs --model)")
    if args.dry_run and not args.model:
        raise ValueError("--dry-run needs --model (it goes into the request keys and the price lookup)")
    cfg = JudgeConfig(
        base_url=args.base_url or "",
        model=args.model,
        template=template,
        sampling=SamplingParams(
            temperature=args.temperature,
            seed=None if args.no_seed else args.seed,
            max_tokens=args.max_tokens,
            n=args.n,
            samples_via=args.samples_via,
            json_mode=args.json_mode,
            top_p=args.top_p,
        ),
        client=ClientOptions(
            concurrency=args.concurrency,
            requests_per_minute=args.rpm,
            tokens_per_minute=args.tpm,
            timeout=args.timeout,
            max_retries=args.max_retries,
        ),
        retry_failed=args.retry_failed,
        abort_after_failures=args.abort_after,
        preflight=not args.no_preflight,
    )
    if args.price_table is not None:
        cfg = config_with_price(cfg, load_price_table(args.price_table))
    data_opts = {
        "fields": dict(args.field),
        "label_fields": tuple(args.label_field) if args.label_field else None,
        "group_fields": tuple(args.group_field) if args.group_field else None,
        "limit": args.limit,
        "store_path": args.store,
    }
    if args.dry_run:
        est, _ = dry_run_file(args.responses, args.out, cfg, tokenizer=args.tokenizer, **data_opts)
        print(format_estimate(est, cfg))
        print(f"\nnothing sent; wrote {args.out / 'dry_run.json'}", file=sys.stderr)
        return 0
    try:
        # The key is checked before the input is read: a missing key fails in a second, not after
        # a scan of a million lines.
        api_key = None if args.no_api_key else Secret.from_env(args.api_key_env)
        report = judge_file(
            args.responses,
            args.out,
            cfg,
            api_key=api_key,
            resume=args.resume,
            unparseable=args.unparseable,
            n_boot=args.bootstrap,
            progress=not args.quiet,
            progress_every=args.progress_every,
            workers=args.workers,
            **data_opts,
        )
    except EndpointError as exc:
        print(f"matheval-fast judge: error: {exc}", file=sys.stderr)
        return 2
    from matheval_fast.judge.pipeline import format_summary

    if not args.quiet:
        print(format_summary(report.summary))
    print(f"\nwrote items.jsonl, summary.json, summary.md to {args.out}", file=sys.stderr)
    if report.aborted:
        print(f"matheval-fast judge: {report.aborted}", file=sys.stderr)
        return 1
    return 0
