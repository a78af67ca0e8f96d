"""What every integration shares: completions to text, golds to answers, and one batch check."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from matheval_fast._vocabulary import Compat
from matheval_fast.answer import BatchResult, check_batch

#: The verdicts whose gold gives no answer to compare with: the item is skipped, never counted wrong.
UNUSABLE_GOLD = "gold_unparseable"


def message_text(content: object, where: str) -> str | None:
    """The text of one chat message's ``content``: a string, ``None``, or a list of parts (the
    OpenAI/TRL multimodal shape ``[{"type": "text", "text": ...}, ...]``, text parts joined)."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        texts = []
        for part in content:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, Mapping):
                if part.get("type", "text") == "text" and isinstance(part.get("text"), str):
                    texts.append(part["text"])
            else:
                raise TypeError(f"{where}: a content part must be a str or a dict, got {type(part).__name__}")
        return "".join(texts)
    raise TypeError(
        f"{where}: message content must be a str, a list of parts or None, got {type(content).__name__}"
    )


def completion_text(completion: object, where: str) -> str | None:
    """The text to grade of one completion: a plain string (TRL's standard format), or a list of chat
    messages (its conversational format), whose last ``assistant`` message is graded (the only message
    in TRL's single-turn completions; the final turn after tool calls in multi-turn ones)."""
    if completion is None or isinstance(completion, str):
        return completion
    # TRL's single-turn conversational shape, the common case, without the general walk below.
    if type(completion) is list and len(completion) == 1 and type(completion[0]) is dict:
        content = completion[0].get("content")
        if type(content) is str and completion[0].get("role", "assistant") == "assistant":
            return content
    if isinstance(completion, Mapping):
        return message_text(completion.get("content"), where)
    if isinstance(completion, Sequence):
        if not completion:
            return None
        messages = [m for m in completion if isinstance(m, Mapping)]
        if len(messages) != len(completion):
            raise TypeError(f"{where}: a conversational completion must be a list of message dicts")
        assistant = [m for m in messages if m.get("role", "assistant") == "assistant"]
        last = (assistant or messages)[-1]
        if "content" not in last:
            raise TypeError(f"{where}: a message needs a 'content' key, got keys {sorted(last)}")
        return message_text(last["content"], where)
    raise TypeError(
        f"{where}: a completion must be a str or a list of chat messages, got {type(completion).__name__}"
    )


def completion_texts(completions: object, name: str = "completions") -> list[str | None]:
    """:func:`completion_text` of each completion of a batch."""
    if isinstance(completions, (str, bytes)) or not isinstance(completions, Sequence):
        raise TypeError(f"{name} must be a list of completions, got {type(completions).__name__}")
    return [completion_text(c, f"{name}[{i}]") for i, c in enumerate(completions)]


def gold_texts(golds: object, name: str) -> list[str | None]:
    """Golds as a list of str/None; a wrong type is a TypeError naming the first bad item."""
    if isinstance(golds, (str, bytes)) or not isinstance(golds, Sequence):
        raise TypeError(f"{name} must be a list of str, got {type(golds).__name__}")
    out = list(golds)
    for i, g in enumerate(out):
        if g is not None and not isinstance(g, str):
            raise TypeError(f"{name}[{i}] must be a str (or None), got {type(g).__name__}")
    return out


def check_texts(
    responses: Sequence[str | None],
    golds: Sequence[str | None],
    *,
    compat: Compat = "fixed",
    timeout: float | None = None,
    threads: int | None = None,
) -> BatchResult:
    """One :func:`~matheval_fast.check_batch` call: golds that are worked solutions are reduced to
    their final answer inside the checker (``rust/gold.rs``), one without any is ``gold_unparseable``."""
    return check_batch(list(responses), list(golds), compat=compat, timeout=timeout, threads=threads)


def gold_rules(golds: Sequence[str | None]) -> tuple[list[str | None], list[str]]:
    """Each gold's final answer by the same rule the checker applies, and the rule's name
    (``rust/gold.rs``; ``as_written`` for a gold that is its own answer).

    Straight to the core by numpy buffers, not through a pyarrow array: ``pa.array(list)`` imports
    pandas to ask whether the list is a pandas object, 0.3-0.5 s on the first reward call of a process.
    """
    import numpy as np

    from matheval_fast import _core

    # A GRPO batch repeats each prompt's gold once per completion of its group: reduce each once.
    unique = list(dict.fromkeys(golds))
    if len(unique) < len(golds):
        answers, rules = gold_rules(unique)
        by_gold = {g: (a, r) for g, a, r in zip(unique, answers, rules, strict=True)}
        pairs = [by_gold[g] for g in golds]
        return [p[0] for p in pairs], [p[1] for p in pairs]
    data = [(g or "").encode("utf-8", "surrogatepass") for g in golds]
    offsets = np.zeros(len(data) + 1, dtype=np.int64)
    np.cumsum([len(d) for d in data], out=offsets[1:])
    column = _core.TextColumn.from_arrow(offsets, np.frombuffer(b"".join(data), dtype=np.uint8))
    new_off, new_data, codes, changed = _core.gold_answers(column)
    names = _core.VOCABULARY["gold_rule"]
    rules = [names[int(c)] for c in codes]
    if not changed:
        return list(golds), rules
    raw = bytes(new_data)
    answers = [
        None if g is None else raw[new_off[i] : new_off[i + 1]].decode("utf-8", "surrogatepass")
        for i, g in enumerate(golds)
    ]
    return answers, rules


def reduced_golds(golds: Sequence[str | None]) -> list[str | None]:
    """Each gold's final answer by the same rule the checker applies (for logs and displays)."""
    return gold_rules(golds)[0]
