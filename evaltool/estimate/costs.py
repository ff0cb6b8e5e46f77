"""The money of a training run: compute, storage, support, network, egress and upfront
fees; a purchase beside renting.

What signing commits the buyer to (the term's fees, a spend floor, a purchase's capex) is
not computed here: it depends on the contract's words, so `estimate.money` computes it once
(`full_commitment_usd`) for every output that shows it.
"""

from __future__ import annotations

from typing import Any

from evaltool.catalog import public_price_reference
from evaltool.estimate.result import Result
from evaltool.estimate.timeline import days_to_trained_model
from evaltool.estimate.views import OfferView, Params, WorkloadView


def run_money(wv: WorkloadView, ov: OfferView, p: Params, r: Result) -> None:
    n = r.gpus_used
    price = ov.price_usd_per_gpu_hour
    if r.days is not None and r.mfu:
        # Time has a price: waiting for delivery delays the model as much as a slower run,
        # so both count in the cost of delay and against the deadline.
        days_to_trained_model(wv, ov, p, r)
    if price is None or n is None or r.gpu_hours is None or r.days is None:
        if price is None:
            r.notes.append("no price per GPU-hour: costs cannot be computed.")
        return
    hours = (r.billed_days if r.billed_days is not None else r.days) * 24.0  # compute billed
    months = r.days * 24.0 / p.hours_per_month  # storage and support run on the calendar
    compute_price = ov.compute_price_usd_per_gpu_hour
    if compute_price is None:
        compute_price = price
    r.price_used = compute_price
    costs: dict[str, float] = {"compute": n * hours * compute_price}
    billed_tb = ov.storage_capacity_tb
    if billed_tb is None and r.storage_needed_tb is not None:
        billed_tb = r.storage_needed_tb / p.storage_usable_fraction
    costs["storage"] = (ov.storage_usd_per_tb_month or 0.0) * (billed_tb or 0.0) * months
    if (ov.storage_usd_per_tb_month is None and ov.storage_capacity_tb is None
            and r.storage_needed_tb):
        # Neither storage nor its price is quoted: the storage is unknown, not free.
        r.assumed.append(f"storage not quoted: the {r.storage_needed_tb:,.0f} TB this run "
                         "needs have no price, so the run cost leaves storage out (unknown, "
                         "not free): ask for it.")
    costs["support"] = ov.support_usd_per_month * months
    costs["network"] = ov.network_usd_per_month * months
    if wv.egress_tb and ov.egress_usd_per_gb is None:
        r.assumed.append("egress price not stated: egress counted as free.")
    costs["egress"] = (wv.egress_tb or 0.0) * 1000.0 * (ov.egress_usd_per_gb or 0.0)
    fees = costs["compute"] + costs["storage"] + costs["support"] + costs["network"]
    if ov.offer_kind == "purchase":
        costs["upfront"] = 0.0  # capex is already amortised into the GPU-hour price
    elif p.upfront_credited and p.cost_basis == "run":
        # A prepayment credited against usage is paid by this run's fees and later work;
        # it shows in the commitment, not in the cost of the run.
        costs["upfront"] = 0.0
    elif p.upfront_credited:
        costs["upfront"] = max(0.0, ov.upfront_usd - fees)  # only the part usage never uses
    else:
        costs["upfront"] = ov.upfront_usd
    r.costs = costs
    r.total_cost = sum(costs.values())
    r.effective_price = r.total_cost / r.gpu_hours if r.gpu_hours else None
    assert r.peak_tflops is not None and r.mfu is not None
    pflop_hours = r.gpu_hours * r.peak_tflops * r.mfu / 1000.0
    r.usd_per_pflop_hour = r.total_cost / pflop_hours if pflop_hours else None
    if wv.tokens:
        r.usd_per_m_tokens = r.total_cost / wv.tokens * 1e6
    r.economic_cost = r.total_cost + (r.cost_of_delay or 0.0)
    if ov.offer_kind == "purchase" or ov.owning_usd_per_month is not None:
        r.buy_vs_rent = buy_vs_rent(ov, p, months)


def buy_vs_rent(ov: OfferView, p: Params, run_months: float | None,
                rent_usd_per_gpu_hour: float | None = None) -> dict[str, Any]:
    """A purchase beside renting: owning cost, break-even utilisation, value kept after the run.

    Break-even utilisation = owning cost per GPU-hour / rental price: buying wins when the
    hardware is busy more than that share of the time (S. Bekman, "The AI Battlefield": buy
    vs rent).
    """
    out: dict[str, Any] = {}
    owning = ov.owning_usd_per_month
    if owning is None or not ov.gpu_count:
        return out
    own_per_gpu_hour = owning / (ov.gpu_count * p.hours_per_month)
    out["owning_usd_per_month"] = owning
    out["owning_usd_per_gpu_hour_at_full_use"] = own_per_gpu_hour
    rent = rent_usd_per_gpu_hour
    if rent is None and ov.accelerator:
        rent = p.reference_rent.get(ov.accelerator)
    if rent is None and ov.accelerator:
        reference = public_price_reference(ov.accelerator)
        rent = reference.median_usd_per_gpu_hour if reference else None
    if rent:
        out["reference_rent_usd_per_gpu_hour"] = rent
        out["break_even_utilisation"] = own_per_gpu_hour / rent
    if run_months is not None and ov.capex_usd is not None and ov.amortization_months:
        out["run_months"] = run_months
        out["cash_outlay_usd"] = ov.capex_usd + (owning - ov.capex_usd / ov.amortization_months
                                                 ) * run_months
        kept = max(0.0, 1.0 - run_months / ov.amortization_months)
        out["book_value_after_run_usd"] = ov.capex_usd * kept
    return out

