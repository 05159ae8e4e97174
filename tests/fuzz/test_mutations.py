"""The mutation engine: every kind applies to the corpus, rewrites keep the rest of the file
in place, and Thrift integers are found and re-encoded as the compact protocol says."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from conformance.fuzz import orc_layout
from conformance.fuzz.campaign import mutators_for
from conformance.fuzz.mutation import Step, replay
from conformance.fuzz.mutations_orc import MUTATORS as ORC_MUTATORS
from conformance.fuzz.seeds import Seed, seeds
from conformance.fuzz.thrift_fields import IntegerField, integer_fields, padded, struct_end
from conformance.golden.paths import default_corpus
from reference_impl.common.varint import decode_uleb128
from reference_impl.orc.reader import read_orc
from reference_impl.parquet.errors import CorruptThrift
from reference_impl.parquet.metadata.file_layout import FOOTER_LENGTH

CORPUS = default_corpus()
DRAWS = 400  # (seed, step seed) pairs tried per kind
PARQUET_KINDS = ("parquet.footer.varint", "parquet.footer.length", "parquet.page_header",
                 "parquet.encrypted_module", "bytes.flip", "bytes.truncate")
# The kinds that change data-stream or page-body bytes (or cut them off).
DATA_KINDS = {"orc.chunk_header", "orc.rle_header", "bytes.truncate"}
SEVERAL_STRIPES = CORPUS / "cases/orc/stripes/several/pyarrow/several.orc"
ZLIB = CORPUS / "cases/orc/codecs/zlib/pyarrow/zlib.orc"


def _first_mutant(file_format: str, kind: str):
    """The first mutant of kind ``kind`` over the format's seeds (seed n, step seed n)."""
    seed_list = seeds(CORPUS, file_format)
    for n in range(DRAWS):
        seed = seed_list[(n * 7919) % len(seed_list)]
        data = seed.path.read_bytes()
        mutant = replay(data, str(seed.path), [Step(kind, n)], mutators_for(seed))
        if mutant.steps:
            return data, mutant
    raise AssertionError(f"no seed of {file_format} takes a {kind} mutation in {DRAWS} draws")


@pytest.mark.parametrize("kind", sorted(ORC_MUTATORS))
def test_every_orc_kind_mutates_some_golden_file(kind):
    data, mutant = _first_mutant("orc", kind)
    assert mutant.data != data
    assert mutant.descriptions[0].startswith(kind)
    if kind in DATA_KINDS:
        assert not mutant.metadata_only
    elif kind.startswith("orc."):
        assert mutant.metadata_only


@pytest.mark.parametrize("kind", PARQUET_KINDS)
def test_every_parquet_kind_mutates_some_golden_file(kind):
    data, mutant = _first_mutant("parquet", kind)
    assert mutant.data != data
    assert mutant.descriptions[0].startswith(kind)
    if kind.startswith("parquet.footer") or kind == "parquet.page_header":
        assert mutant.metadata_only
    if kind == "bytes.truncate":
        assert not mutant.metadata_only and len(mutant.data) < len(data)


def test_a_longer_stripe_footer_moves_the_stripes_after_it_and_the_rows_stay():
    raw = SEVERAL_STRIPES.read_bytes()
    layout = orc_layout.parse(raw)
    assert layout is not None and len(layout.stripes) > 1
    first = layout.stripes[0]
    rewritten = orc_layout.with_stripe_footer(layout, 0, dataclasses.replace(first.footer,
                                                                            writer_timezone="Etc/Universal"))
    assert rewritten is not None and len(rewritten) > len(raw)
    assert read_orc(rewritten).rows == read_orc(raw).rows


def test_a_compressed_footer_and_stripe_footer_are_stored_again_with_the_files_codec():
    raw = ZLIB.read_bytes()
    layout = orc_layout.parse(raw)
    assert layout is not None and layout.compression.name == "ZLIB"
    footer = dataclasses.replace(layout.tail.footer, software_version="fuzz")
    with_footer = orc_layout.with_footer(layout, footer)
    assert with_footer is not None
    assert read_orc(with_footer).tail.footer.software_version == "fuzz"
    same = orc_layout.with_stripe_footer(layout, 0, layout.stripes[0].footer)
    assert same is not None and read_orc(same).rows == read_orc(raw).rows


def test_a_footer_varint_mutant_keeps_the_footer_length_true():
    seed = next(s for s in seeds(CORPUS, "parquet") if s.path.name == "int32-required.parquet")
    data = seed.path.read_bytes()
    for n in range(DRAWS):
        mutant = replay(data, str(seed.path), [Step("parquet.footer.varint", n)], mutators_for(seed))
        if mutant.steps and len(mutant.data) != len(data):
            break
    else:
        raise AssertionError("no footer varint changed width")
    length_at = len(mutant.data) - len(b"PAR1") - FOOTER_LENGTH.size
    (length,) = FOOTER_LENGTH.unpack_from(mutant.data, length_at)
    assert struct_end(mutant.data, length_at - length, length_at) == length_at


def test_integers_of_a_compact_struct_are_found_by_field_path():
    # Thrift compact 'Struct encoding': field 1 i32 (short form 0x15) = zigzag(5) = 0x0A;
    # field 2 a list (0x19) of two i64 (0x26) 1, -1 (zigzag 2, 1); stop.
    data = bytes([0x15, 0x0A, 0x19, 0x26, 0x02, 0x01, 0x00])
    assert integer_fields(data) == [IntegerField(1, 2, (1,), 32, 5), IntegerField(4, 5, (2, -1), 64, 1),
                                    IntegerField(5, 6, (2, -1), 64, -1)]
    with pytest.raises(CorruptThrift):
        integer_fields(data[:-1])


def test_a_padded_varint_keeps_its_width_and_decodes_to_its_value():
    encoded = padded(3, 32, 2)  # zigzag 6, then a continuation byte of zero bits
    assert encoded == bytes([0x86, 0x00])
    assert decode_uleb128(encoded, 0, 2, bits=32, error=CorruptThrift, what="t") == (6, 2)
    assert padded(64, 32, 1) is None  # zigzag 128 needs two bytes


def test_seeds_are_the_corpus_files_with_the_bad_files_keys():
    parquet = seeds(CORPUS, "parquet")
    assert all(isinstance(s, Seed) and s.path.suffix == ".parquet" for s in parquet)
    keyed = [s for s in parquet if s.keys]
    assert keyed and all(s.relative(CORPUS).startswith("bad/") for s in keyed)
    assert {Path(s.relative(CORPUS)).parts[0] for s in seeds(CORPUS, "orc")} >= {"cases", "bad"}


def test_a_mutant_is_a_function_of_its_seed_and_steps():
    data, mutant = _first_mutant("orc", "orc.stripe_footer.move_length")
    again = replay(data, mutant.seed_path, mutant.steps, ORC_MUTATORS)
    assert again.data == mutant.data and again.descriptions == mutant.descriptions
