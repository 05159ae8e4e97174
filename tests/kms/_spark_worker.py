"""Subprocess side of the Spark <-> pyarrow KMS interop test: one JVM with the test KMS on its classpath.

    python -m tests.kms._spark_worker PLAN.json RESULTS.json

The plan (JSON) lists Spark writes ({"name", "options", "out_dir"}) and Spark
reads ({"name", "path"}); the results map each name to {"ok", "rows" | "error"}.
The session is built as the run's SparkSession would be with the entries of
`conformance.kms.spark_conf.spark_encryption_conf()` (the JVM must start with them).
"""

from __future__ import annotations

import json
import os
import sys
import traceback

from conformance.kms.spark_conf import spark_encryption_conf

ERROR_TEXT_LIMIT = 4000
SAMPLE_ROWS = [(1, "w", 1.5, True), (2, "x", 2.5, False), (None, "y", 3.5, True), (4, None, 4.5, None)]
SAMPLE_SCHEMA = "a bigint, b string, c double, d boolean"


def build_session():
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master("local[1]")
        .appName("conformance-kms-interop")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "1")
    )
    for key, value in spark_encryption_conf().items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("FATAL")
    return session


def _error_text(error: BaseException) -> str:
    java = getattr(error, "java_exception", None)
    causes = []
    while java is not None:
        causes.append(f"{java.getClass().getName()}: {java.getMessage()}")
        java = java.getCause()
    text = " <- ".join(causes) if causes else "".join(traceback.format_exception_only(error)).strip()
    return text[:ERROR_TEXT_LIMIT]


def run_write(session, case: dict) -> dict:
    frame = session.createDataFrame(SAMPLE_ROWS, SAMPLE_SCHEMA).coalesce(1)
    frame.write.options(**case["options"]).mode("overwrite").parquet(case["out_dir"])
    return {"ok": True}


def run_read(session, case: dict) -> dict:
    rows = session.read.parquet(case["path"]).collect()
    return {"ok": True, "rows": [row.asDict() for row in rows]}


def main(plan_path: str, results_path: str) -> None:
    with open(plan_path) as handle:
        plan = json.load(handle)
    session = build_session()
    results = {}
    for kind, runner in (("writes", run_write), ("reads", run_read)):
        for case in plan.get(kind, []):
            try:
                results[case["name"]] = runner(session, case)
            except Exception as error:  # each cell records its own failure
                results[case["name"]] = {"ok": False, "error": _error_text(error)}
    session.stop()
    with open(results_path, "w") as handle:
        json.dump(results, handle, indent=1)


if __name__ == "__main__":
    main(*sys.argv[1:3])
