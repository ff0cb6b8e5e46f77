"""A company's name with its legal form ("Alpi Cloud S.r.l.", "Example Compute GmbH").

The reader asks it of a one-cell row at the top of a sheet (a letterhead heads no section of
labels), and normalize/vendor.py of every place a vendor may name itself.
"""

from __future__ import annotations

import re

# A company name and its legal form: up to five capitalised words before "Inc.", "GmbH"...
LEGAL_FORMS = (r"GmbH & Co\.? KG|S\.A\. de C\.V\.|Inc\.?|Incorporated|Corp\.?|Corporation|"
                r"Ltd\.?|Limited|LLC|L\.L\.C\.|GmbH|"
                r"S\.r\.l\.|Srl|S\.p\.A\.|SpA|SAS|S\.A\.S\.|SARL|S\.A\.|B\.V\.|N\.V\.|K\.K\.|"
                r"Oyj|A/S|ApS|plc|PLC|S\.L\.|S\.L\.U\.|Sp\.\s?z\s?o\.o\.|s\.r\.o\.|"
                r"Pty\.? Ltd\.?|Pte\.? Ltd\.?|Pvt\.? Ltd\.?|Co\., Ltd\.?|Lda\.?|Ltda\.?|"
                r"Kft\.?|Zrt\.?|Nyrt\.?|A\.Ş\.|d\.o\.o\.|a\.s\.|"
                r"S\.R\.L\.|SRL|G\.K\.|OÜ|UAB|e\.K\.")
# Two-letter forms that are also place codes ("Reno, NV"): only without a comma before them.
SHORT_FORMS = r"AG|SA|AB|BV|NV|KK|Oy|AS|ASA|KG|SE"
NAME_WORD = r"(?:[A-ZÀ-ÖØ-Þ0-9][\w&'’.-]*|&)"
# Small words inside a name ("Centro de Datos Meseta, S.L.", "Banca della Rete S.p.A.").
_PARTICLE = r"(?:de|del|della|di|da|do|dos|das|du|des|la|le|van|von|der|den|y|e|i|und|och|og|of)"
LEGAL_NAME_RE = re.compile(
    rf"(?<![\w.])(?:{NAME_WORD}\s+(?:{_PARTICLE}\s+)?){{0,4}}{NAME_WORD}(?:,?\s+"
    rf"(?:{LEGAL_FORMS})|\s+(?:{SHORT_FORMS}))(?![\w])")


def is_company_name(text: str) -> bool:
    """A company name with its legal form, and nothing else: a letterhead, never a section
    heading over the labels below it."""
    return LEGAL_NAME_RE.fullmatch(text.strip()) is not None
