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
MAX_EXPANDED_NODES = 200_000  # far above any hand-written offer; far below a "billion laughs"


def _expanded_size(node: yaml.Node, memo: dict[int, int], budget: int) -> int:
    """Nodes the document would have once every alias is expanded (memoised per node)."""
    key = id(node)
    if key in memo:
        return memo[key]
    size = 1
    if isinstance(node, yaml.SequenceNode):
        children: list[yaml.Node] = list(node.value)
    elif isinstance(node, yaml.MappingNode):
        children = [part for pair in node.value for part in pair]
    else:
        children = []
    for child in children:
        size += _expanded_size(child, memo, budget)
        if size > budget:
            break
    memo[key] = size
    return size


def load_yaml_text(text: str, source: str) -> Any:
    """Parse YAML text; raise InputError naming the file, line and column on failure."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if _expanded_size(node, {}, MAX_EXPANDED_NODES) > MAX_EXPANDED_NODES:
            raise yaml.YAMLError(
                f"expands to more than {MAX_EXPANDED_NODES:,} nodes through aliases "
                "(an alias bomb?)"
            )
        return loader.construct_document(node)
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
