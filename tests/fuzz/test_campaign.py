"""A short seeded campaign, as CI runs it: both formats, real isolated workers.

Neither format may give an undocumented error, a hang, memory exhaustion or a crash,
in the reader or the validator; and no ORC mutant that changed metadata alone reads as
other rows (each such change is caught: docs/fuzzing.md, 'Silent changes: each caught or explained').
"""

from __future__ import annotations

import json
import os

import pytest

from conformance.fuzz.campaign import INDEX, SIDECAR, Config, reproduce, run_campaign, summary_lines
from conformance.fuzz.classify import CLASSES, GATING, SILENT_CHANGE
from conformance.fuzz.pool import Caller, Limits
from conformance.golden.paths import default_corpus
from reference_impl.orc.metadata.proto_enums import TypeKind
from reference_impl.orc.reader import read_orc
from tests.conftest import REPO_ROOT

MUTANTS = 300
REPLAYED = 40  # mutants classified a second time, to show a seed gives the same records
SEED = 26
ROWS_TOGETHER = "orc.footer.rows_together:"  # a mutation of both row counts at once
SHRINK_BUDGET = 6
LIMITS = Limits(time_s=5.0, memory_mb=2048)
CORPUS = default_corpus()


def _config(out, mutants: int, formats=("parquet", "orc")) -> Config:
    return Config(formats=formats, mutants=mutants, seed=SEED, out=out, corpus=CORPUS, limits=LIMITS,
                  workers=2, shrink_budget=SHRINK_BUDGET)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:  # the workers import this worktree's code
        paths = [str(REPO_ROOT), os.environ.get("PYTHONPATH")]
        patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, paths)))
        out = tmp_path_factory.mktemp("fuzz")
        yield out, run_campaign(_config(out, MUTANTS))


def test_every_mutant_of_both_formats_is_classified_by_each_tool(campaign):
    _, result = campaign
    counts = result.counts()
    assert sum(n for (fmt, tool, _), n in counts.items() if (fmt, tool) == ("parquet", "read")) == MUTANTS
    assert sum(n for (fmt, tool, _), n in counts.items() if (fmt, tool) == ("parquet", "validate")) == MUTANTS
    assert sum(n for (fmt, tool, _), n in counts.items() if (fmt, tool) == ("orc", "read")) == MUTANTS
    assert sum(n for (fmt, tool, _), n in counts.items() if (fmt, tool) == ("orc", "validate")) == MUTANTS
    assert {klass for (_, _, klass) in counts} <= set(CLASSES)
    print("\n".join(summary_lines(result)))


@pytest.mark.parametrize("fmt", ["parquet", "orc"])
def test_mutants_never_escape_the_documented_errors(campaign, fmt):
    _, result = campaign
    escaped = [(r.index, tool, o.key, r.mutant.descriptions if r.mutant else None)
               for r in result.records if r.format == fmt
               for tool, o in r.outcomes.items() if o.klass in GATING]
    assert escaped == []


def _explained(record) -> bool:
    """docs/fuzzing.md, 'Silent changes: each caught or explained': both row counts moved
    together in a file whose root is not a STRUCT; the row dropped or added is a null at
    the end, which no stream holds and no statistic counts."""
    rows_only = all(d.startswith(ROWS_TOGETHER) for d in record.mutant.descriptions)
    root = read_orc(record.seed.path.read_bytes()).tail.footer.types[0].kind
    return rows_only and root != TypeKind.STRUCT


def test_no_orc_metadata_mutant_reads_as_other_rows(campaign):
    _, result = campaign
    silent = [(r.index, r.mutant.descriptions if r.mutant else None) for r in result.records
              if r.format == "orc" and r.outcomes["read"].klass == SILENT_CHANGE and not _explained(r)]
    assert silent == []


def test_the_same_seed_gives_the_same_mutants_and_classes(campaign, tmp_path):
    _, result = campaign
    again = run_campaign(_config(tmp_path, REPLAYED))
    for fmt in ("parquet", "orc"):
        first = [r for r in result.records if r.format == fmt][:REPLAYED]
        second = [r for r in again.records if r.format == fmt]
        assert [(r.seed, r.mutant.steps if r.mutant else None) for r in first] == \
               [(r.seed, r.mutant.steps if r.mutant else None) for r in second]
        assert [{t: o.key for t, o in r.outcomes.items()} for r in first] == \
               [{t: o.key for t, o in r.outcomes.items()} for r in second]


def test_each_saved_reproducer_reproduces_its_key(campaign):
    out, result = campaign
    index = json.loads((out / INDEX).read_text())
    assert result.saved and len(index) == len(result.saved)
    by_class = {}
    for path in result.saved:  # one per (format, tool, class): each reproduction starts a worker
        sidecar = json.loads((path.parent / SIDECAR).read_text())
        by_class.setdefault((sidecar["format"], sidecar["tool"], sidecar["class"]), (path, sidecar))
    caller = Caller(out, LIMITS)
    try:
        outcomes = [(reproduce(path, CORPUS, caller), path, sidecar) for path, sidecar in by_class.values()]
    finally:
        caller.close()
    for outcome, path, sidecar in outcomes:
        assert [outcome.klass, outcome.exc_type, outcome.location] == \
               [sidecar["class"], sidecar["exc_type"], sidecar["location"]], path
        assert sidecar["seed"] and sidecar["mutations"] and sidecar["message"] is not None
