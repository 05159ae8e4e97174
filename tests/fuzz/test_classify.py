"""The outcome classes, on synthetic outcomes of the worker (conformance/fuzz/classify.py)."""

from __future__ import annotations

from conformance.fuzz.classify import (
    CRASH,
    DOCUMENTED,
    HANG,
    MEMORY,
    READ,
    SILENT_CHANGE,
    UNDOCUMENTED,
    Outcome,
    after_read,
    of_death,
    of_exception,
    of_timeout,
)
from reference_impl.orc.errors import CorruptTail
from reference_impl.parquet.errors import CorruptPage

SEED_ROWS, OTHER_ROWS = "a" * 64, "b" * 64


def _raised(exc: BaseException) -> BaseException:
    try:
        raise exc
    except BaseException as caught:  # noqa: BLE001 - the traceback is what is tested
        return caught


def test_an_error_class_of_the_format_is_documented_with_where_it_was_raised():
    outcome = of_exception(_raised(CorruptTail("PostScript length 0", 41)), "orc")
    assert (outcome.klass, outcome.exc_type) == (DOCUMENTED, "CorruptTail")
    assert outcome.location == "tests/fuzz/test_classify.py:_raised"
    assert "PostScript length 0" in outcome.message


def test_the_other_formats_error_class_and_a_bare_exception_are_undocumented():
    assert of_exception(_raised(CorruptPage("x", 4)), "orc").klass == UNDOCUMENTED
    assert of_exception(_raised(OverflowError("date value out of range")), "orc").klass == UNDOCUMENTED
    assert of_exception(_raised(CorruptPage("x", 4)), "parquet").klass == DOCUMENTED


def test_memory_error_raised_or_a_worker_killed_at_the_limit_is_memory():
    assert of_exception(_raised(MemoryError()), "parquet").klass == MEMORY
    notice = "worker process exited with status 1\nstderr tail:\nMemoryError"
    assert of_death(notice).klass == MEMORY


def test_a_worker_dead_otherwise_is_a_crash_and_no_answer_a_hang():
    crash = of_death("worker process killed by signal SIGSEGV\nstderr tail:\n")
    assert (crash.klass, crash.location) == (CRASH, "killed by signal SIGSEGV")
    assert of_timeout(5.0).klass == HANG


def test_a_metadata_only_mutant_read_as_other_rows_is_a_silent_change():
    read = Outcome(READ, rows_digest=OTHER_ROWS)
    changed = after_read(read, SEED_ROWS, True, "orc.footer.rows_together")
    assert (changed.klass, changed.location) == (SILENT_CHANGE, "orc.footer.rows_together")


def test_same_rows_a_data_mutation_or_an_unreadable_seed_is_no_silent_change():
    assert after_read(Outcome(READ, rows_digest=SEED_ROWS), SEED_ROWS, True, "k").klass == READ
    assert after_read(Outcome(READ, rows_digest=OTHER_ROWS), SEED_ROWS, False, "k").klass == READ
    assert after_read(Outcome(READ, rows_digest=OTHER_ROWS), None, True, "k").klass == READ
    rejected = Outcome(DOCUMENTED, "CorruptTail", "x:y")
    assert after_read(rejected, SEED_ROWS, True, "k") is rejected
