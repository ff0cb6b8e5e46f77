"""The sentences of the flags the pipeline raises itself, written from the numbers it found.

A stage returns a flag's code and its figures (numbers and values, units in their names);
this module is the one place that turns them into words, for the JSON's `why`, the memo,
the terminal and the exports alike, so a sum is never stated twice in two roundings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

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


SENTENCES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "commitment-exceeds-run": commitment_exceeds_run,
    "quote-expired": quote_expired,
    "stated-only-in-quote": stated_only_in_quote,
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
