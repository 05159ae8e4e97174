"""The ORC bad and acceptable files (conformance/golden/orc/) in the bad-file corpus.

Every ORC file is rejected by the strict reference reader with exactly its documented
error class from ``reference_impl/orc/errors.py``, with a byte offset inside the file
(docs/architecture.md, 'Bad input'), within a small time budget; an acceptable one is
read leniently to its original's rows, naming its rule. Each is made from a
valid original, the fault is where its entry says and nothing else changed: rebuilding a
file through the same helpers without a change gives the writer's bytes back. The reject
cells dispatch on the entry's format: the reference in catalogue mode, pyarrow.orc and
pyorc in engine mode (their outcomes are findings, so only their vocabulary is checked;
they run isolated: a corrupt file may crash a peer's process).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.golden.bad_corpus import bad_files, write_bad_files
from conformance.golden.bad_file import ACCEPTABLE, BAD, INDEX, BadFile, file_name
from conformance.golden.orc import bad_files as orc
from conformance.golden.rejection import REJECTED, SINGLE_READING, plan_rejects, verdict
from conformance.golden.verify import check_document
from conformance.kms.orc_keys import test_key_provider
from conformance.matrix.cells import OUTCOMES, engine_info
from conformance.matrix.execute import run_cell
from conformance.matrix.isolation import run_isolated
from reference_impl.common.leniency import reading
from reference_impl.orc import errors
from reference_impl.orc.metadata.orc_proto import Footer, PostScript, decode
from reference_impl.orc.metadata.proto_enums import CompressionKind, StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import primitive, struct
from reference_impl.orc.reader import read_orc
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions

READ_BUDGET_SECONDS = 10
PEER_TIMEOUT_SECONDS = 30
MINIMUM_ENTRIES = 35
PEERS = ("pyarrow", "pyorc")
ENTRIES = [entry for entry in bad_files() if entry.format == orc.ORC]
ACCEPTABLE_ENTRIES = [entry for entry in ENTRIES if entry.verdict == ACCEPTABLE]
BY_ID = {entry.id: entry for entry in ENTRIES}
BAD_INDEX_SCHEMA = "bad-index.schema.json"
INT32 = 1 << 31


def _by_id(entry: BadFile) -> str:
    return entry.id


def _postscript(raw: bytes) -> PostScript:
    """ORCv1.md, 'Postscript': the last byte is its length, the PostScript precedes it."""
    return decode(PostScript, raw[len(raw) - 1 - raw[-1]:-1])


def _footer(raw: bytes) -> Footer:
    """The uncompressed Footer, which ends where the PostScript begins."""
    end = len(raw) - 1 - raw[-1]
    return decode(Footer, raw[end - (_postscript(raw).footer_length or 0):end])


def _changed_fields(before: object, after: object) -> set[str]:
    assert dataclasses.is_dataclass(before) and dataclasses.is_dataclass(after)
    return {f.name for f in dataclasses.fields(before) if getattr(before, f.name) != getattr(after, f.name)}


# ---- the catalogue ------------------------------------------------------------------


def test_the_orc_entries_are_well_formed_and_in_the_corpus() -> None:
    assert len(ENTRIES) >= MINIMUM_ENTRIES
    assert len(BY_ID) == len(ENTRIES)
    corpus = {entry.id: entry for entry in bad_files()}
    for entry in ENTRIES:
        assert corpus[entry.id] is not None and corpus[entry.id].format == orc.ORC
        assert entry.id.startswith("orc-") and entry.format == orc.ORC and entry.verdict in (BAD, ACCEPTABLE)
        assert entry.error_class in errors.__all__ and entry.error_class != "OrcError"
        assert entry.spec and entry.fault.endswith(".")
        assert entry.valid_read_options is None
        assert file_name(entry) == f"{entry.id}.orc"


@pytest.mark.timeout(READ_BUDGET_SECONDS)
@pytest.mark.parametrize("entry", ENTRIES, ids=_by_id)
def test_the_reference_rejects_each_file_with_its_error_class(entry: BadFile) -> None:
    raw = entry.make()
    with pytest.raises(errors.OrcError) as info:
        read_orc(raw, test_key_provider())  # as the reference engine reads: with the suite's test keys
    assert type(info.value) is getattr(errors, entry.error_class), f"{entry.id}: {info.value!r}"
    assert info.value.offset is not None, f"{entry.id}: no byte offset"
    assert 0 <= info.value.offset <= len(raw)


@pytest.mark.parametrize("entry", ACCEPTABLE_ENTRIES, ids=_by_id)
def test_an_acceptable_file_is_read_leniently_to_its_originals_rows(entry: BadFile) -> None:
    with reading() as breaches:
        table = read_orc(entry.make())
    assert table.rows == read_orc(entry.original()).rows
    assert breaches and {found.rule.error.__name__ for found in breaches} == {entry.error_class}
    assert {found.rule.spec for found in breaches} == set(entry.spec)


@pytest.mark.parametrize("entry", ENTRIES, ids=_by_id)
def test_each_original_is_valid_and_the_fault_is_really_there(entry: BadFile) -> None:
    original = entry.original()
    assert read_orc(original).rows
    assert entry.make() != original
    assert entry.make() == entry.make()


def test_the_originals_regenerate_byte_for_byte() -> None:
    """Deterministic: written anew (past the cache), each original has the same bytes."""
    assert orc.ints.__wrapped__() == orc.ints()
    assert orc.zlib_strings.__wrapped__() == orc.zlib_strings()
    assert orc.unions.__wrapped__() == orc.unions()


# ---- each fault is where its entry says, and nothing else changed ------------------


def test_the_byte_faults_of_the_tail_change_the_bytes_the_spec_places() -> None:
    original = orc.ints()
    magic = BY_ID["orc-tail/bad-header-magic"].make()
    assert magic[:3] == b"ORX" and magic[3:] == original[3:]
    for name, length in (("postscript-length-zero", 0), ("postscript-length-past-start", 0xFF)):
        raw = BY_ID[f"orc-tail/{name}"].make()
        assert raw[:-1] == original[:-1] and raw[-1] == length
    assert len(original) - 1 - 0xFF < len(b"ORC")  # 255 bytes back is before the header's end
    cut = BY_ID["orc-tail/tail-cut-off"].make()
    assert original.startswith(cut) and len(cut) == (_footer(original).content_length or 0)


@pytest.mark.parametrize(("name", "field"), [("postscript-magic", "magic"),
                                             ("future-major-version", "version"),
                                             ("unknown-compression", "compression"),
                                             ("footer-length-past-file", "footer_length")])
def test_a_postscript_fault_changes_one_field_and_nothing_before_it(name: str, field: str) -> None:
    original, raw = orc.ints(), BY_ID[f"orc-tail/{name}"].make()
    assert _changed_fields(_postscript(original), _postscript(raw)) == {field}
    start = len(original) - 1 - original[-1]
    assert raw[:start] == original[:start]


def test_the_footer_wire_faults_end_the_footer_inside_a_field() -> None:
    original = orc.ints()
    for name, tail in (("truncated-varint", bytes([15 << 3, 0x80])),  # key of field 15, varint
                       ("len-past-message", bytes([15 << 3 | 2, 0x7F]))):  # key, LEN, length 127
        raw = BY_ID[f"orc-footer/{name}"].make()
        end = len(raw) - 1 - raw[-1]
        footer_length = _postscript(raw).footer_length or 0
        assert raw[:end].endswith(tail)
        assert footer_length == (_postscript(original).footer_length or 0) + len(tail)
        assert _changed_fields(_postscript(original), _postscript(raw)) == {"footer_length"}


@pytest.mark.parametrize(("name", "field"), [("rows-mismatch", "number_of_rows"),
                                             ("stripe-past-tail", "stripes"),
                                             ("subtype-backwards", "types"),
                                             ("subtype-out-of-range", "types"),
                                             ("struct-without-field-names", "types"),
                                             ("unknown-type-kind", "types")])
def test_a_footer_fault_changes_one_field_of_the_footer(name: str, field: str) -> None:
    original, raw = orc.ints(), BY_ID[f"orc-footer/{name}"].make()
    assert _changed_fields(_footer(original), _footer(raw)) == {field}
    assert raw[:_footer(raw).content_length] == original[:_footer(original).content_length]


def test_the_type_faults_are_the_named_ones() -> None:
    types = {name: _footer(BY_ID[f"orc-footer/{name}"].make()).types
             for name in ("subtype-backwards", "subtype-out-of-range", "struct-without-field-names",
                          "unknown-type-kind")}
    assert types["subtype-backwards"][0].subtypes == [0]
    assert types["subtype-out-of-range"][0].subtypes == [len(types["subtype-out-of-range"])]
    assert types["struct-without-field-names"][0].field_names == []
    assert types["unknown-type-kind"][1].kind == orc.UNKNOWN_ENUM_VALUE
    assert orc.UNKNOWN_ENUM_VALUE not in {kind.value for kind in TypeKind}
    assert orc.UNKNOWN_ENUM_VALUE not in {kind.value for kind in CompressionKind}


def test_the_rle_v2_header_faults_change_the_header_bits_the_spec_names() -> None:
    """ORCv1.md, 'Integer Run Length Encoding, version 2': a Direct, Patched Base or Delta
    header's first byte ends with the top bit of the 9-bit length - 1, the second byte is
    the rest; Patched Base's third byte ends with the 5-bit patch width code."""
    original, raw = orc.ints(), BY_ID["orc-values/rle-v2-run-past-stream"].make()
    start = orc._stripe(original).offset(orc.FIRST_COLUMN, StreamKind.DATA)
    assert len(raw) == len(original)
    assert {i for i in range(len(raw)) if raw[i] != original[i]} <= {start, start + 1}
    assert (raw[start] & 0x01) << 8 | raw[start + 1] == 511  # 512 values
    original, raw = orc.patched_ints(), BY_ID["orc-values/rle-v2-patch-too-wide"].make()
    start = orc._stripe(original).offset(orc.FIRST_COLUMN, StreamKind.DATA)
    assert raw[start] >> 6 == 2  # Patched Base
    assert [i for i in range(len(raw)) if raw[i] != original[i]] == [start + 2]
    assert raw[start + 2] & 0x1F == 31  # 64 bits


def test_the_corrupt_chunk_keeps_its_header_and_replaces_its_body() -> None:
    original, raw = orc.zlib_strings(), BY_ID["orc-compression/corrupt-deflate"].make()
    start = orc._stripe(original).offset(orc.FIRST_COLUMN, StreamKind.DATA)
    header = int.from_bytes(original[start:start + 3], "little")
    length = header >> 1
    assert header & 1 == 0  # a compressed chunk
    assert raw[:start + 3] == original[:start + 3]
    assert raw[start + 3:start + 3 + length] == b"\xff" * length
    assert raw[start + 3 + length:] == original[start + 3 + length:]


def test_a_value_fault_changes_one_stream_and_the_lengths_that_follow_it() -> None:
    """Re-encoded streams: the other streams' bytes stay; the StripeFooter lists the new length."""
    for name, kind in (("dictionary-reference-out-of-range", StreamKind.DATA),
                       ("length-past-data", StreamKind.LENGTH),
                       ("present-too-short", StreamKind.PRESENT),
                       ("union-tag-past-variants", StreamKind.DATA)):
        entry = BY_ID[f"orc-values/{name}"]
        before, after = orc._stripe(entry.original()), orc._stripe(entry.make())
        changed = before.position(orc.FIRST_COLUMN, kind)
        assert [i for i, pair in enumerate(zip(before.streams, after.streams, strict=True))
                if pair[0] != pair[1]] == [changed]
        assert after.footer.streams[changed].length == len(after.streams[changed])
        assert _changed_fields(before.footer, after.footer) <= {"streams"}
        assert [s for i, s in enumerate(after.footer.streams) if i != changed] == [
            s for i, s in enumerate(before.footer.streams) if i != changed]


# ---- the helpers recompute offsets exactly (a round trip) ---------------------------


@settings(max_examples=25, deadline=None)
@given(values=st.lists(st.none() | st.integers(-INT32, INT32 - 1), min_size=1, max_size=40),
       compression=st.sampled_from([CompressionKind.NONE, CompressionKind.ZLIB]))
def test_rebuilding_a_file_without_a_change_gives_the_writers_bytes(values: list[int | None],
                                                                    compression: CompressionKind) -> None:
    raw = write_orc(struct([("x", primitive(TypeKind.INT))]), [{"x": value} for value in values],
                    OrcWriterOptions(compression=compression))
    stripe = orc._stripe(raw)
    assert orc._with_stripe(raw, stripe.streams) == raw
    assert orc._with_footer(raw) == raw
    data = stripe.data(orc.FIRST_COLUMN, StreamKind.DATA) if values != [None] * len(values) else None
    if data is not None:
        assert orc._with_stream(raw, orc.FIRST_COLUMN, StreamKind.DATA, data) == raw


# ---- the reject cells and the written corpus ---------------------------------------


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("orc-run")


@pytest.fixture(scope="module")
def requests(run_dir: Path) -> list[dict]:
    readers = [engine_info(name, orc.ORC) for name in ("reference", *PEERS)]
    return plan_rejects("t", run_dir, readers, ENTRIES)


def test_each_orc_file_has_a_cell_per_orc_reader(requests: list[dict]) -> None:
    planned = {(r["reader"], r["bad_file"]) for r in requests}
    # a fault under encryption is met by a key holder only: the reference's cell alone
    assert planned == {(reader, e.id) for e in ENTRIES
                       for reader in ("reference", *(() if e.reference_only else PEERS))}
    assert any(e.for_key_holders for e in ENTRIES)
    assert all(r["subject"]["format"] == orc.ORC and r["file"].endswith(".orc") for r in requests)
    assert not any(engine_info(p, orc.ORC).holds_orc_keys for p in PEERS)  # they read the masked view


def test_a_reader_holding_the_orc_keys_meets_the_faults_under_encryption(run_dir: Path) -> None:
    """A reader handed the suite's ORC keys (it claims encryption:column, as the ORC Java
    adapter does) reads the encrypted bad files; a fault in the reading stays the reference's."""
    holder = dataclasses.replace(engine_info(PEERS[0], orc.ORC), name="key-holder", holds_orc_keys=True)
    planned = {r["bad_file"] for r in plan_rejects("t", run_dir, [holder], ENTRIES)}
    assert planned == {e.id for e in ENTRIES if e.valid_read_options is None}
    assert {e.id for e in ENTRIES if e.for_key_holders} <= planned


@pytest.mark.timeout(READ_BUDGET_SECONDS * 3)
def test_the_reference_cell_rejects_each_file_with_its_class(requests: list[dict], run_dir: Path) -> None:
    for request in (r for r in requests if r["reader"] == "reference"):
        entry = BY_ID[request["bad_file"]]
        assert request["mode"] == "catalogue"
        cell = run_cell(request, run_dir)
        assert cell["outcome"] == "pass", cell["detail"]
        expected = SINGLE_READING if entry.verdict == ACCEPTABLE else f"{REJECTED}: {entry.error_class}: "
        assert cell["detail"].startswith(expected), cell["detail"]


def _reference_request(requests: list[dict], bad_id: str) -> dict:
    return next(r for r in requests if r["reader"] == "reference" and r["bad_file"] == bad_id)


def test_the_reference_cell_names_a_wrong_class_and_an_accepted_file(requests: list[dict],
                                                                     tmp_path: Path) -> None:
    request = _reference_request(requests, "orc-footer/rows-mismatch")
    path = tmp_path / request["file"]
    path.parent.mkdir(parents=True)
    path.write_bytes(BY_ID["orc-tail/bad-header-magic"].make())
    cell = run_cell(request, tmp_path)
    assert cell["outcome"] == "mismatch"
    assert cell["detail"].startswith(f"{REJECTED} with BadMagic, but the catalogue documents CorruptMetadata")
    path.write_bytes(orc.ints())  # the valid original
    cell = run_cell(request, tmp_path)
    assert cell["outcome"] == "mismatch" and "returned 10 rows" in cell["detail"]


@pytest.mark.timeout(PEER_TIMEOUT_SECONDS * 4)
def test_the_peers_cells_run_and_end_in_the_vocabulary(requests: list[dict], run_dir: Path) -> None:
    peer_requests = [r for r in requests if r["reader"] in PEERS]
    cells = list(run_isolated(peer_requests, run_dir, timeout_s=PEER_TIMEOUT_SECONDS, memory_limit_mb=None))
    assert len(cells) == len(peer_requests)
    for request, cell in zip(peer_requests, cells, strict=True):
        assert request["mode"] == "engine"
        assert cell["outcome"] in OUTCOMES and cell["outcome"] != "error", cell["detail"]
        assert cell["detail"]
        assert verdict(cell["outcome"], cell["detail"])


def test_the_corpus_writes_the_orc_files_with_their_suffix_and_format(tmp_path: Path) -> None:
    write_bad_files(tmp_path)
    index = json.loads((tmp_path / INDEX).read_text())
    check_document(BAD_INDEX_SCHEMA, index, tmp_path / INDEX)
    items = {item["id"]: item for item in index}
    for entry in ENTRIES:
        assert (tmp_path / file_name(entry)).read_bytes() == entry.make()
        item = items[entry.id]
        assert (item["format"], item["error_class"], item["spec"]) == (orc.ORC, entry.error_class,
                                                                      list(entry.spec))
    assert {item["format"] for item in index} == {"parquet", orc.ORC}
