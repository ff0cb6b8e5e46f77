"""The shapes the memo and the full report lay out: rows, figures, flags, limits.

Every string in them is already formatted for humans; templates only place them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal["memo", "full"]


@dataclass(frozen=True)
class Limits:
    """How much the memo shows; tightened step by step until the PDF fits two pages."""

    quote_chars: int
    flags_per_offer: int
    flags_total: int
    changes: int
    ranking_rows: int
    exclusions: int
    font_pt: float
    name_chars: int


MEMO_LEVELS: tuple[Limits, ...] = (
    Limits(280, 3, 12, 5, 15, 8, 9.5, 70),
    Limits(200, 2, 9, 4, 15, 6, 9.0, 56),
    Limits(140, 1, 7, 3, 15, 5, 8.5, 48),
    Limits(100, 1, 5, 3, 15, 4, 8.0, 40),
)


FULL_LIMITS = Limits(2000, 1000, 100_000, 8, 100_000, 100_000, 9.0, 200)


@dataclass(frozen=True)
class RankRow:
    rank: int
    offer_id: str
    vendor: str
    offer_name: str
    accelerator: str
    score: str
    eligible: bool
    total_cost: str
    days: str
    model_ready: str
    usd_per_gpu_hour: str
    mfu: str
    gpus: str
    win_probability: str
    top_flag: str
    is_winner: bool
    offer_line: str = ""  # the offer's name, with the accelerator when the name lacks it
    commitment: str = ""  # "commits $21.1M" when signing commits far more than the run
    quoted_price: str = ""  # "quoted $2.35" when the effective price differs by > 5%


@dataclass(frozen=True)
class MoneyRow:
    """The money of one offer, side by side with the others (memo and full report)."""

    offer_id: str
    name: str
    eligible: bool
    is_winner: bool
    run_cost: str
    minimum_cash: str
    how: str  # how the cheapest way out is reached, with the clause
    full_commitment: str
    cost_of_delay: str
    economic_cost: str


@dataclass(frozen=True)
class Exclusion:
    name: str
    reasons: list[str]
    kind: Literal["gate", "not_evaluated"]


@dataclass(frozen=True)
class FlagView:
    offer_id: str
    vendor: str
    kind: str
    severity: str
    quote: str
    where: str
    why: str
    ask_for: str


@dataclass(frozen=True)
class KeyFigure:
    label: str
    value: str
    runner_up: str = ""  # the runner-up's figure, bare ("$1.65M"); "" when there is none
    note: str = ""  # a short line under the figure ("12-month term; the run uses 7%")


@dataclass(frozen=True)
class CategoryTable:
    name: str
    title: str
    weight: str
    criteria: list[tuple[str, str]]  # (label, "unit · weight 8%")
    rows: list[tuple[str, str, list[tuple[str, bool]]]]  # label, score, ("value · score", missing)


@dataclass(frozen=True)
class OfferDetail:
    """Per-offer detail for the full report: estimates, gates, findings, provenance."""

    offer_id: str
    title: str
    short_title: str  # cut to fit one line of a wide table
    rank: int
    eligible: bool
    source: str
    estimates: list[str]  # one cell per ESTIMATE_COLUMNS
    mfu_losses: str
    gates: list[tuple[str, str, str]]  # gate, status, why
    flags: list[FlagView]
    missing: list[str]
    trace: list[tuple[str, str, str, str]]  # criterion, value, where/note, score


@dataclass
class ReportView:
    kind: Kind
    page_size: str
    limits: Limits
    title: str
    subtitle: str
    as_of: str
    headline: str
    facts: str
    runner_up: str  # the runner-up's run cost, minimum cash to sign and economic cost
    confidence: str
    confidence_line: str
    key_figures: list[KeyFigure]
    price_note: str
    ranking: list[RankRow]
    ranking_more: int
    money: list[MoneyRow]
    buy_vs_rent: list[str]
    cost_basis_note: str

    @property
    def money_by_id(self) -> dict[str, MoneyRow]:
        return {row.offer_id: row for row in self.money}
    exclusions: list[Exclusion]
    exclusions_more: int
    unverified: list[str]
    red_flags: list[FlagView]
    red_flags_more: int
    changes: list[str]
    basis: list[tuple[str, str]]
    inputs: list[str]
    # full report only
    category_scores: list[tuple[str, list[str]]] = field(default_factory=list)
    category_names: list[str] = field(default_factory=list)
    category_tables: list[CategoryTable] = field(default_factory=list)
    details: list[OfferDetail] = field(default_factory=list)
    break_evens: list[tuple[str, str, str, str]] = field(default_factory=list)
    price_cuts: list[tuple[str, str, str]] = field(default_factory=list)
    rank_intervals: list[tuple[str, str]] = field(default_factory=list)
    dominance: list[str] = field(default_factory=list)
    questions: list[tuple[str, str, str, str]] = field(default_factory=list)
    missing: list[tuple[str, str]] = field(default_factory=list)
    assumptions: list[tuple[str, str]] = field(default_factory=list)
    workload: list[tuple[str, str]] = field(default_factory=list)
    rubric_head: list[tuple[str, str]] = field(default_factory=list)
    rubric_categories: list[tuple[str, str]] = field(default_factory=list)
    rubric_criteria: list[list[str]] = field(default_factory=list)
    not_evaluated: list[Exclusion] = field(default_factory=list)
    charts: dict[str, Any] = field(default_factory=dict)
    estimate_headers: list[str] = field(default_factory=list)
    gate_names: list[str] = field(default_factory=list)
