"""The bad-file corpus (conformance/golden/bad_corpus.py; issue 6, item 3).

Every bad file is rejected by the reference reader reading strictly with exactly
its documented error class from the closed vocabulary of
``reference_impl/parquet/errors.py``, with the byte offset every reader-side
error carries (docs/architecture.md, 'Bad input'), within a small time budget
(no hang, no allocation a corrupt length claims). An acceptable file is read
leniently with exactly its original's rows, naming the rule it breaks. Every
forbidden pair of the type rules has its bad file. Generation is deterministic,
each fault is really there, and the files written, the catalogue and
index.json (its JSON Schema too) match one to one (a ratchet).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.engines.parquet.reference import explicit_decryption
from conformance.engines.reference import ReadOptions
from conformance.formats import FORMATS
from conformance.golden.bad_corpus import bad_files, expected_reading, reference_reading, write_bad_files
from conformance.golden.bad_file import ACCEPTABLE, BAD, INDEX, BadFile, file_name
from conformance.golden.parquet.type_rule_files import LEAF_ROWS, forbidden_types
from conformance.golden.verify import CorpusError, check_document
from conformance.values import diff_tables
from reference_impl.common.leniency import reading
from reference_impl.parquet import errors
from reference_impl.parquet.reader import read_parquet

READ_BUDGET_SECONDS = 10
GENERATION_BUDGET_SECONDS = 120
REPOSITORY = Path(__file__).resolve().parents[3]
BAD_INDEX_SCHEMA = "bad-index.schema.json"
ALL_ENTRIES = bad_files()
ENTRIES = [entry for entry in ALL_ENTRIES if entry.format == "parquet"]  # ORC: ../orc/test_bad_files.py
ACCEPTABLE_ENTRIES = [entry for entry in ENTRIES if entry.verdict == ACCEPTABLE]
TYPE_RULE_PREFIX = "type-rule/"


def _by_id(entry: BadFile) -> str:
    return entry.id


def _kwargs(options: ReadOptions) -> dict:
    """`read_parquet`'s keyword arguments for a bad file's read options."""
    return {"verify_checksums": options.verify_checksums, "decryption": explicit_decryption(options)}


@pytest.mark.timeout(READ_BUDGET_SECONDS)
@pytest.mark.parametrize("entry", ENTRIES, ids=_by_id)
def test_the_strict_reader_rejects_each_file_with_its_error_class(entry: BadFile) -> None:
    raw = entry.make()
    error_class = getattr(errors, entry.error_class)
    with pytest.raises(errors.ParquetError) as info, reading(strict=True):
        read_parquet(raw, **_kwargs(entry.read_options))
    assert type(info.value) is error_class, f"{entry.id}: {info.value!r}"
    assert info.value.offset is not None, f"{entry.id}: no byte offset"
    assert 0 <= info.value.offset <= len(raw)


@pytest.mark.timeout(READ_BUDGET_SECONDS)
@pytest.mark.parametrize("entry", ACCEPTABLE_ENTRIES, ids=_by_id)
def test_an_acceptable_file_reads_leniently_as_its_original_naming_the_rule(entry: BadFile,
                                                                           tmp_path: Path) -> None:
    raw = entry.make()
    with reading() as breaches:
        records = read_parquet(raw, **_kwargs(entry.read_options)).records
    assert records == read_parquet(entry.original(), **_kwargs(entry.read_options)).records
    assert breaches and all(found.rule.error is getattr(errors, entry.error_class) for found in breaches)
    path = tmp_path / "acceptable.parquet"
    path.write_bytes(raw)
    table, named = reference_reading(entry, path)
    assert diff_tables(expected_reading(entry), table) is None
    assert {found.rule.id for found in named} == {found.rule.id for found in breaches}


def test_there_are_acceptable_files_and_every_file_has_a_verdict() -> None:
    assert ACCEPTABLE_ENTRIES
    assert {entry.verdict for entry in ENTRIES} == {BAD, ACCEPTABLE}


def test_every_forbidden_pair_of_the_type_rules_has_its_bad_file() -> None:
    type_rules = {entry.id: entry for entry in ENTRIES if entry.id.startswith(TYPE_RULE_PREFIX)}
    pairs = [(row, physical) for row in LEAF_ROWS for physical, _ in forbidden_types(row)]
    assert len(type_rules) == len(pairs)
    for entry in type_rules.values():
        assert (entry.verdict, entry.error_class) == (BAD, "CorruptMetadata")
        assert len(entry.spec) == 1 and entry.spec[0].startswith("LogicalTypes.md: ")
    stem = "type-rule/integer-8-true-on-int64"
    assert type_rules[stem].spec == ("LogicalTypes.md: Signed Integers",)
    assert "LogicalType INTEGER(8, true)" in type_rules[stem].fault


@pytest.mark.parametrize("entry", ENTRIES, ids=_by_id)
def test_each_fault_is_really_there(entry: BadFile) -> None:
    """The bytes differ from the valid original, or (a key fault) the same bytes
    read under the entry's valid options."""
    raw, original = entry.make(), entry.original()
    read_parquet(original, **_kwargs(entry.valid_read_options or entry.read_options))
    if entry.valid_read_options is None:
        assert raw != original
    else:
        assert raw == original
        assert entry.valid_read_options != entry.read_options


def test_the_catalogue_is_well_formed() -> None:
    ids = [entry.id for entry in ALL_ENTRIES]
    assert len(set(ids)) == len(ids)
    assert len({file_name(entry) for entry in ALL_ENTRIES}) == len(ids)
    for entry in ENTRIES:
        assert entry.error_class in errors.__all__ and entry.error_class != "ParquetError"
        assert entry.verdict in (BAD, ACCEPTABLE)
        # that each section exists is tests/specs/test_citations.py's check
        assert entry.spec
        assert entry.fault.endswith(".")


def _generate_in_a_fresh_process(directory: Path) -> None:
    """A new interpreter: nothing cached from this one (the originals are memoised)."""
    code = "import sys, pathlib; from conformance.golden.bad_corpus import write_bad_files; "
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
    assert all(name.endswith(tuple(f.suffix for f in FORMATS.values())) for name in on_disk)
    assert on_disk == {p.relative_to(tmp_path).as_posix() for p in written}
    assert on_disk == {file_name(entry) for entry in ALL_ENTRIES}
    index = json.loads((tmp_path / INDEX).read_text())
    check_document(BAD_INDEX_SCHEMA, index, tmp_path / INDEX)
    assert [item["id"] for item in index] == [entry.id for entry in ALL_ENTRIES]
    for item, entry in zip(index, ALL_ENTRIES, strict=True):
        raw = (tmp_path / file_name(entry)).read_bytes()
        assert item["sha256"] == hashlib.sha256(raw).hexdigest()
        assert (item["error_class"], item["verdict"], item["format"]) == (
            entry.error_class, entry.verdict, entry.format)
        keys = {"id", "format", "verdict", "fault", "error_class", "spec", "read_options", "sha256"}
        if entry.verdict == ACCEPTABLE:
            assert item["expected"] == expected_reading(entry).to_document()
            keys.add("expected")
        assert set(item) == keys


def test_the_index_schema_ties_the_expected_rows_to_the_verdict(tmp_path: Path) -> None:
    entry = ACCEPTABLE_ENTRIES[0]
    acceptable = entry.to_json(entry.make(), expected_reading(entry))
    check_document(BAD_INDEX_SCHEMA, [acceptable], tmp_path)
    without_rows = {key: value for key, value in acceptable.items() if key != "expected"}
    for wrong in (without_rows, {**acceptable, "verdict": BAD}, {**acceptable, "verdict": "valid"}):
        with pytest.raises(CorpusError):
            check_document(BAD_INDEX_SCHEMA, [wrong], tmp_path)
