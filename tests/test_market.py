"""The open market beside the quotes (issue 15): `evaltool market`, import, like-with-like.

Every test points the market store at a temporary folder (EVALTOOL_DATA_DIR), so the user's
own imports never change a result here.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from evaltool.cli import cli
from evaltool.errors import InputError
from evaltool.market import Market, bundled_snapshot, current_market, filter_offers
from evaltool.market.catalog import MarketOffer
from evaltool.market.compare import MarketIndex, compare_quote, term_class
from evaltool.market.store import data_home, import_catalog, stored_imports
from evaltool.models import Offer, OfferFields
from evaltool.report import flag_words

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures" / "market"
SKYPILOT = FIXTURES / "lambda" / "vms.csv"
GPUHUNT = FIXTURES / "runpod.csv"


@pytest.fixture(autouse=True)
def _own_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    store = tmp_path / "data"
    monkeypatch.setenv("EVALTOOL_DATA_DIR", str(store))
    return store


def _row(acc: str, term: str, price: float, provider: str = "x", instance: str = "i",
         date: str = "2026-01-01") -> MarketOffer:
    return MarketOffer(provider=provider, instance_type=instance, accelerator_name=acc,
                       accelerator_id=acc, gpu_count=8, gpu_memory_gib=80.0, vcpus=None,
                       memory_gib=None, term=term, price_usd_per_hour=price * 8,
                       price_usd_per_gpu_hour=price, region="r", zone="", source="test",
                       snapshot_date=date)


def _quote(price: float, term_months: float | None) -> Offer:
    return Offer(id="q", source={"file": "q.yaml"}, fields=OfferFields(
        vendor="V", accelerator="H100-SXM", gpu_count=64, price_usd_per_gpu_hour=price,
        term_months=term_months, offer_kind="rent"))


# --------------------------------------------------------------------------- the snapshot


def test_market_lists_the_bundled_snapshot_offline_with_source_and_date() -> None:
    result = CliRunner().invoke(cli, ["market", "--accelerator", "H100", "--max-price", "3",
                                      "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["count"] == len(data["offers"]) > 0
    for row in data["offers"]:
        assert row["accelerator_id"].startswith("H100-")
        assert row["price_usd_per_gpu_hour"] <= 3
        assert row["source"].startswith("skypilot-org/skypilot-catalog catalogs/")
        assert dt.date.fromisoformat(row["snapshot_date"])
    prices = [r["price_usd_per_gpu_hour"] for r in data["offers"]]
    assert prices == sorted(prices)


def test_the_snapshot_keeps_on_demand_and_spot_apart_and_lists_unmapped_accelerators() -> None:
    rows = bundled_snapshot()
    assert {r.term for r in rows} == {"on-demand", "spot"}
    assert any(not r.accelerator_id and r.accelerator_name == "L4" for r in rows)
    # the sample's rows with a wrong GPU count (12 H100 on an 8-GPU SKU) are left out
    assert not any(r.instance_type == "Standard_ND96isr_H100_v5" for r in rows)


@pytest.mark.parametrize("fmt", ["table", "csv", "markdown", "yaml"])
def test_every_format_prints_the_snapshot_date(fmt: str) -> None:
    result = CliRunner().invoke(cli, ["market", "--provider", "lambda", "--term", "on-demand",
                                      "--format", fmt])
    assert result.exit_code == 0, result.output
    assert bundled_snapshot()[0].snapshot_date in result.output
    assert "lambda" in result.output


def test_filters_combine() -> None:
    rows = filter_offers(bundled_snapshot(), accelerator="A100-SXM-80GB", min_gpus=8,
                         term="spot", provider=["aws", "gcp"])
    assert rows and all(r.gpu_count >= 8 and r.term == "spot" and r.provider in ("aws", "gcp")
                        and r.accelerator_id == "A100-SXM-80GB" for r in rows)


# --------------------------------------------------------------------------- import


def test_a_skypilot_catalog_is_imported_with_its_provider_and_date() -> None:
    record = import_catalog(SKYPILOT, snapshot_date=dt.date(2027, 1, 5))
    assert (record.format, record.provider, record.snapshot_date) == \
        ("skypilot", "lambda", "2027-01-05")
    assert record.n_offers == 3  # the CPU-only row is not a GPU offer
    assert any(p.code == "market-row-without-price" for p in record.skipped)  # GH200, no price
    market = current_market()
    lam = [o for o in market.offers if o.provider == "lambda"]
    # the newer import replaces the bundled lambda rows; other clouds keep the snapshot
    assert {o.snapshot_date for o in lam} == {"2027-01-05"}
    assert market.dates["lambda"] == "2027-01-05"
    assert market.dates["aws"] == bundled_snapshot()[0].snapshot_date
    sxm = next(o for o in lam if o.instance_type == "gpu_8x_h100_sxm5")
    assert sxm.accelerator_id == "H100-SXM" and sxm.price_usd_per_gpu_hour == pytest.approx(2.99)
    assert "sha256:" in sxm.source


def test_a_gpuhunt_catalog_is_imported_with_spot_rows_apart() -> None:
    record = import_catalog(GPUHUNT, snapshot_date=dt.date(2027, 2, 1))
    assert (record.format, record.provider, record.n_offers) == ("gpuhunt", "runpod", 4)
    runpod = [o for o in current_market().offers if o.provider == "runpod"]
    assert {o.term for o in runpod} == {"on-demand", "spot"}
    assert any(o.accelerator_name == "L4" and not o.accelerator_id for o in runpod)


def test_importing_the_same_file_twice_changes_nothing() -> None:
    import_catalog(GPUHUNT, snapshot_date=dt.date(2027, 2, 1))
    again = import_catalog(GPUHUNT, snapshot_date=dt.date(2027, 2, 1))
    assert again.already_imported
    assert len(stored_imports()) == 1
    assert (data_home() / "market.sqlite3").is_file()


def test_a_file_that_is_not_a_catalog_is_refused_by_code(tmp_path: Path) -> None:
    bad = tmp_path / "aws.csv"
    bad.write_text("name,cost\nfoo,1\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_catalog(bad)
    assert err.value.problems[0].code == "market-unknown-format"
    assert "aws.csv" in str(err.value)


def test_market_import_command_reports_each_file_and_goes_on_after_a_bad_one(
        tmp_path: Path) -> None:
    bad = tmp_path / "oops.csv"
    bad.write_text("hello\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["market", "import", str(GPUHUNT), str(bad),
                                      "--snapshot-date", "2027-03-01"])
    assert result.exit_code == 1
    assert "imported: 4 offers, runpod, gpuhunt format, snapshot 2027-03-01" in result.output
    assert "oops.csv" in result.output


# --------------------------------------------------------------------------- like with like


def test_term_classes() -> None:
    assert [term_class(t) for t in (None, 1, 12, 13, 36, 6, 24)] == \
        ["on-demand", "on-demand", "1y", "1y", "3y", None, None]


def test_an_on_demand_quote_is_compared_with_on_demand_offers_only() -> None:
    market = Market((_row("H100-SXM", "on-demand", 3.0, "a"), _row("H100-SXM", "on-demand", 5.0,
                     "b"), _row("H100-SXM", "spot", 0.5, "c")), {"a": "2026-01-01"})
    flags, figures = compare_quote(_quote(2.0, None), MarketIndex(market))
    assert [f.code for f in flags] == ["market-price-comparison"]
    assert figures is not None
    assert figures["n_compared"] == 2 and figures["median_usd_per_gpu_hour"] == 4.0
    why = flag_words.flag_sentence(flags[0].code, flags[0].figures) or ""  # report/ words it
    assert "50% below the median of 2 public on-demand H100-SXM offers" in why
    assert "2026-01-01" in why


def test_a_reserved_quote_is_never_set_against_on_demand_prices() -> None:
    market = Market((_row("H100-SXM", "on-demand", 3.0),), {"x": "2026-01-01"})
    flags, figures = compare_quote(_quote(2.0, 12), MarketIndex(market))
    assert [f.code for f in flags] == ["market-no-comparable-offers"]
    assert figures is not None and figures["n_compared"] == 0
    reserved = Market((_row("H100-SXM", "on-demand", 3.0), _row("H100-SXM", "1y", 2.5)),
                      {"x": "2026-01-01"})
    flags, figures = compare_quote(_quote(2.0, 12), MarketIndex(reserved))
    assert figures is not None and figures["n_compared"] == 1
    assert figures["median_usd_per_gpu_hour"] == 2.5


def test_offers_listed_at_one_price_in_every_region_count_once() -> None:
    rows = tuple(MarketOffer(**{**_row("H100-SXM", "on-demand", 3.0).to_dict(), "region": r})
                 for r in ("us", "eu", "ap"))
    _, figures = compare_quote(_quote(3.0, None), MarketIndex(Market(rows, {"x": "d"})))
    assert figures is not None and figures["n_compared"] == 1


# --------------------------------------------------------------------------- score --market


def test_score_with_market_ranks_list_prices_beside_quotes_but_never_recommends_them() -> None:
    offers = [str(p) for p in sorted((ROOT / "offers").iterdir())]
    result = CliRunner().invoke(cli, ["score", *offers, "--market", "3", "--format", "json",
                                      "--as-of", "2026-11-01"])
    assert result.exit_code == 0, result.output[-2000:]
    data = json.loads(result.output[result.output.index("{"):])
    public = [o for o in data["offers"] if o["source"].get("public_market")]
    assert len(public) == 3
    for offer in public:
        assert offer["source"]["public_market"]["list_price"] is True
        listed = next(f for f in offer["flags"] if f["code"] == "market-list-price")
        figures = listed["figures"]  # the sentence states the catalog row it was written from
        assert listed["why"].startswith(
            f"a public on-demand list price from {figures['provider']}'s catalog "
            f"({figures['instance_type']}, {figures['region'] or 'no region'}; snapshot "
            f"{figures['snapshot_date']}), not a quote")
        assert offer["estimates"]["time_to_train_days"] > 0  # through the estimate path
        assert offer["fields"]["gpu_count"] % offer["fields"]["gpus_per_node"] == 0
        assert "inter_node_fabric" not in offer["fields"]  # unknown stays unknown
    assert data["recommendation"]["offer_id"] not in {o["id"] for o in public}
    assert data["assumptions"]["public_market"]["offers_scored"] == 3


def test_the_market_command_runs_as_an_installed_console_script_would() -> None:
    done = subprocess.run([sys.executable, "-m", "evaltool", "market", "--accelerator", "H100",
                           "--max-price", "3", "--format", "json"], capture_output=True,
                          text=True, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["count"] > 0


def test_a_quote_with_an_uncommon_term_is_reported_as_not_comparable_without_error() -> None:
    from evaltool.market.compare import compare_quote, default_market_index
    from evaltool.models import Offer, OfferFields

    for term in (None, 7.0, 12.0):
        offer = Offer(id="q", source={"file": "q.yaml"}, fields=OfferFields(
            vendor="V", accelerator="TPU-v6e", gpu_count=8, price_usd_per_gpu_hour=2.0,
            term_months=term))
        flags, figures = compare_quote(offer, default_market_index())
        assert flags and figures is not None
        assert flags[0].code.startswith("market-")
