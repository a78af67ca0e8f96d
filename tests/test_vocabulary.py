"""Every ``Literal`` vocabulary of the Python layer equals the core's names, in the core's order.

The core defines the names once (``str_enum!`` in ``rust/``) and exports them as
``_core.VOCABULARY``; ``matheval_fast._vocabulary`` types them once for Python and the stub.
"""

from __future__ import annotations

import typing

import pytest
from matheval_fast import _core, _vocabulary


@pytest.mark.parametrize("label", sorted(_core.VOCABULARY))
def test_python_types_match_the_core(label):
    assert label in _vocabulary.VOCABULARY_TYPES, f"no Literal type for the core's {label!r} names"
    assert typing.get_args(_vocabulary.VOCABULARY_TYPES[label]) == _core.VOCABULARY[label]


def test_no_python_type_without_core_names():
    assert set(_vocabulary.VOCABULARY_TYPES) == set(_core.VOCABULARY)


def test_wire_order_tables_are_the_vocabulary():
    # Batch codes index these tuples.
    assert _core.REASONS == _core.VOCABULARY["reason"]
    assert _core.PATHS == _core.VOCABULARY["path"]
    assert _core.SIEGEL_TUKEY_STATUS == _core.VOCABULARY["siegel_tukey_status"]


def test_modes_are_accepted_exactly_by_their_names():
    import matheval_fast as mf

    for compat in typing.get_args(_vocabulary.Compat):
        for kind in typing.get_args(_vocabulary.Kind):
            assert mf.check("The answer is: 4", "4", compat=compat, kind=kind).correct
    with pytest.raises(ValueError, match=r"compat must be one of 'fixed', 'xwin', got \"Fixed\""):
        mf.check("4", "4", compat="Fixed")  # type: ignore[arg-type]
