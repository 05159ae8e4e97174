"""The Parquet site's 'Features and Versions' page as data (conformance.specs.features_versions)
and docs/features-and-versions.md generated from it."""

from __future__ import annotations

from types import SimpleNamespace

from conformance.cases.spec_versions import ADDITIONS, FORWARD_COMPATIBLE, FORWARD_INCOMPATIBLE
from conformance.specs import features_versions
from conformance.specs.features_versions import ROWS, feature_coverage
from conformance.specs.generated_pages import committed

PAGE_ROWS = {FORWARD_INCOMPATIBLE: 29, FORWARD_COMPATIBLE: 33}  # the page's two tables at PAGE_COMMIT


def test_the_doc_is_generated_from_the_data() -> None:
    doc = committed(features_versions.DOC, features_versions.GENERATED_START)
    assert doc == features_versions.generated(), "run `python -m conformance.specs.features_versions`"


def test_every_row_of_the_page_is_held_once() -> None:
    assert {table: sum(r.table == table for r in ROWS) for table in PAGE_ROWS} == PAGE_ROWS
    assert len({r.feature for r in ROWS}) == len(ROWS)


def test_the_release_of_a_feature_agrees_with_docs_spec_versions() -> None:
    releases = {a.feature: a.release for a in ADDITIONS if a.format == "parquet"}
    shared = [r for r in ROWS if r.feature in releases]
    assert len(shared) >= 10  # the rows named alike in both
    assert {r.feature: r.release for r in shared} == {r.feature: releases[r.feature] for r in shared}


def test_a_feature_is_covered_by_the_cases_with_its_tags_only() -> None:
    cases = [SimpleNamespace(id="c/lz4raw", format="parquet", features=("codec:LZ4_RAW", "physical:INT32")),
             SimpleNamespace(id="c/bss-int", format="parquet",
                             features=("encoding:BYTE_STREAM_SPLIT", "physical:INT64")),
             SimpleNamespace(id="o/zstd", format="orc", features=("codec:ZSTD",))]
    covered = {c.row.feature: c.cases for c in feature_coverage(cases) if c.covered}
    assert covered == {"INT32": ("c/lz4raw",), "LZ4_RAW": ("c/lz4raw",), "INT64": ("c/bss-int",),
                       "BYTE_STREAM_SPLIT": ("c/bss-int",),
                       "BYTE_STREAM_SPLIT (Additional Types)": ("c/bss-int",)}


def test_a_feature_without_tags_is_never_covered() -> None:
    untagged = [r for r in ROWS if not r.tags]
    assert untagged and all(r.remark for r in untagged)
    every_tag = tuple({t for r in ROWS for t in r.tags})
    everything = SimpleNamespace(id="c/all", format="parquet", features=every_tag)
    assert not any(c.covered for c in feature_coverage([everything]) if not c.row.tags)
