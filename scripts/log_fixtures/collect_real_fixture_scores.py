"""Write tests/data/logs/real_fixture_scores.json: the frameworks' OWN numbers in the real-data log fixtures.

Run from the repository root with any Python that has pyarrow (the project venv has it):

    .venv/bin/python scripts/log_fixtures/collect_real_fixture_scores.py

It only reads what lm-eval and lighteval wrote under tests/data/logs/lm_eval_real/ and
tests/data/logs/lighteval_real/ (nothing is re-scored). The JSON has three parts:

- ``scores``: ``{results file: {task: {filter: {metric: value}}}}``, every metric of the results file as the
  framework wrote it (``*_stderr`` included; lm-eval's ``"metric,filter"`` keys split at the comma; lighteval
  has no filters, so its metrics sit under the filter ``"none"``; lighteval's ``all`` row is kept as a task).
- ``files``: for every per-doc file (lm-eval ``samples_*.jsonl``, lighteval ``details_*.parquet``): its task,
  ``n_docs``, ``n_samples`` (responses per doc), the field the framework compares against (lm-eval ``target``;
  lighteval ``doc.choices[doc.gold_index]``) with the first 80 characters of its first 2 docs, and per filter
  the mean of each per-doc metric as found in the file (equal to the results file's value).
- ``frameworks``: the version each folder was written by.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "tests/data/logs"
OUT = LOGS / "real_fixture_scores.json"


def rel(path: Path) -> str:
    return path.relative_to(LOGS).as_posix()


def lm_eval_results(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    out: dict[str, dict[str, dict[str, float]]] = {}
    for task, row in data["results"].items():
        per_filter: dict[str, dict[str, float]] = defaultdict(dict)
        for key, value in row.items():
            if "," not in key or not isinstance(value, (int, float)):
                continue  # name, alias, sample_len, sample_count
            metric, filt = key.split(",", 1)
            per_filter[filt][metric] = value
        out[task] = dict(per_filter)
    return out


def lm_eval_samples(path: Path) -> dict:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    task = path.name.removeprefix("samples_").rsplit("_", 1)[0]
    sums: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        for metric in r["metrics"]:
            sums[r["filter"]][metric].append(float(r[metric]))
    first = [r for r in rows if r["filter"] == rows[0]["filter"]]
    return {
        "task": task,
        "n_docs": len({r["doc_id"] for r in rows}),
        "n_rows": len(rows),
        "n_samples": len(rows[0]["resps"][0]),
        "filters": sorted(sums),
        "target_field": "target",
        "target_examples": [str(r["target"])[:80] for r in first[:2]],
        "mean_per_filter": {f: {m: sum(v) / len(v) for m, v in ms.items()} for f, ms in sums.items()},
    }


def lighteval_results(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {task: {"none": dict(row)} for task, row in data["results"].items()}


def lighteval_details(path: Path) -> dict:
    rows = pq.read_table(path).to_pylist()
    task = path.name.removeprefix("details_").rsplit("_", 1)[0]
    sums: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        for metric, value in r["metric"].items():
            if value is not None:
                sums[metric].append(float(value))

    def gold(doc: dict) -> str:
        index = doc["gold_index"]
        index = index[0] if isinstance(index, list) else index
        return doc["choices"][index]

    return {
        "task": task,
        "n_docs": len(rows),
        "n_rows": len(rows),
        "n_samples": len(rows[0]["model_response"]["text"]),
        "filters": ["none"],
        "target_field": "doc.choices[doc.gold_index]",
        "target_examples": [gold(r["doc"])[:80] for r in rows[:2]],
        "mean_per_filter": {"none": {m: sum(v) / len(v) for m, v in sums.items()}},
    }


def main() -> None:
    scores: dict[str, dict] = {}
    files: dict[str, dict] = {}
    versions: dict[str, str] = {}
    for path in sorted((LOGS / "lm_eval_real").rglob("results_*.json")):
        scores[rel(path)] = lm_eval_results(path)
        versions["lm_eval_real"] = "lm-eval " + json.loads(path.read_text())["lm_eval_version"]
    for path in sorted((LOGS / "lm_eval_real").rglob("samples_*.jsonl")):
        files[rel(path)] = lm_eval_samples(path)
    for path in sorted((LOGS / "lighteval_real").rglob("results_*.json")):
        scores[rel(path)] = lighteval_results(path)
        versions["lighteval_real"] = "lighteval 0.13.0"  # its results carry no version (lighteval_sha: "?")
    for path in sorted((LOGS / "lighteval_real").rglob("details_*.parquet")):
        files[rel(path)] = lighteval_details(path)
    doc = {
        "about": (
            "The frameworks' own numbers in the real-data log fixtures (paths relative to tests/data/logs); "
            "written by scripts/log_fixtures/collect_real_fixture_scores.py from the files themselves."
        ),
        "frameworks": versions,
        "scores": scores,
        "files": files,
    }
    OUT.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"written {OUT}")


if __name__ == "__main__":
    main()
