"""The canonical value model: exact, typed, JSON-serialisable (docs/canonical-values.md)."""

from .codec import CanonicalValueError, float_bits, from_json, to_json, validate
from .compare import diff_tables, semantic_key, type_difference
from .table import CANONICAL_VERSION, DocumentError, Table
from .types import DataType, Field, Schema

__all__ = [
    "CANONICAL_VERSION", "CanonicalValueError", "DataType", "DocumentError", "Field", "Schema",
    "Table", "diff_tables", "float_bits", "from_json", "semantic_key", "to_json",
    "type_difference", "validate",
]
