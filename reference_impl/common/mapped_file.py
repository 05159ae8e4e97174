"""A file's bytes as both formats' readers hold them: a read-only memory map.

The readers hold one row group or stripe at a time (docs/architecture.md, 'Memory
budget'), and the file's bytes would otherwise be a second copy of the whole file beside
it. A read-only map (:class:`mmap.mmap`) is indexed and sliced like ``bytes``: an index
is an int, a slice a ``bytes`` copy of that range alone, and numpy and ``struct`` read it
in place through the buffer protocol. It has no ``bytes`` methods beyond ``find``, is not
hashable and compares by identity, so a reader compares slices of it, never the map.

The pages a read touches count in the process's resident memory (they are the page
cache's, shared, and dropped under pressure), not in the Python allocators':
:func:`release_pages` gives them back after each part, so that a streamed read does not
keep the whole file resident, and :func:`close_file` unmaps it once its contents are
read. A value that still views the map (a numpy array made in place) keeps it open:
the decoders copy what they give out of it.
"""

from __future__ import annotations

import mmap
import os
from typing import TypeVar

import numpy as np

__all__ = ["FileBytes", "close_file", "in_place", "map_file", "owned", "release_pages"]

FileBytes = bytes | mmap.mmap  # a file's bytes: given by the caller, or mapped from a path
T = TypeVar("T")


def map_file(path: str | os.PathLike[str]) -> FileBytes:
    """The bytes of the file at ``path``, mapped read-only (an empty file, which cannot be
    mapped, as ``b""``)."""
    with open(path, "rb") as stream:
        if os.fstat(stream.fileno()).st_size == 0:
            return b""
        return mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)  # the map outlives the descriptor


def in_place(file: FileBytes) -> bytes | memoryview:
    """What a decoder reads ``file`` through without copying it: bytes as they are, a map
    as a memoryview of it (the decoders take either; a map's slices would be copies)."""
    return memoryview(file) if isinstance(file, mmap.mmap) else file


def owned(values: T, file: FileBytes) -> T:
    """``values`` as given out of a decoder: a copy when it is a numpy array that views the
    mapped file ``file`` (a PLAIN page read in place), so that it neither keeps the map
    open nor escapes the Python allocators' count; else ``values`` itself."""
    if isinstance(file, mmap.mmap) and isinstance(values, np.ndarray) and _viewed(values) is file:
        return values.copy()
    return values


def _viewed(array: np.ndarray) -> object:
    """The object whose memory ``array`` views, through views of views and memoryviews."""
    base = array.base
    while isinstance(base, np.ndarray):
        base = base.base
    return base.obj if isinstance(base, memoryview) else base


def release_pages(file: FileBytes) -> None:
    """Drop the pages of a mapped file read so far from the process's resident memory; the
    next access reads them again from the page cache. Nothing for bytes."""
    if isinstance(file, mmap.mmap) and not file.closed and hasattr(mmap, "MADV_DONTNEED"):
        file.madvise(mmap.MADV_DONTNEED)


def close_file(file: FileBytes) -> None:
    """Unmap a mapped file whose contents are read; nothing for bytes."""
    if isinstance(file, mmap.mmap):
        file.close()
