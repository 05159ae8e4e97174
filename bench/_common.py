"""What every bench/ script shares: the files it measures, the measures taken on each (reads,
writes, validation, peak memory), best-of timing under a budget, the machine facts, the
printed lines, the markdown table and the JSON. A script per format (orc_bench.py,
parquet_bench.py) supplies a `Format`: how its files are made, read, written back and
validated by the reference and by pyarrow. bench/README.md says what each figure means.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.metadata
import json
import os
import platform
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_ROWS = 1_000_000
DEFAULT_REPEAT = 3
# Once the runs of one measure (say the reference's reads of one file) have taken this long
# in total, no more runs start: the best so far stands (the pure-Python reference may need
# minutes on 1M rows).
DEFAULT_BUDGET_SECONDS = 300.0
SEED = 20240501  # the same values in every run and every process
COLUMN = "value"  # every file's one top-level column
ENGINES = ("reference", "pyarrow")
MEGABYTE = 1_000_000


@dataclass(frozen=True)
class Shape:
    """One column of a format's files: its name, the encoding the files have, how its values
    are made: ``make(rng, rows)`` returns the Arrow array pyarrow writes and the values the
    reference reader must return for it, one per row, in the reader's own terms. A format
    script adds the writers' settings beyond the codec."""

    name: str
    encoding: str  # as the README's table names it
    make: Callable[[Any, int], tuple[Any, list[object]]]


@dataclass(frozen=True)
class BenchFile:
    shape: Shape
    codec: str  # a key of the format's codecs

    @property
    def name(self) -> str:
        return f"{self.shape.name}-{self.codec}"


@dataclass(frozen=True)
class Format:
    """How one format's files are made, read, written and validated by both engines."""

    script: str  # e.g. "bench/orc_bench.py", quoted under the markdown table
    suffix: str  # of the files written
    files: tuple[BenchFile, ...]
    # Each callable imports its engine when first called, so that `--engine reference`
    # with existing files never imports pyarrow; `imports` names, per engine, the modules
    # imported before the first run is timed, so that no time includes an import.
    imports: Mapping[str, Sequence[str]]
    # (file, Arrow table, path, parts): ``parts`` row groups or stripes (--parts), about
    pyarrow_write: Callable[[BenchFile, Any, Path, int], None]
    pyarrow_read: Callable[[Path], Any]  # an Arrow table
    reference_read: Callable[[Path], Any]  # the reference reader's contents
    # The reference reader's contents one row group or stripe at a time (open_parquet / open_orc).
    reference_stream: Callable[[Path], Iterable[Any]]
    # What the reference writer takes, made from the reader's contents before the clock starts.
    reference_write_input: Callable[[Any], Any]
    reference_write: Callable[[BenchFile, Any, Path], None]  # (file, that input, path)
    validate: Callable[[Path], Sequence[Any]]  # the validator `conformance validate` runs
    reference_values: Callable[[Any], list[object]]  # the contents' values of COLUMN, row by row

    def path(self, bench_file: BenchFile, directory: Path, rows: int, parts: int = 1) -> Path:
        cut = f"-{parts}parts" if parts > 1 else ""
        return directory / f"{bench_file.name}-{rows}{cut}{self.suffix}"


# -- timing ----------------------------------------------------------------------------


@dataclass
class Timing:
    best: float | None = None  # seconds; None when no run finished
    runs: int = 0
    error: str | None = None  # "ExceptionClass: message" when the run failed
    last: Any = field(default=None, repr=False)  # the last run's result


def time_runs(label: str, action: Callable[[], Any], repeat: int, budget: float) -> Timing:
    """Best of ``repeat`` runs of ``action``, fewer once ``budget`` seconds are spent. A
    garbage collection runs before every run; the collector stays on during it."""
    timing, spent = Timing(), 0.0
    for run in range(1, repeat + 1):
        timing.last = None  # let the previous result go before the next run
        gc.collect()
        progress(f"  {label}: run {run}/{repeat}")
        start = time.perf_counter()
        try:
            timing.last = action()
        except Exception as error:  # a failing engine is a result to report, not a crash
            timing.error = f"{type(error).__name__}: {error}"
            progress(f"  {label} failed: {timing.error}")
            return timing
        elapsed = time.perf_counter() - start
        timing.best = elapsed if timing.best is None else min(timing.best, elapsed)
        timing.runs, spent = run, spent + elapsed
        if spent > budget and run < repeat:
            progress(f"  {label}: {spent:.1f} s spent, over the {budget:g} s budget: best of {run} run(s)")
            break
    return timing


def peak_traced_bytes(action: Callable[[], Any]) -> int:
    """The most memory the Python allocators (numpy's included) held at once during
    ``action``, above what was held when it started (tracemalloc; bench/README.md says why)."""
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        start, _ = tracemalloc.get_traced_memory()
        action()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak - start


@dataclass(frozen=True)
class StreamedPeak:
    """A streamed read under tracemalloc (bench/README.md, 'Streamed reads')."""

    parts: int  # row groups or stripes read
    largest_part: int  # the most memory one decoded part held once given out
    peak: int  # the most the whole streamed read held at once, the file's bytes included


def streamed_peak(parts: Callable[[], Iterable[Any]]) -> StreamedPeak:
    """Read ``parts()`` one part at a time, dropping each before the next, under tracemalloc;
    each figure above what was held when the read started."""
    gc.collect()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        start, _ = tracemalloc.get_traced_memory()
        remaining = iter(parts())  # opening reads the footer or tail (and the file's bytes)
        count, largest = 0, 0
        while True:
            before, _ = tracemalloc.get_traced_memory()
            part = next(remaining, None)
            if part is None:
                break
            held, _ = tracemalloc.get_traced_memory()
            count, largest = count + 1, max(largest, held - before)
            del part
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return StreamedPeak(count, largest, peak - start)


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or not denominator:
        return None
    return numerator / denominator


# -- one file ------------------------------------------------------------------------------


@dataclass
class Result:
    name: str
    shape: str
    codec: str
    encoding: str
    rows: int
    file_bytes: int
    reference_read_seconds: float | None = None
    pyarrow_read_seconds: float | None = None
    reference_write_seconds: float | None = None
    pyarrow_write_seconds: float | None = None
    validate_seconds: float | None = None
    reference_read_peak_bytes: int | None = None
    parts: int | None = None  # row groups or stripes of the streamed read
    largest_part_bytes: int | None = None
    stream_peak_bytes: int | None = None
    runs: dict[str, int] = field(default_factory=dict)  # per measure, the runs made
    validate_findings: int | None = None
    errors: dict[str, str] = field(default_factory=dict)  # per measure that failed
    values_checked: bool = False
    values_mismatch: str | None = None

    @property
    def read_ratio(self) -> float | None:
        return ratio(self.reference_read_seconds, self.pyarrow_read_seconds)

    @property
    def write_ratio(self) -> float | None:
        return ratio(self.reference_write_seconds, self.pyarrow_write_seconds)

    @property
    def stream_ratio(self) -> float | None:
        """The streamed read's peak over its largest decoded part (the target: at most 2)."""
        return ratio(self.stream_peak_bytes, self.largest_part_bytes)

    def record(self, measure: str, timing: Timing) -> float | None:
        self.runs[measure] = timing.runs
        if timing.error:
            self.errors[measure] = timing.error
        return timing.best


def first_difference(read: list[object], expected: list[object]) -> str | None:
    """What differs between the values read and those written, if anything."""
    if len(read) != len(expected):
        return f"{len(read)} rows read, {len(expected)} written"
    for index, (value, wanted) in enumerate(zip(read, expected, strict=True)):
        if value != wanted:
            return f"row {index}: read {value!r}, wrote {wanted!r}"
    return None


class _Bench:
    """The measures of one run of a script, file after file."""

    def __init__(self, fmt: Format, options: argparse.Namespace, directory: Path) -> None:
        self.fmt, self.options, self.directory = fmt, options, directory

    def timed(self, label: str, action: Callable[[], Any]) -> Timing:
        return time_runs(label, action, self.options.repeat, self.options.budget)

    def measure(self, bench_file: BenchFile) -> Result:
        path = self.fmt.path(bench_file, self.directory, self.options.rows, self.options.parts)
        check = self.options.check and "reference" in self.options.engines
        expected: list[object] | None = None
        if check or not path.exists():
            progress(f"{bench_file.name}: making {self.options.rows} values")
            array, expected = bench_file.shape.make(_rng(), self.options.rows)
            if not path.exists():
                progress(f"{bench_file.name}: writing {path}")
                self.write_with_pyarrow(bench_file, array, path)
            del array
        result = Result(name=bench_file.name, shape=bench_file.shape.name, codec=bench_file.codec,
                        encoding=bench_file.shape.encoding, rows=self.options.rows,
                        file_bytes=path.stat().st_size)
        if "pyarrow" in self.options.engines:
            self.measure_pyarrow(bench_file, path, result)
        if "reference" in self.options.engines:
            contents = self.measure_reference(bench_file, path, result)
            if check and expected is not None and contents is not None:
                result.values_checked = True
                result.values_mismatch = first_difference(self.fmt.reference_values(contents), expected)
                if result.values_mismatch:
                    progress(f"{bench_file.name}: the reference read other values: {result.values_mismatch}")
        return result

    def write_with_pyarrow(self, bench_file: BenchFile, array: Any, path: Path) -> None:
        import pyarrow as pa

        temporary = path.with_suffix(".partial")  # a file cut short by ^C is never reused
        self.fmt.pyarrow_write(bench_file, pa.table({COLUMN: array}), temporary, self.options.parts)
        temporary.replace(path)

    def measure_pyarrow(self, bench_file: BenchFile, path: Path, result: Result) -> None:
        read = self.timed("pyarrow read", lambda: self.fmt.pyarrow_read(path))
        result.pyarrow_read_seconds = result.record("pyarrow read", read)
        if read.last is None:
            return
        table, read.last = read.last, None
        out = self.scratch(bench_file, "pyarrow")
        write = self.timed("pyarrow write",
                           lambda: self.fmt.pyarrow_write(bench_file, table, out, self.options.parts))
        result.pyarrow_write_seconds = result.record("pyarrow write", write)
        out.unlink(missing_ok=True)

    def measure_reference(self, bench_file: BenchFile, path: Path, result: Result) -> Any:
        """The reference's read, its peak memory, its write of what it read and the
        validator; returns the contents read (None when the read failed)."""
        read = self.timed("reference read", lambda: self.fmt.reference_read(path))
        result.reference_read_seconds = result.record("reference read", read)
        contents, read.last = read.last, None
        if contents is None:
            return None
        progress("  reference read: one more, under tracemalloc")
        result.reference_read_peak_bytes = peak_traced_bytes(lambda: self.fmt.reference_read(path))
        progress("  reference streamed read: one part at a time, under tracemalloc")
        streamed = streamed_peak(lambda: self.fmt.reference_stream(path))
        result.parts, result.largest_part_bytes = streamed.parts, streamed.largest_part
        result.stream_peak_bytes = streamed.peak
        out, table = self.scratch(bench_file, "reference"), self.fmt.reference_write_input(contents)
        write = self.timed("reference write", lambda: self.fmt.reference_write(bench_file, table, out))
        result.reference_write_seconds = result.record("reference write", write)
        out.unlink(missing_ok=True)
        validate = self.timed("validate", lambda: self.fmt.validate(path))
        result.validate_seconds = result.record("validate", validate)
        if validate.last is not None:
            result.validate_findings = len(validate.last)
        return contents

    def scratch(self, bench_file: BenchFile, engine: str) -> Path:
        return self.directory / f"{bench_file.name}-{self.options.rows}.{engine}-written{self.fmt.suffix}"


def _rng() -> Any:
    import numpy as np

    return np.random.default_rng(SEED)


# -- output ------------------------------------------------------------------------------

# The printed line's columns: (header, width). The ratios are reference / pyarrow.
LINE_COLUMNS = (("# name", -38), ("rows", 9), ("ref_read_s", 11), ("pa_read_s", 10), ("read_x", 8),
                ("ref_write_s", 12), ("pa_write_s", 11), ("write_x", 8), ("validate_s", 11),
                ("peak_MB", 9), ("parts", 6), ("part_MB", 8), ("stream_MB", 10), ("stream_x", 9))
TABLE_HEADER = ("file", "encoding", "rows", "read: reference (s)", "read: pyarrow (s)",
                "read: reference / pyarrow", "write: reference (s)", "write: pyarrow (s)",
                "write: reference / pyarrow", "validate (s)", "reference read peak (MB)",
                "row groups / stripes", "largest decoded part (MB)", "streamed read peak (MB)",
                "streamed peak / largest part")


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _megabytes(value: int | None) -> str:
    return "-" if value is None else f"{value / MEGABYTE:.1f}"


def _figures(result: Result) -> list[str]:
    """The figures of a line and of a table row, after the name (and encoding)."""
    return [_seconds(result.reference_read_seconds), _seconds(result.pyarrow_read_seconds),
            _ratio(result.read_ratio), _seconds(result.reference_write_seconds),
            _seconds(result.pyarrow_write_seconds), _ratio(result.write_ratio),
            _seconds(result.validate_seconds), _megabytes(result.reference_read_peak_bytes),
            "-" if result.parts is None else str(result.parts), _megabytes(result.largest_part_bytes),
            _megabytes(result.stream_peak_bytes), _ratio(result.stream_ratio)]


def _aligned(cells: Sequence[str]) -> str:
    return " ".join(f"{cell:<{-width}}" if width < 0 else f"{cell:>{width}}"
                    for cell, (_, width) in zip(cells, LINE_COLUMNS, strict=True))


LINE_HEADER = _aligned([header for header, _ in LINE_COLUMNS])


def result_line(result: Result) -> str:
    return _aligned([result.name, str(result.rows), *_figures(result)])


def markdown_table(fmt: Format, results: Sequence[Result], facts: dict[str, object], repeat: int) -> str:
    lines = ["| " + " | ".join(TABLE_HEADER) + " |", "|---|---|" + "---:|" * (len(TABLE_HEADER) - 2)]
    lines += [f"| {r.name} | {r.encoding} | {r.rows:,} | " + " | ".join(_figures(r)) + " |" for r in results]
    lines.append("")
    lines.append(f"Best of {repeat} runs in one process, {fmt.script}; {facts['cpus']} CPUs, "
                 f"Python {facts['python']}, pyarrow {facts['pyarrow']}, {facts['platform']}.")
    return "\n".join(lines)


def machine_facts() -> dict[str, object]:
    """What a figure depends on besides the code: printed with every run."""
    return {
        "cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "cpu_model": _cpu_model(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "pyarrow": importlib.metadata.version("pyarrow"),
        "numpy": importlib.metadata.version("numpy"),
        "platform": platform.platform(),
    }


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def write_json(path: Path, results: Sequence[Result], facts: dict[str, object],
               options: argparse.Namespace) -> None:
    document = {
        "machine": facts,
        "rows": options.rows,
        "repeat": options.repeat,
        "budget_seconds": options.budget,
        "engines": list(options.engines),
        "parts": options.parts,
        "results": [asdict(result) | {"read_ratio": result.read_ratio, "write_ratio": result.write_ratio,
                                      "stream_ratio": result.stream_ratio}
                    for result in results],
    }
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


# -- command line --------------------------------------------------------------------------


def parse_arguments(fmt: Format, description: str | None, argv: Sequence[str] | None) -> argparse.Namespace:
    example = fmt.files[-1]
    names = sorted({f.shape.name for f in fmt.files} | {f.name for f in fmt.files})
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--rows", type=_positive_int, default=DEFAULT_ROWS, help="rows per file")
    parser.add_argument("--repeat", type=_positive_int, default=DEFAULT_REPEAT,
                        help="runs of each measure per file; the best counts")
    parser.add_argument("--only", action="append", choices=names, metavar="NAME",
                        help=f"a column (every codec) or one file, e.g. {example.shape.name} or "
                             f"{example.name}; may be given more than once")
    parser.add_argument("--engine", choices=(*ENGINES, "both"), default="both",
                        help="measure one engine only (for whole-process timings) or both")
    parser.add_argument("--data-dir", type=Path,
                        help="keep the files here and reuse them (default: a temporary directory)")
    parser.add_argument("--out", type=Path, help="also write the results as JSON to this file")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET_SECONDS,
                        help="seconds of runs of one measure on one file after which no more start")
    parser.add_argument("--parts", type=_positive_int, default=1,
                        help="write each file in about this many row groups (Parquet) or stripes (ORC)")
    parser.add_argument("--no-check", dest="check", action="store_false",
                        help="do not compare the reference reader's values with those written")
    options = parser.parse_args(argv)
    options.engines = ENGINES if options.engine == "both" else (options.engine,)
    return options


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive integer")
    return value


def selected_files(fmt: Format, only: Sequence[str] | None) -> list[BenchFile]:
    if not only:
        return list(fmt.files)
    return [f for f in fmt.files if f.name in only or f.shape.name in only]


def run(fmt: Format, options: argparse.Namespace, directory: Path) -> list[Result]:
    facts = machine_facts()
    for key, value in facts.items():
        print(f"# {key}: {value}")
    print(LINE_HEADER, flush=True)
    for engine in options.engines:
        for module in fmt.imports[engine]:
            importlib.import_module(module)
    bench, results = _Bench(fmt, options, directory), []
    for bench_file in selected_files(fmt, options.only):
        result = bench.measure(bench_file)
        results.append(result)
        print(result_line(result), flush=True)
    print()
    print(markdown_table(fmt, results, facts, options.repeat))
    if options.out:
        write_json(options.out, results, facts, options)
    return results


def main(fmt: Format, description: str | None, argv: Sequence[str] | None = None) -> int:
    """Run the script of ``fmt``: exit 1 when an engine failed on a file or the reference
    read other values than those written, 0 otherwise."""
    options = parse_arguments(fmt, description, argv)
    if options.data_dir:
        options.data_dir.mkdir(parents=True, exist_ok=True)
        results = run(fmt, options, options.data_dir)
    else:
        with tempfile.TemporaryDirectory(prefix="bench-") as directory:
            results = run(fmt, options, Path(directory))
    failed = any(result.errors or result.values_mismatch for result in results)
    return 1 if failed else 0
