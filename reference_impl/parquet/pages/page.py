"""Pages: the PageHeader and the bytes after it, compressed or not.

Spec: parquet.thrift ``struct PageHeader`` ("uncompressed_page_size",
"compressed_page_size": both "not including the header"), ``DataPageHeader``,
``DataPageHeaderV2``, ``DictionaryPageHeader``; README.md, 'Data
Pages', and Compression.md, 'Overview' ("the raw data of a (data or dictionary)
page is fed as-is to the underlying compression library").

What is compressed, page by page::

    DICTIONARY_PAGE   header | compress(PLAIN entries)
    DATA_PAGE (v1)    header | compress(rep levels | def levels | values)
    DATA_PAGE_V2      header | rep levels | def levels | values, compressed only if is_compressed

("Repetition and definition levels are uncompressed. The remaining section
containing the data is compressed if is_compressed is true", DataPageHeaderV2;
an absent ``is_compressed`` means true.) A v2 page's
``compressed_page_size`` and ``uncompressed_page_size`` include its levels.

Writing: :func:`dictionary_page`, :func:`data_page_v1` and :func:`data_page_v2`
build an :class:`EncodedPage` from the already-encoded sections. Reading:
:func:`read_page_header` decodes a header and checks its sizes against the
column chunk; :func:`page_content` returns the decompressed bytes of a page or
of a v2 page's values section, as a :class:`Content` that knows whether its
positions are file offsets.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from reference_impl.common.mapped_file import FileBytes
from reference_impl.parquet.errors import CorruptPage, ParquetError
from reference_impl.parquet.metadata.parquet_thrift import (
    CompressionCodec,
    DataPageHeader,
    DataPageHeaderV2,
    DictionaryPageHeader,
    Encoding,
    PageHeader,
    PageType,
)
from reference_impl.parquet.metadata.thrift_struct import deserialize, serialize
from reference_impl.parquet.pages.compression import compress, decompress

__all__ = [
    "DATA_PAGE_TYPES",
    "Content",
    "EncodedPage",
    "data_page_v1",
    "data_page_v2",
    "dictionary_page",
    "page_content",
    "read_page_header",
]

MAX_I32 = (1 << 31) - 1  # page sizes and counts are i32 in the headers
# The pages that hold values (the others: dictionary and index pages).
DATA_PAGE_TYPES = frozenset({PageType.DATA_PAGE, PageType.DATA_PAGE_V2})


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EncodedPage:
    """A page as stored: its header and the bytes that follow it."""

    header: PageHeader
    body: bytes

    def to_bytes(self) -> bytes:
        return serialize(self.header) + self.body

    @property
    def encoding(self) -> Encoding | int:
        """The encoding of the page's values (or dictionary entries)."""
        inner = (
            self.header.dictionary_page_header
            or self.header.data_page_header
            or self.header.data_page_header_v2
        )
        if inner is None:  # the page builders below always set one
            raise ValueError(f"page of type {self.header.type!r} has no dictionary or data page header")
        return inner.encoding


def _checked_i32(value: int, what: str) -> int:
    if value > MAX_I32:
        raise ValueError(f"{what} is {value}, more than a page header's i32 holds; use a smaller page limit")
    return value


def dictionary_page(
    entries: bytes, num_values: int, encoding: Encoding, codec: CompressionCodec, level: int | None
) -> EncodedPage:
    """A dictionary page of ``num_values`` PLAIN-encoded ``entries``."""
    stored = compress(codec, entries, level=level)
    header = PageHeader(
        type=PageType.DICTIONARY_PAGE,
        uncompressed_page_size=_checked_i32(len(entries), "the dictionary page size"),
        compressed_page_size=_checked_i32(len(stored), "the compressed dictionary page size"),
        dictionary_page_header=DictionaryPageHeader(num_values=num_values, encoding=encoding),
    )
    return EncodedPage(header, stored)


def data_page_v1(
    *,
    num_values: int,
    encoding: Encoding,
    level_encoding: Encoding,
    repetition_levels: bytes,
    definition_levels: bytes,
    values: bytes,
    codec: CompressionCodec,
    level: int | None,
) -> EncodedPage:
    """A data page v1: the three sections back to back, compressed as one."""
    content = repetition_levels + definition_levels + values
    stored = compress(codec, content, level=level)
    header = PageHeader(
        type=PageType.DATA_PAGE,
        uncompressed_page_size=_checked_i32(len(content), "the data page size"),
        compressed_page_size=_checked_i32(len(stored), "the compressed data page size"),
        data_page_header=DataPageHeader(
            num_values=_checked_i32(num_values, "the page's value count"),
            encoding=encoding,
            definition_level_encoding=level_encoding,
            repetition_level_encoding=level_encoding,
        ),
    )
    return EncodedPage(header, stored)


def data_page_v2(
    *,
    num_values: int,
    num_nulls: int,
    num_rows: int,
    encoding: Encoding,
    repetition_levels: bytes,
    definition_levels: bytes,
    values: bytes,
    codec: CompressionCodec,
    level: int | None,
    is_compressed: bool,
) -> EncodedPage:
    """A data page v2: uncompressed levels, then the values, compressed if ``is_compressed``."""
    stored_values = compress(codec, values, level=level) if is_compressed else values
    levels = repetition_levels + definition_levels
    header = PageHeader(
        type=PageType.DATA_PAGE_V2,
        uncompressed_page_size=_checked_i32(len(levels) + len(values), "the data page size"),
        compressed_page_size=_checked_i32(len(levels) + len(stored_values), "the compressed page size"),
        data_page_header_v2=DataPageHeaderV2(
            num_values=_checked_i32(num_values, "the page's value count"),
            num_nulls=num_nulls,
            num_rows=num_rows,
            encoding=encoding,
            definition_levels_byte_length=len(definition_levels),
            repetition_levels_byte_length=len(repetition_levels),
            is_compressed=is_compressed,
        ),
    )
    return EncodedPage(header, levels + stored_values)


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------


def read_page_header(
    file: FileBytes, position: int, chunk_end: int, *, region: str = "its column chunk"
) -> tuple[PageHeader, int, int]:
    """The header at ``position``; return it, where its body starts and ends.

    The page must lie before ``chunk_end``, the end of ``region`` (the column
    chunk, or a wider region for a reader that reads past it), and the sizes
    must not be negative.
    """
    header, body_start = deserialize(PageHeader, file, start=position, end=chunk_end)
    if header.compressed_page_size < 0 or header.uncompressed_page_size < 0:
        raise CorruptPage(
            f"page sizes are negative (compressed {header.compressed_page_size}, "
            f"uncompressed {header.uncompressed_page_size})",
            position,
        )
    body_end = body_start + header.compressed_page_size
    if body_end > chunk_end:
        raise CorruptPage(
            f"page body of {header.compressed_page_size} bytes runs {body_end - chunk_end} byte(s) "
            f"past the end of {region}",
            position,
        )
    return header, body_start, body_end


@dataclass(frozen=True)
class Content:
    """Bytes to decode: ``data[start:end]``.

    Stored bytes are used in place (``data`` is the file, positions are file
    offsets, decoders report true offsets). Decompressed bytes have no file
    position: ``in_file`` is false and :meth:`errors` reports ``stored_at``, the
    offset of the compressed bytes, naming the position inside the decompressed
    ones in the message.
    """

    data: bytes | memoryview
    start: int
    end: int
    in_file: bool
    stored_at: int

    @contextmanager
    def errors(self) -> Iterator[None]:
        if self.in_file:
            yield
            return
        try:
            yield
        except ParquetError as error:
            inside = "" if error.offset is None else f" (byte {error.offset} of the decompressed bytes)"
            raise type(error)(f"{error.message}{inside}", self.stored_at) from error


def page_content(
    file: bytes | memoryview,
    start: int,
    end: int,
    uncompressed_size: int,
    codec: CompressionCodec,
    *,
    compressed: bool = True,
    stored_at: int | None = None,
) -> Content:
    """The bytes ``file[start:end]`` decompressed to ``uncompressed_size`` bytes.

    Without compression (codec UNCOMPRESSED, or a v2 values section with
    ``is_compressed`` false) the bytes are used in place and both sizes must agree.
    ``stored_at``: set when ``file`` is not the file but a decrypted page (its
    positions are no file offsets); errors then report this offset.
    """
    in_file = stored_at is None
    where = start if stored_at is None else stored_at
    if not compressed or codec == CompressionCodec.UNCOMPRESSED:
        if uncompressed_size != end - start:
            raise CorruptPage(
                f"uncompressed page section of {end - start} bytes, but the header says "
                f"{uncompressed_size} uncompressed bytes",
                where,
            )
        return Content(file, start, end, in_file, where)
    data = decompress(codec, bytes(file[start:end]), uncompressed_size, base_offset=where)
    return Content(data, 0, len(data), False, where)
