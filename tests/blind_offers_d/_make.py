#!/usr/bin/env python3
"""Generate blind test set D (GPU-compute vendor offers) deterministically.

Run:  /work/main/.venv/bin/python _make.py
Writes the 15 offer files and expected.yaml (values computed from the same constants,
then checked by re-reading the generated files)."""
import csv
import datetime as dt
import io
import json
import os
import re
import zipfile

import yaml
from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side

OUT = os.path.dirname(os.path.abspath(__file__))
FX = {"EUR": 1.08, "GBP": 1.27, "PLN": 0.25, "DKK": 0.145, "CZK": 0.043, "JPY": 0.0066}
HM = 730
TIB = 1.0995
GIB = 1.073741824
EXP = {}

B = Font(bold=True)
BIG = Font(bold=True, size=16)
HDR_FILL = PatternFill("solid", fgColor="1F3864")
HDR_FONT = Font(bold=True, color="FFFFFF")
GREY = PatternFill("solid", fgColor="D9D9D9")
THIN = Side(style="thin", color="808080")
BOX = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
WRAP = Alignment(wrap_text=True, vertical="top")


def r4(x):
    return round(x + 1e-12, 4)


def r2(x):
    return round(x + 1e-12, 2)


def num_eu(x, dec=2, thou=".", sep=","):
    s = f"{x:,.{dec}f}"
    return s.replace(",", "\0").replace(".", sep).replace("\0", thou)


def widths(ws, ws_widths):
    for col, w in ws_widths.items():
        ws.column_dimensions[col].width = w


def header(ws, row, values, fill=HDR_FILL, font=HDR_FONT):
    for i, v in enumerate(values, start=1):
        c = ws.cell(row=row, column=i, value=v)
        c.fill = fill
        c.font = font
        c.border = BOX
        c.alignment = Alignment(wrap_text=True, vertical="center")


def save(wb, name):
    wb.properties.creator = "sales"
    wb.properties.created = dt.datetime(2026, 2, 1, 9, 0, 0)
    path = os.path.join(OUT, name)
    wb.save(path)
    # make the archive byte-deterministic: fixed zip timestamps and dcterms:modified
    with zipfile.ZipFile(path) as z:
        items = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for fn, data in items:
            if fn == "docProps/core.xml":
                data = re.sub(rb"<dcterms:modified([^>]*)>[^<]*</dcterms:modified>",
                              rb"<dcterms:modified\1>2026-02-01T09:00:00Z</dcterms:modified>", data)
            zi = zipfile.ZipInfo(fn, date_time=(2026, 2, 1, 9, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)


def kv_rows(ws, start, rows, bold_first=True):
    r = start
    for row in rows:
        for j, v in enumerate(row, start=1):
            c = ws.cell(row=r, column=j, value=v)
            if j == 1 and bold_first:
                c.font = B
            c.alignment = WRAP
        r += 1
    return r


# ---------------------------------------------------------------------------
# 01 Azurite Cloud - hyperscaler account-team proposal, H100, 1y / 3y reserved stacked
# ---------------------------------------------------------------------------
def f01():
    name = "01_azurite_cloud_h100_reserved_proposal.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.title = "Cover"
    ws["A1"] = "AZURITE CLOUD"
    ws["A1"].font = Font(bold=True, size=22, color="0F4C81")
    ws["A2"] = "Enterprise & Strategic Accounts | AI Infrastructure"
    ws["A2"].font = Font(italic=True, color="595959")
    kv_rows(ws, 4, [
        ("Prepared for:", "Halcyon AI Labs, Inc."),
        ("Proposal ref:", "AZ-ENT-2026-0142 rev. C"),
        ("Date:", "February 9, 2026"),
        ("Valid through:", "March 31, 2026"),
        ("Account Executive:", "Dana Whitfield (dana.whitfield@azurite.example)"),
        ("Specialist:", "Raj Menon, GPU Solutions Architect"),
    ])
    ws.merge_cells("A11:F17")
    ws["A11"] = (
        "Thank you for the opportunity to support Halcyon's next foundation-model training run. "
        "This proposal covers a dedicated block of 32 x AZ.GPU.H100x8 instances (256 NVIDIA H100 SXM "
        "80GB GPUs in total) in our East US 2 region, interconnected with non-blocking NDR InfiniBand "
        "and backed by Azurite Managed Lustre. Two commercial options are presented on the "
        "'Commercials' tab: a 1-year and a 3-year reserved capacity commitment. Capacity can be "
        "handed over from April 15, 2026, subject to signature by March 31, 2026.")
    ws["A11"].alignment = WRAP
    ws["A19"] = ("Azurite Cloud, Inc. Confidential. Pricing is subject to the Azurite Enterprise Agreement "
                 "and the Product Terms in effect at signature.")
    ws["A19"].font = Font(size=8, italic=True)
    widths(ws, {"A": 22, "B": 48, "C": 12, "D": 12, "E": 12, "F": 12})

    s = wb.create_sheet("Solution")
    s.merge_cells("A1:D1")
    s["A1"] = "Solution overview: dedicated H100 training cluster"
    s["A1"].font = BIG
    header(s, 3, ["Component", "Specification", "Qty", "Notes"])
    kv_rows(s, 4, [
        ("Compute instance", "AZ.GPU.H100x8 (8 x NVIDIA H100 80GB HBM3, SXM5, NVLink 4 / NVSwitch, 900 GB/s per GPU)", 32, "Dedicated hosts, no oversubscription"),
        ("Host CPU", "96 vCPU (Intel Xeon Platinum 8480C)", None, "per instance"),
        ("Host memory", "1,900 GiB", None, "per instance"),
        ("Local scratch", "8 x 3.5 TB NVMe (28 TB)", None, "per instance, ephemeral"),
        ("Cluster network", "8 x 400 Gb/s NDR InfiniBand per instance (3.2 Tb/s)", None, "Non-blocking fat tree, dedicated to this deployment"),
        ("Front-end network", "100 Gbps Ethernet", None, "VNet; internet egress billed, see Commercials note 1"),
        ("Shared storage", "Azurite Managed Lustre, 400 TiB provisioned", 1, "Throughput tier 500 MB/s per TiB; billed separately (Commercials note 2)"),
        ("Orchestration", "Slurm (Azurite CycleCloud) or Azurite Kubernetes Service - customer choice, both included", None, None),
        ("Access", "Full root / sudo on every instance", None, None),
        ("Hardware replacement", "Faulty host swapped within 4 hours", None, "Health checks run continuously"),
        ("Support", "Unified Enterprise Support, Sev A: 1-hour response", None, "Included in your EA"),
        ("Availability SLA", "99.9% monthly uptime per instance", None, "Service credits 10% / 25% / 100% of the monthly instance fee (<99.9% / <99% / <95%)"),
        ("Region", "East US 2", None, "Zone-pinned placement group"),
    ])
    widths(s, {"A": 22, "B": 70, "C": 6, "D": 60})

    c = wb.create_sheet("Commercials")
    c["A1"] = "Commercial options"
    c["A1"].font = BIG
    c["A2"] = "All prices in USD, excluding applicable taxes."
    money = '"$"#,##0.00'

    def block(r, title, rate, term, upfront, upfront_note):
        c.merge_cells(start_row=r, start_column=1, end_row=r, end_column=3)
        c.cell(row=r, column=1, value=title).font = HDR_FONT
        c.cell(row=r, column=1).fill = HDR_FILL
        monthly = 32 * rate
        rows = [("Instances", 32, "AZ.GPU.H100x8"),
                ("Reserved rate", rate, "per instance per month"),
                ("Monthly commitment", monthly, "32 instances"),
                ("Term", f"{term} months", None),
                ("Upfront payment", upfront, upfront_note),
                ("Total contract value", monthly * term, None)]
        for i, (a, b, n) in enumerate(rows, start=r + 1):
            c.cell(row=i, column=1, value=a).font = B
            cell = c.cell(row=i, column=2, value=b)
            if isinstance(b, float):
                cell.number_format = money
            c.cell(row=i, column=3, value=n)
        return monthly * term

    tcv1 = block(4, "OPTION 1 - 1-YEAR RESERVED CAPACITY", 28908.00, 12, "None - billed monthly in arrears", None)
    tcv2 = block(12, "OPTION 2 - 3-YEAR RESERVED CAPACITY", 20440.00, 36, 5886720.00, "25% of total contract value, due at signature")
    assert tcv2 * 0.25 == 5886720.00
    c["A20"] = "Reference: pay-as-you-go list rate $98.32 per instance-hour (not part of this proposal)."
    c["A20"].font = Font(italic=True, color="808080")
    c["A22"] = "Notes"
    c["A22"].font = B
    c["A23"] = "1. Internet egress: $0.05 per GB under your Enterprise Agreement; intra-region traffic is free."
    c["A24"] = "2. Managed Lustre is billed at $0.14 per GB-month of provisioned capacity and is not included in the rates above."
    c["A25"] = "3. Reserved rates require a minimum commitment of 32 instances for the full term; the total contract value is non-cancellable."
    widths(c, {"A": 26, "B": 36, "C": 48})

    h = wb.create_sheet("Deal desk (internal)")
    kv_rows(h, 1, [("DO NOT SHARE", None), ("Floor 1y / instance-month", 26500), ("Floor 3y / instance-month", 18900),
                   ("Approval", "VP Sales West, pending")])
    h.sheet_state = "hidden"
    save(wb, name)

    common = dict(vendor="Azurite Cloud", offer_kind="rent", currency="USD", valid_until="2026-03-31",
                  region="East US 2", accelerator="H100-SXM", gpu_count=256, gpus_per_node=8, node_count=32,
                  gpu_memory_gb=80, cpu_memory_gb_per_node=r2(1900 * GIB), local_nvme_tb_per_node=28,
                  intra_node_gbyte_s_per_gpu=900, inter_node_fabric="infiniband", inter_node_gbit_s_per_node=3200,
                  inter_node_gbit_s_per_gpu=400, network_dedicated=True, storage_type="lustre",
                  storage_capacity_tb=r2(400 * TIB), orchestrator="both", root_access=True,
                  hw_replacement_hours=4, support_response_hours=1, sla_uptime_pct=99.9, sla_max_credit_pct=100,
                  delivery_date="2026-04-15", egress_usd_per_gb=0.05, storage_usd_per_tb_month=140)
    EXP[name] = [
        dict(offer_label="Option 1 - 1-year reserved", evaluable=True,
             note="$28,908.00 per 8-GPU instance-month / (8 x 730) = 4.95; 32 instances = 256 GPUs; 1,900 GiB x 1.0737 = 2040.11 GB; "
                  "400 TiB x 1.0995 = 439.80 TB; $0.14/GB-month = 140/TB-month; min commit = TCV 32 x 28,908 x 12 (note 3); "
                  "upfront 'None' = 0; vCPU count is not cores (not listed); PAYG reference rate and hidden deal-desk sheet ignored",
             fields=dict(common, price_usd_per_gpu_hour=r4(28908 / (8 * HM)), term_months=12, upfront_usd=0,
                         min_commit_usd=r2(tcv1))),
        dict(offer_label="Option 2 - 3-year reserved", evaluable=True,
             note="$20,440.00 per instance-month / 5840 = 3.50; upfront $5,886,720 (25% of TCV 23,546,880); min commit = TCV",
             fields=dict(common, price_usd_per_gpu_hour=r4(20440 / (8 * HM)), term_months=36, upfront_usd=5886720,
                         min_commit_usd=r2(tcv2))),
    ]


# ---------------------------------------------------------------------------
# 02 LumenRack - US neocloud order form, B200, line items with mixed units
# ---------------------------------------------------------------------------
def f02():
    name = "02_lumenrack_b200_order_form.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.title = "Order Form"
    ws["A1"] = "LumenRack"
    ws["A1"].font = Font(bold=True, size=20, color="C00000")
    ws["A2"] = "LumenRack, Inc. | 1200 Harbor Blvd, Suite 400, Oakland, CA 94607"
    ws["F1"] = "ORDER FORM"
    ws["F1"].font = BIG
    ws["F2"] = "No. LR-OF-20931"
    kv_rows(ws, 4, [
        ("Customer", "Quillmate Research Corp."),
        ("Data center", "Ashburn, VA (LR-IAD2)"),
        ("Order Term", "24 months"),
        ("Service Start Date", "05/18/2026"),
        ("Sign by", "03/20/2026 (pricing void after this date)"),
    ])
    header(ws, 10, ["Line", "SKU", "Description", "Qty", "Unit", "Unit Price", "Monthly Fee (USD)"])
    compute = 128 * HM * 3.49
    lines = [
        (1, "LR-B200-HGX", "NVIDIA HGX B200 node: 8x B200 180GB, 2x Intel Xeon Platinum 8570 (2 x 56 cores), 2 TB DDR5, 8x 3.84TB NVMe", 16, "node", "$3.49 / GPU-hr", compute),
        (2, "LR-IB-NDR", "InfiniBand NDR fabric, 8 x 400 Gb/s per node, rail-optimized, single tenant", 16, "node", "included", 0),
        (3, "LR-VAST-1P", "VAST Data shared storage (NFS over RDMA)", 1000, "TB", "$65.00 / TB-mo", 65000.0),
        (4, "LR-SUP-PREM", "Premium Support: 24x7, 1-hr response on P1", 1, "month", "$12,500.00", 12500.0),
    ]
    r = 11
    for ln in lines:
        for j, v in enumerate(ln, start=1):
            cell = ws.cell(row=r, column=j, value=v)
            cell.border = BOX
            cell.alignment = WRAP
            if j == 7:
                cell.number_format = "#,##0.00"
        r += 1
    total_m = compute + 65000 + 12500
    ws.cell(row=r, column=6, value="Total Monthly Fees").font = B
    ws.cell(row=r, column=7, value=total_m).number_format = "#,##0.00"
    ws.cell(row=r + 1, column=6, value="Committed spend (24 mo., non-cancellable)").font = B
    ws.cell(row=r + 1, column=7, value=total_m * 24).number_format = "#,##0.00"
    r += 3
    ws.cell(row=r, column=1, value="Key terms").font = B
    for t in [
        "a) Uptime commitment: 99.5% per node per calendar month. Service credits shall not exceed 15% of the monthly fees for the affected month.",
        "b) Failed nodes are replaced with a healthy node within 24 hours of the ticket.",
        "c) Managed Slurm is provided; Kubernetes available on request. Customer has root on all nodes.",
        "d) No data egress or ingress fees.",
        "e) This Order Form is governed by the LumenRack Master Services Agreement v4.2.",
    ]:
        r += 1
        ws.cell(row=r, column=1, value=t)
    r += 3
    ws.cell(row=r, column=1, value="Customer signature: ______________________")
    ws.cell(row=r, column=5, value="LumenRack signature: ______________________")
    widths(ws, {"A": 6, "B": 14, "C": 70, "D": 7, "E": 8, "F": 18, "G": 18})
    save(wb, name)
    EXP[name] = [dict(
        offer_label="LR-OF-20931 B200 16 nodes, 24 months", evaluable=True,
        note="$3.49 per GPU-hr (line 1; 16 nodes x 8 = 128 GPUs); VAST 1000 TB at $65/TB-mo; support $12,500/mo; "
             "committed spend = (326,105.60 + 65,000 + 12,500) x 24 = 9,686,534.40; 2 TB DDR5 not listed (TB vs TiB); "
             "US dates 05/18/2026 and 03/20/2026",
        fields=dict(vendor="LumenRack", offer_kind="rent", currency="USD", valid_until="2026-03-20", region="Ashburn, VA",
                    accelerator="B200", gpu_count=128, gpus_per_node=8, node_count=16, gpu_memory_gb=180,
                    cpu_cores_per_node=112, local_nvme_tb_per_node=30.72, inter_node_fabric="infiniband",
                    inter_node_gbit_s_per_node=3200, inter_node_gbit_s_per_gpu=400, network_dedicated=True,
                    storage_type="vast", storage_capacity_tb=1000, orchestrator="slurm", root_access=True,
                    hw_replacement_hours=24, support_response_hours=1, sla_uptime_pct=99.5, sla_max_credit_pct=15,
                    delivery_date="2026-05-18", price_usd_per_gpu_hour=3.49, term_months=24, egress_usd_per_gb=0,
                    storage_usd_per_tb_month=65, support_usd_per_month=12500, min_commit_usd=r2(total_m * 24)))]


# ---------------------------------------------------------------------------
# 03 CNCA - Italian national HPC centre allocation (letter + resource table)
# ---------------------------------------------------------------------------
def f03():
    name = "03_cnca_assegnazione_booster_h100.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.title = "Lettera"
    lines = [
        "CNCA - Consorzio Nazionale per il Calcolo Avanzato",
        "Via dei Tecnopoli 7, 40128 Bologna",
        "",
        "Prot. n. 2026/0417/ALL                                   Bologna, 20/02/2026",
        "",
        "Alla c.a. della Dott.ssa Giulia Ferri",
        "Fondazione Lince per l'Intelligenza Artificiale",
        "",
        "Oggetto: esito della richiesta di risorse di calcolo - bando Industria & Ricerca 2026-I",
        "",
        "Gentile Dott.ssa Ferri,",
        "siamo lieti di comunicarLe che la proposta \"LINCE-LM 30B\" e' stata accolta con un'assegnazione di "
        "210.240 ore-nodo sulla partizione Booster del sistema ARGO, pari a 24 nodi dedicati (96 GPU NVIDIA H100) "
        "per l'intero periodo di assegnazione. Il dettaglio delle risorse e le condizioni economiche sono riportati "
        "nel foglio \"Dettaglio risorse\".",
        "",
        "La preghiamo di restituire il modulo di accettazione firmato entro il 13/03/2026; in assenza di riscontro "
        "le risorse saranno riassegnate.",
        "",
        "Cordiali saluti,",
        "Ing. Marco Lanzi - Responsabile Servizi HPC",
    ]
    for i, t in enumerate(lines, start=1):
        ws.cell(row=i, column=1, value=t).alignment = Alignment(wrap_text=True)
    ws["A1"].font = Font(bold=True, size=14)
    ws.column_dimensions["A"].width = 110

    d = wb.create_sheet("Dettaglio risorse")
    d["A1"] = "Allegato A - Dettaglio delle risorse assegnate"
    d["A1"].font = BIG
    header(d, 3, ["Voce", "Valore", "Unita'", "Note"])
    tot = 210240 * 9.60
    kv_rows(d, 4, [
        ("Sistema", "ARGO - partizione Booster", None, None),
        ("Acceleratori per nodo", 4, "GPU", "NVIDIA H100 SXM5 80 GB HBM3"),
        ("Nodi dedicati al progetto", 24, "nodi", "96 GPU in totale"),
        ("CPU per nodo", 32, "core", "Intel Xeon Platinum 8462Y+ (1 socket)"),
        ("Memoria per nodo", 512, "GB", "DDR5"),
        ("Rete di interconnessione", "4 x 200", "Gb/s per nodo", "NVIDIA InfiniBand NDR200, topologia Dragonfly+; condivisa con gli altri progetti"),
        ("Storage", 200, "TB", "Lustre (area $SCRATCH), quota di progetto"),
        ("Scheduler", "Slurm", None, None),
        ("Accesso", "utente non privilegiato", None, "nessun accesso root / sudo"),
        ("Periodo di assegnazione", "01/04/2026 - 31/03/2027", None, "12 mesi"),
        ("Ore-nodo assegnate", "210.240", "ore-nodo", "24 nodi x 8.760 h"),
        ("Tariffa", "9,60", "EUR / ora-nodo", "IVA esclusa; tariffa agevolata per enti di ricerca"),
        ("Importo complessivo", num_eu(tot), "EUR", "210.240 x 9,60"),
        ("Supporto", "Help desk HPC", None, "lun-ven 9-18"),
    ])
    widths(d, {"A": 28, "B": 26, "C": 16, "D": 70})
    save(wb, name)
    EXP[name] = [dict(
        offer_label="ARGO Booster allocation, 24 nodes x 12 months", evaluable=True,
        note="EUR 9,60 per 4-GPU node-hour = 2.40 EUR/GPU-h x 1.08 = 2.592 USD; 4 x 200 Gb/s NDR200 per node = 800, 200 per GPU; "
             "shared fabric, no root; period 01/04/2026-31/03/2027 (dd/mm)",
        fields=dict(vendor="CNCA - Consorzio Nazionale per il Calcolo Avanzato", offer_kind="hpc_allocation",
                    currency="EUR", valid_until="2026-03-13", accelerator="H100-SXM", gpu_count=96, gpus_per_node=4,
                    node_count=24, gpu_memory_gb=80, cpu_cores_per_node=32, cpu_memory_gb_per_node=512,
                    inter_node_fabric="infiniband", inter_node_gbit_s_per_node=800, inter_node_gbit_s_per_gpu=200,
                    network_dedicated=False, storage_type="lustre", storage_capacity_tb=200, orchestrator="slurm",
                    root_access=False, delivery_date="2026-04-01",
                    price_usd_per_gpu_hour=r4(9.60 / 4 * FX["EUR"]), term_months=12))]


# ---------------------------------------------------------------------------
# 04 Wisla Compute - Polish offer, L40S, two variants side by side, PLN per GPU-month as text
# ---------------------------------------------------------------------------
def f04():
    name = "04_wisla_compute_oferta_l40s.xlsx"
    nb = "\u00a0"
    wb = Workbook()
    ws = wb.active
    ws.title = "Oferta"
    ws["A1"] = "Wisła Compute sp. z o.o. · ul. Przemysłowa 12, 30-701 Kraków · NIP 679-31-22-458"
    ws["A1"].font = Font(size=9, color="595959")
    ws["A3"] = "OFERTA HANDLOWA nr WC/2026/02/118"
    ws["A3"].font = BIG
    ws["A4"] = "Kraków, 16.02.2026"
    ws["A5"] = "Dla: Orbita Analytics S.A."
    ws["A7"] = "Przedmiot oferty: dzierżawa klastra GPU do inferencji (usługa dedykowana, serwery na wyłączność)"
    header(ws, 9, ["Parametr", "Wariant A", "Wariant B", "Uwagi"])

    def zl(x):
        return num_eu(x, 2, nb, ",") + f"{nb}zł"
    rows = [
        ("Akcelerator", "NVIDIA L40S 48 GB GDDR6", "NVIDIA L40S 48 GB GDDR6", None),
        ("Liczba serwerów", 6, 12, None),
        ("GPU w serwerze", 8, 8, None),
        ("Razem GPU", 48, 96, None),
        ("Procesory", "2 × AMD EPYC 9354 (2 × 32 rdzenie)", "2 × AMD EPYC 9354 (2 × 32 rdzenie)", "na serwer"),
        ("Pamięć RAM", "768 GB", "768 GB", "na serwer"),
        ("Dyski lokalne", "2 × 3,84 TB NVMe", "2 × 3,84 TB NVMe", "na serwer"),
        ("Sieć między serwerami", "2 × 200 GbE, RoCE v2", "2 × 200 GbE, RoCE v2", "na serwer"),
        ("Pamięć współdzielona", "NFS, 50 TB", "NFS, 100 TB", None),
        ("Orkiestracja", "Kubernetes (zarządzany)", "Kubernetes (zarządzany)", None),
        ("Dostęp root", "tak", "tak", None),
        ("Okres umowy", "12 miesięcy", "24 miesiące", None),
        ("Cena za 1 GPU / miesiąc netto", zl(4088), zl(3796), "ceny netto, do kwoty należy doliczyć 23% VAT"),
        ("Wartość miesięczna netto", zl(48 * 4088), zl(96 * 3796), None),
        ("Dostępność (SLA)", "99,8 %", "99,8 %", "miesięcznie"),
        ("Termin uruchomienia", "do 2 tygodni od podpisania umowy", "do 4 tygodni od podpisania umowy", None),
    ]
    r = 10
    for row in rows:
        for j, v in enumerate(row, start=1):
            c = ws.cell(row=r, column=j, value=v)
            c.border = BOX
            c.alignment = WRAP
            if j == 1:
                c.font = B
        r += 1
    ws.cell(row=r + 1, column=1, value="Oferta ważna do 15.03.2026")
    ws.cell(row=r + 2, column=1, value="* Transfer danych wychodzących: bez opłat.")
    ws.cell(row=r + 3, column=1, value="Z poważaniem, Tomasz Nowicki, Dyrektor Sprzedaży")
    widths(ws, {"A": 32, "B": 34, "C": 34, "D": 44})
    save(wb, name)
    common = dict(vendor="Wisła Compute sp. z o.o.", offer_kind="rent", currency="PLN", valid_until="2026-03-15",
                  accelerator="L40S", gpus_per_node=8, gpu_memory_gb=48, cpu_cores_per_node=64,
                  cpu_memory_gb_per_node=768, local_nvme_tb_per_node=7.68, inter_node_fabric="roce",
                  inter_node_gbit_s_per_node=400, inter_node_gbit_s_per_gpu=50, network_dedicated=True,
                  storage_type="nfs", orchestrator="kubernetes", root_access=True, sla_uptime_pct=99.8,
                  egress_usd_per_gb=0)
    EXP[name] = [
        dict(offer_label="Wariant A", evaluable=True,
             note="4 088,00 zł per GPU-month / 730 = 5.60 PLN x 0.25 = 1.40 USD; 6 servers x 8 = 48 GPUs; NBSP thousands separators",
             fields=dict(common, gpu_count=48, node_count=6, storage_capacity_tb=50,
                         price_usd_per_gpu_hour=r4(4088 / HM * FX["PLN"]), term_months=12)),
        dict(offer_label="Wariant B", evaluable=True,
             note="3 796,00 zł / 730 = 5.20 PLN x 0.25 = 1.30 USD; 12 servers = 96 GPUs; 24 months",
             fields=dict(common, gpu_count=96, node_count=12, storage_capacity_tb=100,
                         price_usd_per_gpu_hour=r4(3796 / HM * FX["PLN"]), term_months=24)),
    ]


# ---------------------------------------------------------------------------
# 05 Pinnacle Systems - US VAR purchase quote, MI325X, BOM with discount and freight
# ---------------------------------------------------------------------------
def f05():
    name = "05_pinnacle_systems_mi325x_quote.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.title = "Quote Q-118842"
    ws["A1"] = "PINNACLE SYSTEMS INTEGRATION, LLC"
    ws["A1"].font = Font(bold=True, size=16, color="1F3864")
    ws["A2"] = "4410 Research Pkwy, Austin, TX 78759 | (512) 555-0142 | quotes@pinnacle-si.example"
    ws["G1"] = "QUOTATION"
    ws["G1"].font = BIG
    kv_rows(ws, 4, [
        ("Quote #", "Q-118842", None, None, None, "Bill To:", "Tessellate AI, Inc."),
        ("Quote Date", "02/11/2026", None, None, None, "Ship To:", "Tessellate AI c/o Flexential, Hillsboro OR"),
        ("Quote Expires", "03/13/2026", None, None, None, "Sales Rep:", "J. Okafor"),
        ("Terms", "Net 30 upon approved credit", None, None, None, None, None),
    ])
    header(ws, 9, ["Item", "Mfr Part #", "Description", "Qty", "Unit Price", "Ext. Price", "Lead time"])
    items = [
        (1, "AS-8126GS-TNMR", "Supermicro 8U GPU server: 8x AMD Instinct MI325X 256GB HBM3E OAM, 2x AMD EPYC 9575F 64-core, "
                              "24x 96GB DDR5-6400 (2,304 GB), 8x 3.84TB NVMe U.2, 6x 5250W PSU", 4, 298500.00, "10-12 wks"),
        (2, "BCM957608-P2200G", "Broadcom Thor2 400GbE NIC (backend RoCEv2 fabric), 8 per server", 32, 1850.00, "4 wks"),
        (3, "DCS-7060X6-64PE", "Arista 7060X6 64x400G switch, backend leaf", 1, 98000.00, "8 wks"),
        (4, "Q112-400G-DR4", "400G QSFP112 DR4 optics", 64, 420.00, "4 wks"),
    ]
    r = 10
    hw = 0
    for it in items:
        ext = it[3] * it[4]
        hw += ext
        vals = [it[0], it[1], it[2], it[3], it[4], ext, it[5]]
        for j, v in enumerate(vals, start=1):
            c = ws.cell(row=r, column=j, value=v)
            c.alignment = WRAP
            if j in (5, 6):
                c.number_format = '"$"#,##0.00'
        r += 1
    ws.cell(row=r, column=3, value="Hardware subtotal (items 1-4)").font = B
    ws.cell(row=r, column=6, value=hw).number_format = '"$"#,##0.00'
    r += 1
    disc = round(hw * 0.08, 2)
    ws.cell(row=r, column=3, value="Less: partner discount 8% on hardware items 1-4")
    ws.cell(row=r, column=6, value=-disc).number_format = '"$"#,##0.00;[Red]-"$"#,##0.00'
    r += 2
    services = [
        (5, "PSI-RACKINT", "Rack integration, burn-in (72h RCCL/stress), rack & stack on site", 1, 18500.00, "2 wks"),
        (6, "SMC-WTY-3Y-NBD", "3-year next-business-day onsite warranty, per server", 4, 21000.00, None),
        (7, "FRT-LTL", "Freight, insured, white glove", 1, 3950.00, None),
    ]
    svc = 0
    for it in services:
        ext = it[3] * it[4]
        svc += ext
        vals = [it[0], it[1], it[2], it[3], it[4], ext, it[5]]
        for j, v in enumerate(vals, start=1):
            c = ws.cell(row=r, column=j, value=v)
            c.alignment = WRAP
            if j in (5, 6):
                c.number_format = '"$"#,##0.00'
        r += 1
    total = hw - disc + svc
    r += 1
    ws.cell(row=r, column=5, value="TOTAL (USD)").font = B
    ws.cell(row=r, column=6, value=total).number_format = '"$"#,##0.00'
    ws.cell(row=r, column=6).font = B
    ws.cell(row=r + 1, column=5, value="Sales tax not included; exempt certificate on file if applicable.")
    r += 3
    notes = ["Notes:",
             "- Estimated maximum power per server: 10.5 kW. Customer responsible for rack power (4x 415V 60A) and cooling.",
             "- Pricing reflects AMD allocation as of quote date; GPU pricing subject to change after expiry.",
             "- Cancellation after PO acceptance: 25% restocking fee."]
    for t in notes:
        ws.cell(row=r, column=1, value=t)
        r += 1
    widths(ws, {"A": 6, "B": 20, "C": 78, "D": 6, "E": 14, "F": 16, "G": 12})
    save(wb, name)
    assert abs(total - 1374283.60) < 1e-6
    EXP[name] = [dict(
        offer_label="Q-118842 4x Supermicro MI325X servers", evaluable=True,
        note="hardware 1,378,080.00 - 8% (110,246.40) + services 18,500 + warranty 84,000 + freight 3,950 = 1,374,283.60; "
             "no amortization period stated, so no price per GPU-hour; 2x 64-core = 128 cores",
        fields=dict(vendor="Pinnacle Systems Integration, LLC", offer_kind="purchase", currency="USD",
                    valid_until="2026-03-13", accelerator="MI325X", gpu_count=32, gpus_per_node=8, node_count=4,
                    gpu_memory_gb=256, cpu_cores_per_node=128, cpu_memory_gb_per_node=2304, local_nvme_tb_per_node=30.72,
                    inter_node_fabric="roce", inter_node_gbit_s_per_node=3200, inter_node_gbit_s_per_gpu=400,
                    capex_usd=r2(total), power_kw_per_node=10.5))]


# ---------------------------------------------------------------------------
# 06 Nordlys Datacenter - Danish colocation + hardware bundle, H200, DKK
# ---------------------------------------------------------------------------
def f06():
    name = "06_nordlys_datacenter_tilbud_h200_colo.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.title = "Forside"
    kv_rows(ws, 1, [
        ("NORDLYS DATACENTER A/S",),
        ("Skejbyvej 101, 8200 Aarhus N · CVR 41 22 73 90",),
        (None,),
        ("TILBUD",),
        ("Tilbudsnr.", "NDC-T-2026-031"),
        ("Dato", "10. februar 2026"),
        ("Kunde", "Fjordmind ApS"),
        ("Gyldighed", "Tilbuddet er gældende til og med 28. februar 2026"),
        ("Kontakt", "Mette Kragh, Key Account Manager"),
        (None,),
        ("Tilbuddet omfatter køb af 8 GPU-servere med NVIDIA H200 inkl. InfiniBand-netværk, installation i vores "
         "datacenter i Aarhus (DK-AAR1) samt colocation og drift. Se fanen 'Priser'.",),
    ])
    ws["A1"].font = Font(bold=True, size=18, color="2E75B6")
    ws["A4"].font = BIG
    widths(ws, {"A": 30, "B": 60})

    p = wb.create_sheet("Priser")
    p["A1"] = "Priser (DKK ekskl. moms)"
    p["A1"].font = BIG
    header(p, 3, ["Pos.", "Beskrivelse", "Antal", "Enhed", "Stk.-pris DKK", "I alt DKK"])
    r = 4
    p.cell(row=r, column=1, value="A. Hardware (engangsbeløb)").font = B
    p.cell(row=r, column=1).fill = GREY
    r += 1
    hw = [
        ("A1", "Dell PowerEdge XE9680: 8 × NVIDIA H200 141 GB SXM5 (NVLink/NVSwitch 900 GB/s), 2 × Intel Xeon Platinum 8568Y+ "
               "(2 × 48 kerner), 2.048 GB DDR5, 8 × 3,84 TB NVMe, 8 × ConnectX-7 400 Gb/s NDR InfiniBand", 8, "stk.", 2350000.00),
        ("A2", "NVIDIA Quantum-2 QM9700 NDR-switch (64 × 400G), inkl. kabler og transceivere", 4, "stk.", 287500.00),
        ("A3", "Installation, kabling og idriftsættelse", 1, "stk.", 85000.00),
    ]
    tot_hw = 0
    for pos, d, n, u, pr in hw:
        tot_hw += n * pr
        for j, v in enumerate([pos, d, n, u, num_eu(pr), num_eu(n * pr)], start=1):
            p.cell(row=r, column=j, value=v).alignment = WRAP
        r += 1
    p.cell(row=r, column=2, value="Hardware i alt").font = B
    p.cell(row=r, column=6, value=num_eu(tot_hw)).font = B
    r += 2
    p.cell(row=r, column=1, value="B. Colocation og drift (månedligt)").font = B
    p.cell(row=r, column=1).fill = GREY
    r += 1
    colo_kw = 1450.00
    mon = [
        ("B1", "Colocation: 2 racks à 45 kW, kontraheret effekt 90 kW, inkl. strøm og køling", 90, "kW/md.", colo_kw),
        ("B2", "Drift: remote hands, 24/7 overvågning, udskiftning af defekte komponenter", 1, "md.", 38000.00),
    ]
    for pos, d, n, u, pr in mon:
        for j, v in enumerate([pos, d, n, u, num_eu(pr), num_eu(n * pr)], start=1):
            p.cell(row=r, column=j, value=v).alignment = WRAP
        r += 1
    p.cell(row=r, column=2, value="Månedlig ydelse i alt").font = B
    p.cell(row=r, column=6, value=num_eu(90 * colo_kw + 38000)).font = B
    r += 2
    for t in ["Maks. effekt pr. server: 10,2 kW.",
              "Levering: uge 16/2026 (forventet).",
              "Colocation- og driftsaftalen løber i 36 måneder, svarende til afskrivningsperioden for hardwaren.",
              "Moms (25 %) tillægges alle priser. Betaling: hardware 50 % ved ordre, 50 % ved levering; colocation månedsvis forud."]:
        p.cell(row=r, column=1, value=t)
        r += 1

    t = wb.create_sheet("TCO")
    kv_rows(t, 1, [
        ("TCO-overslag (vejledende)",),
        ("Afskrivningsperiode", "36 måneder"),
        ("Hardware / 36", num_eu(tot_hw / 36)),
        ("Colocation + drift pr. måned", num_eu(90 * colo_kw + 38000)),
        ("Antal GPU'er", 64),
        ("Pris pr. GPU-time (DKK)", num_eu((tot_hw / 36 + 90 * colo_kw + 38000) / (64 * HM))),
    ])
    widths(p, {"A": 8, "B": 80, "C": 8, "D": 10, "E": 16, "F": 18})
    widths(t, {"A": 32, "B": 20})
    save(wb, name)
    capex = tot_hw * FX["DKK"]
    colo_usd = colo_kw * FX["DKK"]
    opex = 38000 * FX["DKK"]
    eff = (capex / 36 + 90 * colo_usd + opex) / (64 * HM)
    EXP[name] = [dict(
        offer_label="NDC-T-2026-031 8x XE9680 H200 purchase + colocation", evaluable=True,
        note=f"hardware DKK 20.035.000,00 x 0.145 = {capex:.2f} USD; colocation DKK 1.450,00 per kW-month x 0.145 = 210.25 USD, "
             f"contracted 90 kW (not 8 x 10.2 kW) = 18,922.50 USD/month; drift DKK 38.000 = 5,510 USD/month; "
             f"effective = ({capex:.2f}/36 + 18922.50 + 5510) / (64 x 730) = {eff:.4f}; delivery 'uge 16/2026' is a week, not listed",
        fields=dict(vendor="Nordlys Datacenter A/S", offer_kind="purchase", currency="DKK", valid_until="2026-02-28",
                    region="Aarhus", accelerator="H200", gpu_count=64, gpus_per_node=8, node_count=8, gpu_memory_gb=141,
                    cpu_cores_per_node=96, cpu_memory_gb_per_node=2048, local_nvme_tb_per_node=30.72,
                    intra_node_gbyte_s_per_gpu=900, inter_node_fabric="infiniband", inter_node_gbit_s_per_node=3200,
                    inter_node_gbit_s_per_gpu=400, network_dedicated=True, capex_usd=r2(capex),
                    amortization_months=36, power_kw_per_node=10.2, colocation_usd_per_kw_month=r4(colo_usd),
                    opex_usd_per_month=r2(opex), price_usd_per_gpu_hour=r4(eff), term_months=36))]


# ---------------------------------------------------------------------------
# 07 GPUXchange - broker marketplace CSV export, one listing per row
# ---------------------------------------------------------------------------
def f07():
    name = "07_gpuxchange_listings_export.csv"
    rows = [
        ["listing_id", "status", "provider", "site", "gpu", "vram_gb", "qty_gpu", "qty_nodes", "fabric",
         "shared_storage", "usd_gpu_hr", "commit", "avail_from", "quote_expires", "notes"],
        ["GX-88412", "active", "Provider #4471 (Tier III)", "Dallas, TX", "H100 80GB SXM5", "80", "64", "8",
         "IB NDR 400G x8/node", "", "2.19", "6 months", "2026-03-01", "2026-02-20", "bare metal; bring your own scheduler"],
        ["GX-88530", "active", "Provider #0932 (Tier III)", "Reykjavik, IS", "H200 141GB SXM", "141", "128", "16",
         "IB NDR 400G x8/node", "WEKA 300TB", "2.89", "12 months", "2026-04-01", "2026-02-28", "100% renewable power"],
        ["GX-88601", "active", "Provider #5120", "Frankfurt, DE", "AMD MI300X 192GB", "192", "32", "4",
         "RoCE 400G x8/node", "", "1.85", "3 months", "2026-03-15", "2026-02-20", "ROCm 6.x images provided"],
        ["GX-87990", "withdrawn", "Provider #1193", "Montreal, QC", "A100 SXM4 80GB", "80", "64", "8",
         "IB HDR 200G x8/node", "", "1.29", "12 months", "2026-02-01", "2026-01-31", "capacity sold - do not quote"],
    ]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    buf.write("# GPUXchange marketplace export - account: Meridian Robotics - generated 2026-02-14 08:00 UTC\r\n")
    for row in rows:
        w.writerow(row)
    buf.write("# Prices are per GPU-hour in USD, all-in (compute + fabric), broker fee included. Listings are indicative until reserved.\r\n")
    with open(os.path.join(OUT, name), "w", newline="", encoding="utf-8") as f:
        f.write(buf.getvalue())
    base = dict(vendor="GPUXchange", offer_kind="rent", currency="USD", gpus_per_node=8, inter_node_gbit_s_per_node=3200,
                inter_node_gbit_s_per_gpu=400)
    EXP[name] = [
        dict(offer_label="GX-88412", evaluable=True, note="per-GPU-hour price as listed; 64 GPUs / 8 nodes",
             fields=dict(base, region="Dallas, TX", accelerator="H100-SXM", gpu_count=64, node_count=8, gpu_memory_gb=80,
                         inter_node_fabric="infiniband", price_usd_per_gpu_hour=2.19, term_months=6,
                         delivery_date="2026-03-01", valid_until="2026-02-20")),
        dict(offer_label="GX-88530", evaluable=True, note="WEKA 300 TB shared storage",
             fields=dict(base, region="Reykjavik, IS", accelerator="H200", gpu_count=128, node_count=16, gpu_memory_gb=141,
                         inter_node_fabric="infiniband", storage_type="weka", storage_capacity_tb=300,
                         price_usd_per_gpu_hour=2.89, term_months=12, delivery_date="2026-04-01", valid_until="2026-02-28")),
        dict(offer_label="GX-88601", evaluable=True, note="MI300X, RoCE 8 x 400G per node",
             fields=dict(base, region="Frankfurt, DE", accelerator="MI300X", gpu_count=32, node_count=4, gpu_memory_gb=192,
                         inter_node_fabric="roce", price_usd_per_gpu_hour=1.85, term_months=3,
                         delivery_date="2026-03-15", valid_until="2026-02-20")),
        dict(offer_label="GX-87990", evaluable=False,
             note="status 'withdrawn', notes 'capacity sold - do not quote', and quote expired 2026-01-31: not an offer",
             fields=dict(vendor="GPUXchange", accelerator="A100-SXM-80GB", gpu_count=64)),
    ]


# ---------------------------------------------------------------------------
# 08 Atlantico Cloud - Portuguese provider, billing-API quote JSON, amounts in cents, unix timestamps
# ---------------------------------------------------------------------------
def f08():
    name = "08_atlantico_cloud_quote_qt_1Q8x.json"

    def ts(y, m, d, hh=12):
        return int(dt.datetime(y, m, d, hh, 0, 0, tzinfo=dt.timezone.utc).timestamp())
    li = []
    for lid, desc, qty, cents, model, nodes, pid in [
        ("li_01", "Cluster GPU dedicado - 2 nós × 8 NVIDIA H100 PCIe 80GB", 16, 245, "NVIDIA H100 PCIe 80GB", "2", "prod_gpuh_h100pcie"),
        ("li_02", "Nó GPU dedicado - 1 nó × 8 NVIDIA H200 NVL 141GB", 8, 329, "NVIDIA H200 NVL 141GB", "1", "prod_gpuh_h200nvl"),
    ]:
        li.append({
            "id": lid, "object": "item", "description": desc, "quantity": qty,
            "amount_subtotal": qty * cents, "currency": "eur",
            "price": {"id": "price_" + pid[5:] + "_6m", "object": "price", "currency": "eur", "unit_amount": cents,
                      "unit_amount_decimal": str(cents), "recurring": {"interval": "hour", "interval_count": 1,
                                                                      "usage_type": "licensed"},
                      "product": {"id": pid, "name": "GPU-hora " + model.replace("NVIDIA ", ""),
                                  "metadata": {"gpu_model": model, "gpus_per_node": "8", "nodes": nodes,
                                               "network": "2x 200GbE RoCE v2 por nó",
                                               "commitment_months": "6",
                                               "storage": "Armazenamento de objetos S3 não incluído"}}},
        })
    doc = {
        "object": "quote", "id": "qt_1Q8xA2LkAtl4ntic0", "number": "AC-2026-0311", "status": "open",
        "livemode": True, "created": ts(2026, 2, 12, 10), "expires_at": ts(2026, 3, 31, 12), "currency": "eur",
        "account": {"name": "Atlântico Cloud, S.A.", "tax_id": "PT515000000", "region": "pt-lis-1 (Lisboa)"},
        "customer": {"name": "Ventura Labs, Lda.", "email": "infra@venturalabs.example"},
        "default_tax_rates": [{"display_name": "IVA", "percentage": 23.0, "inclusive": False}],
        "line_items": {"object": "list", "has_more": False, "data": li},
        "amount_subtotal": sum(x["amount_subtotal"] for x in li),
        "amount_subtotal_note": "por hora, em cêntimos",
        "metadata": {"sla_uptime": "99.95%", "support": "Resposta em 4 horas (P1)", "egress": "€0,00/GB",
                     "billing": "mensal, pós-pago", "access": "root"},
    }
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=2)
        f.write("\n")
    base = dict(vendor="Atlântico Cloud, S.A.", offer_kind="rent", currency="EUR", valid_until="2026-03-31",
                region="pt-lis-1 (Lisboa)", gpus_per_node=8, inter_node_fabric="roce", inter_node_gbit_s_per_node=400,
                inter_node_gbit_s_per_gpu=50, root_access=True, support_response_hours=4, sla_uptime_pct=99.95,
                egress_usd_per_gb=0, term_months=6)
    EXP[name] = [
        dict(offer_label="li_01 H100 PCIe", evaluable=True,
             note="unit_amount 245 is in euro cents = 2.45 EUR per GPU-hour x 1.08 = 2.646 USD; expires_at 1774958400 = 2026-03-31T12:00Z",
             fields=dict(base, accelerator="H100-PCIe", gpu_count=16, node_count=2, gpu_memory_gb=80,
                         price_usd_per_gpu_hour=r4(2.45 * FX["EUR"]))),
        dict(offer_label="li_02 H200 NVL", evaluable=True,
             note="329 cents = 3.29 EUR x 1.08 = 3.5532 USD per GPU-hour",
             fields=dict(base, accelerator="H200-NVL", gpu_count=8, node_count=1, gpu_memory_gb=141,
                         price_usd_per_gpu_hour=r4(3.29 * FX["EUR"]))),
    ]
    assert ts(2026, 3, 31, 12) == 1774958400


# ---------------------------------------------------------------------------
# 09 Computo Iberico - Spanish presupuesto, Gaudi 3, two options stacked, per node-hour
# ---------------------------------------------------------------------------
def f09():
    name = "09_computo_iberico_presupuesto_gaudi3.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.title = "Presupuesto"
    kv_rows(ws, 1, [
        ("CÓMPUTO IBÉRICO, S.L.",),
        ("C/ de la Innovación 23, 28050 Madrid · CIF B-88123456",),
        (None,),
        ("PRESUPUESTO Nº P-2026-0087",),
        ("Cliente:", "Sibila Lenguaje Natural, S.A."),
        ("Fecha:", "12/02/2026"),
        ("Válido hasta:", "14/03/2026"),
    ])
    ws["A1"].font = Font(bold=True, size=16, color="C00000")
    ws["A4"].font = BIG
    r = 9

    def option(r, title, nodes, rate, tb):
        ws.merge_cells(start_row=r, start_column=1, end_row=r, end_column=5)
        ws.cell(row=r, column=1, value=title).font = HDR_FONT
        ws.cell(row=r, column=1).fill = HDR_FILL
        r += 1
        header(ws, r, ["Concepto", "Cantidad", "Unidad", "Precio unitario", "Importe mensual"], fill=GREY, font=B)
        r += 1
        comp = nodes * rate * HM
        stor = tb * 22.0
        lines = [
            ("Nodo Gaudi 3 (8 × Intel Gaudi 3 HL-325L OAM, 128 GB HBM2e por acelerador)", nodes, "nodos",
             f"{num_eu(rate)} €/nodo·hora", num_eu(comp) + " €"),
            (f"Almacenamiento compartido DDN AI400X2, {tb} TB", tb, "TB", "22,00 €/TB·mes", num_eu(stor) + " €"),
            ("Soporte Premium 24×7 (respuesta en 2 h)", 1, "mes", "4.500,00 €", "4.500,00 €"),
        ]
        for ln in lines:
            for j, v in enumerate(ln, start=1):
                ws.cell(row=r, column=j, value=v).alignment = WRAP
            r += 1
        ws.cell(row=r, column=4, value="TOTAL MENSUAL (IVA no incluido)").font = B
        ws.cell(row=r, column=5, value=num_eu(comp + stor + 4500) + " €").font = B
        return r + 2

    r = option(r, "OPCIÓN 1 — 16 nodos Intel Gaudi 3 (128 aceleradores), 12 meses", 16, 31.20, 250)
    r = option(r, "OPCIÓN 2 — 32 nodos Intel Gaudi 3 (256 aceleradores), 12 meses", 32, 29.60, 500)
    ws.cell(row=r, column=1, value="Especificaciones técnicas comunes a ambas opciones").font = B
    r = kv_rows(ws, r + 1, [
        ("CPU por nodo", "2 × Intel Xeon 6960P (72 núcleos c/u)"),
        ("Memoria por nodo", "1.536 GB DDR5"),
        ("Red entre nodos", "RoCE v2, 24 × 200 GbE por nodo (4,8 Tbit/s), red dedicada sin otros clientes"),
        ("Orquestación", "Slurm"),
        ("Acceso root", "Sí"),
        ("SLA de disponibilidad", "99,9 % mensual"),
        ("Sustitución de hardware", "Nodo averiado sustituido en un plazo máximo de 8 h"),
        ("Disponibilidad del servicio", "01/04/2026"),
    ], bold_first=False)
    widths(ws, {"A": 70, "B": 12, "C": 10, "D": 34, "E": 20})

    c = wb.create_sheet("Condiciones")
    kv_rows(c, 1, [
        ("Condiciones generales",),
        ("1. Permanencia mínima: 12 meses en ambas opciones.",),
        ("2. Facturación mensual anticipada; pago a 30 días.",),
        ("3. Precios en euros, IVA (21 %) no incluido.",),
        ("4. Sin coste por tráfico de salida.",),
    ])
    c.column_dimensions["A"].width = 80
    save(wb, name)
    common = dict(vendor="Cómputo Ibérico, S.L.", offer_kind="rent", currency="EUR", valid_until="2026-03-14",
                  accelerator="Gaudi3", gpus_per_node=8, gpu_memory_gb=128, cpu_cores_per_node=144,
                  cpu_memory_gb_per_node=1536, inter_node_fabric="roce", inter_node_gbit_s_per_node=4800,
                  inter_node_gbit_s_per_gpu=600, network_dedicated=True, storage_type="ddn", orchestrator="slurm",
                  root_access=True, hw_replacement_hours=8, support_response_hours=2, sla_uptime_pct=99.9,
                  delivery_date="2026-04-01", term_months=12, egress_usd_per_gb=0,
                  storage_usd_per_tb_month=r2(22 * FX["EUR"]), support_usd_per_month=r2(4500 * FX["EUR"]))
    EXP[name] = [
        dict(offer_label="Opción 1 - 16 nodos", evaluable=True,
             note="31,20 EUR per 8-accelerator node-hour / 8 = 3.90 EUR x 1.08 = 4.212 USD; 22 EUR/TB-month x 1.08 = 23.76; "
                  "support 4.500 EUR x 1.08 = 4860; 24 x 200 GbE = 4800 Gbit/s per node, 600 per accelerator",
             fields=dict(common, gpu_count=128, node_count=16, storage_capacity_tb=250,
                         price_usd_per_gpu_hour=r4(31.20 / 8 * FX["EUR"]))),
        dict(offer_label="Opción 2 - 32 nodos", evaluable=True,
             note="29,60 / 8 = 3.70 EUR x 1.08 = 3.996 USD; DDN 500 TB",
             fields=dict(common, gpu_count=256, node_count=32, storage_capacity_tb=500,
                         price_usd_per_gpu_hour=r4(29.60 / 8 * FX["EUR"]))),
    ]


# ---------------------------------------------------------------------------
# 10 Vltava Datacentrum - Czech offer, A100, price per server per YEAR, CZK
# ---------------------------------------------------------------------------
def f10():
    name = "10_vltava_datacentrum_nabidka_a100.xlsx"
    nb = "\u00a0"
    wb = Workbook()
    ws = wb.active
    ws.title = "Nabídka"

    def kc(x):
        return num_eu(x, 2, nb, ",") + f"{nb}Kč"
    kv_rows(ws, 1, [
        ("Vltava Datacentrum s.r.o., Na Strži 65, 140 00 Praha 4, IČO 08812345",),
        (None,),
        ("CENOVÁ NABÍDKA č. 2026/017",),
        ("Zákazník: Kvantik Labs a.s.",),
        ("V Praze dne 9. 2. 2026",),
        ("Platnost nabídky do: 31. 3. 2026",),
    ], bold_first=False)
    ws["A3"].font = BIG
    y1 = 34 * 8 * 8760
    y2 = 31 * 8 * 8760
    r = 8
    for title, price in [("Varianta 1 – smlouva na 1 rok", y1), ("Varianta 2 – smlouva na 2 roky (cena za rok)", y2)]:
        ws.cell(row=r, column=1, value=title).font = B
        r += 1
        header(ws, r, ["Pol.", "Popis", "Množství", "MJ", "Jedn. cena bez DPH", "Celkem bez DPH"])
        r += 1
        for j, v in enumerate([1, "Pronájem GPU serveru 8× NVIDIA A100 SXM4 80 GB (HGX A100), dedikovaný", 8, "server/rok",
                               kc(price), kc(price * 8)], start=1):
            ws.cell(row=r, column=j, value=v).alignment = WRAP
        r += 1
        if price == y2:
            ws.cell(row=r, column=2, value=f"Při 2leté smlouvě celkem {kc(price * 8 * 2)} bez DPH")
            r += 1
        r += 1
    ws.cell(row=r, column=1, value="Ceny jsou uvedeny bez DPH (21 %). Fakturace čtvrtletně předem.")
    ws.cell(row=r + 1, column=1, value="Předání serverů: 1. 4. 2026")
    widths(ws, {"A": 40, "B": 60, "C": 10, "D": 12, "E": 22, "F": 22})

    t = wb.create_sheet("Technické parametry")
    kv_rows(t, 1, [
        ("Parametr", "Hodnota"),
        ("GPU", "8× NVIDIA A100 SXM4 80 GB, NVLink 600 GB/s"),
        ("CPU", "2× AMD EPYC 7763, celkem 128 jader"),
        ("RAM", "2 048 GB DDR4"),
        ("Lokální disky", "4× 3,84 TB NVMe"),
        ("Síť mezi servery", "InfiniBand HDR, 4× 200 Gb/s na server, vyhrazená pro zákazníka"),
        ("Úložiště", "NFS (NetApp AFF A400), 100 TB"),
        ("Správa", "bez orchestrace – holý server (bare metal), plný root přístup"),
        ("Dostupnost (SLA)", "99,7 %"),
        ("Výměna vadného HW", "do 48 hodin"),
    ])
    widths(t, {"A": 22, "B": 70})
    k = wb.create_sheet("kalkulace")
    kv_rows(k, 1, [("interní", None), ("nákup server", 4100000), ("odpis let", 4), ("marže", "18 %")])
    k.sheet_state = "hidden"
    save(wb, name)
    common = dict(vendor="Vltava Datacentrum s.r.o.", offer_kind="rent", currency="CZK", valid_until="2026-03-31",
                  accelerator="A100-SXM-80GB", gpu_count=64, gpus_per_node=8, node_count=8, gpu_memory_gb=80,
                  cpu_cores_per_node=128, cpu_memory_gb_per_node=2048, local_nvme_tb_per_node=15.36,
                  intra_node_gbyte_s_per_gpu=600, inter_node_fabric="infiniband", inter_node_gbit_s_per_node=800,
                  inter_node_gbit_s_per_gpu=100, network_dedicated=True, storage_type="nfs", storage_capacity_tb=100,
                  orchestrator="none", root_access=True, sla_uptime_pct=99.7, hw_replacement_hours=48,
                  delivery_date="2026-04-01")
    EXP[name] = [
        dict(offer_label="Varianta 1 - 1 rok", evaluable=True,
             note=f"{y1} CZK per server-year / (8 GPUs x 12 x 730) = 34 CZK x 0.043 = 1.462 USD",
             fields=dict(common, price_usd_per_gpu_hour=r4(y1 / (8 * 12 * HM) * FX["CZK"]), term_months=12)),
        dict(offer_label="Varianta 2 - 2 roky", evaluable=True,
             note=f"{y2} CZK per server-year / 70,080 = 31 CZK x 0.043 = 1.333 USD; 2-year term",
             fields=dict(common, price_usd_per_gpu_hour=r4(y2 / (8 * 12 * HM) * FX["CZK"]), term_months=24)),
    ]


# ---------------------------------------------------------------------------
# 11 Nimbus Cloud Japan - Japanese mitsumorisho, TPU v6e, JPY per chip-hour
# ---------------------------------------------------------------------------
def f11():
    name = "11_nimbus_cloud_japan_mitsumori_tpu_v6e.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.title = "御見積書"
    ws.merge_cells("A1:G1")
    ws["A1"] = "御 見 積 書"
    ws["A1"].font = Font(bold=True, size=20)
    ws["A1"].alignment = Alignment(horizontal="center")
    ws["A3"] = "株式会社ハヤテAI 御中"
    ws["A3"].font = Font(bold=True, size=13, underline="single")
    kv_rows(ws, 3, [(None,) * 5 + ("見積番号", "NCJ-2602-0419"),
                    (None,) * 5 + ("発行日", "2026年2月13日"),
                    (None,) * 5 + ("有効期限", "2026年3月31日"),
                    (None,) * 5 + ("発行者", "ニンバス・クラウド・ジャパン合同会社 (Nimbus Cloud Japan G.K.)")], bold_first=False)
    ws["A7"] = "下記の通り御見積申し上げます。"
    header(ws, 9, ["No.", "品目", "仕様", "数量", "単位", "単価（税抜）", "月額概算（税抜）", "備考"])
    items = [
        (1, "Cloud TPU v6e（Trillium）オンデマンド", "ポッドスライス v6e-256（256 チップ、HBM 32 GB/チップ）", 256, "チップ時間", 405,
         256 * HM * 405, "契約期間の定めなし"),
        (2, "Cloud TPU v6e（Trillium）1年確約利用", "ポッドスライス v6e-256（256 チップ、HBM 32 GB/チップ）", 256, "チップ時間", 255,
         256 * HM * 255, "1年間（12か月）の利用確約、月額請求"),
    ]
    r = 10
    for it in items:
        for j, v in enumerate(it, start=1):
            c = ws.cell(row=r, column=j, value=v)
            c.border = BOX
            c.alignment = WRAP
            if j in (6, 7):
                c.number_format = '"¥"#,##0'
        r += 1
    notes = ["※ 月額概算は 730 時間/月 で算出しています。",
             "※ リージョン: asia-northeast1（東京）",
             "※ チップ間接続: ICI（Inter-Chip Interconnect）、スライス内で専有",
             "※ インターネットへのデータ転送料金: ¥17/GB",
             "※ 消費税は別途申し受けます。",
             "※ No.1 と No.2 はいずれか一方をご選択ください。"]
    r += 1
    for t in notes:
        ws.cell(row=r, column=2, value=t)
        r += 1
    widths(ws, {"A": 5, "B": 36, "C": 44, "D": 8, "E": 12, "F": 14, "G": 18, "H": 36})
    save(wb, name)
    common = dict(vendor="Nimbus Cloud Japan G.K.", offer_kind="rent", currency="JPY", valid_until="2026-03-31",
                  region="asia-northeast1", accelerator="TPU-v6e", gpu_count=256, gpu_memory_gb=32,
                  inter_node_fabric="ici", egress_usd_per_gb=r4(17 * FX["JPY"]))
    EXP[name] = [
        dict(offer_label="No.1 オンデマンド (on-demand)", evaluable=True,
             note="¥405 per chip-hour x 0.0066 = 2.673 USD; v6e-256 = 256 chips; no term; egress ¥17/GB = 0.1122",
             fields=dict(common, price_usd_per_gpu_hour=r4(405 * FX["JPY"]))),
        dict(offer_label="No.2 1年確約利用 (1-year commitment)", evaluable=True,
             note="¥255 x 0.0066 = 1.683 USD; 12 months",
             fields=dict(common, price_usd_per_gpu_hour=r4(255 * FX["JPY"]), term_months=12)),
    ]


# ---------------------------------------------------------------------------
# 12 Polderstroom AI - Dutch term sheet, GB200 NVL72, EUR per rack-month, prose rows
# ---------------------------------------------------------------------------
def f12():
    name = "12_polderstroom_termsheet_gb200_nvl72.xlsx"
    wb = Workbook()
    v = wb.active
    v.title = "Voorblad"
    kv_rows(v, 1, [("Polderstroom AI B.V.",), ("Eemshavenweg 4, 9979 XX Eemshaven · KvK 91234567",), (None,),
                   ("INDICATIEVE TERM SHEET",), ("Dedicated GPU-capaciteit voor Kestrel Labs Ltd.",),
                   ("Versie 2 - 18 februari 2026",), (None,),
                   ("Niet bindend tot ondertekening van de Overeenkomst. Vertrouwelijk.",)])
    v["A1"].font = Font(bold=True, size=18, color="00703C")
    v["A4"].font = BIG
    v.column_dimensions["A"].width = 70

    ws = wb.create_sheet("Term sheet")
    header(ws, 1, ["Onderwerp", "Voorwaarden"])
    rows = [
        ("Partijen", "Polderstroom AI B.V. (\"Polderstroom\") en Kestrel Labs Ltd. (\"Afnemer\")"),
        ("Dienst", "Dedicated GPU-capaciteit op NVIDIA GB200 NVL72, exclusief voor Afnemer"),
        ("Capaciteit", "Twee (2) GB200 NVL72-racks, samen 144 Blackwell-GPU's en 72 Grace-CPU's"),
        ("Interconnect", "NVLink 5 binnen elk rack (1,8 TB/s per GPU, 72 GPU's per NVLink-domein); tussen de racks "
                         "NVIDIA Quantum-X800 InfiniBand, 800 Gb/s per GPU, niet gedeeld met andere klanten"),
        ("Opslag", "VAST Data, 2 PB, inbegrepen in de prijs"),
        ("Software", "Slurm, beheerd door Polderstroom; root-toegang op alle compute trays"),
        ("Prijs", "€ 204.400,00 per rack per maand, exclusief btw"),
        ("Looptijd", "36 maanden vanaf Ingebruikname"),
        ("Vooruitbetaling", "Drie (3) maandtermijnen voor beide racks bij ondertekening (€ 1.226.400,00)"),
        ("Ingebruikname", "Uiterlijk 1 juli 2026"),
        ("Beschikbaarheid", "99,5% per kalendermaand; servicecredits tot maximaal 20% van de maandfactuur"),
        ("Hardware", "Polderstroom zal zich redelijkerwijs inspannen defecte compute trays binnen 72 uur te vervangen."),
        ("Dataverkeer", "Geen kosten voor in- of uitgaand dataverkeer"),
        ("Locatie", "Eemshaven, Nederland"),
        ("Geldigheid", "Deze term sheet is geldig tot 15 maart 2026."),
        ("Toepasselijk recht", "Nederlands recht; bevoegde rechter te Groningen"),
    ]
    r = 2
    for a, b in rows:
        ws.cell(row=r, column=1, value=a).font = B
        ws.cell(row=r, column=2, value=b).alignment = WRAP
        r += 1
    widths(ws, {"A": 20, "B": 100})
    save(wb, name)
    assert 3 * 2 * 204400 == 1226400
    EXP[name] = [dict(
        offer_label="2x GB200 NVL72, 36 months", evaluable=True,
        note="EUR 204.400,00 per 72-GPU rack-month / (72 x 730) = 3.8889 EUR x 1.08 = 4.20 USD; upfront EUR 1.226.400 x 1.08 = "
             "1,324,512; 1,8 TB/s NVLink = 1800 GB/s; 2 PB = 2000 TB; hw replacement is a 'reasonable effort' of 72 h "
             "(value as stated; weak clause); gpus_per_node/node_count not stated for NVL72",
        fields=dict(vendor="Polderstroom AI B.V.", offer_kind="rent", currency="EUR", valid_until="2026-03-15",
                    region="Eemshaven, Nederland", accelerator="GB200", gpu_count=144, intra_node_gbyte_s_per_gpu=1800,
                    inter_node_fabric="infiniband", inter_node_gbit_s_per_gpu=800, network_dedicated=True,
                    storage_type="vast", storage_capacity_tb=2000, orchestrator="slurm", root_access=True,
                    hw_replacement_hours=72, sla_uptime_pct=99.5, sla_max_credit_pct=20, delivery_date="2026-07-01",
                    price_usd_per_gpu_hour=r4(204400 / (72 * HM) * FX["EUR"]), term_months=36,
                    upfront_usd=r2(1226400 * FX["EUR"]), egress_usd_per_gb=0))]


# ---------------------------------------------------------------------------
# 13 Thamesgate Compute - UK neocloud, GBP per node-WEEK, options as rows
# ---------------------------------------------------------------------------
def f13():
    name = "13_thamesgate_h100_weekly_quote.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.title = "Quote"
    kv_rows(ws, 1, [
        ("Thamesgate Compute Ltd",),
        ("Unit 7, Bath Road Trading Estate, Slough SL1 4DX · Company no. 13456789",),
        (None,),
        ("Quote for: Lattice Bio Ltd  |  Ref TG-Q-0262  |  Issued 16 Feb 2026  |  Valid until: 2 March 2026",),
        (None,),
        ("Hardware: 12 × Supermicro SYS-821GE-TNHR, each with 8 × NVIDIA H100 SXM5 80GB, 2 × Xeon Platinum 8468 "
         "(96 cores total), 2 TB RAM, 4 × 3.84 TB NVMe, 8 × 400G NDR InfiniBand (ConnectX-7), non-blocking, your nodes only",),
        ("Storage: 200 TB WEKA shared filesystem, included",),
        ("Software: Slurm set up and managed by us; root on all nodes; bare metal on request",),
        ("Location: Slough, UK. Nodes ready week commencing 9 March 2026.",),
    ], bold_first=False)
    ws["A1"].font = Font(bold=True, size=18, color="7030A0")
    header(ws, 11, ["Option", "Commitment", "Nodes", "GPUs", "£ / node / week", "£ / week (total)", "Notes"])
    opts = [
        ("FLEX", "Rolling weekly, 1 week notice", 12, 96, 2150.00, "Subject to availability after week 4"),
        ("COMMIT-26", "26 weeks, invoiced 4-weekly in advance", 12, 96, 1860.00,
         "Capacity guaranteed. Minimum commitment £580,320.00"),
    ]
    r = 12
    for o in opts:
        vals = [o[0], o[1], o[2], o[3], o[4], o[2] * o[4], o[5]]
        for j, val in enumerate(vals, start=1):
            c = ws.cell(row=r, column=j, value=val)
            c.border = BOX
            c.alignment = WRAP
            if j in (5, 6):
                c.number_format = '"£"#,##0.00'
        r += 1
    ws.cell(row=r + 1, column=1, value="All prices GBP ex VAT. VAT at 20% will be added.")
    ws.cell(row=r + 2, column=1, value="Egress: free.")
    widths(ws, {"A": 14, "B": 36, "C": 8, "D": 8, "E": 16, "F": 18, "G": 48})

    t = wb.create_sheet("T&Cs")
    kv_rows(t, 1, [
        ("1. Availability: 99.5% per month, measured per node. Credits capped at 10% of the weekly fee.",),
        ("2. Thamesgate will use reasonable endeavours to replace failed nodes within 24 hours.",),
        ("3. Support: Slack channel and email, 4-hour response during UK business hours.",),
        ("4. Either party may terminate FLEX on 7 days' notice. COMMIT-26 is non-cancellable.",),
    ], bold_first=False)
    t.column_dimensions["A"].width = 110
    save(wb, name)
    assert 26 * 12 * 1860 == 580320
    common = dict(vendor="Thamesgate Compute Ltd", offer_kind="rent", currency="GBP", valid_until="2026-03-02",
                  region="Slough, UK", accelerator="H100-SXM", gpu_count=96, gpus_per_node=8, node_count=12,
                  gpu_memory_gb=80, cpu_cores_per_node=96, local_nvme_tb_per_node=15.36, inter_node_fabric="infiniband",
                  inter_node_gbit_s_per_node=3200, inter_node_gbit_s_per_gpu=400, network_dedicated=True,
                  storage_type="weka", storage_capacity_tb=200, orchestrator="slurm", root_access=True,
                  hw_replacement_hours=24, sla_uptime_pct=99.5, sla_max_credit_pct=10, delivery_date="2026-03-09",
                  egress_usd_per_gb=0)
    EXP[name] = [
        dict(offer_label="FLEX", evaluable=True,
             note="£2,150 per node-week / (8 x 168 h) = 1.59970 GBP x 1.27 = 2.0316 USD; rolling weekly, no term; "
                  "'2 TB RAM' not listed (TB vs TiB); support 4 h only in business hours (not listed)",
             fields=dict(common, price_usd_per_gpu_hour=r4(2150 / (8 * 168) * FX["GBP"]))),
        dict(offer_label="COMMIT-26", evaluable=True,
             note="£1,860 / 1344 = 1.38393 GBP x 1.27 = 1.7576 USD; term 26 weeks (~6 months, term_months not listed as it is "
                  "not a whole number of months); min commit £580,320 x 1.27 = 737,006.40",
             fields=dict(common, price_usd_per_gpu_hour=r4(1860 / (8 * 168) * FX["GBP"]),
                         min_commit_usd=r2(580320 * FX["GBP"]))),
    ]


# ---------------------------------------------------------------------------
# 14 Helix Systems - OEM datasheet, MI300X platform, no price (NOT evaluable)
# ---------------------------------------------------------------------------
def f14():
    name = "14_helix_hx8m3_mi300x_datasheet.xlsx"
    wb = Workbook()
    ws = wb.active
    ws.title = "Spec Sheet"
    ws["A1"] = "HELIX SYSTEMS  HX-8M3"
    ws["A1"].font = Font(bold=True, size=20)
    ws["A2"] = "8-GPU AMD Instinct MI300X platform for generative AI"
    r = 4
    for section, items in [
        ("Accelerators", [("GPU", "8 × AMD Instinct MI300X OAM"), ("GPU memory", "192 GB HBM3 per GPU (1.5 TB total)"),
                          ("Peak FP8 (with sparsity)", "5,229.8 TFLOPS per GPU"), ("GPU interconnect", "AMD Infinity Fabric, 896 GB/s")]),
        ("Processor & memory", [("CPU", "2 × AMD EPYC 9004/9005 series, up to 192 cores each"), ("Memory", "up to 6 TB DDR5 (24 DIMMs)")]),
        ("Networking", [("Backend", "up to 8 × 400 GbE or NDR InfiniBand (PCIe Gen5 x16)"), ("Frontend", "2 × 25/100 GbE")]),
        ("Power", [("PSU", "6 × 3000 W Titanium (3+3)"), ("Typical draw", "8.5-9.5 kW")]),
    ]:
        ws.cell(row=r, column=1, value=section).font = HDR_FONT
        ws.cell(row=r, column=1).fill = HDR_FILL
        r += 1
        r = kv_rows(ws, r, items)
        r += 1
    ws.cell(row=r, column=1, value="Pricing and availability: contact your Helix sales representative or authorised partner.")
    ws.cell(row=r + 1, column=1, value="Specifications subject to change without notice. © 2026 Helix Systems Corp.")
    widths(ws, {"A": 28, "B": 60})
    c = wb.create_sheet("Configurations")
    header(c, 1, ["Config", "CPU", "Memory", "Backend NICs", "Storage", "Part number"])
    kv_rows(c, 2, [("Base", "2 × EPYC 9454", "1.5 TB", "8 × 400 GbE", "4 × 3.84 TB", "HX8M3-B"),
                   ("Performance", "2 × EPYC 9654", "3 TB", "8 × 400G NDR IB", "8 × 7.68 TB", "HX8M3-P")], bold_first=False)
    widths(c, {"A": 14, "B": 16, "C": 10, "D": 18, "E": 14, "F": 12})
    save(wb, name)
    EXP[name] = [dict(
        offer_label="HX-8M3 datasheet", evaluable=False,
        note="OEM product datasheet: no price, no quantity, no term, no validity; pricing 'contact your sales representative'. "
             "Also quotes a sparse FP8 peak. Not an offer.",
        fields=dict(vendor="Helix Systems", accelerator="MI300X", gpus_per_node=8, gpu_memory_gb=192))]


# ---------------------------------------------------------------------------
# 15 Brandt IT-Systemhaus - German price list CSV (cp1252, semicolons), all 'auf Anfrage' (NOT evaluable)
# ---------------------------------------------------------------------------
def f15():
    name = "15_brandt_it_preisliste_gpu_server.csv"
    lines = [
        "Brandt IT-Systemhaus GmbH – Preisliste GPU-Server Q1/2026;;;;;",
        "Stand: 02.02.2026 – alle Preise zzgl. MwSt. – Preise für GPU-Systeme nur auf Anfrage (tagesaktuell);;;;;",
        ";;;;;",
        "Artikelnr.;Bezeichnung;GPU;Anzahl GPU;Lieferzeit;Preis (EUR netto)",
        "BR-H200-8;Gigabyte G593-SD1, 2× Xeon 8558, 2 TB RAM;NVIDIA H200 141GB SXM;8;ca. 8 Wochen;auf Anfrage",
        "BR-B200-8;Supermicro SYS-A22GA-NBRT, 2× Xeon 6960P;NVIDIA B200 180GB;8;ca. 14 Wochen;auf Anfrage",
        "BR-MI325-8;ASUS ESC A8A-E12U, 2× EPYC 9575F;AMD Instinct MI325X;8;auf Anfrage;auf Anfrage",
        "BR-L40S-4;Dell PowerEdge R760xa, 2× Xeon 6548Y+;NVIDIA L40S 48GB;4;ab Lager;auf Anfrage",
        "BR-NET-QM9790;NVIDIA Quantum-2 QM9790 NDR-Switch;–;–;ca. 6 Wochen;auf Anfrage",
        ";;;;;",
        "Dies ist kein Angebot im Sinne des § 145 BGB. Verbindliche Angebote erhalten Sie von Ihrem Ansprechpartner.;;;;;",
    ]
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(("\r\n".join(lines) + "\r\n").encode("cp1252"))
    EXP[name] = [dict(
        offer_label="Preisliste Q1/2026", evaluable=False,
        note="Reseller price list (cp1252, semicolon CSV): every price 'auf Anfrage' (POA), no quantity or term, and it states "
             "it is not an offer ('kein Angebot im Sinne des § 145 BGB'). Several accelerators listed; none offered.",
        fields=dict(vendor="Brandt IT-Systemhaus GmbH"))]


HEAD = """# Expected canonical values for blind set D.
# FX (USD per unit): EUR=1.08 GBP=1.27 PLN=0.25 DKK=0.145 CZK=0.043 JPY=0.0066
#   (evaltool flags: --fx EUR=1.08 --fx GBP=1.27 --fx PLN=0.25 --fx DKK=0.145 --fx CZK=0.043 --fx JPY=0.0066)
# 730 h/month, 8760 h/year (12 x 730), 168 h/week; TiB->TB x1.0995; GiB->GB x1.073741824.
# Prices rounded to 4 decimals, other derived values to 2.
# Only values the file states unambiguously are listed; absent = not stated or ambiguous.
# Purchase offers: price_usd_per_gpu_hour = (capex/amortization_months + monthly colocation + opex) / (gpu_count x 730),
#   listed only where the file states an amortization period.
"""


def main():
    for f in (f01, f02, f03, f04, f05, f06, f07, f08, f09, f10, f11, f12, f13, f14, f15):
        f()
    with open(os.path.join(OUT, "expected.yaml"), "w", encoding="utf-8") as fh:
        fh.write(HEAD)
        yaml.safe_dump(EXP, fh, sort_keys=False, allow_unicode=True, width=120)


if __name__ == "__main__":
    main()
