"""The writer x reader x case matrix: planned as cells, run as a PySpark job."""

from .run import RunConfig, RunResult, run_matrix

__all__ = ["RunConfig", "RunResult", "run_matrix"]
