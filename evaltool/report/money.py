"""The money lines of the report: what signing commits, the effective price against the
quoted one, the key figures beside the runner-up's, and the money table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaltool.models import OfferResult, ScoreReport
from evaltool.report import fmt
from evaltool.report.picks import _ranked, runner_up_of
from evaltool.report.recommendation import buy_vs_rent_sentence, exit_short
from evaltool.report.view_model import FULL_LIMITS, KeyFigure, Limits, MoneyRow

# Parts of the bill beside GPU-hours (estimates.cost_breakdown_usd), named for a CFO.
COST_PART_NAMES: dict[str, str] = {
    "storage": "storage",
    "support": "support",
    "egress": "egress",
    "network": "network",
    "upfront": "the upfront payment",
    "commitment_shortfall": "the unused part of the minimum commitment",
    "power": "power",
    "colocation": "colocation",
    "opex": "operations",
}


# An effective price this far from the quoted one needs a word of explanation.
PRICE_GAP_TO_EXPLAIN = 0.05


# A commitment this far above the run's cost gets its own line in the ranking.
COMMITMENT_GAP_TO_SHOW = 0.20


def committed_spend(offer: OfferResult) -> tuple[float | None, str]:
    """What signing commits the buyer to, and its word: a purchase's capex ("capex") or a
    rental's full commitment over the term ("commits"); (None, "") when unknown or zero."""
    if offer.fields.get("offer_kind") == "purchase":
        capex = fmt.as_number(offer.fields.get("capex_usd"))
        if capex:
            return capex, "capex"
    commit = fmt.as_number(offer.estimates.get("full_commitment_usd",  # the money table's
                                               offer.estimates.get("minimum_commitment_usd")))
    return (commit, "commits") if commit else (None, "")


def commitment_line(offer: OfferResult) -> str:
    amount, word = committed_spend(offer)
    run = fmt.as_number(offer.estimates.get("total_cost_usd"))
    if amount is None or run is None or amount <= run * (1 + COMMITMENT_GAP_TO_SHOW):
        return ""
    return f"{word} {fmt.usd(amount)}"


def price_gap(offer: OfferResult) -> tuple[float, float] | None:
    """(effective, quoted) $/GPU-h when they differ by more than PRICE_GAP_TO_EXPLAIN."""
    effective = fmt.as_number(offer.estimates.get("effective_usd_per_gpu_hour"))
    quoted = fmt.as_number(offer.fields.get("price_usd_per_gpu_hour"))
    if effective is None or quoted is None or quoted <= 0:
        return None
    if abs(effective - quoted) / quoted <= PRICE_GAP_TO_EXPLAIN:
        return None
    return effective, quoted


def price_explanation(offer: OfferResult) -> str:
    """"$2.57/GPU-h effective vs $2.35 quoted: includes storage ($61.4k), support ($28.0k)
    and the upfront payment ($23.6k)", from estimates.cost_breakdown_usd; "" within 5%."""
    gap = price_gap(offer)
    if gap is None:
        return ""
    effective, quoted = gap
    text = f"{fmt.price(effective)}/GPU-h effective vs {fmt.price(quoted)} quoted"
    parts = offer.estimates.get("cost_breakdown_usd")
    total = fmt.as_number(offer.estimates.get("total_cost_usd")) or 0.0
    if effective > quoted and isinstance(parts, Mapping):
        amounts = {str(k): fmt.as_number(v) for k, v in parts.items() if k != "compute"}
        extras = sorted(
            ((k, v) for k, v in amounts.items() if v is not None and v > total * 0.001),
            key=lambda kv: -kv[1],
        )
        if extras:
            named = [f"{COST_PART_NAMES.get(k, fmt.label(k))} ({fmt.usd(v)})" for k, v in extras]
            text += ": includes " + _join_words(named)
    return text


def _join_words(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def key_figures(report: ScoreReport, winner: OfferResult | None) -> list[KeyFigure]:
    """The winner's run cost and, beside it, what signing commits; time, price and MFU."""
    if winner is None:
        return []
    runner = runner_up_of(report, winner)
    other = runner.estimates if runner else {}
    est = winner.estimates

    def vs(text: str) -> str:
        return text if runner is not None and text != fmt.DASH else ""

    figures = [KeyFigure("Run cost", fmt.usd(est.get("total_cost_usd")),
                         vs(fmt.usd(other.get("total_cost_usd"))))]
    amount, word = committed_spend(winner)
    run = fmt.as_number(est.get("total_cost_usd"))
    if amount is not None and (run is None or amount > run):
        if word == "capex":
            label = "Capex (purchase)"
        else:
            term = fmt.as_number(winner.fields.get("term_months"))
            label = f"Commits ({fmt.number(term)} mo)" if term else "Minimum commitment"
        figures.append(KeyFigure(label, fmt.usd(amount), _commitment_of(runner)))
    figures += [
        KeyFigure("Time to train", fmt.days(est.get("time_to_train_days")),
                  vs(fmt.days(other.get("time_to_train_days")))),
        KeyFigure("Effective $/GPU-h", fmt.price(est.get("effective_usd_per_gpu_hour")),
                  vs(fmt.price(other.get("effective_usd_per_gpu_hour")))),
        KeyFigure("MFU", fmt.pct(est.get("mfu")), vs(fmt.pct(other.get("mfu"))),
                  _mfu_range(est)),
    ]
    return figures


def _mfu_range(est: dict[str, Any]) -> str:
    """The evidence's low-high MFU range, and the peak it is measured against when not BF16."""
    low, high = fmt.as_number(est.get("mfu_low")), fmt.as_number(est.get("mfu_high"))
    text = ""
    if low is not None and high is not None and fmt.pct(low) != fmt.pct(high):
        text = f"range {fmt.pct(low).rstrip('%')}–{fmt.pct(high)}"
    basis = str(est.get("mfu_basis") or "")
    if basis and not basis.startswith("bf16"):
        text += ("; " if text else "") + f"of the {basis.replace(' dense peak', '').upper()} peak"
    return text


def _commitment_of(offer: OfferResult | None) -> str:
    """The runner-up's commitment with its own term or kind: "$5.58M (6 mo)", "$10.4M capex"."""
    if offer is None:
        return ""
    amount, word = committed_spend(offer)
    if amount is None:
        return ""
    if word == "capex":
        return f"{fmt.usd(amount)} capex"
    term = fmt.as_number(offer.fields.get("term_months"))
    return f"{fmt.usd(amount)} ({fmt.number(term)} mo)" if term else fmt.usd(amount)


def money_rows(report: ScoreReport, winner: OfferResult | None,
                limits: Limits) -> list[MoneyRow]:
    """The eligible offers' money in rank order (the full report adds the excluded ones)."""
    offers = sorted((o for o in _ranked(report) if o.eligible or limits is FULL_LIMITS),
                    key=lambda o: (not o.eligible, o.rank))
    rows = []
    for offer in offers:
        est = offer.estimates
        basis = est.get("minimum_cash_to_sign_basis") or []
        rows.append(MoneyRow(
            offer_id=offer.id,
            name=fmt.clean_text(offer.vendor, min(limits.name_chars, 32)) or offer.id,
            eligible=offer.eligible,
            is_winner=winner is not None and offer.id == winner.id,
            run_cost=fmt.usd(est.get("total_cost_usd")),
            minimum_cash=fmt.usd(est.get("minimum_cash_to_sign_usd")),
            how=fmt.clean_text(exit_short(basis if isinstance(basis, list) else []), 60),
            full_commitment=fmt.usd(est.get("full_commitment_usd")),
            cost_of_delay=fmt.usd(est.get("cost_of_delay_usd")),
            economic_cost=fmt.usd(est.get("total_economic_cost_usd")),
        ))
    return rows


def buy_vs_rent_lines(report: ScoreReport, limits: Limits) -> list[str]:
    items = report.sensitivity.get("buy_vs_rent") or []
    labels = {o.id: fmt.clean_text(o.vendor, limits.name_chars) or o.id for o in _ranked(report)}
    return [buy_vs_rent_sentence(item, labels) for item in items if isinstance(item, Mapping)]


def cost_basis_note(report: ScoreReport) -> str:
    """What the ranking's cost criteria charged, in words."""
    basis = str(report.assumptions.get("overrides", {}).get("cost_basis") or "cash")
    charged = {"cash": "the minimum cash to sign",
               "commitment": "the full commitment",
               "run": "the run alone"}.get(basis, "the minimum cash to sign")
    text = (f"The ranking charges {charged} plus the cost of delay; time is priced once, "
            "in dollars.")
    resale = report.assumptions.get("overrides", {}).get("resale_value_fraction")
    if resale:
        text += f" Spare capacity is credited at {float(resale):.0%} of its cost."
    return text
