"""Facts an offer states in sentences: a letter, a note, a footnote, a notes column.

"Shared storage is 500 TB on VAST, with Slurm pre-installed and root access on every node."
states four fields; no cell is labelled with any of them.  A sentence is cut into clauses,
each clause is given the topics its words name (evaltool/data/prose_words.yaml: network,
storage, orchestrator, root...), and only the figures of a clause about a topic are read for
that topic's fields: "8 × 200 Gbit/s per node, on a fabric dedicated to your cluster" is the
network, "shared storage" never says the network is shared.

What a sentence states is weaker evidence than a labelled cell: every fact read here has the
priority of text (IN_TEXT), so a labelled value wins and a disagreement between the two is
warned (Builder.resolve).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any

from evaltool.errors import Location
from evaltool.grammar.money import by_document_decimals
from evaltool.grammar.numbers import says_free_of_charge
from evaltool.grammar.textcache import by_text
from evaltool.normalize import values as V
from evaltool.normalize.contract import contract_facts
from evaltool.normalize.contract_price import without_prices
from evaltool.normalize.digit_groups import SPACE_GROUP_RE
from evaltool.normalize.facts import (
    _SPARSE_RE,
    DERIVED,
    IN_TEXT,
    LABELLED,
    _bandwidth,
    _fabric,
    _join,
    _money_text,
    _storage_kind,
)
from evaltool.normalize.phrases import (
    MAX_PROSE_CHARS,
    _words,
    capped_percent,
    clauses,
    cores_taken_per_cpu,
    fold,
    is_notes_label,
    network_dedicated,
    orchestrator_named,
    other_traffic,
    read_write,
    root_granted,
    system_facts,
    topics,
)
from evaltool.normalize.phrases import (
    _parts as _parts_of,
)
from evaltool.normalize.shapes import count_facts, words_to_digits
from evaltool.normalize.slots import SlotReaders
from evaltool.normalize.term_words import duration_months
from evaltool.read import text as T
from evaltool.read.cells import Candidate

# Text that may state a contract term (uptime, credits, replacement, response, delivery,
# term, egress, commitment, prepayment) and has a figure: the only text given to clause
# analysis besides the contract itself.
# A credit tier's threshold: "30% below 95.0%", "unter 99 %", "por debajo del 99%".
_BELOW_RE = re.compile(r"(?:\bbelow|\bunder|\bless\s+than|\blower\s+than|\bunter(?:halb)?|"
                       r"\binferieur\w*|\ben\s+dessous\s+de|\bpor\s+debajo\s+del?|\babaixo\s+de|"
                       r"\bsotto\s+il|\bponizej|\bpod|\balatt|\bonder|<|≤)\s*(?:the\s+|de\s+|di\s+|"
                       r"of\s+)?$", re.I)
_TERMS_HINT_RE = re.compile(
    r"credit|uptime|availab|\bsla\b|replac|swap|respon|deliver|hand(?:ed)?\s*over|ready|\bterm\b|"
    r"month|egress|commit|prepa|upfront|verf[üu]g|gutschrift|austausch|liefer|laufzeit|"
    r"cr[ée]dit|disponib|rempla|livr|dur[ée]e|mois|expir|valid|until|hold", re.I)
_TERMS_CACHE: dict[Any, list[tuple[str, Any, Location, str, str]]] = {}
# A response time is named as one: "response", "reagiert", "svarstid", "temps de réponse".
_RESPONSE_RE = re.compile(r"\brespon\w*|\breaction|\breakti\w*|\breagier\w*|\bsvarstid|\breponse|"
                          r"\brespuesta|\brisposta|\breactie|\breakcj\w*|\bantwort\w*|"
                          r"\bsvartid|\bodezv\w*|\bvalaszido|\byanit|応答|回答|응답|"
                          r"\bpresa\s+in\s+carico|\bprise\s+en\s+charge", re.I)
# A node's own disks, and the words of a shared file system.
_LOCAL_DISK_RE = re.compile(r"\bnvme\b|\bssds?\b|\blocal\b|\blokal|\blocale?s?\b|\bscratch\b|"
                            r"\bper\s+(?:node|server|instance)\b|\bje\s+knoten|\bpar\s+serveur",
                            re.I)
_SHARED_FS_RE = re.compile(r"\bshared\b|\bparallel|\bfile\s*system|\bdateisystem|"
                           r"\bpartag|\bcompartid|\bcondivis|\bgedeeld|\bdelad", re.I)
# A rate ("250 MB/s", "40 GB/s", "100 Gbps"): never a capacity.
_RATE_RE = re.compile(r"\d[\d.,]*\s*(?:[kmgtp]i?b(?:yte)?s?|[kmgt]bit)\s*(?:/\s*s(?:ec)?\b|ps\b)",
                      re.I)
# A credit for late delivery is not the service-level credit cap.
_DELAY_WORDS_RE = re.compile(r"\bdela(?:y|yed)\b|\blate\b|\bdeliver\w*|\bverzug|\bretard|"
                             r"\bforsening|\bförsening|\bretraso|\britardo", re.I)


# A figure after a comparison sign ("Scale-out network ≥ 400 Gb/s per GPU", "Parallel file
# system >= 2 PB") is a requirement's threshold (an RFP's own column), not what is offered.
_THRESHOLD_RE = re.compile(r"(?:[≥≤]|>=|<=)\s*\d[\d.,]*\s*(?:%|[^\W\d_]+(?:/[^\W\d_]+)?"
                           r"(?:\s+(?:per|por|pro|par|je)\s+[^\W\d_]+)?)?")


@by_text(8192)  # by the text alone; the same notes recur across options
def _may_state_terms(text: str) -> bool:
    return len(text) <= MAX_PROSE_CHARS and any(map(str.isdigit, text)) and \
        _TERMS_HINT_RE.search(text) is not None


@by_text(8192)  # by the text alone: options side by side share their notes
def _prose_plan(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The clauses of a text and the topics each is read for, in order."""
    plan: list[tuple[str, tuple[str, ...]]] = []
    before: tuple[str, ...] = ()
    for clause in clauses(text):
        # "Scale-out network ≥ 400 Gb/s per GPU": a buyer's threshold, never read
        clause = _THRESHOLD_RE.sub(" ", clause)
        found = tuple(topics(clause))
        if not found and before and clause[:1].islower() and len(clause.split()) <= 12:
            # "InfiniBand NDR200, Dragonfly+; condivisa con gli altri progetti": a short
            # clause that goes on from the one before is about the same thing
            found = before
        plan.append((clause, found))
        before = found
    return tuple(plan)


@by_text(8192)  # by the text alone: most values are no yes/no (it raised)
def _says_yes(value: str) -> bool:
    """A value that answers yes ('sí', 'included', 'ja')."""
    try:
        return bool(V.parse_bool(value).value)
    except V.ValueParseError:
        return False


class ProseReaders(SlotReaders):
    """Reads the facts of sentences with the slot readers, at the priority of text."""

    def _service_period(self, slot: str, cand: Candidate, text: str) -> bool:
        """A date range read as the service period (TableReaders)."""
        return False

    def read_prose(self, text: str, where: Location) -> None:
        if len(text) > MAX_PROSE_CHARS:
            return
        for clause, found in _prose_plan(text):
            for topic in found:
                self._as_text(getattr(self, f"_prose_{topic}"), clause, where)

    def value_by_shape(self, cand: Candidate, text: str) -> None:
        """A value its label's field cannot read may still state a figure by its shape
        ("Capacity | up to 32 nodes (128 GPUs)", "Dense FP8 per GPU | 5 PFLOPS"): read it
        at text priority, and say that the label and the value disagree."""
        if not isinstance(cand.value, str):
            return
        bare = re.sub(r"\b24\s*[x×/]\s*7\b", "", text)  # "24x7, TAM" states no figure
        if cand.note and re.search(r"\d", cand.note) and not re.search(r"\d", bare) and \
                re.search(r"[^\W\d_]{2}", text) and self._read_the_note(cand):
            # A dash or "n/a" says there is none: the note beside it may be another column's.
            return
        found = topics(text)
        if "network" in found and re.search(r"\d\s*(?:[gt]bit|[gt]b/s|[gt]bps|gbe)", text, re.I):
            # "Réseau inter-nœuds | 8 × 400 Gb/s InfiniBand" read under a node label.
            self._as_text(self._prose_network, text, cand.where)
            self.note(cand.where, "value-reads-as-network", {"label": cand.label},
                      "inter_node_fabric", text[:120])
            # "HGX, 8 GPU/node, 3.2 Tb/s NDR InfiniBand per node": the node's GPUs too (only
            # a per-node figure: a total beside a link speed may count the links)
            self._counts_by_shape(cand, text, ("gpus_per_node",))
            return
        if T.billing_unit(text) == "gb" and T.currency_of(text) and "storage" not in found:
            # "Network egress | $0.12 per GB (internet)" under a network label.
            self._as_text(lambda t, w: self._money_field("egress_usd_per_gb", Candidate(
                "egress", t, w), t, "gb"), text, cand.where)
            self.note(cand.where, "value-reads-as-egress-price", {"label": cand.label},
                      "egress_usd_per_gb", text[:120])
            return
        if "peak" in found:
            self._peak_by_shape(cand, text)
            return
        self._counts_by_shape(cand, text, None)

    def _counts_by_shape(self, cand: Candidate, text: str, only: tuple[str, ...] | None) -> None:
        for name, value in count_facts(text).items():
            if only is not None and name not in only:
                continue
            self.add(name, value, cand.where, text, IN_TEXT,
                     f"count read from the value of a cell labelled {cand.label!r}")
            self.note(cand.where, "value-reads-as-count",
                      {"label": cand.label, "field": name, "value": value}, name, text[:120])

    def _peak_by_shape(self, cand: Candidate, text: str) -> None:
        """'FP8/FP6 Tensor Core | 9 PFLOPS per GPU': a FLOPS figure under a label that is
        not the peak's (or no known label) is the claimed peak per GPU, warned."""
        before = len(self.facts.get("claimed_peak_tflops_per_gpu", []))
        self._as_text(self._prose_peak, f"{text} ({cand.label})", cand.where)
        if len(self.facts.get("claimed_peak_tflops_per_gpu", [])) > before:
            self.note(cand.where, "value-reads-as-flops", {"label": cand.label},
                      "claimed_peak_tflops_per_gpu", text[:120])

    def _read_the_note(self, cand: Candidate) -> bool:
        """'Data transfer out | Internet egress | $0.08 per GB': the value names the item,
        the notes column beside it states the figure.  Read the note for the label's field
        and drop the warning the bare value raised."""
        slot = self.vocab.match(cand.label, cand.section)
        read_slot = getattr(self, "read_slot", None)
        if slot in (None, "ignore") or read_slot is None:
            return False
        problems, unreadable = len(self.problems), dict(self.unreadable)
        try:
            read_slot(slot, Candidate(cand.label, cand.note, cand.where, cand.section, None,
                                      cand.label_where), cand.note)
        except (V.ValueParseError, V.ValueConversionError, ValueError, ArithmeticError):
            del self.problems[problems:]
            return False
        where = cand.where
        self.problems = [p for p in self.problems if not (
            p.code == "value-unreadable" and p.where == where)]
        self.unreadable = {k: v for k, v in unreadable.items() if v.where != where}
        return True

    def terms_in_text(self, known: frozenset[str]) -> list[tuple[str, Any, Location, str, str]]:
        """Clause analysis of the contract segments, notes and sentences (contract_facts),
        once per distinct text: options side by side share their notes and terms."""
        segments = self._prose_segments()
        key = (tuple((str(s.get("text")), repr(sorted(s["where"].items())),
                      str(s.get("section"))) for s in segments), known)
        if key not in _TERMS_CACHE:
            if len(_TERMS_CACHE) > 256:
                _TERMS_CACHE.clear()
            _TERMS_CACHE[key] = contract_facts(segments, known)
        return list(_TERMS_CACHE[key])

    def _prose_segments(self) -> list[dict[str, Any]]:
        """The contract segments, the notes and the sentences inside labelled cells, for
        clause analysis: a note ("Failed hardware is replaced within 24 hours") or a cell
        ("Availability SLA | 99.5% monthly; credits up to 50% of the monthly bill") states
        terms as a contract sheet does."""
        seen = {(str(s.get("text", "")), str(s.get("where"))) for s in self.record.segments}

        states_terms = _may_state_terms  # clause analysis is costly: only likely text

        notes = [{"text": text, "where": where.to_dict()} for text, where in self.record.notes
                 if (text, str(where.to_dict())) not in seen and states_terms(text)]
        cells = [{"text": cand.value, "where": cand.where.to_dict(), "section": cand.label}
                 for cand in self.record.candidates
                 if isinstance(cand.value, str) and len(cand.value.split()) >= 5
                 and states_terms(cand.value)]
        extra = [{"text": text, "where": where.to_dict()}
                 for text, where in [*self.record.banners, *self.record.footers]
                 if (text, where) not in self.record.notes and states_terms(text)]
        return [*self.record.segments, *notes, *cells, *extra]

    def _as_text(self, reader: Callable[[str, Location], None], clause: str,
                 where: Location) -> None:
        """Run one reader; what it records is demoted to text priority, and a clause it
        cannot read is no error (a sentence need not state a value)."""
        counts = {name: len(facts) for name, facts in self.facts.items()}
        priced, problems = len(self.priced), len(self.problems)
        try:
            reader(clause, where)
        except (V.ValueParseError, V.ValueConversionError, ValueError, ArithmeticError):
            for name, facts in self.facts.items():
                del facts[counts.get(name, 0):]
            del self.priced[priced:]
            del self.problems[problems:]
            return
        for name, facts in self.facts.items():
            for fact in facts[counts.get(name, 0):]:
                if fact.priority > IN_TEXT:
                    fact.priority = IN_TEXT
                    fact.note = _join(fact.note, "read from a sentence")
        for item in self.priced[priced:]:
            item.priority = min(item.priority, IN_TEXT)

    def _prose_valid(self, clause: str, where: Location) -> None:
        self._date_after("valid", "valid_until", clause, where)

    def _prose_delivery(self, clause: str, where: Location) -> None:
        # "from 15 April, subject to signature by 31 March": the date to sign is no delivery
        self._date_after("delivery", "delivery_date", V.before_signing_deadline(clause), where)

    def _date_after(self, topic: str, name: str, clause: str, where: Location) -> None:
        """The first calendar date after the topic's word ('expires if not executed by
        2025-10-10'); a lead time ('10-12 weeks ARO') or a span is no date."""
        found = _words()["topics"][topic].search(fold(clause))
        if found is None:
            return
        rest = clause[found.start():]
        if re.search(r"\d", rest) is None:
            return
        parsed = V.parse_date(rest, dayfirst=self.dayfirst)
        if parsed.value is not None and parsed.latest == parsed.earliest:
            self.add(name, parsed.value, where, clause, IN_TEXT, "date read from a sentence")

    def _prose_network(self, clause: str, where: Location) -> None:
        dedicated = network_dedicated(clause)
        if dedicated is not None:
            self.add("network_dedicated", dedicated, where, clause, IN_TEXT,
                     "read from a sentence about the network")
        fabric = _fabric(clause)
        if fabric is not None:
            self.add("inter_node_fabric", fabric, where, clause, IN_TEXT)
        if re.search(r"\d\s*(?:[gt]bit|[gt]b/s|[gt]bps|gbe\b|g\b)", clause, re.I):
            bw = _bandwidth(without_prices(clause))  # a price's 'per GPU' is no network basis
            if bw is not None and not bw.was_bytes:
                self._bandwidth_fact(bw, where, clause, IN_TEXT)

    def _prose_storage(self, clause: str, where: Location) -> None:
        if _words()["topics"]["local_storage"].search(fold(clause)):
            return  # local disks are read as local_storage
        kind, others = _storage_kind(clause)
        if kind is not None and kind != "local_nvme":
            self.add("storage_type", kind, where, clause, IN_TEXT,
                     _join("read from a sentence about storage",
                           f"also mentions {', '.join(others)}" if others else None))
        read, write = read_write(clause)
        if read is not None:
            self.add("storage_read_gbyte_s", read, where, clause, IN_TEXT)
        if write is not None:
            self.add("storage_write_gbyte_s", write, where, clause, IN_TEXT)
        price = _STORAGE_PRICE_RE.search(clause)
        if price is not None:
            self._storage_price(price.group(0), clause, where)
            # "Lustre, 500 TiB, $0.14 per GiB per month": the size beside the price is the
            # capacity; the size in the price's basis is the unit priced.
            clause = f"{clause[:price.start()]} {clause[price.end():]}"
        if re.search(r"[$€£]|\b(?:usd|eur|gbp|chf)\b|\bper\s+(?:tb|gb)\b", clause, re.I):
            return  # a storage price: its size is the unit priced, not the capacity
        # "Lustre, 100 TB (scratch)": a shared file system's scratch space is no local disk
        local = clause if kind in (None, "local_nvme") else re.sub(r"\bscratch\b", " ", clause)
        if _LOCAL_DISK_RE.search(local) or not (
                (kind is not None and kind != "local_nvme") or _SHARED_FS_RE.search(clause)):
            return  # a node's own disks ("local instance storage: 8 x 3.84 TB NVMe") are not
            # the shared storage, and a size with no shared file system named is not either
        size = T.parse_size(clause)
        if size is not None and size.tb >= 1:
            self.add("storage_capacity_tb", size.tb, where, clause, IN_TEXT,
                     "capacity read from a sentence about storage")

    def _storage_price(self, amount: str, clause: str, where: Location) -> None:
        """'$0.14 per GiB per month', '25 € par To et par mois': a storage price per TB-month
        (per GB x 1,000; per GiB read as GB first), read as text."""
        try:
            money = V.parse_money(amount, currency=self.currency_hint)
            if money.per not in (("gb", "month"), ("tb", "month")):
                return
            scale = 1000.0 if money.per[0] == "gb" else 1.0
            self._usd("storage_usd_per_tb_month", V.Money(money.amount, money.currency,
                                                          ("tb", "month"), amount, money.notes),
                      where, clause, IN_TEXT, "storage price read from a sentence" + (
                          "; per GB x 1,000" if scale != 1.0 else ""), scale=scale)
        except (V.ValueParseError, V.ValueConversionError, KeyError):
            return

    def _prose_storage_speed(self, clause: str, where: Location) -> None:
        if "storage" in topics(clause):
            return  # read with the rest of the storage clause
        read, write = read_write(clause)
        if read is not None:
            self.add("storage_read_gbyte_s", read, where, clause, IN_TEXT)
        if write is not None:
            self.add("storage_write_gbyte_s", write, where, clause, IN_TEXT)

    def read_row_prose(self, cand: Candidate) -> None:
        """What a row states besides its value: a notes column ("Nätverk | InfiniBand |
        dedikerat för kunden"), and a label that is itself the fact when the value only
        says yes ("Almacenamiento Lustre 300 TB | incluido", "Kubernetes gestionado | sí")."""
        if cand.note and len(cand.note) <= MAX_PROSE_CHARS:
            self.read_prose(f"{cand.label}: {cand.note}", cand.where)
            if self.vocab.match(cand.label, cand.section) in _COUNT_SLOTS:
                # "Chips | 256 | 32 hosts × 8 chips": the note says how the count is made
                self._counts_in_text(cand.note, cand.where)
            elif "gpus_per_node" in (ratio := count_facts(cand.note)):
                # "Instance type | nw.b200.48xlarge | 8 x NVIDIA B200 per instance": what one
                # node holds is said beside any row; a total beside another row is not taken
                self.add("gpus_per_node", ratio["gpus_per_node"], cand.where, cand.note,
                         IN_TEXT, f"GPUs per node stated beside {cand.label!r}")
        if cand.shape_only and isinstance(cand.value, str) and "peak" in topics(cand.value):
            self._peak_by_shape(cand, cand.value)
        if isinstance(cand.value, str) and (is_notes_label(cand.label) or cand.shape_only or (
                len(cand.value.split()) >= 4) or self.vocab.match(cand.label, cand.section)
                is None) and \
                self.vocab.match(cand.label, cand.section) not in ("contract_text",
                                                                   "offer_name"):
            # (contract text is read by clause analysis, clause numbers and all)
            # "notes | root/sudo on all nodes"; "Orchestration | managed Kubernetes; root on
            # the VMs": a cell's other facts, below any labelled reading of them (the label
            # read with the value: "Per system | up to 72 PFLOPS" is not one GPU's).
            unknown = self.vocab.match(cand.label, cand.section) is None
            if unknown and self._service_period("term_months", cand,
                                                re.sub(r"\s*\([^()]*\)\s*$", "", cand.value)):
                return  # "Periodo di allocazione | 01/04/2026 – 31/03/2027 (12 mesi)"
            # (an unknown parameter's remark says what its value is: "Lager | 300 TiB |
            # WEKA, læs 180 GB/s" is one sentence about the storage)
            self.read_prose(f"{cand.label}: {cand.value}" + (
                f", {cand.note}" if unknown and cand.note and len(cand.note) <= 200 else ""),
                cand.where)
        if isinstance(cand.value, str) and self.vocab.match(cand.label, cand.section) == \
                "offer_name" and len(cand.value) <= MAX_PROSE_CHARS:
            # "Reserva 6 meses", "Dedizierter GPU-Cluster HGX H200, 12 Monate": a duration in
            # the offer's own name is its term (the name needs no word for "term")
            self._as_text(lambda t, w: self._prose_term(t, w, named=True), cand.value,
                          cand.where)
        if isinstance(cand.value, str) and len(cand.label.split()) >= 2 and \
                _says_yes(cand.value):
            self.read_prose(cand.label, cand.where)

    def _prose_term(self, clause: str, where: Location, named: bool = False) -> None:
        """'a minimum term of 9 months', 'Allocation period: 12 months (1 April 2027 -
        31 March 2028)', 'Reserva 6 meses': a duration in months or years in a clause
        about the term (never a notice period, a payment term or a lead time)."""
        if re.search(r"\b(?:payment|invoice\w*|notice|lead\s+time|warranty|amorti[sz]\w*|"
                     r"valid|renew\w*|extension|prolong\w*|verlängerung)\b", clause, re.I):
            return
        found = _words()["topics"]["term"].search(fold(clause))
        if found is None and not named:  # (an offer's name states its term without the word)
            return
        if found is None and re.search(r"buy[- ]?back|repurchase|purchase|\bkauf|\bachat|"
                                       r"\bcompra|\bacquisto|\bzakup|\bwarrant|\bgarantie",
                                       clause, re.I):
            return  # "HGX purchase with 24-month buy-back": that duration is not a term
        found_months = duration_months(words_to_digits(clause))  # every language's words
        if found_months is None:
            return
        months = found_months[0]
        if 1 <= months <= 120:
            self.add("term_months", float(months), where, clause, IN_TEXT,
                     "the term read from a sentence")

    def _prose_support(self, clause: str, where: Location) -> None:
        """'support is reachable 24/7 with a 2-hour response time': the response time (a
        "24/7" or "24x7" says when, not how fast)."""
        bare = re.sub(r"\b24\s*[x×/]\s*7\b|\b24\s*h\s*/\s*24\b", " ", clause)
        # "een beschikbaarheid van 99,5 % … en een reactietijd van 2 uur": the uptime beside
        # the response time is not part of it
        bare = re.sub(r"\d+(?:[.,]\d+)?\s*%", " ", bare)
        # "4-hour hardware swap, 30-minute response on P1 tickets": the part that names the
        # response, not the swap's hours before it
        parts = [p for p in re.split(r"[,;]\s+", bare) if _RESPONSE_RE.search(fold(p))]
        if len(parts) == 1 and re.search(r"\d", parts[0]):
            bare = parts[0]
        if not re.search(r"\d", bare) or re.search(r"[$€£]|\b(?:usd|eur|gbp)\b", bare, re.I):
            return
        if not _RESPONSE_RE.search(fold(bare)):
            return  # "3-year hardware support" is how long, not how fast
        try:
            hours = V.parse_duration(bare, "hours").value
        except V.ValueParseError:
            # "4時間以内に一次回答", "4시간 이내": hours in a script the parser does not read
            # ("9時〜18時" are the clock's hours, never a duration)
            said = _RESPONSE_RE.search(bare)  # the hours after the response word, not the
            # hardware swap's before it ("교체 4시간 이내, 기술지원 응답 1시간 이내")
            cjk = re.search(r"(\d+(?:[.,]\d+)?)\s*(?:時間|시간|小时|小時)",
                            bare[said.end() if said else 0:])
            if cjk is None:
                raise
            hours = float(cjk.group(1).replace(",", "."))
        self.add("support_response_hours", hours, where, clause, IN_TEXT,
                 "response time read from a sentence")

    def _prose_uptime(self, clause: str, where: Location) -> None:
        """'Availability SLA 99.9%', 'SLA de disponibilidade de 99,9%': the uptime promised,
        the first percentage from 90 to 100 (a credit or a share is never that high)."""
        for match in re.finditer(r"(?<![\d.,])(9\d(?:[.,]\d{1,3})?|100)\s*%", clause):
            value = float(match.group(1).replace(",", "."))
            if _BELOW_RE.search(fold(clause[max(0, match.start() - 25):match.start()])):
                continue  # "30% below 95.0%": a credit tier's threshold, not the promise
            if 90 <= value <= 100:
                self.add("sla_uptime_pct", value, where, clause, IN_TEXT,
                         "uptime read from a sentence")
                return

    def _prose_credit(self, clause: str, where: Location) -> None:
        if _DELAY_WORDS_RE.search(clause):
            return  # a late-delivery credit is not the service-level credit cap
        cap = capped_percent(clause)
        if cap is not None and 0 < cap <= 100:
            self.add("sla_max_credit_pct", cap, where, clause, IN_TEXT,
                     "credit cap read from a sentence")

    def _prose_commitment(self, clause: str, where: Location) -> None:
        """'Commitment: the full allocation value of EUR 1,600,000 is invoiced quarterly':
        an amount with no per-unit basis in a clause about the commitment."""
        found = _words()["topics"]["commitment"].search(fold(clause))
        if found is None or re.search(r"\d\s*%", clause):
            return  # "15% of total contract value" is a share, not the amount
        amount = re.search(r"(?:[$€£]|\b(?:USD|EUR|GBP|CHF|SEK|PLN|JPY)\b)\s?\d[\d,.\s]*\d"
                           r"(?:\s?(?:m|million|k)\b)?|\d[\d,.\s]*\d\s?(?:[$€£]|"
                           r"\b(?:USD|EUR|GBP|CHF|SEK|PLN|JPY)\b)", clause)
        if amount is None or re.match(r"\s*(?:per\b|/|an?\s+(?:hour|month))",
                                      clause[amount.end():], re.I):
            return  # a rate ("SEK 26,50 per GPU-hour for a committed term") is no commitment
        text, ambiguous = by_document_decimals(_money_text(amount.group(0)), self.decimal_comma)
        money = V.parse_money(text, currency=self.currency_hint)
        self._usd("min_commit_usd", V.Money(money.amount, money.currency, (), clause), where,
                  clause, IN_TEXT, "the committed amount read from a sentence")
        if ambiguous:
            self.note(where, "decimal-or-thousands-assumed", {"amount": amount.group(0)},
                      "min_commit_usd", clause)

    def _slot_storage_type(self, cand: Candidate, text: str) -> None:
        """'Managed Lustre, 500 TiB, $0.14 per GiB per month': the product, the capacity and
        the price in one phrase; the priced reading must not lose the product.  A node's own
        disks under a storage label ('Temp storage | 28 TB NVMe (8 x 3.5 TB)') are local
        NVMe per node, never the shared capacity; a rate ('250 MB/s per TiB') is no size."""
        bare = _RATE_RE.sub(" ", text)
        if bare != text and T.parse_size(bare) is None and _storage_kind(bare)[0] is None:
            return  # "Throughput tier | 250 MB/s per TiB provisioned": no capacity, no kind
        said = f"{cand.label} {text} {cand.note or ''}"
        kind = _storage_kind(said)[0]
        if kind in (None, "local_nvme") and _LOCAL_DISK_RE.search(said) and \
                not _SHARED_FS_RE.search(said):
            size = T.parse_size(text)
            if kind == "local_nvme":  # the offer's only storage may be the nodes' own
                self.add("storage_type", kind, cand.where, text, IN_TEXT)
            if size is not None:
                self.add("local_nvme_tb_per_node", size.tb, cand.where, text, IN_TEXT,
                         "a node's own disks under a storage label")
                self.note(cand.where, "node-disks-under-storage-label",
                          {"label": cand.label, "text": text[:60]},
                          "local_nvme_tb_per_node", text[:120],
                          "shared storage: a file system and its capacity")
            return
        super()._slot_storage_type(cand, text)
        kind, others = _storage_kind(text)
        if kind is not None and not any(f.where == cand.where
                                        for f in self.facts.get("storage_type", [])):
            self.add("storage_type", kind, cand.where, text, LABELLED,
                     f"also mentions {', '.join(others)}" if others else None)

    def _prose_system(self, clause: str, where: Location) -> None:
        # "Host: 2x EPYC 9654 (96c each), 2.3 TB RAM": the label before the colon is not
        # part of the description (its sockets count starts the text)
        clause = re.sub(r"^[^:\d]{1,40}:\s+(?=\d)", "", clause)
        if self.space_thousands:  # "2 048 GB DDR5" in a document that writes "27 256 320,00"
            clause = SPACE_GROUP_RE.sub(lambda m: re.sub(r"\s", "", m.group(0)), clause)
        for name, value in system_facts(clause).items():
            self.add(name, value, where, clause, IN_TEXT, "read from the system's description")
            if name == "cpu_cores_per_node" and (per_cpu := cores_taken_per_cpu(clause)):
                self.note(where, "cores-per-cpu-assumed", per_cpu, name, clause[:120])

    def _facts_in_system_text(self, where: Location, text: str, priority: int) -> None:
        """A description that names the accelerator also names the CPUs, memory and drives
        of the server ("HGX B200 8-GPU, 2x Xeon 6960P (72C), 2,048 GB DDR5, 8x 3.84 TB
        NVMe, 8x ConnectX-7 400G NDR")."""
        # A speed that is a GPU link's (NVLink), not the network's, names no network here.
        with contextlib.suppress(V.ValueParseError):
            super()._facts_in_system_text(where, text, priority)
        if len(text) <= MAX_PROSE_CHARS:
            self._facts_beside_the_accelerator(where, text)
        if "system" not in topics(text) or len(text) > MAX_PROSE_CHARS:
            return
        for clause in clauses(text):
            if "network" in topics(clause):
                self._as_text(self._prose_network, clause, where)
        self._prose_system(text, where)

    def _facts_beside_the_accelerator(self, where: Location, text: str) -> None:
        """'TPU v5p, 95 GB HBM2e per chip, 459 TFLOPS BF16 per chip': the peak per GPU (the
        label read with it: 'Per system | up to 72 PFLOPS' is not one GPU's)."""
        label = getattr(self, "_reading_label", "")
        for part in _parts_of(text):
            if "peak" in topics(part):
                self._as_text(self._prose_peak, f"{part} ({label})" if label else part, where)

    def _slot_accelerator(self, cand: Candidate, text: str) -> None:
        self._reading_label = cand.label
        try:
            super()._slot_accelerator(cand, text)
        finally:
            self._reading_label = ""

    def _prose_local_storage(self, clause: str, where: Location) -> None:
        self._quantity("local_nvme_tb_per_node",
                       Candidate("local NVMe per node", clause, where), clause, "capacity",
                       "TB")

    def _prose_orchestrator(self, clause: str, where: Location) -> None:
        found = orchestrator_named(clause)
        if found is not None:
            self.add("orchestrator", found, where, clause, IN_TEXT)

    def _prose_replacement(self, clause: str, where: Location) -> None:
        """'Failed compute tray swapped within 4 hours', '4-hour onsite hardware replacement',
        'binnen 72 uur te vervangen': the hours to replace failed hardware (never a response
        time, which is read as support)."""
        folded = fold(clause)
        response = _RESPONSE_RE.search(folded)
        if response is not None:
            swap = _words()["topics"]["replacement"].search(folded)
            if swap is None or swap.start() > response.start():
                return
            # "하드웨어 교체 4시간 이내, 기술지원 응답 1시간 이내": the swap's hours come
            # before the response word
            folded = folded[:response.start()]
        hours = _HOURS_RE.search(folded)
        if hours is not None:
            self.add("hw_replacement_hours", float(hours.group(1).replace(",", ".")), where,
                     clause, IN_TEXT, "replacement time read from a sentence")

    def _prose_region(self, clause: str, where: Location) -> None:
        """'data stays in Object Storage in region us-central2', 'in region East US 2': the
        cloud region a sentence names after the word region."""
        match = _REGION_IN_TEXT_RE.search(clause)
        if match is not None:
            self.add("region", (match.group(1) or match.group(2)).strip(), where, clause,
                     IN_TEXT, "region read from a sentence")

    def _prose_power(self, clause: str, where: Location) -> None:
        """'Estimated max power draw 10.4 kW per server at full load', 'Rated power per node:
        11.5 kW', 'Strømforbrug ca. 15 kW pr. server': a kW figure scoped to one node (never
        a rack's or a hall's, never a price per kWh)."""
        folded = fold(clause).lower()
        for match in re.finditer(r"(?<![\d.,])(\d{1,3}(?:[.,]\d{1,2})?)\s*kw\b(?!\s*h)", folded):
            after = _NODE_SCOPE_AFTER_RE.match(folded[match.end():])
            before = _NODE_SCOPE_BEFORE_RE.search(folded[:match.start()])
            if after or before:
                self.add("power_kw_per_node", float(match.group(1).replace(",", ".")), where,
                         clause, IN_TEXT, "power per node read from a sentence")
                return

    def _prose_egress(self, clause: str, where: Location) -> None:
        """'No charge for egress', 'Egress: free', 'kein Egress-Entgelt': data out at no
        charge, when the sentence states no amount (a price per GB is read as money)."""
        # "Internet egress: intra-region traffic free": the value says what is free
        if says_free_of_charge(clause) and not other_traffic(clause.split(": ", 1)[-1]):
            self.add("egress_usd_per_gb", 0.0, where, clause, IN_TEXT,
                     "egress at no charge, read from a sentence")

    def _prose_root(self, clause: str, where: Location) -> None:
        self.add("root_access", root_granted(clause), where, clause, IN_TEXT)

    def _prose_peak(self, clause: str, where: Location) -> None:
        if re.search(r"\b(?:per|each|je|par|por)\s+(?:node|server|system|rack|cluster)\b|"
                     r"\b(?:total|aggregate|cluster)\b", clause, re.I) and not re.search(
                         r"\bper\s+(?:gpu|chip|accelerator)\b", clause, re.I):
            return  # a node's or the cluster's FLOPS are not one GPU's
        match = re.search(T.NUMBER + r"\s*(?:p(?:eta)?flops|t(?:era)?flops|pflop/s|tflop/s)",
                          clause, re.I)
        if match is None:
            return
        sparse = _SPARSE_RE.search(clause[max(0, match.start() - 30):match.end() + 30])
        before = len(self.facts.get("claimed_peak_tflops_per_gpu", []))
        self._slot_claimed_peak_tflops_per_gpu(
            Candidate("peak per GPU", match.group(0), where), f"{match.group(0)} "
            f"{clause[match.end():match.end() + 40]}" + (" with sparsity" if sparse else ""))
        if sparse:
            # A figure "with sparsity" is the vendor's claim only when no dense figure is
            # stated: below any other reading of the peak (the sparse note flags it).
            for fact in self.facts.get("claimed_peak_tflops_per_gpu", [])[before:]:
                fact.priority = DERIVED

    def _prose_gpu_link(self, clause: str, where: Location) -> None:
        """'NVLink 900 GB/s per GPU': the speed right after the link's name."""
        link = _words()["topics"]["gpu_link"].search(fold(clause))
        if link is None:
            return
        window = clause[link.start():link.start() + 60]
        match = re.search(T.NUMBER + r"\s*(tb/s|gb/s)(?!\s*per\s+node)", window, re.I)
        if match is None:
            return
        value = T.to_number(match.group(1)) * (1000.0 if match.group(2).lower()[0] == "t"
                                                else 1.0)
        self.add("intra_node_gbyte_s_per_gpu", value, where, clause, IN_TEXT,
                 "GPU-to-GPU link speed read from a sentence")


# A price in a storage sentence: an amount with its currency and its "per ..." basis.
_CURRENCY = r"(?:[$€£¥]|\b(?:USD|EUR|GBP|CHF|SEK|NOK|DKK|PLN|CZK|JPY)\b)"
_STORAGE_PRICE_RE = re.compile(
    r"(?:" + _CURRENCY + r"\s?\d[\d.,]*|\d[\d.,]*\s?" + _CURRENCY + r")\s*(?:(?:per|pro|par|por|je|"
    r"na|à|/)\s*[^,;()]{1,40})?", re.I)
# A number of hours in any of the quote languages ("4-hour", "72 uur", "8 Stunden", "4時間").
_COUNT_SLOTS = frozenset({"gpu_count", "node_count", "gpus_per_node"})
# "in region us-central2", "region East US 2", "Region: westeurope": a cloud region's code
# (letters, a dash, a digit) or up to three capitalised words with an optional number.
_REGION_IN_TEXT_RE = re.compile(
    r"(?:\b(?i:region|regi[oó]n|regi[aã]o|regione)\s*:?\s+|\bin\s+(?=[a-z]{2,}(?:-[a-z]+)+\d))"
    r"((?:[a-z]{2,}(?:-[a-z]+)+\d{1,2}[a-z]?)|[a-z]{4,}\d{1,2})(?=[\s.,;)]|$)"
    # a name only in a sentence's own words: "in region East US 2" (never "Region: Tier III")
    r"|\bin\s+(?:the\s+)?(?i:region)\s+([A-Z][A-Za-z]*(?:\s+(?:[A-Z][A-Za-z]*|\d{1,2})){0,3})"
    r"(?=[\s.,;)]|$)")
# One node as the scope of a figure: "per server", "pr. server", "je Knoten", "par serveur".
_NODE_WORDS = (r"(?:node|server|system|host|machine|knoten|serveur|servidor|serwer|nodo|noeud|"
               r"uzel|maskin|instance|vm)")
_NODE_SCOPE_AFTER_RE = re.compile(r"\s*(?:per|pr\.?|je|pro|par|por|na|/|each|a)\s*(?:each\s+)?"
                                  + _NODE_WORDS + r"\b")
_NODE_SCOPE_BEFORE_RE = re.compile(r"\b(?:per|pr\.?|je|pro|par|por|na)\s*" + _NODE_WORDS +
                                   r"\b[^.;\d]{0,25}$")
_HOURS_RE = re.compile(r"(?<![\d.,])(\d{1,3}(?:[.,]\d)?)\s*-?\s*(?:hours?|hrs?|h|uur|stunden?|std|"
                       r"heures?|horas?|ore|godzin\w*|timmar|timer|hodin\w*|tuntia|時間|시간|小时|"
                       r"小時|saat|óra)(?![a-z])",
                       re.I)

