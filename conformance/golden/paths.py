"""Where the committed golden corpus lives, and its layout (README "Golden corpus").

``golden_files/`` at the top of a clone holds:

* ``cases/<case id>/``: per catalogue case, the file each capable writer produced
  (``<writer>.parquet``) and ``expected.json`` (canonical values + case metadata);
* ``bad/``: files every reader must reject, with ``index.json``;
* ``regressions/<id>/``: cases Hypothesis found and shrank, kept forever;
* ``schema/``: a copy of the JSON Schemas ``expected.json`` and ``bad/index.json``
  follow (``SCHEMAS``), for consumers of the corpus;
* ``MANIFEST``: sha256 and size of every other file.

``$CONFORMANCE_GOLDEN_DIR`` points the suite at another copy (e.g. an installed
package outside a clone).
"""

from __future__ import annotations

import os
from pathlib import Path

CORPUS_ENV = "CONFORMANCE_GOLDEN_DIR"
CASES_DIR = "cases"
BAD_DIR = "bad"
REGRESSIONS_DIR = "regressions"
SCHEMA_DIR = "schema"
MANIFEST = "MANIFEST"
EXPECTED = "expected.json"


# The JSON Schemas of expected.json and bad/index.json (package data; copied into the corpus).
SCHEMAS = Path(__file__).resolve().parent / "schemas"


def default_corpus() -> Path:
    """``$CONFORMANCE_GOLDEN_DIR``, else ``golden_files/`` beside the installed package."""
    configured = os.environ.get(CORPUS_ENV)
    return Path(configured) if configured else Path(__file__).resolve().parents[2] / "golden_files"
