"""Safe, bounded YAML loading for files that may be hostile.

PyYAML's SafeLoader never builds arbitrary objects, but it will happily expand a
"billion laughs" of aliases, and its composer recurses once per nesting level. We refuse
files above a size limit, documents with more aliases than any hand-written offer needs, and
documents nested deeper than any offer, workload or rubric is (each limit named in its
message, code `too-deeply-nested`, `alias-bomb` or `file-too-large`); a document that is not YAML is
`invalid-yaml`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from evaltool.errors import InputError, Location, Problem

MAX_YAML_BYTES = 2_000_000
MAX_EXPANDED_NODES = 200_000  # far above any hand-written offer; far below a "billion laughs"
MAX_YAML_DEPTH = 50  # an offer is ~4 levels deep, a rubric ~6; Python recurses per level


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def _too_big(root: yaml.Node, source: str, budget: int, max_depth: int) -> Problem | None:
    """Why the node graph is refused (aliases expanding past `budget`, or nesting past
    `max_depth`), else None.  Iterative, so a deep document cannot exhaust the stack."""
    # Depth first, with an explicit stack: nesting depth.
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    seen: set[int] = set()
    while stack:
        node, depth = stack.pop()
        if depth > max_depth:
            return _too_deep(source, max_depth)
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend((child, depth + 1) for child in _children(node))
    # Expanded size, memoised per node, children before parents (post-order).
    size: dict[int, int] = {}
    order: list[yaml.Node] = []
    visit: list[tuple[yaml.Node, bool]] = [(root, False)]
    while visit:
        node, done = visit.pop()
        if done:
            total = 1
            for child in _children(node):
                total += size.get(id(child), 1)
                if total > budget:
                    break
            size[id(node)] = min(total, budget + 1)
            order.append(node)
            continue
        if id(node) in size:
            continue
        size[id(node)] = 1  # in progress: a placeholder until its children are sized
        visit.append((node, True))
        visit.extend((child, False) for child in _children(node) if id(child) not in size)
    if size.get(id(root), 1) > budget:
        return Problem(Location(source), code="alias-bomb", params={"max_nodes": budget})
    return None


def _too_deep(source: str, max_depth: int) -> Problem:
    return Problem(Location(source), code="too-deeply-nested", params={"max_depth": max_depth})


def _invalid(where: Location, reason: str) -> InputError:
    return InputError(Problem(where, code="invalid-yaml", params={"reason": reason}))


class _Loader(yaml.SafeLoader):
    """SafeLoader that keeps an impossible date (2027-02-30) or a number too long for Python
    (more than 4,300 digits) as the text it is, so the reader names the one bad value instead
    of refusing the whole file."""


def _lenient(kind: str) -> Any:
    construct = getattr(yaml.SafeLoader, f"construct_yaml_{kind}")

    def constructor(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
        try:
            return construct(loader, node)
        except (ValueError, OverflowError):
            return loader.construct_scalar(node)  # type: ignore[arg-type]

    return constructor


for _kind in ("timestamp", "int", "float"):
    _Loader.add_constructor(f"tag:yaml.org,2002:{_kind}", _lenient(_kind))


def load_yaml_text(text: str, source: str) -> Any:
    """Parse YAML text; raise InputError naming the file, line and column on failure."""
    try:
        loader = _Loader(text)  # refuses NUL and other control characters here
    except yaml.YAMLError as exc:
        raise _invalid(Location(source), _first_line(exc)) from None
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        refused = _too_big(node, source, MAX_EXPANDED_NODES, MAX_YAML_DEPTH)
        if refused is not None:
            raise InputError(refused)
        return loader.construct_document(node)
    except RecursionError:
        raise InputError(_too_deep(source, MAX_YAML_DEPTH)) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = Location(source, cell=f"line {mark.line + 1}, column {mark.column + 1}"
                         if mark else None)
        raise _invalid(where, str(exc.problem)) from None
    except yaml.YAMLError as exc:
        raise _invalid(Location(source), _first_line(exc)) from None
    finally:
        loader.dispose()


def check_depth(data: Any, source: str, max_depth: int = MAX_YAML_DEPTH) -> Any:
    """Return `data` (parsed JSON) if it is nested at most `max_depth` levels, else refuse it.

    Iterative, so checking a deep document cannot exhaust the stack either.
    """
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > max_depth:
            raise InputError(_too_deep(source, max_depth))
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)
    return data


def _first_line(exc: Exception) -> str:
    """The parser's complaint without the excerpt of the file it quotes (a file that is not
    ours to show, such as a mistyped --rubric path, must not be echoed)."""
    text = str(getattr(exc, "problem", None) or exc).splitlines()
    return text[0][:160] if text else type(exc).__name__


def load_yaml_file(path: Path) -> Any:
    size = path.stat().st_size
    if size > MAX_YAML_BYTES:
        raise InputError(Problem(Location(str(path)), code="file-too-large", params={
            "size_bytes": size, "limit_bytes": MAX_YAML_BYTES, "limit": "YAML/JSON"}))
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        from charset_normalizer import from_bytes

        best = from_bytes(raw).best()
        if best is None:
            raise InputError(Problem(Location(str(path)), code="unknown-encoding")) from None
        text = str(best)
    return load_yaml_text(text, str(path))
