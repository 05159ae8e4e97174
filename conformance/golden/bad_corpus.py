"""The bad-file corpus: every catalogue of bad files, and its index.json.

The entries (``bad_file.BadFile``) come from each format's catalogues, in its folder:
the faults of a Parquet file's structure (``parquet/bad_files``), one annotation on a
physical type its LogicalTypes.md section forbids (``parquet/type_rule_files``) and
the lenient readings of the data path and the metadata (``parquet/lenient_data_files``,
``parquet/lenient_metadata_files``): their acceptable files and the rules of theirs
that no single reading saves (bad files); VARIANT bytes that break VariantEncoding.md
(``parquet/variant_files``); the faults of an ORC file's structure
(``orc/bad_files``), of its stripe's rules (``orc/stripe_rule_files``), of GEOMETRY
and GEOGRAPHY (``orc/geospatial_files``), the files its lenient rules read
(``orc/lenient_files``) and its column encryption (``orc/encryption_files``).

``bad/index.json`` (``schemas/bad-index.schema.json``) lists every entry: id, format,
verdict, fault, error class, spec sections, read options, sha256 and, for an
acceptable file, its single reading (``expected``: the canonical rows the
reference reads from its valid original, docs/canonical-values.md).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from conformance.engines.reference import ReferenceAdapter
from conformance.formats import file_format, load
from conformance.values import Table
from reference_impl.common.leniency import Breach

from .bad_file import ACCEPTABLE, INDEX, BadFile, file_name
from .orc.bad_files import orc_bad_files
from .orc.encryption_files import encryption_files
from .orc.geospatial_files import geospatial_files
from .orc.lenient_files import acceptable_files as acceptable_orc_files
from .orc.stripe_rule_files import stripe_rule_files
from .parquet.bad_files import fault_files
from .parquet.lenient_data_files import acceptable_files as acceptable_data_files
from .parquet.lenient_data_files import bad_files_of_rules as bad_data_files
from .parquet.lenient_metadata_files import acceptable_files as acceptable_metadata_files
from .parquet.lenient_metadata_files import bad_files_of_rules as bad_metadata_files
from .parquet.type_rule_files import type_rule_files
from .parquet.variant_files import variant_files

__all__ = ["bad_files", "expected_reading", "reference_adapter", "reference_reading", "write_bad_files"]


def bad_files() -> list[BadFile]:
    """The corpus; ids are unique."""
    entries = [*fault_files(), *type_rule_files(), *variant_files(), *bad_data_files(), *bad_metadata_files(),
               *acceptable_data_files(), *acceptable_metadata_files(), *orc_bad_files(), *stripe_rule_files(),
               *geospatial_files(), *acceptable_orc_files(), *encryption_files()]
    ids = [entry.id for entry in entries]
    if len(set(ids)) != len(ids):
        raise AssertionError(f"duplicate bad-file ids in {ids}")
    return entries


def reference_reading(entry: BadFile, path: Path) -> tuple[Table, list[Breach]]:
    """The canonical rows the reference's adapter reads leniently from ``path``, with the
    keys of ``entry``'s read options (what peers' readings are compared with), and the
    rules the file breaks."""
    return reference_adapter(entry).read_with_breaches(path)


def reference_adapter(entry: BadFile) -> ReferenceAdapter:
    """The reference adapter of ``entry``'s format, reading with its read options."""
    adapter: type[ReferenceAdapter] = load(file_format(entry.format).reference_engine)
    return adapter.with_read_options(entry.read_options)


def expected_reading(entry: BadFile) -> Table:
    """An acceptable file's single reading: the rows of its valid original."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / file_name(entry).replace("/", "-")
        path.write_bytes(entry.original())
        return reference_reading(entry, path)[0]


def write_bad_files(directory: Path) -> list[Path]:
    """Write ``<id>.parquet`` (``<id>.orc``) per entry and one index.json listing them all."""
    directory.mkdir(parents=True, exist_ok=True)
    paths, index = [], []
    for entry in bad_files():
        raw = entry.make()
        path = directory / file_name(entry)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(raw)
        paths.append(path)
        expected = expected_reading(entry) if entry.verdict == ACCEPTABLE else None
        index.append(entry.to_json(raw, expected))
    (directory / INDEX).write_text(json.dumps(index, indent=2) + "\n")
    return paths
