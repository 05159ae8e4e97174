"""The reference ORC reader and writer against pyarrow.orc, one file per encoding.

Every file holds one column of ``--rows`` values (1,000,000 by default), written by
pyarrow.orc uncompressed and with ZLIB; the values are chosen so that ORC's writer picks
the encoding the file is named after (ORCv1.md, 'Column Encodings'; for the integer
files the run sub-encoding of ORCv1.md, 'Integer Run Length Encoding, version 2').
Each file is read with ``reference_impl.orc.reader.read_orc`` and with
``pyarrow.orc.read_table``; what each read is written back with
``reference_impl.orc.writer.write_orc`` and ``pyarrow.orc.write_table`` in the same
encoding and codec; the file is validated by the reference validator `conformance
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

# pyarrow.orc.write_table's compression names, by the name the files carry.
COMPRESSIONS = {"none": "uncompressed", "zlib": "zlib"}
# pyarrow.orc.write_table's dictionary_key_size_threshold: 0 never uses a dictionary,
# 1 always does (for strings; other types ignore it).
NEVER_DICTIONARY, ALWAYS_DICTIONARY = 0.0, 1.0

# Value ranges of the generated columns.
INT62 = 1 << 62  # random bigints this wide leave no run anything but DIRECT
MAX_STEP = 1_000  # sorted bigints rise by 1..MAX_STEP: monotonic, so DELTA
SMALL_LIMIT = 1_000  # small values under PATCHED_BASE's few outliers...
OUTLIER = 1 << 40  # ...which are this large,
# ...and this frequent: about 10 in each run of 512 values (a run with none is DIRECT),
# under the 5% above the width the run is packed with (or the run is DIRECT too).
OUTLIER_RATE = 0.02
REPEAT_VALUES = 100  # SHORT_REPEAT: runs of one of these values...
SHORT_REPEAT_MIN, SHORT_REPEAT_MAX = 3, 10  # ...this long ('Short Repeat': 3 to 10 values)
DOUBLE_SCALE = 1e6
TRUE_SHARE = 0.5
DICTIONARY_WORDS = 1_000  # distinct strings in the dictionary-encoded file
TIMESTAMP_LOW = 946_684_800 * 10**9  # 2000-01-01 and 2030-01-01, nanoseconds since 1970
TIMESTAMP_HIGH = 1_893_456_000 * 10**9
DECIMAL_PRECISION, DECIMAL_SCALE = 18, 4
DECIMAL_LIMIT = 10**DECIMAL_PRECISION


# -- the columns ------------------------------------------------------------------
# Each maker returns the Arrow array pyarrow writes and the values the reference reader
# must return for it (its canonical Python values: ints, floats, str, bool, nanoseconds,
# unscaled decimals).


def _int64(values: Any) -> tuple[Any, list[object]]:
    import pyarrow as pa

    return pa.array(values, pa.int64()), values.tolist()


def _random_bigints(rng: Any, rows: int) -> tuple[Any, list[object]]:
    return _int64(rng.integers(-INT62, INT62, rows))


def _sorted_bigints(rng: Any, rows: int) -> tuple[Any, list[object]]:
    return _int64(rng.integers(1, MAX_STEP, rows).cumsum())


def _bigints_with_outliers(rng: Any, rows: int) -> tuple[Any, list[object]]:
    values = rng.integers(0, SMALL_LIMIT, rows)
    values[rng.random(rows) < OUTLIER_RATE] += OUTLIER
    return _int64(values)


def _short_runs(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import numpy as np

    lengths = rng.integers(SHORT_REPEAT_MIN, SHORT_REPEAT_MAX + 1, rows // SHORT_REPEAT_MIN + 1)
    # Each run's value differs from the one before, so two runs never merge into one.
    steps = rng.integers(1, REPEAT_VALUES, lengths.size)
    run_values = steps.cumsum() % REPEAT_VALUES
    return _int64(np.repeat(run_values, lengths)[:rows])


def _doubles(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import pyarrow as pa

    values = rng.standard_normal(rows) * DOUBLE_SCALE
    return pa.array(values, pa.float64()), values.tolist()


def _unique_strings(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import pyarrow as pa

    values = [f"{number:016x}" for number in rng.integers(0, INT62, rows).tolist()]
    return pa.array(values, pa.string()), list(values)


def _repeated_strings(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import pyarrow as pa

    words = [f"word-{number:05d}" for number in range(DICTIONARY_WORDS)]
    values = [words[index] for index in rng.integers(0, DICTIONARY_WORDS, rows).tolist()]
    return pa.array(values, pa.string()), list(values)


def _booleans(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import pyarrow as pa

    values = (rng.random(rows) < TRUE_SHARE).tolist()
    return pa.array(values, pa.bool_()), values


def _timestamps(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import pyarrow as pa

    values = rng.integers(TIMESTAMP_LOW, TIMESTAMP_HIGH, rows)
    return pa.array(values, pa.int64()).cast(pa.timestamp("ns")), values.tolist()


def _decimals(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import numpy as np
    import pyarrow as pa

    unscaled = rng.integers(-DECIMAL_LIMIT + 1, DECIMAL_LIMIT, rows)
    # Arrow's decimal128 is a little-endian 128-bit two's complement integer: the int64
    # as the low word, its sign extended into the high word.
    words = np.empty((rows, 2), dtype=np.int64)
    words[:, 0], words[:, 1] = unscaled, np.where(unscaled < 0, -1, 0)
    array = pa.Array.from_buffers(pa.decimal128(DECIMAL_PRECISION, DECIMAL_SCALE), rows,
                                  [None, pa.py_buffer(words.tobytes())])
    return array, unscaled.tolist()


ROW_INDEX_STRIDE = 10_000  # rows per row group: ORC's writers' default (ORCv1.md, 'Row Group Index')
VALUE_COLUMN_ID = 1  # COLUMN's ORC column id: 0 is the root struct ('Type Information')


@dataclass(frozen=True)
class OrcShape(Shape):
    """An ORC column: the ColumnEncoding pyarrow writes, and for an integer column the
    sub-encoding of the runs of its DATA stream."""

    column_encoding: str = "DIRECT"  # orc_proto.proto ColumnEncoding.Kind
    sub_encoding: str | None = None
    dictionary_threshold: float = NEVER_DICTIONARY
    bloom_filter: bool = False  # ORCv1.md 'Bloom Filter Index': one filter per row group


def orc_shape(name: str, column_encoding: str, make: Any, sub_encoding: str | None = None,
              dictionary_threshold: float = NEVER_DICTIONARY, bloom_filter: bool = False) -> OrcShape:
    encoding = column_encoding if sub_encoding is None else f"{column_encoding}, RLE v2 {sub_encoding}"
    if bloom_filter:
        encoding += ", Bloom filters"
    return OrcShape(name, encoding, make, column_encoding, sub_encoding, dictionary_threshold, bloom_filter)


SHAPES = (
    orc_shape("bigint_direct", "DIRECT_V2", _random_bigints, "DIRECT"),
    orc_shape("bigint_delta", "DIRECT_V2", _sorted_bigints, "DELTA"),
    orc_shape("bigint_patched_base", "DIRECT_V2", _bigints_with_outliers, "PATCHED_BASE"),
    orc_shape("bigint_short_repeat", "DIRECT_V2", _short_runs, "SHORT_REPEAT"),
    orc_shape("double", "DIRECT", _doubles),
    orc_shape("string_direct", "DIRECT_V2", _unique_strings),
    orc_shape("string_dictionary", "DICTIONARY_V2", _repeated_strings,
              dictionary_threshold=ALWAYS_DICTIONARY),
    orc_shape("boolean", "DIRECT", _booleans),
    orc_shape("timestamp", "DIRECT_V2", _timestamps),
    orc_shape("decimal_18_4", "DIRECT_V2", _decimals),
    # what `validate` checks a Bloom filter by: every value of the row group tests present
    orc_shape("bigint_bloom_filter", "DIRECT_V2", _random_bigints, "DIRECT", bloom_filter=True),
    orc_shape("string_bloom_filter", "DICTIONARY_V2", _repeated_strings,
              dictionary_threshold=ALWAYS_DICTIONARY, bloom_filter=True),
)
ALL_FILES = tuple(BenchFile(shape, codec) for shape in SHAPES for codec in COMPRESSIONS)


# -- the engines ---------------------------------------------------------------------


def pyarrow_write(bench_file: BenchFile, table: Any, path: Path, parts: int = 1) -> None:
    """``parts`` stripes, about: ORC's writer cuts a stripe by its encoded size
    (stripe_size), which is guessed from the table's size in memory."""
    import pyarrow.orc

    stripe_size = {} if parts == 1 else {"stripe_size": max(1, table.nbytes // parts)}
    pyarrow.orc.write_table(table, str(path), compression=COMPRESSIONS[bench_file.codec],
                            dictionary_key_size_threshold=_shape(bench_file).dictionary_threshold,
                            bloom_filter_columns=_bloom_filter_columns(bench_file), **stripe_size)


def _bloom_filter_columns(bench_file: BenchFile) -> list[int]:
    return [VALUE_COLUMN_ID] if _shape(bench_file).bloom_filter else []


def pyarrow_read(path: Path) -> Any:
    import pyarrow.orc

    return pyarrow.orc.read_table(str(path))


def reference_read(path: Path) -> Any:
    from reference_impl.orc.reader import read_orc

    return read_orc(path)


def reference_stream(path: Path) -> Any:
    from reference_impl.orc.reader import open_orc

    return open_orc(path)


def reference_write_input(contents: Any) -> tuple[Any, list[dict[str, object]]]:
    return contents.schema, contents.rows


def reference_write(bench_file: BenchFile, table: tuple[Any, list[dict[str, object]]], path: Path) -> None:
    """The schema and rows read, written as the reference engine writes
    (conformance/engines/orc/reference.py)."""
    from reference_impl.orc.metadata.proto_enums import CompressionKind
    from reference_impl.orc.writer import write_orc
    from reference_impl.orc.writer_options import OrcWriterOptions

    bloom_filter = _shape(bench_file).bloom_filter
    options = OrcWriterOptions(compression=CompressionKind[bench_file.codec.upper()],
                               dictionary_key_threshold=_shape(bench_file).dictionary_threshold,
                               bloom_filter_columns=frozenset({COLUMN} if bloom_filter else ()),
                               row_index_stride=ROW_INDEX_STRIDE if bloom_filter else 0)
    schema, rows = table
    path.write_bytes(write_orc(schema, rows, options))


def validate(path: Path) -> list[Any]:
    from conformance.formats import file_format

    return file_format("orc").validate()(path, None)


def reference_values(contents: Any) -> list[object]:
    from reference_impl.common.decoded_values import as_list

    return as_list(contents.columns[COLUMN])


def _shape(bench_file: BenchFile) -> OrcShape:
    assert isinstance(bench_file.shape, OrcShape)
    return bench_file.shape


ORC = Format(script="bench/orc_bench.py", suffix=".orc", files=ALL_FILES,
             imports={"reference": ("reference_impl.orc.reader", "reference_impl.orc.writer",
                                    "conformance.formats", "conformance.engines.orc.reference"),
                      "pyarrow": ("pyarrow.orc",)},
             pyarrow_write=pyarrow_write,
             pyarrow_read=pyarrow_read, reference_read=reference_read, reference_stream=reference_stream,
             reference_write_input=reference_write_input, reference_write=reference_write,
             validate=validate, reference_values=reference_values)


if __name__ == "__main__":
    sys.exit(main(ORC, __doc__.split("\n\n")[0] if __doc__ else None))
