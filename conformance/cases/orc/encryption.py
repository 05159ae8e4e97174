"""Column encryption: one column, a nested column, two keys, and each mask.

Spec: ORCv1.md, 'Column Encryption' and its sections 'Data Masks', 'Encryption Keys',
'Encryption Variants' and 'Stream Encryption'. The reference writes each case with the
suite's test keys (conformance/kms/orc_keys.py) and reads it with them, so the expected
values are the true ones; a reader with no way to take keys gets the masked view (the
mask a case names, nullify otherwise) and is judged against it, as the case definition
gives it (masked_view.py). A case's masked column is a string, the kind 'Data Masks'
defines redact and sha256 for.
"""

from __future__ import annotations

from conformance.values import Field, Schema

from ..model import Case
from . import sections as S
from . import types as T
from .options import MASKS, OrcWriteOptions

AREA = "orc/encryption"
ROWS = 40
# The striped cases: three stripes, each with its own encryption stripe id and IVs, and
# row groups in them. Stripes cut at Spark's batch of 1,024 rows, row groups at ORC
# Java's smallest row index stride (1,000), so both Java writers can write them.
STRIPED_ROWS = 2_500
STRIPE_ROWS = 1_024
STRIDE = 1_000
NULL_EVERY = 5

_SCHEMA = Schema((Field("id", T.integer(64)), Field("name", T.string()),
                  Field("card", T.struct_of(Field("number", T.string()), Field("expiry", T.integer(32))))))
_SPEC = (S.COLUMN_ENCRYPTION, S.ENCRYPTION_VARIANTS, S.STREAM_ENCRYPTION, S.ENCRYPTION_KEYS)


def _row(i: int) -> tuple[object, ...]:
    name = None if i % NULL_EVERY == 0 else f"Name {i} Ünï"
    card = None if i % NULL_EVERY == 1 else {"number": f"4111-{i:04}", "expiry": 202_600 + i}
    return (i, name, card)


def _case(name: str, title: str, options: OrcWriteOptions, spec: tuple[str, ...] = _SPEC) -> Case:
    rows = STRIPED_ROWS if options.stripe_row_limit else ROWS
    return Case(f"{AREA}/{name}", title, spec, _SCHEMA, tuple(_row(i) for i in range(rows)), options,
                format="orc")


def cases() -> list[Case]:
    return [
        _case("one-column", "one string column encrypted with a 128-bit key (AES_CTR_128), nullified for "
              "readers without it", OrcWriteOptions(encrypt={"name": "pii"})),
        _case("nested-column", "a STRUCT column's subtree encrypted as one variant with a 256-bit key "
              "(AES_CTR_256), in three stripes with a row index",
              OrcWriteOptions(encrypt={"card": "finance"}, stripe_row_limit=STRIPE_ROWS,
                              row_index_stride=STRIDE)),
        _case("two-keys", "two columns, two keys: two variants, ZLIB, three stripes with a row index",
              OrcWriteOptions(codec="ZLIB", encrypt={"name": "pii", "card": "finance"},
                              stripe_row_limit=STRIPE_ROWS, row_index_stride=STRIDE)),
        *(_case(f"mask-{mask}", f"a string column encrypted, its unencrypted variant masked with {mask}",
                OrcWriteOptions(encrypt={"name": "pii"}, masks={"name": mask}), (*_SPEC, S.DATA_MASKS))
          for mask in MASKS),
    ]
