"""Protocol C: an LLM judge over model responses, against any OpenAI-compatible endpoint.

One module per concern:

- :mod:`~matheval_fast.judge.templates`: versioned prompt templates (FaultyMath Simple, Simple +
  Explanation, Chain-of-thought; a protocol-B abstention judge; a protocol-A equivalence judge).
- :mod:`~matheval_fast.judge.verdicts`: reading Yes/No from judge answers; majority votes.
- :mod:`~matheval_fast.judge.client`: the async client (limits, retries, timeouts, secret key).
- :mod:`~matheval_fast.judge.store`: the resumable SQLite run store.
- :mod:`~matheval_fast.judge.data`: the streamed item loader (JSONL / Parquet, field names, labels).
- :mod:`~matheval_fast.judge.metrics`: agreement with human labels (accuracy, macro/positive F1,
  Eval, kappa, bootstrap intervals) and the FaultyMath paper-table check.
- :mod:`~matheval_fast.judge.cost`: price tables and token estimates.
- :mod:`~matheval_fast.judge.run` / :mod:`~matheval_fast.judge.pipeline`: the run and its outputs.
- :mod:`~matheval_fast.judge.parallel`: the same run in several client processes.
- :mod:`~matheval_fast.judge.fake_server`: a rule-based OpenAI-compatible server for tests and demos.

The HTTP client needs aiohttp (the ``judge`` extra; ``pip install aiohttp``); templates, verdict
parsing and metrics work without it.
"""

from __future__ import annotations

from matheval_fast.judge.client import ClientOptions, EndpointError, Secret
from matheval_fast.judge.data import DatasetSpec, JudgeItem, iter_items, scan
from matheval_fast.judge.metrics import Agreement, agreement, agreement_from_counts, check_published_row
from matheval_fast.judge.pipeline import dry_run_file, judge_file
from matheval_fast.judge.run import JudgeConfig, SamplingParams, run_judge
from matheval_fast.judge.store import RunStore, request_key
from matheval_fast.judge.templates import Template, builtin_names, load_template
from matheval_fast.judge.verdicts import ParsedVerdict, majority_vote, parse_verdict

__all__ = [
    "Agreement",
    "ClientOptions",
    "DatasetSpec",
    "EndpointError",
    "JudgeConfig",
    "JudgeItem",
    "ParsedVerdict",
    "RunStore",
    "SamplingParams",
    "Secret",
    "Template",
    "agreement",
    "agreement_from_counts",
    "builtin_names",
    "check_published_row",
    "dry_run_file",
    "iter_items",
    "judge_file",
    "load_template",
    "majority_vote",
    "parse_verdict",
    "request_key",
    "run_judge",
    "scan",
]
