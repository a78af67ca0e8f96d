"""A real lighteval run: ``lighteval custom`` with a canned model on real GSM8K and MATH items.

The shipped tasks (``--custom-tasks matheval_fast.integrations.lighteval``: ``gsm8k_matheval``,
``math_500_matheval``) read their datasets from local folders named as the tasks expect
(``openai/gsm8k`` config ``main``, ``HuggingFaceH4/MATH-500``), made here from the repository's real
items (GSM8K with its real worked solutions; MATH prealgebra with its real solutions and real
Qwen2.5-Math responses), offline. Every per-sample ``matheval`` in the saved details equals ``check()``
on the response and the doc's gold, lighteval's own ``extracted_predictions`` are still there beside
ours, and the task's ``matheval`` in the results equals the mean of its samples. Then the Inspect path
docs/integrations/lighteval.md gives (``get_inspect_ai_task`` handed to ``inspect_ai.eval``, with
Inspect's mock model answering the same canned responses). Prints one RESULT line (JSON).
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import compare, gsm8k, math_items, qwen_math_pairs  # noqa: E402


def write_datasets(root: Path) -> dict[str, str]:
    """The two local dataset folders; returns the canned response per question/problem."""
    canned: dict[str, str] = {}
    g = gsm8k(20)
    rows = []
    for i, d in enumerate(g):
        other = g[(i + 1) % len(g)] if i % 4 == 0 else d
        canned[d["question"]] = (
            f"{other['solution'].split('####')[0].strip()}\nThe answer is {other['answer']}."
        )
        rows.append({"question": d["question"], "answer": d["solution"].replace("\n#### ", "\n#### ")})
    _folder(root / "openai/gsm8k", "main", "main/test.jsonl", rows)
    responses = dict(qwen_math_pairs()[::8])  # one real response per problem: response -> solution
    by_solution = {s: r for r, s in responses.items()}
    rows = []
    for d in math_items(60):
        if d["solution"] in by_solution and len(rows) < 30:
            canned[d["problem"]] = by_solution[d["solution"]]
            rows.append({"problem": d["problem"], "solution": d["solution"], "answer": d["answer"]})
    _folder(root / "HuggingFaceH4/MATH-500", "default", "test.jsonl", rows)
    return canned


def _folder(path: Path, config: str, file: str, rows: list[dict[str, Any]]) -> None:
    (path / file).parent.mkdir(parents=True, exist_ok=True)
    (path / file).write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    (path / "README.md").write_text(
        f"---\nconfigs:\n- config_name: {config}\n  data_files:\n  - split: test\n    path: {file}\n---\n",
        "utf-8",
    )


def main() -> None:
    import lighteval
    from matheval_fast import check

    out: dict[str, Any] = {"lighteval": lighteval.__version__, "tasks": {}}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        canned = write_datasets(root)
        (root / "canned.json").write_text(json.dumps(canned), "utf-8")
        env = {
            **os.environ,
            "MATHEVAL_CANNED": str(root / "canned.json"),
            "HF_DATASETS_OFFLINE": "1",
            "HF_HUB_OFFLINE": "1",
        }
        cmd = [
            sys.executable,
            "-m",
            "lighteval",
            "custom",
            "canned",
            str(HERE / "canned_model.py"),
            "gsm8k_matheval|0,math_500_matheval|0",
            "--custom-tasks",
            "matheval_fast.integrations.lighteval",
            "--output-dir",
            str(root / "out"),
            "--save-details",
        ]
        proc = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr[-3000:]
        results = json.loads(
            Path(glob.glob(str(root / "out/results/**/*.json"), recursive=True)[0]).read_text()
        )
        import pandas as pd

        for file in glob.glob(str(root / "out/details/**/*.parquet"), recursive=True):
            task = Path(file).stem.split("_matheval")[0].replace("details_", "") + "_matheval"
            df = pd.read_parquet(file)
            records, means = [], []
            for _, row in df.iterrows():
                doc, resp, metric = row["doc"], row["model_response"], row["metric"]
                gold = doc["choices"][int(doc["gold_index"])]
                text = next(iter(resp["text"]))
                records.append((text, gold, float(metric["matheval"])))
                specific = doc.get("specific") or {}
                assert "matheval_extracted_predictions" in specific, specific
                assert specific["matheval_extracted_predictions"][0] == (check(text, gold).extracted or "")
                means.append(float(metric["matheval"]))
            summary = compare(records, f"lighteval custom {task}")
            key = next(k for k in results["results"] if task in k)
            summary["lighteval_mean"] = results["results"][key]["matheval"]
            summary["per_item_mean"] = sum(means) / len(means)
            assert abs(summary["lighteval_mean"] - summary["per_item_mean"]) < 1e-9, summary
            summary["other_metrics"] = {k: v for k, v in results["results"][key].items() if k != "matheval"}
            summary["lighteval_extracted_kept"] = "extracted_predictions" in (
                df.iloc[0]["doc"].get("specific") or {}
            )
            out["tasks"][task] = summary
        assert set(out["tasks"]) == {"gsm8k_matheval", "math_500_matheval"}, out["tasks"].keys()
        out["inspect"] = inspect_path(root, canned, env)
    print("RESULT " + json.dumps(out, default=str))


def inspect_path(root: Path, canned: dict[str, str], env: dict[str, str]) -> dict[str, Any]:
    """The Inspect backend's documented path: the task object handed to inspect_ai.eval."""
    code = r"""
import json, os, sys
os.chdir(sys.argv[1])
import inspect_ai
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from lighteval.main_inspect import get_inspect_ai_task
from matheval_fast import check
from matheval_fast.integrations.lighteval import TASKS_TABLE
canned = json.load(open("canned.json"))
task = get_inspect_ai_task({t.name: t for t in TASKS_TABLE}["gsm8k_matheval"])
samples = list(task.dataset)
def text(s):
    return s.input if isinstance(s.input, str) else s.input[-1].text
def answer(s):
    found = [r for k, r in canned.items() if k.strip() in text(s)]
    assert len(found) == 1, (len(found), text(s)[:200])
    return found[0]
def output(s):
    out = ModelOutput.from_content("mockllm/model", answer(s))
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # else tiktoken, a download
    return out
outs = [output(s) for s in samples]
log = inspect_ai.eval(task, model=get_model("mockllm/model", custom_outputs=outs), display="none",
                      log_dir=os.path.join(sys.argv[1], "inspect-logs"))[0]
rows = []
if log.status != "success" or not log.samples or not log.samples[0].scores:
    print(log.status, log.error, log.samples and log.samples[0].scores, file=sys.stderr)
for s in log.samples:
    score = next(iter(s.scores.values()))
    rows.append([s.output.completion, s.target if isinstance(s.target, str) else s.target[0], score.value])
print(json.dumps({"status": log.status, "rows": rows}))
"""
    proc = subprocess.run(
        [sys.executable, "-c", code, str(root)], cwd=root, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["status"] == "success", got["status"]
    records = [(r, t, 1.0 if v in ("C", 1, 1.0, True) else 0.0) for r, t, v in got["rows"]]
    return compare(records, "lighteval task via inspect_ai.eval")


if __name__ == "__main__":
    main()
