"""Where the bundled templates, stylesheet and font live.

The lead's `evaltool.resources.templates_dir()` is the source of truth once it exists; until
then this falls back to the repo checkout's top-level `templates/` or a copy packaged as
`evaltool/templates/` inside an installed wheel.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from evaltool.errors import RenderError


@cache
def templates_dir() -> Path:
    try:
        from evaltool.resources import templates_dir as shared  # type: ignore[import-not-found]
    except ImportError:
        shared = None
    candidates: list[Path] = []
    if shared is not None:
        candidates.append(Path(shared()))
    here = Path(__file__).resolve()
    candidates += [here.parents[2] / "templates", here.parents[1] / "templates"]
    for path in candidates:
        if (path / "memo.html.j2").is_file():
            return path
    raise RenderError(
        "report templates not found: looked for memo.html.j2 in "
        + ", ".join(str(p) for p in candidates)
        + " (expected the repo's templates/ folder or the templates packaged with evaltool)"
    )
