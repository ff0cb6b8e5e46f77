"""The sentences of the flags the pipeline raises itself, written from the numbers it found.

A stage returns a flag's code and its figures (numbers and values, units in their names);
this module is the one place that turns them into words, for the JSON's `why`, the memo,
the terminal and the exports alike, so a sum is never stated twice in two roundings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from evaltool.market.catalog import TERM_WORDS
from evaltool.models import Flag
from evaltool.report import fmt

# A cheapest way out this close to the full commitment is the commitment: not worth a clause.
_WAY_OUT_SHARE = 0.999


def commitment_exceeds_run(figures: Mapping[str, Any]) -> str:
    """figures: committed_usd, run_cost_usd, term_months (or None), minimum_cash_usd (or None)."""
    committed, run = float(figures["committed_usd"]), float(figures["run_cost_usd"])
    term = fmt.as_number(figures.get("term_months"))
    minimum = fmt.as_number(figures.get("minimum_cash_usd"))
    term_text = f" over a {fmt.number(term)}-month term" if term else ""
    way_out = (f"; the cheapest way out after the run is {fmt.usd(minimum)}"
               if minimum is not None and minimum < committed * _WAY_OUT_SHARE else "")
    return (
        f"signing commits {fmt.usd(committed)}{term_text}; this run uses {fmt.usd(run)} of it "
        f"({fmt.pct(run / committed)}){way_out}. Unless other work fills the rest of the term, "
        "the ranking charges the minimum cash to sign, not the run alone."
    )


def quote_expired(figures: Mapping[str, Any]) -> str:
    """figures: valid_until, as_of (ISO dates)."""
    return (
        f"the quote was valid until {figures['valid_until']}, before {figures['as_of']}: "
        "prices, capacity and dates must be re-confirmed before they can be relied on"
    )


def stated_only_in_quote(figures: Mapping[str, Any]) -> str:
    """figures: field (canonical name), value (the quote's), where (file › sheet › cell)."""
    name = str(figures["field"])
    where = f" ({figures['where']})" if figures.get("where") else ""
    label = fmt.field_label(name, with_unit=False)
    return (
        f"{label} only in the quote, not in the contract: the quote states "
        f"{fmt.field_value(name, figures.get('value'))}{where}; ask for it in the contract "
        "terms, with a remedy"
    )


def market_price_comparison(figures: Mapping[str, Any]) -> str:
    """figures: quote_usd_per_gpu_hour, change_vs_median_pct, n_compared, spread_term,
    accelerator, median/min/max_usd_per_gpu_hour, providers, snapshot_dates."""
    change = float(figures["change_vs_median_pct"])
    n = int(figures["n_compared"])
    position = ("at the median" if abs(change) < 0.5 else
                f"{abs(change):.0f}% {'below' if change < 0 else 'above'} the median")
    term = TERM_WORDS.get(str(figures["spread_term"]), str(figures["spread_term"]))
    return (
        f"{fmt.price(figures['quote_usd_per_gpu_hour'])}/GPU-h is {position} of {n} public "
        f"{term} {figures['accelerator']} offer{'s' if n != 1 else ''} (median "
        f"{fmt.price(figures['median_usd_per_gpu_hour'])}, range "
        f"{fmt.price(figures['min_usd_per_gpu_hour'])}–"
        f"{fmt.price(figures['max_usd_per_gpu_hour'])}; {', '.join(figures['providers'])}; "
        f"list prices of {', '.join(figures['snapshot_dates'])})"
    )


def market_no_comparable_offers(figures: Mapping[str, Any]) -> str:
    """figures: term_class, quote_term_months, accelerator, snapshot."""
    cls, months = figures.get("term_class"), fmt.as_number(figures.get("quote_term_months"))
    if cls:
        wanted = TERM_WORDS.get(str(cls), str(cls))
    elif months is not None:
        wanted = f"{months:g}-month"
    else:
        wanted = "comparable"
    term_text = "no term stated" if months is None else f"a {months:g}-month term"
    return (
        f"not compared with public prices: the public snapshot of {figures['snapshot']} lists "
        f"no {wanted} offer for {figures['accelerator']} (the quote: {term_text}); a price of "
        "another commitment class is not comparable"
    )


def market_list_price(figures: Mapping[str, Any]) -> str:
    """figures: provider, instance_type, region (or None), term, snapshot_date."""
    term = TERM_WORDS.get(str(figures["term"]), str(figures["term"]))
    return (
        f"a public {term} list price from {figures['provider']}'s catalog "
        f"({figures['instance_type']}, {figures.get('region') or 'no region'}; snapshot "
        f"{figures['snapshot_date']}), not a quote: capacity for this many GPUs, the inter-node "
        "network, storage, delivery date and contract terms are not stated and count as unknown"
    )


# The contract terms a quote may also state, as a sentence names them.
_TERM_NAMES = {"term_months": "the term", "min_commit_usd": "the minimum commitment",
               "upfront_usd": "the upfront payment"}


def _exact(field: str, value: float) -> str:
    """A term's figure in full: two figures that differ must not read alike ($2.5M twice)."""
    if field.endswith("_usd"):
        return fmt.usd_plain(value, 0 if value == round(value) else 2)
    return fmt.field_value(field, value)


def terms_conflict(figures: Mapping[str, Any]) -> str:
    """figures: field (canonical name), in_contract, in_quote, quote_where (or None)."""
    field = str(figures["field"])
    where = f" ({figures['quote_where']})" if figures.get("quote_where") else ""
    name = _TERM_NAMES.get(field, fmt.field_label(field, with_unit=False))
    return (
        f"{name}: the contract states {_exact(field, float(figures['in_contract']))}, the quote "
        f"{_exact(field, float(figures['in_quote']))}{where}; the money follows the contract"
    )


def hardware_substitution(figures: Mapping[str, Any]) -> str:
    """figures: quoted_accelerator, substitutes (catalog ids the contract names, maybe [])."""
    named = [str(a) for a in figures.get("substitutes") or []]
    if not named:
        return ("the vendor may deliver 'equivalent' hardware at its discretion and names none: "
                "the time that could cost is not counted; ask for like-for-like substitution only")
    return (f"the vendor may deliver {', '.join(named)} in place of "
            f"{figures.get('quoted_accelerator') or 'the hardware quoted'} at its discretion: "
            "the run is timed on the slowest of them for the deadline and the cost of delay")


def delivery_in_tranches(figures: Mapping[str, Any]) -> str:
    """figures: tranches, each {gpus, date, hedged}."""
    parts = [f"{fmt.number(float(t['gpus']))} GPUs on {t['date']}"
             + (" (only a target date)" if t.get("hedged") else "")
             for t in figures["tranches"]]
    return ("the cluster arrives in parts: " + ", ".join(parts) + "; the run starts on the "
            "first and waits for the others, each billed from its delivery")


def assumption(figures: Mapping[str, Any]) -> str:
    """figures: assumption (the default the estimate used, as it states it and its source)."""
    return str(figures["assumption"])


SENTENCES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "assumption": assumption,
    "delivery-in-tranches": delivery_in_tranches,
    "hardware-substitution": hardware_substitution,
    "commitment-exceeds-run": commitment_exceeds_run,
    "quote-expired": quote_expired,
    "stated-only-in-quote": stated_only_in_quote,
    "market-price-comparison": market_price_comparison,
    "market-no-comparable-offers": market_no_comparable_offers,
    "market-list-price": market_list_price,
    "terms-conflict": terms_conflict,
}


def _short_commitment(figures: Mapping[str, Any]) -> str:
    share = float(figures["run_cost_usd"]) / float(figures["committed_usd"])
    return f"{fmt.pct(share)} of commitment used"


def _short_quote_only(figures: Mapping[str, Any]) -> str:
    return f"{fmt.field_label(str(figures['field']), with_unit=False)} only in the quote"


# What a flag is about in a few words, for a ranking cell.
SHORT: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "commitment-exceeds-run": _short_commitment,
    "stated-only-in-quote": _short_quote_only,
}


def _written(table: Mapping[str, Callable[[Mapping[str, Any]], str]], code: str,
             figures: Mapping[str, Any] | None) -> str | None:
    make = table.get(code)
    if make is None or not figures:
        return None
    try:
        return make(figures)
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return None  # figures from an older or hand-written report: its own text stands


def flag_sentence(code: str, figures: Mapping[str, Any] | None) -> str | None:
    """The flag's sentence from its figures, or None when its code has no sentence here."""
    return _written(SENTENCES, code, figures)


def flag_short(code: str, figures: Mapping[str, Any] | None) -> str | None:
    """A few words for a ranking cell from the flag's figures, or None."""
    return _written(SHORT, code, figures)


def with_words(flag: Flag) -> Flag:
    """The flag with its sentence written from its figures (its own `why` when it has none
    this module knows)."""
    sentence = flag_sentence(flag.code, flag.figures)
    return flag.model_copy(update={"why": sentence}) if sentence else flag
