"""GEOMETRY and GEOGRAPHY through the Arrow-based adapters (pyarrow, DuckDB), for real.

Checks what docs/engine-notes.md, 'Geospatial statistics' records: the adapters hand the
columns over as GeoArrow ``geoarrow.wkb``; pyarrow writes both annotations but
GeospatialStatistics for GEOMETRY only; DuckDB writes GEOMETRY with them and refuses
GEOGRAPHY. The statistics are judged by the reference's own computation and ``validate``.
"""

from __future__ import annotations

import duckdb
import pytest

from conformance.cases import case_by_id
from conformance.engines.arrow_values import table_to_arrow
from conformance.engines.parquet.duckdb_engine import DuckDBEngine
from conformance.engines.parquet.pyarrow_engine import PyArrowEngine
from reference_impl.parquet.reader import read_footer
from reference_impl.parquet.statistics.geospatial_statistics import geospatial_statistics
from reference_impl.parquet.validation.validate import validate
from tests.engines._helpers import write_case


def _column_metadata(path):
    metadata, _ = read_footer(path.read_bytes())
    return metadata.schema[1], metadata.row_groups[0].columns[0].meta_data


def _values(case_id: str) -> list[bytes]:
    return [row[0] for row in case_by_id(case_id).rows if row[0] is not None]


@pytest.mark.parametrize("engine", [PyArrowEngine(), DuckDBEngine()], ids=lambda e: e.name)
@pytest.mark.parametrize("case_id", ["geospatial/geometry-kinds", "geospatial/geometry-zm"])
def test_geometry_is_annotated_and_its_statistics_are_the_reference_s(engine, case_id, tmp_path):
    element, meta = _column_metadata(write_case(engine, case_by_id(case_id), tmp_path))
    assert element.logicalType.kind == "GEOMETRY"
    assert meta.geospatial_statistics == geospatial_statistics(_values(case_id), geography=False)
    assert not [f for f in validate((tmp_path / "out.parquet").read_bytes()) if "geospatial" in f.kind]


def test_pyarrow_writes_geography_without_geospatial_statistics(tmp_path):
    element, meta = _column_metadata(
        write_case(PyArrowEngine(), case_by_id("geospatial/geography-antimeridian"), tmp_path))
    assert element.logicalType.kind == "GEOGRAPHY"
    assert meta.geospatial_statistics is None


def test_duckdb_declares_geography_unsupported_as_measured(tmp_path):
    case = case_by_id("geospatial/geography-points")
    gap = DuckDBEngine().capabilities.write_gap(case.write_features)
    assert gap is not None and "non-planar edges" in gap
    with pytest.raises(duckdb.NotImplementedException, match="Can't import non-planar edges"):
        duckdb.connect().register("t", table_to_arrow(case.expected))


def test_pyarrow_reads_the_reference_s_geography_as_geography(tmp_path):
    from conformance.engines.parquet.reference import ReferenceEngine

    case = case_by_id("geospatial/geography-antimeridian")
    path = write_case(ReferenceEngine(), case, tmp_path)
    table = PyArrowEngine().read(path)
    assert table.schema.fields[0].type.kind == "geography" and table.rows == case.expected.rows



@pytest.mark.spark
def test_spark_writes_geometry_with_parquet_java_s_statistics_and_refuses_nan(spark, tmp_path):
    from conformance.engines import get_engine

    engine = get_engine("spark")
    element, meta = _column_metadata(write_case(engine, case_by_id("geospatial/geometry-zm"), tmp_path))
    # SRID 4326 is written as the default CRS spelled out (LogicalTypes.md, 'GEOMETRY')
    assert element.logicalType.kind == "GEOMETRY" and element.logicalType.GEOMETRY.crs == "OGC:CRS84"
    expected = geospatial_statistics(_values("geospatial/geometry-zm"), geography=False)
    assert meta.geospatial_statistics == expected
    with pytest.raises(Exception, match="WKB_PARSE_ERROR"):
        write_case(engine, case_by_id("geospatial/geometry-nan"), tmp_path)
