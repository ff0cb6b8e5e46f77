"""The main job as a library call: files in, a ScoreReport out.

read offers → normalise → estimate → analyse clauses → score → sensitivity. Every
stage has typed inputs and outputs; this module only wires them together and makes
sure that one bad offer never stops the others (PRODUCT.md: nothing is lost).
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaltool.clauses import TextSegment, analyse_segments
from evaltool.decide.core import check_method, decide
from evaltool.errors import EvaltoolError, Location, Problem, UsageError
from evaltool.estimate.contract import with_contract_facts
from evaltool.estimate.money import contract_terms, estimate_with_money
from evaltool.issues import severity_rank
from evaltool.market.compare import MarketIndex, compare_quote, default_market_index
from evaltool.market.scoring import best_market_offers, is_market_offer
from evaltool.models import (
    Estimates,
    FieldSource,
    Flag,
    NotEvaluated,
    Offer,
    OfferFields,
    OfferResult,
    ScoreReport,
    Workload,
    share_fields_sets,
)
from evaltool.normalize.core import normalize_files
from evaltool.normalize.teach import load_user_mapping
from evaltool.read import check_fx_rate, read_fx_file, sniff_input_kind
from evaltool.read.safety import problem_for_exception
from evaltool.report import flag_words
from evaltool.report.basis import default_workload_note
from evaltool.report.decide_words import decision_with_words
from evaltool.report.finding_words import with_words
from evaltool.report.progress import track  # a bar on a terminal's stderr, else nothing
from evaltool.report.score_words import criteria_with_words, gates_with_words
from evaltool.resources import data_dir
from evaltool.score.core import ScoredOffer, rank, score_offer, to_result
from evaltool.score.rubric import Rubric, load_rubric
from evaltool.version import __version__
from evaltool.workload import is_bundled_example, load_workload


def today() -> dt.date:
    """The run's date: SOURCE_DATE_EPOCH when set (reproducible builds), else today (UTC)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.UTC).date()
    return dt.datetime.now(tz=dt.UTC).date()


@dataclass
class Inputs:
    """The files of one run, sorted by what they are."""

    offers: list[Path] = field(default_factory=list)
    workloads: list[Path] = field(default_factory=list)
    fx_files: list[Path] = field(default_factory=list)
    rubrics: list[Path] = field(default_factory=list)


def sort_inputs(paths: Sequence[Path], *, inputs_may_configure: bool = False) -> Inputs:
    """`evaltool score offers/*` may pass the workload and rates files too.

    A workload, rates or rubric file among the inputs configures the run only when it is one
    of the project's own examples or `inputs_may_configure` is set; otherwise it stays among
    the offers, where reading refuses it (code `not-an-offer`): a vendor's file never
    reconfigures a run. A file given twice (by any two paths) is read once.
    """
    inputs = Inputs()
    seen: set[Path] = set()
    for path in sorted(paths, key=str):
        try:
            real = Path(path).resolve()
        except (OSError, RuntimeError):
            real = Path(path)
        if real in seen:
            continue
        seen.add(real)
        try:
            kind = sniff_input_kind(path)
        except Exception:  # an unreadable file is an offer the reader will report
            kind = "offer"
        if kind != "offer" and not (inputs_may_configure or is_bundled_example(path)):
            kind = "offer"
        {"offer": inputs.offers, "workload": inputs.workloads, "fx_rates": inputs.fx_files,
         "rubric": inputs.rubrics}[kind].append(path)
    return inputs


def parse_fx(specs: Sequence[str], files: Sequence[Path] = ()) -> dict[str, float]:
    """Each spec "EUR=1.10" means 1 EUR = 1.10 USD.

    A spec overrides a rates file (the user said so on this run); two rates files, or two
    specs, that disagree on a currency are an error, never a silent choice. Errors carry
    ``setting="fx"``.
    """

    from_files: dict[str, tuple[float, Path]] = {}
    for path in files:
        for code, rate in read_fx_file(path).items():
            if code in from_files and from_files[code][0] != rate:
                other = from_files[code][1]
                raise UsageError(Problem(None, code="fx-files-conflict", params={
                    "currency": code, "first": from_files[code][0], "first_file": str(other),
                    "second": rate, "second_file": str(path)}), setting="fx")
            from_files[code] = (rate, path)
    from_flags: dict[str, float] = {}
    for spec in specs:
        code, sep, rate_text = spec.partition("=")
        code = code.strip().upper()
        try:
            rate = float(rate_text)
        except ValueError:
            rate = float("nan")
        if not sep or len(code) != 3 or not code.isalpha():
            raise UsageError(Problem(None, code="fx-flag-malformed", params={"found": repr(spec)}),
                             setting="fx")
        try:
            check_fx_rate(code, rate, repr(spec))
        except UsageError as exc:
            raise UsageError(exc.issues, setting="fx") from None
        if code in from_flags and from_flags[code] != rate:
            raise UsageError(Problem(None, code="fx-flag-given-twice", params={
                "currency": code, "first": from_flags[code], "second": rate}), setting="fx")
        from_flags[code] = rate
    rates = {"USD": 1.0}
    rates.update({code: rate for code, (rate, _) in from_files.items()})
    rates.update(from_flags)
    return rates


def resolve_workload(explicit: Path | None, candidates: Sequence[Path]) -> tuple[Workload, str]:

    if explicit is not None:
        return load_workload(explicit), str(explicit)
    if len(candidates) > 1:
        names = ", ".join(str(p) for p in candidates)
        raise UsageError(Problem(None, code="several-workloads", params={"names": names}),
                         setting="workload")
    if candidates:
        return load_workload(candidates[0]), str(candidates[0])
    default = load_workload(data_dir() / "default-workload.yaml")
    return default, default_workload_note(default)


RUBRIC_FOR_KIND = {"pretraining": "llm-pretraining", "fine-tuning": "fine-tuning",
                   "inference": "llm-inference"}


def rubric_for(workload: Workload, rubric: str | Path | None) -> Rubric:
    """The rubric named, or the shipped one for the workload's kind; they must match."""
    the_rubric = load_rubric(rubric or RUBRIC_FOR_KIND[workload.kind])
    if the_rubric.workload_kind != workload.kind:
        raise UsageError(Problem(None, code="rubric-workload-mismatch", params={
            "rubric": repr(the_rubric.name), "rubric_kind": the_rubric.workload_kind,
            "workload": repr(workload.name), "kind": workload.kind,
            "suggested": RUBRIC_FOR_KIND[workload.kind]}), setting="rubric")
    return the_rubric


@dataclass
class Evaluated:
    """One offer after every stage, ready to rank."""

    scored: ScoredOffer
    analysis: Any = None


def analyse_contract(offer: Offer) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Clause findings and contract figures for an offer's contract text."""
    if not offer.contract_segments:
        return [], []

    segments = [
        TextSegment(
            text=str(s["text"]),
            where=Location(**s["where"]) if isinstance(s.get("where"), Mapping)
            else Location(str(offer.source.get("file", offer.id))),
            section=s.get("section"),
            clause_ref=s.get("clause_ref"),
        )
        for s in offer.contract_segments
    ]
    vendor_names = [n for n in (offer.fields.vendor,) if n]
    analysis = analyse_segments(segments, vendor_names=vendor_names)
    findings = [with_words(f).model_dump(mode="json") for f in analysis.findings]
    figures = [f.model_dump(mode="json") for f in analysis.figures]
    return findings, figures


def apply_contract_figures(offer: Offer, figures: Sequence[Mapping[str, Any]]) -> Offer:
    """Fill canonical fields the offer left empty from figures found in its contract."""

    updates: dict[str, Any] = {}
    provenance = dict(offer.provenance)
    committed_delivery = any(
        f.get("field") == "delivery_date" and f.get("committed") is not False for f in figures
    )
    for fig in figures:
        if (fig.get("field") == "delivery_target_date" and not committed_delivery
                and offer.fields.delivery_date is None and "delivery_date" not in updates):
            # The best evidence of when capacity arrives, though not a commitment (flagged).
            updates["delivery_date"] = fig.get("value")
            provenance["delivery_date"] = FieldSource(
                where=dict(fig.get("where") or {}), raw=fig.get("quote"),
                note="a target date in the contract text, not a commitment",
            )
            continue
        name = fig.get("field")
        if not name or name not in OfferFields.model_fields or name in updates:
            continue
        if fig.get("committed") is False:
            continue  # a hedged figure ("aims for 99.9%") is not a commitment
        if getattr(offer.fields, name) is not None:
            continue
        updates[name] = fig.get("value")
        provenance[name] = FieldSource(
            where=dict(fig.get("where") or {}), raw=fig.get("quote"),
            note="read from the contract text", from_contract=True,
        )
    if not updates:
        return offer
    from pydantic import ValidationError

    try:
        fields = OfferFields.model_validate({**offer.fields.model_dump(), **updates})
    except ValidationError:
        return offer  # a figure that does not validate is left out, not fatal
    return offer.model_copy(update={"fields": fields, "provenance": provenance})


# A "missing essential" finding and the offer field that can state the same thing.
_ESSENTIAL_FIELDS = {
    "delivery_date": "delivery_date",
    "uptime_figure": "sla_uptime_pct",
    "hw_replacement": "hw_replacement_hours",
    "support_response": "support_response_hours",
}
_DOWNGRADE = {"high": "medium", "medium": "low", "low": "info", "info": "info"}


def reconcile_missing(offer: Offer, findings: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A contract silent on something the quote states is a softer problem than silence.

    The quote's figure is not contractual until it is in the terms, so the finding stays,
    one severity lower, and says where the quote states it.
    """
    out = []
    for finding in findings:
        f = dict(finding)
        essential = (f.get("figures") or {}).get("essential")
        field_name = _ESSENTIAL_FIELDS.get(str(essential))
        if f.get("kind") == "missing" and field_name:
            value = getattr(offer.fields, field_name)
            source = offer.provenance.get(field_name)
            from_contract = source is not None and source.from_contract
            if value is not None and not from_contract:
                where = source.where if source else offer.source
                place = " › ".join(str(v) for v in where.values())
                f["severity"] = _DOWNGRADE.get(str(f.get("severity")), "low")
                f["code"] = "stated-only-in-quote"
                f["figures"] = {**(f.get("figures") or {}), "field": field_name,
                                "value": value, "where": place}
                f["why"] = flag_words.stated_only_in_quote(f["figures"])
                f["where"] = dict(where)
        out.append(f)
    return out


# Finding kinds reported even at low severity; every other finding of medium severity or
# above reaches the flags too (the memo groups them per vendor with the wording to ask for).
_FINDING_FLAG_KINDS = {"weak_commitment", "lock_in", "unilateral_change"}
_FLAG_SEVERITIES = ("high", "medium")


def findings_to_flags(findings: Sequence[Mapping[str, Any]]) -> list[Flag]:
    flags = []
    for f in findings:
        kind = str(f.get("kind", ""))
        severity = f.get("severity")
        if severity == "info":
            continue
        if (
            severity not in _FLAG_SEVERITIES
            and kind not in _FINDING_FLAG_KINDS
            and not kind.startswith("missing")
        ):
            continue
        flags.append(
            Flag(
                code=str(f.get("code") or ""),
                kind=kind,
                severity=severity or "medium",
                quote=f.get("quote"),
                where=f.get("where"),
                why=str(f.get("why") or kind.replace("_", " ")),
                ask_for=f.get("ask_for"),
                figures={**(f.get("figures") or {}), "topic": f.get("topic")},
            )
        )
    return flags


def assumption_flags(estimates: Estimates) -> list[Flag]:
    assumed = estimates.explain.get("assumed") if isinstance(estimates.explain, dict) else None
    return [
        Flag(kind="assumption", severity="low", why=str(text), figures={"assumption": str(text)})
        for text in (assumed or [])
    ]


def commitment_flags(offer: Offer, estimates: Estimates) -> list[Flag]:
    """A term commitment far above what the run uses is money leadership must see."""

    extra = estimates.model_extra or {}
    committed = extra.get("full_commitment_usd")
    minimum = extra.get("minimum_cash_to_sign_usd")
    run_cost = estimates.total_cost_usd
    if not committed or not run_cost or committed <= run_cost * 1.2:
        return []
    figures = {"committed_usd": committed, "run_cost_usd": run_cost,
               "term_months": offer.fields.term_months, "minimum_cash_usd": minimum}
    return [Flag(
        code="commitment-exceeds-run",
        kind="commitment_exceeds_run",
        severity="medium" if run_cost / committed < 0.5 else "low",
        figures=figures,
        why=flag_words.commitment_exceeds_run(figures),
        where=dict(offer.provenance["term_months"].where)
        if "term_months" in offer.provenance else dict(offer.source),
    )]


def public_price_flags(offer: Offer, market: MarketIndex | None = None,
                       estimates: Estimates | None = None) -> list[Flag]:
    """A rental quote beside public offers of the same accelerator and commitment class.

    The figures (offers compared, median, snapshot date) go into the estimates as
    ``public_market`` when ``estimates`` is given. List-price rows themselves are not compared.
    """
    if is_market_offer(offer):
        return []
    flags, figures = compare_quote(offer, market or default_market_index())
    if figures is not None and estimates is not None:
        setattr(estimates, "public_market", figures)  # noqa: B010 (an extra key of Estimates)
    return [flag_words.with_words(f) for f in flags]


def validity_flags(offer: Offer, as_of: dt.date | None) -> list[Flag]:
    """A quote past its validity date is not an offer any more: its prices must be re-confirmed."""
    valid_until = offer.fields.valid_until
    if as_of is None or valid_until is None or valid_until >= as_of:
        return []
    source = offer.provenance.get("valid_until")
    figures = {"valid_until": valid_until.isoformat(), "as_of": as_of.isoformat()}
    return [Flag(
        code="quote-expired", kind="quote_expired", severity="high", figures=figures,
        why=flag_words.quote_expired(figures),
        where=dict(source.where) if source else dict(offer.source),
        quote=source.raw if source else None,
    )]


def evaluate_offer(
    offer: Offer, rubric: Rubric, workload: Workload, assumptions: Mapping[str, Any] | None,
    *, as_of: dt.date | None = None, market: MarketIndex | None = None,
) -> ScoredOffer:
    findings, figures = analyse_contract(offer)
    offer = apply_contract_figures(offer, figures)
    findings = reconcile_missing(offer, findings)
    terms, term_flags = contract_terms(offer)
    offer = with_contract_facts(offer, terms)  # a hedged delivery date carries its slip
    estimates = estimate_with_money(offer, workload, assumptions, terms)
    valid_until = offer.fields.valid_until
    if as_of is not None and valid_until is not None:
        # An expired quote is not an offer any more: the `quote_valid` gate reads this.
        setattr(estimates, "quote_valid", valid_until >= as_of)  # noqa: B010 (an extra key)
    scored = score_offer(offer, estimates, rubric, workload, findings)
    scored.gates = gates_with_words(scored.gates, rubric)
    scored.criteria = criteria_with_words(scored.criteria)
    scored.terms = terms
    flags = (list(offer.flags) + term_flags + validity_flags(offer, as_of)
             + findings_to_flags(findings)
             + commitment_flags(offer, estimates)
             + public_price_flags(offer, market, scored.estimates)
             + assumption_flags(estimates))
    scored.flags = sorted((flag_words.with_words(f) for f in flags),
                          key=lambda fl: (severity_rank(fl.severity), fl.kind))
    share_fields_sets([*scored.criteria, *scored.gates, *scored.flags,
                       *scored.offer.provenance.values()])
    return scored


def score_files(
    paths: Sequence[Path],
    *,
    rubric: str | Path | None = None,
    workload: Path | None = None,
    fx: Sequence[str] = (),
    assumptions: Mapping[str, Any] | None = None,
    seed: int = 0,
    draws: int = 10_000,
    as_of: dt.date | None = None,
    method: str = "weighted",
    market: int = 0,
    map_file: Path | None = None,
    inputs_may_configure: bool = False,
) -> ScoreReport:
    """The whole main job. Raises UsageError only for a bad flag, rubric or workload.

    `market` > 0 scores that many public offers (list prices, `evaltool.market`) beside the
    quotes; they are ranked with the quotes but never recommended: the decision analysis
    (`decide`) sees the quotes only.

    `method` ("weighted", "topsis" or "vikor") adds a cross-check of the ranking to the
    sensitivity; the ranking itself is always the weighted additive value.
    `inputs_may_configure` lets workload, rates and rubric files among `paths` configure the
    run (always allowed for the project's own example files); otherwise they are listed as
    not evaluated.
    """

    inputs = sort_inputs(paths, inputs_may_configure=inputs_may_configure)
    if inputs.rubrics and rubric is None:
        rubric = inputs.rubrics[0]

    check_method(method)
    if not inputs.offers:
        given = ", ".join(str(p) for p in paths) or "nothing"
        raise UsageError(Problem(None, code="no-offer-files", params={"given": given}))
    the_workload, workload_note = resolve_workload(workload, inputs.workloads)
    # Monetise first: criteria the cost of delay already prices give their weight to money.
    the_rubric = rubric_for(the_workload, rubric).priced_for(
        the_workload.cost_of_delay_usd_per_day)
    run_date = as_of or today()
    if the_workload.start_date is None:
        the_workload = the_workload.model_copy(update={"start_date": run_date})
    rates = parse_fx(fx, inputs.fx_files)

    mapping = load_user_mapping(map_file) if map_file else None
    normalized = normalize_files(inputs.offers, rates, mapping)
    not_evaluated = list(normalized.not_evaluated)
    scored: list[ScoredOffer] = []

    index = default_market_index()
    public = best_market_offers(index.market, the_workload, market, assumptions=assumptions)
    for offer in track([*normalized.offers, *public], "Scoring offers"):
        where = Location(str(offer.source.get("file", offer.id)), sheet=offer.source.get("sheet"),
                         key=offer.source.get("key"))
        try:
            scored.append(evaluate_offer(offer, the_rubric, the_workload, assumptions,
                                         as_of=run_date, market=index))
        except EvaltoolError as exc:
            problem = Problem(where, code="input-refused", params={"reason": str(exc)})
            not_evaluated.append(NotEvaluated(source=offer.source, errors=[problem.to_dict()]))
        except Exception as exc:  # one offer's failure never takes the batch down
            problem = problem_for_exception(exc, where, "scoring")
            not_evaluated.append(NotEvaluated(source=offer.source, errors=[problem.to_dict()]))
    ranked = rank(scored)
    quotes = [s for s in ranked if not is_market_offer(s.offer)]
    # Each offer lives on in its result only: at thousands of market rows, holding every
    # scored offer beside its result would double the memory of the run.
    scored.clear()
    pending = ranked[::-1]
    ranked.clear()
    results: list[OfferResult] = []
    while pending:
        results.append(to_result(pending.pop(), len(results) + 1))

    sensitivity, recommendation = decide(
        quotes, the_rubric, the_workload, assumptions, seed=seed, draws=draws, method=method,
    )
    decision_with_words(sensitivity, recommendation, the_rubric)
    return ScoreReport(
        evaltool_version=__version__,
        offers=results,
        not_evaluated=sorted(not_evaluated, key=lambda n: str(n.source.get("file", ""))),
        rubric=the_rubric.model_dump(mode="json"),
        workload=the_workload.model_dump(mode="json") | {"source": workload_note},
        assumptions={
            "inputs": {
                "offers": [str(p) for p in inputs.offers],
                "workload": workload_note,
                "fx_files": [str(p) for p in inputs.fx_files],
                "rubric": str(rubric or "llm-pretraining"),
            },
            "as_of": run_date.isoformat(),
            "fx_usd_per_unit": dict(sorted(rates.items())),
            "hours_per_month": 730,
            "seed": seed,
            "smaa_draws": draws,
            "method": method,
            "overrides": dict(assumptions or {}),
            "public_market": {"snapshot_dates": index.market.dates,
                              "offers_scored": len(public)},
        },
        sensitivity=sensitivity,
        recommendation=recommendation,
    )
