"""The case catalogue, the bad-file corpus and the property cases cite today's
specification texts, not the older printed website the project started from
(docs/citations.md, 'Which text to cite'). Saved regressions keep the sections
recorded when they were found (their id is a digest of them)."""

from __future__ import annotations

from conformance.cases import all_cases
from conformance.cases.model import WriteOptions
from conformance.golden.bad_corpus import bad_files
from conformance.values import Field, Schema
from conformance.values import types as T
from tests.property.strategies import spec_sections

OLD_SEED = "parquet-format-docs.txt"
REGRESSION = "regression/"


def test_no_catalogue_entry_cites_the_old_seed() -> None:
    declared = [case for case in all_cases() if not case.id.startswith(REGRESSION)]
    entries = {s for case in declared for s in case.spec} | {s for bad in bad_files() for s in bad.spec}
    nullable = Schema((Field("x", T.integer(32), True),))
    entries |= {
        s for codec in ("UNCOMPRESSED", "ZSTD") for s in spec_sections(nullable, WriteOptions(codec=codec))
    }
    assert sorted(s for s in entries if s.startswith(OLD_SEED)) == []
