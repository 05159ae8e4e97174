"""The FILE logical type: a group that refers to a range of bytes.

Spec: LogicalTypes.md, 'FILE' (its field table, 'Fields' and 'Resolution').

Schema. "`FILE` annotates a group"; its fields are "identified by name case
sensitively, not by field order", each optional: "a writer may omit any field
from the group definition, and any field that is present has a field
repetition type of `OPTIONAL`". The field table::

    uri STRING | offset INT64 | size INT64 | content_type STRING | checksum STRING | inline BYTE_ARRAY

A reader that does not know FILE reads the group's fields (it is an annotation
on a group), and so does this reader: ``nested_types`` reads a FILE group as a
struct. :func:`schema_problems` lists what a FILE group breaks; ``validate``
reports each (``validation.file_type_checks``), the reader reads on.

Values. A field is *set* when present and non-null, "and, for string fields,
non-empty[1]"; footnote [1] adds "Implementations are not expected to treat
empty strings as null", so an empty string has two readings (:data:`EMPTY_STRING`).
:func:`value_problems` checks the field rules of one value, :func:`resolve`
applies the 'Resolution' table: the inline bytes, a range of this file (a
self-reference: ``uri`` not set), or an external range (not fetched here).
"""

from __future__ import annotations

import hashlib
import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference_impl.common.mapped_file import FileBytes
from reference_impl.parquet.metadata.parquet_thrift import (
    ConvertedType,
    FieldRepetitionType,
    FileType,
    LogicalType,
    StringType,
    Type,
)
from reference_impl.parquet.schema.tree import SchemaNode, group, leaf
from reference_impl.parquet.schema.type_rules import Citation

__all__ = [
    "FACT",
    "FIELD_TYPES",
    "SILENT",
    "FILE_RULES",
    "FileProblem",
    "Resolution",
    "checksum_problems",
    "file_node",
    "is_file",
    "resolve",
    "schema_problems",
    "typed_fields",
    "value_problems",
]

SECTION = "FILE"
# Strengths beside MUST/SHOULD/MAY (the words of reference_impl.common.findings' Strength):
FACT = "fact"  # what the value says of the bytes; wrong, it is untrue
SILENT = "silent"  # the text allows two readings; the finding names both
STRING, INT64, BYTE_ARRAY = "STRING", "INT64", "BYTE_ARRAY"
# The field table of 'FILE', in its order.
FIELD_TYPES: Mapping[str, str] = {"uri": STRING, "offset": INT64, "size": INT64, "content_type": STRING,
                                  "checksum": STRING, "inline": BYTE_ARRAY}
STRING_FIELDS = frozenset(name for name, kind in FIELD_TYPES.items() if kind == STRING)
INT64_BITS = 64

# The text lists the fields a group "may contain" and says nothing of others: silent.
FIELD_NAME = Citation(SECTION, "The annotated group may contain the following fields, identified by name "
                               "case sensitively, not by field order.", SILENT)
FIELD_REPETITION = Citation(SECTION, "any field that is present has a field repetition type of `OPTIONAL`")
FIELD_TYPE = Citation(SECTION, "| `uri` | STRING | ... | `offset` | INT64 | ... | `size` | INT64 | ... "
                               "| `content_type` | STRING | ... | `checksum` | STRING | ... | `inline` | "
                               "BYTE_ARRAY |")
OFFSET_NEGATIVE = Citation("offset", "`offset` must not be < 0.")
SIZE_NEGATIVE = Citation("size", "Must be zero or a positive integer if set")
OFFSET_WITHOUT_SIZE = Citation("size", "`size` must be set whenever `offset` is set.")
SELF_REFERENCE_OFFSET = Citation("offset", "`offset` must be set for a self-reference (`uri` not set)")
SELF_REFERENCE_RANGE = Citation("Resolution", "A self-reference points within the same Parquet file using "
                                              "`offset` and `size`", FACT)
SELF_REFERENCE_ENCRYPTED = Citation("Resolution", "Parquet files containing self-references must not use "
                                                  "Parquet modular encryption.")
CHECKSUM_FORMAT = Citation("checksum", "`<digest>` is encoded according to the `Encoding` column")
CHECKSUM_MISMATCH = Citation("checksum", "A self-describing integrity token for the resolved bytes", FACT)
EMPTY_STRING = Citation("Fields", "a field is *set* when it is present in the `FILE` group and its value is "
                                  "non-null (and, for string fields, non-empty[1])\" / \"[1] Implementations "
                                  "are not expected to treat empty strings as null", SILENT)

# Finding kind -> the sentence it checks (docs and the validator read this table).
FILE_RULES: Mapping[str, Citation] = {
    "file.field_name": FIELD_NAME, "file.field_repetition": FIELD_REPETITION, "file.field_type": FIELD_TYPE,
    "file.offset_negative": OFFSET_NEGATIVE, "file.size_negative": SIZE_NEGATIVE,
    "file.offset_without_size": OFFSET_WITHOUT_SIZE, "file.self_reference_offset": SELF_REFERENCE_OFFSET,
    "file.self_reference_range": SELF_REFERENCE_RANGE,
    "file.self_reference_encrypted": SELF_REFERENCE_ENCRYPTED,
    "file.checksum_format": CHECKSUM_FORMAT, "file.checksum": CHECKSUM_MISMATCH,
    "file.empty_string": EMPTY_STRING,
}

# 'checksum': the recognized algorithms, with their digest's length in lowercase hex
# characters and how it is computed (ETAG is opaque and not recomputable: None).
HEX_DIGEST = re.compile(r"[0-9a-f]+")
Digest = Callable[[bytes], str]
ALGORITHMS: Mapping[str, tuple[int | None, Digest | None]] = {
    "ETAG": (None, None),
    "MD5": (32, lambda data: hashlib.md5(data).hexdigest()),  # noqa: S324 - an integrity token, not security
    "CRC32": (8, lambda data: f"{zlib.crc32(data):08x}"),
    "CRC32C": (8, None),  # no CRC32C here: its format is checked, its value is not
    "SHA-256": (64, lambda data: hashlib.sha256(data).hexdigest()),
}


@dataclass(frozen=True)
class FileProblem:
    """One broken rule: its finding kind, the sentence, and what was found where."""

    kind: str
    found: str

    @property
    def citation(self) -> Citation:
        return FILE_RULES[self.kind]

    def message(self, where: str) -> str:
        return f"{where}: {self.found}; {self.citation.quote()}"


def is_file(node: SchemaNode) -> bool:
    """Whether ``node`` carries the FILE annotation (there is no ConvertedType for it)."""
    return node.logical_type is not None and node.logical_type.FILE is not None


# ---------------------------------------------------------------------------
# Schema
# ---------------------------------------------------------------------------


def file_node(name: str, fields: Sequence[str], *, repetition: FieldRepetitionType) -> SchemaNode:
    """A FILE group with the named fields of the table, each OPTIONAL and of the table's type."""
    unknown = [f for f in fields if f not in FIELD_TYPES]
    if unknown or not fields:
        raise ValueError(f"a FILE group's fields are some of {list(FIELD_TYPES)}, not {list(fields)}")
    children = [_field_leaf(f) for f in fields]
    return group(name, children, repetition=repetition, logical_type=LogicalType(FILE=FileType()))


def _field_leaf(name: str) -> SchemaNode:
    kind = FIELD_TYPES[name]
    optional = FieldRepetitionType.OPTIONAL
    if kind == STRING:
        return leaf(name, Type.BYTE_ARRAY, repetition=optional, logical_type=LogicalType(STRING=StringType()))
    return leaf(name, Type.INT64 if kind == INT64 else Type.BYTE_ARRAY, repetition=optional)


def schema_problems(node: SchemaNode) -> list[FileProblem]:
    """What the FILE group ``node`` breaks of the table: unknown names, repetitions, types."""
    problems = []
    for child in node.children or ():
        if child.name not in FIELD_TYPES:
            problems.append(FileProblem("file.field_name", f"field {child.name!r} is not one of "
                                                           f"{list(FIELD_TYPES)}"))
            continue
        if child.repetition != FieldRepetitionType.OPTIONAL:
            repetition = getattr(child.repetition, "name", child.repetition)
            problems.append(FileProblem("file.field_repetition", f"field {child.name!r} is {repetition}"))
        if not _has_type(child, FIELD_TYPES[child.name]):
            problems.append(FileProblem("file.field_type", f"field {child.name!r} is {_type_text(child)}, "
                                                           f"the table says {FIELD_TYPES[child.name]}"))
    return problems


def typed_fields(node: SchemaNode) -> frozenset[str]:
    """The fields of the FILE group ``node`` that the table names and types as it says: the
    only ones whose values the value rules read (another field's value means nothing here)."""
    return frozenset(c.name for c in node.children or ()
                     if c.name in FIELD_TYPES and _has_type(c, FIELD_TYPES[c.name]))


def _has_type(node: SchemaNode, kind: str) -> bool:
    if node.is_group:
        return False
    logical, converted = node.logical_type, node.converted_type
    if kind == STRING:
        is_string = (logical is not None and logical.STRING is not None) or converted == ConvertedType.UTF8
        return node.physical_type == Type.BYTE_ARRAY and is_string
    if kind == INT64:
        # INT(64, true) on INT64 denotes the same values as the bare INT64 of the table.
        bare = logical is None and converted in (None, ConvertedType.INT_64)
        signed = logical is not None and logical.INTEGER is not None and logical.INTEGER.isSigned
        return node.physical_type == Type.INT64 and (bare or signed)
    return node.physical_type == Type.BYTE_ARRAY


def _type_text(node: SchemaNode) -> str:
    if node.is_group:
        return "a group"
    annotation = node.logical_type.kind if node.logical_type is not None else None
    physical = getattr(node.physical_type, "name", node.physical_type)
    return f"{physical} ({annotation})" if annotation else str(physical)


# ---------------------------------------------------------------------------
# Values: the field rules and 'Resolution'
# ---------------------------------------------------------------------------


def _is_set(value: Mapping[str, Any], name: str) -> bool:
    """'Fields': present and non-null, and for a string field non-empty."""
    item = value.get(name)
    return item is not None and not (name in STRING_FIELDS and item in ("", b""))


@dataclass(frozen=True)
class Resolution:
    """What a value resolves to ('Resolution'): ``kind`` is "inline", "self", "external" or
    "invalid"; ``data`` the bytes when this reader has them (inline, or a self-reference
    inside the file), ``offset``/``size`` the range (``size`` None: to the end of ``uri``)."""

    kind: str
    data: bytes | None = None
    uri: str | None = None
    offset: int = 0
    size: int | None = None


def resolve(value: Mapping[str, Any], file: FileBytes | None = None) -> Resolution:
    """The 'Resolution' table for one value (a dict by field name, strings as text or
    UTF-8 bytes); a self-reference is read from ``file`` when given and inside it."""
    if _is_set(value, "inline"):
        return Resolution("inline", bytes(value["inline"]))
    has_offset, has_size = _is_set(value, "offset"), _is_set(value, "size")
    offset, size = (value["offset"] if has_offset else 0), (value["size"] if has_size else None)
    if has_offset and not has_size:
        return Resolution("invalid")
    if _is_set(value, "uri"):
        uri = value["uri"]
        text = uri.decode("utf-8", "replace") if isinstance(uri, bytes) else uri
        return Resolution("external", uri=text, offset=offset, size=size)
    if not has_offset or size is None:
        return Resolution("invalid")
    inside = file is not None and 0 <= offset and 0 <= size and offset + size <= len(file)
    return Resolution("self", file[offset:offset + size] if inside and file is not None else None,
                      offset=offset, size=size)


def value_problems(value: Mapping[str, Any], file_length: int | None = None) -> list[FileProblem]:
    """The field rules one value breaks; ``file_length`` bounds a self-reference's range."""
    problems = [FileProblem("file.empty_string", f"{name} is an empty string: not set by the definition "
                                                  f"of 'set', a value by its footnote (this reader: not set)")
                for name in sorted(STRING_FIELDS) if value.get(name) in ("", b"")]
    offset, size = value.get("offset"), value.get("size")
    if offset is not None and offset < 0:
        problems.append(FileProblem("file.offset_negative", f"offset {offset}"))
    if size is not None and size < 0:
        problems.append(FileProblem("file.size_negative", f"size {size}"))
    if offset is not None and size is None:
        problems.append(FileProblem("file.offset_without_size", f"offset {offset} without size"))
    self_reference = not _is_set(value, "inline") and not _is_set(value, "uri")
    if self_reference and offset is None:
        problems.append(FileProblem("file.self_reference_offset", "a self-reference (neither inline nor uri "
                                                                  "set) without offset"))
    out_of_file = (file_length is not None and offset is not None and size is not None
                   and offset >= 0 and size >= 0 and offset + size > file_length)
    if self_reference and out_of_file and offset is not None and size is not None:
        problems.append(FileProblem("file.self_reference_range", f"[{offset}, {offset + size}) is not inside "
                                                                 f"this file of {file_length} bytes"))
    return problems


def checksum_problems(value: Mapping[str, Any], resolved: Resolution) -> list[FileProblem]:
    """A recognized algorithm's digest in the wrong form, or one that the resolved bytes do not
    have (when this reader has them); unknown algorithms are ignored ("Readers should ignore
    unknown algorithms")."""
    token = value.get("checksum")
    if not token:
        return []
    text = token.decode("utf-8", "replace") if isinstance(token, bytes) else token
    algorithm, _, digest = text.partition(":")
    if algorithm not in ALGORITHMS:
        return []
    length, compute = ALGORITHMS[algorithm]
    if length is not None and (len(digest) != length or not HEX_DIGEST.fullmatch(digest)):
        return [FileProblem("file.checksum_format", f"checksum {text!r}: {algorithm} is {length} lowercase "
                                                    f"hex characters")]
    if compute is None or resolved.data is None or compute(resolved.data) == digest:
        return []
    return [FileProblem("file.checksum", f"checksum {text!r}, but the {len(resolved.data)} resolved bytes "
                                         f"({resolved.kind}) have {algorithm}:{compute(resolved.data)}")]

