"""`conformance read` and `validate` tell a file's format from its magic, not its name."""

from __future__ import annotations

import re
import subprocess
import sys

import pyarrow as pa
import pyarrow.orc as po
import pyarrow.parquet as pq
import pytest

from conformance.formats import FORMATS, UnknownFormat, detect_format, load, validated_formats


def test_the_leading_magic_decides_whatever_the_name(tmp_path):
    table = pa.table({"a": [1, 2]})
    parquet, orc = tmp_path / "really-parquet.orc", tmp_path / "really-orc.parquet"
    pq.write_table(table, parquet)
    po.write_table(table, orc)
    assert (detect_format(parquet).name, detect_format(orc).name) == ("parquet", "orc")


@pytest.mark.parametrize("head", [b"", b"OR", b"PAR", b"{\"json\": 1}"])
def test_a_file_of_neither_format_is_named_with_what_it_starts_with(tmp_path, head):
    path = tmp_path / "x"
    path.write_bytes(head)
    expected = (f"starts with {head[:4]!r} ({len(head[:4])} bytes read), none of the formats' "
                "leading magic: Parquet's b'PAR1' or b'PARE'; ORC's b'ORC'")
    with pytest.raises(UnknownFormat, match=re.escape(expected)):
        detect_format(path)


@pytest.mark.parametrize("command", ["read", "validate"])
@pytest.mark.parametrize("head", [b"", b"PK\x03\x04 a zip archive"])
def test_read_and_validate_reject_a_file_of_no_format_with_exit_1(tmp_path, command, head):
    path = tmp_path / "neither.parquet"  # the name does not make it Parquet
    path.write_bytes(head)
    done = subprocess.run([sys.executable, "-m", "conformance.cli", command, str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert f"UnknownFormat: {path}: starts with {head[:4]!r}" in done.stderr


def test_every_format_record_resolves_its_entry_points():
    for record in FORMATS.values():
        assert record.options_class().__name__.endswith("WriteOptions")
        assert issubclass(record.reference_error(), Exception)
        assert record.error_class(record.reference_error().__name__) is record.reference_error()
        assert load(record.reference_engine).format == record.name
        assert load(record.golden_engine).format == record.name
        assert callable(record.validate())
    assert validated_formats() == ("parquet", "orc")
