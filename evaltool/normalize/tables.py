"""Facts a table's rows and columns give a cell: a line's own field and notes columns, what
a line's description states about the service, a line of network cards, a recurring fee
whose basis is not understood, and a period of two dates under a date or term label; and a
labelled value read by the kind of its field (text, count, date, months, number).

Builder (normalize/builder.py) reads with these; they record facts as every reader does."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from evaltool.errors import Location
from evaltool.grammar.accelerators import names_an_accelerator
from evaltool.normalize import values as V
from evaltool.normalize.facts import (
    IN_TEXT,
    LABELLED,
    _fabric,
    _notes,
    _slot_field,
    expected_for,
)
from evaltool.normalize.phrases import MAX_PROSE_CHARS, clauses, topics
from evaltool.normalize.prose import ProseReaders
from evaltool.normalize.shapes import count_facts, words_to_digits
from evaltool.read import text as T
from evaltool.read.cells import Candidate, LineItem, cell_text
from evaltool.read.notes_columns import is_notes_column
from evaltool.read.vocabulary import normalise_label

# "4× NVIDIA H100 SXM5 80 GB": a count of the accelerator the cell names; the label gives the scope.
_SYSTEM_AFTER_RE = re.compile(r"\s*(?:[\w-]+\s+){0,2}?(?:hgx|dgx|mgx|supermicro|dell|hpe|lenovo|"
                              r"gigabyte|asus|inspur|poweredge|proliant|thinksystem|sys-|xe\d|"
                              r"server|servers|node|nodes|system|systems|rack|racks|nvl\d)",
                              re.I)
# The accelerator's maker right after the "×": chips, not an instance type ("gpu.a100x8").
_CHIP_AFTER_RE = re.compile(r"\s*(?:nvidia|amd|intel|google)\b", re.I)
_TIMES_NAMED_RE = re.compile(r"\s*(\d{1,6})\s*[x×*]\s*(?=[^\W\d_])", re.I)

_DATE_ORDER_RE = re.compile(r"\b(MM|DD)[/.\-](?:DD|MM)[/.\-](?:YYYY|YY|JJJJ|AAAA)\b", re.I)
_NUMERIC_DATE_RE = re.compile(r"\b(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{4})\b")
_SYSTEM_COUNT_RE = re.compile(r"^\s*(\d{1,2})\s*[x×]\s*(?=[A-Za-z])")
# A cloud region's code and a gloss in brackets: "asia-northeast1（東京）", "us-east5 (Ohio)".
_REGION_CODE_GLOSS_RE = re.compile(r"^\s*([a-z]{2,}(?:-[a-z]+)+\d{1,2}[a-z]?)\s*"
                                   r"[（(][^()（）]*[)）]\s*$")
# A trailing site or building code: capitals and digits with a dash or a digit, no spaces.
_SITE_CODE_RE = re.compile(r"(?<=\S)\s*\(((?=[A-Z0-9_-]*[\d-])[A-Z][A-Z0-9_-]{1,15})\)\s*$")


class TableReaders(ProseReaders):
    """Readers of the cells a table gives their role."""

    dayfirst: bool = True  # how the document writes numeric dates (Builder.read decides)
    date_order: str | None = None  # why the document's dates read day- or month-first

    def read_slot(self, slot: str, cand: Candidate, text: str) -> None:
        raise NotImplementedError  # Builder.read_slot: a labelled value by its slot

    # --- a labelled value by the kind of its field (Builder.read_slot) ----------------
    def _text_field(self, slot: str, cand: Candidate, text: str) -> None:
        """Words kept as written; a region's full stop, code and gloss."""
        if slot == "region":
            # "us-east (N. Virginia)." at the end of a sentence: the full stop is not
            # part of the place.
            text = re.sub(r"(?<=[)\w]{2})\.$", "", text.strip())
            # "Dallas, TX (DAL-2)": the site code in brackets is part of what the vendor
            # names as the location; kept whole (cutting it would make two sites of one
            # metro read as the same place), and said.
            gloss = _REGION_CODE_GLOSS_RE.match(text)
            if gloss and re.search(r"[^\x00-\u024f\s()（）,.-]", text[gloss.end(1):]):
                # "asia-northeast1（東京）": the cloud's region code, the city glossed in another
                # script; "asia-southeast1 (Singapore)" is the vendor's own words, kept whole
                self.add(slot, gloss.group(1), cand.where, text, LABELLED,
                         "the region's code; the name in brackets glosses it")
                return
            site = _SITE_CODE_RE.search(text)
            if site:
                self.note(cand.where, "region-site-code", {"code": site.group(1)}, "region",
                          text[:120], severity="info")
        self.add(slot, text, cand.where, text, LABELLED)

    def _count_field(self, slot: str, cand: Candidate, text: str) -> None:
        """A count, or the counts a phrase states ("8 x H200", "six")."""
        if slot == "node_count" and "(" in cand.label:
            # "Instances (8 GPUs each) | 4": the label's bracket says what one node holds
            per_node = count_facts(cand.label.split("(", 1)[1]).get("gpus_per_node")
            if per_node:
                self.add("gpus_per_node", per_node, cand.label_where or cand.where,
                         cand.label, LABELLED, "the GPUs of one node, stated in the label")
        system = _SYSTEM_COUNT_RE.match(text) if slot == "gpu_count" and isinstance(
            cand.value, str) and "total" not in normalise_label(cand.label) else None
        if system and names_an_accelerator(text):
            # "GPUs | 8 x NVIDIA H200 141 GB each": the GPUs of one system or of the whole
            # offer; the offer's node count tells which (settle_system_counts).
            self.system_counts.append((cand, text, int(system.group(1))))
            return
        shaped = count_facts(text) if isinstance(cand.value, str) else {}
        try:
            count = V.parse_count(cand.value)
        except V.NoValueGiven:
            raise
        except V.ValueParseError:
            lead = re.match(r"\s*(\d{1,6})\s*\(", text)  # "8 (8 GPUs each, 64 GPUs)"
            if lead and slot not in shaped:
                shaped[slot] = int(lead.group(1))
            times = _TIMES_NAMED_RE.match(text)  # "GPU na uzel | 4× NVIDIA H100 SXM5 80 GB"
            if times and slot not in shaped and names_an_accelerator(text):
                if slot != "node_count":
                    shaped[slot] = int(times.group(1))
                elif _CHIP_AFTER_RE.match(text, times.end()) and not _SYSTEM_AFTER_RE.match(
                        text, times.end()):
                    # "Csomópont | 4× NVIDIA A100 SXM4 80GB": accelerators, not systems, so the
                    # node the label names is described ("Servers | 32 × Supermicro HGX B200"
                    # counts systems, and is left to the phrase readers)
                    self.add("gpus_per_node", int(times.group(1)), cand.where, text, LABELLED,
                             "the accelerators of the node the label names")
                    return
            in_words = words_to_digits(text).strip(" .")  # "six", "zwölf", "huit"
            if in_words.isdigit() and slot not in shaped:
                shaped[slot] = int(in_words)
            if slot not in shaped:
                raise
            self.add(slot, shaped[slot], cand.where, text, LABELLED,
                     "count read from the phrase")
        else:
            if slot in shaped and shaped[slot] != count.value:
                # "Host | 4 chips per host (128 hosts)": the first figure counts something
                # else; the phrase says which figure is this field's.
                self.add(slot, shaped[slot], cand.where, text, LABELLED,
                         "count read from the phrase")
            else:
                self.add(slot, count.value, cand.where, text, LABELLED,
                         _notes(count.notes))
        several = len(re.findall(r"\d+", text)) > 1  # "8 (8 GPUs each, 64 GPUs)"
        for name, value in shaped.items():
            if name != slot and several:
                self.add(name, value, cand.where, text, IN_TEXT, "count stated in the phrase")

    def _date_field(self, slot: str, cand: Candidate, text: str) -> None:
        """A calendar date in the document's own order; a span's last day."""
        stated: Any = cand.value
        order = _DATE_ORDER_RE.search(text) if isinstance(stated, str) else None
        numeric = _NUMERIC_DATE_RE.search(text) if order else None
        if order and numeric:
            # "11/03/2025" beside "MM/DD/YYYY" (a unit column): the vendor's own order.
            first, second, year = numeric.groups()
            month, day = (first, second) if order.group(1).lower().startswith("m") \
                else (second, first)
            stated = f"{year}-{int(month):02d}-{int(day):02d}"  # ISO: no order to guess
        if isinstance(stated, str) and self._service_period(slot, cand, stated):
            return
        if slot == "delivery_date" and isinstance(stated, str) and \
                V.is_signing_deadline(stated):  # "… subject to signature by 31 March"
            stated = V.before_signing_deadline(stated)
            if not re.search(r"\d", stated):
                raise V.ValueParseError("a date by which to sign, not the delivery date",
                                        found=text, expected=V.EXPECTED["date"])
        parsed = V.parse_date(stated, dayfirst=self.dayfirst)
        if parsed.value is None:
            raise V.ValueParseError("no calendar date", found=text,
                                    expected=V.EXPECTED["date"])
        self.add(slot, parsed.value, cand.where, text, LABELLED, _notes(parsed.notes))
        if parsed.ambiguous:
            # "03/11/2026": 3 November or March 11; the document's own dates and address
            # decide, and a date they cannot decide is said
            if self.date_order is None:
                self.note(cand.where, "date-order-assumed",
                          {"notes": _notes(parsed.notes)}, slot, text)
            else:
                self.note(cand.where, "date-order-read", {
                    "notes": _notes(parsed.notes), "reason": self.date_order}, slot, text,
                    severity="info")
        if parsed.latest != parsed.earliest:
            self.note(cand.where, "date-span", {"notes": "; ".join(parsed.notes)}, slot, text)

    def _percent_field(self, slot: str, cand: Candidate, text: str) -> None:
        """A percentage; an uptime cell that gives a date is the delivery."""
        if slot == "sla_uptime_pct" and self._availability_date(cand, text):
            return
        self._percent(slot, cand, text)

    def _months_field(self, slot: str, cand: Candidate, text: str) -> None:
        """A number of months, or a period's length and its first day."""
        if isinstance(cand.value, str) and self._service_period(slot, cand, text):
            return  # "01/04/2026 - 31/03/2027": the period's length, and its first day
        short = re.fullmatch(r"\s*(\d{1,3})\s*([MY])\s*", text, re.I)
        if short is not None:
            # "12M", "3Y" under a term label: an export's shorthand for months and years
            # (never 12 million, as a bare amount would read)
            count = int(short.group(1)) * (12 if short.group(2).upper() == "Y" else 1)
            self.add(slot, float(count), cand.where, text, LABELLED,
                     f"'{text.strip()}' read as {count} months")
            return
        if slot == "term_months" and isinstance(cand.value, (int, float)) and \
                not isinstance(cand.value, bool) and cand.value > 240:
            # "Monthly commitment | 925,056": an amount under a word the term shares, never
            # 77,000 years; said, and the cell is read by its shape instead
            raise V.ValueParseError("a bare figure far beyond any term (over 240 months)",
                                    found=text, expected="a number of months")
        try:
            months = V.parse_duration(cand.value, "months")
        except V.NoValueGiven:
            raise
        except V.ValueParseError:
            head = re.split(r"[,;(]", text, maxsplit=1)[0]
            if head.strip() != text.strip():
                # "12 miesięcy, rozliczenie miesięczne (… / mies. przy 730 h)": the term leads;
                # what follows says how it is billed
                try:
                    months = V.parse_duration(head.strip(), "months")
                except V.ValueParseError:
                    pass
                else:
                    self.add(slot, months.value, cand.where, text, LABELLED,
                             _notes(months.notes) or "the duration the value starts with")
                    return
            local = T.parse_duration(text)  # French/German units: "6 mois", "12 Monate"
            if local is None:
                raise
            self.add(slot, local.months, cand.where, text, LABELLED, local.assumed)
            return
        self.add(slot, months.value, cand.where, text, LABELLED, _notes(months.notes))

    def _bool_field(self, slot: str, cand: Candidate, text: str) -> None:
        """Yes or no."""
        flag = V.parse_bool(cand.value)
        self.add(slot, flag.value, cand.where, text, LABELLED, _notes(flag.notes))

    def _number_field(self, slot: str, cand: Candidate, text: str) -> None:
        """A plain number ("0.2", "0.2 per node-day"): one figure only."""
        figures = re.findall(T.NUMBER, text) if isinstance(cand.value, str) else []
        if len(set(figures)) > 1:
            raise V.ValueParseError("several figures; cannot tell which one is meant",
                                    found=text, expected="one number")
        figure = T.to_number(figures[0]) if figures else V.parse_number(cand.value).value
        self.add(slot, figure, cand.where, text, LABELLED)

    def _line_fields(self, item: LineItem) -> None:
        """The columns of a line that name a field ("Duración | 12 meses") or hold notes
        ("Observaciones | mínimo 6 meses"): the offer's facts when the line is the offer's
        own (an option's lines, or the table's only line), never one BOM line's."""
        if not item.fields:
            return
        own = bool(item.raw.get("group")) or len(self.record.line_items) == 1 or \
            self._only_accelerator_line(item)
        for label, value, where in item.fields:
            # "Supplier_Notes", "Vendor comments": a notes column, whoever wrote the notes
            slot = None if is_notes_column(label) else self.vocab.match(label)
            text = cell_text(value)
            if slot in (None, "ignore") or not text.strip():
                if own:
                    self.read_prose(f"{label}: {text}", where)
                else:  # one BOM line's note: only what it says about the service
                    self._service_prose(text, where)
                continue
            if not own and not self._whole_column(label, text):
                continue  # one line's own figure ("Term (mo) | 12" on a support line)
            cand = Candidate(label, value, where)
            try:
                self.read_slot(slot, cand, text)
            except (V.ValueParseError, V.ValueConversionError) as exc:
                self.cannot_read(_slot_field(slot), cand, exc)
            except (ValueError, ArithmeticError) as exc:
                self.note(where, "value-unreadable",
                          {"reason": f"not a valid value ({type(exc).__name__}: {exc})"},
                          _slot_field(slot), text[:120], expected_for(_slot_field(slot)))

    def _only_accelerator_line(self, item: LineItem) -> bool:
        """The record's one line that names an accelerator (an export's alternative read as
        its own offer, beside optional storage or support lines) is the offer's own line."""
        accelerated = [i for i in self.record.line_items if names_an_accelerator(i.description)]
        return accelerated == [item]

    def _whole_column(self, label: str, text: str) -> bool:
        """Every line that fills the column states the same value ('Term (mo) | 24' down a
        BOM): the table states it once for the whole offer."""
        values = {cell_text(v).strip() for item in self.record.line_items
                  for lab, v, _ in item.fields if lab == label and cell_text(v).strip()}
        return values == {text.strip()}

    def _service_prose(self, text: str, where: Location) -> None:
        """What a line's description or note states about the service ('Aggregate 180 GB/s
        read / 60 GB/s write', 'Sev-1 response within 30 minutes'), read as text."""
        if not text or len(text) > MAX_PROSE_CHARS:
            return
        for clause in clauses(text):
            for topic in topics(clause):
                if topic in _LINE_TOPICS:
                    self._as_text(getattr(self, f"_prose_{topic}"), clause, where)

    def _service_period(self, slot: str, cand: Candidate, text: str) -> bool:
        """'01/04/2026 – 31/03/2027' under a date label: two dates make a period.  Three
        months or more is the service period (its first day is the delivery date, its length
        the term), whatever the label calls it ('Periodo di validità' of an allocation);
        a shorter one under a validity label is the quote's validity, which ends on its last
        day.  True when the text was read as a range."""
        parts = _RANGE_SPLIT_RE.split(text.strip(), maxsplit=1)
        if len(parts) != 2 or not all(re.search(r"\d", p) for p in parts):
            return False
        try:
            first, last = (V.parse_date(p, dayfirst=self.dayfirst).value for p in parts)
        except V.ValueParseError:
            return False
        if not isinstance(first, dt.date) or not isinstance(last, dt.date) or last <= first:
            return False
        days = (last - first).days + 1
        if days < 85:
            if slot == "valid_until":
                self.add(slot, last, cand.where, text, LABELLED, "the last day of the period")
                return True
            return False
        months = round(days / (365.25 / 12))
        self.add("delivery_date", first, cand.where, text, LABELLED,
                 "the first day of the service period")
        self.add("term_months", float(months), cand.where, text, LABELLED,
                 f"the service period, {first.isoformat()} to {last.isoformat()}")
        if slot not in ("delivery_date", "term_months"):
            self.note(cand.where, "period-under-date-label",
                      {"label": cand.label, "months": months, "text": text.strip()[:60]},
                      _slot_field(slot), text[:120], "a single date")
        return True

    def _line_prose(self, item: LineItem) -> None:
        """A line's description says what the line is ('InfiniBand NDR fabric, 8 x 400 Gb/s
        per node, single tenant'; 'Premium Support: 24x7, 1-hr response on P1'): its facts
        about the service, read as text (its money is the line's, read above)."""
        self._service_prose(item.description,
                            item.cells.get("description", item.row_where))

    def _nic_line(self, item: LineItem) -> None:
        """A line of network cards ('AMD Pollara 400 AI NIC, 400GbE, RoCEv2 (8 per server,
        one per GPU)'): the fabric, and the node's bandwidth as cards per node x port speed
        when the line says how many cards a node holds."""
        desc = item.description
        if not _NIC_RE.search(desc):
            return
        where = item.cells.get("description", item.row_where)
        fabric = _fabric(desc)
        if fabric is not None:
            self.add("inter_node_fabric", fabric, where, desc, IN_TEXT, "the network cards' line")
        speed = _PORT_SPEED_RE.search(desc)
        per_node = _CARDS_PER_NODE_RE.search(desc)
        if speed is None or per_node is None:
            return
        gbit = float(speed.group(1))
        self.add("inter_node_gbit_s_per_node", int(per_node.group(1)) * gbit, where, desc,
                 IN_TEXT, f"{per_node.group(1)} cards per node x {gbit:g} Gbit/s")
        if _ONE_PER_GPU_RE.search(desc):
            self.add("inter_node_gbit_s_per_gpu", gbit, where, desc, IN_TEXT,
                     "one card per GPU")

    def _availability_date(self, cand: Candidate, text: str) -> bool:
        """'Availability | Q2 2026 (2026-04-15)': a date, no percentage, under a label that
        also names uptime: when the capacity is available (the delivery date), warned."""
        if "%" in text or not re.search(r"\d{4}", text):
            return False
        try:
            parsed = V.parse_date(text, dayfirst=self.dayfirst)
        except V.ValueParseError:
            return False
        if not isinstance(parsed.value, dt.date):
            return False
        self.add("delivery_date", parsed.value, cand.where, text, IN_TEXT,
                 "a date under an availability label: when the capacity is available")
        self.note(cand.where, "date-under-uptime-label", {"label": cand.label, "text": text[:60]},
                  "delivery_date", text[:120],
                  "an uptime percentage, or a delivery date under its own label")
        return True

    def _recurring_unread(self, price_text: str, unit: str, where: Location, raw: str) -> bool:
        """'1.985,00 € / instancia / mes': a fee per month or hour whose resource is not
        understood is never a one-off purchase line (that would make a rental a purchase);
        it is left out, and said."""
        if not (_RECURRING_RE.search(f"{price_text} {unit}") or price_text in (
                "hour", "day", "week", "month")):
            return False
        self.note(where, "recurring-price-basis-unknown", {"raw": raw[:80]},
                  "price_usd_per_gpu_hour", price_text or unit)
        return True


# Between the two dates of a period: "01/04/2026 – 31/03/2027", "1 April 2026 to 31 March
# 2027", "vom 1.4.2026 bis 31.3.2027", "dal ... al ...", "du ... au ...".
_RANGE_SPLIT_RE = re.compile(r"\s+(?:[-–—]|to|until|till|through|bis|al|au|hasta|a|do|tot|"
                             r"till|t\.?o\.?m\.?)\s+|\s*[–—]\s*", re.I)
# A fee per unit of time: "/ mes", "per month", "/Monat", "par mois", "/h", "pro Stunde".
_RECURRING_RE = re.compile(r"(?:/|\bper\b|\bpor\b|\bpro\b|\bpar\b|\bal\b|\bje\b|\bza\b)\s*"
                           r"(?:mes|month|mo|monat|mois|mese|miesi\w*|m[eě]s[ií]c|m[åa]ned|"
                           r"md|h|hr|hour|hora|ora|stunde|heure|godzin\w*|hodin\w*)\b\.?", re.I)
# What a line's description may state besides its price (money, terms and counts are read
# from the line's own columns).
_LINE_TOPICS = frozenset({"network", "support", "replacement", "orchestrator", "root",
                          "storage_speed", "egress"})
# Network cards on a purchase line, their port speed, and how many a node holds.
_NIC_RE = re.compile(r"\bnics?\b|\bhcas?\b|\bsupernic|\bconnectx|\bnetwork\s+(?:adapter|card)|"
                     r"\badapt(?:er|ateur)|\bnetzwerkkarte", re.I)
_PORT_SPEED_RE = re.compile(r"(?<![\d.])(\d{2,4})\s*(?:gbe\b|gb/s|gbit/s|gbps|g\b)", re.I)
_CARDS_PER_NODE_RE = re.compile(r"(?<![\d.])(\d{1,2})\s*(?:x\s*)?(?:per|each|/|pr\.?|je|par|por)"
                                r"\s*(?:server|node|system|host|knoten|serveur|servidor)", re.I)
_ONE_PER_GPU_RE = re.compile(r"\b(?:one|1)\s+(?:per|each|/)\s*(?:gpu|accelerator)", re.I)
