"""Fixtures: the synthetic results dataset and the reports written from it (once per session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.report import write_reports

from .synthetic import synthetic_rows, write_dataset


@pytest.fixture(scope="session")
def results_dir(tmp_path_factory) -> Path:
    return write_dataset(synthetic_rows(), tmp_path_factory.mktemp("run") / "results")


@pytest.fixture(scope="session")
def report(results_dir, tmp_path_factory):
    """(summary, out_dir) of write_reports over the synthetic dataset."""
    out = tmp_path_factory.mktemp("report") / "report"
    return write_reports(results_dir, out), out
