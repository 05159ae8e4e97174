"""``results.json``: the run, machine-readable.

Schema (``schema_version`` 1; UTF-8, strict JSON: no NaN or Infinity)::

    {
      "schema_version": 1,
      "run_id": str,                  # the run id ("a, b" if several runs)
      "run_ids": [str, ...],
      "formats": [str, ...],          # e.g. ["parquet"]
      "engines": {name: [version, ...], ...},   # reference first
      "unavailable_engines": {name: reason, ...},   # wanted, could not run here
      "version_notes": {name: warning, ...},        # not the golden corpus's version
      "total": int,                   # number of cells
      "counts": {outcome: int, ...},  # every outcome (outcomes.OUTCOMES), worst first
      "reference_self_check": {"cells": int, "non_pass": int},   # incl. its bad-file cells
      "engine_summaries": {engine: {"versions": [str, ...], "roles": {"<format>/<role>":
                  {"passes": int, "performed": int, "not_run": int, "counts": {outcome: int}}}}},
      "metadata_findings": {writer: {...}, ...},   # findings.WriterFindings.to_json
      "coverage": {...},              # spec sections and the cases citing them (spec_coverage)
      "bad_files": {                  # reject cells per reader (rejections)
        reader: {"version": str, "total": int,
                 "counts": {verdict: int, ...},   # rejection.VERDICTS, all of them
                 "findings": [{"case_id": "bad/<id>", "file": str,
                               "file_verdict": "bad" | "acceptable", "verdict": str,
                               "outcome": str, "fault": str, "detail": str}, ...]}, ...
      },
      "cells": [                      # every row of the results dataset,
        {                             # sorted by (run_id, cell_id)
          "run_id": str, "cell_id": str,
          "phase": "write" | "read" | "reject",
          "case_id": str, "format": str,
          "features": [str, ...], "spec": [str, ...],
          "writer": str, "writer_version": str,
          "reader": str | null, "reader_version": str | null,   # null on write cells
          "outcome": "harness-error" | "crash" | "timeout" | "flaky" | "error" | "mismatch"
                     | "unsupported" | "skipped" | "pass",
          "detail": str,              # "" for pass; kept verbatim; flaky: "outcomes seen: ..."
          "duration_s": float,        # 0.0 when missing or not finite
          "file": str | null, "file_sha256": str | null
        }, ...
      ]
    }

Strings are kept verbatim; the file is ASCII (non-ASCII and control characters
are JSON escapes), so even a lone surrogate in an engine's stderr survives.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path

from .dataset import ReportSummary
from .engine_summary import EngineSummary
from .findings import findings_by_writer
from .rejections import rejections_by_reader

SCHEMA_VERSION = 1


def to_json(summary: ReportSummary, engines: Mapping[str, EngineSummary],
            extra: Mapping[str, object] = {}) -> dict:
    """The ``results.json`` document as Python objects; ``extra`` are keys of other modules
    (status tables, failure groups, findings, coverage), placed before the cells."""
    self_check = [c for c in summary.cells if c.is_reference_self_check]
    return {
        "schema_version": SCHEMA_VERSION,
        "run_id": summary.run_id,
        "run_ids": list(summary.run_ids),
        "formats": list(summary.formats),
        "engines": {name: list(versions) for name, versions in summary.engines.items()},
        "unavailable_engines": dict(summary.unavailable),
        "version_notes": dict(summary.version_notes),
        "total": summary.total,
        "counts": dict(summary.counts),
        "reference_self_check": {
            "cells": len(self_check),
            "non_pass": len(summary.reference_failures()),
        },
        "engine_summaries": {name: e.to_json() for name, e in engines.items()},
        "metadata_findings": {writer: tally.to_json()
                              for writer, tally in findings_by_writer(summary).items()},
        "bad_files": {reader: tally.to_json()
                      for reader, tally in rejections_by_reader(summary).items()},
        **extra,
        "cells": [_cell(c) for c in summary.cells],
    }


def _cell(cell) -> dict:
    row = dataclasses.asdict(cell)
    row["features"] = list(cell.features)
    row["spec"] = list(cell.spec)
    return row


def write_json(summary: ReportSummary, engines: Mapping[str, EngineSummary], path: str | Path,
               extra: Mapping[str, object] = {}) -> Path:
    path = Path(path)
    text = json.dumps(to_json(summary, engines, extra), separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")
    return path
