"""`conformance read` and `validate` tell a file's format from its magic, not its name."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.orc as po
import pyarrow.parquet as pq
import pytest

from conformance.file_formats import UnknownFormat, detect_format


def test_the_leading_magic_decides_whatever_the_name(tmp_path):
    table = pa.table({"a": [1, 2]})
    parquet, orc = tmp_path / "really-parquet.orc", tmp_path / "really-orc.parquet"
    pq.write_table(table, parquet)
    po.write_table(table, orc)
    assert (detect_format(parquet), detect_format(orc)) == ("parquet", "orc")


@pytest.mark.parametrize("head", [b"", b"OR", b"PAR", b"{\"json\": 1}"])
def test_a_file_of_neither_format_is_named_with_what_it_starts_with(tmp_path, head):
    path = tmp_path / "x"
    path.write_bytes(head)
    with pytest.raises(UnknownFormat, match="neither Parquet's"):
        detect_format(path)
