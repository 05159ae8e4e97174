"""The framing of a Parquet file.

README.md, 'File format'::

    4-byte magic number "PAR1"
    <Column 1 Chunk 1> ... <Column N Chunk M>
    File Metadata
    4-byte length in bytes of file metadata (little endian)
    4-byte magic number "PAR1"

and '3.7.3 - Parquet Modular Encryption', section 5.3: files with an encrypted
footer use the magic "PARE" instead (``encryption`` writes and reads them).
"""

from __future__ import annotations

import struct

__all__ = [
    "ENCRYPTED_FOOTER_MAGIC",
    "FOOTER_LENGTH",
    "MAGIC",
    "MIN_FILE_SIZE",
]

MAGIC = b"PAR1"
ENCRYPTED_FOOTER_MAGIC = b"PARE"
FOOTER_LENGTH = struct.Struct("<I")  # 4-byte little-endian length of the file metadata
# Leading magic + footer length + trailing magic; the footer itself comes on top.
MIN_FILE_SIZE = len(MAGIC) + FOOTER_LENGTH.size + len(MAGIC)
