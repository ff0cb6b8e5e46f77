"""Value parsers' shared types: the errors they raise and the results they return.

Part of the one value parser (see evaltool.normalize.values for the rules and the API)."""


from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Final, Literal, get_args

from evaltool.errors import EvaltoolError, Location, Problem
from evaltool.issues import Severity
from evaltool.resources import data_dir

RawValue = str | int | float | Decimal | date | datetime | bool | None
Scope = Literal["gpu", "node"]
Direction = Literal["read", "write"]
Dimension = Literal["bandwidth", "capacity", "power", "memory", "throughput"]
DurationUnit = Literal["months", "hours", "days"]

# Canonical unit per dimension; field names in PRODUCT.md carry the same units
# (`_gbit_s`, `_tb`, `_gb`, `power_kw_per_node`, `storage_read_gbyte_s`).
CANONICAL_UNIT: Final[dict[str, str]] = {
    "bandwidth": "Gbit/s",
    "capacity": "TB",
    "memory": "GB",
    "power": "kW",
    "throughput": "GB/s",
}
HOURS_PER_MONTH: Final = 730.0  # PRODUCT.md: per-month prices use 730 hours a month
# "N business days" is elapsed time: a week of 5 business days spans 7 calendar days, so one
# business day is 24 x 7/5 = 33.6 hours (5 business days = 168 h, "next business day" =
# 33.6 h). A promise of "5 business days" made on a Friday ends a week later, not 120 hours
# later; reading it as 120 h would make a business-day promise look faster than it is. One
# rule for quotes and contracts alike (clause analysis reads durations with this parser).
BUSINESS_DAY_HOURS: Final = 24.0 * 7.0 / 5.0
UNITS_FILE: Final = data_dir() / "units.txt"  # pint definitions

EXPECTED: Final[dict[str, str]] = {
    "number": "a number such as '9,600,000', '24,80' or '2.5k'",
    "count": "a whole number such as '8' or '64 nodes'",
    "percent": "a percentage such as '99.9%' or '0.999'",
    "bandwidth": "a bandwidth such as '400 Gb/s', '8 x 400G' or '3.2 Tbps'",
    "capacity": "a capacity such as '500 TB', '2 PB' or '3 TiB'",
    "memory": "a memory size such as '80 GB' or '141 GB HBM3e'",
    "power": "a power such as '10.2 kW' or '700 W'",
    "throughput": "a throughput such as '20 GB/s read'",
    "money": "a price such as '$2.35 per GPU-hour', '€24.80/node/h' or 'USD 9,600,000'",
    "date": "a date such as '2027-02-01', '1 Feb 2027' or 'Q2 2027'",
    "duration": "a duration such as '36 months', '4 hours' or 'next business day'",
    "bool": "yes or no (also 'included', 'not included', '✓', 'x')",
}



# --------------------------------------------------------------------------- errors

# The codes a value parser's error may be reported under: each is registered with the message
# template "{reason}", the parser's own words about the one value (tests check both), so a
# caller picks a code from this list and mypy refuses any other.
ValueIssueCode = Literal["value-unreadable"]
VALUE_ISSUE_CODES: Final[tuple[str, ...]] = get_args(ValueIssueCode)


class _FoundExpectedError(EvaltoolError):
    """An error about one value: what was found and what was expected."""

    def __init__(self, message: str, *, found: str, expected: str) -> None:
        self.message = message
        self.found = found
        self.expected = expected
        super().__init__(f"{message} (found {found!r}, expected {expected})")

    def to_problem(
        self, where: Location, field: str | None = None, severity: Severity = "error",
        code: ValueIssueCode = "value-unreadable",
    ) -> Problem:
        """The same error as a :class:`Problem` that names the file, sheet and cell; its
        message is the parser's reason, rendered by the code's template."""
        return Problem(where=where, field=field, found=self.found, expected=self.expected,
                       severity=severity, code=code, params={"reason": self.message})


class ValueParseError(_FoundExpectedError):
    """A raw value could not be read as the kind the caller expected."""


class NoValueGiven(ValueParseError):
    """The cell holds a placeholder ("TBD", "contact sales", "N/A"), not a value."""


class ValueConversionError(_FoundExpectedError):
    """A parsed value cannot be turned into the unit asked for (missing facts or rates)."""


class MissingFxRate(ValueConversionError):
    """A price is in a currency for which the user gave no exchange rate."""

    def __init__(self, currency: str, found: str) -> None:
        self.currency = currency
        # The library names the rate it needs, never a flag: the CLI adds how to give it
        # (its option for rates) to issues with this code.
        super().__init__(
            f"no exchange rate for {currency}; prices are never converted with a default rate",
            found=found,
            expected=f"an exchange rate for {currency} (USD per 1 {currency})",
        )

    def to_problem(
        self, where: Location, field: str | None = None, severity: Severity = "error",
        code: ValueIssueCode = "value-unreadable",
    ) -> Problem:
        """Its own code whatever the caller's: the CLI says how to give the missing rate."""
        return Problem(where=where, field=field, found=self.found,
                       severity=severity, code="fx-rate-missing",
                       params={"reason": self.message, "currency": self.currency})


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class ParsedNumber:
    value: float
    raw: str
    notes: list[str] = field(default_factory=list)
    approximate: bool = False
    is_percent: bool = False  # the text carried a % sign


@dataclass(frozen=True, slots=True)
class ParsedCount:
    value: int
    raw: str
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ParsedQuantity:
    value: float  # total, in ``unit``
    unit: str  # canonical unit of the dimension, see CANONICAL_UNIT
    dimension: str
    raw: str
    notes: list[str] = field(default_factory=list)
    source_unit: str | None = None  # unit as written, as a pint expression ("GB/s", "TiB")
    count: int = 1  # "8 x 3.84 TB" -> 8
    each: float = 0.0  # value of one item, in ``unit``
    scope: Scope | None = None  # "per GPU" / "per node" stated in the text
    direction: Direction | None = None  # throughput: "read" / "write"
    approximate: bool = False


@dataclass(frozen=True, slots=True)
class ParsedBandwidth:
    gbit_s: float  # total, Gbit/s
    gbit_s_each: float  # one link or port, Gbit/s
    count: int  # number of links or ports ("8 x 400G" -> 8)
    scope: Scope | None
    was_bytes: bool  # the text gave bytes per second ("50 GB/s")
    raw: str
    notes: list[str] = field(default_factory=list)
    fabric: str | None = None  # infiniband | roce | ethernet | nvlink | efa | ici
    approximate: bool = False

    @property
    def value(self) -> float:
        return self.gbit_s

    @property
    def gbyte_s(self) -> float:
        return self.gbit_s / 8.0


@dataclass(frozen=True, slots=True)
class Money:
    amount: float
    currency: str  # ISO 4217 code
    per: tuple[str, ...] = ()  # ("gpu", "hour"), ("node", "hour"), ("tb", "month"), ...
    raw: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def value(self) -> float:
        return self.amount


@dataclass(frozen=True, slots=True)
class ParsedDate:
    value: date | None  # None when only a lead time after order is given
    raw: str
    notes: list[str] = field(default_factory=list)
    earliest: date | None = None  # span of a quarter / month / year; equal to value else
    latest: date | None = None
    days_after_order: float | None = None  # "8 weeks ARO" -> 56.0
    ambiguous: bool = False  # day/month order could not be told from the text

    @property
    def is_relative(self) -> bool:
        return self.value is None and self.days_after_order is not None


@dataclass(frozen=True, slots=True)
class ParsedDuration:
    value: float  # in ``unit``
    unit: str  # "months" | "hours" | "days"
    hours: float
    raw: str
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ParsedBool:
    value: bool
    raw: str
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class GpuHourPrice:
    value: float  # per GPU-hour, in ``currency``
    currency: str
    formula: str  # how it was derived, for the provenance trail
    notes: list[str] = field(default_factory=list)


