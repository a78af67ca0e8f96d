"""GRPO reward functions with the call contract of TRL's ``trl.rewards``, graded by matheval_fast.

``accuracy_reward`` and ``reasoning_accuracy_reward`` take what TRL's ``GRPOTrainer`` passes a reward
function (``completions``, the dataset's ``solution`` column, and keyword arguments it may ignore) and
return one reward per completion: ``1.0`` correct, ``0.0`` wrong, ``None`` where the gold has no answer
to compare with (TRL skips those; its own ``accuracy_reward`` does the same for a gold math-verify
cannot parse). Unlike math-verify's signal-based timeouts, they work in any thread and in worker
processes, and a batch is one Rust call that releases the GIL.

>>> from matheval_fast.integrations.trl import accuracy_reward
>>> completions = [
...     [{"role": "assistant", "content": r"So the answer is \\boxed{\\frac{1}{3}}."}],
...     [{"role": "assistant", "content": r"So the answer is \\boxed{\\frac{1}{2}}."}],
... ]
>>> accuracy_reward(completions, [r"Divide: $1/3 = \\boxed{\\frac13}$.", r"\\frac{1}{3}"])
[1.0, 0.0]

This module imports nothing of TRL: pass the functions to ``GRPOTrainer(reward_funcs=[...])``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from matheval_fast._vocabulary import Compat
from matheval_fast.integrations._common import (
    UNUSABLE_GOLD,
    check_texts,
    completion_texts,
    gold_rules,
    gold_texts,
    reduced_golds,
)

__all__ = ["AccuracyReward", "accuracy_reward", "reasoning_accuracy_reward"]

#: TRL's default reasoning delimiter (``reasoning_accuracy_reward``).
DEFAULT_REASONING_DELIMITERS: tuple[str, ...] = ("</think>",)


class AccuracyReward:
    """A reward function like :func:`accuracy_reward` (or, with ``reasoning=True``,
    :func:`reasoning_accuracy_reward`) with its options fixed, for ``GRPOTrainer(reward_funcs=[...])``:
    the trainer passes dataset columns as keyword arguments, so options cannot travel with each call.
    A picklable callable (TRL's async rollout workers pickle reward functions), named by ``name``
    (``__name__``, which TRL's logs show).

    ``reasoning=True`` grades only the text after the last reasoning delimiter and gives ``0.0`` to a
    completion without one (TRL's ``reasoning_accuracy_reward``). ``timeout`` bounds the SymPy
    fallback per item (seconds; the rare item only SymPy can decide), ``compat`` is the checker mode,
    ``threads`` caps the Rust thread pool.

    >>> reward = AccuracyReward(timeout=1.0, name="math_reward")
    >>> reward.__name__, reward(["The answer is 4."], ["#### 4"])
    ('math_reward', [1.0])
    """

    def __init__(
        self,
        *,
        reasoning: bool = False,
        reasoning_delimiters: Sequence[str] | None = None,
        timeout: float | None = None,
        compat: Compat = "fixed",
        threads: int | None = None,
        name: str | None = None,
    ) -> None:
        if reasoning_delimiters is not None and (
            isinstance(reasoning_delimiters, str) or not all(isinstance(d, str) for d in reasoning_delimiters)
        ):
            raise TypeError("reasoning_delimiters must be a list of str")
        self.reasoning = reasoning
        self.reasoning_delimiters = tuple(reasoning_delimiters or DEFAULT_REASONING_DELIMITERS)
        self.timeout = timeout
        self.compat = compat
        self.threads = threads
        self.__name__ = name or ("reasoning_accuracy_reward" if reasoning else "accuracy_reward")

    def __repr__(self) -> str:
        return f"AccuracyReward(name={self.__name__!r}, reasoning={self.reasoning})"

    def __call__(
        self,
        completions: Sequence[Any],
        solution: Sequence[str | None],
        log_extra: Callable[[str, list[Any]], None] | None = None,
        **kwargs: Any,
    ) -> list[float | None]:
        return _rewards(self, completions, solution, log_extra, self.reasoning_delimiters)


def _after_reasoning(text: str | None, delimiters: Sequence[str]) -> str | None:
    """The text after the reasoning, as TRL cuts it: the first delimiter (in list order) found in the
    text, and what follows its last occurrence; ``None`` when no delimiter occurs."""
    if text is None:
        return None
    for delim in delimiters:
        if delim in text:
            return text.split(delim)[-1]
    return None


# TRL's contract for a one-line gold that is prose, not an answer (finding 7 of issue 34): math-verify
# finds no answer in "See the diagram." or "N/A" (TRL returns None: skip) and reads the number of a
# one-line worked solution ("... double it to get 14." grades "14" correct). The gold rule keeps such a
# line whole (`as_written`), which would make every completion wrong; here, and only for TRL's rewards,
# a one-line `as_written` gold with two or more words outside its math gives its last number, or no
# answer at all. A short answer with a unit or a word ("42 apples", "3 and 4", "Monday") is not prose.
_INLINE = re.compile(r"\$([^$]+)\$|\\\((.+?)\\\)")
_COMMAND = re.compile(r"\\[A-Za-z]+(?:\{[^{}]*\})?")  # `\text{No solution}` is an answer, not prose
_WORD = re.compile(r"[A-Za-z]{2,}")
_NUMBER = re.compile(r"-?\d+(?:,\d{3})*(?:\.\d+)?")
_NO_ANSWER = frozenset({"n/a", "na", "-", "--", "?"})
_MARKERS = ("\\boxed", "\\fbox", "####")


def _prose_answer(gold: str) -> tuple[bool, str | None]:
    """``(True, answer)`` when a one-line gold is prose: its last inline math or number, else ``None``."""
    text = gold.strip()
    if text.lower() in _NO_ANSWER:
        return True, None
    words = _INLINE.sub(" ", text)
    if len(_WORD.findall(_COMMAND.sub(" ", words))) < 2:
        return False, None
    found = [(m.start(), m.group(1) or m.group(2)) for m in _INLINE.finditer(text)]
    found += [(m.start(), m.group().replace(",", "")) for m in _NUMBER.finditer(words)]
    return True, (max(found)[1].strip() if found else None)


def _trl_golds(golds: list[str | None]) -> list[str | None]:
    """The golds TRL's math-verify reward would grade against (see ``_prose_answer``)."""
    # A cheap filter first: worked solutions (many lines, a box, a #### line) are the checker's business;
    # each distinct gold once (a GRPO batch repeats a prompt's gold once per completion of its group).
    candidates = [
        g
        for g in dict.fromkeys(golds)
        if g is not None and len(g) <= 500 and "\n" not in g.strip() and not any(m in g for m in _MARKERS)
    ]
    if not candidates:
        return golds
    _answers, rules = gold_rules(candidates)
    read: dict[str, str | None] = {}
    for gold, rule in zip(candidates, rules, strict=True):
        if rule == "as_written":
            prose, answer = _prose_answer(gold)
            if prose:
                read[gold] = answer
    if not read:
        return golds
    return [read.get(g, g) if g is not None else None for g in golds]


def _rewards(
    cfg: AccuracyReward,
    completions: Sequence[Any],
    solution: Sequence[str | None],
    log_extra: Callable[[str, list[Any]], None] | None,
    delimiters: Sequence[str],
) -> list[float | None]:
    texts = completion_texts(completions)
    given = gold_texts(solution, "solution")
    if len(texts) != len(given):
        raise ValueError(
            f"completions and solution must have the same length, got {len(texts)} and {len(given)}"
        )
    golds = _trl_golds(given)
    complete = [True] * len(texts)
    if cfg.reasoning:
        cut = [_after_reasoning(t, delimiters) for t in texts]
        complete = [c is not None for c in cut]
        texts = cut
    result = check_texts(texts, golds, compat=cfg.compat, timeout=cfg.timeout, threads=cfg.threads)
    correct = result.correct.tolist()
    reasons = result.reason.tolist()
    rewards: list[float | None] = [
        0.0 if not done else (None if why == UNUSABLE_GOLD else float(ok))
        for ok, why, done in zip(correct, reasons, complete, strict=True)
    ]
    if log_extra is not None:
        extracted = result.extracted.tolist()
        answers = reduced_golds(golds)
        # The dataset's column is the same for every reward function; the others are named after this
        # one, so two reward functions (a plain and a reasoning one) do not overwrite each other's.
        log_extra("solution", list(given))
        name = cfg.__name__
        log_extra(
            f"{name}/gold_parsed",
            [
                "[incomplete reasoning]"
                if not done
                else ("[unparseable]" if why == UNUSABLE_GOLD else str(a))
                for a, why, done in zip(answers, reasons, complete, strict=True)
            ],
        )
        log_extra(
            f"{name}/answer_parsed",
            [
                "[incomplete reasoning]"
                if not done
                else ("[skipped]" if why == UNUSABLE_GOLD else (e if e is not None else "[unparseable]"))
                for e, why, done in zip(extracted, reasons, complete, strict=True)
            ],
        )
        log_extra(f"{name}/matheval_reason", reasons)
    return rewards


_PLAIN = AccuracyReward()


def accuracy_reward(
    completions: Sequence[Any],
    solution: Sequence[str | None],
    log_extra: Callable[[str, list[Any]], None] | None = None,
    **kwargs: Any,
) -> list[float | None]:
    """Is each completion's final answer equal to its solution's? TRL's ``accuracy_reward`` contract.

    ``completions``: conversational (``[[{"role": "assistant", "content": ...}], ...]``; the last
    assistant message is graded) or plain strings. ``solution``: the dataset's gold per completion, an
    answer or a whole worked solution, reduced to its final answer by the rule rescoring uses (the last
    ``\\boxed{}``/``\\fbox{}``, else the ``#### n`` line, else a closing "The answer is ..." sentence).
    Returns ``1.0``/``0.0`` per completion, ``None`` where the solution has no answer (or is ``None``).
    A one-line gold that is prose is read as TRL's math-verify reads it: its last number
    (``"... double it to get 14."``), or no answer (``"See the diagram."``, ``"N/A"``: ``None``).
    ``log_extra`` (passed by ``GRPOTrainer``) receives the dataset's ``solution`` column and, named after
    the function (``accuracy_reward/gold_parsed``), ``gold_parsed``, ``answer_parsed`` (as TRL's) and
    ``matheval_reason``; other keyword arguments are ignored.
    """
    return _PLAIN(completions, solution, log_extra, **kwargs)


_REASONING = AccuracyReward(reasoning=True)


def reasoning_accuracy_reward(
    completions: Sequence[Any],
    solution: Sequence[str | None],
    reasoning_delimiters: Sequence[str] | None = None,
    log_extra: Callable[[str, list[Any]], None] | None = None,
    **kwargs: Any,
) -> list[float | None]:
    """:func:`accuracy_reward` on the answer after the reasoning: TRL's ``reasoning_accuracy_reward``.

    Only the text after the last occurrence of a reasoning delimiter (default ``["</think>"]``; the
    first of ``reasoning_delimiters`` found in the completion) is graded; a completion with none gets
    ``0.0`` (unfinished reasoning is penalised, not skipped), whatever its gold.

    >>> reasoning_accuracy_reward(
    ...     ["<think>maybe \\\\boxed{2}</think> It is \\\\boxed{3}.", "<think>It is \\\\boxed{3}"], ["3", "3"]
    ... )
    [1.0, 0.0]
    """
    if reasoning_delimiters is None:
        return _REASONING(completions, solution, log_extra, **kwargs)
    cfg = AccuracyReward(reasoning=True, reasoning_delimiters=reasoning_delimiters)
    return cfg(completions, solution, log_extra, **kwargs)
