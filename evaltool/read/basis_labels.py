"""A label no vocabulary knows that states a price basis: its figure is a price on that basis.

"Canone mensile per server | 7008", "Redevance mensuelle par nœud | 9 800", "Opłata miesięczna
za serwer | 31 000": whatever the word for the fee, the label says what one amount pays for
(one server, one month).  Such a figure is read as a price on that basis, with a warning that
its label was understood by its basis alone.

Never when the label measures something else on that basis: its first word a basis word
("Ore mensili per server": hours), or a unit of measure in it ("Consumo mensile per server
(kWh)", "GB per node per month"), or a count of resources ("GPUs per server"); nor when it
names another cost ("Stromkosten pro Server und Monat": power; data/basis_label_words.yaml).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from evaltool.grammar.basis import basis_vocabulary
from evaltool.read.cells import cell_text
from evaltool.read.tiers import price_basis
from evaltool.read.vocabulary import normalise_label
from evaltool.resources import data_dir

_RESOURCE_WORDS = {"gpu": "GPU", "node": "node", "rack": "rack"}
# Units that say the figure measures energy, power, data, speed, time or a share, not money.
_MEASURE_RE = re.compile(r"(?<![^\W\d_])(?:k?wh|[kmg]w|watts?|[kmgtp]i?b|gbps|gbit|tbit|mbit|"
                         r"gb/s|tb/s|btu|%|pct|percent|cores?|vcpus?|hours?|hrs?|h|ore|stunden|"
                         r"heures?|horas?|godzin\w*|hodin\w*|timer|timmar|uren)(?![^\W\d_])",
                         re.I)
_FIGURE_RE = re.compile(r"^\s*(?:[^\d\s]{1,4}\s*)?\d[\d.,'\s\u00a0\u202f]*(?:\s*[^\d\s]{1,4})?\s*$")


@functools.cache
def _not_compute_re() -> re.Pattern[str]:
    import yaml

    raw = yaml.safe_load((data_dir() / "basis_label_words.yaml").read_text(encoding="utf-8"))
    words = sorted({n for w in raw["not_compute"] if (n := normalise_label(str(w)))},
                   key=len, reverse=True)
    stems = "|".join(re.escape(w) for w in words if len(w) > 4)  # "lizenz" opens "lizenzen"
    short = "|".join(re.escape(w) for w in words if len(w) <= 4)  # "red" is no "redevance"
    return re.compile(rf"(?:^|\s)(?:(?:{stems})|(?:{short})(?:\s|$))")


@functools.lru_cache(maxsize=2048)
def _label_basis(label: str) -> tuple[str, str] | None:
    per = price_basis(label)
    if per is None or per[0] not in _RESOURCE_WORDS:
        return None
    words = normalise_label(label).split()
    if not words or _MEASURE_RE.search(label) or _not_compute_re().search(" ".join(words)):
        return None  # "Stromkosten pro Server und Monat": power, not compute
    if words[0] in basis_vocabulary()["words"]:
        # "Ore mensili per server", "GPUs per server": the label counts or measures (an
        # adverb or a fee noun first is no measure: "Monthly fee per node", "Mensalidade
        # por nó")
        return None
    return per


def basis_price_label(label: str, value: Any) -> str | None:
    """'Price per node-month' when `label` states a price basis and `value` is a figure (a
    number, or a short amount such as '€ 7.008,00'); else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    if isinstance(value, str) and (not _FIGURE_RE.match(value) or "%" in value):
        return None
    if isinstance(value, (int, float)) and value <= 0:
        return None
    per = _label_basis(cell_text(label))
    if per is None:
        return None
    return f"Price per {_RESOURCE_WORDS[per[0]]}-{per[1]}"
