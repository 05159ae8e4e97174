"""No real engine's adapter fails converting what its engine answers for a committed golden
file: every file under golden_files/cases/*/ read by pyarrow, DuckDB, fastparquet and
pyorc, each the files of the formats it reads (Spark left out: it needs a JVM), through
`conformance golden verify`'s cells, and none of them is a `harness-error` (an engine may
refuse or misread a file: that is a finding, not a bug of this suite). The cells run in
isolated workers because fastparquet crashes its process on some golden files (measured: a
segmentation fault) and hangs on others (measured: 3 regression files), under a cell time
limit short enough to keep the test quick: the slowest cell that answers takes under a
second (measured 0.7 s), so a timeout is the engine's hang, not a cell cut short.
"""

from __future__ import annotations

import pytest

from conformance.engines import formats_of
from conformance.golden.paths import default_corpus
from conformance.golden.verify import check_corpus, verify
from conformance.matrix.cell_runner import CellLimits
from conformance.matrix.failures import HARNESS_ERROR

ENGINES = ("pyarrow", "duckdb", "fastparquet", "pyorc")
CELL_TIMEOUT_S = 5.0  # see the module docstring: a hang, not a slow answer
LIMITS = CellLimits(timeout_s=CELL_TIMEOUT_S)


@pytest.mark.parametrize("engine", ENGINES)
def test_no_adapter_fails_converting_a_golden_file(tmp_path, engine):
    corpus = default_corpus()
    golden_files = sum(len(doc["files"]) for _, doc in check_corpus(corpus)
                       if doc["format"] in formats_of(engine))
    records = verify(corpus, [engine], tmp_path, LIMITS, bad_files=False).records
    assert len(records) == golden_files
    harness_errors = [(r["cell_id"], r["detail"].splitlines()[0]) for r in records
                      if r["outcome"] == HARNESS_ERROR]
    assert not harness_errors
