"""The FILE logical type: groups that refer to bytes inline, in another file, or in this one.

Spec: LogicalTypes.md, 'FILE' (its field table, 'Fields', 'Resolution'). FILE annotates a
group; a reader that does not know it reads the group's fields, so every reader's expected
values are the struct's (docs/canonical-values.md, 'FILE'). Only the reference writes the
annotation; the values hold what the text's resolution table distinguishes: inline bytes
(with locators as provenance), whole external files and ranges of them, and
self-references. A self-reference points at ``[0, 4)``, the file's leading magic ``PAR1``
(README.md, 'File Format'), which every plaintext Parquet file has wherever its other
bytes fall; its CRC32 and SHA-256 checksums are those of these four bytes.
"""

from __future__ import annotations

import hashlib
import zlib

from conformance.values import Field, Schema
from conformance.values import types as T

from ..model import Case

MAGIC = b"PAR1"  # README.md, 'File Format': the 4-byte magic number at the start of the file
SECTION = "LogicalTypes.md: FILE"
SPEC = (SECTION, "parquet.thrift: union LogicalType")
PNG_SIGNATURE = bytes.fromhex("89504e470d0a1a0a")


def _file(**fields: object) -> dict[str, object]:
    return fields


def _case(name: str, title: str, fields: tuple[str, ...], values: list[dict | None],
          extra_spec: tuple[str, ...] = ()) -> Case:
    file_type = T.file_of(*fields)
    rows = tuple((i, None if v is None else {f: v.get(f) for f in fields}) for i, v in enumerate(values))
    return Case(id=f"file/{name}", title=title, spec=(*SPEC, *extra_spec),
                schema=Schema((Field("id", T.integer(32), False), Field("file", file_type, True))), rows=rows)


def cases() -> list[Case]:
    crc32 = f"CRC32:{zlib.crc32(MAGIC):08x}"
    sha256 = f"SHA-256:{hashlib.sha256(MAGIC).hexdigest()}"
    return [
        _case("inline", "FILE with inline bytes only: a PNG signature, empty bytes, a null value",
              ("inline", "content_type"),
              [_file(inline=PNG_SIGNATURE, content_type="image/png"), _file(inline=b"", content_type=None),
               None, _file(inline=b"\x00\xff", content_type="application/octet-stream")],
              ("LogicalTypes.md: FILE, Fields, inline",)),
        _case("external", "FILE references to other files: whole, [offset, offset + size), [0, size)",
              ("uri", "offset", "size", "content_type", "checksum"),
              [_file(uri="s3://bucket/file.jpg", content_type="image/jpeg",
                     checksum='ETAG:"9b2cf535f27731c9"'),
               _file(uri="https://example.com/archive.bin", offset=100, size=50),
               _file(uri="relative/audio.wav", size=10, content_type="audio/wav"),
               None,
               _file(uri="file:///tmp/empty", offset=0, size=0)],
              ("LogicalTypes.md: FILE, Resolution",)),
        _case("self-reference", "FILE self-references (no uri) to this file's leading magic, with checksums",
              ("offset", "size", "checksum"),
              [_file(offset=0, size=len(MAGIC), checksum=crc32),
               _file(offset=0, size=len(MAGIC), checksum=sha256),
               _file(offset=len(MAGIC), size=0), None],
              ("LogicalTypes.md: FILE, Resolution", "LogicalTypes.md: FILE, Fields, checksum")),
        _case("all-fields", "FILE with all six fields: inline bytes with their locators as provenance",
              ("uri", "offset", "size", "content_type", "checksum", "inline"),
              [_file(uri="s3://bucket/a.txt", offset=2, size=3, content_type="text/plain",
                     checksum=f"MD5:{hashlib.md5(b'abc').hexdigest()}", inline=b"abc"),  # noqa: S324
               _file(offset=0, size=len(MAGIC), inline=MAGIC), None],
              ("LogicalTypes.md: FILE, Fields, inline",)),
    ]
