"""The adapters this project ships for implementations no one here wrote
(adapters/README.md): each speaks the engine protocol (docs/engine-protocol.md) from
its own process, exactly as another team's adapter would.

A bundled engine is known by its plain name (``hyparquet``, ``parquet-java``,
``polars``, ...) and takes part in every run of its formats by default. Before its first
use it is
*prepared*, by the run itself, into the build cache (`conformance.build_cache`):

* JavaScript: the packages of ``adapters/js/package-lock.json`` are installed with
  ``npm ci`` beside a copy of the adapters' sources (node and npm must be on PATH);
* Java: the adapter is compiled with ``javac`` against the jars pyspark ships
  (`conformance.java_build`);
* Python: nothing; the library must be importable (it is a dependency of the project).

What cannot be prepared (no node, no network to the npm registry, no JDK) makes the
engine *unavailable*, with the reason; a run reports it and goes on without it.
"""

from __future__ import annotations

import functools
import importlib.util
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from conformance.build_cache import built_once, cache_root, files_hash
from conformance.java_build import JavaBuildError, classpath, compile_java

ADAPTERS = Path(__file__).resolve().parents[2] / "adapters"
JS_ROOT = ADAPTERS / "js"
JS_CACHE_SUBDIR = "js-adapters"
JS_SOURCE_SUFFIXES = (".mjs", ".json")
JAVA_CACHE_SUBDIR = "java-adapters"
NPM_CI = ("ci", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund")
NPM_TIMEOUT_S = 600
# The matrix's workers cap their address space (RLIMIT_AS, `conformance.matrix.isolation`),
# and adapters inherit the cap. V8 reserves ~10 GB of guard regions per WebAssembly
# memory (measured: parquet-wasm fails to instantiate under 8 GB, "Out of memory: Cannot
# allocate Wasm memory"); with explicit bounds checks it needs no such reservation.
NODE_FLAGS = ("--disable-wasm-trap-handler",)
# A JVM sized for one file at a time: its default heap reservation is a quarter of RAM.
JAVA_FLAGS = ("-Xmx2g", "-XX:+UseSerialGC")


class AdapterUnavailable(RuntimeError):
    """A bundled adapter cannot run on this machine (the message says why)."""


@dataclass(frozen=True)
class BundledAdapter:
    name: str
    language: str  # "javascript", "java" or "python"
    folder: str  # below adapters/
    entry: str  # the adapter's script, or its Java main class
    library: str = ""  # Python: the module that must be importable
    formats: tuple[str, ...] = ("parquet",)
    # A writer of the golden corpus by default (conformance/golden/corpus.py): ORC Java
    # direct writes the ORC cases Spark's DataFrame writer cannot (unions, CHAR and
    # VARCHAR, TIMESTAMP_INSTANT, chosen Bloom filter columns).
    golden: bool = False


BUNDLED: dict[str, BundledAdapter] = {a.name: a for a in (
    BundledAdapter("hyparquet", "javascript", "js/hyparquet", "adapter.mjs"),
    BundledAdapter("parquetjs", "javascript", "js/parquetjs", "adapter.mjs"),
    BundledAdapter("parquet-wasm", "javascript", "js/parquet-wasm", "adapter.mjs"),
    BundledAdapter("parquet-java", "java", "java/parquet-java",
                   "columnar.conformance.adapters.parquetjava.Adapter"),
    BundledAdapter("orc-java", "java", "java/orc-java",
                   "columnar.conformance.adapters.orcjava.Adapter", formats=("orc",), golden=True),
    BundledAdapter("polars", "python", "python/polars", "polars_adapter.py", library="polars"),
    BundledAdapter("datafusion", "python", "python/datafusion", "datafusion_adapter.py",
                   library="datafusion"),
    BundledAdapter("chdb", "python", "python/chdb", "chdb_adapter.py", library="chdb",
                   formats=("parquet", "orc")),
)}


def adapter_command(name: str) -> str:
    """The command that starts bundled adapter `name`, preparing it on first use
    (raises `AdapterUnavailable` with the reason when it cannot run here)."""
    adapter = BUNDLED[name]
    if not (ADAPTERS / adapter.folder).is_dir():
        raise AdapterUnavailable(f"{name}: its adapter folder {ADAPTERS / adapter.folder} is missing "
                                 "(install the project from its clone: pip install -e .)")
    return {"javascript": _node_command, "java": _java_command,
            "python": _python_command}[adapter.language](adapter)


def _node_command(adapter: BundledAdapter) -> str:
    node = _on_path("node", adapter)
    script = _installed_js() / adapter.folder.removeprefix("js/") / adapter.entry
    return shlex.join([node, *NODE_FLAGS, str(script)])


@functools.cache
def _installed_js() -> Path:
    """A copy of adapters/js/ with its locked npm packages installed (once per change)."""
    npm = shutil.which("npm")
    if npm is None:
        raise AdapterUnavailable("npm not found on PATH: the JavaScript adapters install their "
                                 "packages with npm ci")
    node_version = subprocess.run(["node", "--version"], capture_output=True, text=True,
                                  check=False).stdout.strip()
    sources = [p for p in JS_ROOT.rglob("*") if p.suffix in JS_SOURCE_SUFFIXES
               and "node_modules" not in p.relative_to(JS_ROOT).parts]

    def build(staging: Path) -> None:
        for source in sources:
            copy = staging / source.relative_to(JS_ROOT)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, copy)
        try:
            result = subprocess.run([npm, *NPM_CI], cwd=staging, capture_output=True, text=True,
                                    timeout=NPM_TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired:
            raise AdapterUnavailable(f"npm ci gave no result within {NPM_TIMEOUT_S} s") from None
        if result.returncode != 0:
            raise AdapterUnavailable(f"npm ci failed ({result.returncode}): "
                                     f"{(result.stderr or result.stdout).strip()[-2000:]}")

    target = cache_root() / JS_CACHE_SUBDIR / files_hash(JS_ROOT, sources, node_version)
    return built_once(target, build)


def _java_command(adapter: BundledAdapter) -> str:
    java = _on_path("java", adapter)
    try:
        classes = compile_java(ADAPTERS / adapter.folder / "src", f"{JAVA_CACHE_SUBDIR}/{adapter.name}")
    except JavaBuildError as exc:
        raise AdapterUnavailable(str(exc)) from None
    return shlex.join([java, *JAVA_FLAGS, "-cp", classpath(classes), adapter.entry])


def _python_command(adapter: BundledAdapter) -> str:
    if importlib.util.find_spec(adapter.library) is None:
        raise AdapterUnavailable(f"{adapter.name}: the Python package {adapter.library!r} is not "
                                 "installed (pip install -e . installs it)")
    return shlex.join([sys.executable, str(ADAPTERS / adapter.folder / adapter.entry)])


def _on_path(program: str, adapter: BundledAdapter) -> str:
    found = shutil.which(program)
    if found is None:
        raise AdapterUnavailable(f"{program} not found on PATH: the {adapter.language} adapter "
                                 f"{adapter.name} needs it")
    return found
