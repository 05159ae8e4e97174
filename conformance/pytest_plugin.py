"""The pytest plugin: one engine against the suite, as a team's own tests (docs/pytest-plugin.md).

Registered under pytest's ``pytest11`` entry point, so installing the suite is enough; it
does nothing until an engine is named, with one line in the team's ``pytest.ini`` or
``tox.ini`` (``[pytest]``)::

    conformance_engine = cmd:mylib=python adapters/mylib_adapter.py

(or ``--conformance-engine SPEC`` on the command line; any engine spec ``conformance run``
takes: a built-in or bundled name, ``cmd:NAME=COMMAND``, ``package.module:Class``). The
engine then meets, as one test each, with the evidence of its cell as the failure:

* ``write[<case>]``: it writes the catalogue case; the reference reads the file back
  against the case's rows (and, for a format the suite validates, checks its metadata);
* ``golden[<writer>/<case>]``: it reads each golden file of the corpus;
* ``bad[<id>]``: it reads each bad file, which it must reject (or, for an acceptable
  file, read as its single reading).

A cell whose outcome is ``skipped`` or ``unsupported`` is a skipped test with its reason.
Cells run as ``conformance run`` runs them (``conformance.matrix.cell_runner``): in a
supervised worker with a time limit, so an engine that crashes or hangs fails its test
and the session goes on. ``--conformance-cases GLOB`` narrows the cases and bad files.

With an expectations file (``conformance_expect``, docs/expectations.md), a test whose
cell the file records as failing is an expected failure (xfail, with the recorded
outcome; JUnit marks it skipped as ``pytest.xfail``) when it fails so again, a failure
when it fails otherwise, and an XPASS when it now passes. ``--conformance-record FILE``
writes the session's outcomes as such a file.
"""

from __future__ import annotations

import pytest

# The suite's modules load only when an engine is named: every pytest run of a machine
# with the suite installed loads this plugin.

ENGINE = "conformance_engine"
CASES = "conformance_cases"
GOLDEN = "conformance_golden"
TIMEOUT = "conformance_timeout"
EXPECT = "conformance_expect"
RECORD = "conformance_record"
DEFAULT_TIMEOUT_S = 30.0  # conformance.matrix.isolation.DEFAULT_TIMEOUT_S, held by a test


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("conformance", "columnar-conformance: test one engine against the suite")
    group.addoption("--conformance-engine", dest=ENGINE, metavar="SPEC",
                    help="the engine under test: a built-in or bundled name, cmd:NAME=COMMAND, "
                         "or package.module:Class (ini: conformance_engine)")
    group.addoption("--conformance-cases", dest=CASES, action="append", metavar="GLOB",
                    help="only the cases and bad files whose id matches GLOB (repeatable)")
    group.addoption("--conformance-golden", dest=GOLDEN, metavar="DIR",
                    help="the golden corpus (default: $CONFORMANCE_GOLDEN_DIR, else the suite's)")
    group.addoption("--conformance-timeout", dest=TIMEOUT, type=float, metavar="SECONDS",
                    help=f"a cell's time limit (default {DEFAULT_TIMEOUT_S:g})")
    group.addoption("--conformance-expect", dest=EXPECT, metavar="FILE",
                    help="an expectations file (docs/expectations.md): the failures it records "
                         "are expected failures (xfail), and one that now passes an XPASS")
    group.addoption("--conformance-record", dest=RECORD, metavar="FILE",
                    help="write the session's outcomes as an expectations file")
    parser.addini(ENGINE, "the engine under test (as --conformance-engine)")
    parser.addini(CASES, "case and bad-file id globs (as --conformance-cases)", type="args")
    parser.addini(GOLDEN, "the golden corpus (as --conformance-golden)")
    parser.addini(TIMEOUT, "a cell's time limit in seconds (as --conformance-timeout)")
    parser.addini(EXPECT, "an expectations file (as --conformance-expect)")


def _setting(config: pytest.Config, name: str):
    return config.getoption(name) or config.getini(name) or None


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect, so they apply to these tests too
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    spec = _setting(config, ENGINE)
    if spec is None:
        return
    from .pytest_cells import engine_tests

    items.extend(engine_tests(session, spec, _setting(config, CASES) or (), _setting(config, GOLDEN),
                              float(_setting(config, TIMEOUT) or DEFAULT_TIMEOUT_S),
                              _setting(config, EXPECT), config.getoption(RECORD)))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "conformance: a cell of the columnar-conformance suite")
