"""Reading a Yes/No verdict from a judge's answer, and majority votes over several samples.

Judges answer in many forms: ``Yes``, ``**Yes**``, ``yes.``, ``Answer: No``, ``No, LLM Y did not
notice ...``, a chain of thought ending in ``Final answer: Yes``, or JSON. :func:`parse_verdict`
reads these and returns ``unparseable`` with a reason when it cannot, never a guess. Rules, first
match wins (see ``docs/judge.md`` for examples):

1. ``json``: the answer (optionally in a ````` fence) is a JSON object with a ``verdict``,
   ``answer``, ``judgment``/``judgement``, ``decision``, ``identified`` or ``label`` key holding
   yes/no/true/false or a boolean.
2. ``bare``: the whole answer is one verdict word, markdown and punctuation aside.
3. ``marker``: the **last** ``final answer:``, ``answer:``, ``answer is``, ``verdict:``,
   ``judgment:``, ``decision:`` or ``conclusion:`` followed by yes/no.
4. ``lines``: the first line starts with a verdict word and/or the last line starts or ends with
   one (last line of at most 8 words); when both speak they must agree. A leading word set off by
   punctuation (``Yes, ...``) decides its line; otherwise a line holding both words says nothing.

Echoes of the instruction (``answer 'Yes' or 'No'``, ``Yes/No``) and lines holding both words are
never read as verdicts. For an answer cut by ``max_tokens`` (``truncated=True``) only a complete JSON
object, a bare word or an answer that *starts* with its verdict counts: the end of a cut chain of
thought is not a conclusion.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

__all__ = ["VERDICTS", "ParsedVerdict", "Vote", "majority_vote", "parse_verdict"]

Verdict = Literal["yes", "no", "unparseable"]
VERDICTS: tuple[str, ...] = ("yes", "no", "unparseable")

# Only the ends of very long answers are read: the rules look at the first and last lines and at
# the last marker, so a cap keeps the work per answer bounded.
_MAX_SCAN = 20_000

_FENCE = re.compile(r"^```[a-zA-Z]*\s*(.*?)\s*```$", re.S)
_JSON_KEYS = ("verdict", "answer", "final_answer", "judgment", "judgement", "decision", "identified", "label")
_DECORATION = re.compile(r"[*_`#>\"'‘’“”«»\[\]()]")
_WORD = {"yes": "yes", "no": "no", "true": "yes", "false": "no"}
_BARE = re.compile(r"^\s*(yes|no)\s*[.!]?\s*$")
_MARKER = re.compile(
    r"(?<!or )(?<!or final )"
    r"\b(?:final\s+answer|final\s+verdict|answer|verdict|judge?ment|decision|conclusion)"
    r"(?:\s*[:=\-]\s*|\s+is\s*:?\s*)(yes|no)\b(?!\s*(?:or\b|/|\|))"
)
# A leading verdict word set off by punctuation ("Yes, LLM Y saw there is no solution") decides
# whatever follows; without punctuation the line must not hold the other word too.
_LEAD_PUNCT = re.compile(r"^\s*(yes|no)\s*(?:[,.!:;\-\u2013\u2014]|$)")
_LEAD = re.compile(r"^\s*(yes|no)\b(?!\s*(?:or\b|/|\|))")
_TAIL = re.compile(r"\b(yes|no)\s*[.!]?\s*$")
_BOTH = re.compile(r"\byes\b.*\bno\b|\bno\b.*\byes\b", re.S)


@dataclass(frozen=True)
class ParsedVerdict:
    """A verdict read from one answer: ``yes``, ``no`` or ``unparseable``."""

    verdict: Verdict
    #: the rule that decided: json, bare, marker, lines; or "" when unparseable.
    rule: str
    #: why the answer could not be read (None when it could).
    reason: str | None = None


def _normalize(text: str) -> str:
    return _DECORATION.sub("", text).lower()


def _from_json(text: str) -> ParsedVerdict | None:
    body = text.strip()
    m = _FENCE.match(body)
    if m:
        body = m.group(1)
    if not body.startswith("{"):
        # A chain of thought may end with the JSON object on its own last line.
        last = body.rstrip().rsplit("\n", 1)[-1].strip()
        if not (last.startswith("{") and last.endswith("}")):
            return None
        body = last
    try:
        obj = json.loads(body)
    except ValueError:
        return None
    if not isinstance(obj, dict):
        return None
    lowered = {str(k).lower(): v for k, v in obj.items()}
    for key in _JSON_KEYS:
        if key in lowered:
            value = lowered[key]
            if isinstance(value, bool):
                return ParsedVerdict("yes" if value else "no", "json")
            if isinstance(value, str) and _normalize(value).strip(" .!") in _WORD:
                return ParsedVerdict(_WORD[_normalize(value).strip(" .!")], "json")  # type: ignore[arg-type]
            return ParsedVerdict("unparseable", "", f"JSON {key!r} is not yes/no: {str(value)[:40]!r}")
    return ParsedVerdict("unparseable", "", "JSON object without a verdict key")


def _line_verdict(line: str, *, tail: bool) -> str | None:
    m = _LEAD_PUNCT.match(line)
    if m:
        return m.group(1)
    if _BOTH.search(line):
        return None
    m = _LEAD.match(line)
    if m:
        return m.group(1)
    if tail and len(line.split()) <= 8:
        m = _TAIL.search(line)
        if m:
            return m.group(1)
    return None


_YES = ParsedVerdict("yes", "bare")
_NO = ParsedVerdict("no", "bare")
# The answers most judges give to a Yes/No prompt, read without any regex (same result as the rules).
_QUICK = {
    form.format(word): verdict
    for word, verdict in (("Yes", _YES), ("No", _NO), ("yes", _YES), ("no", _NO), ("YES", _YES), ("NO", _NO))
    for form in ("{}", "{}.", "**{}**", "**{}.**", "**{}**.", " {}", "{}\n")
}


def parse_verdict(text: str | None, *, truncated: bool = False) -> ParsedVerdict:
    """Read a Yes/No verdict from a judge's answer (see the module docstring for the rules)."""
    quick = _QUICK.get(text) if text is not None and len(text) < 12 else None
    if quick is not None:
        return quick
    return _parse(text, truncated=truncated)


def _parse(text: str | None, *, truncated: bool) -> ParsedVerdict:
    if text is None or not text.strip():
        return ParsedVerdict("unparseable", "", "empty answer")
    if len(text) > 2 * _MAX_SCAN:
        text = text[:_MAX_SCAN] + "\n" + text[-_MAX_SCAN:]
    parsed = _from_json(text)
    if parsed is not None and (parsed.verdict != "unparseable" or text.strip().startswith("{")):
        return parsed
    norm = _normalize(text)
    m = _BARE.match(norm)
    if m:
        return ParsedVerdict(m.group(1), "bare")  # type: ignore[arg-type]
    lines = [ln.strip() for ln in norm.splitlines() if ln.strip()]
    if truncated:
        first = _line_verdict(lines[0], tail=False) if lines else None
        if first is not None:
            return ParsedVerdict(first, "lines")  # type: ignore[arg-type]
        return ParsedVerdict("unparseable", "", "answer cut by max_tokens before a verdict")
    markers = _MARKER.findall(norm)
    if markers:
        return ParsedVerdict(markers[-1], "marker")
    first = _line_verdict(lines[0], tail=False) if lines else None
    last = _line_verdict(lines[-1], tail=True) if len(lines) > 1 else None
    if first and last and first != last:
        return ParsedVerdict("unparseable", "", f"first line says {first}, last line says {last}")
    if first or last:
        return ParsedVerdict(first or last, "lines")  # type: ignore[arg-type]
    return ParsedVerdict("unparseable", "", "no yes/no verdict found")


@dataclass(frozen=True)
class Vote:
    """Majority vote over the verdicts of ``n`` samples."""

    verdict: Verdict
    yes: int
    no: int
    unparseable: int
    reason: str | None = None


def majority_vote(verdicts: Iterable[str]) -> Vote:
    """``yes`` when more samples say yes than no, ``no`` when fewer, else ``unparseable``.

    Unparseable samples do not vote; a tie (including no readable sample) is ``unparseable`` with
    the reason, never a coin flip. Use an odd number of samples to avoid ties.
    """
    counts = {"yes": 0, "no": 0, "unparseable": 0}
    for v in verdicts:
        counts[v] += 1
    yes, no, bad = counts["yes"], counts["no"], counts["unparseable"]
    if yes > no:
        return Vote("yes", yes, no, bad)
    if no > yes:
        return Vote("no", yes, no, bad)
    reason = "no readable sample" if yes == 0 else f"tied vote {yes}-{no}"
    return Vote("unparseable", yes, no, bad, reason)
