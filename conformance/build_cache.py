"""Things the suite builds on first use (the Java test KMS, the bundled adapters'
node packages and Java classes), in a cache keyed by a hash of their inputs.

The cache is ``$CONFORMANCE_CACHE_DIR`` or ``~/.cache/columnar-conformance``. A build
goes into a staging folder that is renamed into place when complete, so a process
never sees half a build, and two processes building the same thing at once both end
with the same complete folder.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

CACHE_ENV_VAR = "CONFORMANCE_CACHE_DIR"
DEFAULT_CACHE_ROOT = Path.home() / ".cache" / "columnar-conformance"
HASH_LENGTH = 16


def cache_root(override: Path | str | None = None) -> Path:
    return Path(override or os.environ.get(CACHE_ENV_VAR) or DEFAULT_CACHE_ROOT)


def inputs_hash(texts: Iterable[str | bytes]) -> str:
    """A short hash of a build's inputs (names, versions and file contents)."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode() if isinstance(text, str) else text)
        digest.update(b"\0")
    return digest.hexdigest()[:HASH_LENGTH]


def files_hash(root: Path, files: Iterable[Path], *extra: str) -> str:
    """`inputs_hash` of `extra` and each file's path below `root` and its bytes."""
    parts: list[str | bytes] = list(extra)
    for path in sorted(files):
        parts += [str(path.relative_to(root)), path.read_bytes()]
    return inputs_hash(parts)


def built_once(target: Path, build: Callable[[Path], None]) -> Path:
    """`target`, made by `build(staging folder)` unless it already exists. A build that
    raises leaves nothing behind."""
    if target.is_dir():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    try:
        build(staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    try:
        staging.rename(target)
    except OSError:
        # Another process finished the same build first: its result is identical.
        shutil.rmtree(staging, ignore_errors=True)
    return target
