"""Property-based cross-engine testing (issue 6 item 4): writer W writes a generated
case, reader R reads it, and the values must be the case's, for each configured pair.

Cases come from `tests.property.strategies.cases` (any nesting of LIST, MAP and
struct over every canonical type, edge-biased values, every encoding, codec, page
version, level encoding, nested style, page and row group size). Pairs: the reference
with itself and with every other engine both ways, the protocol adapters included
(`hunt.default_pairs`; a pair whose adapter cannot be prepared here is skipped with
the reason); ``$CONFORMANCE_PROPERTY_PAIRS`` replaces them: ``all`` for every writer x
reader pair (`hunt.every_pair`), or "writer:reader,...". Pairs with Spark are marked
``spark`` and ``slow``, pairs with an adapter that starts its own JVM ``jvm``.
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

import pytest
from hypothesis import given

from tests.support.profiles import cross_engine_settings

from .hunt import PAIRS_ENV, end_hunt, hunt_examples, open_hunt, pair_params
from .strategies import cases


@pytest.fixture(scope="module", params=pair_params(PAIRS_ENV))
def hunt(request, tmp_path_factory):
    """One pair's hunt; at its end, the shrunk example of each new finding is saved."""
    hunt = open_hunt(request.param, tmp_path_factory)
    yield hunt
    end_hunt(hunt, request.node.nodeid)


def test_a_reader_reads_what_a_writer_wrote(hunt):
    @cross_engine_settings(hunt.protocol_adapter)
    @given(case=cases(hunt.supports))
    def examples(case):
        hunt.check(case)

    hunt_examples(hunt, examples)
