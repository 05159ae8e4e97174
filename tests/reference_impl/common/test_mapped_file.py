"""Both readers read a path through a read-only memory map (reference_impl/common/mapped_file.py).

What a path reads as must be what its bytes read as: the same values, the same errors at
the same offsets; and what the readers give out must own its memory, so that the map can
be closed (a value still viewing it would make ``close`` raise BufferError) and the bench's
tracemalloc figures count the values (bench/README.md, 'Peak memory').
"""

from __future__ import annotations

import mmap
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.orc as pa_orc
import pyarrow.parquet as pq
import pytest

from reference_impl.common.decoded_values import as_list
from reference_impl.common.mapped_file import close_file, map_file, owned
from reference_impl.orc.errors import OrcError
from reference_impl.orc.reader import open_orc, read_orc
from reference_impl.parquet.errors import ParquetError
from reference_impl.parquet.reader import open_parquet, read_parquet

VALUES = list(range(-500, 500))
ROW_GROUP_ROWS = 300  # four row groups of VALUES
TABLE = pa.table({"value": pa.array(VALUES, pa.int64())})


def _parquet(tmp_path: Path) -> Path:
    path = tmp_path / "values.parquet"
    # Uncompressed PLAIN pages: the values are decoded in place, from the map itself.
    pq.write_table(TABLE, path, compression="NONE", use_dictionary=False, row_group_size=ROW_GROUP_ROWS)
    return path


def _orc(tmp_path: Path) -> Path:
    path = tmp_path / "values.orc"
    pa_orc.write_table(TABLE, path, compression="UNCOMPRESSED")
    return path


def test_map_file_maps_read_only_and_an_empty_file_is_empty_bytes(tmp_path: Path) -> None:
    full, empty = tmp_path / "full", tmp_path / "empty"
    full.write_bytes(b"PAR1")
    empty.write_bytes(b"")
    mapped = map_file(full)
    assert isinstance(mapped, mmap.mmap) and mapped[:4] == b"PAR1"
    with pytest.raises(TypeError):
        mapped[0:1] = b"X"
    close_file(mapped)
    assert map_file(empty) == b""


def test_owned_copies_an_array_that_views_the_map_only(tmp_path: Path) -> None:
    path = tmp_path / "numbers"
    path.write_bytes(np.arange(4, dtype="<i8").tobytes())
    mapped = map_file(path)
    viewing = np.frombuffer(memoryview(mapped)[8:], dtype="<i8")
    copied = owned(viewing, mapped)
    assert copied.tolist() == [1, 2, 3] and copied.flags.owndata
    own = np.arange(3)
    assert owned(own, mapped) is own
    del viewing
    close_file(mapped)


def test_parquet_path_reads_as_its_bytes_and_gives_out_no_view_of_the_map(tmp_path: Path) -> None:
    path = _parquet(tmp_path)
    from_path = read_parquet(path)  # closes its map: raises BufferError if a value views it
    assert from_path.data["value"] == read_parquet(path.read_bytes()).data["value"] == VALUES
    row_groups = open_parquet(path)
    parts = list(row_groups)
    assert len(parts) == -(-len(VALUES) // ROW_GROUP_ROWS)
    row_groups.close()
    assert [v for part in parts for v in part.data["value"]] == VALUES


def test_a_map_given_to_the_parquet_reader_is_read_in_place_and_left_open(tmp_path: Path) -> None:
    # validate maps a path once and reads that map again (VARIANT and FILE checks).
    mapped = map_file(_parquet(tmp_path))
    assert read_parquet(mapped).data["value"] == VALUES
    assert read_parquet(mapped).data["value"] == VALUES  # not read to its end, as a stream
    assert not mapped.closed
    close_file(mapped)


def test_orc_path_reads_as_its_bytes(tmp_path: Path) -> None:
    path = _orc(tmp_path)
    from_bytes = read_orc(path.read_bytes()).columns["value"]
    assert as_list(read_orc(path).columns["value"]) == as_list(from_bytes) == VALUES
    stripes = open_orc(path)
    assert sum(part.row_count for part in stripes) == len(VALUES)
    stripes.close()


@pytest.mark.parametrize("cut", [0, 3, 12, 40])
def test_a_truncated_file_fails_from_a_path_as_from_its_bytes(tmp_path: Path, cut: int) -> None:
    for write, read, error in ((_parquet, read_parquet, ParquetError), (_orc, read_orc, OrcError)):
        whole = write(tmp_path).read_bytes()
        truncated = tmp_path / "truncated"
        truncated.write_bytes(whole[: len(whole) - cut] if cut else whole[:cut])
        with pytest.raises(error) as from_bytes:
            read(truncated.read_bytes())
        with pytest.raises(error) as from_path:
            read(truncated)
        failure = (type(from_bytes.value), str(from_bytes.value))
        assert (type(from_path.value), str(from_path.value)) == failure


def test_a_byte_array_value_past_its_page_fails_from_a_path_as_from_its_bytes(tmp_path: Path) -> None:
    # An uncompressed PLAIN BYTE_ARRAY page is decoded in place, as a view of the whole
    # mapped file: the value's bounds and the error's offset are the page's, not the file's.
    path = tmp_path / "strings.parquet"
    words = [b"alpha", b"beta", b"gamma"]
    pq.write_table(pa.table({"word": pa.array(words, pa.binary())}), path, compression="NONE",
                   use_dictionary=False, write_statistics=False)
    whole = bytearray(path.read_bytes())
    length_at = whole.index(b"beta") - 4  # the 4-byte little-endian length before b"beta"
    whole[length_at:length_at + 4] = (1 << 20).to_bytes(4, "little")  # past the page's end
    path.write_bytes(bytes(whole))
    with pytest.raises(ParquetError) as from_bytes:
        read_parquet(bytes(whole))
    with pytest.raises(ParquetError) as from_path:
        read_parquet(path)
    assert "value 1 (length 1048576)" in str(from_bytes.value)
    assert (type(from_path.value), str(from_path.value)) == (type(from_bytes.value), str(from_bytes.value))
