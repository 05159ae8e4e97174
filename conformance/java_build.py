"""Compile Java sources with the machine's ``javac`` against the jars pyspark ships,
into the build cache (`conformance.build_cache`), once per change of their inputs.

Used for the Java test KMS (`conformance.kms`) and the parquet-java adapter
(adapters/java/parquet-java/). Nothing is downloaded: the pyspark wheel's
``pyspark/jars/*`` hold parquet-java, Hadoop's Configuration and Jackson. The cache
folder's hash covers the sources, the javac path (it names the JDK) and the jar names
(they carry the versions), so a change to any of them recompiles.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from .build_cache import built_once, cache_root, files_hash

JAVA_RELEASE = "17"
JAVA_SUFFIX = ".java"


class JavaBuildError(RuntimeError):
    """javac is missing or rejected a source (the message holds its output)."""


def pyspark_jars_dir() -> Path:
    """The pyspark wheel's jars folder. In a Spark worker, pyspark is imported from
    ``pyspark/python/lib/pyspark.zip``, inside the package: the folder is found upwards."""
    import pyspark

    package = Path(pyspark.__file__).resolve().parent
    for folder in (package, *package.parents):
        if (folder / "jars").is_dir():
            return folder / "jars"
    raise JavaBuildError(f"no jars folder in or above the pyspark package: {package}")


def classpath(classes: Path) -> str:
    """A classpath of `classes` and every pyspark jar (for ``java -cp``)."""
    return f"{classes}{os.pathsep}{pyspark_jars_dir() / '*'}"


def compile_java(source_root: Path, subdir: str, cache: Path | str | None = None,
                 javac: str | None = None) -> Path:
    """The classes folder of every ``*.java`` below `source_root`, compiled on the first
    call only, in ``<cache>/<subdir>/<hash>``, with the other files below it copied beside
    the classes (resources, e.g. a ServiceLoader's ``META-INF/services`` entries)."""
    javac = javac or shutil.which("javac")
    if not javac:
        raise JavaBuildError(f"javac not found on PATH: a JDK is needed to build {source_root.name}")
    jars = pyspark_jars_dir()
    sources = sorted(source_root.rglob(f"*{JAVA_SUFFIX}"))
    resources = sorted(p for p in source_root.rglob("*") if p.is_file() and p.suffix != JAVA_SUFFIX)
    digest = files_hash(source_root, [*sources, *resources], os.path.realpath(javac),
                        *sorted(jar.name for jar in jars.glob("*.jar")))

    def build(staging: Path) -> None:
        command = [javac, "--release", JAVA_RELEASE, "-nowarn", "-cp", str(jars / "*"),
                   "-d", str(staging), *map(str, sources)]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise JavaBuildError(f"javac failed ({result.returncode}):\n{result.stdout}{result.stderr}")
        for resource in resources:
            target = staging / resource.relative_to(source_root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(resource, target)

    return built_once(cache_root(cache) / subdir / digest, build)
