"""The adapter kit (conformance/kit, docs/adapter-kit.md): the bundled Python adapters
import nothing else of the suite, and `parquet_layout` reports what a writer chose."""

from __future__ import annotations

import ast
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import conformance.kit as kit

ROOT = Path(__file__).resolve().parents[2]
PYTHON_ADAPTERS = sorted((ROOT / "adapters" / "python").glob("*/*.py"))
SUITE_PACKAGES = ("conformance", "reference_impl")


def suite_imports(source: Path) -> list[str]:
    """The modules of the suite that `source` imports."""
    names = []
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    return [n for n in names if n.split(".")[0] in SUITE_PACKAGES]


def test_the_three_python_adapters_are_found():
    assert {p.parent.name for p in PYTHON_ADAPTERS} == {"polars", "datafusion", "chdb"}


@pytest.mark.parametrize("adapter", PYTHON_ADAPTERS, ids=lambda p: p.parent.name)
def test_a_bundled_adapter_imports_only_the_kit(adapter):
    assert suite_imports(adapter), f"{adapter.name} imports nothing of the suite: not an adapter?"
    assert set(suite_imports(adapter)) == {"conformance.kit"}


def test_the_import_check_sees_a_private_import(tmp_path):
    private = tmp_path / "adapter.py"
    private.write_text("import json\nfrom conformance.kit import Case\n"
                       "from conformance.engines.parquet._parquet_leaves import leaves\n")
    assert suite_imports(private) == ["conformance.kit", "conformance.engines.parquet._parquet_leaves"]


def test_every_name_the_kit_promises_is_there():
    assert all(hasattr(kit, name) for name in kit.__all__)


def test_parquet_layout_names_each_leafs_physical_type_and_page_encodings(tmp_path):
    path = tmp_path / "layout.parquet"
    table = pa.table({"id": pa.array([1, 2, 3], pa.int64()),
                      "tags": pa.array([["a"], [], ["b", "c"]], pa.list_(pa.string())),
                      "code": pa.array([b"ab", b"cd", b"ef"], pa.binary(2))})
    pq.write_table(table, path, use_dictionary=["tags.list.element"], data_page_version="1.0")
    assert kit.parquet_layout(path) == [
        kit.LeafLayout("id", "INT64", None, frozenset({"PLAIN"})),
        kit.LeafLayout("tags.list.element", "BYTE_ARRAY", None, frozenset({"RLE_DICTIONARY"})),
        kit.LeafLayout("code", "FIXED_LEN_BYTE_ARRAY", 2, frozenset({"PLAIN"})),
    ]


def test_parquet_layout_names_a_v2_data_page(tmp_path):
    path = tmp_path / "v2.parquet"
    pq.write_table(pa.table({"x": [1.5, 2.5]}), path, data_page_version="2.0", use_dictionary=False)
    (leaf,) = kit.parquet_layout(path)
    assert leaf.data_page_encodings == {kit.DATA_PAGE_V2}
