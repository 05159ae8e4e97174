"""Which format a file is in, from its magic bytes.

Parquet files start with "PAR1" (README.md, 'File Format'), or "PARE" when the
footer is encrypted (Encryption.md, '5.4 Encrypted footer mode'); ORC files start
with "ORC" (ORCv1.md, 'File Tail'). `conformance read` and `validate` take any file and
decide from these, not from the file's name.
"""

from __future__ import annotations

from pathlib import Path

PARQUET_MAGIC = b"PAR1"
PARQUET_ENCRYPTED_FOOTER_MAGIC = b"PARE"
ORC_MAGIC = b"ORC"
MAGICS = {PARQUET_MAGIC: "parquet", PARQUET_ENCRYPTED_FOOTER_MAGIC: "parquet", ORC_MAGIC: "orc"}
# The file name suffix the suite gives each format's files (runs, corpus, regressions).
SUFFIXES = {"parquet": ".parquet", "orc": ".orc"}


class UnknownFormat(ValueError):
    pass


def detect_format(path: Path) -> str:
    """"parquet" or "orc" by the file's leading magic; UnknownFormat naming what it found."""
    with open(path, "rb") as file:
        head = file.read(max(len(m) for m in MAGICS))
    for magic, name in MAGICS.items():
        if head.startswith(magic):
            return name
    raise UnknownFormat(f"{path}: starts with {head!r}, neither Parquet's {PARQUET_MAGIC!r} "
                        f"nor ORC's {ORC_MAGIC!r}")
