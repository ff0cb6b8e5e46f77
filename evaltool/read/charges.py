"""Tables of recurring charges: a description column and one amount column whose header
names a currency and a time ("Monthly service | Basis | EUR / month | Notes", "Leistung |
Monatlich (EUR)", "Service | € / mois"), with no quantity or unit-price column.

A purchase + hosting quote lists the running costs of the hardware this way: colocation
("Power & space | 22 kW @ EUR 175 / kW / month | 3850"), managed services ("flat | 900"),
then the month's total.  Read as label | value pairs, a line's label names a field its
figures are not (a power in kW, a '24x7' in the notes read as an amount); read as line items
billed by that time, each is a running cost the purchase rule adds (money_lines.py).

A basis cell that states a quantity at a price per unit ("22 kW @ EUR 175 / kW / month") is
that line's quantity and unit price when they multiply to the amount; otherwise the line is
one charge per period of the header's time.  A row whose label names a total, or whose
amount is the sum of the lines above it, is their total, never a further charge.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from evaltool.errors import EvaltoolError, Location
from evaltool.grammar.basis import time_adverb
from evaltool.grammar.money import parse_money
from evaltool.read.cells import LineItem, RawRecord, SheetGrid, a1, cell_text, is_empty
from evaltool.read.headers import NOTE_HEADERS
from evaltool.read.text import billing_unit, currency_of, first_number
from evaltool.read.vocabulary import Vocabulary, normalise_label

_TIMES = frozenset({"hour", "day", "week", "month", "year"})
# "22 kW @ EUR 175 / kW / month", "4 racks x 2.900 €/rack/mois": a quantity of a unit, a
# joining mark or word, then a price.
_QTY_AT_PRICE_RE = re.compile(
    r"^\s*(?P<qty>\d+(?:[.,]\d+)?)\s*(?P<unit>[^\W\d_]{1,8})\s*(?:@|at|à|a|x|×|zu|por|per)\s+"
    r"(?P<price>.+)$", re.IGNORECASE)


def charges_header(row: Sequence[Any], vocab: Vocabulary) -> dict[str, int] | None:
    """{'description', 'amount', 'unit'?, 'note'?, 'time' (as a column index of the
    amount)} for a header of recurring charges, else None."""
    filled = [(c, v) for c, v in enumerate(row) if not is_empty(v)]
    if not 2 <= len(filled) <= 6 or not all(  # (a header names; it states no figure)
            isinstance(v, str) and len(v.split()) <= 5 and not re.search(r"\d", v)
            for _, v in filled):
        return None
    roles: dict[str, int] = {}
    amounts = [c for c, v in filled if currency_of(v) and _time(v)]
    if len(amounts) != 1:
        return None
    for c, v in filled:
        role = vocab.header_role(v)
        if role in ("quantity", "unit_price"):
            return None  # a line-item table: read as such
        if c == amounts[0]:
            continue
        if normalise_label(v) in NOTE_HEADERS:
            roles.setdefault("note", c)
        elif role == "unit":
            roles.setdefault("unit", c)
        elif role in ("description", "part") and c < amounts[0]:
            roles.setdefault("description", c)
    if "description" not in roles:  # "Leistung", "Prestation": the first column of texts
        taken = set(roles.values())
        first = next((c for c, _ in filled if c < amounts[0] and c not in taken), None)
        if first is None:
            return None
        roles["description"] = first
    roles["amount"] = amounts[0]
    return roles


def _time(text: str) -> str | None:
    found = billing_unit(text) or time_adverb(text)
    return found if found in _TIMES else None


def charge_lines(grid: SheetGrid, header: int, roles: dict[str, int], record: RawRecord,
                 vocab: Vocabulary) -> set[int]:
    """Read the charges under the header into `record` as line items billed by the header's
    time; return the rows read (lines and the total under them)."""
    head = cell_text(grid.value(header, roles["amount"]))
    time, currency = _time(head) or "month", currency_of(head)
    used: set[int] = set()
    total_re = _total_re(vocab)
    first = len(record.line_items)
    for k in range(header + 1, len(grid.rows)):
        desc = cell_text(grid.value(k, roles["description"]))
        amount_cell = grid.value(k, roles["amount"])
        amount = _figure(amount_cell)
        if not desc or amount is None:
            break
        where = Location(grid.file, sheet=grid.name,
                         cell=f"{a1(k, 0)}:{a1(k, max(roles.values()))}")
        used.add(k)
        above = [i.total or 0.0 for i in record.line_items[first:]]
        if (total_re is not None and total_re.search(normalise_label(desc))) or (
                len(above) >= 2 and abs(sum(above) - amount) <= 0.005 * amount):
            # a total by its words, or by its figure (the sum of the lines above it)
            record.skipped.append((grid.where(k, roles["amount"]),
                                   f"the total of the charges above ({desc})"))
            continue
        basis = cell_text(grid.value(k, roles["unit"])) if "unit" in roles else ""
        qty, unit, price = 1.0, time, amount
        split = _quantity_at_price(basis, amount)
        if split is not None:
            qty, unit, price = split
        raw = {"description": desc, "total": cell_text(amount_cell)}
        if basis:
            raw["unit"] = basis
        if "note" in roles and cell_text(grid.value(k, roles["note"])):
            raw["note"] = cell_text(grid.value(k, roles["note"]))
        cells = {"description": grid.where(k, roles["description"]),
                 "total": grid.where(k, roles["amount"]),
                 "unit_price": grid.where(k, roles.get("unit", roles["amount"]))}
        record.line_items.append(LineItem(
            row_where=where, description=desc, quantity=qty, unit=unit, unit_price=price,
            total=amount, currency=currency_of(f"{basis} {raw['total']}") or currency,
            cells=cells, raw=raw))
    return used


def _figure(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    text = cell_text(value).strip()  # "3 850", "€ 3.850,00": a figure, maybe with its currency
    if not re.fullmatch(r"[^\d\s]{0,4}\s?\d[\d.,'\s\u202f\u00a0]*\s?[^\d\s]{0,4}", text) or (
            re.search(r"[^\W\d_]", text) and currency_of(text) is None):
        return None  # "24 mois" is a duration, not an amount
    return first_number(text)


def _quantity_at_price(basis: str, amount: float) -> tuple[float, str, float] | None:
    """'22 kW @ EUR 175 / kW / month' beside 3850: (22, 'kW/month', 175) when the two
    multiply to the amount; None otherwise."""
    match = _QTY_AT_PRICE_RE.match(basis)
    if match is None:
        return None
    qty = first_number(match["qty"])
    try:
        money = parse_money(match["price"])
    except EvaltoolError:
        return None
    if not qty or len(money.per) != 2 or abs(qty * money.amount - amount) > 0.01 * amount:
        return None
    return qty, "/".join(money.per).replace("kw", "kW"), money.amount


def _total_re(vocab: Vocabulary) -> re.Pattern[str] | None:
    if not vocab.total_words:
        return None
    words = "|".join(re.escape(w) for w in sorted(vocab.total_words, key=len, reverse=True))
    return re.compile(rf"(?:^|\s)(?:sub\s?)?(?:{words})(?:\s|$)")
