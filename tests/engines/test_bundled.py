"""The bundled adapters: known by name, prepared on first use into the build cache, and
reported unavailable with the reason when this machine cannot run them."""

from __future__ import annotations

import shutil

import pytest

from conformance.engines import DEFAULT_ENGINES, available_engines, bundled, formats_of
from conformance.engines.bundled import BUNDLED, AdapterUnavailable, adapter_command
from conformance.matrix.results import read_unavailable, write_unavailable
from conformance.report import write_reports

REAL_WHICH = shutil.which


def _without(program: str):
    return lambda name, *args, **kwargs: None if name == program else REAL_WHICH(name, *args, **kwargs)


def test_every_bundled_adapter_is_a_default_engine_with_its_folder():
    for name, adapter in BUNDLED.items():
        assert name in DEFAULT_ENGINES
        assert formats_of(name) == adapter.formats
        assert (bundled.ADAPTERS / adapter.folder / "README.md").is_file()
    assert formats_of("chdb") == ("parquet", "orc")
    assert formats_of("orc-java") == ("orc",)


def test_without_node_the_javascript_adapters_are_unavailable_and_the_rest_runs(monkeypatch):
    monkeypatch.setattr(bundled.shutil, "which", _without("node"))
    available, unavailable = available_engines(["reference", "hyparquet", "polars"])
    assert available == ["reference", "polars"]
    assert unavailable == {"hyparquet": "node not found on PATH: the javascript adapter "
                                        "hyparquet needs it"}


def test_without_a_jdk_the_java_adapter_is_unavailable(monkeypatch):
    monkeypatch.setattr(bundled.shutil, "which", _without("java"))
    with pytest.raises(AdapterUnavailable, match="java not found on PATH"):
        adapter_command("parquet-java")


def test_a_failed_npm_install_is_the_reason_and_leaves_no_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("CONFORMANCE_CACHE_DIR", str(tmp_path / "cache"))
    # An empty npm cache and no network: what a machine cut off from the registry sees.
    monkeypatch.setenv("npm_config_cache", str(tmp_path / "npm-cache"))
    monkeypatch.setenv("npm_config_offline", "true")
    bundled._installed_js.cache_clear()
    try:
        with pytest.raises(AdapterUnavailable, match=r"npm ci failed"):
            adapter_command("hyparquet")
    finally:
        bundled._installed_js.cache_clear()
    assert not any((tmp_path / "cache" / bundled.JS_CACHE_SUBDIR).iterdir())


def test_the_python_adapters_run_on_this_interpreter():
    command = adapter_command("polars")
    assert command.split()[1].endswith("adapters/python/polars/polars_adapter.py")


def test_the_report_names_the_unavailable_engines(tmp_path):
    from conformance.matrix.results import consolidate

    results = consolidate(tmp_path)  # no cells
    write_unavailable(results, {"hyparquet": "node not found on PATH"})
    assert read_unavailable(results) == {"hyparquet": "node not found on PATH"}
    summary = write_reports(results, tmp_path / "report")
    assert summary.unavailable == {"hyparquet": "node not found on PATH"}
    markdown = (tmp_path / "report" / "REPORT.md").read_text(encoding="utf-8")
    assert "| hyparquet | — | unavailable: node not found on PATH |" in markdown
    assert "unavailable: node not found on PATH" in (tmp_path / "report" / "index.html").read_text()
