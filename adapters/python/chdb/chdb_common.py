"""What the chdb adapter's Parquet and ORC halves share: the one ClickHouse session, the
ClickHouse types canonical fields are written as, and SQL text.

ClickHouse's `String` is both text and bytes; its Parquet and ORC writers each take one
per-file switch (`output_format_<format>_string_as_string`) that says which every String
column of the file is (`string_kind`).
"""

from __future__ import annotations

from typing import Any

import chdb
from chdb import session

from conformance.kit import Case, DataType, Field, Unsupported

INT_TYPES = {(8, True): "Int8", (16, True): "Int16", (32, True): "Int32", (64, True): "Int64",
             (8, False): "UInt8", (16, False): "UInt16", (32, False): "UInt32",
             (64, False): "UInt64"}
TIMESTAMP_PRECISION = {"ms": 3, "us": 6, "ns": 9}
# ClickHouse stores Decimal(P, S) in 4, 8, 16 or 32 bytes by precision and writes that
# many bytes as FIXED_LEN_BYTE_ARRAY (measured for P = 9, 18, 20, 38, 76).
DECIMAL_BYTES = ((9, 4), (18, 8), (38, 16), (76, 32))
ENUM8_MAX_VALUES = 127
# Canonical kinds ClickHouse holds in a String column.
STRING_KINDS = ("binary", "string", "json", "enum")

_SESSION: session.Session | None = None


def _session() -> session.Session:
    global _SESSION
    if _SESSION is None:
        _SESSION = session.Session()
    return _SESSION


def version() -> str:
    """ClickHouse's version as the engine reports it, and the chdb package's."""
    engine = str(session_query("SELECT version()", "TabSeparated")).strip()
    return f"ClickHouse {engine} (chdb {chdb.__version__})"


def session_query(sql: str, fmt: str = "CSV") -> Any:
    """`sql` run in the adapter's ClickHouse session, its result in format `fmt`.

    A query that fails while it runs leaves its partial output behind: the next query's
    result begins with it (measured with chdb 4.4.0: after `SELECT throwIf(1)` in
    ArrowTable, the next `SELECT 1` fails 'Message metadata too long by 156 bytes', in
    TabSeparated it is not UTF-8). A failed query therefore ends the session; the next
    query opens a fresh one, which answers right (measured)."""
    global _SESSION
    try:
        return _session().query(sql, fmt)
    except Exception:
        if _SESSION is not None:
            _SESSION.close()
        _SESSION = None
        raise


def string_kind(case: Case, setting: str) -> str:
    """'binary' when the case's byte-array values are all BINARY, 'text' when all text,
    Unsupported when both (`setting`, the writer's string_as_string, is per file)."""
    kinds = {("binary" if t.kind == "binary" else "text")
             for t in all_types(case.schema) if t.kind in STRING_KINDS}
    if len(kinds) > 1:
        raise Unsupported("ClickHouse's String is both text and bytes; "
                          f"{setting} makes every String column of a file text or none: this case "
                          "has BINARY and text columns")
    return kinds.pop() if kinds else "text"


def all_types(fields) -> list[DataType]:
    out = []
    for f in fields:
        t = f.type
        out.append(t)
        out.extend(all_types(c for c in (t.element, t.key, t.value, *t.fields) if c is not None))
    return out


# ---- types --------------------------------------------------------------------------

def clickhouse_type(path: str, f: Field, case: Case) -> str:
    """The ClickHouse type that writes canonical field `f` as the case declares it."""
    inner = base_type(path, f.type, case)
    if not f.nullable:
        return inner
    if f.type.kind in ("list", "map"):
        raise Unsupported(f"column {path!r} is an OPTIONAL {f.type.kind.upper()}: measured "
                          f"'Nested type {inner} cannot be inside Nullable type'")
    return f"Nullable({inner})"


def base_type(path: str, t: DataType, case: Case) -> str:
    match t.kind:
        case "boolean":
            return "Bool"
        case "int":
            _check_physical(path, t, "INT64" if t.bits == 64 else "INT32")
            return INT_TYPES[(t.bit_width, t.is_signed)]
        case "float":
            return "Float32" if t.bits == 32 else "Float64"
        case "decimal":
            return _decimal_type(path, t)
        case "binary" | "string":
            return "String"
        case "json":
            return "JSON"
        case "enum":
            return _enum_type(path, case)
        case "fixed":
            return f"FixedString({t.length})"
        case "uuid":
            return "UUID"
        case "date":
            return "Date32"
        case "timestamp":
            return f"DateTime64({TIMESTAMP_PRECISION[t.time_unit]}, 'UTC')"
        case "list":
            return f"Array({clickhouse_type(path + '.element', t.list_element, case)})"
        case "map":
            return (f"Map({clickhouse_type(path + '.key', t.map_key, case)}, "
                    f"{clickhouse_type(path + '.value', t.map_value, case)})")
        case "struct":
            if not t.fields:
                raise Unsupported(f"column {path!r}: ClickHouse has no Tuple without elements")
            return "Tuple(" + ", ".join(
                f"{identifier(c.name)} {clickhouse_type(f'{path}.{c.name}', c, case)}"
                for c in t.fields) + ")"
    raise Unsupported(f"column {path!r}: {t.describe()} has no ClickHouse type that writes it")


def _check_physical(path: str, t: DataType, written: str) -> None:
    if t.physical not in (None, written):
        raise Unsupported(f"column {path!r}: ClickHouse writes {t.describe()} on {written}, "
                          f"not {t.physical}")


def _decimal_type(path: str, t: DataType) -> str:
    size = next((n for limit, n in DECIMAL_BYTES if t.decimal_precision <= limit), None)
    if size is None:
        raise Unsupported(f"column {path!r}: ClickHouse Decimal has at most 76 digits")
    if t.physical == "FIXED_LEN_BYTE_ARRAY" and t.length != size:
        raise Unsupported(f"column {path!r}: ClickHouse writes DECIMAL({t.precision},{t.scale}) "
                          f"as FIXED_LEN_BYTE_ARRAY({size}), not ({t.length}) (measured)")
    return f"Decimal({t.precision}, {t.scale})"


def _enum_type(path: str, case: Case) -> str:
    """Enum8 of the column's distinct values (a top-level column only: the values are
    the enum's elements, numbered in order of appearance)."""
    index = next((i for i, f in enumerate(case.schema) if f.name == path), None)
    if index is None:
        raise Unsupported(f"column {path!r}: the adapter derives Enum elements for top-level "
                          "columns only")
    labels = list(dict.fromkeys(row[index] for row in case.rows if row[index] is not None))
    if not labels or len(labels) > ENUM8_MAX_VALUES:
        raise Unsupported(f"column {path!r}: a ClickHouse Enum8 needs 1 to {ENUM8_MAX_VALUES} "
                          f"elements, the column holds {len(labels)} distinct values")
    return "Enum8(" + ", ".join(f"{literal(v)} = {i}" for i, v in enumerate(labels, 1)) + ")"


# ---- SQL text -----------------------------------------------------------------------

def literal(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def identifier(name: str) -> str:
    return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`"


def settings_sql(settings: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {literal(v) if isinstance(v, str) else v}"
                     for k, v in settings.items())
