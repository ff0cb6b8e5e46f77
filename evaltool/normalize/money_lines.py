"""Money read from a quote's lines and notes: the running costs of a purchase + hosting
quote (colocation per kW- or rack-month, monthly services, support and network lines), a
commitment stated per year, and money terms inside a note's sentence."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from evaltool.errors import Location
from evaltool.grammar.accelerators import names_an_accelerator
from evaltool.grammar.basis import basis_vocabulary, once_re, scope_re
from evaltool.grammar.money import by_document_decimals, money_spans
from evaltool.grammar.numbers import is_free_of_charge
from evaltool.normalize import values as V
from evaltool.normalize.facts import IN_TEXT, LABELLED, TABLE, _Priced
from evaltool.normalize.phrases import topics
from evaltool.normalize.slots import SlotReaders
from evaltool.read import text as T
from evaltool.read.cells import Candidate, LineItem, cell_text

# A power figure in kW (never kWh): "10.4 kW", "10,2 kW".
_KW_RE = re.compile(r"(?<![\d.,])(\d{1,3}(?:[.,]\d{1,2})?)\s*kW(?![^\W\d_])")
# "op til 30 kW pr. rack", "up to 17.3 kW per rack", "30 kW/rack": the power of one rack.
_KW_PER_RACK_RE = re.compile(r"(\d+(?:[.,]\d+)?)\s*kW\s*(?:pr\.?|per|pro|par|por|na|/)\s*"
                             r"(?:rack|baie|armadio|bastidor|szaf\w*|stojan\w*)\b", re.I)


@functools.cache
def _RESOURCE_WORD_RE() -> re.Pattern[str]:
    """A word that names compute (GPU, node, server, rack in any language we read)."""
    words = [w for w, b in basis_vocabulary()["words"].items()
             if b in ("gpu", "node", "rack") and len(w) > 2]
    return re.compile(r"(?<![^\W\d_])(?:" + "|".join(
        re.escape(w) for w in sorted(words, key=len, reverse=True)) + r")(?![^\W\d_])", re.I)


@functools.cache
def _RACK_WORD_RE() -> re.Pattern[str]:
    """A word that names a rack in any language we read ("baie", "Rack", "armadio")."""
    words = [w for w, b in basis_vocabulary()["words"].items() if b == "rack" and len(w) > 2]
    return re.compile(r"(?<![^\W\d_])(?:" + "|".join(
        re.escape(w) for w in sorted(words, key=len, reverse=True)) + r")(?![^\W\d_])", re.I)


# The money and term slots a terms section's row is also read by, by its own label.
_MONEY_TERM_SLOTS = frozenset({"term_months", "upfront_usd", "min_commitment", "annual_commitment",
                               "egress_usd_per_gb", "support_usd_per_month"})


class MoneyReaders(SlotReaders):
    """The readers of money that spans a line or a sentence rather than one labelled cell."""

    read_slot: Callable[[str, Candidate, str], None]  # the Builder's: a value by its slot

    def running_cost_line(self, item: LineItem, unit_kind: str | None, price: float,
                          qty: float, monthly_qty: float, currency: str, where: Location,
                          raw: str) -> bool:
        """The monthly lines of a purchase + hosting quote: colocation per kW-month
        ("90 | kW/md. | 1.450"), rack space per rack-month with its power in the description
        ("Rackplads op til 30 kW pr. rack | 8 | rack/md. | 69.000"), and a monthly service with
        no compute in it ("Remote hands | 1 | md. | 12.500"), support and network per month:
        running costs, never capex and never a compute price.  Returns whether the line was
        one."""
        desc = item.description
        low = f"{desc} {item.unit or ''}".lower()
        if unit_kind == "month" and (re.search(r"support\b|\bsla\b|\bservice level", low)
                                     or "support" in topics(desc)  # every language's words
                                     or self.vocab.match(desc) in ("support",
                                                                   "support_usd_per_month")):
            self.priced.append(_Priced("support_month", V.Money(price * monthly_qty, currency,
                                                                ("month",)), where, raw, TABLE))
            return True
        if re.search(r"\bnetwork\b|\bfabric\b|\binterconnect\b|\bport\b|\bbandwidth\b", low) \
                and unit_kind == "month" and not re.search(r"switch", low):
            self.priced.append(_Priced("network_month", V.Money(price * monthly_qty, currency,
                                                                ("month",)), where, raw, TABLE))
            return True
        monthly = V.Money(price * qty, currency, ("month",), raw)
        if unit_kind == "kw_month":
            self._usd("colocation_usd_per_kw_month", V.Money(price, currency, ("kw", "month"),
                                                             raw), where, raw, TABLE,
                      "a colocation line priced per kW-month")
            self.priced.append(_Priced("colocation_month", monthly, where, raw, TABLE,
                                       f"{qty:g} kW contracted", quantity=qty))
            return True
        if unit_kind == "rack_month" and not names_an_accelerator(desc):
            kw = _KW_PER_RACK_RE.search(desc)
            if kw:
                per_rack = T.to_number(kw.group(1))
                self._usd("colocation_usd_per_kw_month",
                          V.Money(price / per_rack, currency, ("kw", "month"), raw), where, raw,
                          TABLE, f"rack space {price:g} per rack-month / {per_rack:g} kW per rack")
            self.priced.append(_Priced("colocation_month", monthly, where, raw, TABLE,
                                       f"{qty:g} racks of space", quantity=qty))
            return True
        kws = _KW_RE.findall(desc)
        if unit_kind == "month" and (len(kws) == 1 or _RACK_WORD_RE().search(desc)) \
                and not names_an_accelerator(desc):  # "Hébergement (baie dédiée, 20 kW)"
            if len(kws) == 1 and len(re.findall(r"\d+(?:[.,]\d+)?", desc)) == 1:
                # (only when the kW is the line's one figure: "2 racks @ 15 kW" is 30 kW)
                self._usd("colocation_usd_per_kw_month",
                          V.Money(price * monthly_qty / T.to_number(kws[0]), currency,
                                  ("kw", "month"), raw), where, raw, TABLE,
                          f"a monthly hosting line: {price * monthly_qty:g} / {kws[0]} kW")
            self.priced.append(_Priced("colocation_month", V.Money(
                price * monthly_qty, currency, ("month",), raw), where, raw, TABLE,
                "a monthly hosting line"))
            return True
        if unit_kind == "month" and len(re.findall(r"[^\W\d_]+", item.unit or "")) <= 1 \
                and not _RESOURCE_WORD_RE().search(desc) and not names_an_accelerator(desc):
            self.priced.append(_Priced("opex_month", V.Money(price, currency, ("month",), raw),
                                       where, raw, TABLE, "a monthly service line"))
            return True
        return False

    def unknown_unit_line(self, item: LineItem) -> None:
        """A line read as a one-off purchase whose unit is neither a piece ("pcs", "Stück")
        nor a known time ("sprint", "Abrechnungszyklus"): perhaps a rental billed by a unit
        the vocabulary lacks, so the purchase reading is said, not assumed quietly."""
        unit = (item.unit or "").strip(" .").casefold()
        pieces = {w.casefold() for w in basis_vocabulary()["piece"]}
        if not unit or unit in pieces or not re.search(r"[^\W\d_]", unit) or all(
                w in pieces for w in re.findall(r"[^\W\d_]+", unit)) or once_re().search(
                unit) or is_free_of_charge(unit):
            return  # a piece, a lump sum, a one-off ("one-time") or nothing due ("included")
        where = item.cells.get("unit", item.row_where)
        for name in ("capex_usd", "offer_kind"):
            self.note(where, "line-unit-unknown-one-off", {"unit": item.unit}, name, item.unit,
                      "a unit such as 'pcs', 'month' or 'GPU-hour'")

    def money_by_basis(self, cand: Candidate) -> None:
        """'Azurion Managed Lustre (1 PiB) | $140.00 per TiB-month': under a label that names
        no field, a price whose own basis says what it prices (per TB-month: storage)."""
        text = cell_text(cand.value)
        if not isinstance(cand.value, str) or T.currency_of(text) is None:
            return
        try:
            money = V.parse_money(text)
        except (V.ValueParseError, V.ValueConversionError):
            return
        if money.per != ("tb", "month"):
            return
        self._usd("storage_usd_per_tb_month", money, cand.where, text, IN_TEXT,
                  f"a price per TB-month under {cand.label!r}: storage")
        self.note(cand.where, "storage-price-by-unit", {"label": cand.label},
                  "storage_usd_per_tb_month", text)

    def money_terms_in_note(self, text: str, where: Location) -> None:
        """'…; afskrivningsperiode til sammenligning: 60 måneder.': a labelled money term
        (the amortisation period) inside a note's sentence, read with its label's slot; and
        the power one node draws ('Estimated max power draw 10.4 kW per server', 'Strømforbrug
        ca. 15 kW pr. server'), which prices a purchase's hosting."""
        for clause in re.split(r"[;•\n]|(?<=[a-z]{2})\.\s+(?=[A-ZÀ-ÝÆØÅ])", text):
            kw = _KW_RE.findall(clause)
            if len(kw) == 1 and scope_re("node").search(clause) and not scope_re(
                    "rack").search(clause):
                self.add("power_kw_per_node", T.to_number(kw[0]), where, text, IN_TEXT,
                         "power per node read from a note")
            self._running_cost_in_clause(clause, where, text)
            label, sep, value = clause.partition(":")
            if not sep or not re.search(r"\d", value):
                continue
            words = label.split()
            for start in range(max(0, len(words) - 4), len(words)):
                if self.vocab.match(" ".join(words[start:])) == "amortization_months":
                    try:
                        months = V.parse_duration(value.strip(" ."), "months")
                    except (V.ValueParseError, V.ValueConversionError):
                        break
                    self.add("amortization_months", months.value, where, text, IN_TEXT,
                             "the amortisation period stated in a note")
                    return

    def _running_cost_in_clause(self, clause: str, where: Location, text: str) -> None:
        """'…at your site's electricity rate of USD 0.11/kWh' (a price per kWh is the power
        price), 'Managed operations service …: USD 18,500 per month' (a monthly amount after
        words the vocabulary reads as opex)."""
        if T.currency_of(clause) is None:
            return
        amount = re.search(r"(?:[$€£]|\b[A-Z]{3}\b)\s?\d[\d.,\s]*\d?(?:\s?[$€£]|\s?\b[A-Z]{3}\b)?"
                           r"[^;,.]{0,30}", clause)
        if amount is None:
            return
        figure, ambiguous = by_document_decimals(amount.group(0), self.decimal_comma or bool(
            re.search(r"\d,\d{1,2}(?!\d)", text)))
        try:
            money = V.parse_money(figure, currency=self.currency_hint)
        except (V.ValueParseError, V.ValueConversionError):
            return
        if ambiguous and money.per == ("month",):
            self.note(where, "decimal-or-thousands-assumed", {"amount": amount.group(0).strip()},
                      "opex_usd_per_month", clause)
        if money.per == ("kwh",):
            self._usd("power_usd_per_kwh", money, where, text, IN_TEXT,
                      "the power price stated in a note")
        elif money.per == ("month",) and self.vocab.match(
                re.split(r"[(:,]", clause[:amount.start()])[0].strip()) == "opex_usd_per_month":
            self._usd("opex_usd_per_month", V.Money(money.amount, money.currency, ()), where,
                      text, IN_TEXT, "a monthly operations amount stated in a note")

    def _slot_annual_commitment(self, cand: Candidate, text: str) -> None:
        """'Annual commitment | 4,238,438.40': spend committed per year of the term."""
        money = self._money(cand, text, per=())
        self.priced.append(_Priced("commit_year", V.Money(money.amount, money.currency,
                                                          ("year",), text), cand.where, text,
                                   LABELLED, "a commitment per year, for all GPUs"))

    def settle_contract_value(self) -> None:
        """Where no compute rate is stated, the total contract value prices all GPUs for the
        term; failing that, an annual commitment prices them for a year."""
        self._settle_total_contract_value()
        yearly = [p for p in self.priced if p.role == "commit_year"]
        if yearly and not any(p.role in ("compute", "all_in") for p in self.priced):
            first = yearly[0]
            self.priced.append(_Priced("compute", first.money, first.where, first.raw, TABLE,
                                       "the annual commitment, for all GPUs and one year"))
            self.note(first.where, "annual-commitment-as-price", {}, "price_usd_per_gpu_hour",
                      first.raw[:120], "a price per GPU-hour")

    def _slot_contract_value(self, cand: Candidate, text: str) -> None:
        """'Total contract value | USD 1,345,536': the price of the whole offer for its whole
        term; used as the compute price only when no other price is stated (settle)."""
        money = self._money(cand, text, per=())
        self.contract_value = (V.Money(money.amount, money.currency, ("term",), text),
                               cand.where, text)
        # The buyer commits to the whole value: it is the offer's minimum commitment too.
        self._usd("min_commit_usd", V.Money(money.amount, money.currency, (), text), cand.where,
                  text, LABELLED, "the total contract value")

    def _settle_total_contract_value(self) -> None:
        if self.contract_value is None or any(p.role in ("compute", "all_in")
                                              for p in self.priced):
            return
        money, where, text = self.contract_value
        self.priced.append(_Priced("compute", money, where, text, LABELLED,
                                   "the total contract value, for all GPUs and the whole term"))
        self.note(where, "contract-value-as-price", {}, "price_usd_per_gpu_hour", text[:120],
                  "a price per GPU-hour")

    def term_row_by_label(self, cand: Candidate, text: str) -> None:
        """'Commercial terms' over 'Prepayment at signature | USD 4,471,200.00': the section
        makes the row part of the contract; its own label still says which money it is (an
        upfront, a commitment, a term), so it is read by that label as well."""
        own = self.vocab.match(cand.label)
        if own not in _MONEY_TERM_SLOTS:
            return
        try:
            self.read_slot(own, cand, text)
        except (V.ValueParseError, V.ValueConversionError):
            if own == "term_months":
                self.commitment_under_term(cand, text)

    def upfront_and_recurring(self, cand: Candidate, text: str) -> bool:
        """'USD 300,000 upfront plus USD 20,000 per instance-month over 12 months': a one-off
        amount and a recurring price in one cell (a partial-upfront reservation). The one-off
        is the upfront, the recurring one the compute price (the upfront is spread over the
        term only where the offer's total says it is on top: normalize/upfront.py)."""
        if not isinstance(cand.value, str) or len(money_spans(text)) < 2:
            return False
        once: list[V.Money] = []
        recurring: list[V.Money] = []
        spans = money_spans(text)
        for index, (start, _end) in enumerate(spans):
            stop = spans[index + 1][0] if index + 1 < len(spans) else len(text)
            try:
                money = V.parse_money(text[start:stop].strip(" ,;+"), currency=self.currency_hint)
            except (V.ValueParseError, V.ValueConversionError):
                return False
            if money.per == ("once",):
                once.append(money)
            elif any(t in money.per for t in ("hour", "day", "week", "month", "year")):
                recurring.append(money)
        if len(once) != 1 or len(recurring) != 1:
            return False
        self._usd("upfront_usd", once[0], cand.where, text, LABELLED,
                  "the one-off amount beside the recurring price")
        self.priced.append(_Priced("compute", recurring[0], cand.where, text, LABELLED,
                                   "the recurring price beside the upfront"))
        return True

    def commitment_under_term(self, cand: Candidate, text: str) -> bool:
        """'Compute commitment (4 racks × 36 months) | USD 29,808,000.00': a term's label over
        an amount of money, no duration: the money committed for the term (the value's shape
        wins over the label's, and is said). False where the value is no such amount."""
        if not isinstance(cand.value, str) or T.currency_of(text) is None:
            return False
        try:
            money = V.parse_money(text)
        except (V.ValueParseError, V.ValueConversionError):
            return False
        if money.per not in ((), ("term",)) or money.amount <= 0:
            return False
        self._usd("min_commit_usd", money, cand.where, text, LABELLED,
                  f"an amount under {cand.label!r}: the money committed for the term")
        self.note(cand.where, "amount-under-term-label", {"label": cand.label},
                  "min_commit_usd", text[:120])
        return True

    def _slot_min_commitment(self, cand: Candidate, text: str) -> None:
        if not re.search(r"[$€£]|\b(usd|eur|gbp|chf)\b", text, re.I) and \
                re.search(r"month|year|week|day|monat|jahr|mois|an\b", text, re.I):
            months = V.parse_duration(cand.value, "months")
            self.add("term_months", months.value, cand.where, text, LABELLED,
                     "a minimum commitment stated as a duration: read as the term")
            return
        money = self._money(cand, text, per=None)
        self._usd("min_commit_usd", money, cand.where, text, LABELLED)
