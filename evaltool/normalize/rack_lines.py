"""A purchase line that buys whole racks of a rack-scale system counts the GPUs of its racks.

"NVIDIA GB200 NVL72 rack (72 × Blackwell GPU ...) | 1 | 22.400.000,00": the quantity counts
racks, and one rack holds the GPUs its name states (NVL72: 72 GPUs in one NVLink domain) or,
when the line says "rack" without the figure, the GPUs the catalog gives the accelerator's
scale-up domain.  The offer is never lost for want of a "GPU count" label.  A tray, blade or
node of such a system is not a rack: its line is read as a system line.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from evaltool.catalog import load_catalog, recognise_accelerator
from evaltool.errors import EvaltoolError, Location
from evaltool.grammar.accelerators import names_an_accelerator
from evaltool.normalize.facts import IN_TEXT, TABLE
from evaltool.normalize.shapes import count_facts, gpus_per_rack_in_name
from evaltool.read.cells import LineItem, cell_text
from evaltool.read.tiers import basis_words

_PART_RE = re.compile(r"\b(?:compute\s+)?(?:trays?|blades?|nodes?|servers?|switch(?:es)?|"
                      r"cables?|install\w*|service\w*|support)\b", re.I)


def gpus_per_rack_bought(desc: str) -> int | None:
    """The GPUs of one rack when the line buys whole racks of a rack-scale system, else None."""
    head = re.split(r"[(,;]", desc, maxsplit=1)[0]  # what the line is, before its details
    if _PART_RE.search(head):
        return None
    try:
        found = recognise_accelerator(desc)
    except EvaltoolError:
        return None
    named = gpus_per_rack_in_name(head)
    if named:
        return named
    if "rack" not in basis_words(head)[0]:
        return None
    domain = load_catalog().get(found.id).scale_up_domain_gpus
    return int(domain) if domain and domain > 8 else None


def gpus_per_rack_stated(desc: str) -> int | None:
    """'GB200 NVL72 rack (72 GPUs, 18 trays)': the GPUs of one rack a rented rack's line
    states, as a count or in the system's name."""
    return count_facts(desc).get("gpu_count") or gpus_per_rack_in_name(desc)


class _Facts(Protocol):
    def add(self, name: str, value: Any, where: Location, raw: str, priority: int,
            note: str | None = None, derived_from: list[str] | None = None) -> None: ...


def rack_counts(b: _Facts, item: LineItem, qty: float, per_rack: int | None,
                where: Location) -> None:
    """Racks on a line (rented or bought), and their GPUs when one rack's are known."""
    desc, desc_where, n = item.description, item.cells.get("description", where), cell_text(qty)
    b.add("rack_count", int(qty), item.cells.get("quantity", where), n, TABLE,
          "quantity of racks on the line")
    if names_an_accelerator(desc):
        b.add("accelerator_text", desc, desc_where, desc, IN_TEXT)
    if per_rack:
        b.add("gpus_per_rack", per_rack, desc_where, desc, TABLE, "GPUs of one rack")
        b.add("gpu_count", int(qty) * per_rack, item.cells.get("quantity", where),
              f"{n} x {per_rack}", TABLE, f"{n} racks x {per_rack} GPUs per rack")
