"""A hunt survives the reader it hunts: a hang is a `timeout` finding, a segfault a
`crash` finding, and the next example runs in a fresh worker (the property tests once
hung CI inside fastparquet, run in the test's own process)."""

from __future__ import annotations

from conformance.values import types as T
from tests.engines._helpers import single_column_case

from .hunt import Hunt, NewReadCrashOrHang, NewReadFailure

# Reads files by name: `int64` hangs, `int32` segfaults, anything else raises.
CRASHING = "tests.support.crashing_engine:CrashingEngine"
HANG_LIMIT_S = 3.0


def test_a_hanging_or_crashing_reader_is_a_finding_and_the_hunt_goes_on(tmp_path, importable_tests):
    hunt = Hunt("reference", CRASHING, tmp_path / "work", tmp_path / "corpus",
                shrink=False, cell_timeout_s=HANG_LIMIT_S)
    try:
        for name in ("int64-hangs", "int32-segfaults", "string-raises"):
            hunt.check(single_column_case(T.integer(32), [1], name=name))
    finally:
        hunt.close()
    assert hunt.counts["new finding"] == 3
    hang, error = hunt.failures[NewReadCrashOrHang].record, hunt.failures[NewReadFailure].record
    assert (hang["outcome"], hang["case_id"]) == ("timeout", "test/int64-hangs")
    assert f"no answer within {HANG_LIMIT_S:g} s" in hang["detail"]
    assert (error["outcome"], error["case_id"]) == ("error", "test/string-raises")
    assert "deliberate failure" in error["detail"]
