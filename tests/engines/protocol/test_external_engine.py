"""`ExternalEngine`: an adapter's answers as the harness's verdicts, its process restarted
after it dies, and engines registered from the command line or a config file."""

from __future__ import annotations

import argparse
import json

import pytest

from conformance.cases import case_by_id
from conformance.cli import _BadEngineCommand, _engine_commands, main
from conformance.engines import UnknownEngine, Unsupported, formats_of, get_engine
from conformance.engines.base import EngineCrashed
from conformance.engines.protocol.external import (
    AdapterError,
    ExternalEngine,
    adapter_exception,
    command_spec,
)
from conformance.engines.protocol.stderr_log import TAIL_BYTES
from conformance.matrix.cells import engine_info, engines_by_format, plan_reads, plan_writes
from conformance.matrix.isolation import ADAPTER_LIMIT_SHARE, IsolatedRunner, run_isolated
from conformance.values import Table
from tests.support.broken_adapter import (
    COMPLAINT,
    DYING_WORDS,
    HANGING_WORDS,
    LAST_WORDS,
    NOISE_BYTES,
)

from ._adapters import REFERENCE_ADAPTER, REFERENCE_SPEC, broken_adapter

# Seconds a cell of the hanging adapter gets; its worker kills the adapter 1 s before
# (`ADAPTER_LIMIT_SHARE`), room to reply on a busy machine too.
HANG_LIMIT_S = 10.0
# A cell of an adapter that answers (or dies) at once: room for its start on a loaded
# machine (a Python adapter's start took 4 s with the load at 9 on 2 cores, measured).
ANSWER_LIMIT_S = 60.0


def test_formats_and_capabilities_come_from_the_start_answer():
    assert formats_of(REFERENCE_SPEC) == ("parquet", "orc")
    engine = get_engine(REFERENCE_SPEC, "orc")
    assert engine.name == "ref-ext" and engine.format == "orc"
    assert engine.capabilities == get_engine("reference", "orc").capabilities
    assert engine.describe()["language"] == "python"


def test_a_read_error_is_an_exception_named_as_the_adapter_says(tmp_path):
    bad = tmp_path / "bad.orc"
    bad.write_bytes(b"ORC" + bytes(20))
    with pytest.raises(AdapterError) as raised:
        get_engine(REFERENCE_SPEC, "orc").read(bad)
    assert type(raised.value).__name__ != "AdapterError"  # the reference's own class name
    exc = adapter_exception({"class": "org.apache.parquet.io.ParquetDecodingException", "message": "m"})
    assert type(exc).__name__ == "ParquetDecodingException" and str(exc) == "m"


def test_an_unsupported_answer_is_unsupported(tmp_path):
    engine = ExternalEngine(command_spec("x", broken_adapter("refuses-writes")), "parquet")
    with pytest.raises(Unsupported, match="this adapter writes nothing"):
        engine.write(case_by_id("physical/int32-required"), tmp_path / "f.parquet")


def test_a_dead_adapter_is_a_crash_and_is_restarted_for_the_next_call(tmp_path):
    case = case_by_id("physical/int32-required")
    engine = ExternalEngine(command_spec("dies", broken_adapter("dies")), "parquet")
    path = tmp_path / "f.parquet"
    engine.write(case, path)
    with pytest.raises(EngineCrashed, match=r"died before answering a read request \(exit status 3\)"):
        engine.read(path)
    engine.write(case, path)  # a fresh adapter process, handshake and all
    assert path.is_file()


def test_a_malformed_command_spec_is_an_unknown_engine():
    with pytest.raises(UnknownEngine, match="expected cmd:NAME=COMMAND"):
        get_engine("cmd:no-command", "parquet")


def _args(engine_cmd=(), config=None) -> argparse.Namespace:
    return argparse.Namespace(engine_cmd=list(engine_cmd), engines_config=config)


def test_engines_register_from_the_command_line_and_config_files(tmp_path):
    toml = tmp_path / "engines.toml"
    toml.write_text('[engines]\nmine = "my-adapter --fast"\n', encoding="utf-8")
    assert _engine_commands(_args(["a=run a"], toml)) == {
        "mine": "cmd:mine=my-adapter --fast", "a": "cmd:a=run a"}
    as_json = tmp_path / "engines.json"
    as_json.write_text(json.dumps({"engines": {"b": "run b"}}), encoding="utf-8")
    assert _engine_commands(_args(config=as_json)) == {"b": "cmd:b=run b"}


@pytest.mark.parametrize("engine_cmd", [["no-equals"], ["=command"], ["name= "]])
def test_a_malformed_engine_cmd_is_a_usage_error(engine_cmd):
    with pytest.raises(_BadEngineCommand, match="expected NAME=COMMAND"):
        _engine_commands(_args(engine_cmd))


def test_a_malformed_config_file_is_a_usage_error(tmp_path):
    config = tmp_path / "engines.json"
    config.write_text('{"engines": ["a"]}', encoding="utf-8")
    with pytest.raises(_BadEngineCommand, match="expected"):
        _engine_commands(_args(config=config))



def test_in_the_matrix_a_hang_is_a_timeout_and_a_death_a_crash(tmp_path):
    """As for a built-in engine whose worker hangs or dies (docs/architecture.md, 'Cell
    outcomes'): never a harness error, never a rejection of a bad file."""
    case = case_by_id("physical/int32-required")
    hangs = engine_info(command_spec("hangs", broken_adapter("hangs")), "parquet")
    dies = engine_info(command_spec("dies", broken_adapter("dies")), "parquet")
    [write] = plan_writes("t", [case], {"parquet": [hangs]})
    reference = engines_by_format(["reference"], ["parquet"])
    [reference_write] = run_isolated(plan_writes("t", [case], reference),
                                     tmp_path, timeout_s=ANSWER_LIMIT_S)
    read = plan_reads("t", [case], [reference_write], {"parquet": [dies]})[0]
    runner = IsolatedRunner(tmp_path, timeout_s=HANG_LIMIT_S)
    hung = runner.run(write)
    # The worker killed the hung adapter a little before the cell's limit, and lives on.
    worker_lived = runner._worker is not None and runner._worker.alive()
    runner.close()
    # The dying adapter gets the room of one that answers at once: on a loaded machine its
    # start alone outlasted the hang limit (CI, measured: a timeout cell, not a crash).
    [died] = run_isolated([read], tmp_path, timeout_s=ANSWER_LIMIT_S)
    assert hung["outcome"] == "timeout"
    assert f"within {HANG_LIMIT_S * ADAPTER_LIMIT_SHARE:g} s of its cell's start; killed" in hung["detail"]
    assert HANGING_WORDS in hung["detail"]  # the adapter's stderr is the evidence
    assert worker_lived
    assert died["outcome"] == "crash"
    assert "died before answering a read request (exit status 3)" in died["detail"]


def test_an_adapter_error_cell_carries_the_adapters_message_and_stderr_tail(tmp_path):
    """The evidence says where the failure came from: the adapter's own message and the
    last of its stderr (bounded), not this suite's frames."""
    case = case_by_id("physical/int32-required")
    complains = engine_info(command_spec("complains", broken_adapter("complains")), "parquet")
    dies = engine_info(command_spec("dies", broken_adapter("dies")), "parquet")
    reference = engines_by_format(["reference"], ["parquet"])
    [reference_write] = run_isolated(plan_writes("t", [case], reference), tmp_path,
                                     timeout_s=ANSWER_LIMIT_S)
    reads = plan_reads("t", [case], [reference_write], {"parquet": [complains, dies]})[:2]
    errored, died = run_isolated(reads, tmp_path, timeout_s=ANSWER_LIMIT_S)
    assert errored["outcome"] == "error"
    detail = errored["detail"]
    assert detail.startswith(f"{COMPLAINT['class']}: {COMPLAINT['message']}\nadapter stderr (tail):")
    assert detail.rstrip().endswith(LAST_WORDS)
    assert len(detail) < TAIL_BYTES + len(COMPLAINT["message"]) + 100 < NOISE_BYTES
    assert ".py" not in detail  # no frame of the suite
    assert died["outcome"] == "crash" and DYING_WORDS in died["detail"]


def test_conformance_read_takes_an_engine_cmd_and_prints_its_evidence(tmp_path, capsys):
    case = case_by_id("physical/int32-required")
    path = tmp_path / "f.parquet"
    get_engine("reference", "parquet").write(case, path)
    assert main(["read", "--engine-cmd", f"ext={REFERENCE_ADAPTER}", str(path)]) == 0
    assert Table.from_document(json.loads(capsys.readouterr().out)) == case.expected
    assert main(["read", "--engine-cmd", f"loud={broken_adapter('complains')}",
                 "--engine-cmd", f"ext={REFERENCE_ADAPTER}", "--engine", "loud", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{COMPLAINT['class']}: {COMPLAINT['message']}" in err and LAST_WORDS in err
    assert main(["read", "--engine-cmd", "a=x", "--engine-cmd", "b=y", str(path)]) == 2
    assert "say which reads with --engine" in capsys.readouterr().err
