"""Specification: fields stated in a numbered form and in a marketplace listing's own columns.
A form's clause number ("2.2 | Okres przydziału | 01.02.2026 – 31.07.2026") is no label: the
label and value after it are read as in any other row, so a period of two dates gives the
delivery date and the term.  A listing's "GPUs/node" column (a ratio of two resources written
with a slash, in any language) is GPUs per node, and with the GPU count gives the nodes.
Examples of our own (never a blind file)."""

from __future__ import annotations

from pathlib import Path

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files


def test_a_numbered_form_reads_the_label_after_the_clause_number(tmp_path: Path) -> None:
    # A Czech allocation decision: numbered clauses, a period of two dates.
    path = write_workbook(tmp_path / "rozhodnuti.xlsx", {"Rozhodnutí": [
        ["", "Příkladové superpočítačové centrum, s.r.o."],
        [],
        ["1.", "Žadatel", "[Zákazník]"],
        ["2.1", "Doba přidělení", "01.03.2026 – 31.08.2026"],
        ["2.2", "Výpočetní zdroje", "32 GPU (8 uzlů × 4 × NVIDIA A100-SXM4-80GB)"],
        ["3.1", "Sazba", "2,10 EUR za GPU-hodinu"],
    ]})
    result = normalize_files([path], {"EUR": 1.1})
    (offer,) = result.offers
    f = offer.fields
    assert str(f.delivery_date) == "2026-03-01"
    assert f.term_months == 6
    assert f.gpu_count == 32


@pytest.mark.parametrize("header", ["GPUs/node", "GPU / Knoten", "GPU/nodo"])
def test_a_listing_states_gpus_per_node_in_a_ratio_column(tmp_path: Path, header: str) -> None:
    path = tmp_path / "listings.csv"
    path.write_text(
        "# Example GPU Exchange - listings export\n"
        f"Listing,Seller,GPU model,Qty GPUs,{header},Location,Min. term,Ask ($/GPU/hr)\n"
        "X-1,Alpha Compute LLC,NVIDIA H100 SXM5 80GB,128,8,\"Austin, TX\",6 mo,2.20\n"
        "X-2,Beta Cloud Inc.,NVIDIA L40S 48GB,48,4,\"Reno, NV\",1 mo,0.80\n",
        encoding="utf-8")
    result = normalize_files([path], {})
    counts = sorted((o.fields.gpu_count, o.fields.gpus_per_node, o.fields.node_count)
                    for o in result.offers)
    assert counts == [(48, 4, 12), (128, 8, 16)]


def test_a_table_of_offers_shares_no_grand_total_and_gives_each_line_its_site(
        tmp_path: Path) -> None:
    # A French calculator: two quote lines, a unit in brackets after a field's label, a grand
    # total under the table (the two lines together) and a note naming each line's site.
    path = write_workbook(tmp_path / "calc.xlsx", {"Devis": [
        ["Exemple Cloud SAS – calculateur"], [],
        ["Ligne", "Modèle GPU", "GPUs", "Durée (mois)", "Prix par GPU-heure (EUR)",
         "Total contrat", "Stockage €/To/mois"],
        ["1", "NVIDIA H200 SXM", 64, 24, 2.50, 2_803_200, 40],
        ["2", "NVIDIA H100 SXM", 128, 12, 2.00, 2_242_560, 45],
        ["Total général", "", "", "", "", 5_045_760],
        [],
        ["Ligne 1 site : Paris (PAR-2). Ligne 2 site : Lyon (LYS-1)."]]})
    result = normalize_files([path], {"EUR": 1.1})
    offers = sorted(result.offers, key=lambda o: o.fields.gpu_count)
    assert [o.fields.term_months for o in offers] == [24, 12]
    assert [o.fields.capex_usd for o in offers] == [None, None]
    assert [o.fields.offer_kind for o in offers] == ["rent", "rent"]
    assert [o.fields.price_usd_per_gpu_hour for o in offers] == pytest.approx([2.75, 2.2])
    assert [o.fields.region for o in offers] == ["Paris (PAR-2)", "Lyon (LYS-1)"]
    # a currency and a per-TB-month basis in the header: the storage price, not a capacity
    assert [o.fields.storage_usd_per_tb_month for o in offers] == pytest.approx([44, 49.5])
    assert [o.fields.storage_capacity_tb for o in offers] == [None, None]


def test_parts_of_a_note_by_the_row_they_name() -> None:
    from evaltool.read.row_notes import parts_by_row
    assert parts_by_row("Option A site: Paris; Option B site: Lyon") == [
        (1, "site", "Paris"), (2, "site", "Lyon")]
    assert parts_by_row("Line 1 site: Dallas, TX.") == []  # one line: a note as it is


def test_a_line_attribute_is_read_for_its_own_label_not_the_lines_description(
        tmp_path: Path) -> None:
    # A procurement export: a line's attributes sit under a description naming a cloud; the
    # description's words ("Cloud") give no attribute its meaning.
    path = tmp_path / "export.json"
    path.write_text('''{
      "supplier": {"name": "Example Cloud Inc."},
      "response": {"currency": "USD", "lines": [
        {"line": 1, "description": "Example Cloud H100 instances, 8 GPUs each, 1-year term",
         "quantity": 64, "uom": "GPU", "unit_price": 2.4, "price_basis": "per GPU-hour",
         "attributes": {"orchestration": "Managed Kubernetes", "interconnect": "InfiniBand NDR"}}
      ]}}''', encoding="utf-8")
    result = normalize_files([path], {})
    (offer,) = result.offers
    assert offer.fields.vendor == "Example Cloud Inc."
    assert offer.fields.orchestrator == "kubernetes"
    assert offer.fields.inter_node_fabric == "infiniband"


def test_a_spec_sheet_by_product_gives_each_quote_line_its_facts(tmp_path: Path) -> None:
    # A German quote builder: one line per product, and a specifications sheet whose columns
    # are those products; each column's facts belong to the line naming its product.
    path = write_workbook(tmp_path / "rechner.xlsx", {
        "Angebot": [
            ["Beispiel KI-Cloud GmbH – Angebotsrechner"], [],
            ["Line", "Product", "GPUs", "Term (mo)", "Price per GPU-hour", "Region"],
            ["1", "HGX H200", 64, 24, 2.90, "Frankfurt"],
            ["2", "HGX B200", 128, 12, 3.70, "Berlin"]],
        "Technik": [
            ["", "HGX H200", "HGX B200"],
            ["GPUs", "8 × H200 141 GB pro Knoten", "8 × B200 180 GB pro Knoten"],
            ["Netzwerk", "InfiniBand NDR, 8 × 400 Gb/s pro Knoten",
             "RoCE v2, 8 × 400 Gb/s pro Knoten"],
            ["Orchestrierung", "Slurm (Kubernetes auf Anfrage)", "Kubernetes"],
            ["Verfügbarkeit", "99,9 %", "99,5 %"]]})
    result = normalize_files([path], {})
    assert not result.not_evaluated  # a column of specifications is no offer of its own
    offers = sorted(result.offers, key=lambda o: o.fields.gpu_count)
    assert [o.fields.accelerator for o in offers] == ["H200", "B200"]
    assert [o.fields.inter_node_fabric for o in offers] == ["infiniband", "roce"]
    assert [o.fields.orchestrator for o in offers] == ["slurm", "kubernetes"]
    assert [o.fields.sla_uptime_pct for o in offers] == [99.9, 99.5]


@pytest.mark.parametrize("header, value", [("nodes x gpus", "4 x 8"),
                                           ("Knoten × GPU", "4 × 8"),
                                           ("servers x GPUs/server", "4x8")])
def test_nodes_and_their_gpus_in_one_cell_are_two_counts(tmp_path: Path, header: str,
                                                         value: str) -> None:
    path = tmp_path / "broker.csv"
    path.write_text(
        "# Example Broker - matched supply\n"
        f"offer_ref,supplier,gpu,{header},usd_per_gpu_hour,location,term\n"
        f"BX-1,Kestrel Cloud Inc.,H100 SXM 80GB,{value},2.20,\"Austin, TX\",6 months\n"
        "BX-2,Orca Compute LLC,L40S 48GB,6 x 4,0.85,\"Reno, NV\",1 month\n",
        encoding="utf-8")
    result = normalize_files([path], {})
    assert not result.not_evaluated
    counts = sorted((o.fields.gpu_count, o.fields.gpus_per_node, o.fields.node_count)
                    for o in result.offers)
    assert counts == [(24, 4, 6), (32, 8, 4)]
