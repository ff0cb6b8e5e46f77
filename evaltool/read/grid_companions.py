"""What a price grid's rows are, and the counts a second grid gives each priced cell.

Two shapes of a rate card that the grid alone does not read:

- **long row labels**: the row names the model and then describes it ("NVIDIA H200 141 GB —
  8 GPU/nodo, InfiniBand NDR 3,2 Tb/s por nodo").  The row is the model at the label's head;
  the whole label is the description of what each cell of that row prices.
- **a grid of counts beside the grid of prices**: the same models down and the same regions
  across, under a title that says what is counted ("Capacidad disponible (GPU)", "Verfügbare
  Kapazität (Knoten)") or in its corner.  Each priced cell takes the count at the same row and
  column labels, wherever the count grid puts them: in any order, laid out the other way
  round (regions down, models across), or on another sheet ("Capacity").  A grid of figures
  whose title names no GPU or node count (lead times in weeks), names a price, or names a
  limit ("minimum order (GPUs)") is not a count: it is left to be read as any other table.

And the basis a title sentence states in one of its clauses ("Precio por GPU y hora (€),
compromiso de 12 meses"): the term's months are another clause, not a second time basis.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from evaltool.catalog import recognise_accelerator
from evaltool.errors import EvaltoolError, Location, Problem
from evaltool.read.cells import Candidate, RawRecord, SheetGrid, cell_text, is_empty
from evaltool.read.text import currency_of
from evaltool.read.tiers import basis_words, grid_words, price_basis
from evaltool.read.vocabulary import Vocabulary, normalise_label

_MAX_WORDS = 8  # a row label longer than this is a description, unless it starts with a model
# Where a model's name ends and its description starts: a dash between spaces, a comma,
# a semicolon, a colon or an opening bracket.
_HEAD_END_RE = re.compile(r"\s[—–-]\s|[,;:(]")
_COUNT_LABELS = {"gpu": "Number of GPUs", "node": "Number of nodes"}


@functools.lru_cache(maxsize=4096)
def row_head(label: str) -> str | None:
    """The model at the head of a long row label ('NVIDIA H200 141 GB — 8 GPU/nodo, ...' ->
    'NVIDIA H200 141 GB'), or None when the label is short or its head names no model."""
    words = label.split()
    if len(words) <= _MAX_WORDS:
        return None
    cut = _HEAD_END_RE.search(label)
    head = " ".join(label[:cut.start()].split()) if cut else ""
    if head and len(head.split()) <= _MAX_WORDS and _names_model(head):
        return head
    if cut is None:  # "NVIDIA H200 141GB 8 GPU per node InfiniBand": the shortest lead of
        for n in range(1, 5):  # words that names the model (and its memory, if next)
            lead = " ".join(words[:n])
            if _names_model(lead):
                memory = re.match(r"\d{2,3}\s*[GT]i?B\b", " ".join(words[n:n + 2]), re.I)
                return f"{lead} {memory.group(0)}" if memory else lead
    return None


_CLAUSE_RE = re.compile(r"[,;.](?!\d)|\s[—–-]\s")


def clause_basis(text: str) -> tuple[str, str] | None:
    """The basis a title sentence states in one of its clauses ('Precio por GPU y hora (€),
    compromiso de 12 meses, IVA no incluido' -> ('gpu', 'hour')): the term's months are
    another clause.  None unless exactly one clause states a basis."""
    found = {per for part in _CLAUSE_RE.split(text) if (per := price_basis(part)) is not None}
    return found.pop() if len(found) == 1 else None


def _names_model(text: str) -> bool:
    try:
        recognise_accelerator(text)
    except EvaltoolError:
        return False
    return True


def row_name(label: str) -> str:
    """A row label as the grid names its offers: a long label's model, else the label."""
    return row_head(label) or " ".join(label.split())


@dataclass
class Joined:
    """The counts a second grid gives the cells of a price grid, and the rows it took."""

    cells: dict[tuple[int, int], list[Candidate]] = field(default_factory=dict)
    rows: set[int] = field(default_factory=set)


def join_count_grids(grid: SheetGrid, vocab: Vocabulary, label_col: int, rows: list[int],
                     columns: dict[int, str], taken: set[int],
                     source: SheetGrid | None = None) -> Joined:
    """The counts of a grid of the same row and column labels as the price grid (`rows` down
    `label_col`, `columns` across), in any order, anywhere else on the sheet (or on the
    sheet `source`, a "Capacity" sheet beside the rates)."""
    joined = Joined()
    if len(rows) * len(columns) < 2:
        return joined
    wanted = {normalise_label(h): c for c, h in columns.items() if normalise_label(h)}
    if len(wanted) != len(columns):
        return joined
    names = {k: normalise_label(row_name(cell_text(grid.value(k, label_col)))) for k in rows}
    same = source is None or source is grid
    grid = grid if source is None else source  # (the price grid's labels are read above)
    for r, row in enumerate(grid.rows):
        if same and (r in taken or r in rows):
            continue
        heads = {normalise_label(cell_text(v)): c for c, v in enumerate(row)
                 if isinstance(v, str) and v.strip()}
        lead = min((c for c, v in enumerate(row) if not is_empty(v)), default=None)
        if lead is None:
            continue
        # price cell (k, c) -> count cell: the same labels, as the price grid lays them out
        # (models down, regions across) or transposed (regions down, models across)
        cells = _same_way(grid, r, lead, heads, wanted, names) or _transposed(
            grid, r, lead, heads, wanted, names)
        if not cells:
            continue
        title = _title(grid, r, lead)
        corner = (cell_text(grid.value(r, lead)), grid.where(r, lead), r)
        # What is counted: the title line above the grid, else its corner ("GPUs libres")
        said = next(((t, res) for t in (title, corner) if t is not None
                     and (res := counted(t[0], vocab)) is not None), None)
        if said is None:
            continue
        (_text, title_at, _row), resource = said
        label = _COUNT_LABELS[resource]
        for (k, c), (k2, c2) in cells.items():
            joined.cells.setdefault((k, c), []).append(Candidate(
                label, _count(grid.value(k2, c2)), grid.where(k2, c2), label_where=title_at,
                note=f"joined by row {cell_text(grid.value(k2, lead))!r} and column "
                     f"{cell_text(grid.value(r, c2))!r}"))
        joined.rows |= {r, *(k2 for k2, _ in cells.values())} | ({title[2]} if title else set())
        break
    return joined


def _same_way(grid: SheetGrid, r: int, lead: int, heads: dict[str, int],
              wanted: dict[str, int], names: dict[int, str]
              ) -> dict[tuple[int, int], tuple[int, int]] | None:
    """Count cells under the price grid's column labels, on rows naming its rows."""
    if not set(wanted) <= set(heads):
        return None
    across = {wanted[h]: heads[h] for h in wanted}  # price column -> count column
    if lead >= min(across.values()):
        return None
    found = _count_rows(grid, r, lead, across, names)
    if found is None:
        return None
    return {(k, c): (k2, c2) for k, k2 in found.items() for c, c2 in across.items()}


def _transposed(grid: SheetGrid, r: int, lead: int, heads: dict[str, int],
                wanted: dict[str, int], names: dict[int, str]
                ) -> dict[tuple[int, int], tuple[int, int]] | None:
    """Count cells under headers naming the price grid's rows, on rows naming its columns."""
    across: dict[int, int] = {}  # price row -> count column
    for k, name in names.items():
        hits = [c for h, c in heads.items() if name and h and c > lead and _same_row(name, h)]
        if len(hits) != 1 or hits[0] in across.values():
            return None
        across[k] = hits[0]
    down: dict[int, int] = {}  # price column -> count row
    for k2 in range(r + 1, len(grid.rows)):
        label = grid.value(k2, lead)
        if not isinstance(label, str) or not label.strip():
            break
        c = wanted.get(normalise_label(label))
        if c is None or c in down or not all(_whole(grid.value(k2, c2))
                                             for c2 in across.values()):
            return None
        down[c] = k2
    if len(down) != len(wanted):
        return None
    return {(k, c): (k2, across[k]) for c, k2 in down.items() for k in across}


def _count_rows(grid: SheetGrid, header: int, lead: int, across: dict[int, int],
                names: dict[int, str]) -> dict[int, int] | None:
    """Price-grid row -> count-grid row, every count row naming one price row and holding a
    whole number under each joined column; None unless every price row is named once."""
    found: dict[int, int] = {}
    for k2 in range(header + 1, len(grid.rows)):
        label = grid.value(k2, lead)
        if not isinstance(label, str) or not label.strip():
            break
        name = normalise_label(row_name(cell_text(label)))
        matches = [k for k, n in names.items() if n and name and _same_row(n, name)]
        if len(matches) != 1 or matches[0] in found:
            return None
        values = [grid.value(k2, c2) for c2 in across.values()]
        if not all(_whole(v) for v in values):
            return None
        found[matches[0]] = k2
    return found if len(found) == len(names) else None


def _same_row(a: str, b: str) -> bool:
    """'nvidia h200 141 gb' and 'nvidia h200': one is the other's head, word by word."""
    short, long = sorted((a.split(), b.split()), key=len)
    return long[:len(short)] == short


_COUNT_TEXT_RE = re.compile(r"^\s*(\d{1,5})\s*(?:[^\W\d_]{1,10}\.?)?\s*$")  # "128", "16 nodos"


def _count(value: Any) -> int | None:
    """A whole positive count: 128, 128.0, '128' or '16 nodos'; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return int(value) if float(value).is_integer() and value > 0 else None
    found = _COUNT_TEXT_RE.match(value) if isinstance(value, str) else None
    return int(found.group(1)) if found and int(found.group(1)) > 0 else None


def _whole(value: Any) -> bool:
    return _count(value) is not None


def _title(grid: SheetGrid, header: int, lead: int) -> tuple[str, Location, int] | None:
    """The one-cell line just above the count grid's header (up to two rows up)."""
    for k in range(header - 1, max(-1, header - 3), -1):
        filled = [(c, v) for c, v in enumerate(grid.rows[k]) if not is_empty(v)]
        if not filled:
            continue
        if len(filled) == 1 and isinstance(filled[0][1], str):
            return cell_text(filled[0][1]), grid.where(k, filled[0][0]), k
        return None
    return None


def counted(text: str, vocab: Vocabulary) -> str | None:
    """'gpu' or 'node' when the title counts GPUs or nodes and is no price or limit."""
    if not text or price_basis(text) is not None or currency_of(text) is not None:
        return None
    low = f" {normalise_label(text)} "
    if any(f" {normalise_label(w)} " in low for w in grid_words().get("count_limits", ())):
        return None  # "Minimum order (GPUs)": a limit, not the count offered
    slot = vocab.match(text)
    if slot in ("gpu_count", "node_count"):
        return "gpu" if slot == "gpu_count" else "node"
    resources, times = basis_words(text)
    if len(resources) == 1 and not times and resources[0] in _COUNT_LABELS:
        return resources[0]
    return None


def join_across_sheets(grids: list[SheetGrid], parts: list[RawRecord], vocab: Vocabulary
                       ) -> None:
    """Price grids whose counts are on another sheet of the workbook: each priced cell's
    offer takes the count at its row and column labels there; the count grid's cells leave
    what the other sheet's record shares (they were read there as key-values)."""
    for grid in grids:
        for block, offers in grid.found.get("price_blocks", ()):
            if block.joined:
                continue
            for other, part in zip(grids, parts, strict=True):
                if other is grid or other.hidden or "price_blocks" in other.found:
                    continue
                joined = join_count_grids(grid, vocab, block.label_col, block.rows,
                                          block.columns, set(), source=other)
                if not joined.cells:
                    continue
                for (k, c), found in joined.cells.items():
                    offer = offers.get(grid.where(k, c).cell)
                    if offer is None:
                        continue
                    offer.candidates.extend(found)
                    offer.problems.extend(Problem(f.where, severity="info",
                                                  code="count-grid-joined",
                                                  params={"cell": f.where.cell or ""})
                                          for f in found)
                cells = {other.where(r, col).cell for r in joined.rows
                         for col in range(len(other.rows[r]))}
                part.candidates = [x for x in part.candidates if x.where.sheet != other.name
                                   or x.where.cell not in cells]
                break
