"""Make tests/data/logs/lm_eval_real/ with lm-evaluation-harness itself, on real MATH and GSM8K docs.

Run from the repository root with a SCRATCH venv that has lm-eval (not the project venv; nothing here is a
project dependency; the venv needs no torch):

    python3.11 -m venv /tmp/venv-lmeval
    /tmp/venv-lmeval/bin/pip install lm-eval==0.4.13 "math-verify[antlr4-11-0]==0.9.0"
    export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1
    /tmp/venv-lmeval/bin/python scripts/log_fixtures/make_lm_eval_real.py

It reads only tests/data/logs/sources/ (made by make_real_sources.py) and data/answer_check/, and replaces
tests/data/logs/lm_eval_real/. Then run collect_real_fixture_scores.py to refresh real_fixture_scores.json.

What is real and what is made up:
- The logs are written by lm-eval's own ``simple_evaluate`` + ``EvaluationTracker`` (the code path of
  ``lm_eval --log_samples``) with lm-eval's own task YAMLs, included or copied with only these changes: the
  data come from local JSON Lines files (``dataset_path: json`` + ``data_files``; the Hugging Face Hub is not
  reachable here), task/group names get ``_local``, and the multi-sample tasks have ``repeats: 8``. lm-eval
  computes ``target``, ``filtered_resps`` and every metric.
- Docs are real: MATH Prealgebra test problems with their real worked solutions, MATH Algebra test problems
  with their real solutions, GSM8K test questions with their real solutions (see sources/README.md).
- MATH Prealgebra answers are REAL Qwen2.5-Math-7B-Instruct outputs
  (data/answer_check/qwen25math_math_cot_100_graded.jsonl): sample 0 for single-sample tasks, samples 0..7
  as the 8 repeats of ``minerva_math_prealgebra_maj8_local``.
- MATH Algebra and GSM8K answers are canned by this script (no real outputs exist for them here): the
  reference solution followed by an answer line in one of several styles (right in the task's format, right
  in another format, wrong, none), written to show where graders differ. For GSM8K self-consistency the 8
  samples per question follow fixed patterns that make first-sample, majority and mean disagree.
- ``minerva_math_prealgebra_maj8_local`` is lm-eval's ``minerva_math_prealgebra`` YAML with ``repeats: 8`` and
  a ``filter_list`` of ours, modelled on lm-eval's ``gsm8k-cot-self-consistency.yaml`` (lm-eval ships no
  MATH task with repeats): ``score-first`` (``take_first``) and ``maj@8`` (``regex`` on ``\\boxed{...}``, then
  ``majority_vote``, ``take_first``). Minerva's ``process_results`` then scores the voted answer string.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "tests/data/logs/sources"
OUT = ROOT / "tests/data/logs/lm_eval_real"
REPEATS = 8
MODEL_NAME = "canned/qwen2.5-math-7b-instruct-outputs"


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def math500_jsonl(math: list[dict]) -> str:
    """MATH items as MATH-500's (PRM800K's) own jsonl rows, as the Hub's HuggingFaceH4/MATH-500 has them."""
    return "".join(
        json.dumps(
            {
                "problem": d["problem"],
                "solution": d["solution"],
                "answer": d["answer"],
                "subject": d["type"],
                "level": int(d["level"].split()[-1]),
                "unique_id": d["unique_id"],
            }
        )
        + "\n"
        for d in math
    )


def qwen_responses() -> dict[int, list[str]]:
    """idx -> the 8 real Qwen2.5-Math-7B-Instruct responses, in sample order."""
    out: dict[int, list[str]] = defaultdict(lambda: [""] * REPEATS)
    for r in read_jsonl(ROOT / "data/answer_check/qwen25math_math_cot_100_graded.jsonl"):
        out[r["idx"]][r["sample"]] = r["response"]
    return dict(out)


def last_boxed(text: str) -> str:
    start = text.rfind("\\boxed{")
    i, depth = start + len("\\boxed{"), 1
    while depth:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return text[start + len("\\boxed{") : i - 1]


def algebra_response(i: int, doc: dict) -> str:
    """A canned answer to a MATH Algebra doc: its real solution, then an answer line of ours."""
    sol, ans = doc["solution"], last_boxed(doc["solution"])
    style = i % 5
    if style == 0:  # Minerva's own format: exact_match and math_verify agree
        return f" {sol}\nFinal Answer: The final answer is ${ans}$. I hope it is correct."
    if style == 1:  # the boxed solution alone: no 'Final Answer' line for Minerva's exact_match
        return f" {sol}"
    if style == 2:  # a wrong final answer after a right solution
        return f" {sol}\nFinal Answer: The final answer is ${ans}+1$. I hope it is correct."
    if style == 3:
        return " I am not sure how to solve this problem."
    return f" Final Answer: The final answer is ${ans}$. I hope it is correct."  # the line alone


def gsm8k_response(i: int, doc: dict) -> str:
    """A canned answer to a GSM8K doc (as make_lm_eval.py): the solution, then an answer line of ours."""
    sol, ans = doc["answer"].rsplit("\n#### ", 1)
    style = i % 6
    if style == 0:
        return f" {sol}\n#### {ans}"  # GSM8K's own format
    if style == 1:
        return f" {sol}\nThe answer is {ans}."  # no '####': strict-match finds nothing
    if style == 2:
        return f" {sol}\nSo the final answer is $\\boxed{{{ans}}}$."
    if style == 3:
        return f" {sol}\n#### {int(ans) + 1}"  # a wrong answer
    if style == 4:
        return f" {sol}\nThe answer is {ans} dollars, which is 2 more than 3 weeks ago."  # trailing numbers
    return " I am not sure how to solve this problem."


def gsm8k_samples(i: int, doc: dict) -> list[str]:
    """8 canned chain-of-thought samples for one GSM8K doc, in one of six patterns (by ``i % 6``)."""
    sol, ans = doc["answer"].rsplit("\n#### ", 1)
    body = " " + " ".join(sol.split())
    right, wrong, other = int(ans), int(ans) + 1, int(ans) * 2 + 3  # two different wrong answers

    def say(n: int | None) -> str:
        return f"{body} The answer is {n}." if n is not None else f"{body} So that is the total."

    patterns = [
        [right] * 8,  # all agree and are right
        [wrong] + [right] * 7,  # first wrong, majority right
        [right] + [wrong] * 5 + [right] * 2,  # first right, majority wrong
        [wrong] * 4 + [right] * 4,  # a tie: majority_vote keeps the first-seen answer
        [None] * 5 + [right] * 3,  # most samples give no 'The answer is': '[invalid]' wins the vote
        [None] * 2 + [right] * 4 + [wrong, other],  # first has no answer line, majority right
    ]
    return [say(n) for n in patterns[i % 6]]


def main() -> None:
    import lm_eval
    from lm_eval import evaluator
    from lm_eval.api.model import LM
    from lm_eval.loggers import EvaluationTracker
    from lm_eval.tasks import TaskManager

    tasks_dir = Path(lm_eval.__file__).parent / "tasks"
    work = Path(tempfile.mkdtemp(prefix="lmeval-real-fixture-"))
    names = (
        "gsm8k_train",
        "gsm8k_test",
        "gsm8k_sc_test",
        "math_prealgebra",
        "math_prealgebra_maj",
        "math_algebra",
    )
    src = {name: SOURCES / f"{name}.jsonl" for name in names}
    gsm = read_jsonl(src["gsm8k_test"])
    qwen = qwen_responses()

    # (task, question or problem text) -> the canned responses, one per repeat
    canned: dict[tuple[str, str], list[str]] = {}
    for i, d in enumerate(gsm):
        for task in ("gsm8k_local", "gsm8k_cot_local"):
            canned[(task, d["question"])] = [gsm8k_response(i, d)]
    for i, d in enumerate(read_jsonl(src["gsm8k_sc_test"])):
        canned[("gsm8k_cot_self_consistency_local", d["question"])] = gsm8k_samples(i, d)
    for d in read_jsonl(src["math_prealgebra"]):
        for task in ("minerva_math_prealgebra_local", "hendrycks_math_prealgebra_local"):
            canned[(task, d["problem"])] = [qwen[d["qwen_idx"]][0]]
    for d in read_jsonl(src["math_prealgebra_maj"]):
        canned[("minerva_math_prealgebra_maj8_local", d["problem"])] = qwen[d["qwen_idx"]]
    for i, d in enumerate(read_jsonl(src["math_algebra"])):
        for task in ("minerva_math_algebra_local", "hendrycks_math_algebra_local"):
            canned[(task, d["problem"])] = [algebra_response(i, d)]

    def local(train: str, test: str) -> str:
        return (
            "dataset_path: json\ndataset_name: null\n"
            "dataset_kwargs:\n  data_files:\n"
            f"    train: {src[train]}\n    test: {src[test]}\n"
        )

    yaml_dir = work / "tasks"
    yaml_dir.mkdir()
    # GSM8K: lm-eval's YAMLs included; only the data source, the task name and (self-consistency) repeats
    # change.
    for name, base, test, extra in (
        ("gsm8k_local", "gsm8k/gsm8k.yaml", "gsm8k_test", ""),
        ("gsm8k_cot_local", "gsm8k/gsm8k-cot.yaml", "gsm8k_test", ""),
        (
            "gsm8k_cot_self_consistency_local",
            "gsm8k/gsm8k-cot-self-consistency.yaml",
            "gsm8k_sc_test",
            f"repeats: {REPEATS}\n",
        ),
    ):
        (yaml_dir / f"{name}.yaml").write_text(
            f"include: {tasks_dir / base}\ntask: {name}\ntag: []\n" + local("gsm8k_train", test) + extra
        )
    # MATH: process_docs / process_results live in each family's utils.py, next to its YAML; the YAML is
    # copied (an include would look for utils.py beside the copy) with ``utils.`` renamed and the Hub dataset
    # lines (dataset_path, dataset_name) replaced by the local files.
    for family in ("minerva_math", "hendrycks_math"):
        shutil.copy(tasks_dir / family / "utils.py", yaml_dir / f"{family}_utils.py")
        base = (tasks_dir / family / f"{family}_algebra.yaml").read_text()
        base = base.replace("utils.", f"{family}_utils.").replace(
            "dataset_path: EleutherAI/hendrycks_math\n", ""
        )
        base = base.replace("dataset_name: algebra\n", "").replace(
            "tag:\n  - math_word_problems\n", "tag: []\n"
        )
        for subject, test in (("algebra", "math_algebra"), ("prealgebra", "math_prealgebra")):
            text = base.replace(f"task: {family}_algebra", f"task: {family}_{subject}_local")
            (yaml_dir / f"{family}_{subject}_local.yaml").write_text(text + local(test, test))
    # the groups, as lm-eval's benchmarks/minerva_math.yaml and hendrycks_math/hendrycks_math.yaml have them
    (yaml_dir / "minerva_math_local_group.yaml").write_text(
        "group: minerva_math_local\ntask:\n  - minerva_math_algebra_local\n"
        "  - minerva_math_prealgebra_local\n"
        "aggregate_metric_list:\n"
        "  - metric: exact_match\n    aggregation: mean\n    weight_by_size: true\n"
        "  - metric: math_verify\n    aggregation: mean\n    weight_by_size: true\n"
        "metadata:\n  version: 1.0\n"
    )
    (yaml_dir / "hendrycks_math_local_group.yaml").write_text(
        "group: hendrycks_math_local\ntask:\n  - hendrycks_math_algebra_local\n"
        "  - hendrycks_math_prealgebra_local\n"
        "aggregate_metric_list:\n  - metric: exact_match\n    aggregation: mean\n    weight_by_size: true\n"
        "metadata:\n  version: 1.0\n"
    )
    # Minerva prealgebra with 8 real samples per problem; the filters are ours (see the module docstring).
    minerva = (yaml_dir / "minerva_math_prealgebra_local.yaml").read_text()
    minerva = minerva.replace(
        "task: minerva_math_prealgebra_local", "task: minerva_math_prealgebra_maj8_local"
    )
    minerva = minerva.replace(f"test: {src['math_prealgebra']}", f"test: {src['math_prealgebra_maj']}")
    (yaml_dir / "minerva_math_prealgebra_maj8_local.yaml").write_text(
        minerva
        + f"repeats: {REPEATS}\n"
        + "filter_list:\n"
        + '  - name: "score-first"\n    filter:\n      - function: "take_first"\n'
        + f'  - name: "maj@{REPEATS}"\n    filter:\n'
        + '      - function: "regex"\n        regex_pattern: "\\\\\\\\boxed\\\\{(.*)\\\\}"\n'
        + '      - function: "majority_vote"\n      - function: "take_first"\n'
    )

    served: Counter[tuple[str, int]] = Counter()

    class CannedLM(LM):
        """Answers from a fixed table keyed by task and question text (no weights, no network)."""

        def generate_until(self, requests, disable_tqdm: bool = False):
            out = []
            for req in requests:
                key = req.doc.get("question", req.doc.get("problem"))
                answers = canned[(req.task_name, key)]
                nth = served[(req.task_name, req.doc_id)]  # repeats arrive as consecutive clones
                served[(req.task_name, req.doc_id)] += 1
                out.append(answers[nth])
            return out

        def loglikelihood(self, requests, disable_tqdm: bool = False):  # pragma: no cover
            raise NotImplementedError

        def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):  # pragma: no cover
            raise NotImplementedError

    tm = TaskManager(include_path=str(yaml_dir))
    task_names = [
        "gsm8k_local",
        "gsm8k_cot_local",
        "gsm8k_cot_self_consistency_local",
        "minerva_math_local",
        "hendrycks_math_local",
        "minerva_math_prealgebra_maj8_local",
    ]
    tracker = EvaluationTracker(output_path=str(work / "out"))
    results = evaluator.simple_evaluate(
        model=CannedLM(),
        tasks=task_names,
        task_manager=tm,
        log_samples=True,
        evaluation_tracker=tracker,
        random_seed=0,
        numpy_random_seed=0,
        torch_random_seed=0,
        fewshot_random_seed=0,
    )
    tracker.general_config_tracker.model_name = MODEL_NAME
    tracker.general_config_tracker.model_name_sanitized = MODEL_NAME.replace("/", "__")
    samples = results.pop("samples")
    tracker.save_results_aggregated(results=results, samples=samples)
    for name in results["configs"]:
        tracker.save_results_samples(task_name=name, samples=samples[name])
    if OUT.exists():
        shutil.rmtree(OUT)
    shutil.copytree(work / "out", OUT)
    print(json.dumps(results["results"], indent=1))
    print(f"written under {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
