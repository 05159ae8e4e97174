"""How an exception out of an adapter becomes a cell's outcome; a panic is a crash."""

from __future__ import annotations

from conformance.engines.base import EngineCrashed, LossyConversion, Unsupported
from conformance.engines.protocol.external import adapter_exception
from conformance.matrix.failures import failure_outcome


def test_an_engine_error_is_an_error_with_its_class_and_message():
    outcome, detail = failure_outcome(OSError("no such column"))
    assert outcome == "error" and detail.startswith("OSError: no such column")


def test_a_panic_that_its_binding_caught_is_a_crash():
    PanicException = type("PanicException", (BaseException,), {})  # PyO3's, as polars raises it
    outcome, detail = failure_outcome(PanicException("assertion failed: values.len() >= 4"))
    assert outcome == "crash" and "assertion failed" in detail


def test_an_adapter_reporting_a_panic_is_a_crash_cell():
    for name in ("Panic", "PanicException"):
        outcome, _ = failure_outcome(adapter_exception({"class": name, "message": "unreachable"}))
        assert outcome == "crash"
    assert failure_outcome(adapter_exception({"class": "RuntimeError", "message": "x"}))[0] == "error"


def test_the_other_verdicts():
    assert failure_outcome(Unsupported("no INT96"))[0] == "unsupported"
    assert failure_outcome(EngineCrashed("died"))[0] == "crash"
    assert failure_outcome(LossyConversion("2^60 as a double"))[0] == "error"
