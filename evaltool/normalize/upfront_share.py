"""An upfront payment stated as a share of the contract's value: "10% prepay of 24-mo contract
value", "Anzahlung 20 % des Vertragswerts", "acompte de 15 % de la valeur du contrat".

The share is an amount only once the contract's value is known: the price per GPU-hour x the
GPUs x 730 hours x the months of the contract (the months the sentence names, else the
offer's term).  Worked out after the offer's price and counts are derived, only where no
upfront payment is stated, and said with a warning that shows the arithmetic.
"""

from __future__ import annotations

import re
from typing import Any

from evaltool.errors import Location
from evaltool.models import HOURS_PER_MONTH, FieldSource
from evaltool.normalize.phrases import fold
from evaltool.normalize.slots import SlotReaders

_PAID_FIRST = (r"(?:pre-?pa(?:y|id|yment)\w*|deposit|upfront|up-front|advance(?:\s+payment)?|"
               r"down\s*payment|anzahlung|vorauszahlung|vorkasse|acompte|anticipo|adiantamento|"
               r"zaliczk\w*|zaloh\w*|aanbetaling|vooruitbetaling|forudbetaling|forskott\w*)")
_CONTRACT = (r"(?:contract(?:\s+value)?|total\s+contract\s+value|vertragswert\w*|"
             r"gesamtvertragswert\w*|valeur\s+(?:totale\s+)?du\s+contrat|valor\s+(?:total\s+)?"
             r"del?\s+contrato|valore\s+(?:totale\s+)?del\s+contratto|contractwaarde|"
             r"wartosci\s+umowy|kontraktvaerdi\w*|hodnoty\s+smlouvy)")
_MONTHS = r"(?:(\d{1,3})[\s-]*(?:mo|mos|month|months|monate?|mois|meses|mesi|mdr|miesiecy)\.?\s+)?"
_SHARE_RE = re.compile(
    rf"(\d{{1,2}}(?:[.,]\d+)?)\s*%\s*(?:\w+\s+){{0,1}}?{_PAID_FIRST}\s+"
    rf"(?:of|on|des|der|du|de\s+la|del|do|da|della|van|z|af)\s+(?:the\s+|la\s+|el\s+|il\s+)?"
    rf"(?:total\s+|full\s+)?{_MONTHS}{_CONTRACT}"
    rf"|{_PAID_FIRST}\s*(?:(?:of|de|von|di|do|van)\s+)?(\d{{1,2}}(?:[.,]\d+)?)\s*%\s+(?:of|des|der|du|de\s+la|del|do|"
    rf"della|van|z|af)\s+(?:the\s+)?(?:total\s+)?{_MONTHS}{_CONTRACT}", re.I)


def _texts(b: SlotReaders) -> list[tuple[str, Location]]:
    texts = list(b.record.notes)
    for item in b.record.line_items:
        texts += [(str(v), w) for _, v, w in item.fields if isinstance(v, str)]
    texts += [(f"{c.label}: {c.value}", c.where) for c in b.record.candidates
              if isinstance(c.value, str)]
    return texts


def upfront_from_share(b: SlotReaders, values: dict[str, Any],
                       provenance: dict[str, FieldSource]) -> None:
    if values.get("upfront_usd") is not None or values.get("offer_kind") == "purchase":
        return
    price, gpus = values.get("price_usd_per_gpu_hour"), values.get("gpu_count")
    if not price or not gpus:
        return
    for text, where in _texts(b):
        match = _SHARE_RE.search(fold(text))
        if match is None:
            continue
        share = float((match.group(1) or match.group(3)).replace(",", "."))
        stated_months = match.group(2) or match.group(4)
        months = float(stated_months) if stated_months else values.get("term_months")
        if not months or not 0 < share < 100:
            return  # no term to value the contract over: not guessed
        upfront = share / 100 * price * gpus * HOURS_PER_MONTH * months
        values["upfront_usd"] = upfront
        arithmetic = (f"{share:g}% x {price:.4g} USD/GPU-h x {gpus:g} GPUs x "
                      f"{HOURS_PER_MONTH} h x {months:g} months = {upfront:,.2f} USD")
        provenance["upfront_usd"] = FieldSource(
            where=where.to_dict(), raw=text[:500],
            derived_from=["price_usd_per_gpu_hour", "gpu_count", "term_months"],
            note=f"upfront as a share of the contract value: {arithmetic}")
        b.note(where, "upfront-from-share-of-contract", {"arithmetic": arithmetic},
               "upfront_usd", text[:120])
        return
