"""Typed results of contract clause analysis (the public shapes the rest of evaltool reads)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from evaltool.errors import Location

Severity = Literal["high", "medium", "low", "info"]
Obligor = Literal["vendor", "customer", "both", "unknown"]

# The six labels of shared/data/clauses/cuad-dev.csv (README "Label definitions").
DEV_LABELS: tuple[str, ...] = (
    "weak_commitment",
    "firm_commitment",
    "remedy",
    "liability_cap",
    "termination_exit",
    "other",
)

@dataclass(frozen=True)
class TextSegment:
    """One block of contract text and where it stands (a file, a sheet+cell, or a YAML key).

    ``section``: the heading or topic the block stands under; ``clause_ref``: the vendor's
    own clause number for it when the document gives one apart from the text (the RFP
    template's "Clause reference" column)."""

    text: str
    where: Location
    section: str | None = None
    clause_ref: str | None = None


class Finding(BaseModel):
    """One clause that matters (or one essential term that is missing)."""

    model_config = ConfigDict(frozen=False)

    code: str = ""  # registered issue code; follows kind unless given
    kind: str
    severity: Severity
    obligor: Obligor
    topic: str | None
    quote: str  # exactly as written in the source
    where: dict[str, Any]
    # The sentence, written by evaltool.report.finding_words from code and figures when the
    # finding is shown; the stage leaves it empty.
    why: str = ""
    figures: dict[str, Any] = Field(default_factory=dict)
    ask_for: str | None = None
    tier: str | None = None
    has_remedy: bool | None = None

    @model_validator(mode="after")
    def _default_code(self) -> Finding:
        if not self.code:
            self.code = self.kind.replace("_", "-")
        return self


class ContractFigure(BaseModel):
    """A figure read from contract text, named like the canonical offer field it can fill."""

    field: str
    value: Any
    quote: str
    where: dict[str, Any]
    unit: str | None = None
    committed: bool | None = None  # False when the figure is only a target or hedged


class ClauseAnalysis(BaseModel):
    """Everything clause analysis found in one or more contract texts."""

    sources: list[str]
    findings: list[Finding]
    figures: list[ContractFigure]
    summary: dict[str, int]
    vendor: str | None = None  # the vendor party the analysis assumed, when known

    def weak_commitments(self) -> list[Finding]:
        return [f for f in self.findings if f.kind == "weak_commitment"]

    def figure(self, field: str) -> ContractFigure | None:
        """The first figure for a canonical field, or None."""
        for fig in self.figures:
            if fig.field == field:
                return fig
        return None


def summarise(findings: list[Finding]) -> dict[str, int]:
    """Counts by kind and by severity, in a stable order (deterministic JSON)."""
    by_kind = Counter(f.kind for f in findings)
    by_severity = Counter(f.severity for f in findings)
    summary: dict[str, int] = {"findings": len(findings)}
    for kind in sorted(by_kind):
        summary[f"kind.{kind}"] = by_kind[kind]
    for sev in ("high", "medium", "low", "info"):
        summary[f"severity.{sev}"] = by_severity.get(sev, 0)
    return summary


class TermEvidence(BaseModel):
    """Where one structured contract term was read: the sentence as written and its place."""

    quote: str
    where: dict[str, Any]
    clause_ref: str | None = None  # the vendor's own clause number ("§7.2", "12.3(b)") if given


class ContractTerms(BaseModel):
    """The commercial terms of a contract as facts the money model and the memo use.

    A field is None when the contract is silent; ``evidence`` maps each stated field to the
    sentence it was read from.

    Money is kept as stated: ``<fact>_amount`` and ``<fact>_currency`` (ISO 4217, e.g.
    "EUR") for the termination fee, the prepayment and the minimum commitment, whatever the
    currency; ``<fact>_usd`` only when the contract states the amount in US dollars. A
    contract priced in another currency leaves ``<fact>_usd`` None, and the money model
    converts ``<fact>_amount`` at the run's exchange rates (never at a rate fixed here).

    Filled by clause analysis (``evaltool.clauses``); read by the money of the decision
    (minimum cash to sign, cost of exit) in ``evaltool.estimate``.
    """

    term_months: float | None = None
    non_cancellable: bool | None = None
    customer_may_terminate_for_convenience: bool | None = None
    termination_for_convenience_by: Literal["customer", "vendor", "both"] | None = None
    termination_notice_days: float | None = None
    termination_fee_pct_of_remaining: float | None = None  # 0-100
    termination_fee_usd: float | None = None
    termination_fee_amount: float | None = None  # as stated, in termination_fee_currency
    termination_fee_currency: str | None = None  # ISO 4217
    auto_renewal: bool | None = None
    renewal_term_months: float | None = None
    renewal_notice_days: float | None = None
    prepayment_usd: float | None = None
    prepayment_amount: float | None = None  # as stated, in prepayment_currency
    prepayment_currency: str | None = None  # ISO 4217
    prepayment_refundable: bool | None = None
    min_commit_usd: float | None = None
    min_commit_amount: float | None = None  # as stated, in min_commit_currency
    min_commit_currency: str | None = None  # ISO 4217
    # A floor that recurs: at least this much in every period of this many months, a
    # shortfall billed each period ("USD 150,000 in each month", no carry-forward).
    min_commit_per_period_usd: float | None = None
    min_commit_per_period_amount: float | None = None  # as stated
    min_commit_per_period_currency: str | None = None  # ISO 4217
    min_commit_period_months: float | None = None
    sla_uptime_pct: float | None = None
    sla_max_credit_pct: float | None = None
    credits_sole_remedy: bool | None = None
    hw_replacement_hours: float | None = None
    support_response_hours: float | None = None
    delivery_date: str | None = None  # ISO date
    delivery_date_hedged: bool | None = None  # "target", "estimated", "subject to allocation"
    egress_usd_per_gb: float | None = None
    data_export_days: float | None = None
    price_escalation_pct_per_year: float | None = None
    evidence: dict[str, TermEvidence] = Field(default_factory=dict)
