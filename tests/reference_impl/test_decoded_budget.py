"""The decoded budget (reference_impl/common/decoded_budget.py; docs/architecture.md,
'Memory budget'): a decompression bomb of either format is DecodedBudgetExceeded, with
its offset, in bounded memory (tracemalloc: the Python allocators, numpy's included)."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import pytest

from conformance.golden.parquet.bad_files import _with_chunk
from reference_impl.common.decoded_budget import budget_unit, charge, decoded_budget, room
from reference_impl.orc import errors as orc_errors
from reference_impl.orc.reader import read_orc
from reference_impl.parquet import errors as parquet_errors
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.validation.validate import validate

from .decompression_bombs import DECOMPRESSED, VALUES, orc_bomb, parquet_bomb

BUDGET = DECOMPRESSED // 4  # a quarter of what the bombs expand to
# What a rejected read may hold at its peak: the budget and as much again for what was
# decoded before it ran out (the bytes a page or chunk gave, the values made of them).
PEAK_BOUND = 2 * BUDGET
ROW_GROUP_START = 4  # the row group's data starts after the leading magic "PAR1"


def peak_while(action: Callable[[], object]) -> tuple[BaseException, int]:
    """The exception ``action`` raises and the most memory traced while it ran."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        start, _ = tracemalloc.get_traced_memory()
        with pytest.raises(Exception) as raised:
            action()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return raised.value, peak - start


def test_the_bombs_read_in_full_under_the_default_budget():
    assert len(read_parquet(parquet_bomb()).records) == VALUES
    assert len(read_orc(orc_bomb()).rows) == VALUES


def test_a_parquet_bomb_that_states_its_size_is_refused_before_anything_is_decompressed():
    data = parquet_bomb()
    with decoded_budget(BUDGET):
        error, peak = peak_while(lambda: read_parquet(data))
    assert type(error) is parquet_errors.DecodedBudgetExceeded
    assert error.offset == ROW_GROUP_START
    assert f"decoded budget of {BUDGET} bytes" in error.message and "row group 0" in error.message
    assert peak < PEAK_BOUND // 8  # nothing decompressed: the file and its metadata only


def test_a_parquet_bomb_whose_metadata_hides_its_size_stops_at_the_budget():
    # The pages still tell the truth; the chunk's metadata says 1 MiB (a varint as long as the truth's).
    data = _with_chunk(parquet_bomb(), total_uncompressed_size=1 << 20)
    with decoded_budget(BUDGET):
        error, peak = peak_while(lambda: read_parquet(data))
    assert type(error) is parquet_errors.DecodedBudgetExceeded
    assert "BROTLI page" in error.message and error.offset is not None and error.offset > 4
    assert peak < PEAK_BOUND


def test_an_orc_stripe_of_many_small_chunks_stops_at_the_budget():
    data = orc_bomb()
    with decoded_budget(BUDGET):
        error, peak = peak_while(lambda: read_orc(data))
    assert type(error) is orc_errors.DecodedBudgetExceeded
    assert "ZSTD chunk" in error.message and "stripe 0" in error.message
    assert error.offset is not None and 3 <= error.offset < len(data)
    assert peak < PEAK_BOUND


def test_an_orc_chunk_larger_than_the_room_left_is_refused_while_it_is_decompressed():
    """The block size (64 KiB here) caps a chunk; a budget smaller than it caps it lower."""
    with decoded_budget(1 << 10):
        with pytest.raises(orc_errors.DecodedBudgetExceeded, match="ZSTD chunk"):
            read_orc(orc_bomb())


def test_a_budget_is_a_positive_number_of_bytes():
    with pytest.raises(ValueError, match="positive"):
        with decoded_budget(0):
            pass


def test_charges_add_up_inside_a_unit_and_not_outside_one():
    with decoded_budget(100):
        charge(60, what="a", error=parquet_errors.DecodedBudgetExceeded, offset=0)
        charge(60, what="b", error=parquet_errors.DecodedBudgetExceeded, offset=0)  # each its own unit
        with budget_unit("row group 0"):
            charge(60, what="c", error=parquet_errors.DecodedBudgetExceeded, offset=0)
            with budget_unit("a stream inside it"):  # charged to the row group
                assert room() == 40
                with pytest.raises(parquet_errors.DecodedBudgetExceeded, match="after 60 decompressed"):
                    charge(41, what="d", error=parquet_errors.DecodedBudgetExceeded, offset=7)
        assert room() == 100


def test_the_parquet_validator_refuses_the_bomb_before_anything_is_decompressed():
    data = parquet_bomb()
    with decoded_budget(BUDGET):
        error, peak = peak_while(lambda: validate(data))
    assert type(error) is parquet_errors.DecodedBudgetExceeded and error.offset == ROW_GROUP_START
    assert peak < PEAK_BOUND // 8
