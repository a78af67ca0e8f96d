"""Protocol A: is the model's final answer equal to the reference?

Drop-in names of the seed tool (``extract_answer``, ``simple_answer_check``,
``latex_answer_check``) plus ``check`` / ``check_batch`` returning verdicts with reasons, and
``verify(gold, pred)`` for answer-level equivalence (math-verify's argument order).

Every function takes ``compat``: ``"fixed"`` (default) corrects the seed's quirks, ``"xwin"``
reproduces its verdicts exactly. See ``docs/policies.md``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import TYPE_CHECKING, Any

from matheval_fast import _core
from matheval_fast._core import EvalConfig, SympyPending, Verdict
from matheval_fast._report.progress import progress_bar
from matheval_fast._sympy.pool import (
    DEFAULT_TIMEOUT,
    SympyResult,
    check_timeout,
    get_pool,
    prewarm_enabled,
)
from matheval_fast._vocabulary import (
    Compat,
    DecidedBy,
    EvalPolicy,
    ExtractPolicy,
    FiniteDecimals,
    Kind,
    Reason,
    SympyOutcome,
)

if TYPE_CHECKING:
    import numpy as np
    import pyarrow as pa

__all__ = [
    "BatchResult",
    "Compat",
    "DecidedBy",
    "EvalConfig",
    "EvalPolicy",
    "ExtractPolicy",
    "FiniteDecimals",
    "Kind",
    "Reason",
    "Verdict",
    "check",
    "check_batch",
    "extract_answer",
    "latex_answer_check",
    "load_config",
    "simple_answer_check",
    "verify",
    "warm_sympy",
]

REASONS: tuple[str, ...] = _core.REASONS
PATHS: tuple[str, ...] = _core.PATHS
_REASON_CODE = {name: i for i, name in enumerate(REASONS)}

#: Seconds of a SymPy worker's CPU time one fallback comparison may take before the item is marked
#: ``timeout`` (CPU time, so the verdict does not depend on the machine's load; see ``_sympy/pool.py``).
DEFAULT_SYMPY_TIMEOUT = DEFAULT_TIMEOUT

#: What ``config=`` accepts: a path to an ``eval_config.json``, its content as a dict, or a loaded config.
ConfigLike = str | os.PathLike[str] | Mapping[str, Any] | EvalConfig | None


def load_config(config: ConfigLike = None) -> EvalConfig:
    """Read a seed-format config (``eval_config.json``) from a path or a dict, parsed once by the core;
    ``None`` is the seed's default. Raises ``ConfigError`` for a malformed config."""
    if isinstance(config, EvalConfig):
        return config
    if config is None:
        return EvalConfig.seed()
    if isinstance(config, Mapping):
        return EvalConfig.from_json(json.dumps(config))
    if isinstance(config, (str, os.PathLike)):
        return EvalConfig.from_json(Path(config).read_text(encoding="utf-8"))
    raise TypeError(f"config must be a path, a dict or an EvalConfig, got {type(config).__name__}")


def _split_for(split: Sequence[str] | None, config: ConfigLike) -> list[str] | None:
    if split is not None:
        return list(split)
    if config is not None:
        return list(load_config(config).extract_pattern)
    return None


# ---- the SymPy fallback: the one place it runs -------------------------------------------------------


def _timeout_arg(timeout: float | None) -> float | None:
    """``None`` (the pool's default) or a finite positive number of seconds, checked before any work."""
    return None if timeout is None else check_timeout(timeout)


def _outcome(res: SympyResult) -> SympyOutcome:
    if res.status == "ok":
        return "equal" if res.equal else "not_equal"
    return res.status


def _settle(pending: Sequence[SympyPending], timeout: float | None) -> list[Verdict]:
    """Finish the verdicts the core left to SymPy: their tasks run in the supervised worker pool (each
    with ``timeout`` seconds), and the core applies each outcome (``SympyPending.settle``)."""
    if not pending:
        return []
    results = get_pool().run([(p.compat, p.pairs) for p in pending], timeout=timeout)
    return [p.settle(_outcome(r)) for p, r in zip(pending, results, strict=True)]


def _finish(v: Verdict | SympyPending, timeout: float | None) -> Verdict:
    return _settle([v], timeout)[0] if isinstance(v, SympyPending) else v


def check(
    response: str | None,
    gold: str | None,
    *,
    kind: Kind = "auto",
    compat: Compat = "fixed",
    config: ConfigLike = None,
    extract_policy: ExtractPolicy = "flex",
    eval_policy: EvalPolicy | None = None,
    split: Sequence[str] | None = None,
    timeout: float | None = None,
    finite_decimals: FiniteDecimals = "exact",
) -> Verdict:
    """Check one response against one gold answer.

    ``kind="auto"`` sends a gold that is one plain number (``18``, ``2,125``, ``3/4``) to the
    number checker and anything else to the LaTeX checker. The gold may itself be wrapped
    (``$..$``, ``\\boxed{}``). ``config`` (the seed's ``eval_config.json`` format) supplies the
    anchor phrases; ``split`` overrides them. ``timeout`` bounds the SymPy fallback (seconds).
    ``finite_decimals`` (fixed mode): ``"exact"`` (default) makes a value with a finite decimal
    form exact, so ``2.23`` is wrong for ``2.232`` (a decimal of six or more significant digits may
    still round it); ``"written_precision"`` compares at the coarser written precision.

    >>> check("So the total is 18.\\nThe answer is: 18.", "18").correct
    True
    >>> check("The answer is: 1000.4", "1000").reason
    'incorrect'
    """
    timeout = _timeout_arg(timeout)
    v = _core.check_one(
        response,
        gold,
        kind=kind,
        compat=compat,
        extract_policy=extract_policy,
        eval_policy=eval_policy,
        split=_split_for(split, config),
        finite_decimals=finite_decimals,
    )
    return _finish(v, timeout)


def verify(
    gold: str,
    pred: str,
    *,
    strict: bool = False,
    rounding: bool = True,
    timeout: float | None = None,
    finite_decimals: FiniteDecimals = "exact",
) -> bool:
    """Are two already-extracted answers equivalent? Gold first, as in math-verify.

    ``strict=True`` allows only trivial simplifications; ``rounding=False`` turns off the
    rounding-aware tolerance for decimals; ``finite_decimals`` as in :func:`check`.

    >>> verify("\\\\frac{1}{2}", "0.5")
    True
    """
    timeout = _timeout_arg(timeout)
    v = _core.equivalent(gold, pred, strict=strict, rounding=rounding, finite_decimals=finite_decimals)
    return _finish(v, timeout).correct


#: Marks an argument that was not passed (``None`` is a legal response: a missing one).
_UNSET: Any = object()


def _seed_arg(func: str, seed_name: str, seed_value: Any, alias: str, alias_value: Any) -> Any:
    """The seed's parameter name, or this package's earlier keyword for it (not both)."""
    if seed_value is _UNSET and alias_value is _UNSET:
        raise TypeError(f"{func}() missing required argument: '{seed_name}'")
    if seed_value is not _UNSET and alias_value is not _UNSET:
        raise TypeError(f"{func}() got both '{seed_name}' and its alias '{alias}'")
    return seed_value if seed_value is not _UNSET else alias_value


def extract_answer(
    model_generated_answer: str = _UNSET,
    split: Sequence[str] | None = None,
    extract_policy: ExtractPolicy = "flex",
    *,
    compat: Compat = "fixed",
    text: str = _UNSET,
) -> str | None:
    """The final answer in a response (the seed's signature and parameter names; ``text=`` is
    accepted as an alias of ``model_generated_answer=``). ``split`` defaults to the seed's patterns.

    >>> extract_answer("so 3+4=7. The answer is: 7.", compat="xwin")
    '7.'
    >>> extract_answer(model_generated_answer="so 3+4=7. The answer is: 7.")
    '7'
    """
    response = _seed_arg("extract_answer", "model_generated_answer", model_generated_answer, "text", text)
    return _core.extract_answer(response, split, extract_policy, compat=compat)


def simple_answer_check(
    model_generated_answer: str = _UNSET,
    ground_truth: str = _UNSET,
    extract_policy: ExtractPolicy = "flex",
    eval_policy: EvalPolicy = "strict",
    split: Sequence[str] | None = None,
    *,
    compat: Compat = "fixed",
    model: str = _UNSET,
    gt: str = _UNSET,
) -> bool:
    """The seed's GSM8K-style checker (numbers compared under ``eval_policy``), with the seed's
    parameter names (``model=`` and ``gt=`` are accepted as aliases).

    ``split=None`` uses the seed config's patterns.

    >>> simple_answer_check(model_generated_answer="The answer is: 18.", ground_truth="18")
    True
    """
    response = _seed_arg(
        "simple_answer_check", "model_generated_answer", model_generated_answer, "model", model
    )
    gold = _seed_arg("simple_answer_check", "ground_truth", ground_truth, "gt", gt)
    v = _core.check_one(
        response,
        gold,
        kind="simple",
        compat=compat,
        extract_policy=extract_policy,
        eval_policy=eval_policy,
        split=split,
    )
    return _finish(v, None).correct


def latex_answer_check(
    model_ans: str,
    gt: str,
    split: Sequence[str] | None = None,
    extract_policy: ExtractPolicy = "flex",
    eval_policy: EvalPolicy = "aggressive",
    *,
    compat: Compat = "fixed",
) -> bool:
    """The seed's MATH-style checker (the seed's signature and parameter names).

    As in the seed, ``split=None`` means ``model_ans`` is already the extracted answer (no
    extraction); pass the patterns (e.g. ``load_config().extract_pattern``) to extract.
    """
    if not isinstance(gt, str):
        raise TypeError(f"gt must be a str, got {type(gt).__name__}")
    if split is None:
        if compat == "xwin":
            v = _core.xwin_latex_no_extraction(
                model_ans, gt, extract_policy=extract_policy, eval_policy=eval_policy
            )
        else:
            if not isinstance(model_ans, str):
                raise TypeError(f"model_ans must be a str, got {type(model_ans).__name__}")
            v = _core.equivalent(gt, model_ans)
        return _finish(v, None).correct
    v = _core.check_one(
        model_ans,
        gt,
        kind="latex",
        compat=compat,
        extract_policy=extract_policy,
        eval_policy=eval_policy,
        split=split,
    )
    return _finish(v, None).correct


class BatchResult:
    """Verdicts of a batch, one entry per response: ``correct`` (a bool numpy array), ``reason``,
    ``extracted`` and ``path`` (numpy arrays), each made on first use. :meth:`to_arrow` builds its
    table from the core's own buffers, without a Python string per row.

    The core hands over one byte per item; numpy is imported when an array is first read, not by
    the batch: its import starts OpenBLAS threads that spin on a core for about a tenth of a
    second, which a batch of Python lists right after ``import matheval_fast`` would share its
    cores with."""

    __slots__ = (
        "_correct",
        "_correct_np",
        "_extracted_arr",
        "_extracted_build",
        "_extracted_np",
        "_path_codes",
        "_path_np",
        "_reason_codes",
        "_reason_np",
    )

    def __init__(
        self,
        correct: bytes | bytearray | np.ndarray,
        reason_codes: bytes | bytearray | np.ndarray,
        extracted: pa.Array | Callable[[], pa.Array],
        path_codes: bytes | bytearray | np.ndarray,
    ) -> None:
        self._correct = correct  # one byte (0/1) or bool per item
        self._reason_codes = reason_codes  # uint8 indexes into REASONS
        self._path_codes = path_codes  # uint8 indexes into PATHS
        # pyarrow large_string, or what builds it on first use: pyarrow takes 55 ms to import, and
        # a batch of Python lists whose caller reads only `correct` never needs it.
        self._extracted_arr: pa.Array | None = None if callable(extracted) else extracted
        self._extracted_build = extracted if callable(extracted) else None
        self._correct_np: np.ndarray | None = None
        self._extracted_np: np.ndarray | None = None
        self._reason_np: np.ndarray | None = None
        self._path_np: np.ndarray | None = None

    @property
    def correct(self) -> np.ndarray:
        """Each item's verdict (numpy bool array)."""
        if self._correct_np is None:
            self._correct_np = _bytes_array(self._correct, "bool")
        return self._correct_np

    @property
    def reason(self) -> np.ndarray:
        """Each item's reason (numpy str array; names in :data:`REASONS`)."""
        if self._reason_np is None:
            import numpy as np

            self._reason_np = np.array(REASONS)[_bytes_array(self._reason_codes, "uint8")]
        return self._reason_np

    @property
    def path(self) -> np.ndarray:
        """Each item's deciding path (numpy str array; names in :data:`PATHS`)."""
        if self._path_np is None:
            import numpy as np

            self._path_np = np.array(PATHS)[_bytes_array(self._path_codes, "uint8")]
        return self._path_np

    @property
    def _extracted(self) -> pa.Array:
        if self._extracted_arr is None:
            assert self._extracted_build is not None
            self._extracted_arr = self._extracted_build()
            self._extracted_build = None
        return self._extracted_arr

    @property
    def extracted(self) -> np.ndarray:
        """Each item's extracted answer (numpy object array of str or None)."""
        if self._extracted_np is None:
            import sys

            import numpy as np

            arr = self._extracted
            if "pandas" in sys.modules:
                # Arrow's string-to-object conversion goes through pandas: the fastest, once it is loaded.
                self._extracted_np = np.asarray(arr.to_numpy(zero_copy_only=False), dtype=object)
            else:
                # Importing pandas for it costs 0.3-0.5 s (a reward function's first call); to_pylist
                # costs about 0.1 us more per item.
                out = np.empty(len(arr), dtype=object)
                out[:] = arr.to_pylist()
                self._extracted_np = out
        return self._extracted_np

    def __len__(self) -> int:
        return len(self._correct)

    def __repr__(self) -> str:
        return f"BatchResult(n={len(self)}, accuracy={self.accuracy:.4f})"

    @property
    def accuracy(self) -> float:
        """Fraction correct (NaN for an empty batch)."""
        return float(self.correct.mean()) if len(self) else float("nan")

    def verdict(self, i: int) -> Verdict:
        """Item ``i`` as a :class:`Verdict`."""
        return Verdict(
            bool(self._correct[i]),
            REASONS[int(self._reason_codes[i])],
            self._extracted[i].as_py(),
            PATHS[int(self._path_codes[i])],
        )

    def to_arrow(self) -> pa.Table:
        """A pyarrow Table with columns correct, reason, extracted, path (all strings ``string``)."""
        import pyarrow as pa

        from matheval_fast._columns import numeric_array

        return pa.table(
            {
                "correct": numeric_array(self.correct),
                "reason": _names(REASONS, self._reason_codes),
                "extracted": self._extracted.cast(pa.string()),
                "path": _names(PATHS, self._path_codes),
            }
        )


def _extracted_array(buffers: list[Any]) -> pa.Array:
    """The core's extracted-answer buffers (one tuple per chunk) as one large_string array."""
    import pyarrow as pa

    from matheval_fast._columns import string_array

    arrays = [string_array(b) for b in buffers]
    return arrays[0] if len(arrays) == 1 else pa.concat_arrays(arrays)


_NAME_ARRAYS: dict[tuple[str, ...], pa.Array] = {}


def _names(names: tuple[str, ...], codes: bytes | bytearray | np.ndarray) -> pa.Array:
    """``names[codes]`` as an Arrow string array, built by Arrow's take (no Python strings)."""
    from matheval_fast._columns import numeric_array, strings

    arr = _NAME_ARRAYS.get(names)
    if arr is None:
        arr = _NAME_ARRAYS.setdefault(names, strings(names))
    return arr.take(numeric_array(_bytes_array(codes, "uint8")))


def _bytes_array(values: bytes | bytearray | np.ndarray, dtype: str) -> np.ndarray:
    """One byte per item as a writable numpy array of ``dtype`` (``bool`` or ``uint8``)."""
    import numpy as np

    if isinstance(values, np.ndarray):
        return values.astype(dtype, copy=False)
    return np.frombuffer(bytearray(values) if isinstance(values, bytes) else values, dtype=dtype)


def _is_ndarray(x: object) -> bool:
    """Is ``x`` a numpy array? Asked of its type, without importing numpy (none exists before numpy is
    imported) and without reading ``sys.modules["numpy"]``, which another thread may be importing still
    (a partially initialised module has no ``ndarray`` yet)."""
    return any(c.__name__ == "ndarray" and c.__module__ == "numpy" for c in type(x).__mro__)


#: The most threads a batch may ask for (``rust/batch.rs`` ``MAX_THREADS``).
MAX_THREADS = 1024


def _threads_arg(threads: object) -> int | None:
    """``None`` or an int in 1..``MAX_THREADS``, checked before any work."""
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an int or None, got {type(threads).__name__}")
    if not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be between 1 and {MAX_THREADS}, got {threads}")
    return threads


def _is_arrow(x: object) -> bool:
    mod = type(x).__module__
    return mod.startswith("pyarrow")


def _as_columns(x: Any, name: str, chunk: int) -> list[Any]:
    """Inputs cut into chunks of ``chunk`` items that the core accepts (sequences or TextColumns)."""
    if _is_arrow(x):
        # Imported here: pyarrow takes 55 ms to import, and Python lists never need it.
        from matheval_fast._columns import text_column

        if hasattr(x, "combine_chunks"):
            x = x.combine_chunks()
        if not hasattr(x, "buffers"):
            raise TypeError(f"{name}: unsupported pyarrow object {type(x).__name__}")
        return [text_column(x.slice(i, chunk)) for i in range(0, len(x), chunk)] or [[]]
    if isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of str, not a single {type(x).__name__}")
    _refuse_unordered(x, name)
    if _is_ndarray(x):
        if x.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional, got shape {x.shape}")
        x = x.tolist()
    elif not isinstance(x, (list, tuple)):
        if not isinstance(x, Iterable):
            raise TypeError(f"{name} must be a sequence of str, got {type(x).__name__}")
        x = list(x)
    if len(x) <= chunk:
        return [x]  # one chunk: the sequence itself, not a copy
    return [x[i : i + chunk] for i in range(0, len(x), chunk)]


def _refuse_unordered(x: object, name: str) -> None:
    """A table, a mapping or a set is not a column of texts: iterating a DataFrame gives its column
    names, a dict its keys, and a set pairs its items with the golds in an arbitrary order."""
    what = f"{name} must be a sequence of str, got a {type(x).__name__}"
    if hasattr(x, "columns") and hasattr(x, "iloc"):  # a pandas (or alike) DataFrame
        raise TypeError(f"{what}: pass one column, e.g. df['response']")
    if isinstance(x, Mapping) or (hasattr(x, "keys") and hasattr(x, "values") and not hasattr(x, "iloc")):
        raise TypeError(f"{what} (a mapping): pass its values in order")
    if isinstance(x, AbstractSet):
        raise TypeError(f"{what}: a set has no order to pair items by")


def warm_sympy(workers: int = 1) -> None:
    """Start ``workers`` SymPy fallback workers now, in the background (never blocks; at most one per
    CPU). The first item that needs SymPy otherwise waits for a worker to start (about 1-3.5 s, see
    README "Cold start"); call this early, e.g. before a loop of :func:`check` calls on MATH-style golds.
    ``check_batch`` does it by itself when its golds look symbolic."""
    get_pool().warm(workers)


#: A gold the number checker decides alone: a plain number (``18``, ``-2,125.5``, ``3/4``, ``$5``, ``20%``).
_PLAIN_NUMBER = re.compile(r"[-+]?\$?[\d.,\s]*(?:/[\d.,\s]+)?%?")
#: Plain words (``yes``, ``June``) are compared as text, never by SymPy.
_PLAIN_WORDS = re.compile(r"[^\W\d_]+(?:\s+[^\W\d_]+)*")
#: Golds looked at to decide whether a batch pre-warms the SymPy pool.
_PREWARM_SAMPLE = 64


def _looks_symbolic(gold: object) -> bool:
    """Might checking against ``gold`` need the SymPy fallback? Not for a plain number or plain words
    (a GSM8K-style ``solution\\n#### 18`` is judged by its answer line); LaTeX and expressions may."""
    if not isinstance(gold, str):
        return False
    g = gold.rsplit("####", 1)[-1].strip() if "####" in gold else gold.strip()
    return not (_PLAIN_NUMBER.fullmatch(g) or _PLAIN_WORDS.fullmatch(g))


def _sample(golds: Any, n: int) -> list[object]:
    """Up to ``_PREWARM_SAMPLE`` golds spread over the batch (Python values; arrow scalars converted)."""
    if n == 0:
        return []
    step = max(1, n // _PREWARM_SAMPLE)
    out: list[object] = []
    for i in range(0, n, step)[:_PREWARM_SAMPLE]:
        g = golds[i]
        out.append(g.as_py() if hasattr(g, "as_py") else g)
    return out


def _prewarm_sympy(golds: Any, n: int) -> None:
    """Start a SymPy worker in the background when the batch's golds look symbolic, so the first item
    that needs the fallback does not wait for the whole worker start (about 1-3.5 s). Never blocks."""
    if not prewarm_enabled():
        return
    try:
        sample = _sample(golds, n)
    except (TypeError, IndexError, KeyError):  # an iterable without indexing: decided without a sample
        return
    if any(_looks_symbolic(g) for g in sample):
        get_pool().warm(1)


def check_batch(
    responses: Sequence[str | None] | np.ndarray | pa.Array | pa.ChunkedArray,
    golds: Sequence[str | None] | np.ndarray | pa.Array | pa.ChunkedArray,
    *,
    kinds: Sequence[Kind] | None = None,
    compat: Compat = "fixed",
    config: ConfigLike = None,
    extract_policy: ExtractPolicy = "flex",
    eval_policy: EvalPolicy | None = None,
    split: Sequence[str] | None = None,
    threads: int | None = None,
    progress: bool = False,
    timeout: float | None = None,
    finite_decimals: FiniteDecimals = "exact",
) -> BatchResult:
    """Check many responses at once, in parallel, with the GIL released.

    Accepts lists, numpy object/str arrays and pyarrow string arrays (``None``/null = missing).
    ``kinds`` gives a checker per item; ``threads`` limits the Rust thread pool; ``progress``
    shows a progress bar (tqdm) on long batches; items only SymPy can decide go to the
    supervised worker pool with a per-item ``timeout`` (a worker starts when an item needs one; its
    start is not part of the deadline). ``MATHEVAL_SYMPY_PREWARM=1`` starts one in the background
    before the Rust work when sampled golds look symbolic (it takes a core from the batch).
    ``finite_decimals`` as in :func:`check`.

    >>> r = check_batch(["The answer is: 4.", "The answer is: 5."], ["4", "4"])
    >>> r.correct.tolist(), r.reason.tolist()
    ([True, False], ['correct', 'incorrect'])
    """
    timeout = _timeout_arg(timeout)
    threads = _threads_arg(threads)
    chunk = 65_536 if progress else max(1, 1 << 62)
    rcols = _as_columns(responses, "responses", chunk)
    gcols = _as_columns(golds, "golds", chunk)
    rlen = [len(c) for c in rcols]
    glen = [len(c) for c in gcols]
    if sum(rlen) != sum(glen):
        raise _core.ShapeError(
            f"responses and golds must have the same length, got {sum(rlen)} and {sum(glen)}"
        )
    kinds_list = None if kinds is None else list(kinds)
    if kinds_list is not None and len(kinds_list) != sum(rlen):
        raise _core.ShapeError(
            f"kinds must have one entry per response, got {len(kinds_list)} for {sum(rlen)}"
        )
    sp = _split_for(split, config)
    if isinstance(golds, (list, tuple)) or _is_ndarray(golds) or _is_arrow(golds):
        _prewarm_sympy(golds, sum(glen))
    bar = progress_bar(sum(rlen), enabled=progress, desc="checking", unit="resp")
    parts = []
    start = 0
    try:
        for rc, gc in zip(rcols, gcols, strict=True):
            n = len(rc)
            ks = None if kinds_list is None else kinds_list[start : start + n]
            out = _core.check_batch(
                rc,
                gc,
                ks,
                compat=compat,
                extract_policy=extract_policy,
                eval_policy=eval_policy,
                split=sp,
                threads=threads,
                finite_decimals=finite_decimals,
            )
            parts.append((start, out))
            start += n
            bar.update(n)
    finally:
        bar.close()
    buffers = [p[3] for _, p in parts]
    if len(parts) == 1:
        correct, reason, path, _, pending = parts[0][1]
    else:
        correct = bytearray().join(p[1][0] for p in parts)
        reason = bytearray().join(p[1][1] for p in parts)
        path = bytearray().join(p[1][2] for p in parts)
        pending = []
        for off, p in parts:
            pending.extend((off + i, v) for i, v in p[4])
    # One byte per item (bytearrays, changed in place); numpy arrays are made on first read.
    for (i, _), v in zip(pending, _settle([p for _, p in pending], timeout), strict=True):
        correct[i] = int(v.correct)
        reason[i] = _REASON_CODE[v.reason]
    return BatchResult(correct, reason, lambda: _extracted_array(buffers), path)
