"""Which statistics a reader must distrust, by the writer and its version.

orc_proto.proto, ``message PostScript`` field ``writer_version``: "This number is updated
when we make fixes or large changes to the writer so that readers can detect whether a
given bug is present in the data". Its list of ORC Java versions names what each fixed;
"Only the Java ORC writer may use values under 6 (or missing)", and every other writer
(``Footer.writer``: 1 C++, 2 Presto, 3 Go, 4 Trino, 5 CUDF) numbers its own versions from
6, so the fixes below are those of ORC Java's numbering and apply to its files alone.

=======  ============  ===================================================================
fixed    issue         a file written before the fix
=======  ============  ===================================================================
1        HIVE-8732     string minimum and maximum not by UTF-8 bytes; stripe and file
                       maxima wrong: every string bound, and every stripe or file maximum
5        ORC-101       Bloom filters of strings not by UTF-8 (the BLOOM_FILTER stream)
6        ORC-135       timestamp statistics in the writer's local time, not UTC
7        ORC-517       decimal64 (precision 18 or less) minimum and maximum incorrect
=======  ============  ===================================================================

ORC-203 (8, "trim very long string statistics") and ORC-14 (9, column encryption) add to
the format rather than fix a bug: nothing to distrust.

Bloom filters (:func:`distrusted_bloom_filter`): string filters in the original
BLOOM_FILTER stream from ORC Java before ORC-101, and timestamp filters without
ColumnEncoding ``bloom_encoding`` 1 ("1 = ORC-135 (utc for timestamps)"), whatever the
writer: their values were hashed in the writer's local time.
"""

from __future__ import annotations

from dataclasses import dataclass

from reference_impl.orc.bloom_filter_index import UTC_BLOOM_ENCODING
from reference_impl.orc.metadata.orc_proto import ColumnEncoding, Footer, PostScript
from reference_impl.orc.metadata.proto_enums import StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["FIXES", "JAVA_WRITER", "Fix", "distrusted_bloom_filter", "distrusted_fixes",
           "java_numbering_misused"]

JAVA_WRITER = 0  # Footer.writer: "0 = ORC Java"; a missing writer is ORC Java's too
OWN_NUMBERING_START = 6  # "Each writer should assign their own sequence of versions starting from 6"
DECIMAL64_MAX_PRECISION = 18  # the decimals ORC Java writes as 64-bit values
TEXT_KINDS = (TypeKind.STRING, TypeKind.VARCHAR, TypeKind.CHAR)
TIMESTAMP_KINDS = (TypeKind.TIMESTAMP, TypeKind.TIMESTAMP_INSTANT)


@dataclass(frozen=True)
class Fix:
    version: int  # the first writer_version with the fix
    issue: str
    what: str  # what a reader distrusts in files written before it
    string_bounds: bool = False
    stripe_and_file_maxima: bool = False
    string_bloom_filters: bool = False
    timestamp_bounds: bool = False
    decimal64_bounds: bool = False

    def distrusts_bounds(self, node: TypeNode, file_or_stripe_level: bool) -> bool:
        """Whether the minimum and maximum of ``node``'s statistics are distrusted."""
        kind = node.kind
        return ((self.string_bounds and kind in (TypeKind.STRING, TypeKind.VARCHAR, TypeKind.CHAR))
                or (self.timestamp_bounds and kind in (TypeKind.TIMESTAMP, TypeKind.TIMESTAMP_INSTANT))
                or (self.decimal64_bounds and kind == TypeKind.DECIMAL
                    and (node.precision or 0) <= DECIMAL64_MAX_PRECISION and node.precision is not None)
                or (self.stripe_and_file_maxima and file_or_stripe_level))


FIXES = (
    Fix(1, "HIVE-8732", "string bounds not by UTF-8 bytes, stripe and file maxima wrong",
        string_bounds=True, stripe_and_file_maxima=True),
    Fix(5, "ORC-101", "string Bloom filters not by UTF-8", string_bloom_filters=True),
    Fix(6, "ORC-135", "timestamp statistics in local time, not UTC", timestamp_bounds=True),
    Fix(7, "ORC-517", "decimal64 minimum and maximum incorrect", decimal64_bounds=True),
)


def _is_java(footer: Footer) -> bool:
    return footer.writer in (None, JAVA_WRITER)


def distrusted_fixes(postscript: PostScript, footer: Footer) -> tuple[Fix, ...]:
    """The fixes a file's writer predates: what its statistics cannot be trusted for."""
    if not _is_java(footer):
        return ()
    version = postscript.writer_version or 0
    return tuple(fix for fix in FIXES if version < fix.version)


def java_numbering_misused(postscript: PostScript, footer: Footer) -> bool:
    """A writer other than ORC Java with a version under 6: the text forbids it."""
    return not _is_java(footer) and (postscript.writer_version or 0) < OWN_NUMBERING_START


def distrusted_bloom_filter(node: TypeNode, kind: StreamKind, encoding: ColumnEncoding,
                            fixes: tuple[Fix, ...]) -> str:
    """Why a reader distrusts ``node``'s Bloom filter stream of ``kind`` (``encoding`` is the
    column's in that stripe), or "" when it may trust it (module docstring)."""
    if node.kind in TEXT_KINDS and kind == StreamKind.BLOOM_FILTER:
        before = [fix for fix in fixes if fix.string_bloom_filters]
        if before:
            return f"an original BLOOM_FILTER of strings written before {before[0].issue}: {before[0].what}"
    if node.kind in TIMESTAMP_KINDS and encoding.bloom_encoding != UTC_BLOOM_ENCODING:
        return ("a timestamp filter without bloom_encoding 1 (ORC-135, utc for timestamps): its "
                "values were hashed in the writer's local time")
    return ""
