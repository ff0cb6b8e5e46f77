"""Turn raw offer records into canonical `Offer`s: fields in PRODUCT.md units, each value
with its provenance, derived values explained, inconsistencies as warnings and flags.

Flow: read (evaltool.read) -> map labels to slots (field_synonyms.yaml) -> read values in
text (evaltool.normalize.values;
evaltool.read.text for composite cells) -> resolve facts (a labelled
value beats a line item, which beats a figure read from other text) -> derive and check
(counts, bandwidths, prices, purchase economics, catalog) -> validate with the models.
A file that cannot be read, or an offer missing a required field, becomes `NotEvaluated`
naming file, sheet and cell; the other offers proceed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaltool.errors import EvaltoolError, InputError, Location, Problem
from evaltool.models import (
    HOURS_PER_MONTH,
    FieldSource,
    Flag,
    NotEvaluated,
    Offer,
    OfferFields,
    Severity,
)
from evaltool.normalize import values as V
from evaltool.normalize.identity import flag_duplicates, unique_ids
from evaltool.read import text as T
from evaltool.read.cells import Candidate, LineItem, RawRecord, cell_text, is_empty
from evaltool.read.safety import problem_for_exception, value_too_long
from evaltool.read.vocabulary import Vocabulary, load_vocabulary

LABELLED, TABLE, IN_TEXT, DERIVED = 3, 2, 1, 0
REQUIRED = ("vendor", "accelerator", "gpu_count")
_REL_TOL = 0.02  # two readings of one figure that differ by more than 2% conflict
_MEMORY_TOL = 0.10  # usable GiB vs marketed GB (gpuhunt snaps with 7%, offer-tools.md §5)


@dataclass
class NormalizeResult:
    offers: list[Offer]
    not_evaluated: list[NotEvaluated]


@dataclass
class Fact:
    value: Any
    where: Location
    raw: str
    priority: int
    note: str | None = None
    derived_from: list[str] | None = None


@dataclass
class _Priced:
    """A money figure kept until the offer's counts and currency are known."""

    role: str  # compute | storage_month | support_month | network_month | capex_line
    money: V.Money
    where: Location
    raw: str
    priority: int
    note: str | None = None
    quantity: float | None = None


_PER: dict[str, tuple[str, ...]] = {
    "gpu_hour": ("gpu", "hour"), "node_hour": ("node", "hour"), "hour": ("hour",),
    "gpu_month": ("gpu", "month"), "node_month": ("node", "month"), "month": ("month",),
    "year": ("year",), "tb_month": ("tb", "month"), "gb": ("gb",), "kw_month": ("kw", "month"),
    "kwh": ("kwh",),
}
_FABRIC_WORDS: tuple[tuple[str, str], ...] = (
    ("roce", r"\broce\b|\brdma over converged"),
    ("infiniband", r"infini\s*band|\bib\b|\b[nhex]dr\b|\bquantum-?\d|\bconnectx"),
    ("ici", r"\bici\b|inter-chip interconnect"),
    ("ethernet", r"ethernet|\d\s*gbe\b|\bgbe\b|\btcp\b"),
    ("other", r"\befa\b|slingshot|omni-?path|\bopa\b|\bneuronlink|\bnvlink switch"),
)
_STORAGE_WORDS: tuple[tuple[str, str], ...] = (
    ("weka", r"\bweka"), ("vast", r"\bvast\b"), ("ddn", r"\bddn\b|exascaler|\bai400"),
    ("gpfs", r"\bgpfs\b|spectrum scale|storage scale"), ("lustre", r"\blustre\b|\bfsx\b"),
    ("nfs", r"\bnfs\b|filestore|netapp|\befs\b|azure files"),
    ("object", r"\bobject\b|\bs3\b|bucket|\bblob\b|\bgcs\b|cloud storage"),
    ("local_nvme", r"local nvme|local ssd"),
)
_DEDICATED_RE = re.compile(r"\bnot shared\b|\bdedicated\b|\bsingle[- ]tenant\b|\bexclusive\b|"
                           r"\bisolated\b|\bprivate\b|\bunshared\b|\bnicht geteilt\b|\bdédié",
                           re.I)
_SHARED_RE = re.compile(r"\bshared\b|\bmulti[- ]?tenan\w*|\bgeteilt\b|\bpartagé", re.I)
_SPARSE_RE = re.compile(r"sparsity|sparse|with sparse|2:4", re.I)
_DENSE_RE = re.compile(r"\bdense\b", re.I)
_PRECISION_RE = re.compile(r"\b(bf16|bfloat16|fp16|float16|fp8|float8|tf32|fp32|float32|int8|"
                           r"fp4|fp6)\b", re.I)
_ALL_IN_RE = re.compile(r"\ball[- ]in\b|\ball[- ]inclusive\b|includes? (?:storage|support)", re.I)
_COUNT_IN_TEXT_RE = re.compile(r"(?<![\w.])(\d{1,2})\s*[x×]\s*(?=[A-Za-z])", re.I)
_CORES_RE = re.compile(
    r"(\d[\d,]*)\s*(?:physical\s+)?(?:cpu\s+)?(?:cores|kerne|c\u0153urs|coeurs)\b", re.I)
_MIN_COMMIT_RE = re.compile(
    r"(minimum (?:commitment|commit|spend|contract value)|committed spend|mindestabnahme)"
    r"[^.;\d$€£]{0,30}((?:USD|EUR|GBP|US\$|\$|€|£)\s?[\d.,]+\s*(?:m|million|k|bn)?\b"
    r"|[\d.,]+\s*(?:m|million|k)?\s*(?:USD|EUR|GBP|\$|€|£))", re.I)


_MONEY_WORDS: tuple[tuple[str, str], ...] = (
    (r"\b(?:chip|card|device|accelerator)(s?)\b", r"GPU\1"),
    (r"\bpar\b", "per"), (r"\bheures?\b", "hour"), (r"\bmois\b", "month"),
    (r"\bjours?\b", "day"), (r"\bn(?:oe|œ)uds?\b", "node"), (r"\ban\b", "year"),
)


def _money_text(text: str) -> str:
    # values.parse_money knows gpu/node bases in English and German; vendors also bill per
    # chip, card or device, and French quotes say "par GPU-heure".
    for pattern, repl in _MONEY_WORDS:
        text = re.sub(pattern, repl, text, flags=re.I)
    return text


class _Builder:
    """Collects facts about one offer, then resolves, derives and checks them."""

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
        self.looked_at: set[str] = set()

    # --- recording -----------------------------------------------------------------
    def add(self, name: str, value: Any, where: Location, raw: str, priority: int,
            note: str | None = None, derived_from: list[str] | None = None) -> None:
        self.facts.setdefault(name, []).append(
            Fact(value, where, raw, priority, note, derived_from))

    def warn(self, where: Location, message: str, field_name: str | None = None,
             found: str | None = None, expected: str | None = None) -> None:
        self.problems.append(Problem(where, message, field=field_name, found=found,
                                     expected=expected, severity="warning"))

    def flag(self, kind: str, severity: Severity, why: str, where: Location | None = None,
             quote: str | None = None, ask_for: str | None = None) -> None:
        self.flags.append(Flag(kind=kind, severity=severity,
                               why=why, where=where.to_dict() if where else None,
                               quote=quote, ask_for=ask_for))

    def cannot_read(self, field_name: str, cand: Candidate, exc: EvaltoolError) -> None:
        if isinstance(exc, V.ValueParseError):
            problem = exc.to_problem(cand.where, field=field_name, severity="warning")
        else:
            problem = Problem(cand.where, str(exc), field=field_name,
                              found=cell_text(cand.value), severity="warning")
        if isinstance(exc, V.NoValueGiven):
            problem = Problem(cand.where, f"'{cand.label}': no value given", field=field_name,
                              found=cell_text(cand.value),
                              expected=problem.expected, severity="warning")
        self.unreadable.setdefault(field_name, problem)
        self.problems.append(problem)

    # --- reading -------------------------------------------------------------------
    def read(self) -> None:
        slotted: list[tuple[str, Candidate]] = []
        for cand in self.record.candidates:
            slot = self.vocab.match(cand.label, cand.section)
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
        if self.currency_hint is None:
            # No currency field: the currency the offer's own texts and labels use.
            seen: dict[str, int] = {}
            for cand in self.record.candidates:
                code = T.currency_of(f"{cand.label} {cell_text(cand.value)}")
                if code:
                    seen[code] = seen.get(code, 0) + 1
            for item in self.record.line_items:
                if item.currency:
                    seen[item.currency] = seen.get(item.currency, 0) + 1
            if len(seen) == 1:
                self.currency_hint = next(iter(seen))
        for slot, cand in slotted:
            if slot in ("currency", "accelerator_variant"):
                continue
            self.looked_at.add(slot)
            text = cell_text(cand.value)
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
                self.cannot_read(_slot_field(slot), cand, exc)
            except (ValueError, ArithmeticError) as exc:  # e.g. 2027-02-30, a 400-digit count
                self.cannot_read(_slot_field(slot), cand, V.ValueParseError(
                    f"not a valid value ({type(exc).__name__}: {exc})", found=text[:80],
                    expected=expected_for(_slot_field(slot))))
        for item in self.record.line_items:
            try:
                self.read_line_item(item)
            except (ValueError, ArithmeticError) as exc:  # e.g. an infinite quantity
                self.problems.append(Problem(
                    item.row_where,
                    f"line item not read ({type(exc).__name__}: {exc})", severity="warning",
                    code="derivation-failed"))
        for text, where in self.record.notes:
            self.read_note(text, where)
        if "offer_name" not in self.facts and self.record.title and self.record.title_where:
            self.add("offer_name", self.record.title, self.record.title_where, self.record.title,
                     DERIVED, "no offer name given: the sheet's title")

    def read_slot(self, slot: str, cand: Candidate, text: str) -> None:
        handler = getattr(self, f"_slot_{slot}", None)
        if handler is not None:
            handler(cand, text)
            return
        kind = _FIELD_KIND.get(slot)
        if kind == "text":
            self.add(slot, text, cand.where, text, LABELLED)
        elif kind == "count":
            count = V.parse_count(cand.value)
            self.add(slot, count.value, cand.where, text, LABELLED, _notes(count.notes))
        elif kind == "date":
            parsed = V.parse_date(cand.value)
            if parsed.value is None:
                raise V.ValueParseError("no calendar date", found=text,
                                        expected=V.EXPECTED["date"])
            self.add(slot, parsed.value, cand.where, text, LABELLED, _notes(parsed.notes))
            if parsed.latest != parsed.earliest:
                self.warn(cand.where, "; ".join(parsed.notes), slot, text)
        elif kind == "percent":
            pct = V.parse_percent(cand.value)
            self.add(slot, pct.value, cand.where, text, LABELLED, _notes(pct.notes))
        elif kind == "months":
            try:
                months = V.parse_duration(cand.value, "months")
            except V.NoValueGiven:
                raise
            except V.ValueParseError:
                local = T.parse_duration(text)  # French/German units: "6 mois", "12 Monate"
                if local is None:
                    raise
                self.add(slot, local.months, cand.where, text, LABELLED, local.assumed)
                return
            self.add(slot, months.value, cand.where, text, LABELLED, _notes(months.notes))
        elif kind == "hours":
            self._hours(slot, cand, text)
        elif kind == "bool":
            flag = V.parse_bool(cand.value)
            self.add(slot, flag.value, cand.where, text, LABELLED, _notes(flag.notes))
        elif kind and kind.startswith("money"):
            self._money_field(slot, cand, text, kind.partition(":")[2])
        elif kind and kind.startswith("quantity"):
            _, dimension, unit = kind.split(":")
            self._quantity(slot, cand, text, dimension, unit)
        else:
            self.warn(cand.where, f"label '{cand.label}' read as {slot}, which has no reader",
                      slot)

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

    def assumed(self, name: str, where: Location, raw: str, why: str) -> None:
        if any(f.kind == "assumed_value" and f.why == f"{name}: {why}" for f in self.flags):
            return  # one warning per assumption, not one per cell it touches
        self.warn(where, f"assumed value: {why}", name, raw)
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
        q = V.parse_quantity(cand.value, dimension, default)
        value = q.value
        if slot == "gpu_memory_gb" and q.count and q.each is not None:
            value = q.each  # "8x H200 141GB": memory is per GPU, not the node's total
        if dimension == "capacity" and unit == "GB":
            value = value * 1000.0  # parse_quantity gives TB for capacity
        note = _notes(q.notes)
        if isinstance(cand.value, (int, float)) and not isinstance(cand.value, bool):
            note = _join(note, f"bare number read in {default} (the unit of the field)")
        self.add(slot, value, cand.where, text, LABELLED, note)

    def _money(self, cand: Candidate, text: str, per: tuple[str, ...] | None = None,
               currency: str | None = None) -> V.Money:
        from evaltool.read.vocabulary import normalise_label

        context = normalise_label(f"{cand.label} {cand.section or ''}")
        if per is None:
            unit = T.billing_unit(context)
            per = _PER.get(unit) if unit else None
        currency = currency or self.currency_explicit or T.currency_of(context) \
            or self.currency_hint
        if isinstance(cand.value, (int, float)) and not isinstance(cand.value, bool):
            if currency is None:
                currency = "USD"
                self.assumed("currency", cand.where, text,
                             "no currency stated for this price; read as USD")
            return V.parse_money(cand.value, currency=currency, per=per)
        try:
            return V.parse_money(_money_text(text), currency=currency, per=per)
        except V.NoValueGiven:
            raise
        except V.ValueParseError as exc:
            if "without a currency" in exc.message and currency is None:
                money = V.parse_money(_money_text(text), currency="USD", per=per)
                self.assumed("currency", cand.where, text,
                             "no currency stated for this price; read as USD")
                return money
            raise

    def _money_field(self, slot: str, cand: Candidate, text: str, per_word: str) -> None:
        per = _PER.get(per_word) if per_word else None
        money = self._money(cand, text, per)
        if per_word == "once" or not per_word:
            self._usd(slot, money, cand.where, text, LABELLED)
            return
        if per_word in ("gpu_hour",) and slot in ("price_usd_per_gpu_hour",
                                                   "compute_price_usd_per_gpu_hour"):
            role = "compute" if slot == "compute_price_usd_per_gpu_hour" else "all_in"
            self.priced.append(_Priced(role, money, cand.where, text, LABELLED, cand.note))
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
        from evaltool.estimate.catalog import load_catalog

        if cand.label.strip().lower() == "accelerator" and text.strip() in load_catalog().ids:
            # Under the canonical key (the RFP template's drop-down, our own YAML) the value
            # is a catalog id, not vendor prose: no form factor to guess.
            self.add("accelerator", text.strip(), cand.where, text, LABELLED,
                     "a catalog id under the canonical field name")
            return
        self.add("accelerator_text", text, cand.where, text, LABELLED, cand.note)
        self._facts_in_system_text(cand.where, text, IN_TEXT)

    def _facts_in_system_text(self, where: Location, text: str, priority: int) -> None:
        """'8x H200 141GB SXM, 3.2 Tbps RoCE' also states GPUs per node, memory, network."""
        count = _COUNT_IN_TEXT_RE.search(text)
        if count and int(count.group(1)) in (1, 2, 4, 8, 16, 32, 64, 72):
            self.add("gpus_per_node", int(count.group(1)), where, text, priority,
                     "count stated with the accelerator")
        memory = re.search(r"(\d{2,3})\s*(GB|GiB)\b", text)
        if memory:
            self.add("gpu_memory_gb", float(memory.group(1)), where, text, priority,
                     "memory stated with the accelerator")
        if re.search(r"\d\s*(?:tb(?:it)?ps|gb(?:it)?ps|gbe|[gt]b/s|[gt]bit/s)", text, re.I):
            self._network(where, text, priority)

    def _slot_claimed_peak_tflops_per_gpu(self, cand: Candidate, text: str) -> None:
        if isinstance(cand.value, str):
            match = re.search(T.NUMBER + r"\s*(?:p|peta)?(?:tflops|tops|pflops|tf)?", text, re.I)
            if match is None:
                raise V.ValueParseError("no TFLOPS figure", found=text,
                                        expected="e.g. '989 TFLOPS BF16 (dense)'")
            value = T.to_number(match.group(1))
            if re.search(r"pflops|petaflops", match.group(0), re.I):
                value *= 1000.0
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
        self._network(cand.where, f"{text} {cand.note or ''}".strip(), LABELLED)

    def _network(self, where: Location, text: str, priority: int) -> None:
        fabric = _fabric(text)
        if fabric:
            self.add("inter_node_fabric", fabric, where, text, priority)
        if _DEDICATED_RE.search(text):
            self.add("network_dedicated", True, where, text, priority)
        elif _SHARED_RE.search(text):
            self.add("network_dedicated", False, where, text, priority)
        bw = _bandwidth(text)
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
            self.warn(where, f"network bandwidth reads as bytes per second ({text!r}) where "
                      "NICs are quoted in Gbit/s; converted x8 — confirm with the vendor",
                      "inter_node_gbit_s_per_node", text, "Gbit/s")
            self.flag("bandwidth_units", "medium", "network bandwidth given in GB/s where "
                      "Gbit/s is usual; a factor-8 misreading changes the network score", where,
                      text, ask_for="the per-node inter-node bandwidth in Gbit/s")
        scope = scope or bw.scope
        if scope is None:
            scope = "node"
            note = _join(note, "no 'per node' or 'per GPU' stated; read as per node")
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
        read, write = T.parse_read_write(text)
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
        low = text.lower()
        slurm = "slurm" in low
        k8s = bool(re.search(r"kubernetes|\bk8s\b|\bgke\b|\beks\b|\baks\b|openshift|\bk3s\b",
                             low))
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
        if isinstance(cand.value, str) and re.search(r"\bsudo\b|\broot\b", text, re.I) \
                and not re.search(r"\bno\b|\bnot\b|\bkein", text, re.I):
            self.add("root_access", True, cand.where, text, LABELLED)
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
        money = self._money(cand, text)
        if _ALL_IN_RE.search(f"{text} {cand.note or ''} {cand.label}"):
            self.all_in_note = cand.where
        self.priced.append(_Priced("compute", money, cand.where, text, LABELLED, cand.note))

    def _slot_min_commitment(self, cand: Candidate, text: str) -> None:
        if not re.search(r"[$€£]|\b(usd|eur|gbp|chf)\b", text, re.I) and \
                re.search(r"month|year|week|day|monat|jahr|mois|an\b", text, re.I):
            months = V.parse_duration(cand.value, "months")
            self.add("term_months", months.value, cand.where, text, LABELLED,
                     "a minimum commitment stated as a duration: read as the term")
            return
        money = self._money(cand, text, per=None)
        self._usd("min_commit_usd", money, cand.where, text, LABELLED)

    def _slot_contract_text(self, cand: Candidate, text: str) -> None:
        self.add("contract_text", text, cand.where, text[:200], LABELLED)

    # --- line items and notes ------------------------------------------------------
    def read_line_item(self, item: LineItem) -> None:
        desc = item.description
        unit = (item.unit or "").strip()
        low = f"{desc} {unit}".lower()
        currency = item.currency or self.currency_hint
        if item.unit_price is None and item.total is None:
            return
        price = item.unit_price
        where = item.cells.get("unit_price", item.row_where)
        raw = " | ".join(v for v in item.raw.values() if v)
        if price is None and item.total is not None and item.quantity:
            price = item.total / item.quantity
            where = item.cells.get("total", item.row_where)
        assert price is not None
        if item.total is not None and item.quantity is not None and item.unit_price is not None:
            expected_total = item.quantity * item.unit_price
            monthly = expected_total * HOURS_PER_MONTH
            if not (_close(item.total, expected_total) or _close(item.total, monthly)):
                self.warn(item.cells.get("total", item.row_where),
                          f"line total {item.total:,.2f} is not quantity x unit price "
                          f"({item.quantity:g} x {item.unit_price:g} = {expected_total:,.2f})",
                          None, cell_text(item.total), f"{expected_total:,.2f}")
        if currency is None:
            currency = "USD"
            self.assumed("currency", item.row_where, raw, "no currency stated for the line "
                         "items; read as USD")
        unit_kind = T.billing_unit(f"per {unit}") if unit else T.billing_unit(desc)
        if unit.lower().strip() in ("gb", "per gb") or unit_kind == "gb" or re.search(
                r"egress|transfer out|data out|outbound", low):
            money = V.Money(price, currency, ("gb",), raw)
            self._usd("egress_usd_per_gb", money, where, raw, TABLE)
            return
        qty = item.quantity or 1.0
        if unit_kind is None or (unit_kind in ("year",) and not re.search(
                r"instance|node|server|gpu|cluster|vm|pod", low)):
            self._capex_line(item, desc, low, price, qty, currency, where, raw)
            return
        if unit_kind == "tb_month" or (unit_kind == "month" and re.search(
                r"\b(storage|file ?system|lustre|weka|vast|gpfs|nfs)\b", low)):
            kind, _ = _storage_kind(desc)
            if kind:
                self.add("storage_type", kind, item.cells.get("description", where), desc,
                         IN_TEXT)
            if unit_kind == "tb_month":
                self.add("storage_capacity_tb", qty, item.cells.get("quantity", where),
                         cell_text(qty), TABLE, "quantity of TB-months on the line")
                self._usd("storage_usd_per_tb_month", V.Money(price, currency, ("tb", "month")),
                          where, raw, TABLE)
            else:
                self.priced.append(_Priced("storage_month", V.Money(price * qty, currency,
                                                                    ("month",)),
                                           where, raw, TABLE))
            return
        if re.search(r"\bsupport\b|\bsla\b|\bservice level", low) and unit_kind == "month":
            self.priced.append(_Priced("support_month", V.Money(price * qty, currency,
                                                                ("month",)), where, raw, TABLE))
            return
        if re.search(r"\bnetwork\b|\bfabric\b|\binterconnect\b|\bport\b|\bbandwidth\b", low) \
                and unit_kind == "month" and not re.search(r"switch", low):
            self.priced.append(_Priced("network_month", V.Money(price * qty, currency,
                                                                ("month",)), where, raw, TABLE))
            return
        if unit_kind in ("gpu_hour", "node_hour", "gpu_month", "node_month") or (
                unit_kind in ("hour", "month") and re.search(
                    r"instance|node|server|gpu|cluster|system|vm|pod", low)):
            per = _PER.get(unit_kind, ("node", "hour"))
            if unit_kind in ("hour", "month"):
                resource = "gpu" if re.search(r"\bgpu\b", unit.lower()) else "node"
                per = (resource, unit_kind)
                if not re.search(r"instance|node|server|gpu|system", unit.lower()):
                    per = (unit_kind,)
            self.priced.append(_Priced("compute", V.Money(price, currency, per, raw), where, raw,
                                       TABLE, quantity=qty))
            count_where = item.cells.get("quantity", where)
            if per[0] == "gpu":
                self.add("gpu_count", int(qty), count_where, cell_text(qty), TABLE,
                         "quantity of GPUs on the compute line")
            elif per[0] == "node":
                self.add("node_count", int(qty), count_where, cell_text(qty), TABLE,
                         "quantity of nodes/instances on the compute line")
            self._system_text(desc, item.cells.get("description", where))
            return
        self._capex_line(item, desc, low, price, qty, currency, where, raw)

    def _capex_line(self, item: LineItem, desc: str, low: str, price: float, qty: float,
                    currency: str, where: Location, raw: str) -> None:
        """A line with no time basis: a one-off purchase item."""
        self.priced.append(_Priced("capex_line", V.Money(price * qty, currency, (), raw), where,
                                   raw, TABLE, quantity=qty))
        if re.search(r"\b(dgx|hgx|system|server|node)\b", low) and not re.search(
                r"switch|storage|install|service|cable|appliance", low):
            self.add("node_count", int(qty), item.cells.get("quantity", where), cell_text(qty),
                     IN_TEXT, "quantity of systems on the purchase line")
            self._system_text(desc, item.cells.get("description", where))
        kind, _ = _storage_kind(desc)
        if kind:
            self.add("storage_type", kind, item.cells.get("description", where), desc, IN_TEXT)

    def _system_text(self, desc: str, where: Location) -> None:
        try:
            from evaltool.estimate.catalog import recognise_accelerator

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
                if name in ("accelerator_text", "contract_text"):
                    continue
                self.conflict(name, best, other)
            values[name] = best.value
            provenance[name] = FieldSource(where=best.where.to_dict(), raw=best.raw[:500],
                                           derived_from=best.derived_from, note=best.note)
        return values, provenance

    def conflict(self, name: str, best: Fact, other: Fact) -> None:
        message = (f"{name}: two different values: {best.value!r} at {best.where} and "
                   f"{other.value!r} at {other.where}; the first is used")
        self.warn(other.where, message, name, other.raw, str(best.value))
        if name in ("gpu_count", "node_count", "gpus_per_node"):
            self.flag("count_mismatch", "medium", message, other.where, other.raw,
                      ask_for="one consistent GPU and node count")


def _close(a: float, b: float, tol: float = _REL_TOL) -> bool:
    return abs(a - b) <= tol * max(abs(a), abs(b), 1e-12)


def _same(a: Any, b: Any, tol: float = _REL_TOL) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return _close(float(a), float(b), tol)
    return bool(a == b)


def _notes(notes: Sequence[str]) -> str | None:
    return "; ".join(notes) if notes else None


def _join(a: str | None, b: str | None) -> str | None:
    return "; ".join(x for x in (a, b) if x) or None


def _iso(text: str) -> str | None:
    text = text.strip().upper()
    return text if re.fullmatch(r"[A-Z]{3}", text) else None


def _precision(word: str) -> str:
    word = word.lower()
    return {"bfloat16": "bf16", "float16": "fp16", "float8": "fp8", "float32": "fp32"}.get(
        word, word)


def _fabric(text: str) -> str | None:
    for name, pattern in _FABRIC_WORDS:
        if re.search(pattern, text, re.I):
            return name
    return None


def _storage_kind(text: str) -> tuple[str | None, list[str]]:
    found = [name for name, pattern in _STORAGE_WORDS if re.search(pattern, text, re.I)]
    if not found:
        return None, []
    return found[0], found[1:]


def _bandwidth(text: str, default_unit: str | None = None) -> V.ParsedBandwidth | None:
    try:
        bw = V.parse_bandwidth(text, default_unit=default_unit)
    except V.NoValueGiven:
        raise
    except V.ValueParseError:
        bw = None
    local = T.parse_bandwidth(text)
    if bw is None:
        if local is None:
            return None
        return V.ParsedBandwidth(local.total_gbit_s, local.each_gbit_s, local.count,
                                 local.scope, local.was_bytes, text)  # type: ignore[arg-type]
    if local is not None and bw.count == 1 and local.count > 1 and _close(
            bw.gbit_s_each, local.each_gbit_s):
        # "NDR 400G, 8 ports per system": the port count stands apart from the speed.
        return V.ParsedBandwidth(local.total_gbit_s, bw.gbit_s_each, local.count, bw.scope,
                                 bw.was_bytes, text,
                                 [*bw.notes, f"{local.count} ports x {bw.gbit_s_each:g} Gbit/s"],
                                 bw.fabric)
    return bw


_EXPECTED_BY_SUFFIX = (
    ("_usd_per_gpu_hour", "a price such as '$2.35 per GPU-hour' or '€24.80/node/h'"),
    ("_usd", "an amount such as 'USD 9,600,000'"),
    ("usd_per", "a price such as '$0.08 per GB'"),
    ("_gbit_s", "a bandwidth such as '400 Gb/s' or '8 × 400 Gb/s per node'"),
    ("_gbyte_s", "a bandwidth such as '50 GB/s'"),
    ("_date", "a date such as 2027-02-01"),
    ("valid_until", "a date such as 2027-02-01"),
    ("_pct", "a percentage such as 99.9%"),
    ("_hours", "a duration such as '24 hours'"),
    ("_months", "a duration such as '12 months'"),
    ("_tb", "a capacity such as '2 PB' or '500 TB'"),
    ("_gb", "a size such as '80 GB'"),
    ("_count", "a whole number"),
)


def expected_for(field_name: str) -> str:
    """What a cell for this canonical field should say, for error messages."""
    if field_name in ("vendor", "offer_name"):
        return "a name"
    if field_name == "accelerator":
        return "an accelerator such as 'NVIDIA H100 SXM5 80GB' (see `evaltool accelerators`)"
    for suffix, text in _EXPECTED_BY_SUFFIX:
        if field_name.endswith(suffix) or suffix in field_name:
            return text
    return "a value"


def _slot_field(slot: str) -> str:
    return {"support": "support_response_hours", "price": "price_usd_per_gpu_hour",
            "min_commitment": "min_commit_usd", "storage_throughput": "storage_read_gbyte_s",
            "accelerator": "accelerator"}.get(slot, slot)


# How a labelled value of each canonical field is read (slots with a _slot_ method excepted).
_FIELD_KIND: dict[str, str] = {
    "vendor": "text", "offer_name": "text", "region": "text",
    "valid_until": "date", "delivery_date": "date",
    "gpu_count": "count", "gpus_per_node": "count", "node_count": "count",
    "gpu_memory_gb": "quantity:memory:GB",
    "cpu_memory_gb_per_node": "quantity:memory:GB",
    "local_nvme_tb_per_node": "quantity:capacity:TB",
    "storage_capacity_tb": "quantity:capacity:TB",
    "power_kw_per_node": "quantity:power:kW",
    "sla_uptime_pct": "percent", "sla_max_credit_pct": "percent",
    "term_months": "months", "amortization_months": "months",
    "hw_replacement_hours": "hours", "support_response_hours": "hours",
    "upfront_usd": "money:once", "capex_usd": "money:once", "min_commit_usd": "money:once",
    "egress_usd_per_gb": "money:gb", "storage_usd_per_tb_month": "money:tb_month",
    "opex_usd_per_month": "money:month", "colocation_usd_per_kw_month": "money:kw_month",
    "power_usd_per_kwh": "money:kwh",
    "price_usd_per_gpu_hour": "money:gpu_hour",
    "compute_price_usd_per_gpu_hour": "money:gpu_hour",
}


# --- derivation ---------------------------------------------------------------------------

class _Derive:
    """Derived fields and checks over resolved values, recording how each was computed."""

    def __init__(self, b: _Builder, values: dict[str, Any],
                 provenance: dict[str, FieldSource]) -> None:
        self.b = b
        self.v = values
        self.p = provenance
        self.where = Location(str(b.record.source.get("file", "")),
                              sheet=b.record.source.get("sheet"))

    def set(self, name: str, value: Any, derived_from: list[str], note: str,
            where: Location | None = None) -> None:
        self.v[name] = value
        self.p[name] = FieldSource(where=(where or self.where).to_dict(), raw=None,
                                   derived_from=derived_from, note=note)

    def run(self) -> None:
        """Each step on its own: a value that cannot be derived is left out with a warning
        (code `derivation-failed`); whether the offer survives is for `_required` to say."""
        for step in (self.accelerator, self.counts, self.bandwidth, self.catalog_checks,
                     self.prices, self.kind_and_currency, self.ownership):
            try:
                step()
            except V.MissingFxRate:
                raise
            except (EvaltoolError, ArithmeticError, ValueError) as exc:
                self.b.problems.append(Problem(
                    self.where, f"could not derive the {step.__name__.replace('_', ' ')} "
                    f"values; they are left out: {exc}", found=type(exc).__name__,
                    severity="warning", code="derivation-failed"))

    def accelerator(self) -> None:
        text = self.v.pop("accelerator_text", None)
        prov = self.p.pop("accelerator_text", None)
        if text is None:
            return
        from evaltool.estimate.catalog import UnknownAcceleratorError, recognise_accelerator

        hints = " ".join(self.b.accelerator_hints)
        note = prov.note if prov else None
        full = " ".join(x for x in (text, hints, note or "") if x)
        try:
            found = recognise_accelerator(full, self.v.get("gpu_memory_gb"))
        except UnknownAcceleratorError as exc:
            where = Location(**prov.where) if prov else self.where
            self.b.unreadable["accelerator"] = Problem(
                where, str(exc), field="accelerator", found=text,
                expected="an accelerator in the catalog (`evaltool accelerators`)")
            return
        self.v["accelerator"] = found.id
        assert prov is not None
        self.p["accelerator"] = FieldSource(where=prov.where, raw=text, note=_join(
            f"recognised as {found.id} (matched {found.matched!r})", found.note))
        if found.note:
            self.b.assumed("accelerator", Location(**prov.where), text, found.note)

    def counts(self) -> None:
        gpus, nodes, per = (self.v.get(k) for k in ("gpu_count", "node_count", "gpus_per_node"))
        if gpus is None and nodes is not None and per is not None:
            self.set("gpu_count", nodes * per, ["node_count", "gpus_per_node"],
                     f"{nodes} nodes x {per} GPUs per node")
        elif nodes is None and gpus is not None and per is not None and gpus % per == 0:
            self.set("node_count", gpus // per, ["gpu_count", "gpus_per_node"],
                     f"{gpus} GPUs / {per} GPUs per node")
        elif per is None and gpus is not None and nodes is not None and gpus % nodes == 0:
            self.set("gpus_per_node", gpus // nodes, ["gpu_count", "node_count"],
                     f"{gpus} GPUs / {nodes} nodes")
        elif gpus is not None and nodes is not None and per is not None and gpus != nodes * per:
            where = Location(**self.p["gpu_count"].where)
            message = (f"gpu_count {gpus} is not node_count {nodes} x gpus_per_node {per} "
                       f"(= {nodes * per}); the stated GPU count is used")
            self.b.warn(where, message, "gpu_count", str(gpus), str(nodes * per))
            self.b.flag("count_mismatch", "medium", message, where, str(gpus),
                        ask_for="one consistent GPU and node count")

    def bandwidth(self) -> None:
        per_node = self.v.get("inter_node_gbit_s_per_node")
        per_gpu = self.v.get("inter_node_gbit_s_per_gpu")
        gpn = self.v.get("gpus_per_node")
        if gpn:
            if per_node is not None and per_gpu is None:
                self.set("inter_node_gbit_s_per_gpu", per_node / gpn,
                         ["inter_node_gbit_s_per_node", "gpus_per_node"],
                         f"{per_node:g} Gbit/s per node / {gpn} GPUs per node")
            elif per_gpu is not None and per_node is None:
                self.set("inter_node_gbit_s_per_node", per_gpu * gpn,
                         ["inter_node_gbit_s_per_gpu", "gpus_per_node"],
                         f"{per_gpu:g} Gbit/s per GPU x {gpn} GPUs per node")
            elif per_gpu is not None and per_node is not None and not _close(
                    per_node, per_gpu * gpn):
                where = Location(**self.p["inter_node_gbit_s_per_gpu"].where)
                self.b.warn(where, f"per-GPU bandwidth {per_gpu:g} Gbit/s x {gpn} GPUs is not "
                            f"the per-node {per_node:g} Gbit/s", "inter_node_gbit_s_per_gpu")

    def catalog_checks(self) -> None:
        acc_id = self.v.get("accelerator")
        if acc_id is None:
            return
        from evaltool.estimate.catalog import load_catalog

        acc = load_catalog().get(acc_id)
        memory = self.v.get("gpu_memory_gb")
        if memory is None:
            self.set("gpu_memory_gb", float(acc.memory_gb), ["accelerator"],
                     f"catalog memory of {acc_id}; the offer does not state it")
        elif not _close(memory, acc.memory_gb, _MEMORY_TOL) and not _close(
                memory * 1.073741824, acc.memory_gb, _MEMORY_TOL):
            where = Location(**self.p["gpu_memory_gb"].where)
            message = (f"gpu_memory_gb {memory:g} is unlike the catalog's {acc.memory_gb:g} GB "
                       f"for {acc_id}")
            self.b.warn(where, message, "gpu_memory_gb", str(memory), f"{acc.memory_gb:g}")
            self.b.flag("memory_mismatch", "medium", message + ": a different part, or a "
                        "misread accelerator", where, self.p["gpu_memory_gb"].raw)
        tflops = self.v.get("claimed_peak_tflops_per_gpu")
        if tflops is not None:
            precision = self.v.get("claimed_peak_precision")
            try:
                sparse = acc.sparse_precision_matching(tflops, precision)
            except EvaltoolError:
                sparse = None
            if sparse is not None:
                where = Location(**self.p["claimed_peak_tflops_per_gpu"].where)
                dense = next((v for k, v in acc.dense_tflops.items() if k == sparse), 0.0)
                why = (f"the claimed peak {tflops:g} TFLOPS equals {acc_id}'s {sparse.upper()} "
                       f"peak WITH sparsity; the dense peak is {dense:g} TFLOPS. Compare "
                       "dense figures only (seed 000)")
                self.b.warn(where, why, "claimed_peak_tflops_per_gpu", str(tflops),
                            f"{dense:g} (dense)")
                self.b.flag("sparse_peak_claim", "high", why, where,
                            self.p["claimed_peak_tflops_per_gpu"].raw,
                            ask_for=f"the dense {sparse.upper()} peak per GPU")

    def money(self, priced: _Priced) -> float:
        return V.convert_money_to_usd(priced.money, self.b.fx)

    def prices(self) -> None:
        b = self.b
        gpus = self.v.get("gpu_count")
        gpn = self.v.get("gpus_per_node")
        compute = [p for p in b.priced if p.role in ("compute", "all_in")]
        compute.sort(key=lambda p: -p.priority)
        if compute:
            first = compute[0]
            try:
                price = V.price_per_gpu_hour(first.money, gpn, HOURS_PER_MONTH, gpus,
                                             self.v.get("term_months"), fx_rates=b.fx)
            except V.MissingFxRate as exc:
                b.unreadable["price_usd_per_gpu_hour"] = exc.to_problem(
                    first.where, "price_usd_per_gpu_hour")
                return
            except V.ValueConversionError as exc:
                # e.g. a per-node price without GPUs per node: the price cannot be derived.
                b.unreadable["price_usd_per_gpu_hour"] = exc.to_problem(
                    first.where, "price_usd_per_gpu_hour")
                return
            note = price.formula
            if first.money.per == ():
                note += "; no basis stated"
            fx_note = [n for n in price.notes if n.startswith("converted")]
            if fx_note:
                note += f" ({fx_note[0]}, the rate given by the user)"
            name = "compute_price_usd_per_gpu_hour"
            self.v[name] = price.value
            self.p[name] = FieldSource(where=first.where.to_dict(), raw=first.raw,
                                       note=_join(note, first.note))
            for other in compute[1:]:
                try:
                    alt = V.price_per_gpu_hour(other.money, gpn, HOURS_PER_MONTH, gpus,
                                               self.v.get("term_months"), fx_rates=b.fx)
                except EvaltoolError:
                    continue
                if not _close(alt.value, price.value):
                    b.warn(other.where, f"a second compute price reads as {alt.value:.4g} USD "
                           f"per GPU-hour where {first.where} gives {price.value:.4g}; the "
                           "first is used", "price_usd_per_gpu_hour", other.raw)
        self.monthly_addons()
        self.purchase()

    def monthly_addons(self) -> None:
        b = self.b
        compute = self.v.get("compute_price_usd_per_gpu_hour")
        gpus = self.v.get("gpu_count")
        parts: list[str] = []
        sources: list[str] = []
        extra_usd_month = 0.0
        storage_month = 0.0
        per_tb = self.v.get("storage_usd_per_tb_month")
        cap = self.v.get("storage_capacity_tb")
        if per_tb and cap:
            storage_month += per_tb * cap
            parts.append(f"storage {cap:g} TB x {per_tb:g} USD/TB-month")
            sources += ["storage_usd_per_tb_month", "storage_capacity_tb"]
        for p in b.priced:
            if p.role == "storage_month":
                usd = self.money(p)
                storage_month += usd
                parts.append(f"storage {usd:,.0f} USD/month")
        extra_usd_month += storage_month
        support = sum(self.money(p) for p in b.priced if p.role == "support_month")
        if b.support_pct is not None and compute is not None and gpus:
            pct, where, raw = b.support_pct
            support_pct_usd = pct / 100.0 * compute * gpus * HOURS_PER_MONTH
            support += support_pct_usd
            note = (f"{pct:g}% of the monthly compute spend ({compute:.4g} USD x {gpus} GPUs x "
                    f"{HOURS_PER_MONTH} h)")
            b.add("support_usd_per_month", support_pct_usd, where, raw, IN_TEXT, note)
            self.v["support_usd_per_month"] = support_pct_usd
            self.p["support_usd_per_month"] = FieldSource(
                where=where.to_dict(), raw=raw, derived_from=["compute_price_usd_per_gpu_hour",
                                                             "gpu_count"], note=note)
        elif support:
            first = next(p for p in b.priced if p.role == "support_month")
            self.v["support_usd_per_month"] = support
            self.p["support_usd_per_month"] = FieldSource(where=first.where.to_dict(),
                                                          raw=first.raw, note=first.note)
        if support:
            extra_usd_month += support
            parts.append(f"support {support:,.0f} USD/month")
            sources.append("support_usd_per_month")
        network = sum(self.money(p) for p in b.priced if p.role == "network_month")
        if network:
            first = next(p for p in b.priced if p.role == "network_month")
            self.v["network_usd_per_month"] = network
            self.p["network_usd_per_month"] = FieldSource(where=first.where.to_dict(),
                                                          raw=first.raw)
            extra_usd_month += network
            parts.append(f"network {network:,.0f} USD/month")
            sources.append("network_usd_per_month")
        all_in = [p for p in b.priced if p.role == "all_in"]
        if compute is None:
            return
        if b.all_in_note is not None or all_in:
            self.v["price_usd_per_gpu_hour"] = compute
            self.p["price_usd_per_gpu_hour"] = FieldSource(
                where=self.p["compute_price_usd_per_gpu_hour"].where,
                raw=self.p["compute_price_usd_per_gpu_hour"].raw,
                derived_from=["compute_price_usd_per_gpu_hour"],
                note="the vendor states the price is all-in; add-ons are not added again")
            return
        if not gpus or not extra_usd_month:
            self.v["price_usd_per_gpu_hour"] = compute
            self.p["price_usd_per_gpu_hour"] = FieldSource(
                where=self.p["compute_price_usd_per_gpu_hour"].where,
                raw=self.p["compute_price_usd_per_gpu_hour"].raw,
                derived_from=["compute_price_usd_per_gpu_hour"],
                note="no separately priced storage, support or network")
            return
        add = extra_usd_month / (gpus * HOURS_PER_MONTH)
        self.set("price_usd_per_gpu_hour", compute + add,
                 ["compute_price_usd_per_gpu_hour", *sources, "gpu_count"],
                 f"all-in: compute {compute:.4g} + ({' + '.join(parts)}) / ({gpus} GPUs x "
                 f"{HOURS_PER_MONTH} h) = {compute + add:.4g} USD per GPU-hour")

    def purchase(self) -> None:
        b = self.b
        lines = [p for p in b.priced if p.role == "capex_line"]
        line_sum = sum(self.money(p) for p in lines) if lines else None
        capex = self.v.get("capex_usd")
        if capex is None and line_sum is not None and (
                self.v.get("offer_kind") == "purchase" or self.v.get(
                    "compute_price_usd_per_gpu_hour") is None):
            self.set("capex_usd", line_sum, [], "sum of the quote's line items (quantity x unit "
                     f"price): {', '.join(f'{self.money(p):,.0f}' for p in lines)}",
                     lines[0].where)
            capex = line_sum
        elif capex is not None and line_sum is not None and not _close(capex, line_sum, 0.001):
            where = Location(**self.p["capex_usd"].where)
            message = (f"stated total {capex:,.0f} USD differs from the sum of the line items "
                       f"{line_sum:,.0f} USD (by {line_sum - capex:+,.0f}); the stated total "
                       "is used")
            b.warn(where, message, "capex_usd", f"{capex:,.0f}", f"{line_sum:,.0f}")
            b.flag("total_mismatch", "medium", message, where, self.p["capex_usd"].raw,
                   ask_for="a quote whose total matches its lines")
        if capex is None:
            return
        gpus = self.v.get("gpu_count")
        if not gpus:
            return
        months = self.v.get("amortization_months")
        if months is None:
            months = self.v.get("term_months") or 36.0
            where = self.where
            why = f"no amortisation period stated; {months:g} months assumed"
            self.set("amortization_months", months, [], why)
            b.assumed("amortization_months", where, "", why)
        nodes = self.v.get("node_count")
        kw = self.v.get("power_kw_per_node")
        parts = [f"capex {capex:,.0f} / {months:g} months"]
        monthly = capex / months
        used = ["capex_usd", "amortization_months"]
        colo = self.v.get("colocation_usd_per_kw_month")
        kwh = self.v.get("power_usd_per_kwh")
        if kw and nodes and colo is not None:
            power = kw * nodes * colo
            monthly += power
            parts.append(f"colocation {kw:g} kW x {nodes} nodes x {colo:g} USD/kW-month")
            used += ["power_kw_per_node", "node_count", "colocation_usd_per_kw_month"]
        elif kw and nodes and kwh is not None:
            power = kw * nodes * HOURS_PER_MONTH * kwh
            monthly += power
            parts.append(f"power {kw:g} kW x {nodes} nodes x {HOURS_PER_MONTH} h x "
                         f"{kwh:g} USD/kWh")
            used += ["power_kw_per_node", "node_count", "power_usd_per_kwh"]
        else:
            b.warn(self.where, "purchase offer without power or colocation cost (power per node "
                   "and a USD/kWh or USD/kW-month rate); the effective price leaves power out",
                   "price_usd_per_gpu_hour")
        opex = self.v.get("opex_usd_per_month")
        if opex:
            monthly += opex
            parts.append(f"opex {opex:,.0f} USD/month")
            used.append("opex_usd_per_month")
        effective = monthly / (gpus * HOURS_PER_MONTH)
        self.set("price_usd_per_gpu_hour", effective, [*used, "gpu_count"],
                 f"purchase: ({' + '.join(parts)}) / ({gpus} GPUs x {HOURS_PER_MONTH} h) = "
                 f"{effective:.4g} USD per GPU-hour (PRODUCT.md purchase rule)")
        if self.v.get("offer_kind") is None:
            self.set("offer_kind", "purchase", ["capex_usd"], "a capex figure makes it a "
                     "purchase")

    def kind_and_currency(self) -> None:
        if self.v.get("offer_kind") is None and self.v.get("price_usd_per_gpu_hour") is not None:
            self.set("offer_kind", "rent", ["price_usd_per_gpu_hour"],
                     "priced per GPU-hour with no purchase terms: a rental")
        if self.v.get("currency") is None:
            currencies = sorted({p.money.currency for p in self.b.priced})
            if len(currencies) == 1:
                first = self.b.priced[0]
                self.set("currency", currencies[0], [], "currency of the offer's prices",
                         first.where)

    def ownership(self) -> None:
        """A purchase is your own cluster: root, a dedicated network, and your own scheduler.

        Seed 001 ("Buying hardware"): you control everything, and you also run everything,
        so the operations criteria see "none" for the scheduler (you install Slurm yourself).
        """
        if self.v.get("offer_kind") != "purchase":
            return
        implied = {
            "root_access": (True, "you own the hardware, so you have root"),
            "network_dedicated": (True, "your own fabric is shared with no other tenant"),
            "orchestrator": ("none", "no managed scheduler comes with hardware: you install one"),
        }
        for name, (value, why) in implied.items():
            if self.v.get(name) is None:
                self.set(name, value, ["offer_kind"], f"implied by a purchase: {why}")
                self.b.warn(self.where, f"assumed value: {why}", name)

# --- public API ---------------------------------------------------------------------------

def normalize_records(records: Sequence[RawRecord], fx_rates: Mapping[str, float] | None = None
                      ) -> tuple[list[Offer], list[NotEvaluated]]:
    fx = {"USD": 1.0, **(fx_rates or {})}
    vocab = load_vocabulary()
    offers: list[Offer] = []
    failed: list[NotEvaluated] = []
    for record in records:
        try:
            result = _normalize_record(record, fx, vocab)
        except InputError as exc:
            failed.append(NotEvaluated(source=record.source,
                                       errors=[p.to_dict() for p in exc.problems]))
            continue
        except Exception as exc:  # one offer's bug never takes the others down
            where = Location(str(record.source.get("file", record.id)),
                             sheet=record.source.get("sheet"), key=record.source.get("key"))
            failed.append(NotEvaluated(source=record.source, errors=[
                problem_for_exception(exc, where, "normalising").to_dict()]))
            continue
        offers.append(result)
    return offers, failed


def _normalize_record(record: RawRecord, fx: Mapping[str, float], vocab: Vocabulary) -> Offer:
    b = _Builder(record, fx, vocab)
    b.read()
    values, provenance = b.resolve()
    d = _Derive(b, values, provenance)
    try:
        d.run()
    except V.MissingFxRate as exc:
        raise InputError(exc.to_problem(Location(str(record.source.get("file"))),
                                        "currency")) from None
    values.pop("claimed_peak_precision_raw", None)
    errors = _required(b, values, record)
    fields, invalid = _validated_fields(values, provenance)
    errors += [p for p in invalid if p.field in REQUIRED or p.field == "price_usd_per_gpu_hour"]
    if errors:
        # Values skipped by a length limit explain a missing field: name them too.
        raise InputError(errors + [p for p in b.problems if p.severity == "error"
                                   or p.code in ("value-too-long", "number-too-long")])
    for problem in invalid:
        b.problems.append(problem)
    where_text = " ".join(s["text"] for s in record.segments)
    if record.segments and fields.contract_text is None:
        fields = fields.model_copy(update={"contract_text": "\n".join(
            s["text"] for s in record.segments)})
        provenance["contract_text"] = FieldSource(
            where=record.segments[0]["where"], raw=where_text[:200],
            note=f"{len(record.segments)} contract segments joined")
    _public_price_note(fields, provenance)
    warnings = [p.to_dict() for p in b.problems]
    return Offer(id=record.id, source=record.source, fields=fields,
                 provenance={k: provenance[k] for k in sorted(provenance)
                             if getattr(fields, k, None) is not None},
                 warnings=warnings, flags=b.flags, contract_segments=record.segments)


def _required(b: _Builder, values: dict[str, Any], record: RawRecord) -> list[Problem]:
    errors: list[Problem] = []
    file_where = Location(str(record.source.get("file", "")), sheet=record.source.get("sheet"),
                          key=record.source.get("key"))
    needed = [*REQUIRED]
    is_purchase = values.get("capex_usd") is not None or values.get("offer_kind") == "purchase"
    needed.append("capex_usd" if is_purchase else "price_usd_per_gpu_hour")
    expectations = {
        "vendor": "a vendor, provider or supplier name",
        "accelerator": "the accelerator model (GPU type), e.g. 'NVIDIA HGX H100 SXM5 80GB'",
        "gpu_count": "the total number of GPUs (or nodes and GPUs per node)",
        "price_usd_per_gpu_hour": "a compute price, e.g. '$2.35 per GPU-hour'",
        "capex_usd": "the purchase price (total capex)",
    }
    for name in needed:
        if values.get(name) is not None:
            continue
        if name in b.unreadable:
            prob = b.unreadable[name]
            errors.append(Problem(prob.where, f"required field {name} could not be read: "
                                  f"{prob.message}", field=name, found=prob.found,
                                  expected=prob.expected or expectations[name]))
        else:
            # A formula saved without its value is the usual reason a present field is empty.
            uncached = [p for p in record.problems if p.found == "formula without cached value"]
            hint = ""
            if uncached:
                hint = "; formula cells without a saved value may hold it: " + ", ".join(
                    f"{p.where} ({p.message.split(':', 1)[0]})" for p in uncached[:5])
            errors.append(Problem(file_where, f"required field {name} is missing{hint}",
                                  field=name, expected=expectations[name]))
    return errors


def _validated_fields(values: dict[str, Any], provenance: dict[str, FieldSource]
                      ) -> tuple[OfferFields, list[Problem]]:
    from pydantic import ValidationError

    clean = {k: v for k, v in values.items() if k in OfferFields.model_fields}
    for key in ("gpu_count", "node_count", "gpus_per_node", "cpu_cores_per_node"):
        if isinstance(clean.get(key), float) and clean[key].is_integer():
            clean[key] = int(clean[key])
    problems: list[Problem] = []
    for _ in range(len(clean) + 1):
        try:
            return OfferFields(**clean), problems
        except ValidationError as exc:
            for err in exc.errors():
                name = str(err["loc"][0]) if err["loc"] else "?"
                source = provenance.get(name)
                where = Location(**source.where) if source else Location("?")
                problems.append(Problem(where, f"{name}: {err['msg']}", field=name,
                                        found=repr(clean.get(name)),
                                        expected=_expected_from(err), severity="warning"))
                clean.pop(name, None)
                values.pop(name, None)
    return OfferFields(), problems


def _expected_from(err: Mapping[str, Any]) -> str:
    ctx = err.get("ctx") or {}
    parts = [f"{k.replace('_', ' ')} {v}" for k, v in ctx.items()]
    return ", ".join(parts) or str(err.get("type"))


def _public_price_note(fields: OfferFields, provenance: dict[str, FieldSource]) -> None:
    """PRODUCT.md: each rental offer's price set against public on-demand prices."""
    if fields.offer_kind == "purchase" or not fields.accelerator or not \
            fields.price_usd_per_gpu_hour:
        return
    try:
        from evaltool.estimate.catalog import compare_to_public

        sentence = compare_to_public(fields.accelerator, fields.price_usd_per_gpu_hour)
    except EvaltoolError:
        return
    if sentence and "price_usd_per_gpu_hour" in provenance:
        source = provenance["price_usd_per_gpu_hour"]
        provenance["price_usd_per_gpu_hour"] = source.model_copy(
            update={"note": _join(source.note, f"public reference: {sentence}")})


def normalize_files(paths: Sequence[Path], fx_rates: Mapping[str, float] | None = None
                    ) -> NormalizeResult:
    """Read and normalise every file; a bad file becomes NotEvaluated, never an exception.

    Every path ends among the offers or in not_evaluated with a coded problem naming it;
    offer ids are unique across the run, and offers given twice are flagged.
    """
    from evaltool.read import read_offer_file

    offers: list[Offer] = []
    failed: list[NotEvaluated] = []
    for path in paths:
        path = Path(path)
        try:
            records = read_offer_file(path)  # raises InputError only
        except InputError as exc:
            failed.append(NotEvaluated(source={"file": str(path)},
                                       errors=[p.to_dict() for p in exc.problems]))
            continue
        good, bad = normalize_records(records, fx_rates)
        offers.extend(good)
        failed.extend(bad)
    return NormalizeResult(offers=flag_duplicates(unique_ids(offers)), not_evaluated=failed)


def _display(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, float):
        return round(value, 6)
    return value


def normalize_to_rows(result: NormalizeResult) -> list[dict[str, Any]]:
    """Flat rows (offer, field, value, where, raw, note) for CSV and table output."""
    rows: list[dict[str, Any]] = []
    for offer in result.offers:
        data = offer.fields.model_dump()
        for name, value in data.items():
            if value is None or name == "contract_text":
                continue
            source = offer.provenance.get(name)
            rows.append({
                "offer": offer.id, "field": name, "value": _display(value),
                "where": str(Location(**source.where)) if source else "",
                "raw": (source.raw or "") if source else "",
                "note": (source.note or "") if source else "",
            })
        for warning in offer.warnings:
            rows.append({"offer": offer.id, "field": "(warning)", "value": "",
                         "where": str(Location(**warning["where"])), "raw": "",
                         "note": warning.get("text", "")})
    for item in result.not_evaluated:
        for err in item.errors:
            rows.append({"offer": item.source.get("file", ""), "field": "(not evaluated)",
                         "value": "", "where": str(Location(**err["where"])), "raw": "",
                         "note": err.get("text", "")})
    return rows


def result_to_dict(result: NormalizeResult) -> dict[str, Any]:
    return {"offers": [o.model_dump(mode="json", exclude_none=True) for o in result.offers],
            "not_evaluated": [n.model_dump(mode="json") for n in result.not_evaluated]}


def render_normalized(result: NormalizeResult, fmt: str) -> str:
    """The text `evaltool normalize --format json|csv|yaml|table` prints."""
    if fmt == "json":
        return json.dumps(result_to_dict(result), indent=2, sort_keys=True,
                          ensure_ascii=False) + "\n"
    if fmt == "yaml":
        import yaml

        return str(yaml.safe_dump(result_to_dict(result), sort_keys=True, allow_unicode=True))
    rows = normalize_to_rows(result)
    if fmt == "csv":
        import csv
        import io

        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=["offer", "field", "value", "where", "raw",
                                                 "note"], lineterminator="\n")
        writer.writeheader()
        for row in rows:
            # Spreadsheet programs run cells that start with = + - @ as formulas.
            writer.writerow({k: _csv_safe(v) for k, v in row.items()})
        return out.getvalue()
    lines: list[str] = []
    current = None
    for row in rows:
        if row["offer"] != current:
            current = row["offer"]
            lines.extend(["", str(current)])
        value = str(row["value"])
        where = row["where"]
        if row["field"].startswith("("):
            lines.append(f"  {row['field']:<32} {row['note']}")
        else:
            lines.append(f"  {row['field']:<32} {value[:40]:<40}  {where}")
    return "\n".join(lines).lstrip("\n") + "\n"


def _csv_safe(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


__all__ = ["NormalizeResult", "normalize_files", "normalize_to_rows", "render_normalized",
           "result_to_dict"]
_ = (field, is_empty)
