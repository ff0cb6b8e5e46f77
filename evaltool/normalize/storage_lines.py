"""A line of a quote that rents shared storage by the month and states its capacity
("Armazenamento compartilhado NFS (all-flash), 50 TB | 1 | mês | R$ 6.500,00",
"高速共有ストレージ DDN EXAScaler 200TB（月額） | 6 | 月 | 1,200,000"): the capacity, and the
price per TB-month is the month's price over it.

A storage line is one whose description names storage in any language of the prose
vocabulary (evaltool/data/prose_words.yaml, topic ``storage``) or a storage product, and not
the nodes' own disks.
"""

from __future__ import annotations

import functools
import re

from evaltool.normalize.facts import _storage_kind
from evaltool.normalize.phrases import fold, topics

# One capacity in TB or PB (decimal or binary) in a description: "50 TB", "1 PB", "200TB",
# "2 PiB"; a speed ("200 GB/s") or a per-TB price is no capacity.
_CAPACITY_RE = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?)\s*(TB|TiB|PB|PiB|To|Po)\b(?!\s*/\s*s)",
                          re.I)
_TB = {"tb": 1.0, "to": 1.0, "tib": 1.099511627776, "pb": 1000.0, "po": 1000.0,
       "pib": 1125.899906842624}


@functools.lru_cache(maxsize=4096)  # the same texts recur in every option
def is_storage_line(description: str) -> bool:
    """'Managed WEKA storage', 'Armazenamento compartilhado NFS', 'DDN EXAScaler 200TB':
    shared storage, never a node's local disks."""
    if len(description) > 500:
        return False  # a line's description, not a page of terms
    found = topics(description)
    if "local_storage" in found:
        return False
    return "storage" in found or _storage_kind(description)[0] not in (None, "local_nvme")


@functools.lru_cache(maxsize=4096)  # the same texts recur in every option
def capacity_tb(description: str) -> float | None:
    """The one capacity a storage line's description states, in TB; None for none or two."""
    sizes = {round(float(m.group(1).replace(",", ".")) * _TB[m.group(2).lower()], 6)
             for m in _CAPACITY_RE.finditer(fold(description))}
    return sizes.pop() if len(sizes) == 1 else None


# The capacity unit of a storage price's basis ("TiB-month", "per PB per month", "€/To/mois").
_PRICE_UNIT_RE = re.compile(r"(?<![a-z])(tib|pib|pb|po|tb|to)(?![a-z])")


def tb_per_priced_unit(unit_text: str) -> float:
    """How many TB the capacity unit of a storage price stands for: 'TiB-month' -> 1.0995
    (a price per TiB-month divided by it is the price per TB-month),
    'PB-month' -> 1000, 'TB-month' or no capacity unit -> 1."""
    m = _PRICE_UNIT_RE.search(unit_text.lower())
    return _TB.get(m.group(1), 1.0) if m else 1.0
