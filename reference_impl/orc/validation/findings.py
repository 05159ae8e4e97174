"""What the ORC validator reports: a :class:`Finding`, with the rule text it checks and the
severity its strength gives, as both formats share them (``reference_impl/common/findings.py``;
the texts: ``rule_texts``).

A finding names the column (its id and its path of field names), the stripe (None for the
file's statistics) and the row group (None above the row index). The statistics kinds are
checked alike at the three levels (ORCv1.md, 'Column Statistics'; orc_proto.proto,
``message ColumnStatistics``):

* ``statistics.number_of_values``: "the number of values": the column's non-null
  values (a reader's count of rows that hold one).
* ``statistics.has_null``: hasNull false where the column holds a null: "the
  hasNull flag is used by ORC's predicate pushdown to better answer 'IS NULL' queries",
  so a reader that trusts it skips rows it should return. hasNull true without a null is
  not reported: writers mark a child of a null struct or list as null or leave it out.
* ``statistics.<kind>.minimum`` / ``.maximum``: not a bound: the minimum above
  some value, or the maximum below, under the type's order (integers, dates, decimals by
  value; doubles without NaN; strings by their UTF-8 bytes, ``lower_bound`` and
  ``upper_bound`` too; timestamps by their UTC instant in milliseconds, and as
  ``statistics.timestamp.nanos.*`` by the instant in nanoseconds that the milliseconds
  and ``minimum_nanos`` / ``maximum_nanos`` make).
* ``statistics.<kind>.inexact``: a bound that is not the actual minimum
  or maximum: the text has the writer record "the minimum and maximum values".
* ``statistics.<kind>.sum``: the sum of integers, decimals, string and binary
  lengths, or doubles (within the rounding of adding them in any order) differs; or a sum
  is recorded where "the sum overflows long" and "no sum is recorded".
* ``statistics.boolean.count``: BucketStatistics' count of true values.
* ``statistics.collection.*``: a list's or map's ``min_children``,
  ``max_children`` and ``total_children`` (the text defines them by name only).
* ``statistics.bytes_on_disk``: neither the stored bytes of the column's
  data-area streams nor of all its streams, in the stripe or (summed) the file (the text
  names the field only; ``statistics_checks``).
* ``statistics.kind``: statistics of another type than the column's (GeospatialStatistics
  on a column that is neither GEOMETRY nor GEOGRAPHY among them).
* ``geospatial_statistics.*``: a GEOMETRY or GEOGRAPHY column's bounding box or type codes
  against its WKB values (ORCv2.md, 'Column Statistics'; the checks both formats share,
  ``reference_impl/common/geospatial_checks.py``, list the kinds).
* ``statistics.stripe_count``: the Metadata holds statistics for another number of
  stripes than the Footer lists (orc_proto.proto ``message Metadata``: one
  StripeStatistics per stripe).
* ``row_index.<check>``: a ROW_INDEX that does not lead where it says
  (``reference_impl/orc/row_index_check.py``): a column without one, another number of
  entries than row groups, an entry with the wrong count of position numbers, or a
  position that is not where its row group's first value lies (check ``position``).
* ``bloom_filter.*``: see ``bloom_filter_checks``.
* ``writer_version.*``: statistics the text tells readers to distrust from
  this writer version (``writer_version``); they are not checked.
* ``rule.<id>``: a rule the file breaks with a single reading, read past as
  the reader does (``reference_impl/common/leniency.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

from reference_impl.common.findings import (
    ADVISORY,
    AMBIGUOUS,
    NONCONFORMING,
    SEVERITIES,
    UNTRUE,
    RuleFinding,
    RuleText,
    show,
)
from reference_impl.orc.validation.rule_texts import rule_text

__all__ = ["ADVISORY", "AMBIGUOUS", "NONCONFORMING", "SEVERITIES", "UNTRUE", "Finding", "Place", "show"]


@dataclass(frozen=True)
class Finding(RuleFinding):
    kind: str
    rule: RuleText  # the sentence checked, its section and strength
    column: str  # "<id> <path>", e.g. "3 a.b"
    stripe: int | None  # None: the file's statistics
    row_group: int | None  # None: a whole stripe or the file
    message: str

    @classmethod
    def of(cls, kind: str, column: str, stripe: int | None, row_group: int | None,
           message: str) -> Finding:
        """A finding of a kind of ``rule_texts``."""
        return cls(kind, rule_text(kind), column, stripe, row_group, message)

    @property
    def where(self) -> str:
        stripe = "file" if self.stripe is None else f"stripe {self.stripe}"
        group = "" if self.row_group is None else f", row group {self.row_group}"
        return f"column {self.column}, {stripe}{group}"


@dataclass(frozen=True)
class Place:
    """Makes findings for one column's statistics at one level."""

    column: str
    stripe: int | None = None
    row_group: int | None = None

    def __call__(self, kind: str, message: str) -> Finding:
        return Finding.of(kind, self.column, self.stripe, self.row_group, message)
