"""Specification: the price per GPU-hour is the rate the vendor quoted; storage, support and
network priced separately keep their own fields, and the money model adds each of them exactly
once (never folded into the rate and then added again)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltool.estimate import estimate_offer
from evaltool.models import Workload
from evaltool.normalize.core import normalize_files

OFFER = """\
vendor: Example Cloud
accelerator: NVIDIA H100 SXM5 80GB
nodes: 64
gpus per node: 8
price per GPU-hour: $2.00
storage: 500 TB Lustre
storage price: $60 per TB per month
support: $14,600 per month
network fee: $5,000 per month
"""

WORKLOAD = Workload(name="70b", params_b=70, tokens_b=1000, seq_len=4096)


def test_separately_priced_add_ons_are_not_folded_into_the_rate(tmp_path: Path) -> None:
    path = tmp_path / "example.yaml"
    path.write_text(OFFER, encoding="utf-8")
    (offer,) = normalize_files([path]).offers
    f = offer.fields
    assert f.price_usd_per_gpu_hour == pytest.approx(2.00)
    assert f.compute_price_usd_per_gpu_hour == pytest.approx(2.00)
    assert f.storage_usd_per_tb_month == 60 and f.storage_capacity_tb == 500
    assert f.support_usd_per_month == 14_600
    assert f.network_usd_per_month == 5_000
    assert not [w for w in offer.warnings if w.get("field") == "price_usd_per_gpu_hour"]


def test_the_money_model_counts_each_add_on_once(tmp_path: Path) -> None:
    path = tmp_path / "example.yaml"
    path.write_text(OFFER, encoding="utf-8")
    (offer,) = normalize_files([path]).offers
    est = estimate_offer(offer.fields, WORKLOAD)
    extra = est.model_extra or {}
    costs = extra["cost_breakdown_usd"]
    months = est.time_to_train_days * 24.0 / 730  # storage and support run on the calendar
    assert costs["compute"] == pytest.approx(extra["gpu_hours"] * 2.00, rel=1e-5)
    assert costs["storage"] == pytest.approx(500 * 60 * months, rel=1e-5)
    assert costs["support"] == pytest.approx(14_600 * months, rel=1e-5)
    assert costs["network"] == pytest.approx(5_000 * months, rel=1e-5)
    assert est.total_cost_usd == pytest.approx(sum(costs.values()), rel=1e-5)
