"""What only the reference writer can write (deliberate lies, Thrift extension bytes, row
groups of no rows) is claimed by no other engine: an engine claiming it would write a file
without it, and its cells would pass on a case they never exercised."""

from __future__ import annotations

import pytest

from conformance.cases.model import EMPTY_ROW_GROUPS_TAG, LIES, THRIFT_EXTENSION_TAG
from conformance.engines import get_engine

REFERENCE_ONLY = (*(f"lie:{lie}" for lie in LIES), THRIFT_EXTENSION_TAG, EMPTY_ROW_GROUPS_TAG)
# Engines that start without a JVM or node: the in-process ones and the Python adapters.
ENGINES = ("pyarrow", "fastparquet", "duckdb", "polars", "chdb", "datafusion")


@pytest.mark.parametrize("name", ENGINES)
def test_no_engine_but_the_reference_claims_a_reference_only_option(name):
    capabilities = get_engine(name).capabilities
    assert [tag for tag in REFERENCE_ONLY if capabilities.write_gap([tag]) is None] == []
    assert get_engine("reference").capabilities.write_gap(REFERENCE_ONLY) is None
