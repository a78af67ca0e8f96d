"""Make the OpenCompass fixture in tests/data/logs/opencompass/ with OpenCompass itself.

Run with a SCRATCH venv (OpenCompass pulls torch and much more; nothing here is a project dependency). The
lighteval venv of make_lighteval.py has torch; OpenCompass 0.5.4 goes on top without its pinned extras:

    /tmp/venv-lighteval/bin/pip install --no-deps opencompass==0.5.4
    /tmp/venv-lighteval/bin/pip install mmengine-lite==0.11.0rc3 importlib-metadata jieba evaluate \\
        rouge_chinese rank_bm25 gradio_client tree-sitter==0.21.3 tree_sitter_languages timeout_decorator \\
        fuzzywuzzy h5py python-Levenshtein
    /tmp/venv-lighteval/bin/python scripts/log_fixtures/make_opencompass.py

What is real and what is made up:
- ``results/<model>/gsm8k.json`` is written by OpenCompass's own ``OpenICLEvalTask`` (``dump_details=True``)
  for OpenCompass's own GSM8K config (``configs/datasets/gsm8k/gsm8k_gen_1d7fe4.py``: ``Gsm8kEvaluator``,
  ``gsm8k_postprocess``, ``gsm8k_dataset_postprocess``), with only the dataset ``path`` pointed at a local
  folder (``test.jsonl``/``train.jsonl`` in GSM8K's own format, from data/answer_check/gsm8k_xwin.json).
- ``predictions/<model>/gsm8k.json`` (the raw outputs the eval task reads) is written by this script in the
  layout OpenCompass's ``GenInferencer`` writes (``{"0": {"origin_prompt", "prediction", "gold"}}``); the
  predictions are the reference solutions with answer lines of ours (as in make_lm_eval.py): there is no
  model here.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_lm_eval import gsm8k_docs, gsm8k_response

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests/data/logs/opencompass"
N = 12


def main() -> None:
    import opencompass
    from mmengine.config import Config, ConfigDict
    from opencompass.tasks.openicl_eval import OpenICLEvalTask

    work = Path(tempfile.mkdtemp(prefix="opencompass-fixture-"))
    data = work / "data/gsm8k"
    data.mkdir(parents=True)
    docs = gsm8k_docs()
    for split, rows in (("test", docs[:N]), ("train", docs[-20:])):
        (data / f"{split}.jsonl").write_text("".join(json.dumps(d) + "\n" for d in rows))
    cfg_file = Path(opencompass.__file__).parent / "configs/datasets/gsm8k/gsm8k_gen_1d7fe4.py"
    ds = Config.fromfile(str(cfg_file))["gsm8k_datasets"][0]
    ds["path"] = str(data)
    model = {"abbr": "canned-gsm8k", "type": "canned", "path": "canned/gsm8k"}
    run = work / "outputs/default/20260101_000000"
    preds = run / "predictions" / model["abbr"]
    preds.mkdir(parents=True)
    (preds / "gsm8k.json").write_text(
        json.dumps(
            {
                str(i): {
                    "origin_prompt": [
                        {
                            "role": "HUMAN",
                            "prompt": f"Question: {d['question']}\nLet's think step by step\nAnswer:",
                        }
                    ],
                    "prediction": gsm8k_response(i, d).strip(),
                    "gold": d["answer"].split("#### ")[-1],
                }
                for i, d in enumerate(docs[:N])
            },
            indent=4,
            ensure_ascii=False,
        )
    )
    cfg = ConfigDict(
        models=[model],
        datasets=[[ds]],
        work_dir=str(run),
        eval={"runner": {"task": {"dump_details": True}}},
    )
    OpenICLEvalTask(cfg).run()
    if OUT.exists():
        shutil.rmtree(OUT)
    shutil.copytree(run, OUT / run.relative_to(work / "outputs"))
    print(f"written under {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
