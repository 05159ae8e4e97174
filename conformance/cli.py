"""The `conformance` command.

    conformance run      the writer x reader x case matrix on Spark -> report/
    conformance read     one file, one engine -> the canonical JSON document on stdout
    conformance engines  engines, versions and declared capabilities
    conformance cases    the case catalogue
    conformance report   (re)build the reports from a run's results
    conformance expect   record a run's outcomes as expectations, or gate a run on them
    conformance inspect  one file's structure: row groups or stripes, pages or streams, indexes, encryption
    conformance validate is a file's metadata (statistics, page index, Bloom filters, CRCs) true to its data?
    conformance golden   generate the golden corpus (golden_files/), or verify it with engines
    conformance protocol-check  what an external adapter (docs/engine-protocol.md) gets wrong
    conformance fuzz     mutate the golden corpus, classify what the reference does (docs/fuzzing.md)
    conformance coverage the spec sections the catalogue cites; the Parquet features it covers
                         (docs/features-and-versions.md)
    conformance findings the upstream-ready findings ledger of a run

Exit codes: 0 success; 1 a failure the policy counts (`run`), or the engine could
not read the file (`read`; the reference reads a file that breaks a rule with a
single reading, naming each breach on stderr, unless `--strict`; `inspect`: the
reference rejects the file, or it is of no known format), or a finding at
or above the `--fail-on` level (`validate`: "untrue" by default, "nonconforming" with
`--strict`; docs/validation.md);
2 usage errors (argparse's convention), or a file `validate` cannot read. With
`--expect FILE` (`run`, `golden verify`, `expect --check`), 1 means a regression
against the expectations file, and nothing else (docs/expectations.md).

Engines are named one way everywhere: `--engines A,B` (repeatable, comma-separated)
where a command takes several, `--engine NAME` where it takes exactly one (`read`).
An implementation in any language joins `run`, `read` and `golden verify` through the
engine protocol, without touching this code: `--engine-cmd NAME='COMMAND'` (repeatable) or
`--engines-config FILE` (JSON or TOML: `{"engines": {"NAME": "COMMAND"}}`); NAME is
then also a name `--engines`, `--writers` and `--readers` understand.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tomllib
from pathlib import Path

from reference_impl.common.findings import NONCONFORMING, SEVERITIES, UNTRUE

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # the shell's convention for SIGINT
LISTED_CASES = 10  # case ids printed in a summary line before "and N more"
REFERENCE = "reference"  # the engine `read` uses unless told otherwise


def _split_commas(values: list[str] | None) -> list[str]:
    return [v for item in values or [] for v in item.split(",") if v]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="conformance", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run the writer x reader x case matrix")
    run.add_argument("--master", help="Spark master URL (default local[*])")
    run.add_argument("--workdir", type=Path, default=Path("work"),
                     help="work directory, shared by driver and executors (default ./work)")
    run.add_argument("--report", type=Path, default=Path("report"),
                     help="report directory (default ./report)")
    run.add_argument("--cases", action="append", metavar="GLOB",
                     help="only cases whose id matches (repeatable)")
    run.add_argument("--engines", action="append", metavar="A,B",
                     help="engines used as writers and readers (default: the built-in engines "
                          "and the bundled adapters, adapters/README.md)")
    run.add_argument("--writers", action="append", metavar="A,B", help="writers only these")
    run.add_argument("--readers", action="append", metavar="A,B", help="readers only these")
    run.add_argument("--features", action="append", metavar="TAG",
                     help="only cases carrying a feature tag matching TAG (fnmatch; repeatable)")
    _spec_version_argument(run)
    run.add_argument("--formats", action="append", metavar="A,B",
                     help="only cases and bad files of these formats: parquet, orc (default: both)")
    run.add_argument("--timeout", type=float, default=None, help="seconds per isolated cell")
    _gate_arguments(run)
    _progress_arguments(run)
    _engine_command_arguments(run)
    run.add_argument("--golden", nargs="?", type=Path, const=_default_corpus(), metavar="CORPUS",
                     help="also read every golden file of the selected cases with every reader "
                          "(cells of writer golden/<writer>; default corpus: the clone's golden_files/)")
    run.add_argument("--no-bad-files", action="store_true",
                     help="no bad-file cells (the files every reader must reject; without "
                          "--cases/--features all are read, with them those matching "
                          "bad/<id> or their bad:/fault: tags, e.g. --cases 'bad/*')")

    read = sub.add_parser("read", help="print one file's canonical JSON document")
    read.add_argument("--engine", metavar="NAME",
                      help="engine that reads: a built-in or bundled one, or the NAME of an "
                           "--engine-cmd (default: the one --engine-cmd, else reference)")
    read.add_argument("--strict", action="store_true",
                      help="the reference reader refuses a file that breaks any rule, even one with a "
                           "single reading (docs/lenient-readings.md); without it, each such breach "
                           "is one line on stderr")
    read.add_argument("--resolve-file-references", action="store_true",
                      help="also resolve every FILE value (LogicalTypes.md 'FILE', 'Resolution'): the "
                           "document gains \"file_references\", one object per non-null value with "
                           "what it resolves to and, for inline bytes and self-references, the bytes "
                           "(hex); external references are named, not fetched (reference reader, "
                           "Parquet)")
    layout = read.add_mutually_exclusive_group()
    layout.add_argument("--stream", action="store_true",
                        help="write the same document as the rows are decoded, one row group or "
                             "stripe at a time (reference reader: never the whole file in memory; "
                             "on a failure the output stops short and the exit code is 1)")
    layout.add_argument("--jsonl", action="store_true",
                        help="JSON Lines, written as the rows are decoded: the document's "
                             "canonical_version and schema on the first line, then one row per line")
    _budget_argument(read)
    _key_arguments(read)
    _engine_command_arguments(read, joins="it reads when it is the only one, or when --engine "
                                          "names it")
    read.add_argument("file", type=Path)

    engines = sub.add_parser("engines", help="list engines, versions and capabilities")
    engines.add_argument("--json", action="store_true")
    engines.add_argument("--engines", action="append", metavar="A,B",
                         help="engines to list (default: the built-in and bundled ones)")

    cases = sub.add_parser("cases", help="list the case catalogue")
    cases.add_argument("--json", action="store_true", help="full cases with expected values")
    cases.add_argument("--cases", action="append", metavar="GLOB")
    cases.add_argument("--features", action="append", metavar="TAG")

    coverage = sub.add_parser("coverage", help="the spec sections the case catalogue cites, and the "
                                               "Parquet features it covers")
    coverage.add_argument("--json", action="store_true")
    coverage.add_argument("--format", choices=("parquet", "orc"), help="only this format's texts")

    report = sub.add_parser("report", help="write reports from a results dataset")
    report.add_argument("results", type=Path, nargs="+",
                        help="a run's directory (its cell logs are consolidated first) "
                             "or its results/ directory; several: one report of the runs, "
                             "each engine that ran in several versions named engine@version")
    report.add_argument("--out", type=Path, default=Path("report"))
    _spec_version_argument(report)

    expect = sub.add_parser("expect", help="record a run's outcomes as expectations, or gate a "
                                           "run on them (docs/expectations.md)")
    action = expect.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", type=Path, metavar="FILE", help="record the run's outcomes in FILE")
    action.add_argument("--check", type=Path, metavar="FILE",
                        help="gate the run on FILE: exit 1 on a regression")
    expect.add_argument("--strict-flaky", action="store_true", help="with --check: a flaky cell "
                                                                     "is a regression")
    expect.add_argument("run_dir", nargs="?", type=Path, metavar="RUN_DIR",
                        help="a run's directory (default: the newest under ./work)")

    _golden_parser(sub)
    _protocol_check_parser(sub)
    _findings_parser(sub)

    validate = sub.add_parser("validate", help="check a file's metadata against its data")
    validate.add_argument("--json", action="store_true", help="the findings as one JSON document")
    failing = validate.add_mutually_exclusive_group()
    failing.add_argument("--strict", action="store_const", dest="fail_on", const=NONCONFORMING,
                         default=UNTRUE, help="fail (exit 1) on nonconforming findings too")
    failing.add_argument("--fail-on", choices=SEVERITIES, default=UNTRUE, metavar="SEVERITY",
                         help=f"fail (exit 1) on findings of this severity or worse, of {SEVERITIES} "
                         "(default: untrue; docs/validation.md, 'Strength')")
    _budget_argument(validate)
    _key_arguments(validate)
    validate.add_argument("file", type=Path)
    _inspect_parser(sub)
    _fuzz_parser(sub)
    return p


# --decoded-budget's suffixes: binary multiples.
BYTE_SUFFIXES = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def _budget_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--decoded-budget", type=_byte_count, metavar="BYTES",
                        help="the bytes the reference may decompress per row group or stripe "
                             "(K, M, G, T: binary multiples; default 1G); more is "
                             "DecodedBudgetExceeded, a decompression bomb (docs/architecture.md, "
                             "'Memory budget')")


def _byte_count(text: str) -> int:
    number, scale = (text[:-1], BYTE_SUFFIXES[text[-1].upper()]) if text[-1:].upper() in BYTE_SUFFIXES \
        else (text, 1)
    try:
        count = int(number) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of bytes (like 4096, 512M, 2G)") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of bytes")
    return count


def _budget(args):
    """The block the reference reads in, under --decoded-budget when it is given."""
    from contextlib import nullcontext

    from reference_impl.common.decoded_budget import decoded_budget

    return nullcontext() if args.decoded_budget is None else decoded_budget(args.decoded_budget)


def _inspect_parser(sub) -> None:
    inspect = sub.add_parser("inspect", help="print one file's structure, as the reference reads it",
                             description="Row groups and column chunks with every page header, the "
                                         "page index, Bloom filters and encryption modules (Parquet); "
                                         "the tail, stripes with their streams, column encodings, row "
                                         "index and Bloom filters (ORC). Exit 1 when the reference "
                                         "rejects the file, with its error and byte offset.")
    inspect.add_argument("--json", action="store_true", help="the structure as one JSON document")
    _key_arguments(inspect)
    inspect.add_argument("--no-keys", action="store_true",
                         help="open no encrypted module, not even with the suite's test keys: what a "
                              "reader without keys sees (Parquet)")
    inspect.add_argument("file", type=Path)


def _fuzz_parser(sub) -> None:
    from conformance.fuzz.command import add_arguments

    add_arguments(sub.add_parser("fuzz", help="a seeded mutation campaign over the golden corpus"))


def _fuzz(args) -> int:
    from conformance.fuzz.command import run

    return run(args)


def _default_corpus() -> Path:
    from conformance.golden.paths import default_corpus

    return default_corpus()


def _golden_parser(sub) -> None:
    golden = sub.add_parser("golden", help="the golden corpus: generate it, or verify it")
    actions = golden.add_subparsers(dest="action", required=True)
    generate = actions.add_parser("generate", help="write golden_files/ from one matrix run (Spark)")
    verify = actions.add_parser("verify", help="read every golden file with engines, compare with "
                                               "expected.json, and every bad file, judge by its "
                                               "verdict; results + report like a run")
    for parser in (generate, verify):
        parser.add_argument("--corpus", type=Path, default=_default_corpus(),
                            help="the corpus directory (default: the clone's golden_files/)")
        parser.add_argument("--workdir", type=Path, default=Path("work"),
                            help="work directory for the cells (default ./work)")
        _progress_arguments(parser)
    generate.add_argument("--engines", action="append", metavar="A,B",
                          help="writers and readers (default: the built-in engines, and as writer "
                               "the engine of each selected case's native types, e.g. polars; "
                               "must include reference)")
    generate.add_argument("--cases", action="append", metavar="GLOB",
                          help="only these cases (default: the whole catalogue)")
    verify.add_argument("--engines", action="append", metavar="A,B",
                        help="the engines that read (default: the built-in engines and the "
                             "bundled adapters)")
    # The spelling before `--engines` was the rule for every list of engines.
    verify.add_argument("--engine", action="append", dest="engines", help=argparse.SUPPRESS)
    verify.add_argument("--cases", action="append", metavar="GLOB",
                        help="only the golden files of these cases and the bad files bad/<id> "
                             "matches (repeatable; default: all; e.g. --cases 'bad/*')")
    verify.add_argument("--no-bad-files", action="store_true",
                        help="no bad-file cells (the corpus's bad/ files every reader must reject, "
                             "judged by their verdict)")
    verify.add_argument("--report", type=Path, default=Path("report-golden"),
                        help="report directory (default ./report-golden)")
    _gate_arguments(verify)
    _engine_command_arguments(verify)


def _findings_parser(sub) -> None:
    findings = sub.add_parser(
        "findings", help="the run's findings ledger: one entry per distinct finding",
        description="One entry per distinct finding (engine@version and cause): the smallest "
                    "file showing it, the rule it breaks, expected and actual values, and a "
                    "command reproducing it outside the suite.")
    findings.add_argument("run_dir", metavar="RUN_DIR", type=Path, nargs="+",
                          help="what `conformance run --workdir W --report R` left: R (its "
                               "results.parquet), W (its newest run; the files the cells read "
                               "are there), or both, R W")
    findings.add_argument("--json", action="store_true", help="print the ledger as JSON")
    findings.add_argument("--out", type=Path, metavar="DIR",
                          help="write DIR/<n>-<engine>/: each finding's file beside a README.md")
    findings.add_argument("--spec", type=Path, metavar="DIR",
                          help="the folder of the specification texts the rules are quoted from "
                               "(default $CONFORMANCE_SPEC_DIR)")
    findings.add_argument("--engines", action="append", metavar="A,B",
                          help="only the findings of these engines")


def _protocol_check_parser(sub) -> None:
    from conformance.engines.protocol.check import CASES_PER_FORMAT, DEFAULT_TIMEOUT_S

    check = sub.add_parser(
        "protocol-check", help="check an external adapter against the engine protocol "
                               "(docs/engine-protocol.md)",
        description="Start the adapter and check, per format it declares, each capability it "
                    "declares on up to N cases: writes (read back by the reference), reads (golden "
                    "files) and bad files (which it must reject). Exit 1 on a protocol violation "
                    "(an answer off its schema, a death or hang, stop not obeyed) or when a declared "
                    "format or capability checked nothing; the implementation's own findings are "
                    "listed apart and fail only with --strict.")
    check.add_argument("adapter_command", metavar="COMMAND",
                       help="the shell words that start the adapter")
    check.add_argument("--cases-per-format", type=int, default=CASES_PER_FORMAT, metavar="N",
                       help=f"cases checked per format and capability: written, read (golden files), "
                            f"bad files (default {CASES_PER_FORMAT})")
    check.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="SECONDS",
                       help=f"seconds the adapter gets per answer (default {DEFAULT_TIMEOUT_S:g})")
    check.add_argument("--corpus", type=Path, default=_default_corpus(),
                       help="the golden corpus whose files the read and bad-file checks read "
                            "(default: the clone's golden_files/)")
    check.add_argument("--strict", action="store_true",
                       help="the implementation's findings (wrong values, rejected cases, accepted "
                            "bad files) fail the check too, not only protocol violations")


def _gate_arguments(parser: argparse.ArgumentParser) -> None:
    from conformance.matrix.retries import DEFAULT_RETRIES

    gate = parser.add_mutually_exclusive_group()
    gate.add_argument("--fail-on", action="append", metavar="OUTCOMES",
                      help="also exit 1 when any cell has one of these outcomes "
                           "(e.g. mismatch,crash; 'any' = any failure)")
    gate.add_argument("--expect", type=Path, metavar="FILE",
                      help="exit 1 only on a regression against this expectations file "
                           "(docs/expectations.md); failing cells are tried again")
    parser.add_argument("--retries", type=int, default=DEFAULT_RETRIES, metavar="N",
                        help=f"with --expect: isolated tries of each cell that fails or differs "
                             f"from the file; an outcome that changes is 'flaky' (default "
                             f"{DEFAULT_RETRIES}; 0: none)")
    parser.add_argument("--strict-flaky", action="store_true",
                        help="with --expect: a flaky cell is a regression (by default it is "
                             "listed, not failed)")


def _engine_command_arguments(parser: argparse.ArgumentParser, joins: str = "joins --engines") -> None:
    parser.add_argument("--engine-cmd", action="append", default=[], metavar="NAME=COMMAND",
                        help="an external implementation speaking the engine protocol "
                             f"(docs/engine-protocol.md); {joins} (repeatable)")
    parser.add_argument("--engines-config", type=Path, metavar="FILE",
                        help='a JSON or TOML file {"engines": {"NAME": "COMMAND"}} of such engines')


class _BadEngineCommand(ValueError):
    """An --engine-cmd or --engines-config entry that is not usable (the message says why)."""


def _engine_commands(args) -> dict[str, str]:
    """NAME -> engine spec `cmd:NAME=COMMAND` of the external engines the arguments register."""
    from conformance.engines.protocol.external import command_spec

    commands = _config_commands(args.engines_config) if args.engines_config else {}
    for item in args.engine_cmd:
        name, equals, command = item.partition("=")
        if not (equals and name.strip() and command.strip()):
            raise _BadEngineCommand(f"--engine-cmd {item!r}: expected NAME=COMMAND")
        commands[name.strip()] = command
    return {name: command_spec(name, command) for name, command in commands.items()}


def _config_commands(path: Path) -> dict[str, str]:
    try:
        text = path.read_text(encoding="utf-8")
        config = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (OSError, ValueError) as exc:  # TOMLDecodeError and JSONDecodeError are ValueErrors
        raise _BadEngineCommand(f"--engines-config {path}: {exc}") from None
    engines = config.get("engines") if isinstance(config, dict) else None
    if not isinstance(engines, dict) or not all(
            isinstance(v, str) and v.strip() for v in engines.values()):
        raise _BadEngineCommand(f"--engines-config {path}: expected "
                                '{"engines": {"NAME": "COMMAND", ...}}')
    return dict(engines)


def _engine_specs(names: list[str], commands: dict[str, str]) -> list[str]:
    """`names` with each registered external engine's NAME as its spec."""
    return [commands.get(name, name) for name in names]


def _progress_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-progress", action="store_true",
                        help="no progress (a bar on a terminal, else a line every interval)")
    parser.add_argument("--progress-interval", type=float, metavar="SECONDS",
                        help="without a terminal, seconds between progress lines on stderr "
                             "(default $CONFORMANCE_PROGRESS_INTERVAL_S or 10)")


def _progress(args):
    """The command's `on_progress` callback (`conformance.matrix.progress.reporting`)."""
    from conformance.matrix.progress import reporting

    return reporting(enabled=not args.no_progress, interval_s=args.progress_interval)


def _key_arguments(parser: argparse.ArgumentParser) -> None:
    """Explicit keys for an encrypted file (Encryption.md, '4.3 Key metadata': keys
    "passed explicitly to Parquet readers for the file footer and each encrypted column")."""
    keys = parser.add_argument_group("decryption (the reference reader; without these, the "
                                     "test keys of the conformance cases)")
    keys.add_argument("--footer-key", metavar="HEX", help="the footer key, hex (16, 24 or 32 bytes)")
    keys.add_argument("--column-key", action="append", default=[], metavar="COLUMN.PATH=HEX",
                      help="a column's key, by its dotted path (repeatable)")
    keys.add_argument("--aad-prefix", metavar="TEXT", help="the file's AAD prefix (its identity)")
    keys.add_argument("--orc-key", action="append", default=[], metavar="NAME:VERSION:HEX",
                      help="an ORC master key by the name and version the file's EncryptionKey gives "
                           "(ORCv1.md, 'Encryption Keys'; repeatable); these replace the test keys")
    keys.add_argument("--orc-no-keys", action="store_true",
                      help="open no ORC encryption variant: the masked view a reader without keys "
                           "gets (ORCv1.md, 'Data Masks')")


class _BadKeys(ValueError):
    """An explicit key argument that is not usable (the message says which)."""


def _explicit_decryption(args):
    """FileDecryptionProperties from the key arguments, or None when none is given."""
    from reference_impl.parquet.encryption.properties import FileDecryptionProperties

    if args.footer_key is None and not args.column_key and args.aad_prefix is None:
        return None
    try:
        column_keys = {}
        for item in args.column_key:
            path, equals, key = item.partition("=")
            if not equals or not path:
                raise _BadKeys(f"--column-key {item!r}: expected COLUMN.PATH=HEX")
            column_keys[path] = bytes.fromhex(key)
        footer_key = None if args.footer_key is None else bytes.fromhex(args.footer_key)
        prefix = None if args.aad_prefix is None else args.aad_prefix.encode("utf-8")
        return FileDecryptionProperties(footer_key=footer_key, column_keys=column_keys, aad_prefix=prefix)
    except ValueError as exc:
        raise _BadKeys(str(exc)) from None


def _explicit_orc_keys(args):
    """The KeyProvider of --orc-key (an empty one with --orc-no-keys), or None when neither is given."""
    from conformance.kms.orc_keys import orc_key
    from reference_impl.orc.encryption.encryption_keys import KeyProvider

    if args.orc_no_keys and args.orc_key:
        raise _BadKeys("--orc-key and --orc-no-keys exclude each other")
    if not args.orc_key and not args.orc_no_keys:
        return None
    try:
        return KeyProvider.of(*(orc_key(text) for text in args.orc_key))
    except ValueError as exc:
        raise _BadKeys(str(exc)) from None


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    handler = {"run": _run, "read": _read, "engines": _engines, "cases": _cases,
               "report": _report, "expect": _expect, "validate": _validate, "golden": _golden,
               "protocol-check": _protocol_check, "fuzz": _fuzz, "coverage": _coverage,
               "inspect": _inspect, "findings": _findings}[args.command]
    return handler(args)


def _coverage(args) -> int:
    from conformance.report.spec_coverage import coverage_json, coverage_report, coverage_text

    report = coverage_report(args.format)
    if args.json:
        json.dump(coverage_json(report), sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        sys.stdout.write(coverage_text(report))
    return EXIT_OK


def _findings(args) -> int:
    from conformance.report.causes import cause_groups, engine_groups
    from conformance.report.dataset import load_results, summarise
    from conformance.report.ledger import ledger, ledger_text, run_inputs, write_ledger_folder
    from conformance.specs.sentences import spec_folder

    try:
        results, files = run_inputs(args.run_dir)
    except FileNotFoundError as exc:
        print(f"conformance findings: {exc}", file=sys.stderr)
        return EXIT_USAGE
    groups = cause_groups(summarise(load_results(results)), files)
    engines = _split_commas(args.engines)
    if engines:
        groups = [g for engine in engines for g in engine_groups(groups, engine)]
    found = ledger(groups, files, spec_folder(args.spec))
    if args.out:
        write_ledger_folder(found, args.out)
    print(json.dumps([f.to_json() for f in found], indent=1) if args.json else ledger_text(found))
    return EXIT_OK


def _run(args) -> int:
    from conformance.engines import DEFAULT_ENGINES
    from conformance.formats import FORMATS
    from conformance.matrix.run import RunConfig, run_matrix
    from conformance.matrix.timeline import cell_seconds_line
    from conformance.report import exit_code, write_reports

    try:
        commands = _engine_commands(args)
        expectations = _read_expectations(args.expect)
    except (_BadEngineCommand, ValueError) as exc:  # ExpectationsError too
        print(f"conformance run: {exc}", file=sys.stderr)
        return EXIT_USAGE
    engines = _engine_specs(_split_commas(args.engines) or list(DEFAULT_ENGINES), commands)
    engines += [spec for spec in commands.values() if spec not in engines]
    formats = _split_commas(args.formats) or list(FORMATS)
    unknown = sorted(set(formats) - set(FORMATS))
    if unknown:
        print(f"conformance run: unknown format(s) {unknown}; known: {', '.join(FORMATS)}",
              file=sys.stderr)
        return EXIT_USAGE
    config = RunConfig(workdir=args.workdir, master=args.master,
                       writers=_engine_specs(_split_commas(args.writers), commands) or engines,
                       readers=_engine_specs(_split_commas(args.readers), commands) or engines,
                       case_globs=args.cases or (), features=args.features or (), formats=formats,
                       spec_versions=args.spec_version,
                       bad_files=not args.no_bad_files, golden=args.golden,
                       retries=_retries(args, expectations))
    if args.timeout is not None:
        config.timeout_s = args.timeout
    try:
        with _progress(args) as on_progress:
            result = run_matrix(config, on_progress)
    except (ValueError, LookupError) as exc:
        print(f"conformance run: {exc}", file=sys.stderr)
        return EXIT_USAGE
    _print_unavailable(result.unavailable)
    with result.timeline.span("report"):
        summary = write_reports(result.results_dir, args.report)
    result.timeline.save(result.results_dir)
    for name, note in summary.version_notes.items():
        print(f"warning: engine {name}: {note}", file=sys.stderr)
    print(f"run {result.run_id}: {len(result.records)} cells; results {result.results_dir}; "
          f"report {args.report / 'index.html'}")
    print(_outcome_line(result.records))
    print(f"time: {result.timeline.summary()}")
    print(f"cell time: {cell_seconds_line(result.records)}")
    if result.interrupted:
        print("interrupted: the results and report hold the cells finished so far",
              file=sys.stderr)
        return EXIT_INTERRUPTED
    if expectations is not None:
        return _gate(args.expect, expectations, result.records, result.run_dir, args.strict_flaky)
    return exit_code(summary, set(_split_commas(args.fail_on)))


def _read_expectations(path: Path | None):
    """The expectations file `--expect` names (None without it); ExpectationsError."""
    from conformance.report.expectations import read_expectations

    return None if path is None else read_expectations(path)


def _retries(args, expectations):
    """What the gate tries again (`conformance.matrix.retries`): nothing without --expect."""
    from conformance.matrix.retries import Retries
    from conformance.report.expectations import worth_retrying

    if expectations is None or args.retries <= 0:
        return None
    return Retries(args.retries, worth_retrying(expectations))


def _gate(path: Path, expectations, records: list[dict], run_dir: Path, strict_flaky: bool) -> int:
    """Print the gate's verdict on `records` against `expectations`; its exit code."""
    from conformance.report.expectations import judge, verdict_lines

    verdict = judge(expectations, records)
    update = f"conformance expect --write {path} {run_dir}"
    for line in verdict_lines(verdict, path, update, strict_flaky):
        print(line)
    return EXIT_FAILED if verdict.failed(strict_flaky) else EXIT_OK


def _expect(args) -> int:
    from conformance.matrix.results import read_cell_logs
    from conformance.report.expectations import ExpectationsError, read_expectations, write_expectations

    run_dir = args.run_dir or _newest_run(Path("work"))
    records = read_cell_logs(run_dir) if run_dir is not None else []
    if run_dir is None or not records:
        print(f"conformance expect: no cells in {run_dir or 'work/ (no run there)'}: give the "
              "directory of a run (work/<run id>)", file=sys.stderr)
        return EXIT_USAGE
    if args.write is not None:
        recorded = write_expectations(args.write, records, f"run {records[0]['run_id']}")
        print(f"expectations {args.write}: {len(records)} cells of {len(recorded.cases)} cases, "
              f"{len(recorded.engines)} engines; {len(recorded.outcomes)} cells listed")
        return EXIT_OK
    try:
        expectations = read_expectations(args.check)
    except ExpectationsError as exc:
        print(f"conformance expect: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return _gate(args.check, expectations, records, run_dir, args.strict_flaky)


def _newest_run(workdir: Path) -> Path | None:
    """The newest run directory under `workdir` (run ids begin with their UTC start time)."""
    from conformance.matrix.results import CELL_LOG_DIR

    runs = sorted(path.parent for path in workdir.glob(f"*/{CELL_LOG_DIR}"))
    return runs[-1] if runs else None


def _print_unavailable(unavailable: dict[str, str]) -> None:
    for name, reason in unavailable.items():
        print(f"engine {name} is unavailable here, the run went on without it: {reason}",
              file=sys.stderr)


def _outcome_line(records: list[dict]) -> str:
    counts: dict[str, int] = {}
    for r in records:
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    return ", ".join(f"{n} {o}" for o, n in sorted(counts.items(), key=lambda kv: -kv[1]))


def _reading_engine(args) -> str:
    """The spec of the engine `read` reads with: --engine (an --engine-cmd's NAME too), else
    the only --engine-cmd, else the reference."""
    commands = _engine_commands(args)
    if args.engine is None and len(commands) > 1:
        raise _BadEngineCommand(f"{len(commands)} engines registered; say which reads with --engine")
    name = args.engine or next(iter(commands), REFERENCE)
    return commands.get(name, name)


def _read(args) -> int:
    from conformance.engines import get_engine
    from conformance.engines.orc.reference import OrcReferenceEngine
    from conformance.engines.parquet.reference import ReferenceEngine
    from conformance.formats import UnknownFormat, detect_format

    if not args.file.is_file():
        print(f"conformance read: no such file: {args.file}", file=sys.stderr)
        return EXIT_USAGE
    try:
        fmt = detect_format(args.file)
    except UnknownFormat as exc:  # a file of no format is rejected, as a bad file is
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    try:
        spec = _reading_engine(args)
        decryption = _explicit_decryption(args)
        orc_keys = _explicit_orc_keys(args)
        engine = get_engine(spec, fmt.name)
    except (LookupError, _BadKeys, _BadEngineCommand) as exc:  # an UnknownEngine; a format not declared
        print(f"conformance read: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - an external engine's adapter that did not start
        print(_read_failure(exc), file=sys.stderr)
        return EXIT_FAILED
    if args.resolve_file_references and (spec != REFERENCE or fmt.file_references is None):
        print(f"conformance read: --resolve-file-references is for the reference reader of a format "
              f"with FILE values (Parquet), not {spec} on {fmt.display_name}", file=sys.stderr)
        return EXIT_USAGE
    if (decryption is not None or orc_keys is not None or args.strict) and spec != REFERENCE:
        print("conformance read: explicit keys and --strict are for the reference reader "
              "(--engine reference); other engines open encrypted files through their own key "
              "tools and have their own leniency", file=sys.stderr)
        return EXIT_USAGE
    if decryption is not None:
        if not fmt.encryption_keys:
            print(f"conformance read: explicit keys are for Parquet Modular Encryption, not "
                  f"{fmt.display_name} files", file=sys.stderr)
            return EXIT_USAGE
        engine = ReferenceEngine(decryption)
    if orc_keys is not None:
        if fmt.name != "orc":
            print(f"conformance read: --orc-key and --orc-no-keys are for ORC files, not {fmt.display_name} "
                  "files", file=sys.stderr)
            return EXIT_USAGE
        engine = OrcReferenceEngine(orc_keys)
    if args.jsonl and args.resolve_file_references:
        print("conformance read: --resolve-file-references adds to the document; it has no place "
              "in --jsonl's lines (use --stream)", file=sys.stderr)
        return EXIT_USAGE
    with _budget(args):
        if args.stream or args.jsonl:
            return _read_streamed(args, engine, fmt, decryption)
        return _read_whole(args, engine, fmt, decryption)


def _read_whole(args, engine, fmt, decryption) -> int:
    """`read`: the engine's whole table, then its document."""
    from conformance.engines.reference import ReferenceAdapter
    from conformance.formats import load
    from reference_impl.common.leniency import Breach

    breaches: list[Breach] = []
    try:
        if isinstance(engine, ReferenceAdapter):
            table, breaches = engine.read_with_breaches(args.file, strict=args.strict)
        else:
            table = engine.read(args.file)
        document = table.to_document()
        if args.resolve_file_references and fmt.file_references is not None:  # checked above
            document["file_references"] = load(fmt.file_references)(args.file, decryption)
    except Exception as exc:  # noqa: BLE001 - any failure to read is the answer
        print(_read_failure(exc), file=sys.stderr)
        return EXIT_FAILED
    print(json.dumps(document, ensure_ascii=False))
    for found in breaches:  # read with findings: the rows, and every rule the file breaks
        print(found.describe(), file=sys.stderr)
    return EXIT_OK


def _read_streamed(args, engine, fmt, decryption) -> int:
    """`read --stream` / `--jsonl`: the reference's rows written one row group or stripe at a
    time as they are decoded (another engine's table is whole, and written the same way)."""
    from conformance.engines.reference import ReferenceAdapter
    from conformance.formats import load
    from conformance.values.document_stream import write_document, write_jsonl
    from reference_impl.common.leniency import Breach

    breaches: list[Breach] = []
    tables = (engine.read_streamed(args.file, breaches, strict=args.strict)
              if isinstance(engine, ReferenceAdapter) else iter([engine.read(args.file)]))
    try:
        if args.jsonl:
            write_jsonl(tables, sys.stdout)
        else:
            references = ((lambda: {"file_references": load(fmt.file_references)(args.file, decryption)})
                          if args.resolve_file_references else None)
            write_document(tables, sys.stdout, references)
    except Exception as exc:  # noqa: BLE001 - any failure to read is the answer
        sys.stdout.flush()  # what was written stays, cut short
        print(_read_failure(exc), file=sys.stderr)
        return EXIT_FAILED
    for found in breaches:  # read with findings: the rows, and every rule the file breaks
        print(found.describe(), file=sys.stderr)
    return EXIT_OK


def _read_failure(exc: Exception) -> str:
    """`Class: message`; for an external engine, with its adapter's stderr tail."""
    from conformance.engines.base import engine_stderr
    from conformance.matrix.failures import describe_exception

    return describe_exception(exc) if engine_stderr(exc) is not None else f"{type(exc).__name__}: {exc}"


def _engines(args) -> int:
    from conformance.engines import DEFAULT_ENGINES, available_engines, formats_of, get_engine

    names, unavailable = available_engines(_split_commas(args.engines) or DEFAULT_ENGINES)
    _print_unavailable(unavailable)
    described = [get_engine(n, fmt).describe() for n in names for fmt in formats_of(n)]
    if args.json:
        print(json.dumps(described, indent=2))
        return EXIT_OK
    for d in described:
        caps = d["capabilities"]
        print(f"{d['name']} {d['version']} ({d['format']})")
        print(f"  writes: {', '.join(caps['writes']) or '-'}")
        for pattern, reason in caps["cannot_write"].items():
            print(f"    not {pattern}: {reason}")
        print(f"  reads:  {', '.join(caps['reads']) or '-'}")
        for pattern, reason in caps["cannot_read"].items():
            print(f"    not {pattern}: {reason}")
    return EXIT_OK


def _cases(args) -> int:
    from conformance.cases import all_cases, select

    cases = select(all_cases(), args.cases or (), args.features or ())
    if args.json:
        print(json.dumps([c.to_json() for c in cases], indent=1, ensure_ascii=False))
        return EXIT_OK
    for c in cases:
        print(f"{c.id:40} {c.title}")
    return EXIT_OK


class _SpecVersions(argparse.Action):
    """``--spec-version [FORMAT=]RELEASE`` (repeatable) into {format: release}."""

    def __call__(self, parser, namespace, value, option_string=None) -> None:
        from conformance.cases.spec_versions import release_key

        fmt, _, release = value.rpartition("=")
        fmt = fmt or "parquet"
        try:
            release_key(release)
        except ValueError:
            parser.error(f"{option_string}: {release!r} is not a release of the text "
                         "(docs/spec-versions.md: e.g. 2.12.0, or orc=0.12)")
        setattr(namespace, self.dest, {**(getattr(namespace, self.dest) or {}), fmt: release})


def _spec_version_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--spec-version", action=_SpecVersions, default={}, metavar="[FORMAT=]RELEASE",
                        help="only cases that use nothing newer than this release of the format's "
                        "specification, and nothing in preview (FORMAT: parquet, the default, or "
                        "orc; repeatable; docs/spec-versions.md)")


def _report(args) -> int:
    from conformance.matrix.results import CELL_LOG_DIR, consolidate
    from conformance.report import write_reports
    from conformance.report.run_merge import MERGED_RESULTS, write_merged

    runs = [consolidate(r) if (r / CELL_LOG_DIR).is_dir() else r for r in args.results]
    if len(runs) > 1:
        runs = [write_merged(runs, args.out / MERGED_RESULTS)]
    if args.spec_version:
        from conformance.report.spec_filter import WITHIN_RESULTS, write_within

        try:
            within, kept, total = write_within(runs[0], args.out / WITHIN_RESULTS, args.spec_version)
        except ValueError as exc:
            print(f"conformance report: {exc}", file=sys.stderr)
            return EXIT_USAGE
        print(f"{kept} of {total} cells are within {args.spec_version}")
        runs = [within]
    write_reports(runs[0], args.out)
    print(f"report written to {args.out / 'index.html'}")
    return EXIT_OK


def _golden(args) -> int:
    return _golden_generate(args) if args.action == "generate" else _golden_verify(args)


def _golden_generate(args) -> int:
    from conformance.engines import BUILTIN_ENGINES
    from conformance.golden.corpus import generate
    from conformance.matrix.run import RunConfig

    engines = _split_commas(args.engines)
    globs = args.cases or ()
    config = RunConfig(workdir=args.workdir, writers=engines or _golden_writers(globs),
                       readers=engines or list(BUILTIN_ENGINES), case_globs=globs)
    try:
        with _progress(args) as on_progress:
            summary = generate(args.corpus, config, on_progress)
    except (ValueError, LookupError) as exc:
        print(f"conformance golden generate: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted: the corpus was not rewritten", file=sys.stderr)
        return EXIT_INTERRUPTED
    files = ", ".join(f"{writer} {n}" for writer, n in sorted(summary.files.items()))
    print(f"golden corpus {args.corpus}: {summary.cases} cases, files: {files}; "
          f"{summary.corpus_bytes / 1e6:.1f} MB (run {summary.run_id})")
    if summary.without_peer:
        shown = ", ".join(summary.without_peer[:LISTED_CASES])
        more = len(summary.without_peer) - LISTED_CASES
        print(f"{len(summary.without_peer)} case(s) no peer agrees on (expected.json says why): {shown}"
              + (f" and {more} more" if more > 0 else ""))
    return EXIT_OK


def _golden_writers(globs: tuple[str, ...] | list[str]) -> list[str]:
    """The golden writers by default: the built-in engines, the bundled adapters marked
    golden (ORC Java direct), and the engine that alone writes each selected case of its
    native types (conformance.cases.native; a bundled adapter such as polars), each where
    it can run here."""
    from conformance.cases import all_cases, select
    from conformance.engines import BUILTIN_ENGINES, BUNDLED, available_engines

    cases = select(all_cases(), globs)
    natives = {case.native_writer for case in cases if case.native_writer}
    formats = {case.format for case in cases}
    golden = {name for name, adapter in BUNDLED.items() if adapter.golden and formats & set(adapter.formats)}
    available, _ = available_engines(sorted((natives | golden) - set(BUILTIN_ENGINES)))
    return [*BUILTIN_ENGINES, *available]


def _golden_verify(args) -> int:
    from conformance.engines import DEFAULT_ENGINES, available_engines
    from conformance.golden.verify import CorpusError, verify
    from conformance.matrix.results import write_unavailable
    from conformance.report import write_reports
    from conformance.report.outcomes import HARNESS_ERROR
    from conformance.report.policy import failing_outcomes

    try:
        commands = _engine_commands(args)
        readers = _engine_specs(_split_commas(args.engines) or list(DEFAULT_ENGINES), commands)
        readers += [spec for spec in commands.values() if spec not in readers]
        readers, unavailable = available_engines(readers)
        fail_on = failing_outcomes(set(_split_commas(args.fail_on)))
        expectations = _read_expectations(args.expect)
        with _progress(args) as on_progress:
            result = verify(args.corpus, readers, args.workdir, on_progress=on_progress,
                            retries=_retries(args, expectations), case_globs=args.cases or (),
                            bad_files=not args.no_bad_files)
    except (CorpusError, ValueError, LookupError) as exc:  # _BadEngineCommand too
        print(f"conformance golden verify: {exc}", file=sys.stderr)
        return EXIT_USAGE
    _print_unavailable(unavailable)
    write_unavailable(result.results_dir, unavailable)
    write_reports(result.results_dir, args.report)
    print(f"golden verify {result.run_id}: {len(result.records)} cells; report {args.report / 'index.html'}")
    print(_outcome_line(result.records))
    reference_failures = [r for r in result.records if r["reader"] == "reference" and r["outcome"] != "pass"]
    for r in reference_failures:
        print(f"reference: {r['outcome']}: {r['file']}: {r['detail'].splitlines()[0]}", file=sys.stderr)
    if expectations is not None:
        return _gate(args.expect, expectations, result.records, result.run_dir, args.strict_flaky)
    failed = reference_failures or any(r["outcome"] in fail_on | {HARNESS_ERROR} for r in result.records)
    return EXIT_FAILED if failed else EXIT_OK


def _validate(args) -> int:
    from conformance.formats import UnknownFormat, detect_format, display_name, validated_formats
    from reference_impl.common.findings import at_or_above

    try:
        decryption = _explicit_decryption(args)
        orc_keys = _explicit_orc_keys(args)
        fmt = detect_format(args.file)
    except (_BadKeys, OSError) as exc:
        print(f"conformance validate: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except UnknownFormat as exc:  # a file of no format is rejected, as a bad file is
        print(f"conformance validate: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    if orc_keys is not None:
        if fmt.name != "orc":
            print(f"conformance validate: --orc-key and --orc-no-keys are for ORC files, not "
                  f"{fmt.display_name} files", file=sys.stderr)
            return EXIT_USAGE
        decryption = orc_keys
    validate = fmt.validate()
    if validate is None:
        print(f"conformance validate: {args.file} is an {fmt.display_name} file; the validator "
              f"checks {', '.join(map(display_name, validated_formats()))} files only",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        with _budget(args):
            findings = validate(args.file, decryption)
    except (fmt.reference_error(), OSError) as exc:  # nothing to judge: like a usage error, not a finding
        print(f"conformance validate: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    counts = {severity: sum(f.severity == severity for f in findings) for severity in SEVERITIES}
    failing = at_or_above(findings, args.fail_on)
    if args.json:
        print(json.dumps({"file": str(args.file), "findings": [f.to_json() for f in findings], **counts,
                          "fail_on": args.fail_on, "failing": len(failing)}, indent=1, ensure_ascii=False))
    else:
        for f in findings:
            print(f"{f.severity}\t{f.kind}\t{f.where}\t{f.message}\t{f.rule.quote()}")
        tally = ", ".join(f"{counts[severity]} {severity}" for severity in SEVERITIES)
        print(f"{args.file}: {len(findings)} findings, {tally}; {len(failing)} at or above {args.fail_on}")
    return EXIT_FAILED if failing else EXIT_OK


def _inspect(args) -> int:
    from conformance.formats import UnknownFormat, detect_format, load
    from conformance.inspect.render import text

    if not args.file.is_file():
        print(f"conformance inspect: no such file: {args.file}", file=sys.stderr)
        return EXIT_USAGE
    try:
        decryption = _explicit_decryption(args)
        fmt = detect_format(args.file)
    except _BadKeys as exc:
        print(f"conformance inspect: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except UnknownFormat as exc:  # a file of no format is rejected, as `read` rejects it
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    keys = {"decryption": decryption, "suite_keys": not args.no_keys} if fmt.encryption_keys else {}
    if not keys and (decryption is not None or args.no_keys):
        print(f"conformance inspect: keys are for Parquet Modular Encryption, not {fmt.display_name} files",
              file=sys.stderr)
        return EXIT_USAGE
    if fmt.inspector is None:
        print(f"conformance inspect: no inspector for {fmt.display_name} files", file=sys.stderr)
        return EXIT_USAGE
    try:
        document = load(fmt.inspector)(args.file, **keys)
    except (fmt.reference_error(), OSError) as exc:  # the reference rejects the file: its error, offset
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    try:
        print(json.dumps(document, indent=1, ensure_ascii=False) if args.json else text(document), flush=True)
    except BrokenPipeError:  # the reader of the pipe (head, less) stopped reading: nothing more to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return EXIT_OK


def _protocol_check(args) -> int:
    from conformance.engines.protocol.check import protocol_check, report_lines

    report = protocol_check(args.adapter_command, args.cases_per_format, args.timeout, args.corpus)
    for line in report_lines(report, args.strict):
        print(line)
    return EXIT_OK if report.passed(args.strict) else EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
