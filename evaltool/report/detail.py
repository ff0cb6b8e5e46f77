"""The full report's per-offer detail: category tables, estimates, gates and the trace of
every value to the cell it was read from."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evaltool.models import OfferResult, ScoreReport
from evaltool.report import fmt
from evaltool.report.flags import flag_views
from evaltool.report.names import criterion_spec, offer_title
from evaltool.report.picks import _get, _ranked
from evaltool.report.view_model import FULL_LIMITS, CategoryTable, OfferDetail


def category_order(report: ScoreReport) -> list[str]:
    names: list[str] = list(report.rubric.get("categories") or {})
    for offer in report.offers:
        for name in offer.categories:
            if name not in names:
                names.append(name)
    return fmt.order_categories(names)


# A rubric criterion's unit (rubrics/*.yaml `unit`) as a table header shows it, and how a
# value in that unit prints; the header carries the unit so cells stay short.
def _unit_display(unit: Any) -> tuple[str, Any]:
    text = fmt.clean_text(unit, 40)
    if not text or text in ("score", "yes/no"):
        return "", fmt.any_value
    if text.startswith("fraction"):
        rest = text.removeprefix("fraction").strip()
        return f"% {rest}".strip(), _share
    if text.startswith("percent"):
        rest = text.removeprefix("percent").strip()
        return f"% {rest}".strip(), fmt.number
    short = {"hours": "h", "usable / needed": "usable ÷ needed"}
    if text == "USD per GB":
        return "$/GB", _price_or_text
    if text.startswith("USD per PFLOP-hour"):
        return "$/PFLOP-h", _price_or_text
    return short.get(text, text), fmt.any_value


def _price_or_text(value: Any) -> str:
    return fmt.price(value) if fmt.as_number(value) is not None else fmt.any_value(value)


def _share(value: Any) -> str:
    x = fmt.as_number(value)
    if x is None:
        return fmt.any_value(value)
    return fmt.pct(x, 1) if abs(x) < 0.1 else fmt.pct(x)


def category_tables(report: ScoreReport) -> list[CategoryTable]:
    weights = report.rubric.get("categories") or {}
    criteria_order: dict[str, list[tuple[str, float | None]]] = {}
    for offer in report.offers:
        for c in offer.criteria:
            known = criteria_order.setdefault(c.category, [])
            if c.criterion not in [k for k, _ in known]:
                known.append((c.criterion, c.weight))
    tables = []
    ranked = _ranked(report)
    titles = {o.id: offer_title(o, 34) for o in ranked}
    for cat in category_order(report):
        crit = criteria_order.get(cat, [])
        units = [_unit_display(criterion_spec(report, n).get("unit")) for n, _ in crit]
        rows = []
        for offer in ranked:
            by_name = {c.criterion: c for c in offer.criteria if c.category == cat}
            cells: list[tuple[str, bool]] = []
            for (name, _), (_, render) in zip(crit, units, strict=True):
                found = by_name.get(name)
                if found is None:
                    cells.append((fmt.DASH, True))
                else:
                    value = fmt.clean_text(render(found.value), 40)
                    cells.append((f"{value} · {fmt.score(found.score)}", found.missing))
            rows.append((titles[offer.id], fmt.score(offer.categories.get(cat)), cells))
        weight = weights.get(cat) if isinstance(weights, Mapping) else None
        tables.append(CategoryTable(
            name=cat,
            title=fmt.category(cat),
            weight=fmt.pct(weight),
            criteria=[
                (fmt.field_label(n),
                 " · ".join(t for t in (unit, f"weight {fmt.pct(w)}") if t))
                for (n, w), (unit, _) in zip(crit, units, strict=True)
            ],
            rows=rows,
        ))
    return tables


ESTIMATE_COLUMNS: tuple[tuple[str, str, Any], ...] = (
    ("gpus_used", "GPUs", fmt.count),
    ("mfu", "MFU", fmt.pct),
    ("time_to_train_days", "Time to train", fmt.days),
    ("effective_usd_per_gpu_hour", "$/GPU-h", fmt.price),
    ("total_cost_usd", "Run cost", fmt.usd),
    ("cost_of_delay_usd", "Cost of delay", fmt.usd),
    ("total_economic_cost_usd", "Cost + delay", fmt.usd),
    ("usd_per_million_tokens", "$/M tokens", lambda v: fmt.price(v, 3)),
)


def _estimate_cells(est: Mapping[str, Any]) -> list[str]:
    return [render(est.get(key)) for key, _, render in ESTIMATE_COLUMNS]


def _mfu_losses(est: Mapping[str, Any]) -> str:
    """"base 48% − network 3% − storage 1% − failures 2%" from the scorer's breakdown."""
    breakdown = est.get("mfu_breakdown")
    if not isinstance(breakdown, Mapping) or not breakdown:
        return ""
    parts = []
    for key, val in breakdown.items():
        name = fmt.label(str(key).removesuffix("_loss"))
        parts.append(f"{name} {fmt.pct(val, 1)}")
    return " · ".join(parts)


def _trace(offer: OfferResult) -> list[tuple[str, str, str, str]]:
    """Every canonical value of the offer and where it was read (sheet › cell or key).

    Rows are (field, value, where it came from, the score of the criterion reading it).
    The offer's file is named once above its rows, so each row names only the place in it,
    and the raw text only when it says more than the value (short rows lay out faster).
    """
    scores = {c.criterion: c for c in offer.criteria}
    source_file = _get(offer.source, "file")
    rows = []
    for name, value in offer.fields.items():
        shown = fmt.clean_text(fmt.field_value(name, value), 60)
        prov = offer.provenance.get(name)
        if prov is None:
            text = "offer file (cell not recorded)"
        else:
            where_at = prov.where if isinstance(prov.where, Mapping) else {}
            place = {k: v for k, v in where_at.items() if not (k == "file" and v == source_file)}
            text = fmt.where(place) or fmt.where(prov.where)
            raw = fmt.clean_text(prov.raw) if prov.raw else ""
            if raw and raw.casefold() not in (shown.casefold(), fmt.any_value(value).casefold()):
                text += f" — “{fmt.clean_text(raw, 48)}”"
            if prov.derived_from:
                text += " (derived from " + ", ".join(
                    fmt.field_label(d, with_unit=False) for d in prov.derived_from) + ")"
            if prov.note:
                text += f" ({fmt.clean_text(prov.note, 90)})"
        criterion = scores.get(name)
        rows.append((fmt.field_label(name, with_unit=False), shown, text,
                     fmt.score(criterion.score) if criterion else "—"))
    for c in offer.criteria:
        if c.missing:
            rows.append((_criterion_name(c.criterion), "—", "not stated in the offer"
                         + (f" ({fmt.clean_text(c.note, 120)})" if c.note else ""),
                         fmt.score(c.score)))
    return rows


def _criterion_name(name: str) -> str:
    return fmt.field_label(name)


def offer_details(report: ScoreReport) -> list[OfferDetail]:
    out = []
    for offer in _ranked(report):
        out.append(OfferDetail(
            offer_id=offer.id,
            title=offer_title(offer, 140),
            short_title=offer_title(offer, 34),
            rank=offer.rank,
            eligible=offer.eligible,
            source=fmt.where(offer.source),
            estimates=_estimate_cells(offer.estimates),
            mfu_losses=_mfu_losses(offer.estimates),
            gates=[(fmt.label(g.gate), g.status, fmt.clean_text(g.why, 300)) for g in offer.gates],
            flags=flag_views(report, offer, FULL_LIMITS),
            missing=[fmt.field_label(m) for m in offer.missing],
            trace=_trace(offer),
        ))
    return out
