"""A team's adapter outside the repository: the minimal adapter of docs/adapter-kit.md,
which imports nothing of the suite but its public kit, written into a folder of its own."""

from __future__ import annotations

import re
import sys
from pathlib import Path

KIT_DOC = Path(__file__).resolve().parents[2] / "docs" / "adapter-kit.md"
ADAPTER = "mylib_adapter.py"
NAME = "mylib"


def kit_example() -> str:
    """The minimal adapter of docs/adapter-kit.md."""
    (example,) = re.findall(r"```python\n(.*?)```", KIT_DOC.read_text(), re.S)
    return example


def write_adapter(folder: Path, source: str | None = None) -> str:
    """Write the adapter (`source`, default the docs' example) into `folder`; its command."""
    (folder / ADAPTER).write_text(kit_example() if source is None else source)
    return f"{sys.executable} {folder / ADAPTER}"
