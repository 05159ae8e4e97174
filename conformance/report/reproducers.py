"""One command per engine that reads a file outside the suite: what a maintainer runs to
see a finding with their own engine, not through this suite's adapters.

Python engines get a script of a few lines, run as ``python -c``; the others their own
command line tool or API: node for the JavaScript libraries (the versions
``adapters/js/package.json`` pins), parquet-cli for parquet-java, orc-tools for
orc-java. A filtered-read mode
(``pyarrow:filter``) filters with the engine's own API where the case's predicate
compares a plain value (an integer, float, string, bytes or boolean: DuckDB takes any,
through its adapter's SQL); otherwise it reads the whole file, and the predicate is in
the finding's evidence. An engine this module does not know gets None: the ledger then
says so.
"""

from __future__ import annotations

import json
import math
import shlex

from conformance.cases.predicate import NULL_OPS, Predicate

from .dataset import base_engine

# Each script's first line sets `path` (and `kind`, the format, for Spark); the Python
# ones are str.format templates ({condition}, {column}, {op}, {value}: a filtered read's
# predicate as ``(column, op, value)`` and its parts; {where}: DuckDB's SQL condition).
_PYTHON = {
    "pyarrow": ("import pyarrow.parquet as pq",
                "t = pq.read_table(path)",
                "print(t.schema)",
                "print(t.to_pylist())"),
    "pyarrow-orc": ("import pyarrow.orc as orc",
                    "t = orc.read_table(path)",
                    "print(t.schema)",
                    "print(t.to_pylist())"),
    "fastparquet": ("import fastparquet",
                    "pf = fastparquet.ParquetFile(path)",
                    "print(pf.schema)",
                    'print(pf.to_pandas().to_dict("records"))'),
    "duckdb": ("import duckdb",
               'r = duckdb.sql(f"SELECT * FROM read_parquet({{path!r}})")',
               "print(r.types)",
               "print(r.fetchall())"),
    "polars": ("import polars as pl",
               "df = pl.read_parquet(path)",
               "print(df.schema)",
               "print(df.to_dicts())"),
    "chdb": ("import chdb",
             'print(chdb.query(f"DESCRIBE file({{path!r}}, Parquet)", "TSV"))',
             'print(chdb.query(f"SELECT * FROM file({{path!r}}, Parquet)", "JSONEachRow"))'),
    "datafusion": ("from datafusion import SessionContext",
                   "df = SessionContext().read_parquet(path)",
                   "print(df.schema())",
                   "print(df.to_pylist())"),
    "pyorc": ("import pyorc",
              'r = pyorc.Reader(open(path, "rb"))',
              "print(r.schema)",
              "print(list(r))"),
    "spark": ("from pyspark.sql import SparkSession",
              'spark = SparkSession.builder.master("local[1]").getOrCreate()',
              "df = spark.read.format(kind).load(path)",
              "df.printSchema()",
              "print(df.collect())"),
}
_ORC_ENGINES = {"pyarrow": "pyarrow-orc"}  # the same name reads ORC through another module

_FILTERED = {
    "pyarrow": ("import pyarrow.parquet as pq",
                "print(pq.read_table(path, filters=[{condition}]).to_pylist())"),
    "fastparquet": ("import fastparquet",
                    "pf = fastparquet.ParquetFile(path)",
                    'print(pf.to_pandas(filters=[{condition}], row_filter=True).to_dict("records"))'),
    "spark": ("from pyspark.sql import SparkSession, functions as F",
              'spark = SparkSession.builder.master("local[1]").getOrCreate()',
              "print(spark.read.format(kind).load(path).where(F.col({column}) {op} {value}).collect())"),
    "duckdb": ("import duckdb",
               'q = f"SELECT * FROM read_parquet({{path!r}}) WHERE " + {where}',
               "print(duckdb.sql(q).fetchall())"),
}
PLAIN_KINDS = ("int", "float", "string", "binary", "boolean")

_NODE = {
    "hyparquet": ('import { asyncBufferFromFile, parquetReadObjects } from "hyparquet"; '
                  "const file = await asyncBufferFromFile(path); "
                  "console.log(await parquetReadObjects({ file }))"),
    "parquet-wasm": ('import fs from "node:fs"; import { readParquet } from "parquet-wasm"; '
                     'import { tableFromIPC } from "apache-arrow"; '
                     "const t = tableFromIPC(readParquet(fs.readFileSync(path)).intoIPCStream()); "
                     "console.log(t.schema.toString()); console.log(t.toArray())"),
    "parquetjs": ('import parquet from "@dsnp/parquetjs"; '
                  "const r = await parquet.ParquetReader.openFile(path); const c = r.getCursor(); "
                  "for (let row; (row = await c.next());) console.log(row)"),
}
_NODE_PACKAGES = {"hyparquet": "hyparquet@1.31.5", "parquet-wasm": "parquet-wasm@0.8.0 apache-arrow@21.2.0",
                  "parquetjs": "@dsnp/parquetjs@1.8.7"}


def _string(text: str) -> str:
    """A string literal of Python and JavaScript alike, in double quotes."""
    return json.dumps(text)


def _python(lines: tuple[str, ...], path: str, fmt: str, **fields: str) -> str:
    first = f"path, kind = {_string(path)}, {_string(fmt)}"
    script = "\n".join((first, *(line.format(**fields) for line in lines)))
    return f"python3 -c {shlex.quote(script)}"


def _literal(value: object) -> str:
    """``value`` as Python source (a NaN or an infinity as ``float("nan")``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({_string(str(value))})"
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else repr(value)


def filtered_read_command(engine: str, path: str, predicate: Predicate, fmt: str = "parquet"
                          ) -> str | None:
    """A filtered read of ``path`` with ``predicate``, or None where this module has none."""
    name = base_engine(engine)
    if name not in _FILTERED or predicate.op in NULL_OPS or fmt != "parquet":
        return None
    if name == "duckdb":
        from conformance.engines.parquet.duckdb_engine import where_clause  # the engine's own SQL

        where = where_clause(predicate)
    elif predicate.bound_type().kind in PLAIN_KINDS:
        where = ""
    else:
        return None
    value = _literal(predicate.value)
    column = _string(predicate.column)
    return _python(_FILTERED[name], path, fmt, where=_string(where), column=column, op=predicate.op,
                   value=value, condition=f"({column}, {_string(predicate.op)}, {value})")


def read_command(engine: str, path: str, fmt: str = "parquet") -> str | None:
    """A shell command reading ``path`` with ``engine``, or None for an engine not known here."""
    name = base_engine(engine)
    if fmt == "orc":
        name = _ORC_ENGINES.get(name, name)
    if name in _PYTHON:
        return _python(_PYTHON[name], path, fmt)
    if name in _NODE:
        code = f"const path = {_string(path)}; {_NODE[name]}"
        return (f"npm install {_NODE_PACKAGES[name]} && "
                f"node --input-type=module -e {shlex.quote(code)}")
    if name == "parquet-java":
        return f"parquet cat {shlex.quote(path)}  # parquet-cli, apache/parquet-java parquet-cli"
    if name == "orc-java":
        return f"java -jar orc-tools-uber.jar data {shlex.quote(path)}  # apache/orc's orc-tools"
    if name == "reference":
        return f"python -m conformance.cli read {shlex.quote(path)}"
    return None


def validate_command(path: str) -> str:
    """The command showing the untrue metadata the validator found in a writer's file."""
    return f"python -m conformance.cli validate {shlex.quote(path)}"


def write_command(engine: str, case_id: str) -> str:
    """A failed write has no file: the suite's own run of that one case and writer."""
    return (f"python -m conformance.cli run --writers {shlex.quote(base_engine(engine))} "
            f"--readers reference --cases {shlex.quote(case_id)} --no-progress")
