"""Shared fixtures: one SparkSession for the whole test session (JVM start-up is seconds)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.profiles import register_profiles

register_profiles()

REPO_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def spark():
    from conformance.matrix.spark_session import get_session, stop_session

    session = get_session("local[2]")
    yield session
    stop_session()


@pytest.fixture
def importable_tests(monkeypatch):
    """Let subprocesses (isolated workers, the CLI) import test-only engines from tests/."""
    path = os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))
    monkeypatch.setenv("PYTHONPATH", path)
