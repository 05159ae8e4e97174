"""The one SparkSession of a run (docs/engine-notes.md, 'Spark').

JVM start-up costs seconds, so a process builds the session once and every
Spark cell and the matrix job share it. Local mode (`local[*]`) by default; any
master URL (a standalone cluster) runs the same code.

In-driver cells run on several threads at once (`cell_runner.run_in_driver_pool`). The
Spark engines set SQL options for one call (`spark.conf.set`), which are a
session's, so each such thread gets a child session of its own (`newSession()`:
the same SparkContext and JVM, its own SQL configuration), bound with
`bind_session`; `get_session` returns the thread's child where one is bound.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import warnings
from pathlib import Path

DEFAULT_MASTER = "local[*]"
# Few shuffle partitions: the matrix job never shuffles much, and each task costs ~50 ms.
SHUFFLE_PARTITIONS = 4
# The harness compares exact instants; a session time zone other than UTC would
# shift the local-time (NTZ) conversions it does.
SESSION_TIME_ZONE = "UTC"
_LOG4J2 = """\
rootLogger.level = fatal
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n
"""

_session = None
_master: str | None = None
_bound = threading.local()  # .session: the child session of a thread (bind_session)


def _log4j2_file() -> Path:
    path = Path(tempfile.gettempdir()) / "conformance-log4j2.properties"
    if not path.exists() or path.read_text() != _LOG4J2:
        path.write_text(_LOG4J2)
    return path


def get_session(master: str | None = None):
    """The process's SparkSession, created on first use with `master`; on a thread
    bound to a child session (`bind_session`), that child."""
    global _session, _master
    child = getattr(_bound, "session", None)
    if child is not None and master in (None, _master):
        return child
    master = master or _master or os.environ.get("CONFORMANCE_SPARK_MASTER", DEFAULT_MASTER)
    if _session is not None:
        if master != _master:
            raise RuntimeError(f"a SparkSession for {_master} already exists; cannot switch to "
                               f"{master} in the same process")
        return _session
    # Workers must run this very interpreter, where the project is installed.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    log4j = f"-Dlog4j2.configurationFile=file:{_log4j2_file()}"
    # The driver JVM starts before any builder option is read: its logging is set here.
    os.environ.setdefault("PYSPARK_SUBMIT_ARGS",
                          f'--driver-java-options "{log4j}" pyspark-shell')
    # Measured (docs/engine-notes.md, 'Spark'): PySpark 4.3 warns about pandas >= 3 on every
    # start; the harness never converts through pandas in Spark, so the warning is noise here.
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master(master)
        .appName("columnar-conformance")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", str(SHUFFLE_PARTITIONS))
        .config("spark.sql.session.timeZone", SESSION_TIME_ZONE)
        .config("spark.driver.extraJavaOptions", log4j)
        .config("spark.executor.extraJavaOptions", log4j)
        .config("spark.executorEnv.PYSPARK_PYTHON", sys.executable)
        .config("spark.python.worker.reuse", "true")
    )
    for key, value in _encryption_conf().items():
        builder = builder.config(key, value)
    _session = builder.getOrCreate()
    # An engine failure is recorded in its cell with the exception text; Spark's own
    # ERROR lines (task failures with stack traces) would only repeat it on the console.
    _session.sparkContext.setLogLevel("FATAL")
    _master = master
    return _session


def _encryption_conf() -> dict[str, str]:
    """The test KMS on the JVM classpath (conformance.kms); without javac, Spark runs without it."""
    from conformance.kms.java_build import JavaBuildError
    from conformance.kms.spark_conf import spark_encryption_conf

    try:
        return spark_encryption_conf()
    except JavaBuildError as error:
        warnings.warn(f"Spark encryption cells disabled: {error}", stacklevel=2)
        return {}


def child_session():
    """A new session sharing the process session's SparkContext, with SQL options of its own."""
    return get_session().newSession()


def bind_session(session) -> None:
    """Make `get_session()` on the calling thread return `session` (None: the process's)."""
    _bound.session = session


def stop_session() -> None:
    global _session, _master
    if _session is not None:
        _session.stop()
    _session, _master = None, None
