"""Offers a user states cell by cell in a mapping file (`--map`): the escape hatch for any layout.

A vendor's layout the reader cannot take apart (a models x regions price grid whose GPU
counts sit in a second grid, facts scattered over sheets) is taught once by naming each
offer's cells:

    offers:
      H200 Madrid:
        accelerator: "='Tarifas 2026'!A6"    # a cell, written as a spreadsheet reference
        price_usd_per_gpu_hour: "='Tarifas 2026'!B6"
        gpu_count: "='Tarifas 2026'!B11"
        region: Madrid                      # or a value, as it is
      H200 Barcelona: {...}

Each named offer is one offer: its stated fields first, then everything the reader found
outside the mapped cells, shared by all (currency, vendor, terms).  A reference is written
with a leading "=" so that a value such as "A100" is never taken for cell A100.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaltool.errors import Location, Problem, UsageError
from evaltool.models import CANONICAL_FIELDS
from evaltool.read.cells import Candidate, RawRecord, SheetGrid, cell_position, is_empty

# "=B6", "=Quote!B6", "='Tarifas 2026'!B6" (quotes as a spreadsheet writes a sheet with spaces)
_REFERENCE = re.compile(r"^=\s*(?:(?:'(?P<quoted>(?:[^']|'')+)'|(?P<sheet>[^'!]+))!)?"
                        r"\$?(?P<col>[A-Za-z]{1,3})\$?(?P<row>[0-9]{1,7})\s*$")


@dataclass(frozen=True)
class MappedValue:
    """One field of a mapped offer: a cell of the workbook, or a value written in the map."""

    sheet: str | None = None
    cell: str | None = None
    value: Any = None

    @property
    def is_cell(self) -> bool:
        return self.cell is not None


def parse_mapped_offers(data: Any, mapping_path: str) -> dict[str, dict[str, MappedValue]]:
    """The `offers:` key of a mapping file; UsageError naming the key that is wrong."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise UsageError(Problem(Location(mapping_path, key="offers"),
                                 code="mapping-offers-invalid",
                                 params={"found": type(data).__name__}))
    known = set(CANONICAL_FIELDS)
    offers: dict[str, dict[str, MappedValue]] = {}
    for name, fields in data.items():
        if not isinstance(fields, dict) or not fields:
            raise UsageError(Problem(Location(mapping_path, key=f"offers.{name}"),
                                     code="mapping-offers-invalid",
                                     params={"found": type(fields).__name__}))
        stated: dict[str, MappedValue] = {}
        for field_name, spec in fields.items():
            key = f"offers.{name}.{field_name}"
            if str(field_name) not in known:
                raise UsageError(Problem(Location(mapping_path, key=key),
                                         code="mapping-unknown-field", params={
                                             "target": repr(field_name),
                                             "fields": ", ".join(sorted(known))}))
            stated[str(field_name)] = _mapped_value(spec, mapping_path, key)
        offers[str(name)] = stated
    return offers


def _mapped_value(spec: Any, mapping_path: str, key: str) -> MappedValue:
    if isinstance(spec, str) and spec.strip().startswith("="):
        ref = _REFERENCE.match(spec.strip())
        if ref is None:
            raise UsageError(Problem(Location(mapping_path, key=key),
                                     code="mapping-bad-reference", params={"ref": repr(spec)}))
        quoted = ref.group("quoted")
        sheet = quoted.replace("''", "'") if quoted else ref.group("sheet")
        return MappedValue(sheet=sheet.strip() if sheet else None,
                           cell=f"{ref.group('col').upper()}{ref.group('row')}")
    return MappedValue(value=spec)


def offers_from_mapping(records: list[RawRecord], offers: dict[str, dict[str, MappedValue]],
                        grids: list[SheetGrid], mapping_path: str, path: Path) -> list[RawRecord]:
    """One record per mapped offer: its stated fields, then what the reader found elsewhere."""
    by_name = {g.name: g for g in grids}
    default = grids[0].name if grids else None
    mapped_cells = {(v.sheet if v.sheet is not None else default, v.cell)
                    for fields in offers.values() for v in fields.values() if v.is_cell}
    first = records[0] if records else RawRecord(id=path.stem, source={"file": str(path)})
    shared: list[Candidate] = []
    seen: set[tuple[str | None, str | None]] = set()
    for record in records:
        for cand in record.candidates:
            key = (cand.where.sheet, cand.where.cell)
            if cand.label == "offer name" or key in mapped_cells or key in seen:
                continue
            seen.add(key)
            shared.append(cand)
    out: list[RawRecord] = []
    for name, fields in offers.items():
        own = {(v.sheet if v.sheet is not None else default, v.cell)
               for v in fields.values() if v.is_cell}
        others = mapped_cells - own  # another offer's cells say nothing of this one
        source = {k: v for k, v in first.source.items() if k not in ("options", "row", "rows")}
        source["option"] = name
        if own:  # the offer lives where its cells are (derived values cite that sheet)
            source["sheet"] = sorted(own, key=lambda c: (c[0] or "", c[1] or ""))[0][0]
        target = RawRecord(id=f"{first.id.split('-row-')[0]}-{_slug(name)}", source=source)
        target.candidates.append(Candidate("offer name", name,
                                           Location(mapping_path, key=f"offers.{name}")))
        for field_name, spec in fields.items():
            label = field_name.replace("_", " ")
            if not spec.is_cell:
                target.candidates.append(Candidate(label, spec.value, Location(
                    mapping_path, key=f"offers.{name}.{field_name}")))
                continue
            sheet = spec.sheet if spec.sheet is not None else default
            grid = by_name.get(sheet)
            if grid is None:
                raise UsageError(Problem(Location(mapping_path,
                                                  key=f"offers.{name}.{field_name}"),
                                         code="mapping-bad-reference",
                                         params={"ref": repr(f"{sheet}!{spec.cell}")}))
            value = _value_at(grid, spec.cell or "")
            where = Location(str(path), sheet=sheet, cell=spec.cell)
            if is_empty(value):
                target.problems.append(Problem(where, severity="warning",
                                               code="mapping-cell-empty",
                                               params={"field": field_name, "option": name}))
                continue
            target.candidates.append(Candidate(label, value, where))
        target.candidates.extend(shared)
        for part in ("banners", "footers", "segments", "line_items", "skipped"):
            setattr(target, part, list(getattr(first, part)))
        target.notes = [(text, where) for record in records for text, where in record.notes
                        if (where.sheet, where.cell) not in others]
        target.problems.extend(p for p in first.problems if p.code not in (
            "options-in-columns", "options-in-sheets", "options-in-blocks"))
        target.properties = dict(first.properties)
        target.title, target.title_where = first.title, first.title_where
        out.append(target)
    return out


def _value_at(grid: SheetGrid, cell: str) -> Any:
    position = cell_position(cell)
    return None if position is None else grid.merged_value(*position)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "offer"
