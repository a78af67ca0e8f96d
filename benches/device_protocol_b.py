"""Protocol B with a real model against a transformers + PyTorch loop: equal scores, and the speed ratio.

Run where torch and transformers are installed (the GPU machine's image has them; nothing there needs a
GPU): the MiniLM checkpoint is exported to ONNX with ``onnx/export.py``, ``unanswerable.detect`` scores
the outputs with :class:`matheval_fast.models.Embedder` over that directory, and the peer is what
``eval.py`` does, per output: encode its windows and every reference with the PyTorch model (mean
pooling, as the checkpoint says), take the best cosine, compare with the threshold. Both sides get the
same windows (from the core) and the same weights; the best cosine per output must agree to 1e-5 and
the verdicts must be equal. Threads: give both the same CPUs (``taskset -c 0,1``), 2 threads each.

    taskset -c 0,1 python3 benches/device_protocol_b.py --checkpoint DIR [--n 2000] [--peer-n 300]

``--checkpoint`` may hold float16 weights (as carried to a machine with a size limit): they are
upcast to float32 before anything else, so both sides run the same float32 numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benches"))


def float32_checkpoint(src: Path, dst: Path) -> Path:
    import torch
    from safetensors.torch import load_file, save_file

    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    weights = load_file(str(src / "model.safetensors"))
    save_file(
        {k: v.to(torch.float32).contiguous() for k, v in weights.items()}, str(dst / "model.safetensors")
    )
    cfg = json.loads((dst / "config.json").read_text())
    cfg["torch_dtype"] = "float32"
    cfg["dtype"] = "float32"
    (dst / "config.json").write_text(json.dumps(cfg, indent=2))
    return dst


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkpoint", type=Path, required=True)
    ap.add_argument("--n", type=int, default=2_000, help="outputs scored by ours")
    ap.add_argument("--peer-n", type=int, default=300, help="outputs the PyTorch loop runs on")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--work", type=Path, default=Path("/tmp/protocol_b_device"))  # noqa: S108
    ap.add_argument("--out", type=Path, default=None, help="where to write the figures as JSON")
    args = ap.parse_args()
    os.environ.setdefault("RAYON_NUM_THREADS", str(args.threads))

    import torch
    from compare_unanswerable import workload
    from matheval_fast import _core, unanswerable
    from matheval_fast.models import Embedder
    from transformers import AutoModel, AutoTokenizer

    torch.set_num_threads(args.threads)
    args.work.mkdir(parents=True, exist_ok=True)
    ckpt = float32_checkpoint(args.checkpoint, args.work / "minilm32")
    onnx_dir = args.work / "minilm_onnx"
    t = time.perf_counter()
    subprocess.run(
        [sys.executable, str(ROOT / "onnx" / "export.py"), str(ckpt), str(onnx_dir), "--task", "embedding",
         "--pooling", "mean", "--max-length", "256"],
        check=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"},  # local files only
    )  # fmt: skip
    print(f"export: {time.perf_counter() - t:.1f} s", flush=True)

    texts = workload(args.n)
    model = Embedder(onnx_dir, threads=args.threads, cache_size=0)
    unanswerable.detect(texts[:50], preset="umwp", scorer=model)  # warm-up
    t = time.perf_counter()
    res = unanswerable.detect(texts, preset="umwp", scorer=model)
    ours_s = time.perf_counter() - t
    peer_texts = texts[: args.peer_n]
    t = time.perf_counter()
    res_small = unanswerable.detect(peer_texts, preset="umwp", scorer=model)
    ours_small_s = time.perf_counter() - t

    tok = AutoTokenizer.from_pretrained(str(ckpt), local_files_only=True)
    pt = AutoModel.from_pretrained(str(ckpt), torch_dtype=torch.float32, local_files_only=True).eval()

    def encode(batch: list[str]) -> np.ndarray:
        enc = tok(batch, padding=True, truncation=True, max_length=256, return_tensors="pt")
        with torch.inference_mode():
            hidden = pt(**enc).last_hidden_state
        mask = enc["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        mean = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        return torch.nn.functional.normalize(mean, dim=-1).numpy()

    refs = _core.unanswerable_prepare([]).references
    encode(refs)  # warm-up
    threshold = unanswerable.switches("umwp").threshold
    peer_best: list[float | None] = []
    peer_verdict: list[bool] = []
    t = time.perf_counter()
    for text in peer_texts:  # eval.py: per output, encode its windows and every reference
        b = _core.unanswerable_prepare([text])
        q = b.queries
        best = float((encode(q) @ encode(refs).T).max()) if q else None
        peer_best.append(best)
        math = b.analysis(0)["math_expression"] is not None
        peer_verdict.append(bool(best is not None and best > threshold) or math)
    peer_s = time.perf_counter() - t

    diffs = [
        abs(item.score - best)
        for item, best in zip(res.items, peer_best, strict=False)
        if item.score is not None and best is not None
    ]
    same = sum(a.unanswerable == b for a, b in zip(res.items, peer_verdict, strict=False))
    same_small = sum(a.unanswerable == b for a, b in zip(res_small.items, peer_verdict, strict=True))
    scale = len(texts) / len(peer_texts)
    figures = {
        "outputs": len(texts),
        "peer_outputs": len(peer_texts),
        "threads": args.threads,
        "scores_compared": len(diffs),
        "max_abs_score_diff": max(diffs) if diffs else None,
        "verdicts_equal": f"{same}/{len(peer_texts)}",
        "verdicts_equal_small_batch": f"{same_small}/{len(peer_texts)}",
        "ours_s": round(ours_s, 3),
        "ours_small_batch_s": round(ours_small_s, 3),
        "peer_s": round(peer_s, 3),
        "ratio_small_batch": round(peer_s / ours_small_s, 2),
        "ratio_scaled": round(peer_s * scale / ours_s, 2),
        "torch": torch.__version__,
        "cpu_count": os.cpu_count(),
        "load": os.getloadavg(),
    }
    print(json.dumps(figures, indent=2))
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "protocol_b_device.json").write_text(json.dumps(figures, indent=2))
    ok = diffs and max(diffs) <= 1e-5 and same == len(peer_texts)
    print("scores within 1e-5 and verdicts equal:", bool(ok))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
