"""Execution providers: CUDA (and TensorRT) when usable, else the CPU; and the optional imports."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import sys
import tempfile
from collections.abc import Sequence
from typing import Any

__all__ = ["cuda_available", "default_providers", "require_onnxruntime", "require_tokenizers"]

#: The longest input when nothing else says (matheval.json, the argument, the model's position limit).
FALLBACK_MAX_LENGTH = 512


def require_onnxruntime() -> Any:
    try:
        import onnxruntime
    except ImportError as exc:  # pragma: no cover - the test environment has it
        raise ImportError(
            "matheval_fast.models needs onnxruntime: pip install onnxruntime tokenizers "
            "(the 'cpu' extra of matheval-fast; onnxruntime-gpu for the 'gpu' extra)"
        ) from exc
    return onnxruntime


def require_tokenizers() -> Any:
    try:
        import tokenizers
    except ImportError as exc:  # pragma: no cover - the test environment has it
        raise ImportError(
            "matheval_fast.models needs tokenizers: pip install tokenizers (the 'cpu' extra)"
        ) from exc
    return tokenizers


def _gpu_visible() -> bool:
    """True when the CUDA driver reports at least one device (honours ``CUDA_VISIBLE_DEVICES``).

    Asks the driver library directly, so no torch is needed. onnxruntime-gpu lists the CUDA provider
    whether or not a GPU exists, which is why this check is made at all.
    """
    name = "nvcuda.dll" if sys.platform == "win32" else "libcuda.so.1"
    try:
        lib = ctypes.CDLL(name)
    except OSError:
        return False
    count = ctypes.c_int(0)
    try:
        if lib.cuInit(0) != 0 or lib.cuDeviceGetCount(ctypes.byref(count)) != 0:
            return False
    except AttributeError:
        return False
    return count.value > 0


def _tensorrt_present() -> bool:
    """True when TensorRT's runtime library can be found (pip ``tensorrt`` package or a system install)."""
    try:
        import tensorrt  # noqa: F401
    except ImportError:
        return ctypes.util.find_library("nvinfer") is not None
    return True


def cuda_available() -> bool:
    """True when onnxruntime-gpu's CUDA provider is installed and the driver sees a GPU."""
    ort = require_onnxruntime()
    return "CUDAExecutionProvider" in ort.get_available_providers() and _gpu_visible()


def default_providers(
    *, input_names: Sequence[str] = (), batch_size: int = 64, max_length: int = FALLBACK_MAX_LENGTH
) -> list[Any]:
    """The execution providers ``providers=None`` picks: TensorRT and CUDA when usable, then the CPU."""
    ort = require_onnxruntime()
    available = set(ort.get_available_providers())
    chosen: list[Any] = []
    if "CUDAExecutionProvider" in available and _gpu_visible():
        if "TensorrtExecutionProvider" in available and _tensorrt_present():
            # One optimisation profile spanning every shape this runtime feeds, so TensorRT builds one engine
            # instead of one per (batch, length); engines are cached on disk between runs.
            def shapes(b: int, s: int) -> str:
                return ",".join(f"{name}:{b}x{s}" for name in input_names)

            cache = os.path.join(tempfile.gettempdir(), "matheval_fast_trt")
            chosen.append(
                (
                    "TensorrtExecutionProvider",
                    {
                        "trt_engine_cache_enable": True,
                        "trt_engine_cache_path": cache,
                        "trt_profile_min_shapes": shapes(1, 1),
                        "trt_profile_opt_shapes": shapes(batch_size, max(1, max_length // 4)),
                        "trt_profile_max_shapes": shapes(batch_size, max_length),
                    },
                )
            )
        # TF32 off: fp32 models give fp32 results (a SimCSE cosine near its 0.75 threshold must not flip).
        version = tuple(int(p) for p in re.findall(r"\d+", ort.__version__)[:2])
        chosen.append(
            ("CUDAExecutionProvider", {"use_tf32": 0}) if version >= (1, 18) else "CUDAExecutionProvider"
        )
    chosen.append("CPUExecutionProvider")
    return chosen
