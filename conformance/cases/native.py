"""Engines' own native types: columns a case asks one engine to write as a type of its own.

An engine can write types the catalogue's abstract schema does not describe: DuckDB's
HUGEINT or fixed-size ARRAY, pyarrow's dictionary and view types, polars' Categorical,
ClickHouse's LowCardinality (issue 29 item 3). Such a column still lands in the file as
some Parquet or ORC type, and every reader must read it per the text. A case names, per
top-level column, the native type it is written as (``"<engine>:<NAME>"``, e.g.
``"duckdb:HUGEINT"``); the case's schema and rows stay the canonical values the file
must hold (docs/canonical-values.md), so the expected values come from the case
definition and never from the engine that wrote them. Where the engine's file cannot
hold them exactly, every reader's mismatch is that writer's finding.

A native case is written by its engine alone: it carries the feature tag
``native:<engine>:<NAME>`` per native column, which only that engine declares it
writes, and the matrix plans no other writer for it (`native_writer`). Readers need no
capability for it: the tag says how the file was made, not what it holds
(`reading_features`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from conformance.values import Schema

NATIVE_TAG_PREFIX = "native:"
# "<engine>:<NAME>": an engine's name as the run knows it, and the adapter's name for its type.
_NATIVE_SPEC = re.compile(r"(?P<engine>[a-z][a-z0-9_.-]*):(?P<name>[A-Za-z][A-Za-z0-9_]*)")


def native_tag(spec: str) -> str:
    """The feature tag of one native type spec ``"<engine>:<NAME>"``."""
    return NATIVE_TAG_PREFIX + spec


def native_engine(spec: str) -> str:
    """The engine of a native type spec."""
    return _parsed(spec)[0]


def native_name(spec: str) -> str:
    """The adapter's own name of the type in a native type spec."""
    return _parsed(spec)[1]


def _parsed(spec: str) -> tuple[str, str]:
    match = _NATIVE_SPEC.fullmatch(spec) if isinstance(spec, str) else None
    if match is None:
        raise ValueError(f"a native type is '<engine>:<NAME>' (e.g. 'duckdb:HUGEINT'), not {spec!r}")
    return match["engine"], match["name"]


def check_native_types(native_types: Mapping[str, str]) -> None:
    """ValueError unless every native type is well formed and all name one engine (a case
    has one writer of its native columns)."""
    engines = {native_engine(spec) for spec in native_types.values()}
    if len(engines) > 1:
        raise ValueError(f"native_types name several engines {sorted(engines)}; a case's native "
                         "columns are written by one engine")


def native_writer(native_types: Mapping[str, str]) -> str | None:
    """The engine that alone writes a case with these native types; None when it has none."""
    engines = {native_engine(spec) for spec in native_types.values()}
    return engines.pop() if engines else None


def native_tags(native_types: Mapping[str, str]) -> set[str]:
    return {native_tag(spec) for spec in native_types.values()}


def reading_features(features: Iterable[str]) -> tuple[str, ...]:
    """`features` without the native tags: how a file was made is no reader's capability."""
    return tuple(tag for tag in features if not tag.startswith(NATIVE_TAG_PREFIX))


def check_native_columns(native_types: Mapping[str, str], schema: Schema) -> None:
    """ValueError for a native type given to a column `schema` has not at its top level."""
    names = [f.name for f in schema]
    for name in native_types:
        if name not in names:
            raise ValueError(f"native_types column {name!r} is not a top-level column of the "
                             f"schema {names}")


def native_types_json(native_types: Mapping[str, str]) -> dict[str, Any]:
    """An options document's ``native_types``, only when set: the documents of cases
    without native columns stay as they were."""
    return {"native_types": dict(native_types)} if native_types else {}
