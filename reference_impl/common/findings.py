"""What a validator reports, in both formats: a finding's severity (docs/architecture.md,
'Verdicts').

* ``untrue``: the metadata contradicts the data: a reader that trusts it skips rows it
  should return, or rejects good data;
* ``nonconforming``: it breaks a rule of the specification without being untrue (a bound
  that is not the exact minimum, statistics a reader is told to distrust).

Each format's ``validation.findings`` says where a finding is (Parquet: column, row group,
page; ORC: column, stripe, row group) and lists its kinds.
"""

from __future__ import annotations

__all__ = ["NONCONFORMING", "SEVERITIES", "SHOWN_BYTES", "UNTRUE", "show"]

SEVERITIES = ("untrue", "nonconforming")
UNTRUE, NONCONFORMING = SEVERITIES
SHOWN_BYTES = 24  # longer byte values are cut in messages


def show(value: object) -> str:
    """A value for a message (long byte strings cut)."""
    if isinstance(value, bytes | bytearray) and len(value) > SHOWN_BYTES:
        return f"{bytes(value[:SHOWN_BYTES])!r}... ({len(value)} bytes)"
    return repr(value)
