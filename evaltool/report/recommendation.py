"""The money phrases of the recommendation: the way out of a contract (in a clause, in prose,
in a table cell), an offer's money in one clause or sentence, a purchase against renting.

decide/ and estimate/ hand numbers and codes; these phrases word them, and every figure in
them is one the caller passed in: nothing here computes money. The headline, trade-off and
what-would-change sentences that use them are evaltool.report.recommend_words'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evaltool.report.fmt import usd


def _where(item: Mapping[str, Any]) -> str:
    """The clause a basis item rests on: the vendor's clause number, else the cell or key."""
    where = item.get("where") or {}
    ref = item.get("clause_ref")
    if ref and not str(ref)[:1].isalpha():
        return f"clause {ref}"
    place = " ".join(str(where[k]) for k in ("sheet", "cell") if where.get(k))
    return place or str(where.get("key") or "") or "the quote"


def exit_phrase(basis: Sequence[Mapping[str, Any]]) -> str:
    """How the minimum cash to sign is reached, naming the clause (or the contract's silence)."""
    if not basis:
        return "no price to compute it"
    first = basis[0]
    code = first.get("code")
    figures = first.get("figures") or {}
    notice = float(figures.get("notice_days") or 0.0)
    months = float(figures.get("term_months") or 0.0)
    if code == "no_term":
        text = "no minimum term"
        if notice >= 1:
            text += f", {notice:g} days' notice"
    elif code == "termination_for_convenience":
        text = f"terminate for convenience on {notice:g} days' notice"
        held = float(figures.get("days_held") or 0.0)
        if held >= 1:
            # notice timed to take effect when the run ends, never before the notice runs out
            text += f", {held:,.0f} days of fees paid"
        if figures.get("fee_usd"):
            text += f" plus a {usd(float(figures['fee_usd']))} fee"
    elif code == "non_cancellable":
        text = f"non-cancellable {months:g}-month term"
    elif code == "ride_out_term":
        text = f"the whole {months:g}-month term, with no exit before it ends"
    elif code == "contract_silent":
        text = f"the full {months:g}-month term: the contract is silent on early exit"
    elif code == "min_commit":
        text = "the stated minimum commitment"
    elif code == "purchase":
        text = "the purchase price"
    elif code == "buyback":
        text = (f"the purchase price less the seller's {usd(float(figures['buyback_usd']))} "
                f"buy-back, running costs for {float(figures['running_months']):.0f} months")
    else:
        text = "no price to compute it"
    if (first.get("quote") is not None or code == "contract_silent") and first.get("where"):
        text += f", {_where(first)}"
    extra = [b for b in basis[1:] if b.get("code") in ("min_commit", "prepayment")]
    for item in extra:
        text += ("; never below the stated minimum commitment" if item["code"] == "min_commit"
                 else "; never below the non-refundable prepayment")
    refund = next((b for b in basis[1:] if b.get("code") == "prepayment_refund"), None)
    if refund is not None:
        pct = float((refund.get("figures") or {}).get("refund_pct", 0.0))
        text += (f"; the prepayment less the {pct:g}% of the unused fees the refund schedule "
                 "returns on leaving")
    return text


def money_clause(label: str, estimates: Mapping[str, Any]) -> str:
    """'NimbusGPU: run $1.37M, minimum cash to sign $4.85M (…), total economic cost $8.28M'."""
    parts = []
    if estimates.get("total_cost_usd") is not None:
        parts.append(f"run {usd(float(estimates['total_cost_usd']))}")
    minimum = estimates.get("minimum_cash_to_sign_usd")
    if minimum is not None:
        basis = estimates.get("minimum_cash_to_sign_basis") or []
        parts.append(f"minimum cash to sign {usd(float(minimum))} ({exit_phrase(basis)})")
    full = estimates.get("full_commitment_usd")
    if full and minimum is not None and float(full) > float(minimum) * 1.001:
        parts.append(f"full commitment {usd(float(full))}")
    if estimates.get("total_economic_cost_usd") is not None:
        parts.append("total economic cost "
                     f"{usd(float(estimates['total_economic_cost_usd']))} with the cost of delay")
    return f"{label}: " + ", ".join(parts) if parts else label


def _first_exit(basis: Sequence[Mapping[str, Any]]
                ) -> tuple[Mapping[str, Any], Any, Mapping[str, Any], float, float]:
    """The cheapest way out (the basis's first entry): itself, its code, its figures, and
    the notice days and term months those figures state (0 when absent)."""
    first = basis[0]
    figures = first.get("figures") or {}
    return (first, first.get("code"), figures, float(figures.get("notice_days") or 0.0),
            float(figures.get("term_months") or 0.0))


def brief_exit(basis: Sequence[Mapping[str, Any]]) -> str:
    """The way out in a short phrase for prose, naming its clause: "60 days' notice, Contract B7".

    The clause is the vendor's number or the cell it was read from; a silent contract says so.
    """
    if not basis:
        return "no price to compute it"
    first, code, _, notice, months = _first_exit(basis)
    words = {
        "no_term": "no minimum term" + (f", {notice:g} days' notice" if notice >= 1 else ""),
        "termination_for_convenience": f"exit on {notice:g} days' notice",
        "non_cancellable": f"non-cancellable {months:g}-month term",
        "ride_out_term": f"the whole {months:g}-month term",
        "contract_silent": f"the full {months:g}-month term, the contract silent on exit",
        "min_commit": "the stated minimum commitment",
        "purchase": "the purchase price",
        "buyback": "the purchase price less the seller's buy-back",
    }
    text = words.get(str(code), "no price to compute it")
    if (first.get("quote") is not None or code == "contract_silent") and first.get("where"):
        text += f", {_where(first)}"
    if any(b.get("code") == "min_commit" for b in basis[1:]):
        text += "; the stated minimum at least"
    if any(b.get("code") == "prepayment" for b in basis[1:]):
        text += "; the prepayment at least"
    if any(b.get("code") == "prepayment_refund" for b in basis[1:]):
        text += "; the prepayment less its scheduled refund"
    return text


def runner_up_sentence(label: str, estimates: Mapping[str, Any]) -> str:
    """The runner-up's money in one short sentence, every figure from its estimates.

    "Runner-up Helios: run $1.66M, minimum cash to sign $5.58M (the whole 6-month term,
    Terms B7), total economic cost $11.4M."
    """
    parts = []
    if estimates.get("total_cost_usd") is not None:
        parts.append(f"run {usd(float(estimates['total_cost_usd']))}")
    minimum = estimates.get("minimum_cash_to_sign_usd")
    if minimum is not None:
        basis = estimates.get("minimum_cash_to_sign_basis") or []
        parts.append(f"minimum cash to sign {usd(float(minimum))} ({brief_exit(basis)})")
    if estimates.get("total_economic_cost_usd") is not None:
        parts.append(f"total economic cost {usd(float(estimates['total_economic_cost_usd']))}")
    if not parts:
        return f"Runner-up {label}: no money figures could be computed."
    return f"Runner-up {label}: " + ", ".join(parts) + "."


def exit_short(basis: Sequence[Mapping[str, Any]]) -> str:
    """The way out in a few words, for a table cell: "TfC 60 d, clause B7"."""
    if not basis:
        return ""
    first, code, figures, notice, months = _first_exit(basis)
    words = {
        "no_term": "no term" + (f", {notice:g} d notice" if notice >= 1 else ""),
        "termination_for_convenience": f"exit on {notice:g} d notice",
        "non_cancellable": f"{months:g} mo, non-cancellable",
        "ride_out_term": f"whole {months:g} mo",
        "contract_silent": f"{months:g} mo, no exit stated",
        "min_commit": "stated minimum",
        "purchase": "capex + running"
                    + (f" for {float(figures['running_months']):.0f} mo"
                       if figures.get("running_months") else ""),
        "buyback": "capex + running - buy-back"
                   + (f", {float(figures['running_months']):.0f} mo"
                      if figures.get("running_months") else ""),
    }
    text = words.get(str(code), "")
    if text and first.get("quote") is not None and first.get("where"):
        where = _where(first)
        text += f", {where}" if len(where) <= 14 else ""
    if any(b.get("code") == "prepayment" for b in basis[1:]):
        text += "; prepaid, non-refundable"
    if any(b.get("code") == "prepayment_refund" for b in basis[1:]):
        text += "; prepaid, part refunded"
    return text


def buy_vs_rent_sentence(item: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    """A purchase against renting, in one sentence (figures from decide's buy_vs_rent)."""
    name = labels.get(str(item.get("offer_id")), str(item.get("offer_id")))
    owning = item.get("owning_usd_per_gpu_hour_at_full_use")
    use = item.get("workload_utilisation")
    even = item.get("break_even_utilisation")
    text = f"Buy vs rent: owning {name} costs"
    text += f" ${float(owning):.2f} per GPU-hour at full use" if owning is not None else ""
    text += " (with the cost of capital, residual value and power as stated assumptions)"
    if even is not None:
        if item.get("best_rental_id"):
            against = (f"renting from {labels.get(str(item['best_rental_id']), '')}, "
                       "the cheapest pay-per-use rental on the table per unit of work")
        else:
            rate = float(item.get("public_on_demand_usd_per_gpu_hour") or 0.0)
            against = (f"renting the same GPUs at the public on-demand median "
                       f"(${rate:.2f}/GPU-h; no pay-per-use rental is on the table)")
        text += (f"; it beats {against} only when busy more than "
                 f"{float(even):.0%} of its life")
    if use is not None:
        text += f"; this workload keeps it busy {float(use):.0%} of its amortisation period"
    return text + "."
