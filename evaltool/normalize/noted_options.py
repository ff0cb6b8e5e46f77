"""An option a note offers as a discount becomes its own offer.

"PREPAY OPTION: pay the 12 months of line 1 in advance and receive a 6% discount on line 1"
under a one-offer quote is a second offer: the same capacity at the compute price less 6%,
and, when the note says the term is paid in advance, that discounted price for the whole term
paid up front (price x GPUs x 730 h x term months; PRODUCT.md's 730 hours a month).  The reader
says every such note (`option-in-note`); here a note with exactly one discount, under a file with
exactly one offer, is worked out, with a warning that says the price comes from the note's
words.  Any other note stays a warning: which offer or line it changes is not known.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from evaltool.errors import Location, Problem
from evaltool.grammar.money import convert_money_to_usd, parse_money
from evaltool.grammar.valuetypes import MissingFxRate, ValueConversionError, ValueParseError
from evaltool.models import HOURS_PER_MONTH, FieldSource, Offer
from evaltool.read.tiers import grid_words, months_in_label

_MONEY_FIGURE_RE = re.compile(r"[$€£¥₩]\s?\d|\d\s?[$€£¥₩]|\b[A-Z]{3}\s?\d|\d\s?[A-Z]{3}\b")
_PERCENT_RE = re.compile(r"(?<![\d.,])(\d{1,2}(?:[.,]\d+)?)\s?%")


def _has(text: str, key: str) -> bool:
    low = text.lower()
    return any((w in low) if not w.isascii() else re.search(rf"(?<!\w){re.escape(w)}(?!\w)",
                                                          low) is not None
               for w in grid_words()[key])


def discount_of(clause: str) -> float | None:
    """'receive a 6% discount on line 1' -> 0.06; None unless one percentage and a discount
    word."""
    found = _PERCENT_RE.findall(clause)
    if len(found) != 1 or not _has(clause, "discount"):
        return None
    share = float(found[0].replace(",", ".")) / 100
    return share if 0 < share < 0.9 else None


def offers_from_notes(offers: Sequence[Offer], fx: Mapping[str, float] | None = None
                      ) -> list[Offer]:
    out = list(offers)
    by_file: dict[str, list[Offer]] = {}
    for offer in offers:
        by_file.setdefault(str(offer.source.get("file", "")), []).append(offer)
    for members in by_file.values():
        if len(members) != 1:
            continue  # which offer the note changes is not known
        offer = members[0]
        for index, warning in enumerate(list(offer.warnings)):
            if warning.get("code") == "option-in-note":
                clause = str(warning.get("found") or "")
                derived = _derived(offer, clause, warning) or _priced(offer, clause, warning,
                                                                      fx or {})
                if derived is not None:
                    out.append(derived)
                    where = warning.get("where")
                    offer.warnings[index] = Problem(
                        Location(**where) if isinstance(where, dict) else Location("?"),
                        found=str(warning.get("found") or "")[:160], severity="info",
                        code="option-in-note-read",
                        params={"name": derived.fields.offer_name}).to_dict()
    return out


def _priced(offer: Offer, clause: str, warning: dict[str, object],
            fx: Mapping[str, float]) -> Offer | None:
    """'Option B: 24-month term at $1.85 per GPU-hour': a note that states the option's own
    price per GPU-hour (and perhaps its term) is that option's offer."""
    try:
        money = parse_money(clause)
        usd = convert_money_to_usd(money, {"USD": 1.0, **fx})
    except (ValueParseError, ValueConversionError, MissingFxRate):
        return None
    if money.per != ("gpu", "hour") or offer.fields.price_usd_per_gpu_hour is None or \
            offer.fields.capex_usd is not None or len(_MONEY_FIGURE_RE.findall(clause)) != 1:
        return None
    head = clause.split(":", 1)[0].strip() if ":" in clause[:60] else clause[:60].strip()
    update: dict[str, object] = {"price_usd_per_gpu_hour": usd, "offer_name": head}
    if offer.fields.compute_price_usd_per_gpu_hour is not None:
        update["compute_price_usd_per_gpu_hour"] = usd
    months = months_in_label(clause)
    if months is not None:
        update["term_months"] = months
    return _copy(offer, clause, warning, update, Problem(
        _at(offer, warning), found=clause[:160], severity="warning", code="option-priced-in-note",
        field="price_usd_per_gpu_hour", params={"price": f"{usd:.4g}"}), "the note's price")


def _at(offer: Offer, warning: dict[str, object]) -> Location:
    where = warning.get("where")
    return Location(**where) if isinstance(where, dict) else Location(
        str(offer.source.get("file", "")))


def _derived(offer: Offer, clause: str, warning: dict[str, object]) -> Offer | None:
    share = discount_of(clause)
    price = offer.fields.price_usd_per_gpu_hour
    if share is None or price is None or offer.fields.capex_usd is not None:
        return None
    head = clause.split(":", 1)[0].strip() if ":" in clause[:60] else clause[:60].strip()
    name = f"{head} ({share * 100:g}% off)"
    update: dict[str, object] = {"price_usd_per_gpu_hour": round(price * (1 - share), 6),
                                 "offer_name": name}
    if offer.fields.compute_price_usd_per_gpu_hour is not None:
        update["compute_price_usd_per_gpu_hour"] = round(
            offer.fields.compute_price_usd_per_gpu_hour * (1 - share), 6)
    f = offer.fields
    if _has(clause, "prepay") and f.term_months and f.gpu_count:
        new_price = price * (1 - share)
        update["upfront_usd"] = round(new_price * f.gpu_count * HOURS_PER_MONTH * f.term_months, 2)
    note = Problem(_at(offer, warning), found=clause[:160], severity="warning",
                   code="option-from-note", field="price_usd_per_gpu_hour",
                   params={"share": f"{share * 100:g}", "upfront_words": (
                       ", paid up front for the whole term" if "upfront_usd" in update else "")})
    return _copy(offer, clause, warning, update, note,
                 f"the note's option: {share * 100:g}% off the compute price")


def _copy(offer: Offer, clause: str, warning: dict[str, object], update: dict[str, object],
          note: Problem, how: str) -> Offer:
    """The offer with the note's option applied: the fields it changes sourced to the note."""
    at = _at(offer, warning)
    f = offer.fields
    warnings = [w for w in offer.warnings if w.get("code") != "option-in-note"]
    provenance = dict(offer.provenance)
    for name_ in update:
        provenance[name_] = FieldSource(
            where=at.to_dict(), raw=clause[:200], derived_from=(
                ["price_usd_per_gpu_hour", "gpu_count", "term_months"] if name_ == "upfront_usd"
                else [name_] if name_ not in ("offer_name", "term_months") else None),
            note=how + (", the term paid up front" if name_ == "upfront_usd" else ""))
    name = str(update.get("offer_name") or "")
    return offer.model_copy(update={
        "provenance": provenance,
        "id": f"{offer.id}-note-option",
        "source": {**offer.source, "option": name},
        "fields": f.model_copy(update=update),
        "warnings": [*warnings, note.to_dict()],
    }, deep=True)
