"""`conformance read --stream` / `--jsonl` and `--decoded-budget` (docs/architecture.md,
'Memory budget'): the reference's rows written one row group or stripe at a time, the same
rows as the whole document; a decompression bomb refused with its documented error."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conformance.cases import case_by_id
from conformance.cli import main
from conformance.engines import get_engine
from conformance.golden.parquet.lenient_data_files import file_num_rows_zero
from conformance.values import Table, diff_tables
from reference_impl.orc.reader import open_orc
from reference_impl.parquet.reader import FILE_NUM_ROWS_ZERO, open_parquet, read_parquet
from tests.reference_impl.decompression_bombs import DECOMPRESSED, orc_bomb, parquet_bomb

# Cases of several row groups (3 rows each) and several stripes (1 row each).
SEVERAL_ROW_GROUPS, SEVERAL_STRIPES = "shape/row-groups", "orc/stripes/one-row-each"
NESTED_ROW_GROUP_ROWS = 2


def _read(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["read", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(params=[(SEVERAL_ROW_GROUPS, "parquet"), (SEVERAL_STRIPES, "orc")], ids=["parquet", "orc"])
def case_file(request, tmp_path):
    case_id, fmt = request.param
    case = case_by_id(case_id)
    path = tmp_path / f"f.{fmt}"
    get_engine("reference", fmt).write(case, path)
    return case, path


def test_the_streamed_document_is_the_whole_document_byte_for_byte(capsys, case_file):
    case, path = case_file
    whole = _read(capsys, str(path))
    streamed = _read(capsys, "--stream", str(path))
    assert whole[0] == streamed[0] == 0, (whole[2], streamed[2])
    assert streamed[1] == whole[1]
    assert diff_tables(case.expected, Table.from_document(json.loads(streamed[1]))) is None


def test_json_lines_are_the_head_then_one_row_a_line(capsys, case_file):
    case, path = case_file
    code, out, err = _read(capsys, "--jsonl", str(path))
    assert code == 0, err
    head, *rows = [json.loads(line) for line in out.splitlines()]
    assert set(head) == {"canonical_version", "schema"}
    table = Table.from_document({**head, "rows": rows})
    assert diff_tables(case.expected, table) is None


def test_a_nested_file_streams_its_records_row_group_by_row_group(capsys, tmp_path):
    path = tmp_path / "nested.parquet"
    lists = [[1, 2], [], None, [3], [4, 5, 6]]
    pq.write_table(pa.table({"l": pa.array(lists, pa.list_(pa.int64()))}), path,
                   row_group_size=NESTED_ROW_GROUP_ROWS)
    parts = list(open_parquet(path))
    assert [len(part.records) for part in parts] == [2, 2, 1]
    assert [r for part in parts for r in part.records] == read_parquet(path).records
    code, out, err = _read(capsys, "--jsonl", str(path))
    assert code == 0, err
    assert [json.loads(line) for line in out.splitlines()[1:]] == [
        [["1", "2"]], [[]], [None], [["3"]], [["4", "5", "6"]]]


def test_the_readers_give_one_row_group_or_stripe_at_a_time(tmp_path):
    parquet, orc = tmp_path / "f.parquet", tmp_path / "f.orc"
    get_engine("reference").write(case_by_id(SEVERAL_ROW_GROUPS), parquet)
    get_engine("reference", "orc").write(case_by_id(SEVERAL_STRIPES), orc)
    assert [len(part.records) for part in open_parquet(parquet)] == [3, 3, 3, 1]
    assert [len(part.rows) for part in open_orc(orc)] == [1] * 5


def test_jsonl_has_no_place_for_file_references(capsys, tmp_path):
    path = tmp_path / "f.parquet"
    get_engine("reference").write(case_by_id(SEVERAL_ROW_GROUPS), path)
    code, _, err = _read(capsys, "--jsonl", "--resolve-file-references", str(path))
    assert code == 2 and "--jsonl" in err


@pytest.mark.parametrize("make", [parquet_bomb, orc_bomb], ids=["parquet", "orc"])
@pytest.mark.parametrize("layout", [[], ["--stream"], ["--jsonl"]], ids=["whole", "stream", "jsonl"])
def test_a_bomb_over_the_budget_is_decoded_budget_exceeded(capsys, tmp_path, make, layout):
    path = tmp_path / "bomb"
    path.write_bytes(make())
    code, _, err = _read(capsys, *layout, "--decoded-budget", str(DECOMPRESSED // 4), str(path))
    assert code == 1 and err.startswith("DecodedBudgetExceeded: ") and "at byte offset" in err
    code, _, err = _read(capsys, *layout, "--decoded-budget", "1G", str(path))  # a budget that holds it
    assert code == 0, err


def test_validate_takes_the_budget_too(capsys, tmp_path):
    path = tmp_path / "bomb.parquet"
    path.write_bytes(parquet_bomb())
    code = main(["validate", "--decoded-budget", "1M", str(path)])
    assert code == 2 and "DecodedBudgetExceeded" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["0", "-1", "12X", "M"])
def test_a_budget_is_a_positive_number_of_bytes(capsys, text):
    with pytest.raises(SystemExit):
        main(["read", "--decoded-budget", text, "f"])
    assert "--decoded-budget" in capsys.readouterr().err


def test_the_streamed_document_carries_the_file_references_after_the_rows(capsys, tmp_path):
    path = tmp_path / "f.parquet"
    get_engine("reference").write(case_by_id("file/self-reference"), path)
    whole = _read(capsys, "--resolve-file-references", str(path))
    streamed = _read(capsys, "--stream", "--resolve-file-references", str(path))
    assert streamed == whole and "file_references" in json.loads(streamed[1])


def test_a_lenient_breach_is_named_once_the_streamed_rows_are_written(capsys, tmp_path):
    path = tmp_path / "f.parquet"
    path.write_bytes(file_num_rows_zero())
    code, out, err = _read(capsys, "--stream", str(path))
    assert code == 0 and err.startswith(f"MUST {FILE_NUM_ROWS_ZERO.id}")
    strict = _read(capsys, "--stream", "--strict", str(path))
    assert strict[0] == 1 and strict[2].startswith("CorruptMetadata: ")


def test_rows_converted_in_batches_are_the_same_rows(capsys, monkeypatch, tmp_path):
    path = tmp_path / "f.parquet"
    get_engine("reference").write(case_by_id(SEVERAL_ROW_GROUPS), path)  # row groups of 3 rows
    whole = _read(capsys, str(path))
    monkeypatch.setattr("conformance.engines.parquet.reference.CONVERTED_ROWS", 2)
    assert _read(capsys, "--stream", str(path)) == whole
