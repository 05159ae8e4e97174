"""Property-based cross-engine testing (issue 6 item 4): writer W writes a generated
case, reader R reads it, and the values must be the case's, for each configured pair.

Cases come from `tests.property.strategies.cases` (any nesting of LIST, MAP and
struct over every canonical type, edge-biased values, every encoding, codec, page
version, level encoding, nested style, page and row group size). Pairs: reference
with each engine both ways and reference with itself; ``$CONFORMANCE_PROPERTY_PAIRS``
("writer:reader,...") replaces them. Pairs with Spark are marked ``spark`` and ``slow``.
With ``$CONFORMANCE_PROPERTY_RESULTS`` set to a directory, every example's write and
read cells go to its results log (`conformance report <dir>` renders them).

Fail policy (see `hunt`): a failing example that is saved under
``golden_files/regressions/`` for the same (writer, reader, outcome) is a known
finding and passes; any other failing example fails the test, and Hypothesis's
shrunk example is saved there (case, finding, file) when the pair's fixture ends,
so the next run knows it, and the catalogue runs it through the whole matrix. The
``ci`` profile is derandomized: the same examples on every run, so CI fails exactly
when an engine, the suite or the strategies change what they find.
"""

from __future__ import annotations

import os
from pathlib import Path

import hypothesis
import pytest
from hypothesis import given, settings

from conformance.golden.paths import default_corpus
from tests.support.profiles import cross_engine_settings

from .hunt import PAIRS_ENV, RESULTS_ENV, Hunt
from .strategies import cases

ENGINES = ("pyarrow", "duckdb", "fastparquet")
DEFAULT_PAIRS = (("reference", "reference"),
                 *(p for e in ENGINES for p in (("reference", e), (e, "reference"))))
SPARK_PAIRS = (("reference", "spark"), ("spark", "reference"))
SPARK_MARKS = (pytest.mark.spark, pytest.mark.slow)


def configured_pairs() -> list:
    configured = os.environ.get(PAIRS_ENV)
    pairs = ([tuple(p.split(":")) for p in configured.split(",")] if configured
             else [*DEFAULT_PAIRS, *SPARK_PAIRS])
    return [pytest.param((w, r), id=f"{w}->{r}", marks=SPARK_MARKS if "spark" in (w, r) else ())
            for w, r in pairs]


@pytest.fixture(scope="module", params=configured_pairs())
def hunt(request, tmp_path_factory):
    """One pair's hunt; at its end, the shrunk example of each new finding is saved."""
    writer, reader = request.param
    results = os.environ.get(RESULTS_ENV)
    hunt = Hunt(writer, reader, tmp_path_factory.mktemp("property"), default_corpus(),
                Path(results) if results else None)
    yield hunt
    hunt.close()
    found_by = (f"hypothesis {hypothesis.__version__}, profile "
                f"{settings.get_current_profile_name()}: {request.node.nodeid} [{writer}->{reader}]")
    for line in hunt.save_new_findings(found_by):
        print(f"saved regression: {line}")
    print(f"{writer}->{reader}: {dict(hunt.counts)}")


@cross_engine_settings()
@given(case=cases())
def test_a_reader_reads_what_a_writer_wrote(hunt, case):
    hunt.check(case)
