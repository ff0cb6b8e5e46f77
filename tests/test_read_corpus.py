"""Specification: vendor offers in any layout normalise to the right canonical values.

The corpus (tests/offers_corpus/, written by make_corpus.py) covers key-value sheets with
offsets, sections and notes; German and French wording; a cp1252 CSV; line items; formulas
without cached values; side-by-side blocks; a macro-enabled workbook; YAML and JSON in the
vendor's own nesting; multi-offer CSV and YAML; and the traps (sparse peak, count mismatch,
bytes for bits, memory unlike the catalog, "call us", empty and fake workbooks, alias bombs).
Expected values are computed by hand from the figures in make_corpus.py.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from evaltool.models import Offer
from evaltool.normalize.core import NormalizeResult, normalize_files

CORPUS = Path(__file__).resolve().parent / "offers_corpus"
FX = {"EUR": 1.08}


def _one(name: str, fx: dict[str, float] | None = None) -> Offer:
    result = normalize_files([CORPUS / name], FX if fx is None else fx)
    assert not result.not_evaluated, result.not_evaluated
    assert len(result.offers) == 1
    return result.offers[0]


def _failed(name: str) -> NormalizeResult:
    result = normalize_files([CORPUS / name], FX)
    assert not result.offers
    assert len(result.not_evaluated) == 1
    return result


def _kinds(offer: Offer) -> set[str]:
    return {f.kind for f in offer.flags}


def test_corpus_has_every_family() -> None:
    files = [p for p in CORPUS.iterdir() if p.name != "make_corpus.py"]
    assert len(files) >= 15


def test_key_values_anywhere_with_sections_and_merged_title() -> None:
    offer = _one("kv_offset_sections.xlsx")
    f = offer.fields
    assert (f.vendor, f.accelerator, f.gpu_count, f.node_count) == (
        "Vela Compute Ltd", "B200", 256, 32)
    assert f.gpus_per_node == 8  # derived: 256 / 32
    assert f.storage_type == "lustre" and f.storage_capacity_tb == 750  # "Capacity" in Storage
    assert f.inter_node_fabric == "infiniband" and f.inter_node_gbit_s_per_node == 3200
    assert f.inter_node_gbit_s_per_gpu == 400 and f.network_dedicated is True
    assert f.price_usd_per_gpu_hour == pytest.approx(38.40 / 8)  # per node-hour / 8
    assert f.term_months == 24
    assert offer.provenance["vendor"].where == {
        "file": str(CORPUS / "kv_offset_sections.xlsx"), "sheet": "Angebot Übersicht",
        "cell": "E3"}
    assert offer.provenance["gpus_per_node"].derived_from == ["gpu_count", "node_count"]


def test_german_labels_decimal_comma_and_euro_conversion() -> None:
    offer = _one("kv_german.xlsx")
    f = offer.fields
    assert f.vendor == "Rechenzentrum Nord GmbH" and f.accelerator == "A100-SXM-80GB"
    assert (f.node_count, f.gpus_per_node, f.gpu_count) == (20, 8, 160)
    assert f.currency == "EUR"
    assert f.price_usd_per_gpu_hour == pytest.approx(24.80 * 1.08 / 8)
    assert "1.08" in (offer.provenance["compute_price_usd_per_gpu_hour"].note or "")
    assert str(f.valid_until) == "2027-03-15" and str(f.delivery_date) == "2027-04-01"
    assert f.inter_node_gbit_s_per_node == 1600 and f.inter_node_fabric == "infiniband"
    assert f.term_months == 12


def test_missing_exchange_rate_is_an_error_for_that_offer_only() -> None:
    result = normalize_files([CORPUS / "kv_german.xlsx", CORPUS / "sparse_claim.yaml"], {})
    assert [o.fields.vendor for o in result.offers] == ["Sparse Cloud"]
    (failed,) = result.not_evaluated
    text = " ".join(e["text"] for e in failed.errors)
    assert "EUR" in text and "B9" in text
    # a code and the currency the CLI turns into "give the rate with --fx EUR=..."; the
    # library itself never names a flag
    assert [(e["code"], e["params"]["currency"]) for e in failed.errors] == [
        ("required-field-needs-fx-rate", "EUR")]
    assert "--fx" not in text


def test_french_cp1252_csv_key_values() -> None:
    offer = _one("kv_french_cp1252.csv")
    f = offer.fields
    assert f.vendor == "Calcul Atlantique SAS" and f.accelerator == "MI300X"
    assert (f.node_count, f.gpus_per_node, f.gpu_count) == (16, 8, 128)
    assert f.price_usd_per_gpu_hour == pytest.approx(2.10 * 1.08)
    assert f.term_months == 6
    assert f.inter_node_fabric == "roce" and f.network_dedicated is True
    assert f.inter_node_gbit_s_per_node == 3200


def test_line_items_per_gpu_hour_with_separate_storage_and_support() -> None:
    offer = _one("line_items_gpu_hour.xlsx")
    f = offer.fields
    assert f.gpu_count == 512 and f.node_count == 64
    assert f.compute_price_usd_per_gpu_hour == pytest.approx(2.10)
    assert f.storage_capacity_tb == 500 and f.storage_usd_per_tb_month == 60
    assert f.support_usd_per_month == 14600 and f.egress_usd_per_gb == 0.05
    # The quoted rate, not folded: the money model adds storage and support once each.
    assert f.price_usd_per_gpu_hour == pytest.approx(2.10)
    prov = offer.provenance["price_usd_per_gpu_hour"]
    assert "compute_price_usd_per_gpu_hour" in (prov.derived_from or [])
    assert "their own fields" in (prov.note or "")
    assert offer.provenance["storage_usd_per_tb_month"].where["cell"] == "E10"


def test_formula_without_cached_value_is_named_and_count_derived() -> None:
    offer = _one("formula_without_cache.xlsx")
    assert offer.fields.gpu_count == 80  # 10 nodes x 8: =B4*B5 worked out, and said
    assert any(w["code"] == "formula-evaluated" and "B6 =B4*B5" in w["message"]
               for w in offer.warnings)


def test_count_mismatch_is_a_warning_and_a_flag() -> None:
    offer = _one("count_mismatch.xlsx")
    assert offer.fields.gpu_count == 100
    assert "count_mismatch" in _kinds(offer)
    assert any("128" in w["text"] for w in offer.warnings)


def test_sparse_peak_claim_is_flagged_high() -> None:
    offer = _one("sparse_claim.yaml")
    assert offer.fields.claimed_peak_tflops_per_gpu == 1979
    (flag,) = [f for f in offer.flags if f.kind == "sparse_peak_claim"]
    assert flag.severity == "high" and "989" in flag.why
    assert flag.where == {"file": str(CORPUS / "sparse_claim.yaml"), "key": "peak tflops"}


def test_bytes_for_bits_and_memory_unlike_catalog() -> None:
    offer = _one("bytes_bandwidth_memory.yaml")
    assert offer.fields.inter_node_gbit_s_per_node == 400  # 50 GB/s x 8
    assert offer.fields.inter_node_gbit_s_per_gpu == 50
    assert {"bandwidth_units", "memory_mismatch"} <= _kinds(offer)


def test_purchase_effective_price_with_electricity() -> None:
    offer = _one("purchase_kwh.yaml")
    f = offer.fields
    assert f.offer_kind == "purchase" and f.gpu_count == 64
    monthly = 2_400_000 / 48 + 10 * 8 * 730 * 0.12 + 10_000
    assert f.price_usd_per_gpu_hour == pytest.approx(monthly / (64 * 730))
    assert "PRODUCT.md purchase rule" in (offer.provenance["price_usd_per_gpu_hour"].note or "")


def test_side_by_side_blocks_and_vertical_pair() -> None:
    offer = _one("side_by_side_vertical.xlsx")
    f = offer.fields
    assert f.vendor == "Twin Blocks AG" and f.gpu_count == 2048
    assert f.price_usd_per_gpu_hour == 4.20 and f.term_months == 36
    assert f.egress_usd_per_gb == 0.02 and str(f.delivery_date) == "2027-05-01"
    assert offer.provenance["delivery_date"].where["cell"] == "A6"


def test_macro_enabled_workbook_is_read_as_data() -> None:
    offer = _one("macro_enabled.xlsm")
    assert (offer.fields.accelerator, offer.fields.gpu_count) == ("Gaudi3", 128)


def test_json_nested_with_amount_unit_mapping_and_line_items() -> None:
    offer = _one("json_nested.json")
    f = offer.fields
    assert (f.vendor, f.accelerator, f.gpu_count) == ("Jetstream Cloud", "TPU-v5e", 256)
    assert f.compute_price_usd_per_gpu_hour == 1.2
    assert f.storage_type == "nfs" and f.storage_capacity_tb == 100
    assert f.storage_usd_per_tb_month == 200
    assert f.price_usd_per_gpu_hour == pytest.approx(1.2)  # storage stays in its own field
    assert offer.provenance["gpu_count"].where["key"] == "quote.hardware.chips"


def test_csv_with_one_offer_per_row() -> None:
    result = normalize_files([CORPUS / "many_offers.csv"], FX)
    assert [o.fields.vendor for o in result.offers] == ["Alpha", "Beta", "Gamma"]
    assert [o.id for o in result.offers] == ["many-offers-row-2", "many-offers-row-3",
                                             "many-offers-row-4"]
    assert [o.fields.accelerator for o in result.offers] == ["H100-SXM", "H200", "L40S"]
    assert result.offers[2].provenance["price_usd_per_gpu_hour"].where["cell"] == "E4"


def test_yaml_offers_list_shares_the_vendor() -> None:
    result = normalize_files([CORPUS / "offers_list.yaml"], FX)
    assert [(o.fields.vendor, o.fields.gpu_count) for o in result.offers] == [
        ("Listed Cloud", 64), ("Listed Cloud", 1024)]


@pytest.mark.parametrize(("name", "needle"), [
    ("tbd_price.xlsx", "B4"),
    ("empty.xlsx", "empty"),
    ("not_a_workbook.xlsx", "not an Excel workbook"),
    ("billion_laughs.yaml", "alias"),
])
def test_bad_files_become_not_evaluated_with_where_and_why(name: str, needle: str) -> None:
    result = _failed(name)
    text = " ".join(e["text"] for e in result.not_evaluated[0].errors)
    assert needle in text
    assert result.not_evaluated[0].source["file"].endswith(name)


def test_tbd_price_names_what_was_found() -> None:
    (error,) = [e for e in _failed("tbd_price.xlsx").not_evaluated[0].errors
                if e.get("field") == "price_usd_per_gpu_hour"]
    assert error["found"] == "call us" and error["where"]["cell"] == "B4"


def test_zip_bomb_is_refused_before_parsing(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as member:
            chunk = b"\0" * 1_000_000
            for _ in range(210):
                member.write(chunk)
    assert bomb.stat().st_size < 2_000_000
    result = normalize_files([bomb])
    text = result.not_evaluated[0].errors[0]["text"]
    assert "zip bomb" in text


def test_oversized_file_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    from evaltool.read import safety

    big = tmp_path / "big.csv"
    big.write_text("vendor,x\n" * 1000)
    monkeypatch.setattr(safety, "MAX_TEXT_BYTES", 100)
    monkeypatch.setattr(safety.read_text, "__defaults__", (100,))
    result = normalize_files([big])
    assert "too large" in result.not_evaluated[0].errors[0]["text"]


def test_missing_required_fields_are_listed_together(tmp_path: Path) -> None:
    path = tmp_path / "thin.yaml"
    path.write_text("vendor: Thin\nregion: eu\n")
    (failed,) = normalize_files([path]).not_evaluated
    fields = {e.get("field") for e in failed.errors}
    assert {"accelerator", "gpu_count", "price_usd_per_gpu_hour"} <= fields


def test_unknown_accelerator_names_closest_ids(tmp_path: Path) -> None:
    path = tmp_path / "odd.yaml"
    path.write_text("vendor: Odd\naccelerator: NVIDIA V100 SXM2\ngpus: 8\nprice: $1/GPU-hour\n")
    (failed,) = normalize_files([path]).not_evaluated
    (error,) = [e for e in failed.errors if e.get("field") == "accelerator"]
    assert error["where"]["key"] == "accelerator" and "closest" in error["text"]


def test_same_input_gives_the_same_json() -> None:
    from evaltool.normalize.core import render_normalized

    paths = sorted(p for p in CORPUS.iterdir() if p.name != "make_corpus.py")
    first = render_normalized(normalize_files(paths, FX), "json")
    assert first == render_normalized(normalize_files(paths, FX), "json")
