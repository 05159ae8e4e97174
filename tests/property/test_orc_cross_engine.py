"""Property-based cross-engine testing of ORC: writer W writes a generated ORC case,
reader R reads it, and the values must be the case's, for each configured pair.

Cases come from `tests.property.orc_strategies.cases` (any nesting of LIST, MAP,
STRUCT and UNION over every ORC type, edge-biased values, every file version,
codec, compression block size, stripe and row index layout, string encoding).
Pairs: the reference with itself, and with every other engine that has an ORC
adapter both ways (`hunt.default_pairs`: pyarrow, pyorc, Spark, and any protocol
adapter declaring ORC); ``$CONFORMANCE_PROPERTY_ORC_PAIRS`` replaces them, as
``$CONFORMANCE_PROPERTY_PAIRS`` does the Parquet pairs (``all`` for every writer x
reader pair). Pairs with Spark are marked ``spark`` and ``slow``. Results, saved regressions and the fail
policy are those of the Parquet hunts (`test_cross_engine`): a finding about an
engine under test is reported, the reference failing its own round trip fails the
test. Under the ci profile the five default pairs take about 15 s.
"""

from __future__ import annotations

import pytest
from hypothesis import given

from tests.support.profiles import cross_engine_settings

from .hunt import ORC_PAIRS_ENV, end_hunt, hunt_examples, open_hunt, pair_params
from .orc_strategies import FORMAT, cases


@pytest.fixture(scope="module", params=pair_params(ORC_PAIRS_ENV, FORMAT))
def hunt(request, tmp_path_factory):
    """One pair's ORC hunt; at its end, the shrunk example of each new finding is saved."""
    hunt = open_hunt(request.param, tmp_path_factory, FORMAT)
    yield hunt
    end_hunt(hunt, request.node.nodeid)


def test_a_reader_reads_the_orc_file_a_writer_wrote(hunt):
    @cross_engine_settings(hunt.protocol_adapter)
    @given(case=cases(hunt.supports))
    def examples(case):
        hunt.check(case)

    hunt_examples(hunt, examples)
