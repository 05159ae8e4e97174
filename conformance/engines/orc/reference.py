"""The reference implementation as an ORC engine (reference_impl/orc).

The case's canonical schema becomes an ORC type tree (`conformance.cases.orc.types`
names the kind of each canonical type), its options the reference writer's
`OrcWriterOptions`, one for one: the reference writes every knob of the abstract
options, including the RLE v2 sub-encoding only it can force. Reading gives the
canonical table directly: the reference's values are canonical values
(docs/canonical-values.md), and the canonical type of each column is read from the
file's own type tree. Encrypted columns are read with the suite's test keys
(conformance/kms/orc_keys.py), or the keys given. A filtered read prunes with the file's
statistics, row index and Bloom filters, trusting them as
`reference_impl/orc/row_group_pruning.py` says.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from conformance.cases import Case
from conformance.cases.orc import types as orc_types
from conformance.cases.orc.options import OrcWriteOptions
from conformance.cases.predicate import Predicate
from conformance.formats import ORC
from conformance.kms.orc_keys import ENCRYPTION_SEED, ORC_TEST_KEYS, test_key_provider
from conformance.values import DataType, Field, Schema, Table
from reference_impl.common.leniency import reading
from reference_impl.orc.encodings.int_rle_v2 import SubEncoding
from reference_impl.orc.encryption.encryption_keys import KeyProvider
from reference_impl.orc.encryption.encryption_variants import ColumnEncryption
from reference_impl.orc.errors import OrcError
from reference_impl.orc.metadata import type_tree
from reference_impl.orc.metadata.proto_enums import (
    CalendarKind,
    CompressionKind,
    EdgeInterpolationAlgorithm,
    TypeKind,
)
from reference_impl.orc.metadata.type_tree import TypeNode
from reference_impl.orc.reader import OrcContents, open_orc, read_orc
from reference_impl.orc.row_group_pruning import Predicate as RowPredicate
from reference_impl.orc.row_group_pruning import filtered_rows
from reference_impl.orc.validation.findings import Finding
from reference_impl.orc.validation.validate import validate as validate_orc
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions

from ..base import Capabilities, converting
from ..reference import ReferenceAdapter

# Every string column DIRECT or DICTIONARY, through the writers' common knob: a column is
# dictionary encoded when its distinct / non-null ratio is at most the threshold.
STRING_ENCODING_THRESHOLDS = {"DIRECT": 0.0, "DICTIONARY": 1.0}


class OrcReferenceEngine(ReferenceAdapter):
    format = ORC
    capabilities = Capabilities(writes=("*",), reads=("*",))
    verdicts = OrcError

    def write(self, case: Case, path: Path) -> None:
        """A bare_root case's one column is the root; its rows are dicts of ROOT_COLUMN, the
        reference's ROOT_FIELD (conformance/cases/orc/options.py)."""
        columns = [(f.name, orc_type(f.type)) for f in case.schema]
        schema = columns[0][1] if case.orc_options.bare_root else type_tree.struct(columns)
        rows = [dict(zip(case.schema.names, row, strict=True)) for row in case.rows]
        path.write_bytes(write_orc(schema, rows, writer_options(case.orc_options, self.version)))

    def __init__(self, keys: KeyProvider | None = None) -> None:
        self.keys = test_key_provider() if keys is None else keys

    def read_contents(self, path: Path) -> OrcContents:
        return read_orc(path, self.keys)

    def open_parts(self, path: Path) -> tuple[OrcContents, Iterator[OrcContents]]:
        stripes = open_orc(path, self.keys)
        return stripes.joined([]), iter(stripes)

    def records(self, path: Path) -> list[dict[str, Any]]:
        return read_orc(path, self.keys).rows

    def canonical_table(self, contents: OrcContents) -> Table:
        return rows_table(contents.schema, contents.rows)

    def read_filtered(self, path: Path, predicate: Predicate) -> Table:
        """The rows `reference_impl.orc.row_group_pruning.filtered_rows` finds, skipping
        stripes and row groups with every structure the file has (statistics, row index,
        Bloom filters) and reading the rest through the row index; read leniently. The
        canonical values are the reader's (the predicate's value is one as it is)."""
        with reading():
            found = filtered_rows(path, RowPredicate(predicate.column, predicate.op, predicate.value))
            with converting(self.name, verdicts=(self.verdicts,)):
                return rows_table(found.schema, found.rows)


def rows_table(schema: TypeNode, rows: list[dict[str, Any]]) -> Table:
    """The reader's rows of the root STRUCT `schema` as a canonical table: the file's own
    type tree gives each column's canonical type; the reader's values are canonical values
    already (docs/canonical-values.md)."""
    fields = tuple(Field(name, canonical_type(node))
                   for name, node in zip(schema.field_names, schema.children, strict=True))
    return Table(Schema(fields), tuple(tuple(row[f.name] for f in fields) for row in rows))


def writer_options(options: OrcWriteOptions, version: str) -> OrcWriterOptions:
    """The reference writer's options for a case's abstract ones; None keeps its default."""
    default = OrcWriterOptions()
    threshold = (default.dictionary_key_threshold if options.string_encoding is None
                 else STRING_ENCODING_THRESHOLDS[options.string_encoding])
    return OrcWriterOptions(
        file_version=options.file_version,
        compression=CompressionKind[options.codec],
        compression_block_size=options.compression_block_size or default.compression_block_size,
        stripe_row_limit=options.stripe_row_limit, empty_stripes=options.empty_stripes,
        row_index_stride=(default.row_index_stride if options.row_index_stride is None
                          else options.row_index_stride),
        dictionary_key_threshold=threshold,
        rle_v2_sub_encoding=(None if options.rle_v2_sub_encoding is None
                             else SubEncoding[options.rle_v2_sub_encoding]),
        bloom_filter_columns=frozenset(options.bloom_filter_columns),
        bloom_filter_fpp=options.bloom_filter_fpp or default.bloom_filter_fpp,
        lies=frozenset(options.lies),
        writer_timezone=options.writer_timezone or default.writer_timezone,
        calendar=default.calendar if options.calendar is None else CalendarKind[options.calendar],
        software_version=f"columnar-conformance {version}",
        encryption=_encryption(options))


def _encryption(options: OrcWriteOptions) -> ColumnEncryption | None:
    """The case's encrypted columns with the suite's test keys, local keys from a fixed seed."""
    if not options.encrypt:
        return None
    names = sorted(set(options.encrypt.values()))
    return ColumnEncryption(tuple(ORC_TEST_KEYS[name] for name in names), dict(options.encrypt),
                            dict(options.masks), seed=ENCRYPTION_SEED)


def validate(path: Path, decryption: KeyProvider | None = None) -> list[Finding]:
    """The reference validator's findings on the ORC file at `path`: the format's validator
    entry point (conformance.formats). The validator checks the unencrypted view (what every
    reader without keys reads); with keys (`conformance validate --orc-key`), the variants
    they open are decrypted and read first, so a wrong key or altered bytes raise
    DecryptionFailed before any finding."""
    if decryption:
        read_orc(path, decryption)
    return validate_orc(path)


def orc_type(t: DataType) -> TypeNode:
    """The ORC type a canonical type is written as (`orc_types.orc_kind`)."""
    kind = TypeKind[orc_types.orc_kind(t)]
    match kind:
        case TypeKind.CHAR:
            return type_tree.char(t.byte_length)
        case TypeKind.VARCHAR:
            return type_tree.varchar(t.byte_length)
        case TypeKind.DECIMAL:
            return type_tree.decimal(t.decimal_precision, t.decimal_scale)
        case TypeKind.LIST:
            return type_tree.list_of(orc_type(t.list_element.type))
        case TypeKind.MAP:
            return type_tree.map_of(orc_type(t.map_key.type), orc_type(t.map_value.type))
        case TypeKind.STRUCT:
            return type_tree.struct([(f.name, orc_type(f.type)) for f in t.fields])
        case TypeKind.UNION:
            return type_tree.union_of(*(orc_type(f.type) for f in t.fields))
        case TypeKind.GEOMETRY:
            return type_tree.geometry(t.crs)
        case TypeKind.GEOGRAPHY:
            algorithm = None if t.algorithm is None else EdgeInterpolationAlgorithm[t.algorithm]
            return type_tree.geography(t.crs, algorithm)
    return type_tree.primitive(kind)


def canonical_type(node: TypeNode) -> DataType:
    """The canonical type of a column of the file's type tree."""
    match node.kind:
        case TypeKind.CHAR:
            return orc_types.char(_declared(node.maximum_length, node))
        case TypeKind.VARCHAR:
            return orc_types.varchar(_declared(node.maximum_length, node))
        case TypeKind.DECIMAL:
            return _decimal(node)
        case TypeKind.LIST:
            return orc_types.list_of(canonical_type(node.children[0]))
        case TypeKind.MAP:
            return orc_types.map_of(*(canonical_type(child) for child in node.children))
        case TypeKind.STRUCT:
            return orc_types.struct_of(*(Field(name, canonical_type(child)) for name, child
                                         in zip(node.field_names, node.children, strict=True)))
        case TypeKind.UNION:
            return orc_types.union_of(*(canonical_type(child) for child in node.children))
        case TypeKind.GEOMETRY:
            return orc_types.geometry(node.crs)
        case TypeKind.GEOGRAPHY:
            return orc_types.geography(node.crs, None if node.algorithm is None else node.algorithm.name)
    return _PRIMITIVES[node.kind]()


_PRIMITIVES = {
    TypeKind.BOOLEAN: orc_types.boolean,
    TypeKind.BYTE: lambda: orc_types.integer(8),
    TypeKind.SHORT: lambda: orc_types.integer(16),
    TypeKind.INT: lambda: orc_types.integer(32),
    TypeKind.LONG: lambda: orc_types.integer(64),
    TypeKind.FLOAT: lambda: orc_types.floating(32),
    TypeKind.DOUBLE: lambda: orc_types.floating(64),
    TypeKind.STRING: orc_types.string,
    TypeKind.BINARY: orc_types.binary,
    TypeKind.DATE: orc_types.date,
    TypeKind.TIMESTAMP: orc_types.timestamp,
    TypeKind.TIMESTAMP_INSTANT: orc_types.timestamp_instant,
}


def _decimal(node: TypeNode) -> DataType:
    """A 0.12 DECIMAL(precision, scale); the 0.11 decimal of unbounded precision has no
    canonical type with a precision, so it is read as the widest, DECIMAL(38, scale)."""
    precision = orc_types.MAX_DECIMAL_PRECISION if node.precision is None else node.precision
    return orc_types.decimal(precision, _declared(node.scale, node))


def _declared(value: int | None, node: TypeNode) -> int:
    if value is None:
        raise ValueError(f"{node.describe()} has no declared length or scale")
    return value
