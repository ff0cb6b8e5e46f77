"""Who is bound: role words, the offer's vendor name and a document's defined terms.

The readme of the dev set makes obligor resolution mandatory: the same efforts wording
binding a distributor or licensee is not a vendor weak commitment.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from evaltool.clauses.lexicon import GatedRegex, fast_compile, load_lexicon

# Verbs and adverbs that follow a sentence subject ("Provider shall", "IBM provides").
_MODAL = (
    r"(?:shall|will|wil|must|should|may|can|agrees?|undertakes?|commits?|is|are|has|have|"
    r"expects?|anticipates?|aims?|intends?|targets?|maintains?|provides?|uses?|makes?|"
    r"reserves?|warrants?|represents?|guarantees?|acknowledges?|accepts?|plans?|strives?|"
    r"hereby|does|do)"
)
_ADVERB = r"(?:also|each|hereby|further|promptly|then|immediately|thereafter|currently|expressly)"
_PAIR_RE = re.compile(
    r"(?<![\w-])(?=[A-Z])[A-Z][\w&.'’-]+(?:\s+[A-Z][\w&.'’-]+){0,2}\s+and\s+"
    r"[A-Z][\w&.'’-]+(?:\s+[A-Z][\w&.'’-]+){0,2}\s+" + _MODAL + r"\b"
)
_NOT_A_PARTY = frozenset(
    [
        "the",
        "this",
        "such",
        "any",
        "all",
        "each",
        "if",
        "in",
        "upon",
        "notwithstanding",
        "delivery",
        "services",
        "service",
        "these",
        "those",
        "it",
        "its",
        "no",
        "neither",
        "either",
        "for",
        "within",
        "after",
        "before",
        "during",
    ]
)

Role = str  # "vendor" | "customer" | "both"


@dataclass(frozen=True)
class Parties:
    """Aliases of each side and the compiled regexes that find them as sentence subjects."""

    roles: dict[str, Role]
    subject_re: GatedRegex

    def role_of(self, mention: str) -> Role | None:
        return self.roles.get(_norm(mention))


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


@lru_cache(maxsize=64)
def build_parties(
    vendor_names: tuple[str, ...] = (), customer_names: tuple[str, ...] = ()
) -> Parties:
    """Alias table: generic role words plus the given vendor and customer names."""
    lex = load_lexicon()
    roles: dict[str, Role] = {}
    for word in lex.vendor_roles:
        roles[_norm(word)] = "vendor"
    for word in lex.customer_roles:
        roles[_norm(word)] = "customer"
    for word in lex.both_roles:
        roles[_norm(word)] = "both"
    for name in customer_names:
        if name.strip():
            roles[_norm(name)] = "customer"
    for name in vendor_names:  # the offer's vendor wins over a generic reading
        if name.strip():
            roles[_norm(name)] = "vendor"
    aliases = sorted(roles, key=len, reverse=True)
    alias_re = "|".join(re.escape(a).replace(r"\ ", r"\s+") for a in aliases)
    subject_re = fast_compile(
        r"(?<![\w-])(?P<m>" + alias_re + r")(?![\w-])(?!['’]s\b)"
        r"(?:\s*\([^)]{0,60}\))?(?:\s*,[^,;]{1,80},)?\s+(?:"
        + _ADVERB
        + r"\s+){0,2}"
        + _MODAL
        + r"\b"
    )
    return Parties(roles=roles, subject_re=subject_re)


def parties_for(vendor_names: Sequence[str] = (), customer_names: Sequence[str] = ()) -> Parties:
    return build_parties(tuple(vendor_names), tuple(customer_names))


@dataclass(frozen=True)
class Subject:
    start: int
    end: int
    role: Role | None
    mention: str


# A reseller or distributor buys to sell on: a customer of its supplier, but the supplier of
# the end customer. When the sentence names that end customer as a party ("Reseller shall
# pass through to Customer ..."), the reseller is the one supplying.
_INTERMEDIARY_RE = re.compile(r"^(?:the\s+)?(?:reseller|distributor)$", re.IGNORECASE)
_END_CUSTOMER_RE = re.compile(r"\b(?:Customer|Client|Subscriber|Buyer|Purchaser|you)\b(?![s'’-])")


def _role(mention: str, parties: Parties, text: str) -> Role | None:
    role = parties.role_of(mention)
    if role == "customer" and _INTERMEDIARY_RE.match(mention.strip()) and (
        _END_CUSTOMER_RE.search(text)
    ):
        return "vendor"
    return role


def find_subjects(text: str, parties: Parties) -> list[Subject]:
    """Every sentence subject followed by its verb ("Provider shall", "TAG and LMG expect")."""
    found = [
        Subject(m.start(), m.end(), _role(m.group("m"), parties, text), m.group("m"))
        for m in parties.subject_re.finditer(text)
    ]
    for p in _PAIR_RE.finditer(text):
        first = p.group(0).split()[0].lower()
        if first not in _NOT_A_PARTY and not any(s.start <= p.start() < s.end for s in found):
            found.append(Subject(p.start(), p.end(), "both", p.group(0)))
    found.sort(key=lambda s: s.start)
    return found


def subject_before(subjects: Sequence[Subject], pos: int) -> Subject | None:
    """The last subject that starts before ``pos`` (the one governing a phrase at pos)."""
    best: Subject | None = None
    for s in subjects:
        if s.start >= pos:
            break
        best = s
    return best


@dataclass(frozen=True)
class DefinedParties:
    vendor: tuple[str, ...]
    customer: tuple[str, ...]


_NAME_BEFORE_RE = re.compile(r"([A-Z][\w&.,'’-]*(?:\s+[A-Z][\w&.,'’-]*){0,5})\s*[,]?\s*$")
_ROLE_AFTER_RE = re.compile(
    r"^[^.;]{0,80}?\b(?P<role>provider|supplier|vendor|operator|licensor|host|customer|client|"
    r"licensee|buyer|purchaser)\b",
    re.IGNORECASE,
)


def defined_parties(text: str, vendor_names: Sequence[str] = ()) -> DefinedParties:
    """Aliases defined in a document: 'Acme Cloud, Inc. ("Provider")', 'hereinafter "Client"'.

    A party whose defined term is itself a role word takes that role; a defined short name
    ("NeoCloud") takes the role named in the words that follow ('a provider of ...') or the
    offer's vendor name."""
    lex = load_lexicon()
    vendor_roles = {_norm(w) for w in lex.vendor_roles}
    customer_roles = {_norm(w) for w in lex.customer_roles}
    known_vendor = {_norm(v) for v in vendor_names if v.strip()}
    vendor: list[str] = []
    customer: list[str] = []
    head = text[:20000]  # definitions live in the preamble and recitals
    for regex in (lex.defined_term, lex.hereinafter):
        for m in regex.finditer(head):
            term = m.group("term").strip()
            name_m = _NAME_BEFORE_RE.search(head[max(0, m.start() - 120) : m.start()])
            name = name_m.group(1).strip(" ,") if name_m else ""
            role: str | None = None
            t = _norm(term)
            if t in vendor_roles:
                role = "vendor"
            elif t in customer_roles:
                role = "customer"
            elif t in known_vendor or _norm(name) in known_vendor:
                role = "vendor"
            else:
                after = _ROLE_AFTER_RE.match(head, m.end())
                if after:
                    r = _norm(after.group("role"))
                    role = "vendor" if r in vendor_roles else "customer"
            if role is None:
                continue
            names = [n for n in (term, name) if n and _norm(n) not in _NOT_A_PARTY]
            names += [
                re.sub(r",?\s+(?:inc|llc|ltd|gmbh|corp|co|plc|s\.a|b\.v)\.?$", "", n, flags=re.I)
                for n in names
            ]
            target = vendor if role == "vendor" else customer
            for n in names:
                if n and n not in target and _norm(n) not in vendor_roles | customer_roles:
                    target.append(n)
    return DefinedParties(tuple(vendor), tuple(customer))
