"""Typed models: canonical names, units in names, ranges and enums enforced."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from evaltool.models import CANONICAL_FIELDS, OfferFields, Workload

PRODUCT_FIELDS = [
    "vendor", "offer_name", "offer_kind", "currency", "valid_until", "region", "accelerator",
    "gpu_count", "gpus_per_node", "node_count", "gpu_memory_gb", "claimed_peak_tflops_per_gpu",
    "cpu_cores_per_node", "cpu_memory_gb_per_node", "local_nvme_tb_per_node",
    "intra_node_gbyte_s_per_gpu", "inter_node_fabric", "inter_node_gbit_s_per_node",
    "inter_node_gbit_s_per_gpu", "network_dedicated", "storage_type", "storage_capacity_tb",
    "storage_read_gbyte_s", "storage_write_gbyte_s", "orchestrator", "root_access",
    "hw_replacement_hours", "support_response_hours", "sla_uptime_pct", "sla_max_credit_pct",
    "delivery_date", "price_usd_per_gpu_hour", "term_months", "upfront_usd",
    "egress_usd_per_gb", "storage_usd_per_tb_month", "support_usd_per_month", "min_commit_usd",
    "capex_usd", "amortization_months", "power_kw_per_node", "power_usd_per_kwh",
    "colocation_usd_per_kw_month", "opex_usd_per_month", "contract_text",
]


def test_every_canonical_field_of_the_product_brief_exists() -> None:
    assert set(PRODUCT_FIELDS) <= set(CANONICAL_FIELDS)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("sla_uptime_pct", 100.5),
        ("gpu_count", 0),
        ("price_usd_per_gpu_hour", -1),
        ("inter_node_fabric", "carrier-pigeon"),
        ("storage_type", "floppy"),
        ("offer_kind", "lease-to-own"),
        ("orchestrator", "cron"),
    ],
)
def test_out_of_range_or_unknown_values_are_refused(field: str, value: object) -> None:
    with pytest.raises(ValidationError) as info:
        OfferFields(**{field: value})
    assert field in str(info.value)


def test_unknown_field_names_are_refused() -> None:
    with pytest.raises(ValidationError):
        OfferFields(price_per_gpu_hour=2.0)  # type: ignore[call-arg]


def test_dates_parse_from_iso_text() -> None:
    fields = OfferFields(delivery_date="2027-02-01")  # type: ignore[arg-type]
    assert fields.delivery_date is not None and fields.delivery_date.isoformat() == "2027-02-01"


def test_workload_uses_active_parameters_for_compute() -> None:
    moe = Workload(name="moe", params_b=671, active_params_b=37, tokens_b=14_800)
    assert moe.compute_params_b == 37
    dense = Workload(name="dense", params_b=70, tokens_b=2000)
    assert dense.compute_params_b == 70


def test_workload_precision_is_bf16_or_fp8() -> None:
    with pytest.raises(ValidationError):
        Workload(name="x", params_b=7, tokens_b=1, precision="fp4")  # type: ignore[arg-type]
