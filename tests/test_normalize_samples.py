"""Specification: the six sample offers and the public price data normalise without surprises,
and every value in `normalize --format json` has provenance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltool.normalize.core import normalize_files, normalize_to_rows, render_normalized
from evaltool.read import read_fx_file, sniff_input_kind

ROOT = Path(__file__).resolve().parents[1]
OFFERS = ROOT / "offers"
SHARED = ROOT.parent / "shared"
PUBLIC_CSV = SHARED / "data" / "public-offers" / "gpu-vm-offers.csv"
SAMPLES = ["nimbusgpu-h100-ib.xlsx", "stratus-h200-roce.xlsx", "hpc-centre-a100.yaml",
           "cumulus-tpu-v5p.yaml", "helios-mi300x.xlsx", "ironbridge-dgx-purchase.xlsx"]


@pytest.fixture(scope="module")
def samples() -> dict[str, object]:
    fx = read_fx_file(OFFERS / "fx-rates.yaml")
    result = normalize_files([OFFERS / name for name in SAMPLES], fx)
    assert not result.not_evaluated
    return {o.id: o for o in result.offers}


def test_input_kinds_are_sniffed() -> None:
    assert sniff_input_kind(OFFERS / "fx-rates.yaml") == "fx_rates"
    assert sniff_input_kind(OFFERS / "workload.yaml") == "workload"
    assert sniff_input_kind(OFFERS / "cumulus-tpu-v5p.yaml") == "offer"
    assert sniff_input_kind(OFFERS / "helios-mi300x.xlsx") == "offer"
    assert read_fx_file(OFFERS / "fx-rates.yaml") == {"EUR": 1.08}


def test_nimbus(samples: dict) -> None:
    f = samples["nimbusgpu-h100-ib"].fields
    assert (f.accelerator, f.gpu_count, f.node_count, f.gpus_per_node) == ("H100-SXM", 1024,
                                                                           128, 8)
    assert f.inter_node_fabric == "infiniband" and f.inter_node_gbit_s_per_node == 3200
    assert f.network_dedicated is True and f.storage_type == "weka"
    assert f.storage_capacity_tb == 2000 and f.price_usd_per_gpu_hour == 2.35
    assert f.orchestrator == "both" and f.root_access is True and f.sla_uptime_pct == 99.5
    assert f.upfront_usd == 1_500_000 and f.egress_usd_per_gb == 0
    assert not samples["nimbusgpu-h100-ib"].flags


def test_stratus_line_items_keep_the_quoted_rate(samples: dict) -> None:
    offer = samples["stratus-h200-roce"]
    f = offer.fields
    assert (f.accelerator, f.node_count, f.gpu_count) == ("H200", 96, 768)
    assert f.compute_price_usd_per_gpu_hour == pytest.approx(31.44 / 8)
    # The quoted rate; storage and support are priced separately and stay in their fields.
    assert f.price_usd_per_gpu_hour == pytest.approx(31.44 / 8)
    assert f.network_dedicated is False and f.inter_node_fabric == "roce"
    assert f.min_commit_usd == 60_000_000 and f.term_months == 36
    assert str(f.delivery_date) == "2027-06-30"  # "Q2 2027": the conservative last day
    # F18 is a formula saved without its value: worked out from the cells it names, and said.
    assert any(w["code"] == "formula-evaluated" and "F18 =C18*E18*730" in w["message"]
               for w in offer.warnings)
    assert any("commercially reasonable efforts" in s["text"] for s in offer.contract_segments)


def test_nordhavn_eur_per_node_hour(samples: dict) -> None:
    f = samples["hpc-centre-a100"].fields
    assert f.offer_kind == "hpc_allocation" and f.currency == "EUR"
    assert f.price_usd_per_gpu_hour == pytest.approx(24.80 * 1.08 / 4)
    assert f.storage_type == "nfs" and f.network_dedicated is False
    assert f.term_months == 6 and f.min_commit_usd is None


def test_cumulus_support_percentage_is_its_own_monthly_fee(samples: dict) -> None:
    f = samples["cumulus-tpu-v5p"].fields
    assert (f.accelerator, f.gpu_count, f.node_count) == ("TPU-v5p", 1024, 256)
    assert f.inter_node_fabric == "ici" and f.inter_node_gbit_s_per_gpu == 4800
    assert f.support_usd_per_month == pytest.approx(0.04 * 2.94 * 1024 * 730)
    assert f.price_usd_per_gpu_hour == pytest.approx(2.94)  # support is not folded in
    assert f.egress_usd_per_gb == 0.12 and f.term_months == 12


def test_helios_per_node_hour(samples: dict) -> None:
    f = samples["helios-mi300x"].fields
    assert (f.accelerator, f.gpu_count) == ("MI300X", 512)
    assert f.price_usd_per_gpu_hour == pytest.approx(19.92 / 8)
    assert f.storage_type == "vast" and f.storage_capacity_tb == 1500
    assert f.hw_replacement_hours == 33.6  # "next business day": one business day, assumed
    assert "assumed_value" in {fl.kind for fl in samples["helios-mi300x"].flags}


def test_ironbridge_purchase(samples: dict) -> None:
    offer = samples["ironbridge-dgx-purchase"]
    f = offer.fields
    assert f.offer_kind == "purchase" and f.capex_usd == 10_418_000
    monthly = 10_418_000 / 36 + 10.2 * 32 * 180 + 45_000
    assert f.price_usd_per_gpu_hour == pytest.approx(monthly / (256 * 730))
    # The stated total equals the sum of the line items: no mismatch to flag.
    assert "total_mismatch" not in {fl.kind for fl in offer.flags}


def test_every_value_has_provenance_in_json(samples: dict) -> None:
    fx = read_fx_file(OFFERS / "fx-rates.yaml")
    data = json.loads(render_normalized(
        normalize_files([OFFERS / name for name in SAMPLES], fx), "json"))
    for offer in data["offers"]:
        for name in offer["fields"]:
            assert name in offer["provenance"], (offer["id"], name)
            assert offer["provenance"][name]["where"]["file"]


def test_rows_and_formats(samples: dict) -> None:
    fx = read_fx_file(OFFERS / "fx-rates.yaml")
    result = normalize_files([OFFERS / "helios-mi300x.xlsx"], fx)
    rows = normalize_to_rows(result)
    assert {"offer", "field", "value", "where", "raw"} <= set(rows[0])
    for fmt in ("csv", "yaml", "table"):
        assert "MI300X" in render_normalized(result, fmt)


def test_public_offers_csv_one_offer_per_row() -> None:
    if not PUBLIC_CSV.exists():
        pytest.skip("shared public offers data not present")
    result = normalize_files([PUBLIC_CSV])
    assert len(result.offers) + len(result.not_evaluated) == 272
    assert len(result.offers) >= 190
    for item in result.not_evaluated:  # each is explained: unknown GPU or no on-demand price
        fields = {e.get("field") for e in item.errors}
        assert fields <= {"accelerator", "price_usd_per_gpu_hour"}, item.errors
    by_row = {o.source["row"]: o for o in result.offers}
    row6 = by_row[6]  # aws g6e.12xlarge, 4x L40S at 10.49264 USD per instance-hour
    assert row6.fields.accelerator == "L40S" and row6.fields.gpu_count == 4
    assert row6.fields.price_usd_per_gpu_hour == pytest.approx(10.49264 / 4)
    assert not any(w.get("field") == "currency" for o in result.offers for w in o.warnings)
