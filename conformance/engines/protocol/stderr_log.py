"""What an adapter writes to stderr while answering a request, kept as evidence.

docs/engine-protocol.md leaves stderr free for an adapter's logs. When the adapter
answers with an error, breaks the protocol, dies or hangs, the last `TAIL_BYTES` of
what it wrote to stderr while answering that request is the evidence of where the
failure came from (a Java stack trace, a Rust panic message), not the suite's own
frames.

The adapter's stderr is a file, not a pipe: whatever it wrote before its answer line
is in the file once the answer is read, with no reader thread to race. The file is
opened for appending and emptied before each request, so it holds one request's logs.
"""

from __future__ import annotations

import fcntl
import os
import tempfile

TAIL_BYTES = 2_048  # how much of an adapter's stderr a failure's evidence keeps
TRUNCATED = "..."  # marks a tail that lost its beginning


class StderrLog:
    """An adapter's stderr, as a file the adapter appends to."""

    def __init__(self) -> None:
        self._fd, name = tempfile.mkstemp(prefix="adapter-stderr-")
        os.unlink(name)
        # O_APPEND: the adapter writes at the end, wherever `clear` left the file.
        fcntl.fcntl(self._fd, fcntl.F_SETFL, fcntl.fcntl(self._fd, fcntl.F_GETFL) | os.O_APPEND)

    def fileno(self) -> int:
        return self._fd

    def clear(self) -> None:
        os.ftruncate(self._fd, 0)

    def tail(self) -> str:
        """The last `TAIL_BYTES` written since `clear`, as text."""
        size = os.fstat(self._fd).st_size
        start = max(0, size - TAIL_BYTES)
        text = os.pread(self._fd, TAIL_BYTES, start).decode("utf-8", "replace")
        return TRUNCATED + text if start else text

    def close(self) -> None:
        os.close(self._fd)
