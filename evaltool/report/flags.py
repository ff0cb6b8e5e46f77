"""Red flags as the report shows them: which flags are red, their order, their short reason
for a ranking cell and their explanation with figures rounded like the rest of the memo."""

from __future__ import annotations

from evaltool.issues import severity_rank
from evaltool.models import Flag, OfferResult, ScoreReport
from evaltool.report import finding_words, flag_words, fmt
from evaltool.report.picks import _ranked, winner_of
from evaltool.report.view_model import FlagView, Limits

# Flags that belong in "contract and lock-in red flags": the clause-analysis kinds that
# weaken a commitment or make leaving expensive ("reasonable effort" is no commitment).
# Firm commitments and plain remedies are good news, not red flags.
RED_FLAG_EXCLUDED_KINDS = frozenset(
    {"firm_commitment", "remedy", "assumption", "assumed_value", "note"}
)


def flag_why(offer: OfferResult, flag: Flag, limit: int | None = None) -> str:
    """A flag's explanation as the memo prints it: written from the flag's figures where its
    code has a sentence (evaltool.report.flag_words, the one place for it), with sums rounded
    like the rest of the memo."""
    why = flag_words.flag_sentence(flag.code, flag.figures) or fmt.clean_text(flag.why)
    return fmt.clean_text(fmt.tidy_money(why), limit)


def short_reason(offer: OfferResult, flag: Flag) -> str:
    """What a flag is about in a few words: "no uptime figure", "weak delivery commitment"
    (from its code and figures; else the head of its sentence)."""
    short = (flag_words.flag_short(flag.code, flag.figures)
             or finding_words.finding_short(flag.kind, flag.figures))
    if short:
        return short
    head = fmt.clean_text(flag.why).split(":", 1)[0].replace("(lock-in)", "").strip()
    return fmt.clean_text(head, 40) or fmt.label(flag.kind)


def is_red_flag(kind: str, severity: str) -> bool:
    return kind not in RED_FLAG_EXCLUDED_KINDS and severity in ("high", "medium")


def flag_order(flag: Flag) -> tuple[int, int]:
    """Worst first; within a severity, findings that quote the contract first."""
    return severity_rank(flag.severity), 0 if flag.quote else 1


def flag_views(report: ScoreReport, offer: OfferResult, limits: Limits) -> list[FlagView]:
    vendor = fmt.clean_text(offer.vendor, limits.name_chars) or offer.id
    flags = sorted(offer.flags, key=flag_order)
    return [
        FlagView(
            offer_id=offer.id,
            vendor=vendor,
            kind=fmt.label(f.kind),
            severity=f.severity,
            quote=fmt.clean_text(f.quote, limits.quote_chars),
            where=fmt.where(f.where),
            why=flag_why(offer, f, limits.quote_chars),
            ask_for=fmt.clean_text(f.ask_for, limits.quote_chars),
        )
        for f in flags
    ]


def top_red_flag(offer: OfferResult) -> Flag | None:
    """The worst red flag of an offer (a quoted clause first within a severity), or None."""
    red = sorted((f for f in offer.flags if is_red_flag(f.kind, f.severity)), key=flag_order)
    return red[0] if red else None


def top_flag(offer: OfferResult) -> str:
    flag = top_red_flag(offer)
    return short_reason(offer, flag) if flag is not None else ""


def _merge_missing(
    offer: OfferResult, views: list[FlagView], flags: list[Flag]
) -> list[FlagView]:
    """One line per vendor for what its contract leaves out, so quoted clauses keep their room.
    """
    missing = [(v, f) for v, f in zip(views, flags, strict=True) if f.kind == "missing"]
    if len(missing) < 2:
        return views
    first = missing[0][0]
    worst = min((f.severity for _, f in missing), key=severity_rank)
    reasons = (short_reason(offer, f) for _, f in missing)
    items = "; ".join(dict.fromkeys(  # lower-case a sentence start, never an acronym (SLA)
        r[:1].lower() + r[1:] if r[1:2].islower() else r for r in reasons))
    merged = FlagView(offer_id=first.offer_id, vendor=first.vendor,
                      kind="missing from the contract", severity=worst, quote="", where="",
                      why=items, ask_for="")
    out: list[FlagView] = []
    for v, f in zip(views, flags, strict=True):
        if f.kind != "missing":
            out.append(v)
        elif v is first:
            out.append(merged)
    return out


def red_flags(report: ScoreReport, limits: Limits) -> tuple[list[FlagView], int]:
    chosen: list[FlagView] = []
    total = 0
    for offer in _ranked(report):
        pairs = [
            (v, f)
            for v, f in zip(
                flag_views(report, offer, limits),
                sorted(offer.flags, key=flag_order),
                strict=True,
            )
            if is_red_flag(f.kind, f.severity)
        ]
        red = _merge_missing(offer, [v for v, _ in pairs], [f for _, f in pairs])
        red.sort(key=lambda v: (severity_rank(v.severity), not v.quote))
        total += len(red)
        chosen.extend(red[: limits.flags_per_offer])
    # Keep the worst first when the memo cannot hold them all, then restore rank order.
    if len(chosen) > limits.flags_total:
        order = {id(v): i for i, v in enumerate(chosen)}
        # The recommended offer's own flags always stay: they are what leadership signs.
        winner = winner_of(report)
        winner_id = winner.id if winner is not None else None
        keep = sorted(chosen, key=lambda v: (
            v.offer_id != winner_id, severity_rank(v.severity), not v.quote
        ))
        chosen = sorted(keep[: limits.flags_total], key=lambda v: order[id(v)])
    return chosen, total - len(chosen)
