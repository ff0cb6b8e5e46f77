"""A record's currency signs: which texts of one offer's record are evidence of its currency,
and what its shared signs ("$", "kr") mean for the values the read layer already took.

The weighing itself is the grammar's (evaltool/grammar/currency_signs.py); this module only
knows the record the reader builds.
"""

from __future__ import annotations

from evaltool.grammar.currency_signs import _NOT_THE_VENDOR_RE, SignReading, read_signs
from evaltool.read.cells import RawRecord, cell_text


def record_texts(record: RawRecord) -> list[str]:
    """Every text of one offer's record a reader may take a currency's evidence from (the
    buyer's and the data centre's cells left out)."""
    texts = [record.title or ""]
    for cand in record.candidates:
        if _NOT_THE_VENDOR_RE.match(cand.label):
            continue
        texts += [cand.label, cell_text(cand.value), cand.note or ""]
        if "_" in cand.label:  # a key that names its currency: "list_usd", "price_cad"
            texts.append(cand.label.upper())
    for item in record.line_items:
        texts += [item.description, *item.raw.values()]
        texts += [f"{h} {cell_text(v)}" for h, v, _ in item.fields]
    texts += [t for t, _ in (*record.notes, *record.banners, *record.footers)
              if not _NOT_THE_VENDOR_RE.match(t)]
    texts += [str(v) for v in record.properties.values()]
    return texts


def settle_record(record: RawRecord) -> dict[str, SignReading]:
    """What the record's shared signs mean; where "$" is a dollar other than the US one, the
    line items and number formats the read layer took as USD (it can only have taken them from
    a bare "$" or "dollars": the document states no USD) are that dollar."""
    readings = read_signs(record_texts(record))
    dollar = readings.get("dollar")
    if dollar is not None and dollar.currency not in (None, "USD") \
            and dollar.strength in ("stated", "assumed"):
        for item in record.line_items:
            if item.currency == "USD":
                item.currency = dollar.currency
        if record.properties.get("number_format_currency") == "USD":
            record.properties["number_format_currency"] = dollar.currency
    return readings
