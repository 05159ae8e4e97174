"""The neutral floor both formats stand on (docs/architecture.md, 'The house').

What Parquet and ORC share, and neither owns: variable-length integers
(``varint``), IEEE 754 float bits (``ieee_float``), the size-capped raw codecs each
format frames its own way (``raw_codecs``), lenient reading (``leniency``), the
row predicate of a filtered read (``row_predicate``), and the WKB values of GEOMETRY and
GEOGRAPHY with their bounding box, type codes and checks (``wkb``, ``geospatial_bounds``,
``geospatial_checks``). No
module here imports either format; no module of one format imports the other.
"""
