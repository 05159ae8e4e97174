"""Which release added what (docs/spec-versions.md): every case's `spec:` tag, the
`--spec-version` filters of `run` and `report`, and the page itself."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from conformance.cases import all_cases
from conformance.cases.spec_versions import PREVIEW_TAG, release_key, spec_tags, within
from conformance.matrix.run import RunConfig, selected_cases
from conformance.report.dataset import RESULTS_SCHEMA, load_results, write_consolidated
from conformance.report.spec_filter import write_within
from conformance.specs import spec_versions_doc
from conformance.specs.generated_pages import committed

REPOSITORY = Path(__file__).resolve().parents[2]


def test_every_case_names_exactly_one_release_of_its_format() -> None:
    for case in all_cases():
        releases = [t for t in case.features if t.startswith(f"spec:{case.format}-")]
        assert len(releases) == 1, (case.id, releases)


@pytest.mark.parametrize(("older", "newer"), [
    ("2.9.0", "2.10.0"), ("2.12.0", "2.13.0"), ("2.13.0", "after 2.13.0"), ("0.11", "0.12")])
def test_releases_sort_by_number_and_a_change_after_a_release_follows_it(older, newer) -> None:
    assert release_key(older) < release_key(newer)


def test_the_newest_feature_names_the_release_and_a_preview_is_marked() -> None:
    assert spec_tags("parquet", ["type:VARIANT", "page:v2"]) == {"spec:parquet-2.12.0"}
    assert spec_tags("parquet", ["physical:INT32", "type:INT(32,signed)"]) == {"spec:parquet-1.0.0"}
    assert spec_tags("parquet", ["encoding:ALP", "codec:ZSTD"]) == {"spec:parquet-after-2.13.0", PREVIEW_TAG}
    assert spec_tags("orc", ["codec:BROTLI", "rle:v2"]) == {"spec:orc-ORC-FORMAT-6"}


def test_within_a_release() -> None:
    assert within(["type:VARIANT"], "parquet", "2.12.0")
    assert not within(["column_order:IEEE_754_TOTAL_ORDER"], "parquet", "2.12.0")
    assert within(["column_order:IEEE_754_TOTAL_ORDER"], "parquet", "2.13.0")
    assert not within(["encoding:ALP"], "parquet", "after 2.13.0")  # preview: never


def test_a_run_of_one_release_selects_only_what_it_holds() -> None:
    everything = selected_cases(RunConfig(case_globs=("logical/*",)))
    at_2_1 = selected_cases(RunConfig(case_globs=("logical/*",), spec_versions={"parquet": "2.1.0"}))
    assert 0 < len(at_2_1) < len(everything)
    assert all(release_key(t.removeprefix("spec:parquet-")) <= release_key("2.1.0")
               for case in at_2_1 for t in case.features if t.startswith("spec:parquet-"))
    assert {c.id for c in at_2_1} >= {"logical/decimal-int32-required"}


def _row(cell: str, fmt: str, features: list[str]) -> dict:
    row = dict.fromkeys(RESULTS_SCHEMA.names)
    row.update(run_id="r", cell_id=cell, phase="read", case_id=cell, format=fmt, features=features,
               spec=[], writer="reference", reader="reference", outcome="pass")
    return row


def test_a_report_of_one_release_keeps_the_cells_it_holds(tmp_path) -> None:
    rows = [_row("old", "parquet", ["spec:parquet-2.2.0", "type:DATE"]),
            _row("new", "parquet", ["spec:parquet-2.13.0", "column_order:IEEE_754_TOTAL_ORDER"]),
            _row("orc", "orc", ["spec:orc-0.12", "rle:v2"])]
    results = tmp_path / "results"
    results.mkdir()
    write_consolidated(pa.Table.from_pylist(rows, schema=RESULTS_SCHEMA), results / "part-0.parquet")
    within, kept, total = write_within(results, tmp_path / "within", {"parquet": "2.12.0"})
    assert (kept, total) == (2, 3)
    assert load_results(within).column("cell_id").to_pylist() == ["old", "orc"]
    with pytest.raises(ValueError, match="no cell"):
        write_within(results, tmp_path / "none", {"parquet": "2.0.0", "orc": "0.11"})


def test_the_page_is_generated_and_names_every_reference_module() -> None:
    page = spec_versions_doc.PAGE.read_text(encoding="utf-8")
    start = spec_versions_doc.GENERATED_START
    assert committed(spec_versions_doc.PAGE, start) == spec_versions_doc.generated(), (
        "run `python -m conformance.specs.spec_versions_doc`")
    unlisted = []
    for module in sorted((REPOSITORY / "reference_impl").rglob("*.py")):
        if module.name == "__init__.py":
            continue
        inside = module.relative_to(REPOSITORY / "reference_impl" / module.relative_to(
            REPOSITORY / "reference_impl").parts[0]).as_posix()
        folder_glob = f"`{Path(inside).parent.as_posix()}/*.py`"
        if f"`{inside}`" not in page and folder_glob not in page and f"`{module.name}`" not in page:
            unlisted.append(inside)
    assert not unlisted, f"docs/spec-versions.md, 'Reference modules' does not list {unlisted}"
