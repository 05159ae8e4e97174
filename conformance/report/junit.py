"""``junit.xml``: the run as JUnit XML, for CI systems that display test results.

Layout::

    <testsuites name="conformance" tests= failures= errors= skipped= time=>
      <testsuite name="write">                 the writers' write phase
        <testcase classname=WRITER name="CASE [WRITER]" time=>
      <testsuite name="read:READER">           one per reader
        <testcase classname=READER name="CASE [WRITER -> READER]" time=>
      <testsuite name="reject:READER">         one per reader of the bad files
        <testcase classname=READER name="bad/ID [must reject: READER]" time=>

Outcome -> JUnit element: mismatch, flaky -> ``<failure>``; error, crash, timeout,
harness-error -> ``<error>``; unsupported, skipped -> ``<skipped>``; pass -> nothing. The
element's ``type`` is the outcome, its ``message`` the first line of the
detail and its text the whole detail. Each suite carries the run id and
engine versions as ``<properties>``; each testcase's ``<system-out>`` names the
cell id and the file it read or wrote (the reproducer) with its sha256.
Control characters and other text XML 1.0 cannot hold are shown as escapes
(``\\x01``) so the file always parses.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from .dataset import READ_PHASES, REJECT, Cell, ReportSummary, engine_order
from .text import first_line, visible_controls

ELEMENT_FOR_OUTCOME = {
    "mismatch": "failure",
    "error": "error",
    "crash": "error",
    "timeout": "error",
    "harness-error": "error",
    "flaky": "failure",
    "unsupported": "skipped",
    "skipped": "skipped",
}

WRITE_SUITE = "write"


def _x(text: str | None) -> str:
    return visible_controls(text or "")


def _seconds(value: float) -> str:
    return f"{value:.3f}"


def _testcase(parent: ET.Element, cell: Cell) -> None:
    if cell.phase == "write":
        classname, name = cell.writer, f"{cell.case_id} [{cell.writer}]"
    elif cell.phase == REJECT:
        classname, name = cell.reader or "", f"{cell.case_id} [must reject: {cell.reader}]"
    else:
        classname, name = cell.reader or "", f"{cell.case_id} [{cell.writer} -> {cell.reader}]"
    case = ET.SubElement(
        parent,
        "testcase",
        classname=_x(classname),
        name=_x(name),
        time=_seconds(cell.duration_s),
    )
    tag = ELEMENT_FOR_OUTCOME.get(cell.outcome)
    if tag is not None:
        element = ET.SubElement(
            case, tag, type=cell.outcome, message=_x(first_line(cell.detail) or cell.outcome)
        )
        if tag != "skipped" or cell.detail:
            element.text = _x(cell.detail)
    evidence = [("cell_id", cell.cell_id), ("file", cell.file), ("file_sha256", cell.file_sha256)]
    ET.SubElement(case, "system-out").text = _x(
        "".join(f"{key}: {value}\n" for key, value in evidence if value)
    )


def _counts(cells: Sequence[Cell]) -> dict[str, str]:
    tags = [ELEMENT_FOR_OUTCOME.get(c.outcome) for c in cells]
    return {
        "tests": str(len(cells)),
        "failures": str(tags.count("failure")),
        "errors": str(tags.count("error")),
        "skipped": str(tags.count("skipped")),
        "time": _seconds(sum(c.duration_s for c in cells)),
    }


def _suite(root: ET.Element, name: str, cells: Sequence[Cell], props: dict[str, str]) -> None:
    suite = ET.SubElement(root, "testsuite", {"name": _x(name), **_counts(cells)})
    properties = ET.SubElement(suite, "properties")
    for key, value in props.items():
        ET.SubElement(properties, "property", name=_x(key), value=_x(value))
    for cell in cells:
        _testcase(suite, cell)


def to_junit(summary: ReportSummary) -> ET.ElementTree:
    """The JUnit document for ``summary``."""
    root = ET.Element("testsuites", {"name": "conformance", **_counts(summary.cells)})
    run = {"run_id": summary.run_id}
    writes = [c for c in summary.cells if c.phase == "write"]
    if writes:
        versions = {f"{w}_version": ", ".join(summary.engines.get(w, ())) for w in summary.writers}
        _suite(root, WRITE_SUITE, writes, {**run, **versions})
    for phase in READ_PHASES:
        readers = sorted({c.reading_engine for c in summary.cells if c.phase == phase}, key=engine_order)
        for reader in readers:
            cells = [c for c in summary.cells if c.phase == phase and c.reader == reader]
            version = ", ".join(summary.engines.get(reader, ()))
            _suite(root, f"{phase}:{reader}", cells,
                   {**run, "reader": reader, "reader_version": version})
    tree = ET.ElementTree(root)
    ET.indent(tree)
    return tree


def write_junit(summary: ReportSummary, path: str | Path) -> Path:
    path = Path(path)
    to_junit(summary).write(path, encoding="utf-8", xml_declaration=True)
    return path
