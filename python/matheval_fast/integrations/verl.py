"""verl reward functions graded by matheval_fast: ``custom_reward_function`` for verl's PPO/GRPO trainers.

verl loads a reward function by path and name and calls it once per response (reward managers
``naive``, ``dapo``, the reward loop) as ``compute_score(data_source=..., solution_str=...,
ground_truth=..., extra_info=...)``, or once per batch (verl's legacy ``BatchRewardManager``; verl
0.9's trainers have no batch path) as ``compute_score(data_sources=..., solution_strs=...,
ground_truths=..., extra_infos=...)``::

    reward.custom_reward_function.path=pkg://matheval_fast.integrations.verl
    reward.custom_reward_function.name=compute_score          # or compute_score_details, compute_score_batch

``ground_truth`` may be an answer (verl's GSM8K and MATH preprocessing store the extracted answer) or a
whole worked solution (reduced to its final answer by the rule rescoring uses), or a list of accepted
answers. ``data_source`` is not used: every source is graded the same way. A gold without an answer
scores ``0.0`` (verl needs a number), and ``compute_score_details`` says why in ``reason``.

>>> compute_score("openai/gsm8k", "... so she pays 18 dollars.\\nThe answer is 18.", "18")
1.0
>>> compute_score_details("lighteval/MATH", r"Thus $x = \\boxed{\\frac{1}{2}}$.", "0.5")
{'score': 1.0, 'acc': 1.0, 'pred': '\\\\frac{1}{2}', 'reason': 'correct'}

This module imports nothing of verl; ``verl`` is not needed to call it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from matheval_fast._vocabulary import Compat
from matheval_fast.integrations._common import check_texts

__all__ = ["compute_score", "compute_score_batch", "compute_score_details", "compute_score_details_batch"]


def _golds(ground_truth: object, where: str) -> list[str | None]:
    """One ground truth as its accepted answers: a str, ``None``, or a list/array of str."""
    if ground_truth is None or isinstance(ground_truth, str):
        return [ground_truth]
    if hasattr(ground_truth, "tolist"):  # numpy arrays, as verl's non_tensor_batch holds them
        ground_truth = ground_truth.tolist()
    if isinstance(ground_truth, Sequence) and not isinstance(ground_truth, bytes):
        items = list(ground_truth)
        if not items:
            return [None]
        for g in items:
            if g is not None and not isinstance(g, str):
                raise TypeError(f"{where}: each accepted answer must be a str, got {type(g).__name__}")
        return items
    raise TypeError(f"{where} must be a str or a list of str, got {type(ground_truth).__name__}")


def _details_batch(
    solution_strs: Sequence[str | None],
    ground_truths: Sequence[Any],
    *,
    compat: Compat,
    timeout: float | None,
) -> list[dict[str, Any]]:
    if isinstance(solution_strs, str) or not isinstance(solution_strs, Sequence):
        raise TypeError(f"solution_strs must be a list of str, got {type(solution_strs).__name__}")
    if len(solution_strs) != len(ground_truths):
        raise ValueError(
            f"solution_strs and ground_truths must have the same length, got {len(solution_strs)} "
            f"and {len(ground_truths)}"
        )
    responses: list[str | None] = []
    golds: list[str | None] = []
    owner: list[int] = []
    for i, (s, gt) in enumerate(zip(solution_strs, ground_truths, strict=True)):
        if s is not None and not isinstance(s, str):
            raise TypeError(f"solution_str must be a str, got {type(s).__name__} (item {i})")
        for g in _golds(gt, f"ground_truth (item {i})"):
            responses.append(s)
            golds.append(g)
            owner.append(i)
    result = check_texts(responses, golds, compat=compat, timeout=timeout)
    correct = result.correct.tolist()
    reasons = result.reason.tolist()
    extracted = result.extracted.tolist()
    out: list[dict[str, Any] | None] = [None] * len(solution_strs)
    for i, ok, why, pred in zip(owner, correct, reasons, extracted, strict=True):
        seen = out[i]
        if seen is None or (ok and not seen["score"]):
            score = 1.0 if ok else 0.0
            out[i] = {"score": score, "acc": score, "pred": pred if pred is not None else "", "reason": why}
    return [d for d in out if d is not None]


def compute_score_details(
    data_source: str | None,
    solution_str: str | None,
    ground_truth: Any,
    extra_info: dict[str, Any] | None = None,
    *,
    compat: Compat = "fixed",
    timeout: float | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """:func:`compute_score` as the dict verl logs beside the reward: ``score`` (the reward), ``acc``
    (the same, 1.0/0.0), ``pred`` (the extracted answer, ``""`` if none) and ``reason`` (the verdict's
    reason: ``correct``, ``incorrect``, ``no_answer``, ``gold_unparseable``, ...)."""
    return _details_batch([solution_str], [ground_truth], compat=compat, timeout=timeout)[0]


def compute_score(
    data_source: str | None,
    solution_str: str | None,
    ground_truth: Any,
    extra_info: dict[str, Any] | None = None,
    *,
    compat: Compat = "fixed",
    timeout: float | None = None,
    **kwargs: Any,
) -> float:
    """The reward of one response: ``1.0`` if its final answer equals the ground truth's (any of them,
    for a list), else ``0.0``. verl's ``compute_score`` contract; ``compat`` and ``timeout`` (seconds
    for the rare SymPy fallback) can be set with ``custom_reward_function.reward_kwargs``; other
    keyword arguments verl passes are ignored."""
    return float(
        compute_score_details(
            data_source, solution_str, ground_truth, extra_info, compat=compat, timeout=timeout
        )["score"]
    )


def compute_score_details_batch(
    data_sources: Sequence[str | None],
    solution_strs: Sequence[str | None],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[dict[str, Any] | None] | None = None,
    *,
    compat: Compat = "fixed",
    timeout: float | None = None,
    **kwargs: Any,
) -> list[dict[str, Any]]:
    """:func:`compute_score_details` of a whole batch in one Rust call (verl's ``batch`` reward manager)."""
    return _details_batch(list(solution_strs), list(ground_truths), compat=compat, timeout=timeout)


def compute_score_batch(
    data_sources: Sequence[str | None],
    solution_strs: Sequence[str | None],
    ground_truths: Sequence[Any],
    extra_infos: Sequence[dict[str, Any] | None] | None = None,
    *,
    compat: Compat = "fixed",
    timeout: float | None = None,
    **kwargs: Any,
) -> list[float]:
    """:func:`compute_score` of a whole batch in one Rust call: the function for verl's ``batch`` reward
    manager (``reward.reward_manager.name=batch``), which passes lists."""
    return [
        float(d["score"])
        for d in _details_batch(list(solution_strs), list(ground_truths), compat=compat, timeout=timeout)
    ]
