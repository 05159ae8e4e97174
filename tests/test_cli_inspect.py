"""`conformance inspect FILE`: the structure printed is the one the test wrote.

Files come from the reference writer (a catalogue case with its options changed), pyarrow,
pyarrow.orc and pyorc; every expected number is what the test asked the writer for, or
what the specification fixes (the AAD suffix layout of Encryption.md, '4.4.2 AAD suffix';
the CRC32 of README.md, 'Checksumming'). A Parquet inspection decodes every page, so a
file is kept to a few hundred rows.
"""

from __future__ import annotations

import json
import math
import struct
import zoneinfo
from dataclasses import replace
from pathlib import Path

import pyarrow as pa
import pyarrow.orc as pa_orc
import pyarrow.parquet as pq
import pyorc
import pytest

from conformance.cases import case_by_id
from conformance.cli import main
from conformance.engines import get_engine
from conformance.inspect.render import plain, text
from conformance.kms.case_keys import FOOTER_ROLE, column_role, explicit_key

ROWS = 300
ROW_GROUP_ROWS = 100
PAGE_ROWS = 40  # pyarrow's max_rows_per_page
ORC_ROWS = 2500
ORC_STRIDE = 1000
ORC_ZONE = "Europe/Paris"


def inspect(capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(["inspect", *arguments])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def document(capsys, *arguments: str) -> dict:
    code, out, err = inspect(capsys, "--json", *arguments)
    assert code == 0, err
    return json.loads(out)


def data_pages(chunk: dict) -> list[dict]:
    return [page for page in chunk.get("pages", []) if page["type"].startswith("DATA_PAGE")]


# -- Parquet written by pyarrow ------------------------------------------------------


@pytest.fixture(scope="module")
def pyarrow_file(tmp_path_factory) -> Path:
    """Dictionary-encoded strings, page v2, page index, Bloom filter, CRCs."""
    path = tmp_path_factory.mktemp("inspect") / "pyarrow.parquet"
    table = pa.table({"id": pa.array(range(ROWS), pa.int64()),
                      "name": pa.array([f"name {i % 7}" for i in range(ROWS)])})
    pq.write_table(table, path, row_group_size=ROW_GROUP_ROWS, max_rows_per_page=PAGE_ROWS,
                   use_dictionary=["name"], column_encoding={"id": "DELTA_BINARY_PACKED"},
                   data_page_version="2.0", write_page_index=True, write_page_checksum=True,
                   bloom_filter_options={"name": {"ndv": 7}}, compression="snappy")
    return path


def test_pyarrow_parquet_structure(capsys, pyarrow_file):
    found = document(capsys, str(pyarrow_file))
    assert found["metadata"]["num_rows"] == ROWS
    assert "ARROW:schema" in {kv["key"] for kv in found["metadata"]["key_value_metadata"]}
    assert len(found["row_groups"]) == ROWS // ROW_GROUP_ROWS
    for row_group in found["row_groups"]:
        ids, names = row_group["columns"]
        assert row_group["num_rows"] == ROW_GROUP_ROWS
        assert ids["meta_data"]["codec"] == names["meta_data"]["codec"] == "SNAPPY"
        assert {p["encoding"] for p in data_pages(ids)} == {"DELTA_BINARY_PACKED"}
        assert names["pages"][0]["type"] == "DICTIONARY_PAGE"
        assert {p["encoding"] for p in data_pages(names)} == {"RLE_DICTIONARY"}
        for chunk in (ids, names):
            pages = data_pages(chunk)
            assert len(pages) == math.ceil(ROW_GROUP_ROWS / PAGE_ROWS)
            assert {p["type"] for p in pages} == {"DATA_PAGE_V2"}
            assert all(p["crc_valid"] is True for p in chunk["pages"])
            assert len(chunk["column_index"]["pages"]) == len(pages)
            assert [loc["offset"] for loc in chunk["offset_index"]["page_locations"]] == [
                p["offset"] for p in pages]
        assert "bloom_filter" not in ids
        assert names["bloom_filter"]["algorithm"] == "BLOCK" and names["bloom_filter"]["numBytes"] > 0


def test_statistics_are_decoded_beside_their_raw_bytes(capsys, pyarrow_file):
    first = document(capsys, str(pyarrow_file))["row_groups"][0]["columns"]
    ids, names = (chunk["meta_data"]["statistics"] for chunk in first)
    assert (ids["min_value"], ids["max_value"]) == (0, ROW_GROUP_ROWS - 1)
    assert ids["max_value_raw"] == struct.pack("<q", ROW_GROUP_ROWS - 1).hex()  # PLAIN INT64
    assert (names["min_value"], names["max_value"]) == ("name 0", "name 6")


def test_text_shows_one_line_per_page_with_the_json_numbers(capsys, pyarrow_file):
    found = document(capsys, str(pyarrow_file))
    code, out, _ = inspect(capsys, str(pyarrow_file))
    assert code == 0
    page_lines = [line for line in out.splitlines() if " type=DATA_PAGE_V2 " in line]
    pages = [p for rg in found["row_groups"] for chunk in rg["columns"] for p in data_pages(chunk)]
    assert len(page_lines) == len(pages)
    assert all("crc_valid=True" in line for line in page_lines)
    assert f"offset={pages[0]['offset']} " in page_lines[0]


def test_a_flipped_byte_makes_that_page_crc_mismatch(capsys, pyarrow_file, tmp_path):
    page = data_pages(document(capsys, str(pyarrow_file))["row_groups"][0]["columns"][0])[1]
    data = bytearray(pyarrow_file.read_bytes())
    data[page["offset"] + page["header_size"] + page["compressed_page_size"] - 1] ^= 0xFF
    corrupted = tmp_path / "corrupted.parquet"
    corrupted.write_bytes(bytes(data))
    code, out, err = inspect(capsys, str(corrupted))
    assert code == 0, err  # the CRC is reported, not enforced: the page still decodes
    checks = [line for line in out.splitlines() if "crc_valid=" in line]
    (mismatch,) = [line for line in checks if "crc_valid=False" in line]
    assert f" offset={page['offset']} " in mismatch and len(checks) > 1


def test_a_truncated_file_is_the_reference_error_with_its_offset(capsys, pyarrow_file, tmp_path):
    truncated = tmp_path / "truncated.parquet"
    truncated.write_bytes(pyarrow_file.read_bytes()[:-100])
    code, out, err = inspect(capsys, str(truncated))
    assert (code, out) == (1, "")
    assert err.startswith(("BadMagic:", "FooterLengthOutOfRange:")) and "at byte offset" in err


def test_a_file_of_no_format_is_rejected(capsys, tmp_path):
    other = tmp_path / "notes.txt"
    other.write_bytes(b"hello")
    code, _, err = inspect(capsys, str(other))
    assert code == 1 and err.startswith("UnknownFormat:")


# -- Parquet written by the reference ------------------------------------------------


def test_reference_parquet_structure(capsys, tmp_path):
    """The reference writer with dictionary, page v2, page index, Bloom filter and CRCs."""
    case = case_by_id("checksum/dictionary")
    options = replace(case.options, page_version=2, row_group_size=20, page_index=True,
                      bloom_filter_columns=("s",))
    path = tmp_path / "reference.parquet"
    get_engine("reference").write(replace(case, options=options), path)
    found = document(capsys, str(path))
    assert len(found["row_groups"]) == math.ceil(len(case.rows) / options.row_group_size)
    for row_group in found["row_groups"]:
        for chunk in row_group["columns"]:
            pages = data_pages(chunk)
            assert chunk["pages"][0]["type"] == "DICTIONARY_PAGE"
            assert len(pages) == math.ceil(row_group["num_rows"] / options.page_row_limit)
            assert {p["type"] for p in pages} == {"DATA_PAGE_V2"}
            assert {p["encoding"] for p in pages} == {"RLE_DICTIONARY"}
            assert all(p["crc_valid"] for p in chunk["pages"])
            assert all("definition_levels_byte_length" in p and "num_nulls" in p for p in pages)
            assert len(chunk["offset_index"]["page_locations"]) == len(pages)
            assert ("bloom_filter" in chunk) == (chunk["path"] == "s")


# -- encrypted Parquet ---------------------------------------------------------------


ENCRYPTED = case_by_id("encryption/explicit-aes-gcm-v1-encrypted-footer-per_column")
BITS = ENCRYPTED.options.encryption.key_bits
KEYS = ["--footer-key", explicit_key(FOOTER_ROLE, BITS).hex(),
        *(f"--column-key={c}={explicit_key(column_role(c), BITS).hex()}"
          for c in ENCRYPTED.options.encryption.column_keys)]
MODULE_TYPES = {"DATA_PAGE_HEADER": 4}  # Encryption.md, '4.4.2 AAD suffix'


@pytest.fixture(scope="module")
def encrypted(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("inspect") / "encrypted.parquet"
    get_engine("reference").write(ENCRYPTED, path)
    return path


def test_encrypted_file_with_keys_shows_every_module_and_its_aad(capsys, encrypted):
    found = document(capsys, *KEYS, str(encrypted))
    assert found["footer"]["magic"] == "PARE" and found["encryption"]["algorithm"] == "AES_GCM_V1"
    unique = bytes.fromhex(found["encryption"]["aad_file_unique"])
    encrypted_columns = set(ENCRYPTED.options.encryption.column_keys)
    for row_group in found["row_groups"]:
        for chunk in row_group["columns"]:
            if chunk["path"] not in encrypted_columns:
                continue
            assert chunk["crypto_metadata"]["key"] == "column key"
            headers = [m for m in chunk["modules"] if m["module"] == "DATA_PAGE_HEADER"]
            bodies = [m for m in chunk["modules"] if m["module"] == "DATA_PAGE"]
            assert [m["page"] for m in headers] == list(range(len(data_pages(chunk))))
            for page, header, body in zip(data_pages(chunk), headers, bodies, strict=True):
                # Encryption.md, '5.1 Encrypted module serialization': each module is its length
                # and its bytes, the page module right after its header's.
                assert header["offset"] == page["offset"]
                assert header["offset"] + header["length"] == body["offset"]
                assert body["length"] == page["compressed_page_size"]
            for module in headers:
                ordinals = (row_group["ordinal"], chunk["column"], module["page"])
                expected = unique + struct.pack("<Bhhh", MODULE_TYPES["DATA_PAGE_HEADER"], *ordinals)
                assert module["aad_suffix"] == expected.hex()


def test_encrypted_footer_without_keys_says_what_is_hidden(capsys, encrypted):
    found = document(capsys, "--no-keys", str(encrypted))
    assert found["footer"]["mode"] == "encrypted" and "row_groups" not in found
    assert found["encryption"]["algorithm"] == "AES_GCM_V1"
    assert "encrypted footer" in found["hidden"]


def test_plaintext_footer_without_keys_opens_the_plaintext_columns(capsys, tmp_path):
    case = case_by_id("encryption/explicit-aes-gcm-v1-plaintext-footer-per_column")
    path = tmp_path / "plaintext-footer.parquet"
    get_engine("reference").write(case, path)
    found = document(capsys, "--no-keys", str(path))
    assert found["footer"]["mode"].startswith("plaintext, signed (signature not verified")
    chunks = found["row_groups"][0]["columns"]
    hidden = {chunk["path"] for chunk in chunks if "hidden" in chunk}
    opened = {chunk["path"] for chunk in chunks if data_pages(chunk)}
    assert hidden == set(case.options.encryption.column_keys)
    assert opened == {chunk["path"] for chunk in chunks} - hidden and opened


def test_keys_are_refused_for_orc(capsys, orc_pyorc):
    code, _, err = inspect(capsys, "--no-keys", str(orc_pyorc))
    assert code == 2 and "Parquet Modular Encryption" in err


# -- ORC -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def orc_pyorc(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("inspect") / "pyorc.orc"
    with path.open("wb") as out, pyorc.Writer(
            out, "struct<id:bigint,name:string>", row_index_stride=ORC_STRIDE, bloom_filter_columns=["name"],
            compression=pyorc.CompressionKind.ZLIB, timezone=zoneinfo.ZoneInfo(ORC_ZONE)) as writer:
        writer.set_user_metadata(origin=b"inspect test")
        for i in range(ORC_ROWS):
            writer.write((i, f"name {i % 13}"))
    return path


def test_pyorc_structure(capsys, orc_pyorc):
    found = document(capsys, str(orc_pyorc))
    assert found["postscript"]["compression"] == "ZLIB"
    assert found["footer"]["number_of_rows"] == ORC_ROWS and found["footer"]["row_index_stride"] == ORC_STRIDE
    assert [t["kind"] for t in found["types"]] == ["STRUCT", "LONG", "STRING"]
    assert found["writer_timezones"] == [ORC_ZONE]
    assert found["footer"]["user_metadata"] == [{"name": "origin", "value": "inspect test"}]
    ids = found["statistics"][1]
    assert (ids["int.minimum"], ids["int.maximum"]) == (0, ORC_ROWS - 1)
    assert sum(stripe["number_of_rows"] for stripe in found["stripes"]) == ORC_ROWS
    for stripe in found["stripes"]:
        groups = math.ceil(stripe["number_of_rows"] / ORC_STRIDE)
        assert [(index["column"], len(index["entries"])) for index in stripe["row_index"]] == [
            (0, groups), (1, groups), (2, groups)]
        (bloom,) = stripe["bloom_filters"]
        assert bloom["column"] == 2 and len(bloom["filters"]) == groups
        assert all(f["num_hash_functions"] > 0 for f in bloom["filters"])
        index_area = [s for s in stripe["streams"] if s["area"] == "index"]
        assert sum(s["length"] for s in index_area) == stripe["index_length"]


def test_pyarrow_orc_structure(capsys, tmp_path):
    path = tmp_path / "pyarrow.orc"
    table = pa.table({"id": pa.array(range(ORC_ROWS), pa.int64()),
                      "name": pa.array([f"name {i % 13}" for i in range(ORC_ROWS)])})
    pa_orc.write_table(table, path, compression="zstd", row_index_stride=ORC_STRIDE,
                       bloom_filter_columns=[1])
    found = document(capsys, str(path))
    assert found["postscript"]["compression"] == "ZSTD"
    (stripe,) = found["stripes"]
    assert [len(index["entries"]) for index in stripe["row_index"]] == [math.ceil(ORC_ROWS / ORC_STRIDE)] * 3
    assert [(b["column"], b["utf8"]) for b in stripe["bloom_filters"]] == [(1, True)]
    assert {e["column"]: e["kind"] for e in stripe["encodings"]}[1].startswith("DIRECT")


def test_orc_text_has_one_line_per_stream(capsys, orc_pyorc):
    found = document(capsys, str(orc_pyorc))
    code, out, _ = inspect(capsys, str(orc_pyorc))
    assert code == 0
    streams = [line for line in out.splitlines() if " area=" in line]
    assert len(streams) == sum(len(stripe["streams"]) for stripe in found["stripes"])


def test_a_truncated_orc_file_is_the_reference_error(capsys, orc_pyorc, tmp_path):
    truncated = tmp_path / "truncated.orc"
    truncated.write_bytes(orc_pyorc.read_bytes()[:-40])
    code, out, err = inspect(capsys, str(truncated))
    assert (code, out) == (1, "")
    assert err.split(":")[0] in {"CorruptTail", "CorruptProtobuf", "BadMagic", "DecompressionFailed"}
    assert "at byte offset" in err


# -- the text renderer ---------------------------------------------------------------


def test_text_puts_scalars_on_the_line_of_their_dict_and_nests_the_rest():
    document = {"file": "f", "pages": [{"page": 0, "crc": "0x01"}, {"page": 1, "crc": "0x02"}],
                "footer": {"mode": "plain text", "sizes": [1, 2]},
                "schema": {"name": "s", "root": {"children": 1}}}
    assert text(document).splitlines() == [
        "file: f",
        "pages: (2)",
        "  [0]: page=0 crc=0x01",
        "  [1]: page=1 crc=0x02",
        "footer: mode='plain text' sizes=[1, 2]",
        "schema: name=s",
        "  root: children=1",
    ]


def test_plain_data_is_json_safe():
    found = plain({"x": float("nan"), "b": b"\x01\xff", "none": None, "empty": []})
    assert found == {"x": "nan", "b": "01ff"}
