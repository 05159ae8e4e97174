"""Property-based cross-engine testing (issue 6 item 4): writer W writes a generated
case, reader R reads it, and the values must be the case's, for each configured pair.

Cases come from `tests.property.strategies.cases` (any nesting of LIST, MAP and
struct over every canonical type, edge-biased values, every encoding, codec, page
version, level encoding, nested style, page and row group size). Pairs: reference
with each engine both ways and reference with itself; ``$CONFORMANCE_PROPERTY_PAIRS``
("writer:reader,...") replaces them. Pairs with Spark are marked ``spark`` and ``slow``.
With ``$CONFORMANCE_PROPERTY_RESULTS`` set to a directory, every example's write and
read cells go to its results log (`conformance report <dir>` renders them).

Examples are drawn from what the pair declares it handles (`Hunt.supports`).
Fail policy (see `hunt`), the matrix's exit policy: a failing example is a finding;
under the ``long`` profile Hypothesis shrinks a new one and its shrunk example is
saved under ``golden_files/regressions/`` (case, finding, file) when the pair's
fixture ends, so the next run knows it and the catalogue runs it through the whole
matrix. A finding about an engine under test is reported, not a test failure (it is
that engine's outcome, like a mismatch cell of a run); the reference failing its
own round trip fails the test, because then the suite itself is wrong. The ``ci``
profile is derandomized (the same examples on every run) and does not shrink: its
new findings, as drawn, go to pytest's temp dir and the hunt goes on.
"""

from __future__ import annotations

import os
from pathlib import Path

import hypothesis
import pytest
from hypothesis import given, settings

from conformance.golden.paths import default_corpus
from tests.support.profiles import cross_engine_settings

from .hunt import NEW_FINDINGS, PAIRS_ENV, RESULTS_ENV, Hunt, only_findings
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
    # The ci profile (every pytest run, CI's fresh clones) keeps new regressions in its
    # temp dir, so a run never changes the committed corpus it also tests; other
    # profiles (a local hunt) save them into golden_files/regressions/ to be committed.
    in_ci = settings.get_current_profile_name() == "ci"
    hunt = Hunt(writer, reader, tmp_path_factory.mktemp("property"), default_corpus(),
                Path(results) if results else None,
                save_to=tmp_path_factory.mktemp("regressions") if in_ci else None, shrink=not in_ci)
    yield hunt
    hunt.close()
    found_by = (f"hypothesis {hypothesis.__version__}, profile "
                f"{settings.get_current_profile_name()}: {request.node.nodeid} [{writer}->{reader}]")
    for line in hunt.save_new_findings(found_by):
        print(f"saved regression in {hunt.save_to}: {line}")
    print(f"{writer}->{reader}: {dict(hunt.counts)}")


SELF_CHECK = ("reference", "reference")


def test_a_reader_reads_what_a_writer_wrote(hunt):
    @cross_engine_settings()
    @given(case=cases(hunt.supports))
    def examples(case):
        hunt.check(case)

    self_check = (hunt.writer.name, hunt.reader.name) == SELF_CHECK
    try:
        examples()
    except (*NEW_FINDINGS, ExceptionGroup) as found:
        if self_check or not only_findings(found):
            raise
        print(f"new engine finding(s), saved as regressions: {found}")
    assert not (self_check and hunt.failures), \
        "the reference disagrees with itself: " + "; ".join(
            f"{f.record['cell_id']}: {f.record['detail']}" for f in hunt.failures.values())
