"""The plausibility and consistency guard: the general defence against silently wrong values
on layouts nobody has seen.

After an offer is read and derived, every field is checked against the accelerator catalog
and against physical and market ranges (evaltool/data/plausibility.yaml, each range citing
its public source). A value read at low confidence (from prose, a description, a note or by
its shape) that contradicts the catalog, a range or the offer's labelled values is dropped
with the warning `implausible-value-dropped`: missing is asked for, wrong is silently priced.
A labelled value that is implausible is kept with the warning `implausible-value`.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable
from typing import Any

from evaltool.catalog import Accelerator, load_catalog, public_price_reference
from evaltool.errors import EvaltoolError, Location
from evaltool.models import FieldSource
from evaltool.normalize.facts import IN_TEXT, LABELLED
from evaltool.normalize.slots import SlotReaders
from evaltool.resources import data_dir

_PRICE_FIELDS = ("compute_price_usd_per_gpu_hour", "price_usd_per_gpu_hour")


@functools.lru_cache(maxsize=1)
def plausibility_rules() -> dict[str, Any]:
    """The ranges of evaltool/data/plausibility.yaml."""
    import yaml

    raw = yaml.safe_load((data_dir() / "plausibility.yaml").read_text(encoding="utf-8"))
    return dict(raw)


class Plausibility:
    """Check one offer's resolved and derived values; drop or warn as the module says."""

    def __init__(self, b: SlotReaders, values: dict[str, Any],
                 provenance: dict[str, FieldSource],
                 today: Callable[[], dt.date] = dt.date.today) -> None:
        self.b = b
        self.v = values
        self.p = provenance
        self.rules = plausibility_rules()
        self.today = today
        self.where = Location(str(b.record.source.get("file", "")),
                              sheet=b.record.source.get("sheet"))

    # --- confidence ------------------------------------------------------------------
    def confidence(self, name: str, depth: int = 0) -> int:
        """LABELLED, TABLE, IN_TEXT or DERIVED: how the value now in `name` was read."""
        facts = self.b.facts.get(name)
        prov = self.p.get(name)
        if facts and prov is not None and prov.raw is not None:
            return max(f.priority for f in facts)
        if name in _PRICE_FIELDS:
            compute = [p.priority for p in self.b.priced if p.role in ("compute", "all_in")]
            if compute:
                return max(compute)
        if prov is not None and prov.derived_from and depth < 4:
            known = [self.confidence(x, depth + 1) for x in prov.derived_from
                     if x in self.v or x in self.b.facts]
            if known:
                return min(known)
        if facts:
            return max(f.priority for f in facts)
        return LABELLED

    def low(self, name: str) -> bool:
        return self.confidence(name) <= IN_TEXT

    # --- outcomes --------------------------------------------------------------------
    def _at(self, name: str) -> Location:
        prov = self.p.get(name)
        return Location(**prov.where) if prov is not None else self.where

    def judge(self, name: str, why: str, expected: str) -> None:
        """Drop a low-confidence value (and what was derived from it); warn on a labelled one."""
        value = self.v.get(name)
        where = self._at(name)
        raw = self.p[name].raw if name in self.p and self.p[name].raw else repr(value)
        prov = self.p.get(name)
        derived = prov is not None and prov.raw is None and bool(prov.derived_from)
        if self.low(name) or derived:  # a product of other readings is no vendor statement
            self.drop(name)
            self.b.note(where, "implausible-value-dropped",
                        {"field": name, "value": repr(value), "reason": why}, name,
                        str(raw)[:120], expected)
        else:
            self.b.note(where, "implausible-value",
                        {"field": name, "value": repr(value), "reason": why}, name,
                        str(raw)[:120], expected)

    def drop(self, name: str) -> None:
        self.v.pop(name, None)
        self.p.pop(name, None)
        for other, prov in list(self.p.items()):  # values computed from it go with it
            if prov.raw is None and prov.derived_from and name in prov.derived_from:
                self.drop(other)

    # --- rules -----------------------------------------------------------------------
    def run(self) -> None:
        for rule in (self.counts, self.gpus_per_node, self.fabric, self.ranges, self.memory,
                     self.peak, self.gpu_link, self.price, self.dates):
            try:
                rule()
            except (EvaltoolError, ArithmeticError, ValueError, TypeError) as exc:
                self.b.note(self.where, "plausibility-check-not-run",
                            {"check": rule.__name__, "reason": str(exc)}, None,
                            type(exc).__name__)

    def counts(self) -> None:
        """gpu_count = node_count x gpus_per_node: the lowest-confidence of the three, when
        below the other two, gives way to them."""
        gpus, nodes, per = (self.v.get(k) for k in ("gpu_count", "node_count", "gpus_per_node"))
        if not (isinstance(gpus, (int, float)) and isinstance(nodes, (int, float))
                and isinstance(per, (int, float))) or gpus == nodes * per:
            return
        conf = {k: self.confidence(k) for k in ("gpu_count", "node_count", "gpus_per_node")}
        weakest = min(conf, key=lambda k: conf[k])
        if any(conf[k] <= conf[weakest] for k in conf if k != weakest):
            return  # no single weakest reading: the count-mismatch warning stands
        if weakest == "gpu_count":
            fixed: float = nodes * per
        elif weakest == "node_count" and per and gpus % per == 0:
            fixed = gpus // per
        elif weakest == "gpus_per_node" and nodes and gpus % nodes == 0:
            fixed = gpus // nodes
        else:
            self.judge(weakest, "it does not fit gpu_count = node_count x gpus_per_node",
                       "gpu_count = node_count x gpus_per_node")
            return
        old = self.v[weakest]
        self.b.note(self._at(weakest), "count-from-labelled-counts", {
            "field": weakest, "value": repr(old), "gpu_count": gpus, "node_count": nodes,
            "gpus_per_node": per, "used": int(fixed)}, weakest, str(old), str(int(fixed)))
        others = [k for k in conf if k != weakest]
        self.v[weakest] = int(fixed)
        self.p[weakest] = FieldSource(where=self._at(weakest).to_dict(), raw=None,
                                      derived_from=others,
                                      note=f"from {others[0]} and {others[1]}; the reading "
                                      f"{old!r} from text disagreed")

    def _family_rule(self, table: dict[str, Any]) -> tuple[str, Any] | None:
        """The entry of `table` whose key begins the accelerator's family ('TPU' for
        'TPU-v6e'), if any."""
        acc = self._accelerator()
        if acc is None:
            return None
        for prefix, entry in table.items():
            if acc.family.lower().startswith(str(prefix).lower()):
                return acc.family, entry
        return None

    def gpus_per_node(self) -> None:
        per = self.v.get("gpus_per_node")
        rule = self.rules["gpus_per_node"]
        if per is None:
            return
        if int(per) not in rule["allowed"]:
            allowed = ", ".join(str(x) for x in rule["allowed"])
            self.judge("gpus_per_node", f"servers carry one of {allowed} GPUs", allowed)
            return
        family = self._family_rule(rule.get("by_family", {}))
        if family is not None and int(per) not in family[1]:
            allowed = ", ".join(str(x) for x in family[1])
            self.judge("gpus_per_node", f"a {family[0]} node (tray, board or rack) carries one "
                       f"of {allowed} GPUs", allowed)

    def fabric(self) -> None:
        """A fabric the accelerator is never built with (a TPU on InfiniBand)."""
        fabric = self.v.get("inter_node_fabric")
        family = self._family_rule(self.rules["fabric_by_family"]["impossible"])
        if isinstance(fabric, str) and family is not None and fabric in family[1]:
            self.judge("inter_node_fabric", f"{family[0]} systems are not built with {fabric}",
                       "the fabric the accelerator's systems use")

    def ranges(self) -> None:
        for name, rule in self.rules["ranges"].items():
            value = self.v.get(name)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                continue
            if self.v.get("inter_node_fabric") in rule.get("except_fabrics", ()):
                continue
            if value == 0 and "_usd_" in name:
                continue  # included at no charge is a statement, not a scale slip
            if not rule["min"] <= value <= rule["max"]:
                self.judge(name, f"outside {rule['min']:g}-{rule['max']:g} {rule['unit']}",
                           f"{rule['min']:g} to {rule['max']:g} {rule['unit']}")

    def _accelerator(self) -> Accelerator | None:
        acc_id = self.v.get("accelerator")
        return load_catalog().get(acc_id) if isinstance(acc_id, str) else None

    def memory(self) -> None:
        """GPU memory must be a size of the named accelerator's family, in GB or GiB."""
        acc = self._accelerator()
        memory = self.v.get("gpu_memory_gb")
        prov = self.p.get("gpu_memory_gb")
        if acc is None or memory is None or prov is None or prov.raw is None:
            return  # the catalog's own figure needs no check
        tol = float(self.rules["gpu_memory"]["tolerance"])
        sizes = sorted({a.memory_gb for a in load_catalog().accelerators
                        if a.family == acc.family})
        if any(abs(m - s) <= tol * s or abs(m * 1.073741824 - s) <= tol * s
               for s in sizes for m in (memory,)):
            return
        listed = ", ".join(f"{s:g}" for s in sizes)
        was_low = self.low("gpu_memory_gb")
        self.judge("gpu_memory_gb", f"{acc.family} parts have {listed} GB", f"{listed} GB")
        if was_low:  # the catalog's figure, as when the offer states none
            self.v["gpu_memory_gb"] = float(acc.memory_gb)
            self.p["gpu_memory_gb"] = FieldSource(
                where=self.where.to_dict(), raw=None, derived_from=["accelerator"],
                note=f"catalog memory of {acc.id}; the figure read from text was implausible")

    def peak(self) -> None:
        acc = self._accelerator()
        tflops = self.v.get("claimed_peak_tflops_per_gpu")
        if acc is None or not isinstance(tflops, (int, float)):
            return
        rule = self.rules["peak_tflops"]
        figures = [*acc.dense_tflops.values(), *acc.sparse_tflops.values()]
        if not figures:
            return
        low = min(acc.dense_tflops.values() or figures) * float(rule["low_factor"])
        high = max(figures) * float(rule["high_factor"])
        if not low <= tflops <= high:
            self.judge("claimed_peak_tflops_per_gpu", f"{acc.id} peaks between "
                       f"{min(figures):g} and {max(figures):g} TFLOPS per GPU",
                       f"{low:g} to {high:g} TFLOPS per GPU")

    def gpu_link(self) -> None:
        """The GPU-to-GPU bandwidth per GPU near the accelerator's catalog figure."""
        acc = self._accelerator()
        link = self.v.get("intra_node_gbyte_s_per_gpu")
        if acc is None or not isinstance(link, (int, float)) or isinstance(link, bool):
            return
        rule = self.rules["gpu_link"]
        low = min(acc.intra_node_gbyte_s, acc.intra_node_without_bridge_gbyte_s
                  or acc.intra_node_gbyte_s) * float(rule["low_factor"])
        high = acc.intra_node_gbyte_s * float(rule["high_factor"])
        if not low <= link <= high:
            self.judge("intra_node_gbyte_s_per_gpu", f"{acc.id} links its GPUs at "
                       f"{acc.intra_node_gbyte_s:g} GB/s per GPU; a point may group thousands",
                       f"{low:g} to {high:g} GB/s per GPU")

    def price(self) -> None:
        acc = self._accelerator()
        rule = self.rules["price_usd_per_gpu_hour"]
        lo, hi = float(rule["min"]), float(rule["max"])
        ref = public_price_reference(acc.id) if acc is not None else None
        if ref is not None:
            lo = min(lo * 4, ref.min_usd_per_gpu_hour * float(rule["below_min_factor"]))
            hi = max(ref.max_usd_per_gpu_hour * float(rule["above_max_factor"]), lo)
        for name in _PRICE_FIELDS:
            value = self.v.get(name)
            if not isinstance(value, (int, float)) or value == 0:
                continue  # free capacity (an allocation) is stated, not misread
            if not lo <= value <= hi:
                basis = f"public prices of {acc.id}" if ref is not None and acc else \
                    "public GPU prices"
                self.judge(name, f"outside {lo:.3g}-{hi:.3g} USD per GPU-hour, a broad range "
                           f"around the {basis}", f"{lo:.3g} to {hi:.3g} USD per GPU-hour")

    def dates(self) -> None:
        rule = self.rules["dates"]
        today = self.today()
        first = today.replace(year=today.year - int(rule["years_before"]), day=1)
        last = today.replace(year=today.year + int(rule["years_after"]), day=1)
        for name in ("valid_until", "delivery_date"):
            value = self.v.get(name)
            if isinstance(value, dt.date) and not first <= value <= last:
                self.judge(name, f"not within {rule['years_before']} years before or "
                           f"{rule['years_after']} after today", f"a date from {first} to {last}")
