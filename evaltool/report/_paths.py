"""Where the bundled templates, stylesheet and font live (evaltool.resources decides)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from evaltool.errors import RenderError
from evaltool.resources import templates_dir as bundled


@cache
def templates_dir() -> Path:

    try:
        path = bundled()
    except FileNotFoundError as exc:
        raise RenderError(f"report templates not found: {exc}") from exc
    if not (path / "memo.html.j2").is_file():
        raise RenderError(
            f"report templates not found: {path} has no memo.html.j2 "
            "(expected the repo's templates/ folder or the copy packaged with evaltool)"
        )
    return path
