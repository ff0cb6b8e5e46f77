"""Where the offers of a file are: one per file, one per sheet, or several down one sheet.

Vendors lay several offers out in several ways; `layout.py` finds options side by side in
columns and one offer per row.  This module finds the two shapes that span more than one
table:

- one sheet per option ("Option 1 - 256 GPU", "Option 2 - 1024 GPU"): two or more sheets that
  each state a whole offer (an accelerator, a count and a price) are one offer each; the other
  sheets (cover, notes, terms) state what they share;
- stacked blocks down one sheet ("【Plan A】" over its labelled values, then "【Plan B】"): two or
  more blocks under a one-cell heading that each state a whole offer are one offer each; the
  rows outside them are shared.

Superseded sheets ("Angebot v1 (veraltet)", "DRAFT — superseded, do not use") are skipped and
said, like hidden ones: they hold old prices, not the offer.
"""

from __future__ import annotations

import functools
import re

from evaltool.errors import Location, Problem
from evaltool.read.blocks import enumerates_options, names_an_option
from evaltool.read.cells import (
    Candidate,
    LineItem,
    RawRecord,
    SheetGrid,
    cell_text,
    filled_columns,
    is_empty,
)
from evaltool.read.grid_companions import join_across_sheets
from evaltool.read.keyvalues import key_values
from evaltool.read.layout import is_contract_sheet, read_grid, slug
from evaltool.read.noted_options import options_in_notes
from evaltool.read.priced_bullets import priced_bullets
from evaltool.read.prose_options import options_in_prose
from evaltool.read.replaced_sheets import replaced_sheets
from evaltool.read.spec_columns import specs_by_product
from evaltool.read.vocabulary import MAX_LABEL_WORDS, Vocabulary, normalise_label

# Slots that, together, make a set of labelled values a whole offer.
_PRICE_SLOTS = frozenset({"price", "capex_usd"})
_COUNT_SLOTS = frozenset({"gpu_count", "node_count", "rack_count"})


def states_an_offer(candidates: list[Candidate], vocab: Vocabulary) -> bool:
    """An accelerator, a count and a price, each under its own label."""
    slots = {vocab.match(c.label, c.section) for c in candidates if not c.shape_only}
    return "accelerator" in slots and bool(slots & _PRICE_SLOTS) and bool(slots & _COUNT_SLOTS)


def superseded(grid: SheetGrid, vocab: Vocabulary) -> str | None:
    """The words that mark a sheet as superseded (in its name or its first filled row)."""
    texts = [grid.name or ""]
    for row in grid.rows[:3]:
        texts += [cell_text(v) for v in row if isinstance(v, str)]
    if not vocab.superseded:
        return None
    pattern = _superseded_re(vocab.superseded)
    for text in texts:
        if pattern.search(f" {normalise_label(text)} "):
            return text
    return None


@functools.lru_cache(maxsize=4)
def _superseded_re(phrases: tuple[str, ...]) -> re.Pattern[str]:
    """' phrase ' for any of the phrases, as one pattern: each sheet's first cells were
    tried against every phrase in turn (benchmarks/ingest.py)."""
    return re.compile(" (?:" + "|".join(re.escape(p) for p in phrases) + ") ")


def _absorb(into: RawRecord, part: RawRecord, skipped: bool = False) -> None:
    into.candidates.extend(part.candidates)
    into.line_items.extend(part.line_items)
    into.notes.extend(part.notes)
    into.segments.extend(part.segments)
    into.problems.extend(part.problems)
    into.banners.extend(part.banners)
    into.footers.extend(part.footers)
    into.used_cells |= part.used_cells
    into.skipped.extend(part.skipped)
    if into.title is None and part.title is not None:
        into.title, into.title_where = part.title, part.title_where
    into.sheets.extend(s for s in part.sheets if s not in into.sheets)
    if skipped:
        return  # a hidden or superseded sheet never names the offer's source
    for key, value in part.source.items():
        into.source.setdefault(key, value)


def read_sheets(grids: list[SheetGrid], vocab: Vocabulary, record: RawRecord,
                base_id: str) -> list[RawRecord]:
    """Read every sheet into `record` (the file's one offer, or what its offers share) and
    return the extra records when the file holds several offers."""
    sheets: list[tuple[SheetGrid, RawRecord, list[RawRecord]]] = []
    replaced = replaced_sheets(grids)  # "ANULADA, sustituida por 'Tarifas 2026'"
    for grid in grids:
        if grid.name is not None and grid.name.lower().startswith("evaltool"):
            continue  # our own drop-down lists in the RFP template
        part = RawRecord(id=base_id, source={"file": record.source.get("file")})
        if grid.name is not None:
            part.source["sheet"] = grid.name
            if not grid.hidden:
                part.sheets.append(grid.name)
        part.problems.extend(grid.problems)  # over-long cells, named by cell
        marker = None if grid.hidden else superseded(grid, vocab) or replaced.get(
            grid.name or "")
        if marker is not None:
            where = Location(grid.file, sheet=grid.name)
            part.skipped.append((where, "superseded sheet"))
            part.problems.append(Problem(
                where, found=marker[:120], severity="warning", code="superseded-sheet-skipped",
                params={"marker": marker[:80]}))
            part.sheets.clear()
            sheets.append((grid, part, []))
            continue
        extra = read_grid(grid, vocab, part, base_id)
        if not extra and not is_contract_sheet(grid.name):
            extra = stacked_blocks(grid, vocab, part, base_id) or options_in_prose(
                grid, vocab, part, base_id) or priced_bullets(grid, vocab, part, base_id)
        sheets.append((grid, part, extra))
    join_across_sheets([g for g, _, _ in sheets], [p for _, p, _ in sheets], vocab)
    offer_sheets = [(g, p) for g, p, extra in sheets
                    if not extra and not g.hidden and states_an_offer(p.candidates, vocab)]
    split = len(offer_sheets) >= 2
    extra_records: list[RawRecord] = []
    for grid, part, extra in sheets:
        if split and any(part is p for _, p in offer_sheets):
            name = grid.name or f"sheet {len(extra_records) + 1}"
            part.id = f"{base_id}-{slug(name)}"
            part.source["option"] = name
            part.candidates.append(Candidate("offer name", name, Location(grid.file,
                                                                          sheet=grid.name)))
            part.problems.append(Problem(
                Location(grid.file, sheet=grid.name), severity="info", code="options-in-sheets",
                params={"name": name}))
            extra_records.append(part)
            continue
        _absorb(record, part, skipped=grid.hidden or (grid.name is not None and not part.sheets))
        extra_records.extend(extra)
    # "Specs | GB200 NVL72 | HGX B200": the facts of the quote lines naming each product
    extra_records = specs_by_product(extra_records, vocab)
    offers = line_groups(record, extra_records, base_id)
    options_in_notes(record, offers)  # an option a note offers and no table prices: said
    return offers


def line_groups(record: RawRecord, extra: list[RawRecord], base_id: str) -> list[RawRecord]:
    """Line items that name their option ("Lot 1 — Training" in a Lot column) belong to that
    option: to the option of the same name found elsewhere (a lot per column on a specs
    sheet), or to an offer of their own.  Lines of no option are shared by all."""
    groups: dict[str, list[LineItem]] = {}
    for item in record.line_items:
        name = item.raw.get("group", "").strip()
        if name:
            groups.setdefault(name, []).append(item)
    if len(groups) < 2:
        return extra
    shared = [item for item in record.line_items if not item.raw.get("group", "").strip()]
    by_name = {normalise_label(str(r.source.get("option", ""))): r for r in extra}
    if extra and not all(normalise_label(g) in by_name for g in groups):
        return extra  # the groups are not the options found elsewhere: leave the lines shared
    out = list(extra)
    for name, items in groups.items():
        target = by_name.get(normalise_label(name))
        if target is None:
            source = {**record.source, "option": name}
            target = RawRecord(id=f"{base_id}-{slug(name)}", source=source)
            target.candidates.append(Candidate("offer name", name, items[0].row_where))
            out.append(target)
        target.line_items.extend(items)
        target.problems.append(Problem(
            items[0].row_where, severity="info", code="options-in-line-groups",
            params={"name": name}))
    for target in out:
        target.line_items.extend(shared)
    record.line_items = []
    return out


def _block_heading(grid: SheetGrid, r: int) -> str | None:
    filled = [grid.rows[r][c] for c in filled_columns(grid, r)]
    if len(filled) != 1 or not isinstance(filled[0], str):
        return None
    text = cell_text(filled[0])
    if len(text.split()) > MAX_LABEL_WORDS or len(text) > 60 or re.search(r":\s*\S", text):
        return None  # a sentence, or a one-cell "Label: value" line
    return text


def stacked_blocks(grid: SheetGrid, vocab: Vocabulary, record: RawRecord,
                   base_id: str) -> list[RawRecord]:
    """Offers stacked down one sheet, each under a one-cell heading; [] when the sheet
    holds fewer than two whole offers that way."""
    headings = [(r, text) for r in range(len(grid.rows))
                if (text := _block_heading(grid, r)) is not None]
    if len(headings) < 2:
        return []
    # Two whole offers name two accelerators under their labels: a cheap test first.
    accelerators = 0
    for row in grid.rows:
        first = next((v for v in row if not is_empty(v)), None)
        if isinstance(first, str) and vocab.match(first) == "accelerator":
            accelerators += 1
    starts = headings
    if accelerators < 2:
        # Or the headings enumerate options ("OPTION 1 - 1-YEAR", "OPTION 2 - 3-YEAR") and
        # each block prices its option; what they share (the accelerator) is said elsewhere.
        starts = [(r, t) for r, t in headings if names_an_option(t, vocab)]
        if not enumerates_options([t for _, t in starts], vocab):
            return []
    blocks: list[tuple[int, int, str, RawRecord]] = []
    for r, text in starts:
        end = _block_end(grid, r, next((h for h, _ in headings if h > r), len(grid.rows)))
        probe = RawRecord(id=base_id, source={})
        key_values(grid, range(r + 1, end), set(), vocab, probe)
        slots = {vocab.match(c.label, c.section) for c in probe.candidates}
        if states_an_offer(probe.candidates, vocab) or (starts is not headings
                                                        and slots & _PRICE_SLOTS):
            blocks.append((r, end, text, probe))
    if len(blocks) < 2:
        return []
    # The record read the whole sheet already: keep only what lies outside the blocks.
    inside = {row for r, end, _, _ in blocks for row in range(r, end)}
    record.candidates = [c for c in record.candidates if not _in_rows(c.where, inside)]
    record.notes = [(t, w) for t, w in record.notes if not _in_rows(w, inside)]
    record.problems = [p for p in record.problems if p.code != "price-by-basis-label"
                       or p.where is None or not _in_rows(p.where, inside)]  # said again
    records: list[RawRecord] = []
    for r, _end, text, probe in blocks:
        name = text.strip(" \u3010\u3011[]()<>:")
        source = dict(record.source)
        source["option"] = name
        source["row"] = r + 1
        probe.id = f"{base_id}-{slug(name)}"
        probe.source = source
        probe.candidates.append(Candidate("offer name", name, grid.where(r, next(
            c for c, v in enumerate(grid.rows[r]) if not is_empty(v)))))
        probe.problems.append(Problem(
            grid.where(r, 0), severity="info", code="options-in-blocks", params={"name": name}))
        records.append(probe)
    return records


def _block_end(grid: SheetGrid, start: int, limit: int) -> int:
    """A stacked block ends at the next heading, or earlier at two blank rows in a row: the
    rows after the last option ("Internet egress", "Support plan" under a gap) are what the
    options share, not the last option's own."""
    blank = [all(is_empty(v) for v in grid.rows[k]) for k in range(start, limit)]
    for k in range(1, len(blank) - 1):
        if blank[k] and blank[k + 1] and not all(blank[k:]):
            return start + k
    return limit


def _in_rows(where: Location, rows: set[int]) -> bool:
    cell = where.cell or ""
    digits = "".join(ch for ch in cell if ch.isdigit())
    return bool(digits) and cell[:1].isalpha() and int(digits) - 1 in rows
