"""Make tests/data/logs/qwen_math_real/ with Qwen2.5-Math's own evaluation/math_eval.py, on real items.

Qwen2.5-Math's evaluation code is not on PyPI and is not copied into this repository: give this script
a git directory of QwenLM/Qwen2.5-Math (a clone, or the search tool's mirror), and a scratch venv with
what its evaluation code imports (vLLM and torch are replaced by stand-ins, written by this script into
a temporary folder: no model runs):

    python3.11 -m venv /work/fwvenvs/qwen
    /work/fwvenvs/qwen/bin/pip install sympy==1.12 regex pebble timeout-decorator word2number \\
        antlr4-python3-runtime==4.11.1 transformers tqdm numpy python_dateutil multiprocess datasets
    /work/fwvenvs/qwen/bin/python scripts/log_fixtures/make_qwen_math_real.py <git dir>

It extracts ``evaluation/`` of that repository's HEAD (without ``data/``) into a temporary folder and
runs, there, Qwen's own command (its ``sh/eval.sh`` with the ``qwen25-math-cot`` prompt):

    python math_eval.py --data_names gsm8k,math --data_dir ./data \\
        --model_name_or_path canned/qwen2.5-math-7b-instruct-outputs --output_dir <out> \\
        --prompt_type qwen25-math-cot --split test --seed 0 --temperature 0 --n_sampling 1 --top_p 1 \\
        --start 0 --end -1 --use_vllm --save_outputs --overwrite

and again with ``--temperature 0.7 --n_sampling 4`` (4 samples per problem).

What is real and what is made up:
- The data: Qwen's own ``evaluation/data/gsm8k/test.jsonl`` cut to the 20 GSM8K test questions of
  ../sources/gsm8k_test.jsonl; for MATH, ``evaluation/data/math/test.jsonl`` in the fields of Qwen's
  (MATH's ``problem/solution/answer/type/subject/level/unique_id`` with Qwen's ``idx``), made from the 30
  real Prealgebra problems of ../sources/math_prealgebra.jsonl (the mirror this was made from lacks
  Qwen's big data file). Everything under ``qwen_math_real/`` is written by ``math_eval.py`` +
  ``evaluate.py`` (its parser, its grader, its metrics file).
- The stand-in for vLLM's ``LLM.generate`` answers from a table: MATH prompts get the REAL
  Qwen2.5-Math-7B-Instruct outputs of data/answer_check/qwen25math_math_cot_100_graded.jsonl (the
  r-th request for a problem gets sample r: those outputs were made with this very prompt), GSM8K
  prompts get canned chain-of-thought answers of ours (``gsm8k_samples`` of make_lm_eval_real.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_lm_eval_real import gsm8k_samples, qwen_responses, read_jsonl

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "tests/data/logs/sources"
OUT = ROOT / "tests/data/logs/qwen_math_real"
MODEL = "canned/qwen2.5-math-7b-instruct-outputs"
GIT = shutil.which("git") or "git"

VLLM_STUB = '''
"""Stand-in for vLLM: answers from table.json (question text -> responses), the r-th ask of a question
getting response r."""
import json, os
from types import SimpleNamespace
_TABLE = json.load(open(os.environ["CANNED_TABLE"], encoding="utf-8"))
_ASKED = {}
class SamplingParams:
    def __init__(self, **kw): self.__dict__.update(kw)
class LLM:
    def __init__(self, **kw): pass
    def generate(self, prompts, params):
        out = []
        for i, p in enumerate(prompts):
            key = max(_TABLE, key=lambda k: p.rfind(k))
            assert p.rfind(key) >= 0, p[-300:]
            r = _ASKED.get(key, 0)
            _ASKED[key] = r + 1
            text = _TABLE[key][r % len(_TABLE[key])]
            out.append(SimpleNamespace(request_id=str(i), outputs=[SimpleNamespace(text=text)]))
        return out
'''

TORCH_STUB = '''
"""Stand-in for torch (math_eval.py imports it; the vLLM path never uses it)."""
import importlib.abc, importlib.machinery, sys, types
class _Dummy:
    def __init__(self, *a, **k): pass
    def __call__(self, *a, **k): return _Dummy()
    def __getattr__(self, n): return _Dummy()
class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name.startswith("torch."): return importlib.machinery.ModuleSpec(name, self, is_package=True)
    def create_module(self, spec):
        m = types.ModuleType(spec.name); m.__path__ = []; m.__getattr__ = lambda n: _Dummy(); return m
    def exec_module(self, m): pass
sys.meta_path.insert(0, _Finder())
__version__ = "0.0.0+stub"
def __getattr__(n):
    if n.startswith("__"): raise AttributeError(n)
    return _Dummy()
'''


def main() -> None:
    git_dir = Path(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="qwen-math-real-fixture-") as tmp:  # removed on failure too
        work = Path(tmp)
        # evaluation/ of HEAD without its data/ (big files a mirror may lack; the two needed are made below)
        names = subprocess.run(
            [GIT, f"--git-dir={git_dir}", "ls-tree", "-r", "--name-only", "HEAD", "evaluation"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        for name in names:
            if name.startswith("evaluation/data/") or name.endswith((".jar", ".png")):
                continue
            blob = subprocess.run([GIT, f"--git-dir={git_dir}", "show", f"HEAD:{name}"], capture_output=True)
            if blob.returncode == 0:
                (work / name).parent.mkdir(parents=True, exist_ok=True)
                (work / name).write_bytes(blob.stdout)
        ev = work / "evaluation"
        stubs = work / "stubs"
        (stubs / "vllm").mkdir(parents=True)
        (stubs / "vllm/__init__.py").write_text(VLLM_STUB)
        (stubs / "torch").mkdir()
        (stubs / "torch/__init__.py").write_text(TORCH_STUB)

        math_docs = read_jsonl(SOURCES / "math_prealgebra.jsonl")
        gsm_docs = read_jsonl(SOURCES / "gsm8k_test.jsonl")[:20]
        gsm_q = {d["question"]: i for i, d in enumerate(gsm_docs)}
        gsm_rows = subprocess.run(
            [GIT, f"--git-dir={git_dir}", "show", "HEAD:evaluation/data/gsm8k/test.jsonl"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.splitlines()
        qwen_gsm = [r for r in map(json.loads, gsm_rows) if r["question"] in gsm_q]
        assert len(qwen_gsm) == 20, len(qwen_gsm)
        # Qwen's data/math/test.jsonl rows are MATH's own records with their `idx` (the mirror lacks that big
        # file): the same fields, from the real problems and solutions.
        qwen_math = [
            {
                "idx": d["qwen_idx"],
                "problem": d["problem"],
                "solution": d["solution"],
                "answer": d["answer"],
                "type": d["type"],  # MATH's own field, which Qwen's evaluate.py reports type_acc by
                "subject": d["type"],
                "level": int(d["level"].split()[-1]),
                "unique_id": d["unique_id"],
            }
            for d in sorted(math_docs, key=lambda d: d["qwen_idx"])
        ]
        for name, rows in (("math", qwen_math), ("gsm8k", qwen_gsm)):
            (ev / f"data/{name}").mkdir(parents=True, exist_ok=True)
            (ev / f"data/{name}/test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))

        responses = qwen_responses()
        table = {d["problem"]: responses[d["qwen_idx"]] for d in math_docs}
        table.update({q: gsm8k_samples(i, gsm_docs[i]) for q, i in gsm_q.items()})
        (work / "table.json").write_text(json.dumps(table))
        env = {
            **os.environ,
            # the stand-ins, and Qwen's bundled latex2sympy (its README: `cd latex2sympy && pip install -e .`)
            "PYTHONPATH": os.pathsep.join([str(stubs), str(ev / "latex2sympy")]),
            "CANNED_TABLE": str(work / "table.json"),
            "CUDA_VISIBLE_DEVICES": "0",
            "TOKENIZERS_PARALLELISM": "false",
        }
        old = OUT / MODEL.split("/")[-1]  # the README stays
        if old.exists():
            shutil.rmtree(old)
        out_dir = work / "out" / MODEL.split("/")[-1] / "math_eval"
        out_dir.mkdir(parents=True)  # math_eval.py writes under outputs/<dir> when <dir> does not exist
        for extra in (
            ["--temperature", "0", "--n_sampling", "1"],
            ["--temperature", "0.7", "--n_sampling", "4"],
        ):
            cmd = [
                sys.executable,
                "math_eval.py",
                "--data_names",
                "gsm8k,math",
                "--data_dir",
                "./data",
                "--model_name_or_path",
                MODEL,
                "--output_dir",
                str(out_dir),
                "--prompt_type",
                "qwen25-math-cot",
                "--split",
                "test",
                "--seed",
                "0",
                *extra,
                "--top_p",
                "1",
                "--start",
                "0",
                "--end",
                "-1",
                "--use_vllm",
                "--save_outputs",
                "--overwrite",
            ]
            print(" ".join(cmd), file=sys.stderr)
            subprocess.run(cmd, check=True, cwd=ev, env=env)
        shutil.copytree(work / "out", OUT, dirs_exist_ok=True)
    print(f"written under {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
