"""An Inspect AI scorer graded by matheval_fast: ``math_scorer()``.

Use it as any Inspect scorer (``Task(..., scorer=math_scorer())``); it reports ``accuracy`` and
``stderr``. Each :class:`inspect_ai.scorer.Score` carries the extracted answer (``answer``), the
completion (``explanation``) and matheval's verdict in ``metadata`` (``reason``, the ``gold`` answer
it compared with, the deciding ``path``). A target may be an answer or a whole worked solution
(reduced to its final answer by the rule rescoring uses), or several accepted answers. A target
without an answer gives an unscored sample (excluded from the metrics, ``reason="scoring_failed"``);
an empty completion is ``no_response`` and an answer that cannot be found or read
``invalid_response_format``, Inspect's standard reasons.

The check runs in a worker thread (it is thread-safe and releases the GIL), so the event loop keeps
serving the other samples while the rare item that needs the SymPy fallback is decided.

Requires ``inspect-ai`` (``pip install "matheval-fast[inspect]"``).
"""

from __future__ import annotations

from typing import Any

from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer, stderr
from inspect_ai.solver import TaskState

from matheval_fast._vocabulary import Compat
from matheval_fast.integrations._common import UNUSABLE_GOLD, check_texts, reduced_golds

__all__ = ["math_scorer"]

#: matheval reasons that are the model's fault, as Inspect's standard ``Score.reason``.
_INSPECT_REASON = {"no_answer": "invalid_response_format", "pred_unparseable": "invalid_response_format"}
#: Reasons that mean the grader could not decide: the sample is not scored.
_NOT_SCORED = {UNUSABLE_GOLD, "error"}


def _score(completion: str, targets: list[str], compat: Compat, timeout: float | None) -> Score:
    golds: list[str | None] = list(targets) or [None]
    result = check_texts([completion] * len(golds), golds, compat=compat, timeout=timeout)
    correct = result.correct.tolist()
    pick = correct.index(True) if any(correct) else 0
    reason = str(result.reason[pick])
    answer = result.extracted[pick]
    metadata: dict[str, Any] = {
        "reason": reason,
        "gold": reduced_golds([golds[pick]])[0],
        "path": str(result.path[pick]),
    }
    fields: dict[str, Any] = {"answer": answer, "explanation": completion, "metadata": metadata}
    supports_reason = "reason" in Score.model_fields
    if reason in _NOT_SCORED and hasattr(Score, "unscored"):
        return Score.unscored(reason="scoring_failed", **fields)
    if supports_reason and not correct[pick]:
        fields["reason"] = "no_response" if not completion.strip() else _INSPECT_REASON.get(reason)
    return Score(value=CORRECT if correct[pick] else INCORRECT, **fields)


@scorer(metrics=[accuracy(), stderr()])
def math_scorer(*, compat: Compat = "fixed", timeout: float | None = None) -> Scorer:
    """Score a math answer with matheval_fast: is the completion's final answer equal to the target's?

    ``compat`` is the checker mode (``"fixed"``, or ``"xwin"`` for the seed tool's verdicts);
    ``timeout`` bounds the SymPy fallback per sample (seconds).
    """
    import anyio

    async def score(state: TaskState, target: Target) -> Score:
        completion = state.output.completion or ""
        targets = list(target.target) if target is not None else []
        return await anyio.to_thread.run_sync(_score, completion, targets, compat, timeout)

    return score
