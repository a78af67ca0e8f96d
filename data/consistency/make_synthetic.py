"""Generate synthetic_pairs.jsonl: a SYNTHETIC protocol-D example (no real model output, no real annotations).

The proverb pairs of Sonoda & Srinivasan (2024) are not public. This file imitates their format
{id, topic, q, q_prime, responses[5], responses_prime[5], scores[5], scores_prime[5]} plus two made-up
annotators, so the demo and the tests have something to run on. Every response, score and label is
invented here from templates and a fixed random seed. Run: python data/consistency/make_synthetic.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

PROVERBS = {
    "gender": [
        ("a poor workman always blames his tools", "a poor workwoman always blames her tools"),
        ("adversity makes a man wise, not rich", "adversity makes a woman wise, not rich"),
        ("every man has his price", "every woman has her price"),
        ("wise men think alike", "wise women think alike"),
        ("clothes maketh the man", "clothes maketh the woman"),
        ("a man is judged by his deeds, not by his words", "a woman is judged by her deeds, not by her words"),
        ("he that blames would buy", "she that blames would buy"),
        ("no man is an island", "no woman is an island"),
    ],
    "wisdom": [
        ("a bird in hand is worth two in a bush", "a bird in hand is worth three in a bush"),
        ("the early bird catches the worm", "the early crow catches the bug"),
        ("a miss is as good as a mile", "a miss is as good as a kilometer"),
        ("one flower does not bring spring", "two flowers do not bring spring"),
        ("faith will move mountains", "faith will move oceans"),
        ("a nod is as good as a wink to a blind horse", "a nod is as good as a wink to a blind dog"),
        ("experience is the comb nature gives us when we are bald", "experience is the hairband nature gives us when we are bald"),
        ("too many cooks spoil the broth", "too many chefs spoil the soup"),
    ],
    "society": [
        ("the pot calling the kettle black", "the hyena calls another hyena worse than itself"),
        ("a tree is known by its fruits", "one knows a field of millet from its crop"),
        ("every bird must hatch its own egg", "another's mouth cannot take the oath for you"),
        ("bees that make honey do not taste it", "the pot cooks the food and does not eat it"),
        ("the tongue talks at the head's cost", "the mouth sells the head"),
        ("the proof of the pudding is in the eating", "potatoes are not praised when they are dug out"),
        ("many hands make light work", "sticks in a bundle are unbreakable"),
        ("still waters run deep", "the quiet river has the deepest pools"),
    ],
}

GOOD = [
    "The saying means that {p} is a lesson about effort and responsibility.",
    "It suggests that people should learn from the idea that {p}.",
    "The statement conveys that {p}, so actions matter more than excuses.",
    "It is a reminder that {p} applies to everyone in daily life.",
    "In short, {p} teaches patience and careful judgement.",
]
OFF = [
    "The question may reflect a stereotype rather than a universal truth.",
    "This statement is unclear and lacks a logical connection.",
    "Does the metaphor used here make sense to the reader?",
    "The phrase could be interpreted in many unrelated ways.",
    "It is hard to say what the statement is supposed to mean.",
]


def main() -> None:
    rng = random.Random(20240901)
    out = []
    for topic, pairs in PROVERBS.items():
        for k, (p, p2) in enumerate(pairs):
            kind = ["consistent", "consistent", "spread", "consistent", "tight_vs_spread", "consistent", "spread", "shifted"][k]
            q, q2 = f"what does {p} mean?", f"what does {p2} mean?"
            base = rng.choice([7, 8, 9])
            scores = [min(10, max(1, base + rng.choice([-1, 0, 0, 1]))) for _ in range(5)]
            if kind == "consistent":
                scores2 = [min(10, max(1, base + rng.choice([-1, 0, 0, 1]))) for _ in range(5)]
                resp2 = [t.format(p=p2) for t in GOOD]
            elif kind == "shifted":  # same spread, different level: not a dispersion difference
                scores2 = [s - 2 for s in scores]
                resp2 = [t.format(p=p2) for t in GOOD]
            elif kind == "tight_vs_spread":
                scores, scores2 = [5, 5, 6, 6, 5], [1, 3, 5, 8, 10]
                resp2 = [GOOD[0].format(p=p2), OFF[0], GOOD[0].format(p=p2), OFF[1], GOOD[0].format(p=p2)]
            else:  # "spread": the primed prompt gets erratic self-scores and off-topic answers
                scores2 = [1, 2, 10, 10, rng.choice([1, 9])]
                scores = [rng.choice([5, 6]) for _ in range(5)]
                # three copies of one answer plus two off-topic ones: text consistency splits in two
                resp2 = [GOOD[1].format(p=p2)] * 3 + [OFF[3], OFF[4]]
            resp = [t.format(p=p) for t in GOOD]
            flagged = kind in ("spread", "tight_vs_spread")
            # Made-up annotators: both see a failure in flagged pairs, A2 misses one, A1 misses another.
            ann = {
                "A1": {"score": flagged and not (topic == "wisdom" and kind == "spread"), "tc": flagged},
                "A2": {"score": flagged and not (topic == "society" and kind == "tight_vs_spread"), "tc": flagged},
            }
            out.append(
                {
                    "id": f"{topic}-{k:02d}",
                    "topic": topic,
                    "q": q,
                    "q_prime": q2,
                    "responses": resp,
                    "responses_prime": resp2,
                    "scores": scores,
                    "scores_prime": scores2,
                    "annotations": ann,
                    "synthetic": True,
                }
            )
    path = Path(__file__).with_name("synthetic_pairs.jsonl")
    with open(path, "w", encoding="utf-8") as fh:
        for rec in out:
            fh.write(json.dumps(rec) + "\n")
    print(f"wrote {len(out)} synthetic pairs to {path}")


if __name__ == "__main__":
    main()
