"""Write the test corpus of vendor offers: every layout, wording family and trap.

Each file imitates something vendors really send (see the docstring of each writer); the
expected canonical values live in tests/test_read_corpus.py, computed by hand from the
figures below.  Hostile files that would bloat the repository (zip bombs) are built by the
tests themselves in a temporary folder.  Run: .venv/bin/python tests/offers_corpus/make_corpus.py
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from openpyxl import Workbook

HERE = Path(__file__).resolve().parent
STAMP = dt.datetime(2026, 11, 1, 9, 0, 0)


def _save(wb: Workbook, name: str) -> None:
    wb.properties.created = STAMP
    wb.properties.modified = STAMP
    wb.properties.creator = "evaltool corpus"
    wb.save(HERE / name)


def kv_offset_sections() -> None:
    """Labels in column C, values in E (D empty), notes in F, merged title, sections."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Angebot Übersicht"
    ws["C1"] = "Vela Compute — Dedicated B200 Cluster"
    ws.merge_cells("C1:F1")
    rows = [
        ("Provider:", "Vela Compute Ltd", ""),
        ("Offer name", "B200 pod, 24 months", ""),
        (None, None, None),
        ("Hardware", None, None),
        ("Card", "NVIDIA HGX B200 180GB", "SXM6 baseboard"),
        ("Number of accelerators", 256, ""),
        ("Servers", 32, ""),
        (None, None, None),
        ("Storage", None, None),
        ("File system", "Lustre (self-managed)", ""),
        ("Capacity", "750 TB", "usable"),
        (None, None, None),
        ("Network", None, None),
        ("Fabric", "8x NDR 400 Gb/s InfiniBand per node, non-blocking, dedicated", ""),
        (None, None, None),
        ("Commercials", None, None),
        ("Rate", "USD 38.40 per node-hour", "compute only"),
        ("Term", "24 months", ""),
    ]
    for r, (label, value, note) in enumerate(rows, start=3):
        if label:
            ws.cell(row=r, column=3, value=label)
        if value is not None:
            ws.cell(row=r, column=5, value=value)
        if note:
            ws.cell(row=r, column=6, value=note)
    _save(wb, "kv_offset_sections.xlsx")


def kv_german() -> None:
    """A German quote: 'Anbieter', 'Knoten', '24,80 € / Knoten / h', dotted dates."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Angebot"
    for r, (label, value) in enumerate([
        ("Anbieter", "Rechenzentrum Nord GmbH"),
        ("Angebot", "A100-Partition, 12 Monate"),
        ("Gültig bis", "15.03.2027"),
        ("Beschleuniger", "NVIDIA A100 SXM4 80GB"),
        ("Anzahl Knoten", 20),
        ("GPUs pro Knoten", 8),
        ("Netzwerk", "HDR InfiniBand 8x 200 Gb/s pro Knoten"),
        ("Preis", "24,80 € / Knoten / h"),
        ("Laufzeit", "12 Monate"),
        ("Lieferung", "01.04.2027"),
    ], start=2):
        ws.cell(row=r, column=1, value=label)
        ws.cell(row=r, column=2, value=value)
    _save(wb, "kv_german.xlsx")


def kv_french_latin1() -> None:
    """A French key-value CSV with semicolons, saved in Windows-1252 (not UTF-8)."""
    text = "\n".join([
        "Fournisseur;Calcul Atlantique SAS",
        "Accélérateur;AMD Instinct MI300X 192GB",
        "Nombre de noeuds;16",
        "GPU par noeud;8",
        "Prix;2,10 € par GPU-heure",
        "Durée;6 mois",
        "Réseau;RoCE 8 x 400 Gb/s par noeud, dédié",
        "",
    ])
    (HERE / "kv_french_cp1252.csv").write_bytes(text.encode("cp1252"))


def line_items_gpu_hour() -> None:
    """Line items under a header block, priced per GPU-hour, storage per TB-month,
    support per month, egress per GB; the header row is not the first row."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Quote"
    ws["A1"] = "Orbital GPU — Order Form"
    ws["A3"], ws["B3"] = "Vendor", "Orbital GPU Inc."
    ws["A4"], ws["B4"] = "Accelerator", "H100 SXM5 80GB"
    ws["A5"], ws["B5"] = "GPUs per node", 8
    header = ["Line", "Description", "Quantity", "Unit", "Rate (USD)", "Amount"]
    for c, name in enumerate(header, start=1):
        ws.cell(row=8, column=c, value=name)
    lines = [
        ("1", "H100 SXM GPU capacity", 512, "GPU-hour", 2.10),
        ("2", "VAST shared storage", 500, "TB-month", 60.0),
        ("3", "Premium support", 1, "month", 14600.0),
        ("4", "Data transfer out", 1, "GB", 0.05),
    ]
    for r, line in enumerate(lines, start=9):
        for c, value in enumerate(line, start=1):
            ws.cell(row=r, column=c, value=value)
    _save(wb, "line_items_gpu_hour.xlsx")


def formula_without_cache() -> None:
    """'Total GPUs' is a formula saved without a cached value (written by a script)."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Offer"
    for r, (label, value) in enumerate([
        ("Vendor", "Formulaic Cloud"),
        ("GPU model", "H200 SXM 141GB"),
        ("Nodes", 10),
        ("GPUs per node", 8),
        ("Total GPUs", "=B4*B5"),
        ("Price per GPU-hour", "$3.10"),
    ], start=2):
        ws.cell(row=r, column=1, value=label)
        ws.cell(row=r, column=2, value=value)
    _save(wb, "formula_without_cache.xlsx")


def count_mismatch() -> None:
    """16 nodes x 8 GPUs per node, but 'Total GPUs: 100'."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    for r, (label, value) in enumerate([
        ("Provider", "Mismatch Metal"),
        ("System", "8x NVIDIA H100 SXM 80GB"),
        ("Number of nodes", 16),
        ("GPUs per node", 8),
        ("Total GPUs", 100),
        ("Price", "$2.50 / GPU / hour"),
    ], start=1):
        ws.cell(row=r, column=1, value=label)
        ws.cell(row=r, column=2, value=value)
    _save(wb, "count_mismatch.xlsx")


def tbd_price() -> None:
    """The price cell says 'call us': the offer cannot be evaluated; the cell is named."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Offer"
    for r, (label, value) in enumerate([
        ("Vendor", "Coy Compute"),
        ("GPU", "H100 SXM"),
        ("Total GPUs", 64),
        ("Price", "call us"),
    ], start=1):
        ws.cell(row=r, column=1, value=label)
        ws.cell(row=r, column=2, value=value)
    _save(wb, "tbd_price.xlsx")


def empty_workbook() -> None:
    wb = Workbook()
    _save(wb, "empty.xlsx")


def macro_enabled() -> None:
    """An .xlsm (macro-enabled) quote: read as data; no VBA is ever touched."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    for r, (label, value) in enumerate([
        ("Supplier", "Macro Metal"), ("Accelerator type", "Gaudi3"), ("Total accelerators", 128),
        ("Price per GPU-hour", "USD 1.80"),
    ], start=1):
        ws.cell(row=r, column=1, value=label)
        ws.cell(row=r, column=2, value=value)
    wb.save(HERE / "macro_enabled.xlsm")


def side_by_side_vertical() -> None:
    """Two blocks side by side, and a label with its value in the cell below."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"], ws["B1"] = "Vendor", "Twin Blocks AG"
    ws["D1"], ws["E1"] = "Price", "$4.20 per GPU-hour"
    ws["A2"], ws["B2"] = "Accelerator", "H200 141GB"
    ws["D2"], ws["E2"] = "Term", "3 years"
    ws["A3"], ws["B3"] = "Total GPUs", 2048
    ws["D3"], ws["E3"] = "Egress", "$0.02 per GB"
    ws["A5"] = "Delivery date"
    ws["A6"] = dt.datetime(2027, 5, 1)
    _save(wb, "side_by_side_vertical.xlsx")


def not_a_workbook() -> None:
    (HERE / "not_a_workbook.xlsx").write_text("This is a PDF export, renamed.\n")


def yaml_sparse_claim() -> None:
    (HERE / "sparse_claim.yaml").write_text(
        "# Peak quoted with sparsity: 1,979 TFLOPS BF16 is H100 SXM's sparse figure.\n"
        "provider: Sparse Cloud\n"
        "gpu: NVIDIA H100 SXM5 80GB\n"
        "gpu count: 256\n"
        "peak tflops: 1,979 TFLOPS BF16\n"
        "price: $2.20 per GPU-hour\n")


def yaml_bytes_bandwidth_memory() -> None:
    (HERE / "bytes_bandwidth_memory.yaml").write_text(
        "# Network quoted in GB/s (bytes) where Gb/s is usual; memory unlike the catalog.\n"
        "vendor: Bytewise\n"
        "accelerator: H100 SXM\n"
        "gpu memory: 40 GB\n"
        "nodes: 4\n"
        "gpus per node: 8\n"
        "interconnect: 50 GB/s per node RoCE\n"
        "price: $1.99 per GPU-hour\n")


def yaml_purchase_kwh() -> None:
    (HERE / "purchase_kwh.yaml").write_text(
        "# A purchase with an electricity price instead of colocation.\n"
        "supplier: Foundry Systems\n"
        "quote type: purchase\n"
        "system: 8x AMD Instinct MI300X\n"
        "servers: 8\n"
        "total capex: USD 2,400,000\n"
        "amortisation period: 48 months\n"
        "power per server: 10 kW\n"
        "electricity price: $0.12 per kWh\n"
        "opex: $10,000 per month\n")


def yaml_billion_laughs() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    (HERE / "billion_laughs.yaml").write_text("\n".join(lines) + "\n")


def json_nested() -> None:
    data = {
        "quote": {
            "provider": {"name": "Jetstream Cloud"},
            "hardware": {"accelerator": "TPU v5e", "chips": 256},
            "pricing": {"price": {"amount": 1.2, "currency": "USD", "unit": "chip-hour"},
                        "line_items": [
                            {"description": "Filestore NFS", "qty": 100, "unit": "TB-month",
                             "unit_price": 200.0}]},
        }
    }
    (HERE / "json_nested.json").write_text(json.dumps(data, indent=2) + "\n")


def csv_many_offers() -> None:
    (HERE / "many_offers.csv").write_text(
        "provider,instance type,accelerator,gpu count,price per gpu hour,region\n"
        "Alpha,a.8x,H100 SXM,8,$2.49,us-east\n"
        "Beta,b.8x,H200,8,$3.80,eu-west\n"
        "Gamma,g.1x,L40S,1,$0.99,us-west\n")


def yaml_offers_list() -> None:
    (HERE / "offers_list.yaml").write_text(
        "vendor: Listed Cloud\n"
        "offers:\n"
        "  - name: small\n"
        "    accelerator: H100 SXM\n"
        "    gpus: 64\n"
        "    price: $2.80 per GPU-hour\n"
        "  - name: large\n"
        "    accelerator: H100 SXM\n"
        "    gpus: 1024\n"
        "    price: $2.40 per GPU-hour\n")


if __name__ == "__main__":
    for writer in (kv_offset_sections, kv_german, kv_french_latin1, line_items_gpu_hour,
                   formula_without_cache, count_mismatch, tbd_price, empty_workbook,
                   macro_enabled, side_by_side_vertical, not_a_workbook, yaml_sparse_claim,
                   yaml_bytes_bandwidth_memory, yaml_purchase_kwh, yaml_billion_laughs,
                   json_nested, csv_many_offers, yaml_offers_list):
        writer()
    print("wrote", len([p for p in HERE.iterdir() if p.suffix != ".py"]), "files")
