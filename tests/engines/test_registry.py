"""The engine registry: built-in names, exact versions, plug-in specs."""

from __future__ import annotations

import importlib

import pytest

from conformance.engines import BUILTIN, UnknownEngine, get_engine

# The module whose __version__ each built-in engine must report.
_VERSION_MODULE = {"pyarrow": "pyarrow", "duckdb": "duckdb", "fastparquet": "fastparquet",
                   "spark": "pyspark"}


@pytest.mark.parametrize("name", sorted(_VERSION_MODULE))
def test_builtin_engines_report_the_installed_library_version(name):
    engine = get_engine(name)
    assert engine.name == name
    assert engine.version == importlib.import_module(_VERSION_MODULE[name]).__version__


def test_every_builtin_engine_is_known_and_the_reference_is_one():
    assert set(BUILTIN) == {*_VERSION_MODULE, "reference"}
    assert get_engine("reference").version  # the installed columnar-conformance


def test_an_engine_can_be_plugged_in_by_import_path():
    engine = get_engine("tests.support.crashing_engine:CrashingEngine")
    assert engine.name == "crashing"


def test_unknown_engines_are_refused_with_the_known_names():
    with pytest.raises(UnknownEngine, match="reference"):
        get_engine("no-such-engine")
