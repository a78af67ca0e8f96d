"""Reading the items to judge: JSONL (or a JSON array) and Parquet, streamed, with configurable field names.

An item is what the template needs (its ``inputs``: e.g. problem, response, explanation), an id, the
human labels (zero, one or several label fields, e.g. two reviewers) and the fields to break the
metrics down by (fault type, subject, level, ...). Nothing is held in memory beyond one Parquet
batch, so a million items stream through in constant memory.

Labels are read from ``yes``/``no``/``true``/``false``/``1``/``0`` (any case), JSON booleans and the
numbers 0 and 1; anything else is an error that names the file and line. A missing or null label (or
a NaN, as pandas writes one) means "not labelled". With several label fields the gold label is their
majority; a split vote leaves the item without gold (it is judged but not scored, and counted as
``split``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from matheval_fast.io.text import iter_json_lines, load_json

__all__ = [
    "DEFAULT_GROUP_FIELDS",
    "DatasetSpec",
    "JudgeItem",
    "ScanResult",
    "gold_label",
    "iter_items",
    "parse_label",
    "scan",
]

#: Breakdown fields used when present and not set explicitly.
DEFAULT_GROUP_FIELDS: tuple[str, ...] = ("fault_type", "subject", "level")
_LABELS = {"yes": True, "no": False, "true": True, "false": False, "1": True, "0": False}
_SUFFIXES = (".jsonl", ".ndjson", ".json", ".parquet")


@dataclass(frozen=True)
class DatasetSpec:
    """Where the items are and which keys hold what.

    ``fields`` maps a template input (or ``id``) to the key that holds it in the file, for the names
    that differ (``{"problem": "question"}``); other inputs are read from keys of their own name.
    ``group_fields=None`` means :data:`DEFAULT_GROUP_FIELDS`, those of them the file has.
    """

    path: Path
    inputs: tuple[str, ...]
    fields: Mapping[str, str] = field(default_factory=dict)
    label_fields: tuple[str, ...] = ("label",)
    group_fields: tuple[str, ...] | None = None
    id_field: str = "id"
    #: True when ``label_fields`` was chosen by the user (an absent field is then an error).
    labels_explicit: bool = False
    limit: int | None = None

    def __post_init__(self) -> None:
        allowed = (*self.inputs, "id")
        unknown = [k for k in self.fields if k not in allowed]
        if unknown:
            raise ValueError(
                f"unknown field name(s) {unknown}: the template reads {', '.join(allowed)} "
                "(map them with NAME=KEY)"
            )
        if self.path.suffix.lower() not in _SUFFIXES:
            raise ValueError(f"{self.path}: expected a {', '.join(_SUFFIXES)} file")

    def key(self, name: str) -> str:
        if name == "id":
            return self.fields.get("id", self.id_field)
        return self.fields.get(name, name)


@dataclass(frozen=True)
class JudgeItem:
    """One item to judge."""

    #: 0-based position in the file.
    index: int
    #: the record's id as text; None when it has none (null or absent): never a made-up value
    #: (the line number could equal another item's real id). ``index`` tells such items apart.
    id: str | None
    inputs: dict[str, str]
    #: one entry per label field: True, False, or None (not labelled).
    labels: tuple[bool | None, ...]
    groups: dict[str, str]
    #: "file:line" (JSONL) or "file: row N" (Parquet), for messages.
    where: str

    @property
    def gold(self) -> bool | None:
        return gold_label(self.labels)


def parse_label(value: Any, *, where: str, name: str) -> bool | None:
    """A human label as a bool (None when missing). Raises ``ValueError`` naming ``where``."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, float):
        # Parquet files written from pandas hold 0/1 labels as floats, and missing ones as NaN.
        if math.isnan(value):
            return None
        if value in (0.0, 1.0):
            return value == 1.0
    if isinstance(value, str) and value.strip().lower() in _LABELS:
        return _LABELS[value.strip().lower()]
    raise ValueError(
        f"{where}: label field {name!r} has {value!r}; expected one of yes, no, true, false, 1, 0"
    )


def gold_label(labels: Sequence[bool | None]) -> bool | None:
    """Majority of the given labels (None when none is given or the vote is split)."""
    yes = sum(1 for v in labels if v is True)
    no = sum(1 for v in labels if v is False)
    if yes > no:
        return True
    if no > yes:
        return False
    return None


def _records(spec: DatasetSpec) -> Iterator[tuple[str, Any]]:
    """(where, record) pairs in file order."""
    path = spec.path
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        try:
            import pyarrow.parquet as pq
        except ImportError:
            raise ValueError(f"{path}: reading Parquet needs pyarrow (pip install pyarrow)") from None
        row = 0
        for batch in pq.ParquetFile(path).iter_batches(batch_size=4096):
            for rec in batch.to_pylist():
                row += 1
                yield f"{path}: row {row}", rec
        return
    if suffix == ".json":
        data = load_json(path)  # errors (not UTF-8, not JSON, binary) name the file and line
        if not isinstance(data, list):
            raise ValueError(f"{path}: a .json input must hold a list of objects (or use JSONL)")
        for i, rec in enumerate(data, 1):
            yield f"{path}: item {i}", rec
        return
    for lineno, rec in iter_json_lines(path):  # gzip, BOM, binary, bad UTF-8 and bad JSON named
        yield f"{path}:{lineno}", rec


def _text(value: Any, *, where: str, name: str, key: str, rec: Mapping[str, Any]) -> str:
    if isinstance(value, str):
        return value
    if value is None:
        if key not in rec:
            keys = ", ".join(sorted(map(str, rec))) or "none"
            raise ValueError(f"{where}: missing field {name!r} (key {key!r}); the record has keys: {keys}")
        raise ValueError(f"{where}: field {name!r} (key {key!r}) is null")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise ValueError(f"{where}: field {name!r} (key {key!r}) must be text, got {type(value).__name__}")


def iter_items(spec: DatasetSpec) -> Iterator[JudgeItem]:
    """Stream the items of ``spec`` (errors name the file and line)."""
    groups = spec.group_fields if spec.group_fields is not None else DEFAULT_GROUP_FIELDS
    id_key = spec.key("id")
    for index, (where, rec) in enumerate(_records(spec)):
        if spec.limit is not None and index >= spec.limit:
            return
        if not isinstance(rec, dict):
            raise ValueError(f"{where}: expected a JSON object, got {type(rec).__name__}")
        inputs = {}
        for name in spec.inputs:
            key = spec.key(name)
            inputs[name] = _text(rec.get(key), where=where, name=name, key=key, rec=rec)
        labels = tuple(parse_label(rec.get(f), where=where, name=f) for f in spec.label_fields)
        raw_id = rec.get(id_key)
        item_id = str(raw_id) if raw_id is not None else None
        group_values = {g: ("(missing)" if rec.get(g) is None else str(rec[g])) for g in groups if g in rec}
        yield JudgeItem(index, item_id, inputs, labels, group_values, where)


@dataclass(frozen=True)
class ScanResult:
    """What a validation pass over the whole file found (before anything is sent)."""

    spec: DatasetSpec
    n_items: int
    #: items with a gold label; items whose labels split; items without any label.
    n_gold: int
    n_split: int
    n_unlabeled: int
    n_gold_positive: int


def scan(spec: DatasetSpec) -> ScanResult:
    """Read every item once: validates fields and labels, counts, and settles the group fields.

    Returns the spec with ``group_fields`` resolved (the default fields the file actually has) and
    ``label_fields`` emptied when the default ``label`` field appears nowhere. Raises ``ValueError``
    for a label or group field that was asked for and appears in no record.
    """
    wanted_groups = spec.group_fields if spec.group_fields is not None else DEFAULT_GROUP_FIELDS
    seen_groups: set[str] = set()
    seen_labels = [False] * len(spec.label_fields)
    n = n_gold = n_split = n_unlabeled = n_pos = 0
    first_keys: list[str] = []
    probe = replace(spec, group_fields=wanted_groups)
    for item in iter_items(probe):
        n += 1
        seen_groups.update(item.groups)
        for i, v in enumerate(item.labels):
            seen_labels[i] = seen_labels[i] or v is not None
        gold = item.gold
        if gold is not None:
            n_gold += 1
            n_pos += gold
        elif any(v is not None for v in item.labels):
            n_split += 1
        else:
            n_unlabeled += 1
        if n == 1:
            first_keys = sorted(item.inputs) + sorted(item.groups)
    if n == 0:
        raise ValueError(f"{spec.path}: the input is empty (no records); nothing to judge")
    missing_labels = [f for f, seen in zip(spec.label_fields, seen_labels, strict=True) if not seen]
    label_fields = spec.label_fields
    if missing_labels:
        if spec.labels_explicit:
            raise ValueError(
                f"{spec.path}: label field(s) {missing_labels} appear in no record "
                f"(first record has keys {first_keys}); name the label fields with --label-field"
            )
        label_fields = tuple(f for f in spec.label_fields if f not in missing_labels)
    if spec.group_fields is not None:
        absent = [g for g in spec.group_fields if g not in seen_groups]
        if absent:
            raise ValueError(f"{spec.path}: group field(s) {absent} appear in no record")
        groups = spec.group_fields
    else:
        groups = tuple(g for g in DEFAULT_GROUP_FIELDS if g in seen_groups)
    if label_fields != spec.label_fields:
        # Dropped default label field: every item is unlabeled.
        n_unlabeled, n_gold, n_split, n_pos = n, 0, 0, 0
    resolved = replace(spec, group_fields=groups, label_fields=label_fields)
    return ScanResult(resolved, n, n_gold, n_split, n_unlabeled, n_pos)
