"""The vendor's name when no labelled cell states it.

Looked for, in order: the letterhead or title row ("ACME GPU CLOUD | Capacity Proposal"),
the document properties (author, company) when the sheet's top rows confirm them or no
banner names anyone, a footer row ("Acme Ltd · 1 Main St · Page 1 of 1"), the printed page
header or footer, and at last the file name ("Nimbus_Forge_GPU_proposal.xlsx").  The name
changes no number, so an offer is never rejected for lacking one: the caller warns and says
where the name came from.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from evaltool.issues import Location
from evaltool.normalize.doc_kinds import is_document_title, kind_span, name_before_kind
from evaltool.normalize.phrases import fold
from evaltool.normalize.vendor_forms import (
    acronym_tail,
    as_written,
    capitals_legal_name_re,
    usual_form_case,
    without_partner,
)
from evaltool.read.cells import RawRecord
from evaltool.read.company_names import LEGAL_FORMS as _LEGAL_FORMS
from evaltool.read.company_names import LEGAL_NAME_RE as _LEGAL_NAME_RE
from evaltool.read.company_names import NAME_WORD as _NAME_WORD
from evaltool.read.company_names import SHORT_FORMS as _SHORT_FORMS
from evaltool.read.vocabulary import Vocabulary, normalise_label
from evaltool.resources import data_dir

# Words that make a banner segment a document title rather than a name.
_NOT_A_NAME = re.compile(
    r"\b(proposal|proposition|quot\w*|offer|offre|angebot|devis|order|form|rfp|response|"
    r"pricing|price|prices|budget\w*|reservation|capacity|cluster|dedicated|terms|dear|"
    r"allocation|summary|scope|prepared|customer|for|de la|gpu|gpus|nodes?|h100|h200|b200|"
    r"gb200|mi300x|gaudi\w*|tpu|intel|nvidia|amd|rev\.?|page|inputs|conditions|options?|"
    r"commercial|technical|specifications?|pricing|overview|notes|details|appendix|annex)\b",
    re.I)
# Author fields that name a function or a tool, not a company.
_GENERIC_AUTHOR = re.compile(r"^(?:[a-z0-9._-]+|.*\b(?i:user|admin|owner|openpyxl|excel|"
                             r"microsoft|python|accounts?|team|desk|department|office)\b.*)$")
_AUTHOR_SUFFIX = re.compile(r"\s*(?:[-–—|·:]\s+.*|\b(?:cpq|bid team|deal desk|sales(?: ops)?|"
                            r"capacity desk|allocations office|quotes?)\s*)$", re.I)
_SPLIT = re.compile(r"\s+[-–—|·:]\s+|\s{2,}|\s*\|\s*|\s·\s")
_FILE_STOP = re.compile(
    r"^(?:gpu|gpus|quote|quotation|proposal|offer|offre|angebot|devis|pricing|price|rfp|"
    r"response|reserved|reservation|capacity|committed|order|form|cpq|export|allocation|"
    r"proposition|node|nodes|cluster|two|q[1-4]|h100|h200|b200|gb200|l40s|mi300x|tpu|v5p|"
    r"gaudi\d?|rev\d*|v\d+|bom|\d.*)$", re.I)


# A company in the scripts that write the legal form before or after the name without a
# space ("株式会社ツバサ・コンピュート", "한빛클라우드 주식회사", "华北算力有限公司").
_CAPITALS_LEGAL_NAME_RE = capitals_legal_name_re(_LEGAL_FORMS, _NAME_WORD)
_CJK_LEGAL_NAME_RE = re.compile(
    r"(?:株式会社|合同会社|有限会社|주식회사|\(주\)|㈜)[^\s\d、。,（(]{1,20}|"
    r"[^\s\d、。,（(:：]{1,20}(?:株式会社|合同会社|有限会社|有限公司|股份有限公司|주식회사)")
_CUSTOMER_BEFORE_RE = re.compile(
    r"(?:prepared\s+for|for\s*:|\bfor\s+$|to\s*:|attn\.?|attention|dear|spett\.?le|c\.a\.|customer|"
    r"client|kunde|für|pour\s*:?|destinataire|empfänger|bill\s+to|ship\s+to|sold\s+to)"
    r"[^·|–—]{0,25}$", re.I)
_CUSTOMER_AFTER_RE = re.compile(r"\s*\(?\s*[\"“']?\s*(?:(?:the\s+)?(?:customer|client|buyer|"
                                r"kunde|auftraggeber)\b|御中|様|貴中|귀하|귀중)", re.I)
# "Bank: Danske Bank A/S", "Bankverbindung: Beispielbank AG": the bank, never the issuer.
_BANK_BEFORE_RE = re.compile(r"(?:\bbank(?:verbindung|name)?|\bbanco|\bbanque|\bbanca|"
                             r"\bpaid\s+(?:in)?to\s+the\s+bank|\bswift|\bbic|\biban)\s*:?\s*$",
                             re.I)
_ISSUER_BEFORE_RE = re.compile(r"(?:prepared\s+by|issued\s+by|from|provider|supplier|vendor|"
                               r"seller|anbieter|fournisseur|fornitore|between|remit(?:tance)?\s+to|"
                               r"payable\s+to|pay\s+to|beneficiary|account\s+(?:holder|name)|"
                               r"kontoinhaber|b[ée]n[ée]ficiaire|titulaire|beneficiario|intestatario|"
                               r"de|von|od|fra|från)\s*:?\s*$", re.I)


def _clean(segment: str) -> str:
    # "(the Provider)", "(formerly Acme)" are asides; an acronym in brackets is part of
    # the name as the vendor writes it ("Consorzio ... Adriatico (CNSA)")
    if not acronym_tail(segment):
        segment = re.sub(r"\s*\([^)]*\)\s*$", "", segment)
    segment = segment.strip(" ,;:-–—|·")
    if segment.isupper() and len(segment) > 4:  # "FERROLINE CALCUL SAS" -> title case,
        words = segment.split()                  # keeping short all-caps legal forms
        segment = " ".join(w if len(w) <= 3 or "." in w else w.capitalize() for w in words)
    return segment


def _name_like(segment: str) -> bool:
    words = re.sub(r"\s\([A-Z][A-Z0-9&.-]{1,9}\)\s*$", "", segment).split()  # (acronym)
    return (1 <= len(words) <= 6 and len(segment) <= 60 and not _NOT_A_NAME.search(segment)
            and not re.search(r"\d{2,}|@|www\.|https?:", segment)
            and any(w[:1].isupper() for w in words))


def _without_kind(segment: str) -> str | None:
    """The name in a segment that also names the document's kind ("GPUXchange marketplace
    export" -> "GPUXchange"); '' when the segment is only a kind ("PRO FORMA INVOICE")."""
    name = name_before_kind(segment)
    if name is None:
        return segment
    return _clean(name) if name and _name_like(_clean(name)) else ""


# An e-mail's or a form's header line: a word or two and a colon before the value.
_HEADER_LINE_RE = re.compile(
    r"^\s*(?:to|cc|bcc|an|para|à|a|til|till|do|aan|per|sent|gesendet|envoyé|enviado|inviato|"
    r"date|datum|data|fecha|dato|subject|betreff|objet|asunto|assunto|oggetto|emne|ämne|"
    r"temat|předmět|from|von|de|fra|od|från|van|da|attn|customer|client|kunde|cliente|klient|"
    r"prepared\s+for|bill\s+to|ship\s+to)\s?:\s", re.I)


def _first_segment(text: str) -> str | None:
    parts = [p for p in _SPLIT.split(text.strip()) if p.strip()]
    if parts and len(parts) >= 2 and is_document_title(parts[0]):
        parts = parts[1:]  # "PRO FORMA INVOICE | IronPeak AI Cloud": the kind, then the name
    if not parts:
        return None
    if _HEADER_LINE_RE.match(parts[0]):
        return None  # "To: Anna Berg", "Date: 19 November": a labelled line, not a letterhead
    segment = _clean(without_partner(parts[0].strip(" #*•")))
    named = _without_kind(segment)
    if named is not None and named != segment:
        return named or None
    if len(parts) >= 2 and re.fullmatch(r"[A-Z][A-Z0-9&]{1,7}", segment):
        # "CNCA - Consorzio Nazionale per il Calcolo Avanzato": an acronym and the name it
        # stands for are one name
        whole = re.match(rf"\s*{re.escape(parts[0])}\s*[-–—:|]\s*{re.escape(parts[1])}",
                         text)
        longer = _clean(parts[1])
        if whole and _name_like(longer) and len(longer.split()) >= 2 and \
                "".join(w[0] for w in longer.split() if w[:1].isupper()).startswith(segment[:2]):
            return _clean(whole.group(0).strip())
    return segment if _name_like(segment) else None


def _author(properties: dict[str, str]) -> str | None:
    for key in ("company", "creator", "manager"):
        raw = properties.get(key, "").strip()
        if not raw or _GENERIC_AUTHOR.match(raw):
            continue
        name = _AUTHOR_SUFFIX.sub("", raw).strip()
        if name and _name_like(name):
            return name
    return None


def _from_file_name(path: str) -> str | None:
    words = [w for w in re.split(r"[_\-\s.]+", Path(path).stem) if w]
    while words and words[0].isdigit():  # "10_gridbazaar_export": a file's number in a batch
        words = words[1:]
    name: list[str] = []
    for word in words:
        if _FILE_STOP.match(word) or kind_span(word) is not None:
            break
        name.append(word)
    if not name or len(name) > 4:
        return None
    return " ".join(w if any(c.isupper() for c in w[1:]) else w.capitalize() for w in name)


def _legal_name(record: RawRecord) -> tuple[str, Location] | None:
    """A company named with its legal form ("Nimbora Cloud, Inc.", "Lattanzi Calcolo S.r.l.")
    in the letterhead, title or footer rows, that is not the customer's: the one introduced
    as the issuer ("Prepared by", "From") first, else the first one named."""
    return _issuer_of([*record.banners, *record.footers])


def _issuer_of(texts: list[tuple[str, Location]]) -> tuple[str, Location] | None:
    found: list[tuple[int, str, Location]] = []
    for order, (text, where) in enumerate(texts):
        capitals = [m for m in _CAPITALS_LEGAL_NAME_RE.finditer(text)
                    if m.group(0).upper() == m.group(0)]  # "BRIGHTLINE AI CLOUD, INC."
        for match in [*_LEGAL_NAME_RE.finditer(text), *capitals,
                      *_CJK_LEGAL_NAME_RE.finditer(text)]:
            name = match.group(0).strip(" ,;:-–—|·(")
            before = text[max(0, match.start() - 40):match.start()]
            after = text[match.end():match.end() + 30]
            if _CUSTOMER_BEFORE_RE.search(before) or _CUSTOMER_AFTER_RE.match(after) or \
                    _BANK_BEFORE_RE.search(before):
                continue  # the customer, or the bank that holds the account
            if re.search(r"\band\s*$", before, re.I) and re.search(r"\bbetween\b", text[
                    :match.start()], re.I):
                continue  # "between Helix Compute Corp. and Halcyon Labs, Inc.": the second
            issuer = bool(_ISSUER_BEFORE_RE.search(before))
            found.append((0 if issuer else 1 + order, name, where))
    if not found:
        return None
    _, name, where = min(found, key=lambda item: item[0])
    return name, where


def anonymised(name: str, vocab: Vocabulary) -> bool:
    """'Provider #4471 (Tier III)', 'Supplier B', 'Anbieter Nr. 12': a word that labels a
    vendor, then only an identifier: a seller a marketplace keeps anonymous, not a name.
    So is a bare reference code ('SUP-1044', 'V_00931') under a 'supplier_ref' column."""
    if _CODE_RE.match(name.strip()):
        return True
    match = _ANONYMISED_RE.match(name.strip())
    if match is None:
        return False
    return vocab.labels.get(normalise_label(match.group(1))) == "vendor"


_ANONYMISED_RE = re.compile(r"^([^\W\d_]+(?:\s[^\W\d_]+)?)\s*(?:#|no\.?|nr\.?|n[º°]|id)?\s*"
                            r"(?:\d[\w-]*|[A-Z])\b(?:\s*\([^()]*\))?$", re.I)


# Letters, a separator, then three or more digits: a reference, never a company's name.
_CODE_RE = re.compile(r"^[A-Za-z]{1,6}[-_#/.]\d{3,}[A-Za-z]?$")


def two_scripts(name: str) -> tuple[str, str] | None:
    """'ニンバス・クラウド・ジャパン合同会社 (Nimbus Cloud Japan G.K.)' -> (the name in its own
    script, the name in Latin letters); None for a name written once."""
    match = _TWO_SCRIPTS_RE.match(name.strip())
    if match is None or re.search(r"[A-Za-z]", match.group(1)):
        return None
    return match.group(1).strip(), match.group(2).strip()


_TWO_SCRIPTS_RE = re.compile(r"^([^()（）]+?)\s*[(（]\s*([A-Za-z][^()（）]*)[)）]$")


def vendor_fallback(record: RawRecord) -> tuple[str, Location, str] | None:
    """(name, where, how it was found) or None."""
    file = str(record.source.get("file", ""))
    author = _author(record.properties)
    top = " ".join(text for text, _ in record.banners).casefold()
    legal = _legal_name(record)
    if legal is not None and not (author and author.casefold() in top
                                  and author.casefold() in legal[0].casefold()):
        # "MESETA CÓMPUTO S.L." as "Meseta Cómputo S.L." (as the document writes it elsewhere)
        cased = as_written(legal[0], [t for t, _ in [*record.banners, *record.footers]])
        return (cased if cased != legal[0] else usual_form_case(_clean(legal[0]))), legal[1], \
            "a company name with its legal form in the letterhead, title or footer"
    if author and author.casefold() in top:
        text, where = next((x, w) for x, w in record.banners
                           if author.casefold() in x.casefold())
        longer = _first_segment(text)
        if len(author) <= 5 and longer and len(longer) > len(author):
            return longer, where, "the letterhead (the author property gives its acronym)"
        return author, where, "the letterhead, confirmed by the document's author property"
    for text, where in record.banners:
        name = _first_segment(text)
        if name:
            return name, where, "the letterhead, title row or comment lines at the top"
    if author:
        return author, Location(file), "the document properties (author or company)"
    for text, where in reversed(record.footers):
        if "·" in text or "|" in text or re.search(r"\bpage\b|\bseite\b", text, re.I):
            name = _first_segment(text)
            if name:
                return name, where, "a footer row"
    footer = record.properties.get("header_footer")
    if footer:
        name = _first_segment(footer)
        if name:
            return name, Location(file), "the printed page header or footer"
    short = [(t, w) for t, w in record.notes if len(t) <= 80] + [
        (str(c.value), c.where) for c in record.candidates
        if c.shape_only and isinstance(c.value, str) and len(c.value) <= 80]
    issuer = _issuer_of(short)
    if issuer is not None:  # an issuer block or a signature beside the tables
        return issuer[0], issuer[1], "a company name with its legal form in the document"
    name = _from_file_name(file)
    written = name_as_written(name, record) if name else None
    if written is not None:  # "Frontrange" -> "Front Range GPU Cloud", as the text writes it
        return written[0], written[1], "the file name, as the document writes the name"
    if name:
        return name, Location(file), "the file name"
    return None


@functools.lru_cache(maxsize=1)
def _tier_patterns() -> tuple[re.Pattern[str], ...]:
    import yaml

    raw = yaml.safe_load((data_dir() / "facility_tiers.yaml").read_text(encoding="utf-8"))
    return tuple(re.compile(rf"^(?:{p})$", re.I) for p in raw["patterns"])


def facility_tier(name: str) -> bool:
    """'Tier III', 'Tier 3', 'Uptime Tier IV', 'Rated-3', 'TIA-942 Rated 3': a data centre's
    resilience rating (Uptime Institute, TIA-942), never a company's name."""
    text = " ".join(name.strip(" \t()[].,;:").split())
    if len(text) > 60:
        return False
    # "Tier III DC, Dallas TX", "Tier IV data centre - Frankfurt": a facility described by its
    # rating first, then its place, is a facility too
    head = re.split(r",|;|\s[-–—|]\s|\(", text, maxsplit=1)[0].strip()
    return any(p.match(text) or p.match(head) for p in _tier_patterns())


# --- the name as the document writes it, when only the file name gave it -----------------
# "11_frontrange_h100_calculator.xlsx" gives "Frontrange"; the title says "Front Range GPU
# Cloud — Reserved Pricing Calculator", a signature "Kookaburra Compute Pty Ltd | ABN ...", a
# letterhead "MESETA CÓMPUTO S.L.". The file name's words (no regard to case or spaces) begin
# a run of capitalised words in one of the texts: that run is the name the vendor gives itself.
# A run of name words: capitalised or upper-case words, '&', digits-led codes and the
# legal forms' dotted abbreviations ("S.L.", "Pty", "Ltd"), with short particles between.
_WORD = r"[A-ZÀ-ÖØ-Þ][\w&'’.-]*|&"
_RUN_RE = re.compile(rf"(?<![\w@./-])(?:{_WORD})(?:,?\s(?:(?:de|del|di|da|do|du|la|le|van|"
                     rf"von|der|y|e|i|und|of)\s)?(?:{_WORD})){{0,6}}")
_WORD_START_RE = re.compile(r"(?<![\w@./-])(?=[A-ZÀ-ÖØ-Þ])")
_FORM_AFTER_RE = re.compile(rf",?\s+(?:{_LEGAL_FORMS}|{_SHORT_FORMS})(?![\w])", re.I)
# Words a name may hold that the document-title words would otherwise refuse.
_NAME_SAFE = re.compile(r"^(?:gpu|gpus|cloud|compute|ai|hpc)$", re.I)
_MIN_KEY_LETTERS = 4


def _key(text: str) -> str:
    """Letters and digits only, without accents ("Wisła" and "Wisla" are one key)."""
    return re.sub(r"[\W_]+", "", fold(text)).casefold()


def _texts(record: RawRecord) -> list[tuple[str, Location]]:
    texts = [*record.banners, *record.footers, *record.notes]
    for cand in record.candidates:
        texts.append((cand.label, cand.label_where or cand.where))
        if isinstance(cand.value, str):
            texts.append((cand.value, cand.where))
    return texts


def _trimmed(run: str) -> str:
    """The run without the title words after the name ("... Cloud Reserved Pricing")."""
    words = run.split()
    for i, word in enumerate(words[1:], start=1):
        if _NOT_A_NAME.search(word) and not _NAME_SAFE.match(word.strip(",.")):
            words = words[:i]
            break
    return " ".join(words).strip(" ,")


def name_as_written(short: str, record: RawRecord) -> tuple[str, Location] | None:
    """The document's fuller form of a name read from the file name, or None."""
    words = short.split()
    keys = [_key(short)] + ([_key(words[0])] if len(words) > 1 else [])
    for key in keys:
        if len(key) < _MIN_KEY_LETTERS:
            continue
        for text, where in _texts(record):
            if key not in _key(text):
                continue
            for start in _WORD_START_RE.finditer(text):  # runs from each word on
                match = _RUN_RE.match(text, start.start())
                if match is None:
                    continue
                form = _FORM_AFTER_RE.match(text, match.end())  # "Wisła Compute sp. z o.o."
                run = _trimmed(match.group(0)) + (form.group(0) if form and _trimmed(
                    match.group(0)) == match.group(0).strip(" ,") else "")
                if not _key(run).startswith(key):
                    continue
                # the key ends where a word of the run ends ("Ridgeline", not "Ridgelines")
                ends = {len(_key(" ".join(run.split()[:n]))) for n in range(1, 8)}
                if len(key) not in ends:
                    continue
                name = _clean(run)
                if len(_key(name)) > len(key) or name != short:
                    return name, where
    return None
