"""Write small workbooks for the reader's tests: one helper, so every test builds its vendor
layout the same way (openpyxl, as vendors' own tools write them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def write_workbook(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    """A workbook at ``path`` with one sheet per entry, its rows appended in order."""
    from openpyxl import Workbook

    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    wb.save(path)
    return path


def write_sheet(path: Path, rows: list[list[Any]]) -> Path:
    """A one-sheet workbook at ``path``."""
    return write_workbook(path, {"Sheet": rows})
