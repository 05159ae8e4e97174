"""Do the file's FILE groups and values keep the rules of LogicalTypes.md 'FILE'?

Spec: LogicalTypes.md, 'FILE' (its field table, 'Fields' and 'Resolution');
the rules and their sentences are ``schema.file_type.FILE_RULES``.

* Schema, once per FILE group at row group 0: ``file.field_name`` (a field
  the table does not name, case sensitively), ``file.field_repetition`` (a
  field that is not OPTIONAL), ``file.field_type`` (not the table's type).
* Values, one finding per value and rule, at the value's row group, the
  message naming the row within it: ``file.offset_negative``,
  ``file.size_negative``, ``file.offset_without_size``,
  ``file.self_reference_offset`` (a self-reference without ``offset``,
  which covers the table's "invalid" rows without ``uri``),
  ``file.self_reference_range`` (the range leaves this file: untrue, the
  bytes it names do not exist), ``file.checksum_format`` (a recognized
  algorithm's digest not in its encoding), ``file.checksum`` (the inline or
  self-referenced bytes do not have the digest: untrue),
  ``file.empty_string`` (an empty string field, which the text reads two
  ways: "not set" by its definition of *set*, a value by its footnote).
* ``file.self_reference_encrypted``, once per column: a self-reference in a
  file that uses Parquet Modular Encryption.

Severity: ``untrue`` for the two facts about the bytes (strength ``fact``),
else ``nonconforming`` (until the validator grades findings by strength: the
sentences' strengths are already MUST, ``fact`` or ``silent``); each message
quotes the sentence with its strength.
"""

from __future__ import annotations

from collections.abc import Iterator

from reference_impl.common.leniency import reading
from reference_impl.parquet.encryption.properties import FileDecryptionProperties
from reference_impl.parquet.reader import read_footer_with_decryptor, read_parquet
from reference_impl.parquet.schema.file_type import (
    FACT,
    FileProblem,
    checksum_problems,
    is_file,
    resolve,
    schema_problems,
    typed_fields,
    value_problems,
)
from reference_impl.parquet.schema.nested_types import groups_where, logical_shape, to_logical
from reference_impl.parquet.schema.tree import SchemaNode, schema_tree_from_elements
from reference_impl.parquet.validation.findings import NONCONFORMING, UNTRUE, Finding

__all__ = ["check_file_type"]

SCHEMA_ROW_GROUP = 0  # schema findings are the file's; they are reported at the first row group


def check_file_type(file: bytes, *, decryption: FileDecryptionProperties | None = None) -> list[Finding]:
    """The findings about every FILE group of ``file`` and its values (none when it has none)."""
    metadata, footer_start, decryptor = read_footer_with_decryptor(file, decryption=decryption)
    tree = schema_tree_from_elements(metadata.schema, offset=footer_start)
    groups = list(_file_groups(tree, ""))
    if not groups:
        return []
    findings = [_finding(problem, path, SCHEMA_ROW_GROUP, "schema")
                for path, node in groups for problem in schema_problems(node)]
    shape = logical_shape(tree, offset=footer_start)
    tops = [f for f in shape.fields if any(path.split(".")[0] == f.node.name for path, _ in groups)]
    with reading():  # the breaches of this second read were met, and reported, by validate's walk
        records = read_parquet(file, decryption=decryption, columns=[t.node.name for t in tops]).records
    self_referencing: set[str] = set()
    first_row = 0
    for ordinal, row_group in enumerate(metadata.row_groups):
        for row in range(row_group.num_rows):
            record = records[first_row + row]
            for top in tops:
                logical = to_logical(top, record.get(top.node.name))
                for path, group, raw in groups_where(top, logical, top.node.name, is_file):
                    value = {name: raw.get(name) for name in typed_fields(group.node)}
                    resolved = resolve(value, file)
                    if resolved.kind == "self":
                        self_referencing.add(path)
                    problems = value_problems(value, len(file)) + checksum_problems(value, resolved)
                    findings += [_finding(p, path, ordinal, f"row {row}") for p in problems]
        first_row += row_group.num_rows
    if decryptor is not None:  # the file uses Parquet Modular Encryption
        findings += [_finding(FileProblem("file.self_reference_encrypted", "a self-reference in an encrypted "
                                                                           "file"), path, SCHEMA_ROW_GROUP,
                              "values") for path in sorted(self_referencing)]
    return findings


def _file_groups(node: SchemaNode, path: str) -> Iterator[tuple[str, SchemaNode]]:
    """Every FILE-annotated group of the tree, with its dotted path."""
    for child in node.children or ():
        child_path = f"{path}.{child.name}" if path else child.name
        if child.is_group and is_file(child):
            yield child_path, child
        else:
            yield from _file_groups(child, child_path)


def _finding(problem: FileProblem, column: str, row_group: int, where: str) -> Finding:
    severity = UNTRUE if problem.citation.strength == FACT else NONCONFORMING
    return Finding(problem.kind, severity, column, row_group, None, problem.message(where))
