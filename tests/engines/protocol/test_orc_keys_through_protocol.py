"""ORC keys over the engine protocol (docs/engine-protocol.md, 'write' and 'read':
`orc_master_keys`): the reference adapter, as an external process, writes an encrypted
ORC case with the keys it names, reads the file with the keys the request carries, and
without keys reads the masked view (ORCv1.md, 'Data Masks'), from the case's rows."""

from __future__ import annotations

from conformance.cases import case_by_id
from conformance.engines.protocol import messages
from conformance.engines.protocol.external import ExternalEngine
from conformance.values import Table, diff_tables
from tests.adapters.both_ways import masked_view

from ._adapters import REFERENCE_SPEC

CASE = "orc/encryption/two-keys"  # two keys, a nested column, three stripes


def test_the_reference_adapter_reads_with_the_keys_it_is_handed_and_masked_without(tmp_path):
    engine = ExternalEngine(REFERENCE_SPEC, "orc")
    case, path = case_by_id(CASE), tmp_path / "two-keys.orc"
    engine.write(case, path)
    assert diff_tables(case.expected, engine.read(path)) is None
    keyless = engine.adapter.call(messages.read_request(path.resolve(), "orc"))
    assert diff_tables(masked_view(case), Table.from_document(keyless["document"])) is None
