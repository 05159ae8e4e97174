"""Compile the Java test KMS (``java/``) with the machine's ``javac``, into the cache.

Spark's JVM needs a ``KmsClient`` class on its classpath and the pyspark wheel
bundles none usable for tests (parquet-java's InMemoryKMS is in a test jar). The
source is compiled against the wheel's own jars (`conformance.java_build`).
"""

from __future__ import annotations

from pathlib import Path

from conformance.java_build import JavaBuildError, compile_java

JAVA_SOURCE_ROOT = Path(__file__).resolve().parent / "java"
KMS_CLIENT_CLASS = "columnar.conformance.kms.InMemoryTestKms"
CACHE_SUBDIR = "kms-java"


def compile_kms_classes(cache_root: Path | str | None = None, javac: str | None = None) -> Path:
    """The classes directory holding the compiled test KMS; compiles on the first call only."""
    return compile_java(JAVA_SOURCE_ROOT, CACHE_SUBDIR, cache_root, javac)


__all__ = ["JavaBuildError", "KMS_CLIENT_CLASS", "compile_kms_classes"]
