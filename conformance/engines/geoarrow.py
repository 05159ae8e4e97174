"""GEOMETRY and GEOGRAPHY in Arrow: the GeoArrow ``geoarrow.wkb`` extension type.

Arrow C++ (pyarrow) writes a Parquet GEOMETRY or GEOGRAPHY column from an Arrow
field of extension type ``geoarrow.wkb`` (storage: binary WKB; metadata: JSON
with ``crs`` and, for GEOGRAPHY, ``edges``), and reads such columns back as that
type when one is registered, else as plain binary (measured with pyarrow 26,
docs/engine-notes.md, 'Geospatial statistics'); DuckDB imports the same type as
its GEOMETRY. No GeoArrow package is installed, so this module declares and
registers the type itself (the extension's name and metadata keys are GeoArrow's).

Canonical <-> Arrow: ``geometry(crs)`` -> metadata ``{"crs": crs}`` (``{}``
for the default); ``geography(crs, algorithm)`` adds ``"edges"``, the
algorithm in lower case (LogicalTypes.md, 'GEOGRAPHY': SPHERICAL by default).
Back, a missing ``edges`` is GEOMETRY; ``crs`` "OGC:CRS84" (which Arrow C++
writes out for an unset CRS, measured) and ``edges`` "spherical" are the
defaults, None in canonical form, as LogicalTypes.md defines them.
"""

from __future__ import annotations

import json

import pyarrow as pa

from conformance.values import DataType
from conformance.values import types as T

__all__ = ["EXTENSION_NAME", "WkbType", "canonical_geo_type", "wkb_type"]

EXTENSION_NAME = "geoarrow.wkb"
DEFAULT_CRS = "OGC:CRS84"  # LogicalTypes.md, 'GEOMETRY': "the CRS defaults to "OGC:CRS84""
DEFAULT_EDGES = "spherical"


class WkbType(pa.ExtensionType):
    """WKB in binary storage, its GeoArrow metadata kept as bytes."""

    def __init__(self, metadata: bytes = b"{}") -> None:
        self.metadata = metadata
        super().__init__(pa.binary(), EXTENSION_NAME)

    def __arrow_ext_serialize__(self) -> bytes:
        return self.metadata

    @classmethod
    def __arrow_ext_deserialize__(cls, storage_type: pa.DataType, serialized: bytes) -> WkbType:
        return cls(serialized)


def wkb_type(t: DataType) -> WkbType:
    """The extension type of canonical ``geometry`` / ``geography`` type ``t``."""
    metadata = {} if t.crs is None else {"crs": t.crs}
    if t.kind == "geography":
        metadata["edges"] = (t.algorithm or DEFAULT_EDGES).lower()
    return WkbType(json.dumps(metadata).encode())


def canonical_geo_type(t: pa.BaseExtensionType) -> DataType:
    """The canonical type of a ``geoarrow.wkb`` type (this module's or another registered one)."""
    metadata = json.loads(t.__arrow_ext_serialize__() or b"{}")
    crs = metadata.get("crs")
    crs = None if crs in (None, DEFAULT_CRS) else crs if isinstance(crs, str) else json.dumps(crs)
    edges = metadata.get("edges")
    if edges is None:
        return T.geometry(crs)
    return T.geography(crs, None if edges == DEFAULT_EDGES else edges.upper())


try:
    pa.register_extension_type(WkbType())
except pa.ArrowKeyError:  # registered already in this process (a GeoArrow package, or a reload)
    pass
