"""Make the lighteval fixtures in tests/data/logs/lighteval/ with lighteval itself.

Run with a SCRATCH venv (lighteval pulls torch; nothing here is a project dependency):

    python3.11 -m venv /tmp/venv-lighteval
    /tmp/venv-lighteval/bin/pip install "lighteval[math]==0.13.0"
    HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 /tmp/venv-lighteval/bin/python
    scripts/log_fixtures/make_lighteval.py

What is real and what is made up:
- The details Parquet files are written by lighteval's own ``Pipeline`` + ``EvaluationTracker.save()``
  (``--save-details``) for lighteval's own task configs ``gsm8k`` and ``math_500``
  (``lighteval.tasks.tasks.gsm8k`` / ``math_500``), copied with ``dataclasses.replace`` only to read the
  data from a local folder (the Hugging Face Hub is not reachable here). lighteval computes every metric and
  the ``specific.extracted_predictions`` column.
- lighteval's registry imports all of its task modules, some of which reach the network at import time;
  offline, the registry is handed only the local task file (``Registry.load_all_task_configs`` replaced).
- The model is lighteval's ``CustomModelConfig`` pointing at ``canned_model.py`` (written next to the data
  by this script): it answers from a fixed table. GSM8K answers are the reference solutions with answer
  lines of ours (as in make_lm_eval.py); MATH answers are REAL Qwen2.5-Math-7B-Instruct outputs from
  data/answer_check/qwen25math_math_cot_100_graded.jsonl (sample 0), whose problems are placeholders.
- lighteval 0.13 writes the *current* (nested) layout: ``doc``, ``metric``, ``model_response`` structs. The
  *older* flat layout (lighteval <= 0.9: ``example``, ``predictions``, ``gold``, ``metrics``, ``specifics``,
  ...) is made by ``make_lighteval_flat.py`` with lighteval 0.8.1's own ``DetailsLogger.Detail`` class.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_lm_eval import gsm8k_docs, gsm8k_response, math_docs

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests/data/logs/lighteval"
N = 12

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
            out.append(ModelResponse(text=[TABLE[key]] * d.num_samples))
        return out

    def loglikelihood(self, docs):
        raise NotImplementedError

    def loglikelihood_rolling(self, docs):
        raise NotImplementedError
"""


def main() -> None:
    from lighteval.logging.evaluation_tracker import EvaluationTracker
    from lighteval.models.custom.custom_model import CustomModelConfig
    from lighteval.pipeline import ParallelismManager, Pipeline, PipelineParameters
    from lighteval.tasks.registry import Registry

    # lighteval's registry imports every built-in task module, and some of them reach the network at import
    # time (tiny_benchmarks downloads a pickle, mt_bench lists Hub models). Offline, the registry is given
    # only
    # the task file below (which imports lighteval's own gsm8k and math_500 modules); nothing else changes.
    def only_custom(custom_tasks=None, load_multilingual=False):
        return Registry._extract_configs(Registry.create_custom_tasks_module(custom_tasks))

    Registry.load_all_task_configs = staticmethod(only_custom)

    work = Path(tempfile.mkdtemp(prefix="lighteval-fixture-"))
    gsm = gsm8k_docs()[:N]
    mdocs = math_docs()[:N]
    (work / "gsm8k").mkdir()
    (work / "gsm8k/test.jsonl").write_text("".join(json.dumps(d) + "\n" for d in gsm))
    (work / "math").mkdir()
    (work / "math/test.jsonl").write_text(
        "".join(
            json.dumps({"problem": d["problem"], "solution": d["solution"], "answer": d["solution"][16:-2]})
            + "\n"
            for d in mdocs
        )
    )
    canned = {d["question"]: gsm8k_response(i, d).strip() for i, d in enumerate(gsm)}
    canned.update({d["problem"]: d["response"] for d in mdocs})
    (work / "model").mkdir()
    (work / "model/canned.json").write_text(json.dumps(canned))
    (work / "model/canned_model.py").write_text(MODEL_FILE)
    tasks_file = work / "local_tasks.py"
    tasks_file.write_text(
        textwrap.dedent(
            f"""
            import dataclasses
            from lighteval.tasks.tasks.gsm8k import gsm8k
            from lighteval.tasks.tasks.math_500 import math_500

            TASKS_TABLE = [
                dataclasses.replace(gsm8k, name="gsm8k_local", hf_repo={str(work / "gsm8k")!r},
                                    hf_subset="default", hf_avail_splits=["test"], few_shots_split=None,
                                    few_shots_select=None),
                dataclasses.replace(math_500, name="math_500_local", hf_repo={str(work / "math")!r}),
            ]
            """
        )
    )
    tracker = EvaluationTracker(output_dir=str(work / "out"), save_details=True)
    params = PipelineParameters(
        launcher_type=ParallelismManager.CUSTOM, custom_tasks_directory=str(tasks_file)
    )
    model_config = CustomModelConfig(
        model_name="canned/gsm8k-math", model_definition_file_path=str(work / "model/canned_model.py")
    )
    pipeline = Pipeline(
        tasks="gsm8k_local|0,math_500_local|0",
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
    _ = dataclasses
    print(f"written under {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
