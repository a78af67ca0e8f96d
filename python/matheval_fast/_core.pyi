# Type stubs of the Rust extension ``matheval_fast._core``, checked against the built module by
# ``mypy.stubtest`` in ``make lint``. The docstrings have one source, the ``///`` comments on the
# Rust functions and classes in ``rust/bindings/`` (``help(matheval_fast._core.check_one)`` shows
# them); ``tests/test_core_docs.py`` checks that every public name has one. The ``Literal`` types
# come from ``_vocabulary.py``, which a test checks against ``VOCABULARY``.

from collections.abc import Sequence
from typing import Literal, final

import numpy as np
import numpy.typing as npt
from numpy.typing import ArrayLike

from matheval_fast._vocabulary import (
    Alternative,
    Compat,
    DecidedBy,
    Equivalence,
    EvalPolicy,
    ExtractPolicy,
    FieldKind,
    FiniteDecimals,
    Kind,
    Method,
    Reason,
    SympyOutcome,
    UnanswerableAcc,
    UnanswerableCapitalI,
    UnanswerableEmptyOutput,
    UnanswerableEquals,
    UnanswerableExtraWords,
    UnanswerablePreset,
    UnanswerableReferences,
    Variant,
)

__all__ = [
    "PATHS",
    "REASONS",
    "SEED_CONFIG_JSON",
    "SIEGEL_TUKEY_STATUS",
    "VOCABULARY",
    "ConfigError",
    "DomainError",
    "EvalConfig",
    "MathEvalError",
    "ParseError",
    "ShapeError",
    "SiegelTukeyResult",
    "SympyPending",
    "TextColumn",
    "UnanswerableBatch",
    "Verdict",
    "__version__",
    "_chunks_checked",
    "append_json_members",
    "build_profile",
    "check_batch",
    "check_one",
    "cohen_kappa",
    "confusion_metrics",
    "equivalent",
    "extract_answer",
    "gold_answers",
    "json_lines",
    "latex_equivalent",
    "parse_latex",
    "read_json_lines",
    "siegel_tukey",
    "siegel_tukey_batch",
    "unanswerable_dictionary_check",
    "unanswerable_math_expressions",
    "unanswerable_metrics",
    "unanswerable_prepare",
    "unanswerable_split",
    "unanswerable_tokens",
    "wilson_interval",
    "xwin_latex_no_extraction",
]

__version__: str
build_profile: Literal["debug", "release"]
VOCABULARY: dict[str, tuple[str, ...]]

_F64 = npt.NDArray[np.float64]
_U8 = npt.NDArray[np.uint8]

# ---- errors (rust/bindings/error.rs) ----

class MathEvalError(ValueError): ...

class ParseError(MathEvalError):
    position: int

class ShapeError(MathEvalError): ...
class ConfigError(MathEvalError): ...
class DomainError(MathEvalError): ...

# ---- protocol A: verdicts (rust/bindings/verdict.rs) ----

REASONS: tuple[str, ...]
PATHS: tuple[str, ...]

@final
class Verdict:
    def __new__(cls, correct: bool, reason: str, extracted: str | None, path: str) -> Verdict: ...
    @property
    def correct(self) -> bool: ...
    @property
    def reason(self) -> Reason: ...
    @property
    def extracted(self) -> str | None: ...
    @property
    def path(self) -> DecidedBy: ...
    def __bool__(self) -> bool: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __getnewargs__(self) -> tuple[bool, Reason, str | None, DecidedBy]: ...

@final
class SympyPending:
    @property
    def compat(self) -> Compat: ...
    @property
    def pairs(self) -> list[tuple[str, str]]: ...
    @property
    def provisional(self) -> Verdict: ...
    def settle(self, outcome: SympyOutcome) -> Verdict: ...

_Outcome = Verdict | SympyPending

# ---- protocol A: config (rust/bindings/config.rs) ----

SEED_CONFIG_JSON: str

@final
class EvalConfig:
    @staticmethod
    def from_json(text: str, /) -> EvalConfig: ...
    @staticmethod
    def seed() -> EvalConfig: ...
    @property
    def extract_pattern(self) -> tuple[str, ...]: ...
    @property
    def policy(self) -> dict[str, tuple[Kind, ExtractPolicy, EvalPolicy]]: ...
    def for_type(self, type_name: str | None, /) -> tuple[Kind, ExtractPolicy, EvalPolicy]: ...
    def __eq__(self, value: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]

# ---- protocol A: checking (rust/bindings/check.rs, batch.rs) ----

def check_one(
    response: str | None,
    gold: str | None,
    *,
    kind: Kind,
    compat: Compat,
    extract_policy: ExtractPolicy,
    eval_policy: EvalPolicy | None = None,
    split: Sequence[str] | None = None,
    finite_decimals: FiniteDecimals | None = None,
) -> Verdict | SympyPending: ...
def xwin_latex_no_extraction(
    model_ans: str, gt: str, *, extract_policy: ExtractPolicy, eval_policy: EvalPolicy | None = None
) -> Verdict | SympyPending: ...
def extract_answer(
    text: str | None,
    split: Sequence[str] | None = None,
    extract_policy: ExtractPolicy | None = None,
    *,
    compat: Compat | None = None,
) -> str | None: ...
def equivalent(
    gold: str,
    pred: str,
    *,
    strict: bool = False,
    rounding: bool = True,
    finite_decimals: FiniteDecimals | None = None,
) -> Verdict | SympyPending: ...

@final
class TextColumn:
    @staticmethod
    def from_arrow(
        offsets: npt.NDArray[np.int64],
        data: npt.NDArray[np.uint8],
        validity: npt.NDArray[np.uint8] | None = None,
        bit_offset: int = 0,
    ) -> TextColumn: ...
    def __len__(self) -> int: ...

def check_batch(
    responses: Sequence[str | None] | TextColumn,
    golds: Sequence[str | None] | TextColumn,
    kinds: Sequence[Kind] | None = None,
    *,
    compat: Compat,
    extract_policy: ExtractPolicy,
    eval_policy: EvalPolicy | None = None,
    split: Sequence[str] | None = None,
    threads: int | None = None,
    finite_decimals: FiniteDecimals | None = None,
) -> tuple[
    bytearray,
    bytearray,
    bytearray,
    tuple[bytes, bytes, bytes, int],
    list[tuple[int, SympyPending]],
]: ...
def json_lines(
    columns: list[
        tuple[str, Literal["text"], TextColumn, None]
        | tuple[str, Literal["int"], npt.NDArray[np.int64], npt.NDArray[np.bool_] | None]
        | tuple[str, Literal["bool"], npt.NDArray[np.bool_], npt.NDArray[np.bool_] | None]
    ],
) -> npt.NDArray[np.uint8]: ...
def _chunks_checked() -> int: ...

# ---- the engine and the parser (rust/bindings/equiv.rs, latex.rs) ----

def latex_equivalent(
    gold: str, pred: str, /, *, strict: bool = False
) -> tuple[Equivalence, Literal["literal", "numeric", "symbolic", "none"]]: ...
def parse_latex(text: str, /) -> str: ...

# ---- protocol D: statistics (rust/bindings/stats.rs) ----

SIEGEL_TUKEY_STATUS: tuple[str, ...]

@final
class SiegelTukeyResult:
    @property
    def statistic(self) -> float: ...
    @property
    def pvalue(self) -> float: ...
    @property
    def method(self) -> Literal["exact", "asymptotic"]: ...
    @property
    def alternative(self) -> Alternative: ...
    @property
    def variant(self) -> Variant: ...

def siegel_tukey(
    x: ArrayLike,
    y: ArrayLike,
    /,
    *,
    alternative: Alternative = "two-sided",
    method: Method = "auto",
    variant: Variant = "exact",
) -> SiegelTukeyResult: ...
def siegel_tukey_batch(
    x: ArrayLike,
    y: ArrayLike,
    /,
    *,
    alternative: Alternative = "two-sided",
    method: Method = "auto",
    variant: Variant = "exact",
) -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.uint8], npt.NDArray[np.uint8]
]: ...
def cohen_kappa(a: ArrayLike, b: ArrayLike, /) -> float: ...
def confusion_metrics(
    y_true: ArrayLike, y_pred: ArrayLike, /, *, zero_division: float = 0.0
) -> tuple[int, int, int, int, float, float, float, float, float]: ...
def wilson_interval(successes: int, n: int, /, *, confidence: float = 0.95) -> tuple[float, float]: ...

# ---- evaluation-log records (rust/bindings/records.rs) ----

_Buffer = np.ndarray  # uint8
_TextColumn = tuple[Literal["text"], np.ndarray, _Buffer, _Buffer, int, np.ndarray]
_ListColumn = tuple[Literal["list"], np.ndarray, _Buffer, int, np.ndarray, _Buffer, _Buffer, int, np.ndarray]
_NumberColumn = tuple[Literal["number"], np.ndarray, _Buffer, int, np.ndarray]

def read_json_lines(
    data: bytes | bytearray | memoryview | npt.NDArray[np.uint8], fields: list[tuple[str, FieldKind]], /
) -> tuple[
    np.ndarray,
    np.ndarray,
    np.ndarray,
    list[tuple[int, str]],
    list[_TextColumn | _ListColumn | _NumberColumn],
    tuple[str, ...],
    int,
]: ...
def append_json_members(
    data: bytes | bytearray | memoryview | npt.NDArray[np.uint8],
    starts: np.ndarray,
    ends: np.ndarray,
    members: list[tuple[str, Literal["number", "bool", "text"], object]],
    /,
    append_to: str | None = None,
) -> bytes | int: ...
def gold_answers(
    column: TextColumn,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8], npt.NDArray[np.uint8], bool]: ...

# ---- protocol B: unanswerable problems (rust/bindings/unanswerable.rs) ----

@final
class UnanswerableBatch:
    def __len__(self) -> int: ...
    @property
    def queries(self) -> list[str]: ...
    @property
    def references(self) -> list[str]: ...
    @property
    def options(self) -> dict[str, object]: ...
    def windows(self, index: int) -> list[int]: ...
    def analysis(self, index: int) -> dict[str, object]: ...
    def decide(
        self,
        best: Sequence[float],
        answerable: Sequence[bool],
        /,
        *,
        golds: Sequence[float | None] | None = None,
        aliases: Sequence[Sequence[str] | None] | None = None,
    ) -> dict[str, list[object]]: ...

def unanswerable_prepare(
    texts: Sequence[str],
    /,
    *,
    preset: UnanswerablePreset | None = None,
    window: int | None = None,
    split_newlines: bool | None = None,
    strip_pieces: bool | None = None,
    normalise_output: bool | None = None,
    references: UnanswerableReferences | None = None,
    normalise_references: bool | None = None,
    substring_precheck: bool | None = None,
    empty_output: UnanswerableEmptyOutput | None = None,
    math_rule: bool | None = None,
    math_items: int | None = None,
    capital_i: UnanswerableCapitalI | None = None,
    equals: UnanswerableEquals | None = None,
    extra_words: UnanswerableExtraWords | None = None,
    acc: UnanswerableAcc | None = None,
    threshold: float | None = None,
    threads: int | None = None,
) -> UnanswerableBatch: ...
def unanswerable_metrics(
    *, tp: int, fp: int, fn_: int, acc_hits: int, answerable: int
) -> tuple[float, float, float, float]: ...
def unanswerable_tokens(text: str) -> list[str]: ...
def unanswerable_math_expressions(
    item: str,
    /,
    *,
    capital_i: UnanswerableCapitalI | None = None,
    equals: UnanswerableEquals | None = None,
    extra_words: UnanswerableExtraWords | None = None,
) -> list[str]: ...
def unanswerable_dictionary_check(
    word: str, /, *, extra_words: UnanswerableExtraWords | None = None
) -> bool: ...
def unanswerable_split(text: str, /, *, newline: bool = True) -> list[str]: ...
