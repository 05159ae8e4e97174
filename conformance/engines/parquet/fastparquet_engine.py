"""fastparquet (pure Python + Cython, pandas in and out) as a writer and a reader.

Write: the case becomes a pandas DataFrame with explicit dtypes chosen so that
every value survives (nullable "Int8".."UInt64" and "boolean" for optional
integer/boolean columns, `FloatingArray` for optional floats so that a NaN value
and a null stay distinct, datetime64[unit] / timedelta64[us] for temporal
columns, object columns of bytes or str), written by `fastparquet.write` with:

- encoding: PLAIN is what fastparquet writes; RLE_DICTIONARY -> every column as a
  pandas Categorical (fastparquet writes a dictionary page and RLE_DICTIONARY data
  pages for Categorical columns only); no other encoding (docs/engine-notes.md,
  'fastparquet'; fastparquet/writer.py `write_column`).
- codec -> `compression` (None for UNCOMPRESSED).
- page_version -> `fastparquet.writer.DATAPAGE_VERSION` (1 or 2; `write` takes no
  argument for it), restored afterwards.
- row_group_size -> explicit `row_group_offsets` (an int is only approximate).
- REQUIRED / OPTIONAL -> `has_nulls=[optional column names]`.
- INT96 -> `times='int96'`; FIXED_LEN_BYTE_ARRAY -> `fixed_text={col: length}`;
  binary / string / JSON -> `object_encoding` bytes / utf8 / json.
- `write_index=False`; statistics -> `stats` (True: every column, False: none;
  default "auto", which fastparquet documents as int/float/timestamp columns only;
  measured: with "auto" string and bytes columns get null_count but no min/max).
  No statistics truncation, page index, bloom filter or page checksum writer exists
  in fastparquet (docs/engine-notes.md, 'fastparquet'; measured: none in its files).

Read: `fastparquet.ParquetFile(path).to_pandas()`, converted with the file's
Parquet schema (see _pd_read.py).

Filtered read: `ParquetFile(path).to_pandas(filters=[(col, op, value)],
row_filter=True)` (row groups pruned with the statistics by
`fastparquet.api.filter_row_groups`, then rows selected: fastparquet's "experimental"
row-wise filter), converted like `read`. The constant is the Python/pandas value
fastparquet compares with: int, float, str, bytes, bool, and a pandas Timestamp
(naive or UTC like the column fastparquet returns) for DATE and TIMESTAMP. Its
filters have no null test and it reads DECIMAL as float64, so those are unsupported.
Where fastparquet fills a nullable float column's nulls with NaN, the plain read
tells them apart by re-reading whole row groups; that cannot be lined up with the
rows a filter kept, so a filtered result holding NaN in a nullable float column is
a LossyConversion.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from conformance.cases import Case
from conformance.cases.predicate import Predicate
from conformance.values import Field, Schema, Table, semantic_key
from reference_impl.common.ieee_float import narrow_float_bits

from ..base import Capabilities, Engine, LossyConversion, Unsupported, converting
from ._pd_read import _REQUIRED, _Reader

INT64_MIN = -(2**63)  # pandas' NaT: no datetime64/timedelta64 value can be it

# WriteOptions.codec -> fastparquet `compression` (fastparquet/compression.py).
_CODECS = {"UNCOMPRESSED": None, "SNAPPY": "SNAPPY", "GZIP": "GZIP", "BROTLI": "BROTLI",
           "ZSTD": "ZSTD", "LZ4_RAW": "LZ4_RAW",
           # fastparquet's 'LZ4' writes codec LZ4 (5) over a raw LZ4 block, without the
           # Hadoop framing the spec describes for that codec: mapped as it is, so the
           # matrix shows what readers make of it.
           "LZ4": "LZ4"}
_NUMPY_INT = {(8, True): "int8", (16, True): "int16", (32, True): "int32", (64, True): "int64",
              (8, False): "uint8", (16, False): "uint16", (32, False): "uint32",
              (64, False): "uint64"}
_NO_TYPE = "fastparquet has no writer for this type (fastparquet/writer.py find_type)"
_NESTED = ("fastparquet writes nested data as JSON text, not as Parquet nesting "
           "(docs/engine-notes.md, 'fastparquet')")
_NO_ENCRYPTION = ("fastparquet has no Parquet modular encryption (docs/engine-notes.md, 'fastparquet'; "
                  "fastparquet.write and ParquetFile take no key or encryption argument)")

# fastparquet's own types a case may ask for (conformance.cases.native): CATEGORICAL, a
# pandas Categorical of the column's canonical values (`_categorical`), which fastparquet
# writes as the values' type with a dictionary page and RLE_DICTIONARY data pages.
NATIVE_TYPES = ("CATEGORICAL",)


CAPABILITIES = Capabilities(
    writes=("physical:*", "type:*", "repetition:*", "encoding:PLAIN", "encoding:RLE_DICTIONARY",
            "page:*", "row_groups:*", "rows:*", "nulls:*", "statistics", "statistics:none",
            *(f"codec:{c}" for c in _CODECS), *(f"native:fastparquet:{n}" for n in NATIVE_TYPES)),
    cannot_write={
        "column_order:*": "measured: fastparquet 2026.9.0 writes no FileMetaData.column_orders at "
                          "all and no Statistics.nan_count; fastparquet.write has no option for "
                          "either",
        "statistics:truncate": "fastparquet.write has no statistics truncation (its only "
                               "statistics knob is stats=True|False|list|'auto')",
        "page_index": "fastparquet writes no ColumnIndex/OffsetIndex (docs/engine-notes.md, 'fastparquet')",
        "bloom": "fastparquet writes no bloom filters (docs/engine-notes.md, 'fastparquet')",
        "crc": "fastparquet writes no PageHeader.crc (docs/engine-notes.md, 'fastparquet')",
        **{f"type:{kind}": "fastparquet's writer knows no such annotation (no GEOMETRY, "
                           "GEOGRAPHY or VARIANT anywhere in its source)"
           for kind in ("GEOMETRY", "GEOGRAPHY", "VARIANT")},
        "variant:shredded": "fastparquet's writer knows no VARIANT annotation, shredded or not",
        "type:FILE": "fastparquet's writer knows no FILE annotation (no LogicalType member 19 in "
                     "its parquet.thrift)",
        "thrift:extension": "fastparquet.write has no option that appends bytes to a Thrift struct "
                            "(BinaryProtocolExtensions.md)",
        "type:FLOAT16": "fastparquet writes float16 data as FLOAT (writer.py typemap "
                        "'float16': (FLOAT, None, 16)), never FLOAT16",
        "type:DECIMAL(*)": "fastparquet writes decimal.Decimal objects as DOUBLE "
                           "(object_encoding='decimal', writer.py find_type)",
        "type:ENUM": _NO_TYPE, "type:UUID": _NO_TYPE + ": FIXED_LEN_BYTE_ARRAY(16) is "
                                                       "written without the UUID annotation",
        "type:BSON": "fastparquet BSON-encodes Python objects itself and needs the bson "
                     "package (measured: not installed); raw BSON bytes cannot be passed",
        "type:DATE": "pandas has no date dtype; fastparquet writes datetime64 as TIMESTAMP",
        "type:TIME(ms,*)": "fastparquet writes every timedelta64 as TIME_MICROS "
                           "(writer.py find_type/convert)",
        "type:TIME(ns,*)": "fastparquet writes every timedelta64 as TIME_MICROS "
                           "(writer.py find_type/convert)",
        "type:TIME(*,local)": "fastparquet writes TIME_MICROS, which means isAdjustedToUTC=true",
        "type:INTERVAL": _NO_TYPE, "type:UNKNOWN": _NO_TYPE,
        "type:LIST": _NESTED, "type:MAP": _NESTED, "type:STRUCT": _NESTED,
        "encoding:RLE": "fastparquet writes PLAIN, and RLE_DICTIONARY for Categorical columns, "
                        "only (docs/engine-notes.md, 'fastparquet'; writer.py write_column)",
        "encoding:DELTA_*": "fastparquet writes PLAIN, and RLE_DICTIONARY for Categorical "
                            "columns, only (docs/engine-notes.md, 'fastparquet'; writer.py "
                            "write_column)",
        "encoding:BYTE_STREAM_SPLIT": "fastparquet writes PLAIN, and RLE_DICTIONARY for "
                                      "Categorical columns, only (docs/engine-notes.md, "
                                      "'fastparquet')",
        "encoding:ALP": "fastparquet writes PLAIN, and RLE_DICTIONARY for Categorical columns, "
                        "only; fastparquet.write takes no encoding argument (measured signature, "
                        "fastparquet 2026.9.0)",
        "codec:LZO": "measured: RuntimeError \"Compression 'LZO' not available\" (needs the "
                     "python-lzo package, not installed)",
        "encryption:*": _NO_ENCRYPTION,
    },
    cannot_read={
        "encryption:*": _NO_ENCRYPTION + "; measured: an encrypted footer ('PARE') fails with "
                        "TypeError \"'NoneType' object is not iterable\", a plaintext footer "
                        "with encrypted columns with 'Corrupted thrift data' and TypeError 'an "
                        "integer is required' (it parses ciphertext as page headers)",
        **{
        # fastparquet/core.py read_data_page / read_data_page_v2 decode PLAIN,
        # PLAIN_DICTIONARY, RLE_DICTIONARY, RLE and DELTA_BINARY_PACKED, and raise
        # NotImplementedError('Encoding %s') for the rest (measured for 6, 7 and 9).
        f"encoding:{e}": "fastparquet/core.py read_data_page raises NotImplementedError for "
                         f"{e} (measured: 'Encoding {n}')"
        for e, n in (("DELTA_LENGTH_BYTE_ARRAY", 6), ("DELTA_BYTE_ARRAY", 7),
                     ("BYTE_STREAM_SPLIT", 9))
        },
    },
)


class FastparquetEngine(Engine):
    name = "fastparquet"
    distribution = "fastparquet"
    capabilities = CAPABILITIES

    def write(self, case: Case, path: Path) -> None:
        import fastparquet

        o = case.parquet_options
        gap = CAPABILITIES.write_gap((f"encoding:{o.encoding or 'PLAIN'}", f"codec:{o.codec}",
                                      *_option_tags(case)))
        if gap:
            raise Unsupported(gap)
        frame = build_frame(case)
        n, size = len(case.rows), o.row_group_size
        offsets = list(range(0, n, size)) if size and n else [0]
        with _data_page_version(o.page_version):
            fastparquet.write(str(path), frame.df, row_group_offsets=offsets,
                              compression=_CODECS[o.codec], file_scheme="simple",
                              has_nulls=frame.optional, write_index=False,
                              object_encoding=frame.object_encoding,
                              fixed_text=frame.fixed_text or None, times=frame.times,
                              stats="auto" if o.statistics is None else o.statistics)

    def read(self, path: Path) -> Table:
        from ._pd_read import read_fastparquet

        return read_fastparquet(path)

    def read_filtered(self, path: Path, predicate: Predicate) -> Table:
        import fastparquet

        pf = fastparquet.ParquetFile(str(path))
        condition = filter_tuple(predicate, pf.dtypes.get(predicate.column))
        df = pf.to_pandas(filters=[condition], row_filter=True, index=False)
        with converting(self.name):
            return _frame_to_table(pf, df)


# The option tags (WriteOptions.tags) this adapter checks itself before writing: the
# metadata and encryption ones fastparquet cannot write (page_index=False and
# page_checksum=False derive no tag: they are what it does anyway).
_CHECKED_OPTION_TAGS = ("statistics:truncate", "page_index", "bloom", "crc", "encryption:*")


def _option_tags(case: Case) -> list[str]:
    o = case.parquet_options
    if o.lies:
        raise Unsupported("deliberately untrue metadata (WriteOptions.lies) is written by the "
                          "reference writer only")
    return [tag for tag in o.tags(len(case.rows))
            if any(fnmatch.fnmatchcase(tag, pattern) for pattern in _CHECKED_OPTION_TAGS)]


# ---- filtered read ------------------------------------------------------------------

_FILTER_OPS = ("==", "!=", "<", "<=", ">", ">=")


def filter_tuple(predicate: Predicate, dtype) -> tuple[str, str, Any]:
    """The fastparquet filter (column, op, value) for `predicate`; `dtype` is the pandas
    dtype fastparquet reads the column as (a Timestamp constant follows its time zone)."""
    import pandas as pd

    if predicate.op not in _FILTER_OPS:
        raise Unsupported("fastparquet filters have no null test (to_pandas docs: ops are ==, "
                          "=, >, >=, <, <=, !=, in, not in)")
    t, v = predicate.bound_type(), predicate.value
    match t.kind:
        case "boolean" | "int" | "float" | "string" | "binary" | "fixed":
            value = v
        case "date" | "timestamp":
            unit = "D" if t.kind == "date" else t.unit
            tz = getattr(dtype, "tz", None)
            try:
                value = pd.Timestamp(v, unit=unit, tz=tz)
            except (OverflowError, ValueError) as exc:
                raise Unsupported(f"{t.describe()} value {v}: no pandas Timestamp ({exc})") from exc
        case "decimal":
            raise Unsupported("fastparquet reads DECIMAL as float64 (see _pd_read.py), so a "
                              "decimal constant has no exact counterpart to compare with")
        case _:
            raise Unsupported(f"the adapter has no fastparquet filter value for {t.describe()}")
    return (predicate.column, predicate.op, value)


def _frame_to_table(pf, df) -> Table:
    """read_fastparquet's conversion, for a DataFrame of rows a filter selected."""
    reader = _FilteredReader(pf, df)
    fields, columns = [], []
    root = pf.schema.root
    for name, se in list(root["children"].items())[:root.num_children or 0]:
        t, values = reader.field(name, se)
        fields.append(Field(name, t, se.repetition_type != _REQUIRED))
        columns.append(values)
    schema = Schema(tuple(fields))
    return Table.from_columns(schema, columns) if fields else Table(schema, ())


class _FilteredReader(_Reader):
    def _float_definition_levels(self, path: str, np_dtype):
        raise LossyConversion(f"column {path!r}: fastparquet returns the nullable float column "
                              "as float64 with nulls as NaN, and the filtered rows cannot be "
                              "lined up with a re-read of the definition levels")


@contextlib.contextmanager
def _data_page_version(version: int) -> Iterator[None]:
    import fastparquet.writer

    saved = fastparquet.writer.DATAPAGE_VERSION
    fastparquet.writer.DATAPAGE_VERSION = version
    try:
        yield
    finally:
        fastparquet.writer.DATAPAGE_VERSION = saved


# ---- canonical -> pandas ----------------------------------------------------------

class Frame:
    """A DataFrame plus the per-column fastparquet arguments it needs."""

    def __init__(self, df, optional, object_encoding, fixed_text, times):
        self.df, self.optional = df, optional
        self.object_encoding, self.fixed_text, self.times = object_encoding, fixed_text, times


def build_frame(case: Case) -> Frame:
    """The DataFrame fastparquet writes `case` from, or Unsupported with the reason."""
    import pandas as pd

    kinds = {f.type.kind for f in case.schema}
    if "int96" in kinds and "timestamp" in kinds:
        raise Unsupported("fastparquet's times='int96' writes every datetime64 column as INT96: "
                          "INT96 and TIMESTAMP columns cannot be mixed")
    columns, object_encoding, fixed_text = {}, {}, {}
    dictionary = case.parquet_options.encoding == "RLE_DICTIONARY"
    for i, f in enumerate(case.schema):
        values = [row[i] for row in case.rows]
        _check_type(f)
        series = (_categorical(f, values) if dictionary or _is_native(case, f.name)
                  else _column(f, values, f.nullable))
        columns[f.name] = series
        if f.type.kind in ("binary", "fixed"):
            object_encoding[f.name] = "bytes"
        elif f.type.kind == "string":
            object_encoding[f.name] = "utf8"
        elif f.type.kind == "json":
            object_encoding[f.name] = "json"
        if f.type.kind == "fixed":
            fixed_text[f.name] = f.type.length
    df = pd.DataFrame(columns, index=pd.RangeIndex(len(case.rows)))
    return Frame(df, [f.name for f in case.schema if f.nullable], object_encoding or None,
                 fixed_text, "int96" if "int96" in kinds else "int64")


def _is_native(case: Case, column: str) -> bool:
    spec = case.parquet_options.native_types.get(column)
    if spec is None:
        return False
    if spec not in {f"fastparquet:{n}" for n in NATIVE_TYPES}:
        raise Unsupported(f"column {column!r}: {spec} is not one of fastparquet's native types "
                          f"{list(NATIVE_TYPES)}")
    return True


def _check_type(f: Field) -> None:
    t = f.type
    tag = None
    match t.kind:
        case "float" if t.bits == 16:
            tag = "type:FLOAT16"
        case "decimal":
            tag = "type:DECIMAL(*)"
        case "enum" | "uuid" | "bson" | "date" | "interval" | "unknown" | "list" | "map" | "struct":
            tag = f"type:{t.kind.upper()}"
        case "time" if t.unit != "us":
            tag = f"type:TIME({t.unit},*)"
        case "time" if not t.utc:
            tag = "type:TIME(*,local)"
        case "int" if t.physical not in (None, "INT64" if t.bits == 64 else "INT32"):
            raise Unsupported(f"column {f.name!r}: fastparquet writes INT({t.bits}) on "
                              f"{'INT64' if t.bits == 64 else 'INT32'}, not {t.physical}")
    if tag:
        raise Unsupported(f"column {f.name!r}: {CAPABILITIES.cannot_write[tag]}")


def _column(f: Field, values: Sequence[Any], nullable: bool):
    """A pandas Series holding canonical `values` exactly, in the dtype fastparquet needs."""
    import pandas as pd

    t = f.type
    nulls = np.array([v is None for v in values], dtype=bool)
    match t.kind:
        case "boolean":
            if nullable:
                return pd.Series(pd.array(values, dtype="boolean"))
            return pd.Series(np.array(values, dtype=bool))
        case "int":
            name = _NUMPY_INT[(t.bit_width, t.is_signed)]
            if nullable:
                return pd.Series(pd.array(values, dtype=name.capitalize().replace("Ui", "UI")))
            return pd.Series(np.array(values, dtype=name))
        case "float":
            doubles = np.array([0.0 if v is None else v for v in values], dtype=np.float64)
            data = narrow_float_bits(doubles, t.bit_width).view(np.float32 if t.bit_width == 32
                                                           else np.float64)
            if nullable:
                return pd.Series(pd.arrays.FloatingArray(data, nulls))
            return pd.Series(data)
        case "int96" | "timestamp":
            unit = "ns" if t.kind == "int96" else t.unit
            series = pd.Series(_datetime_like(f, values, f"datetime64[{unit}]"))
            return series.dt.tz_localize("UTC") if t.kind == "timestamp" and t.utc else series
        case "time":
            return pd.Series(_datetime_like(f, values, "timedelta64[us]"))
        case "binary" | "fixed" | "string":
            return pd.Series(list(values), dtype=object)
        case "json":
            return pd.Series([None if v is None else _json_object(f.name, v) for v in values],
                             dtype=object)
    raise AssertionError(f"unchecked kind {t.kind}")


def _datetime_like(f: Field, values: Sequence[Any], dtype: str) -> np.ndarray:
    if INT64_MIN in values:
        raise Unsupported(f"column {f.name!r}: the value {INT64_MIN} is pandas' NaT, which "
                          "fastparquet writes as null")
    ints = np.array([INT64_MIN if v is None else v for v in values], dtype=np.int64)
    return ints.view(dtype)


def _json_object(name: str, text: str) -> Any:
    """The Python object fastparquet serialises back to exactly `text`, or Unsupported."""
    from fastparquet.json import json_encoder

    obj = json.loads(text)
    if obj is None or isinstance(obj, float) and math.isnan(obj):
        raise Unsupported(f"column {name!r}: JSON {text!r} decodes to a value pandas treats as "
                          "null")
    written = json_encoder()(obj)
    if written != text.encode("utf-8"):
        raise Unsupported(f"column {name!r}: fastparquet serialises JSON objects itself; the "
                          f"document {text!r} would be written as {written.decode()!r}")
    return obj


def _categorical(f: Field, values: Sequence[Any]):
    """`values` as a pandas Categorical (dictionary encoding), categories exact."""
    import pandas as pd

    codes: list[int] = []
    distinct: list[Any] = []
    index: dict[Any, int] = {}  # semantic key -> code
    for v in values:
        if v is None:
            codes.append(-1)
            continue
        key = semantic_key(f.type, v)
        if key not in index:
            index[key] = len(distinct)
            distinct.append(v)
        codes.append(index[key])
    categories = pd.Index(_column(f, distinct, nullable=False))
    try:
        return pd.Series(pd.Categorical.from_codes(codes, categories=categories))
    except (TypeError, ValueError) as exc:
        raise Unsupported(f"column {f.name!r}: a pandas Categorical (fastparquet's only way to "
                          f"write a dictionary) cannot hold these values: {exc}") from exc
