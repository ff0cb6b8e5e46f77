"""The accelerator catalog, accelerator recognition and the public price reference.

Oracles: the research notes' dense peak table (shared/research/mfu-specs.md §1.1), the MAMF
table (§1.3), and the public offers sample with its own labels (shared/data/public-offers).
"""

from __future__ import annotations

import copy
import csv
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from evaltool.catalog import (
    Accelerator,
    RecognisedAccelerator,
    UndefinedPrecisionError,
    UnknownAcceleratorError,
    _read_resource,
    compare_to_public,
    load_catalog,
    parse_catalog,
    public_price_reference,
    recognise_accelerator,
)
from evaltool.errors import EvaltoolError, InputError

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
PUBLIC_OFFERS = SHARED / "data" / "public-offers" / "gpu-vm-offers.csv"
MFU_SPECS = SHARED / "research" / "mfu-specs.md"

# PRODUCT.md "Catalog ids (at least)".
PRODUCT_IDS = [
    "A100-SXM-40GB", "A100-SXM-80GB", "A100-PCIe-80GB", "H100-SXM", "H100-PCIe", "H100-NVL",
    "H200", "H200-NVL", "B200", "GB200", "L40S", "MI250X", "MI300X", "MI325X", "MI355X",
    "Gaudi2", "Gaudi3", "TPU-v4", "TPU-v5e", "TPU-v5p", "TPU-v6e", "Trainium1", "Trainium2",
]  # fmt: skip

NUMERIC_FIELDS = [
    "dense_tflops", "sparse_tflops", "memory_gb", "memory_bandwidth_tbyte_s",
    "intra_node_gbyte_s", "intra_node_without_bridge_gbyte_s", "scale_up_domain_gpus", "tdp_w",
]  # fmt: skip


def acc(accelerator_id: str) -> Accelerator:
    return load_catalog().get(accelerator_id)


# --------------------------------------------------------------------------- the catalog


def test_every_product_id_is_in_the_catalog() -> None:
    ids = set(load_catalog().ids)
    assert [i for i in PRODUCT_IDS if i not in ids] == []


def test_product_md_ids_are_in_the_catalog_when_shared_is_present() -> None:
    product = SHARED / "PRODUCT.md"
    if not product.is_file():
        pytest.skip("shared/PRODUCT.md not present")
    block = product.read_text(encoding="utf-8").split("Catalog ids (at least):", 1)[1]
    block = block.split(";", 1)[0]
    listed = re.findall(r"`([^`]+)`", block)
    assert len(listed) == 23
    assert set(listed) <= set(load_catalog().ids)


@pytest.mark.parametrize("accelerator", load_catalog().accelerators, ids=lambda a: a.id)
def test_every_number_has_a_source(accelerator: Accelerator) -> None:
    for name in NUMERIC_FIELDS:
        if getattr(accelerator, name) not in (None, {}):
            assert accelerator.source_for(name).strip(), name
    assert accelerator.source_for("proprietary_ecosystem_lock_in")
    for precision, eff in accelerator.matmul_efficiency.items():
        assert eff.source.strip(), precision
        if eff.assumed:
            assert "assumed" in eff.source or "default" in eff.source, eff.source
        else:
            assert "MAMF" in eff.source, eff.source


def test_yaml_header_states_the_conventions() -> None:
    header = _read_resource("accelerators.yaml").split("\nschema_version", 1)[0]
    for word in ("DENSE", "sparse", "BIDIRECTIONAL", "decimal", "sources"):
        assert word in header


def test_catalog_is_loaded_once() -> None:
    assert load_catalog() is load_catalog()


# --------------------------------------------------------------------------- dense, not sparse


@pytest.mark.parametrize(
    ("accelerator_id", "precision", "expected"),
    [
        ("H100-SXM", "bf16", 989),
        ("H100-SXM", "fp8", 1979),
        ("A100-SXM-40GB", "bf16", 312),
        ("A100-SXM-80GB", "bf16", 312),
        ("A100-PCIe-80GB", "bf16", 312),
        ("MI300X", "bf16", 1307.4),
        ("B200", "bf16", 2250),
        ("H100-PCIe", "bf16", 756),
        ("L40S", "bf16", 362),
        ("TPU-v5p", "bf16", 459),
        ("Trainium2", "fp8", 1299),
    ],
)
def test_dense_peaks(accelerator_id: str, precision: str, expected: float) -> None:
    assert acc(accelerator_id).dense_tflops_for(precision) == pytest.approx(expected, abs=0.5)


def test_precision_names_are_normalised() -> None:
    h100 = acc("H100-SXM")
    assert h100.dense_tflops_for("BF16") == h100.dense_tflops_for("bfloat16") == 989


def test_undefined_precision_is_a_clear_error() -> None:
    with pytest.raises(UndefinedPrecisionError, match=r"A100-SXM-80GB.*no dense fp8.*bf16"):
        acc("A100-SXM-80GB").dense_tflops_for("fp8")
    with pytest.raises(UndefinedPrecisionError, match=r"unknown precision 'fp4'"):
        acc("H100-SXM").dense_tflops_for("fp4")


def test_nvidia_dense_is_half_the_sparse_headline() -> None:
    # research §0: NVIDIA headline tensor numbers are sparse; dense = half.
    for a in load_catalog():
        if a.vendor != "NVIDIA":
            continue
        assert a.sparse_tflops, a.id
        for precision, sparse in a.sparse_tflops.items():
            # L40S: the datasheet prints dense 362 next to sparse 733 (1.2% off half).
            half = pytest.approx(sparse / 2, rel=0.015)
            assert a.dense_tflops[precision] == half, (a.id, precision)


def test_sparse_figure_is_recognised_as_marketing() -> None:
    h100 = acc("H100-SXM")
    assert h100.matches_sparse_peak(1979, "bf16")
    assert h100.matches_sparse_peak(1979, "BF16")
    assert not h100.matches_sparse_peak(989, "bf16")
    assert not h100.matches_sparse_peak(1979, "fp8")  # the real FP8 dense peak
    assert h100.matches_sparse_peak(3958, None)
    # Without a precision, 1979 is also the FP8 dense peak: not called sparse.
    assert not h100.matches_sparse_peak(1979, None)
    assert acc("H100-NVL").matches_sparse_peak(1671, "bf16")  # vendor rounding of 2 x 835.5
    assert acc("MI300X").matches_sparse_peak(2614.9, "bf16")
    assert not acc("MI300X").matches_sparse_peak(2614.9, "fp8")
    assert acc("B200").matches_sparse_peak(4500, "bf16")
    assert not acc("Gaudi2").matches_sparse_peak(865, "bf16")  # Intel prints dense only


def test_matmul_efficiency_matches_the_mamf_table() -> None:
    # mfu-specs §1.3 (ml-engineering MAMF table): measured / peak.
    measured = {
        ("A100-SXM-80GB", "bf16"): 0.869,
        ("A100-PCIe-80GB", "bf16"): 0.811,
        ("H100-SXM", "bf16"): 0.803,
        ("H100-SXM", "fp8"): 0.709,
        ("H200", "fp8"): 0.734,
        ("B200", "bf16"): 0.776,
        ("GB200", "bf16"): 0.729,
        ("Gaudi2", "bf16"): 0.969,
    }
    for (accelerator_id, precision), ratio in measured.items():
        eff = acc(accelerator_id).matmul_efficiency_for(precision)
        assert eff.value == pytest.approx(ratio, abs=0.002)
        assert not eff.assumed
    assert acc("TPU-v5p").matmul_efficiency_for("bf16").assumed
    assert acc("MI300X").matmul_efficiency_for("bf16").value < 0.6  # ROCm maturity shows


def test_lock_in_and_ecosystems() -> None:
    for a in load_catalog():
        if a.vendor in ("Google", "AWS"):
            assert a.rent_only and a.proprietary_ecosystem_lock_in.level == "high", a.id
        else:
            assert not a.rent_only, a.id
    assert {a.ecosystem for a in load_catalog()} == {"CUDA", "ROCm", "XLA", "Neuron", "SynapseAI"}
    assert acc("GB200").scale_up_domain_gpus == 72
    assert acc("H100-SXM").intra_node_gbyte_s == 900  # bidirectional; 450 per direction


def _first_number(cell: str) -> float | None:
    match = re.match(r"\s*~?(\d+(?:\.\d+)?)", cell)
    return float(match.group(1)) if match else None


def test_catalog_agrees_with_the_research_dense_table() -> None:
    """Every row of mfu-specs §1.1 is recognised and its numbers match the catalog."""
    if not MFU_SPECS.is_file():
        pytest.skip("shared/research/mfu-specs.md not present")
    text = MFU_SPECS.read_text(encoding="utf-8")
    table = text.split("### 1.1", 1)[1].split("Notes on specific rows", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    header, *body = [[c.strip() for c in r.strip("|").split("|")] for r in rows]
    columns = {
        "BF16": ("dense_tflops", "bf16"),
        "FP8": ("dense_tflops", "fp8"),
        "TF32": ("dense_tflops", "tf32"),
        "FP32": ("dense_tflops", "fp32"),
        "INT8 TOPS": ("dense_tflops", "int8"),
        "Mem GB": ("memory_gb", None),
        "Mem TB/s": ("memory_bandwidth_tbyte_s", None),
        "Intra-node GB/s": ("intra_node_gbyte_s", None),
    }
    checked = 0
    for cells in body:
        row = dict(zip(header, cells, strict=True))
        a = acc(recognise_accelerator(row["Accelerator / variant"]).id)
        for column, (field, key) in columns.items():
            expected = _first_number(row[column])
            if expected is None:
                continue
            value = getattr(a, field)
            value = value.get(key) if key else value
            assert value == pytest.approx(expected, rel=0.005), (a.id, column)
            checked += 1
    assert len(body) >= 25 and checked > 150


# --------------------------------------------------------------------------- recognition


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("NVIDIA HGX H100 SXM5 80GB", "H100-SXM"),
        ("8x H200 141GB SXM", "H200"),
        ("H100 PCIe", "H100-PCIe"),
        ("H100 NVL", "H100-NVL"),
        ("H100 94GB", "H100-NVL"),
        ("NVIDIA H100 80GB HBM3", "H100-SXM"),  # nvidia-smi name of the SXM5 part
        ("MI300X OAM", "MI300X"),
        ("AMD Instinct MI325X", "MI325X"),
        ("Google TPU v5p", "TPU-v5p"),
        ("TPU v5 lite", "TPU-v5e"),
        ("v5litepod-16", "TPU-v5e"),
        ("tpu-v6e-slice", "TPU-v6e"),
        ("Trainium2", "Trainium2"),
        ("trn2.48xlarge", "Trainium2"),
        ("trn1.32xlarge", "Trainium1"),
        ("A100 80GB SXM4", "A100-SXM-80GB"),
        ("A100-SXM4-40GB", "A100-SXM-40GB"),
        ("NVIDIA A100 80GB PCIe", "A100-PCIe-80GB"),
        ("Gaudi 3", "Gaudi3"),
        ("Intel Gaudi 2, 3 nodes", "Gaudi2"),
        ("GB200 NVL72", "GB200"),
        ("B200", "B200"),
        ("4 x NVIDIA B200 192GB", "B200"),
        ("L40S", "L40S"),
        ("H200 NVL", "H200-NVL"),
        ("H200 PCIe", "H200-NVL"),  # the H200 PCIe card is the NVL part
        ("gpu_8x_h100_sxm5", "H100-SXM"),
        ("H100-80G-PCIe-NVLink", "H100-PCIe"),  # NVLink bridge, not the NVL part
        ("DGX A100 40GB", "A100-SXM-40GB"),
        ("8×H100 SXM, 8×400 Gb/s NDR InfiniBand", "H100-SXM"),
    ],
)
def test_recognises_vendor_text(text: str, expected: str) -> None:
    found = recognise_accelerator(text)
    assert found.id == expected
    assert found.note is None and found.confidence == 1.0


def test_bare_h100_assumes_sxm_and_says_so() -> None:
    found = recognise_accelerator("H100")
    assert found.id == "H100-SXM"
    assert found.note is not None and "form factor" in found.note and "assumed" in found.note
    assert found.confidence < 1.0


def test_bare_a100_uses_the_memory_argument() -> None:
    assert recognise_accelerator("A100", memory_gb=40).id == "A100-SXM-40GB"
    assert recognise_accelerator("A100", memory_gb=80).id == "A100-SXM-80GB"
    assert recognise_accelerator("A100 PCIe", memory_gb=40).id == "A100-PCIe-40GB"
    # Cloud APIs report usable GiB; it snaps to the marketed size.
    assert recognise_accelerator("L40S", memory_gb=44.7).id == "L40S"
    bare = recognise_accelerator("A100")
    assert bare.id == "A100-SXM-80GB"
    assert bare.note is not None and "memory" in bare.note and bare.confidence <= 0.5


def test_memory_in_the_text_wins_over_the_argument() -> None:
    assert recognise_accelerator("A100 40GB", memory_gb=80).id == "A100-SXM-40GB"


def test_contradicting_memory_is_noted() -> None:
    found = recognise_accelerator("H100 SXM 94GB")
    assert found.id == "H100-SXM"
    assert found.note is not None and "94" in found.note


def test_network_speeds_are_not_read_as_memory() -> None:
    found = recognise_accelerator("A100 SXM4, 8x 200Gb/s HDR, 100GbE", memory_gb=40)
    assert found.id == "A100-SXM-40GB"


@pytest.mark.parametrize(
    ("text", "near"),
    [("L40", "L40S"), ("GH200", "H200"), ("MI300A", "MI300X"), ("TPU v5", "TPU-v5e")],
)
def test_unknown_accelerator_lists_closest_ids(text: str, near: str) -> None:
    with pytest.raises(UnknownAcceleratorError) as info:
        recognise_accelerator(text)
    assert len(info.value.closest) == 3
    assert near in info.value.closest
    assert repr(text) in str(info.value) and near in str(info.value)
    assert isinstance(info.value, EvaltoolError)


def test_unknown_id_lists_closest_ids() -> None:
    with pytest.raises(UnknownAcceleratorError, match="H100-SXM"):
        load_catalog().get("H100-SXM6")
    assert load_catalog().get("h100-sxm").id == "H100-SXM"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_recognition_never_fails_with_anything_but_a_clear_error(text: str) -> None:
    try:
        found = recognise_accelerator(text)
    except UnknownAcceleratorError:
        return
    assert isinstance(found, RecognisedAccelerator)
    assert found.id in load_catalog()
    assert 0 < found.confidence <= 1


def _offer_rows() -> list[dict[str, str]]:
    if not PUBLIC_OFFERS.is_file():
        pytest.skip("shared/data/public-offers/gpu-vm-offers.csv not present")
    with PUBLIC_OFFERS.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


# Listed names that are not in the catalog (no sourced specs): must not be forced onto an id.
NOT_IN_CATALOG = {
    "A10", "A10G", "A6000", "B300", "GB300", "GH200", "L4", "L40", "P100", "RTX-6000-Ada",
    "RTX-A4000", "RTX-A6000", "RTX-PRO-6000", "RTX6000", "RTXPRO6000", "Radeon MI25", "T4",
    "V100", "V100-32GB",
}  # fmt: skip


def test_public_offer_names_map_and_agree_with_the_sample_labels(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = _offer_rows()
    mapped = 0
    for row in rows:
        name, hint = row["accelerator_name_as_listed"], row["gpu_variant_hint"]
        memory = float(row["gpu_memory_gib_each"]) if row["gpu_memory_gib_each"] else None
        if memory is None and name == "A100":
            memory = 40  # SkyPilot names the 40 GB part "A100" and the 80 GB "A100-80GB"
        try:
            found = recognise_accelerator(f"{name} {hint}", memory_gb=memory)
        except UnknownAcceleratorError:
            assert name in NOT_IN_CATALOG, name
            continue
        assert name not in NOT_IN_CATALOG, (name, found.id)
        mapped += 1
        a = acc(found.id)
        # The sample's own labels (gpu_model, gpu_variant_hint) are the oracle.
        model = row["gpu_model"]
        if model in ("A100", "A100-80GB", "H100", "H200", "B200", "GB200", "L40S", "MI300X"):
            assert a.family == model.split("-")[0], (name, found.id)
        if model == "A100":
            assert a.memory_gb == 40
        if model == "A100-80GB":
            assert a.memory_gb == 80
        if hint == "SXM":
            assert a.form_factor == "sxm", (name, found.id)
        if hint.startswith("PCIe"):
            assert a.form_factor == "pcie", (name, found.id)
    with capsys.disabled():
        print(f"\npublic offers: {mapped} of {len(rows)} rows map to a catalog id")
    assert mapped >= 200


# --------------------------------------------------------------------------- public prices


def test_public_reference_is_plausible() -> None:
    ids = set(load_catalog().ids)
    for accelerator_id in ids:
        ref = public_price_reference(accelerator_id)
        if ref is None:
            continue
        assert ref.accelerator_id in ids
        assert ref.n_offers >= 1 and ref.n_rows >= ref.n_offers and ref.clouds
        assert (
            ref.min_usd_per_gpu_hour
            <= ref.p25_usd_per_gpu_hour
            <= ref.median_usd_per_gpu_hour
            <= ref.p75_usd_per_gpu_hour
            <= ref.max_usd_per_gpu_hour
        )
        assert 0.5 < ref.median_usd_per_gpu_hour < 30
        assert "skypilot-org/skypilot-catalog" in ref.source
        assert re.search(r"@[0-9a-f]{40}", ref.source)
    h100 = public_price_reference("H100-SXM")
    a100 = public_price_reference("A100-SXM-80GB")
    assert h100 is not None and a100 is not None and h100.n_offers >= 10
    assert a100.median_usd_per_gpu_hour < h100.median_usd_per_gpu_hour
    assert public_price_reference("TPU-v5p") is None  # no TPU rows in the sample


def test_public_reference_spans_match_the_sample_readme() -> None:
    # research/offer-tools.md §5, from the same sample: H100 1.90 (Hyperstack PCIe) -> 14.7
    # (GCP A3-Mega), H200 3.39 -> 10.9, B200 4.89 -> 14.2, A100-80GB 1.29 -> 6.2.
    spans = {
        "H100-PCIe": (1.90, None),
        "H100-SXM": (None, 14.7),
        "H200": (3.39, 10.9),
        "B200": (4.89, 14.2),
        "A100-SXM-80GB": (1.29, 6.2),
    }
    for accelerator_id, (low, high) in spans.items():
        ref = public_price_reference(accelerator_id)
        assert ref is not None
        if low is not None:
            assert ref.min_usd_per_gpu_hour == pytest.approx(low, abs=0.01)
        if high is not None:
            assert ref.max_usd_per_gpu_hour == pytest.approx(high, abs=0.05)


def test_compare_to_public_reads_like_a_memo_line() -> None:
    ref = public_price_reference("H100-SXM")
    assert ref is not None
    text = compare_to_public("H100-SXM", ref.median_usd_per_gpu_hour * 0.69)
    assert text == (
        f"31% below the public on-demand median for H100-SXM "
        f"(${ref.median_usd_per_gpu_hour:.2f}/GPU-h, {ref.n_offers} offers)"
    )
    above = compare_to_public("H100-SXM", ref.median_usd_per_gpu_hour * 1.5)
    assert above is not None and above.startswith("50% above")
    same = compare_to_public("H100-SXM", ref.median_usd_per_gpu_hour)
    assert same is not None and same.startswith("at the public on-demand median")
    assert compare_to_public("TPU-v5p", 4.2) is None
    with pytest.raises(UnknownAcceleratorError):
        compare_to_public("H100 SXM", 2.0)
    with pytest.raises(EvaltoolError, match="must be > 0"):
        compare_to_public("H100-SXM", 0)


# --------------------------------------------------------------------------- bad catalog data


def _catalog_data() -> dict[str, Any]:
    return copy.deepcopy(yaml.safe_load(_read_resource("accelerators.yaml")))


def _entry(data: dict[str, Any], accelerator_id: str) -> dict[str, Any]:
    return next(e for e in data["accelerators"] if e["id"] == accelerator_id)


def test_bad_number_names_the_yaml_key() -> None:
    data = _catalog_data()
    _entry(data, "H100-SXM")["dense_tflops"]["bf16"] = "lots"
    with pytest.raises(InputError) as info:
        parse_catalog(data)
    message = str(info.value)
    assert "accelerators.yaml" in message
    assert re.search(r"accelerators\[\d+\] \(H100-SXM\)\.dense_tflops\.bf16", message)
    assert "'lots'" in message


def test_a_sparse_figure_stored_as_dense_is_refused() -> None:
    data = _catalog_data()
    _entry(data, "H100-SXM")["dense_tflops"]["bf16"] = 1979
    with pytest.raises(InputError, match=r"H100-SXM.*sparse"):
        parse_catalog(data)


def test_a_number_without_a_source_is_refused() -> None:
    data = _catalog_data()
    entry = _entry(data, "Gaudi3")
    entry["sources"] = [s for s in entry["sources"] if "tdp_w" not in s["what"]]
    with pytest.raises(InputError, match=r"Gaudi3.*no source for .*tdp_w"):
        parse_catalog(data)


def test_an_alias_naming_two_accelerators_is_refused() -> None:
    data = _catalog_data()
    _entry(data, "H100-PCIe")["aliases"].append("H100 SXM5")
    with pytest.raises(InputError, match="H100 SXM5"):
        parse_catalog(data)


def test_a_catalog_that_is_not_a_mapping_is_refused() -> None:
    with pytest.raises(InputError, match="mapping"):
        parse_catalog(["not", "a", "catalog"])
