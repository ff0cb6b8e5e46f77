"""Where bundled data lives, in a checkout and in an installed wheel.

`rubrics/` and `templates/` stand at the top of the repository (PRODUCT.md layout) and
are copied into the wheel as `evaltool/rubrics` and `evaltool/templates`
(pyproject: hatch force-include). An editable install keeps them at the top level.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def _bundled(name: str) -> Path:
    inside = _PACKAGE_DIR / name
    if inside.is_dir():
        return inside
    beside = _PACKAGE_DIR.parent / name
    if beside.is_dir():
        return beside
    raise FileNotFoundError(f"evaltool is missing its bundled {name}/ folder (looked in {inside})")


def data_dir() -> Path:
    return _PACKAGE_DIR / "data"


def rubrics_dir() -> Path:
    return _bundled("rubrics")


def templates_dir() -> Path:
    return _bundled("templates")
