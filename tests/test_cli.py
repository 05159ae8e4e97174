"""The `conformance` command as a user runs it (a subprocess, real exit codes)."""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cases import case_by_id
from conformance.cli import _parser
from conformance.engines import get_engine
from conformance.golden.parquet.bad_files import plain_required
from conformance.golden.parquet.lenient_data_files import file_num_rows_zero
from conformance.values import Table, diff_tables
from reference_impl.parquet.reader import FILE_NUM_ROWS_ZERO


def conformance(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args],
                          capture_output=True, text=True, timeout=300)


def test_read_prints_the_canonical_document(tmp_path):
    case = case_by_id("physical/double-optional")
    path = tmp_path / "f.parquet"
    get_engine("reference").write(case, path)
    done = conformance("read", "--engine", "reference", str(path))
    assert done.returncode == 0, done.stderr
    table = Table.from_document(json.loads(done.stdout))
    assert diff_tables(case.expected, table) is None


@pytest.mark.parametrize("engine", ["reference", "pyarrow", "pyorc"])
def test_read_tells_an_orc_file_by_its_magic_and_prints_its_document(tmp_path, engine):
    case = case_by_id("orc/nested/list-of-struct")
    path = tmp_path / "no-suffix"  # the magic decides, not the name
    get_engine("reference", "orc").write(case, path)
    done = conformance("read", "--engine", engine, str(path))
    assert done.returncode == 0, done.stderr
    assert diff_tables(case.expected, Table.from_document(json.loads(done.stdout))) is None


def test_read_with_an_engine_without_an_orc_adapter_is_a_usage_error(tmp_path):
    path = tmp_path / "f.orc"
    get_engine("reference", "orc").write(case_by_id("orc/types/boolean"), path)
    done = conformance("read", "--engine", "duckdb", str(path))
    assert done.returncode == 2 and "has no orc adapter" in done.stderr


def test_validate_judges_orc_files(tmp_path):
    true, lying = tmp_path / "true.orc", tmp_path / "lying.orc"
    get_engine("reference", "orc").write(case_by_id("orc/types/boolean"), true)
    get_engine("reference", "orc").write(case_by_id("orc/indexes/lying-statistics"), lying)
    done = conformance("validate", str(true))
    assert done.returncode == 0 and done.stdout.endswith(
        ": 0 findings, 0 untrue, 0 nonconforming, 0 ambiguous, 0 advisory; 0 at or above untrue\n")
    done = conformance("validate", str(lying))
    first = done.stdout.splitlines()[0].split("\t")
    assert done.returncode == 1
    assert first[:3] == ["untrue", "statistics.integer.minimum", "column 1 id, stripe 0"]


def test_read_of_a_bad_file_exits_1_with_the_error_class(tmp_path):
    path = tmp_path / "bad.parquet"
    path.write_bytes(b"PAR1 this is not a parquet file PAR2")
    done = conformance("read", "--engine", "reference", str(path))
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.split(":")[0] in ("BadMagic", "FooterLengthOutOfRange", "TruncatedFile")


@pytest.mark.parametrize("args", [
    ("read", "--engine", "no-such-engine", "x.parquet"),
    ("read", "missing-file.parquet"),
    ("frobnicate",),
])
def test_usage_errors_exit_2(args):
    assert conformance(*args).returncode == 2


def test_engines_lists_versions_and_capabilities():
    done = conformance("engines", "--json", "--engines", "reference,pyarrow")
    assert done.returncode == 0, done.stderr
    described = json.loads(done.stdout)
    # One adapter per format each engine handles.
    assert [(d["name"], d["format"]) for d in described] == [
        ("reference", "parquet"), ("reference", "orc"), ("pyarrow", "parquet"), ("pyarrow", "orc")]
    import pyarrow
    assert described[2]["version"] == described[3]["version"] == pyarrow.__version__
    assert "encoding:PLAIN" in described[0]["capabilities"]["writes"]


def test_cases_lists_the_catalogue():
    done = conformance("cases", "--cases", "physical/int8-*")
    assert done.returncode == 0
    assert done.stdout.split() [0] == "physical/int8-required"


# ---- one spelling of the engine options --------------------------------------------

REPO = Path(__file__).resolve().parents[1]
# Every command that names engines, and how (conformance/cli.py's docstring states the rule).
ENGINE_OPTIONS = {
    "run": "--engines", "read": "--engine", "engines": "--engines",
    "golden generate": "--engines", "golden verify": "--engines", "findings": "--engines",
}


def _commands(parser: argparse.ArgumentParser, prefix: str = ""):
    """(command name, its parser) for every subcommand, nested ones included."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                command = f"{prefix} {name}".strip()
                yield command, sub
                yield from _commands(sub, command)


# Options that register an implementation (docs/engine-protocol.md), not select engines.
REGISTRATION_OPTIONS = ("--engine-cmd", "--engines-config")


def _visible_engine_options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {option: action for action in parser._actions if action.help != argparse.SUPPRESS
            for option in action.option_strings
            if "engine" in option and option not in REGISTRATION_OPTIONS}


def test_every_command_spells_engines_one_way():
    spelled = {}
    for command, parser in _commands(_parser()):
        options = _visible_engine_options(parser)
        assert len(options) <= 1, f"{command}: {sorted(options)}"
        for option, action in options.items():
            spelled[command] = option
            if option == "--engines":  # several: repeatable, each a comma-separated list
                assert isinstance(action, argparse._AppendAction), command
                assert action.metavar == "A,B", command
            else:  # exactly one
                assert isinstance(action, argparse._StoreAction) and action.nargs is None, command
    assert spelled == ENGINE_OPTIONS


def test_golden_verify_still_takes_the_old_engine_spelling():
    args = _parser().parse_args(["golden", "verify", "--engine", "reference,pyarrow", "--engine", "duckdb"])
    assert args.engines == ["reference,pyarrow", "duckdb"]


def test_the_readme_spells_engines_as_the_commands_do():
    commands = [line.split("#")[0] for line in (REPO / "README.md").read_text().splitlines()
                if re.match(r"\s*conformance .*--engines?\b", line)]
    assert commands, "the README shows no command naming engines"
    for line in commands:
        argv = shlex.split(line)[1:]
        command = " ".join(argv[:2]) if argv[0] == "golden" else argv[0]
        used = {arg for arg in argv if re.fullmatch(r"--engines?", arg)}
        assert used == {ENGINE_OPTIONS[command]}, line
        _parser().parse_args(argv)


# ---- the folders the commands write are ignored by git -------------------------------

def _output_folders() -> set[str]:
    """The CLI's default output folders and those the README's examples write to."""
    folders = {str(action.default) for _, parser in _commands(_parser()) for action in parser._actions
               if isinstance(action.default, Path) and len(action.default.parts) == 1}
    readme = (REPO / "README.md").read_text()
    # Lower case: the prose's placeholders (DIR) are not folders.
    folders |= set(re.findall(r"--out ([a-z][\w-]*)", readme))
    folders |= set(re.findall(r"CONFORMANCE_PROPERTY_RESULTS=([a-z][\w-]*)", readme))
    return folders


@pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(),
                    reason="needs a git checkout")
def test_output_folders_are_ignored_by_git():
    folders = _output_folders()
    assert {"work", "report", "report-golden", "hunt", "report-hunt"} <= folders
    for folder in sorted(folders):
        checked = subprocess.run(["git", "check-ignore", "--no-index", "-q", f"{folder}/"], cwd=REPO)
        assert checked.returncode == 0, f"{folder}/ is not in .gitignore"


def test_read_names_each_breach_on_stderr_and_read_strict_refuses_the_file(tmp_path):
    path, original = tmp_path / "zero-rows.parquet", tmp_path / "original.parquet"
    path.write_bytes(file_num_rows_zero())
    original.write_bytes(plain_required())
    done = conformance("read", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout == conformance("read", str(original)).stdout  # the original's rows
    [line] = done.stderr.splitlines()
    assert line.startswith(f"MUST {FILE_NUM_ROWS_ZERO.id}: FileMetaData.num_rows is 0")
    assert "byte offset" in line and FILE_NUM_ROWS_ZERO.sentence in line
    strict = conformance("read", "--strict", str(path))
    assert strict.returncode == 1 and not strict.stdout
    assert strict.stderr.startswith(f"CorruptMetadata: MUST {FILE_NUM_ROWS_ZERO.id}")


def test_read_resolves_file_references_when_asked(tmp_path):
    """LogicalTypes.md 'FILE': each self-reference of `file/self-reference` points at [0, 4), the
    magic; `--resolve-file-references` returns those bytes beside the rows."""
    case = case_by_id("file/self-reference")
    path = tmp_path / "f.parquet"
    get_engine("reference").write(case, path)
    done = conformance("read", "--resolve-file-references", str(path))
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert diff_tables(case.expected, Table.from_document(document)) is None
    resolved = [(r["row"], r["resolves_to"], r["offset"], r["size"], r["bytes"])
                for r in document["file_references"]]
    assert resolved == [(0, "self", 0, 4, b"PAR1".hex()), (1, "self", 0, 4, b"PAR1".hex()),
                        (2, "self", 4, 0, "")]
    plain = conformance("read", str(path))
    assert "file_references" not in json.loads(plain.stdout)


def test_resolving_file_references_is_the_reference_readers(tmp_path):
    path = tmp_path / "f.parquet"
    get_engine("reference").write(case_by_id("file/inline"), path)
    done = conformance("read", "--resolve-file-references", "--engine", "pyarrow", str(path))
    assert done.returncode == 2 and "--resolve-file-references" in done.stderr
