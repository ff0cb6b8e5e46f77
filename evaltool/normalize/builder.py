"""Collect the facts of one raw record: labelled values by slot, line items, notes,
banners; then resolve them (a labelled value beats a table figure, which beats a figure
read from text), warning where two readings disagree."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from evaltool.catalog import recognise_accelerator
from evaltool.errors import EvaltoolError, Location
from evaltool.grammar.accelerators import names_an_accelerator
from evaltool.grammar.basis import time_adverb, time_of
from evaltool.grammar.places import region_in_text
from evaltool.models import (
    HOURS_PER_MONTH,
    FieldSource,
)
from evaltool.normalize import values as V
from evaltool.normalize.allocation import rate_from_total
from evaltool.normalize.contract_price import hourly_prices
from evaltool.normalize.dates import document_date_order
from evaltool.normalize.digit_groups import (
    DECIMAL_COMMA_RE,
    DECIMAL_POINT_RE,
    DOTTED_GROUP_RE,
    SPACE_GROUP_RE,
    SPACE_THOUSANDS_RE,
    ZERO_GROUP_RE,
    dotted_groups,
    groups_with_dots,
    regroup_texts,
    writes_decimal_commas,
)
from evaltool.normalize.doc_kinds import is_document_title
from evaltool.normalize.facts import (
    _FIELD_KIND,
    _MEMORY_TOL,
    _MIN_COMMIT_RE,
    _PER,
    _REL_TOL,
    DERIVED,
    IN_TEXT,
    LABELLED,
    TABLE,
    Fact,
    _close,
    _iso,
    _Priced,
    _same,
    _slot_field,
    _storage_kind,
    expected_for,
)
from evaltool.normalize.gpu_memory import hbm_gb
from evaltool.normalize.line_basis import side_basis
from evaltool.normalize.line_discounts import line_amount, net_line_price
from evaltool.normalize.money_lines import MoneyReaders
from evaltool.normalize.paid_readers import PaidReaders
from evaltool.normalize.phrases import fold
from evaltool.normalize.rack_lines import gpus_per_rack_bought, gpus_per_rack_stated, rack_counts
from evaltool.normalize.second_look import second_look
from evaltool.normalize.shapes import (
    count_facts,
    pair_counts,
)
from evaltool.normalize.sibling_clauses import without_other_columns
from evaltool.normalize.slots import GIB_PER_TB, PER_GB_MONTH_RE
from evaltool.normalize.storage_lines import capacity_tb, is_storage_line, tb_per_priced_unit
from evaltool.normalize.tables import TableReaders
from evaltool.normalize.vendor import anonymised, facility_tier, two_scripts, vendor_fallback
from evaltool.read import text as T
from evaltool.read.blocks import clauses_for_option, names_another_option
from evaltool.read.cells import Candidate, LineItem, cell_text
from evaltool.read.safety import value_too_long

# A compute price in contract text: per GPU-, node- or server-hour.
# A price's basis as a resource and a time ("node_week", "gpu_year"): evaltool.read.text.
_RESOURCE_TIME_RE = re.compile(r"^(?:gpu|node)_(?:hour|day|week|month|year)$")


def _rack_time(unit_kind: str, unit_text: str) -> str | None:
    """The time of a per-rack price ("rack_month", or "per month" in a rack unit)."""
    if unit_kind.startswith("rack_"):
        return unit_kind.split("_")[1]
    if unit_kind in ("hour", "month") and re.search(r"\brack\b", unit_text, re.I):
        return unit_kind
    return None

# A line's unit column that makes its quantity a storage size (in TB).
_CAPACITY_UNITS = {"tb": 1.0, "to": 1.0, "tib": 1.099511627776, "pb": 1000.0, "po": 1000.0,
                   "pib": 1125.899906842624}


class Builder(TableReaders, MoneyReaders, PaidReaders):
    """Collects facts about one offer, then resolves them."""

    # --- reading -------------------------------------------------------------------
    def _own_clauses(self) -> None:
        """An option's record shares the file's notes and cells: a note or value whose clauses
        each name an option ("Entrega: Lote 1 – 02/03/2026; Lote 2 – 01/04/2026") keeps
        only this option's clause (the record's own copies; shared cells are not changed)."""
        option = self.record.source.get("option")
        if not option:
            return
        columns = [str(c) for c in self.record.source.get("columns", ())]  # a grid's columns
        self.record.notes, self.record.banners, self.record.footers = (
            [(without_other_columns(clauses_for_option(t, str(option)), str(option), columns),
              w) for t, w in texts if not names_another_option(t, str(option))]
            for texts in (self.record.notes, self.record.banners, self.record.footers))
        cands = []
        for cand in self.record.candidates:
            if isinstance(cand.value, str) and ";" in cand.value:
                own = clauses_for_option(cand.value, str(option))
                if not own:
                    continue
                cand = Candidate(cand.label, own, cand.where, cand.section, cand.note,
                                 cand.label_where, cand.shape_only)
            cands.append(cand)
        self.record.candidates = cands

    def read(self) -> None:
        """Read the record: its labelled cells, then its lines and texts, then what only
        the whole offer settles (prices in sentences, the offer's kind, vendor and name)."""
        self._own_clauses()
        self._document_conventions()
        regroup_texts(self.record, self.decimal_comma)  # "2.000 TB" where it means 2000
        slotted = self._slotted_candidates()
        if self.currency_hint is None:
            self._currency_from_texts()
        self._read_slotted(self._expanded(slotted))
        self._read_lines_and_texts()
        second_look(self)
        self._region_in_texts()
        self._prices_in_texts()
        self._offer_kind_from_title()
        self._vendor_and_name()

    def _document_conventions(self) -> None:
        """How the document writes dates and decimals, from all its texts."""
        self.dayfirst, self.date_order = document_date_order(
            [cell_text(c.value) for c in self.record.candidates if isinstance(c.value, str)]
            + [t for t, _ in (*self.record.notes, *self.record.banners, *self.record.footers)])
        texts = [c.value for c in self.record.candidates if isinstance(c.value, str)]
        # "kr 5 816 640,00" anywhere (a cell read or not, a line, a note): the document groups
        # thousands with spaces, so its "3 072 GB" is 3072, never 3 x 72
        every = [*texts, *(v for item in self.record.line_items for v in item.raw.values()),
                 *(t for t, _ in self.record.notes)]
        self.space_thousands = any(SPACE_THOUSANDS_RE.search(t) or ZERO_GROUP_RE.search(t)
                                   for t in every)
        self.decimal_comma = (any(DECIMAL_COMMA_RE.search(x) for x in texts) and not any(
            DECIMAL_POINT_RE.search(x) for x in texts)) or groups_with_dots(every)  # 298.000,00

    def _slotted_candidates(self) -> list[tuple[str, Candidate]]:
        """Each labelled cell with its slot; a cell read by its shape only is read here, and
        the currency and accelerator variant cells are taken as hints."""
        slotted: list[tuple[str, Candidate]] = []
        for cand in self.record.candidates:
            if cand.shape_only:
                if _ONE_NODE_LABEL_RE.search(cand.label):
                    # "Compute tray (node) | 4 GPUs + 2 CPUs": the GPUs of one node.
                    for name, value in count_facts(cell_text(cand.value)).items():
                        name = "gpus_per_node" if name == "gpu_count" else name
                        if name in ("gpus_per_node", "gpu_memory_gb"):
                            self.add(name, value, cand.where, cell_text(cand.value), IN_TEXT,
                                     "count stated for one node")
                    continue
                self._counts_in_text(cell_text(cand.value), cand.where)
                continue
            slot = self.vocab.match(cand.label, cand.section)
            if slot is None:
                self.money_by_basis(cand)
            if slot is None or slot == "ignore":
                continue
            slotted.append((slot, cand))
            if slot == "currency":
                code = T.currency_of(cell_text(cand.value)) or _iso(cell_text(cand.value))
                if code:
                    self.currency_hint = self.currency_hint or code
                    self.currency_explicit = self.currency_explicit or code
                    self.add("currency", code, cand.where, cell_text(cand.value), LABELLED)
            elif slot == "accelerator_variant":
                self.accelerator_hints.append(cell_text(cand.value))
        return slotted

    def _currency_from_texts(self) -> None:
        """No currency field: the currency the offer's own texts and labels use."""
        seen: dict[str, int] = {}
        for cand in self.record.candidates:
            code = T.currency_of(f"{cand.label} {cell_text(cand.value)}")
            if code:
                seen[code] = seen.get(code, 0) + 1
        for item in self.record.line_items:
            if item.currency:
                seen[item.currency] = seen.get(item.currency, 0) + 1
        if not seen:
            # Nor in a cell: a note that says it for all prices ("Prix en euros HT").
            for text, _where in self.record.notes:
                code = T.currency_of(text) if _ALL_PRICES_RE.search(text) else None
                if code:
                    seen[code] = seen.get(code, 0) + 1
        if len(seen) == 1:
            self.currency_hint = next(iter(seen))
        elif not seen:  # nor in a note: the currency the cells' number formats display
            self.currency_hint = self.record.properties.get("number_format_currency")

    def _expanded(self, slotted: list[tuple[str, Candidate]]) -> list[tuple[str, Candidate]]:
        """A cell that pairs several labels and values ("Nodes / GPUs | 4 / 32") as its parts."""
        expanded: list[tuple[str, Candidate]] = []
        for slot, cand in slotted:
            pairs = pair_counts(cand.label, cell_text(cand.value)) \
                if isinstance(cand.value, str) else []
            parts = [(self.vocab.match(lab), Candidate(lab, val, cand.where, cand.section,
                                                       cand.note, cand.label_where))
                     for lab, val in pairs]
            if parts and all(s not in (None, "ignore") for s, _ in parts):
                expanded.extend((s, c) for s, c in parts if s is not None)
            else:
                expanded.append((slot, cand))
        return expanded

    def _read_slotted(self, expanded: list[tuple[str, Candidate]]) -> None:
        """Each labelled value by its slot, with the document's own digit grouping; a value
        that cannot be read is said, never dropped."""
        comma_decimal = writes_decimal_commas(c for _, c in expanded) or self.decimal_comma
        space_groups = self.space_thousands
        for slot, cand in expanded:
            if slot in ("currency", "accelerator_variant"):
                continue
            self.looked_at.add(slot)
            text = cell_text(cand.value)
            if isinstance(cand.value, str) and space_groups and SPACE_GROUP_RE.search(text):
                # "2 048 GB" where the quote writes "52 560,00": a thousands space, by the
                # document's own convention (else ambiguous, and said by the value parser)
                text = SPACE_GROUP_RE.sub(lambda m: re.sub(r"\s", "", m.group(0)), text)
                cand = Candidate(cand.label, text, cand.where, cand.section, cand.note,
                                 cand.label_where, cand.shape_only)
            if isinstance(cand.value, str) and DOTTED_GROUP_RE.search(text):
                cand, text = self._dotted_thousands(slot, cand, text, comma_decimal)
            if isinstance(cand.value, str) and T.is_placeholder(text):
                self.cannot_read(_slot_field(slot), cand, V.NoValueGiven(
                    f"no value given ({text!r})", found=text,
                    expected=expected_for(_slot_field(slot))))
                continue
            too_long = None if slot == "contract_text" else value_too_long(
                text, cand.where, _slot_field(slot))
            if too_long is not None:  # checked before any value pattern sees the text
                self.unreadable.setdefault(_slot_field(slot), too_long)
                self.problems.append(too_long)
                continue
            try:
                self.read_slot(slot, cand, text)
            except (V.ValueParseError, V.ValueConversionError) as exc:
                if slot == "term_months" and self.commitment_under_term(cand, text):
                    continue
                self.cannot_read(_slot_field(slot), cand, exc)
                self.value_by_shape(cand, text)
            except (ValueError, ArithmeticError) as exc:  # e.g. 2027-02-30, a 400-digit count
                self.cannot_read(_slot_field(slot), cand, V.ValueParseError(
                    f"not a valid value ({type(exc).__name__}: {exc})", found=text[:80],
                    expected=expected_for(_slot_field(slot))))

    def _read_lines_and_texts(self) -> None:
        """The rows' prose, the line items, the contract terms, the notes, banners and footers."""
        for cand in self.record.candidates:
            self.read_row_prose(cand)
        for text, where in [*((i.description, i.cells.get("description", i.row_where))
                              for i in self.record.line_items), *self.record.notes]:
            memory = hbm_gb(text)
            if memory is not None:  # "(192 GB HBM3e each)": HBM is only ever a GPU's
                self.add("gpu_memory_gb", memory, where, text, IN_TEXT,
                         "GPU memory stated with the word HBM")
        for item in self.record.line_items:  # "VAST shared storage 150 TB, 12 months | lot"
            size = capacity_tb(item.description) if is_storage_line(item.description) \
                else None
            if size is not None:
                self.add("storage_capacity_tb", size, item.cells.get("description",
                                                                     item.row_where),
                         item.description, IN_TEXT, "capacity stated on the storage line")
        for item in self.record.line_items:
            try:
                self.read_line_item(item)
            except (ValueError, ArithmeticError) as exc:  # e.g. an infinite quantity
                self.note(item.row_where, "line-item-not-read",
                          {"error": type(exc).__name__, "reason": str(exc)})
            self._line_fields(item)
            self._nic_line(item)
            self._line_prose(item)
        self._contract_terms()
        for text, where in self.record.notes:
            self.read_note(text, where)
            self._counts_in_text(text, where)
            self.read_prose(text, where)
        for text, where in self.record.banners:
            if (text, where) not in self.record.notes:
                self._dates_in_sentence(text, where)
                self.read_prose(text, where)
        for text, where in self.record.footers:  # a closing line states terms as a note does
            if (text, where) not in self.record.notes:
                self.read_prose(text, where)

    def _region_in_texts(self) -> None:
        """No labelled region: a cloud region's id or the data centre's place in the text."""
        if self.facts.get("region"):
            return
        texts = [*self.record.notes, *self.record.banners, *self.record.footers,
                 *((i.description, i.cells.get("description", i.row_where))
                   for i in self.record.line_items),
                 *((c.value, c.where) for c in self.record.candidates
                   if isinstance(c.value, str))]
        for text, where in texts:
            found = region_in_text(text)
            if found is not None:
                self.add("region", found[0], where, text, IN_TEXT, f"region from {found[1]}")
                self.note(where, "region-from-text", {"region": found[0], "how": found[1]},
                          "region", text[:120])
                return

    def _prices_in_texts(self) -> None:
        """Counts and the accelerator settled; a compute price stated only in a sentence."""
        self.settle_system_counts()
        self.settle_accelerator()
        if not any(p.role in ("compute", "all_in") for p in self.priced):
            for text, where in self.record.notes:
                self._price_in_sentence(text, where)
        if not any(p.role in ("compute", "all_in") for p in self.priced) and not self.facts.get(
                "capex_usd"):
            # A price stated only in the contract, per GPU-, node- or server-hour ("Price:
            # USD 9.60 per node-hour"); a colocation rate per kW is not a compute price.
            # A free-text key ("notes", "description") is read the same way, after it.
            self._price_from_text()
        if not any(p.role in ("compute", "all_in") for p in self.priced):
            self._price_from_total_over_hours()
        self.settle_contract_value()

    def _price_from_total_over_hours(self) -> None:
        """No rate stated: the total over the hours allocated (normalize/allocation.py)."""
        found = rate_from_total(self.record.candidates, self.currency_hint)
        if found is not None:
            rate, total, hours = found
            self.priced.append(_Priced("compute", rate, total.where, rate.raw or "", IN_TEXT,
                                       "the total over the hours allocated"))
            self.note(total.where, "price-from-total-over-hours",
                      {"total": cell_text(total.value), "hours": cell_text(hours.value)},
                      "price_usd_per_gpu_hour", rate.raw)

    def _offer_kind_from_title(self) -> None:
        """Rental or purchase, from the document's title or subject line when no cell says."""
        bought = any(p.role == "capex_line" for p in self.priced) and not any(
            p.role in ("compute", "all_in") for p in self.priced)
        if "offer_kind" not in self.facts and not bought:  # purchase lines say what it is
            # the title rows, then a letter's subject line ("Oggetto: ... bando 2026-I")
            subjects = [(t, w) for t, w in self.record.notes if _SUBJECT_RE.match(t)]
            for text, where in [*self.record.banners, *subjects]:
                kind = self.vocab.offer_kind(text)
                if kind is not None:
                    self.add("offer_kind", kind, where, text, DERIVED,
                             "offer kind from the document's title")
                    break

    def _vendor_and_name(self) -> None:
        """The vendor (two scripts, anonymised, or from elsewhere) and the offer's name."""
        for fact in self.facts.get("vendor", [])[:1]:
            forms = two_scripts(fact.value) if isinstance(fact.value, str) else None
            if forms is not None:
                self.note(fact.where, "vendor-two-scripts", {"first": forms[0], "second": forms[1]},
                          "vendor", fact.value, severity="info")
        for fact in [f for f in self.facts.get("vendor", [])
                     if isinstance(f.value, str) and anonymised(f.value, self.vocab)]:
            self.facts["vendor"].remove(fact)
            self.note(fact.where, "vendor-anonymised", {"name": fact.value}, "vendor", fact.value)
        for fact in [f for f in self.facts.get("vendor", [])
                     if not any(ch.isalpha() for ch in str(f.value))]:
            self.facts["vendor"].remove(fact)  # "Supplier rate ($/GPU/hr) | 2": no name
            self.note(fact.where, "vendor-is-a-figure", {"name": str(fact.value)}, "vendor",
                      fact.value)
        for fact in [f for f in self.facts.get("vendor", []) if isinstance(f.value, str)
                     and (is_document_title(f.value) or facility_tier(f.value))]:
            self.facts["vendor"].remove(fact)  # "PRO FORMA INVOICE", "Tier III": not a name
            self.note(fact.where, "vendor-is-facility-tier" if facility_tier(fact.value)
                      else "vendor-is-document-title", {"name": fact.value}, "vendor", fact.value)
        if not self.facts.get("vendor"):
            self.facts.pop("vendor", None)
            found = vendor_fallback(self.record)
            if found is not None:
                name, where, how = found
                self.add("vendor", name, where, name, DERIVED, f"vendor name from {how}")
                self.note(where, "vendor-not-labelled", {"name": name, "how": how}, "vendor",
                          name)
            else:
                self.note(Location(str(self.record.source.get("file", ""))), "vendor-not-found",
                          {}, "vendor")
        if "offer_name" not in self.facts and self.record.title and self.record.title_where:
            self.add("offer_name", self.record.title, self.record.title_where, self.record.title,
                     DERIVED, "no offer name given: the sheet's title")
            # A title row is a guess at the name (it may be a letterhead, an address or the
            # name of several options at once): say so, so a wrong name is never silent.
            self.note(self.record.title_where, "offer-name-from-title", {}, "offer_name",
                      self.record.title[:120], "a cell labelled offer, quote name or plan")

    def _price_from_text(self) -> None:
        """The first price per GPU- or node-hour the contract states, else a free-text key."""
        texts: list[tuple[str, Location]] = [
            (str(f.value), f.where) for f in self.facts.get("contract_text", [])[:1]]
        texts += [(c.value, c.where) for c in self.record.candidates
                  if isinstance(c.value, str) and len(c.value.split()) >= 4
                  and self.vocab.match(c.label, c.section) in (None, "ignore")]
        notes = set(self.record.notes)  # "£1.05 per GPU-hour, 3-month term" in a letter
        for body, where in [*texts, *self.record.notes]:
            for money, sentence in hourly_prices(body, self.currency_hint,
                                                 (body, where) in notes)[:1]:
                self.priced.append(_Priced("compute", money, where, sentence, IN_TEXT,
                                           "price read from the text"))
                self.note(where, "price-from-text", {}, field_name="price_usd_per_gpu_hour",
                          found=sentence[:120], severity="low")
                return

    def settle_system_counts(self) -> None:
        """'N x <accelerator>' under a GPU-count label: with a node count of more than one
        beside it, N GPUs make one node (a spec sheet describes one instance); else N is the
        offer's count.  Said either way, as the label and the shape may disagree."""
        nodes = any(isinstance(f.value, (int, float)) and f.value > 1
                    for f in self.facts.get("node_count", []))
        for cand, text, n in self.system_counts:
            self.add("accelerator_text", text, cand.where, text, IN_TEXT,
                     "accelerator named in the GPU count's cell")
            if nodes and n in (1, 2, 4, 8, 16):
                self.add("gpus_per_node", n, cand.where, text, LABELLED,
                         "the GPUs of one system, beside the offer's node count")
                self.note(cand.where, "gpu-count-label-per-node", {"text": text[:60], "count": n},
                          "gpus_per_node", text[:120], "the total number of GPUs, or GPUs per node")
            else:
                self.add("gpu_count", n, cand.where, text, LABELLED)

    def settle_accelerator(self) -> None:
        """After every cell is read: no cell named a known accelerator, so look in the
        descriptions, notes and titles; failing that, the labelled cells that name none (the
        error then points at them)."""
        if "accelerator_text" in self.facts or "accelerator" in self.facts:
            return
        self._accelerator_anywhere()
        if "accelerator_text" in self.facts:
            for cand, text in self.unnamed_accelerators:
                self.note(cand.where, "label-shape-disagree", {}, "accelerator",
                          text[:120], "an accelerator name such as 'NVIDIA H100 SXM 80GB'")
            return
        for cand, text in self.unnamed_accelerators:
            self.add("accelerator_text", text, cand.where, text, LABELLED, cand.note)
            self._facts_in_system_text(cand.where, text, IN_TEXT)

    def _contract_terms(self) -> None:
        """Uptime, credit cap, response times, delivery date... stated in contract text."""
        known = frozenset(k for k, facts in self.facts.items()
                          if any(f.priority >= LABELLED for f in facts))
        for name, value, where, quote, note in self.terms_in_text(known):
            if name == "delivery_date" and isinstance(value, str):
                value = dt.date.fromisoformat(value)
            self.add(name, value, where, quote, IN_TEXT, note)

    def _dotted_thousands(self, slot: str, cand: Candidate, text: str,
                          comma_decimal: bool) -> tuple[Candidate, str]:
        """'2.048' is 2048 in a quote that writes decimals with a comma ('30,72') and 2.048
        where decimals take a point: read by the document's own convention, and warned when
        the document shows none."""
        read, ambiguous = dotted_groups(text, comma_decimal)  # "NVLink 5, 1.800 GB/s" too
        if not ambiguous:
            return Candidate(cand.label, read, cand.where, cand.section, cand.note,
                             cand.label_where, cand.shape_only), read
        self.note(cand.where, "decimal-or-thousands-assumed", {"amount": text.strip()},
                  _slot_field(slot), text, "a number written without a thousands mark")
        return cand, text

    def read_slot(self, slot: str, cand: Candidate, text: str) -> None:
        """A labelled value: by its field's own reader, else by the kind of its field."""
        said = f"{cand.label} {text}"
        if slot in ("storage_capacity_tb", "storage_type") and _USABLE_RE.search(said) \
                and not _RAW_RE.search(said):
            # "1 PB usable", "nutzbare Kapazität", "500 TB net": not cut to ~80% again.
            self.add("storage_capacity_usable", True, cand.where, text, LABELLED,
                     "the quote states the storage capacity as usable")
        handler = getattr(self, f"_slot_{slot}", None)
        if handler is not None:
            handler(cand, text)
            return
        kind = _FIELD_KIND.get(slot) or ""
        by_kind = {"text": self._text_field, "count": self._count_field,
                   "date": self._date_field, "percent": self._percent_field,
                   "months": self._months_field, "hours": self._hours,
                   "bool": self._bool_field, "number": self._number_field}
        if kind in by_kind:
            by_kind[kind](slot, cand, text)
        elif kind.startswith("money"):
            self._money_field(slot, cand, text, kind.partition(":")[2])
        elif kind.startswith("quantity"):
            _, dimension, unit = kind.split(":")
            self._quantity(slot, cand, text, dimension, unit)
        else:
            self.note(cand.where, "label-without-reader", {"label": cand.label, "field": slot},
                      slot)

    # --- line items and notes ------------------------------------------------------
    def _line_price(self, item: LineItem) -> tuple[float, Location, str, str] | None:
        """A line's price (the unit price, else the total over the quantity), its cell, its raw
        text and currency; a total that is neither quantity x price nor that a month, warned."""
        if item.unit_price is None and item.total is None:
            return None
        price = item.unit_price
        where = item.cells.get("unit_price", item.row_where)
        raw = " | ".join(v for v in item.raw.values() if v)
        if price is None and item.total is not None:  # (no quantity: one of it)
            price = item.total / (item.quantity or 1.0)
            where = item.cells.get("total", item.row_where)
        price = net_line_price(self, item, price)  # "Korting 8% op regel 1": what is paid
        if item.total is not None and item.quantity is not None and item.unit_price is not None:
            expected_total = item.quantity * item.unit_price
            monthly = expected_total * HOURS_PER_MONTH
            if not (_close(item.total, expected_total) or _close(item.total, monthly)):
                self.note(item.cells.get("total", item.row_where), "line-total-mismatch", {
                    "total": item.total, "quantity": item.quantity,
                    "unit_price": item.unit_price, "expected_total": expected_total},
                    None, cell_text(item.total))
        currency = item.currency or self.currency_hint
        if currency is None:
            currency = "USD"
            self.assumed("currency", item.row_where, raw, "no currency stated for the line "
                         "items; read as USD")
        return price, where, raw, currency

    def _line_basis(self, item: LineItem, unit: str) -> tuple[str, str | None]:
        """(the price cell's own text when it carries a basis, the line's billing unit)."""
        # The price cell may carry its own basis ("19,84 € / Knoten / h"): it beats the unit
        # column ("Knoten"), which beats the description.
        price_text = item.raw.get("unit_price", "") if isinstance(item.raw.get(
            "unit_price"), str) and not _PLAIN_NUMBER_RE.match(item.raw.get("unit_price", "")) \
            else ""
        unit_kind = (T.billing_unit(price_text) if price_text else None) or (
            T.billing_unit(f"per {unit}") if unit else None) or (
            time_of(unit) if unit else None) or (  # "md.", "měsíc": a time the vocabulary names
            None if unit else T.billing_unit(item.description)) or (  # remarks: "€ / kW / mois"
            None if unit or not item.raw.get("note") else T.billing_unit(item.raw["note"])) or (
            None if unit else time_adverb(item.description)) or side_basis(
                item, unit, [t for t, _ in self.record.notes])
        return price_text, unit_kind

    def read_line_item(self, item: LineItem) -> None:
        desc = item.description
        unit = (item.unit or "").strip() or self._unit_in_description(desc)
        low = f"{desc} {unit}".lower()
        priced = self._line_price(item)
        if priced is None:
            return
        price, where, raw, currency = priced
        price_text, unit_kind = self._line_basis(item, unit)
        if self._per_gb_month_line(item, unit, price_text, price, currency, where, raw):
            return
        if unit.lower().strip() in ("gb", "per gb") or unit_kind == "gb" or re.search(
                r"egress|transfer out|data out|outbound", low) or (
                self.vocab.match(desc) == "egress_usd_per_gb" and not price):
            money = V.Money(price, currency, ("gb",), raw)
            self._usd("egress_usd_per_gb", money, where, raw, TABLE)
            return
        qty = item.quantity or 1.0
        if unit_kind is None and self._recurring_unread(price_text, unit, where, raw):
            return
        if unit_kind is None or (unit_kind in ("year",) and not re.search(
                r"instance|node|server|gpu|cluster|vm|pod", low)):
            self.unknown_unit_line(item)
            self._capex_line(item, desc, low, price, qty, currency, where, raw)
            return
        if unit_kind == "tb_month" or (unit_kind == "month" and (re.search(
                r"\b(storage|file ?system|lustre|weka|vast|gpfs|nfs)\b", low)
                or is_storage_line(desc))):
            kind, _ = _storage_kind(desc)
            if kind:
                self.add("storage_type", kind, item.cells.get("description", where), desc,
                         IN_TEXT)
            if unit_kind == "tb_month":
                self._tb_months(desc, qty, item.unit or "", item.cells.get("description", where),
                                item.cells.get("quantity", where))
                tb_each = tb_per_priced_unit(f"{unit} {price_text}")  # per TiB-month: / 1.0995
                self._usd("storage_usd_per_tb_month", V.Money(price / tb_each, currency,
                                                              ("tb", "month")), where, raw,
                          TABLE, None if tb_each == 1 else f"{price:g} per {tb_each:g} TB")
            elif (size := capacity_tb(desc)) is not None:
                # "NFS (all-flash), 50 TB | 1 | mês | 6.500": the month's price over the
                # capacity the line states (a quantity of months is the term, not volumes)
                monthly = price if len(re.findall(r"[^\W\d_]+", unit)) == 1 else price * qty
                self.add("storage_capacity_tb", size, item.cells.get("description", where), desc,
                         IN_TEXT, "capacity stated on the storage line")
                self._usd("storage_usd_per_tb_month", V.Money(monthly / size, currency,
                                                              ("tb", "month")), where, raw,
                          TABLE, f"{monthly:g} per month / {size:g} TB on the line")
            else:
                self.priced.append(_Priced("storage_month", V.Money(price * qty, currency,
                                                                    ("month",)),
                                           where, raw, TABLE))
            return
        # "Support | 12 | Monat | 3.500 | 12 Monate": the unit is the month itself, so the
        # quantity counts months of the term, not things paid for each month.
        monthly_qty = 1.0 if unit_kind == "month" and not (
            price_text and T.billing_unit(price_text)) and len(
            re.findall(r"[^\W\d_]+", unit)) == 1 else qty
        if self.running_cost_line(item, unit_kind, price, qty, monthly_qty, currency, where,
                                  raw):
            return
        rack_time = _rack_time(unit_kind, f"{unit} {price_text}")
        if rack_time is not None:
            self._rack_line(item, rack_time, price, qty, currency, where, raw)
            return
        if _RESOURCE_TIME_RE.match(unit_kind) or (
                unit_kind in ("hour", "month") and (re.search(
                    r"instance|node|server|gpu|cluster|system|vm|pod", low)
                    or T.resource_of(desc))):  # "Instancia dedicada 8× A100, mensual"
            per = _PER.get(unit_kind) or tuple(unit_kind.split("_"))
            if unit_kind in ("hour", "month"):
                resource = "gpu" if re.search(r"\bgpu\b", unit.lower()) else "node"
                per = (resource, unit_kind)
                if not re.search(r"instance|node|server|gpu|system", unit.lower()) and \
                        T.resource_of(unit) is None and (unit or (set(count_facts(
                            desc)) != {"gpus_per_node"} and T.resource_of(desc) != "node")):
                    per = (unit_kind,)  # but "server L40S (4 GPU)" prices one node
            self.priced.append(_Priced("compute", V.Money(price, currency, per, raw), where, raw,
                                       TABLE, quantity=qty))
            count_where = item.cells.get("quantity", where)
            # The unit column says what the quantity counts ("16 | node | $3.49 / GPU-hr"):
            # it beats the price's own basis, which says only what one price unit is.
            counted = T.resource_of(unit) or per[0]
            # A unit of resource and time ("24 | 台・月"): the quantity may count node-months;
            # any other count of the offer beats it.
            rank = DERIVED if "_" in (T.billing_unit(unit) or "") else TABLE
            if counted == "gpu":
                self.add("gpu_count", int(qty), count_where, cell_text(qty), rank,
                         "quantity of GPUs on the compute line")
            elif counted == "node":
                self.add("node_count", int(qty), count_where, cell_text(qty), rank,
                         "quantity of nodes/instances on the compute line")
            self._system_text(desc, item.cells.get("description", where))
            return
        if unit_kind in ("hour", "day", "week", "month") and self._recurring_unread(
                price_text or unit_kind, unit, where, raw):
            return
        self._capex_line(item, desc, low, price, qty, currency, where, raw)

    def _per_gb_month_line(self, item: LineItem, unit: str, price_text: str, price: float,
                           currency: str, where: Location, raw: str) -> bool:
        """Storage at "$0.145 per GiB-month": per TB-month (1 TB = 931.32 GiB)."""
        per_gb_month = PER_GB_MONTH_RE.search(f"{unit} {price_text}")
        if not per_gb_month:
            return False
        scale = GIB_PER_TB if per_gb_month.group(1).lower() == "gib" else 1000.0
        self._usd("storage_usd_per_tb_month", V.Money(price, currency, ("tb", "month"), raw),
                  where, raw, TABLE, f"{price:g} per {per_gb_month.group(1)}-month x "
                  f"{scale:g}", scale=scale)
        kind, _ = _storage_kind(item.description)
        if kind:
            self.add("storage_type", kind, item.cells.get("description", where),
                     item.description, IN_TEXT)
        return True

    def _rack_line(self, item: LineItem, unit_kind: str, price: float, qty: float,
                   currency: str, where: Location, raw: str) -> None:
        """"207,000 | per rack per month", 4 racks on the line: a rack-scale price."""
        self.priced.append(_Priced("compute", V.Money(price, currency, ("rack", unit_kind),
                                                      raw), where, raw, TABLE, quantity=qty))
        rack_counts(self, item, qty, gpus_per_rack_stated(item.description), where)

    def _tb_months(self, desc: str, qty: float, unit: str, desc_at: Location,
                   qty_at: Location) -> None:
        """A line billed in TB-months: its quantity is TB x months billed (50 TB for 6 months
        is 300), so the capacity is the size the description states; the quantity is the
        capacity only for one month, and is read so with a warning when no size is stated."""
        size = T.parse_size(desc)
        if size is not None:
            note = None if abs(size.tb - qty) < 1e-9 else \
                f"the line bills {cell_text(qty)} TB-months; the stated size is the capacity"
            self.add("storage_capacity_tb", size.tb, desc_at, desc, TABLE, note)
            return
        scale = _CAPACITY_UNITS.get(unit.strip().lower())
        if scale is not None:  # "Lustre | 1.000 | TB | 18 € / TB / Monat": a size, not months
            self.add("storage_capacity_tb", qty * scale, qty_at, cell_text(qty), TABLE,
                     f"quantity in {unit.strip()}")
            return
        self.add("storage_capacity_tb", qty, qty_at, cell_text(qty), IN_TEXT,
                 "quantity of TB-months on the line, read as TB for one month")
        self.note(qty_at, "storage-from-tb-months", {"quantity": cell_text(qty)},
                  "storage_capacity_tb", cell_text(qty), "the storage capacity in TB")

    def _unit_in_description(self, desc: str) -> str:
        """No unit column: what the description says the quantity counts ("… 730 timer –
        antal chip-timer", "Hyperdisk ML, 100 TB, pr. måned – antal TB", "(qty: GPU-hours)"),
        in the count words of every language (evaltool/data/field_synonyms.yaml)."""
        words = "|".join(re.escape(w) for w in sorted(self.vocab.count_words, key=len,
                                                         reverse=True))
        found = re.search(rf"(?:[–—-]|\(|;|,)\s*(?:{words})\s*(?:of\s+|in\s+|[:=]\s*)?"
                          r"([^\W\d_][\w\-/ ]{0,30}?)\s*\)?\s*$", fold(desc), re.I)
        return found.group(1).strip() if found else ""

    def _capex_line(self, item: LineItem, desc: str, low: str, price: float, qty: float,
                    currency: str, where: Location, raw: str) -> None:
        """A line with no time basis: a one-off purchase item, at its line total when the
        quote gives one (after the line's discount), else quantity x unit price."""
        amount = line_amount(item, price, qty)  # its total (or qty x price), net of discounts
        self.priced.append(_Priced("capex_line", V.Money(amount, currency, (), raw), where,
                                   raw, TABLE, quantity=qty))
        if (per_rack := gpus_per_rack_bought(desc)) is not None:  # "GB200 NVL72 rack" x 1
            return rack_counts(self, item, qty, per_rack, where)
        # A system line: named as a server, or a model "with 8x H200" (a count of GPUs).
        system = re.search(r"\b(dgx|hgx|system|server|node)\b", low) or ((  # any language's
            _GPUS_IN_SYSTEM_RE.search(desc) or T.resource_of(desc) == "node")  # node word
            and names_an_accelerator(desc))
        if system and not re.search(r"switch|storage|install|service|cable|appliance", low):
            counted = "gpu" if T.resource_of(item.unit or "") == "gpu" else "node"  # "GPU"
            self.add(f"{counted}_count", int(qty), item.cells.get("quantity", where),
                     cell_text(qty), IN_TEXT, f"quantity of {counted}s on the purchase line")
            self._system_text(desc, item.cells.get("description", where))
        kind, _ = _storage_kind(desc)
        if kind:
            self.add("storage_type", kind, item.cells.get("description", where), desc, IN_TEXT)

    def _system_text(self, desc: str, where: Location) -> None:
        try:

            recognise_accelerator(desc)
        except EvaltoolError:
            return
        self.add("accelerator_text", desc, where, desc, IN_TEXT)
        self._facts_in_system_text(where, desc, IN_TEXT)

    def read_note(self, text: str, where: Location) -> None:
        match = _MIN_COMMIT_RE.search(text)
        if match:
            try:
                money = V.parse_money(match.group(2), currency=self.currency_hint)
                self._usd("min_commit_usd", V.Money(money.amount, money.currency, (), text),
                          where, text, IN_TEXT, "read from a note")
            except (V.ValueParseError, V.ValueConversionError):
                pass
        self._dates_in_sentence(text, where)
        self.money_terms_in_note(text, where)
        term = re.search(r"(\d+)[- ]month (?:commitment|term|reservation)", text, re.I)
        if term:
            self.add("term_months", float(term.group(1)), where, text, IN_TEXT,
                     "read from a note")

    # --- resolve, derive, check -----------------------------------------------------
    def resolve(self) -> tuple[dict[str, Any], dict[str, FieldSource]]:
        values: dict[str, Any] = {}
        provenance: dict[str, FieldSource] = {}
        for name, facts in self.facts.items():
            best = max(facts, key=lambda f: f.priority)  # first of the highest priority
            best = next(f for f in facts if f.priority == best.priority)
            tol = _MEMORY_TOL if name == "gpu_memory_gb" else _REL_TOL  # GiB vs GB
            for other in facts:
                if other is best or _same(other.value, best.value, tol):
                    continue
                if name in ("accelerator_text", "contract_text", "quote_total"):
                    continue
                self.conflict(name, best, other)
            values[name] = best.value
            provenance[name] = FieldSource(where=best.where.to_dict(), raw=best.raw[:500],
                                           derived_from=best.derived_from, note=best.note)
        return values, provenance

    def conflict(self, name: str, best: Fact, other: Fact) -> None:
        self.note(other.where, "value-conflict", {
            "field": name, "first": repr(best.value), "first_at": str(best.where),
            "second": repr(other.value), "second_at": str(other.where)}, name, other.raw,
            str(best.value))
        if name in ("gpu_count", "node_count", "gpus_per_node"):
            message = self.problems[-1].message  # the flag says what the warning says
            self.flag("count_mismatch", "medium", message, other.where, other.raw,
                      ask_for="one consistent GPU and node count")



_SUBJECT_RE = re.compile(r"^\s*(?:subject|re|betreft|betreff|oggetto|objet|asunto|assunto|"
                         r"dotyczy|ämne|emne|aihe|věc|vec)\s*:", re.I)
# Read only on storage capacity cells and labels (never on prices: "netto" there is VAT).
# A cell that also states a raw figure ("1.2 PiB raw, 800 TiB usable") stays unqualified.
_USABLE_RE = re.compile(r"\busable\b|\bnutzbar\w*|\bnet\b|\bnetto[- ]?kapazit|"
                        r"\bcapacité utile|\bcapacidad útil|\banvändbar\w*|\bbruikbaar\b|"
                        r"\butilizzabile\b", re.I)
_RAW_RE = re.compile(r"\braw\b|\bbrutto\b|\broh\w*|\bbrute?\b", re.I)
_GPUS_IN_SYSTEM_RE = re.compile(r"\b(?:1|2|4|8|16)\s*[x×]\s*(?:nvidia|amd|intel)?\s*[a-z]*\d", re.I)
# A label naming one node ("Compute tray (node)", "Per server"), not the offer's fleet.
_ONE_NODE_LABEL_RE = re.compile(r"^\s*(?:per\s+|each\s+|one\s+)?(?:compute\s+)?(?:tray|node|"
                                r"server|instance|host|machine|knoten|noeud)\b(?!\s*(?:count|"
                                r"s\b|total))", re.I)
# A note about every price of the quote ("Prix en euros HT", "All prices in GBP").
_ALL_PRICES_RE = re.compile(r"\b(?:prices?|prix|preise?|pre[cz]zi|precios?|prijzen|priser|"
                            r"amounts?|bedragen|montants?|betr[äa]ge|bel[øo]b|bel[øo]p|belopp|kwoty|ceny|"
                            r"[čc][áa]stky|importes?|importi|valores|pre[çc]os)\b", re.I)
_PLAIN_NUMBER_RE = re.compile(r"^\s*[\d.,'\s]*\s*$")
