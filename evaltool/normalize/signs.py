"""Say what a shared currency sign ("$", "kr") was taken to mean, when the document does not
state it outright (the reading itself: evaltool.read.currency_signs)."""

from __future__ import annotations

from collections.abc import Mapping

from evaltool.errors import Location
from evaltool.grammar.currency_signs import SignReading, sign_of, signs_written
from evaltool.normalize.slots import SlotReaders
from evaltool.read.currency_signs import record_texts


def note_shared_signs(b: SlotReaders, readings: Mapping[str, SignReading]) -> None:
    """A warning for each shared sign the offer writes whose currency was assumed from the
    document's places, tax words or domain, or that several stated currencies leave open."""
    where = Location(str(b.record.source.get("file", "")), sheet=b.record.source.get("sheet"))
    for family in signs_written(record_texts(b.record)):
        reading = readings.get(family)
        if reading is None or reading.strength in ("stated", "default", "none"):
            continue
        evidence = ", ".join(repr(e) for e in reading.evidence)
        if reading.strength == "assumed":
            b.note(where, "currency-sign-assumed",
                   {"sign": sign_of(family), "currency": str(reading.currency),
                    "evidence": evidence}, "currency", reading.evidence[0])
        else:
            b.note(where, "currency-sign-ambiguous",
                   {"sign": sign_of(family), "currencies": ", ".join(reading.candidates),
                    "currency": reading.currency or "none (amounts with it not read)",
                    "evidence": evidence}, "currency", evidence)
