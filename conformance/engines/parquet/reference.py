"""The reference implementation (`reference_impl.parquet`) as an engine.

This adapter only translates:

- canonical types <-> the Parquet schema tree (`reference_impl.parquet.schema.tree`):
  scalar kinds become leaves with their LogicalType and the ConvertedType
  fallback (LogicalTypes.md, "Compatibility"); LIST and MAP become
  `nested_logical.list_node`/`map_node` in the layout `WriteOptions.nested_style`
  asks for ("standard" is the 3-level list and the standard map; each legacy
  style applies to the kind it names, the other kind stays standard); struct is
  a group (annotated FILE when the canonical struct is, `file_type.file_node`, read back
  as the struct of its fields); VARIANT is its group of two REQUIRED binaries `metadata` and `value`
  annotated VARIANT (LogicalTypes.md, "VARIANT", unshredded), or, for a column of
  `WriteOptions.variant_shredding`, with the `typed_value` of its shredding schema,
  each value shredded into it (VariantShredding.md, 'Value Shredding'); reading takes
  shredded variants, reassembled; both by `reference_impl.parquet.schema.variant_shredding`;
- canonical values <-> physical values via `reference_impl.parquet.schema.logical_values`,
  and rows <-> records via `nested_logical.records_from_logical`/`records_to_logical`;
- `WriteOptions` -> `reference_impl.parquet.writer_options.WriterOptions`, field by field.

Reading derives the reader's view of every column from the file's own schema
tree (its logical shape: which groups are lists, maps, structs, variants),
never from the case. It is lenient (`reference_impl.common.leniency`, docs/lenient-readings.md):
a file that breaks a rule with a single reading is read, and `read_with_breaches`
names every rule it breaks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import islice
from pathlib import Path
from typing import Any

from conformance.cases import Case, WriteOptions
from conformance.cases.encryption_options import EncryptionOptions
from conformance.cases.model import CODECS, EMPTY_ROW_GROUPS_TAG, ENCODINGS
from conformance.cases.predicate import Predicate
from conformance.kms.case_keys import (
    FOOTER_MASTER_KEY,
    FOOTER_ROLE,
    column_role,
    explicit_key,
    explicit_key_name,
    master_key_for_column,
    wrapped_key_material,
)
from conformance.kms.file_keys import case_decryption
from conformance.values import DataType, Field, Schema, Table
from conformance.values import types as T
from conformance.values.codec import uuid_from_bytes, uuid_to_bytes
from reference_impl.common.leniency import reading
from reference_impl.parquet.encodings.values import check_value_encoding
from reference_impl.parquet.encryption.nonces import DeterministicRandomness, Randomness, SystemRandomness
from reference_impl.parquet.encryption.properties import (
    FileDecryptionProperties,
    FileEncryptionProperties,
)
from reference_impl.parquet.errors import CorruptMetadata, ParquetError
from reference_impl.parquet.file_references import file_references as resolve_file_references
from reference_impl.parquet.indexes.pruning import Predicate as ScanPredicate
from reference_impl.parquet.indexes.pruning import scan
from reference_impl.parquet.metadata import parquet_thrift as M
from reference_impl.parquet.metadata.unknown_enum_values import enum_name, unknown_converted_type
from reference_impl.parquet.reader import ParquetContents, open_parquet, read_parquet
from reference_impl.parquet.schema import logical_values as LV
from reference_impl.parquet.schema.file_type import file_node, is_file
from reference_impl.parquet.schema.nested_types import (
    ListShape,
    MapShape,
    PrimitiveShape,
    Shape,
    StructShape,
    list_node,
    logical_shape,
    map_node,
    records_from_logical,
    to_logical,
)
from reference_impl.parquet.schema.tree import SchemaNode, group, leaf, root
from reference_impl.parquet.schema.variant_shredding import (
    VariantLayout,
    is_variant,
    reconstruct_variant,
    shred_variant,
    shredded_array,
    shredded_object,
    shredded_primitive,
    variant_layout,
    variant_node,
)
from reference_impl.parquet.validation.validate import Finding
from reference_impl.parquet.validation.validate import validate as validate_file
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import (
    DEFAULT_BLOOM_FILTER_FPP,
    DICTIONARY_ENCODINGS,
    WriterOptions,
)

from ..base import Capabilities, Unsupported
from ..reference import ReadOptions, ReferenceAdapter
from ._parquet_leaves import leaves

CREATED_BY = "columnar-conformance reference_impl"
CONVERTED_ROWS = 1 << 16  # rows converted at a time by a streamed read (`canonical_batches`)
_NOT_YET = "the reference implementation does not implement this yet"

_FEATURES = ("physical:*", "type:*", "repetition:*", *(f"encoding:{e}" for e in ENCODINGS),
             *(f"codec:{c}" for c in CODECS), "page:v1", "page:v2", "pages:multiple",
             "row_groups:*", "rows:*", "nulls:*", "dictionary:fallback", "levels:*",
             "page_v2:is_compressed=false", "legacy:*", "statistics", "statistics:*", "page_index",
             "bloom", "crc", "predicate", "lie:*", "encryption:*", "variant:shredded",
             "column_order:*", "thrift:extension", EMPTY_ROW_GROUPS_TAG)
CAPABILITIES = Capabilities(writes=_FEATURES, reads=_FEATURES)

_UNITS = {"ms": "MILLIS", "us": "MICROS", "ns": "NANOS"}
_REQUIRED, _OPTIONAL = M.FieldRepetitionType.REQUIRED, M.FieldRepetitionType.OPTIONAL
# WriteOptions.nested_style -> (list style, map style) of nested_logical.
_LIST_STYLES = {"standard": "three_level", "two_level": "two_level", "array": "array",
                "tuple": "tuple", "unannotated": "unannotated"}
_MAP_STYLES = {"standard": "standard", "map_key_value": "map_key_value", "misnamed": "misnamed"}


class ReferenceEngine(ReferenceAdapter):
    capabilities = CAPABILITIES
    verdicts = ParquetError

    def __init__(self, decryption: FileDecryptionProperties | None = None,
                 verify_checksums: bool = False) -> None:
        # Keys a user hands over (`conformance read --footer-key ...`); without them,
        # encrypted files are opened with the cases' test keys, resolved as the footer is
        # read (`conformance.kms.file_keys.case_decryption`).
        self.decryption = decryption
        self.verify_checksums = verify_checksums

    @classmethod
    def with_read_options(cls, options: ReadOptions) -> ReferenceEngine:
        return cls(explicit_decryption(options), options.verify_checksums)

    def _decryption(self, path: Path) -> FileDecryptionProperties:
        return self.decryption or case_decryption(path)

    def randomness(self, case: Case) -> Randomness:
        """Where an encrypted file's keys, nonces and file id come from."""
        return SystemRandomness()

    def write(self, case: Case, path: Path) -> None:
        options = case.parquet_options
        tree = root([_top_node(f, options) for f in case.schema])
        writer_options = writer_options_for(case, f"{CREATED_BY} {self.version}")
        if options.encryption is not None:
            encryption = encryption_properties(options.encryption, path, self.randomness(case))
            writer_options = replace(writer_options, encryption=encryption)
        shredded = _shredded_layouts(tree, options)
        rows = [{f.name: _top_raw(f, v, shredded, f"row {i}") for f, v in zip(case.schema, row, strict=True)}
                for i, row in enumerate(case.rows)]
        write_table(path, tree, records_from_logical(tree, rows), writer_options)

    def read_filtered(self, path: Path, predicate: Predicate) -> Table:
        """The rows `reference_impl.parquet.indexes.pruning.scan` finds, pruning with every
        structure the file has (statistics, page index, Bloom filters); read leniently."""
        table = self.read(path)
        column_type = next(f.type for f in table.schema if f.name == predicate.column)
        physical = _to_physical(column_type, predicate.value)
        with reading():
            found = scan(path, ScanPredicate(predicate.column, predicate.op, physical),
                         decryption=self._decryption(path))
        return Table(table.schema, tuple(table.rows[row] for row in found.rows))

    def read_contents(self, path: Path) -> ParquetContents:
        return read_parquet(path, decryption=self._decryption(path),
                            verify_checksums=self.verify_checksums)

    def open_parts(self, path: Path) -> tuple[ParquetContents, Iterator[ParquetContents]]:
        row_groups = open_parquet(path, decryption=self._decryption(path),
                                  verify_checksums=self.verify_checksums)
        return row_groups.joined([]), iter(row_groups)

    def records(self, path: Path) -> list[dict[str, Any]]:
        return read_parquet(path, decryption=self.decryption,
                            verify_checksums=self.verify_checksums).records

    def canonical_table(self, contents: ParquetContents) -> Table:
        """The file's own schema tree gives each column's canonical type; its records, made
        logical (`to_logical`), the canonical values."""
        schema, convert = _row_converter(contents.schema)
        return Table(schema, tuple(convert(row, record) for row, record in enumerate(contents.records)))

    def canonical_batches(self, contents: ParquetContents) -> Iterator[Table]:
        """The records converted CONVERTED_ROWS at a time, a flat schema's built as they
        are converted (`ParquetContents.iter_records`)."""
        schema, convert = _row_converter(contents.schema)
        numbered = enumerate(contents.iter_records())
        while rows := tuple(convert(row, record) for row, record in islice(numbered, CONVERTED_ROWS)):
            yield Table(schema, rows)


def _row_converter(tree: SchemaNode) -> tuple[Schema, Callable[[int, dict[str, Any]], tuple[Any, ...]]]:
    """The canonical schema of the file's own schema tree, and the canonical row of its
    record number ``row``."""
    shape = logical_shape(tree)
    fields = [_canonical_field(s) for s in shape.fields]

    def convert(row: int, record: dict[str, Any]) -> tuple[Any, ...]:
        logical = to_logical(shape, record)
        return tuple(_from_raw(f.type, logical[f.name], s, f"row {row}")
                     for f, s in zip(fields, shape.fields, strict=True))

    return Schema(tuple(fields)), convert


class GoldenReferenceEngine(ReferenceEngine):
    """TEST ONLY: the reference writer of the golden corpus. Encrypted files draw their
    data keys, wrapping nonces, page nonces and file id from a seed (the case id), so
    regenerating the corpus gives the same bytes; never use such files for real data."""

    SEED_PREFIX = b"columnar-conformance golden corpus: "

    def randomness(self, case: Case) -> Randomness:
        return DeterministicRandomness(self.SEED_PREFIX + case.id.encode())


def encryption_properties(e: EncryptionOptions, path: Path,
                          randomness: Randomness | None = None) -> FileEncryptionProperties:
    """The case's encryption with its test keys (`conformance.kms.case_keys`): explicit
    keys named in key_metadata, or data keys drawn from `randomness` and wrapped by the
    test KMS."""
    randomness = randomness or SystemRandomness()
    roles = {column: column_role(column) for column in e.column_keys}
    if e.key_management == "explicit":
        footer_key = explicit_key(FOOTER_ROLE, e.key_bits)
        footer_metadata = explicit_key_name(FOOTER_ROLE, e.key_bits).encode()
        column_keys = {c: explicit_key(role, e.key_bits) for c, role in roles.items()}
        column_metadata = {c: explicit_key_name(role, e.key_bits).encode() for c, role in roles.items()}
    else:
        double = e.key_management == "kms_double"
        footer_key = randomness.secret(e.key_bits // 8)
        footer_metadata = wrapped_key_material(footer_key, FOOTER_MASTER_KEY, is_footer_key=True,
                                               double_wrapping=double, secret=randomness.secret)
        column_keys = {c: randomness.secret(e.key_bits // 8) for c in e.column_keys}
        column_metadata = {c: wrapped_key_material(column_keys[c], master_key_for_column(i),
                                                   is_footer_key=False, double_wrapping=double,
                                                   secret=randomness.secret)
                           for i, c in enumerate(e.column_keys)}
    return FileEncryptionProperties(
        algorithm=e.algorithm, footer_key=footer_key, footer_key_metadata=footer_metadata,
        column_keys=column_keys, column_key_metadata=column_metadata,
        plaintext_footer=e.footer == "plaintext", aad_prefix=e.aad_prefix_for(path),
        store_aad_prefix=e.store_aad_prefix, randomness=randomness)


def validate(path: Path, decryption: FileDecryptionProperties | None = None) -> list[Finding]:
    """The reference validator's findings on the file at `path`, opened with `decryption`
    or, without it, the suite's keys (`case_decryption`): the format's validator entry
    point (conformance.formats)."""
    return validate_file(path, decryption=decryption or case_decryption(path))


def file_references(path: Path, decryption: FileDecryptionProperties | None = None) -> list[dict[str, Any]]:
    """Every non-null FILE value of the file, resolved (`reference_impl.parquet.file_references`):
    where it is, what it resolves to, and the bytes when the reference has them (inline, or a
    self-reference inside the file; hex), as JSON objects."""
    return [{"row_group": ref.row_group, "row": ref.row, "column": ref.column,
             "resolves_to": ref.resolution.kind, "uri": ref.resolution.uri,
             "offset": ref.resolution.offset, "size": ref.resolution.size,
             "bytes": None if ref.resolution.data is None else ref.resolution.data.hex()}
            for ref in resolve_file_references(path, decryption=decryption or case_decryption(path))]


def explicit_decryption(options: ReadOptions) -> FileDecryptionProperties | None:
    """The explicit keys of `options` (Encryption.md, '4.3 Key metadata'), or None."""
    if options.footer_key is None and not options.column_keys:
        return None
    return FileDecryptionProperties(footer_key=options.footer_key, column_keys=dict(options.column_keys))


def writer_options_for(case: Case, created_by: str) -> WriterOptions:
    """`WriteOptions` as `WriterOptions`; Unsupported when an encoding does not apply
    to a column's physical type (the spec defines it for other types only)."""
    o: WriteOptions = case.parquet_options
    # encoding None: "each writer uses its own default"; the reference's is PLAIN.
    encoding = M.Encoding[o.encoding or "PLAIN"]
    if encoding not in DICTIONARY_ENCODINGS:
        for path, t in leaves(case.schema):
            problem = check_value_encoding(encoding, M.Type[t.physical_type])
            if problem:
                raise Unsupported(f"column {path!r}: {problem} (Encodings.md, 'Supported Encodings')")
    bloom_fpp = DEFAULT_BLOOM_FILTER_FPP if o.bloom_filter_fpp is None else o.bloom_filter_fpp
    return WriterOptions(
        encoding=encoding, dictionary_size_limit=o.dictionary_size_limit,
        codec=M.CompressionCodec[o.codec], page_version=o.page_version,
        v2_is_compressed=o.v2_is_compressed, level_encoding=M.Encoding[o.level_encoding],
        page_row_limit=o.page_row_limit, row_group_size=o.row_group_size,
        empty_row_groups=o.empty_row_groups, created_by=created_by,
        # None ("the writer's default"): the reference writes statistics, not the rest.
        statistics=o.statistics is not False, statistics_truncate_length=o.statistics_truncate_length,
        page_index=bool(o.page_index), page_checksum=bool(o.page_checksum),
        bloom_filter_columns=frozenset(o.bloom_filter_columns), bloom_filter_ndv=o.bloom_filter_ndv,
        bloom_filter_fpp=bloom_fpp, lies=frozenset(o.lies), column_orders=dict(o.column_orders),
        thrift_extensions=frozenset(o.thrift_extensions))


# ---- canonical type -> Parquet schema -------------------------------------------

def _time_unit(unit: str) -> M.TimeUnit:
    match unit:
        case "ms":
            return M.TimeUnit(MILLIS=M.MilliSeconds())
        case "us":
            return M.TimeUnit(MICROS=M.MicroSeconds())
        case "ns":
            return M.TimeUnit(NANOS=M.NanoSeconds())
    raise ValueError(f"unknown time unit {unit!r}")


def _logical_type(t: DataType) -> M.LogicalType | None:
    match t.kind:
        case "int":
            return M.LogicalType(INTEGER=M.IntType(bitWidth=t.bit_width, isSigned=t.is_signed))
        case "string":
            return M.LogicalType(STRING=M.StringType())
        case "enum":
            return M.LogicalType(ENUM=M.EnumType())
        case "json":
            return M.LogicalType(JSON=M.JsonType())
        case "bson":
            return M.LogicalType(BSON=M.BsonType())
        case "uuid":
            return M.LogicalType(UUID=M.UUIDType())
        case "float" if t.bits == 16:
            return M.LogicalType(FLOAT16=M.Float16Type())
        case "decimal":
            return M.LogicalType(DECIMAL=M.DecimalType(scale=t.decimal_scale, precision=t.decimal_precision))
        case "date":
            return M.LogicalType(DATE=M.DateType())
        case "time":
            return M.LogicalType(TIME=M.TimeType(isAdjustedToUTC=t.adjusted_to_utc,
                                                 unit=_time_unit(t.time_unit)))
        case "timestamp":
            return M.LogicalType(TIMESTAMP=M.TimestampType(isAdjustedToUTC=t.adjusted_to_utc,
                                                           unit=_time_unit(t.time_unit)))
        case "unknown":
            return M.LogicalType(UNKNOWN=M.NullType())
        case "geometry":
            return M.LogicalType(GEOMETRY=M.GeometryType(crs=t.crs))
        case "geography":
            algorithm = None if t.algorithm is None else M.EdgeInterpolationAlgorithm[t.algorithm]
            return M.LogicalType(GEOGRAPHY=M.GeographyType(crs=t.crs, algorithm=algorithm))
    return None


def _repetition(nullable: bool) -> M.FieldRepetitionType:
    return _OPTIONAL if nullable else _REQUIRED


def _node(f: Field, style: str, name: str | None = None) -> SchemaNode:
    """The schema field for canonical field `f`, nested layouts in `style`."""
    t, name, repetition = f.type, name or f.name, _repetition(f.nullable)
    try:
        match t.kind:
            case "list":
                return list_node(name, _node(t.list_element, style), repetition=repetition,
                                 style=_LIST_STYLES.get(style, "three_level"))
            case "map":
                return map_node(name, _node(t.map_key, style), _node(t.map_value, style),
                                repetition=repetition, style=_MAP_STYLES.get(style, "standard"))
            case "struct" if t.annotation == T.FILE_ANNOTATION:
                return file_node(name, [c.name for c in t.fields], repetition=repetition)
            case "struct":
                return group(name, [_node(c, style) for c in t.fields], repetition=repetition)
            case "variant":
                return variant_node(name, repetition=repetition)
    except ValueError as exc:  # a legacy layout that cannot hold this type
        raise Unsupported(f"field {name!r} in nested style {style!r}: {exc}") from exc
    # INTERVAL has no LogicalType member: only the ConvertedType says it (LogicalTypes.md);
    # every other ConvertedType is derived from the LogicalType by `leaf`.
    converted = {"converted_type": M.ConvertedType.INTERVAL} if t.kind == "interval" else {}
    return leaf(name, M.Type[t.physical_type], repetition=repetition,
                type_length=t.length if t.physical == "FIXED_LEN_BYTE_ARRAY" else None,
                logical_type=_logical_type(t), scale=t.scale, precision=t.precision, **converted)


# ---- shredded VARIANT (WriteOptions.variant_shredding) ---------------------------

_INTEGER = {bits: M.LogicalType(INTEGER=M.IntType(bitWidth=bits, isSigned=True)) for bits in (8, 16)}
_MICROS, _NANOS = M.TimeUnit(MICROS=M.MicroSeconds()), M.TimeUnit(NANOS=M.NanoSeconds())
# A shredding schema's primitive names -> (physical type, annotations): the rows of
# VariantShredding.md, 'Shredded Value Types'.
_SHREDDED_PRIMITIVES: dict[str, tuple[M.Type, dict[str, Any]]] = {
    "boolean": (M.Type.BOOLEAN, {}), "int8": (M.Type.INT32, {"logical_type": _INTEGER[8]}),
    "int16": (M.Type.INT32, {"logical_type": _INTEGER[16]}), "int32": (M.Type.INT32, {}),
    "int64": (M.Type.INT64, {}), "float": (M.Type.FLOAT, {}), "double": (M.Type.DOUBLE, {}),
    "date": (M.Type.INT32, {"logical_type": M.LogicalType(DATE=M.DateType())}),
    "time": (M.Type.INT64, {"logical_type": M.LogicalType(
        TIME=M.TimeType(isAdjustedToUTC=False, unit=_MICROS))}),
    **{f"timestamp{zone}({digits})": (M.Type.INT64, {"logical_type": M.LogicalType(
        TIMESTAMP=M.TimestampType(isAdjustedToUTC=zone == "tz", unit=unit))})
       for zone in ("tz", "ntz") for digits, unit in (("6", _MICROS), ("9", _NANOS))},
    "binary": (M.Type.BYTE_ARRAY, {}),
    "string": (M.Type.BYTE_ARRAY, {"logical_type": M.LogicalType(STRING=M.StringType())}),
    "uuid": (M.Type.FIXED_LEN_BYTE_ARRAY, {"type_length": 16,
                                           "logical_type": M.LogicalType(UUID=M.UUIDType())}),
}


def _typed_value(shredding: Any) -> SchemaNode:
    """The ``typed_value`` of a shredding schema (`WriteOptions.variant_shredding`)."""
    if isinstance(shredding, str):
        physical, annotations = _SHREDDED_PRIMITIVES[shredding]
        return shredded_primitive(physical, **annotations)
    if "array" in shredding:
        return shredded_array(_typed_value(shredding["array"]))
    return shredded_object({name: _typed_value(c) for name, c in shredding["object"].items()})


def _top_node(f: Field, options: WriteOptions) -> SchemaNode:
    if f.name in options.variant_shredding:
        typed_value = _typed_value(options.variant_shredding[f.name])
        return variant_node(f.name, repetition=_repetition(f.nullable), typed_value=typed_value)
    return _node(f, options.nested_style)


def _shredded_layouts(tree: SchemaNode, options: WriteOptions) -> dict[str, VariantLayout]:
    shapes = {s.node.name: s for s in logical_shape(tree).fields}
    return {name: variant_layout(shapes[name], f"field {name!r}")  # type: ignore[arg-type]
            for name in options.variant_shredding}


def _top_raw(f: Field, v: Any, shredded: dict[str, VariantLayout], where: str) -> Any:
    if f.name in shredded:
        return shred_variant(shredded[f.name], v, f"{where}, column {f.name!r}")
    return _to_raw(f.type, v)


def _to_raw(t: DataType, v: Any) -> Any:
    """A canonical value as the logical value `records_from_logical` takes:
    physical leaves, lists, (key, value) lists, dicts; a variant as its group."""
    if v is None:
        return None
    match t.kind:
        case "list":
            return [_to_raw(t.list_element.type, e) for e in v]
        case "map":
            return [(_to_raw(t.map_key.type, k), _to_raw(t.map_value.type, x)) for k, x in v]
        case "struct":
            return {c.name: _to_raw(c.type, v[c.name]) for c in t.fields}
        case "variant":
            return {"metadata": v[0], "value": v[1]}
    return _to_physical(t, v)


def _to_physical(t: DataType, v):
    if v is None:
        return None
    match t.kind:
        case "int" if not t.signed:
            return LV.from_unsigned(v, t.bit_width)
        case "int96":
            return LV.nanos_to_int96(v)
        case "float" if t.bits == 16:
            return LV.float16_to_bytes(v)
        case "decimal" if t.physical in ("FIXED_LEN_BYTE_ARRAY", "BYTE_ARRAY"):
            return LV.decimal_to_bytes(v, t.length if t.physical == "FIXED_LEN_BYTE_ARRAY" else None)
        case "string" | "enum" | "json":
            return v.encode("utf-8")
        case "uuid":
            return uuid_to_bytes(v)
        case "interval":
            return LV.interval_to_bytes(v)
    return v


# ---- Parquet schema -> canonical type (the reader's own view) --------------------

def _canonical_field(shape: Shape, name: str | None = None) -> Field:
    node = shape.node
    return Field(name or node.name, _canonical_shape_type(shape), node.repetition == _OPTIONAL)


def _canonical_shape_type(shape: Shape) -> DataType:
    """What a field means, from the shape the file's schema tree gives it."""
    node = shape.node
    if isinstance(shape, PrimitiveShape):
        return canonical_type(node)
    if isinstance(shape, ListShape):
        return DataType("list", element=_canonical_field(shape.element, "element"))
    if isinstance(shape, MapShape):
        if shape.value is None:
            raise Unsupported(f"field {node.name!r}: a map without values (a set of keys) has no "
                              f"canonical form")
        return DataType("map", key=_canonical_field(shape.key, "key"),
                        value=_canonical_field(shape.value, "value"))
    assert isinstance(shape, StructShape)
    if is_variant(node):
        variant_layout(shape, f"field {node.name!r}")  # CorruptMetadata for a layout it cannot read
        return T.variant()
    annotation = T.FILE_ANNOTATION if is_file(node) else None
    return DataType("struct", fields=tuple(_canonical_field(f) for f in shape.fields), annotation=annotation)


def _from_raw(t: DataType, v: Any, shape: Shape, where: str) -> Any:
    """A logical value (`to_logical`, physical leaves) of `shape` as a canonical value of `t`;
    a VARIANT group is reassembled from its shredded columns (`variant_shredding`), `where`
    naming the row in its errors."""
    if v is None:
        return None
    match t.kind:
        case "list":
            assert isinstance(shape, ListShape)
            return [_from_raw(t.list_element.type, e, shape.element, where) for e in v]
        case "map":
            assert isinstance(shape, MapShape) and shape.value is not None
            return [(_from_raw(t.map_key.type, k, shape.key, where),
                     _from_raw(t.map_value.type, x, shape.value, where)) for k, x in v]
        case "struct":
            assert isinstance(shape, StructShape)
            return {c.name: _from_raw(c.type, v[c.name], s, where)
                    for c, s in zip(t.fields, shape.fields, strict=True)}
        case "variant":
            assert isinstance(shape, StructShape)
            return reconstruct_variant(variant_layout(shape, f"field {shape.node.name!r}"), v, where)
    return _from_physical(t, v)


# Keyed by the ConvertedType's number: a file may carry one this reader has no name for.
_CONVERTED_INTS: dict[int, tuple[int, bool]] = {
    M.ConvertedType.INT_8: (8, True), M.ConvertedType.INT_16: (16, True),
    M.ConvertedType.INT_32: (32, True), M.ConvertedType.INT_64: (64, True),
    M.ConvertedType.UINT_8: (8, False), M.ConvertedType.UINT_16: (16, False),
    M.ConvertedType.UINT_32: (32, False), M.ConvertedType.UINT_64: (64, False),
}
_CONVERTED_TEMPORAL: dict[int, tuple[str, str]] = {
    M.ConvertedType.TIME_MILLIS: ("time", "ms"), M.ConvertedType.TIME_MICROS: ("time", "us"),
    M.ConvertedType.TIMESTAMP_MILLIS: ("timestamp", "ms"),
    M.ConvertedType.TIMESTAMP_MICROS: ("timestamp", "us"),
}
_CONVERTED_BYTES: dict[int, str] = {M.ConvertedType.UTF8: "string", M.ConvertedType.ENUM: "enum",
                    M.ConvertedType.JSON: "json", M.ConvertedType.BSON: "bson"}


def canonical_type(c: SchemaNode) -> DataType:
    """What a column means, from its LogicalType, else its ConvertedType, else its physical type
    (also for a ConvertedType this reader does not know: a named breach, see
    `unknown_converted_type`)."""
    physical = M.Type(c.leaf_type).name
    logical = c.logical_type
    if logical is not None and logical.kind is not None:
        return _from_logical(c, logical, physical)
    return _from_converted(c, physical) or _from_physical_type(c, physical)


def _from_logical(c: SchemaNode, logical: M.LogicalType, physical: str) -> DataType:
    lt = logical.member
    match logical.kind:
        case "INTEGER":
            return T.integer(lt.bitWidth, lt.isSigned, physical)
        case "STRING" | "ENUM" | "JSON" | "BSON":
            return DataType(logical.kind.lower(), physical)
        case "UUID":
            return T.uuid()
        case "FLOAT16":
            return T.floating(16)
        case "DECIMAL":
            return T.decimal(lt.precision, lt.scale, physical, c.type_length)
        case "DATE":
            return T.date()
        case "TIME" | "TIMESTAMP":
            unit = {v: k for k, v in _UNITS.items()}[lt.unit.kind]
            return DataType(logical.kind.lower(), physical, unit=unit,
                            utc=lt.isAdjustedToUTC)
        case "UNKNOWN":
            return DataType("unknown", physical)
        case "GEOMETRY":
            return T.geometry(lt.crs)
        case "GEOGRAPHY":
            edges = lt.algorithm
            algorithm = None if edges is None else enum_name(M.EdgeInterpolationAlgorithm, edges)
            return T.geography(lt.crs, algorithm)
    raise Unsupported(f"column {c.name!r}: logical type {logical.kind}: {_NOT_YET}")


def _from_converted(c: SchemaNode, physical: str) -> DataType | None:
    ct = c.converted_type
    if ct is None or unknown_converted_type(ct, f"column {c.name!r}"):
        return None
    if ct in _CONVERTED_INTS:
        return T.integer(*_CONVERTED_INTS[ct], physical)
    if ct in _CONVERTED_TEMPORAL:
        kind, unit = _CONVERTED_TEMPORAL[ct]
        # LogicalTypes.md: the deprecated ConvertedTypes mean isAdjustedToUTC = true.
        return DataType(kind, physical, unit=unit, utc=True)
    if ct in _CONVERTED_BYTES:
        return DataType(_CONVERTED_BYTES[ct], physical)
    if ct == M.ConvertedType.DECIMAL:
        precision, scale = _declared(c, c.precision, "precision"), _declared(c, c.scale, "scale")
        return T.decimal(precision, scale, physical, c.type_length)
    if ct == M.ConvertedType.DATE:
        return T.date()
    if ct == M.ConvertedType.INTERVAL:
        return T.interval()
    raise Unsupported(f"column {c.name!r}: converted type {enum_name(M.ConvertedType, ct)}: {_NOT_YET}")


def _from_physical_type(c: SchemaNode, physical: str) -> DataType:
    match physical:
        case "BOOLEAN":
            return T.boolean()
        case "INT32":
            return T.integer(32)
        case "INT64":
            return T.integer(64)
        case "INT96":
            return T.int96()
        case "FLOAT":
            return T.floating(32)
        case "DOUBLE":
            return T.floating(64)
        case "BYTE_ARRAY":
            return T.binary()
        case "FIXED_LEN_BYTE_ARRAY":
            return T.fixed(_declared(c, c.type_length, "type_length"))
    raise Unsupported(f"column {c.name!r}: physical type {physical}")


def _declared(c: SchemaNode, value: int | None, what: str) -> int:
    """A number the column's type needs (parquet.thrift `struct SchemaElement`)."""
    if value is None:
        raise CorruptMetadata(f"column {c.name!r}: its type needs a {what}, the schema has none")
    return value


def _from_physical(t: DataType, v):
    if v is None:
        return None
    match t.kind:
        case "int" if not t.signed:
            return LV.to_unsigned(v, t.bit_width)
        case "int96":
            return LV.int96_to_nanos(v)
        case "float" if t.bits == 16:
            return LV.float16_from_bytes(v)
        case "decimal" if isinstance(v, bytes):
            return LV.decimal_from_bytes(v)
        case "string" | "enum" | "json":
            return v.decode("utf-8")  # read_parquet raised InvalidValue for one that is not UTF-8
        case "uuid":
            return uuid_from_bytes(v)
        case "interval":
            return LV.interval_from_bytes(v)
    return v
