"""The reference Parquet reader and writer against pyarrow.parquet, one file per encoding.

Every file holds one column of ``--rows`` values (1,000,000 by default), written by
pyarrow.parquet uncompressed, with SNAPPY and with ZSTD ('3.7.1 - Compression' of the
Parquet format's README.md), in one row group: a flat column in the value encoding it is
named after (Encodings.md, 'Supported Encodings'), or a nested one (LogicalTypes.md,
'Nested Types': a list, a struct, a map) in PLAIN. Each file is read with
``reference_impl.parquet.reader.read_parquet`` and with
``pyarrow.parquet.read_table``; what each read is written back with
``reference_impl.parquet.writer.write_table`` and ``pyarrow.parquet.write_table`` in the
same encoding and codec; the file is validated by the reference validator `conformance
validate` runs; best of ``--repeat`` runs each, in this one process. The script prints
one line per file and a markdown table (bench/_common.py); bench/README.md says what is
measured and how to run it; every performance figure quoted in the docs comes from here.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The repository this script is in comes first on the path: the figures are of this
# checkout's reference_impl, not of another installed in the environment.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import COLUMN, BenchFile, Format, Shape, main  # noqa: E402

# The codecs by the name the files carry: pyarrow.parquet's name, the reference's
# CompressionCodec member.
CODECS = {"none": ("none", "UNCOMPRESSED"), "snappy": ("snappy", "SNAPPY"), "zstd": ("zstd", "ZSTD")}
DICTIONARY = "RLE_DICTIONARY"
# pyarrow.parquet's data page size (write_table's data_page_size), given to the reference
# writer too so that both cut pages alike ('Data Pages'); both write one row group.
PAGE_BYTES = 1 << 20

# Value ranges of the generated columns.
INT63 = 1 << 63
DICTIONARY_VALUES = 1_000  # distinct values of the dictionary-encoded column
MAX_STEP = 1_000  # sorted values rise by 1..MAX_STEP: DELTA_BINARY_PACKED's small deltas
DOUBLE_SCALE = 1e6
STRING_SPACE = 1 << 62  # random strings: 16 hex digits, nearly all distinct
TRUE_SHARE = 0.5
MAX_ITEMS = 4  # lists and maps hold 0..MAX_ITEMS items


@dataclass(frozen=True)
class ParquetShape(Shape):
    """A Parquet column: its value encoding (PLAIN for the nested shapes, whose cost is in
    the levels), or the dictionary."""

    value_encoding: str = "PLAIN"  # a parquet.thrift Encoding name

    @property
    def dictionary(self) -> bool:
        return self.value_encoding == DICTIONARY


def parquet_shape(name: str, value_encoding: str, make: Any, nesting: str | None = None) -> ParquetShape:
    encoding = value_encoding if nesting is None else f"{nesting}, {value_encoding}"
    return ParquetShape(name, encoding, make, value_encoding)


# -- the columns ------------------------------------------------------------------
# Each maker returns the Arrow array pyarrow writes and the values the reference reader
# must return for it: its logical rows' values (ParquetContents.logical_rows): ints,
# floats, bools, bytes for strings, lists, dicts for structs, (key, value) lists for maps.


def _int64(values: Any) -> tuple[Any, list[object]]:
    import pyarrow as pa

    return pa.array(values, pa.int64()), values.tolist()


def _random_int64(rng: Any, rows: int) -> tuple[Any, list[object]]:
    return _int64(rng.integers(-INT63, INT63 - 1, rows))


def _repeated_int64(rng: Any, rows: int) -> tuple[Any, list[object]]:
    dictionary = rng.integers(-INT63, INT63 - 1, DICTIONARY_VALUES)
    return _int64(dictionary[rng.integers(0, DICTIONARY_VALUES, rows)])


def _sorted_int64(rng: Any, rows: int) -> tuple[Any, list[object]]:
    return _int64(rng.integers(1, MAX_STEP, rows).cumsum())


def _doubles(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import pyarrow as pa

    values = rng.standard_normal(rows) * DOUBLE_SCALE
    return pa.array(values, pa.float64()), values.tolist()


def _strings(texts: list[str]) -> tuple[Any, list[object]]:
    import pyarrow as pa

    return pa.array(texts, pa.string()), [text.encode() for text in texts]


def _random_strings(rng: Any, rows: int) -> tuple[Any, list[object]]:
    return _strings([f"{number:016x}" for number in rng.integers(0, STRING_SPACE, rows).tolist()])


def _sorted_strings(rng: Any, rows: int) -> tuple[Any, list[object]]:
    """Sorted keys: each shares most of its prefix with the one before (DELTA_BYTE_ARRAY's case)."""
    return _strings([f"key-{number:019d}" for number in sorted(rng.integers(0, STRING_SPACE, rows).tolist())])


def _booleans(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import pyarrow as pa

    values = (rng.random(rows) < TRUE_SHARE).tolist()
    return pa.array(values, pa.bool_()), values


def _lengths(rng: Any, rows: int) -> Any:
    return rng.integers(0, MAX_ITEMS + 1, rows)


def _lists(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import numpy as np
    import pyarrow as pa

    lengths = _lengths(rng, rows)
    offsets = np.concatenate(([0], lengths.cumsum()))
    items = rng.integers(-INT63, INT63 - 1, int(offsets[-1]))
    array = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), pa.array(items, pa.int64()))
    values = items.tolist()
    starts = offsets.tolist()
    return array, [values[start:end] for start, end in zip(starts, starts[1:], strict=False)]


def _structs(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import pyarrow as pa

    ids = rng.integers(-INT63, INT63 - 1, rows).tolist()
    names = [f"{number:016x}" for number in rng.integers(0, STRING_SPACE, rows).tolist()]
    array = pa.StructArray.from_arrays([pa.array(ids, pa.int64()), pa.array(names, pa.string())],
                                       ["id", "name"])
    return array, [{"id": i, "name": name.encode()} for i, name in zip(ids, names, strict=True)]


def _maps(rng: Any, rows: int) -> tuple[Any, list[object]]:
    """Keys distinct within a map ('Maps': keys are unique): the item's place, then a number."""
    import numpy as np
    import pyarrow as pa

    lengths = _lengths(rng, rows)
    offsets = np.concatenate(([0], lengths.cumsum()))
    numbers = rng.integers(0, STRING_SPACE, int(offsets[-1])).tolist()
    places = (np.arange(int(offsets[-1])) - np.repeat(offsets[:-1], lengths)).tolist()
    keys = [f"{place}-{number:016x}" for place, number in zip(places, numbers, strict=True)]
    items = rng.integers(-INT63, INT63 - 1, len(keys)).tolist()
    array = pa.MapArray.from_arrays(pa.array(offsets, pa.int32()), pa.array(keys, pa.string()),
                                    pa.array(items, pa.int64()))
    pairs = [(key.encode(), item) for key, item in zip(keys, items, strict=True)]
    starts = offsets.tolist()
    return array, [pairs[start:end] for start, end in zip(starts, starts[1:], strict=False)]


SHAPES = (
    parquet_shape("int64_plain", "PLAIN", _random_int64),
    parquet_shape("int64_dictionary", DICTIONARY, _repeated_int64),
    parquet_shape("double_byte_stream_split", "BYTE_STREAM_SPLIT", _doubles),
    parquet_shape("int64_delta_binary_packed", "DELTA_BINARY_PACKED", _sorted_int64),
    parquet_shape("string_delta_byte_array", "DELTA_BYTE_ARRAY", _sorted_strings),
    parquet_shape("string_delta_length_byte_array", "DELTA_LENGTH_BYTE_ARRAY", _random_strings),
    parquet_shape("string_plain", "PLAIN", _random_strings),
    parquet_shape("boolean_rle", "RLE", _booleans),
    parquet_shape("list_int64", "PLAIN", _lists, "list<int64>"),
    parquet_shape("struct_int64_string", "PLAIN", _structs, "struct<id: int64, name: string>"),
    parquet_shape("map_string_int64", "PLAIN", _maps, "map<string, int64>"),
)
ALL_FILES = tuple(BenchFile(shape, codec) for shape in SHAPES for codec in CODECS)


# -- the engines ---------------------------------------------------------------------


def pyarrow_write(bench_file: BenchFile, table: Any, path: Path, parts: int = 1) -> None:
    import pyarrow.parquet as pq

    shape = _shape(bench_file)
    encodings = None if shape.dictionary else dict.fromkeys(_leaf_paths(table), shape.value_encoding)
    pq.write_table(table, str(path), compression=CODECS[bench_file.codec][0], use_dictionary=shape.dictionary,
                   column_encoding=encodings, data_page_size=PAGE_BYTES,
                   row_group_size=max(1, -(-table.num_rows // parts)))


def _leaf_paths(table: Any) -> list[str]:
    """The dotted paths of the table's leaf columns as pyarrow writes them (its
    column_encoding takes these): LogicalTypes.md's 'list' / 'element' and 'key_value'."""
    import pyarrow as pa

    def walk(name: str, kind: Any) -> list[str]:
        if pa.types.is_struct(kind):
            children = [path for child in kind for path in walk(child.name, child.type)]
        elif pa.types.is_map(kind):
            entries = walk("key", kind.key_type) + walk("value", kind.item_type)
            children = [f"key_value.{path}" for path in entries]
        elif pa.types.is_list(kind):
            children = [f"list.{path}" for path in walk("element", kind.value_type)]
        else:
            return [name]
        return [f"{name}.{path}" for path in children]

    return [path for field in table.schema for path in walk(field.name, field.type)]


def pyarrow_read(path: Path) -> Any:
    import pyarrow.parquet as pq

    return pq.read_table(str(path))


def reference_read(path: Path) -> Any:
    """The reader's public API as it is: a flat file's columns, a nested file's records
    (its rows as dicts are built on first use, outside the timed read)."""
    from reference_impl.parquet.reader import read_parquet

    return read_parquet(path)


def reference_stream(path: Path) -> Any:
    from reference_impl.parquet.reader import open_parquet

    return open_parquet(path)


def reference_write_input(contents: Any) -> tuple[Any, list[dict[str, Any]]]:
    """The file's own schema tree and its records (raw physical records of that tree)."""
    return contents.schema, contents.records


def reference_write(bench_file: BenchFile, table: tuple[Any, list[dict[str, Any]]], path: Path) -> None:
    """The records read, written as the reference engine writes (conformance/engines/parquet/reference.py)."""
    from reference_impl.parquet.writer import write_table
    from reference_impl.parquet.writer_options import WriterOptions

    shape = _shape(bench_file)
    options = WriterOptions(encoding=shape.value_encoding, codec=CODECS[bench_file.codec][1],
                            page_byte_limit=PAGE_BYTES)
    schema, records = table
    write_table(path, schema, records, options)


def validate(path: Path) -> list[Any]:
    from conformance.formats import file_format

    return file_format("parquet").validate()(path, None)


def reference_values(contents: Any) -> list[object]:
    return [row.get(COLUMN) for row in contents.logical_rows()]


def _shape(bench_file: BenchFile) -> ParquetShape:
    assert isinstance(bench_file.shape, ParquetShape)
    return bench_file.shape


PARQUET = Format(script="bench/parquet_bench.py", suffix=".parquet", files=ALL_FILES,
                 imports={"reference": ("reference_impl.parquet.reader", "reference_impl.parquet.writer",
                                        "conformance.formats", "conformance.engines.parquet.reference"),
                          "pyarrow": ("pyarrow.parquet",)},
                 pyarrow_write=pyarrow_write, pyarrow_read=pyarrow_read, reference_read=reference_read,
                 reference_stream=reference_stream, reference_write_input=reference_write_input,
                 reference_write=reference_write,
                 validate=validate, reference_values=reference_values)


if __name__ == "__main__":
    sys.exit(main(PARQUET, __doc__.split("\n\n")[0] if __doc__ else None))
