"""Mutated metadata meets only the documented errors (reference_impl/parquet/errors.py).

Files written by the reference writer get one footer field at a time set to a
value that lies: negative, huge or off-by-the-footer offsets and sizes, and
FLOAT16 annotations on columns that cannot hold halves. ``validate`` and the
reader must answer each with findings, values or a ParquetError; never an
IndexError, TypeError, ValueError, struct.error or KeyError.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Callable, Iterator

import pytest

from reference_impl.parquet.errors import ParquetError
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.parquet_thrift import FieldRepetitionType, Type
from reference_impl.parquet.metadata.thrift_struct import serialize
from reference_impl.parquet.reader import read_footer, read_parquet
from reference_impl.parquet.schema.logical_values import float16_to_bytes
from reference_impl.parquet.schema.nested_types import records_from_logical
from reference_impl.parquet.schema.tree import leaf, root
from reference_impl.parquet.validation.validate import validate
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions

OPTIONAL = FieldRepetitionType.OPTIONAL
FLOAT16 = md.LogicalType(FLOAT16=md.Float16Type())
TREE = root(
    [
        leaf("i", Type.INT32, repetition=OPTIONAL),
        leaf("h", Type.FIXED_LEN_BYTE_ARRAY, repetition=OPTIONAL, type_length=2, logical_type=FLOAT16),
    ]
)
HALVES = [1.5, -0.0, float("nan"), -2.25, 0.0]
ROWS = [{"i": None if k % 5 == 0 else k - 6, "h": None if k % 4 == 0 else float16_to_bytes(HALVES[k % 5])}
        for k in range(12)]
LAYOUTS = {
    "plain": dict(encoding="PLAIN"),
    "dictionary": dict(encoding="RLE_DICTIONARY", page_version=2),
}
OFFSET_FIELDS = (
    "data_page_offset",
    "dictionary_page_offset",
    "index_page_offset",
    "bloom_filter_offset",
    "total_compressed_size",
    "total_uncompressed_size",
    "num_values",
)
CHUNK_FIELDS = ("column_index_offset", "column_index_length", "offset_index_offset", "offset_index_length")
I32_FIELDS = frozenset({"column_index_length", "offset_index_length"})  # the rest are i64
I32_MAX = 2**31 - 1
Mutation = Callable[[md.FileMetaData], None]


def reference_file(**layout) -> bytes:
    options = WriterOptions(
        page_row_limit=4,
        statistics=True,
        page_header_statistics=True,
        distinct_count=True,
        size_statistics=True,
        page_index=True,
        page_checksum=True,
        bloom_filter_columns=frozenset({"i", "h"}),
        **layout,
    )
    sink = io.BytesIO()
    write_table(sink, TREE, records_from_logical(TREE, ROWS), options)
    return sink.getvalue()


def with_footer(raw: bytes, mutate: Mutation) -> bytes:
    metadata, footer_start = read_footer(raw)
    mutate(metadata)
    footer = serialize(metadata)
    return raw[:footer_start] + footer + struct.pack("<I", len(footer)) + b"PAR1"


def lies(footer_start: int) -> tuple[int, ...]:
    """Values an offset or size can lie with: negative, past the file, inside the footer."""
    return (-1, -3, -footer_start, -I32_MAX, 0, footer_start, footer_start + 1, I32_MAX, 2**40)


def setter(column: int, owner: str, field: str, value: int) -> Mutation:
    def mutate(metadata: md.FileMetaData) -> None:
        chunk = metadata.row_groups[0].columns[column]
        setattr(chunk.meta_data if owner == "meta" else chunk, field, value)

    return mutate


def schema_setter(**changes) -> Mutation:
    def mutate(metadata: md.FileMetaData) -> None:
        element = metadata.schema[2]  # "h"
        for name, value in changes.items():
            setattr(element, name, value)
        for group in metadata.row_groups:  # the chunk's type must follow the schema's
            group.columns[1].meta_data.type = element.type

    return mutate


def mutants(raw: bytes) -> Iterator[tuple[str, Mutation]]:
    _, footer_start = read_footer(raw)
    for column in range(len(TREE.children)):
        for value in lies(footer_start):
            for field in OFFSET_FIELDS:
                yield f"column {column} {field}={value}", setter(column, "meta", field, value)
            for field in CHUNK_FIELDS:
                if field not in I32_FIELDS or abs(value) <= I32_MAX:
                    yield f"column {column} {field}={value}", setter(column, "chunk", field, value)
    for length in (1, 3, 0, -1):
        yield f"FLOAT16 of type_length {length}", schema_setter(type_length=length)
    yield "FLOAT16 on INT32", schema_setter(type=Type.INT32, type_length=None)
    yield "FLOAT16 on BYTE_ARRAY", schema_setter(type=Type.BYTE_ARRAY, type_length=None)


def outcome(run: Callable[[bytes], object], raw: bytes) -> str:
    """"ok", or the name of the ParquetError raised (anything else propagates)."""
    try:
        run(raw)
    except ParquetError as error:
        return type(error).__name__
    return "ok"


@pytest.mark.parametrize("layout", LAYOUTS.values(), ids=LAYOUTS.keys())
def test_every_mutant_meets_only_documented_errors(layout) -> None:
    raw = reference_file(**layout)
    assert validate(raw) == []
    outcomes: dict[str, set[str]] = {}
    for name, mutate in mutants(raw):
        mutant = with_footer(raw, mutate)
        for run in (validate, read_parquet):
            try:
                outcomes.setdefault(outcome(run, mutant), set()).add(name)
            except Exception as error:  # noqa: BLE001 - the test is that none escapes
                pytest.fail(f"{name}: {run.__name__} raised {type(error).__name__}: {error}")
    # The mutants reach the errors they are meant to reach, not only "ok".
    assert {"CorruptMetadata", "ok"} <= set(outcomes)
