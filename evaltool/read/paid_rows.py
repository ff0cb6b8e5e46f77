"""What the buyer pays: the money rows under and among a quote's lines.

A quote states its money in order below its lines: a subtotal, a discount, the net amount,
the tax and the gross total ("Zwischensumme | abzgl. Projektrabatt 6 % | Nettobetrag | zzgl.
MwSt. 19 % | Gesamtbetrag (brutto)"); a discount may also stand among the lines, under the
line it is given on ("Korting jaarcontract 8% op regel 1 | -€ 5.326,08").  Each such row is
read by its words (evaltool/data/paid_words.yaml, any language) and its sign:

- a **tax** row ("BTW 21%", "zzgl. MwSt. 19 %", "GST — nil") ends what is read: every total
  after it holds the tax, and the capex or price is the figure before tax;
- a **discount** row (a negative figure, or discount words) applies to the lines it names
  ("lines 1–4", "op regel 1", "auf Pos. 1"), else to the one line whose total times its
  percentage is its amount, else (under the lines) to every line above it; each line it
  applies to carries the share (`LineItem.discounts`), so a rental's price per hour and a
  purchase's line sum are what is paid.  A discount among the lines that names no line and
  whose amount fits none is not applied, and said (code `discount-not-placed`): the lines
  keep their list prices rather than a guess;
- a **total** before tax is the quote's total ("total below the lines": normalize/derive.py
  takes the lowest the lines explain); a discount with no total after it gives that total
  worked out (the last total less the discount), said as such.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

from evaltool.catalog import recognise_accelerator
from evaltool.errors import EvaltoolError, Location, Problem
from evaltool.grammar.basis import once_re
from evaltool.read.cells import Candidate, LineItem, RawRecord, SheetGrid, cell_text
from evaltool.read.price_columns import is_net_column, names_a_list_rate
from evaltool.read.text import first_number
from evaltool.read.tiers import grid_words
from evaltool.read.vocabulary import Vocabulary, normalise_label
from evaltool.resources import data_dir

# The totals under a table ("Subtotal", "Volume discount 6%", "Freight", "TOTAL (USD)") sit
# within this many rows of its last line.
MAX_TOTAL_ROWS = 8
# A total with tax, or a total per month or year, is never the quote's one-off total.
_NOT_ONE_OFF_TOTAL_RE = re.compile(
    r"\b(?:incl\w*|inkl\w*|vat|tax|tva|mwst|moms|iva|btw|brutto|gross|ttc|month\w*|monat\w*|"
    r"mois|mensu\w*|mes|mese|maand\w*|m[åa]ned\w*|m[åa]nad\w*|miesi\w*|m[ěe]s[íi]\w*|md|"
    r"year\w*|annual\w*|jahr\w*|ann[ée]e|a[ñn]o|anno|per|pro|je|par|por)\b", re.I)
_PERCENT_RE = re.compile(r"(\d{1,3}(?:[.,]\d{1,3})?)\s*%")
_SHARE_RE = re.compile(r"^\s*[-−–]?\s*(\d{1,2}(?:[.,]\d{1,3})?)\s*%\s*$")
_PERCENT_ONLY_RE = re.compile(r"^\s*[-−–]?\s*\d{1,3}(?:[.,]\d{1,3})?\s*%\s*$")
_MONEY_TEXT_RE = re.compile(
    r"^\s*\(?\s*[-−–]?\s*(?:[A-Z]{3}|[$€£¥]|kr|zł|Kč)?\s*[-−–]?\s*\d[\d.,'\s\u202f\u00a0]*"
    r"\s*(?:[A-Z]{3}|[$€£¥]|kr\.?|zł|Kč|,-)?\s*\)?\s*$")
# How close a discount's amount must come to its share of a line (rounding in quotes).
_TOLERANCE = 0.005


@functools.cache
def _words() -> dict[str, tuple[str, ...]]:
    import yaml

    raw = yaml.safe_load((data_dir() / "paid_words.yaml").read_text(encoding="utf-8"))
    words = {k: tuple(sorted({normalise_label(str(w)) for w in v} - {""}, key=len,
                             reverse=True)) for k, v in raw.items()}
    words["less"] = tuple(sorted({*words["less"], *(normalise_label(w) for w in grid_words()[
        "discount"] if w not in ("off",))} - {""}, key=len, reverse=True))
    return words


@functools.cache
def _key_re(key: str) -> re.Pattern[str]:
    """A key's words as whole words of a folded label; a discount word also ends a compound
    ("Projektrabatt", "Mengenrabatt", "Volumekorting", "Jahresnachlass")."""
    words = "|".join(re.escape(w) for w in _words()[key])
    whole = rf"(?<!\S)(?:{words})(?!\S)"
    if key != "less":
        return re.compile(whole)
    compound = "|".join(re.escape(w) for w in _words()[key] if len(w) >= 5 and " " not in w)
    return re.compile(rf"{whole}|(?:{compound})(?!\S)")


def _has(label: str, key: str) -> bool:
    return _key_re(key).search(label) is not None


@functools.cache
def _line_ref_re() -> re.Pattern[str]:
    words = "|".join(re.escape(w) for w in _words()["line_words"])
    return re.compile(rf"(?<![^\W\d_])(?:{words})\.?\s*((?:\d{{1,3}}\s*(?:[-–—,&/+]|\s(?:to|bis|"
                      rf"tot|t/m|a|à|al|do|til|till|and|und|en|et|y|e|i|og|och|ve)\s|\s)\s*)*"
                      rf"\d{{1,3}})(?!\d)", re.I)


def line_numbers(label: str) -> set[int] | None:
    """'Less: partner discount 6% on hardware (lines 1–4)' -> {1, 2, 3, 4}; 'op regel 1' ->
    {1}; None when the label names no line."""
    folded = "".join(ch for ch in unicodedata.normalize("NFKD", label)
                     if not unicodedata.combining(ch))
    found = _line_ref_re().search(folded)
    if not found:
        return None
    numbers: set[int] = set()
    for part in re.split(r"\s*(?:,|&|/|\+|\s(?:and|und|en|et|y|e|i|og|och|ve)\s)\s*",
                         found.group(1)):
        span = re.findall(r"\d{1,3}", part)
        if len(span) == 2 and re.search(r"[-–—]|\s(?:to|bis|tot|t/m|a|à|al|do|til|till)\s", part):
            low, high = int(span[0]), int(span[1])
            if 0 < low <= high <= low + 200:
                numbers.update(range(low, high + 1))
                continue
        numbers.update(int(s) for s in span)
    return numbers or None


@functools.lru_cache(maxsize=8192)
def row_role(label: str, negative: bool) -> str:
    """'tax', 'gross' (a total with the tax in it), 'discount' or 'total', by the label's
    words (folded) and the figure's sign."""
    words = normalise_label(label)
    if _has(words, "tax"):
        if _has(words, "with_tax"):
            return "gross"
        return "total" if _has(words, "without_tax") else "tax"
    if negative or _has(words, "less"):
        return "discount"
    return "gross" if _has(words, "with_tax") else "total"


def _figure(value: Any) -> tuple[float, bool] | None:
    """A money cell's amount and whether it is negative ('-€ 5.326,08', '(1,200.00)')."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return abs(float(value)), value < 0
    if isinstance(value, str) and _MONEY_TEXT_RE.match(value) and re.search(r"\d", value):
        amount = first_number(value)
        if amount is None:
            return None
        text = value.strip()
        return amount, text.startswith(("-", "−", "–", "(")) or bool(re.match(
            r"^(?:[A-Z]{3}|[$€£¥])\s*[-−–]", text))
    return None


def share_of(value: Any) -> float | None:
    """'10%', '10 %', 0.1 (a cell formatted as a percentage), 0: a share of a price."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if 0 <= value < 1 else None
    found = _SHARE_RE.match(str(value))
    return float(found.group(1).replace(",", ".")) / 100.0 if found else None


def share_in(label: str) -> float | None:
    """'abzgl. Projektrabatt 6 %' -> 0.06."""
    found = _PERCENT_RE.findall(label)
    if len(found) != 1:
        return None
    share = float(found[0].replace(",", ".")) / 100.0
    return share if 0 < share < 1 else None


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= max(_TOLERANCE * max(abs(a), abs(b)), 0.011)


def is_discount_line(desc: str, figures: list[Any]) -> bool:
    """A line of a quote that is a discount, not a thing bought: a negative figure ("Rabatt
    Jahresvertrag 5 % auf Pos. 1 | 1 | Monat | -3.600,00 €"), or discount words with a
    percentage in a description that names no accelerator ("Volume discount 6%")."""
    if any((f := _figure(v)) is not None and f[1] for v in figures):
        return True
    if row_role(desc, False) != "discount" or share_in(desc) is None:
        return False
    try:
        recognise_accelerator(desc)
    except EvaltoolError:
        return True
    return False


def _row_label(grid: SheetGrid, k: int, total_col: int,
               desc_col: int | None = None) -> tuple[int, str] | None:
    """The row's label: its description cell, else the one label left of the total column
    (a percentage beside it is the share, not a second label)."""
    if desc_col is not None and isinstance(grid.value(k, desc_col), str) and cell_text(
            grid.value(k, desc_col)).strip():
        return desc_col, cell_text(grid.value(k, desc_col))
    labels = [(c, cell_text(v)) for c, v in enumerate(grid.rows[k][:total_col])
              if isinstance(v, str) and v.strip() and not _PERCENT_ONLY_RE.match(v)]
    return labels[0] if len(labels) == 1 else None


def _number_of(item: LineItem, ordinal: int) -> int:
    """A line's number: its position column ('Pos. 1') when it is a whole number, else its
    place among the table's lines."""
    part = item.raw.get("part", "").strip().rstrip(".")
    return int(part) if part.isdigit() else ordinal


def discount_targets(label: str, amount: float | None, share: float | None,
                     items: list[LineItem], under: bool, running: float | None = None
                     ) -> tuple[list[LineItem], float] | None:
    """The lines a discount applies to and its share of them, or None when that cannot be
    told.  `items` are the table's lines above the discount row; `under`: the row stands
    under the last line (among the totals), where a discount naming no line is on them all;
    `running`: the quote's total above it (its lines and the charges under them)."""
    numbers = line_numbers(label)
    totals = [(i, i.total if i.total is not None else (
        (i.unit_price or 0.0) * (i.quantity or 1.0))) for i in items]
    if numbers is not None:
        named = [(i, t) for n, (i, t) in enumerate(totals, start=1)
                 if _number_of(i, n) in numbers]
        if not named:
            return None
        base = sum(t for _, t in named)
        if share is None and amount is not None and base > 0:
            share = amount / base
        return ([i for i, _ in named], share) if share is not None and 0 < share < 1 else None
    if share is not None and amount is not None:
        single = [i for i, t in totals if t and _close(share * t, amount)]
        if len(single) == 1:
            return single, share
        if _close(share * sum(t for _, t in totals), amount) or (
                under and running and _close(share * running, amount)):
            return [i for i, _ in totals], share
        return None  # the amount is no share of a line or of the lines: cannot tell
    if not under:
        return None
    base = running or sum(t for _, t in totals)
    if share is None and amount is not None and base > 0:
        share = amount / base
    return ([i for i, _ in totals], share) if share is not None and 0 < share < 1 else None


def read_paid_rows(grid: SheetGrid, lines: set[int], items: dict[int, LineItem],
                   roles: dict[str, int], record: RawRecord, vocab: Vocabulary) -> None:
    """The money rows among and under a line-item table (see the module's words): discounts
    onto their lines, the quote's totals before tax as candidates."""
    total_col = roles.get("total")
    if total_col is None or not lines:
        return
    first_line, last_line = min(lines), max(lines)
    words = "|".join(re.escape(w) for w in sorted(vocab.total_words, key=len, reverse=True))
    names_total = re.compile(rf"(?:^|\s)(?:sub\s?)?(?:{words})(?:\s|$)") if words else None
    running: float | None = None  # the last total before tax, less the discounts after it
    running_where: Location | None = None
    discounted, before = False, 0.0
    for k in range(first_line, min(last_line + 1 + MAX_TOTAL_ROWS, len(grid.rows))):
        if k in lines:
            continue
        figure = _figure(grid.value(k, total_col))
        labelled = _row_label(grid, k, total_col, roles.get("description"))
        if figure is None or labelled is None:
            continue
        (amount, negative), (c, label) = figure, labelled
        role = row_role(label, negative)
        if role in ("tax", "gross"):
            if k > last_line:
                break  # every total from here on holds the tax
            continue
        where = grid.where(k, total_col)
        if role == "discount":
            above = [items[r] for r in sorted(items) if r < k]
            share = share_in(" ".join(cell_text(v) for v in grid.rows[k][:total_col]
                                      if isinstance(v, str)))
            # a one-off credit ("Onboarding credit (one-time) | -5,000") lowers no rate
            once = share is None and once_re().search(label) is not None
            placed = None if once else discount_targets(
                label, amount or None, share, above, under=k > last_line, running=running)
            if placed is None:
                record.problems.append(Problem(
                    where, found=f"{label}: {cell_text(grid.value(k, total_col))}"[:120],
                    severity="warning", code="discount-not-placed", params={"label": label}))
                continue
            targets, share = placed
            for item in targets:
                item.discounts.append((share, where, label))
            if running is not None and k > last_line:
                before = running if not discounted else before
                running -= amount if amount else share * running
                discounted = True
            continue
        old_style = names_total is not None and names_total.search(normalise_label(
            label)) and not _NOT_ONE_OFF_TOTAL_RE.search(label)
        pre_tax = k > last_line and _has(normalise_label(label), "without_tax")
        if not (old_style or pre_tax or vocab.header_role(label) == "total"
                or vocab.match(label) == "quote_total"):  # ("Zwischensumme")
            if running is not None and k > last_line:
                running += amount  # "Freight | 1,200": a charge under the subtotal
            continue
        if discounted and running is not None and not _close(amount, running) and _close(
                amount, before):  # a total after the discount that does not take it off
            record.problems.append(Problem(where, found=f"{label}: {amount:,.2f}"[:120],
                                           severity="warning", code="total-before-discount",
                                           params={"label": label, "net": round(running, 2)}))
        running, running_where, discounted = amount, where, False
        if old_style or pre_tax:
            record.candidates.append(Candidate("total below the lines", amount, where,
                                               label_where=grid.where(k, c)))
    if discounted and running is not None and running_where is not None:
        # a discount under the last total, and no total after it: that total less the discount
        record.candidates.append(Candidate("total below the lines", round(running, 2),
                                           running_where, note="the total less the discount "
                                           "under it"))


def discount_column(header: list[Any], roles: dict[str, int]) -> int | None:
    """A line-item table's discount column ("Rabatt", "Discount %", "Remise"), beside its
    price and total columns."""
    found = [c for c, v in enumerate(header) if c not in roles.values() and isinstance(v, str)
             and row_role(v, False) == "discount"]
    return found[0] if len(found) == 1 else None


def price_column_kind(header: list[Any], roles: dict[str, int]) -> str | None:
    """'list' when the unit price column names a list rate ("List price (USD)"), 'net' when
    it names a net one or another column is the list rate ("List price | Net unit price"),
    else None."""
    if "unit_price" not in roles:
        return None
    head = cell_text(header[roles["unit_price"]])
    if names_a_list_rate(head):
        return "list"
    others = [cell_text(v) for c, v in enumerate(header) if c != roles["unit_price"]
              and isinstance(v, str)]
    return "net" if is_net_column(head) or any(names_a_list_rate(h) for h in others) else None


def column_discount(grid: SheetGrid, r: int, col: int, head: str, item: LineItem,
                    record: RawRecord, price_is: str | None) -> None:
    """A line's share in the discount column, applied to what it names: a total that is the
    quantity times the price less the share is the net already (the price is then the total
    over the quantity); a list price with no total is paid less the share; a total of the
    undiscounted price, or a price that does not say it is a list price with no total, cannot
    tell whether the share is in it: said, not applied (`discount-not-placed`)."""
    share = share_of(grid.value(r, col))
    price, qty = item.unit_price, item.quantity or 1.0
    if not share or price is None or price_is == "net":
        return  # (a net unit price has the share in it already)
    label = f"{head} {cell_text(grid.value(r, col))}"
    if item.total is not None and _close(item.total, qty * price * (1 - share)):
        item.unit_price = None  # the total is net: the price paid is the total / quantity
    elif item.total is None and price_is == "list":
        item.discounts.append((share, grid.where(r, col), label))
    else:
        record.problems.append(Problem(
            grid.where(r, col), found=cell_text(grid.value(r, col)), severity="warning",
            code="discount-not-placed", params={"label": label}))
