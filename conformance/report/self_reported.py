"""The Apache Parquet site's "Implementation status" table, as data, and where it and the
run's measurement disagree.

The site's table (parquet.apache.org, Documentation, File Format, Implementation status)
is filled in by each implementation's maintainers: per feature a status of full support,
read only, write only, none, or blank. Since the site moved its table into data files
(repository apache/parquet-site, ``data/implementations/``: the feature lists under
``features/``, one file per implementation under ``support/``), each file carries its own
commit and date; ``SOURCES`` names the ones recorded here. docs/parquet-implementation-status.md
is generated from this module (``python -m conformance.report.self_reported``) and a test
keeps the two equal.

``disagreements(table)`` compares each recorded status with the measured square of the
engines the suite runs for that implementation (``ENGINES``): a claimed side measured
wrong or declared not supported, and a side claimed absent that the run measured working.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .pages import INDEX, esc, href, status_page
from .status import (
    SIDE_OK,
    SIDE_PARTIAL,
    SIDE_UNSUPPORTED,
    SIDE_WRONG,
    Square,
    StatusTable,
)
from .status_rows import READ, WRITE, rows_of

PARQUET = "parquet"
SITE_REPOSITORY = "apache/parquet-site"
SITE_PAGE = "parquet.apache.org, Documentation, File Format, Implementation status"
DOC = Path("docs/parquet-implementation-status.md")

# The site's legend (data/implementations/legend.yaml).
FULL, READ_ONLY, WRITE_ONLY, NONE, BLANK = "full", "read", "write", "none", "unknown"
SYMBOLS: Mapping[str, str] = {FULL: "\u2705", READ_ONLY: "(R)", WRITE_ONLY: "(W)",
                              NONE: "\u274c", BLANK: ""}
CLAIMED_SIDES: Mapping[str, tuple[str, ...]] = {
    FULL: (READ, WRITE), READ_ONLY: (READ,), WRITE_ONLY: (WRITE,), NONE: (),
}


@dataclass(frozen=True)
class Source:
    """One data file of the site, as recorded: its path, commit and own date."""

    path: str
    commit: str
    last_updated: str = ""  # the file's ``last_updated`` field (support files only)


FEATURE_SOURCES: tuple[Source, ...] = (
    Source("data/implementations/features/physical-types.yaml",
           "09e2b291fe391cdfb4545f9f3c19ff27b305dd2a"),
    Source("data/implementations/features/logical-types.yaml",
           "09e2b291fe391cdfb4545f9f3c19ff27b305dd2a"),
    Source("data/implementations/features/encodings.yaml",
           "31bec1b2a8057b188f570f47d3e57defec8a1a89"),
    Source("data/implementations/features/compressions.yaml",
           "09e2b291fe391cdfb4545f9f3c19ff27b305dd2a"),
    Source("data/implementations/features/format-features.yaml",
           "32fdd447deb322b4d81a7facb04412d18b67c3ec"),
    Source("data/implementations/features/api-features.yaml",
           "63655647af4e74ba538635141d8b7f6b4fee7f33"),
)

# The site's rows: (category, feature id, display name), in the site's order.
CATEGORIES = ("Physical types", "Logical types", "Encodings", "Compressions",
              "Other format level features", "High level data APIs for Parquet feature usage")
PHYSICAL, LOGICAL, ENCODINGS, COMPRESSIONS, FORMAT, APIS = CATEGORIES
FEATURES: tuple[tuple[str, str, str], ...] = (
    (PHYSICAL, "physical-boolean", "BOOLEAN"),
    (PHYSICAL, "physical-int32", "INT32"),
    (PHYSICAL, "physical-int64", "INT64"),
    (PHYSICAL, "physical-int96", "INT96"),
    (PHYSICAL, "physical-float", "FLOAT"),
    (PHYSICAL, "physical-double", "DOUBLE"),
    (PHYSICAL, "physical-byte-array", "BYTE_ARRAY"),
    (PHYSICAL, "physical-fixed-len-byte-array", "FIXED_LEN_BYTE_ARRAY"),
    (LOGICAL, "logical-string", "STRING"),
    (LOGICAL, "logical-enum", "ENUM"),
    (LOGICAL, "logical-uuid", "UUID"),
    (LOGICAL, "logical-int-types", "8, 16, 32, 64 bit signed and unsigned INT"),
    (LOGICAL, "logical-decimal-int32", "DECIMAL (INT32)"),
    (LOGICAL, "logical-decimal-int64", "DECIMAL (INT64)"),
    (LOGICAL, "logical-decimal-byte-array", "DECIMAL (BYTE_ARRAY)"),
    (LOGICAL, "logical-decimal-fixed-len-byte-array", "DECIMAL (FIXED_LEN_BYTE_ARRAY)"),
    (LOGICAL, "logical-float16", "FLOAT16"),
    (LOGICAL, "logical-date", "DATE"),
    (LOGICAL, "logical-time-int32", "TIME (INT32)"),
    (LOGICAL, "logical-time-int64", "TIME (INT64)"),
    (LOGICAL, "logical-timestamp-int64", "TIMESTAMP (INT64)"),
    (LOGICAL, "logical-interval", "INTERVAL"),
    (LOGICAL, "logical-json", "JSON"),
    (LOGICAL, "logical-bson", "BSON"),
    (LOGICAL, "logical-variant", "VARIANT"),
    (LOGICAL, "logical-geometry", "GEOMETRY"),
    (LOGICAL, "logical-geography", "GEOGRAPHY"),
    (LOGICAL, "logical-list", "LIST"),
    (LOGICAL, "logical-map", "MAP"),
    (LOGICAL, "logical-unknown", "UNKNOWN (always null)"),
    (ENCODINGS, "encoding-plain", "PLAIN"),
    (ENCODINGS, "encoding-plain-dictionary", "PLAIN_DICTIONARY"),
    (ENCODINGS, "encoding-rle-dictionary", "RLE_DICTIONARY"),
    (ENCODINGS, "encoding-rle", "RLE"),
    (ENCODINGS, "encoding-bit-packed", "BIT_PACKED (deprecated)"),
    (ENCODINGS, "encoding-delta-binary-packed", "DELTA_BINARY_PACKED"),
    (ENCODINGS, "encoding-delta-length-byte-array", "DELTA_LENGTH_BYTE_ARRAY"),
    (ENCODINGS, "encoding-delta-byte-array", "DELTA_BYTE_ARRAY"),
    (ENCODINGS, "encoding-byte-stream-split", "BYTE_STREAM_SPLIT"),
    (ENCODINGS, "encoding-byte-stream-split-extended", "BYTE_STREAM_SPLIT (Additional Types)"),
    (COMPRESSIONS, "compression-uncompressed", "UNCOMPRESSED"),
    (COMPRESSIONS, "compression-brotli", "BROTLI"),
    (COMPRESSIONS, "compression-gzip", "GZIP"),
    (COMPRESSIONS, "compression-lz4-deprecated", "LZ4 (deprecated)"),
    (COMPRESSIONS, "compression-lz4-raw", "LZ4_RAW"),
    (COMPRESSIONS, "compression-lzo", "LZO"),
    (COMPRESSIONS, "compression-snappy", "SNAPPY"),
    (COMPRESSIONS, "compression-zstd", "ZSTD"),
    (FORMAT, "format-bloom-filters", "xxHash-based bloom filters"),
    (FORMAT, "format-bloom-filter-length", "Bloom filter length"),
    (FORMAT, "format-stats-min-max", "Statistics min_value, max_value"),
    (FORMAT, "format-page-index", "Page index"),
    (FORMAT, "format-page-crc32", "Page CRC32 checksum"),
    (FORMAT, "format-modular-encryption", "Modular encryption"),
    (FORMAT, "format-size-statistics", "Size statistics"),
    (FORMAT, "format-data-page-v2", "Data Page V2"),
    (APIS, "api-external-column-data", "External column data"),
    (APIS, "api-sorting-columns", "Row group \"Sorting column\" metadata"),
    (APIS, "api-rowgroup-pruning-stats", "Row group pruning using statistics"),
    (APIS, "api-rowgroup-pruning-bloom", "Row group pruning using bloom filter"),
    (APIS, "api-column-projection", "Reading select columns only"),
    (APIS, "api-page-pruning-stats", "Page pruning using statistics"),
)
# Ids some support files give a status although the recorded feature lists have no row
# for them (the lists' stored versions are older than those files).
EXTRA_FEATURES: tuple[tuple[str, str], ...] = (
    ("encoding-alp", "ALP"),
    ("logical-file", "FILE"),
    ("api-parquet-summary-file", "Parquet summary file"),
)


@dataclass(frozen=True)
class Implementation:
    """One column of the site's table: its support file and every status it records.

    ``statuses`` holds every feature id the file names; a feature it does not name is
    blank (no data). ``notes`` are the file's notes, quoted.
    """

    name: str
    source: Source
    statuses: Mapping[str, str]
    notes: Mapping[str, str]

    def status(self, feature: str) -> str:
        return self.statuses.get(feature, BLANK)


_SITE_IDS = tuple(f for _, f, _ in FEATURES)


def _statuses(absent: tuple[str, ...] = (), **others: str) -> dict[str, str]:
    """A support file's statuses: every site feature full but those of ``others`` (ids
    spelt with ``_``) and those it does not name (``absent``)."""
    out = {f: FULL for f in _SITE_IDS if f not in absent}
    out.update({k.replace("_", "-"): v for k, v in others.items()})
    return out


_NO_EXTERNAL = ("api-external-column-data",)
_ANNOTATED = "Only supported to use its annotated physical type"
_PARTIAL = "Partial support"

IMPLEMENTATIONS: tuple[Implementation, ...] = (
    Implementation(
        "arrow", Source("data/implementations/support/arrow.yaml",
                        "a3f4a79e93761eae165e9bd56b5cde04b9210f96", "2026-01-15"),
        _statuses(
            absent=_NO_EXTERNAL, logical_enum=NONE, logical_uuid=NONE, logical_bson=NONE,
            logical_variant=BLANK, compression_lzo=NONE, api_parquet_summary_file=FULL,
            api_rowgroup_pruning_stats=NONE, api_rowgroup_pruning_bloom=NONE,
            api_page_pruning_stats=NONE),
        {}),
    Implementation(
        "parquet-java", Source("data/implementations/support/parquet-java.yaml",
                               "7cad897cc356584ed69c6d96849703b3e3f88fd2", "2025-12-09"),
        _statuses(absent=_NO_EXTERNAL, logical_file=NONE, encoding_alp=NONE,
                  compression_lz4_deprecated=NONE, compression_lzo=NONE,
                  api_parquet_summary_file=FULL, api_sorting_columns=NONE),
        {"logical-float16": _ANNOTATED, "logical-interval": _ANNOTATED,
         "logical-json": _ANNOTATED, "logical-bson": _ANNOTATED}),
    Implementation(
        "arrow-go", Source("data/implementations/support/arrow-go.yaml",
                           "91f0737999eabb3f9de53af301e13a4e3584a4c4", "2025-12-09"),
        _statuses(logical_geometry=NONE, logical_geography=NONE,
                  compression_lz4_deprecated=NONE, compression_lzo=NONE, format_page_crc32=NONE,
                  format_size_statistics=READ_ONLY, api_external_column_data=NONE),
        {"api-rowgroup-pruning-stats": _PARTIAL, "api-rowgroup-pruning-bloom": _PARTIAL,
         "api-page-pruning-stats": _PARTIAL}),
    Implementation(
        "arrow-rs", Source("data/implementations/support/arrow-rs.yaml",
                           "91f0737999eabb3f9de53af301e13a4e3584a4c4", "2025-12-09"),
        _statuses(encoding_bit_packed=NONE, compression_lzo=NONE,
                  api_external_column_data=NONE),
        {"logical-enum": _ANNOTATED, "logical-uuid": _ANNOTATED, "logical-json": _ANNOTATED,
         "logical-bson": _ANNOTATED,
         "encoding-bit-packed": "Partial read support, but only in the case of level data "
                                "with a bitwidth of 0"}),
    Implementation(
        "cudf", Source("data/implementations/support/cudf.yaml",
                       "aa65889f23612229c40c5063e1e146516e536816", "2025-12-09"),
        _statuses(
            absent=("encoding-byte-stream-split-extended",), logical_enum=NONE, logical_uuid=NONE,
            logical_interval=NONE,
            logical_json=NONE, logical_bson=NONE, logical_variant=NONE, logical_geometry=NONE,
            logical_geography=NONE, encoding_bit_packed=READ_ONLY, compression_brotli=READ_ONLY,
            compression_gzip=READ_ONLY, compression_lz4_deprecated=NONE, compression_lzo=NONE,
            format_bloom_filters=READ_ONLY, format_bloom_filter_length=READ_ONLY,
            format_page_crc32=NONE, format_modular_encryption=NONE,
            api_external_column_data=WRITE_ONLY, api_sorting_columns=WRITE_ONLY,
            api_page_pruning_stats=NONE),
        {}),
    Implementation(
        "hyparquet", Source("data/implementations/support/hyparquet.yaml",
                            "263f0bf1cd7abaea33aa232e783df52affca4c13", "2026-01-09"),
        _statuses(
            absent=_NO_EXTERNAL, physical_int96=READ_ONLY, logical_bson=NONE,
            logical_variant=READ_ONLY, logical_map=READ_ONLY, compression_brotli=READ_ONLY,
            compression_gzip=READ_ONLY, compression_lz4_deprecated=READ_ONLY,
            compression_lz4_raw=READ_ONLY, compression_lzo=NONE, compression_zstd=READ_ONLY,
            format_bloom_filters=NONE, format_bloom_filter_length=READ_ONLY,
            format_page_crc32=NONE, format_modular_encryption=NONE,
            format_size_statistics=READ_ONLY, api_parquet_summary_file=NONE,
            api_sorting_columns=NONE, api_rowgroup_pruning_bloom=NONE),
        {}),
    Implementation(
        "duckdb", Source("data/implementations/support/duckdb.yaml",
                         "0d8b21e660378775c06bceca0debce532c76cf7b", "2025-12-09"),
        _statuses(
            absent=_NO_EXTERNAL, physical_int96=READ_ONLY, logical_bson=NONE,
            logical_decimal_byte_array=READ_ONLY, encoding_plain_dictionary=READ_ONLY,
            encoding_bit_packed=NONE, encoding_byte_stream_split_extended=NONE,
            compression_lz4_deprecated=NONE, compression_lzo=NONE, format_page_index=READ_ONLY,
            format_page_crc32=READ_ONLY, format_size_statistics=READ_ONLY,
            api_parquet_summary_file=NONE, api_sorting_columns=READ_ONLY,
            api_page_pruning_stats=NONE),
        {"format-modular-encryption": _PARTIAL}),
    Implementation(
        "polars", Source("data/implementations/support/polars.yaml",
                         "da8c5a4e6667d7c7dc3604ed589d83c2964bbca3", "2026-01-30"),
        _statuses(
            absent=_NO_EXTERNAL, physical_int96=READ_ONLY, physical_fixed_len_byte_array=READ_ONLY,
            logical_enum=READ_ONLY, logical_uuid=READ_ONLY, logical_decimal_int32=READ_ONLY,
            logical_decimal_int64=READ_ONLY, logical_decimal_byte_array=READ_ONLY,
            logical_time_int32=READ_ONLY, logical_interval=READ_ONLY, logical_json=NONE,
            logical_bson=NONE, logical_variant=NONE, logical_geometry=READ_ONLY,
            logical_geography=READ_ONLY, logical_file=NONE, logical_map=READ_ONLY,
            encoding_plain_dictionary=READ_ONLY, encoding_rle=READ_ONLY, encoding_bit_packed=NONE,
            encoding_delta_binary_packed=READ_ONLY, encoding_delta_length_byte_array=READ_ONLY,
            encoding_delta_byte_array=READ_ONLY, encoding_byte_stream_split=READ_ONLY,
            encoding_alp=NONE, encoding_byte_stream_split_extended=NONE,
            compression_lz4_deprecated=NONE, compression_lzo=READ_ONLY,
            format_bloom_filters=NONE, format_bloom_filter_length=NONE,
            format_page_index=READ_ONLY, format_page_crc32=READ_ONLY,
            format_modular_encryption=NONE, format_size_statistics=READ_ONLY,
            format_data_page_v2=READ_ONLY, api_parquet_summary_file=NONE,
            api_sorting_columns=READ_ONLY, api_rowgroup_pruning_bloom=NONE,
            api_page_pruning_stats=NONE),
        {}),
)

ENGINES: Mapping[str, tuple[str, ...]] = {
    "arrow": ("pyarrow",),             # Arrow C++'s Parquet library, through its Python binding
    "parquet-java": ("parquet-java",),
    "arrow-rs": ("datafusion", "parquet-wasm"),  # both read and write with arrow-rs's crate
    "hyparquet": ("hyparquet",),
    "duckdb": ("duckdb",),
    "polars": ("polars",),
}
"""The suite's engines standing for each implementation of the site's table."""


def implementation(name: str) -> Implementation:
    return next(i for i in IMPLEMENTATIONS if i.name == name)


# --- disagreements -----------------------------------------------------------------------


@dataclass(frozen=True)
class Disagreement:
    """A self-reported status the measurement contradicts, with the cells as evidence."""

    implementation: str
    engine: str
    feature: str  # the site's feature id (the status row's key)
    label: str
    claimed: str  # the site's status
    side: str     # read or write
    measured: str  # the side's measured state
    square: Square

    @property
    def text(self) -> str:
        symbol = SYMBOLS[self.claimed] or "blank"
        if self.measured in (SIDE_OK, SIDE_PARTIAL):
            return f"site {symbol}: no {self.side}; measured: {self.side}s correctly"
        what = "wrong" if self.measured == SIDE_WRONG else "declared not supported"
        wrong = len(getattr(self.square, self.side).wrong)
        count = f" ({wrong} cell{'' if wrong == 1 else 's'})" if self.measured == SIDE_WRONG else ""
        return f"site {symbol}: {self.side}s; measured: {what}{count}"

    def evidence(self) -> tuple[str, ...]:
        side = getattr(self.square, self.side)
        return tuple(c.cell_id for c in (side.wrong or side.cells))

    def to_json(self) -> dict:
        return {"implementation": self.implementation, "engine": self.engine,
                "feature": self.feature, "label": self.label, "claimed": self.claimed,
                "side": self.side, "measured": self.measured, "text": self.text,
                "cells": list(self.evidence()[:MAX_EVIDENCE])}


MAX_EVIDENCE = 20  # cell ids per disagreement in results.json


def _contradicted(claimed: str, side: str, measured: str) -> bool:
    claimed_side = side in CLAIMED_SIDES[claimed]
    if claimed_side:
        return measured in (SIDE_WRONG, SIDE_UNSUPPORTED)
    return measured in (SIDE_OK, SIDE_PARTIAL)


def disagreements(table: StatusTable) -> list[Disagreement]:
    """Where the site's statuses and the Parquet table's measurement disagree."""
    rows = {r.key: r for r in rows_of(table.format)}
    found = []
    for impl in IMPLEMENTATIONS:
        for engine in ENGINES.get(impl.name, ()):
            if engine not in table.engines:
                continue
            for feature, claimed in impl.statuses.items():
                row = rows.get(feature)
                if claimed == BLANK or row is None:
                    continue
                square = table.square(row, engine)
                for side, state in ((s, getattr(square, s).state) for s in row.sides):
                    if _contradicted(claimed, side, state):
                        found.append(Disagreement(impl.name, engine, feature, row.label, claimed,
                                                  side, state, square))
    return found


def disagreements_json(found: list[Disagreement]) -> list[dict]:
    return [d.to_json() for d in found]


def self_reported_json(tables: Mapping[str, StatusTable]) -> dict:
    """For results.json: where the sources were recorded, and every disagreement."""
    table = tables.get(PARQUET)
    return {"sources": [vars(s) for s in (*FEATURE_SOURCES, *(i.source for i in IMPLEMENTATIONS))],
            "disagreements": disagreements_json(disagreements(table)) if table else []}


def self_reported_html(tables: Mapping[str, StatusTable], rel: str = INDEX) -> str:
    """The front page's "measured against self-reported" section (empty without Parquet)."""
    table = tables.get(PARQUET)
    if table is None:
        return ""
    return ('<h2 id="self-reported">Parquet: measured against self-reported</h2>'
            + disagreements_html(disagreements(table), table, rel))


def disagreements_html(found: list[Disagreement], table: StatusTable,
                       rel: str = INDEX) -> str:
    """The list a maintainer acts on: each disagreement, linked to its evidence page."""
    if not found:
        return "<p>The measurement agrees with every self-reported status it covers.</p>"
    items = []
    for d in found:
        link = href(rel, status_page(table.format, d.engine, d.feature))
        items.append(f"<tr><td>{esc(d.implementation)}</td><td>{esc(table.column(d.engine))}"
                     f'</td><td><a href="{link}">{esc(d.label)}</a></td>'
                     f"<td>{esc(d.text)}</td></tr>")
    return ("<p>Self-reported: the Parquet site's table (docs/parquet-implementation-status.md). "
            f"{len(found)} disagreement(s).</p><table><thead><tr><th>Implementation</th>"
            "<th>Engine</th><th>Feature</th><th>Self-reported vs measured</th></tr></thead>"
            f"<tbody>{''.join(items)}</tbody></table>")


def disagreements_markdown(found: list[Disagreement], table: StatusTable) -> list[str]:
    lines = [f"{len(found)} disagreement(s) with the Parquet site's self-reported table "
             "(docs/parquet-implementation-status.md).", ""]
    if found:
        lines += ["| Implementation | Engine | Feature | Self-reported vs measured | Evidence |",
                  "| --- | --- | --- | --- | --- |"]
        lines += [f"| {d.implementation} | {table.column(d.engine)} | {d.label} | {d.text} | "
                  f"`{(d.evidence() or ('',))[0]}` |" for d in found]
    return lines


# --- the docs page -------------------------------------------------------------------------


def _feature_rows() -> list[tuple[str, str, str]]:
    return [*FEATURES, *(("Entries without a row in the recorded feature lists", f, name)
                         for f, name in EXTRA_FEATURES)]


def _cell(impl: Implementation, feature: str, footnotes: dict[str, int]) -> str:
    symbol = SYMBOLS[impl.status(feature)]
    note = impl.notes.get(feature)
    if note:
        symbol += f" ({footnotes.setdefault(note, len(footnotes) + 1)})"
    return symbol


def doc_text() -> str:
    """docs/parquet-implementation-status.md, generated from this module's data."""
    names = [i.name for i in IMPLEMENTATIONS]
    footnotes: dict[str, int] = {}
    lines = [
        "# The Parquet site's implementation status, as recorded",
        "",
        "<!-- Generated by `python -m conformance.report.self_reported`; do not edit. -->",
        "",
        f"The Apache Parquet site's \"Implementation status\" page ({SITE_PAGE}) is filled in",
        "by each implementation's maintainers: nothing on it is measured. The report compares",
        "it with the run's measured status table and lists where they disagree",
        "(`conformance/report/self_reported.py`; docs/report.md, 'Measured against self-reported').",
        "",
        f"The site builds the page from data files of the repository `{SITE_REPOSITORY}`; each",
        "file was recorded at the commit below, and a support file's `last_updated` is the date",
        "its maintainers give it.",
        "",
        "| File | Commit | last_updated |",
        "| --- | --- | --- |",
        *(f"| `{s.path}` | `{s.commit}` | {s.last_updated} |"
          for s in (*FEATURE_SOURCES, *(i.source for i in IMPLEMENTATIONS))),
        "",
        "Legend (the site's): \u2705 supported, \u274c not supported, (R) partial reader-only",
        "support, (W) partial writer-only support, blank: no data.",
        "",
        "Engines of the suite standing for each column: "
        + "; ".join(f"{impl} = {', '.join(engines)}" for impl, engines in ENGINES.items())
        + ". cuDF and arrow-go are recorded but not run.",
    ]
    category = None
    for cat, feature, display in _feature_rows():
        if cat != category:
            category = cat
            lines += ["", f"## {cat}", "", "| Feature | " + " | ".join(names) + " |",
                      "| --- |" + " --- |" * len(names)]
        cells = " | ".join(_cell(i, feature, footnotes) for i in IMPLEMENTATIONS)
        lines.append(f"| {display} (`{feature}`) | {cells} |")
    lines += ["", "## Notes", ""]
    lines += [f"{n}. {note}" for note, n in footnotes.items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write docs/parquet-implementation-status.md (or check it with ``--check``)."""
    args = sys.argv[1:] if argv is None else argv
    text = doc_text()
    if "--check" in args:
        current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        return 0 if current == text else 1
    DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
