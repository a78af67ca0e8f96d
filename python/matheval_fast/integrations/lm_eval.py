"""lm-evaluation-harness metrics graded by matheval_fast, and task YAMLs that add them to the stock tasks.

``process_results(doc, results)`` is an lm-eval ``process_results`` function: it returns one 0/1 metric,
``matheval``, for a GSM8K doc (``question``, ``answer`` = the worked solution ending ``#### n``) or a
MATH doc (``problem``, ``solution`` = the worked solution with its answer in ``\\boxed{}``), grading the
whole response against the solution's final answer::

    process_results: !function matheval_fast.integrations.lm_eval.process_results
    metric_list:
      - metric: matheval
        aggregation: mean
        higher_is_better: true

The package also ships task YAMLs (``lm_eval --include_path "$(python -m matheval_fast.integrations.lm_eval
--path)"``) that run the stock tasks with ``matheval`` added beside their own metrics:

- ``gsm8k_matheval``, ``gsm8k_cot_matheval``: the stock ``gsm8k`` / ``gsm8k_cot`` (their prompts,
  few-shot examples and ``strict-match`` / ``flexible-extract`` filters) plus a ``matheval`` filter that
  keeps the whole response, under which ``matheval`` is reported (``exact_match`` under the stock ones);
- ``minerva_math_matheval``, ``minerva_math500_matheval``: the stock Minerva MATH tasks, reporting their
  ``exact_match`` and ``math_verify`` and ``matheval``;
- ``hendrycks_math_matheval``, ``hendrycks_math500_matheval``: the stock Hendrycks MATH tasks,
  ``exact_match`` and ``matheval``.

The subtasks keep their stock names (``gsm8k``, ``minerva_math_algebra``, ...) inside these groups, so
run a group instead of, not beside, its stock task. Tested with lm-eval 0.4.13. This module imports
lm-eval only to compute a stock metric; ``--path`` needs no lm-eval at all.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from matheval_fast.answer import check

__all__ = [
    "TASKS_DIR",
    "WholeResponse",
    "main",
    "process_results",
    "process_results_gsm8k",
    "process_results_gsm8k_cot",
    "process_results_hendrycks",
    "process_results_minerva",
    "whole_response",
]

#: The folder of the task YAMLs this package ships (pass it to ``lm_eval --include_path``).
TASKS_DIR = Path(__file__).resolve().parent / "lm_eval_tasks"

#: The stock ``exact_match`` of lm-eval's ``gsm8k`` and ``gsm8k_cot`` (their ``metric_list``, 0.4.13;
#: tests/test_integrations_lm_eval.py checks it against the installed lm-eval's YAMLs).
GSM8K_EXACT_MATCH: dict[str, Any] = {
    "ignore_case": True,
    "ignore_punctuation": False,
    "regexes_to_ignore": [",", "\\$", "(?s).*#### ", "\\.$"],
}


class WholeResponse(str):
    """A response as the ``matheval`` filter passes it on: the model's whole text, marked so that
    :func:`process_results_gsm8k` knows which filter it came through."""

    __slots__ = ()


def whole_response(resps: Sequence[Sequence[str]], docs: Sequence[Any]) -> list[WholeResponse]:
    """An lm-eval ``custom`` filter (``filter_fn``): each doc's first response, whole and marked."""
    return [WholeResponse(r[0] if not isinstance(r, str) else r) for r in resps]


def _response(results: Sequence[Any]) -> str | None:
    if isinstance(results, str) or not isinstance(results, Sequence):
        raise TypeError(f"results must be lm-eval's list of responses, got {type(results).__name__}")
    if not results:
        return None
    first = results[0]
    if isinstance(first, (list, tuple)):  # an unfiltered request: its list of generations
        first = first[0] if first else None
    if first is not None and not isinstance(first, str):
        raise TypeError(f"a response must be a str, got {type(first).__name__}")
    return first


def _gold(doc: Mapping[str, Any]) -> str:
    if not isinstance(doc, Mapping):
        raise TypeError(f"doc must be a dict, got {type(doc).__name__}")
    for key in ("solution", "answer"):
        gold = doc.get(key)
        if isinstance(gold, str):
            return gold
    raise ValueError(
        f"doc has no gold: expected a MATH doc ('solution') or a GSM8K doc ('answer'), got keys {sorted(doc)}"
    )


def process_results(doc: Mapping[str, Any], results: Sequence[Any]) -> dict[str, int]:
    """``{"matheval": 1}`` if the response's final answer equals the doc's, else ``{"matheval": 0}``.

    The gold is the doc's ``solution`` (MATH: the answer in its last ``\\boxed{}``) or else its
    ``answer`` (GSM8K: the number after ``####``), reduced by the rule rescoring uses; a gold without
    an answer scores 0.

    >>> doc = {"question": "...", "answer": "She has 3 + 4 = 7 apples.\\n#### 7"}
    >>> process_results(doc, ["3 + 4 = 7, so she has 7 apples. The answer is 7."])
    {'matheval': 1}
    """
    return {"matheval": int(check(_response(results), _gold(doc)).correct)}


def _stock_exact_match(gold: str, response: str | None) -> int:
    from lm_eval.api.registry import get_metric

    fn = get_metric("exact_match")
    score = fn(references=[gold], predictions=[response or ""], **GSM8K_EXACT_MATCH)["exact_match"]
    return int(score)


def process_results_gsm8k(doc: Mapping[str, Any], results: Sequence[Any]) -> dict[str, int]:
    """The metrics of ``gsm8k_matheval``: ``matheval`` on the whole response (the ``matheval`` filter),
    and the stock ``exact_match`` on what the stock filters extract (target: the doc's ``answer``)."""
    response = _response(results)
    if isinstance(response, WholeResponse):
        return process_results(doc, [response])
    return {"exact_match": _stock_exact_match(str(doc["answer"]), response)}


def process_results_gsm8k_cot(doc: Mapping[str, Any], results: Sequence[Any]) -> dict[str, int]:
    """:func:`process_results_gsm8k` for ``gsm8k_cot_matheval`` (stock target: the number after ``####``)."""
    response = _response(results)
    if isinstance(response, WholeResponse):
        return process_results(doc, [response])
    return {"exact_match": _stock_exact_match(str(doc["answer"]).split("####")[-1].strip(), response)}


def process_results_minerva(doc: Mapping[str, Any], results: Sequence[Any]) -> dict[str, int]:
    """The stock ``minerva_math`` metrics (``exact_match``, ``math_verify``) and ``matheval``."""
    from lm_eval.tasks.minerva_math import utils as stock

    return {**stock.process_results(doc, list(results)), **process_results(doc, results)}


def process_results_hendrycks(doc: Mapping[str, Any], results: Sequence[Any]) -> dict[str, int]:
    """The stock ``hendrycks_math`` metric (``exact_match``) and ``matheval``."""
    from lm_eval.tasks.hendrycks_math import utils as stock

    return {**stock.process_results(doc, list(results)), **process_results(doc, results)}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m matheval_fast.integrations.lm_eval --path``: print the task folder."""
    parser = argparse.ArgumentParser(
        prog="python -m matheval_fast.integrations.lm_eval",
        description="lm-evaluation-harness tasks that add the matheval metric to the stock math tasks.",
    )
    parser.add_argument(
        "--path", action="store_true", help="print the folder to pass to lm_eval --include_path"
    )
    parser.add_argument("--list", action="store_true", help="list the task groups the folder defines")
    args = parser.parse_args(argv)
    if args.list:
        for yaml in sorted(TASKS_DIR.glob("*.yaml")):
            print(yaml.stem)
    if args.path or not args.list:
        print(TASKS_DIR)
    return 0


if __name__ == "__main__":
    sys.exit(main())
