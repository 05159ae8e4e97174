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

Severity follows the sentence's strength (``validation.rule_texts``): ``untrue``
for the two facts about the bytes (``fact``), ``ambiguous`` for the empty
string (``silent``), ``nonconforming`` for the MUSTs; each message quotes the
sentence with its strength.
"""

from __future__ import annotations

from reference_impl.common.mapped_file import FileBytes
from reference_impl.parquet.encryption.properties import FileDecryptionProperties
from reference_impl.parquet.file_references import file_groups, file_references
from reference_impl.parquet.reader import read_footer_with_decryptor
from reference_impl.parquet.schema.file_type import (
    FileProblem,
    checksum_problems,
    schema_problems,
    value_problems,
)
from reference_impl.parquet.schema.tree import schema_tree_from_elements
from reference_impl.parquet.validation.findings import Finding
from reference_impl.parquet.validation.rule_texts import rule_text

__all__ = ["check_file_type"]

SCHEMA_ROW_GROUP = 0  # schema findings are the file's; they are reported at the first row group
ENCRYPTED = FileProblem("file.self_reference_encrypted", "a self-reference in an encrypted file")


def check_file_type(file: FileBytes, *, decryption: FileDecryptionProperties | None = None) -> list[Finding]:
    """The findings about every FILE group of ``file`` and its values (none when it has none)."""
    metadata, footer_start, decryptor = read_footer_with_decryptor(file, decryption=decryption)
    groups = list(file_groups(schema_tree_from_elements(metadata.schema, offset=footer_start)))
    findings = [_finding(problem, path, SCHEMA_ROW_GROUP, "schema")
                for path, node in groups for problem in schema_problems(node)]
    if not groups:
        return findings
    references = file_references(file, decryption=decryption)
    for ref in references:
        problems = value_problems(ref.value, len(file)) + checksum_problems(ref.value, ref.resolution)
        findings += [_finding(p, ref.column, ref.row_group, f"row {ref.row}") for p in problems]
    if decryptor is not None:  # the file uses Parquet Modular Encryption
        self_referencing = sorted({ref.column for ref in references if ref.resolution.kind == "self"})
        findings += [_finding(ENCRYPTED, path, SCHEMA_ROW_GROUP, "values") for path in self_referencing]
    return findings


def _finding(problem: FileProblem, column: str, row_group: int, where: str) -> Finding:
    return Finding(problem.kind, rule_text(problem.kind), column, row_group, None, problem.message(where))
