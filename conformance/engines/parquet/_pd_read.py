"""fastparquet's pandas output -> canonical values, exactly, guided by the file's schema.

fastparquet hands back a DataFrame; pandas cannot say everything a Parquet schema
says, so each column is read in two steps:

1. the *reader's view* comes from the pandas dtype fastparquet chose (an integer,
   float, datetime64, timedelta64, bool or object column). Where fastparquet turns
   a logical type into something else (DECIMAL into float64, TIME(ms) into plain
   integers, UUID into bytes) that is what the canonical table reports, so the
   matrix shows the difference;
2. the Parquet schema element supplies only what the pandas form cannot carry:
   the unit of a TIMESTAMP/TIME column (pandas' unit may differ), that a
   datetime64 column is a DATE, the length of a FIXED_LEN_BYTE_ARRAY (numpy 'S'
   arrays drop trailing NUL bytes, which are restored), whether a column can be
   null at all, and the types inside LIST/MAP values.

Exactness: integers and temporal values come from their int64 storage
(`DatetimeArray.asi8`), never through floats or Python datetimes; a conversion
into the file's unit that is not a whole number raises LossyConversion. Float
columns: fastparquet fills nulls of a float column with NaN, so a real NaN and a
null would look alike; when a nullable float column holds NaN, the column is read
again through fastparquet's own column reader into a masked array
(`ParquetFile.read_row_group_file(..., assign=...)`), which keeps the definition
levels apart from the values. Struct columns come back flattened into dotted
columns (`s.x`, `s.y`); they are nested again, and a row whose every child is
null is a LossyConversion (a null struct and a struct of nulls look alike).

fastparquet sometimes answers with data whose shape contradicts the file's schema
or itself (a column of the schema missing from the frame, MAP entries that are not
(key, value) pairs, dictionary codes outside the categories). That is fastparquet's
answer, recorded as its verdict (`ContradictoryAnswer`), never a bug of this adapter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from conformance.values import DataType, Field, Schema, Table
from reference_impl.common.ieee_float import widen_float_bits

from ..base import LossyConversion, converting, engine_call

INT64_MIN = -(2**63)  # pandas' NaT
NANOS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
NANOS_PER_DAY = 86_400 * 10**9

# parquet.thrift enum values (fastparquet's parquet_thrift uses the same numbers).
_PHYSICAL = {0: "BOOLEAN", 1: "INT32", 2: "INT64", 3: "INT96", 4: "FLOAT", 5: "DOUBLE",
             6: "BYTE_ARRAY", 7: "FIXED_LEN_BYTE_ARRAY"}
_CONVERTED = {0: "UTF8", 1: "MAP", 2: "MAP_KEY_VALUE", 3: "LIST", 4: "ENUM", 5: "DECIMAL",
              6: "DATE", 7: "TIME_MILLIS", 8: "TIME_MICROS", 9: "TIMESTAMP_MILLIS",
              10: "TIMESTAMP_MICROS", 11: "UINT_8", 12: "UINT_16", 13: "UINT_32", 14: "UINT_64",
              15: "INT_8", 16: "INT_16", 17: "INT_32", 18: "INT_64", 19: "JSON", 20: "BSON",
              21: "INTERVAL"}
_REQUIRED = 0
_LOGICAL_UNITS = {"MILLIS": "ms", "MICROS": "us", "NANOS": "ns"}


ENGINE = "fastparquet"  # what a conversion failure names (`base.converting`)
MAP_ENTRY_FIELDS = 2  # a MAP entry is a (key, value) pair
SHOWN_CODES = 5  # out-of-range dictionary codes quoted as evidence


class ContradictoryAnswer(LossyConversion):
    """fastparquet's answer contradicts the file's schema or itself, so no canonical
    value can be taken from it. A LossyConversion: the engine did answer (a read cell
    records it as fastparquet's error, a bad-file cell as accepting the file)."""


def read_fastparquet(path: Path) -> Table:
    import fastparquet

    pf = fastparquet.ParquetFile(str(path))
    df = pf.to_pandas(index=False)
    with converting(ENGINE):
        reader = _Reader(pf, df)
        fields, columns = [], []
        root = pf.schema.root
        top = list(root["children"].items())[:root.num_children or 0]
        for name, se in top:
            t, values = reader.field(name, se)
            fields.append(Field(name, t, se.repetition_type != _REQUIRED))
            columns.append(values)
        schema = Schema(tuple(fields))
        return Table.from_columns(schema, columns) if fields else Table(schema, ())


# ---- the Parquet schema element -------------------------------------------------

def _logical(se, name: str):
    lt = getattr(se, "logicalType", None)
    return getattr(lt, name, None) if lt is not None else None


def _converted(se) -> str | None:
    return _CONVERTED.get(se.converted_type) if se.converted_type is not None else None


def _unit(se, kind: str) -> str | None:
    """The unit of a TIME or TIMESTAMP column, from its logical or converted type."""
    lt = _logical(se, kind)
    if lt is not None:
        for name, unit in _LOGICAL_UNITS.items():
            if getattr(lt.unit, name, None) is not None:
                return unit
    converted = _converted(se) or ""
    if converted.startswith(kind + "_"):  # TIME_MILLIS, TIMESTAMP_MICROS, ...
        return _LOGICAL_UNITS[converted.split("_")[1]]
    return None


def _utc(se, kind: str) -> bool | None:
    lt = _logical(se, kind)
    if lt is not None:
        return bool(lt.isAdjustedToUTC)
    # TIME_* and TIMESTAMP_* converted types mean isAdjustedToUTC=true (LogicalTypes.md).
    return True if (_converted(se) or "").startswith(kind + "_") else None


def _children(se) -> list[tuple[str, Any]]:
    return list(se["children"].items()) if se.num_children else []


def schema_type(se) -> DataType:
    """The canonical type a Parquet schema element declares (LogicalTypes.md)."""
    if se.num_children:
        if _logical(se, "LIST") is not None or _converted(se) == "LIST":
            return DataType("list", element=_list_element(se))
        if (_logical(se, "MAP") is not None or _converted(se) in ("MAP", "MAP_KEY_VALUE")):
            (_, kv), = _children(se)
            # By position, not by name: misnamed key and value fields are legal
            # (LogicalTypes.md, 'Maps', 'Backward-compatibility rules').
            kids = [child for _, child in _children(kv)]
            key, value = kids[0], kids[1] if len(kids) > 1 else None
            return DataType("map", key=Field("key", schema_type(key), False),
                            value=Field("value", schema_type(value) if value is not None
                                        else DataType("unknown"),
                                        value is None or value.repetition_type != _REQUIRED))
        return DataType("struct", fields=tuple(Field(n, schema_type(c), c.repetition_type
                                                     != _REQUIRED) for n, c in _children(se)))
    physical = _PHYSICAL[se.type]
    converted = _converted(se)
    if _logical(se, "UNKNOWN") is not None:
        return DataType("unknown", physical)
    if _logical(se, "DECIMAL") is not None or converted == "DECIMAL":
        return DataType("decimal", physical, precision=se.precision, scale=se.scale or 0,
                        length=se.type_length)
    if _logical(se, "DATE") is not None or converted == "DATE":
        return DataType("date", physical)
    for kind in ("TIME", "TIMESTAMP"):
        unit = _unit(se, kind)
        if unit:
            return DataType(kind.lower(), physical, unit=unit, utc=_utc(se, kind))
    integer = _logical(se, "INTEGER")
    if integer is not None:
        return DataType("int", physical, bits=integer.bitWidth, signed=bool(integer.isSigned))
    if converted and converted[:4] in ("INT_", "UINT"):
        signed = converted.startswith("INT_")
        return DataType("int", physical, bits=int(converted.split("_")[1]), signed=signed)
    match physical:
        case "BOOLEAN":
            return DataType("boolean", physical)
        case "INT32" | "INT64":
            return DataType("int", physical, bits=32 if physical == "INT32" else 64, signed=True)
        case "INT96":
            return DataType("int96", physical)
        case "FLOAT" | "DOUBLE":
            return DataType("float", physical, bits=32 if physical == "FLOAT" else 64)
        case "BYTE_ARRAY":
            if _logical(se, "STRING") is not None or converted == "UTF8":
                return DataType("string", physical)
            for kind in ("ENUM", "JSON", "BSON"):
                if _logical(se, kind) is not None or converted == kind:
                    return DataType(kind.lower(), physical)
            return DataType("binary", physical)
    if _logical(se, "UUID") is not None:
        return DataType("uuid", physical, length=16)
    if converted == "INTERVAL":
        return DataType("interval", physical, length=12)
    return DataType("fixed", physical, length=se.type_length)


def _list_element(se) -> Field:
    """The element of a LIST group, 3-level or legacy 2-level (LogicalTypes.md "Lists")."""
    (rep_name, rep), = _children(se)
    kids = _children(rep)
    if len(kids) == 1 and rep_name not in ("array", f"{se.name}_tuple"):
        name, element = kids[0]
        return Field(name, schema_type(element), element.repetition_type != _REQUIRED)
    return Field(rep_name, schema_type(rep), False)


# ---- pandas columns ---------------------------------------------------------------

class _Reader:
    def __init__(self, pf, df):
        self.pf, self.df = pf, df

    def field(self, path: str, se) -> tuple[DataType, list[Any]]:
        if path in self.df.columns:
            return self.series(path, self.df[path], se)
        if se.num_children and schema_type(se).kind == "struct":
            return self._struct(path, se)  # flattened into dotted columns
        # Measured: fastparquet drops a group annotated MAP_KEY_VALUE from its frame without
        # an error (a legal MAP: LogicalTypes.md, 'Maps', 'Backward-compatibility rules').
        raise ContradictoryAnswer(f"column {path!r} of the file's schema is missing from "
                                  f"fastparquet's answer (its columns: {list(self.df.columns)})")

    def _struct(self, path: str, se) -> tuple[DataType, list[Any]]:
        names, types, columns, required_child = [], [], [], False
        for name, child in _children(se):
            t, values = self.field(f"{path}.{name}", child)
            names.append(name)
            types.append(Field(name, t, child.repetition_type != _REQUIRED))
            columns.append(values)
            required_child |= child.repetition_type == _REQUIRED
        optional = not self.pf.schema.is_required(path)
        rows: list[dict[str, Any] | None] = []
        for i in range(len(self.df)):
            cells = [c[i] for c in columns]
            if optional and all(v is None for v in cells):
                if not required_child:
                    raise LossyConversion(
                        f"struct column {path!r}, row {i}: fastparquet flattens structs into "
                        "dotted columns, so a null struct and a struct of nulls look alike")
                rows.append(None)
            else:
                rows.append(dict(zip(names, cells, strict=True)))
        return DataType("struct", fields=tuple(types)), rows

    def series(self, path: str, s, se) -> tuple[DataType, list[Any]]:
        import pandas as pd
        from pandas.api import types as ptypes

        dtype = s.dtype
        required = self.pf.schema.is_required(path)
        if isinstance(dtype, pd.CategoricalDtype):
            return self._categorical(path, s, se)
        if ptypes.is_bool_dtype(dtype):
            raw = s.array.to_numpy(dtype=bool, na_value=False) if _masked(s) else s.to_numpy()
            return DataType("boolean"), _nulls_to_none(raw.tolist(), s.isna().to_numpy())
        if ptypes.is_integer_dtype(dtype):
            np_dtype = dtype.numpy_dtype if _masked(s) else dtype
            raw = s.array.to_numpy(dtype=np_dtype, na_value=0) if _masked(s) else s.to_numpy()
            t = DataType("int", bits=np_dtype.itemsize * 8, signed=np_dtype.kind == "i")
            return t, _nulls_to_none(raw.tolist(), s.isna().to_numpy())
        if ptypes.is_float_dtype(dtype):
            return self._floats(path, s, required)
        if ptypes.is_datetime64_any_dtype(dtype):
            return _datetimes(path, s, se, required)
        if ptypes.is_timedelta64_dtype(dtype):
            return _timedeltas(path, s, se, required)
        return _objects(path, s, se)

    def _categorical(self, path: str, s, se) -> tuple[DataType, list[Any]]:
        import pandas as pd

        codes = s.cat.codes.to_numpy()
        categories = s.cat.categories
        # Measured: fastparquet reads its own v1 BOOLEAN dictionary pages into codes
        # outside the categories (-30, 122 for 2 categories); -1 is pandas' null.
        outside = codes[(codes < -1) | (codes >= len(categories))]
        if len(outside):
            shown = sorted(set(outside.tolist()))[:SHOWN_CODES]
            raise ContradictoryAnswer(f"column {path!r}: fastparquet returned dictionary codes "
                                      f"{shown} outside the {len(categories)} categories it returned")
        if len(categories) == 0:
            return schema_type(se), [None] * len(s)
        dense = pd.Series(categories.take(np.where(codes < 0, 0, codes)))
        t, values = self.series(path, dense, se)
        return t, [None if c < 0 else v for c, v in zip(codes, values, strict=True)]

    def _floats(self, path: str, s, required: bool) -> tuple[DataType, list[Any]]:
        np_dtype = s.dtype.numpy_dtype if _masked(s) else s.dtype
        bits = np_dtype.itemsize * 8
        if _masked(s):
            data, nulls = s.array._data, s.array._mask  # noqa: SLF001 (pandas masked layout)
        else:
            data = s.to_numpy()
            nulls = np.zeros(len(s), dtype=bool) if required else np.isnan(data)
            if nulls.any():
                data, nulls = self._float_definition_levels(path, np_dtype)
        raw = np.ascontiguousarray(data).view(np.uint32 if bits == 32 else np.uint64)
        return DataType("float", bits=bits), _nulls_to_none(widen_float_bits(raw, bits), nulls)

    def _float_definition_levels(self, path: str, np_dtype) -> tuple[np.ndarray, np.ndarray]:
        """Read a float column again into a masked array: nulls from definition levels."""
        import pandas as pd

        n = len(self.df)
        out = pd.arrays.FloatingArray(np.zeros(n, dtype=np_dtype), np.zeros(n, dtype=bool))
        start = 0
        for rg in self.pf.row_groups:
            rows = rg.num_rows
            with engine_call():
                self.pf.read_row_group_file(rg, [path], {}, index=False,
                                            assign={path: out[start:start + rows]})
            start += rows
        return out._data, out._mask  # noqa: SLF001


def _masked(s) -> bool:
    from pandas.core.arrays.masked import BaseMaskedDtype

    return isinstance(s.dtype, BaseMaskedDtype)


def _nulls_to_none(values: list[Any], nulls) -> list[Any]:
    return [None if null else v for v, null in zip(values, nulls, strict=True)]


def _to_unit(values: list[int], from_unit: str, to_unit: str, path: str) -> list[int]:
    """Counts of `from_unit` as counts of `to_unit`, exactly, or LossyConversion."""
    out = []
    factor_from, factor_to = NANOS[from_unit], NANOS[to_unit]
    for v in values:
        if v is None:
            out.append(None)
            continue
        quotient, remainder = divmod(v * factor_from, factor_to)
        if remainder:
            raise LossyConversion(f"column {path!r}: {v} {from_unit} from fastparquet is not a "
                                  f"whole number of {to_unit} (the file's unit)")
        out.append(quotient)
    return out


def _int64_with_nat(s, required: bool) -> list[Any]:
    ints = s.array.asi8.tolist()
    return ints if required else [None if v == INT64_MIN else v for v in ints]


def _datetimes(path: str, s, se, required: bool) -> tuple[DataType, list[Any]]:
    unit, tz = s.dt.unit, getattr(s.dtype, "tz", None)
    values = _int64_with_nat(s, required)
    declared = schema_type(se)
    if declared.kind == "date":
        nanos = _to_unit(values, unit, "ns", path)
        return DataType("date"), [None if v is None else _whole(v, NANOS_PER_DAY, path, "days")
                                  for v in nanos]
    target = declared.time_unit if declared.kind == "timestamp" else unit
    return (DataType("timestamp", unit=target, utc=tz is not None),
            _to_unit(values, unit, target, path))


def _timedeltas(path: str, s, se, required: bool) -> tuple[DataType, list[Any]]:
    unit = s.dt.unit
    values = _int64_with_nat(s, required)
    declared = schema_type(se)
    target = declared.time_unit if declared.kind == "time" else unit
    return DataType("time", unit=target), _to_unit(values, unit, target, path)


def _whole(v: int, divisor: int, path: str, what: str) -> int:
    quotient, remainder = divmod(v, divisor)
    if remainder:
        raise LossyConversion(f"column {path!r}: {v} ns is not a whole number of {what}")
    return quotient


def _objects(path: str, s, se) -> tuple[DataType, list[Any]]:
    """Object / string columns: Python values whose kinds must agree with the schema."""
    nulls = s.isna().to_numpy()
    values = [None if null else v for v, null in zip(s.astype(object).tolist(), nulls,
                                                     strict=True)]
    present = [v for v in values if v is not None]
    declared = schema_type(se)
    if declared.kind == "json" and present:
        raise LossyConversion(f"column {path!r}: fastparquet decodes JSON documents into Python "
                              "objects; the document text is not recoverable")
    if declared.kind in ("list", "map", "struct") and all(
            isinstance(v, (list, dict, np.ndarray)) for v in present):
        return declared, [_py(declared, v, path) for v in values]
    if not present:
        return declared, values
    if all(isinstance(v, str) for v in present):
        kind = declared.kind if declared.kind in ("string", "enum", "json") else "string"
        return DataType(kind), values
    if all(isinstance(v, bytes) for v in present):
        if declared.physical == "FIXED_LEN_BYTE_ARRAY" and declared.length:
            n = declared.length
            return DataType("fixed", length=n), [None if v is None else v.ljust(n, b"\x00")
                                                 for v in values]
        return DataType("bson" if declared.kind == "bson" else "binary"), values
    kinds = sorted({type(v).__name__ for v in present})
    raise LossyConversion(f"column {path!r}: fastparquet returned {', '.join(kinds)} values for "
                          f"a {declared.describe()} column")


def _map_entries(v: Any, path: str) -> list[tuple[Any, Any]]:
    """The (key, value) entries of a MAP value as fastparquet built it (a dict, or pairs)."""
    entries = list(v.items()) if isinstance(v, dict) else list(v)
    for entry in entries:
        if not (isinstance(entry, (tuple, list, np.ndarray)) and len(entry) == MAP_ENTRY_FIELDS):
            # Measured: a MAP whose values are structs comes back as a list of its keys.
            raise ContradictoryAnswer(f"column {path!r}: fastparquet returned a MAP value whose "
                                      f"entry {entry!r} is not a (key, value) pair")
    return [(k, x) for k, x in entries]


def _py(t: DataType, v: Any, path: str) -> Any:
    """A value inside a LIST/MAP as fastparquet built it, checked against the schema type."""
    if v is None:
        return None
    match t.kind:
        case "list":
            if isinstance(v, (list, np.ndarray)):
                return [_py(t.list_element.type, e, path) for e in list(v)]
        case "map":
            if isinstance(v, (dict, list, np.ndarray)):
                return [(_py(t.map_key.type, k, path), _py(t.map_value.type, x, path))
                        for k, x in _map_entries(v, path)]
        case "struct":
            if isinstance(v, dict):
                return {f.name: _py(f.type, v.get(f.name), path) for f in t.fields}
        case "boolean":
            if isinstance(v, (bool, np.bool_)):
                return bool(v)
        case "int":
            if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
                return int(v)
        case "float":
            if isinstance(v, (float, np.floating)):
                return float(v)
        case "string" | "enum":
            if isinstance(v, str):
                return v
        case "binary" | "bson":
            if isinstance(v, bytes):
                return v
        case "fixed":
            if isinstance(v, bytes):
                return v.ljust(t.byte_length, b"\x00")
    raise LossyConversion(f"column {path!r}: fastparquet returned {type(v).__name__} {v!r} for "
                          f"a {t.describe()} value")
