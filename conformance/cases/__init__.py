"""The case catalogue: declarative cases, one module per spec area, and the
regressions property tests found and saved in the golden corpus
(`conformance.golden.regressions`: ids ``regression/<id>``)."""

from __future__ import annotations

import contextlib
import functools
from collections import Counter
from collections.abc import Iterator

from . import (
    bloom_filters,
    checksums,
    codecs,
    encodings,
    encryption,
    logical_types,
    nested,
    page_index,
    pages,
    physical_types,
    statistics,
)
from .model import Case, WriteOptions, select

_AREAS = (physical_types, logical_types, encodings, codecs, pages, nested, statistics, page_index,
          bloom_filters, checksums, encryption)


@functools.cache
def _catalogue() -> dict[str, Case]:
    """Built once per process: building and validating every case is not free, and a
    matrix worker looks a case up for every cell."""
    cases = [case for area in _AREAS for case in area.cases()] + _regressions()
    duplicates = sorted(i for i, n in Counter(c.id for c in cases).items() if n > 1)
    if duplicates:
        raise ValueError(f"duplicate case ids: {duplicates}")
    return {c.id: c for c in cases}


def _regressions() -> list[Case]:
    # Imported here: the golden package builds on the case model.
    from conformance.golden.paths import default_corpus
    from conformance.golden.regressions import load_regressions

    return load_regressions(default_corpus())


def all_cases() -> list[Case]:
    """Every case of the catalogue, in catalogue order; ids are unique."""
    return list(_catalogue().values())


# Cases made at run time (property-test examples) that `case_by_id` resolves while their
# `generated` block runs, so the matrix's cell runner runs them like catalogue cases.
_GENERATED: dict[str, Case] = {}


def case_by_id(case_id: str) -> Case:
    found = _catalogue().get(case_id) or _GENERATED.get(case_id)
    if found is None:
        raise KeyError(f"no case {case_id!r}")
    return found


@contextlib.contextmanager
def generated(*cases: Case) -> Iterator[None]:
    """Let `case_by_id` find `cases` (not in the catalogue) inside the block, in this process."""
    taken = sorted(c.id for c in cases if c.id in _catalogue() or c.id in _GENERATED)
    if taken:
        raise ValueError(f"generated case ids already in use: {taken}")
    _GENERATED.update((c.id, c) for c in cases)
    try:
        yield
    finally:
        for c in cases:
            del _GENERATED[c.id]


__all__ = ["Case", "WriteOptions", "all_cases", "case_by_id", "generated", "select"]
