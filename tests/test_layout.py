"""The repository's own folders never shadow a package that tools and tests import.

The product card fixes a top-level ``onnx/`` folder (the export scripts). ``python -m pytest`` and the
conftest put the repository root on ``sys.path``, where a folder named like a dependency is a candidate
namespace package. It must stay a *non-package* (no ``__init__.py``): Python then prefers the installed
``onnx`` whenever there is one, and a test that needs the real package checks ``onnx.__file__`` (a
namespace package has none) instead of trusting ``importorskip`` alone. No other top-level name may
clash with a dependency.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEPENDENCIES = (
    "antlr4",
    "hypothesis",
    "matplotlib",
    "numpy",
    "onnxruntime",
    "pyarrow",
    "ray",
    "scipy",
    "sympy",
    "tokenizers",
    "torch",
    "tqdm",
    "transformers",
)


def test_no_top_level_name_shadows_a_dependency() -> None:
    clashes = [n for n in DEPENDENCIES if (ROOT / n).exists() or (ROOT / f"{n}.py").exists()]
    assert not clashes


def test_onnx_folder_is_not_a_package() -> None:
    assert (ROOT / "onnx" / "export.py").is_file()
    assert not (ROOT / "onnx" / "__init__.py").exists()
    assert not (ROOT / "onnx.py").exists()


@pytest.mark.skipif(importlib.util.find_spec("onnx") is None, reason="onnx not installed")
def test_installed_onnx_wins_from_the_repository_root() -> None:
    code = "import onnx, sys; sys.stdout.write(str(onnx.__file__))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert out != "None" and str(ROOT / "onnx") not in out


# --- The house: which way the imports point, and how big a room may be -------------------------
#
# A module (a file) imports another when it names it: `use crate::a::b`, `use super::x`, a path
# `crate::a::f(...)` in the code (Rust), `import` / `from ... import` anywhere in the file, lazy and
# `TYPE_CHECKING` ones included (Python); a `#[cfg(test)] mod tests { ... }` is a caller, not part of
# its file's imports (a test may drive the whole crate). A module and what it contains (`equiv/mod.rs` and
# `equiv/sets.rs`, `judge/__init__.py` and `judge/run.py`) are one branch of the tree, not two rooms:
# a package re-exporting its files, or a file using its package's shared types, is not a circle.
# Every other edge must point one way: no circle of any length.

MAX_LINES = 1_000
RUST = ROOT / "rust"
PYTHON = ROOT / "python"


def _rust_module(path: Path) -> tuple[str, ...]:
    parts = path.relative_to(RUST).with_suffix("").parts
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return tuple(parts)


def _use_paths(tree: str) -> list[str]:
    """`a::{b, c::{d, e}}` -> ["a::b", "a::c::d", "a::c::e"] (one `use` tree, no `use` or `;`)."""
    tree = re.sub(r"\s+as\s+\w+", "", tree).replace(" ", "").replace("\n", "")
    depth, start, items = 0, None, []
    for i, ch in enumerate(tree):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}":
            depth -= 1
    if start is None:
        return [tree]
    prefix, inner = tree[:start], tree[start + 1 : tree.rindex("}")]
    depth, item = 0, ""
    for ch in inner + ",":
        if ch == "," and depth == 0:
            if item:
                items.extend(prefix + p for p in _use_paths(item))
            item = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        item += ch
    return items


def _strip_rust_comments(line: str) -> str:
    return re.sub(r"//.*", "", re.sub(r'"(?:\\.|[^"\\])*"', '""', line))


def rust_imports() -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    files = {_rust_module(p): p for p in RUST.rglob("*.rs")}
    edges: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: set() for m in files}

    def resolve(path: tuple[str, ...]) -> tuple[str, ...] | None:
        for n in range(len(path), -1, -1):
            if path[:n] in files:
                return path[:n]
        return None

    for module, path in files.items():
        lines = path.read_text().splitlines()
        inline: list[tuple[int, bool]] = []  # the enclosing inline `mod x {`: indentation, test-only
        statement, previous = "", ""
        for raw in lines:
            indent = len(raw) - len(raw.lstrip())
            if inline and raw.strip() == "}" and indent == inline[-1][0]:
                inline.pop()
                continue
            line = _strip_rust_comments(raw)
            if re.match(r"\s*(pub(\(\w+\))?\s+)?mod\s+\w+\s*\{", line):
                inline.append((indent, previous == "#[cfg(test)]" or any(t for _, t in inline)))
                continue
            previous = line.strip() or previous
            if inline and inline[-1][1]:
                continue
            named: list[str] = re.findall(r"(?<![\w:])(?:crate|super)(?:::\w+)+", line)
            if statement or re.match(r"\s*(pub(\([\w: ]+\))?\s+)?use\s", line):
                statement += line
                if ";" not in line:
                    continue
                tree = re.sub(r"^\s*(pub(\([\w: ]+\))?\s+)?use\s+", "", statement).split(";")[0]
                named = _use_paths(tree)
                statement = ""
            for name in named:
                segs = name.split("::")
                if segs[0] == "crate":
                    target = tuple(segs[1:])
                elif segs[0] == "super":
                    here = module + ("",) * len(inline)  # inside an inline module, one level down
                    while segs and segs[0] == "super":
                        here, segs = here[:-1], segs[1:]
                    target = tuple(s for s in here if s) + tuple(segs)
                else:
                    continue
                dest = resolve(target)
                if dest is not None:
                    edges[module].add(dest)
    return edges


def _py_module(path: Path) -> tuple[str, ...]:
    parts = path.relative_to(PYTHON).with_suffix("").parts
    return tuple(parts[:-1]) if parts[-1] == "__init__" else tuple(parts)


def python_imports() -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    files = {_py_module(p): p for p in PYTHON.rglob("*.py")}
    edges: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: set() for m in files}
    for module, path in files.items():
        package = module if path.name == "__init__.py" else module[:-1]
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[tuple[str, ...]] = []
            if isinstance(node, ast.Import):
                names = [tuple(a.name.split(".")) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else ()
                base = base + tuple((node.module or "").split(".")) if node.module else base
                names = [(*base, a.name) for a in node.names] + [base]
            for name in names:
                for n in range(len(name), 0, -1):
                    if name[:n] in files:
                        edges[module].add(name[:n])
                        break
    return edges


def _one_branch(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return a[: len(b)] == b or b[: len(a)] == a


def cycles(edges: dict[tuple[str, ...], set[tuple[str, ...]]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), as sorted names."""
    graph = {m: {d for d in ds if not _one_branch(m, d)} for m, ds in edges.items()}
    index: dict[tuple[str, ...], int] = {}
    low: dict[tuple[str, ...], int] = {}
    stack: list[tuple[str, ...]] = []
    on_stack: set[tuple[str, ...]] = set()
    found: list[list[str]] = []

    def visit(v: tuple[str, ...]) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append("/".join(w) or "<root>")
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_no_import_circle_in_the_rust_core() -> None:
    edges = rust_imports()
    assert ("equiv", "sets") in edges and ("latex",) in edges[("equiv", "compare")]  # it reads the tree
    assert cycles(edges) == []


def test_no_import_circle_in_the_python_package() -> None:
    edges = python_imports()
    assert ("matheval_fast", "judge", "run") in edges[("matheval_fast", "judge", "parallel")]
    assert cycles(edges) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    a, b, c = ("a",), ("b",), ("c",)
    assert cycles({a: {b}, b: {c}, c: {a}}) == [["a", "b", "c"]]
    assert cycles({a: {b}, b: set(), c: {a}}) == []
    assert cycles({("p",): {("p", "x")}, ("p", "x"): {("p",)}}) == []  # a package and its file
    assert _use_paths("crate::a::{b, c::{d, e as f}}") == ["crate::a::b", "crate::a::c::d", "crate::a::c::e"]


def test_no_room_over_a_thousand_lines() -> None:
    sources = [*RUST.rglob("*.rs"), *PYTHON.rglob("*.py")]
    big = {str(p.relative_to(ROOT)): n for p in sources if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert big == {}
