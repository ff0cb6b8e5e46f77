"""Specification: `evaltool template` writes the RFP workbook; filled in, it normalises with
no warnings."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from evaltool.models import CANONICAL_FIELDS
from evaltool.normalize.core import normalize_files
from evaltool.template import (
    CONTRACT_QUESTIONS,
    FIELD_ROWS,
    TEMPLATE_VALUE_COLUMN,
    write_template,
)

FILLED = {
    "vendor": "Acme GPU Cloud", "offer_name": "Reserved H100", "offer_kind": "rent",
    "currency": "EUR", "valid_until": dt.datetime(2027, 1, 31), "region": "Frankfurt",
    "accelerator": "H100-SXM", "gpu_count": 512, "gpus_per_node": 8, "node_count": 64,
    "gpu_memory_gb": 80, "claimed_peak_tflops_per_gpu": 989, "claimed_peak_precision": "bf16",
    "cpu_cores_per_node": 112, "cpu_memory_gb_per_node": 2048, "local_nvme_tb_per_node": 30.72,
    "intra_node_gbyte_s_per_gpu": 900, "inter_node_fabric": "infiniband",
    "inter_node_gbit_s_per_node": 3200, "network_dedicated": "yes", "storage_type": "weka",
    "storage_capacity_tb": 1000, "storage_read_gbyte_s": 200, "storage_write_gbyte_s": 100,
    "orchestrator": "slurm", "root_access": "yes", "hw_replacement_hours": 24,
    "support_response_hours": 1, "sla_uptime_pct": 99.5, "sla_max_credit_pct": 25,
    "delivery_date": dt.datetime(2027, 3, 1), "compute_price_usd_per_gpu_hour": 2.0,
    "term_months": 12, "upfront_usd": 0, "egress_usd_per_gb": 0, "storage_usd_per_tb_month": 50,
    "support_usd_per_month": 10000, "min_commit_usd": 1_000_000,
}


def test_one_row_per_canonical_field_with_drop_downs(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    out = tmp_path / "rfp.xlsx"
    write_template(out)
    wb = load_workbook(out)
    ws = wb["Offer"]
    names = [ws.cell(row=r, column=1).value for r in range(5, 5 + len(FIELD_ROWS))]
    assert set(names) <= set(CANONICAL_FIELDS)
    assert {"vendor", "accelerator", "gpu_count", "compute_price_usd_per_gpu_hour",
            "capex_usd"} <= set(names)
    validated = {str(r) for dv in ws.data_validations.dataValidation for r in dv.sqref.ranges}
    row_of = {n: 5 + i for i, n in enumerate(names)}
    for field in ("offer_kind", "inter_node_fabric", "storage_type", "orchestrator",
                  "accelerator", "root_access"):
        assert f"C{row_of[field]}" in validated, field
    contract = wb["Contract"]
    topics = [contract.cell(row=r, column=1).value for r in range(4, 4 + len(CONTRACT_QUESTIONS))]
    assert {"Delivery", "Uptime", "Node replacement", "Egress", "Termination", "Exit"} <= set(
        topics)


def test_blank_template_is_not_an_offer(tmp_path: Path) -> None:
    out = tmp_path / "rfp.xlsx"
    write_template(out)
    (failed,) = normalize_files([out]).not_evaluated
    assert {"accelerator", "gpu_count"} <= {e.get("field") for e in failed.errors}


def test_filled_template_normalises_without_warnings(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    out = tmp_path / "rfp.xlsx"
    write_template(out)
    wb = load_workbook(out)
    ws = wb["Offer"]
    for r in range(5, 5 + len(FIELD_ROWS)):
        name = ws.cell(row=r, column=1).value
        if name in FILLED:
            ws.cell(row=r, column=TEMPLATE_VALUE_COLUMN, value=FILLED[name])
    wb["Contract"]["C4"] = ("Provider shall deliver the cluster no later than 2027-03-01; "
                            "5% credit per week of delay, capped at 30%.")
    wb.save(out)
    result = normalize_files([out], {"EUR": 1.10})
    assert not result.not_evaluated
    (offer,) = result.offers
    assert offer.warnings == [] and offer.flags == []
    f = offer.fields
    assert f.compute_price_usd_per_gpu_hour == pytest.approx(2.0 * 1.10)
    assert f.price_usd_per_gpu_hour == pytest.approx(2.0 * 1.10)  # add-ons in their fields
    assert f.support_usd_per_month == pytest.approx(10_000 * 1.10)
    assert f.inter_node_gbit_s_per_gpu == 400 and f.claimed_peak_precision == "bf16"
    assert offer.contract_segments[0]["section"] == "Delivery"
    assert offer.contract_segments[0]["where"]["cell"] == "C4"


def test_labels_are_words_with_unit_and_currency_and_the_key_is_hidden(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    out = tmp_path / "rfp.xlsx"
    write_template(str(out))
    ws = load_workbook(out)["Offer"]
    assert ws.column_dimensions["A"].hidden
    labels = {ws.cell(row=r, column=1).value: ws.cell(row=r, column=2).value
              for r in range(5, 5 + len(FIELD_ROWS))}
    assert labels["compute_price_usd_per_gpu_hour"] == "Price per GPU-hour (in the quote currency)"
    for key, label in labels.items():
        assert "_" not in label, label  # words, not machine keys
        if key.endswith("_usd") or "_usd_per_" in key:
            assert "quote currency" in label, label  # never "_usd" when the quote is in EUR
    units = [ws.cell(row=r, column=4).value for r in range(5, 5 + len(FIELD_ROWS))]
    assert not any("usd" in str(u).lower() for u in units)


def test_the_commercial_terms_finance_needs_are_asked(tmp_path: Path) -> None:
    topics = {topic for topic, _ in CONTRACT_QUESTIONS}
    assert {"Price tiers", "Overage / burst", "Payment schedule", "Price escalation",
            "Cancellation fee"} <= topics
