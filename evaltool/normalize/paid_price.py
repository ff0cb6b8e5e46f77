"""Which labelled price the buyer pays: net beats list.

A calculator or a private offer states a price several times: the list or base rate, the
discount, and the net rate ("Precio base por acelerador-hora | 2,10", "Descuento por volumen |
10%", "Precio neto por acelerador-hora | 1,89"). The buyer pays the net one. Each labelled
compute price gets a rank by its label's words (the list and net column words of
evaltool/data/price_grid_words.yaml, any language):
-1 for a list or base price (the price before the discount: the price only when no other is
stated), +1 for a net, effective or discounted price (it beats a price whose label says
neither), 0 otherwise. Between two prices of the same rank the first stated is used, and the
other is said (`second-compute-price`).

A discount stated as a labelled share ("Descuento por volumen | 10%") applies to the price it
names: to a list or base price with no net one stated (the buyer pays it less the
discount); beside a price that says neither, it is said, as the figure may be before or after
it (never picked silently).
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from evaltool.errors import Location
from evaltool.models import FieldSource
from evaltool.normalize.facts import _Priced
from evaltool.normalize.noted_options import discount_of
from evaltool.normalize.phrases import clauses
from evaltool.read.cells import Candidate, cell_text
from evaltool.read.discount_tiers import APPLIED, TIER_NOTE
from evaltool.read.paid_rows import row_role, share_of
from evaltool.read.price_columns import is_net_column, names_a_list_rate
from evaltool.read.text import currency_of, first_number
from evaltool.read.tiers import grid_words, marks_applied, parse_range, unit_of
from evaltool.read.vocabulary import normalise_label
from evaltool.resources import data_dir

if TYPE_CHECKING:  # (slots.py reads each price's rank from here)
    from evaltool.normalize.slots import SlotReaders


@functools.cache
def _words(key: str) -> tuple[str, ...]:
    import yaml

    raw = yaml.safe_load((data_dir() / "paid_words.yaml").read_text(encoding="utf-8"))
    return tuple(sorted({normalise_label(str(w)) for w in raw[key]} - {""}, key=len,
                        reverse=True))


def _says(label: str, key: str) -> bool:
    padded = f" {normalise_label(label)} "
    return any(f" {w} " in padded for w in _words(key))


def paid_rank(label: str) -> int:
    """'List $/GPU-hr', 'Precio base (€)' -> -1; 'Net $/GPU-hr', 'Precio neto' -> 1; else 0:
    the words of a list and of a net price column (read/price_columns.py), one vocabulary."""
    if names_a_list_rate(label) or row_role(label, False) == "gross":
        return -1  # (a price with the tax in it is no price compared: tax is recovered)
    return 1 if is_net_column(label.replace("_", " ")) else 0


def stated_discounts(candidates: list[Candidate]) -> list[tuple[float, Candidate]]:
    """The discounts an offer states as a labelled share ('Descuento por volumen | 10%',
    'Mengenrabatt | 0,1', 'Committed-use discount | 15%'), tiers apart."""
    found = []
    for cand in candidates:
        share = share_of(cand.value)
        if share and not (cand.note or "").startswith(TIER_NOTE) and row_role(
                cand.label, False) == "discount" and not _says(cand.label, "versus"):
            found.append((share, cand))
    return found


def _offers_option(clause: str) -> bool:
    """'PREPAY OPTION: ...', 'pay the 12 months in advance': an option of its own, read by
    normalize/noted_options.py (the words: evaltool/data/price_grid_words.yaml)."""
    low = clause.lower()
    return any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", low) if w.isascii() else w in low
               for key in ("option", "prepay") for w in grid_words()[key])


def noted_discounts(notes: list[tuple[str, Location]], on_list: bool
                    ) -> list[tuple[float, Candidate]]:
    """The discounts a note states, not as an option of its own ("A 20% discount off the
    list rates above applies to this order"; an option or a prepayment is read by
    normalize/noted_options.py): each as a share and a candidate of the note's clause, the
    share 0 when the clause does not say it is off the list price or that it applies (then it
    is only said)."""
    found: list[tuple[float, Candidate]] = []
    for text, where in notes:
        for clause in clauses(text):
            share = discount_of(clause)
            if share is None or _offers_option(clause):
                continue
            names = on_list and (names_a_list_rate(clause) or marks_applied(clause))
            found.append((share if names else 0.0, Candidate("note", clause[:120], where)))
    return found


def keep_tier_price(b: SlotReaders, values: dict[str, Any]) -> None:
    """Price tiers of one line ("tiered_pricing", read/price_tiers.py): the tier whose range
    holds the offer's count is its price (`price-tier-chosen`); when none or several do, no
    tier is (`price-tier-unchosen`): a tier is never picked silently."""
    tiers = [p for p in b.priced if p.role == "compute" and (p.note or "").startswith(
        TIER_NOTE)]
    if not tiers:
        return
    holding = [p for p in tiers if _tier_holds(p.note or "", values)]
    kept = holding[0] if len(holding) == 1 else None
    b.priced[:] = [p for p in b.priced if p not in tiers or p is kept]
    text = "; ".join((p.note or "")[len(TIER_NOTE):] + f": {p.raw}" for p in tiers)[:200]
    if kept is not None:
        kept.note = f"the tier {(kept.note or '')[len(TIER_NOTE):]} holds the offer's count"
        b.note(kept.where, "price-tier-chosen", {"tier": kept.note, "tiers": text},
               "price_usd_per_gpu_hour", kept.raw, severity="info")
    else:
        b.note(tiers[0].where, "price-tier-unchosen", {"tiers": text},
               "price_usd_per_gpu_hour")


def _tier_holds(note: str, values: dict[str, Any]) -> bool:
    """A tier whose range holds the offer's committed spend (a range in US dollars) or its
    count of GPUs (of nodes, when the range counts nodes)."""
    text = note[len(TIER_NOTE):].replace(APPLIED, "")
    bounds = parse_range(text)
    if bounds is None:
        return False
    currency = currency_of(text)
    if currency is not None:
        quantity = values.get("min_commit_usd") if currency == "USD" else None
    else:
        quantity = values.get("node_count" if unit_of([text]) == "node" else "gpu_count")
    low, high = bounds
    return isinstance(quantity, (int, float)) and quantity >= low and (
        high is None or quantity <= high)


def chosen_tier(candidates: list[Candidate], values: dict[str, Any]
                ) -> tuple[list[Candidate], tuple[float, Candidate] | None]:
    """The discount tiers an offer states, and the one that applies: the one the document
    marks, else the one whose range holds the offer's spend or count."""
    tiers = [c for c in candidates if (c.note or "").startswith(TIER_NOTE)
             and share_of(c.value) is not None]
    marked = [c for c in tiers if (c.note or "").endswith(APPLIED)]
    holding = marked if len(marked) == 1 else [c for c in tiers if _tier_holds(c.note or "",
                                                                             values)]
    if len(holding) != 1:
        return tiers, None
    share = share_of(holding[0].value)
    return tiers, (share, holding[0]) if share is not None else None


def settle_stated_discount(values: dict[str, Any], provenance: dict[str, FieldSource],
                           b: SlotReaders, compute: list[_Priced]) -> None:
    """A stated discount applied to the price it names: a list or base price with no net
    one beside it is paid less the discount (`list-price-discounted`); a price whose label
    says neither list nor net beside a stated discount may be either, and is said
    (`price-discount-unclear`), never changed."""
    rate = values.get("compute_price_usd_per_gpu_hour")
    if rate is None or not compute:
        return
    found = stated_discounts(b.record.candidates)
    tiers, tier = chosen_tier(b.record.candidates, values)
    shares = sorted({round(s, 6) for s, _ in found})
    if not shares and tier is not None:
        found, shares = [tier], [round(tier[0], 6)]
    first = sorted(compute, key=lambda p: (-p.priority, -p.paid))[0]
    if not (found or tiers) and first.paid <= 0:
        found = noted_discounts(b.record.notes, first.paid < 0)
        shares = sorted({round(s, 6) for s, _ in found if s})  # (0: said, not applied)
        if len(shares) == 1 and len(found) > 1:
            found = found[:1]
    if not (found or tiers) or first.paid > 0:
        return
    where = (found[0][1] if found else tiers[0]).where
    text = ", ".join(f"{c.label!r} {cell_text(c.value)}" for _, c in found)[:200] or \
        f"{tiers[0].label!r}: {len(tiers)} tiers"
    if first.paid < 0 and len(shares) == 1:
        share = shares[0]
        if share == 0:
            return
        net = float(rate) * (1.0 - share)
        for name in ("compute_price_usd_per_gpu_hour", "price_usd_per_gpu_hour"):
            if values.get(name) == rate:
                values[name] = net
                old = provenance.get(name)
                provenance[name] = FieldSource(
                    where=old.where if old else where.to_dict(),
                    raw=old.raw if old else None, derived_from=old.derived_from if old else None,
                    note=f"the list price {float(rate):.4g} less the stated discount "
                         f"{share * 100:g}% = {net:.4g} USD per GPU-hour")
        b.note(where, "list-price-discounted", {"discount": text, "before": float(rate),
                                                "after": net}, "price_usd_per_gpu_hour")
        return
    if first.paid == 0 and (_explained(first.money.amount, shares, [
            *b.record.candidates, *(Candidate(k, v, where) for i in b.record.line_items
                                    for k, v in i.raw.items())])
                            or (not found and tier is None)):
        return  # the price is a stated figure less the discount: the net one
    b.note(where, "price-discount-unclear", {"discount": text, "price": float(rate)},
           "price_usd_per_gpu_hour")


def _explained(amount: float, shares: list[float], candidates: list[Candidate]) -> bool:
    """Whether the price is another figure the offer states less one of its discounts
    (a list rate of 68.80 on another sheet, 32% off: 46.78): then it is the net price."""
    for cand in candidates:
        value = cand.value if isinstance(cand.value, (int, float)) and not isinstance(
            cand.value, bool) else first_number(cell_text(cand.value))
        if value and any(abs(value * (1 - s) - amount) <= 0.005 * amount for s in shares):
            return True
    return False
