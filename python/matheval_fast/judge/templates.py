"""Judge prompt templates: versioned TOML files shipped in ``judge/templates/``, or a user's own file.

A template names the fields it needs (``inputs``), holds the chat messages with ``{{field}}``
placeholders, and asks a Yes/No question whose *Yes* is the positive class (``positive`` says what
Yes means, for reports). Judging a new kind of output (protocol B abstentions, undecided protocol A
pairs) is a new template file, not new code: the dataset loader reads whatever fields the template
names, and the verdict parser and the metrics only ever see Yes/No.

Template file keys::

    name = "simple"                      # short name, used by --prompt
    version = "faultymath-simple/1"      # goes into every store key: bump it when the wording changes
    protocol = "C"                       # A, B, C or D (informational)
    description = "..."
    inputs = ["problem", "response"]     # required fields, in the order a table shows them
    positive = "..."                     # what "Yes" means
    expected_output_tokens = 3           # typical answer length, for --dry-run cost estimates
    default_max_tokens = 16              # max_tokens when the run does not set one
    system = "..."                       # optional system message
    user = "... {{problem}} ... {{response}} ..."
    json_instruction = "..."             # appended to the user message in JSON mode (optional)

Substitution is one pass over the template text: a field's value is inserted as it is and never
scanned for placeholders again, so text in a response cannot inject another field.
"""

from __future__ import annotations

import functools
import hashlib
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["BUILTIN_TEMPLATES", "Template", "TemplateError", "builtin_names", "load_template"]

#: built-in template name -> file in the package's ``judge/templates`` folder.
BUILTIN_TEMPLATES: dict[str, str] = {
    "simple": "faultymath_simple.v1.toml",
    "explain": "faultymath_explain.v1.toml",
    "cot": "faultymath_cot.v1.toml",
    "umwp-abstain": "umwp_abstain.v1.toml",
    "answer-equivalence": "answer_equivalence.v1.toml",
}

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
_FIELD_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_KNOWN_KEYS = {
    "name",
    "version",
    "protocol",
    "description",
    "inputs",
    "positive",
    "expected_output_tokens",
    "default_max_tokens",
    "system",
    "user",
    "json_instruction",
}


class TemplateError(ValueError):
    """A template file that cannot be used (the message names the file and the problem)."""


@functools.lru_cache(maxsize=64)
def _split(text: str) -> tuple[str, ...]:
    """``text`` cut at its placeholders: literal, field, literal, field, ..., literal."""
    return tuple(_PLACEHOLDER.split(text))


def _render(parts: tuple[str, ...], fields: Mapping[str, str]) -> str:
    # Odd positions are field names; values are inserted once and never scanned again.
    return "".join(fields[p] if i % 2 else p for i, p in enumerate(parts))


def builtin_names() -> list[str]:
    """Names accepted by ``--prompt`` / :func:`load_template`."""
    return list(BUILTIN_TEMPLATES)


@dataclass(frozen=True)
class Template:
    """A parsed judge template. Build one with :func:`load_template`."""

    name: str
    version: str
    protocol: str
    description: str
    inputs: tuple[str, ...]
    positive: str
    expected_output_tokens: int
    default_max_tokens: int
    system: str
    user: str
    json_instruction: str
    #: sha256 of the file's bytes (first 16 hex digits), recorded in run summaries.
    sha: str
    source: str

    def messages(self, fields: Mapping[str, str], *, json_mode: bool = False) -> list[dict[str, str]]:
        """Chat messages for one item. ``fields`` must hold every name in :attr:`inputs`."""
        missing = [k for k in self.inputs if k not in fields]
        if missing:
            raise KeyError(f"template {self.name!r} needs field(s) {missing}")

        user = _render(_split(self.user), fields)
        if json_mode and self.json_instruction:
            user = f"{user}\n{self.json_instruction}"
        if self.system:
            return [
                {"role": "system", "content": _render(_split(self.system), fields)},
                {"role": "user", "content": user},
            ]
        return [{"role": "user", "content": user}]

    def describe(self) -> dict[str, Any]:
        """Plain dict for summaries (no template text)."""
        return {
            "name": self.name,
            "version": self.version,
            "protocol": self.protocol,
            "inputs": list(self.inputs),
            "positive": self.positive,
            "sha": self.sha,
            "source": self.source,
        }


def load_template(name_or_path: str | Path) -> Template:
    """A built-in template by name (:func:`builtin_names`) or a TOML file by path.

    Raises :class:`TemplateError` (a ``ValueError``) naming the choices for an unknown name, or the
    file and the problem for a template that cannot be used.
    """
    text = str(name_or_path)
    if text in BUILTIN_TEMPLATES:
        data = resources.files(__package__).joinpath("templates", BUILTIN_TEMPLATES[text]).read_bytes()
        return _parse(data, f"built-in:{text}")
    path = Path(text)
    if path.suffix != ".toml" or not path.is_file():
        choices = ", ".join(BUILTIN_TEMPLATES)
        raise TemplateError(
            f"unknown prompt {text!r}: choose one of {choices}, or give a template .toml file"
        )
    return _parse(path.read_bytes(), str(path))


def _parse(raw: bytes, source: str) -> Template:
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise TemplateError(f"{source}: not a valid TOML template: {exc}") from None
    unknown = sorted(set(data) - _KNOWN_KEYS)
    if unknown:
        raise TemplateError(f"{source}: unknown key(s) {unknown}; known: {', '.join(sorted(_KNOWN_KEYS))}")
    for key in ("name", "version", "user", "inputs"):
        if key not in data:
            raise TemplateError(f"{source}: missing required key {key!r}")
    for key in (
        "name",
        "version",
        "user",
        "protocol",
        "description",
        "positive",
        "system",
        "json_instruction",
    ):
        if key in data and not isinstance(data[key], str):
            raise TemplateError(f"{source}: {key!r} must be a string")
    inputs = data["inputs"]
    if not isinstance(inputs, list) or not inputs or not all(isinstance(x, str) for x in inputs):
        raise TemplateError(f"{source}: 'inputs' must be a non-empty list of field names")
    bad = [x for x in inputs if not _FIELD_NAME.match(x)]
    if bad or len(set(inputs)) != len(inputs):
        raise TemplateError(f"{source}: field names must be distinct identifiers, got {inputs}")
    text = data["user"] + data.get("system", "")
    used = set(_PLACEHOLDER.findall(text))
    undeclared = sorted(used - set(inputs))
    if undeclared:
        raise TemplateError(f"{source}: placeholder(s) {undeclared} not declared in inputs {inputs}")
    unused = [x for x in inputs if x not in used]
    if unused:
        raise TemplateError(f"{source}: input(s) {unused} never appear as {{{{name}}}} in the messages")
    for key, default in (("expected_output_tokens", 8), ("default_max_tokens", 256)):
        value = data.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise TemplateError(f"{source}: {key!r} must be a positive integer")
    return Template(
        name=data["name"],
        version=data["version"],
        protocol=data.get("protocol", ""),
        description=data.get("description", ""),
        inputs=tuple(inputs),
        positive=data.get("positive", "yes"),
        expected_output_tokens=data.get("expected_output_tokens", 8),
        default_max_tokens=data.get("default_max_tokens", 256),
        system=data.get("system", ""),
        user=data["user"],
        json_instruction=data.get("json_instruction", ""),
        sha=hashlib.sha256(raw).hexdigest()[:16],
        source=source,
    )
