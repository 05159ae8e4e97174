"""The bad-file corpus (conformance/golden/bad_files.py; issue 6, item 3).

Every bad file is rejected by the reference reader with exactly its documented
error class from the closed vocabulary of ``reference_impl/parquet/errors.py``,
with the byte offset every reader-side error carries (docs/architecture.md, 'Bad input'),
within a small time budget (no hang, no allocation a corrupt length claims).
Generation is deterministic, each fault is really there, and the files
written and the catalogue match one to one (a ratchet).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.golden.bad_files import INDEX, SUFFIX, BadFile, bad_files, file_name, write_bad_files
from reference_impl.parquet import errors
from reference_impl.parquet.reader import read_parquet

READ_BUDGET_SECONDS = 10
GENERATION_BUDGET_SECONDS = 120
REPOSITORY = Path(__file__).resolve().parents[2]
ENTRIES = bad_files()
def _by_id(entry: BadFile) -> str:
    return entry.id


@pytest.mark.timeout(READ_BUDGET_SECONDS)
@pytest.mark.parametrize("entry", ENTRIES, ids=_by_id)
def test_the_reader_rejects_each_bad_file_with_its_error_class(entry: BadFile) -> None:
    raw = entry.make()
    error_class = getattr(errors, entry.error_class)
    with pytest.raises(errors.ParquetError) as info:
        read_parquet(raw, **entry.read_options.kwargs())
    assert type(info.value) is error_class, f"{entry.id}: {info.value!r}"
    assert info.value.offset is not None, f"{entry.id}: no byte offset"
    assert 0 <= info.value.offset <= len(raw)


@pytest.mark.parametrize("entry", ENTRIES, ids=_by_id)
def test_each_fault_is_really_there(entry: BadFile) -> None:
    """The bytes differ from the valid original, or (a key fault) the same bytes
    read under the entry's valid options."""
    raw, original = entry.make(), entry.original()
    read_parquet(original, **(entry.valid_read_options or entry.read_options).kwargs())
    if entry.valid_read_options is None:
        assert raw != original
    else:
        assert raw == original
        assert entry.valid_read_options != entry.read_options


def test_the_catalogue_is_well_formed() -> None:
    ids = [entry.id for entry in ENTRIES]
    assert len(set(ids)) == len(ids)
    assert len({file_name(entry) for entry in ENTRIES}) == len(ids)
    for entry in ENTRIES:
        assert entry.error_class in errors.__all__ and entry.error_class != "ParquetError"
        # that each section exists is tests/specs/test_citations.py's check
        assert entry.spec
        assert entry.fault.endswith(".")


def _generate_in_a_fresh_process(directory: Path) -> None:
    """A new interpreter: nothing cached from this one (the originals are memoised)."""
    code = "import sys, pathlib; from conformance.golden.bad_files import write_bad_files; "
    code += "write_bad_files(pathlib.Path(sys.argv[1]))"
    subprocess.run([sys.executable, "-c", code, str(directory)], check=True, cwd=REPOSITORY)


def _contents(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in directory.rglob("*") if p.is_file()}


@pytest.mark.timeout(GENERATION_BUDGET_SECONDS)
def test_generation_is_deterministic(tmp_path: Path) -> None:
    """Two runs, in two processes, write the same bytes (index.json included)."""
    write_bad_files(tmp_path / "one")
    _generate_in_a_fresh_process(tmp_path / "two")
    first, second = _contents(tmp_path / "one"), _contents(tmp_path / "two")
    assert INDEX in first
    assert first == second


def test_every_written_file_has_a_catalogue_entry_and_back(tmp_path: Path) -> None:
    """The ratchet: no bad file without an entry, no entry without its file."""
    written = write_bad_files(tmp_path)
    on_disk = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()}
    on_disk.remove(INDEX)
    assert all(name.endswith(SUFFIX) for name in on_disk)
    assert on_disk == {p.relative_to(tmp_path).as_posix() for p in written}
    assert on_disk == {file_name(entry) for entry in ENTRIES}
    index = json.loads((tmp_path / INDEX).read_text())
    assert [item["id"] for item in index] == [entry.id for entry in ENTRIES]
    for item, entry in zip(index, ENTRIES, strict=True):
        raw = (tmp_path / file_name(entry)).read_bytes()
        assert item["sha256"] == hashlib.sha256(raw).hexdigest()
        assert item["error_class"] == entry.error_class
        assert set(item) == {"id", "fault", "error_class", "spec", "read_options", "sha256"}
