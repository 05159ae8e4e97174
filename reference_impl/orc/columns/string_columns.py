"""STRING, CHAR and VARCHAR columns, direct and dictionary encoded.

ORCv1.md, 'String, Char, and VarChar Columns': "For direct encoding the UTF-8 bytes are
saved in the DATA stream and the length of each value is written into the LENGTH
stream." "For dictionary encodings the dictionary is sorted (in lexicographical order of
bytes in the UTF-8 encodings) and UTF-8 bytes of each unique value are placed into
DICTIONARY_DATA. The length of each item in the dictionary is put into the LENGTH
stream. The DATA stream consists of the sequence of references to the dictionary
elements." DIRECT and DICTIONARY use Unsigned Integer RLE v1, DIRECT_V2 and
DICTIONARY_V2 v2; ColumnEncoding.dictionary_size gives the number of entries.

Read checks: a reference at or past dictionary_size is :class:`CorruptStream`; a value
that is not UTF-8, or a CHAR/VARCHAR longer than its maximum_length in characters, is
:class:`InvalidValue` naming the column, stripe and row. Values are returned as stored:
real writers store CHAR values padded with spaces to the maximum length.

The writer dictionary-encodes a column whose distinct / non-null ratio is at or below
the threshold (ORC writers' dictionary key size threshold), unless told otherwise.
"""

from __future__ import annotations

import itertools
from typing import cast

import numpy as np

from reference_impl.orc.columns.binary_columns import LengthPrefixedValues, cut, length_prefixed_streams
from reference_impl.orc.columns.column_streams import (
    DICTIONARY_ENCODINGS,
    ColumnOutput,
    ColumnStreams,
    WriteSettings,
)
from reference_impl.orc.columns.present import ColumnReader
from reference_impl.orc.errors import CorruptStream, InvalidValue
from reference_impl.orc.metadata.proto_enums import StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["StringReader", "write_strings"]


class StringReader(ColumnReader):
    def __init__(self, streams: ColumnStreams) -> None:
        super().__init__(streams)
        self._dictionary: list[bytes] | None = None
        if streams.encoding in DICTIONARY_ENCODINGS:
            entries = LengthPrefixedValues(streams, StreamKind.DICTIONARY_DATA)
            self._dictionary = entries.read(streams.dictionary_size)
            self._texts = _entry_texts(self._dictionary, streams.node.maximum_length)
            self._valid = np.array([text is not None for text in self._texts], dtype=bool)
            self._all_valid = bool(self._valid.all())
            self._references = streams.integers(StreamKind.DATA, signed=False)
        else:
            self._direct = LengthPrefixedValues(streams, StreamKind.DATA)

    def read_values(self, count: int) -> list[object] | np.ndarray:
        return self._read_direct(count) if self._dictionary is None else self._look_up(count)

    def _read_direct(self, count: int) -> list[object]:
        block, starts = self._direct.read_block(count)
        limit = self.streams.node.maximum_length
        if not block.isascii():
            return [self._text(number, block[start:end])
                    for number, (start, end) in enumerate(itertools.pairwise(starts.tolist()))]
        # ASCII: one character a byte, so the text is cut where the bytes are.
        if limit is not None and count:
            lengths = np.diff(starts)
            too_long = np.flatnonzero(lengths > limit)
            if too_long.size:
                number = int(too_long[0])
                self._text(number, block[starts[number]:starts[number + 1]])
        text = block.decode("ascii")
        del block  # the text replaces it
        return cast(list[object], cut(text, starts))

    def _look_up(self, count: int) -> np.ndarray:
        assert self._dictionary is not None
        size = len(self._dictionary)
        stored = self._references.read(count)
        if count and stored.max() >= size:
            number = int(np.flatnonzero(stored >= size)[0])
            raise self.value_error(CorruptStream, number, f"dictionary reference {stored[number]}; "
                                   f"the dictionary has {size} entries")
        # The references in the narrowest type that holds the dictionary's numbers: the
        # 64-bit ones are not held beside the values (docs/architecture.md, 'Memory budget').
        references = stored.astype(np.min_scalar_type(size))
        del stored
        values = self._texts[references]
        if not self._all_valid:  # an entry that is no text: its first row raises what _text says
            bad = np.flatnonzero(~self._valid[references])
            if bad.size:
                number = int(bad[0])
                self._text(number, self._dictionary[references[number]])
        return values

    def _text(self, number: int, value: bytes) -> str:
        try:
            text = value.decode("utf-8")
        except UnicodeDecodeError as error:
            raise self.value_error(InvalidValue, number, f"the value is not UTF-8 ({error.reason} at "
                                   f"byte {error.start} of the value)") from error
        limit = self.streams.node.maximum_length
        if limit is not None and len(text) > limit:
            raise self.value_error(InvalidValue, number, f"{len(text)} characters; the maximum "
                                   f"length is {limit}")
        return text


def _entry_texts(entries: list[bytes], limit: int | None) -> np.ndarray:
    """The dictionary's entries as text, None for one that is not UTF-8 or is too long (the
    rows that refer to it raise :class:`InvalidValue`)."""
    texts = np.empty(len(entries), dtype=object)
    for number, entry in enumerate(entries):
        try:
            text = entry.decode("utf-8")
        except UnicodeDecodeError:
            continue
        texts[number] = text if limit is None or len(text) <= limit else None
    return texts


def write_strings(node: TypeNode, values: list[object], settings: WriteSettings) -> ColumnOutput:
    encoded = [_utf8(node, value) for value in values]
    if not _use_dictionary(encoded, settings):
        return ColumnOutput(settings.direct, length_prefixed_streams(encoded, StreamKind.DATA, settings))
    dictionary = sorted(set(encoded))
    reference = {entry: number for number, entry in enumerate(dictionary)}
    streams = length_prefixed_streams(dictionary, StreamKind.DICTIONARY_DATA, settings)
    streams[StreamKind.DATA] = settings.integers([reference[value] for value in encoded], signed=False)
    return ColumnOutput(settings.dictionary, streams, dictionary_size=len(dictionary))


def _utf8(node: TypeNode, value: object) -> bytes:
    if not isinstance(value, str):
        raise InvalidValue(f"{node.describe()}: {value!r} is not a str")
    if node.maximum_length is not None and len(value) > node.maximum_length:
        raise InvalidValue(f"{node.describe()}: {value!r} is longer than {node.maximum_length} characters")
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as error:  # a lone surrogate
        raise InvalidValue(f"{node.describe()}: {value!r} has no UTF-8 form") from error


def _use_dictionary(encoded: list[bytes], settings: WriteSettings) -> bool:
    if settings.forced_encoding is not None:
        return settings.forced_encoding in DICTIONARY_ENCODINGS
    return bool(encoded) and len(set(encoded)) <= settings.dictionary_threshold * len(encoded)
