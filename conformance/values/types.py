"""Canonical logical types: what a column *means*, independent of any engine.

One `DataType` per Parquet logical type (LogicalTypes.md) and per unannotated
physical type (parquet.thrift, `enum Type`). The `physical` attribute records the
Parquet physical type the value is stored as, because the same logical type
(DECIMAL, INT(bw), FLOAT16) can sit on several physical types and a case pins it.

The JSON form of a type is a small tagged object, e.g.
``{"kind": "int", "bits": 8, "signed": false}``; see docs/canonical-values.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

_T = TypeVar("_T")

# Time units of TIME and TIMESTAMP (LogicalTypes.md, "Temporal Types").
TIME_UNITS = ("ms", "us", "ns")
UNITS_PER_SECOND = {"ms": 1_000, "us": 1_000_000, "ns": 1_000_000_000}

# Physical types of parquet.thrift `enum Type`.
PHYSICAL_TYPES = (
    "BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY",
)

# Kinds whose value is a scalar, and the nested kinds.
SCALAR_KINDS = (
    "boolean", "int", "int96", "float", "binary", "string", "enum", "json", "bson", "fixed",
    "uuid", "decimal", "date", "time", "timestamp", "interval", "unknown",
    "variant", "geometry", "geography",
    # ORC's (orc_proto.proto Type.Kind CHAR, VARCHAR): text of a declared length
    "char", "varchar",
)
# UNION is ORC's (ORCv1.md, 'Union Columns'): a value of one of its alternatives.
NESTED_KINDS = ("list", "map", "struct", "union")

UUID_LENGTH = 16  # LogicalTypes.md, "UUID": FIXED_LEN_BYTE_ARRAY(16)
FILE_ANNOTATION = "FILE"
INTERVAL_LENGTH = 12  # LogicalTypes.md, "INTERVAL": three little-endian uint32


@dataclass(frozen=True)
class DataType:
    """A canonical type. Only the attributes meaningful for `kind` are set."""

    kind: str
    physical: str | None = None
    bits: int | None = None  # int: 8/16/32/64; float: 16/32/64
    signed: bool | None = None  # int
    length: int | None = None  # fixed: byte length; char, varchar: length in characters
    precision: int | None = None  # decimal
    scale: int | None = None  # decimal
    unit: str | None = None  # time, timestamp: ms/us/ns
    utc: bool | None = None  # time, timestamp: isAdjustedToUTC
    crs: str | None = None  # geometry, geography: the coordinate reference system
    algorithm: str | None = None  # geography: the edge interpolation algorithm
    element: Field | None = None  # list
    key: Field | None = None  # map
    value: Field | None = None  # map
    fields: tuple[Field, ...] = ()  # struct; union: the alternatives, by tag
    # struct: the annotation of its group, FILE (LogicalTypes.md 'FILE'); its value stays the struct's
    annotation: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in SCALAR_KINDS + NESTED_KINDS:
            raise ValueError(f"unknown canonical kind {self.kind!r}")
        if self.annotation is not None and (self.kind, self.annotation) != ("struct", FILE_ANNOTATION):
            raise ValueError(f"only a struct may carry an annotation, and only {FILE_ANNOTATION!r}: "
                             f"{self.kind} {self.annotation!r}")
        if self.physical is not None and self.physical not in PHYSICAL_TYPES:
            raise ValueError(f"unknown physical type {self.physical!r}")
        if self.unit is not None and self.unit not in TIME_UNITS:
            raise ValueError(f"unknown time unit {self.unit!r}")

    @property
    def is_nested(self) -> bool:
        return self.kind in NESTED_KINDS

    # The attributes a kind needs, each as a property that is never None (the constructors below
    # always set them): code that matched on `kind` reads these instead of the optional fields.

    def _required(self, value: _T | None, attribute: str) -> _T:
        if value is None:
            raise ValueError(f"a {self.kind} type without its {attribute}")
        return value

    @property
    def physical_type(self) -> str:
        return self._required(self.physical, "physical type")

    @property
    def bit_width(self) -> int:
        return self._required(self.bits, "bits")

    @property
    def is_signed(self) -> bool:
        return self._required(self.signed, "signedness")

    @property
    def byte_length(self) -> int:
        return self._required(self.length, "length")

    @property
    def decimal_precision(self) -> int:
        return self._required(self.precision, "precision")

    @property
    def decimal_scale(self) -> int:
        return self._required(self.scale, "scale")

    @property
    def time_unit(self) -> str:
        return self._required(self.unit, "unit")

    @property
    def adjusted_to_utc(self) -> bool:
        return self._required(self.utc, "utc")

    @property
    def list_element(self) -> Field:
        return self._required(self.element, "element")

    @property
    def map_key(self) -> Field:
        return self._required(self.key, "key")

    @property
    def map_value(self) -> Field:
        return self._required(self.value, "value")

    def walk(self) -> Iterator[DataType]:
        """This type, then every type nested in it, depth first."""
        yield self
        for child in (self.element, self.key, self.value, *self.fields):
            if child is not None:
                yield from child.type.walk()

    def kinds(self) -> set[str]:
        """This type's kind and the kinds of every type nested in it."""
        return {t.kind for t in self.walk()}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for name in ("physical", "bits", "signed", "length", "precision", "scale", "unit", "utc",
                     "crs", "algorithm", "annotation"):
            attr = getattr(self, name)
            if attr is not None:
                out[name] = attr
        if self.element is not None:
            out["element"] = self.element.to_json()
        if self.key is not None:
            out["key"] = self.key.to_json()
            out["value"] = self.map_value.to_json()
        if self.kind in ("struct", "union"):
            out["fields"] = [f.to_json() for f in self.fields]
        return out

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> DataType:
        kwargs = {k: v for k, v in doc.items() if k not in ("element", "key", "value", "fields")}
        if "element" in doc:
            kwargs["element"] = Field.from_json(doc["element"])
        if "key" in doc:
            kwargs["key"] = Field.from_json(doc["key"])
            kwargs["value"] = Field.from_json(doc["value"])
        if "fields" in doc:
            kwargs["fields"] = tuple(Field.from_json(f) for f in doc["fields"])
        return cls(**kwargs)

    def describe(self) -> str:
        """A short human label, e.g. ``INT(8, unsigned)`` or ``DECIMAL(9,2) on INT32``."""
        match self.kind:
            case "int":
                return f"INT({self.bits}, {'signed' if self.signed else 'unsigned'})"
            case "float":
                return {16: "FLOAT16", 32: "FLOAT", 64: "DOUBLE"}[self.bit_width]
            case "decimal":
                on = f" on {self.physical}" if self.physical else ""
                return f"DECIMAL({self.precision},{self.scale}){on}"
            case "time" | "timestamp":
                return f"{self.kind.upper()}({self.unit}, utc={self.utc})"
            case "fixed":
                return f"FIXED_LEN_BYTE_ARRAY({self.length})"
            case "list":
                return f"LIST<{self.list_element.type.describe()}>"
            case "map":
                return f"MAP<{self.map_key.type.describe()}, {self.map_value.type.describe()}>"
            case "struct":
                inner = ", ".join(f"{f.name}: {f.type.describe()}" for f in self.fields)
                return f"{self.annotation or 'STRUCT'}<{inner}>"
            case "union":
                return "UNION<" + ", ".join(f.type.describe() for f in self.fields) + ">"
            case "char" | "varchar":
                return f"{self.kind.upper()}({self.length})"
            case _:
                return self.kind.upper()


@dataclass(frozen=True)
class Field:
    """A named, possibly nullable, column or nested field."""

    name: str
    type: DataType
    nullable: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "nullable": self.nullable, "type": self.type.to_json()}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Field:
        return cls(doc["name"], DataType.from_json(doc["type"]), doc["nullable"])


@dataclass(frozen=True)
class Schema:
    fields: tuple[Field, ...] = field(default_factory=tuple)

    def __iter__(self) -> Iterator[Field]:
        return iter(self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    @property
    def names(self) -> list[str]:
        return [f.name for f in self.fields]

    def kinds(self) -> set[str]:
        """Every kind in the schema's columns, nested ones included."""
        return set().union(*(f.type.kinds() for f in self.fields))

    def to_json(self) -> list[dict[str, Any]]:
        return [f.to_json() for f in self.fields]

    @classmethod
    def from_json(cls, doc: list[dict[str, Any]]) -> Schema:
        return cls(tuple(Field.from_json(f) for f in doc))


# ---- constructors: the vocabulary cases are written in ----------------------

def boolean() -> DataType:
    return DataType("boolean", "BOOLEAN")


def integer(bits: int = 32, signed: bool = True, physical: str | None = None) -> DataType:
    """INT(bits, signed) (LogicalTypes.md "Signed Integers"/"Unsigned Integers").

    Plain INT32 and INT64 columns are INT(32, true) and INT(64, true).
    """
    if bits not in (8, 16, 32, 64):
        raise ValueError(f"integer bit width must be 8, 16, 32 or 64, not {bits}")
    return DataType("int", physical or ("INT64" if bits == 64 else "INT32"), bits=bits, signed=signed)


def int96() -> DataType:
    return DataType("int96", "INT96")


def floating(bits: int = 64) -> DataType:
    """FLOAT (32), DOUBLE (64) or FLOAT16 (16, on FIXED_LEN_BYTE_ARRAY(2))."""
    physical = {16: "FIXED_LEN_BYTE_ARRAY", 32: "FLOAT", 64: "DOUBLE"}[bits]
    return DataType("float", physical, bits=bits, length=2 if bits == 16 else None)


def binary() -> DataType:
    return DataType("binary", "BYTE_ARRAY")


def string() -> DataType:
    return DataType("string", "BYTE_ARRAY")


def enum() -> DataType:
    return DataType("enum", "BYTE_ARRAY")


def json_type() -> DataType:
    return DataType("json", "BYTE_ARRAY")


def bson() -> DataType:
    return DataType("bson", "BYTE_ARRAY")


def fixed(length: int) -> DataType:
    return DataType("fixed", "FIXED_LEN_BYTE_ARRAY", length=length)


def uuid() -> DataType:
    return DataType("uuid", "FIXED_LEN_BYTE_ARRAY", length=UUID_LENGTH)


def decimal(precision: int, scale: int, physical: str = "FIXED_LEN_BYTE_ARRAY",
            length: int | None = None) -> DataType:
    """DECIMAL(precision, scale) on INT32, INT64, FIXED_LEN_BYTE_ARRAY or BYTE_ARRAY."""
    if physical == "FIXED_LEN_BYTE_ARRAY" and length is None:
        length = decimal_min_bytes(precision)
    return DataType("decimal", physical, precision=precision, scale=scale, length=length)


def date() -> DataType:
    return DataType("date", "INT32")


def time(unit: str = "us", utc: bool = True) -> DataType:
    return DataType("time", "INT32" if unit == "ms" else "INT64", unit=unit, utc=utc)


def timestamp(unit: str = "us", utc: bool = True) -> DataType:
    return DataType("timestamp", "INT64", unit=unit, utc=utc)


def interval() -> DataType:
    return DataType("interval", "FIXED_LEN_BYTE_ARRAY", length=INTERVAL_LENGTH)


def unknown() -> DataType:
    return DataType("unknown", "INT32")


def variant() -> DataType:
    """VARIANT, unshredded: a group of two binaries, metadata and value (LogicalTypes.md)."""
    return DataType("variant")


def geometry(crs: str | None = None) -> DataType:
    """GEOMETRY: WKB in BYTE_ARRAY; `crs` None means the default, OGC:CRS84."""
    return DataType("geometry", "BYTE_ARRAY", crs=crs)


def geography(crs: str | None = None, algorithm: str | None = None) -> DataType:
    """GEOGRAPHY: WKB in BYTE_ARRAY; `algorithm` None means the default, SPHERICAL."""
    return DataType("geography", "BYTE_ARRAY", crs=crs, algorithm=algorithm)


def list_of(element: DataType, element_nullable: bool = True) -> DataType:
    return DataType("list", element=Field("element", element, element_nullable))


def map_of(key: DataType, value: DataType, value_nullable: bool = True) -> DataType:
    return DataType("map", key=Field("key", key, False), value=Field("value", value, value_nullable))


def struct_of(*fields: Field) -> DataType:
    return DataType("struct", fields=tuple(fields))


def file_fields() -> dict[str, DataType]:
    """The fields a FILE group may have, by name, with their canonical types (LogicalTypes.md
    'FILE': uri STRING, offset INT64, size INT64, content_type STRING, checksum STRING,
    inline BYTE_ARRAY)."""
    return {"uri": string(), "offset": integer(64), "size": integer(64), "content_type": string(),
            "checksum": string(), "inline": binary()}


def file_of(*names: str) -> DataType:
    """FILE: a struct of the named fields of its table, each nullable ("Every field is optional
    both in the schema and in the data"), annotated FILE. Its values are the struct's."""
    table = file_fields()
    unknown = [n for n in names if n not in table]
    if unknown or not names:
        raise ValueError(f"a FILE group's fields are some of {list(table)}, not {list(names)}")
    return DataType("struct", fields=tuple(Field(n, table[n], True) for n in names),
                    annotation=FILE_ANNOTATION)


def char(length: int) -> DataType:
    """ORC CHAR(length): text padded with spaces to `length` characters (ORCv1.md,
    'String, Char, and VarChar Columns')."""
    return DataType("char", length=length)


def varchar(length: int) -> DataType:
    """ORC VARCHAR(length): text of at most `length` characters."""
    return DataType("varchar", length=length)


def union_of(*alternatives: DataType) -> DataType:
    """ORC UNION: each value is one alternative's, named by its tag (0, 1, ...)."""
    return DataType("union", fields=tuple(Field(str(tag), t) for tag, t in enumerate(alternatives)))


def decimal_min_bytes(precision: int) -> int:
    """Smallest n with 2^(8n-1) - 1 >= 10^precision - 1 (LogicalTypes.md, "DECIMAL")."""
    n = 1
    while 2 ** (8 * n - 1) - 1 < 10**precision - 1:
        n += 1
    return n

