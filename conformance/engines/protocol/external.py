"""An implementation under test behind the engine protocol (docs/engine-protocol.md),
as an `Engine` of the harness.

The engine spec ``cmd:NAME=COMMAND`` names it: NAME is the engine's name in the
results, COMMAND the shell words that start its adapter. A request carries the spec,
so every worker process (and the Spark driver) re-creates the engine from it.

Each process runs one adapter process per COMMAND, started on first use with the
``start`` handshake and shared by the engine's formats; when it dies it is started
again for the next call. What the adapter says maps onto the harness's verdicts:
``unsupported`` is `Unsupported`; an ``error`` is an exception whose class name is the
adapter's ``class`` (``LossyConversion`` is the harness's own); an answer off its
schema, a line that is not JSON, or a dead adapter is a `ProtocolError` naming what
(a `harness-error` cell: the adapter's fault, never the engine's verdict).
Each such failure carries, as its evidence, the tail of what the adapter wrote to stderr
while answering (`stderr_log`), not this process's frames.
Crashes and hangs are the matrix's to contain (its cells run in worker processes); the
adapter gets SIGKILL when the worker that started it dies. A worker also sets each cell a
deadline a little before the cell's limit (`answer_by`): an adapter that has not answered
by then is killed by the worker, which lives on with its other engines, and the hang's
evidence is the adapter's stderr.
"""

from __future__ import annotations

import atexit
import ctypes
import json
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from conformance.cases import Case
from conformance.engines.base import (
    COMMAND_PREFIX,
    Capabilities,
    Engine,
    LossyConversion,
    Unsupported,
    with_engine_stderr,
)
from conformance.values import Table
from conformance.values.table import DocumentError

from . import messages
from .keys import read_keys, write_keys
from .messages import AdapterDied, AdapterHung, ProtocolError
from .stderr_log import StderrLog

# Linux prctl option: the signal the kernel sends a child when its parent dies.
PR_SET_PDEATHSIG = 1
STOP_GRACE_S = 5.0


def parse_spec(spec: str) -> tuple[str, str]:
    """(NAME, COMMAND) of ``cmd:NAME=COMMAND``."""
    name, equals, command = spec.removeprefix(COMMAND_PREFIX).partition("=")
    if not (spec.startswith(COMMAND_PREFIX) and equals and name and command.strip()):
        raise ValueError(f"engine spec {spec!r}: expected cmd:NAME=COMMAND")
    return name, command


def command_spec(name: str, command: str) -> str:
    return f"{COMMAND_PREFIX}{name}={command}"


def _die_with_parent() -> None:
    """In the adapter's process before exec: SIGKILL it when its parent dies, so a hung
    adapter does not outlive the worker the matrix killed for hanging."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class AdapterProcess:
    """One running adapter: one request line in, one response line out. With
    `timeout_s`, an answer that does not come in time kills it (`conformance
    protocol-check`; the matrix has its own limit per cell)."""

    def __init__(self, command: str, timeout_s: float | None = None) -> None:
        self.command, self.timeout_s = command, timeout_s
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str] = queue.Queue()
        self._stderr = StderrLog()
        self.started: dict | None = None  # the start response

    def start(self) -> dict:
        """The adapter's start response, starting the process when none is running."""
        if self._proc is None or self._proc.poll() is not None:
            self.started = None
            self._proc = subprocess.Popen(
                shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._stderr.fileno(), text=True, encoding="utf-8", bufsize=1,
                preexec_fn=_die_with_parent)
            self._lines = queue.Queue()
            threading.Thread(target=_pump, args=(self._proc.stdout, self._lines), daemon=True).start()
        if self.started is None:
            self.started = self._exchange(messages.start_request(), "start.response")
        return self.started

    def call(self, request: dict) -> dict:
        """The adapter's response to `request` (after the handshake, if need be)."""
        self.start()
        return self._exchange(request, f"{request['op']}.response")

    def _exchange(self, request: dict, kind: str) -> dict:
        """The response to `request`; a failure to get one carries the adapter's stderr."""
        self._stderr.clear()
        try:
            return self._answer(request, kind)
        except (ProtocolError, AdapterDied, AdapterHung) as exc:
            self.with_stderr(exc)
            raise

    def with_stderr(self, exc: BaseException) -> BaseException:
        """`exc`, carrying what the adapter wrote to stderr answering the current request."""
        return with_engine_stderr(exc, self._stderr.tail())

    def _answer(self, request: dict, kind: str) -> dict:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
        except OSError:
            pass  # it died: its stdout ends, and the death is reported below
        wait_s, limit = _wait(self.timeout_s)
        try:
            line = self._lines.get(timeout=wait_s)
        except queue.Empty:
            self.kill()
            raise AdapterHung(f"adapter {self.command!r} gave no answer to a {request['op']} "
                              f"request {limit}; killed") from None
        if line == _EOF:
            raise AdapterDied(f"adapter {self.command!r} died before answering a "
                                f"{request['op']} request ({self._death()})")
        return messages.parse_line(kind, line)

    def _death(self) -> str:
        assert self._proc is not None
        try:
            code = self._proc.wait(STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            return "its stdout closed but it is still running"
        if code < 0:
            return f"killed by signal {signal.Signals(-code).name}"
        return f"exit status {code}"

    def exited(self, timeout_s: float = STOP_GRACE_S) -> bool:
        """Whether the process has ended, waiting up to `timeout_s` for it."""
        try:
            return self._proc is None or self._proc.wait(timeout_s) is not None
        except subprocess.TimeoutExpired:
            return False

    def kill(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()

    def close(self) -> None:
        """Kill it, and let its stderr file go (the object is not used again)."""
        self.kill()
        self._stderr.close()

    def stop(self) -> None:
        """Ask it to stop; kill it when it does not."""
        proc = self._proc
        if proc is None or proc.poll() is not None:
            return
        try:
            assert proc.stdin is not None
            proc.stdin.write(json.dumps(messages.stop_request()) + "\n")
            proc.stdin.close()
            proc.wait(STOP_GRACE_S)
        except (OSError, subprocess.TimeoutExpired):
            self.kill()


_EOF = ""  # what the pump queues when the adapter's stdout closes (a line is never empty)


def _pump(stdout, lines: queue.Queue[str]) -> None:
    """Move the adapter's output lines into `lines` (so a wait for one can time out)."""
    for line in stdout:
        lines.put(line)
    lines.put(_EOF)


_adapters: dict[str, AdapterProcess] = {}
# (time.monotonic() deadline, seconds from the cell's start to it) of the cell this
# process runs (`answer_by`), or None.
_cell_deadline: tuple[float, float] | None = None


def answer_by(deadline: float, after_s: float) -> None:
    """Kill any adapter of this process that has not answered by `deadline`
    (`time.monotonic()`, `after_s` seconds after the cell began): an `AdapterHung` carrying
    its stderr. The matrix's worker sets it for each cell, a little before the cell's limit."""
    global _cell_deadline
    _cell_deadline = (deadline, after_s)


def _wait(timeout_s: float | None) -> tuple[float | None, str]:
    """How long an answer may still take, and how to name that limit in a hang's message:
    the adapter's own `timeout_s` or the cell's deadline (`answer_by`), whichever is first."""
    if _cell_deadline is not None:
        deadline, after_s = _cell_deadline
        left = max(0.0, deadline - time.monotonic())
        if timeout_s is None or left < timeout_s:
            return left, f"within {after_s:g} s of its cell's start"
    # With no limit at all the wait is endless, and the name is never used.
    return timeout_s, "" if timeout_s is None else f"within {timeout_s:g} s"


def adapter_for(command: str) -> AdapterProcess:
    """This process's adapter process for `command`."""
    if command not in _adapters:
        _adapters[command] = AdapterProcess(command)
    return _adapters[command]


@atexit.register
def _stop_adapters() -> None:
    for adapter in _adapters.values():
        adapter.stop()


def formats_of_command(spec: str) -> tuple[str, ...]:
    """The formats the adapter of `spec` declares in its start response."""
    return tuple(adapter_for(parse_spec(spec)[1]).start()["formats"])


class AdapterError(Exception):
    """An error the adapter reported; subclasses carry the adapter's class name."""


_error_classes: dict[str, type[Exception]] = {"LossyConversion": LossyConversion}


def adapter_exception(error: dict) -> Exception:
    """The exception of an ``error`` answer: its class is named as the adapter says."""
    name = error["class"].rpartition(".")[2]  # a dotted Java class: its simple name
    if name not in _error_classes:
        _error_classes[name] = type(name, (AdapterError,), {})
    return _error_classes[name](error["message"])


class ExternalEngine(Engine):
    """The engine of one format behind an adapter process."""

    def __init__(self, spec: str, fmt: str, adapter: AdapterProcess | None = None) -> None:
        """The engine of `spec` for `fmt`, on this process's adapter process for its command
        (or on `adapter`)."""
        self.name, command = parse_spec(spec)
        self.format = fmt
        self.adapter = adapter or adapter_for(command)
        started = self.adapter.start()
        if fmt not in started["formats"]:
            raise LookupError(f"adapter {command!r} declares no {fmt} support; its formats: "
                              f"{', '.join(started['formats'])}")
        self.capabilities = _capabilities(started["formats"][fmt])

    @property
    def version(self) -> str:
        return self.adapter.start()["version"]

    def describe(self) -> dict:
        started = self.adapter.start()
        return {**super().describe(), "implementation": started["name"],
                "language": started["language"], "command": self.adapter.command}

    def write(self, case: Case, path: Path) -> None:
        path = Path(path).resolve()
        self._verdict(self.adapter.call(messages.write_request(case.to_json(), path, write_keys(case, path))))

    def read(self, path: Path) -> Table:
        keys = read_keys(path, self.format)
        answer = self.adapter.call(messages.read_request(Path(path).resolve(), self.format, keys))
        self._verdict(answer)
        try:
            return Table.from_document(answer["document"])
        except DocumentError as exc:
            raise self.adapter.with_stderr(ProtocolError(
                f"read.response: field $.document is no canonical document "
                f"(docs/canonical-values.md): {exc}")) from None

    def _verdict(self, answer: dict) -> None:
        """Raise what an ``unsupported`` or ``error`` answer means; an error carries the
        adapter's stderr."""
        if "unsupported" in answer:
            raise Unsupported(answer["unsupported"])
        if "error" in answer:
            raise self.adapter.with_stderr(adapter_exception(answer["error"]))


def _capabilities(declared: dict) -> Capabilities:
    return Capabilities(writes=tuple(declared["writes"]), reads=tuple(declared["reads"]),
                        cannot_write=dict(declared.get("cannot_write", {})),
                        cannot_read=dict(declared.get("cannot_read", {})),
                        reads_keyless=tuple(declared.get("reads_keyless", ())))
