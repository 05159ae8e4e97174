"""The GEOMETRY and GEOGRAPHY bad files (conformance/golden/orc/geospatial_files.py): each
changes the one thing its fault names, and the reference refuses it with its class."""

from __future__ import annotations

from conformance.golden.orc import geospatial_files as geo
from reference_impl.orc.metadata.orc_proto import Type
from tests.golden.orc.test_bad_files import _changed_fields, _footer


def test_the_wkb_fault_changes_the_first_values_byte_order_alone() -> None:
    original, bad = geo.geometries(), geo.wkb_byte_order()
    changed = [index for index, (a, b) in enumerate(zip(original, bad, strict=True)) if a != b]
    assert len(changed) == 1 and bad[changed[0]] == geo.NOT_A_BYTE_ORDER
    assert original[changed[0]:changed[0] + len(geo.POINTS[0])] == geo.POINTS[0]


def test_the_algorithm_fault_changes_the_geography_types_algorithm_alone() -> None:
    before, after = _footer(geo.geographies()).types, _footer(geo.unknown_algorithm()).types
    assert before[0] == after[0]
    assert isinstance(before[1], Type) and _changed_fields(before[1], after[1]) == {"algorithm"}
    assert after[1].algorithm == geo.UNKNOWN_ALGORITHM
