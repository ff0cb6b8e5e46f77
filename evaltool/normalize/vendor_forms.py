"""How a vendor writes its own name, when a banner gives it in another form.

- A partner after "×" or "in partnership with" is not the vendor: "Nimbus Cloud Platform ×
  Orrery AI — TPU capacity proposal" is Nimbus's proposal, Orrery its partner.
- An acronym in brackets after the name is part of it as the vendor writes it, in any script:
  "Śląskie Centrum Superkomputerowe (ŚCS)", "Consorzio Nazionale (CNSA)".
- A letterhead in capitals with the legal form ("BRIGHTLINE AI CLOUD, INC.") names the company
  with its legal form; the document's own mixed-case writing of the same words ("Brightline AI
  Cloud — list rates") gives the case, and the form keeps its usual case ("Inc.").
"""

from __future__ import annotations

import re

# "A × B", "A x B" (between two capitalised names), "A in partnership with B", "A powered by B"
_PARTNER_RE = re.compile(
    r"(?<=[^\W\d_])\s+(?:×|✕|x(?=\s+[A-ZÀ-ÖØ-Þ][^\W\d_])|(?i:in\s+partnership\s+with|"
    r"in\s+collaboration\s+with|in\s+Zusammenarbeit\s+mit|en\s+partenariat\s+avec|"
    r"en\s+colaboraci[oó]n\s+con|in\s+collaborazione\s+con|powered\s+by))\s+\S.*$|"
    # "Nimbus Cloud, an Orrery company", "Acme GPU, a subsidiary of Beta Holdings"
    r",\s+(?i:an?\s+(?:[^\W\d_][\w&.-]*\s+){1,3}(?:company|group\s+company|brand)|"
    r"an?\s+(?:subsidiary|division|unit)\s+of|part\s+of)\s*.*$")


def without_partner(segment: str) -> str:
    """'Nimbus Cloud Platform × Orrery AI' -> 'Nimbus Cloud Platform'."""
    cut = _PARTNER_RE.sub("", segment).strip()
    return cut or segment


_ACRONYM_TAIL_RE = re.compile(r"\s\(([^\W\d_][\w&.-]{1,9})\)\s*$")


def acronym_tail(segment: str) -> bool:
    """True when the segment ends with an acronym in brackets, in any script ('(ŚCS)',
    '(CNSA)'): upper-case letters (digits, '&', '.' and '-' allowed), never an aside."""
    found = _ACRONYM_TAIL_RE.search(segment)
    if found is None:
        return False
    letters = [c for c in found.group(1) if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


# The legal forms' usual case when a letterhead writes them in capitals.
_FORM_CASE = {"INC": "Inc", "INCORPORATED": "Incorporated", "CORP": "Corp",
              "CORPORATION": "Corporation", "LTD": "Ltd", "LIMITED": "Limited",
              "GMBH": "GmbH", "SRL": "Srl", "SPA": "SpA", "APS": "ApS", "OYJ": "Oyj",
              "PLC": "plc", "KFT": "Kft", "ZRT": "Zrt", "LDA": "Lda", "LTDA": "Ltda",
              "PTY": "Pty", "PTE": "Pte", "PVT": "Pvt", "CO": "Co"}
_UPPER_FORM_RE = re.compile(r"(?<![\w])(" + "|".join(sorted(_FORM_CASE, key=len, reverse=True))
                            + r")(?=\.|\s|$|,)")


def capitals_legal_name_re(legal_forms: str, name_word: str) -> re.Pattern[str]:
    """A company in capitals with its legal form in capitals: 'BRIGHTLINE AI CLOUD, INC.'."""
    return re.compile(rf"(?<![\w.])(?:{name_word}\s+){{0,4}}{name_word},?\s+(?i:{legal_forms})"
                      r"(?![\w])")


def as_written(name: str, texts: list[str]) -> str:
    """The name in capitals written as the document writes the same words elsewhere in mixed
    case, with the legal form in its usual case ('BRIGHTLINE AI CLOUD, INC.' and a title
    'Brightline AI Cloud — 2026 list rates' -> 'Brightline AI Cloud, Inc.'); the name as it
    is when no text writes it otherwise."""
    letters = [c for c in name if c.isalpha()]
    if not letters or not all(c.isupper() for c in letters):
        return name
    form = _UPPER_FORM_RE.search(name)
    if form is None:
        return name
    head = name[:form.start()].rstrip(" ,")
    tail = _UPPER_FORM_RE.sub(lambda m: _FORM_CASE[m.group(1)], name[len(head):])
    pattern = re.compile(r"(?<![\w])" + r"\s+".join(re.escape(w) for w in head.split())
                         + r"(?![\w])", re.I)
    for text in texts:
        found = pattern.search(text)
        if found and not found.group(0).isupper():
            return found.group(0) + tail
    return name


def usual_form_case(name: str) -> str:
    """'Fenland Data Centres LTD' -> 'Fenland Data Centres Ltd': a legal form left in capitals
    by a letterhead in capitals takes its usual case (the name's words already have theirs)."""
    found = _UPPER_FORM_RE.search(name)
    if found is None or found.start() == 0 or name[:found.start()].isupper():
        return name
    return name[:found.start()] + _UPPER_FORM_RE.sub(lambda m: _FORM_CASE[m.group(1)],
                                                      name[found.start():])
