"""A run's results as an implementation of one release of the text sees them
(docs/spec-versions.md): only the cells of cases that use nothing newer.

``conformance report --spec-version 2.12.0`` builds the report of the cells whose case
needs parquet-format 2.12.0 or older (``cases.spec_versions.within``), so a team can say
"conforms to 2.12, not yet 2.13"; the cells of other formats are kept unless a release of
theirs is named too (``orc=0.12``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pyarrow as pa

from conformance.cases.spec_versions import within
from conformance.matrix.results import read_unavailable, write_unavailable

from .dataset import RESULTS_SCHEMA, load_results, write_consolidated

__all__ = ["WITHIN_RESULTS", "write_within"]

WITHIN_RESULTS = "results-within-release"  # the filtered dataset's folder, beside the report


def write_within(results: Path, out: Path, releases: Mapping[str, str]) -> tuple[Path, int, int]:
    """The cells of ``results`` whose case uses nothing newer than the release named for its
    format in ``releases``, written to folder ``out``; returns ``out``, the cells kept and the
    cells of the run. ValueError when no cell is kept: a report of nothing checks nothing."""
    every = load_results(results).to_pylist()
    rows = [row for row in every
            if row["format"] not in releases
            or within(row["features"] or (), row["format"], releases[row["format"]])]
    if not rows:
        raise ValueError(f"no cell of {results} ({len(every)} cells) is within {dict(releases)}")
    out.mkdir(parents=True, exist_ok=True)
    write_consolidated(pa.Table.from_pylist(rows, schema=RESULTS_SCHEMA), out / "part-0.parquet")
    write_unavailable(out, read_unavailable(results))
    return out, len(rows), len(every)
