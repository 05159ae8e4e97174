"""Tests of the Parquet bad files (conformance/golden/parquet)."""
