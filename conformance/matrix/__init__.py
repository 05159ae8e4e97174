"""The writer x reader x case matrix: planned as cells (`cells`), run one by one under
isolation and time limits (`cell_runner`) or as a PySpark job (`run`).

The package imports nothing itself: `conformance.golden` builds on its lower modules
(`cells`, `failures`) and `run` builds on `conformance.golden`.
"""
