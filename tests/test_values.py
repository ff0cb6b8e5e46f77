"""Reading values out of vendor text: the spelling a vendor used must not change the number.

Oracles: the worked examples in the task brief and PRODUCT.md, the bits/bytes arithmetic
stated in shared/research/mfu-specs.md, and the public price sample in
shared/data/public-offers (instance price / GPU count = its per-GPU column).
"""

from __future__ import annotations

import csv
import math
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaltool.errors import EvaltoolError, Location
from evaltool.normalize.values import (
    MissingFxRate,
    Money,
    NoValueGiven,
    ValueConversionError,
    ValueParseError,
    basis_label,
    convert_money_to_usd,
    parse_bandwidth,
    parse_bool,
    parse_count,
    parse_date,
    parse_duration,
    parse_money,
    parse_number,
    parse_percent,
    parse_quantity,
    price_per_gpu_hour,
)

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def any_note(notes: list[str], fragment: str) -> bool:
    return any(fragment in note for note in notes)


# ----------------------------------------------------------------------------- numbers

NUMBERS = [
    ("9,600,000", 9_600_000.0),
    ("9 600 000", 9_600_000.0),
    ("9\u202f600\u202f000", 9_600_000.0),  # narrow no-break space, as French Excel writes
    ("9'600'000", 9_600_000.0),
    ("24,80", 24.8),
    ("1.234,5", 1234.5),
    ("1,234.5", 1234.5),
    ("1,234", 1234.0),  # documented rule: one comma + three digits = thousands
    ("0,125", 0.125),  # a thousands group never starts with 0
    ("1234,567", 1234.567),
    ("1.234", 1.234),  # a single dot is always a decimal point
    ("1.234.567", 1_234_567.0),
    ("1 234,56", 1234.56),
    ("2.5k", 2500.0),
    ("2.5 M", 2_500_000.0),
    ("3 Mio.", 3_000_000.0),
    ("~80", 80.0),
    ("≈ 3", 3.0),
    ("ca. 12", 12.0),
    ("1e3", 1000.0),
    ("2.5E-3", 0.0025),
    ("99.9 %", 99.9),
    ("-5", -5.0),
    ("−7.5", -7.5),  # unicode minus
    ("(1,234.00)", -1234.0),
    (".5", 0.5),
    ("80+", 80.0),
    (42, 42.0),
    (24.799999999999997, 24.8),  # Excel binary noise
    (0.1 + 0.2, 0.3),
    (Decimal("19.92"), 19.92),
]


@pytest.mark.parametrize(("raw", "expected"), NUMBERS)
def test_number_spellings_read_to_the_same_value(raw: object, expected: float) -> None:
    assert close(parse_number(raw).value, expected)  # type: ignore[arg-type]


def test_decimal_comma_is_noted_with_the_value_it_was_read_as() -> None:
    assert parse_number("24,80").notes == ["decimal comma read as 24.80"]
    assert parse_number("1,234").notes == []


def test_approximate_and_percent_are_flagged() -> None:
    approx = parse_number("~80")
    assert approx.approximate and any_note(approx.notes, "approximate")
    assert parse_number("99.9 %").is_percent
    assert not parse_number("99.9").is_percent


@pytest.mark.parametrize(
    "raw", ["abc", "1.2.3", "12 apples", "1,23,4", "(5", "1.234.56", "5 m", True]
)
def test_malformed_numbers_raise_with_found_and_expected(raw: object) -> None:
    with pytest.raises(ValueParseError) as info:
        parse_number(raw)  # type: ignore[arg-type]
    assert not isinstance(info.value, NoValueGiven)
    assert info.value.found == str(raw)
    assert "number" in info.value.expected


@pytest.mark.parametrize(
    "raw",
    ["TBD", "call us", "on request", "contact sales", "N/A", "-", "?", "", "  ", None,
     float("nan"), "Contact sales for pricing", "tba", "k.A."],
)
def test_placeholders_are_no_value_given_not_malformed(raw: object) -> None:
    with pytest.raises(NoValueGiven) as info:
        parse_number(raw)  # type: ignore[arg-type]
    assert "no value given" in str(info.value)


def test_errors_are_evaltool_errors_and_become_problems_with_location() -> None:
    with pytest.raises(EvaltoolError) as info:
        parse_bandwidth("fast")
    assert isinstance(info.value, ValueParseError)
    problem = info.value.to_problem(
        Location("acme.xlsx", sheet="Offer", cell="C7"), field="inter_node_gbit_s_per_node"
    )
    text = str(problem)
    assert "acme.xlsx › Offer › C7" in text
    assert "'fast'" in text and "400 Gb/s" in text


@pytest.mark.parametrize(
    ("raw", "expected"),
    [(8, 8), ("8", 8), ("8 GPUs", 8), ("64 nodes", 64), ("1,024", 1024), ("64 x 8", 512),
     (512.0, 512)],
)
def test_counts(raw: object, expected: int) -> None:
    assert parse_count(raw).value == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("raw", ["8.5", 8.5, "-2", "eight"])
def test_counts_must_be_whole(raw: object) -> None:
    with pytest.raises(ValueParseError):
        parse_count(raw)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- percent

PERCENTS = [
    ("99.9%", 99.9, False),
    ("99,95 %", 99.95, False),
    ("0.999", 99.9, True),
    (0.999, 99.9, True),
    (99.5, 99.5, False),
    ("99.99% monthly", 99.99, False),
    ("three nines", 99.9, False),
    ("Helios targets 99.9% monthly availability.", 99.9, False),
    ("25 percent", 25.0, False),
]


@pytest.mark.parametrize(("raw", "expected", "fraction_noted"), PERCENTS)
def test_percent(raw: object, expected: float, fraction_noted: bool) -> None:
    parsed = parse_percent(raw)  # type: ignore[arg-type]
    assert close(parsed.value, expected)
    assert any_note(parsed.notes, "fraction") is fraction_noted


def test_percent_fraction_rule_can_be_switched_off_for_credit_fields() -> None:
    assert parse_percent("1", allow_fraction=False).value == 1.0
    assert parse_percent("1").value == 100.0


@pytest.mark.parametrize("raw", ["150%", "-3%", "lots", "99.9% or 99.5% depending on tier"])
def test_percent_out_of_range_or_malformed(raw: str) -> None:
    with pytest.raises(ValueParseError):
        parse_percent(raw)


# ----------------------------------------------------------------------------- bandwidth

# (raw, total Gbit/s, each Gbit/s, count, scope, was_bytes, fabric)
BANDWIDTHS = [
    ("8 × 400 Gb/s NDR per node", 3200, 400, 8, "node", False, "infiniband"),
    ("8 × 400 Gb/s NDR InfiniBand per node", 3200, 400, 8, "node", False, "infiniband"),
    ("400GbE x8", 3200, 400, 8, None, False, "ethernet"),
    ("8x400G", 3200, 400, 8, None, False, None),
    ("3.2 Tbps", 3200, 3200, 1, None, False, None),
    ("3,2 Tbit/s", 3200, 3200, 1, None, False, None),
    ("400 Gbps", 400, 400, 1, None, False, None),
    ("400 Gbit/s per GPU", 400, 400, 1, "gpu", False, None),
    ("400 Gb/s /GPU", 400, 400, 1, "gpu", False, None),
    ("3.2 Tb/s per server", 3200, 3200, 1, "node", False, None),
    ("50 GB/s", 400, 400, 1, None, True, None),
    ("900 GB/s NVLink", 7200, 7200, 1, None, True, "nvlink"),
    ("100GE", 100, 100, 1, None, False, "ethernet"),
    ("25 Gigabit Ethernet", 25, 25, 1, None, False, "ethernet"),
    ("ConnectX-7 400Gb/s NDR x 8", 3200, 400, 8, None, False, "infiniband"),
    ("400G x 8 ports", 3200, 400, 8, None, False, None),
    ("3200 Gbps EFA per instance", 3200, 3200, 1, "node", False, "efa"),
    ("NDR 400G InfiniBand, 8 ports per system", 3200, 400, 8, "node", False, "infiniband"),
    ("HDR InfiniBand 8x 200 Gb/s pro Knoten", 1600, 200, 8, "node", False, "infiniband"),
    ("ICI 3D torus (4,800 Gbps per chip)", 4800, 4800, 1, "gpu", False, "ici"),
    ("800 Mb/s", 0.8, 0.8, 1, None, False, None),
    ("2 x 200 Gb/s RoCE per GPU", 400, 200, 2, "gpu", False, "roce"),
    ("8x ConnectX-7 400G InfiniBand", 3200, 400, 8, None, False, "infiniband"),
    ("8 NICs x 400 Gb/s", 3200, 400, 8, None, False, None),
    ("3.2 Tbps (8 x 400G) per node", 3200, 400, 8, "node", False, None),
    ("8x NDR", 3200, 400, 8, None, False, "infiniband"),
    ("4x HDR200", 800, 200, 4, None, False, "infiniband"),
    ("1600 Gb/s RoCE per node", 1600, 1600, 1, "node", False, "roce"),
    ("~400 Gbps", 400, 400, 1, None, False, None),
    ("400 Gb NDR", 400, 400, 1, None, False, "infiniband"),
    (" 400\u00a0Gb/s ", 400, 400, 1, None, False, None),
]


@pytest.mark.parametrize(
    ("raw", "total", "each", "count", "scope", "was_bytes", "fabric"), BANDWIDTHS
)
def test_bandwidth_spellings(
    raw: str, total: float, each: float, count: int, scope: str | None, was_bytes: bool,
    fabric: str | None,
) -> None:
    parsed = parse_bandwidth(raw)
    assert close(parsed.gbit_s, total) and close(parsed.value, total)
    assert close(parsed.gbit_s_each, each)
    assert parsed.count == count
    assert parsed.scope == scope
    assert parsed.was_bytes is was_bytes
    assert parsed.fabric == fabric


def test_product_md_network_spellings_agree() -> None:
    """PRODUCT.md lists these as the same thing written three ways."""
    values = {parse_bandwidth(s).gbit_s for s in
              ("8 × 400 Gb/s NDR InfiniBand per node", "3.2 Tbps", "400GbE x8")}
    assert values == {3200.0}


@pytest.mark.parametrize(
    ("raw", "gbyte_s_per_node", "gbyte_s_per_gpu"),
    [  # shared/research/mfu-specs.md "Bits vs bytes" and the BLOOM row
        ("8 x 400 Gbit/s NDR per node", 400.0, 50.0),
        ("8 x 200 Gbit/s Ethernet", 200.0, 25.0),
        ("4 x 100 Gb/s Omni-Path per node", 50.0, 6.25),
    ],
)
def test_bits_vs_bytes_arithmetic_matches_research_notes(
    raw: str, gbyte_s_per_node: float, gbyte_s_per_gpu: float
) -> None:
    parsed = parse_bandwidth(raw)
    assert close(parsed.gbyte_s, gbyte_s_per_node)
    assert close(parsed.gbyte_s / 8, gbyte_s_per_gpu)  # 8 GPUs per node in both notes


def test_bytes_are_reported_so_the_memo_can_say_so() -> None:
    parsed = parse_bandwidth("IB 50 GB/s per GPU")  # DeepSeek-V3, mfu-specs.md
    assert parsed.was_bytes and parsed.gbit_s == 400.0 and parsed.scope == "gpu"
    assert any_note(parsed.notes, "bytes per second")


def test_two_scopes_keep_the_first_and_note_the_other() -> None:
    parsed = parse_bandwidth("400 Gb/s per GPU (3.2 Tb/s per node)")
    assert parsed.gbit_s == 400.0 and parsed.scope == "gpu"
    assert any_note(parsed.notes, "3200 Gbit/s per node")


def test_all_caps_gbps_is_ambiguous_and_noted() -> None:
    parsed = parse_bandwidth("10 GBPS")
    assert parsed.gbit_s == 10.0 and any_note(parsed.notes, "ambiguous")
    storage = parse_quantity("10 GBPS", "throughput")
    assert storage.value == 10.0 and any_note(storage.notes, "ambiguous")


@pytest.mark.parametrize(
    "raw", ["fast", "400", "400 Gb/s or 200 Gb/s", "400 GPUs", "100 Gb/s and 200 Gb/s"]
)
def test_bandwidth_errors(raw: str) -> None:
    with pytest.raises(ValueParseError) as info:
        parse_bandwidth(raw)
    assert "bandwidth" in info.value.expected


@pytest.mark.parametrize("raw", ["2 400Gb/s ports", "1 000 GB"])
def test_a_plain_space_before_three_digits_is_refused_not_guessed(raw: str) -> None:
    """'2 400Gb/s' may be 2 ports or 2400 Gb/s; '1 000 GB' would otherwise read as 0 GB."""
    dimension = "memory" if "GB" in raw else "bandwidth"
    with pytest.raises(ValueParseError, match="ambiguous"):
        parse_quantity(raw, dimension)
    assert parse_quantity("1\u202f000 GB", "memory").value == 1000.0  # Excel's French grouping


def test_bare_bandwidth_number_uses_the_header_unit() -> None:
    assert parse_bandwidth(400, default_unit="Gbit/s").gbit_s == 400.0
    parsed = parse_bandwidth("50", default_unit="GB/s")
    assert parsed.gbit_s == 400.0 and any_note(parsed.notes, "no unit given")


# ----------------------------------------------------------------------------- quantities

QUANTITIES = [
    ("2 PB", "capacity", 2000.0),
    ("500 TB", "capacity", 500.0),
    ("3 TiB", "capacity", 3.298534883328),
    ("30.72 TB", "capacity", 30.72),
    ("8 x 3.84 TB NVMe", "capacity", 30.72),
    ("1,5 PB Lustre", "capacity", 1500.0),
    ("80GB", "memory", 80.0),
    ("141 GB HBM3e", "memory", 141.0),
    ("NVIDIA HGX H100 SXM5 80GB", "memory", 80.0),
    ("192 GB HBM3e at 8 TB/s", "memory", 192.0),
    ("2 TB DDR5", "memory", 2000.0),
    ("80 GiB", "memory", 85.89934592),
    ("10.2 kW", "power", 10.2),
    ("700 W", "power", 0.7),
    ("10,2 kW per node", "power", 10.2),
    ("5.6 kilowatts", "power", 5.6),
    ("192 Go", "memory", 192.0),
    ("2 To", "capacity", 2.0),
    ("20 GB/s read", "throughput", 20.0),
    ("160 Gbps", "throughput", 20.0),
    ("1.2 TB/s aggregate", "throughput", 1200.0),
    ("400 Gb/s", "bandwidth", 400.0),
]


@pytest.mark.parametrize(("raw", "dimension", "expected"), QUANTITIES)
def test_quantities_in_canonical_units(raw: str, dimension: str, expected: float) -> None:
    parsed = parse_quantity(raw, dimension)
    assert close(parsed.value, expected)
    assert parsed.unit == {"capacity": "TB", "memory": "GB", "power": "kW",
                           "throughput": "GB/s", "bandwidth": "Gbit/s"}[dimension]


def test_binary_units_are_noted() -> None:
    parsed = parse_quantity("3 TiB", "capacity")
    assert parsed.value == 3.298534883328
    assert any_note(parsed.notes, "binary unit")
    assert not parse_quantity("3 TB", "capacity").notes


def test_counted_items_keep_count_and_each() -> None:
    parsed = parse_quantity("8 x 3.84 TB NVMe per node", "capacity")
    assert (parsed.count, parsed.each, parsed.scope) == (8, 3.84, "node")


def test_throughput_direction_picks_read_or_write() -> None:
    text = "20 GB/s read, 10 GB/s write"
    assert parse_quantity(text, "throughput", direction="read").value == 20.0
    assert parse_quantity(text, "throughput", direction="write").value == 10.0
    with pytest.raises(ValueParseError, match="direction"):
        parse_quantity(text, "throughput")


def test_bits_for_storage_throughput_are_converted_and_noted() -> None:
    parsed = parse_quantity("160 Gbps", "throughput")
    assert parsed.value == 20.0 and any_note(parsed.notes, "bits per second")


@pytest.mark.parametrize(
    ("raw", "dimension"),
    [("8 to 10 GB", "memory"), ("100-200 Gb/s", "bandwidth"), ("80 Gb", "memory"),
     ("4.8 TB/s", "memory"), ("huge", "capacity"), ("80", "memory"),
     ("700 W", "capacity")],
)
def test_quantity_errors(raw: str, dimension: str) -> None:
    with pytest.raises(ValueParseError) as info:
        parse_quantity(raw, dimension)
    if "-" in raw or " to " in raw:
        assert "range" in info.value.message


def test_quantity_fast_path_for_numbers_with_a_header_unit() -> None:
    assert parse_quantity(80, "memory", default_unit="GB").value == 80.0
    assert parse_quantity(2.0, "capacity", default_unit="PB").value == 2000.0
    with pytest.raises(ValueParseError, match="without a unit"):
        parse_quantity(80, "memory")


def test_gib_memory_column_of_public_sample_reads_as_decimal_gb() -> None:
    """gpu-vm-offers.csv gives memory in GiB; 80 GiB must become 85.9 GB, not 80."""
    path = SHARED / "data" / "public-offers" / "gpu-vm-offers.csv"
    if not path.exists():
        pytest.skip("shared data not present")
    with path.open(newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["gpu_memory_gib_each"]]
    assert rows
    for row in rows:
        gib = float(row["gpu_memory_gib_each"])
        parsed = parse_quantity(f"{row['gpu_memory_gib_each']} GiB", "memory")
        assert close(parsed.value, gib * 1.073741824)


# ----------------------------------------------------------------------------- money

MONEY = [
    ("$2.35 per GPU-hour", 2.35, "USD", ("gpu", "hour")),
    ("USD 180 per kW per month", 180.0, "USD", ("kw", "month")),
    ("€24.80/node/h", 24.8, "EUR", ("node", "hour")),
    ("24,80 € / Knoten / h", 24.8, "EUR", ("node", "hour")),
    ("$19.92 per node-hour", 19.92, "USD", ("node", "hour")),
    ("£1.2M", 1_200_000.0, "GBP", ()),
    ("USD 9,600,000", 9_600_000.0, "USD", ()),
    ("$0.08/GB egress", 0.08, "USD", ("gb",)),
    ("$45 per TB-month", 45.0, "USD", ("tb", "month")),
    ("2.1 USD/GPU/hr", 2.1, "USD", ("gpu", "hour")),
    ("EUR 1.234,50 per month", 1234.5, "EUR", ("month",)),
    ("A$3.10/GPU/hr", 3.1, "AUD", ("gpu", "hour")),
    ("C$ 4.00 per GPU-hour", 4.0, "CAD", ("gpu", "hour")),
    ("S$2.80/GPU/h", 2.8, "SGD", ("gpu", "hour")),
    ("CHF 2.50 per GPU per hour", 2.5, "CHF", ("gpu", "hour")),
    ("USD 2.35 per hour per GPU", 2.35, "USD", ("gpu", "hour")),
    ("¥500 per hour", 500.0, "JPY", ("hour",)),
    ("$1,500 per GPU-month", 1500.0, "USD", ("gpu", "month")),
    ("USD 9 600 000 for the term", 9_600_000.0, "USD", ("term",)),
    ("$12,000 monthly", 12000.0, "USD", ("month",)),
    ("$0.12/kWh", 0.12, "USD", ("kwh",)),
    ("$2 a month", 2.0, "USD", ("month",)),
    ("$250k upfront", 250_000.0, "USD", ("once",)),
    ("EUR 3.5 Mio. per year", 3_500_000.0, "EUR", ("year",)),
    ("2,49 EUR pro GPU pro Stunde", 2.49, "EUR", ("gpu", "hour")),
    ("US$ 98.32/hr", 98.32, "USD", ("hour",)),
    ("1.5 million dollars total", 1_500_000.0, "USD", ("term",)),
    ("USD2.35/GPU-Hr", 2.35, "USD", ("gpu", "hour")),
    ("$/GPU-hr: 2.35", 2.35, "USD", ("gpu", "hour")),
    ("Price per GPU-hour: €2.10", 2.10, "EUR", ("gpu", "hour")),
    ("$3.5M over 3 years", 3_500_000.0, "USD", ("term",)),
    ("1.234,50 EUR monatlich", 1234.5, "EUR", ("month",)),
    ("$0.0000325 per GPU-second", 0.0000325, "USD", ("gpu", "second")),
    ("-$500 credit", -500.0, "USD", ()),
    ("8x H100 node at $18.80/hr", 18.8, "USD", ("hour",)),
    ("$2.94 per chip-hour (1-year CUD)", 2.94, "USD", ("gpu", "hour")),
]


@pytest.mark.parametrize(("raw", "amount", "currency", "per"), MONEY)
def test_money(raw: str, amount: float, currency: str, per: tuple[str, ...]) -> None:
    money = parse_money(raw)
    assert close(money.amount, amount) and close(money.value, amount)
    assert money.currency == currency
    assert money.per == per
    assert money.raw == raw


@pytest.mark.parametrize(
    ("raw", "amount", "per"),
    [  # French quotes: tests/offers_corpus/kv_french_cp1252.csv and the same style
        ("2,10 € par GPU-heure", 2.10, ("gpu", "hour")),
        ("1 500 € HT par nœud par mois", 1500.0, ("node", "month")),
        ("0,08 € par Go", 0.08, ("gb",)),  # Go = gigaoctet
        ("5 € par seat", None, None),
    ],
)
def test_french_prices(raw: str, amount: float | None, per: tuple[str, ...] | None) -> None:
    if amount is None:  # an unknown basis is refused, not guessed
        with pytest.raises(ValueParseError, match="unknown price basis"):
            parse_money(raw)
        return
    money = parse_money(raw)
    assert (money.amount, money.currency, money.per) == (amount, "EUR", per)


def test_french_other_values() -> None:
    assert parse_duration("6 mois", "months").value == 6.0
    network = parse_bandwidth("RoCE 8 x 400 Gb/s par noeud, dédié")
    assert (network.gbit_s, network.scope, network.fabric) == (3200.0, "node", "roce")
    assert parse_date("1er mars 2027").value == date(2027, 3, 1)
    assert parse_date("8 semaines après commande").days_after_order == 56.0
    assert parse_bool("dédié", true_words=["dédié"], false_words=["partagé"]).value


def test_money_notes_record_assumptions() -> None:
    assert any_note(parse_money("24,80 € / Knoten / h").notes, "decimal comma read as 24.80")
    assert any_note(parse_money("¥500").notes, "JPY")
    assert any_note(parse_money("$12,000 monthly excl. VAT").notes, "excludes VAT")
    assert any_note(parse_money("from $2.10/GPU-hr").notes, "lower bound")
    assert any_note(parse_money("$2.35/GPU-hr billed per second").notes, "billing")


def test_price_per_tib_is_rescaled_to_per_tb() -> None:
    money = parse_money("$0.10 per TiB-month")
    assert money.per == ("tb", "month")
    assert close(money.amount, 0.10 / 1.099511627776)
    assert any_note(money.notes, "TiB")


@pytest.mark.parametrize("raw", ["free", "included", "none", "no charge"])
def test_free_is_a_zero_price(raw: str) -> None:
    money = parse_money(raw, currency="EUR", per=("gb",))
    assert money.amount == 0.0 and money.currency == "EUR" and money.per == ("gb",)
    assert money.notes


def test_header_supplies_currency_and_basis_for_bare_numbers() -> None:
    money = parse_money(2.35, currency="usd", per=("gpu", "hour"))
    assert money == Money(2.35, "USD", ("gpu", "hour"), "2.35", [])
    assert parse_money("24,80", currency="EUR", per=("node", "hour")).amount == 24.8
    # text wins over the header, and a different currency is noted
    assert parse_money("$19.92 per node-hour", per=("gpu", "hour")).per == ("node", "hour")
    money = parse_money("$19.92 per node-hour", currency="EUR")
    assert money.currency == "USD" and any_note(money.notes, "EUR was expected")


def test_second_price_on_another_basis_is_noted() -> None:
    money = parse_money("$2.35 per GPU-hour ($18.80 per node-hour)")
    assert money.amount == 2.35 and any_note(money.notes, "18.8 USD per node-hour")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("$2.35/GPU-hr reserved, $3.10/GPU-hr on-demand", "several prices"),
        ("$5 per seat", "unknown price basis 'seat'"),
        ("2.35", "without a currency"),
        ("$24.80 EUR", "two currencies"),
        ("cheap", "no amount"),
        ("$1.99-$2.49/GPU/hr", "price range"),
    ],
)
def test_money_errors(raw: str, message: str) -> None:
    with pytest.raises(ValueParseError, match=message) as info:
        parse_money(raw)
    assert "price such as" in info.value.expected


@pytest.mark.parametrize("raw", ["POA", "price on request", "TBD", "contact sales", None])
def test_money_placeholders(raw: str | None) -> None:
    with pytest.raises(NoValueGiven):
        parse_money(raw)


def test_deepseek_cost_figures_from_research_notes() -> None:
    """mfu-specs.md: 2.788M GPU-hours at $2/GPU-h = $5.576M."""
    total = parse_money("$5.576M")
    rate = parse_money("$2/GPU-h")
    assert rate.per == ("gpu", "hour")
    assert close(total.amount, 2.788e6 * rate.amount)


def test_fx_conversion_needs_an_explicit_rate() -> None:
    money = parse_money("€24.80/node/h")
    with pytest.raises(MissingFxRate) as info:
        convert_money_to_usd(money, {})
    assert info.value.currency == "EUR" and "exchange rate for EUR" in str(info.value)
    assert close(convert_money_to_usd(money, {"EUR": 1.10}), 27.28)
    assert convert_money_to_usd(parse_money("$3"), {}) == 3.0
    with pytest.raises(ValueConversionError, match="positive"):
        convert_money_to_usd(money, {"EUR": 0.0})


# (raw, gpus_per_node, gpu_count, term_months, expected per GPU-hour)
GPU_HOUR = [
    ("$2.35 per GPU-hour", 8, None, None, 2.35),
    ("$19.92 per node-hour", 8, None, None, 2.49),
    ("$1,715.50 per GPU-month", 8, None, None, 2.35),
    ("$13,724 per node per month", 8, None, None, 2.35),
    ("$150,000 per month", 8, 64, None, 150_000 / (64 * 730)),
    ("USD 9,600,000 for the term", 8, 512, 36, 9_600_000 / (512 * 36 * 730)),
    ("$20,586 per GPU per year", 8, None, None, 2.35),
    ("$56.40 per GPU per day", 8, None, None, 2.35),
    ("$0.00065278 per GPU-second", 8, None, None, 0.00065278 * 3600),
]


@pytest.mark.parametrize(("raw", "per_node", "count", "term", "expected"), GPU_HOUR)
def test_price_per_gpu_hour(
    raw: str, per_node: int, count: int | None, term: int | None, expected: float
) -> None:
    result = price_per_gpu_hour(parse_money(raw), per_node, gpu_count=count, term_months=term)
    assert close(result.value, expected)
    assert result.currency == "USD"
    assert "per GPU-hour" in result.formula


def test_price_per_gpu_hour_formula_and_fx() -> None:
    result = price_per_gpu_hour(parse_money("24,80 € / Knoten / h"), 8, fx_rates={"EUR": 1.1})
    assert close(result.value, 24.8 * 1.1 / 8) and result.currency == "USD"
    assert result.formula == "27.28 USD per node-hour / 8 GPUs per node = 3.41 USD per GPU-hour"


@pytest.mark.parametrize(
    ("money", "kwargs", "message"),
    [
        (Money(19.92, "USD", ("node", "hour")), {}, "GPUs per node"),
        (Money(150_000, "USD", ("month",)), {"gpus_per_node": 8}, "GPU count"),
        (Money(9.6e6, "USD", ("term",)), {"gpus_per_node": 8, "gpu_count": 512}, "term"),
        (Money(45, "USD", ("tb", "month")), {"gpus_per_node": 8}, "not a compute price"),
        (Money(9.6e6, "USD", ()), {"gpus_per_node": 8, "gpu_count": 8}, "time basis"),
    ],
)
def test_price_per_gpu_hour_refuses_missing_facts(
    money: Money, kwargs: dict[str, int], message: str
) -> None:
    gpus_per_node = kwargs.pop("gpus_per_node", None)
    with pytest.raises(ValueConversionError, match=message):
        price_per_gpu_hour(money, gpus_per_node, **kwargs)  # type: ignore[arg-type]


def test_public_sample_instance_prices_match_their_per_gpu_column() -> None:
    """gpu-vm-offers.csv: price_ondemand_usd_per_gpu_hr = instance price / gpu_count."""
    path = SHARED / "data" / "public-offers" / "gpu-vm-offers.csv"
    if not path.exists():
        pytest.skip("shared data not present")
    with path.open(newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["price_ondemand_usd_per_hr"]]
    assert len(rows) > 200
    for row in rows:
        money = parse_money(f"${row['price_ondemand_usd_per_hr']} per node-hour")
        result = price_per_gpu_hour(money, int(row["gpu_count"]))
        assert math.isclose(
            result.value, float(row["price_ondemand_usd_per_gpu_hr"]), rel_tol=1e-4
        ), row["row_id"]


def test_basis_label() -> None:
    assert basis_label(("gpu", "hour")) == "GPU-hour"
    assert basis_label(("tb", "month")) == "TB-month"


# ----------------------------------------------------------------------------- dates

DATES = [
    ("2027-02-01", date(2027, 2, 1)),
    ("2027-02-01T00:00:00", date(2027, 2, 1)),
    ("1 Feb 2027", date(2027, 2, 1)),
    ("February 1st, 2027", date(2027, 2, 1)),
    ("Feb. 1 2027", date(2027, 2, 1)),
    ("1. März 2027", date(2027, 3, 1)),
    ("01/02/2027", date(2027, 2, 1)),  # day-first by rule, noted
    ("13/02/2027", date(2027, 2, 13)),
    ("02/13/2027", date(2027, 2, 13)),
    ("01.02.2027", date(2027, 2, 1)),
    (datetime(2027, 2, 1, 9, 30), date(2027, 2, 1)),
    (date(2027, 2, 1), date(2027, 2, 1)),
    (46419, date(2027, 2, 1)),  # Excel serial
    ("12 weeks ARO, target 2027-04-30", date(2027, 4, 30)),
    ("Q2 2027", date(2027, 6, 30)),
    ("2027-Q3", date(2027, 9, 30)),
    ("3Q27", date(2027, 9, 30)),
    ("H1 2027", date(2027, 6, 30)),
    ("Feb 2027", date(2027, 2, 28)),
    ("2028-02", date(2028, 2, 29)),
    ("2027", date(2027, 12, 31)),
    ("delivery by 15 March 2027", date(2027, 3, 15)),
    ("2027/04/30", date(2027, 4, 30)),
    ("30.04.27", date(2027, 4, 30)),
    ("Q2'27", date(2027, 6, 30)),
]


@pytest.mark.parametrize(("raw", "expected"), DATES)
def test_dates(raw: object, expected: date) -> None:
    assert parse_date(raw).value == expected  # type: ignore[arg-type]


def test_ambiguous_day_month_is_flagged_and_switchable() -> None:
    parsed = parse_date("01/02/2027")
    assert parsed.ambiguous and any_note(parsed.notes, "ambiguous")
    assert parse_date("01/02/2027", dayfirst=False).value == date(2027, 1, 2)
    assert not parse_date("13/02/2027").ambiguous
    assert not parse_date("01.02.2027").ambiguous


def test_quarter_is_its_last_day_with_the_span_noted() -> None:
    parsed = parse_date("Q2 2027")
    assert (parsed.earliest, parsed.latest) == (date(2027, 4, 1), date(2027, 6, 30))
    assert any_note(parsed.notes, "conservative")
    assert parse_date("Q2 2027", prefer="start").value == date(2027, 4, 1)


def test_target_date_wins_over_lead_time_and_both_are_noted() -> None:
    parsed = parse_date("12 weeks ARO, target 2027-04-30")
    assert parsed.value == date(2027, 4, 30)
    assert any_note(parsed.notes, "12 weeks")


@pytest.mark.parametrize(
    ("raw", "days"),
    [("8 weeks ARO", 56.0), ("6-8 weeks after order", 56.0), ("30 days from PO", 30.0),
     ("within 10 business days", 14.0), ("immediately", 0.0)],
)
def test_lead_time_only_is_a_duration_not_a_date(raw: str, days: float) -> None:
    parsed = parse_date(raw)
    assert parsed.value is None and parsed.is_relative
    assert parsed.days_after_order == days
    assert parsed.notes


@pytest.mark.parametrize("raw", ["2027-02-30", "soon", "31/31/2027", 5])
def test_date_errors(raw: object) -> None:
    with pytest.raises(ValueParseError):
        parse_date(raw)  # type: ignore[arg-type]


@pytest.mark.parametrize("raw", ["TBD", "ASAP", "n/a", None])
def test_date_placeholders(raw: str | None) -> None:
    with pytest.raises(NoValueGiven):
        parse_date(raw)


# ----------------------------------------------------------------------------- durations

DURATIONS = [
    ("12 months", "months", 12.0),
    ("3 years", "months", 36.0),
    ("36-month commitment", "months", 36.0),
    ("1 yr", "months", 12.0),
    ("90 days", "days", 90.0),
    ("90 days", "hours", 2160.0),
    ("4h", "hours", 4.0),
    ("4 hours", "hours", 4.0),
    ("4 hrs", "hours", 4.0),
    ("30 min", "hours", 0.5),
    ("next business day", "hours", 33.6),  # one business day: 5 span 7 calendar days
    ("NBD", "hours", 33.6),
    ("2 weeks", "hours", 336.0),
    ("2 weeks", "days", 14.0),
    ("2 weeks", "months", 336.0 / 730.0),
    ("1 month", "hours", 730.0),
    ("P3Y", "months", 36.0),
    ("PT4H", "hours", 4.0),
    ("1 year and 6 months", "months", 18.0),
    ("3-5 business days", "days", 7.0),  # 5 business days are a calendar week, everywhere
    ("within five (5) business days", "days", 7.0),
    ("5 business days", "hours", 168.0),
    ("10 jours ouvrés", "days", 14.0),
    ("4 business hours", "hours", 4.0),
    ("24 Monate", "months", 24.0),
    ("thirty days", "days", 30.0),
    ("one year", "months", 12.0),
    ("2 years + 1 year option", "months", 24.0),  # the option is not the term
    ("12-36 months", "months", 36.0),
    (12, "months", 12.0),
    (4.0, "hours", 4.0),
]


@pytest.mark.parametrize(("raw", "unit", "expected"), DURATIONS)
def test_durations(raw: object, unit: str, expected: float) -> None:
    parsed = parse_duration(raw, unit)  # type: ignore[arg-type]
    assert close(parsed.value, expected)
    assert parsed.unit == unit


def test_duration_notes() -> None:
    assert any_note(parse_duration("next business day", "hours").notes, "33.6 hours")
    assert any_note(parse_duration("3-5 business days", "days").notes, "range")
    assert any_note(parse_duration("5 business days", "days").notes, "span 7 calendar days")
    assert any_note(parse_duration("4 business hours", "hours").notes, "business time")
    assert any_note(parse_duration("12", "months").notes, "no unit given")
    assert parse_duration(36, "hours", default_unit="months").value == 36 * 730


@pytest.mark.parametrize(
    "raw", ["4 hours response, 24 hours replacement", "forever", "24/7", "2 years + 1 year"]
)
def test_duration_errors(raw: str) -> None:
    with pytest.raises(ValueParseError):
        parse_duration(raw, "hours")


# ----------------------------------------------------------------------------- booleans

BOOLS = [
    ("Yes", True), ("Y", True), ("true", True), ("included", True), ("✓", True),
    ("x", True), ("X", True), ("free", True), ("Ja", True), ("supported", True),
    ("No", False), ("n/a", False), ("none", False), ("not included", False),
    ("false", False), ("Nein", False), ("✗", False),
    (True, True), (False, False), (1, True), (0, False),
    ("Yes, with sudo", True), ("No (managed only)", False),
]


@pytest.mark.parametrize(("raw", "expected"), BOOLS)
def test_booleans(raw: object, expected: bool) -> None:
    assert parse_bool(raw).value is expected  # type: ignore[arg-type]


def test_boolean_assumptions_are_noted() -> None:
    assert any_note(parse_bool("free").notes, "included")
    assert any_note(parse_bool("n/a").notes, "not applicable")
    assert any_note(parse_bool("Yes, with sudo").notes, "with sudo")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("dedicated", True), ("shared", False), ("Shared with other tenants", False),
     ("not shared", True), ("fully dedicated, non-blocking", True), ("yes", True)],
)
def test_boolean_field_words(raw: str, expected: bool) -> None:
    parsed = parse_bool(raw, true_words=["dedicated"], false_words=["shared"])
    assert parsed.value is expected


@pytest.mark.parametrize("raw", ["maybe", "sometimes", 2])
def test_boolean_errors(raw: object) -> None:
    with pytest.raises(ValueParseError):
        parse_bool(raw)  # type: ignore[arg-type]


@pytest.mark.parametrize("raw", ["TBD", "-", None, "?"])
def test_boolean_placeholders(raw: str | None) -> None:
    with pytest.raises(NoValueGiven):
        parse_bool(raw)


# ----------------------------------------------------------------------------- properties

# Unit spelling -> (dimension, factor to the canonical unit). The factors are the SI/IEC
# definitions written out here, an oracle independent of pint.
UNIT_SPELLINGS: dict[str, tuple[str, float]] = {
    "Gb/s": ("bandwidth", 1.0), "Gbps": ("bandwidth", 1.0), "Gbit/s": ("bandwidth", 1.0),
    "GbE": ("bandwidth", 1.0), "Tbps": ("bandwidth", 1000.0), "Mb/s": ("bandwidth", 1e-3),
    "GB/s": ("bandwidth", 8.0), "TB": ("capacity", 1.0), "TiB": ("capacity", 2**40 / 1e12),
    "PB": ("capacity", 1000.0), "GB": ("memory", 1.0), "kW": ("power", 1.0),
    "W": ("power", 1e-3),
}


def _group(digits: str, sep: str) -> str:
    head = len(digits) % 3 or 3
    return sep.join([digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)])


@st.composite
def formatted_numbers(draw: st.DrawFn, plain_space: bool = True) -> tuple[str, float]:
    """A positive number in a random but unambiguous style, and its exact value.

    French grouping uses a narrow no-break space (as Excel writes it); a plain space
    groups thousands only in whole-cell numbers and prices, not in quantities, where
    "2 400Gb/s" may be two ports.
    """
    int_part = str(draw(st.integers(min_value=0, max_value=10**9)))
    frac = draw(st.text(alphabet="0123456789", min_size=0, max_size=4))
    styles = ["plain", "en", "de", "fr", "fr-nbsp", "ch"] if plain_space else [
        "plain", "en", "de", "fr-nbsp", "ch"]
    style = draw(st.sampled_from(styles))
    thousands, decimal_mark = {
        "plain": ("", "."), "en": (",", "."), "de": (".", ","), "fr": (" ", ","),
        "fr-nbsp": ("\u202f", ","), "ch": ("'", "."),
    }[style]
    grouped = _group(int_part, thousands) if thousands else int_part
    has_group = thousands != "" and len(int_part) > 3
    if style == "de" and not frac and len(int_part) in (4, 5, 6):
        grouped = int_part  # "1.234" alone reads as a decimal point by rule
        has_group = False
    if decimal_mark == "," and len(frac) == 3 and not has_group:
        frac += "5"  # "24,805" alone reads as thousands by rule
    text = grouped + (decimal_mark + frac if frac else "")
    return text, float(f"{int_part}.{frac or '0'}")


@settings(max_examples=300, deadline=None)
@given(
    formatted_numbers(plain_space=False),
    st.sampled_from(sorted(UNIT_SPELLINGS)),
    st.sampled_from(["", " ", "\u00a0"]),
)
def test_any_unit_spelling_round_trips(
    number: tuple[str, float], unit: str, space: str
) -> None:
    text, value = number
    dimension, factor = UNIT_SPELLINGS[unit]
    if dimension == "bandwidth":
        parsed_value = parse_bandwidth(f"{text}{space}{unit}").gbit_s
    else:
        parsed_value = parse_quantity(f"{text}{space}{unit}", dimension).value
    assert math.isclose(parsed_value, value * factor, rel_tol=1e-9, abs_tol=1e-12)


@settings(max_examples=300, deadline=None)
@given(formatted_numbers())
def test_number_formats_round_trip(number: tuple[str, float]) -> None:
    text, value = number
    assert math.isclose(parse_number(text).value, value, rel_tol=1e-9, abs_tol=1e-12)


MONEY_STYLES = {
    "USD": ["${n}", "USD {n}", "{n} USD", "US$ {n}"],
    "EUR": ["€{n}", "{n} €", "EUR {n}", "{n} EUR"],
    "GBP": ["£{n}", "GBP {n}"],
    "CHF": ["CHF {n}", "{n} CHF"],
    "JPY": ["¥{n}", "JPY {n}"],
}
BASIS_SPELLINGS = {
    ("gpu", "hour"): ["per GPU-hour", "/GPU/hr", "per GPU per hour", "/GPU-h"],
    ("node", "hour"): ["per node-hour", "/node/h", "/ Knoten / h", "per server per hour"],
    ("tb", "month"): ["per TB-month", "/TB/month", "per TB per month"],
    ("month",): ["per month", "monthly", "/mo"],
    (): [""],
}


@settings(max_examples=300, deadline=None)
@given(
    formatted_numbers(), st.sampled_from(sorted(MONEY_STYLES)), st.data(),
    st.sampled_from(sorted(BASIS_SPELLINGS)),
)
def test_money_formatting_round_trips(
    number: tuple[str, float], currency: str, data: st.DataObject, per: tuple[str, ...]
) -> None:
    text, value = number
    style = data.draw(st.sampled_from(MONEY_STYLES[currency]))
    basis = data.draw(st.sampled_from(BASIS_SPELLINGS[per]))
    money = parse_money(f"{style.format(n=text)} {basis}".strip())
    assert math.isclose(money.amount, value, rel_tol=1e-9, abs_tol=1e-12)
    assert (money.currency, money.per) == (currency, per)


DATE_FORMATS = ["%Y-%m-%d", "%d %b %Y", "%B %d, %Y", "%d.%m.%Y", "%d/%m/%Y", "%d %B %Y",
                "%b %d %Y"]


@settings(max_examples=300, deadline=None)
@given(st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 31)),
       st.sampled_from(DATE_FORMATS))
def test_dates_round_trip(day: date, fmt: str) -> None:
    assert parse_date(day.strftime(fmt)).value == day


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=0, max_value=1e12, allow_nan=False))
def test_float_cells_never_touch_text_rules(value: float) -> None:
    assert math.isclose(parse_number(value).value, value, rel_tol=1e-14)


# ----------------------------------------------------------------------------- units file


UNIT_PAIRS = [
    ("GB/s", "Gbit/s"), ("Tbit/s", "Gbit/s"), ("Mbit/s", "Gbit/s"), ("kbit/s", "Gbit/s"),
    ("TiB", "TB"), ("PiB", "TB"), ("PB", "TB"), ("GiB", "GB"), ("TB", "GB"),
    ("Gbit/s", "GB/s"), ("TB/s", "GB/s"), ("W", "kW"), ("MW", "kW"), ("MWh", "kWh"),
]


def test_units_file_agrees_with_pints_default_registry() -> None:
    """evaltool/data/units.txt is a cut-down registry; pint's full one is the oracle."""
    import pint

    from evaltool.normalize.values import unit_factor

    full: pint.UnitRegistry[float] = pint.UnitRegistry()
    for source, target in UNIT_PAIRS:
        expected = full.Quantity(1.0, source).to(target).magnitude
        assert math.isclose(unit_factor(source, target), expected, rel_tol=1e-12), source


def test_unknown_header_unit_is_a_clear_error() -> None:
    with pytest.raises(ValueConversionError, match="cannot convert Gb to GB"):
        parse_quantity(80, "memory", default_unit="Gb")


def test_numeric_cells_never_import_pint() -> None:
    """The fast path: numbers already in the canonical unit skip pint entirely."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from evaltool.normalize.values import parse_number, parse_quantity, parse_money, "
        "parse_percent, parse_bool, parse_duration\n"
        "parse_number(2.35); parse_quantity(80.0, 'memory', default_unit='GB')\n"
        "parse_quantity(400, 'bandwidth', default_unit='Gbit/s')\n"
        "parse_money(2.35, currency='USD', per=('gpu', 'hour')); parse_percent(0.999)\n"
        "parse_bool(1); parse_duration(12, 'months'); parse_number('9,600,000')\n"
        "assert 'pint' not in sys.modules\n"
    )
    root = Path(__file__).resolve().parents[1]
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60,
        env={"PYTHONPATH": str(root), "PATH": ""},
    )
    assert result.returncode == 0, result.stderr
