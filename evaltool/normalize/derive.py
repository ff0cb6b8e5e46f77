"""Derived fields and checks over resolved values (counts, bandwidths, catalog memory
and sparse peaks, prices per GPU-hour, add-ons, purchase economics, offer kind), each
recording how it was computed."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from evaltool.catalog import (
    RecognisedAccelerator,
    UnknownAcceleratorError,
    load_catalog,
    recognise_accelerator,
)
from evaltool.errors import EvaltoolError, Location, Problem
from evaltool.grammar.accelerators import names_an_accelerator
from evaltool.grammar.basis import once_re
from evaltool.grammar.textcache import by_text
from evaltool.models import (
    HOURS_PER_MONTH,
    FieldSource,
)
from evaltool.normalize import values as V
from evaltool.normalize.accelerator_variant import stated_variant
from evaltool.normalize.all_upfront import settle_upfront
from evaltool.normalize.builder import Builder
from evaltool.normalize.facts import _MEMORY_TOL, IN_TEXT, Fact, _close, _join, _Priced
from evaltool.normalize.paid_price import keep_tier_price, settle_stated_discount
from evaltool.normalize.per_node import gpus_per_node_in_document
from evaltool.normalize.rack_power import power_units
from evaltool.normalize.shapes import gpus_per_rack_in_name
from evaltool.normalize.unit_counts import gpus_per_unit
from evaltool.normalize.upfront import apply_amortised_price
from evaltool.read.cells import cell_text


@by_text(4096)  # a batch's quotes name the same accelerators in the same words
def _recognised(text: str, memory_gb: float | None) -> RecognisedAccelerator:
    """`recognise_accelerator` (a frozen result) for the text and memory, once each."""
    return recognise_accelerator(text, memory_gb)


# GPUs a single server commonly carries (an HGX/OAM board of 4 or 8): a GPU count of exactly
# this beside several nodes may be one node's (plausibility.yaml gpus_per_node).
_ONE_NODE_SHAPES = (4, 8)

class Derive:
    """Derived fields and checks over resolved values, recording how each was computed."""

    def __init__(self, b: Builder, values: dict[str, Any],
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
        (code `derivation-failed`); whether the offer survives is for the required fields."""
        for step in (self.accelerator, self.counts, self.unit_counts, self.bandwidth,
                     self.catalog_checks,
                     self.tier_price, self.prices, self.stated_discount,
                     self.kind_and_currency,
                     self.all_upfront,
                     self.money_in_assumed_currency, self.ownership, self.upfront_in_price):
            try:
                step()
            except V.MissingFxRate:
                raise
            except (EvaltoolError, ArithmeticError, ValueError) as exc:
                self.b.problems.append(Problem(
                    self.where, found=type(exc).__name__, severity="warning",
                    code="derivation-failed",
                    params={"step": step.__name__.replace("_", " "), "reason": str(exc)}))

    def tier_price(self) -> None:
        """Of a line's price tiers, the one that holds the offer's count (paid_price.py)."""
        keep_tier_price(self.b, self.v)

    def stated_discount(self) -> None:
        """'Descuento por volumen | 10%' applied to the list price it names, or said
        (normalize/paid_price.py)."""
        compute = [p for p in self.b.priced if p.role == "compute"]
        settle_stated_discount(self.v, self.p, self.b, compute)

    def all_upfront(self) -> None:
        """A per-instance upfront times the instances; an all-upfront option's price is the
        upfront spread over the term (normalize/all_upfront.py)."""
        settle_upfront(self.v, self.p, self.b, self.where)

    def upfront_in_price(self) -> None:
        """An upfront on top of the recurring rate (the offer's total says so): spread over
        the term into the effective price (normalize/upfront.py)."""
        if apply_amortised_price(self.v, self.p):
            self.b.note(self.where, "upfront-amortised",
                        {"note": self.p["price_usd_per_gpu_hour"].note or ""},
                        "price_usd_per_gpu_hour", severity="info")

    def accelerator(self) -> None:
        text = self.v.pop("accelerator_text", None)
        prov = self.p.pop("accelerator_text", None)
        if text is None:
            return

        hints = " ".join(self.b.accelerator_hints)
        note = prov.note if prov else None
        full = " ".join(x for x in (text, hints, note or "") if x)
        try:
            found = _recognised(full, self.v.get("gpu_memory_gb"))
        except UnknownAcceleratorError as exc:
            where = Location(**prov.where) if prov else self.where
            hint = f"; closest catalog ids: {', '.join(exc.closest)}" if exc.closest else ""
            self.b.unreadable["accelerator"] = Problem(
                where, field="accelerator", found=text,
                expected="an accelerator in the catalog (`evaltool accelerators`)",
                code="accelerator-unknown", params={"text": exc.text, "closest_hint": hint})
            return
        assert prov is not None
        if found.note and (stated := stated_variant(found.id, [
                (c.value, c.where) for c in self.b.record.candidates],
                lambda t: _recognised(t, None))):
            found, text, at = stated  # "gpu-a100" beside "8 × NVIDIA A100-SXM4-40GB"
            prov = prov.model_copy(update={"where": at.to_dict()})
        self.v["accelerator"] = found.id
        self.p["accelerator"] = FieldSource(where=prov.where, raw=text, note=_join(
            f"recognised as {found.id} (matched {found.matched!r})", found.note))
        if found.note:
            self.b.assumed("accelerator", Location(**prov.where), text, found.note)

    def gpus_per_rack(self) -> int | None:
        """GPUs in one rack of a rack-scale system: stated, racks over GPUs, or the system's
        name (NVL72 = 72 GPUs in one NVLink domain, one rack)."""
        per = self.v.get("gpus_per_rack")
        racks, gpus = self.v.get("rack_count"), self.v.get("gpu_count")
        if not per and racks and gpus and gpus % racks == 0:
            per = gpus // racks
        if not per:
            per = gpus_per_rack_in_name(" ".join(
                str(self.p[k].raw) for k in ("accelerator",) if k in self.p))
        return int(per) if per else None

    def counts(self) -> None:
        racks, per_rack = self.v.get("rack_count"), self.v.get("gpus_per_rack")
        if self.v.get("gpu_count") is None and racks and per_rack:
            self.set("gpu_count", racks * per_rack, ["rack_count", "gpus_per_rack"],
                     f"{racks} racks x {per_rack} GPUs per rack")
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
            if nodes > 1 and gpus in _ONE_NODE_SHAPES:  # "GPUs | 8" beside "Servers | 4"
                self._maybe_one_node(gpus, nodes)
        elif per is None and gpus is not None and nodes is not None and nodes > 1:
            self._maybe_one_node(gpus, nodes)  # 8 GPUs over 6 servers: not evenly
        elif gpus is not None and nodes is not None and per is not None and gpus != nodes * per:
            where = Location(**self.p["gpu_count"].where)
            if nodes > 1 and (gpus == per or gpus < nodes):
                # "GPUs | 8 x H100" beside "Instances | 64": a count no larger than one node's
                # (or below the node count) counts the GPUs of one node, not of the offer.
                self.b.note(where, "gpu-count-of-one-node",
                            {"gpus": gpus, "nodes": nodes, "per": per, "total": nodes * per},
                            "gpu_count", str(gpus), str(nodes * per))
                self.set("gpu_count", nodes * per, ["node_count", "gpus_per_node"],
                         self.b.problems[-1].message)
                return
            self.b.note(where, "count-mismatch",
                        {"gpus": gpus, "nodes": nodes, "per": per, "total": nodes * per},
                        "gpu_count", str(gpus), str(nodes * per))
            self.b.flag("count_mismatch", "medium", self.b.problems[-1].message, where, str(gpus),
                        ask_for="one consistent GPU and node count")

    def _maybe_one_node(self, gpus: int, nodes: int) -> None:
        """A GPU count that one server commonly holds (or that does not divide over the
        nodes) beside a node count, with nothing stating GPUs per node: it may count the
        offer's GPUs or one node's.  Kept, and said (never silently)."""
        where = Location(**self.p["gpu_count"].where)
        self.b.note(where, "gpu-count-may-be-one-node",
                    {"gpus": gpus, "nodes": nodes, "total": gpus * nodes}, "gpu_count",
                    str(gpus), "the total number of GPUs and the GPUs per node")

    def unit_counts(self) -> None:
        """A per-node price, or no GPU count, with no GPUs-per-node field: the GPUs of one
        node as a phrase of the offer states them ("16 x 8-GPU servers", "24 instancias de
        2 x L40S"), with a warning; never against a count the offer states otherwise."""
        per_node = any("node" in p.money.per for p in self.b.priced
                       if p.role in ("compute", "all_in"))
        gpn = self.v.get("gpus_per_node")
        if not ((per_node and not gpn) or self.v.get("gpu_count") is None):
            return
        record = self.b.record
        texts = [cell_text(c.value) for c in record.candidates if isinstance(c.value, str)]
        texts += [t for t, _ in (*record.notes, *record.banners)]
        texts += [item.description for item in record.line_items]
        found = gpus_per_unit(texts) or self._per_node_in_document(texts)
        if found is None:
            return
        per, nodes, phrase = found
        gpus, stated_nodes = self.v.get("gpu_count"), self.v.get("node_count")
        nodes = stated_nodes or nodes
        if (gpus and (gpus % per or (nodes and gpus != nodes * per))) or (
                stated_nodes and found[1] and stated_nodes != found[1]) or (gpn and gpn != per):
            return  # the phrase disagrees with the offer's own counts
        if not gpn:
            why = f"{per} GPUs per node read from {phrase[:80]!r}"
            self.set("gpus_per_node", per, [], why)
            self.b.note(self.where, "gpus-per-node-from-text", {"per": per, "phrase": phrase[:80]},
                        "gpus_per_node", phrase[:120])
        if stated_nodes is None and nodes:
            self.set("node_count", nodes, [], f"{nodes} nodes read from {phrase[:80]!r}")
            self.b.note(self.where, "node-count-from-text", {"nodes": nodes, "phrase": phrase[:80]},
                        "node_count", phrase[:120])
        if gpus is None and nodes:
            self.set("gpu_count", nodes * per, ["node_count", "gpus_per_node"],
                     f"{nodes} nodes x {per} GPUs per node")
            self.b.note(self.where, "gpu-count-from-text",
                        {"nodes": nodes, "per": per, "phrase": phrase[:80]}, "gpu_count",
                        phrase[:120])
        if self.v.get("node_count") is None and self.v.get("gpu_count") is not None:
            self.counts()  # the nodes: the offer's GPUs over the GPUs per node just read

    def _per_node_in_document(self, texts: list[str]) -> tuple[int, None, str] | None:
        """GPUs per node stated once anywhere in the document (normalize/per_node.py);
        phrases that disagree leave it out, and say so."""
        found = gpus_per_node_in_document(texts, self.v.get("gpu_memory_gb"))
        if found is None:
            return None
        if found.per is None:
            self.b.note(self.where, "gpus-per-node-disagree",
                        {"values": ", ".join(map(str, found.disagreeing)),
                         "phrases": found.phrase}, "gpus_per_node", found.phrase)
            return None
        return found.per, None, found.phrase

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
                self.b.note(where, "bandwidth-per-gpu-per-node-disagree",
                            {"per_gpu": per_gpu, "gpus_per_node": gpn, "per_node": per_node},
                            "inter_node_gbit_s_per_gpu")

    def catalog_checks(self) -> None:
        acc_id = self.v.get("accelerator")
        if acc_id is None:
            return

        acc = load_catalog().get(acc_id)
        memory = self.v.get("gpu_memory_gb")
        if memory is None:
            self.set("gpu_memory_gb", float(acc.memory_gb), ["accelerator"],
                     f"catalog memory of {acc_id}; the offer does not state it")
        elif not _close(memory, acc.memory_gb, _MEMORY_TOL) and not _close(
                memory * 1.073741824, acc.memory_gb, _MEMORY_TOL):
            where = Location(**self.p["gpu_memory_gb"].where)
            self.b.note(where, "memory-unlike-catalog",
                        {"memory": memory, "catalog_gb": acc.memory_gb, "accelerator": acc_id},
                        "gpu_memory_gb", str(memory), f"{acc.memory_gb:g}")
            message = self.b.problems[-1].message
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
                self.b.note(where, "sparse-peak-claimed",
                            {"tflops": tflops, "accelerator": acc_id,
                             "precision": sparse.upper(), "dense": dense},
                            "claimed_peak_tflops_per_gpu", str(tflops), f"{dense:g} (dense)")
                why = self.b.problems[-1].message
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
        compute.sort(key=lambda p: (-p.priority, -p.paid))  # net beats list (paid_price.py)
        if compute:
            first = compute[0]
            try:
                price = V.price_per_gpu_hour(first.money, gpn, HOURS_PER_MONTH, gpus,
                                             self.v.get("term_months"), fx_rates=b.fx,
                                             gpus_per_rack=self.gpus_per_rack())
            except V.MissingFxRate as exc:
                b.unreadable["price_usd_per_gpu_hour"] = exc.to_problem(
                    first.where, "price_usd_per_gpu_hour")
                return
            except V.ValueConversionError as exc:
                # e.g. a per-node price without GPUs per node: the price cannot be derived
                # without a guess, so it is reported unreadable (it is required).
                b.unreadable["price_usd_per_gpu_hour"] = exc.to_problem(
                    first.where, "price_usd_per_gpu_hour")
                self._purchase_despite(first)
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
                                               self.v.get("term_months"), fx_rates=b.fx,
                                               gpus_per_rack=self.gpus_per_rack())
                except EvaltoolError:
                    continue
                if not _close(alt.value, price.value):
                    b.note(other.where, "second-compute-price",
                           {"alt": alt.value, "first": str(first.where), "price": price.value},
                           "price_usd_per_gpu_hour", other.raw)
        self.yearly_commitment()
        self.monthly_addons()
        self.purchase()

    def _purchase_despite(self, unread: _Priced) -> None:
        """Hardware bought (capex lines or a capex) beside a figure that reads as a compute
        price but has no basis: the purchase rule prices the offer; the figure is said."""
        if self.v.get("capex_usd") is None and not any(
                p.role == "capex_line" for p in self.b.priced):
            return
        self.purchase()
        if self.v.get("price_usd_per_gpu_hour") is not None:
            problem = self.b.unreadable.pop("price_usd_per_gpu_hour")
            self.b.problems.append(replace(problem, severity="warning"))

    def yearly_commitment(self) -> None:
        """A commitment per year over a term of years: the minimum commitment of the term."""
        yearly = [p for p in self.b.priced if p.role == "commit_year"]
        months = self.v.get("term_months")
        if not yearly or self.v.get("min_commit_usd") is not None or not months:
            return
        usd = self.money(yearly[0])
        self.set("min_commit_usd", usd * months / 12.0, ["term_months"],
                 f"{usd:,.2f} USD per year x {months:g} months / 12", yearly[0].where)

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
        elif any(p.role == "support_month" for p in b.priced):  # a stated 0 stays 0
            first = next(p for p in b.priced if p.role == "support_month")
            self.v["support_usd_per_month"] = support
            self.p["support_usd_per_month"] = FieldSource(where=first.where.to_dict(),
                                                          raw=first.raw, note=first.note)
        if support:
            extra_usd_month += support
            parts.append(f"support {support:,.0f} USD/month")
            sources.append("support_usd_per_month")
        network = sum(self.money(p) for p in b.priced if p.role == "network_month")
        if any(p.role == "network_month" for p in b.priced):  # a stated 0 stays 0
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
        # The price per GPU-hour is the quoted rate (all-in only where the offer says so).
        # Separately priced storage, support and network stay in their own fields and the
        # money model (estimate/costs.py) adds each once; folding them in here as well would
        # count them twice and hide what the vendor actually quoted.
        if b.all_in_note is not None or all_in:
            note = "the vendor states the price is all-in"
        elif extra_usd_month:
            note = (f"the quoted rate; separately priced {', '.join(parts)} stay in their own "
                    "fields and are added by the cost model")
        else:
            note = "no separately priced storage, support or network"
        self.v["price_usd_per_gpu_hour"] = compute
        self.p["price_usd_per_gpu_hour"] = FieldSource(
            where=self.p["compute_price_usd_per_gpu_hour"].where,
            raw=self.p["compute_price_usd_per_gpu_hour"].raw,
            derived_from=["compute_price_usd_per_gpu_hour", *sources], note=note)

    def purchase(self) -> None:
        b = self.b
        lines = [p for p in b.priced if p.role == "capex_line"]
        line_sum = sum(self.money(p) for p in lines) if lines else None
        capex = self.v.get("capex_usd")
        if capex is None and line_sum is not None and self._quote_total(line_sum) is not None:
            total, fact = self._quote_total(line_sum)  # type: ignore[misc]
            self.set("capex_usd", total, [], "the quote's own total before tax (after its "
                     f"discounts); the line items sum to {line_sum:,.0f} USD", fact.where)
            self.p["capex_usd"] = FieldSource(where=fact.where.to_dict(), raw=fact.raw[:500],
                                              note=self.p["capex_usd"].note)
            capex = total
        # Hardware lines amortised over a stated period: a purchase even where the vendor
        # states its own cost per GPU-hour beside them (a TCO sheet); that figure is checked
        # against the purchase rule below, not used as a rental rate.
        bought = line_sum is not None and self.v.get("amortization_months") is not None
        if line_sum is not None and not bought and capex is None and self.v.get(
                "compute_price_usd_per_gpu_hour") is not None and self.v.get(
                "offer_kind") != "purchase" and self.v.get("upfront_usd") is None \
                and all(not names_an_accelerator(p.raw) and once_re().search(p.raw)
                        for p in lines if self.money(p) or not line_sum):
            # (a setup line at 0, "waived", is an upfront of nothing, said as such)
            # A rental's one-off lines ("Einrichtung (einmalig)", "Installation fee"): paid
            # once at the start, not hardware bought.
            self.set("upfront_usd", line_sum, [], "the rental's one-off lines (setup, "
                     f"installation): {', '.join(f'{self.money(p):,.0f}' for p in lines)} USD",
                     lines[0].where)
            return
        if capex is None and line_sum is not None and (
                self.v.get("offer_kind") == "purchase" or bought or self.v.get(
                    "compute_price_usd_per_gpu_hour") is None):
            self.set("capex_usd", line_sum, [], "sum of the quote's line items (quantity x unit "
                     f"price): {', '.join(f'{self.money(p):,.0f}' for p in lines)}",
                     lines[0].where)
            capex = line_sum
        elif capex is not None and line_sum is not None and not _close(capex, line_sum, 0.001):
            where = Location(**self.p["capex_usd"].where)
            b.note(where, "figures-disagree",
                   {"capex": capex, "line_sum": line_sum, "difference": line_sum - capex},
                   "capex_usd", f"{capex:,.0f}", f"{line_sum:,.0f}")
            b.flag("total_mismatch", "medium", b.problems[-1].message, where,
                   self.p["capex_usd"].raw, ask_for="a quote whose total matches its lines")
        if capex is None:
            return
        if self.v.get("offer_kind") == "rent" and self.v.get(
                "compute_price_usd_per_gpu_hour") is None:
            # "for comparison with cloud rental" in a title is not a rental: a capex and no
            # rate make a purchase. The two readings disagree, so say so.
            source = self.p.get("offer_kind")
            where = Location(**source.where) if source else self.where
            b.note(where, "rental-with-purchase-price", {}, "offer_kind",
                   source.raw if source else None, "purchase")
            self.set("offer_kind", "purchase", ["capex_usd"], "a capex figure and no rental "
                     "rate make it a purchase")
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
            # The effective price rests on that assumption: it carries the warning too.
            b.note(where, "price-over-assumed-months", {"months": months},
                   "price_usd_per_gpu_hour")
        kw, nodes, units = power_units(self.v)  # a rack's power counts once per rack
        kw_used = ["power_kw_per_rack", "rack_count"] if units == "racks" else [
            "power_kw_per_node", "node_count"]
        parts = [f"capex {capex:,.0f} / {months:g} months"]
        monthly = capex / months
        used = ["capex_usd", "amortization_months"]
        colo = self.v.get("colocation_usd_per_kw_month")
        kwh = self.v.get("power_usd_per_kwh")
        hosting = [p for p in b.priced if p.role == "colocation_month"]
        if hosting:  # colocation as contracted on the quote's monthly lines
            power = sum(self.money(p) for p in hosting)
            monthly += power
            parts.append(f"colocation {power:,.0f} USD/month as contracted ("
                         f"{', '.join(p.note or '' for p in hosting)})")
            used += ["colocation_usd_per_kw_month"] if colo is not None else []
        elif kw and nodes and colo is not None:
            power = kw * nodes * colo
            monthly += power
            parts.append(f"colocation {kw:g} kW x {nodes:g} {units} x {colo:g} USD/kW-month")
            used += [*kw_used, "colocation_usd_per_kw_month"]
        elif kw and nodes and kwh is not None:
            power = kw * nodes * HOURS_PER_MONTH * kwh
            monthly += power
            parts.append(f"power {kw:g} kW x {nodes:g} {units} x {HOURS_PER_MONTH} h x "
                         f"{kwh:g} USD/kWh")
            used += [*kw_used, "power_usd_per_kwh"]
        else:
            b.note(self.where, "purchase-without-running-cost", {}, "price_usd_per_gpu_hour")
        opex = self.v.get("opex_usd_per_month")
        services = [p for p in b.priced if p.role == "opex_month"]
        service_sum = sum(self.money(p) for p in services)
        if opex is not None and hosting and _close(
                opex, service_sum + sum(self.money(p) for p in hosting), 0.01):
            # "Hébergement et services / mois" = the colocation lines + the service lines: the
            # hosting is counted from its lines, so only the services remain opex.
            source = self.p.get("opex_usd_per_month")
            b.note(Location(**source.where) if source else self.where,
                   "opex-holds-colocation", {"opex": opex, "services": service_sum},
                   "opex_usd_per_month", source.raw if source else None,
                   f"{service_sum:,.0f}")
            opex = None
        if opex is None and services:
            opex = sum(self.money(p) for p in services)
            self.set("opex_usd_per_month", opex, [], "the quote's monthly service lines: "
                     f"{', '.join(f'{self.money(p):,.0f}' for p in services)} USD",
                     services[0].where)
        if opex and not hosting and "colocation_usd_per_kw_month" not in used \
                and "power_usd_per_kwh" not in used:
            source = self.p.get("opex_usd_per_month")
            b.note(Location(**source.where) if source else self.where,
                   "costs-combined", {}, "opex_usd_per_month",
                   source.raw if source else None)
        if opex:
            monthly += opex
            parts.append(f"opex {opex:,.0f} USD/month")
            used.append("opex_usd_per_month")
        effective = monthly / (gpus * HOURS_PER_MONTH)
        stated = self.v.get("compute_price_usd_per_gpu_hour")
        if stated is not None and not _close(stated, effective, 0.02):
            source = self.p.get("compute_price_usd_per_gpu_hour")
            b.note(Location(**source.where) if source else self.where,
                   "stated-price-unlike-purchase", {"stated": stated, "effective": effective},
                   "price_usd_per_gpu_hour", source.raw if source else None, f"{effective:.4g}")
        self.set("price_usd_per_gpu_hour", effective, [*used, "gpu_count"],
                 f"purchase: ({' + '.join(parts)}) / ({gpus} GPUs x {HOURS_PER_MONTH} h) = "
                 f"{effective:.4g} USD per GPU-hour (PRODUCT.md purchase rule)")
        if self.v.get("offer_kind") is None:
            self.set("offer_kind", "purchase", ["capex_usd"], "a capex figure makes it a "
                     "purchase")

    def _quote_total(self, line_sum: float) -> tuple[float, Fact] | None:
        """The lowest total before tax the quote states that its lines can explain: equal
        to their sum, or below it by a discount (a subtotal before the discount is higher,
        a total with tax is never labelled a total before tax)."""
        totals = [f for f in self.b.facts.get("quote_total", [])
                  if isinstance(f.value, (int, float)) and 0.5 * line_sum <= f.value
                  <= line_sum * 1.001]
        if not totals:
            return None
        best = min(totals, key=lambda f: f.value)
        return float(best.value), best

    def kind_and_currency(self) -> None:
        bought = self.v.get("amortization_months") is not None and any(
            p.role == "capex_line" for p in self.b.priced)
        if self.v.get("offer_kind") is None and bought:
            # Hardware lines amortised over a stated period, with hosting: a purchase, whose
            # monthly equivalent the vendor states ("Coût mensuel équivalent"), not a rental.
            self.set("offer_kind", "purchase", ["amortization_months"],
                     "hardware lines and a stated amortisation period make it a purchase")
        elif self.v.get("offer_kind") is None and self.v.get(
                "price_usd_per_gpu_hour") is not None:
            self.set("offer_kind", "rent", ["price_usd_per_gpu_hour"],
                     "priced per GPU-hour with no purchase terms: a rental")
        if self.v.get("currency") is None:
            currencies = sorted({p.money.currency for p in self.b.priced})
            if len(currencies) == 1:
                first = self.b.priced[0]
                self.set("currency", currencies[0], [], "currency of the offer's prices",
                         first.where)

    def money_in_assumed_currency(self) -> None:
        """No currency was stated for an amount and USD was assumed: every amount in USD
        rests on that assumption, so each carries the warning, not only the currency field
        (a quote in EUR or SEK read as USD is otherwise silently wrong by the FX rate)."""
        assumed = [p for p in self.b.problems
                   if p.code == "assumed-value" and p.field == "currency"]
        if not assumed:
            return
        for name in sorted(self.v):
            if "usd" in name and name != "currency" and self.v[name] is not None:
                self.b.note(assumed[0].where or self.where, "amount-in-assumed-usd", {}, name)

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
                self.b.note(self.where, "implied-by-purchase", {"why": why}, name)

