"""The masks applied to an encrypted column's values before its unencrypted variant is written.

ORCv1.md, 'Data Masks': "The user's data is statically masked before writing the
unencrypted variant"; the three standard masks are "nullify - all values become null",
"redact - replace characters with constants such as X or 9" and "sha256 - replace string
with the SHA 256 of the value"; "Masks are not allowed to change the type of the column".

Here, as ORC Java does: nullify makes the column's every row null (its whole subtree);
redact writes an upper-case letter as X, a lower-case one as x and a decimal digit as 9,
other characters as they are; sha256 writes the upper-case hex of the SHA-256 of the
value's UTF-8 bytes. redact and sha256 are defined on strings: a STRING column (as the
root of an encrypted subtree) takes them, a column of another kind is refused
(:class:`InvalidValue`) rather than given a mask the text does not define for it.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Callable

from reference_impl.orc.errors import InvalidValue
from reference_impl.orc.metadata.proto_enums import TypeKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["MASKS", "NULLIFY", "REDACT", "SHA256", "mask_values"]

NULLIFY, REDACT, SHA256 = "nullify", "redact", "sha256"
# Unicode general categories (upper-case letter, lower-case letter, decimal digit) and
# the constants redact writes for them.
REDACTIONS = {"Lu": "X", "Ll": "x", "Nd": "9"}
STRING_MASK_KINDS = frozenset({TypeKind.STRING})


def _nullify(value: object) -> object:
    return None


def _redact(value: object) -> object:
    return None if value is None else "".join(REDACTIONS.get(unicodedata.category(c), c) for c in str(value))


def _sha256(value: object) -> object:
    return None if value is None else hashlib.sha256(str(value).encode("utf-8")).hexdigest().upper()


MASKS: dict[str, Callable[[object], object]] = {NULLIFY: _nullify, REDACT: _redact, SHA256: _sha256}


def check_mask(name: str, node: TypeNode, field: str) -> None:
    """InvalidValue unless ``name`` is a mask defined here for ``node``'s kind."""
    if name not in MASKS:
        raise InvalidValue(f"column {field!r}: mask {name!r} is not one of {sorted(MASKS)}")
    if name != NULLIFY and node.kind not in STRING_MASK_KINDS:
        raise InvalidValue(
            f"column {field!r} ({node.describe()}): mask {name!r} is defined for strings only ('Data Masks')"
        )


def mask_values(name: str, values: list[object]) -> list[object]:
    """``values`` (one column's, by row) as the mask ``name`` writes them."""
    return [MASKS[name](value) for value in values]
