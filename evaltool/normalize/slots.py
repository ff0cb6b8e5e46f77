"""Reading one labelled value per canonical field ("slot"): each slot has its reader,
from counts and dates to bandwidths, storage and money; facts found by the shape of a
phrase (counts, dates, prices in sentences) are recorded beside them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from evaltool.catalog import load_catalog, recognise_accelerator
from evaltool.errors import EvaltoolError, Location, Problem
from evaltool.grammar.accelerators import names_an_accelerator
from evaltool.grammar.basis import names_time_not_kw
from evaltool.grammar.numbers import is_free_of_charge
from evaltool.issues import Param
from evaltool.issues import Severity as IssueSeverity
from evaltool.models import Flag, Severity
from evaltool.normalize import values as V
from evaltool.normalize.contract_price import not_offered
from evaltool.normalize.facts import (
    _ALL_IN_RE,
    _CORES_EACH_RE,
    _CORES_PRODUCT_RE,
    _CORES_RE,
    _CORES_TOTAL_RE,
    _COUNT_IN_TEXT_RE,
    _DATE_PHRASES,
    _DEDICATED_RE,
    _DENSE_RE,
    _GPU_NAME_RE,
    _PER,
    _PRECISION_RE,
    _PRICE_SENTENCE_RE,
    _SHARED_RE,
    _SOCKETS_RE,
    _SPARSE_RE,
    IN_TEXT,
    LABELLED,
    Fact,
    _bandwidth,
    _fabric,
    _join,
    _money_text,
    _notes,
    _precision,
    _Priced,
    _storage_kind,
)
from evaltool.normalize.notecodes import NoteCode
from evaltool.normalize.paid_price import paid_rank
from evaltool.normalize.per_node import accelerator_count
from evaltool.normalize.phrases import (
    _SOCKETS_TIMES_CORES_RE,
    bracket_cores,
    cores_taken_per_cpu,
    fold,
    named_not_own,
    not_an_accelerator_shape,
    offered_schedulers,
    other_traffic,
    port_speed_only,
    read_write,
    root_granted,
    yes_no,
)
from evaltool.normalize.shapes import (
    count_facts,
    counted_pieces,
    counts_accelerators,
)
from evaltool.read import text as T
from evaltool.read.cells import Candidate, RawRecord, cell_text
from evaltool.read.vocabulary import Vocabulary, normalise_label

_GPU_LINK_RE = re.compile(r"\b(?:nvlink|infinity\s+fabric|xgmi|neuronlink)\b[^;,()\d]{0,30}?"
                          r"(?:\d\s*[:)]?\s*)?" + T.NUMBER + r"\s*(tb/s|gb/s|tbps|gbps|to/s|go/s)",
                          re.I)
PER_GB_MONTH_RE = re.compile(r"\b(gib|gb|go)\s*[-/·]?\s*(?:per\s+|par\s+|pro\s+)?(?:month|mo|"
                             r"monat|mois|mes|mese|maand)\b", re.I)
GIB_PER_TB = 1e12 / 2**30  # 931.32 GiB in one (decimal) TB
_GPU_LINK_ONLY_RE = re.compile(r"\b(?:nvlink|nvswitch|infinity\s+fabric|xgmi|neuronlink)\b",
                               re.I)
_NO_CHARGE_RE = re.compile(r"\bno\s+(?:charge|fee|cost)s?\b|\bfree(?:\s+of\s+charge)?\b|"
                           r"\bnot\s+charged\b|\bwaived\b|\bkostenlos\b|\bgratuit\w*|"
                           r"\bsans\s+frais\b|\bincluded\b|\binklusive\b|\binclus\b", re.I)
_PERCENT_RE = re.compile(T.NUMBER + r"\s*%")
_BARE_PERCENT_RE = re.compile(r"^\s*" + T.NUMBER + r"\s*%?\s*$")
_CAP_WORD_RE = re.compile(r"\b(?:max(?:imum|imal)?|cap(?:ped)?|up\s+to|not\s+exceed\w*|limit\w*|"
                          r"plafonn\w*|höchstens|hochstens|bis\s+zu|jusqu.à)\b[^%]*$", re.I)
_THRESHOLD_RE = re.compile(r"(?:[<>≤≥]|\bbelow|\bunder|\buptime|\bavailability|\bunter|"
                           r"\bsous|\bin\s*f[ée]rieure?\s+à)\s*[^%\d]*$", re.I)


class SlotReaders:
    """Records facts about one offer; one reader per slot (``_slot_<name>``), the rest by
    the field's kind (``FIELD_KIND``)."""
    dayfirst: bool = True  # how the document writes numeric dates (Builder.read decides)

    def __init__(self, record: RawRecord, fx: Mapping[str, float], vocab: Vocabulary) -> None:
        self.record = record
        self.fx = fx
        self.vocab = vocab
        self.facts: dict[str, list[Fact]] = {}
        self.priced: list[_Priced] = []
        self.problems: list[Problem] = list(record.problems)
        self.flags: list[Flag] = []
        self.unreadable: dict[str, Problem] = {}
        self.currency_hint: str | None = None
        self.currency_explicit: str | None = None
        self.support_pct: tuple[float, Location, str] | None = None
        self.all_in_note: Location | None = None
        self.accelerator_hints: list[str] = []
        # Cells under an accelerator label whose value names no known accelerator.
        self.unnamed_accelerators: list[tuple[Candidate, str]] = []
        # 'N x <accelerator>' under a GPU-count label, settled once the node count is known.
        self.system_counts: list[tuple[Candidate, str, int]] = []
        self.contract_value: tuple[V.Money, Location, str] | None = None
        self.looked_at: set[str] = set()
        self.compute_rate_named = False  # the offer names its compute-only rate itself
        self.decimal_comma = False
        self.space_thousands = False  # the document writes "5 816 640,00"

    # --- recording -----------------------------------------------------------------
    def add(self, name: str, value: Any, where: Location, raw: str, priority: int,
            note: str | None = None, derived_from: list[str] | None = None) -> None:
        self.facts.setdefault(name, []).append(
            Fact(value, where, raw, priority, note, derived_from))

    def note(self, where: Location, code: NoteCode, params: Mapping[str, Param],
             field_name: str | None = None, found: str | None = None,
             expected: str | None = None, severity: IssueSeverity = "warning") -> None:
        """Report a registered issue: the words are its code's template's, from ``params``."""
        self.problems.append(Problem(where, field=field_name, found=found, expected=expected,
                                     severity=severity, code=code, params=params))

    def flag(self, kind: str, severity: Severity, why: str, where: Location | None = None,
             quote: str | None = None, ask_for: str | None = None) -> None:
        self.flags.append(Flag(kind=kind, severity=severity,
                               why=why, where=where.to_dict() if where else None,
                               quote=quote, ask_for=ask_for))

    def value_by_shape(self, cand: Candidate, text: str) -> None:
        """A value its label cannot read, read by its own shape (ProseReaders)."""

    def cannot_read(self, field_name: str, cand: Candidate, exc: EvaltoolError) -> None:
        if isinstance(exc, (V.ValueParseError, V.ValueConversionError)):
            problem = exc.to_problem(cand.where, field=field_name, severity="warning",
                                     code="value-unreadable")
        else:
            problem = Problem(cand.where, field=field_name, found=cell_text(cand.value),
                              severity="warning", code="value-unreadable",
                              params={"reason": str(exc)})
        if isinstance(exc, V.NoValueGiven):
            problem = Problem(cand.where, field=field_name, found=cell_text(cand.value),
                              expected=problem.expected, severity="warning",
                              code="value-not-given", params={"label": cand.label})
        self.unreadable.setdefault(field_name, problem)
        self.problems.append(problem)


    def _hours(self, slot: str, cand: Candidate, text: str) -> None:
        try:
            dur = V.parse_duration(cand.value, "hours")
            self.add(slot, dur.value, cand.where, text, LABELLED, _notes(dur.notes))
            if any("read as" in n for n in dur.notes):
                self.assumed(slot, cand.where, text, "; ".join(dur.notes))
            return
        except V.NoValueGiven:
            raise
        except V.ValueParseError:
            fallback = T.parse_duration(text)
            if fallback is None and re.search(r"\bminutes?\b", text, re.I):
                fallback = T.Duration(1.0, assumed="'within minutes' read as 1 hour")
            if fallback is None:
                raise
        self.add(slot, fallback.hours, cand.where, text, LABELLED, fallback.assumed)
        if fallback.assumed:
            self.assumed(slot, cand.where, text, fallback.assumed)

    def _percent(self, slot: str, cand: Candidate, text: str) -> None:
        """A percentage read with the role its label gives it. In a sentence ("10% of monthly
        charges if uptime < 99.5%; maximum credit 30%") an uptime is the highest figure of
        90% or more (lower ones are credit-tier thresholds); a credit cap is the figure a
        cap word introduces, else the largest credit (tiers rise to the cap), never a
        threshold of uptime."""
        if not isinstance(cand.value, str) or _BARE_PERCENT_RE.match(text):
            pct = V.parse_percent(cand.value)
            self.add(slot, pct.value, cand.where, text, LABELLED, _notes(pct.notes))
            return
        figures = [(m.start(), T.to_number(m.group(1))) for m in _PERCENT_RE.finditer(text)]
        if not figures:
            pct = V.parse_percent(cand.value)  # raises: no percentage in the text
            self.add(slot, pct.value, cand.where, text, LABELLED, _notes(pct.notes))
            return
        if slot == "sla_uptime_pct":
            values = [v for _, v in figures if 90.0 <= v <= 100.0]
            note = "the highest availability figure of the sentence"
        elif slot != "sla_max_credit_pct":
            values = sorted({v for _, v in figures})
            if len(values) > 1:
                raise V.ValueParseError("several percentages; cannot tell which one is meant",
                                        found=text, expected=V.EXPECTED["percent"])
            note = None
        else:
            capped = [v for start, v in figures if _CAP_WORD_RE.search(text[max(0, start - 30):
                                                                             start])]
            credits = [v for start, v in figures
                       if not _THRESHOLD_RE.search(text[max(0, start - 14):start])]
            values = capped or credits
            note = ("the figure the cap word introduces" if capped else
                    "the largest credit of the sentence (credit tiers rise to the cap)")
        if not values:
            raise V.ValueParseError(f"no {slot.replace('_', ' ')} among the percentages",
                                    found=text, expected=V.EXPECTED["percent"])
        value = max(values)
        self.add(slot, value, cand.where, text, LABELLED,
                 note if len(set(v for _, v in figures)) > 1 else None)

    def assumed(self, name: str, where: Location, raw: str, why: str) -> None:
        if any(f.kind == "assumed_value" and f.why == f"{name}: {why}" for f in self.flags):
            return  # one warning per assumption, not one per cell it touches
        self.note(where, "assumed-value", {"why": why}, name, raw)
        self.flag("assumed_value", "low", f"{name}: {why}", where, raw,
                  ask_for=f"a stated {name.replace('_', ' ')}")

    def _quantity(self, slot: str, cand: Candidate, text: str, dimension: str,
                  unit: str) -> None:
        default = unit
        label_norm = cand.label.lower()
        if "gib" in label_norm:
            default = "GiB"
        elif "tib" in label_norm:
            default = "TiB"
        unit_column = T.UNIT_COLUMN.get(normalise_label(cand.note or ""))
        if unit_column is not None and T.same_dimension(unit_column, unit):
            default = unit_column  # "Memory per node | GiB | 2.048": the unit column's unit
        q = V.parse_quantity(cand.value, dimension, default)
        value = q.value
        grouped = re.search(r"(?<![\d.,])\d{1,3}\.\d{3}(?![\d.,])", text)
        if isinstance(cand.value, str) and grouped and self.decimal_comma:
            # "2.048 GB" in an offer that writes decimals with a comma ("24,80 €"): the dot
            # groups thousands.
            value *= 1000.0
            self.note(cand.where, "european-thousands", {"text": text}, slot, text)
        if slot == "gpu_memory_gb" and q.count and q.each is not None:
            value = q.each  # "8x H200 141GB": memory is per GPU, not the node's total
        if slot == "gpu_memory_gb":
            self._gpu_link(f"{text} {cand.note or ''}", cand.where)
        if dimension == "capacity" and unit == "GB":
            value = value * 1000.0  # parse_quantity gives TB for capacity
        note = _notes(q.notes)
        if isinstance(cand.value, (int, float)) and not isinstance(cand.value, bool):
            note = _join(note, f"bare number read in {default} (the unit of the field)")
        self.add(slot, value, cand.where, text, LABELLED, note)

    def _gpu_link(self, text: str, where: Location) -> None:
        """'80 GB HBM3 (NVLink 4: 900 GB/s per GPU)': the GPU-to-GPU link speed a memory cell
        names beside the memory is the intra-node bandwidth, never the memory."""
        match = _GPU_LINK_RE.search(text)
        if match is None:
            return
        value = T.to_number(match.group(1)) * (1000.0 if match.group(2).lower().startswith("t")
                                                else 1.0)
        self.add("intra_node_gbyte_s_per_gpu", value, where, text, IN_TEXT,
                 "GPU-to-GPU link speed stated beside the memory")

    def _money(self, cand: Candidate, text: str, per: tuple[str, ...] | None = None,
               currency: str | None = None) -> V.Money:
        context = normalise_label(f"{cand.label} {cand.section or ''}")
        if per is None:
            unit = T.billing_unit(context)
            if unit is None and cand.note:
                # The unit in a unit/notes column beside the value: "2.35 | € per GPU/ora".
                unit = T.billing_unit(normalise_label(cand.note))
                context = f"{context} {normalise_label(cand.note)}"
            per = (_PER.get(unit) or T.basis_per(unit)) if unit else None
        keyed = T.currency_of(context) if cand.where.sheet is None else None  # key names USD
        currency = currency or keyed or self.currency_explicit or T.currency_of(context) \
            or (T.currency_of(cand.note) if cand.note else None) or self.currency_hint
        if isinstance(cand.value, (int, float)) and not isinstance(cand.value, bool):
            if currency is None:
                currency = "USD"
                self.assumed("currency", cand.where, text,
                             "no currency stated for this price; read as USD")
            return V.parse_money(cand.value, currency=currency, per=per)
        if _PERCENT_RE.search(text) and T.currency_of(text) is None:
            # "15% of total contract value": a share of something, not an amount.
            raise V.ValueParseError("a percentage where an amount was expected", found=text,
                                    expected=V.EXPECTED["money"])
        try:
            return V.parse_money(_money_text(text), currency=currency, per=per)
        except V.NoValueGiven:
            raise
        except V.ValueParseError:
            if currency is not None:
                raise
            # The currency is the only thing parse_money takes that the text may lack: read
            # as USD, it either parses (the missing currency was the error: said) or raises
            # what else is wrong with it.
            money = V.parse_money(_money_text(text), currency="USD", per=per)
            self.assumed("currency", cand.where, text,
                         "no currency stated for this price; read as USD")
            return money

    def _money_field(self, slot: str, cand: Candidate, text: str, per_word: str) -> None:
        per = _PER.get(per_word) if per_word else None
        if isinstance(cand.value, str) and _NO_CHARGE_RE.search(text) and not re.search(
                r"\d", text) and slot != "price_usd_per_gpu_hour" and not (
                    slot == "egress_usd_per_gb" and other_traffic(text)):
            # "No charge for egress", "Egress free of charge": a stated zero.
            self.add(slot, 0.0, cand.where, text, LABELLED, "stated as free of charge")
            return
        lead = re.split(r"\s+[-–—]\s+|[,;:(]", text, maxsplit=1)[0] if isinstance(
            cand.value, str) else ""
        if lead.strip() and is_free_of_charge(lead.strip()) and not re.search(r"\d", text) \
                and slot != "price_usd_per_gpu_hour" and not other_traffic(text):
            # "None - billed monthly in arrears", "Keine (monatliche Abrechnung)": nothing due.
            self.add(slot, 0.0, cand.where, text, LABELLED, f"{lead.strip()!r} read as 0")
            return
        money = self._money(cand, text, per)
        if per_word == "kw_month" and names_time_not_kw(cand.label) and not re.search(
                r"kw", text, re.I):
            # "Colocation + drift pr. måned | 168.500": the month's amount, not per kW.
            raise V.ValueParseError(f"{slot}: a monthly amount, not a price per kW-month",
                                    found=text, expected="a price per kW-month")
        if per_word == "once" or not per_word:
            self._usd(slot, money, cand.where, text, LABELLED)
            return
        if per_word == "gpu_hour" and slot.endswith("price_usd_per_gpu_hour"):  # (compute_)
            role = "compute" if slot == "compute_price_usd_per_gpu_hour" else "all_in"
            self.compute_rate_named = self.compute_rate_named or role == "compute"
            rank = paid_rank(cand.label)  # a list rate ranks below the net (paid_price.py)
            self.priced.append(_Priced(role, money, cand.where, text, LABELLED - (rank < 0),
                                       cand.note, paid=rank))
            return
        if money.per and money.per != _PER[per_word]:
            raise V.ValueParseError(f"{slot}: price basis per {V.basis_label(money.per)} where "
                                    f"per {V.basis_label(_PER[per_word])} was expected",
                                    found=text, expected=f"a price per {per_word}")
        self._usd(slot, money, cand.where, text, LABELLED)

    def _usd(self, name: str, money: V.Money, where: Location, raw: str, priority: int,
             note: str | None = None, scale: float = 1.0) -> None:
        usd = V.convert_money_to_usd(money, self.fx) * scale
        if money.currency != "USD":
            note = _join(note, f"{money.amount:g} {money.currency} x {self.fx[money.currency]} "
                         f"USD/{money.currency} (rate given by the user)")
        self.add(name, usd, where, raw, priority, _join(note, _notes(money.notes)))

    # --- slots with their own reading ----------------------------------------------
    def _slot_offer_kind(self, cand: Candidate, text: str) -> None:
        kind = self.vocab.offer_kind(text)
        if kind is None:
            raise V.ValueParseError("unknown offer kind", found=text,
                                    expected="rent, purchase or HPC allocation")
        self.add("offer_kind", kind, cand.where, text, LABELLED)

    def _slot_accelerator(self, cand: Candidate, text: str) -> None:

        if cand.label.strip().lower() == "accelerator" and text.strip() in load_catalog().ids:
            # Under the canonical key (the RFP template's drop-down, our own YAML) the value
            # is a catalog id, not vendor prose: no form factor to guess.
            self.add("accelerator", text.strip(), cand.where, text, LABELLED,
                     "a catalog id under the canonical field name")
            return
        pieces = counted_pieces(text)  # "Servidores GPU (8 × MI300X por servidor) | 8 uds."
        if pieces is not None and names_an_accelerator(cand.label):
            self._accelerator_text_with_facts(cand.label, cand.where, IN_TEXT, f"{pieces} ")
            self.note(cand.where, "accelerator-count-label", {}, "accelerator", text[:120])
            return
        if not_an_accelerator_shape(cand.value, text):
            # A label is evidence, a value's shape is evidence: a bare count or a price under
            # an accelerator-like label ("GPU | 8", a unit header "€ per GB per month") is not
            # an accelerator name.  Skip the cell and say so; another cell may name it.
            self.note(cand.where, "accelerator-label-not-a-name", {}, "accelerator", text[:120],
                      "an accelerator name such as 'NVIDIA H100 SXM 80GB'")
            if counts_accelerators(cand.label, text):  # "Acceleratori totali | 32": counts
                self.add("gpu_count", int(text), cand.where, text, IN_TEXT)  # them, weakly
                return self.note(cand.where, "value-reads-as-count", {"label": cand.label,
                                 "field": "gpu_count", "value": int(text)}, "gpu_count", text)
            return self.value_by_shape(cand, text)
        if not names_an_accelerator(" ".join([text, *self.accelerator_hints])):
            # "Hardware-Ersatz | innert 4 Stunden", "Partition | booster": the label looks
            # like the accelerator's, the value names none.  Kept aside: read only when no
            # other cell of the offer names a known accelerator (its error then names it).
            self.unnamed_accelerators.append((cand, text))
            return
        self._accelerator_text_with_facts(text, cand.where, LABELLED, note=cand.note)

    def _accelerator_text_with_facts(self, text: str, where: Location, priority: int,
                                     count: str = "", note: str | None = None) -> None:
        self.add("accelerator_text", text, where, text, priority, note)
        self._facts_in_system_text(where, f"{count}{text}", IN_TEXT)

    def _facts_in_system_text(self, where: Location, text: str, priority: int) -> None:
        """'8x H200 141GB SXM, 3.2 Tbps RoCE' also states GPUs per node, memory, network."""
        shaped = count_facts(text)
        for name, value in shaped.items():
            self.add(name, value, where, text, priority, "count stated with the accelerator")
        count = _COUNT_IN_TEXT_RE.search(text)
        n, nodes = accelerator_count(text, count), shaped.get("node_count", 0)  # "4 x HGX"
        if "gpus_per_node" not in shaped and n > 8 and nodes > 1 and n % nodes == 0:
            # "16x L40S, two servers": more than a node holds, over the nodes said: the total
            self.add("gpu_count", n, where, text, IN_TEXT, "count stated with the accelerator")
        elif "gpus_per_node" not in shaped and count and n in (1, 2, 4, 8, 16, 32, 64, 72):
            self.add("gpus_per_node", n, where, text, priority, "count stated with the accelerator")
        memory = re.search(r"(\d{2,3})\s*(GB|GiB)\b", text)
        if memory:
            self.add("gpu_memory_gb", float(memory.group(1)), where, text, priority,
                     "memory stated with the accelerator")
        if re.search(r"\d\s*(?:tb(?:it)?ps|gb(?:it)?ps|gbe|[gt]b/s|[gt]bit/s)", text, re.I):
            self._network(where, text, priority)

    def _dates_in_sentence(self, text: str, where: Location) -> None:
        """'Quote valid until 28 February 2027', 'Target delivery: 2027-05-28'."""
        for name, pattern in _DATE_PHRASES:
            match = pattern.search(text)
            if match is None:
                continue
            try:
                parsed = V.parse_date(match.group(1).strip(" .,;:()"), dayfirst=self.dayfirst)
            except V.ValueParseError:
                continue
            if parsed.value is not None and parsed.latest == parsed.earliest:
                self.add(name, parsed.value, where, text, IN_TEXT, "date read from a sentence")

    def _accelerator_anywhere(self) -> None:
        """No labelled accelerator: the first description, note or title that names one
        ("24 x Dell XE9680, each with 8x H100 SXM 80GB")."""

        texts = [(cell_text(c.value), c.where) for c in self.record.candidates
                 if isinstance(c.value, str)]
        texts += list(self.record.notes) + list(self.record.banners)
        for text, where in texts:
            if not _GPU_NAME_RE.search(text):
                continue
            try:
                recognise_accelerator(text)
            except EvaltoolError:
                continue
            self.add("accelerator_text", text, where, text, IN_TEXT,
                     "accelerator named in a description, not a labelled cell")
            self.note(where, "accelerator-from-cell-text", {}, "accelerator", text[:120])
            self._facts_in_system_text(where, text, IN_TEXT)
            return

    def _price_in_sentence(self, text: str, where: Location) -> None:
        """'The price is USD 14,600 per node per month' in a letter or a note."""
        match = _PRICE_SENTENCE_RE.search(text)
        if match is None or not_offered(text):
            return
        try:
            money = V.parse_money(_money_text(match.group(1)), currency=self.currency_hint)
        except (V.ValueParseError, V.ValueConversionError):
            return
        if not money.per or money.per == ("gb",):
            return
        self.priced.append(_Priced("compute", money, where, text, IN_TEXT,
                                   "price read from a sentence"))

    def _counts_in_text(self, text: str, where: Location, priority: int = IN_TEXT) -> None:
        """Node and GPU counts a phrase states ("24 x XE9680, each with 8x H100")."""
        for name, value in count_facts(text).items():
            self.add(name, value, where, text, priority, "count stated in the text")

    def _slot_claimed_peak_tflops_per_gpu(self, cand: Candidate, text: str) -> None:
        if isinstance(cand.value, str):
            match = re.search(T.NUMBER + r"\s*(pflops|petaflops|pflop/s|pf|tflops|teraflops|"
                              r"tflop/s|tops|tf)?\b", text, re.I)
            if match is None:
                raise V.ValueParseError("no TFLOPS figure", found=text,
                                        expected="e.g. '989 TFLOPS BF16 (dense)'")
            value = T.to_number(match.group(1))
            if (match.group(2) or "").lower().startswith("p"):
                value *= 1000.0  # "9 PFLOPS" = 9000 TFLOPS
        else:
            value = V.parse_number(cand.value).value
        precision = _PRECISION_RE.search(f"{text} {cand.label} {cand.note or ''}")
        note = None
        if _SPARSE_RE.search(text):
            note = "the vendor states this figure is with sparsity"
        elif _DENSE_RE.search(text):
            note = "the vendor states this figure is dense"
        self.add("claimed_peak_tflops_per_gpu", value, cand.where, text, LABELLED, note)
        if precision:
            self.add("claimed_peak_precision", _precision(precision.group(1)), cand.where, text,
                     LABELLED)

    def _slot_claimed_peak_precision(self, cand: Candidate, text: str) -> None:
        match = _PRECISION_RE.search(text)
        if match is None:
            raise V.ValueParseError("unknown precision", found=text,
                                    expected="bf16, fp8, fp16, tf32, fp32 or int8")
        self.add("claimed_peak_precision", _precision(match.group(1)), cand.where, text,
                 LABELLED)

    def _slot_cpu_cores_per_node(self, cand: Candidate, text: str) -> None:
        if cand.note and "(" not in text and _CORES_RE.search(cand.note):
            # "CPU | 2x AMD EPYC 9575F | 64 cores each": the notes column says how many.
            text = f"{text} ({cand.note})"
        # "2 × EPYC 9354 (2 × 32 rdzenie)": sockets x cores, in brackets, as cores each
        per_socket = _SOCKETS_TIMES_CORES_RE.search(fold(text)) or _CORES_EACH_RE.search(text)
        if per_socket:  # "2× Xeon 8480+ (je 56 Kerne)": the count of sockets, the cores of each
            n = int(per_socket.group(2) or per_socket.group(3))
            self.add("cpu_cores_per_node", int(per_socket.group(1)) * n, cand.where,
                     text, LABELLED, f"{per_socket.group(1)} sockets x {n} cores")
            return
        total = _CORES_TOTAL_RE.search(text)
        if total:  # "2x EPYC 9534, je 64 Kerne (128 total)": the vendor's own total
            self.add("cpu_cores_per_node", int(total.group(1)), cand.where, text, LABELLED,
                     "the total of cores the vendor states")
            return
        sockets = _SOCKETS_RE.search(text)
        if sockets:  # "2 x 56", "2x EPYC 9534 (64 cores each)", "2 × 48 cœurs"
            each = int(sockets.group(2) or sockets.group(3) or sockets.group(4))
            self.add("cpu_cores_per_node", int(sockets.group(1)) * each, cand.where, text,
                     LABELLED, f"{sockets.group(1)} sockets x {each} cores")
            return
        product = _CORES_PRODUCT_RE.search(text)
        if product:  # "2 × AMD EPYC 9354 (2 × 32 rdzenie)": sockets x cores, in brackets
            n, each = int(product.group(1)), int(product.group(2))
            self.add("cpu_cores_per_node", n * each, cand.where, text, LABELLED,
                     f"{n} sockets x {each} cores")
            return
        if (reading := bracket_cores(text)) is not None:  # "2 x Xeon 8480+ (112 cores)"
            if reading[0] is None:  # one CPU's cores or the node's: nothing says
                return self.note(cand.where, "cores-basis-unstated", {"reason": reading[1]},
                                 "cpu_cores_per_node", text[:120])
            self.add("cpu_cores_per_node", reading[0], cand.where, text, LABELLED, reading[1])
            if per_cpu := cores_taken_per_cpu(text):  # one CPU's cores, or the node's? said
                self.note(cand.where, "cores-per-cpu-assumed", per_cpu, "cpu_cores_per_node", text)
            return None
        cores = _CORES_RE.search(text)
        if cores:
            self.add("cpu_cores_per_node", int(T.to_number(cores.group(1))), cand.where, text,
                     LABELLED)
            return
        count = V.parse_count(cand.value)
        note = "vCPUs (hardware threads), not physical cores" if "vcpu" in cand.label.lower() \
            else None
        self.add("cpu_cores_per_node", count.value, cand.where, text, LABELLED, note)

    def _slot_inter_node_fabric(self, cand: Candidate, text: str) -> None:
        label = cand.label.lower()
        flag = yes_no(cand.value)
        if flag is not None:
            # interconnect: {dedicated: true} / 'Shared fabric | no': the label says what
            # the yes or no is about.
            if re.search(r"dedicat|exclusive|isolat|private", label):
                self.add("network_dedicated", flag, cand.where, text, LABELLED)
                return
            if re.search(r"shared", label):
                self.add("network_dedicated", not flag, cand.where, text, LABELLED,
                         "label asks whether the network is shared")
                return
        if isinstance(cand.value, (int, float)) and not isinstance(cand.value, bool):
            unit = re.search(r"(tbps|gbps|gbit|gb\s*s|tbit)", normalise_label(cand.label))
            if unit:  # interconnect: {gbps_per_gpu: 400}: the key names the unit and scope
                text = f"{text} {unit.group(1).replace(' ', '/')} {cand.label.replace('_', ' ')}"
        if _GPU_LINK_ONLY_RE.search(text) and not _fabric(text):
            # "Interconnexion GPU | NVLink 900 Go/s par GPU": the label says network, the value
            # names the GPU-to-GPU link inside a node; the value's shape wins, and is said.
            link = _GPU_LINK_RE.search(text)
            if link is not None:
                self._gpu_link(text, cand.where)
                self.note(cand.where, "gpu-link-under-network-label", {},
                          "intra_node_gbyte_s_per_gpu", text[:120],
                          "the inter-node network (InfiniBand, RoCE, Ethernet)")
                return
        self._network(cand.where, f"{text} {cand.note or ''}".strip(), LABELLED)

    def _network(self, where: Location, text: str, priority: int) -> None:
        fabric = _fabric(text)
        if fabric:
            self.add("inter_node_fabric", fabric, where, text, priority)
        if _DEDICATED_RE.search(text):
            self.add("network_dedicated", True, where, text, priority)
        elif _SHARED_RE.search(text):
            self.add("network_dedicated", False, where, text, priority)
        # "InfiniBand NDR" names the speed of one port, not how many ports a node has: with
        # no figure in the text there is no node bandwidth to read.
        bw = _bandwidth(text) if re.search(r"\d", text) else None
        if bw is None:
            if not fabric:
                raise V.ValueParseError("no network fabric or bandwidth recognised", found=text,
                                        expected="e.g. '8 x 400 Gb/s NDR InfiniBand per node'")
            return
        self._bandwidth_fact(bw, where, text, priority)

    def _bandwidth_fact(self, bw: V.ParsedBandwidth, where: Location, text: str,
                        priority: int, scope: str | None = None) -> None:
        note = _notes(bw.notes)
        if bw.was_bytes:
            self.note(where, "bandwidth-units", {"text": text}, "inter_node_gbit_s_per_node", text)
            self.flag("bandwidth_units", "medium", "network bandwidth given in GB/s where "
                      "Gbit/s is usual; a factor-8 misreading changes the network score", where,
                      text, ask_for="the per-node inter-node bandwidth in Gbit/s")
        scope = scope or bw.scope
        if scope is None and port_speed_only(text, bw.count):  # a switch's, port's, fabric's
            return self.note(where, "bandwidth-not-a-node-figure", {"gbit_s": bw.gbit_s},
                             "inter_node_gbit_s_per_node", text[:120], severity="info")
        if scope is None:
            scope = "node"
            note = _join(note, "no 'per node' or 'per GPU' stated; read as per node")
            priority = min(priority, IN_TEXT)  # a figure whose basis is said wins over it
            for name in ("inter_node_gbit_s_per_node", "inter_node_gbit_s_per_gpu"):
                self.note(where, "bandwidth-basis-unstated", {"gbit_s": bw.gbit_s}, name,
                          text[:120], "a basis")
        name = "inter_node_gbit_s_per_gpu" if scope == "gpu" else "inter_node_gbit_s_per_node"
        self.add(name, bw.gbit_s, where, text, priority, note)

    def _slot_inter_node_gbit_s_per_node(self, cand: Candidate, text: str) -> None:
        bw = _bandwidth(text, default_unit="Gbit/s")
        if bw is None:
            raise V.ValueParseError("no bandwidth", found=text, expected=V.EXPECTED["bandwidth"])
        self._bandwidth_fact(bw, cand.where, text, LABELLED, scope="node")

    def _slot_inter_node_gbit_s_per_gpu(self, cand: Candidate, text: str) -> None:
        bw = _bandwidth(text, default_unit="Gbit/s")
        if bw is None:
            raise V.ValueParseError("no bandwidth", found=text, expected=V.EXPECTED["bandwidth"])
        self._bandwidth_fact(bw, cand.where, text, LABELLED, scope="gpu")

    def _slot_network_dedicated(self, cand: Candidate, text: str) -> None:
        if isinstance(cand.value, bool):
            self.add("network_dedicated", cand.value, cand.where, text, LABELLED)
        elif _DEDICATED_RE.search(text):
            self.add("network_dedicated", True, cand.where, text, LABELLED)
        elif _SHARED_RE.search(text):
            self.add("network_dedicated", False, cand.where, text, LABELLED)
        else:
            flag = V.parse_bool(cand.value)
            if "shared" in cand.label.lower():
                self.add("network_dedicated", not flag.value, cand.where, text, LABELLED,
                         "label asks whether the network is shared")
            else:
                self.add("network_dedicated", flag.value, cand.where, text, LABELLED)

    def _slot_intra_node_gbyte_s_per_gpu(self, cand: Candidate, text: str) -> None:
        q = V.parse_quantity(cand.value, "throughput", "GB/s")
        self.add("intra_node_gbyte_s_per_gpu", q.value, cand.where, text, LABELLED,
                 _notes(q.notes))

    def _slot_storage_type(self, cand: Candidate, text: str) -> None:
        looks_priced = bool(re.search(r"[$€£]|\b(usd|eur|gbp)\b|per\s+tb|/\s*tb", text, re.I))
        if looks_priced:
            money = self._money(cand, text)
            if money.per in ((), ("tb", "month")):
                if money.amount == 0 or money.per == ("tb", "month"):
                    self._usd("storage_usd_per_tb_month", money, cand.where, text, LABELLED,
                              "storage is included at no charge" if money.amount == 0 else None)
                else:
                    self.priced.append(_Priced("storage_month", money, cand.where, text,
                                               LABELLED))
            elif money.per == ("month",):
                self.priced.append(_Priced("storage_month", money, cand.where, text, LABELLED))
            size = T.parse_size(text)
            if size:
                self.add("storage_capacity_tb", size.tb, cand.where, text, IN_TEXT)
            return
        kind, others = _storage_kind(text)
        if kind is None:
            if T.parse_size(text) is None:
                raise V.ValueParseError("no storage kind recognised", found=text,
                                        expected="Lustre, GPFS, WEKA, VAST, DDN, NFS, object, "
                                                 "local NVMe")
        else:
            note = f"also mentions {', '.join(others)}; the fastest shared kind is kept" \
                if others else None
            self.add("storage_type", kind, cand.where, text, LABELLED, note)
        size = T.parse_size(text)
        if size:
            self.add("storage_capacity_tb", size.tb, cand.where, text, IN_TEXT)

    def _slot_storage_throughput(self, cand: Candidate, text: str) -> None:
        read, write = read_write(f"{cand.label}: {text}")  # "Läs / skriv | 200 / 120 GB/s"
        if read is None and write is None:
            q = V.parse_quantity(cand.value, "throughput", "GB/s")
            self.add("storage_read_gbyte_s", q.value, cand.where, text, LABELLED,
                     "one figure, not split into read and write: taken as the read speed")
            return
        if read is not None:
            self.add("storage_read_gbyte_s", read, cand.where, text, LABELLED)
        if write is not None:
            self.add("storage_write_gbyte_s", write, cand.where, text, LABELLED)

    def _slot_storage_read_gbyte_s(self, cand: Candidate, text: str) -> None:
        q = V.parse_quantity(cand.value, "throughput", "GB/s", direction="read")
        self.add("storage_read_gbyte_s", q.value, cand.where, text, LABELLED, _notes(q.notes))

    def _slot_storage_write_gbyte_s(self, cand: Candidate, text: str) -> None:
        q = V.parse_quantity(cand.value, "throughput", "GB/s", direction="write")
        self.add("storage_write_gbyte_s", q.value, cand.where, text, LABELLED, _notes(q.notes))

    def _slot_orchestrator(self, cand: Candidate, text: str) -> None:
        # "CKE with TPU node pools; no Slurm": a scheduler named only to deny it is not offered.
        low = offered_schedulers(text)  # nor "(Slurm optional)"
        slurm = named_not_own(low, r"slurm")  # not "bring your own Slurm"
        k8s = named_not_own(low, r"kubernetes|\bk8s\b|\bgke\b|\beks\b|\baks\b|openshift|\bk3s\b")
        if slurm and k8s:
            value = "both"
        elif slurm:
            value = "slurm"
        elif k8s:
            value = "kubernetes"
        elif re.search(r"\bnone\b|\bno scheduler\b|bare[- ]metal|ssh only|^\s*no\s*$", low):
            value = "none"
        elif re.search(r"proprietary|\bapi\b|portal|console|own scheduler", low):
            value = "proprietary"
        else:
            raise V.ValueParseError("unknown orchestrator", found=text,
                                    expected="Slurm, Kubernetes, both, none or proprietary")
        self.add("orchestrator", value, cand.where, text, LABELLED)

    def _slot_root_access(self, cand: Candidate, text: str) -> None:
        if isinstance(cand.value, str) and re.search(r"\bsudo\b|\broot\b", text, re.I):
            # "nessun accesso root", "no root; containers only": said, granted or not
            self.add("root_access", root_granted(text) and not re.search(
                r"\bno\b|\bnot\b|\bkein", text, re.I), cand.where, text, LABELLED)
            return
        flag = V.parse_bool(cand.value)
        self.add("root_access", flag.value, cand.where, text, LABELLED, _notes(flag.notes))

    def _slot_support(self, cand: Candidate, text: str) -> None:
        if re.search(r"%", text) and re.search(r"spend|bill|usage|fees|charges|umsatz", text, re.I):
            pct = V.parse_percent(re.search(T.NUMBER + r"\s*%", text).group(0)  # type: ignore
                                  if re.search(T.NUMBER + r"\s*%", text) else text)
            self.support_pct = (pct.value, cand.where, text)
            return
        if re.search(r"[$€£]|\b(usd|eur|gbp)\b", text, re.I):
            money = self._money(cand, text)
            self.priced.append(_Priced("support_month", money, cand.where, text, LABELLED))
            return
        self._hours("support_response_hours", cand, text)

    def _slot_support_usd_per_month(self, cand: Candidate, text: str) -> None:
        money = self._money(cand, text, per=None)
        self.priced.append(_Priced("support_month", money, cand.where, text, LABELLED))

    def _slot_network_usd_per_month(self, cand: Candidate, text: str) -> None:
        money = self._money(cand, text, per=None)
        self.priced.append(_Priced("network_month", money, cand.where, text, LABELLED))

    def _slot_price(self, cand: Candidate, text: str) -> None:
        per_gb_month = PER_GB_MONTH_RE.search(f"{cand.label} {text}")
        if per_gb_month:  # "€ 0,032 | € per GB per maand": storage, per TB-month
            money = self._money(cand, text, per=("tb", "month"))
            scale = GIB_PER_TB if per_gb_month.group(1).lower() == "gib" else 1000.0
            self._usd("storage_usd_per_tb_month", money, cand.where, text, LABELLED,
                      f"a price per {per_gb_month.group(1)}-month x {scale:g}", scale=scale)
            return
        if self.upfront_and_recurring(cand, text):
            return  # "USD 300,000 upfront plus USD 20,000 per instance-month" (money_lines.py)
        money = self._money(cand, text)
        # A price label whose value is per TB-month or per GB is storage or egress, not compute.
        if money.per == ("tb", "month"):
            self._usd("storage_usd_per_tb_month", money, cand.where, text, LABELLED,
                      "a price per TB-month: storage")
            return
        if money.per == ("gb",):
            self._usd("egress_usd_per_gb", money, cand.where, text, LABELLED,
                      "a price per GB: data transfer")
            return
        for per, name in ((("kw", "month"), "colocation_usd_per_kw_month"),
                          (("kwh",), "power_usd_per_kwh")):  # hosting a purchase, not compute
            if money.per == per:
                self._usd(name, money, cand.where, text, LABELLED, f"a price per {per[0]}")
                return
        if _ALL_IN_RE.search(f"{text} {cand.note or ''} {cand.label}"):
            self.all_in_note = cand.where
        rank = paid_rank(cand.label)  # "List rate" above "Net rate": net beats list
        self.priced.append(_Priced("compute", money, cand.where, text,
                                   LABELLED - 1 if rank < 0 else LABELLED, cand.note, paid=rank))

    def _slot_delivery_date_committed(self, cand: Candidate, text: str) -> None:
        """'Firm delivery date | yes', or 'Committed delivery date | 2027-05-01' (a date
        under a label that says it is committed)."""
        flag = yes_no(cand.value)
        if flag is not None:
            self.add("delivery_date_committed", flag, cand.where, text, LABELLED)
            return
        parsed = V.parse_date(cand.value)
        if parsed.value is None:
            raise V.ValueParseError("neither yes/no nor a date", found=text,
                                    expected="yes or no, or the committed date")
        self.add("delivery_date", parsed.value, cand.where, text, LABELLED, _notes(parsed.notes))
        self.add("delivery_date_committed", True, cand.where, text, LABELLED,
                 "the label states the date is committed")

    def _slot_contract_text(self, cand: Candidate, text: str) -> None:
        self.add("contract_text", text, cand.where, text[:200], LABELLED)
        self.term_row_by_label(cand, text)

    def term_row_by_label(self, cand: Candidate, text: str) -> None:
        """A row of a terms section read by its own label too (money_lines.py)."""

    def upfront_and_recurring(self, cand: Candidate, text: str) -> bool:
        """An upfront and a recurring price in one cell, each read as such (money_lines.py)."""
        return False
