"""Read values out of vendor text: numbers, quantities, money, dates, durations, booleans.

The normaliser calls these with one raw cell or YAML value (``str``, ``int``, ``float``,
``datetime``, ``bool`` or ``None``) and the kind it expects. Each parser returns a small
frozen result holding the value in canonical units, the raw text, and ``notes``: every
assumption made on the way ("decimal comma read as 24.80", "unit was bytes per second").
A value that cannot be read raises :class:`ValueParseError` (``found``, ``expected``);
a placeholder such as "TBD" or "contact sales" raises its subclass :class:`NoValueGiven`,
so callers can tell a missing value from a malformed one. Callers add file/sheet/cell with
:meth:`ValueParseError.to_problem`.

Rules that decide ambiguous text (documented here once, tested in tests/test_values.py):

* Separators: with both ``,`` and ``.`` the last one is the decimal mark ("1.234,5" and
  "1,234.5" are both 1234.5). A single ``,`` followed by exactly three digits is a
  thousands separator ("1,234" is 1234, the English reading dominant in vendor sheets);
  with any other digit count it is a decimal comma ("24,80" is 24.8, noted). A single
  ``.`` is always a decimal point ("1.234" is 1.234). Spaces, thin spaces and apostrophes
  group thousands ("9 600 000", "1'234"). A group after the first must have three digits.
* Bits and bytes: a lower-case ``b`` is bits, an upper-case ``B`` is bytes ("Gb/s" vs
  "GB/s"); spelled-out "bit"/"byte" win. All-caps "GBPS" is ambiguous and read by the
  field's context (bits for a network, bytes for storage throughput), with a note.
  Network bandwidth is canonical in Gbit/s (NICs are quoted in bits, seed 001).
* Dates: "01/02/2027" with both parts <= 12 is read day-first (ISO 8601 and European
  order; most of the offers' non-US vendors) and noted; pass ``dayfirst=False`` for US
  sources. Dotted dates ("01.02.2027") are always day-first. A quarter, half, month or
  year is read as its last day (the conservative delivery date), noted with its span.
* Months are 730 hours (PRODUCT.md: "730 hours a month"), a year is 12 months; pint's
  own month is a Julian 730.5 h, which is why durations do not go through pint.
* "free" / "included" is ``True`` for a boolean and 0 for a price (noted).

Why these libraries: pint holds the SI and IEC prefix arithmetic (k, M, G, T, Ki, Gi,
Ti, bits vs bytes) so conversion factors are not hand-typed; its registry is built
lazily once, from the small definitions file evaltool/data/units.txt, and every factor
is cached (a number already in the canonical unit never touches pint). python-dateutil
parses month-name dates (English, German, French month names added) and validates days
per month, rather than a hand-written table of formats. Vendor spellings (unit tokens,
currency symbols, basis words) are recognised by the regular expressions below, compiled
on first use, because pint's own string parser cannot tell "Gb" from "GB" by case.
Languages: English, German and French words (Knoten, Stunde, Monat; par, heure, mois).

The public API (import from here; the modules behind it are numbers, quantities, money and
dates, their types in valuetypes):

* ``parse_number`` / ``parse_count`` / ``parse_percent``: "9,600,000", "24,80", "Twelve",
  "99.9 %".
* ``parse_quantity(raw, dimension)``: capacity (TB), memory (GB), power (kW), throughput
  (GB/s); ``parse_bandwidth``: network speeds in Gbit/s ("8 x 400G", "3.2 Tbps").
* ``parse_money``: amount, ISO currency and billing basis ("€24,80 / Knoten / h");
  ``convert_money_to_usd`` with user-given rates; ``price_per_gpu_hour`` from any basis.
* ``parse_date``: ISO, day-first, month names in EN/DE/FR ("3 avril 2027"), quarters.
* ``parse_duration(raw, unit)``: hours, days or months. "N business days" is elapsed time:
  5 business days span 7 calendar days, so one business day is 24 x 7/5 = 33.6 h
  (``BUSINESS_DAY_HOURS``; "5 business days" = 168 h, "next business day" = 33.6 h). Clause
  analysis reads its durations with this parser, so quotes and contracts agree.
* ``parse_bool``: yes/no words in EN/DE/FR.

Each raises ``ValueParseError`` (``NoValueGiven`` for "TBD") and never returns a guess
without a note.
"""

from __future__ import annotations

from evaltool.grammar.money import (
    basis_label,
    convert_money_to_usd,
    parse_money,
    price_per_gpu_hour,
)
from evaltool.grammar.numbers import parse_count, parse_number, parse_percent
from evaltool.grammar.quantities import parse_bandwidth, parse_quantity, unit_factor
from evaltool.grammar.valuetypes import (
    BUSINESS_DAY_HOURS,
    CANONICAL_UNIT,
    EXPECTED,
    HOURS_PER_MONTH,
    GpuHourPrice,
    MissingFxRate,
    Money,
    NoValueGiven,
    ParsedBandwidth,
    ParsedBool,
    ParsedCount,
    ParsedDate,
    ParsedDuration,
    ParsedNumber,
    ParsedQuantity,
    RawValue,
    ValueConversionError,
    ValueParseError,
)
from evaltool.normalize.dates import (
    before_signing_deadline,
    is_signing_deadline,
    parse_bool,
    parse_date,
    parse_duration,
)

__all__ = [
    "BUSINESS_DAY_HOURS", "CANONICAL_UNIT", "EXPECTED", "HOURS_PER_MONTH", "GpuHourPrice",
    "MissingFxRate", "Money",
    "NoValueGiven", "ParsedBandwidth", "ParsedBool", "ParsedCount", "ParsedDate",
    "ParsedDuration", "ParsedNumber", "ParsedQuantity", "RawValue", "ValueConversionError",
    "ValueParseError", "basis_label", "before_signing_deadline", "convert_money_to_usd",
    "is_signing_deadline", "parse_bandwidth", "parse_bool",
    "parse_count", "parse_date", "parse_duration", "parse_money", "parse_number",
    "parse_percent", "parse_quantity", "price_per_gpu_hour", "unit_factor",
]
