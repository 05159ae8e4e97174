"""The file formats the suite knows, one record each: the registry every format switch asks.

A format is a dimension of everything (docs/architecture.md, 'Formats'): a case's write
options and feature tags, the file name suffix of a run's and the corpus's files, the
reference's documented errors, its validator, whether a file carries keys for the harness
to resolve, the name reports print. Each of those facts is a field of the format's
`FileFormat` here, so code asks the record (`file_format(case.format).suffix`) instead of
comparing a format's name. Entry points into the rest of the suite and into
`reference_impl` are "module:attribute" strings imported on first use: this module imports
nothing of either, so anything may import it.

A file's format comes from its leading magic, never from its name: Parquet files start with
"PAR1" (README.md, 'File Format'), or "PARE" when the footer is encrypted (Encryption.md,
'5.4 Encrypted footer mode'); ORC files start with "ORC" (ORCv1.md, 'File Tail').
`conformance read` and `validate` take any file and decide from these; a file of neither
format (empty, or another magic) raises `UnknownFormat`, naming the bytes it starts with,
and both commands exit 1 with it, as they do for any file they reject.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PARQUET = "parquet"
ORC = "orc"
PARQUET_MAGIC = b"PAR1"
PARQUET_ENCRYPTED_FOOTER_MAGIC = b"PARE"
ORC_MAGIC = b"ORC"


class UnknownFormat(ValueError):
    """A file of no known format: its leading bytes are none of the formats' magics."""


@dataclass(frozen=True)
class FileFormat:
    """What the suite knows of one file format; entry points are "module:attribute"."""

    name: str  # a case's and an engine's `format`, the results dataset's `format` column
    display_name: str  # how reports name it
    magics: tuple[bytes, ...]  # the leading bytes of its files
    suffix: str  # the suffix the suite gives its files (runs, corpus, regressions)
    options: str  # the class of a case's abstract write options
    field_tags: str  # a canonical field's feature tags in this format: Field -> set[str]
    errors: str  # the module of the reference's documented error classes
    error_base: str  # the base class of those errors: a reference verdict, not a harness bug
    reference_engine: str  # the reference's adapter (conformance.engines.reference)
    golden_engine: str  # the adapter that writes the reference's golden files, byte for byte
    # The reference validator (`validate(path, decryption=None) -> findings`, opening the
    # file with the suite's keys unless given explicit ones); None while the format has
    # none, and then neither `conformance validate` nor validate cells judge it.
    validator: str | None
    # Whether its files and cases carry keys the harness resolves for the engines
    # (`conformance.kms`): Parquet Modular Encryption.
    encryption_keys: bool
    # Whether its write options may put untrue metadata on purpose (`WriteOptions.lies`):
    # such a case's files are `acceptable`, not `valid` (conformance.golden.corpus).
    lies: bool
    # What `conformance read --resolve-file-references` prints: `(path, decryption) -> list of
    # JSON objects`, each a FILE value resolved (LogicalTypes.md 'FILE'); None: the format has none.
    file_references: str | None = None
    # What `conformance inspect` prints: `(path, **keys) -> JSON document` of the file's
    # structure (conformance/inspect/); a format with `encryption_keys` also takes
    # `decryption` and `suite_keys`.
    inspector: str | None = None
    # The rows a reader without keys must read of an encrypted case: `(expected, options) ->
    # Table` (an engine's `Capabilities.reads_keyless`); None: the format has no such view.
    keyless_view: str | None = None

    def options_class(self) -> type[Any]:
        return load(self.options)

    def tags_of(self, field: Any) -> set[str]:
        return load(self.field_tags)(field)

    def errors_module(self) -> Any:
        return importlib.import_module(self.errors)

    def error_class(self, name: str) -> type[Exception]:
        """One of the reference's documented error classes, by name."""
        return getattr(self.errors_module(), name)

    def reference_error(self) -> type[Exception]:
        return load(self.error_base)

    def keyless_rows(self, expected: Any, options: Any) -> Any:
        """The rows a reader without keys reads of a case of `expected` rows written with
        `options` (see `keyless_view`); ValueError for a format without such a view."""
        if self.keyless_view is None:
            raise ValueError(f"{self.display_name} has no view of encrypted data without keys")
        return load(self.keyless_view)(expected, options)

    def validate(self) -> Any:
        """The reference validator, or None (see `validator`)."""
        return None if self.validator is None else load(self.validator)


FORMATS: dict[str, FileFormat] = {f.name: f for f in (
    FileFormat(
        name=PARQUET, display_name="Parquet",
        magics=(PARQUET_MAGIC, PARQUET_ENCRYPTED_FOOTER_MAGIC), suffix=".parquet",
        options="conformance.cases.model:WriteOptions",
        field_tags="conformance.cases.model:field_tags",
        errors="reference_impl.parquet.errors",
        error_base="reference_impl.parquet.errors:ParquetError",
        reference_engine="conformance.engines.parquet.reference:ReferenceEngine",
        golden_engine="conformance.engines.parquet.reference:GoldenReferenceEngine",
        validator="conformance.engines.parquet.reference:validate",
        encryption_keys=True, lies=True,
        file_references="conformance.engines.parquet.reference:file_references",
        inspector="conformance.inspect.parquet_file:inspect"),
    FileFormat(
        name=ORC, display_name="ORC", magics=(ORC_MAGIC,), suffix=".orc",
        options="conformance.cases.orc.options:OrcWriteOptions",
        field_tags="conformance.cases.orc.types:field_tags",
        errors="reference_impl.orc.errors",
        error_base="reference_impl.orc.errors:OrcError",
        reference_engine="conformance.engines.orc.reference:OrcReferenceEngine",
        # The ORC reference writer draws no random bytes: its files regenerate as they are.
        golden_engine="conformance.engines.orc.reference:OrcReferenceEngine",
        validator="conformance.engines.orc.reference:validate", encryption_keys=False, lies=True,
        inspector="conformance.inspect.orc_file:inspect",
        keyless_view="conformance.cases.orc.masked_view:masked_view"),
)}
# The format of an engine or case that names none.
DEFAULT_FORMAT = PARQUET


def file_format(name: str) -> FileFormat:
    """The record of the format called `name`; ValueError naming the known ones."""
    try:
        return FORMATS[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r}; known: {', '.join(FORMATS)}") from None


def display_name(name: str) -> str:
    """How reports name format `name`; the name itself for one this version does not know
    (a results dataset another version of the suite wrote)."""
    known = FORMATS.get(name)
    return name if known is None else known.display_name


def validated_formats() -> tuple[str, ...]:
    """The formats the reference validator judges (validate cells, `conformance validate`)."""
    return tuple(f.name for f in FORMATS.values() if f.validator is not None)


def load(entry_point: str) -> Any:
    """The attribute an entry point "module:attribute" names, imported now."""
    module_name, _, attribute = entry_point.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def detect_format(path: Path) -> FileFormat:
    """The format of the file at `path` by its leading magic; UnknownFormat naming what it
    starts with (an empty file starts with nothing)."""
    longest = max(len(magic) for f in FORMATS.values() for magic in f.magics)
    with open(path, "rb") as file:
        head = file.read(longest)
    for found in FORMATS.values():
        if head.startswith(found.magics):
            return found
    known = "; ".join(f"{f.display_name}'s {' or '.join(map(repr, f.magics))}"
                      for f in FORMATS.values())
    raise UnknownFormat(f"{path}: starts with {head!r} ({len(head)} bytes read), none of the "
                        f"formats' leading magic: {known}")
