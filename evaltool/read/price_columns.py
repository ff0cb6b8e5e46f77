"""What each figure column of a price grid is, when a grid states more than prices.

A private offer or a rate card often sets beside each row's price what that price is not:
the list (public, on-demand, catalogue) rate it was discounted from, the discount itself as
a share, and the quantity the row commits to ("Region | Committed instances | On-demand (list)
| Private offer rate | Discount vs list").  Read as prices, each row would be several offers
(one of them a list rate nobody pays, one a percentage); read as a table of fields, none.

Here the figure columns of a grid are sorted by their headers (words in
evaltool/data/price_grid_words.yaml and the field vocabulary, in any language):

- a share ("Discount vs list", "Rabatt %", every cell a percentage) is left out of the
  prices: it is worked out from the two rates beside it;
- a count ("Committed instances", "Anzahl GPUs": the field vocabulary's gpu or node count,
  whole numbers) is a fact of its row's offer, as any other column of the row;
- a list rate beside a net one ("On-demand (list)" beside "Private offer rate", "Listenpreis"
  beside "Ihr Preis") is kept as the row's list price, never as an offer of its own: the buyer
  pays the net rate.  A list column beside price columns that do not say they are net makes
  those the offers' rates, and says so (code `price-grid-net-assumed`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from evaltool.errors import Location, Problem
from evaltool.grammar.money import is_list_price
from evaltool.read.cells import Candidate, RawRecord, SheetGrid, cell_text, is_empty
from evaltool.read.tiers import grid_words
from evaltool.read.vocabulary import Vocabulary

_PERCENT_RE = re.compile(r"^\s*[-−]?\d+(?:[.,]\d+)?\s*%\s*$")


@dataclass
class ColumnRoles:
    """The figure columns of a grid sorted: prices, and the rest."""

    prices: dict[int, str]
    counts: dict[int, str] = field(default_factory=dict)
    shares: dict[int, str] = field(default_factory=dict)
    lists: dict[int, int] = field(default_factory=dict)  # price column -> its list column
    list_heads: dict[int, str] = field(default_factory=dict)
    net_assumed: bool = False
    row_lists: dict[int, int] = field(default_factory=dict)  # price row -> its list row
    row_heads: dict[int, str] = field(default_factory=dict)
    row_names: dict[int, str] = field(default_factory=dict)  # price row -> its label


@functools.cache
def _words_re(key: str) -> re.Pattern[str]:
    words = sorted(grid_words()[key], key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)",
                      re.IGNORECASE)


def is_share(head: str, cells: list[Any]) -> bool:
    """'Discount vs list', 'Rabatt', or a column of percentages: shares of a price."""
    texts = [cell_text(v) for v in cells if not is_empty(v)]
    if texts and all(_PERCENT_RE.match(t) for t in texts):
        return True
    return not is_net_column(head) and _words_re("discount").search(
        re.sub(r"(?i)\b(?:off|less)\b", " ", head)) is not None  # ("Discounted rate": net)


@functools.lru_cache(maxsize=4096)  # headers and labels recur on every row tried
def is_list_column(head: str) -> bool:
    """'On-demand (list)', 'Listenpreis', 'Prix catalogue', not 'Discount vs list'."""
    return _words_re("list_column").search(head) is not None and not is_net_column(head)


@functools.lru_cache(maxsize=4096)  # headers and labels recur on every row tried
def names_a_list_rate(label: str) -> bool:
    """A labelled price that is the list rate, not the one paid: 'List rate ($/VM-hour)',
    'list_usd_per_instance_hour' (an export's key), 'On-demand (list)', 'Listenpreis'."""
    text = label.replace("_", " ")
    return is_list_price(text) or is_list_column(text)


@functools.lru_cache(maxsize=4096)  # headers and labels recur on every row tried
def is_net_column(head: str) -> bool:
    """'Private offer rate', 'Net price', 'Ihr Preis', 'Prezzo scontato'."""
    return _words_re("net_column").search(head) is not None


def _whole_numbers(cells: list[Any]) -> bool:
    found = [v for v in cells if not is_empty(v)]
    return bool(found) and all(isinstance(v, int) or (isinstance(v, float) and v.is_integer())
                               for v in found if not isinstance(v, bool))


def sort_columns(grid: SheetGrid, rows: list[int], columns: dict[int, str],
                 vocab: Vocabulary) -> ColumnRoles:
    """The grid's figure columns by role (see the module's words); with no list, share or
    count column the prices are the columns as given."""
    roles = ColumnRoles(prices={})
    for c, head in columns.items():
        cells = [grid.value(k, c) for k in rows]
        if is_share(head, cells):
            roles.shares[c] = head
        elif vocab.match(head) in ("gpu_count", "node_count") and _whole_numbers(cells):
            roles.counts[c] = head
        else:
            roles.prices[c] = head
    listed = {c: h for c, h in roles.prices.items() if is_list_column(h)}
    if listed and len(listed) < len(roles.prices):
        rest = {c: h for c, h in roles.prices.items() if c not in listed}
        roles.net_assumed = not any(is_net_column(h) for h in rest.values())
        roles.prices = rest
        roles.list_heads = listed
        for c in rest:  # each price column's list rate: the nearest list column on its left
            left = [a for a in listed if a < c]
            roles.lists[c] = max(left) if left else min(listed)
    return roles


def separate_list_rates(grid: SheetGrid, rows: list[int], labels: list[str],
                        columns: dict[int, str], attrs: dict[int, str], vocab: Vocabulary
                        ) -> tuple[dict[int, str], list[int], list[str], ColumnRoles | None]:
    """A grid's price columns and rows without its list rates, shares and counts (the
    counts join the row's other columns, `attrs`), and the roles that keep the list rates;
    the grid as given (and None) when it has none."""
    roles, lists = sort_columns(grid, rows, columns, vocab), None
    if roles.shares or roles.lists:
        columns, lists = roles.prices, roles
        attrs.update(roles.counts)
    by_rows = list_rows(rows, labels, lists or roles)
    if by_rows is not None:
        keep = [i for i, k in enumerate(rows) if k not in by_rows.row_heads]
        rows, labels, lists = [rows[i] for i in keep], [labels[i] for i in keep], by_rows
    return columns, rows, labels, lists


def list_rows(rows: list[int], labels: list[str], roles: ColumnRoles) -> ColumnRoles | None:
    """A list-rate row above or below the rows of net rates ("Listenpreis | 3,10 | 3,10" over
    "Ihr Preis | 2,40 | 1,95"): the same as list columns, down the rows.  None when no row
    is a list rate, or every row is."""
    listed = {k: label for k, label in zip(rows, labels, strict=True) if is_list_column(label)}
    if not listed or len(listed) == len(rows):
        return None
    rest = [(k, label) for k, label in zip(rows, labels, strict=True) if k not in listed]
    roles.row_heads, roles.row_names = listed, dict(rest)
    roles.net_assumed = roles.net_assumed or not any(is_net_column(label) for _, label in rest)
    for k, _ in rest:  # each price row's list rate: the nearest list row above it
        above = [a for a in listed if a < k]
        roles.row_lists[k] = max(above) if above else min(listed)
    return roles


def list_candidates(grid: SheetGrid, roles: ColumnRoles | None, k: int, c: int,
                    target: RawRecord,
                    basis: tuple[tuple[str, str], str | None, Location]) -> list[Candidate]:
    """The list rate of row k beside its net price in column c, as a list price of the same
    basis (the price reader ranks it below the net one); and, when the net column does not
    say it is net, that it was taken as the price paid."""
    (resource, time), currency, basis_where = basis
    found: list[Candidate] = []
    if roles is None:
        return found
    a, row = roles.lists.get(c), roles.row_lists.get(k)
    value = grid.value(k, a) if a is not None else grid.value(row, c) if row is not None else None
    if not is_empty(value):
        at = grid.where(k, a) if a is not None else grid.where(row or k, c)
        amount: Any = f"{currency} {cell_text(value)}" if currency and isinstance(
            value, (int, float)) else value
        found.append(Candidate(f"List price per {resource}-{time}", amount, at,
                               label_where=basis_where))
    if roles.net_assumed:
        target.problems.append(Problem(
            grid.where(k, c), found=cell_text(grid.value(k, c))[:80], severity="warning",
            code="price-grid-net-assumed",
            params={"column": roles.prices.get(c, "") if a is not None else
                    roles.row_names.get(k, ""),
                    "list": roles.list_heads.get(a, "") if a is not None else
                    roles.row_heads.get(row, "") if row is not None else ""}))
    return found
