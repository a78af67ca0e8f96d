"""Slow reference of UMWP's "mathematical expression" rule, written from its description
(docs/protocol_b.md; eval.py's `check_contains_math_expression` as recorded in the project's
hallucination-protocols reference, §1.3 B), with the real libraries the script uses or an
independent equivalent:

- tokens: spaCy's blank English tokenizer (``spacy.blank("en")``; the script loads en_core_web_sm
  and uses only its tokenizer) and spaCy's own ``Token.is_quote``;
- dictionary: spylls (a pure-Python Hunspell) over the vendored ``data/hunspell/en_US`` dictionary
  (Debian hunspell-en-us 2020.12.07), standing in for Enchant's hunspell provider;
- UMWP's 206 extra words as Enchant's personal word list matches them (``Dict.add``): a lower-case
  entry accepts itself and its Title and UPPER forms, a Title-case entry itself and its UPPER form,
  any other entry only itself. Enchant's hunspell provider refuses words over 100 bytes.

Every quirk switch of the Rust rule is a keyword here, faithful by default. Nothing here is imported
by the library; the tests compare the two on dataset questions and generated sentences.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

import spacy
from spylls.hunspell import Dictionary

ROOT = Path(__file__).resolve().parents[2]

SPLIT_NEWLINE = r"(\.|\!|\?|。|！|？|\.{6}|\n)"
SPLIT_NO_NEWLINE = r"(\.|\!|\?|。|！|？|\.{6})"
SKIPPED = (",", ".", "'s")
ALLOWED = r"^[0-9a-zA-Z()+\-*/\[\]]*$"


@functools.cache
def nlp():
    return spacy.blank("en")


@functools.cache
def hunspell() -> Dictionary:
    return Dictionary.from_files(str(ROOT / "data" / "hunspell" / "en_US"))


@functools.cache
def extra_words() -> tuple[str, ...]:
    d = json.load(open(ROOT / "data" / "umwp" / "extra_dictionary_words.json", encoding="utf-8"))
    return tuple(dict.fromkeys(d["names"] + d["locations"] + d["others"]))


@functools.cache
def extra_accepted(mode: str) -> frozenset[str]:
    """Every token the extra words accept under ``mode`` (entry-driven, as the description states)."""
    if mode == "off":
        return frozenset()
    out: set[str] = set()
    for e in extra_words():
        out.add(e)
        if mode != "enchant_case":
            continue
        if e == e.lower():
            out.update({e[:1].upper() + e[1:], e.upper()})
        elif e == e[:1].upper() + e[1:].lower():
            out.add(e.upper())
    return frozenset(out)


@functools.cache
def hunspell_lookup(word: str) -> bool:
    if len(word.encode()) > 100:  # Enchant's hunspell provider: too long, not a word
        return False
    return bool(hunspell().lookup(word))


@functools.lru_cache(maxsize=1 << 18)
def tokens(item: str) -> tuple[tuple[str, bool], ...]:
    """spaCy's tokens of one item with spaCy's ``Token.is_quote`` (cached: the switch variants reuse them)."""
    return tuple((tok.text, tok.is_quote) for tok in nlp()(item))


def is_common(token: str, *, capital_i: str = "variable", extra_words: str = "enchant_case") -> bool:
    """eval.py's `is_english_word` with Enchant's en_US check and UMWP's added words."""
    if not re.match(r"^[a-zA-Z]+$", token):
        return False
    singles = ("a", "A", "i") + (("I",) if capital_i == "word" else ())
    if len(token) < 2 and token not in singles:
        return False
    return token in extra_accepted(extra_words) or hunspell_lookup(token)


def expressions(
    item: str,
    *,
    capital_i: str = "variable",
    equals: str = "hides_run",
    extra_words: str = "enchant_case",
) -> list[str]:
    """Every run of joined non-common tokens of one item, in order."""
    out, run = [], ""
    for t, is_quote in tokens(item):
        if t in SKIPPED or is_quote:
            continue
        if is_common(t, capital_i=capital_i, extra_words=extra_words) or (t == "=" and equals == "separates"):
            if run:
                out.append(run)
                run = ""
        else:
            run += t
    if run:
        out.append(run)
    return out


def variable_expressions(item: str, **switches: str) -> list[str]:
    return [e for e in expressions(item, **switches) if re.search("[a-zA-Z]", e) and re.match(ALLOWED, e)]


def cut_sentence(text: str, newline: bool = True) -> list[str]:
    return [s.strip() for s in re.split(SPLIT_NEWLINE if newline else SPLIT_NO_NEWLINE, text) if s.strip()]


@dataclass(frozen=True)
class Hit:
    item_from_end: int
    item: str
    expression: str


def math_hit(text: str, *, items: int = 3, newline: bool = True, **switches: str) -> Hit | None:
    """The rule over the last ``items`` split items, last first: the first item with a passing
    expression, with its longest one (the first of that length)."""
    pieces = cut_sentence(text, newline)
    for k, item in enumerate(reversed(pieces[-items:] if items else [])):
        found = variable_expressions(item, **switches)
        if found:
            best = found[0]
            for e in found[1:]:
                if len(e) > len(best):
                    best = e
            return Hit(k, item, best)
    return None
