"""An accelerator named loosely in one cell ("Partition | gpu-a100") and outright in another
("Node | 8 × NVIDIA A100-SXM4-40GB") is the one named outright: its memory is the offer's,
never the default variant's."""

from __future__ import annotations

from pathlib import Path

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files


@pytest.mark.parametrize(("rows", "want", "memory"), [
    # Czech/English allocation: the partition names the family, the node spec the variant
    ([["Výpočetní centrum Příklad / Example Computing Centre"],
      ["Poskytovatel / Provider", "Example Computing Centre"],
      ["Partition", "gpu-a100 (cluster)"],
      ["Max. souběžné využití / Max. concurrent use", "4 uzlů (32 GPU)"],
      ["Cena / Price", "900 Kč za uzlohodinu bez DPH"],
      ["Uzel / Node", "8 × NVIDIA A100-SXM4-40GB, NVLink 3"]],
     "A100-SXM-40GB", 40.0),
    # German quote: a short product name first, the PCIe variant in the spec line
    ([["Angebot — Beispiel Rechenzentrum GmbH"],
      ["Anbieter", "Beispiel Rechenzentrum GmbH"],
      ["Produkt", "A100 Knoten"],
      ["Anzahl GPUs", 16],
      ["Preis", "2,00 EUR pro GPU-Stunde"],
      ["Ausstattung", "4 × NVIDIA A100 PCIe 80GB je Knoten"]],
     "A100-PCIe-80GB", 80.0),
])
def test_a_variant_named_outright_beats_the_assumed_one(
        tmp_path: Path, rows: list[list[object]], want: str, memory: float) -> None:
    path = write_workbook(tmp_path / "offer.xlsx", {"Offer": rows})
    result = normalize_files([path], {"CZK": 0.043, "EUR": 1.08})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    assert offer.fields.accelerator == want
    assert offer.fields.gpu_memory_gb == pytest.approx(memory)


def test_two_different_variants_named_leave_the_assumption_and_its_warning(
        tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "offer.xlsx", {"Offer": [
        ["Offer — Example Cloud Inc."],
        ["Provider", "Example Cloud Inc."],
        ["Partition", "gpu-a100"],
        ["GPUs", 16],
        ["Price", "USD 2.00 per GPU-hour"],
        ["Pool 1", "NVIDIA A100-SXM4-40GB"],
        ["Pool 2", "NVIDIA A100 PCIe 80GB"],
    ]})
    result = normalize_files([path], {})
    (offer,) = result.offers
    assert any(w.get("field") == "accelerator" for w in offer.warnings)
