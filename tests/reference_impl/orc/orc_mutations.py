"""Test helper: byte-level mutations of one-stripe, uncompressed ORC files.

ORCv1.md, 'File Tail' and 'Stripe Footer': the StripeFooter ends the stripe, and the
Metadata, Footer and PostScript follow it. A mutation decodes the messages, changes
them, and writes the tail again (lengths updated); the streams' bytes are untouched.
``with_writer_version`` takes a file of any number of stripes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from reference_impl.orc.metadata.file_tail import read_file_tail, write_file_tail
from reference_impl.orc.metadata.orc_proto import Footer, Stream, StripeFooter, decode, encode
from tests.reference_impl.orc.orc_hand_built import stored


def rebuilt(data: bytes, footer: Callable[[Footer], Footer] = lambda f: f,
            stripe_footer: Callable[[StripeFooter], StripeFooter] = lambda f: f) -> bytes:
    """The one-stripe, uncompressed file ``data`` with its Footer and StripeFooter changed."""
    tail = read_file_tail(data, stored)
    (information,) = tail.footer.stripes
    lengths = (information.index_length or 0) + (information.data_length or 0)
    footer_start = (information.offset or 0) + lengths
    new_stripe_footer = encode(stripe_footer(decode(StripeFooter, data[footer_start:tail.metadata_offset])))
    information = dataclasses.replace(information, footer_length=len(new_stripe_footer))
    new_footer = footer(dataclasses.replace(tail.footer, stripes=[information]))
    return (data[:footer_start] + new_stripe_footer
            + write_file_tail(new_footer, tail.metadata, tail.postscript, stored))


def stream_changed(index: int, **changes: int) -> Callable[[StripeFooter], StripeFooter]:
    """A StripeFooter change: stream ``index`` with its fields replaced."""
    def change(footer: StripeFooter) -> StripeFooter:
        streams = list(footer.streams)
        streams[index] = dataclasses.replace(streams[index], **changes)
        return dataclasses.replace(footer, streams=streams)
    return change


def boundary_moved(index: int, delta: int) -> Callable[[StripeFooter], StripeFooter]:
    """Stream ``index`` ``delta`` bytes longer and the next one ``delta`` bytes shorter: every
    byte stays where it is, only the boundary between the two moves."""
    def change(footer: StripeFooter) -> StripeFooter:
        streams: list[Stream] = list(footer.streams)
        first, second = streams[index], streams[index + 1]
        streams[index] = dataclasses.replace(first, length=(first.length or 0) + delta)
        streams[index + 1] = dataclasses.replace(second, length=(second.length or 0) - delta)
        return dataclasses.replace(footer, streams=streams)
    return change


def rows_changed(rows: int) -> Callable[[Footer], Footer]:
    """A Footer change: the stripe's and the file's row counts both set to ``rows``."""
    def change(footer: Footer) -> Footer:
        (information,) = footer.stripes
        return dataclasses.replace(footer, number_of_rows=rows,
                                   stripes=[dataclasses.replace(information, number_of_rows=rows)])
    return change


def with_writer_version(data: bytes, version: int) -> bytes:
    """The uncompressed file ``data`` with PostScript.writer_version set to ``version``."""
    tail = read_file_tail(data, stored)
    postscript = dataclasses.replace(tail.postscript, writer_version=version)
    return data[:tail.metadata_offset] + write_file_tail(tail.footer, tail.metadata, postscript, stored)
