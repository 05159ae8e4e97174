"""Fixtures of the bundled adapters' tests: each adapter prepared once per test session
(npm ci, javac) and driven through the engine protocol, beside the reference."""

from __future__ import annotations

import pytest

from conformance.engines import get_engine
from conformance.engines.bundled import AdapterUnavailable
from conformance.engines.bundled import adapter_command as prepared_command
from conformance.engines.protocol.external import ExternalEngine, command_spec


@pytest.fixture(scope="session")
def adapter_command():
    """`adapter_command(name)`: the shell command starting bundled adapter `name`."""

    def command(name: str) -> str:
        try:
            return prepared_command(name)
        except AdapterUnavailable as exc:
            pytest.fail(f"bundled adapter {name} is unavailable: {exc}")

    return command


@pytest.fixture(scope="session")
def bundled_engine(adapter_command):
    """`bundled_engine(name)`: the Parquet engine of bundled adapter `name`, as a run sees it."""
    return lambda name: ExternalEngine(command_spec(name, adapter_command(name)), "parquet")


@pytest.fixture(scope="session")
def reference():
    return get_engine("reference", "parquet")
