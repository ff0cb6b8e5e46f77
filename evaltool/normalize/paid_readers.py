"""The slot readers of what the buyer pays: the upfront (normalize/all_upfront.py) and a
purchase price before tax.

A quote may state its purchase price twice, with and without the tax ("Kaufpreis brutto
(inkl. 19 % MwSt.) | 1.190.000 €" above "Kaufpreis netto | 1.000.000 €", "Total price incl.
VAT" and "excl. VAT"). Tax is recovered or never part of what is compared, so the figure
before tax is the capex: a capex label that says it holds the tax (evaltool/data/
paid_words.yaml) ranks below one that does not, and is the capex only when it is the only one
(the two figures still disagree aloud, code `value-conflict`).
"""

from __future__ import annotations

from evaltool.normalize.all_upfront import UpfrontReaders
from evaltool.normalize.facts import LABELLED
from evaltool.read.cells import Candidate
from evaltool.read.paid_rows import row_role


class PaidReaders(UpfrontReaders):
    """The capex slot: a figure with the tax in it ranks below one without."""

    def _slot_capex_usd(self, cand: Candidate, text: str) -> None:
        before = len(self.facts.get("capex_usd", []))
        self._money_field("capex_usd", cand, text, "once")
        if row_role(cand.label, False) == "gross":
            for fact in self.facts.get("capex_usd", [])[before:]:
                fact.priority = min(fact.priority, LABELLED - 1)
