"""Tests of the ORC bad files (conformance/golden/orc)."""
