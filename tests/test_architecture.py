"""The house rules a newcomer can rely on: the package tree is the pipeline, imports flow one way.

- no import cycles between evaltool modules (the graph of module-level imports is acyclic);
- own-module imports stand at the top of each file, so the data path reads from the top of a
  file (only heavy third-party libraries load inside functions, for a fast `--help`);
- no module grows past what one head can hold;
- only report/ writes words: no earlier stage imports it.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "evaltool"
MAX_LINES = 800

# Files that still import evaltool modules inside functions; each entry is a debt to pay, and
# the list may only shrink (a new file must not be added here).
FUNCTION_LEVEL_IMPORT_DEBT: set[str] = set(
)
# Files past MAX_LINES, to be split along their concepts; may only shrink.
SIZE_DEBT: set[str] = set()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def own_targets(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in MODULES]
    if not node.module or not node.module.startswith("evaltool"):
        return []
    subs = [f"{node.module}.{a.name}" for a in node.names]
    if all(s in MODULES for s in subs):
        return subs
    return [node.module] if node.module in MODULES else []


def imports_of(path: Path) -> tuple[set[str], list[int]]:
    """Module-level own imports (not under TYPE_CHECKING), and lines of function-level ones."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            top.update(own_targets(node))
    inner = [
        n.lineno for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom) and n.col_offset > 0 and own_targets(n)
        and not _under_type_checking(tree, n)
    ]
    return top, inner


def _under_type_checking(tree: ast.Module, node: ast.AST) -> bool:
    return any(
        isinstance(top, ast.If) and "TYPE_CHECKING" in ast.unparse(top.test)
        and any(child is node for child in ast.walk(top))
        for top in tree.body
    )


def test_module_imports_form_no_cycle() -> None:
    graph = {name: imports_of(path)[0] - {name} for name, path in MODULES.items()}
    state: dict[str, int] = {}  # 1 visiting, 2 done

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = [*trail[trail.index(nxt):], nxt] if nxt in trail else [node, nxt]
                raise AssertionError("import cycle: " + " → ".join(cycle))
            if nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])


def test_own_modules_are_imported_at_the_top_of_each_file() -> None:
    offenders = {}
    for path in PACKAGE.rglob("*.py"):
        rel = str(path.relative_to(PACKAGE))
        lines = imports_of(path)[1]
        if lines and rel not in FUNCTION_LEVEL_IMPORT_DEBT:
            offenders[rel] = lines
    assert not offenders, f"evaltool imports inside functions: {offenders}"


def test_no_module_grows_past_what_one_head_can_hold() -> None:
    too_big = {
        str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
        and str(p.relative_to(PACKAGE)) not in SIZE_DEBT
    }
    assert not too_big, too_big


def test_the_folders_follow_the_data_path() -> None:
    stages = ["grammar", "read", "normalize", "estimate", "clauses", "score", "decide", "report"]
    for stage in stages:
        assert (PACKAGE / stage / "__init__.py").is_file(), stage


def test_only_report_writes_words_no_stage_imports_it() -> None:
    # Each stage returns typed results (numbers, names, codes); only report/ turns them into
    # words, so no earlier stage may import it (decide/ hands its figures to
    # report/decide_words through pipeline.py). Every import counts, at any depth.
    earlier = ["read", "normalize", "estimate", "clauses", "score", "decide"]
    reaching: list[str] = []
    for stage in earlier:
        for path in sorted((PACKAGE / stage).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                         else [a.name for a in node.names] if isinstance(node, ast.Import)
                         else [])
                reaching += [f"{path.relative_to(PACKAGE)}: {name}" for name in names
                             if name == "evaltool.report" or name.startswith("evaltool.report.")]
    assert reaching == []


def _stage_imports(folder: str) -> list[tuple[str, str]]:
    """(file, imported module) for every own import in a folder, at any depth."""
    found: list[tuple[str, str]] = []
    for path in sorted((PACKAGE / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            found += [(str(path.relative_to(PACKAGE)), n) for n in names
                      if n.startswith("evaltool.")]
    return found


def test_reading_never_runs_the_data_path_backwards() -> None:
    # read/ finds tables and cells with the grammar of offers (grammar/: prices, bases,
    # numbers, quantities, currency signs, places); neither imports a later stage, so the
    # reader and the value parser can be read, tested and reused before normalisation exists.
    later = ("normalize", "estimate", "clauses", "score", "decide", "report")
    backwards = [f"{where}: {name}" for folder in ("read", "grammar")
                 for where, name in _stage_imports(folder)
                 if name.split(".")[1] in later]
    assert backwards == []
    grammar_reads = [f"{where}: {name}" for where, name in _stage_imports("grammar")
                     if name.split(".")[1] == "read"]
    assert grammar_reads == []  # the grammar knows no record, no cell, no sheet
