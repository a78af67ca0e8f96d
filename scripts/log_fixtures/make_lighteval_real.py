"""Make tests/data/logs/lighteval_real/ with lighteval itself, on real MATH and GSM8K docs.

Run from the repository root with a SCRATCH venv (lighteval pulls torch; nothing here is a project
dependency):

    python3.11 -m venv /tmp/venv-lighteval
    /tmp/venv-lighteval/bin/pip install "lighteval[math]==0.13.0" "xxhash<4"
    export HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1
    /tmp/venv-lighteval/bin/python scripts/log_fixtures/make_lighteval_real.py

It reads only tests/data/logs/sources/ (made by make_real_sources.py) and data/answer_check/, and replaces
tests/data/logs/lighteval_real/ (lighteval's own results/ + details/ layout). Then run
collect_real_fixture_scores.py to refresh real_fixture_scores.json.

What is real and what is made up:
- The results JSON and details Parquet files are written by lighteval's own ``Pipeline`` +
  ``EvaluationTracker.save()`` (``--save-details``), for lighteval's own task configs, copied with
  ``dataclasses.replace`` only to read local data (the Hugging Face Hub is not reachable here) and to take a
  ``_local`` name:
  * ``math_500_local``: ``lighteval.tasks.tasks.math_500.math_500`` (gold = ``"ANSWER: " + solution``, the
    whole worked solution; metric ``pass@k:k=1&n=1``), on the 30 real MATH Prealgebra docs.
  * ``math_500_n8_local``: the same config with its metric list replaced by lighteval's own
    ``Metrics.pass_at_k_math`` (k=1 and k=4 of n=8) and ``Metrics.avg_at_n_math`` (n=8): 8 samples per doc.
  * ``math_prealgebra_local``: ``lighteval.tasks.tasks.math.math_prealgebra`` (``math:prealgebra``; gold =
    ``" " + solution``; its own metric ``maj@n`` with n=4 and lighteval's ``math_normalizer``), unchanged but
    for the data: 4 samples per doc.
  * ``gsm8k_local``: ``lighteval.tasks.tasks.gsm8k.gsm8k`` (gold = ``" " + solution + "\\n#### n"``; metric
    ``extractive_match``), on the 20 real GSM8K docs, zero-shot.
  lighteval computes every metric and the ``specific`` columns.
- ``xxhash<4``: lighteval 0.13.0 hashes ``str`` with ``xxhash.xxh64``, which xxhash 4 refuses (TypeError:
  Strings must be encoded before hashing); pip otherwise resolves xxhash 4.x today.
- lighteval's registry imports all of its task modules, some of which reach the network at import time;
  offline, the registry is handed only the local task file (``Registry.load_all_task_configs`` replaced).
- The model is lighteval's ``CustomModelConfig`` pointing at ``canned_model.py`` (written next to the data by
  this script): it answers from a fixed table. MATH answers are REAL Qwen2.5-Math-7B-Instruct outputs
  (data/answer_check/qwen25math_math_cot_100_graded.jsonl): sample 0 when a task asks for one sample, samples
  0..n-1 when it asks for n. GSM8K answers are the reference solutions with answer lines of ours (as in
  make_lm_eval_real.py).
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_lm_eval_real import gsm8k_response, qwen_responses, read_jsonl

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "tests/data/logs/sources"
OUT = ROOT / "tests/data/logs/lighteval_real"
MODEL_NAME = "canned/qwen2.5-math-7b-instruct-outputs"

MODEL_FILE = """
import json
from pathlib import Path

from lighteval.models.abstract_model import LightevalModel
from lighteval.models.model_output import ModelResponse
from lighteval.utils.cache_management import SampleCache

TABLE = json.loads((Path(__file__).parent / "canned.json").read_text())


class CannedModel(LightevalModel):
    def __init__(self, config):
        self.config = config
        self._cache = SampleCache(config)

    @property
    def tokenizer(self):
        return None

    @property
    def add_special_tokens(self):
        return False

    @property
    def max_length(self):
        return 4096

    def greedy_until(self, docs):
        out = []
        for d in docs:
            key = next(k for k in TABLE if k in d.query)
            answers = TABLE[key]
            if len(answers) == 1:
                answers = answers * d.num_samples
            out.append(ModelResponse(text=answers[: d.num_samples]))
        return out

    def loglikelihood(self, docs):
        raise NotImplementedError

    def loglikelihood_rolling(self, docs):
        raise NotImplementedError
"""

TASKS_FILE = """
import dataclasses

from lighteval.metrics.metrics import Metrics
from lighteval.tasks.tasks.gsm8k import gsm8k
from lighteval.tasks.tasks.math import math_prealgebra
from lighteval.tasks.tasks.math_500 import math_500

TASKS_TABLE = [
    dataclasses.replace(gsm8k, name="gsm8k_local", hf_repo={gsm8k_dir!r}, hf_subset="default",
                        hf_avail_splits=["test"], few_shots_split=None, few_shots_select=None),
    dataclasses.replace(math_500, name="math_500_local", hf_repo={math_dir!r}),
    dataclasses.replace(
        math_500, name="math_500_n8_local", hf_repo={math_dir!r},
        metrics=[
            Metrics.pass_at_k_math(sample_params={{"k": 1, "n": 8}}),
            Metrics.pass_at_k_math(sample_params={{"k": 4, "n": 8}}),
            Metrics.avg_at_n_math(sample_params={{"n": 8}}),
        ],
    ),
    dataclasses.replace(math_prealgebra, name="math_prealgebra_local", hf_repo={math_dir!r},
                        hf_subset="default", hf_avail_splits=["test"]),
]
"""


def main() -> None:
    from lighteval.logging.evaluation_tracker import EvaluationTracker
    from lighteval.models.custom.custom_model import CustomModelConfig
    from lighteval.pipeline import ParallelismManager, Pipeline, PipelineParameters
    from lighteval.tasks.registry import Registry

    # lighteval's registry imports every built-in task module, and some of them reach the network at import
    # time (tiny_benchmarks downloads a pickle, mt_bench lists Hub models). Offline, the registry is given
    # only the task file below (which imports lighteval's own gsm8k, math and math_500 modules).
    def only_custom(custom_tasks=None, load_multilingual=False):
        return Registry._extract_configs(Registry.create_custom_tasks_module(custom_tasks))

    Registry.load_all_task_configs = staticmethod(only_custom)

    work = Path(tempfile.mkdtemp(prefix="lighteval-real-fixture-"))
    gsm = read_jsonl(SOURCES / "gsm8k_test.jsonl")
    math = read_jsonl(SOURCES / "math_prealgebra.jsonl")
    # a local dataset folder per task, whose test split is the source file as it is
    for name, source in (("gsm8k", "gsm8k_test.jsonl"), ("math", "math_prealgebra.jsonl")):
        (work / name).mkdir()
        shutil.copy(SOURCES / source, work / name / "test.jsonl")
    qwen = qwen_responses()
    canned = {d["question"]: [gsm8k_response(i, d).strip()] for i, d in enumerate(gsm)}
    canned.update({d["problem"]: qwen[d["qwen_idx"]] for d in math})
    (work / "model").mkdir()
    (work / "model/canned.json").write_text(json.dumps(canned))
    (work / "model/canned_model.py").write_text(MODEL_FILE)
    tasks_file = work / "local_tasks.py"
    tasks_file.write_text(
        textwrap.dedent(TASKS_FILE.format(gsm8k_dir=str(work / "gsm8k"), math_dir=str(work / "math")))
    )
    tracker = EvaluationTracker(output_dir=str(work / "out"), save_details=True)
    params = PipelineParameters(
        launcher_type=ParallelismManager.CUSTOM, custom_tasks_directory=str(tasks_file)
    )
    model_config = CustomModelConfig(
        model_name=MODEL_NAME, model_definition_file_path=str(work / "model/canned_model.py")
    )
    pipeline = Pipeline(
        tasks="gsm8k_local|0,math_500_local|0,math_500_n8_local|0,math_prealgebra_local|0",
        pipeline_parameters=params,
        evaluation_tracker=tracker,
        model_config=model_config,
    )
    pipeline.evaluate()
    pipeline.save_and_push_results()
    pipeline.show_results()
    if OUT.exists():
        shutil.rmtree(OUT)
    shutil.copytree(work / "out", OUT)
    print(f"written under {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
