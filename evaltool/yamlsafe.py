"""Safe, bounded YAML loading for files that may be hostile.

PyYAML's SafeLoader never builds arbitrary objects, but it will happily expand a
"billion laughs" of aliases. We refuse files above a size limit and documents with
more aliases than any hand-written offer needs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from evaltool.errors import InputError, Location, Problem

MAX_YAML_BYTES = 2_000_000
MAX_ALIASES = 100


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader that counts alias uses and stops past MAX_ALIASES."""

    alias_count = 0

    def compose_node(self, parent: Any, index: Any) -> Any:  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            self.alias_count += 1
            if self.alias_count > MAX_ALIASES:
                raise yaml.YAMLError(f"more than {MAX_ALIASES} aliases (possible alias bomb)")
        return super().compose_node(parent, index)


def load_yaml_text(text: str, source: str) -> Any:
    """Parse YAML text; raise InputError naming the file, line and column on failure."""
    loader = _BoundedLoader(text)
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = Location(source, cell=f"line {mark.line + 1}, column {mark.column + 1}"
                         if mark else None)
        raise InputError(Problem(where, f"not valid YAML: {exc.problem}",
                                 expected="a YAML document")) from None
    except yaml.YAMLError as exc:
        raise InputError(Problem(Location(source), f"not valid YAML: {exc}",
                                 expected="a YAML document")) from None
    finally:
        loader.dispose()


def load_yaml_file(path: Path) -> Any:
    size = path.stat().st_size
    if size > MAX_YAML_BYTES:
        raise InputError(Problem(Location(str(path)), "file too large to be an offer or config",
                                 found=f"{size:,} bytes", expected=f"at most {MAX_YAML_BYTES:,}"))
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        from charset_normalizer import from_bytes

        best = from_bytes(raw).best()
        if best is None:
            raise InputError(Problem(Location(str(path)), "cannot detect the text encoding",
                                     expected="UTF-8 or another common text encoding")) from None
        text = str(best)
    return load_yaml_text(text, str(path))
