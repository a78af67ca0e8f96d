"""Make the lm-evaluation-harness fixtures in tests/data/logs/lm_eval/ with lm-eval itself.

Run with a SCRATCH venv that has lm-eval (not the project venv; nothing here is a project dependency):

    python3.11 -m venv /tmp/venv-lmeval
    /tmp/venv-lmeval/bin/pip install lm-eval==0.4.13 "math-verify[antlr4-11-0]==0.9.0"
    HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 /tmp/venv-lmeval/bin/python scripts/log_fixtures/make_lm_eval.py

What is real and what is made up:
- The log files are written by lm-eval's own ``simple_evaluate`` + ``EvaluationTracker`` (the code path of
  ``lm_eval --log_samples``), with lm-eval's own task YAMLs (gsm8k, gsm8k_cot, minerva_math, hendrycks_math)
  whose only change is where the data comes from: ``dataset_path: json`` with local ``data_files`` (the
  Hugging Face Hub is not reachable here). lm-eval computes ``target``, ``filtered_resps`` and every metric.
- GSM8K questions/solutions are the bundled GSM8K test set (data/answer_check/gsm8k_xwin.json); the gold
  ``answer`` is rebuilt in GSM8K's own form ``<solution>\\n#### <answer>``.
- The model is a canned ``LM``: GSM8K responses are the reference solution followed by an answer line in one
  of several styles (``#### 18``, ``The answer is 18.``, ``\\boxed{18}``, a wrong number, a trailing number,
  no answer). Those answer lines are ours, written to show where graders differ.
- MATH responses are REAL Qwen2.5-Math-7B-Instruct outputs
  (data/answer_check/qwen25math_math_cot_100_graded.jsonl, sample 0 of each problem). That file has no
  problem statements, so each doc's ``problem`` is a placeholder ("MATH problem <idx> (level ...)") and its
  ``solution`` is ``The answer is $\\boxed{<gold>}$.``.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests/data/logs/lm_eval"
N_GSM8K = 12
N_MATH = 12


def gsm8k_docs() -> list[dict]:
    items = json.loads((ROOT / "data/answer_check/gsm8k_xwin.json").read_text(encoding="utf-8"))
    return [
        {"question": it["question"], "answer": f"{it['solution'].rstrip()}\n#### {it['answer']}"}
        for it in items
    ]


def gsm8k_response(i: int, doc: dict) -> str:
    sol, ans = doc["answer"].rsplit("\n#### ", 1)
    style = i % 6
    if style == 0:
        return f" {sol}\n#### {ans}"  # lm-eval's own format: everyone agrees
    if style == 1:
        return f" {sol}\nThe answer is {ans}."  # no '####': strict-match finds nothing
    if style == 2:
        # boxed: flexible-extract takes the last number
        return f" {sol}\nSo the final answer is $\\boxed{{{ans}}}$."
    if style == 3:
        return f" {sol}\n#### {int(ans) + 1}"  # a wrong answer
    if style == 4:
        return f" {sol}\nThe answer is {ans} dollars, which is 2 more than 3 weeks ago."  # trailing numbers
    return " I am not sure how to solve this problem."  # no answer


def math_docs() -> list[dict]:
    rows = [
        json.loads(line)
        for line in (ROOT / "data/answer_check/qwen25math_math_cot_100_graded.jsonl").read_text().splitlines()
    ]
    docs = []
    for r in rows:
        if r["sample"] != 0:
            continue
        docs.append(
            {
                "problem": f"MATH problem {r['idx']} ({r['level']})",
                "solution": f"The answer is $\\boxed{{{r['gold']}}}$.",
                "level": r["level"],
                "type": "Unknown",
                "unique_id": f"qwen25math_math_cot_100/{r['idx']}",
                "response": r["response"],
            }
        )
    return docs


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def main() -> None:
    import lm_eval
    from lm_eval import evaluator
    from lm_eval.api.model import LM
    from lm_eval.loggers import EvaluationTracker
    from lm_eval.tasks import TaskManager

    tasks_dir = Path(lm_eval.__file__).parent / "tasks"
    work = Path(tempfile.mkdtemp(prefix="lmeval-fixture-"))
    gsm = gsm8k_docs()
    write_jsonl(work / "gsm8k_train.jsonl", gsm[-20:])
    write_jsonl(work / "gsm8k_test.jsonl", gsm[:N_GSM8K])
    mdocs = math_docs()[:N_MATH]
    write_jsonl(work / "math_test.jsonl", [{k: v for k, v in d.items() if k != "response"} for d in mdocs])
    write_jsonl(work / "math_train.jsonl", [{k: v for k, v in d.items() if k != "response"} for d in mdocs])
    canned = {d["question"]: gsm8k_response(i, d) for i, d in enumerate(gsm[:N_GSM8K])}
    canned.update({d["problem"]: d["response"] for d in mdocs})

    # lm-eval's own YAMLs, included unchanged except for the local data source.
    local_gsm = (
        "dataset_path: json\ndataset_name: null\n"
        "dataset_kwargs:\n  data_files:\n"
        f"    train: {work / 'gsm8k_train.jsonl'}\n    test: {work / 'gsm8k_test.jsonl'}\n"
    )
    local_math = (
        "dataset_path: json\ndataset_name: null\n"
        "dataset_kwargs:\n  data_files:\n"
        f"    train: {work / 'math_train.jsonl'}\n    test: {work / 'math_test.jsonl'}\n"
    )
    yaml_dir = work / "tasks"
    yaml_dir.mkdir()
    (yaml_dir / "gsm8k_local.yaml").write_text(
        f"include: {tasks_dir / 'gsm8k/gsm8k.yaml'}\ntask: gsm8k_local\ntag: []\n" + local_gsm
    )
    (yaml_dir / "gsm8k_cot_local.yaml").write_text(
        f"include: {tasks_dir / 'gsm8k/gsm8k-cot.yaml'}\ntask: gsm8k_cot_local\ntag: []\n" + local_gsm
    )
    # minerva_math's process_docs / process_results live in its utils.py, next to the YAML.
    for name in ("minerva_math", "hendrycks_math"):
        shutil.copy(tasks_dir / name / "utils.py", yaml_dir / f"{name}_utils.py")
    minerva = (tasks_dir / "minerva_math/minerva_math_algebra.yaml").read_text()
    minerva = minerva.replace("utils.", "minerva_math_utils.").replace(
        "task: minerva_math_algebra", "task: minerva_math_local"
    )
    minerva = minerva.replace("dataset_path: EleutherAI/hendrycks_math\n", "").replace(
        "dataset_name: algebra\n", ""
    )
    (yaml_dir / "minerva_math_local.yaml").write_text(minerva + local_math)
    hend = (tasks_dir / "hendrycks_math/hendrycks_math_algebra.yaml").read_text()
    hend = hend.replace("utils.", "hendrycks_math_utils.").replace(
        "task: hendrycks_math_algebra", "task: hendrycks_math_local"
    )
    hend = hend.replace("dataset_path: EleutherAI/hendrycks_math\n", "").replace(
        "dataset_name: algebra\n", ""
    )
    (yaml_dir / "hendrycks_math_local.yaml").write_text(hend + local_math)

    class CannedLM(LM):
        """Answers from a fixed table keyed by the question text (no weights, no network)."""

        def generate_until(self, requests, disable_tqdm: bool = False):
            out = []
            for req in requests:
                doc = req.doc
                key = doc.get("question", doc.get("problem"))
                out.append(canned[key])
            return out

        def loglikelihood(self, requests, disable_tqdm: bool = False):  # pragma: no cover
            raise NotImplementedError

        def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):  # pragma: no cover
            raise NotImplementedError

    tm = TaskManager(include_path=str(yaml_dir))
    task_names = ["gsm8k_local", "gsm8k_cot_local", "minerva_math_local", "hendrycks_math_local"]
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
    tracker.general_config_tracker.model_name = "canned/gsm8k-math"
    tracker.general_config_tracker.model_name_sanitized = "canned__gsm8k-math"
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
