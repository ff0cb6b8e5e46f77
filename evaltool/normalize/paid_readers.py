"""The slot readers of what the buyer pays: the upfront (normalize/all_upfront.py), and a
purchase price or an hourly price before tax.

A quote may state its purchase price twice, with and without the tax ("Kaufpreis brutto
(inkl. 19 % MwSt.) | 1.190.000 €" above "Kaufpreis netto | 1.000.000 €", "Total price incl.
VAT" and "excl. VAT"). Tax is recovered or never part of what is compared, so the figure
before tax is the capex: a capex label that says it holds the tax (evaltool/data/
paid_words.yaml) ranks below one that does not, and is the capex only when it is the only one;
a label that states the tax rate ("inkl. 19 % MwSt.") gives the figure before tax (gross / 1.19),
which then agrees with a net figure beside it.
"""

from __future__ import annotations

from dataclasses import replace

from evaltool.normalize.all_upfront import UpfrontReaders
from evaltool.normalize.facts import LABELLED, _join
from evaltool.read.cells import Candidate
from evaltool.read.paid_rows import row_role, share_in


class PaidReaders(UpfrontReaders):
    """The capex slot: a figure with the tax in it ranks below one without."""

    def _slot_capex_usd(self, cand: Candidate, text: str) -> None:
        before = len(self.facts.get("capex_usd", []))
        self._money_field("capex_usd", cand, text, "once")
        if row_role(cand.label, False) != "gross":
            return
        rate = share_in(cand.label)  # "inkl. 19 % MwSt.": the figure before tax is worked out
        for fact in self.facts.get("capex_usd", [])[before:]:
            fact.priority = min(fact.priority, LABELLED - 1)
            if rate is not None and isinstance(fact.value, float):
                fact.value = fact.value / (1.0 + rate)
                fact.note = _join(fact.note, f"stated with {rate * 100:g}% tax: / {1 + rate:g}")

    def _slot_price(self, cand: Candidate, text: str) -> None:
        """A price per hour stated with its tax rate ("Preis je GPU-Stunde inkl. 19 % MwSt.")
        is read before tax (gross / 1.19); without a rate it ranks below a net one
        (paid_price.py)."""
        before = len(self.priced)
        super()._slot_price(cand, text)
        rate = share_in(cand.label) if row_role(cand.label, False) == "gross" else None
        if rate is None:
            return
        for priced in self.priced[before:]:
            if priced.role == "compute":
                priced.money = replace(priced.money, amount=priced.money.amount / (1.0 + rate))
                priced.note = _join(priced.note, f"stated with {rate * 100:g}% tax: / "
                                                 f"{1 + rate:g}")
