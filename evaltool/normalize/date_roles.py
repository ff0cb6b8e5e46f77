"""The role of a calendar date no synonym names: by the words of its label, or of the sentence
around it, in any language.

"Allokáció kezdete | 2027. január 4.", "제공 시작일 | 2027. 1. 4.", "Target RFS date: |
January 15, 2027", "Attivazione | 01/04/2026": a label no synonym list knows, whose value is one
calendar date and whose words say *start*, *ready* or *handed over*, states when the capacity is
delivered; one whose words say *valid*, *expires* or *deadline* states until when the offer
holds (evaltool/data/date_role_words.yaml).  A contract sheet's sentence ("Mise à disposition :
5 janvier 2026 pour les deux lots.") is read with the prose readers' date topics.

Read only for a field no labelled cell states, at the priority of text, and said with an
info issue: the label's words are weaker evidence than a synonym.
"""

from __future__ import annotations

import datetime as dt
import functools
import re

from evaltool.normalize import values as V
from evaltool.normalize.facts import IN_TEXT
from evaltool.normalize.slots import SlotReaders
from evaltool.read.cells import Candidate
from evaltool.read.vocabulary import normalise_label
from evaltool.resources import data_dir

FIELDS = ("valid_until", "delivery_date")
_YEAR_RE = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_MAX_VALUE_CHARS = 80  # a longer value is a sentence: the prose readers' business


@functools.cache
def _role_words() -> dict[str, re.Pattern[str]]:
    import yaml

    raw = yaml.safe_load((data_dir() / "date_role_words.yaml").read_text(encoding="utf-8"))
    return {key: re.compile("|".join(f"(?:{w})" for w in words), re.I)
            for key, words in raw.items()}


def date_role(label: str) -> str | None:
    """'Allokáció kezdete' -> 'delivery_date'; 'Quote good through' -> 'valid_until';
    'Quote date' -> None."""
    text = normalise_label(label)  # "promised_date", "Target RFS date:" -> words
    words = _role_words()
    if words["no_role"].search(text):
        return None
    for name in FIELDS:
        if words[name].search(text):
            return name
    return None


def one_date(value: object, dayfirst: bool) -> dt.date | None:
    """A value that is one calendar date (a date cell, or a short text with a year)."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if not isinstance(value, str) or len(value) > _MAX_VALUE_CHARS or \
            len(_YEAR_RE.findall(value)) != 1:
        return None  # no year, or two dates: a period is no one date
    try:
        parsed = V.parse_date(value, dayfirst=dayfirst)
    except (V.ValueParseError, ValueError, ArithmeticError):
        return None
    if parsed.value is None or parsed.earliest != parsed.latest:
        return None  # a month, a quarter, a lead time: no calendar date
    return parsed.value


def _labelled_pairs(cand: Candidate) -> list[tuple[str, object]]:
    """The label and value of a cell, and a label or value that holds a label and its value
    after a colon ('유효기간: 2027. 1. 15.' beside a contact's name; 'Datum: 20. 11. 2026 |
    Platnost nabídky: 31. 12. 2026')."""
    pairs: list[tuple[str, object]] = []
    for text in (cand.label, cand.value):
        if isinstance(text, str):
            head, colon, tail = text.replace("\uff1a", ":").partition(":")
            if colon and tail.strip() and len(head.split()) <= 6:
                pairs.append((head, tail.strip()))
    pairs.append((cand.label, cand.value))
    return pairs


def dates_by_role(b: SlotReaders) -> None:
    """delivery_date and valid_until no labelled cell or sentence stated: from a cell whose
    label's words name the date's role."""
    missing = [name for name in FIELDS if not b.facts.get(name)]
    if not missing:
        return
    dayfirst = bool(getattr(b, "dayfirst", True))
    for cand in b.record.candidates:
        for label, value in _labelled_pairs(cand):
            role = date_role(label)
            if role not in missing or b.facts.get(role):
                continue
            if role == "delivery_date" and isinstance(value, str):
                # "subject to signature by 31 March": the date to sign is no delivery
                value = V.before_signing_deadline(value)
            day = one_date(value, dayfirst)
            if day is None:
                continue
            b.add(role, day, cand.where, f"{label}: {value}", IN_TEXT,
                  "date read by the words of its label")
            # the label's own field may have failed on the cell beside it: now read
            b.problems = [p for p in b.problems if not (
                p.code == "value-unreadable" and p.field == role and p.where == cand.where)]
            b.note(cand.where, "date-role-from-label", {"label": label.strip(),
                                                        "field": role, "date": day.isoformat()},
                   role, str(value)[:120], severity="info")
