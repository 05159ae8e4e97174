"""ORC acceptable files: a rule broken, exactly one reading, read under a named lenient rule.

The ORC side of the verdicts of docs/architecture.md ('Verdicts'), modelled on
``golden/parquet/lenient_metadata_files.py``: each file breaks one rule of
``reference_impl/orc`` that has a lenient reading (``reference_impl.common.leniency.Rule``),
and that reading is its original's rows; read strictly, the reference raises the rule's
error class.

* ``orc_proto.FIELD_WIRE_TYPE`` (ORCv1.md, 'File Metadata'): a known field of the stripe
  statistics sent with another wire type is skipped, as protobuf-generated parsers skip
  it; no row depends on the statistics.
* ``columns/registry.UNKNOWN_ENCODING`` (orc_proto.proto, message ColumnEncoding): a
  ColumnEncoding kind that is no ColumnEncoding.Kind, on a STRUCT, whose one encoding is
  DIRECT (protobuf 2 reads an unknown enum number as absent, and absent as DIRECT).

Each file is the reference writer's valid file with one thing changed, found through its
own tail and stripe footer, as in bad_files.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from conformance.formats import ORC
from reference_impl.common.leniency import Rule
from reference_impl.orc.columns.registry import UNKNOWN_ENCODING
from reference_impl.orc.metadata.orc_proto import FIELD_WIRE_TYPE, encode
from reference_impl.orc.metadata.protobuf_wire import encode_len_field

from ..bad_file import ACCEPTABLE, BadFile
from .bad_files import (
    FIRST_COLUMN,
    UNKNOWN_ENUM_VALUE,
    _stripe,
    _tail,
    _with_metadata_bytes,
    _with_stripe,
    ints,
)

__all__ = ["acceptable_files"]

# orc_proto.proto field numbers: Metadata.stripeStats, StripeStatistics.colStats,
# ColumnStatistics.bytesOnDisk (a uint64, a varint on the wire).
STRIPE_STATS_FIELD = 1
COL_STATS_FIELD = 1
BYTES_ON_DISK_FIELD = 11
BYTES_ON_DISK_AS_BYTES = b"\x2a"  # a one-byte string where a varint belongs
ROOT_COLUMN = 0  # the root STRUCT


def statistics_field_wire_type() -> bytes:
    """Stripe 0's statistics of column x gain bytesOnDisk sent as a length-delimited field."""
    raw = ints()
    metadata = _tail(raw).metadata
    assert metadata is not None
    (stripe,) = metadata.stripe_stats
    columns = [encode(statistics) for statistics in stripe.col_stats]
    columns[FIRST_COLUMN] += encode_len_field(BYTES_ON_DISK_FIELD, BYTES_ON_DISK_AS_BYTES)
    stripe_bytes = b"".join(encode_len_field(COL_STATS_FIELD, column) for column in columns)
    return _with_metadata_bytes(raw, encode_len_field(STRIPE_STATS_FIELD, stripe_bytes))


def struct_encoding_unknown() -> bytes:
    """The root STRUCT's ColumnEncoding has kind UNKNOWN_ENUM_VALUE."""
    raw = ints()
    stripe = _stripe(raw)
    columns = list(stripe.footer.columns)
    columns[ROOT_COLUMN] = dataclasses.replace(columns[ROOT_COLUMN], kind=UNKNOWN_ENUM_VALUE)
    return _with_stripe(raw, stripe.streams, dataclasses.replace(stripe.footer, columns=columns))


def _acceptable(name: str, fault: str, rule: Rule, make: Callable[[], bytes]) -> BadFile:
    return BadFile(f"orc-lenient/{name}", fault, rule.error.__name__, (rule.spec,), make, ints,
                   verdict=ACCEPTABLE, format=ORC)


def acceptable_files() -> list[BadFile]:
    """One file per lenient rule of the ORC reader."""
    return [
        _acceptable("statistics-field-wire-type", "Stripe 0's ColumnStatistics of column x carries "
                    "bytesOnDisk (a uint64) as a length-delimited field.", FIELD_WIRE_TYPE,
                    statistics_field_wire_type),
        _acceptable("struct-encoding-kind-unknown", f"The root STRUCT's ColumnEncoding has kind "
                    f"{UNKNOWN_ENUM_VALUE}, no ColumnEncoding.Kind.", UNKNOWN_ENCODING,
                    struct_encoding_unknown),
    ]
