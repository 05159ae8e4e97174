"""Where a run's cell time went: cell-seconds per engine (`conformance.matrix.timeline`)."""

from __future__ import annotations

from conformance.matrix.timeline import TOP_ENGINES, cell_seconds, cell_seconds_line


def _cell(phase: str, writer: str, reader: str | None, seconds: float | None) -> dict:
    return {"phase": phase, "writer": writer, "reader": reader, "duration_s": seconds}


def test_a_write_is_its_writers_time_and_a_read_its_readers():
    records = [_cell("write", "spark", None, 2.0), _cell("read", "spark", "pyarrow", 0.25),
               _cell("read", "pyarrow", "spark", 1.5), _cell("read", "pyarrow", "spark:filter", 0.5),
               _cell("read", "spark", "pyarrow", None)]  # a cell that never ran: no time
    assert cell_seconds(records) == {"spark": (2, 3.5), "spark:filter": (1, 0.5),
                                     "pyarrow": (2, 0.25)}
    assert list(cell_seconds(records)) == ["spark", "spark:filter", "pyarrow"]  # most first


def test_the_line_names_the_total_and_the_engines_that_took_most():
    records = [_cell("read", "w", f"r{i}", float(i)) for i in range(1, TOP_ENGINES + 3)]
    line = cell_seconds_line(records)
    total = sum(range(1, TOP_ENGINES + 3))
    assert line.startswith(f"{total:.1f} s in all; r{TOP_ENGINES + 2} {TOP_ENGINES + 2:.1f} s (1 cell); ")
    assert line.count(" (1 cell)") == TOP_ENGINES
    assert "r1 " not in line and "r2 " not in line
