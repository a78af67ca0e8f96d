"""lm-evaluation-harness: the shipped task YAMLs run by lm-eval's own evaluator on local data files.

A canned ``LM`` answers each doc from a fixed table (GSM8K: written responses of every shape; MATH
Prealgebra: real Qwen2.5-Math-7B-Instruct responses), so the run needs no model and no network. Each
logged sample's ``matheval`` must equal :func:`matheval_fast.check` on its response and gold, and each
stock metric must equal the stock task's on the same responses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from matheval_fast import check
from matheval_fast.integrations import lm_eval as ours

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "tests" / "data" / "logs" / "sources"
QWEN = ROOT / "data" / "answer_check" / "qwen25math_math_cot_100_graded.jsonl"


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _gsm8k_response(i: int, doc: dict[str, Any]) -> str:
    """Responses of the shapes models write: the ``####`` line, a closing sentence, a box, wrong, none."""
    sol, ans = doc["answer"].rsplit("####", 1)
    ans = ans.strip()
    shapes = [
        f"{sol.strip()}\n#### {ans}",
        f"{sol.strip()}\nThe answer is {ans}.",
        f"So the total is $\\boxed{{{ans}}}$.",
        f"{sol.strip()}\nThe answer is {int(float(ans.replace(',', ''))) + 1}.",
        "I am not sure how to solve this problem.",
        f"The answer is ${ans}.00",
    ]
    return shapes[i % len(shapes)]


def _canned() -> dict[str, str]:
    table = {d["question"]: _gsm8k_response(i, d) for i, d in enumerate(_jsonl(SOURCES / "gsm8k_test.jsonl"))}
    qwen = {r["idx"]: r["response"] for r in _jsonl(QWEN) if r["sample"] == 0}
    table.update({d["problem"]: qwen[d["qwen_idx"]] for d in _jsonl(SOURCES / "math_prealgebra.jsonl")})
    return table


GSM_TRAIN, GSM_TEST = SOURCES / "gsm8k_train.jsonl", SOURCES / "gsm8k_test.jsonl"
MATH = SOURCES / "math_prealgebra.jsonl"
#: (name, ours or stock, data files) of every run.
RUNS = [
    ("gsm8k_matheval", "group", GSM_TRAIN, GSM_TEST),
    ("gsm8k", "task", GSM_TRAIN, GSM_TEST),
    ("gsm8k_cot_matheval", "group", GSM_TRAIN, GSM_TEST),
    ("gsm8k_cot", "task", GSM_TRAIN, GSM_TEST),
    ("minerva_math500_matheval", "group", MATH, MATH),
    ("minerva_math500", "task", MATH, MATH),
    ("hendrycks_math500_matheval", "group", MATH, MATH),
    ("hendrycks_math500", "task", MATH, MATH),
    ("minerva_math_matheval", "group", MATH, MATH),
    ("hendrycks_math_matheval", "group", MATH, MATH),
]


@pytest.fixture(scope="module")
def lm_eval_env(tmp_path_factory):
    """Offline Hugging Face settings, a private datasets cache, and one lm-eval TaskManager that sees our
    YAMLs and a local-data wrapper of each run."""
    pytest.importorskip("lm_eval")
    cache = tmp_path_factory.mktemp("hf")
    mp = pytest.MonkeyPatch()
    for key, value in {
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "HF_HOME": str(cache),
        "HF_DATASETS_CACHE": str(cache / "datasets"),
    }.items():
        mp.setenv(key, value)
    from lm_eval.tasks import TaskManager

    tasks_dir = tmp_path_factory.mktemp("tasks")
    for name, kind, train, test in RUNS:
        (tasks_dir / f"local_{name}.yaml").write_text(_local(name, kind, train, test), encoding="utf-8")
    yield TaskManager(include_path=[str(ours.TASKS_DIR), str(tasks_dir)])
    mp.undo()


def _local(group: str, kind: str, train: Path, test: Path) -> str:
    """A group that runs ``group`` (ours or stock) on local JSON Lines files instead of the Hub."""
    return (
        f"group: local_{group}\n"
        f"task:\n  - {kind}: {group}\n"
        "    dataset_path: json\n    dataset_name: null\n"
        f"    dataset_kwargs:\n      data_files:\n        train: {train}\n        test: {test}\n"
    )


def _evaluate(tm: Any, name: str) -> dict[str, Any]:
    from lm_eval import evaluator
    from lm_eval.api.model import LM

    canned = _canned()

    class CannedLM(LM):
        def generate_until(self, requests, disable_tqdm: bool = False):
            return [canned[r.doc.get("question", r.doc.get("problem"))] for r in requests]

        def loglikelihood(self, requests, disable_tqdm: bool = False):  # pragma: no cover
            raise NotImplementedError

        def loglikelihood_rolling(self, requests, disable_tqdm: bool = False):  # pragma: no cover
            raise NotImplementedError

    return evaluator.simple_evaluate(
        model=CannedLM(),
        tasks=[f"local_{name}"],
        task_manager=tm,
        log_samples=True,
        random_seed=0,
        numpy_random_seed=0,
        torch_random_seed=0,
        fewshot_random_seed=0,
    )


def _by_filter(samples: list[dict[str, Any]], filt: str) -> dict[int, dict[str, Any]]:
    return {s["doc_id"]: s for s in samples if s["filter"] == filt}


@pytest.mark.parametrize(
    ("group", "stock"), [("gsm8k_matheval", "gsm8k"), ("gsm8k_cot_matheval", "gsm8k_cot")]
)
def test_gsm8k_groups_add_matheval_and_keep_the_stock_exact_match(lm_eval_env, group, stock):
    got = _evaluate(lm_eval_env, group)
    want = _evaluate(lm_eval_env, stock)
    samples, stock_samples = got["samples"][stock], want["samples"][stock]
    docs = _jsonl(GSM_TEST)
    assert len(_by_filter(samples, "matheval")) == len(docs)
    for doc_id, s in _by_filter(samples, "matheval").items():
        response = s["resps"][0][0]
        assert s["matheval"] == int(check(response, docs[doc_id]["answer"]).correct), response
        assert "exact_match" not in s
    for filt in ("strict-match", "flexible-extract"):
        mine, theirs = _by_filter(samples, filt), _by_filter(stock_samples, filt)
        assert {k: v["exact_match"] for k, v in mine.items()} == {
            k: v["exact_match"] for k, v in theirs.items()
        }
        assert all("matheval" not in s for s in mine.values())
        key = f"exact_match,{filt}"
        assert got["results"][stock][key] == pytest.approx(want["results"][stock][key])
    acc = got["results"][stock]["matheval,matheval"]
    assert acc == pytest.approx(
        sum(s["matheval"] for s in _by_filter(samples, "matheval").values()) / len(docs)
    )
    assert 0 < acc < 1


@pytest.mark.parametrize(
    ("group", "stock", "metrics"),
    [
        ("minerva_math500_matheval", "minerva_math500", ("exact_match", "math_verify")),
        ("hendrycks_math500_matheval", "hendrycks_math500", ("exact_match",)),
    ],
)
def test_math_groups_add_matheval_to_the_stock_metrics(lm_eval_env, group, stock, metrics):
    pytest.importorskip("math_verify")
    got = _evaluate(lm_eval_env, group)
    want = _evaluate(lm_eval_env, stock)
    docs = _jsonl(MATH)
    mine, theirs = _by_filter(got["samples"][stock], "none"), _by_filter(want["samples"][stock], "none")
    assert len(mine) == len(docs)
    for doc_id, s in mine.items():
        assert s["matheval"] == int(check(s["resps"][0][0], docs[doc_id]["solution"]).correct)
        for m in metrics:
            assert s[m] == theirs[doc_id][m], m
    assert got["results"][stock]["matheval,none"] > got["results"][stock]["exact_match,none"]


@pytest.mark.parametrize(
    ("group", "metrics"),
    [
        ("minerva_math_matheval", ("exact_match", "math_verify", "matheval")),
        ("hendrycks_math_matheval", ("exact_match", "matheval")),
    ],
)
def test_the_seven_subject_groups_aggregate_matheval(lm_eval_env, group, metrics):
    pytest.importorskip("math_verify")
    got = _evaluate(lm_eval_env, group)
    stem = group.removesuffix("_matheval") + "_"
    subtasks = [t for t in got["results"] if t.startswith(stem) and t != group]
    assert len(subtasks) == 7
    for m in metrics:
        per_task = [got["results"][t][f"{m},none"] for t in subtasks]
        assert got["results"][group][f"{m},none"] == pytest.approx(sum(per_task) / 7)  # same docs, same size


def test_the_gsm8k_yaml_copies_the_stock_filters_and_metric(lm_eval_env):
    """The stock filters and exact_match settings our gsm8k YAMLs repeat equal the installed lm-eval's."""
    import lm_eval
    from lm_eval.tasks._yaml_loader import load_yaml

    stock_dir = Path(lm_eval.__file__).parent / "tasks" / "gsm8k"
    for mine, theirs in (("gsm8k_matheval", "gsm8k.yaml"), ("gsm8k_cot_matheval", "gsm8k-cot.yaml")):
        cfg = load_yaml(ours.TASKS_DIR / f"{mine}.yaml", resolve_func=False)
        stock = load_yaml(stock_dir / theirs, resolve_func=False)
        assert cfg["filter_list"][:-1] == stock["filter_list"]
        em = next(m for m in stock["metric_list"] if m["metric"] == "exact_match")
        assert {k: v for k, v in em.items() if k in ours.GSM8K_EXACT_MATCH} == ours.GSM8K_EXACT_MATCH


def test_process_results_contract():
    gsm = {"question": "q", "answer": "3 + 4 = 7\n#### 7"}
    math = {"problem": "p", "solution": r"So $x = \boxed{\frac{1}{2}}$.", "answer": "\\frac{1}{2}"}
    assert ours.process_results(gsm, ["The answer is 7."]) == {"matheval": 1}
    assert ours.process_results(gsm, ["The answer is 8."]) == {"matheval": 0}
    assert ours.process_results(math, ["so it is 0.5"]) == {"matheval": 1}
    assert ours.process_results(math, [["$\\boxed{1/2}$", "other"]]) == {"matheval": 1}  # unfiltered
    assert ours.process_results(math, []) == {"matheval": 0}
    with pytest.raises(TypeError):
        ours.process_results(math, "The answer is 7.")
    with pytest.raises(TypeError):
        ours.process_results("doc", ["x"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no gold"):
        ours.process_results({"question": "q"}, ["7"])
    assert ours.whole_response([["a", "b"], ["c"]], [{}, {}]) == ["a", "c"]
    assert isinstance(ours.whole_response([["a"]], [{}])[0], ours.WholeResponse)


def test_path_command_needs_no_lm_eval():
    code = (
        "import sys; sys.modules['lm_eval'] = None\n"
        "from matheval_fast.integrations.lm_eval import main; main(['--path'])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert Path(out.strip()) == ours.TASKS_DIR
    assert {p.stem for p in ours.TASKS_DIR.glob("*.yaml")} == {
        "gsm8k_matheval",
        "gsm8k_cot_matheval",
        "minerva_math_matheval",
        "minerva_math500_matheval",
        "hendrycks_math_matheval",
        "hendrycks_math500_matheval",
    }
    listed = subprocess.run(
        [sys.executable, "-m", "matheval_fast.integrations.lm_eval", "--list"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ},
    ).stdout.split()
    assert "gsm8k_matheval" in listed
