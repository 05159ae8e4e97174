"""Tests of the golden artefacts (conformance/golden)."""
