"""The engine registry: built-in names, exact versions, plug-in specs."""

from __future__ import annotations

import importlib

import pytest

from conformance.engines import BUILTIN, GOLDEN_REFERENCE, UnknownEngine, formats_of, get_engine

# The module whose __version__ each built-in engine must report.
_VERSION_MODULE = {"pyarrow": "pyarrow", "duckdb": "duckdb", "fastparquet": "fastparquet",
                   "spark": "pyspark", "pyorc": "pyorc"}


@pytest.mark.parametrize(("name", "fmt"), [(n, f) for n in sorted(_VERSION_MODULE) for f in formats_of(n)])
def test_builtin_engines_report_the_installed_library_version(name, fmt):
    engine = get_engine(name, fmt)
    assert (engine.name, engine.format) == (name, fmt)
    assert engine.version == importlib.import_module(_VERSION_MODULE[name]).__version__


def test_every_builtin_engine_is_known_and_the_reference_is_one():
    assert set(BUILTIN) == {*_VERSION_MODULE, "reference", GOLDEN_REFERENCE}
    assert get_engine("reference").version  # the installed columnar-conformance
    assert get_engine("reference", "orc").version == get_engine("reference").version


def test_an_engine_is_found_only_for_a_format_it_has_an_adapter_for():
    assert formats_of("pyorc") == ("orc",) and formats_of("duckdb") == ("parquet",)
    assert formats_of("tests.support.crashing_engine:CrashingEngine") == ("parquet",)
    with pytest.raises(UnknownEngine, match="has no orc adapter"):
        get_engine("duckdb", "orc")
    with pytest.raises(UnknownEngine, match="handles parquet, not orc"):
        get_engine("tests.support.crashing_engine:CrashingEngine", "orc")


def test_an_engine_can_be_plugged_in_by_import_path():
    engine = get_engine("tests.support.crashing_engine:CrashingEngine")
    assert engine.name == "crashing"


def test_unknown_engines_are_refused_with_the_known_names():
    with pytest.raises(UnknownEngine, match="reference"):
        get_engine("no-such-engine")
