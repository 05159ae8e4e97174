"""Decoded values as both formats' readers hold them: a list, or one numpy array.

A decoder gives fixed-width numbers and booleans (and, for ORC, the other kinds with a
natural array) as a numpy array whose ``tolist()`` is the list of Python values the
specification's types map to; other values as that list itself. Parquet's pages and
ORC's stripes are then joined end to end, and Python values are made only when a caller
asks for them (docs/architecture.md, 'The reference implementation'). What a value is
stays each format's: Parquet's encodings/plain.py, ORC's columns/present.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["DecodedValues", "as_list", "joined"]

DecodedValues = list[object] | np.ndarray


def as_list(values: DecodedValues) -> list[object]:
    """``values`` as Python values (an array's ``tolist()``)."""
    return values.tolist() if isinstance(values, np.ndarray) else values


def joined(pieces: Sequence[DecodedValues]) -> DecodedValues:
    """``pieces`` end to end: one array if they all are (one ``tolist()`` is then cheaper
    than one per piece), else a list of Python values; a single piece as it is."""
    if len(pieces) == 1:  # nothing to join: no copy
        return pieces[0]
    arrays = [piece for piece in pieces if isinstance(piece, np.ndarray)]
    if pieces and len(arrays) == len(pieces):
        return np.concatenate(arrays)
    return [value for piece in pieces for value in as_list(piece)]
