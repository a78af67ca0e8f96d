"""Make tests/data/logs/opencompass_real/ with OpenCompass itself: inference AND evaluation, on real items.

Run from the repository root with a SCRATCH venv outside the project (nothing here is a project dependency).
torch cannot be installed where these fixtures were made, and no code path used here needs it (the model is
canned), so a stand-in ``torch`` module (written by this script into a temporary folder) satisfies the imports
of mmengine and OpenCompass:

    python3.11 -m venv /work/fwvenvs/opencompass
    /work/fwvenvs/opencompass/bin/pip install --no-deps opencompass==0.5.4
    /work/fwvenvs/opencompass/bin/pip install mmengine-lite==0.11.0rc3 "numpy<2" "datasets<4" "pyarrow<19" \\
        "pandas<2.3" transformers typer importlib-metadata jieba evaluate rouge_chinese rank_bm25 \\
        tree-sitter==0.21.3 tree_sitter_languages timeout_decorator fuzzywuzzy python-Levenshtein \\
        math-verify latex2sympy2_extended httpx scipy scikit-learn nltk tiktoken gradio_client openai \\
        absl-py jsonlines h5py rouge_score
    /work/fwvenvs/opencompass/bin/python scripts/log_fixtures/make_opencompass_real.py

What is real and what is made up:
- Everything under ``predictions/`` and ``results/`` is written by OpenCompass 0.5.4's own
  ``OpenICLInferTask`` (``GenInferencer``) and ``OpenICLEvalTask`` (``dump_details=True``), for OpenCompass's
  own stock dataset configs, with only the dataset ``path`` pointed at a local folder in the dataset's own
  format, and (where two configs share an abbreviation, or for repeats) the ``abbr`` changed:
  * ``gsm8k`` = ``gsm8k_gen_1d7fe4`` (``gsm8k_gen``): ``Gsm8kEvaluator``, ``gsm8k_postprocess`` (cuts the
    output at ``Question:``), ``gsm8k_dataset_postprocess`` (the ``####`` line); 20 real GSM8K test docs.
  * ``gsm8k-n4`` = the same config with OpenCompass's own repeat keys ``n=4, k=[2, 4]``: "accuracy (4 runs
    average)", G-Pass@k and mG-Pass@k.
  * ``math`` = ``math_gen_a58d9d`` (``math_gen``): ``MATHDataset`` (gold = the last box of the solution),
    ``MATHVerifyEvaluator``; 30 real MATH Prealgebra docs (real problems and worked solutions).
  * ``math-500`` = ``math_500_gen``: ``CustomDataset`` on ``test_prm800k_500.jsonl`` (gold = the WHOLE worked
    solution), ``MATHVerifyEvaluator``; the same 30 docs in MATH-500's own jsonl format.
  * ``math-500-n4`` = ``math_500_gen`` with ``n=4, k=[2, 4]``.
  * ``math-0shot`` = ``math_0shot_gen_393424`` (``math_0shot_gen``): ``MATHEvaluator(version='v2')``,
    ``math_postprocess_v2``; abbr changed from ``math`` (it would overwrite ``math_gen``'s files).
- The model is a canned ``BaseModel`` subclass (``CannedModel`` below) that answers from a fixed table: MATH
  prompts get REAL Qwen2.5-Math-7B-Instruct outputs (data/answer_check/qwen25math_math_cot_100_graded.jsonl;
  replica r of a doc gets sample r), GSM8K prompts get canned chain-of-thought answers of ours
  (``gsm8k_samples`` of make_lm_eval_real.py; replica r gets sample r), a third of which go on, as base models
  do, with an invented next ``Question:`` and its answer (what OpenCompass's ``gsm8k_postprocess`` cuts off).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_lm_eval_real import gsm8k_samples, math500_jsonl, qwen_responses, read_jsonl

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "tests/data/logs/sources"
OUT = ROOT / "tests/data/logs/opencompass_real"
RUN = "default/20260101_000000"
MODEL_ABBR = "canned-qwen2.5-math-7b-instruct-outputs"

TORCH_STUB = '''
"""Stand-in for torch (not installable here; the canned model needs none of it)."""
import importlib.abc, importlib.machinery, sys, types
_classes = {}
class _Dummy:
    def __init__(self, *a, **k): pass
    def __call__(self, *a, **k): return _Dummy()
    def __getattr__(self, n): return _Dummy()
    def __bool__(self): return False
    def __iter__(self): return iter(())
    def __enter__(self): return self
    def __exit__(self, *a): return False
class DataLoader:
    """What OpenCompass's GenInferencer asks of torch's: batches of a list, in order."""
    def __init__(self, data, batch_size=1, collate_fn=None, **kw):
        self.data, self.bs, self.fn = list(data), batch_size, collate_fn or (lambda x: x)
    def __iter__(self):
        return (self.fn(self.data[i:i + self.bs]) for i in range(0, len(self.data), self.bs))
    def __len__(self): return -(-len(self.data) // self.bs)
class _Mod(types.ModuleType):
    def __getattr__(self, n):
        if n.startswith("__"): raise AttributeError(n)
        if n[:1].isupper(): return _classes.setdefault(self.__name__ + "." + n, type(n, (), {}))
        return _Dummy()
class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name.startswith("torch."): return importlib.machinery.ModuleSpec(name, self, is_package=True)
    def create_module(self, spec):
        m = _Mod(spec.name); m.__path__ = []
        if spec.name == "torch.utils.data": m.DataLoader = DataLoader
        return m
    def exec_module(self, m): pass
sys.meta_path.insert(0, _Finder())
__version__ = "0.0.0+stub"
def __getattr__(n):
    if n.startswith("__"): raise AttributeError(n)
    if n[:1].isupper(): return _classes.setdefault(n, type(n, (), {}))
    return _Dummy()
'''


def gsm8k_answers(i: int, doc: dict, docs: list[dict]) -> list[str]:
    """Four canned samples; for i % 3 == 0 each goes on with an invented next question and its answer."""
    out = []
    for r, s in enumerate(gsm8k_samples(i, doc)[:4]):
        if i % 3 == 0:
            nxt = docs[(i + r + 1) % len(docs)]
            n_ans = nxt["answer"].rsplit("\n#### ", 1)[1]
            s += (
                f"\n\nQuestion: {nxt['question']}\nLet's think step by step\nAnswer:\nThe answer is {n_ans}\n"
            )
        out.append(s)
    return out


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="torch-stub-") as stub_dir:
        stub = Path(stub_dir)
        (stub / "torch").mkdir()
        (stub / "torch/__init__.py").write_text(TORCH_STUB)
        sys.path.insert(0, str(stub))
        os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

        import opencompass
        from mmengine.config import Config, ConfigDict
        from opencompass.models.base import BaseModel
        from opencompass.tasks.openicl_eval import OpenICLEvalTask
        from opencompass.tasks.openicl_infer import OpenICLInferTask

        with tempfile.TemporaryDirectory(prefix="opencompass-real-fixture-") as tmp:  # removed on failure too
            work = Path(tmp)
            gsm = read_jsonl(SOURCES / "gsm8k_test.jsonl")[:20]
            math = read_jsonl(SOURCES / "math_prealgebra.jsonl")
            qwen = qwen_responses()

            # key text -> responses by replica
            table: dict[str, list[str]] = {}
            for i, d in enumerate(gsm):
                table[d["question"]] = gsm8k_answers(i, d, gsm)
            for d in math:
                table[d["problem"]] = qwen[d["qwen_idx"]]

            class CannedModel(BaseModel):
                """Answers each prompt from the table: the doc whose text ends latest in the prompt;
                replica r of a doc (the r-th time it is asked) gets sample r."""

                asked: ClassVar[dict[str, int]] = {}

                def __init__(self, path: str = "canned", **kwargs) -> None:
                    super().__init__(path=path, max_seq_len=32768, **kwargs)

                def get_token_len(self, prompt: str) -> int:
                    return len(str(prompt).split())

                def generate(self, inputs: list[str], max_out_len: int) -> list[str]:
                    out = []
                    for inp in inputs:
                        text = str(inp)
                        key = max(table, key=lambda k: text.rfind(k))
                        assert text.rfind(key) >= 0, text[-300:]
                        r = self.asked.get(key, 0)
                        self.asked[key] = r + 1
                        out.append(table[key][r])
                    return out

            cfgs = Path(opencompass.__file__).parent / "configs/datasets"

            def stock(rel: str, var: str, abbr: str, path: Path, **extra) -> ConfigDict:
                ds = Config.fromfile(str(cfgs / rel))[var][0]
                ds["abbr"] = abbr
                ds["path"] = str(path)
                ds.update(extra)
                return ds

            data = work / "data"
            (data / "gsm8k").mkdir(parents=True)
            (data / "gsm8k/test.jsonl").write_text("".join(json.dumps(d) + "\n" for d in gsm))
            (data / "gsm8k/train.jsonl").write_text((SOURCES / "gsm8k_train.jsonl").read_text())
            (data / "math").mkdir()
            # MATH's own per-problem json, keyed as OpenCompass's math.json is
            (data / "math/math.json").write_text(
                json.dumps(
                    {
                        str(i): {k: d[k] for k in ("problem", "level", "type", "solution")}
                        for i, d in enumerate(math)
                    }
                )
            )
            # MATH-500's (PRM800K's) own jsonl fields
            (data / "math/test_prm800k_500.jsonl").write_text(math500_jsonl(math))
            datasets = [
                stock("gsm8k/gsm8k_gen_1d7fe4.py", "gsm8k_datasets", "gsm8k", data / "gsm8k"),
                stock(
                    "gsm8k/gsm8k_gen_1d7fe4.py", "gsm8k_datasets", "gsm8k-n4", data / "gsm8k", n=4, k=[2, 4]
                ),
                stock("math/math_gen_a58d9d.py", "math_datasets", "math", data / "math"),
                stock("math/math_500_gen.py", "math_datasets", "math-500", data / "math"),
                stock("math/math_500_gen.py", "math_datasets", "math-500-n4", data / "math", n=4, k=[2, 4]),
                stock("math/math_0shot_gen_393424.py", "math_datasets", "math-0shot", data / "math"),
            ]
            model = {
                "abbr": MODEL_ABBR,
                "type": CannedModel,
                "path": "canned",
                "batch_size": 8,
                "max_out_len": 1024,
            }
            run = work / "outputs" / RUN
            for ds in datasets:
                CannedModel.asked = {}
                cfg = ConfigDict(models=[model], datasets=[[ds]], work_dir=str(run))
                OpenICLInferTask(cfg).run()
                cfg = ConfigDict(
                    models=[model],
                    datasets=[[ds]],
                    work_dir=str(run),
                    eval={"runner": {"task": {"dump_details": True}}},
                )
                OpenICLEvalTask(cfg).run()
            if (OUT / RUN).exists():  # the README stays
                shutil.rmtree(OUT / RUN)
            for sub in ("predictions", "results"):
                shutil.copytree(run / sub, OUT / RUN / sub)
    print(f"written under {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
