"""Response text for a report: the extracted answer's span, and long texts cut to what a page can hold."""

from __future__ import annotations

__all__ = ["Budget", "clip", "find_span"]

_CUT = "\n[… {n:,} characters left out …]\n"


def find_span(text: str | None, extracted: str | None) -> tuple[int, int] | None:
    """Where the extracted answer is written in the response: its last occurrence (answers come last),
    or None when it is not written there as extracted (e.g. ``1000`` read from ``1,000``)."""
    if not text or not extracted:
        return None
    needle = extracted.strip()
    at = text.rfind(needle) if needle else -1
    return None if at < 0 else (at, at + len(needle))


def clip(
    text: str | None, span: tuple[int, int] | None, limit: int
) -> tuple[str | None, tuple[int, int] | None, str | None]:
    """``text`` cut to about ``limit`` characters: its head and the part around the span (or its tail),
    the cuts marked in the text. Returns the text, the span moved with it, and a note of what was cut."""
    if text is None or len(text) <= limit:
        return text, span, None
    head = min(limit // 10, 1_000)
    window = limit - head
    end = len(text) if span is None else min(len(text), max(span[1] + window // 4, span[1]))
    start = max(head, end - window)
    if span is not None and span[0] < start:  # a long span: keep its start
        start = max(head, span[0] - 200)
        end = min(len(text), start + window)
    first = _CUT.format(n=start - head)
    out = text[:head] + (first if start > head else "") + text[start:end]
    if end < len(text):
        out += _CUT.format(n=len(text) - end)
    moved = None
    if span is not None and start <= span[0] and span[1] <= end:
        shift = head + (len(first) if start > head else 0) - start
        moved = (span[0] + shift, span[1] + shift)
    kept = end - start + head
    return out, moved, f"{len(text) - kept:,} of {len(text):,} characters left out here (marked […])."


class Budget:
    """Characters of response text a page may still take; past it, texts get the short limit."""

    def __init__(self, total: int, long: int, short: int) -> None:
        self.left, self.long, self.short = total, long, short
        self.shortened = 0

    def take(
        self, text: str | None, span: tuple[int, int] | None
    ) -> tuple[str | None, tuple[int, int] | None, str | None]:
        limit = self.long if self.left > 0 else self.short
        if text is not None and limit == self.short and len(text) > self.short:
            self.shortened += 1
        out, moved, note = clip(text, span, limit)
        self.left -= len(out or "")
        return out, moved, note
