"""The reference engine adapter: canonical <-> Parquet annotations and physical values.

Every catalogue case round-trips through the reference writer and reader, and
pyarrow (an independent implementation) reads the reference's file to the same
values, except where pyarrow has no form for a type or a documented gap (the
explicit sets below). Types the catalogue does not cover yet (DECIMAL on every physical type, FLOAT16,
UUID, INTERVAL, TIME, TIMESTAMP in every unit) round-trip through the reference
writer and reader here, and pyarrow (an independent implementation) must read
the same values; ConvertedType-only files (old writers) are read by the
LogicalTypes.md compatibility rules.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conformance.cases import Case, WriteOptions, all_cases
from conformance.cases.model import capability_features
from conformance.engines import get_engine
from conformance.engines.arrow_values import DECIMAL256_MAX_PRECISION, arrow_to_table
from conformance.engines.base import Unsupported
from conformance.engines.parquet.reference import CAPABILITIES, writer_options_for
from conformance.values import Field, Schema, Table, diff_tables
from conformance.values import types as T
from reference_impl.parquet.metadata import parquet_thrift as M
from reference_impl.parquet.metadata.parquet_thrift import ConvertedType, FieldRepetitionType, Type
from reference_impl.parquet.reader import read_footer, read_parquet
from reference_impl.parquet.schema.flat import ColumnSpec
from reference_impl.parquet.writer import write_parquet
from tests.engines._helpers import single_column_case, write_case

REFERENCE = get_engine("reference")
CASES = [case for case in all_cases() if case.format == "parquet"]

# Kinds pyarrow has no form for: it reads them as its own view (binary, a struct,
# FIXED_LEN_BYTE_ARRAY), which the matrix records as a finding.
PYARROW_HAS_NO_FORM = {"enum", "interval", "geometry", "geography", "variant"}
# Files pyarrow 26 cannot read, measured (pq.read_table raises OSError or ArrowInvalid with these words).
PYARROW_CANNOT_READ = {
    "dictionary-encoded BOOLEAN": (lambda c: c.options.encoding in ("RLE_DICTIONARY", "PLAIN_DICTIONARY")
                                   and "physical:BOOLEAN" in c.features,
                                   "Dictionary encoding not implemented for boolean type"),
    "LZO": (lambda c: c.options.codec == "LZO", "LZO compression is supported by the Parquet format "
                                                "in general, it is currently not supported"),
    "ALP (in Preview)": (lambda c: c.options.encoding == "ALP", "Unknown encoding type"),
    # LogicalTypes.md 'FILE' (LogicalType 19): a reader that does not know it should read the
    # group's fields; pyarrow 26 refuses the file instead (a finding of the matrix).
    "the FILE annotation": (lambda c: "type:FILE" in c.features,
                            "Logical type Undefined cannot be applied to group node"),
    # The format sets no depth; the reference reads 100 schema levels (shapes/deep-*).
    "100 schema levels": (lambda c: c.id == "shapes/deep-list-struct-66",
                          "Parquet schema too deeply nested"),
    # LogicalTypes.md 'DECIMAL' sets no largest precision; Arrow's decimals hold 76 digits.
    "DECIMAL above 76 digits": (lambda c: any(t.kind == "decimal"
                                              and t.decimal_precision > DECIMAL256_MAX_PRECISION
                                              for f in c.schema for t in f.type.walk()),
                                "Decimal precision out of range"),
}
# pyarrow reads the deprecated BIT_PACKED levels LSB first, the spec says MSB first: wrong
# values, or, when the wrong levels contradict the column's nesting, an error.
PYARROW_MISREADS = {
    "BIT_PACKED levels (apache/arrow#42368)": lambda c: c.options.level_encoding == "BIT_PACKED",
}


@pytest.fixture(scope="module")
def reference_files(tmp_path_factory) -> dict[str, Path]:
    """Each catalogue case written once by the reference (shared by the two tests below)."""
    directory = tmp_path_factory.mktemp("reference")
    files = {}
    for index, case in enumerate(CASES):
        files[case.id] = directory / f"{index}.parquet"
        REFERENCE.write(case, files[case.id])
    return files


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_every_catalogue_case_round_trips(case, reference_files):
    assert diff_tables(case.expected, REFERENCE.read(reference_files[case.id])) is None


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_pyarrow_reads_every_reference_file_to_the_expected_values(case, reference_files):
    """Two independent implementations agree on what the reference writer wrote."""
    if case.schema.kinds() & PYARROW_HAS_NO_FORM:
        pytest.skip("pyarrow has no form for this kind")
    path = reference_files[case.id]
    gaps = {gap: message for gap, (applies, message) in PYARROW_CANNOT_READ.items() if applies(case)}
    if gaps:  # still a gap (pyarrow names the first it meets): noticed when it closes
        with pytest.raises((OSError, pa.ArrowInvalid), match="|".join(gaps.values())):
            pq.read_table(path)
        pytest.skip(f"pyarrow cannot read {', '.join(gaps)}")
    # A deviation shows only where its data does (levels that read the same either way
    # agree); its own strict xfail (test_pyarrow_cross_check) notices when it is fixed.
    deviations = [d for d, applies in PYARROW_MISREADS.items() if applies(case)]
    try:
        diff = diff_tables(case.expected, _pyarrow_read(case, path))
    except (OSError, pa.ArrowException) as exc:
        if not deviations:
            raise
        diff = f"{type(exc).__name__}: {exc}"
    if diff is not None and deviations:
        pytest.skip(f"pyarrow misreads {', '.join(deviations)}: {diff.splitlines()[0]}")
    assert diff is None


def _pyarrow_read(case: Case, path: Path) -> Table:
    """pyarrow's reading of the reference's file; an encrypted one through the pyarrow adapter,
    which decrypts it with the cases' test keys (or says, measured, why pyarrow cannot)."""
    if case.options.encryption is None:
        return arrow_to_table(pq.read_table(path))
    try:
        return get_engine("pyarrow").read(path)
    except Unsupported as gap:
        pytest.skip(f"pyarrow cannot read this encryption mode: {gap}")


@pytest.mark.parametrize(("t", "values"), [
    (T.decimal(9, 2, "INT32"), [-99999999, 0, 12345, None]),
    (T.decimal(18, 4, "INT64"), [-(10**18 - 1), 10**18 - 1, None]),
    (T.decimal(38, 10, "FIXED_LEN_BYTE_ARRAY"), [-(10**38 - 1), 10**38 - 1, -1, 0, None]),
    (T.decimal(20, 0, "BYTE_ARRAY"), [-(10**20 - 1), 127, 128, -128, -129, 0, None]),
    (T.floating(16), [0.0, -0.0, 1.5, 65504.0, float("inf"), float("nan"), None]),
    (T.uuid(), ["00112233-4455-6677-8899-aabbccddeeff", None]),
    (T.date(), [-(2**31), 0, 19000, 2**31 - 1, None]),
    (T.time("ms", False), [0, 86_399_999, None]),
    (T.time("ns", True), [0, 86_399_999_999_999, None]),
    (T.timestamp("ms", True), [-(2**63), 0, 2**63 - 1, None]),
    (T.timestamp("ns", False), [-1, 1, None]),
    (T.json_type(), ['{"a": 1}', None]),
])
def test_logical_types_round_trip_and_pyarrow_agrees(t, values, tmp_path):
    case = single_column_case(t, values)
    path = write_case(REFERENCE, case, tmp_path)
    assert diff_tables(case.expected, REFERENCE.read(path)) is None
    # An independent implementation reads the same values from the reference's file.
    assert diff_tables(case.expected, arrow_to_table(pq.read_table(path))) is None


@pytest.mark.parametrize(("t", "values"), [
    # pyarrow reads these as plain binary (its own view, a finding for the matrix).
    (T.interval(), [(1, 2, 3), (2**32 - 1, 0, 86_400_000), None]),
    (T.enum(), ["A", "", None]),
])
def test_types_without_an_arrow_counterpart_round_trip(t, values, tmp_path):
    case = single_column_case(t, values)
    assert diff_tables(case.expected, REFERENCE.read(write_case(REFERENCE, case, tmp_path))) is None


@pytest.mark.parametrize(("physical", "converted", "extra", "values", "expected"), [
    (Type.BYTE_ARRAY, ConvertedType.UTF8, {}, [b"h\xc3\xa9"], (T.string(), ["hé"])),
    (Type.INT32, ConvertedType.INT_8, {}, [-128], (T.integer(8), [-128])),
    (Type.INT64, ConvertedType.UINT_64, {}, [-1], (T.integer(64, False), [2**64 - 1])),
    (Type.INT64, ConvertedType.TIMESTAMP_MILLIS, {}, [5], (T.timestamp("ms", True), [5])),
    (Type.INT32, ConvertedType.TIME_MILLIS, {}, [7], (T.time("ms", True), [7])),
    (Type.INT32, ConvertedType.DATE, {}, [3], (T.date(), [3])),
    (Type.FIXED_LEN_BYTE_ARRAY, ConvertedType.DECIMAL, {"type_length": 2, "scale": 1,
                                                        "precision": 4},
     [b"\xff\x85"], (T.decimal(4, 1, "FIXED_LEN_BYTE_ARRAY"), [-123])),
])
def test_converted_type_only_files_follow_the_compatibility_rules(
        physical, converted, extra, values, expected, tmp_path):
    """LogicalTypes.md, "Compatibility": a file from a writer that set only ConvertedType."""
    path = tmp_path / "old.parquet"
    spec = ColumnSpec("value", physical, FieldRepetitionType.REQUIRED, converted_type=converted,
                      **extra)
    write_parquet(path, [spec], {"value": values})
    want = single_column_case(expected[0], expected[1], nullable=False).expected
    assert diff_tables(want, REFERENCE.read(path)) is None


# ---------------------------------------------------------------------------
# The adapter's mappings
# ---------------------------------------------------------------------------


def test_every_write_option_reaches_the_writer():
    case = single_column_case(T.string(), ["a"], encoding="PLAIN_DICTIONARY", codec="BROTLI",
                              page_version=1, row_group_size=7, page_row_limit=3,
                              dictionary_size_limit=100, level_encoding="BIT_PACKED")
    options = writer_options_for(case, "me")
    assert (options.encoding, options.codec, options.page_version) == (
        M.Encoding.PLAIN_DICTIONARY, M.CompressionCodec.BROTLI, 1)
    assert (options.row_group_size, options.page_row_limit, options.dictionary_size_limit) == (7, 3, 100)
    assert options.level_encoding == M.Encoding.BIT_PACKED
    assert options.created_by == "me"
    v2 = writer_options_for(single_column_case(T.string(), ["a"], encoding=None, page_version=2,
                                               v2_is_compressed=False), "me")
    assert (v2.encoding, v2.page_version, v2.v2_is_compressed) == (M.Encoding.PLAIN, 2, False)


def test_an_encoding_the_spec_does_not_define_for_a_type_is_unsupported():
    with pytest.raises(Unsupported, match="DELTA_BINARY_PACKED applies to INT32, INT64, not BYTE_ARRAY"):
        writer_options_for(single_column_case(T.string(), ["a"], encoding="DELTA_BINARY_PACKED"), "me")


def test_capabilities_declare_the_whole_data_path():
    # Every feature but the native types of other engines (conformance.cases.native).
    every = set(capability_features({f for case in CASES if case.native_writer is None
                                     for f in case.features}))
    assert CAPABILITIES.write_gap(every) is None
    assert CAPABILITIES.read_gap(every) is None
    for tag in ("codec:LZO", "encoding:BYTE_STREAM_SPLIT", "encoding:ALP", "page:v2", "pages:multiple",
                "dictionary:fallback", "levels:BIT_PACKED", "page_v2:is_compressed=false",
                "legacy:two_level", "type:LIST", "type:MAP", "type:STRUCT", "type:VARIANT"):
        assert CAPABILITIES.write_gap([tag]) is None, tag


def _schema_of(case, tmp_path) -> list[tuple]:
    metadata, _ = read_footer(write_case(REFERENCE, case, tmp_path).read_bytes())
    return [(e.name, e.repetition_type, e.num_children, e.converted_type,
             e.logicalType.kind if e.logicalType else None) for e in metadata.schema[1:]]


INT32 = (ConvertedType.INT_32, "INTEGER")  # INT(32, signed): LogicalType and ConvertedType
REQ, OPT, REP = M.FieldRepetitionType.REQUIRED, M.FieldRepetitionType.OPTIONAL, M.FieldRepetitionType.REPEATED


@pytest.mark.parametrize(("style", "expected"), [
    ("standard", [("l", OPT, 1, ConvertedType.LIST, "LIST"), ("list", REP, 1, None, None),
                  ("element", REQ, None, *INT32)]),
    ("two_level", [("l", OPT, 1, ConvertedType.LIST, "LIST"), ("element", REP, None, *INT32)]),
    ("array", [("l", OPT, 1, ConvertedType.LIST, "LIST"), ("array", REP, None, *INT32)]),
    ("tuple", [("l", OPT, 1, ConvertedType.LIST, "LIST"), ("l_tuple", REP, None, *INT32)]),
])
def test_list_layouts_follow_the_nested_style(style, expected, tmp_path):
    case = Case("t/l", "t", (), Schema((Field("l", T.list_of(T.integer(32), element_nullable=False)),)),
                (([1, 2],), (None,)), WriteOptions(nested_style=style))
    assert _schema_of(case, tmp_path) == expected
    assert diff_tables(case.expected, REFERENCE.read(tmp_path / "out.parquet")) is None


@pytest.mark.parametrize(("style", "expected"), [
    ("standard", [("m", OPT, 1, ConvertedType.MAP, "MAP"), ("key_value", REP, 2, None, None)]),
    ("map_key_value", [("m", OPT, 1, ConvertedType.MAP_KEY_VALUE, None), ("map", REP, 2, None, None)]),
    ("misnamed", [("m", OPT, 1, ConvertedType.MAP, "MAP"), ("map", REP, 2, None, None)]),
    # A list style leaves maps standard.
    ("two_level", [("m", OPT, 1, ConvertedType.MAP, "MAP"), ("key_value", REP, 2, None, None)]),
])
def test_map_layouts_follow_the_nested_style(style, expected, tmp_path):
    case = Case("t/m", "t", (), Schema((Field("m", T.map_of(T.string(), T.integer(32))),)),
                (([("a", 1)],), (None,)), WriteOptions(nested_style=style))
    assert _schema_of(case, tmp_path)[:2] == expected
    assert diff_tables(case.expected, REFERENCE.read(tmp_path / "out.parquet")) is None


def test_a_legacy_list_cannot_hold_nullable_elements():
    case = Case("t/l", "t", (), Schema((Field("l", T.list_of(T.integer(32))),)), (([1],),),
                WriteOptions(nested_style="two_level"))
    with pytest.raises(Unsupported, match="required elements only"):
        REFERENCE.write(case, Path("/nonexistent/never-written.parquet"))


def test_variant_is_its_annotated_group_of_two_required_binaries(tmp_path):
    """LogicalTypes.md, 'VARIANT': the unshredded representation."""
    case = single_column_case(T.variant(), [(b"\x01\x00\x00", b"\x0c\x2a"), None])
    assert _schema_of(case, tmp_path) == [
        ("value", OPT, 2, None, "VARIANT"),
        ("metadata", REQ, None, None, None),
        ("value", REQ, None, None, None),
    ]
    contents = read_parquet(tmp_path / "out.parquet")
    assert contents.records == [{"value": {"metadata": b"\x01\x00\x00", "value": b"\x0c\x2a"}},
                                {"value": None}]
