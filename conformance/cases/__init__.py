"""The case catalogue: declarative cases, one module per spec area, and the
regressions property tests found and saved in the golden corpus
(`conformance.golden.regressions`: ids ``regression/<id>``)."""

from __future__ import annotations

import functools
from collections import Counter

from .model import Case, WriteOptions, select
from .orc import codecs as orc_codecs
from .orc import column_types, stripes
from .orc import edge_values as orc_edge_values
from .orc import encodings as orc_encodings
from .orc import encryption as orc_encryption
from .orc import geospatial as orc_geospatial
from .orc import indexes as orc_indexes
from .orc import native as orc_native
from .orc import nested as orc_nested
from .orc import shapes as orc_shapes
from .parquet import (
    bloom_filters,
    checksums,
    codecs,
    column_orders,
    edge_values,
    encodings,
    encryption,
    extensions,
    file_type,
    geospatial,
    logical_types,
    native,
    nested,
    page_index,
    pages,
    physical_types,
    shapes,
    statistics,
)

_AREAS = (physical_types, logical_types, encodings, codecs, pages, nested, statistics, page_index,
          bloom_filters, checksums, encryption, column_orders, geospatial, file_type,
          extensions, edge_values, native, shapes)
_ORC_AREAS = (column_types, orc_nested, orc_encodings, orc_codecs, stripes, orc_indexes,
              orc_edge_values, orc_shapes, orc_native, orc_geospatial, orc_encryption)


@functools.cache
def _catalogue() -> dict[str, Case]:
    """Built once per process: building and validating every case is not free, and a
    matrix worker looks a case up for every cell."""
    cases = [case for area in (*_AREAS, *_ORC_AREAS) for case in area.cases()] + _regressions()
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


def case_by_id(case_id: str) -> Case:
    found = _catalogue().get(case_id)
    if found is None:
        raise KeyError(f"no case {case_id!r}")
    return found


__all__ = ["Case", "WriteOptions", "all_cases", "case_by_id", "select"]
