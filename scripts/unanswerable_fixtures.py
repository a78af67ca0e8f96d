"""Regenerate tests/data/unanswerable/{spacy_tokens,hunspell_words}.jsonl, the oracle outputs that
tests/test_unanswerable.py compares the Rust tokenizer and dictionary check with.

Needs spaCy 3.8 and spylls (pure-Python Hunspell) in the running interpreter, and the `hunspell`
command (Debian: apt-get install hunspell; 1.7.1 in bookworm) for the libhunspell column, the one
Enchant uses; the test suite itself needs none of them. Texts: a seeded sample of UMWP and
SelfAware questions (CC-BY-SA-4.0, data/umwp, data/selfaware) and generated answer-like sentences.

    python -m venv /tmp/oracle && /tmp/oracle/bin/pip install 'spacy==3.8.*' spylls
    /tmp/oracle/bin/python scripts/unanswerable_fixtures.py
"""

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import spacy
from spylls.hunspell import Dictionary

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "unanswerable"

PIECES = [
    "The",
    "answer",
    "is",
    "x",
    "y",
    "n",
    "2x+3",
    "$12",
    "(b + 2)",
    "I",
    "I'm",
    "don't",
    "can't",
    "cannot",
    "5kg",
    "3pm",
    "well-known",
    "miles/hour",
    "=",
    "x=5",
    "20%",
    "Weng",
    "Tobias",
    "John's",
    '"quoted"',
    "'single'",
    "3,000",
    "1/2",
    "x^2",
    "a-b",
    "5-year-old",
    "£5",
    "US$10",
    "#1",
    "@home",
    "—",
    "km²",
    "won't",
    "they're",
    "it's",
    "ABC",
    "Legos",
    "LEGOS",
    "kgs",
    "10km",
    "+5",
    "-3",
    "x*y",
    "[a]",
    "{b}",
    "<c>",
    "a:b",
    "c;d",
    "~5",
    "x–y",
    "Thus,",
    "hope",
    "helps!",
    "apples",
    "  ",
    "\t",
]


def main() -> None:
    rng = random.Random(20261126)
    umwp = [
        json.loads(line)["question"]
        for line in open(ROOT / "python/matheval_fast/datasets/umwp/StandardDataset.jsonl")
    ]
    selfaware = [
        e["question"]
        for e in json.load(open(ROOT / "python/matheval_fast/datasets/selfaware/SelfAware.json"))["example"]
    ]
    texts = rng.sample(umwp, 500) + rng.sample(selfaware, 300)
    texts += [" ".join(rng.choice(PIECES) for _ in range(rng.randint(1, 12))) for _ in range(1200)]
    nlp = spacy.blank("en")
    OUT.mkdir(parents=True, exist_ok=True)
    words = set()
    with open(OUT / "spacy_tokens.jsonl", "w") as f:
        for t in texts:
            toks = [x.text for x in nlp(t)]
            words.update(w for w in toks if re.fullmatch("[a-zA-Z]+", w))
            f.write(json.dumps({"text": t, "tokens": toks}, ensure_ascii=False) + "\n")
    d = Dictionary.from_files(str(ROOT / "data/hunspell/en_US"))
    words |= {w.upper() for w in list(words)} | {w.lower() for w in list(words)}
    ordered = sorted(words)
    libhunspell = _hunspell_cli(ordered)
    with open(OUT / "hunspell_words.jsonl", "w") as f:
        for w in ordered:
            row = {"word": w, "spylls": bool(d.lookup(w)), "hunspell": libhunspell.get(w)}
            f.write(json.dumps(row) + "\n")


def _hunspell_cli(words: list[str]) -> dict[str, bool]:
    """Verdicts of the hunspell command (`-a` pipe mode: one result line per word)."""
    exe = shutil.which("hunspell")
    if exe is None:
        return {}
    out = subprocess.run(
        [exe, "-d", str(ROOT / "data/hunspell/en_US"), "-a"],
        input="".join(f"^{w}\n" for w in words),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()[1:]
    results = [line for line in out if line]
    assert len(results) == len(words)
    return {w: r[0] in "*+-" for w, r in zip(words, results, strict=True)}


if __name__ == "__main__":
    main()
