"""Build the doc sets of tests/data/logs/sources/ (real MATH and GSM8K problems with their real solutions).

The frameworks' fixture scripts (make_lm_eval_real.py, make_lighteval_real.py) read only these files and
data/answer_check/; this script makes them once from two public files (run it from the repository root,
with the project's venv or any Python 3.11; it needs nothing but the standard library):

    git --git-dir=<clone of QwenLM/Qwen2.5-Math> show \\
        HEAD:evaluation/data/eval_rm_maj_example/math_cot_100.jsonl > /tmp/qwen_math_cot_100.jsonl
    git --git-dir=<clone of cmu-mind/RISE> show HEAD:data/math/test.jsonl > /tmp/rise_math_test.jsonl
    python scripts/log_fixtures/make_real_sources.py /tmp/qwen_math_cot_100.jsonl /tmp/rise_math_test.jsonl

What comes from where:
- ``math_prealgebra.jsonl`` (30 docs) and ``math_prealgebra_maj.jsonl`` (6 docs): MATH test problems
  with their real worked solutions. Qwen2.5-Math's ``math_cot_100.jsonl`` carries, for each of its 100
  problems, the MATH ``question`` and ``solution`` (= ``gt_cot``) beside the 8 Qwen2.5-Math-7B-Instruct
  responses that data/answer_check/qwen25math_math_cot_100_graded.jsonl holds (matched here on ``idx``,
  gold and the responses themselves, which are checked to be identical). Those 100 problems are the first
  100 rows of Qwen2.5-Math's ``evaluation/data/math/test.jsonl`` (MATH test, Prealgebra first): all are
  Prealgebra, and their ``unique_id`` s (``test/prealgebra/<n>.json``, as in MATH-500 / PRM800K) are
  listed below, read from that file (its rows carry ``subject`` and ``unique_id``; the problem texts
  were compared one by one). ``qwen_idx`` is the problem's ``idx`` in the Qwen files, the key into the
  graded responses. The 30 docs are the 14 problems whose 8 samples are not all right by Qwen's grader
  (where graders and majority votes differ) plus the first 16 on which all 8 samples are right; the 6
  ``maj`` docs (``MAJ_IDX``) are non-unanimous problems picked so that the first sample and the majority
  of the 8 disagree on some (right/wrong both ways, and two 4-4 ties).
- ``math_algebra.jsonl`` (12 docs): the first 12 Algebra problems of cmu-mind/RISE ``data/math/test.jsonl``
  (a 1000-problem subset of the MATH test split in MATH's own ``problem/level/type/solution`` format). There
  are no real model outputs for them; the fixture scripts answer them with canned responses.
- ``gsm8k_test.jsonl`` (20 docs), ``gsm8k_train.jsonl`` (20 docs), ``gsm8k_sc_test.jsonl`` (the first 6 of
  the test docs): GSM8K test questions and solutions from data/answer_check/gsm8k_xwin.json, the answer
  rebuilt in GSM8K's own ``<solution>\\n#### <answer>`` form.

Licences: MATH (MIT, Hendrycks et al.); Qwen2.5-Math (MIT); GSM8K (MIT, OpenAI) via Xwin-Math (MIT).
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests/data/logs/sources"
GRADED = ROOT / "data/answer_check/qwen25math_math_cot_100_graded.jsonl"

# unique_id numbers (test/prealgebra/<n>.json) of Qwen idx 0..99,
# from Qwen2.5-Math evaluation/data/math/test.jsonl.
PREALGEBRA_IDS = [
    126, 1397, 1712, 1462, 1812, 1746, 1055, 394, 972, 1910,
    866, 1940, 1880, 1407, 1136, 1572, 1419, 1626, 954, 1796,
    439, 1157, 1321, 1456, 1641, 1885, 1460, 1440, 1139, 221,
    1312, 1066, 527, 1828, 1129, 1348, 1639, 795, 1032, 858,
    1365, 2022, 1193, 1512, 1061, 2078, 946, 1342, 1071, 1491,
    75, 1144, 390, 865, 1620, 2072, 1020, 928, 1820, 759,
    1065, 890, 375, 132, 1409, 1454, 1736, 953, 1961, 1284,
    1195, 1564, 1130, 1447, 70, 847, 1729, 1650, 1402, 1586,
    1083, 2010, 1596, 960, 1530, 2088, 1326, 1323, 339, 1597,
    1652, 1732, 1868, 364, 1403, 195, 942, 1095, 1657, 1475,
]  # fmt: skip
N_MATH = 30
MAJ_IDX = [17, 37, 58, 70, 92, 98]
N_ALGEBRA = 12
N_GSM8K = 20
N_GSM8K_TRAIN = 20
N_GSM8K_SC = 6


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def last_boxed(text: str) -> str:
    """The content of the last ``\\boxed{...}`` (braces balanced), for the ``answer`` field MATH-500 has."""
    start = text.rfind("\\boxed{")
    i, depth = start + len("\\boxed{"), 1
    while depth:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return text[start + len("\\boxed{") : i - 1]


def main() -> None:
    qwen_path, rise_path = Path(sys.argv[1]), Path(sys.argv[2])
    qwen = {r["idx"]: r for r in read_jsonl(qwen_path)}
    graded: dict[int, dict[int, dict]] = defaultdict(dict)
    for r in read_jsonl(GRADED):
        graded[r["idx"]][r["sample"]] = r
    assert sorted(qwen) == sorted(graded) == list(range(100))
    for idx, samples in graded.items():
        q = qwen[idx]
        assert q["gt"] == samples[0]["gold"] and q["solution"] == q["gt_cot"]
        assert [samples[k]["response"] for k in range(8)] == q["response"], idx

    def doc(idx: int) -> dict:
        q = qwen[idx]
        return {
            "problem": q["question"],
            "level": q["level"],
            "type": "Prealgebra",
            "solution": q["solution"],
            "answer": last_boxed(q["solution"]),
            "subject": "Prealgebra",
            "unique_id": f"test/prealgebra/{PREALGEBRA_IDS[idx]}.json",
            "qwen_idx": idx,
        }

    verdicts = {i: [graded[i][k]["qwen_grader_verdict"] for k in range(8)] for i in range(100)}
    mixed = [i for i in range(100) if len(set(verdicts[i])) > 1 or not verdicts[i][0]]
    unanimous = [i for i in range(100) if all(verdicts[i])]
    chosen = sorted(mixed + unanimous[: N_MATH - len(mixed)])
    maj = MAJ_IDX
    assert set(maj) <= set(mixed)

    OUT.mkdir(parents=True, exist_ok=True)
    write_jsonl(OUT / "math_prealgebra.jsonl", [doc(i) for i in chosen])
    write_jsonl(OUT / "math_prealgebra_maj.jsonl", [doc(i) for i in maj])
    algebra = [r for r in read_jsonl(rise_path) if r["type"] == "Algebra"][:N_ALGEBRA]
    write_jsonl(
        OUT / "math_algebra.jsonl",
        [{k: r[k] for k in ("problem", "level", "type", "solution")} for r in algebra],
    )
    gsm = json.loads((ROOT / "data/answer_check/gsm8k_xwin.json").read_text(encoding="utf-8"))
    gsm_docs = [
        {"question": g["question"], "answer": f"{g['solution'].rstrip()}\n#### {g['answer']}"} for g in gsm
    ]
    write_jsonl(OUT / "gsm8k_test.jsonl", gsm_docs[:N_GSM8K])
    write_jsonl(OUT / "gsm8k_train.jsonl", gsm_docs[-N_GSM8K_TRAIN:])
    write_jsonl(OUT / "gsm8k_sc_test.jsonl", gsm_docs[:N_GSM8K_SC])
    print(f"prealgebra {chosen}\nmaj {maj}", file=sys.stderr)


if __name__ == "__main__":
    main()
