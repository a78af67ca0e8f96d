"""Every name the Rust core accepts or returns, as ``Literal`` types, written once.

The core defines these names (``str_enum!`` in ``rust/``) and exports them at run time as
``_core.VOCABULARY[label]``; ``tests/test_vocabulary.py`` checks each alias below against that
table, so a name added in Rust without its Python type (or the reverse) fails a test. The stub
``_core.pyi`` and the Python modules import the aliases from here.
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "VOCABULARY_TYPES",
    "Alternative",
    "Compat",
    "DecidedBy",
    "Equivalence",
    "EvalPolicy",
    "ExtractPolicy",
    "FieldKind",
    "FiniteDecimals",
    "JsonType",
    "Kind",
    "Method",
    "Reason",
    "SiegelTukeyStatus",
    "SympyOutcome",
    "UnanswerableAcc",
    "UnanswerableCapitalI",
    "UnanswerableDecidedBy",
    "UnanswerableEmptyOutput",
    "UnanswerableEquals",
    "UnanswerableExtraWords",
    "UnanswerablePreset",
    "UnanswerableReferences",
    "Variant",
]

# ---- protocol A (rust/verdict.rs, rust/equiv/mod.rs) ----

#: ``"fixed"`` corrects the seed tool's quirks; ``"xwin"`` reproduces its verdicts.
Compat = Literal["fixed", "xwin"]
#: Which checker: ``"auto"`` picks by the gold, ``"simple"`` (numbers), ``"latex"`` (MATH-style).
Kind = Literal["auto", "simple", "latex"]
#: The seed's ``extract_policy``: ``"strict"`` uses only the anchor phrases.
ExtractPolicy = Literal["flex", "strict"]
#: The seed's ``eval_policy``: the first three for the number checker, the last two for LaTeX.
EvalPolicy = Literal["strict", "model_include_gt", "gt_include_model", "aggressive", "conservative"]
#: Fixed mode: is a value with a finite decimal form (``2.232``, ``\\frac{3}{8}``, an integer) exact
#: against a coarser decimal (``"exact"``: ``2.23`` is wrong for ``2.232``), or compared at the
#: decimal's written precision (``"written_precision"``: ``2.23`` = ``2.232``)? See docs/policies.md.
FiniteDecimals = Literal["exact", "written_precision"]
#: Why a verdict is what it is (wire order of the batch codes).
Reason = Literal[
    "correct",
    "incorrect",
    "no_answer",
    "pred_unparseable",
    "gold_unparseable",
    "timeout",
    "over_budget",
    "error",
]
#: The stage that decided (wire order of the batch codes).
DecidedBy = Literal["literal", "numeric", "symbolic", "sympy", "none"]
#: What the SymPy fallback reports for one pending verdict.
SympyOutcome = Literal["equal", "not_equal", "timeout", "error"]
#: The Rust equivalence engine's three-valued result.
Equivalence = Literal["equal", "not_equal", "undecided"]

# ---- evaluation-log records (rust/records.rs) ----

#: How ``read_json_lines`` returns a field: its text, a list of texts, or a number.
FieldKind = Literal["text", "list", "number"]
#: The JSON type found at a field's path (the tag codes of a column index these names).
JsonType = Literal["missing", "null", "string", "number", "bool", "array", "object", "nested"]
#: Which rule reduced a gold to its answer (rust/gold.rs): an answer as written, the last box of a
#: worked solution, GSM8K's ``####`` line, a closing "The answer is" sentence, or none of them.
GoldRule = Literal["as_written", "boxed", "hashes", "answer_sentence", "unreduced"]

# ---- protocol D (rust/stats/siegel_tukey.rs) ----

Alternative = Literal["two-sided", "greater", "less"]
Method = Literal["auto", "exact", "asymptotic"]
Variant = Literal["exact", "desctools"]
SiegelTukeyStatus = Literal[
    "ok", "too_few", "non_finite", "all_tied", "too_large", "ties_no_exact", "zero_variance"
]

# ---- protocol B (rust/unanswerable/) ----

#: Which original script's settings: UMWP's ``eval.py`` or SelfAware's ``eval_model.py``.
UnanswerablePreset = Literal["umwp", "selfaware"]
#: The reference sentences: UMWP's 22 as Python parses them, its 24 as written, SelfAware's 16.
UnanswerableReferences = Literal["umwp_as_parsed", "umwp_as_written", "selfaware"]
#: An empty output is scored (UMWP) or skipped from TP/FP/FN/Acc (SelfAware).
UnanswerableEmptyOutput = Literal["scored", "skipped"]
#: A standalone capital "I": a one-letter variable (the original) or a word.
UnanswerableCapitalI = Literal["variable", "word"]
#: "=" joins the run it sits in and hides it (the original), or separates runs.
UnanswerableEquals = Literal["hides_run", "separates"]
#: UMWP's extra words: Enchant's upward case folding (the original), exact match, or not used.
UnanswerableExtraWords = Literal["enchant_case", "exact", "off"]
#: "Acc": UMWP's number in the last pieces, or SelfAware's alias substring.
UnanswerableAcc = Literal["last_pieces_number", "alias_substring"]
#: Which test decided an output.
UnanswerableDecidedBy = Literal["substring", "similarity", "math_expression", "none", "skipped_empty"]

#: ``_core.VOCABULARY`` label -> the alias that types it (checked by tests/test_vocabulary.py).
VOCABULARY_TYPES: dict[str, object] = {
    "compat": Compat,
    "kind": Kind,
    "extract_policy": ExtractPolicy,
    "eval_policy": EvalPolicy,
    "finite_decimals": FiniteDecimals,
    "reason": Reason,
    "path": DecidedBy,
    "sympy_outcome": SympyOutcome,
    "equivalence": Equivalence,
    "alternative": Alternative,
    "method": Method,
    "variant": Variant,
    "siegel_tukey_status": SiegelTukeyStatus,
    "field_kind": FieldKind,
    "json_type": JsonType,
    "gold_rule": GoldRule,
    "unanswerable_preset": UnanswerablePreset,
    "unanswerable_references": UnanswerableReferences,
    "unanswerable_empty_output": UnanswerableEmptyOutput,
    "unanswerable_capital_i": UnanswerableCapitalI,
    "unanswerable_equals": UnanswerableEquals,
    "unanswerable_extra_words": UnanswerableExtraWords,
    "unanswerable_acc": UnanswerableAcc,
    "unanswerable_decided_by": UnanswerableDecidedBy,
}
