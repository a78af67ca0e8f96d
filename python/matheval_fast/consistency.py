"""Protocol D: consistency of an LLM's self-evaluation on paired prompts (Sonoda & Srinivasan, PRICAI 2024).

Each record is a pair of similar prompts ``q`` and ``q_prime`` with the model's responses to each
(five in the paper) and the score the model gave each of its own responses (1-10). The protocol:

1. Text consistency of every response, ``TC_i = mean_{j != i} P(entailment | premise r_j, hypothesis r_i)``
   within its own response set, from any NLI scorer (``direction="others_entail_self"``; the reverse
   order is ``"self_entails_others"``).
2. Per pair, the Siegel-Tukey test (:func:`matheval_fast.stats.siegel_tukey_batch`) on the two score
   samples and on the two TC samples; a pair is *rejected* (flagged) when ``p < alpha`` (0.05).
3. Given annotator labels, the method's error rate per annotator: among the rejected pairs, those in
   which the annotator found no failure, and Cohen's kappa between annotators, per topic, as in the
   paper's Tables 4 and 5.

NLI scorers: an object with ``.entailment(premises, hypotheses) -> (n,)`` (such as
``matheval_fast.models.NLIModel``), a plain callable ``f(premises, hypotheses) -> (n,)`` of entailment
probabilities, or, with ``entailment_label``, any object with ``.predict(premises, hypotheses) -> (n, k)``
and ``.labels`` (the label mapping is then explicit).

Scores may be ``null`` (a missing score is dropped from its sample); sample sizes may differ.

Annotations (optional, per record): ``{"annotations": {"A1": {"score": true, "tc": false}, ...}}``, where
``true`` means the annotator found at least one failure in that pair for that test.

Command line: ``matheval-fast consistency FILE.jsonl [--nli-model DIR] [--alpha 0.05] [--out DIR]``
writes ``pairs.jsonl``, ``summary.json``, ``summary.md`` and ``pvalues.png`` and prints the summary.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from matheval_fast import stats
from matheval_fast._report.files import json_safe
from matheval_fast._report.progress import progress_bar
from matheval_fast._vocabulary import Alternative, Method, Variant
from matheval_fast.io.text import InputError, iter_json_lines

Direction = Literal["others_entail_self", "self_entails_others"]
EntailmentFn = Callable[[list[str], list[str]], Any]

#: Logical field -> JSON key; override any of them (``--field q=question`` on the command line).
DEFAULT_FIELDS: dict[str, str] = {
    "id": "id",
    "topic": "topic",
    "q": "q",
    "q_prime": "q_prime",
    "responses": "responses",
    "responses_prime": "responses_prime",
    "scores": "scores",
    "scores_prime": "scores_prime",
    "tc": "tc",
    "tc_prime": "tc_prime",
    "annotations": "annotations",
}
TESTS = ("score", "tc")


# ---- NLI scoring ----------------------------------------------------------------------------


def as_entailment_fn(scorer: Any, *, entailment_label: str | None = None) -> EntailmentFn:
    """Turn an NLI scorer into ``f(premises, hypotheses) -> P(entailment)`` (see the module doc)."""
    if entailment_label is not None:
        if not (hasattr(scorer, "predict") and hasattr(scorer, "labels")):
            raise TypeError("entailment_label needs a scorer with .predict(premises, hypotheses) and .labels")
        names = [str(label).lower() for label in scorer.labels]
        if entailment_label.lower() not in names:
            raise ValueError(f"entailment label {entailment_label!r} not among the scorer's labels {names}")
        column = names.index(entailment_label.lower())
        return lambda p, h: np.asarray(scorer.predict(p, h), dtype=np.float64)[:, column]
    if hasattr(scorer, "entailment"):
        return scorer.entailment
    if callable(scorer):
        return scorer
    raise TypeError(f"an NLI scorer must be callable or have .entailment(), got {type(scorer).__name__}")


def text_consistency(
    response_sets: Sequence[Sequence[str]],
    scorer: Any,
    *,
    direction: Direction = "others_entail_self",
    entailment_label: str | None = None,
    batch_size: int = 256,
    progress: bool = False,
) -> list[np.ndarray]:
    """Text consistency ``TC_i`` of every response of every set, one array per set.

    ``direction="others_entail_self"`` scores premise ``r_j``, hypothesis ``r_i`` (the paper's
    Equation 1); ``"self_entails_others"`` swaps them. NLI pairs of all sets are sent to the scorer in
    chunks of ``batch_size``. A set with fewer than 2 responses gets NaN (no other response).
    """
    if direction not in ("others_entail_self", "self_entails_others"):
        raise ValueError(
            f"direction must be 'others_entail_self' or 'self_entails_others', got {direction!r}"
        )
    if batch_size < 1:
        raise ValueError("batch_size must be positive")
    fn = as_entailment_fn(scorer, entailment_label=entailment_label)
    premises: list[str] = []
    hypotheses: list[str] = []
    for responses in response_sets:
        for i, j in itertools.permutations(range(len(responses)), 2):
            hyp, prem = responses[i], responses[j]
            if direction == "self_entails_others":
                hyp, prem = prem, hyp
            premises.append(str(prem))
            hypotheses.append(str(hyp))
    probs = np.empty(len(premises), dtype=np.float64)
    bar = progress_bar(len(premises), enabled=progress, desc="NLI", unit="pair")
    for start in range(0, len(premises), batch_size):
        stop = min(start + batch_size, len(premises))
        out = np.asarray(fn(premises[start:stop], hypotheses[start:stop]), dtype=np.float64)
        if out.shape != (stop - start,):
            raise ValueError(f"NLI scorer returned shape {out.shape} for {stop - start} pairs; expected (n,)")
        if not np.all(np.isfinite(out)) or out.min() < -1e-6 or out.max() > 1 + 1e-6:
            raise ValueError("NLI scorer must return probabilities in [0, 1]")
        probs[start:stop] = out
        bar.update(stop - start)
    bar.close()
    result = []
    pos = 0
    for responses in response_sets:
        k = len(responses)
        if k < 2:
            result.append(np.full(k, np.nan))
            continue
        block = probs[pos : pos + k * (k - 1)].reshape(k, k - 1)  # row i: j != i in order
        pos += k * (k - 1)
        result.append(block.mean(axis=1))
    return result


# ---- records ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairRecord:
    """One proverb pair as read from the JSONL file."""

    id: str
    topic: str
    q: str
    q_prime: str
    responses: list[str]
    responses_prime: list[str]
    scores: list[float]
    scores_prime: list[float]
    #: Precomputed text consistencies, when the file carries them.
    tc: list[float] | None = None
    tc_prime: list[float] | None = None
    #: annotator -> {"score": bool, "tc": bool}: True when the annotator found a failure.
    annotations: dict[str, dict[str, bool]] = field(default_factory=dict)


def _numbers(value: Any, where: str) -> list[float]:
    if not isinstance(value, list):
        raise ValueError(f"{where}: expected a list of numbers, got {type(value).__name__}")
    out = []
    for v in value:
        if v is None:
            out.append(math.nan)
        elif isinstance(v, bool) or not isinstance(v, (int, float, str)):
            raise ValueError(f"{where}: {v!r} is not a number")
        else:
            try:
                out.append(float(v))
            except ValueError:
                raise ValueError(f"{where}: {v!r} is not a number") from None
    return out


def parse_record(
    obj: Mapping[str, Any], fields: Mapping[str, str] | None = None, where: str = "record"
) -> PairRecord:
    """Validate one JSON object into a :class:`PairRecord` (``fields`` renames keys)."""
    f = {**DEFAULT_FIELDS, **(fields or {})}
    if not isinstance(obj, Mapping):
        raise ValueError(f"{where}: expected a JSON object")
    for name in ("id", "scores", "scores_prime"):
        if f[name] not in obj:
            raise ValueError(f"{where}: missing field {f[name]!r}")
    responses = obj.get(f["responses"], [])
    responses_prime = obj.get(f["responses_prime"], [])
    for key, val in ((f["responses"], responses), (f["responses_prime"], responses_prime)):
        if not isinstance(val, list) or not all(isinstance(r, str) for r in val):
            raise ValueError(f"{where}: {key!r} must be a list of strings")
    tc = obj.get(f["tc"])
    tc_prime = obj.get(f["tc_prime"])
    raw_ann = obj.get(f["annotations"]) or {}
    if not isinstance(raw_ann, Mapping):
        raise ValueError(f"{where}: {f['annotations']!r} must be an object of annotator -> labels")
    annotations: dict[str, dict[str, bool]] = {}
    for annotator, labels in raw_ann.items():
        if not isinstance(labels, Mapping) or not all(isinstance(v, bool) for v in labels.values()):
            raise ValueError(f"{where}: annotations of {annotator!r} must map 'score'/'tc' to true/false")
        annotations[str(annotator)] = {k: v for k, v in labels.items() if k in TESTS}
    return PairRecord(
        id=str(obj[f["id"]]),
        topic=str(obj.get(f["topic"], "")),
        q=str(obj.get(f["q"], "")),
        q_prime=str(obj.get(f["q_prime"], "")),
        responses=list(responses),
        responses_prime=list(responses_prime),
        scores=_numbers(obj[f["scores"]], f"{where}: {f['scores']!r}"),
        scores_prime=_numbers(obj[f["scores_prime"]], f"{where}: {f['scores_prime']!r}"),
        tc=None if tc is None else _numbers(tc, f"{where}: {f['tc']!r}"),
        tc_prime=None if tc_prime is None else _numbers(tc_prime, f"{where}: {f['tc_prime']!r}"),
        annotations=annotations,
    )


def load_pairs(path: str | Path, fields: Mapping[str, str] | None = None) -> list[PairRecord]:
    """Read a JSONL file of pairs (blank lines skipped); errors name the line."""
    records = []
    # gzip, a BOM, binary data, bad UTF-8, over-long lines and bad JSON are named by iter_json_lines.
    for lineno, obj in iter_json_lines(path):
        records.append(parse_record(obj, fields, where=f"{path}:{lineno}"))
    if not records:
        raise InputError(f"{path}: the input is empty (no records); nothing to test")
    return records


# ---- the protocol -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """Siegel-Tukey outcome of one pair on one kind of sample (scores or TC)."""

    statistic: float
    pvalue: float
    method: str
    #: "ok", a status of :data:`matheval_fast.stats.SIEGEL_TUKEY_STATUS`, or "skipped" (no TC).
    status: str
    rejected: bool


@dataclass(frozen=True)
class PairResult:
    """Outcome of one pair: the test on the scores, the test on the TC values, and those values."""

    id: str
    topic: str
    score: Outcome
    tc: Outcome
    tc_values: list[float] | None
    tc_values_prime: list[float] | None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (NaN as None)."""
        return json_safe(asdict(self))


def _padded(rows: Sequence[Sequence[float]]) -> np.ndarray:
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), max(width, 1)), np.nan)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


def _outcomes(
    a: Sequence[Sequence[float]], b: Sequence[Sequence[float]], alpha: float, **opts: Any
) -> list[Outcome]:
    if not a:
        return []
    res = stats.siegel_tukey_batch(_padded(a), _padded(b), **opts)
    return [
        Outcome(float(s), float(p), str(m), str(st), bool(st == "ok" and p < alpha))
        for s, p, m, st in zip(res.statistic, res.pvalue, res.method, res.status, strict=True)
    ]


def evaluate(
    pairs: Sequence[PairRecord],
    scorer: Any = None,
    *,
    alpha: float = 0.05,
    alternative: Alternative = "two-sided",
    method: Method = "auto",
    variant: Variant = "exact",
    direction: Direction = "others_entail_self",
    entailment_label: str | None = None,
    batch_size: int = 256,
    progress: bool = False,
) -> list[PairResult]:
    """Run steps 1 and 2 of the protocol on every pair.

    Text consistency comes from ``scorer`` when given, else from the records' precomputed ``tc`` /
    ``tc_prime``; a pair with neither gets the TC test ``status="skipped"``. A pair is rejected when
    its test has a p-value below ``alpha``.
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    opts = {"alternative": alternative, "method": method, "variant": variant}
    score_out = _outcomes([p.scores for p in pairs], [p.scores_prime for p in pairs], alpha, **opts)
    tcs: list[list[float] | None]
    tcs_prime: list[list[float] | None]
    if scorer is not None:
        sets = [s for p in pairs for s in (p.responses, p.responses_prime)]
        tc_arrays = text_consistency(
            sets,
            scorer,
            direction=direction,
            entailment_label=entailment_label,
            batch_size=batch_size,
            progress=progress,
        )
        tcs = [a.tolist() for a in tc_arrays[0::2]]
        tcs_prime = [a.tolist() for a in tc_arrays[1::2]]
    else:
        tcs = [p.tc for p in pairs]
        tcs_prime = [p.tc_prime for p in pairs]
    have = [i for i in range(len(pairs)) if tcs[i] is not None and tcs_prime[i] is not None]
    tested = _outcomes([tcs[i] or [] for i in have], [tcs_prime[i] or [] for i in have], alpha, **opts)
    tc_out = dict(zip(have, tested, strict=True))
    skipped = Outcome(math.nan, math.nan, "", "skipped", False)
    return [
        PairResult(p.id, p.topic, score_out[i], tc_out.get(i, skipped), tcs[i], tcs_prime[i])
        for i, p in enumerate(pairs)
    ]


@dataclass(frozen=True)
class AnnotatorError:
    """Errors of the method according to one annotator: rejected pairs with no failure found."""

    errors: int
    annotated: int
    rate: float
    #: 95% Wilson interval of ``rate`` (NaN when nothing was annotated).
    ci_low: float
    ci_high: float


@dataclass(frozen=True)
class SummaryRow:
    """One row of the paper's Tables 4/5: a topic and a test."""

    topic: str
    test: str
    pairs: int
    tested: int
    rejected: int
    annotators: dict[str, AnnotatorError]
    #: Cohen's kappa of each annotator pair ("A1 vs A2") over rejected pairs both annotated.
    kappa: dict[str, float]


def summarize(pairs: Sequence[PairRecord], results: Sequence[PairResult]) -> list[SummaryRow]:
    """Step 3: per topic (plus ``"all"``) and test, rejections, annotator error rates and kappas."""
    annotators = sorted({a for p in pairs for a in p.annotations})
    topics = sorted({p.topic for p in pairs})
    rows = []
    for topic in [*topics, "all"]:
        idx = [i for i, p in enumerate(pairs) if topic in ("all", p.topic)]
        for test in TESTS:
            outcome = [getattr(results[i], test) for i in idx]
            rejected = [i for i, o in zip(idx, outcome, strict=True) if o.rejected]
            per: dict[str, AnnotatorError] = {}
            for a in annotators:
                labels = [
                    pairs[i].annotations[a][test] for i in rejected if test in pairs[i].annotations.get(a, {})
                ]
                errors = sum(not found for found in labels)
                if labels:
                    lo, hi = stats.wilson_interval(errors, len(labels))
                    per[a] = AnnotatorError(errors, len(labels), errors / len(labels), lo, hi)
                else:
                    per[a] = AnnotatorError(0, 0, math.nan, math.nan, math.nan)
            kappa: dict[str, float] = {}
            for a, b in itertools.combinations(annotators, 2):
                both = [
                    (pairs[i].annotations[a][test], pairs[i].annotations[b][test])
                    for i in rejected
                    if test in pairs[i].annotations.get(a, {}) and test in pairs[i].annotations.get(b, {})
                ]
                kappa[f"{a} vs {b}"] = (
                    stats.cohen_kappa([u for u, _ in both], [v for _, v in both]) if both else math.nan
                )
            rows.append(
                SummaryRow(
                    topic=topic,
                    test=test,
                    pairs=len(idx),
                    tested=sum(o.status == "ok" for o in outcome),
                    rejected=len(rejected),
                    annotators=per,
                    kappa=kappa,
                )
            )
    return rows


def format_table(rows: Iterable[SummaryRow]) -> str:
    """The summary as a Markdown table (error counts as ``errors/annotated``, as in the paper)."""
    rows = list(rows)
    annotators = sorted({a for r in rows for a in r.annotators})
    kappas = sorted({k for r in rows for k in r.kappa})
    head = ["topic", "test", "pairs", "tested", "rejected", *annotators, *(f"kappa {k}" for k in kappas)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r.topic, r.test, str(r.pairs), str(r.tested), str(r.rejected)]
        cells += [f"{r.annotators[a].errors}/{r.annotators[a].annotated}" for a in annotators]
        cells += ["" if math.isnan(r.kappa[k]) else f"{r.kappa[k]:.3f}" for k in kappas]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
