"""The format dimension of a case: its options are its format's, its tags its format's
vocabulary, and its document round-trips (docs/architecture.md, 'Formats')."""

from __future__ import annotations

import pytest

from conformance.cases import WriteOptions
from conformance.cases.model import Case
from conformance.cases.orc import types as O
from conformance.cases.orc.options import OrcWriteOptions
from conformance.values import DataType, Field, Schema

SPEC = ("ORCv1.md: Type Information",)
SCHEMA = Schema((Field("a", O.integer(16)), Field("m", O.map_of(O.string(), O.char(2)))))
ROWS = ((1, [("k", "v ")]), (None, None))


def orc_case(options: OrcWriteOptions) -> Case:
    return Case("orc/t/x", "t", SPEC, SCHEMA, ROWS, options, format="orc")


def test_an_orc_case_is_tagged_with_orc_kinds_and_its_options():
    case = orc_case(OrcWriteOptions(file_version="0.11", codec="ZSTD", stripe_row_limit=1))
    assert set(case.features) == {"type:SHORT", "type:MAP", "type:STRING", "type:CHAR",
                                  "codec:ZSTD", "version:0.11", "rle:v1", "stripes:multiple",
                                  "spec:orc-0.11"}
    assert Case.from_json(case.to_json()) == case


def test_a_case_takes_the_options_of_its_format():
    with pytest.raises(ValueError, match="takes OrcWriteOptions"):
        Case("orc/t/x", "t", SPEC, SCHEMA, ROWS, WriteOptions(), format="orc")
    with pytest.raises(ValueError, match="unknown format .avro.; known: parquet, orc"):
        Case("x/y", "t", SPEC, SCHEMA, ROWS, OrcWriteOptions(), format="avro")


def test_an_orc_case_holds_only_types_orc_has():
    unsigned = Schema((Field("u", DataType("int", bits=8, signed=False)),))
    with pytest.raises(ValueError, match="ORC has no type"):
        Case("orc/t/u", "t", SPEC, unsigned, (), OrcWriteOptions(), format="orc")


@pytest.mark.parametrize("options", [
    dict(codec="GZIP"), dict(file_version="0.13"), dict(stripe_row_limit=0),
    dict(row_index_stride=-1), dict(file_version="0.11", rle_v2_sub_encoding="DELTA"),
    dict(string_encoding="PLAIN")])
def test_orc_options_refuse_what_orc_does_not_have(options):
    with pytest.raises(ValueError):
        OrcWriteOptions(**options)
