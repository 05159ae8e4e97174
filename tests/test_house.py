"""The house (docs/architecture.md, 'The house'): the two formats are siblings over a
neutral floor. No module of one format's folder imports the other's; the neutral floor
(`reference_impl/common/`) imports neither format; the reference implementation imports
nothing of the harness."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ("parquet", "orc")
PROJECT_PACKAGES = ("reference_impl", "conformance")
MIN_FORMAT_MODULES = 20  # each package holds far more modules in its format folders


def _imports(path: Path, package: str) -> set[str]:
    """Every module the file at `path`, in `package`, imports (relative imports resolved)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            names.add(base)
    return names


def _package(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).parts[:-1])


def _modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def _crossings(path: Path, package: str) -> list[str]:
    """The imports of a module in one format's folder that reach into another format's."""
    own = next((part for part in package.split(".") if part in FORMATS), None)
    if own is None:
        return []
    return sorted(name for name in _imports(path, package)
                  if name.split(".")[0] in PROJECT_PACKAGES
                  and any(part in FORMATS and part != own for part in name.split(".")))


@pytest.mark.parametrize("folder", PROJECT_PACKAGES)
def test_no_format_imports_the_other(folder: str) -> None:
    crossings = {str(path.relative_to(ROOT)): _crossings(path, _package(path))
                 for path in _modules(folder)}
    in_format_folders = [path for path in crossings if set(Path(path).parts) & set(FORMATS)]
    assert len(in_format_folders) > MIN_FORMAT_MODULES  # the walk found the format folders
    assert {path: names for path, names in crossings.items() if names} == {}


def test_the_neutral_floor_imports_neither_format() -> None:
    reaching = {str(path.relative_to(ROOT)): sorted(
        name for name in _imports(path, _package(path))
        if name.startswith(("reference_impl.parquet", "reference_impl.orc")))
        for path in _modules("reference_impl/common")}
    assert {path: names for path, names in reaching.items() if names} == {}


def test_the_reference_imports_nothing_of_the_harness() -> None:
    reaching = {str(path.relative_to(ROOT)): sorted(
        name for name in _imports(path, _package(path)) if name.split(".")[0] == "conformance")
        for path in _modules("reference_impl")}
    assert {path: names for path, names in reaching.items() if names} == {}


def test_the_check_sees_a_crossing(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from ...parquet.varint import zigzag_decode\n"
                      "import reference_impl.orc.errors\n"
                      "from reference_impl.common.varint import encode_uleb128\n")
    assert _crossings(module, "reference_impl.orc.columns") == ["reference_impl.parquet.varint"]
    assert _crossings(module, "reference_impl.common") == []
