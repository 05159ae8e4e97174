"""The decoded budget: how many bytes decompression may produce for one row group or stripe.

A compressed page (Parquet, Compression.md 'Overview': "The information required for
precise allocation of compressed and decompressed buffers is written in the PageHeader
struct") or chunk (ORC, ORCv1.md 'Compression': "no chunk will expand to more than the
compression chunk size") says how large it decompresses to, and each codec call is
capped at that size (``raw_codecs``). A size that is stated truthfully may still be
huge: a few kilobytes of Brotli or Zstandard expand to gigabytes, and a page may say
2 GiB, an ORC stream may hold any number of chunks of any block size. So the reader
keeps a budget (docs/architecture.md, 'Memory budget'):

* one *unit* is what a reader holds at once: a Parquet row group, an ORC stripe (the
  readers open one with :func:`budget_unit` around each); a codec call made outside any
  unit (a page index, an ORC file tail or row index read alone) is a unit of its own;
* what a unit declares it decompresses to, where the format says (Parquet: its column
  chunks' ``total_uncompressed_size``), is held against the budget before anything is
  decompressed (:func:`expect`): a bomb that states its size costs nothing;
* every decompressed byte is charged to the open unit before it is allocated
  (Parquet: a page's ``uncompressed_page_size``; ORC: each chunk is decompressed with
  at most the budget's room as its cap, and charged what it gave), so a bomb that hides
  its size in the metadata costs at most the budget;
* past :data:`DEFAULT_DECODED_BUDGET` bytes, or the limit :func:`decoded_budget` sets
  (``conformance read`` / ``validate --decoded-budget``), :func:`charge` raises the
  format's documented error (each format's ``DecodedBudgetExceeded``) with the offset.

Bytes stored uncompressed are not charged: they are the file's, which the reader holds
already.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

__all__ = ["DEFAULT_DECODED_BUDGET", "budget_unit", "charge", "decoded_budget", "expect", "room"]

# 1 GiB of decompressed bytes per row group or stripe: several times the row groups of
# 128 MiB that writers aim at (parquet-java's parquet.block.size) and ORC's stripes of
# 64 MiB (orc.stripe.size), far under what a 4 KB decompression bomb would claim.
DEFAULT_DECODED_BUDGET = 1 << 30


@dataclass
class _Unit:
    where: str
    spent: int = 0


_LIMIT: ContextVar[int] = ContextVar("decoded_budget_limit", default=DEFAULT_DECODED_BUDGET)
_UNIT: ContextVar[_Unit | None] = ContextVar("decoded_budget_unit", default=None)


@contextmanager
def decoded_budget(limit: int) -> Iterator[None]:
    """Reads inside the block may decompress ``limit`` bytes per row group or stripe."""
    if limit < 1:
        raise ValueError(f"the decoded budget must be a positive number of bytes, not {limit}")
    token = _LIMIT.set(limit)
    try:
        yield
    finally:
        _LIMIT.reset(token)


@contextmanager
def budget_unit(where: str) -> Iterator[None]:
    """Charge the decompression inside the block to one unit named ``where`` ("row group 3");
    inside another unit, to that one (a stream of a stripe is the stripe's)."""
    if _UNIT.get() is not None:
        yield
        return
    token = _UNIT.set(_Unit(where))
    try:
        yield
    finally:
        _UNIT.reset(token)


def room() -> int:
    """The bytes the open unit (or a call outside any) may still decompress."""
    unit = _UNIT.get()
    return _LIMIT.get() - (unit.spent if unit is not None else 0)


def expect(size: int, *, what: str, error: type[Exception], offset: int) -> None:
    """Raise ``error`` (the format's, with the file ``offset``) unless ``size`` bytes that
    ``what`` declares it decompresses to fit in the open unit's room; charges nothing."""
    unit = _UNIT.get()
    if size > room():
        limit = _LIMIT.get()
        where = (f"{unit.where}, after {unit.spent} decompressed bytes" if unit is not None and unit.spent
                 else unit.where if unit is not None else "one call")
        raise error(f"{what}: {size} decompressed bytes do not fit in the decoded budget of {limit} "
                    f"bytes ({where}); a file that means it can be read with a larger budget "
                    f"(--decoded-budget; docs/architecture.md, 'Memory budget')", offset)


def charge(size: int, *, what: str, error: type[Exception], offset: int) -> None:
    """Charge ``size`` decompressed bytes of ``what`` to the open unit, or raise ``error``
    (as :func:`expect`) when they do not fit in its room."""
    expect(size, what=what, error=error, offset=offset)
    unit = _UNIT.get()
    if unit is not None:
        unit.spent += size
