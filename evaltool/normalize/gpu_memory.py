"""A GPU's memory as a document states it beside the word HBM ("72x NVIDIA Blackwell GPUs
(192 GB HBM3e each)", "8 × H200 141 GB HBM3e", "MI325X 256 Go HBM3E").

HBM is only ever a GPU's memory (a host's memory is DDR or LPDDR), so the figure is read
wherever it stands: a line item's description, a note, a cell of prose.  The document's own
figure is kept before the catalog's (the catalog's GB200 is 186 GB usable; quotes often say
192 GB, the figure NVIDIA's GB200 datasheet gives per GPU).  A total for a whole system
("13.5 TB HBM3e") is in TB and never matches.
"""

from __future__ import annotations

import functools
import re

# 16 to 999 GB (decimal gigabytes, as marketed), then "HBM" within two small words.
_HBM_RE = re.compile(r"(?<![\d.,])(\d{2,3}(?:[.,]\d{1,2})?)\s*(?:GB|Go)\b\s*(?:of\s+|de\s+|"
                     r"di\s+)?(?:\w+\s+)?HBM\d?\w*", re.I)


@functools.lru_cache(maxsize=4096)  # the same texts recur in every option
def hbm_gb(text: str) -> float | None:
    """The GPU memory in GB a text states with the word HBM, or None (two different
    figures in one text say nothing sure: None)."""
    figures = {float(m.group(1).replace(",", ".")) for m in _HBM_RE.finditer(text)}
    figures = {f for f in figures if 16 <= f <= 999}
    return figures.pop() if len(figures) == 1 else None
