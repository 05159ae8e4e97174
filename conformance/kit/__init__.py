"""The adapter kit: the public API for a Python adapter of the engine protocol.

An adapter written in Python imports this module and nothing else of the suite; what
is named in ``__all__`` keeps its name and meaning across releases of the suite
(docs/adapter-kit.md), whatever moves behind it. A test holds the bundled Python
adapters (``adapters/python/``) to it.

    from conformance.kit import Case, run_adapter, engine_table, table_to_arrow

What it offers (docs/engine-protocol.md says what each request and answer holds):

* the request loop: ``run_adapter({"start": ..., "read": ..., "write": ...})``, with
  ``Unsupported`` for an answer ``{"unsupported": reason}`` and ``PROTOCOL_VERSION``;
* the case a ``write`` request carries: ``Case.from_json(request["case"])``, its
  ``schema`` (``Schema``, ``Field``, ``DataType``), canonical rows and ``WriteOptions``;
* ``Capabilities``: the tags an adapter declares in its ``start`` answer;
* canonical values <-> Apache Arrow, both exact: ``table_to_arrow(table)`` and
  ``engine_table(engine_name, arrow_table)``; ``NO_ARROW_FORM``: the canonical kinds
  Arrow cannot carry, with why;
* ``leaves`` and ``all_fields``: a schema's Parquet column paths;
* ``parquet_layout(path)``: the physical type and data page encodings a writer chose.
"""

from conformance.cases import Case, WriteOptions
from conformance.engines.arrow_values import NO_ARROW_FORM, engine_table, table_to_arrow
from conformance.engines.base import Capabilities, Unsupported
from conformance.engines.parquet._parquet_leaves import all_fields, leaves
from conformance.engines.protocol.adapter_kit import run_adapter
from conformance.engines.protocol.messages import PROTOCOL_VERSION
from conformance.values import DataType, Field, Schema, Table

from .parquet_layout import DATA_PAGE_V2, LeafLayout, parquet_layout

__all__ = [
    "DATA_PAGE_V2",
    "NO_ARROW_FORM",
    "PROTOCOL_VERSION",
    "Capabilities",
    "Case",
    "DataType",
    "Field",
    "LeafLayout",
    "Schema",
    "Table",
    "Unsupported",
    "WriteOptions",
    "all_fields",
    "engine_table",
    "leaves",
    "parquet_layout",
    "run_adapter",
    "table_to_arrow",
]
