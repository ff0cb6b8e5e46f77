"""Write the bundled sample offer workbooks in offers/.

The workbooks imitate what vendors really send: each vendor's own layout and wording,
title rows, merged cells, notes columns, line items, a contract sheet. The YAML offers
are written by hand and live beside them. Run: .venv/bin/python scripts/make_sample_offers.py
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet.worksheet import Worksheet

OFFERS = Path(__file__).resolve().parents[1] / "offers"
BOLD = Font(bold=True)
TITLE = Font(bold=True, size=14)
HEADER_FILL = PatternFill("solid", fgColor="DDE4EE")


def _fixed_metadata(wb: Workbook) -> None:
    # Same bytes every run: openpyxl stamps creation time otherwise.
    stamp = dt.datetime(2026, 11, 1, 9, 0, 0)
    wb.properties.created = stamp
    wb.properties.modified = stamp
    wb.properties.creator = "evaltool sample"


def _contract_sheet(wb: Workbook, title: str, clauses: list[tuple[str, str]]) -> Worksheet:
    ws = wb.create_sheet(title)
    ws["A1"] = "Contract terms (excerpt of the Master Services Agreement)"
    ws["A1"].font = TITLE
    ws.merge_cells("A1:C1")
    ws["A3"], ws["B3"] = "Clause", "Text"
    ws["A3"].font = ws["B3"].font = BOLD
    for row, (number, text) in enumerate(clauses, start=4):
        ws.cell(row=row, column=1, value=number)
        cell = ws.cell(row=row, column=2, value=text)
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    ws.column_dimensions["B"].width = 110
    return ws


def neocloud_h100() -> None:
    """Key-value quote: labels in column B, values in C, notes in D, several sheets."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Quote"
    ws["B1"] = "NimbusGPU — Reserved Cluster Quotation"
    ws["B1"].font = TITLE
    ws.merge_cells("B1:D1")
    ws["B2"] = "Quote ref. NG-2026-1147 · prepared for: Acme AI"
    ws.merge_cells("B2:D2")
    rows: list[tuple[str, object, str]] = [
        ("Provider", "NimbusGPU Inc.", ""),
        ("Offer", "Reserved H100 cluster, 12-month term", ""),
        ("Quote valid until", dt.date(2027, 1, 15), ""),
        ("Region", "us-central (Dallas, TX)", "Tier III facility"),
        ("", "", ""),
        ("Hardware", "", ""),
        ("GPU type", "NVIDIA HGX H100 SXM5 80GB", "H100 SXM, NVLink 4 / NVSwitch"),
        ("Number of nodes", 128, ""),
        ("GPUs per node", 8, ""),
        ("Total GPUs", 1024, ""),
        ("Peak performance per GPU", "989 TFLOPS BF16 (dense)", ""),
        ("CPU", "2x Intel Xeon Platinum 8480+ (112 cores per node)", ""),
        ("System memory", "2 TB per node", ""),
        ("Local NVMe", "8 x 3.84 TB NVMe per node", "30.72 TB raw"),
        ("", "", ""),
        ("Networking", "", ""),
        ("Compute fabric", "8 × 400 Gb/s NDR InfiniBand per node", "rail-optimised, non-blocking"),
        ("Fabric tenancy", "Dedicated (not shared with other tenants)", ""),
        ("GPU interconnect", "NVLink 900 GB/s per GPU", ""),
        ("", "", ""),
        ("Storage", "", ""),
        ("Shared file system", "WEKA parallel file system", "POSIX, GPUDirect Storage"),
        ("Capacity", "2 PB", "usable as quoted"),
        ("Read throughput", "200 GB/s aggregate", ""),
        ("Write throughput", "120 GB/s aggregate", ""),
        ("", "", ""),
        ("Operations", "", ""),
        ("Scheduler", "Slurm (managed), Kubernetes on request", ""),
        ("Root access", "Yes (sudo on all nodes)", ""),
        ("Hardware replacement", "within 24 hours", "spare pool on site"),
        ("Support response (P1)", "1 hour, 24x7", "dedicated Slack channel"),
        ("Uptime SLA", "99.5%", "see Contract"),
        ("Delivery", "2027-02-01", "cluster handover, burn-in complete"),
    ]
    for offset, (label, value, note) in enumerate(rows, start=4):
        ws.cell(row=offset, column=2, value=label or None)
        ws.cell(row=offset, column=3, value=value or None)
        ws.cell(row=offset, column=4, value=note or None)
        if label and not value:
            ws.cell(row=offset, column=2).font = BOLD
    ws.column_dimensions["B"].width = 28
    ws.column_dimensions["C"].width = 48
    ws.column_dimensions["D"].width = 34

    pricing = wb.create_sheet("Pricing")
    pricing["A1"] = "Commercials"
    pricing["A1"].font = TITLE
    items: list[tuple[str, object, str]] = [
        ("Price per GPU-hour", "$2.35 per GPU-hour", "all-in: compute, fabric, support"),
        ("Commitment term", "12 months", ""),
        ("Storage", "$0 — 2 PB included", ""),
        ("Data egress", "free", "no egress fees"),
        ("Upfront payment", "USD 1,500,000", "first two months in advance, credited"),
        ("Currency", "USD", ""),
    ]
    for row, (label, value, note) in enumerate(items, start=3):
        pricing.cell(row=row, column=1, value=label)
        pricing.cell(row=row, column=2, value=value)
        pricing.cell(row=row, column=3, value=note or None)
    pricing.column_dimensions["A"].width = 24
    pricing.column_dimensions["B"].width = 30

    _contract_sheet(
        wb,
        "Contract",
        [
            ("4.1", "Provider shall deliver the Cluster, fully burned-in, no later than "
             "2027-02-01. For each week of delay Customer receives a credit of 5% of the "
             "monthly fee, capped at 30%; if delivery is more than 6 weeks late Customer may "
             "terminate without penalty."),
            ("5.1", "Provider guarantees 99.5% availability of the Cluster per calendar month. "
             "If availability falls below 99.5%, Customer receives a service credit of 10% of "
             "the monthly fee, and 25% below 99.0%, capped at 25% of the monthly fee."),
            ("5.3", "Failed nodes will be replaced within 24 hours of the failure report."),
            ("6.2", "Customer may terminate for convenience on 60 days' written notice."),
            ("7.1", "Upon termination Provider shall make Customer Data available for export in "
             "standard POSIX file formats for 30 days at no charge."),
        ],
    )
    _fixed_metadata(wb)
    wb.save(OFFERS / "nimbusgpu-h100-ib.xlsx")


def hyperscaler_h200() -> None:
    """Line-item quote: a table with quantity, unit and unit price, below a header block."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Proposal"
    ws["A1"] = "Stratus Cloud — Capacity Reservation Proposal"
    ws["A1"].font = TITLE
    ws.merge_cells("A1:F1")
    header_block: list[tuple[str, object]] = [
        ("Customer", "Acme AI"),
        ("Cloud provider", "Stratus Cloud"),
        ("Reservation name", "H200 capacity block, 36-month commitment"),
        ("Region", "eu-west-2"),
        ("Valid until", "31 Jan 2027"),
        ("Instance", "st.h200x8 — 8x H200 141GB SXM, 3.2 Tbps RoCE v2 networking per instance"),
        ("Networking", "RoCE v2 (shared spine, multi-tenant)"),
        ("Orchestration", "Managed Kubernetes (Stratus KS)"),
        ("Root access", "No (managed images only)"),
        ("Storage", "Stratus Lustre managed file system"),
        ("Storage throughput", "read 80 GB/s, write 40 GB/s"),
        ("Estimated delivery", "Q2 2027, subject to availability"),
    ]
    for row, (label, value) in enumerate(header_block, start=3):
        ws.cell(row=row, column=1, value=label).font = BOLD
        ws.cell(row=row, column=2, value=value)
    start = 3 + len(header_block) + 2
    columns = ["Item", "Description", "Qty", "Unit", "Unit price (USD)", "Monthly total (USD)"]
    for col, name in enumerate(columns, start=1):
        cell = ws.cell(row=start, column=col, value=name)
        cell.font = BOLD
        cell.fill = HEADER_FILL
    lines: list[tuple[str, str, float, str, float]] = [
        ("1", "st.h200x8 instance (8x NVIDIA H200 141GB)", 96, "instance-hour", 31.44),
        ("2", "Lustre file system capacity", 1000, "TB-month", 140.0),
        ("3", "Enterprise support", 1, "month", 25000.0),
        ("4", "Internet data transfer out", 1, "per GB", 0.09),
    ]
    for row, (item, desc, qty, unit, price) in enumerate(lines, start=start + 1):
        ws.cell(row=row, column=1, value=item)
        ws.cell(row=row, column=2, value=desc)
        ws.cell(row=row, column=3, value=qty)
        ws.cell(row=row, column=4, value=unit)
        ws.cell(row=row, column=5, value=price)
        if unit == "instance-hour":
            ws.cell(row=row, column=6, value=f"=C{row}*E{row}*730")
        elif unit != "per GB":
            ws.cell(row=row, column=6, value=f"=C{row}*E{row}")
    note_row = start + len(lines) + 2
    ws.cell(row=note_row, column=1, value="Notes").font = BOLD
    ws.cell(row=note_row + 1, column=1,
            value="Prices assume a 36-month commitment, billed monthly. "
                  "Minimum commitment USD 60,000,000 over the term.")
    ws.column_dimensions["A"].width = 20
    ws.column_dimensions["B"].width = 60
    _contract_sheet(
        wb,
        "Service Terms",
        [
            ("SLA-1", "Stratus will use commercially reasonable efforts to make each Capacity "
             "Block available with a Monthly Uptime Percentage of at least 99.9%."),
            ("SLA-2", "If Stratus does not meet the Service Commitment, Customer will be eligible "
             "to receive a Service Credit of 10% of the charges for the affected instances, and "
             "30% below 95.0%. Service Credits are Customer's sole and exclusive remedy."),
            ("D-1", "Delivery of reserved capacity is targeted for Q2 2027, subject to "
             "availability."),
            ("P-1", "Stratus may modify prices for any service upon 30 days' notice."),
            ("T-1", "This agreement renews automatically for 12 months unless either party "
             "gives 90 days' notice."),
            ("T-2", "Upon termination Customer Data will be available for export in Stratus's "
             "proprietary snapshot format for 7 days."),
            ("S-1", "Stratus aims to respond to Severity 1 support cases within 1 hour."),
        ],
    )
    _fixed_metadata(wb)
    wb.save(OFFERS / "stratus-h200-roce.xlsx")


def amd_mi300x() -> None:
    """A spec-sheet layout: two label/value blocks side by side, per node-hour pricing."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Offer"
    ws["A1"] = "Helios Compute · MI300X bare-metal offer"
    ws["A1"].font = TITLE
    ws.merge_cells("A1:E1")
    left: list[tuple[str, object]] = [
        ("Vendor", "Helios Compute GmbH"),
        ("Product", "MI300X bare-metal pods"),
        ("Accelerator", "AMD Instinct MI300X OAM 192GB"),
        ("Servers", 64),
        ("Accelerators per server", 8),
        ("Interconnect", "400GbE x8 RoCE (Broadcom Thor2), dedicated"),
        ("Scheduler", "Kubernetes + Slurm (Slinky)"),
        ("Root", "yes"),
    ]
    right: list[tuple[str, object]] = [
        ("Storage", "VAST Data, 1.5 PB"),
        ("Storage read", "120 GB/s"),
        ("Storage write", "60 GB/s"),
        ("Price", "$19.92 per node-hour"),
        ("Minimum term", "6 months"),
        ("Egress", "included"),
        ("Node replacement", "next business day"),
        ("Availability target", "99.9 %"),
        ("Ready for use", "1 Mar 2027"),
    ]
    for row, (label, value) in enumerate(left, start=3):
        ws.cell(row=row, column=1, value=label).font = BOLD
        ws.cell(row=row, column=2, value=value)
    for row, (label, value) in enumerate(right, start=3):
        ws.cell(row=row, column=4, value=label).font = BOLD
        ws.cell(row=row, column=5, value=value)
    ws.column_dimensions["A"].width = 24
    ws.column_dimensions["B"].width = 44
    ws.column_dimensions["D"].width = 20
    ws.column_dimensions["E"].width = 28
    _contract_sheet(
        wb,
        "Terms",
        [
            ("1", "Helios shall make the pods available to Customer no later than 1 March 2027."),
            ("2", "Helios will make reasonable efforts to replace failed servers by the next "
             "business day."),
            ("3", "Helios targets 99.9% monthly availability. Helios does not warrant that the "
             "service will be uninterrupted."),
            ("4", "Either party may terminate with 30 days' notice after the minimum term."),
        ],
    )
    _fixed_metadata(wb)
    wb.save(OFFERS / "helios-mi300x.xlsx")


def purchase_dgx() -> None:
    """A reseller's purchase quote: capex, power and colocation, line items."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Quotation"
    ws["A1"] = "Quotation Q-77812 — Ironbridge Systems (NVIDIA Elite Partner)"
    ws["A1"].font = TITLE
    ws.merge_cells("A1:E1")
    block: list[tuple[str, object]] = [
        ("Supplier", "Ironbridge Systems"),
        ("Quote type", "Purchase (hardware + 3-year support)"),
        ("System", "NVIDIA DGX H100 (8x H100 SXM5 80GB)"),
        ("Quantity (systems)", 32),
        ("Total GPUs", 256),
        ("Compute fabric", "NDR 400G InfiniBand, 8 ports per system, Quantum-2 switches included"),
        ("Storage", "DDN AI400X2, 1 PB usable"),
        ("Storage bandwidth", "90 GB/s read / 65 GB/s write"),
        ("Delivery", "12 weeks ARO, target 2027-04-30"),
        ("Power per system", "10.2 kW"),
        ("Colocation", "USD 180 per kW per month"),
        ("Amortisation period", "36 months"),
        ("Operations staff and spares", "$45,000 per month"),
        ("Hardware replacement", "4 hours (on-site spares)"),
    ]
    for row, (label, value) in enumerate(block, start=3):
        ws.cell(row=row, column=1, value=label).font = BOLD
        ws.cell(row=row, column=2, value=value)
    start = 3 + len(block) + 2
    for col, name in enumerate(["Part", "Description", "Quantity", "Unit price", "Extended"], 1):
        cell = ws.cell(row=start, column=col, value=name)
        cell.font = BOLD
        cell.fill = HEADER_FILL
    parts: list[tuple[str, str, int, float]] = [
        ("DGXH-G640F+P2CMI36", "DGX H100 system with 3-year support", 32, 289_000.0),
        ("MQM9790-NS2F", "Quantum-2 NDR switch", 12, 32_500.0),
        ("AI400X2-1PB", "DDN AI400X2 appliance, 1 PB usable", 1, 600_000.0),
        ("SVC-INSTALL", "Installation, cabling and burn-in", 1, 180_000.0),
    ]
    for row, (part, desc, qty, price) in enumerate(parts, start=start + 1):
        ws.cell(row=row, column=1, value=part)
        ws.cell(row=row, column=2, value=desc)
        ws.cell(row=row, column=3, value=qty)
        ws.cell(row=row, column=4, value=price).number_format = "$#,##0.00"
        ws.cell(row=row, column=5, value=f"=C{row}*D{row}").number_format = "$#,##0.00"
    total_row = start + len(parts) + 1
    ws.cell(row=total_row, column=4, value="Total capex (USD)").font = BOLD
    ws.cell(row=total_row, column=5, value=10_418_000.0).number_format = "$#,##0.00"
    ws.column_dimensions["A"].width = 26
    ws.column_dimensions["B"].width = 56
    _contract_sheet(
        wb,
        "Terms",
        [
            ("1", "Supplier will use reasonable efforts to ship within 12 weeks after receipt "
             "of order; delivery dates are estimates only."),
            ("2", "Hardware is covered by a 3-year warranty; failed components are replaced "
             "within 4 hours by on-site spares."),
            ("3", "Title passes to Customer on delivery. Customer is free to relocate, resell "
             "or operate the equipment with any software."),
        ],
    )
    _fixed_metadata(wb)
    wb.save(OFFERS / "ironbridge-dgx-purchase.xlsx")


if __name__ == "__main__":
    OFFERS.mkdir(exist_ok=True)
    neocloud_h100()
    hyperscaler_h200()
    amd_mi300x()
    purchase_dgx()
    print("wrote", sorted(p.name for p in OFFERS.glob("*.xlsx")))
