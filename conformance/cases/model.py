"""The case model: one declarative, self-describing conformance case.

A case names what a file must contain (schema + canonical rows, the expected
values), how it should be written (abstract `WriteOptions` that each engine maps
to its own knobs or declares unsupported), which spec sections it exercises and
which feature tags it carries. Feature tags are derived from the schema and the
options, so a case cannot claim a feature it does not exercise.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from conformance.formats import DEFAULT_FORMAT, file_format
from conformance.values import DataType, Field, Schema, Table

from .encryption_options import EncryptionOptions
from .native import check_native_columns, check_native_types, native_tags, native_types_json, native_writer
from .orc.options import OrcWriteOptions
from .predicate import Predicate
from .spec_versions import SPEC_TAG_PREFIX, spec_tags

# Encodings and codecs by their parquet.thrift enum names.
ENCODINGS = ("PLAIN", "PLAIN_DICTIONARY", "RLE_DICTIONARY", "RLE", "DELTA_BINARY_PACKED",
             "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY", "BYTE_STREAM_SPLIT", "ALP")
# Additions a reader that predates them cannot read, by the feature tag that marks a case
# using one -> the addition, as a cell's detail names it. Such a case carries the tag
# FORWARD_INCOMPATIBLE_TAG, and a reader's error on it is a clean rejection, not a failure
# (conformance.matrix.execute.read_and_compare; docs/architecture.md, 'Cell outcomes').
FORWARD_INCOMPATIBLE = {
    "encoding:ALP": "the ALP encoding (Encodings.md, 'Adaptive Lossless floating-Point: (ALP = 10)')",
}
FORWARD_INCOMPATIBLE_TAG = "forward_incompatible"
# Tags that mark a case for the catalogue and the report, not features an engine needs:
# engines' capabilities are asked about the other tags only (`capability_features`). The
# ``spec:`` tags (``spec_versions``: the release that added each feature, and preview) too.
# A read cell judged against the keyless view of an encrypted case (its reader has no way
# to take keys: conformance.engines.base.Capabilities.reads_keyless) carries this tag beside
# its case's, so reports tell a masked-view read from a read with the keys.
KEYLESS_VIEW_TAG = "view:keyless"
MARKING_TAGS = frozenset({FORWARD_INCOMPATIBLE_TAG, KEYLESS_VIEW_TAG})
LEVEL_ENCODINGS = ("RLE", "BIT_PACKED")
CODECS = ("UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW")
# How LIST and MAP columns are laid out (LogicalTypes.md "Lists", "Maps", and their
# "Backward-compatibility rules"); everything but "standard" is a legacy shape.
PREDICATE_TAG = "predicate"
LIES = ("statistics", "page_index", "bloom_filter", "crc", "nan_count")
# parquet.thrift `union ColumnOrder`: the members a case may ask of a column (its min/max order).
COLUMN_ORDERS = ("TYPE_ORDER", "IEEE_754_TOTAL_ORDER", "INT96_TIMESTAMP_ORDER")
COLUMN_ORDER_TAG = "column_order:{}"
NESTED_STYLES = ("standard", "two_level", "array", "tuple", "unannotated", "map_key_value",
                 "misnamed")
# VariantShredding.md, 'Shredded Value Types': the Variant types a primitive typed_value holds.
SHREDDED_PRIMITIVES = ("boolean", "int8", "int16", "int32", "int64", "float", "double", "date",
                       "time", "timestamptz(6)", "timestampntz(6)", "timestamptz(9)",
                       "timestampntz(9)", "binary", "string", "uuid")
VARIANT_SHREDDED_TAG = "variant:shredded"
THRIFT_EXTENSION_STRUCTS = ("file_metadata", "column_metadata", "page_header")
THRIFT_EXTENSION_TAG = "thrift:extension"
# Row groups of no rows (WriteOptions.empty_row_groups). Not a `row_groups:` tag: engines
# claim those by a pattern, and few writers can make an empty row group.
EMPTY_ROW_GROUPS_TAG = "empty_row_groups"


@dataclass(frozen=True)
class WriteOptions:
    """Abstract write options (README.md, "File format", "Data Pages").

    Each engine maps them to its own knobs or declares, with the reason, that it
    cannot express them.
    """

    # Value encoding of every column; None lets each writer use its own default (for
    # cases about something else, e.g. codecs, that every writer should be able to write).
    encoding: str | None = "PLAIN"
    codec: str = "UNCOMPRESSED"
    page_version: int = 1  # 1: DataPageHeader, 2: DataPageHeaderV2
    row_group_size: int | None = None  # rows per row group; None: a single row group
    # A row group of no rows before the first, between every two and after the last.
    empty_row_groups: bool = False
    page_row_limit: int | None = None  # rows per data page; None: one page per chunk
    dictionary_size_limit: int | None = None  # bytes; past it the writer falls back to PLAIN
    level_encoding: str = "RLE"  # data page v1 definition/repetition levels
    v2_is_compressed: bool = True  # DataPageHeaderV2.is_compressed
    nested_style: str = "standard"
    # Metadata for readers to prune with (README.md, "Metadata", "Checksumming";
    # PageIndex.md and BloomFilter.md, "Technical Approach"). None / () leaves each to the writer's default.
    statistics: bool | None = None  # True: ColumnMetaData.statistics on every chunk; False: none
    statistics_truncate_length: int | None = None  # max bytes of a binary min/max bound
    page_index: bool | None = None  # True: ColumnIndex + OffsetIndex; False: neither
    bloom_filter_columns: tuple[str, ...] = ()  # top-level columns with a split-block bloom filter
    bloom_filter_ndv: int | None = None  # expected distinct values per filter
    bloom_filter_fpp: float | None = None  # target false-positive probability
    page_checksum: bool | None = None  # True: PageHeader.crc on every page; False: on none
    # TEST-ONLY: metadata the writer makes untrue on purpose, to show which readers trust
    # what (reference_impl.parquet.writer_options.LIES); only the reference writes lies.
    lies: tuple[str, ...] = ()
    # Parquet Modular Encryption (Encryption.md '3 Technical Approach'); None: a plaintext file.
    encryption: EncryptionOptions | None = None
    # Top-level VARIANT column -> its shredding schema (VariantShredding.md, 'Value
    # Shredding'): a name of SHREDDED_PRIMITIVES, {"array": <element>} or
    # {"object": {field name: <field>, ...}}; unlisted VARIANT columns are unshredded.
    variant_shredding: Mapping[str, Any] = field(default_factory=dict)
    # Top-level column -> the ColumnOrder member its statistics follow (COLUMN_ORDERS);
    # unlisted columns get each writer's default (TYPE_ORDER, for INT96 the writer's own).
    column_orders: Mapping[str, str] = field(default_factory=dict)
    # TEST-ONLY: the structs given extension bytes (BinaryProtocolExtensions.md), every one of its
    # kind in the file; readers must read the rows as without them. Only the reference writes them.
    thrift_extensions: tuple[str, ...] = ()
    # Top-level column -> the engine's own type it is written as, "<engine>:<NAME>"
    # (conformance.cases.native); such a case is written by that engine alone.
    native_types: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, value, allowed in (("encoding", self.encoding, (*ENCODINGS, None)),
                                     ("codec", self.codec, CODECS),
                                     ("page_version", self.page_version, (1, 2)),
                                     ("level_encoding", self.level_encoding, LEVEL_ENCODINGS),
                                     ("nested_style", self.nested_style, NESTED_STYLES)):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, not {value!r}")
        if self.level_encoding == "BIT_PACKED" and self.page_version != 1:
            raise ValueError("BIT_PACKED levels exist only in data page v1")
        self._check_metadata_options()
        for column, shredding in self.variant_shredding.items():
            check_shredding(shredding, f"variant_shredding[{column!r}]")
        for column, order in self.column_orders.items():
            if order not in COLUMN_ORDERS:
                raise ValueError(f"column_orders[{column!r}] must be one of {COLUMN_ORDERS}, not {order!r}")
        check_native_types(self.native_types)

    def _check_metadata_options(self) -> None:
        for name in ("statistics", "page_index", "page_checksum"):
            if not (getattr(self, name) is None or isinstance(getattr(self, name), bool)):
                raise ValueError(f"{name} must be True, False or None, not {getattr(self, name)!r}")
        for name in ("statistics_truncate_length", "bloom_filter_ndv"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                      or value < 1):
                raise ValueError(f"{name} must be a positive int, not {value!r}")
        if self.statistics_truncate_length is not None and self.statistics is False:
            raise ValueError("statistics_truncate_length needs statistics (statistics=False)")
        columns = self.bloom_filter_columns
        if not isinstance(columns, tuple) or not all(isinstance(c, str) and c for c in columns):
            raise ValueError(f"bloom_filter_columns must be a tuple of column names, not {columns!r}")
        if len(set(columns)) != len(columns):
            raise ValueError(f"bloom_filter_columns repeats a column: {columns!r}")
        fpp = self.bloom_filter_fpp
        if fpp is not None and (not isinstance(fpp, float) or not 0.0 < fpp < 1.0):
            raise ValueError(f"bloom_filter_fpp must be a float in (0, 1), not {fpp!r}")
        if not columns and (self.bloom_filter_ndv is not None or fpp is not None):
            raise ValueError("bloom_filter_ndv and bloom_filter_fpp need bloom_filter_columns")
        unknown = sorted(set(self.lies) - set(LIES))
        if not isinstance(self.lies, tuple) or unknown:
            raise ValueError(f"lies must be a tuple of {LIES}, not {self.lies!r}")
        extensions = self.thrift_extensions
        if not isinstance(extensions, tuple) or set(extensions) - set(THRIFT_EXTENSION_STRUCTS):
            raise ValueError(f"thrift_extensions must be a tuple of {THRIFT_EXTENSION_STRUCTS}, "
                             f"not {extensions!r}")

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["bloom_filter_columns"] = list(self.bloom_filter_columns)
        out["lies"] = list(self.lies)
        out["encryption"] = None if self.encryption is None else self.encryption.to_json()
        # Only when set: the documents of cases without it stay as they were.
        out.pop("variant_shredding")
        if self.variant_shredding:
            out["variant_shredding"] = dict(self.variant_shredding)
        out.pop("column_orders")
        if self.column_orders:
            out["column_orders"] = dict(self.column_orders)
        out.pop("thrift_extensions")
        out.pop("native_types")
        if self.thrift_extensions:
            out["thrift_extensions"] = list(self.thrift_extensions)
        if not self.empty_row_groups:
            out.pop("empty_row_groups")
        return {**out, **native_types_json(self.native_types)}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> WriteOptions:
        """Inverse of `to_json` (a JSON round trip included: lists back to tuples)."""
        kwargs = dict(doc)
        kwargs["bloom_filter_columns"] = tuple(doc["bloom_filter_columns"])
        kwargs["lies"] = tuple(doc["lies"])
        if doc["encryption"] is not None:
            kwargs["encryption"] = EncryptionOptions.from_json(doc["encryption"])
        kwargs["variant_shredding"] = doc.get("variant_shredding", {})  # absent before it existed
        kwargs["column_orders"] = doc.get("column_orders", {})
        kwargs["thrift_extensions"] = tuple(doc.get("thrift_extensions", ()))
        kwargs["native_types"] = doc.get("native_types", {})
        kwargs["empty_row_groups"] = doc.get("empty_row_groups", False)
        return cls(**kwargs)

    def check(self, schema: Schema) -> None:
        """ValueError for an option naming a column `schema` has not, or not of its kind."""
        by_name = {f.name: f for f in schema}
        for name in self.bloom_filter_columns:
            if name not in by_name:
                raise ValueError(f"bloom filter column {name!r} is not a top-level column of "
                                 f"the schema {list(by_name)}")
            if by_name[name].type.is_nested:
                raise ValueError(f"bloom filter column {name!r} is nested; bloom filters are per "
                                 "leaf column, name a primitive top-level column")
        for name in self.column_orders:
            if name not in by_name or by_name[name].type.is_nested:
                raise ValueError(f"column_orders column {name!r} is not a primitive top-level column "
                                 f"of the schema {list(by_name)}")
        for name in self.variant_shredding:
            if name not in by_name or by_name[name].type.kind != "variant":
                raise ValueError(f"variant_shredding column {name!r} is not a top-level VARIANT "
                                 f"column of the schema {list(by_name)}")
        check_native_columns(self.native_types, schema)
        encrypted = self.encryption.column_keys if self.encryption else ()
        for name in encrypted:
            if name not in by_name or by_name[name].type.is_nested:
                raise ValueError(f"encryption column key for {name!r}: not a primitive top-level column "
                                 f"of the schema {list(by_name)}")

    def tags(self, row_count: int) -> set[str]:
        """The feature tags these options exercise for a table of `row_count` rows."""
        tags = {f"codec:{self.codec}", f"page:v{self.page_version}"}
        if self.encoding is not None:
            tags.add(f"encoding:{self.encoding}")
        if self.row_group_size is not None and row_count > self.row_group_size:
            tags.add("row_groups:multiple")
        if self.empty_row_groups:
            tags.add(EMPTY_ROW_GROUPS_TAG)
        if self.page_row_limit is not None and row_count > self.page_row_limit:
            tags.add("pages:multiple")
        if self.dictionary_size_limit is not None:
            tags.add("dictionary:fallback")
        if self.level_encoding != "RLE":
            tags.add(f"levels:{self.level_encoding}")
        if self.page_version == 2 and not self.v2_is_compressed:
            tags.add("page_v2:is_compressed=false")
        if self.nested_style != "standard":
            tags.add(f"legacy:{self.nested_style}")
        if self.statistics is not None:
            tags.add("statistics" if self.statistics else "statistics:none")
        if self.statistics_truncate_length is not None:
            tags.add("statistics:truncate")
        if self.page_index:
            tags.add("page_index")
        if self.bloom_filter_columns:
            tags.add("bloom")
        if self.page_checksum:
            tags.add("crc")
        tags.update(f"lie:{lie}" for lie in self.lies)
        if self.encryption is not None:
            tags.update(self.encryption.tags())
        if self.variant_shredding:
            tags.add(VARIANT_SHREDDED_TAG)
        if tags & FORWARD_INCOMPATIBLE.keys():
            tags.add(FORWARD_INCOMPATIBLE_TAG)
        tags.update(COLUMN_ORDER_TAG.format(order) for order in self.column_orders.values())
        if self.thrift_extensions:
            tags.add(THRIFT_EXTENSION_TAG)
        return tags | native_tags(self.native_types)


def capability_features(features: Iterable[str]) -> tuple[str, ...]:
    """`features` but the marking tags (MARKING_TAGS): what a writer or reader must support."""
    return tuple(tag for tag in features
                 if tag not in MARKING_TAGS and not tag.startswith(SPEC_TAG_PREFIX))


def forward_incompatible_additions(features: Iterable[str]) -> list[str]:
    """The forward-incompatible additions (FORWARD_INCOMPATIBLE) a case with `features` uses."""
    return [FORWARD_INCOMPATIBLE[tag] for tag in sorted(set(features) & FORWARD_INCOMPATIBLE.keys())]


def check_shredding(shredding: Any, where: str) -> None:
    """A shredding schema (see `WriteOptions.variant_shredding`), or ValueError naming where."""
    if isinstance(shredding, str):
        if shredding not in SHREDDED_PRIMITIVES:
            raise ValueError(f"{where}: {shredding!r} is not one of {SHREDDED_PRIMITIVES}")
    elif isinstance(shredding, dict) and list(shredding) == ["array"]:
        check_shredding(shredding["array"], f"{where}.array")
    elif (isinstance(shredding, dict) and list(shredding) == ["object"]
          and isinstance(shredding["object"], dict) and shredding["object"]):
        for name, child in shredding["object"].items():
            check_shredding(child, f"{where}.object[{name!r}]")
    else:
        raise ValueError(f"{where}: a shredding schema is a primitive name, {{'array': ...}} or "
                         f"{{'object': {{name: ...}}}} with at least one field, not {shredding!r}")


@dataclass(frozen=True)
class Case:
    id: str  # "<area>/<name>", unique in the catalogue
    title: str
    spec: tuple[str, ...]  # spec sections (docs/citations.md, 'Entries'), e.g. "parquet.thrift: enum Type"
    schema: Schema
    rows: tuple[tuple[Any, ...], ...]
    # The format's write options: WriteOptions for Parquet, OrcWriteOptions for ORC.
    options: WriteOptions | OrcWriteOptions = field(default_factory=WriteOptions)
    extra_features: tuple[str, ...] = ()  # tags the schema/options cannot show, e.g. "nulls:all"
    format: str = DEFAULT_FORMAT  # a name of conformance.formats.FORMATS
    # Readers are asked for the rows matching it (Engine.read_filtered), pruning with
    # whatever metadata they use; the expected rows are `predicate.apply(expected)`.
    predicate: Predicate | None = None

    def __post_init__(self) -> None:
        self.expected.validate()
        options = file_format(self.format).options_class()
        if not isinstance(self.options, options):
            raise ValueError(f"a {self.format} case takes {options.__name__}, "
                             f"not {type(self.options).__name__}")
        self.options.check(self.schema)
        if self.predicate is not None:
            # Bound: readers get the column's type with the value (frozen, hence setattr).
            object.__setattr__(self, "predicate", self.predicate.bind(self.schema))

    @property
    def parquet_options(self) -> WriteOptions:
        """The options of a Parquet case (ValueError for another format's)."""
        if not isinstance(self.options, WriteOptions):
            raise ValueError(f"case {self.id!r} is a {self.format} case, not a Parquet one")
        return self.options

    @property
    def orc_options(self) -> OrcWriteOptions:
        """The options of an ORC case (ValueError for another format's)."""
        if not isinstance(self.options, OrcWriteOptions):
            raise ValueError(f"case {self.id!r} is a {self.format} case, not an ORC one")
        return self.options

    @property
    def filtered(self) -> Table:
        """The rows a filtered read must return: `predicate.apply(expected)`."""
        if self.predicate is None:
            raise ValueError(f"case {self.id!r} has no predicate")
        return self.predicate.apply(self.expected)

    @property
    def expected(self) -> Table:
        return Table(self.schema, self.rows)

    @functools.cached_property
    def features(self) -> tuple[str, ...]:
        # Cached: the matrix asks once per cell (about 110,000 in the main job), and deriving
        # the tags from the schema and options took half a millisecond (bench/matrix_bench.py).
        tags = set(self.extra_features)
        for f in self.schema:
            tags.update(file_format(self.format).tags_of(f))
        tags.update(self.options.tags(len(self.rows)))
        if self.predicate is not None:
            tags.add(PREDICATE_TAG)
        return tuple(sorted(tags | spec_tags(self.format, tags)))

    @property
    def native_writer(self) -> str | None:
        """The engine that alone writes this case's native columns (conformance.cases.native),
        or None when every writer may write it."""
        return native_writer(self.options.native_types)

    @property
    def write_features(self) -> tuple[str, ...]:
        """The features a writer must support: all but the read-side `predicate`, which
        asks readers for a filtered read and changes nothing in the file, and the marking
        tags (MARKING_TAGS)."""
        return tuple(tag for tag in capability_features(self.features) if tag != PREDICATE_TAG)

    def to_json(self) -> dict[str, Any]:
        out = {"id": self.id, "title": self.title, "format": self.format, "spec": list(self.spec),
               "features": list(self.features), "options": self.options.to_json()}
        if self.predicate is not None:
            out["predicate"] = self.predicate.to_json(self.schema)
        return {**out, **self.expected.to_document()}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Case:
        """Inverse of `to_json`. The document lists every feature; the extra ones are those
        the schema, options and predicate do not derive."""
        table = Table.from_document(doc)
        case = cls(doc["id"], doc["title"], tuple(doc["spec"]), table.schema, table.rows,
                   file_format(doc["format"]).options_class().from_json(doc["options"]),
                   format=doc["format"],
                   predicate=(Predicate.from_json(doc["predicate"], table.schema)
                              if "predicate" in doc else None))
        extra = tuple(sorted(set(doc["features"]) - set(case.features)))
        return dataclasses.replace(case, extra_features=extra) if extra else case


def field_tags(f: Field) -> set[str]:
    tags = {f"repetition:{'OPTIONAL' if f.nullable else 'REQUIRED'}"}
    tags.update(type_tags(f.type))
    for child in (f.type.element, f.type.key, f.type.value, *f.type.fields):
        if child is not None:
            tags.update(field_tags(child))
    return tags


def type_tags(t: DataType) -> set[str]:
    """`physical:<Type>` plus `type:<logical type>` (LogicalTypes.md names)."""
    tags = {f"physical:{t.physical}"} if t.physical else set()
    match t.kind:
        case "int":
            tags.add(f"type:INT({t.bits},{'signed' if t.signed else 'unsigned'})")
        case "decimal":
            tags.add(f"type:DECIMAL({t.physical})")
        case "time" | "timestamp":
            tags.add(f"type:{t.kind.upper()}({t.unit},{'utc' if t.utc else 'local'})")
        case "float":
            tags.add(f"type:{t.describe()}")
        case "struct" if t.annotation is not None:
            tags.update({"type:STRUCT", f"type:{t.annotation}"})
        case _:
            tags.add(f"type:{t.kind.upper()}")
    return tags


class Selectable(Protocol):
    """What `select` matches on: a case, or anything else the runner selects like one."""

    @property
    def id(self) -> str: ...

    @property
    def features(self) -> tuple[str, ...]: ...


SelectableT = TypeVar("SelectableT", bound=Selectable)


def select(cases: Iterable[SelectableT], globs: Sequence[str] = (), features: Sequence[str] = ()
           ) -> list[SelectableT]:
    """Cases whose id matches any glob (all when none) and that carry every feature pattern."""
    out = []
    for case in cases:
        if globs and not any(fnmatch.fnmatchcase(case.id, g) for g in globs):
            continue
        if not all(any(fnmatch.fnmatchcase(t, p) for t in case.features) for p in features):
            continue
        out.append(case)
    return out
