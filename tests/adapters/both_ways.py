"""The check every bundled adapter's tests make: one engine writes a catalogue case,
the other reads the file, and what it reads is exactly the case's expected values."""

from __future__ import annotations

from pathlib import Path

from conformance.cases import Case, case_by_id
from conformance.values import diff_tables


def written(writer, case: Case, folder: Path) -> Path:
    """`writer`'s file of `case` in `folder`."""
    path = folder / f"{writer.name}.parquet"
    writer.write(case, path)
    return path


def assert_read_back(writer, reader, case_id: str, folder: Path) -> None:
    case = case_by_id(case_id)
    difference = diff_tables(case.expected, reader.read(written(writer, case, folder)))
    assert difference is None, f"{writer.name} -> {reader.name}, {case_id}:\n{difference}"


def case_file(writer, case_id: str, folder: Path) -> tuple[Case, Path]:
    """A catalogue case and `writer`'s file of it."""
    case = case_by_id(case_id)
    return case, written(writer, case, folder)
