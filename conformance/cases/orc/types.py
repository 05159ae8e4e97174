"""ORC types in the canonical vocabulary (orc_proto.proto ``Type.Kind``; ORCv1.md 'Type
Information').

Canonical types are format-neutral (docs/canonical-values.md); an ORC case builds its
schema from these, which leave out the Parquet physical type, and `orc_kind` names the
ORC type a canonical type is written as, which is also the case's `type:` feature tag.
"""

from __future__ import annotations

from conformance.values import DataType, Field
from conformance.values import types as T

# Canonical integer width -> ORC integer kind.
INTEGER_KINDS = {8: "BYTE", 16: "SHORT", 32: "INT", 64: "LONG"}
FLOAT_KINDS = {32: "FLOAT", 64: "DOUBLE"}
# ORCv1.md, 'Decimal Columns': at most 38 digits since Hive 0.13.
MAX_DECIMAL_PRECISION = 38
NANOS = "ns"  # ORC timestamps hold nanoseconds ('Timestamp Columns')


def boolean() -> DataType:
    return DataType("boolean")


def integer(bits: int) -> DataType:
    if bits not in INTEGER_KINDS:
        raise ValueError(f"ORC integers are 8, 16, 32 or 64 bits, not {bits}")
    return DataType("int", bits=bits, signed=True)


def floating(bits: int) -> DataType:
    if bits not in FLOAT_KINDS:
        raise ValueError(f"ORC floats are 32 or 64 bits, not {bits}")
    return DataType("float", bits=bits)


def string() -> DataType:
    return DataType("string")


def binary() -> DataType:
    return DataType("binary")


def decimal(precision: int, scale: int) -> DataType:
    if not 1 <= precision <= MAX_DECIMAL_PRECISION or not 0 <= scale <= precision:
        raise ValueError(f"DECIMAL({precision},{scale}) is outside ORC's 1..38 digits")
    return DataType("decimal", precision=precision, scale=scale)


def date() -> DataType:
    return DataType("date")


def timestamp() -> DataType:
    """TIMESTAMP: a wall-clock time, no time zone (utc=False)."""
    return DataType("timestamp", unit=NANOS, utc=False)


def timestamp_instant() -> DataType:
    """TIMESTAMP_INSTANT ("timestamp with local time zone"): an instant (utc=True)."""
    return DataType("timestamp", unit=NANOS, utc=True)


char, varchar, union_of = T.char, T.varchar, T.union_of


def geometry(crs: str | None = None) -> DataType:
    """GEOMETRY (ORCv2.md, 'Geometry & Geography Types'): WKB values; the canonical kind
    Parquet's GEOMETRY has (docs/canonical-values.md), without a Parquet physical type."""
    return DataType("geometry", crs=crs)


def geography(crs: str | None = None, algorithm: str | None = None) -> DataType:
    """GEOGRAPHY: WKB values with an edge interpolation algorithm, named as both formats'
    enums name it (SPHERICAL, VINCENTY, THOMAS, ANDOYER, KARNEY)."""
    return DataType("geography", crs=crs, algorithm=algorithm)


def list_of(element: DataType) -> DataType:
    return DataType("list", element=Field("element", element))


def map_of(key: DataType, value: DataType) -> DataType:
    return DataType("map", key=Field("key", key, False), value=Field("value", value))


def struct_of(*fields: Field) -> DataType:
    return DataType("struct", fields=tuple(fields))


def orc_kind(t: DataType) -> str:
    """The orc_proto.proto Type.Kind name a canonical type is written as; ValueError for
    a canonical type ORC has no kind for (an unsigned integer, a UUID, ...)."""
    simple = {"boolean": "BOOLEAN", "string": "STRING", "binary": "BINARY", "decimal": "DECIMAL",
              "date": "DATE", "char": "CHAR", "varchar": "VARCHAR", "list": "LIST", "map": "MAP",
              "struct": "STRUCT", "union": "UNION", "geometry": "GEOMETRY", "geography": "GEOGRAPHY"}
    if t.kind in simple:
        return simple[t.kind]
    if t.kind == "int" and t.signed and t.bits in INTEGER_KINDS:
        return INTEGER_KINDS[t.bit_width]
    if t.kind == "float" and t.bits in FLOAT_KINDS:
        return FLOAT_KINDS[t.bit_width]
    if t.kind == "timestamp" and t.unit == NANOS:
        return "TIMESTAMP_INSTANT" if t.utc else "TIMESTAMP"
    raise ValueError(f"ORC has no type for {t.describe()}")


def field_tags(f: Field) -> set[str]:
    """`type:<ORC kind>` of the field and of every field nested in it. ORC has no
    REQUIRED: every column may hold nulls (a PRESENT stream), so no repetition tag."""
    tags = {f"type:{orc_kind(f.type)}"}
    for child in (f.type.element, f.type.key, f.type.value, *f.type.fields):
        if child is not None:
            tags.update(field_tags(child))
    return tags
