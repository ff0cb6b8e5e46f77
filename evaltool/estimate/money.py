"""The money of the decision: run cost, minimum cash to sign, full commitment, cost of delay.

A CFO signs a contract, not a run. For each offer this module turns the run's estimate and the
contract's commercial terms (`evaltool.clauses.models.ContractTerms`) into the figures
leadership asks for:

- ``total_cost_usd``: what the run's GPU-hours and add-ons cost (from `estimate.core`);
- ``minimum_cash_to_sign_usd``: the cheapest way out after the run — ride out the term, or
  terminate for convenience (notice timed to take effect when the run ends, never before a
  minimum term ends nor mid-month where exits fall on a month's end, plus any fee on the
  fees for the remainder), never below a stated minimum commitment or a non-refundable
  prepayment; with the clauses it rests on in ``minimum_cash_to_sign_basis``. A contract
  silent on leaving is held to its full term;
- ``full_commitment_usd``: everything payable if the contract runs its term: a reserved
  block's fees (with per-TB-month storage) or a stated spend floor on capacity billed by
  use; with no floor stated, never below the minimum cash to sign (on-demand capacity
  commits the run as billed; assumption ``pay_per_use_commitment``). Computed here only:
  the estimate stage computes no commitment;
- ``cost_of_delay_usd`` and ``total_economic_cost_usd`` = the money charged + the cost of delay.

The money charged (``charged_cost_usd``) follows the cost basis: ``cash`` (the default, the
minimum cash to sign), ``commitment`` (the full commitment) or ``run`` (the run alone); a
resale value (a fraction) credits back that share of the capacity paid for but not used.
Numbers only: report/ turns the basis codes into sentences.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from evaltool.catalog import (
    UndefinedPrecisionError,
    UnknownAcceleratorError,
    _public_prices,
    load_catalog,
    public_price_reference,
)
from evaltool.clauses.models import ContractTerms, TermEvidence
from evaltool.errors import Problem, UsageError
from evaltool.estimate import estimate_offer
from evaltool.estimate.assumptions import assumption_values
from evaltool.estimate.exit_terms import DAYS_PER_MONTH, MoneyTerms, contract_terms
from evaltool.estimate.substitution import with_substitution
from evaltool.estimate.tranches import applies as applies_tranches
from evaltool.estimate.tranches import capacity_share, tranche_offsets, with_tranches
from evaltool.models import HOURS_PER_MONTH, Estimates, Offer, OfferFields, Workload

__all__ = ["COST_BASES", "Money", "MoneyTerms", "compute_money", "contract_terms",
           "estimate_with_money", "money_for", "with_money"]

COST_BASES = ("cash", "commitment", "run")

# ------------------------------------------------------------------ the money


@dataclass(frozen=True)
class BasisItem:
    """One fact the minimum cash to sign rests on: a code report/ turns into words."""

    code: str  # no_term | termination_for_convenience | ride_out_term | contract_silent |
    #            non_cancellable | min_commit | prepayment | auto_renewal | purchase |
    #            buyback | prepayment_refund | no_price
    figures: dict[str, float] = field(default_factory=dict)
    evidence: TermEvidence | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code}
        if self.figures:
            out["figures"] = {k: _sig(v) for k, v in self.figures.items()}
        if self.evidence is not None:
            out["quote"] = self.evidence.quote
            out["where"] = dict(self.evidence.where)
            if self.evidence.clause_ref:
                out["clause_ref"] = self.evidence.clause_ref
        return out


@dataclass(frozen=True)
class Money:
    """The money of the decision for one offer (USD; None where it cannot be computed)."""

    run_cost_usd: float | None
    minimum_cash_to_sign_usd: float | None
    full_commitment_usd: float | None
    cost_of_delay_usd: float
    charged_cost_usd: float | None
    total_economic_cost_usd: float | None
    cost_basis: str
    resale_value_fraction: float
    exit: str  # how the cheapest way out leaves: the code of the first basis item
    basis: tuple[BasisItem, ...] = ()
    free_usd: float = 0.0  # GPU-hours the contract gives free of charge, at the quoted price

    def estimates(self) -> dict[str, Any]:
        """The keys `score` JSON carries under `estimates`."""
        return {
            "total_cost_usd": _sig(self.run_cost_usd),
            "minimum_cash_to_sign_usd": _sig(self.minimum_cash_to_sign_usd),
            "minimum_cash_to_sign_basis": [b.to_dict() for b in self.basis],
            "full_commitment_usd": _sig(self.full_commitment_usd),
            # The same figure under the name rubrics and exports read before the contract
            # was part of the money (computed once, here).
            "minimum_commitment_usd": _sig(self.full_commitment_usd),
            "cost_of_delay_usd": _sig(self.cost_of_delay_usd),
            "charged_cost_usd": _sig(self.charged_cost_usd),
            "total_economic_cost_usd": _sig(self.total_economic_cost_usd),
            "cost_basis": self.cost_basis,
            "resale_value_fraction": self.resale_value_fraction,
        }


def _sig(x: float | None) -> float | None:
    if x is None or not math.isfinite(x):
        return None
    return 0.0 if x == 0 else float(f"{x:.6g}")


def money_settings(assumptions: Mapping[str, Any] | None,
                   workload: Workload | None = None) -> tuple[str, float, str]:
    """(cost basis, resale value fraction, when notice is served) for a run."""
    values = assumption_values({k: v for k, v in (assumptions or {}).items()
                                if k in ("notice_served",)} or None)
    basis = str((assumptions or {}).get("cost_basis") or "cash")
    if basis not in COST_BASES:
        raise UsageError(Problem(None, code="unknown-cost-basis", params={
            "basis": repr(basis), "bases": ", ".join(COST_BASES)}), setting="cost_basis")
    resale = (assumptions or {}).get("resale_value_fraction")
    if resale is None and workload is not None:
        resale = workload.resale_value_fraction
    return basis, float(resale or 0.0), str(values["notice_served"])


def compute_money(
    fields: OfferFields, estimates: Estimates, terms: ContractTerms, workload: Workload,
    *, cost_basis: str = "cash", resale_value_fraction: float = 0.0,
    notice_served: str = "start", pay_per_use_commitment: str = "run",
    buyback_settles: str = "window_end",
) -> Money:
    """Run cost, the cheapest way out after the run, the full commitment and what is charged."""
    extra = estimates.model_extra or {}
    run = estimates.total_cost_usd  # the run alone: the commitment is computed here
    free = _free_capacity_usd(fields, terms, extra)
    if run is not None and free:
        run -= free  # hours given free of charge are not paid for
    delay = float(extra.get("cost_of_delay_usd") or 0.0)
    days = _run_days(estimates)
    basis: list[BasisItem] = []
    minimum: float | None
    full: float | None
    if fields.offer_kind == "purchase":
        minimum, full = _purchase(fields, terms, estimates, run, days, basis, buyback_settles)
    else:
        if run is not None and days and fields.price_usd_per_gpu_hour:
            # A price that steps during the term bills the run month by month.
            run *= _step_factor(terms, fields.price_usd_per_gpu_hour, days)
        minimum, full = _rental(fields, terms, run, days, basis, notice_served,
                                _billed_storage_tb(fields, estimates))
    pay_per_use = bool(basis) and basis[0].code == "no_term"
    if (fields.offer_kind != "purchase" and not terms.min_commit_usd
            and (pay_per_use_commitment == "run" or not pay_per_use)):
        # With no spend floor stated, what signing commits is at least the cheapest way out:
        # on-demand capacity, or a minimum term that runs on month to month, commits the run
        # as it will be billed, never 0. A stated floor is the commitment as the contract
        # words it, even below the run (the run is then the minimum cash, not a commitment).
        full = _max(full, minimum)
    charged = {"cash": minimum, "commitment": _max(full, run), "run": run}[cost_basis]
    if charged is not None and run is not None and resale_value_fraction > 0:
        charged -= resale_value_fraction * max(0.0, charged - run)
    economic = None if charged is None else charged + delay
    return Money(
        run_cost_usd=run, minimum_cash_to_sign_usd=minimum, full_commitment_usd=full,
        cost_of_delay_usd=delay, charged_cost_usd=charged, total_economic_cost_usd=economic,
        cost_basis=cost_basis, resale_value_fraction=resale_value_fraction,
        exit=basis[0].code if basis else "no_price", basis=tuple(basis), free_usd=free,
    )


def _free_capacity_usd(fields: OfferFields, terms: ContractTerms,
                       extra: Mapping[str, Any]) -> float:
    """What the GPU-hours the contract gives free of charge would have cost this run.

    Days free on the whole cluster (an evaluation period from delivery) or a number of free
    GPU-hours, at the quoted price, never more than the run's own GPU-hour charges.
    """
    price = fields.price_usd_per_gpu_hour
    if not price or fields.offer_kind == "purchase":
        return 0.0
    hours = float(getattr(terms, "free_gpu_hours", None) or 0.0)
    days = getattr(terms, "free_days", None)
    if days and fields.gpu_count:
        hours = max(hours, float(days) * 24.0 * fields.gpu_count)
    breakdown = extra.get("cost_breakdown_usd") or {}
    compute = breakdown.get("compute") if isinstance(breakdown, Mapping) else None
    if not hours or not isinstance(compute, int | float):
        return 0.0
    return min(hours * price, float(compute))


def _max(a: float | None, b: float | None) -> float | None:
    if a is None:
        return b
    return a if b is None else max(a, b)


def _run_days(estimates: Estimates) -> float | None:
    """Days the capacity is in use: the training run, or an inference horizon."""
    extra = estimates.model_extra or {}
    if estimates.time_to_train_days is not None:
        return float(estimates.time_to_train_days)
    gpu_hours = extra.get("gpu_hours")
    used = estimates.gpus_used
    if gpu_hours and used:
        return float(gpu_hours) / used / 24.0
    return None


def _escalated_days(days: float, escalation_per_year: float) -> float:
    """Days of capacity weighted by a yearly price escalator: year n costs (1 + e)^n."""
    total, year = 0.0, 0
    while days > 0:
        span = min(days, 365.0)
        total += span * (1.0 + escalation_per_year) ** year
        days -= span
        year += 1
    return total


def _earliest_exit_days(terms: ContractTerms) -> float:
    """Days before a termination for convenience can take effect (0 when any time)."""
    month = getattr(terms, "termination_earliest_month", None)
    return float(month) * DAYS_PER_MONTH if month else 0.0


def _billed_storage_tb(fields: OfferFields, estimates: Estimates) -> float:
    """The storage a rental bills by the TB-month: the capacity quoted, else what the run
    needs grossed up to rented capacity (as the run's cost counts it)."""
    if fields.storage_capacity_tb is not None:
        return float(fields.storage_capacity_tb)
    needed = (estimates.model_extra or {}).get("storage_needed_tb")
    if not fields.storage_usd_per_tb_month or not needed:
        return 0.0
    return float(needed) / float(assumption_values(None)["storage_usable_fraction"])


def _days_held(terms: ContractTerms, days: float, term: float, notice_served: str) -> float:
    """Days paid for when leaving for convenience after a `days`-long run, within the term."""
    notice = terms.termination_notice_days or 0.0
    held = days + notice if notice_served == "run_end" else max(days, notice)
    held = max(held, _earliest_exit_days(terms))
    if getattr(terms, "termination_not_before_term_end", None):
        held = max(held, term * DAYS_PER_MONTH)
    if getattr(terms, "termination_at_month_end", None):
        # Leaving takes effect at a month's end: the last month is billed whole.
        held = math.ceil(held / DAYS_PER_MONTH - 1e-9) * DAYS_PER_MONTH
    return min(held, term * DAYS_PER_MONTH)


def _refund_share(schedule: Sequence[tuple[float, float]], held_days: float) -> float:
    """The share of the unused prepaid fees refunded when the exit takes effect after
    `held_days`: the first tier whose last month the exit falls in; none after the last."""
    months = held_days / DAYS_PER_MONTH  # a tier may end mid-month ("the first 45 days")
    return next((pct / 100.0 for last, pct in schedule if months <= last + 1e-9), 0.0)


def _kept_before_refund(terms: ContractTerms, cost: float, prepaid: float, held_days: float,
                        term: float | None) -> float:
    """The prepaid fees of the part of the term held, before any refund: by the day, or
    every period begun when only whole periods not yet started are refunded."""
    period = getattr(terms, "prepaid_refund_period_months", None)
    if not period or not term:
        return cost
    begun = math.ceil(held_days / DAYS_PER_MONTH / float(period) - 1e-9) * float(period)
    return max(cost, prepaid * min(1.0, begun / term))


def _step_factor(terms: ContractTerms, price: float, days: float) -> float:
    """The stepped fees for the first `days` of the term over the fees at the quoted price
    (1 when the price does not change during the term)."""
    steps = getattr(terms, "price_steps", None)
    if not steps or days <= 0 or price <= 0:
        return 1.0
    total = 0.0
    for i, (start, usd) in enumerate(steps):
        begin = (start - 1) * DAYS_PER_MONTH
        end = (steps[i + 1][0] - 1) * DAYS_PER_MONTH if i + 1 < len(steps) else math.inf
        total += usd * max(0.0, min(days, end) - begin)
    return total / (price * days)


def _delivered_share(fields: OfferFields, terms: ContractTerms, gpus: float,
                     days: float) -> float:
    """The share of the cluster's fees billed over the first `days` of the term when it is
    delivered in tranches, each billed from its own delivery date (1 otherwise)."""
    found = getattr(terms, "delivery_tranches", None)
    if found is None or not applies_tranches(fields, found):
        return 1.0
    offsets = tranche_offsets(found)
    return capacity_share(offsets, gpus, days) if offsets else 1.0


def _committed(commit: float | None, term_cost: float | None, reserved: bool) -> float:
    """What the contract commits to if it runs its term: a reserved block billed whatever
    the use owes the term's fees, a spend floor or all; capacity billed by use owes the floor."""
    if commit is None:
        return term_cost or 0.0
    return max(commit, term_cost) if reserved and term_cost is not None else commit


def _floor_evidence(ev: dict[str, TermEvidence]) -> dict[str, TermEvidence]:
    """The minimum commitment's evidence is the sentence that states the period's floor."""
    per = ev.get("min_commit_per_period_usd")
    return {**ev, "min_commit_usd": per} if per is not None else ev


def _period_floors(terms: ContractTerms, run_cost: float, days: float | None,
                   term: float | None) -> float | None:
    """A spend floor owed period by period (no carry-forward) is billed max(floor, what
    the period used), summed over the term: a busy month does not cover an idle one."""
    floor, period = terms.min_commit_per_period_usd, terms.min_commit_period_months
    if not (floor and period and term and days):
        return None
    per_run_day, span = run_cost / days, period * DAYS_PER_MONTH
    return sum(max(floor, per_run_day * max(0.0, min(days, (k + 1) * span) - k * span))
               for k in range(math.ceil(term / period - 1e-9)))


def _rental(fields: OfferFields, terms: ContractTerms, run: float | None, days: float | None,
            basis: list[BasisItem], notice_served: str, storage_tb: float = 0.0
            ) -> tuple[float | None, float | None]:
    price = fields.price_usd_per_gpu_hour
    gpus = fields.gpu_count or ((fields.node_count or 0) * (fields.gpus_per_node or 0)) or None
    if price is None or gpus is None:
        basis.append(BasisItem("no_price"))
        return None, None
    # Storage sold with the capacity at a monthly rate is billed every month of the term,
    # like support and network fees: the capacity quoted, whatever the run uses of it.
    storage = storage_tb * (fields.storage_usd_per_tb_month or 0.0)
    per_day = gpus * price * 24.0 + ((fields.support_usd_per_month or 0.0) + storage
                                     + (fields.network_usd_per_month or 0.0)) / DAYS_PER_MONTH
    ev = terms.evidence
    term = terms.term_months if terms.term_months and terms.term_months > 0 else None
    renewed = False
    if (term is not None and terms.auto_renewal and terms.renewal_notice_days
            and terms.renewal_notice_days > term * DAYS_PER_MONTH):
        # Notice of non-renewal longer than the term itself cannot be served in time once
        # the term has started: the first renewal is part of what is signed.
        term += terms.renewal_term_months or term
        renewed = True
    if (term is not None and terms.auto_renewal and days is not None
            and not terms.customer_may_terminate_for_convenience):
        # A run that outlasts the term rolls into renewal terms it cannot leave early.
        renewal = terms.renewal_term_months or term
        while days > term * DAYS_PER_MONTH and renewal > 0:
            term += renewal
            renewed = True
    escalation = (terms.price_escalation_pct_per_year or 0.0) / 100.0
    term_cost = (_escalated_days(term * DAYS_PER_MONTH, escalation) * per_day
                 * _step_factor(terms, price, term * DAYS_PER_MONTH)
                 * _delivered_share(fields, terms, gpus, term * DAYS_PER_MONTH)
                 if term else None)
    commit = terms.min_commit_usd or None
    if renewed and commit is not None and term_cost is not None:
        commit = max(commit, term_cost)
    # What the contract commits to if it runs its term: a reserved block billed whatever the
    # use owes the term's fees, a spend floor or all; capacity billed by use owes the floor.
    # (`compute_money` raises it to the cheapest way out: a run as billed is committed too.)
    reserved = getattr(terms, "billed_whatever_use", None) is True
    full = _committed(commit, term_cost, reserved)
    run_cost = run if run is not None else (  # a stepped price bills month by month
        per_day * days * _step_factor(terms, price, days) if days is not None else None)
    if run_cost is not None and days and escalation:
        # A run into the contract's second year pays the escalated rate from then on.
        run_cost *= _escalated_days(days, escalation) / days
    if run_cost is None:
        return None, full
    floored = _period_floors(terms, run_cost, days, term)
    if floored is not None:
        commit = max(commit or 0.0, floored)
        full = _committed(commit, term_cost, reserved)
        ev = _floor_evidence(ev)
    options: list[tuple[float, BasisItem]] = []
    tfc = terms.customer_may_terminate_for_convenience and not terms.non_cancellable
    if term is None and commit is None:
        notice = terms.termination_notice_days or 0.0
        released = (run_cost + notice * per_day if notice_served == "run_end"
                    else max(run_cost, notice * per_day))
        options.append((released,
                        BasisItem("no_term", {"notice_days": notice},
                                  ev.get("no_term") or ev.get(
                                      "customer_may_terminate_for_convenience"))))
    if tfc and term is not None:
        notice = terms.termination_notice_days or 0.0
        held = _days_held(terms, days or 0.0, term, notice_served)
        cost = max(run_cost, held * per_day * _step_factor(terms, price, held)
                   * _delivered_share(fields, terms, gpus, held))
        remaining = max(0.0, term * DAYS_PER_MONTH - held) * per_day
        fee = (terms.termination_fee_usd or 0.0) + remaining * (
            terms.termination_fee_pct_of_remaining or 0.0) / 100.0
        options.append((cost + fee, BasisItem(
            "termination_for_convenience",
            {"notice_days": notice, "days_held": held, "fee_usd": fee},
            ev.get("customer_may_terminate_for_convenience"))))
    if term is not None:
        ride = max(run_cost, full)  # the term's fees (reserved) or its spend floor
        if terms.non_cancellable:
            item = BasisItem("non_cancellable", {"term_months": term}, ev.get("non_cancellable"))
        elif "termination_after_term" in ev:
            item = BasisItem("ride_out_term", {"term_months": term}, ev["termination_after_term"])
        elif tfc:
            item = BasisItem("ride_out_term", {"term_months": term}, ev.get("term_months"))
        else:
            item = BasisItem("contract_silent", {"term_months": term}, ev.get("term_months"))
        options.append((ride, item))
    elif commit is not None and not options:
        options.append((max(run_cost, commit), BasisItem("min_commit", {"usd": commit},
                                                         ev.get("min_commit_usd"))))
    cost, first = min(options, key=lambda o: o[0])
    basis.append(first)
    if commit is not None and cost < commit and first.code != "min_commit":
        cost = commit
        basis.append(BasisItem("min_commit", {"usd": commit}, ev.get("min_commit_usd")))
    cost, committed = _with_prepayment(terms, cost, full,
                                       first.code == "termination_for_convenience",
                                       (days or 0.0, term), notice_served, basis)
    if terms.auto_renewal:
        basis.append(BasisItem("auto_renewal", {
            "renewal_term_months": terms.renewal_term_months or 0.0,
            "renewal_notice_days": terms.renewal_notice_days or 0.0}, ev.get("auto_renewal")))
    return cost, committed


def _with_prepayment(terms: ContractTerms, cost: float, full: float | None, leaving_early: bool,
                     run_and_term: tuple[float, float | None], notice_served: str,
                     basis: list[BasisItem]) -> tuple[float, float | None]:
    """The cheapest way out and the full commitment with a prepayment: paid at signing, it is
    all committed; leaving early gets back only the refund schedule's share of it."""
    prepaid = terms.prepayment_usd or 0.0
    if prepaid <= 0:
        return cost, full
    days, term = run_and_term
    ev = terms.evidence
    schedule = getattr(terms, "prepaid_refund_schedule", None)
    if prepaid > cost and schedule and leaving_early:
        held = _days_held(terms, days, term or 0.0, notice_served)
        share = _refund_share(schedule, held)
        cost = prepaid - share * (prepaid - _kept_before_refund(terms, cost, prepaid, held, term))
        basis.append(BasisItem("prepayment_refund", {"usd": prepaid, "refund_pct": share * 100},
                               ev.get("prepaid_refund_schedule")))
    elif prepaid > cost and terms.prepayment_refundable is not True:
        cost = prepaid
        basis.append(BasisItem("prepayment", {"usd": prepaid}, ev.get("prepayment_usd")))
    # A refund lowers the cheapest way out, never what is committed at signing.
    return cost, max(full or 0.0, prepaid)


def _purchase(fields: OfferFields, terms: ContractTerms, estimates: Estimates,
              run: float | None, days: float | None, basis: list[BasisItem],
              buyback_settles: str = "window_end") -> tuple[float | None, float | None]:
    """Capex plus the running costs (power, colocation, service) the buyer cannot stop.

    The hardware is paid whatever the use (resale is credited only when the user states a
    resale value). The running costs follow their own contract: a non-cancellable
    colocation or service term, or one the contract is silent on leaving, is paid to its
    end; one the buyer may leave is paid for the run plus the notice.
    """
    capex = fields.capex_usd
    if capex is None:
        basis.append(BasisItem("no_price"))
        return None, None
    bvr = (estimates.model_extra or {}).get("buy_vs_rent") or {}
    owning = bvr.get("owning_usd_per_month")
    per_month = 0.0
    if owning is not None and fields.amortization_months:
        per_month = max(0.0, float(owning) - capex / fields.amortization_months)
    run_months = (days or 0.0) / DAYS_PER_MONTH
    term = terms.term_months if terms.term_months and terms.term_months > 0 else None
    # The hardware is bought whatever the words; a right to leave the running services
    # (colocation, managed service) is the buyer's even when the hardware order is
    # non-cancellable.
    if term is not None and not terms.customer_may_terminate_for_convenience:
        held = max(run_months, term)
    else:
        held = run_months + (terms.termination_notice_days or 0.0) / DAYS_PER_MONTH
        held = max(held, _earliest_exit_days(terms) / DAYS_PER_MONTH)
        if term is not None:
            held = min(held, max(run_months, term))
    ev = terms.evidence
    life = term or fields.amortization_months or held
    full = capex + per_month * max(life, held)
    buyback = _buyback(terms, capex, run_months, per_month, buyback_settles)
    if buyback is not None and buyback[0] < capex + per_month * held:
        cash, months, price = buyback
        basis.append(BasisItem("buyback", {"capex_usd": capex, "running_usd": per_month * months,
                                           "running_months": months, "buyback_usd": price},
                               ev.get("buyback")))
        return _max(cash, run), full
    basis.append(BasisItem("purchase", {"capex_usd": capex, "running_usd": per_month * held,
                                        "running_months": held},
                           ev.get("non_cancellable") or ev.get("term_months")))
    return _max(capex + per_month * held, run), full


def _buyback(terms: ContractTerms, capex: float, run_months: float, per_month: float,
             settles: str = "window_end") -> tuple[float, float, float] | None:
    """(cash, months held, price) of leaving through a seller's firm buy-back, if it can be.

    The seller is bound to buy the hardware back at a fixed price within a window (read by
    `exit_terms`); the buyer carries the running costs to the window's close, when the
    buy-back is settled at the latest (assumption `buyback_settles`; "window_start" carries
    them to the window's opening or the run's end, whichever is later). A run that outlasts
    the window cannot leave this way.
    """
    latest = getattr(terms, "buyback_latest_month", None)
    if latest is None or run_months > latest:
        return None
    earliest = getattr(terms, "buyback_earliest_month", None)
    held = float(latest)
    if settles == "window_start":
        held = max(run_months, float(earliest if earliest is not None else latest))
    price = getattr(terms, "buyback_usd", None)
    pct = getattr(terms, "buyback_pct_of_price", None)
    if price is None and pct is not None:
        price = pct / 100.0 * capex
    if price is None or not 0 < price < capex:
        return None
    return capex + per_month * held - price, held, float(price)


# ------------------------------------------------------------------ the anchor


@lru_cache(maxsize=8)
def best_public_usd_per_pflop(precision: str, mfu: float) -> float | None:
    """USD per PFLOP of model work at the cheapest public on-demand price and `mfu`."""
    best: float | None = None
    for acc_id, ref in _public_prices().items():
        try:
            peak = float(load_catalog().get(acc_id).dense_tflops_for(precision))
        except (UnknownAcceleratorError, UndefinedPrecisionError):
            continue
        usd = ref.min_usd_per_gpu_hour / (peak / 1000.0 * mfu * 3600.0)
        best = usd if best is None else min(best, usd)
    return best


def anchor_cost_usd(workload: Workload, assumptions: Mapping[str, Any] | None = None
                    ) -> float | None:
    """The workload's own yardstick: its model FLOPs at the best public price and MFU.

    Money value functions are scaled on it (never on the other bids), so a cost doubles its
    distance from the anchor whatever else is on the table.
    """
    if workload.kind == "inference" or not workload.tokens_b:
        return None
    values = assumption_values(None)
    mfu = float((assumptions or {}).get("anchor_mfu") or values["anchor_mfu"])
    per_pflop = best_public_usd_per_pflop(workload.precision, mfu)
    if per_pflop is None:
        return None
    flops = 6.0 * workload.compute_params_b * 1e9 * workload.tokens_b * 1e9
    return flops / 1e15 * per_pflop


def with_money(estimates: Estimates, money: Money) -> Estimates:
    """The estimates with the money keys set (the run cost replaces a basis-inflated total)."""
    data = estimates.model_dump()
    data.update(money.estimates())
    if money.free_usd:
        # The free hours are a line of the bill, so its parts still add up to the run cost.
        data["cost_breakdown_usd"] = {**(data.get("cost_breakdown_usd") or {}),
                                      "free_capacity": -money.free_usd}
        before = estimates.total_cost_usd
        if before and money.run_cost_usd is not None:
            # Every per-unit price of the run follows the run cost it is a share of.
            for key in ("effective_usd_per_gpu_hour", "usd_per_effective_pflop_hour",
                        "usd_per_million_tokens"):
                if isinstance(data.get(key), int | float):
                    data[key] = _sig(data[key] * money.run_cost_usd / before)
    return Estimates(**data)


def money_for(offer: Offer, estimates: Estimates, workload: Workload,
              assumptions: Mapping[str, Any] | None = None,
              terms: ContractTerms | None = None) -> Money:
    basis, resale, served = money_settings(assumptions, workload)
    values = assumption_values({k: v for k, v in (assumptions or {}).items()
                                if k in ("pay_per_use_commitment", "buyback_settles")} or None)
    return compute_money(offer.fields, estimates, terms or contract_terms(offer)[0], workload,
                         cost_basis=basis, resale_value_fraction=resale, notice_served=served,
                         pay_per_use_commitment=str(values["pay_per_use_commitment"]),
                         buyback_settles=str(values["buyback_settles"]))


def run_assumptions(assumptions: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Assumptions for `estimate_offer`: the money keys are this module's, not the run's."""
    if not assumptions:
        return None
    kept = {k: v for k, v in assumptions.items()
            if k not in ("cost_basis", "resale_value_fraction")}
    return kept or None


def estimate_with_money(offer: Offer, workload: Workload,
                        assumptions: Mapping[str, Any] | None = None,
                        terms: ContractTerms | None = None) -> Estimates:
    """`estimate_offer` plus the money of the decision: what scoring and what-ifs read."""

    estimates = estimate_offer(offer.fields, workload, run_assumptions(assumptions))
    terms = terms or contract_terms(offer)[0]
    # Capacity delivered in parts stretches the run before its money is counted.
    estimates = with_tranches(estimates, offer.fields, getattr(terms, "delivery_tranches", None),
                              workload, dict(assumptions or {}))
    # ... and so does the slowest hardware the vendor may substitute at its discretion.
    estimates = with_substitution(estimates, offer.fields,
                                  getattr(terms, "substitute_accelerators", None), workload)
    return with_money(estimates, money_for(offer, estimates, workload, assumptions, terms))


# ------------------------------------------------------------------ buy vs rent on the table


def owning_usd_per_month(fields: OfferFields, assumptions: Mapping[str, Any] | None = None
                         ) -> float | None:
    """A purchase's cost of ownership per month, with the capital's price and what is left.

    Capital: the equivalent annual cost of the capex at the cost of capital over the
    amortisation, less the residual value recovered at its end (capital recovery and
    sinking-fund factors; Brealey, Myers & Allen, "Principles of Corporate Finance", ch. 6,
    equivalent annual cost). Running: colocation per kW, or power per kWh times the PUE,
    plus opex. The rates are stated assumptions with public sources (assumptions.yaml).
    """
    if fields.capex_usd is None or not fields.amortization_months:
        return None
    values = assumption_values({k: v for k, v in (assumptions or {}).items()
                                if k in ("cost_of_capital_pct_per_year",
                                         "residual_value_fraction", "pue")} or None)
    r = float(values["cost_of_capital_pct_per_year"]) / 100.0 / 12.0  # per month
    n = float(fields.amortization_months)
    residual = float(values["residual_value_fraction"]) * fields.capex_usd
    if r > 0:
        growth = (1.0 + r) ** n
        capital = fields.capex_usd * r * growth / (growth - 1.0) - residual * r / (growth - 1.0)
    else:
        capital = (fields.capex_usd - residual) / n
    nodes = fields.node_count or (
        math.ceil((fields.gpu_count or 0) / fields.gpus_per_node) if fields.gpus_per_node else 0)
    kw = (fields.power_kw_per_node or 0.0) * nodes
    running = fields.opex_usd_per_month or 0.0
    if fields.colocation_usd_per_kw_month is not None:
        running += kw * fields.colocation_usd_per_kw_month  # facility overhead priced in
    elif fields.power_usd_per_kwh is not None:
        running += kw * float(values["pue"]) * HOURS_PER_MONTH * fields.power_usd_per_kwh
    return float(capital + running)


def _exit_code(estimates: Estimates) -> str | None:
    basis = (estimates.model_extra or {}).get("minimum_cash_to_sign_basis") or []
    return str(basis[0].get("code")) if basis and isinstance(basis[0], Mapping) else None


def buy_vs_rent_on_table(purchase: Offer, purchase_estimates: Estimates,
                         rentals: Sequence[tuple[Offer, Estimates]],
                         assumptions: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """A purchase against the cheapest pay-per-use rental on the table, per unit of work.

    Break-even utilisation = owning cost per month / what the best rental charges for the
    work the owned cluster does in a month at full use (both in USD per effective
    PFLOP-hour, so a faster rental counts as faster). Buying wins when the hardware is busy
    more than that share of its life. The workload's own utilisation is its GPU-hours over
    the cluster's GPU-hours in the amortisation period.
    """
    owning = owning_usd_per_month(purchase.fields, assumptions)
    extra = purchase_estimates.model_extra or {}
    own_per_pflop_h = extra.get("usd_per_effective_pflop_hour")
    own_cost = purchase_estimates.total_cost_usd
    if owning is None or not own_per_pflop_h or not own_cost:
        return None
    # PFLOP-hours of useful work a month at full use: the run's work rate times 730 h.
    f = purchase.fields
    gpus = f.gpu_count or 0
    gpu_hours = extra.get("gpu_hours")
    if not gpus or not gpu_hours:
        return None
    work_pflop_h = own_cost / float(own_per_pflop_h)  # the run's useful work
    work_per_month_full = work_pflop_h / float(gpu_hours) * gpus * HOURS_PER_MONTH
    # Utilisation matters against capacity paid for only while used (no term); a reserved
    # term is paid whatever the use, like the purchase itself: its money is the comparison.
    pay_per_use = [(o, e) for o, e in rentals if _exit_code(e) == "no_term"]
    best: tuple[float, Offer] | None = None
    for offer, est in pay_per_use:
        price = (est.model_extra or {}).get("usd_per_effective_pflop_hour")
        if price and (best is None or float(price) < best[0]):
            best = (float(price), offer)
    out: dict[str, Any] = {
        "offer_id": purchase.id,
        "owning_usd_per_month": _sig(owning),
        "owning_usd_per_gpu_hour_at_full_use": _sig(owning / (gpus * HOURS_PER_MONTH)),
        "workload_utilisation": _sig(float(gpu_hours) / (
            gpus * HOURS_PER_MONTH * float(f.amortization_months or 1))),
    }
    if best is not None:
        out["best_rental_id"] = best[1].id
        out["best_rental_usd_per_effective_pflop_hour"] = _sig(best[0])
        out["break_even_utilisation"] = _sig(owning / (work_per_month_full * best[0]))
    elif f.accelerator:
        # No pay-per-use rental on the table: the same hardware at the public on-demand
        # median (data/public_prices.csv) is the rent a buyer can always fall back on.
        reference = public_price_reference(f.accelerator)
        if reference is not None and reference.median_usd_per_gpu_hour:
            median = float(reference.median_usd_per_gpu_hour)
            out["public_on_demand_usd_per_gpu_hour"] = _sig(median)
            out["break_even_utilisation"] = _sig(owning / (gpus * HOURS_PER_MONTH) / median)
    return out
