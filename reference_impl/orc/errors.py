"""The closed vocabulary of errors raised by the reference ORC reader and writer.

docs/architecture.md, 'Bad input': every reader path rejects malformed input with a
specific, documented exception carrying the byte offset and what was expected; it never
returns silently wrong data, never allocates what a corrupt length claims without
checking it against the bytes that remain, and never hangs.

Every class is an :class:`OrcError`; the harness records the subclass name as the reason.

========================  ===================================================
class                     raised when
========================  ===================================================
BadMagic                  the file does not start with "ORC" (ORCv1.md 'File Tail')
TruncatedFile             the file ends before a structure it declares
CorruptTail               the PostScript, Footer or Metadata lengths do not fit
CorruptProtobuf           a protobuf message is malformed on the wire
CorruptMetadata           a message decodes but contradicts itself or the file
CorruptStream             a stream's position, length or value count lies
CorruptRle                run-length encoded data is malformed
DecompressionFailed       a compression chunk does not decompress within its
                          header's length and the compression block size
DecodedBudgetExceeded     a stripe's chunks decompress to more than the
                          decoded budget (a DecompressionFailed;
                          docs/architecture.md, 'Memory budget')
DecryptionFailed          an encryption variant's bytes, decrypted with the
                          key the reader holds, do not decode (a wrong key or
                          altered bytes; ORCv1.md 'Stream Encryption')
InvalidValue              a decoded value breaks its column's type
UnsupportedFeature        a valid feature this implementation does not decode
========================  ===================================================
"""

from __future__ import annotations

__all__ = [
    "BadMagic",
    "CorruptMetadata",
    "CorruptProtobuf",
    "CorruptRle",
    "CorruptStream",
    "CorruptTail",
    "DecodedBudgetExceeded",
    "DecompressionFailed",
    "DecryptionFailed",
    "InvalidValue",
    "OrcError",
    "TruncatedFile",
    "UnsupportedFeature",
]


class OrcError(Exception):
    """Base class: an ORC file (or part of one) could not be processed.

    ``offset`` is the absolute byte offset in the file where the problem was found, or
    None when no single position applies (a writer-side refusal, a buffer with no file
    position). ``message`` says what was expected and what was found.
    """

    def __init__(self, message: str, offset: int | None = None) -> None:
        self.message = message
        self.offset = offset
        super().__init__(message if offset is None else f"{message} (at byte offset {offset})")


class BadMagic(OrcError):
    """The file does not start with the 3-byte magic "ORC"."""


class TruncatedFile(OrcError):
    """The file ends before the structure it declares."""


class CorruptTail(OrcError):
    """The PostScript length byte, or a length the PostScript gives, cannot fit the file."""


class CorruptProtobuf(OrcError):
    """A protobuf message is malformed: a bad varint, wire type or length."""


class CorruptMetadata(OrcError):
    """A message decodes but contradicts itself or the file (type tree, stripe bounds)."""


class CorruptStream(OrcError):
    """A stream's position, length or number of values contradicts its stripe."""


class CorruptRle(OrcError):
    """Run-length encoded data is malformed or ends before the values it must hold."""


class DecompressionFailed(OrcError):
    """A compression chunk is malformed or decompresses past the compression block size."""


class DecodedBudgetExceeded(DecompressionFailed):
    """The compression chunks of one stripe (or one stream read alone) decompress to more
    bytes than the decoded budget allows (``reference_impl.common.decoded_budget``;
    docs/architecture.md, 'Memory budget'): a decompression bomb, or a file that needs a
    larger budget. The offset is the chunk header's."""


class DecryptionFailed(OrcError):
    """An encryption variant decrypted with the key the reader holds does not decode: AES/CTR
    has no authentication, so a wrong key or altered bytes show only so."""


class InvalidValue(OrcError):
    """A decoded value breaks its column's type (a string that is not UTF-8, a decimal
    beyond its precision)."""


class UnsupportedFeature(OrcError):
    """A valid feature this implementation does not decode (or write)."""
