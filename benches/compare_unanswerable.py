"""Protocol B throughput: matheval_fast against the original scripts' steps in Python, same run.

Workload: N UMWP-style outputs (seeded): a dataset question restated, two reasoning lines, and one of
the demo's closing sentences (answers, "cannot be answered" phrases, "I hope this helps!", "x = 5").

- ours/prepare: ``_core.unanswerable_prepare`` (split, 6-word windows with dedup across outputs, the
  math-expression rule with its tokenizer and Hunspell check), ``--threads`` threads.
- peer/prepare: the scripts' steps in Python: ``re.split``, ``cut_sub_string``, and the math rule with
  ``spacy.blank("en")`` and a Hunspell check by spylls (pure Python; eval.py uses pyenchant, a C
  library, when the system has Enchant). Needs spaCy and spylls; timed on ``--peer-n`` outputs.
- ours/model vs peer/model (``--model DIR``, an ONNX embedding directory): ``unanswerable.detect``
  (each distinct window embedded once, references once) against eval.py's per-output loop (encode the
  output's windows and all references, max cosine) with the same ONNX model; verdicts compared.

    python benches/compare_unanswerable.py --fast
    python benches/compare_unanswerable.py -n 200000 --model out/minilm

The per-output loop costs the same for every output (no state crosses outputs), so with
``--peer-model-n M`` below ``--model-n`` it runs on the first M outputs only and its time for all of
them is M's time scaled by N / M (printed as such); verdicts are compared on those M.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import time
from pathlib import Path

import numpy as np
from matheval_fast import _core, unanswerable

ROOT = Path(__file__).resolve().parents[1]
ENDINGS = [
    "The answer is {n}.",
    "The answer is {n}. I hope this helps!",
    "So x = {n}, and the total is {n} dollars.",
    "Thus, this problem cannot be answered.",
    "We need to know the value of n.",
    "There is not enough information to determine the answer.",
    "Therefore she has {n} apples left.",
]


def workload(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    qs = [
        json.loads(line)["question"]
        for line in open(ROOT / "python/matheval_fast/datasets/umwp/StandardDataset.jsonl", encoding="utf-8")
    ]
    out = []
    for _ in range(n):
        q = rng.choice(qs)
        a, b = rng.randint(1, 99), rng.randint(1, 99)
        end = rng.choice(ENDINGS).format(n=a + b)
        out.append(f"Let's solve it step by step. {q}\nFirst, {a} + {b} = {a + b}.\n{end}")
    return out


def peer_prepare(texts: list[str]) -> list[bool]:
    import spacy
    from spylls.hunspell import Dictionary

    nlp = spacy.blank("en")
    d = Dictionary.from_files(str(ROOT / "data/hunspell/en_US"))
    extra = json.load(open(ROOT / "data/umwp/extra_dictionary_words.json"))
    words = set(extra["names"] + extra["locations"] + extra["others"])

    def common(w: str) -> bool:
        if not re.match(r"^[a-zA-Z]+$", w) or (len(w) < 2 and w not in ("a", "A", "i")):
            return False
        return w in words or w.lower() in words or d.lookup(w)

    def has_math(s: str) -> bool:
        exprs, item = [], ""
        for t in nlp(s):
            if t.text in (",", ".", "'s") or t.is_quote:
                continue
            if not common(t.text):
                item += t.text
            elif item:
                exprs.append(item)
                item = ""
        if item:
            exprs.append(item)
        return any(re.search("[a-zA-Z]", e) and re.match(r"^[0-9a-zA-Z()+\-*/\[\]]*$", e) for e in exprs)

    flags = []
    for text in texts:
        pieces = [s.strip() for s in re.split(r"(\.|\!|\?|。|！|？|\.{6}|\n)", text) if s.strip()]
        windows = []
        for p in pieces:
            if len(p) >= 2:
                s = p.strip().lower()
                s = s[:-1] if s[-1] in ".,?!" else s
                w = s.split()
                windows += [s] if len(w) <= 6 else [" ".join(w[i : i + 6]) for i in range(len(w) - 5)]
        flags.append(any(has_math(p) for p in pieces[-3:]))
    return flags


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=200_000)
    ap.add_argument("--peer-n", type=int, default=2_000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--model", type=Path)
    ap.add_argument("--model-n", type=int, default=2_000)
    ap.add_argument("--peer-model-n", type=int, help="outputs the per-output loop runs on (default: all)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--fast", action="store_true")
    args = ap.parse_args()
    if args.fast:
        args.n, args.peer_n, args.model_n = 20_000, 200, 200
    print(f"python {platform.python_version()}, {os.cpu_count()} cpus, build {_core.build_profile}")
    texts = workload(args.n)
    _core.unanswerable_prepare(texts[:1000], threads=args.threads)  # warm-up: dictionary, tokenizer
    runs = []
    for _ in range(args.repeat):  # the median of several runs: the machine may be shared
        t = time.perf_counter()
        batch = _core.unanswerable_prepare(texts, threads=args.threads)
        runs.append(time.perf_counter() - t)
    ours = sorted(runs)[len(runs) // 2]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"ours/prepare runs: {', '.join(f'{r:.2f}' for r in runs)} s (load average {load:.2f})")
    total = sum(len(batch.windows(i)) for i in range(len(texts)))
    print(
        f"ours/prepare: {args.n} outputs in {ours:.2f} s = {args.n / ours:,.0f} outputs/s "
        f"({args.threads} threads; {total:,} windows, {len(batch.queries):,} distinct)"
    )
    try:
        peer_texts = texts[: args.peer_n]
        t = time.perf_counter()
        flags = peer_prepare(peer_texts)
        peer = time.perf_counter() - t
        mine = [batch.analysis(i)["math_expression"] is not None for i in range(len(peer_texts))]
        agree = sum(a == b for a, b in zip(flags, mine, strict=True))
        m = len(peer_texts)
        print(
            f"peer/prepare: {m} outputs in {peer:.2f} s = {m / peer:,.0f} outputs/s; "
            f"ratio {(args.n / ours) / (m / peer):,.0f}x; math flags agree {agree}/{m}"
        )
    except ImportError as exc:
        print(f"peer/prepare: skipped ({exc}); pip install spacy spylls")
    if args.model is None:
        return
    from matheval_fast.models import Embedder

    sub = texts[: args.model_n]
    peer_sub = sub[: args.peer_model_n or len(sub)]
    model = Embedder(args.model, cache_size=0)
    t = time.perf_counter()
    res = unanswerable.detect(sub, preset="umwp", scorer=model)
    ours_m = time.perf_counter() - t
    refs = _core.unanswerable_prepare([]).references
    t = time.perf_counter()
    peer_u = []
    for text in peer_sub:  # eval.py: per output, encode its windows and every reference
        b = _core.unanswerable_prepare([text])
        q = b.queries
        sims = model.encode(q) @ model.encode(refs).T if q else np.zeros((1, 1))
        peer_u.append(bool(sims.max() > 0.75) or b.analysis(0)["math_expression"] is not None)
    peer_m = time.perf_counter() - t
    scale = len(sub) / len(peer_sub)
    same = sum(a.unanswerable == b for a, b in zip(res.items, peer_u, strict=False))
    n_distinct = len(_core.unanswerable_prepare(sub).queries)
    peer_note = "" if scale == 1 else f" ({len(peer_sub)} outputs in {peer_m:.2f} s, x{scale:g})"
    print(
        f"ours/model: {len(sub)} outputs ({n_distinct:,} distinct windows) in {ours_m:.2f} s; "
        f"peer/model (per-output loop): {peer_m * scale:.2f} s{peer_note}; "
        f"ratio {peer_m * scale / ours_m:.1f}x; verdicts equal {same}/{len(peer_sub)}"
    )


if __name__ == "__main__":
    main()
