"""A canonical text value is short: a region is a place or a cloud region's id, never the
sentence a vendor wrote around it ("Montréal (ca-east-1), 100% hydro-powered", "Frankfurt –
Tier III, 100 % Ökostrom", "Madrid (ES); energía 100 % renovable").

A region cell is read as written while each of its parts (split at commas, semicolons and
spaced dashes, outside brackets) reads as a place: capitalised words, codes ("DAL-2", "TX",
"us-east-1"), short joining words ("am", "de", "upon"). The first part that reads as prose
(lower-case words, a figure) and everything after it is the vendor's description: it is cut,
and said. When a cut text holds a cloud region's id, the id is the value (the most exact
name of the site it gives); otherwise the place before the description.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from evaltool.errors import Location
from evaltool.grammar.places import cloud_region_id, region_in_text
from evaltool.models import FieldSource
from evaltool.normalize.slots import SlotReaders
from evaltool.normalize.vendor import facility_tier
from evaltool.resources import data_dir

# Where a region's text splits into parts: outside brackets, at , ; | · or a spaced dash.
_SEPARATORS = {",", ";", "|", "·"}
_SPACED_DASH_RE = re.compile(r"\s+[—–-]\s+")
# A site or region code written in lower case: "us-east5", "westeurope2", "pt-lis-1".
_LOWER_CODE_RE = re.compile(r"^[a-z]{2,}(?:-[a-z0-9]+)*\d[a-z]?$|^[a-z]{2,}(?:-[a-z0-9]+)+$")
_MAX_WORDS_IN_A_PART = 5


@functools.lru_cache(maxsize=1)
def _joining_words() -> frozenset[str]:
    """Short words place names are written with (evaltool/data/place_words.yaml)."""
    import yaml

    raw = yaml.safe_load((data_dir() / "place_words.yaml").read_text(encoding="utf-8"))
    return frozenset(str(w).casefold() for w in raw["joining_words"])


def _top_level_parts(text: str) -> list[tuple[int, str]]:
    """(start, part) of a text split at separators outside brackets."""
    parts: list[tuple[int, str]] = []
    depth, start = 0, 0
    masked = []
    for ch in text:
        depth += ch in "([（"
        depth -= ch in ")]）" and depth > 0
        masked.append(ch if depth == 0 else "_")
    flat = "".join(masked)
    cuts = [(i, i + 1) for i, ch in enumerate(flat) if ch in _SEPARATORS]
    cuts += [(m.start(), m.end()) for m in _SPACED_DASH_RE.finditer(flat)]
    for begin, end in sorted(cuts):
        parts.append((start, text[start:begin]))
        start = end
    parts.append((start, text[start:]))
    return parts


def _reads_as_place(part: str) -> bool:
    """Whether a part of a region's text reads as (part of) a place's name or code."""
    words = re.sub(r"[(（\[][^()（）\[\]]*[)）\]]", " ", part).split()  # brackets gloss a place
    if facility_tier(part):
        return False  # "Tier III": the facility's rating, said of the site
    if not words or len(words) > _MAX_WORDS_IN_A_PART:
        return not words and bool(part.strip())
    for index, word in enumerate(words):
        word = word.strip(".'’\"")
        if not word:
            continue
        if word.casefold() in _joining_words() or _LOWER_CODE_RE.match(word):
            continue
        letters = [c for c in word if c.isalpha()]
        if not letters and word.isdigit() and len(word) <= 2 and index > 0:
            continue  # "East US 2"
        if not letters:
            return False  # "100%", "24/7": a figure is not a place
        if letters[0].islower():
            return False  # "hydro-powered", "renewable", "energía"
        if any(c.isdigit() for c in word) and not re.match(r"^[A-Z]{1,5}-?\d{1,3}[A-Za-z]?$",
                                                           word):
            return False  # "2x400G"; a site code ("DAL2", "FRA-2", "SYD1") is kept
    return True


@functools.lru_cache(maxsize=1024)
def region_core(text: str) -> tuple[str, bool]:
    """(the region, whether the text reads as a description) of a region's text."""
    kept = False
    for start, part in _top_level_parts(text):
        if not part.strip():
            continue
        if _reads_as_place(part):
            kept = True
            continue
        if kept:  # "Montréal (ca-east-1), 100% hydro-powered": the place, then prose
            head = text[:start].rstrip(" ,;|·—–-")
            return (cloud_region_id(head) or cloud_region_id(text) or head.strip()), True
        # The first part is already prose ("hydro-powered campus, ca-east-1"): the cloud
        # region's id or the place a sentence names, else the text kept (and said).
        found = cloud_region_id(text) or (region_in_text(text) or ("", ""))[0]
        return (found or text), True
    return text, False


# A vendor's name, a spaced dash or bar, then a slogan ("Example Cloud — your partner for AI
# compute", "Nube Ejemplo | la nube para entrenar modelos"): prose has lower-case words that
# are no joining words; a name spelt out after its acronym ("CICA – Consorzio
# Interuniversitario per il Calcolo Adriatico") has none but those.
_NAME_TAIL_RE = re.compile(r"\s+[—–|-]\s+|\s*;\s+|\s*\|\s*")
_MIN_PROSE_WORDS = 2


def vendor_core(text: str) -> tuple[str, bool]:
    """(the vendor's name, whether a slogan was cut from it)."""
    parts = _NAME_TAIL_RE.split(text.strip(), maxsplit=1)
    if len(parts) != 2 or not parts[0].strip():
        return text, False
    prose = [w for w in re.findall(r"[^\W\d_][\w'’-]*", parts[1])
             if w[0].islower() and w.casefold() not in _joining_words()]
    if len(prose) < _MIN_PROSE_WORDS:
        return text, False
    return parts[0].strip(), True


def shorten_texts(b: SlotReaders, values: dict[str, Any],
                  provenance: dict[str, FieldSource]) -> None:
    """Cut a vendor's description from a resolved region or vendor, and say what was cut."""
    vendor = values.get("vendor")
    if isinstance(vendor, str):
        name, cut = vendor_core(vendor)
        if cut:
            values["vendor"] = name
            source = provenance.get("vendor")
            b.note(Location(**source.where) if source else Location("?"),
                   "vendor-cut-from-description", {"name": name, "text": vendor[:120]},
                   "vendor", vendor[:120])
    region = values.get("region")
    if not isinstance(region, str):
        return
    short, cut = region_core(region)
    if not cut:
        return
    values["region"] = short
    source = provenance.get("region")
    where = Location(**source.where) if source else Location("?")
    if source is not None:
        provenance["region"] = source.model_copy(update={
            "note": f"the region named inside the vendor's description {region[:80]!r}"})
    b.note(where, "region-cut-from-description", {"region": short, "text": region[:120]},
           "region", region[:120])
