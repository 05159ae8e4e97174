"""The campaign driver: mutants of the seeds, classified, one shrunk reproducer per new key.

For each format, mutant ``i`` of campaign seed ``S`` draws from its own random stream
(``S/format/i``): which seed, which mutation steps (``mutation.draw``). It is written
under the seed's file name (the suite's AAD-prefix convention names encrypted files by
it, ``conformance.kms.file_keys.case_decryption``) and every tool of
the format runs on it in the worker pool (``pool``, ``worker.TOOLS``). A metadata-only
mutant that reads is then held against its seed's rows (``classify.after_read``).

Each (tool, class, exception type, location) seen for the first time in the output
folder gets a reproducer there, shrunk (``shrink``) while its key holds:
``<out>/<format>/<tool>/<class>/<key>/<seed file name>`` beside ``fuzz.json`` (seed,
steps, mutation descriptions, class, message). ``<out>/index.json`` remembers the keys
saved, so a later campaign into the same folder saves only new ones; every mutant's
record is in ``<out>/<format>-mutants.jsonl``. Same seed, same mutants, same counts.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import re
import shutil
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from conformance.kms.file_keys import case_decryption

from . import mutations_orc, mutations_parquet
from .classify import CLASSES, GATING, READ, SILENT_CHANGE, Outcome, after_read, silent_location
from .mutation import Mutant, Mutator, draw, replay
from .pool import DEFAULT_LIMITS, Caller, Limits, WorkerPool
from .seeds import Seed, seeds
from .shrink import DEFAULT_BUDGET, shrink
from .worker import READ_TOOL, explicit_keys, tools_of

INDEX = "index.json"
SIDECAR = "fuzz.json"
WORK_DIR = ".work"
SEED_DRAWS = 24  # seeds tried for a mutant's first kind before any kind will do
KINDS = {"orc": sorted(mutations_orc.MUTATORS), "parquet": sorted(mutations_parquet.mutators(None))}
SLUG_CHARS = 120
STAGING = ".mutant-"  # a reproducer's folder until its key is known to be new


@dataclass(frozen=True)
class Config:
    formats: tuple[str, ...]
    mutants: int
    seed: int
    out: Path
    corpus: Path
    limits: Limits = DEFAULT_LIMITS
    workers: int = 2
    shrink_budget: int = DEFAULT_BUDGET


@dataclass
class Record:
    """One mutant and what each tool did with it."""

    format: str
    index: int
    seed: Seed | None
    mutant: Mutant | None
    outcomes: dict[str, Outcome] = field(default_factory=dict)

    def to_json(self, corpus: Path) -> dict:
        return {"format": self.format, "index": self.index,
                "seed": None if self.seed is None else self.seed.relative(corpus),
                **({} if self.mutant is None else self.mutant.to_json()),
                "outcomes": {tool: o.to_json() for tool, o in self.outcomes.items()}}


@dataclass
class Result:
    records: list[Record]
    saved: list[Path]  # the reproducers this campaign added

    def counts(self) -> Counter:
        """(format, tool, class) -> mutants."""
        return Counter((r.format, tool, o.klass) for r in self.records for tool, o in r.outcomes.items())

    def gating(self) -> bool:
        return any(klass in GATING for (_, _, klass) in self.counts())


def mutators_for(seed: Seed) -> Mapping[str, Mutator]:
    if seed.format == "orc":
        return mutations_orc.MUTATORS
    return mutations_parquet.mutators(explicit_keys(seed.keys) or case_decryption(seed.path))


def mutant_of(seed_list: list[Seed], campaign_seed: int, file_format: str, index: int
              ) -> tuple[Seed, Mutant] | None:
    """Mutant ``index`` of the campaign: a function of its arguments only.

    Its first kind is drawn first, then seeds until one takes it, so that every kind is
    as frequent as the others even where few seeds have its structure (encrypted
    modules, compression chunks); after SEED_DRAWS seeds any kind will do."""
    rng = random.Random(f"{campaign_seed}/{file_format}/{index}")
    first = rng.choice(KINDS[file_format])
    for draws in range(SEED_DRAWS + 1):
        seed = seed_list[rng.randrange(len(seed_list))]
        wanted = first if draws < SEED_DRAWS else None
        mutant = draw(seed.path.read_bytes(), str(seed.path), rng, mutators_for(seed), wanted)
        if mutant is not None:
            return seed, mutant
    return None


def _request(seed: Seed, path: Path, tool: str) -> dict:
    return {"format": seed.format, "tool": tool, "path": str(path), "keys": seed.keys}


def _write(work: Path, name: str, seed: Seed, data: bytes) -> Path:
    """``data`` under the seed's file name in a folder of its own."""
    folder = work / name
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / seed.path.name
    path.write_bytes(data)
    return path


def run_campaign(config: Config) -> Result:
    records: list[Record] = []
    saved: list[Path] = []
    work = config.out / WORK_DIR
    index = _load_index(config.out)
    try:
        with WorkerPool(config.workers, config.out, config.limits) as pool:
            for file_format in config.formats:
                seed_list = seeds(config.corpus, file_format)
                if not seed_list:
                    continue
                found = _classify_all(config, pool, file_format, seed_list, work)
                _silent_changes(config, pool, found)
                records += found
                _write_records(config, file_format, found)
                saved += _save_reproducers(config, pool, found, index, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    (config.out / INDEX).write_text(json.dumps(index, indent=1, sort_keys=True), encoding="utf-8")
    return Result(records, saved)


def _classify_all(config: Config, pool: WorkerPool, file_format: str, seed_list: list[Seed],
                  work: Path) -> list[Record]:
    def handle(number: int, caller: Caller) -> Record:
        made = mutant_of(seed_list, config.seed, file_format, number)
        if made is None:
            return Record(file_format, number, None, None)
        seed, mutant = made
        path = _write(work, f"{file_format}-{number}", seed, mutant.data)
        outcomes = {tool: caller.call(_request(seed, path, tool)) for tool in tools_of(file_format)}
        shutil.rmtree(path.parent)
        return Record(file_format, number, seed, _without_data(mutant), outcomes)

    return pool.run(range(config.mutants), handle)


def _without_data(mutant: Mutant) -> Mutant:
    """The mutant without its bytes (replayable from its seed and steps)."""
    return dataclasses.replace(mutant, data=b"")


def _silent_changes(config: Config, pool: WorkerPool, records: list[Record]) -> None:
    """Hold each metadata-only mutant that read against its seed's rows."""
    candidates = [r for r in records if r.mutant is not None and r.mutant.metadata_only
                  and r.outcomes[READ_TOOL].klass == READ]
    unique = sorted({r.seed.path: r.seed for r in candidates if r.seed is not None}.values(),
                    key=lambda s: str(s.path))

    digests = dict(zip([s.path for s in unique], pool.run(unique, _seed_digest), strict=True))
    for record in candidates:
        assert record.seed is not None and record.mutant is not None
        record.outcomes[READ_TOOL] = after_read(record.outcomes[READ_TOOL], digests[record.seed.path],
                                                True, silent_location(record.mutant.targets))


def _write_records(config: Config, file_format: str, records: list[Record]) -> None:
    config.out.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(r.to_json(config.corpus), sort_keys=True) for r in records]
    (config.out / f"{file_format}-mutants.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _key_text(file_format: str, tool: str, outcome: Outcome) -> str:
    return "|".join([file_format, tool, outcome.klass, outcome.exc_type or "-", outcome.location or "-"])


def _load_index(out: Path) -> dict[str, str]:
    path = out / INDEX
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def _save_reproducers(config: Config, pool: WorkerPool, records: list[Record], index: dict[str, str],
                      work: Path) -> list[Path]:
    """One shrunk reproducer for each key the index does not hold yet (its first mutant).

    A silent change's key names the structures its steps changed: shrinking may undo
    steps that did not matter, so its key is taken again after shrinking, and a
    reproducer whose shrunk key is already saved is dropped.
    """
    firsts: dict[str, tuple[Record, str]] = {}
    for record in records:
        for tool, outcome in record.outcomes.items():
            key = _key_text(record.format, tool, outcome)
            if outcome.klass != READ and key not in index and key not in firsts:
                firsts[key] = (record, tool)

    def save(key: str, caller: Caller) -> tuple[str, Path]:
        record, tool = firsts[key]
        return _save_one(config, record, tool, caller, work)

    saved = []
    for key, staged in pool.run(sorted(firsts), save):
        if key in index:
            shutil.rmtree(staged.parent)
            continue
        sidecar = json.loads((staged.parent / SIDECAR).read_text(encoding="utf-8"))
        folder = staged.parent.parent / _slug(sidecar["exc_type"], sidecar["location"])
        if folder.exists():  # a key whose slug another key's shortened slug already took
            folder = folder.with_name(f"{folder.name}-{sidecar['campaign']['mutant']}")
        staged.parent.rename(folder)
        index[key] = (folder / staged.name).relative_to(config.out).as_posix()
        saved.append(folder / staged.name)
    return saved


def _save_one(config: Config, record: Record, tool: str, caller: Caller, work: Path) -> tuple[str, Path]:
    """The shrunk reproducer of ``record``'s class for ``tool``, staged in a folder of its
    own, and its key."""
    assert record.seed is not None and record.mutant is not None
    seed, target = record.seed, record.outcomes[tool]
    seed_data = seed.path.read_bytes()
    mutators = mutators_for(seed)
    mutant = replay(seed_data, str(seed.path), record.mutant.steps, mutators)
    seed_digest = _seed_digest(seed, caller) if target.klass == SILENT_CHANGE else None
    tries = itertools.count()

    def outcome_of(data: bytes) -> Outcome:
        path = _write(work, f"shrink-{record.format}-{record.index}-{next(tries)}", seed, data)
        outcome = caller.call(_request(seed, path, tool))
        shutil.rmtree(path.parent)
        return after_read(outcome, seed_digest, True, target.location or "") if seed_digest else outcome

    def holds(data: bytes) -> bool:
        return outcome_of(data).key == target.key

    shrunk = shrink(seed_data, mutant, mutators, holds, config.shrink_budget)
    if target.klass == SILENT_CHANGE:
        target = dataclasses.replace(target, location=silent_location(shrunk.mutant.targets))
    folder = config.out / record.format / tool / target.klass / f"{STAGING}{record.index}"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / seed.path.name
    path.write_bytes(shrunk.data)
    key = _key_text(record.format, tool, target)
    sidecar = {"key": key, "format": record.format, "tool": tool, "class": target.klass,
               "exc_type": target.exc_type, "location": target.location, "message": target.message,
               "seed": seed.relative(config.corpus), "keys": seed.keys,
               "campaign": {"seed": config.seed, "mutant": record.index},
               "steps": [s.to_json() for s in shrunk.mutant.steps],
               "mutations": list(shrunk.mutant.descriptions), "targets": list(shrunk.mutant.targets),
               "metadata_only": shrunk.mutant.metadata_only,
               "changed_bytes": shrunk.changed_bytes, "shrink_tries": shrunk.tries}
    (folder / SIDECAR).write_text(json.dumps(sidecar, indent=1), encoding="utf-8")
    return key, path


def _seed_digest(seed: Seed, caller: Caller) -> str | None:
    outcome = caller.call(_request(seed, seed.path, READ_TOOL))
    return outcome.rows_digest if outcome.klass == READ else None


def _slug(exc_type: str | None, location: str | None) -> str:
    text = f"{exc_type or 'none'}-{location or 'none'}"
    return re.sub(r"[^A-Za-z0-9_.+-]+", "_", text)[:SLUG_CHARS]


def reproduce(reproducer: Path, corpus: Path, caller: Caller) -> Outcome:
    """What the tool its sidecar names does with a saved reproducer now (on ``caller``'s
    isolated worker); a silent change is held against its seed in ``corpus`` again."""
    sidecar = json.loads((reproducer.parent / SIDECAR).read_text(encoding="utf-8"))
    file_format, keys = sidecar["format"], sidecar["keys"]
    outcome = caller.call(_request(Seed(reproducer, file_format, keys), reproducer, sidecar["tool"]))
    if sidecar["class"] != SILENT_CHANGE:
        return outcome
    seed = Seed(corpus / sidecar["seed"], file_format, keys)
    return after_read(outcome, _seed_digest(seed, caller), True, sidecar["location"])


def summary_lines(result: Result) -> list[str]:
    """The counts per format and tool, one column per class."""
    counts = result.counts()
    rows = sorted({(fmt, tool) for (fmt, tool, _) in counts})
    header = f"{'format':8} {'tool':9} " + " ".join(f"{c:>16}" for c in CLASSES)
    lines = [header]
    for fmt, tool in rows:
        lines.append(f"{fmt:8} {tool:9} " + " ".join(f"{counts[(fmt, tool, c)]:>16}" for c in CLASSES))
    return lines
