"""The case catalogue: declarative cases, one module per spec area."""

from __future__ import annotations

from . import codecs, encodings, logical_types, nested, pages, physical_types
from .model import Case, WriteOptions, select

_AREAS = (physical_types, logical_types, encodings, codecs, pages, nested)


def all_cases() -> list[Case]:
    """Every case of the catalogue; ids are unique."""
    out = [case for area in _AREAS for case in area.cases()]
    ids = [c.id for c in out]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise ValueError(f"duplicate case ids: {sorted(duplicates)}")
    return out


def case_by_id(case_id: str) -> Case:
    for case in all_cases():
        if case.id == case_id:
            return case
    raise KeyError(f"no case {case_id!r}")


__all__ = ["Case", "WriteOptions", "all_cases", "case_by_id", "select"]
