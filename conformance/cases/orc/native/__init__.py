"""Cases of engines' own native types written to ORC (conformance.cases.native): one
module per engine, each case written by that engine alone and read by every reader."""

from __future__ import annotations

from conformance.cases.model import Case

from . import pyarrow_types, spark_types

# The modules of the engines with native-type cases, each with a `cases()`.
_ENGINES: tuple = (pyarrow_types, spark_types)


def cases() -> list[Case]:
    return [case for engine in _ENGINES for case in engine.cases()]
