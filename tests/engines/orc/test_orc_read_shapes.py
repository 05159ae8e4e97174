"""Files whose shape the ORC adapters once failed on (harness errors): a root type that is
not a STRUCT (ORCv1.md, 'Type Information') and the Hive 0.11 decimal without precision or
scale (ORCv1.md, 'Decimal Columns'). The adapter now converts what each engine returns
into the reference's table, or the engine's own error is the cell's outcome."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pyorc
import pytest

from conformance.cases import case_by_id
from conformance.cases.orc.options import ROOT_COLUMN, OrcWriteOptions
from conformance.engines import get_engine
from conformance.matrix.failures import failure_outcome
from conformance.values import Field, Schema, Table, diff_tables
from reference_impl.orc.metadata import type_tree
from reference_impl.orc.metadata.proto_enums import TypeKind
from reference_impl.orc.reader import read_orc
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions
from tests.engines.orc._tables import O, write
from tests.reference_impl.orc.orc_mutations import rebuilt

ROOT_KINDS = {"orc/types/root-bigint": TypeKind.LONG, "orc/types/root-list": TypeKind.LIST}
HIVE11_COLUMN = "d"
# 'Decimal Columns': the column's scale when the Type has none is ORC Java's default
# (reference_impl/orc/metadata/type_tree.py, HIVE11_DEFAULT_SCALE).
HIVE11_SCALE = 10


def engine(name):
    return get_engine(name, "orc")


def outcome_of(read, path: Path) -> str:
    try:
        read(path)
    except Exception as exc:  # noqa: BLE001 - the cell's classification is the subject
        return failure_outcome(exc)[0]
    return "pass"


# ---- a root of another kind ---------------------------------------------------------------

def test_pyorc_reads_a_bare_bigint_root_as_one_column(tmp_path):
    path = tmp_path / "bigint.orc"
    with open(path, "wb") as file, pyorc.Writer(file, "bigint") as writer:
        writer.writerows([1, None, 3])
    expected = Table(Schema((Field(ROOT_COLUMN, O.integer(64)),)), ((1,), (None,), (3,)))
    for name in ("reference", "pyorc"):
        assert diff_tables(expected, engine(name).read(path)) is None, name


@pytest.mark.parametrize("case_id", sorted(ROOT_KINDS))
@pytest.mark.parametrize("writer", ["reference", "pyorc"])
def test_every_orc_reader_meets_a_bare_root(case_id, writer, tmp_path):
    case = case_by_id(case_id)
    path = write(engine(writer), case, tmp_path)
    assert read_orc(path).root.kind == ROOT_KINDS[case_id]
    for name in ("reference", "pyorc"):
        assert diff_tables(case.expected, engine(name).read(path)) is None, (writer, name)
    # pyarrow's refusal is its own error, not the adapter's
    assert outcome_of(engine("pyarrow").read, path) == "error"


@pytest.mark.parametrize("name", ["pyarrow", "spark"])
def test_writers_of_struct_roots_only_decline_a_bare_root(name):
    case = case_by_id("orc/types/root-bigint")
    assert "root:bare" in engine(name).capabilities.write_gap(case.features)


def test_a_bare_root_case_has_one_column_named_as_readers_name_it():
    with pytest.raises(ValueError, match="one column named '_col0'"):
        dataclasses.replace(case_by_id("orc/types/root-bigint"),
                            schema=Schema((Field("value", O.integer(64)),)))
    assert "bare_root" not in OrcWriteOptions().to_json()  # other cases' documents unchanged
    assert OrcWriteOptions.from_json(OrcWriteOptions(bare_root=True).to_json()).bare_root


# ---- the Hive 0.11 decimal ----------------------------------------------------------------

def hive11_file(tmp_path: Path, unscaled: list[int | None], scale: int = HIVE11_SCALE) -> Path:
    """A DECIMAL column whose Type has neither precision nor scale, holding ``unscaled``
    stored at ``scale`` (written by the reference, then the Type's scale removed)."""
    schema = type_tree.struct([(HIVE11_COLUMN, type_tree.decimal(None, scale))])
    data = write_orc(schema, [{HIVE11_COLUMN: v} for v in unscaled], OrcWriterOptions(file_version="0.11"))

    def without_scale(footer):
        types = list(footer.types)
        types[1] = dataclasses.replace(types[1], precision=None, scale=None)
        return dataclasses.replace(footer, types=types)

    path = tmp_path / "hive11.orc"
    path.write_bytes(rebuilt(data, footer=without_scale))
    return path


def hive11_table(unscaled: list[int | None]) -> Table:
    return Table(Schema((Field(HIVE11_COLUMN, O.decimal(38, HIVE11_SCALE)),)), tuple((v,) for v in unscaled))


# 123.45, null, -10^20 and 0.000001: at most 6 fraction digits, at most 38 digits in all.
EXACT = [1_234_500_000_000, None, -(10**30), 10_000]


@pytest.mark.parametrize("name", ["reference", "pyorc"])
def test_a_hive11_decimal_reads_as_the_numbers_written(name, tmp_path):
    assert diff_tables(hive11_table(EXACT), engine(name).read(hive11_file(tmp_path, EXACT))) is None


def test_pyorc_declares_a_hive11_decimal_at_its_forced_scale(tmp_path):
    table = engine("pyorc").read(hive11_file(tmp_path, EXACT))
    assert table.schema.fields[0].type == O.decimal(38, 6)  # ORC C++'s forced scale


@pytest.mark.xfail(strict=True, reason="FINDING: ORC C++ (pyorc) reads a Hive 0.11 decimal at a "
                   "forced scale of 6 and drops further digits: 1.9999999999 (scale 10) reads as "
                   "1.999999")
def test_pyorc_keeps_every_digit_of_a_hive11_decimal(tmp_path):
    values = [19_999_999_999]
    assert diff_tables(hive11_table(values), engine("pyorc").read(hive11_file(tmp_path, values))) is None


@pytest.mark.xfail(strict=True, reason="FINDING: ORC C++ (pyorc) wraps a Hive 0.11 decimal "
                   "rescaled to its scale 6 past 128 bits: 10^33 stored at scale 0 reads as "
                   "-20847100762815390390123822295304.634368 without an error")
def test_pyorc_refuses_a_hive11_decimal_that_exceeds_128_bits_at_scale_6(tmp_path):
    path = hive11_file(tmp_path, [10**33], scale=0)  # 10^39 at scale 6: over 2^127
    assert outcome_of(engine("pyorc").read, path) == "error"


def test_pyorc_refuses_a_hive11_decimal_of_39_digits_at_scale_6(tmp_path):
    path = hive11_file(tmp_path, [10**32 * 10**HIVE11_SCALE])  # 10^32 at scale 6: 39 digits
    with pytest.raises(Exception, match="Hive 0.11 decimal was more than 38 digits"):
        engine("pyorc").read(path)
    assert outcome_of(engine("pyorc").read, path) == "error"  # the engine's, not the harness's
