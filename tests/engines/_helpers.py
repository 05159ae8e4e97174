"""Small builders shared by the engine adapter tests."""

from __future__ import annotations

from pathlib import Path

from conformance.cases import Case, WriteOptions
from conformance.values import Field, Schema


def single_column_case(t, values, nullable=True, name="value", **options) -> Case:
    """A one-column case of type `t` holding `values`, with WriteOptions(**options)."""
    return Case(f"test/{name}", name, (), Schema((Field(name, t, nullable),)),
                tuple((v,) for v in values), WriteOptions(**options))


def write_case(engine, case: Case, tmp_path: Path) -> Path:
    path = tmp_path / "out.parquet"
    engine.write(case, path)
    return path
