"""The one contract of the reference implementation as an engine, whatever the format
(docs/architecture.md, 'The reference as an engine').

Each format's reference adapter (`parquet/reference.py`, `orc/reference.py`) is a
`ReferenceAdapter`: it asks its format's reader (`reference_impl.<format>.reader`) for
the file's contents, in the reader's own terms (the reader knows nothing of this suite),
and converts them into a canonical table itself. A read is always the same three steps,
written once here:

1. `read_contents(path)`: the reader's result, inside `reference_impl.common.leniency.reading`,
   so every rule the file breaks with a single reading is collected (or, strictly,
   raised as its documented error);
2. `canonical_table(contents)`: the adapter's conversion, inside `converting`, with the
   format's documented errors as the reference's verdicts (a conversion may still meet
   bad data, a logical value its type forbids): anything else it raises is a bug of the
   suite, a `HarnessError`;
3. the table and the breaches, `read_with_breaches`; `read` keeps the table.

`read_streamed` takes the same steps one row group (Parquet) or stripe (ORC) at a time
(`open_parts`: the reader's `open_parquet` / `open_orc`), so that `conformance read
--jsonl` / `--stream` holds one decoded row group or stripe at once (docs/architecture.md,
'Memory budget').

`records(path)` is the reader's rows before any conversion, read with exactly the
adapter's read options, for the bad-file cells that judge the reader alone.
`with_read_options` gives the adapter that reads with a bad file's `ReadOptions`
(checksums verified, explicit keys).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.values import Table
from reference_impl.common.leniency import Breach, reading

from .base import Engine, Unsupported, converting

DISTRIBUTION = "columnar-conformance"


@dataclass(frozen=True)
class ReadOptions:
    """How the reference reads a file beyond its path: checksum verification and the
    explicit keys offered (a bad file's `read_options`, conformance.golden.bad_file)."""

    verify_checksums: bool = False
    footer_key: bytes | None = None
    column_keys: Mapping[str, bytes] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "verify_checksums": self.verify_checksums,
            "footer_key": None if self.footer_key is None else self.footer_key.hex(),
            "column_keys": {path: key.hex() for path, key in sorted(self.column_keys.items())},
        }


DEFAULT_READ = ReadOptions()


class ReferenceAdapter(Engine):
    """The reference reader and writer of one format behind the Engine contract."""

    name = "reference"
    distribution = DISTRIBUTION
    # The base class of the format's documented errors (its errors.py): the reference's
    # verdicts, raised while reading or converting.
    verdicts: type[Exception]

    @classmethod
    def with_read_options(cls, options: ReadOptions) -> ReferenceAdapter:
        """The adapter reading with `options`; Unsupported for options the format has none of."""
        if options != DEFAULT_READ:
            raise Unsupported(f"the {cls.format} reference reads with no checksum or key options")
        return cls()

    @abstractmethod
    def read_contents(self, path: Path) -> Any:
        """The format reader's result for the file at `path`, in the reader's own terms."""

    @abstractmethod
    def open_parts(self, path: Path) -> tuple[Any, Iterator[Any]]:
        """The reader's contents of the file at `path` with no rows (its schema), and its
        contents one row group or stripe at a time, each as `read_contents` gives a file."""

    @abstractmethod
    def canonical_table(self, contents: Any) -> Table:
        """`read_contents`'s result as a canonical table (docs/canonical-values.md)."""

    @abstractmethod
    def records(self, path: Path) -> Sequence[Any]:
        """The reader's rows of the file at `path`, unconverted, read with exactly this
        adapter's read options (none of the suite's test keys offered)."""

    def read(self, path: Path) -> Table:
        """The file's rows, read leniently (a breach is collected, see `read_with_breaches`)."""
        return self.read_with_breaches(path)[0]

    def read_with_breaches(self, path: Path, strict: bool = False) -> tuple[Table, list[Breach]]:
        """The file's rows and every rule it breaks that has a single reading
        (`reference_impl.common.leniency`); with `strict`, such a breach raises its documented error."""
        with reading(strict=strict) as breaches:
            table = self._converted(self.read_contents(path))
        return table, breaches

    def read_streamed(self, path: Path, breaches: list[Breach], strict: bool = False) -> Iterator[Table]:
        """The file's rows as `read_with_breaches` reads them, as canonical tables: first one
        of no rows (the schema), then one per row group or stripe; the breaches met are added
        to `breaches` once the reading ends (or fails)."""
        with reading(strict=strict) as met:
            try:
                empty, parts = self.open_parts(path)
                yield self._converted(empty)
                yield from self._converted_parts(parts)
            finally:
                breaches.extend(met)

    def canonical_batches(self, contents: Any) -> Iterator[Table]:
        """`canonical_table(contents)` in tables of fewer rows, so that a streamed read
        holds the reader's part and a batch of its rows converted, not all of them twice;
        this default converts the whole part at once."""
        yield self.canonical_table(contents)

    def _converted_parts(self, parts: Iterator[Any]) -> Iterator[Table]:
        """Each part's batches, converted; no part nor batch is held once the next is asked
        for (a `for` would hold the last one while the next is read)."""
        while (part := next(parts, None)) is not None:
            batches = self.canonical_batches(part)
            del part  # the batches hold it until they are done
            while True:
                with converting(self.name, verdicts=(self.verdicts,)):
                    table = next(batches, None)
                if table is None:
                    break
                yield table
                del table

    def _converted(self, contents: Any) -> Table:
        with converting(self.name, verdicts=(self.verdicts,)):
            return self.canonical_table(contents)
