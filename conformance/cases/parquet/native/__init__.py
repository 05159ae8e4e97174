"""Cases of engines' own native types written to Parquet (conformance.cases.native): one
module per engine, each case written by that engine alone and read by every reader."""

from __future__ import annotations

from conformance.cases.model import Case

from . import (
    chdb_types,
    datafusion_types,
    duckdb_types,
    fastparquet_types,
    polars_types,
    pyarrow_types,
    spark_types,
)

# The modules of the engines with native-type cases, each with a `cases()`.
_ENGINES: tuple = (duckdb_types, fastparquet_types, pyarrow_types, spark_types, polars_types, chdb_types,
                   datafusion_types)


def cases() -> list[Case]:
    return [case for engine in _ENGINES for case in engine.cases()]
