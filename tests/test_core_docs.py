"""Every public name of the extension has a runtime docstring (the one docstring source: the
``///`` comments in ``rust/bindings/``), so ``help()`` works on all of them."""

from __future__ import annotations

import inspect

import pytest
from matheval_fast import _core

_PUBLIC = sorted(
    name
    for name, obj in vars(_core).items()
    if not name.startswith("_") and (callable(obj) or inspect.isclass(obj))
)


def test_there_is_something_to_check():
    assert {"check_one", "check_batch", "Verdict", "SympyPending", "EvalConfig", "siegel_tukey"} <= set(
        _PUBLIC
    )


@pytest.mark.parametrize("name", _PUBLIC)
def test_public_callable_has_a_docstring(name):
    obj = getattr(_core, name)
    assert (obj.__doc__ or "").strip(), f"_core.{name} has no docstring"


def _members(cls: type) -> list[tuple[str, object]]:
    return [
        (name, member)
        for name, member in vars(cls).items()
        if not name.startswith("_")
        and (callable(member) or inspect.isdatadescriptor(member) or isinstance(member, staticmethod))
    ]


@pytest.mark.parametrize("name", [n for n in _PUBLIC if inspect.isclass(getattr(_core, n))])
def test_public_class_members_have_docstrings(name):
    cls = getattr(_core, name)
    if issubclass(cls, BaseException):
        return
    undocumented = [m for m, member in _members(cls) if not (getattr(member, "__doc__", None) or "").strip()]
    assert not undocumented, f"_core.{name}: {undocumented} have no docstring"
