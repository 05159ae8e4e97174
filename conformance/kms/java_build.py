"""Compile the Java test KMS (``java/``) with the machine's ``javac``, into a cache.

Spark's JVM needs a ``KmsClient`` class on its classpath and the pyspark wheel
bundles none usable for tests (parquet-java's InMemoryKMS is in a test jar).
The source is compiled against the wheel's own jars (``pyspark/jars/*``, which
hold parquet-hadoop's key tools and Hadoop's Configuration); nothing is
downloaded. The cache directory is keyed by a hash of the sources, the javac
path and the jar names, so a change to any of them recompiles.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

JAVA_SOURCE_ROOT = Path(__file__).resolve().parent / "java"
KMS_CLIENT_CLASS = "columnar.conformance.kms.InMemoryTestKms"
CACHE_ENV_VAR = "CONFORMANCE_CACHE_DIR"
DEFAULT_CACHE_ROOT = Path.home() / ".cache" / "columnar-conformance"
CACHE_SUBDIR = "kms-java"
JAVA_RELEASE = "17"
HASH_LENGTH = 16


class JavaBuildError(RuntimeError):
    """javac is missing or rejected the test KMS source (the message holds its output)."""


def pyspark_jars_dir() -> Path:
    import pyspark

    jars = Path(pyspark.__file__).resolve().parent / "jars"
    if not jars.is_dir():
        raise JavaBuildError(f"no jars folder in the pyspark package: {jars}")
    return jars


def _java_sources() -> list[Path]:
    return sorted(JAVA_SOURCE_ROOT.rglob("*.java"))


def _build_hash(sources: list[Path], javac: str, jars: Path) -> str:
    # The resolved javac path names the JDK (e.g. /usr/lib/jvm/java-17-.../bin/javac):
    # cheaper than starting `javac -version` on every session start.
    digest = hashlib.sha256(os.path.realpath(javac).encode())
    for jar in sorted(jars.glob("*.jar")):
        digest.update(jar.name.encode())
    for source in sources:
        digest.update(str(source.relative_to(JAVA_SOURCE_ROOT)).encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:HASH_LENGTH]


def _cache_root(cache_root: Path | str | None) -> Path:
    return Path(cache_root or os.environ.get(CACHE_ENV_VAR) or DEFAULT_CACHE_ROOT)


def compile_kms_classes(cache_root: Path | str | None = None, javac: str | None = None) -> Path:
    """The classes directory holding the compiled test KMS; compiles on the first call only."""
    javac = javac or shutil.which("javac")
    if not javac:
        raise JavaBuildError("javac not found on PATH: a JDK is needed to build the test KMS for Spark")
    jars = pyspark_jars_dir()
    sources = _java_sources()
    target = _cache_root(cache_root) / CACHE_SUBDIR / _build_hash(sources, javac, jars)
    if target.is_dir():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    command = [javac, "--release", JAVA_RELEASE, "-nowarn", "-cp", str(jars / "*"),
               "-d", str(staging), *map(str, sources)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        shutil.rmtree(staging, ignore_errors=True)
        raise JavaBuildError(f"javac failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    try:
        staging.rename(target)
    except OSError:
        # Another process finished the same build first: its classes are identical.
        shutil.rmtree(staging, ignore_errors=True)
    return target
