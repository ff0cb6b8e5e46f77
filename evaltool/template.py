"""The request-for-proposal workbook vendors fill in (`evaltool template OUT.xlsx`).

One row per canonical field (PRODUCT.md "Canonical offer fields and units") with its unit,
what it means, and drop-downs (Excel data validation) for enums, yes/no and accelerator
ids; a contract sheet with the questions a buyer must ask (seed 001: a commitment needs a
deliverable and a remedy).  People read each field's label in words, with its unit and
currency; the canonical key stands in a hidden column A, so a filled template normalises
with no warnings.  Price tiers by term, overage/burst prices, the payment schedule, price
escalation and cancellation fees are asked on the Contract sheet, whose answers are read as
contract terms.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, get_args

from evaltool.catalog import load_catalog
from evaltool.errors import Location, Problem, UsageError
from evaltool.models import Fabric, OfferKind, Orchestrator, StorageType

LISTS_SHEET = "evaltool-lists"  # hidden; the reader skips sheets named evaltool*

# field -> (label in words, unit, explanation). The label is what a vendor reads; the
# canonical key stands in the hidden column A, which is what evaltool reads back. Fields
# left out are derived by evaltool, not asked for: price_usd_per_gpu_hour (all-in, computed
# from the compute price + add-ons) and contract_text (the Contract sheet). Prices are in
# the quote currency (the Currency row); evaltool converts them with the buyer's rate.
QUOTE = "quote currency"
FIELD_ROWS: tuple[tuple[str, str, str, str], ...] = (
    ("vendor", "Vendor (legal name)", "text", "Legal name of the company making the offer"),
    ("offer_name", "Offer name or quote reference", "text",
     "Name of this offer or quote reference"),
    ("offer_kind", "Kind of offer", "choice", "rent (cloud/reserved), purchase (you buy the "
     "hardware) or hpc_allocation"),
    ("currency", "Quote currency", "ISO code", "Currency of every price below (USD, EUR, GBP, "
     "...)"),
    ("valid_until", "Offer valid until", "date", "Last day this offer can be accepted"),
    ("region", "Data-centre location", "text", "City or cloud region"),
    ("accelerator", "Accelerator (GPU) model", "catalog id",
     "Accelerator model, from the drop-down (`evaltool accelerators`)"),
    ("gpu_count", "Number of GPUs (total)", "GPUs", "Total accelerators in the offer"),
    ("gpus_per_node", "GPUs per node", "GPUs", "Accelerators per node (server)"),
    ("node_count", "Number of nodes", "nodes", "Number of nodes (servers)"),
    ("gpu_memory_gb", "Memory per GPU (GB)", "GB",
     "Memory per accelerator as marketed (80, 141, 192)"),
    ("claimed_peak_tflops_per_gpu", "Peak TFLOPS per GPU, dense (no sparsity)", "TFLOPS",
     "DENSE peak per accelerator at the precision below (no sparsity)"),
    ("claimed_peak_precision", "Precision of that peak figure", "choice",
     "Precision of the peak figure"),
    ("cpu_cores_per_node", "CPU cores per node", "cores", "Physical CPU cores per node"),
    ("cpu_memory_gb_per_node", "CPU memory per node (GB)", "GB", "CPU memory (RAM) per node"),
    ("local_nvme_tb_per_node", "Local NVMe per node (TB)", "TB",
     "Local NVMe per node (decimal TB)"),
    ("intra_node_gbyte_s_per_gpu", "GPU-to-GPU bandwidth in a node, per GPU (GB/s)", "GB/s",
     "NVLink / xGMI bandwidth inside a node, per GPU, gigaBYTES per second"),
    ("inter_node_fabric", "Inter-node network technology", "choice",
     "Scale-out network between nodes"),
    ("inter_node_gbit_s_per_node", "Inter-node bandwidth per node (Gbit/s)", "Gbit/s",
     "Inter-node bandwidth per node, gigaBITS per second (e.g. 8 x 400 = 3200)"),
    ("network_dedicated", "Inter-node network dedicated to us?", "yes/no",
     "Is the inter-node network dedicated to us (not shared with other tenants)?"),
    ("storage_type", "Shared storage technology", "choice", "Shared (parallel) file system"),
    ("storage_capacity_tb", "Shared storage capacity (TB)", "TB",
     "Shared storage capacity as sold (decimal TB)"),
    ("storage_read_gbyte_s", "Shared storage read throughput (GB/s)", "GB/s",
     "Aggregate shared-storage read throughput"),
    ("storage_write_gbyte_s", "Shared storage write throughput (GB/s)", "GB/s",
     "Aggregate shared-storage write throughput"),
    ("orchestrator", "Scheduler / orchestration", "choice", "Scheduler offered on the cluster"),
    ("root_access", "Root / sudo on the nodes?", "yes/no", "Do we get root / sudo on the nodes?"),
    ("hw_replacement_hours", "Failed node replaced within (hours)", "hours",
     "Committed time to replace a failed node"),
    ("support_response_hours", "Support response time, critical issue (hours)", "hours",
     "Committed first response time for a critical issue"),
    ("sla_uptime_pct", "Committed monthly availability (%)", "%",
     "Committed monthly availability"),
    ("sla_max_credit_pct", "Maximum service credit (% of the monthly fee)", "%",
     "Largest service credit for missed availability, % of the monthly fee"),
    ("delivery_date", "Capacity ready for use on", "date",
     "Committed date the capacity is ready for use"),
    ("compute_price_usd_per_gpu_hour", "Price per GPU-hour (in the quote currency)",
     f"{QUOTE} / GPU-hour", "Compute price per GPU-hour for the term below, before the "
     "add-ons below; other terms go on the Contract sheet (Price tiers)"),
    ("term_months", "Commitment term (months)", "months", "Length of the commitment"),
    ("upfront_usd", "Upfront payment (in the quote currency)", QUOTE,
     "Payment due at signing, if any (0 if none)"),
    ("egress_usd_per_gb", "Data egress fee per GB (in the quote currency)", f"{QUOTE} / GB",
     "Fee for moving data out (0 if free)"),
    ("storage_usd_per_tb_month", "Shared storage price per TB-month (in the quote currency)",
     f"{QUOTE} / TB-month", "Shared storage price (0 if included)"),
    ("support_usd_per_month", "Support fee per month (in the quote currency)",
     f"{QUOTE} / month", "Support fee (0 if included)"),
    ("network_usd_per_month", "Network fee per month (in the quote currency)",
     f"{QUOTE} / month", "Network fee (0 if included)"),
    ("min_commit_usd", "Minimum committed spend over the term (in the quote currency)", QUOTE,
     "Spend we must pay over the term whatever we use"),
    ("capex_usd", "Purchase price, total (in the quote currency)", QUOTE,
     "Purchase only: total purchase price"),
    ("amortization_months", "Amortisation period (months)", "months",
     "Purchase only: amortisation period"),
    ("power_kw_per_node", "Power draw per node (kW)", "kW",
     "Purchase only: power draw per node"),
    ("power_usd_per_kwh", "Electricity price per kWh (in the quote currency)", f"{QUOTE} / kWh",
     "Purchase only: electricity price"),
    ("colocation_usd_per_kw_month", "Colocation price per kW-month (in the quote currency)",
     f"{QUOTE} / kW-month", "Purchase only: colocation price"),
    ("opex_usd_per_month", "Operations cost per month (in the quote currency)",
     f"{QUOTE} / month", "Purchase only: operations, staff, spares"),
)

# The questions a buyer must ask (seed 001 "say no to reasonable effort"; contracts.md).
CONTRACT_QUESTIONS: tuple[tuple[str, str], ...] = (
    ("Delivery", "On what date is the capacity delivered, fully burned in, and what is the "
     "remedy (credit, right to terminate) if it is late?"),
    ("Uptime", "What monthly availability do you commit to, how is it measured, and which "
     "service credits apply below it (and up to what cap)?"),
    ("Node replacement", "Within how many hours is a failed node replaced, and what is the "
     "remedy if it is not?"),
    ("Support", "What response time do you commit to for a critical issue, 24x7?"),
    ("Network", "Is the inter-node network dedicated to us? What bandwidth per node is "
     "guaranteed?"),
    ("Egress", "What does moving our data out cost (per GB), during the term and at exit?"),
    ("Termination", "On what notice, and at what cost, can we terminate for convenience or "
     "for a missed commitment?"),
    ("Exit", "In what format and for how long is our data available for export after "
     "termination, and at what cost?"),
    ("Price tiers", "What is the price per GPU-hour, in the quote currency, for each term you "
     "offer: on-demand, 1 month, 6 months, 12 months, 36 months (one line per term)?"),
    ("Overage / burst", "What does capacity beyond the committed GPUs cost per GPU-hour, how "
     "much burst is available, and on what notice?"),
    ("Payment schedule", "When is each payment due (upfront, monthly in advance or in arrears, "
     "milestones), and in which currency?"),
    ("Price escalation", "Can prices change during the term (indexation, annual escalation "
     "in %)? On what notice, and up to what cap?"),
    ("Cancellation fee", "What do we owe if we cancel before delivery, and if we terminate "
     "early after delivery (amount or % of the remaining commitment)?"),
    ("Renewal", "Does the agreement renew automatically? On what notice can we stop it?"),
    ("Liability", "What is the cap on your liability, and what is excluded from it?"),
)

_FILL_YELLOW = "FFF6CC"
KEY_COLUMN = 1  # A, hidden: the canonical key evaltool reads back
LABEL_COLUMN = 2  # B: the question in words, with its unit and currency
TEMPLATE_VALUE_COLUMN = 3  # C: the column a vendor fills in, for tests and tools


def _choices() -> dict[str, list[str]]:

    return {
        "offer_kind": list(get_args(OfferKind)),
        "inter_node_fabric": list(get_args(Fabric)),
        "storage_type": list(get_args(StorageType)),
        "orchestrator": list(get_args(Orchestrator)),
        "claimed_peak_precision": ["bf16", "fp8", "fp16", "tf32", "fp32", "int8"],
        "accelerator": list(load_catalog().ids),
        "yes/no": ["yes", "no"],
        "currency": ["USD", "EUR", "GBP", "CHF", "JPY", "CAD", "SEK", "DKK", "NOK", "SGD"],
    }


def write_template(path: str | Path) -> None:
    """Write the blank RFP workbook.  UsageError if the path cannot be written."""
    path = Path(path)
    from openpyxl import Workbook
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.datavalidation import DataValidation

    if path.suffix.lower() not in (".xlsx",):
        raise UsageError(Problem(Location(str(path)), code="template-not-xlsx"))
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Offer"
    ws["B1"] = "Request for proposal: GPU compute offer"
    ws["B1"].font = Font(bold=True, size=14)
    ws["B2"] = ("Fill in the yellow Value column, one value per row, in the unit shown. "
                "Leave a row empty if it does not apply. Answer the contract questions on the "
                "Contract sheet with the exact wording of your terms.")
    ws["B2"].alignment = Alignment(wrap_text=True)
    ws.merge_cells("B2:F2")
    ws.row_dimensions[2].height = 45
    header_row = 4
    # Column A ("Field", hidden) holds the canonical key evaltool reads; people read B.
    for col, name in enumerate(("Field", "What we ask", "Value", "Unit", "Explanation",
                                "Allowed values"), 1):
        cell = ws.cell(row=header_row, column=col, value=name)
        cell.font = Font(bold=True)
        cell.fill = PatternFill("solid", fgColor="DDE4EE")

    choices = _choices()
    lists = wb.create_sheet(LISTS_SHEET)
    lists.sheet_state = "hidden"
    list_ranges: dict[str, str] = {}
    for col, (name, items) in enumerate(sorted(choices.items()), 1):
        letter = get_column_letter(col)
        lists.cell(row=1, column=col, value=f"list {col}")
        for row, item in enumerate(items, 2):
            lists.cell(row=row, column=col, value=item)
        list_ranges[name] = f"'{LISTS_SHEET}'!${letter}$2:${letter}${len(items) + 1}"

    validations: dict[str, Any] = {}

    def validation(key: str, **kwargs: Any) -> Any:
        if key not in validations:
            dv = DataValidation(allow_blank=True, showErrorMessage=True, **kwargs)
            ws.add_data_validation(dv)
            validations[key] = dv
        return validations[key]

    yellow = PatternFill("solid", fgColor=_FILL_YELLOW)
    for index, (name, label, unit, explanation) in enumerate(FIELD_ROWS):
        row = header_row + 1 + index
        ws.cell(row=row, column=KEY_COLUMN, value=name)
        ws.cell(row=row, column=LABEL_COLUMN, value=label).alignment = Alignment(wrap_text=True)
        value_cell = ws.cell(row=row, column=TEMPLATE_VALUE_COLUMN)
        value_cell.fill = yellow
        ws.cell(row=row, column=4, value=unit)
        ws.cell(row=row, column=5, value=explanation).alignment = Alignment(wrap_text=True)
        list_name = name if name in choices else ("yes/no" if unit == "yes/no" else None)
        if list_name is not None:
            ws.cell(row=row, column=6, value=", ".join(choices[list_name])
                    if len(choices[list_name]) <= 12 else "see drop-down")
            dv = validation(list_name, type="list", formula1=list_ranges[list_name],
                            error=f"Pick one of the allowed values for {name}",
                            errorTitle="Not an allowed value")
        elif unit == "date":
            dv = validation("date", type="date", operator="greaterThan",
                            formula1="DATE(2000,1,1)", error="Enter a date (YYYY-MM-DD)")
            value_cell.number_format = "yyyy-mm-dd"
        elif unit in ("GPUs", "nodes", "cores"):
            dv = validation("whole", type="whole", operator="greaterThanOrEqual",
                            formula1="1", error="Enter a whole number of at least 1")
        elif unit == "%":
            dv = validation("pct", type="decimal", operator="between", formula1="0",
                            formula2="100", error="Enter a percentage between 0 and 100")
        elif unit in ("text", "ISO code", "catalog id"):
            dv = None
        else:
            dv = validation("number", type="decimal", operator="greaterThanOrEqual",
                            formula1="0", error="Enter a number (no unit) of at least 0")
        if dv is not None:
            dv.add(value_cell.coordinate)
    ws.column_dimensions["A"].width = 30
    ws.column_dimensions["A"].hidden = True
    ws.column_dimensions["B"].width = 48
    ws.column_dimensions["C"].width = 28
    ws.column_dimensions["D"].width = 22
    ws.column_dimensions["E"].width = 64
    ws.column_dimensions["F"].width = 40
    ws.freeze_panes = ws.cell(row=header_row + 1, column=TEMPLATE_VALUE_COLUMN)

    contract = wb.create_sheet("Contract")
    contract["A1"] = "Contract terms: quote the wording of your terms, clause by clause"
    contract["A1"].font = Font(bold=True, size=14)
    for col, name in enumerate(("Topic", "Question", "Your answer (the contract wording)",
                                "Clause reference"), 1):
        cell = contract.cell(row=3, column=col, value=name)
        cell.font = Font(bold=True)
        cell.fill = PatternFill("solid", fgColor="DDE4EE")
    for row, (topic, question) in enumerate(CONTRACT_QUESTIONS, 4):
        contract.cell(row=row, column=1, value=topic)
        contract.cell(row=row, column=2, value=question).alignment = Alignment(wrap_text=True)
        contract.cell(row=row, column=3).fill = yellow
        contract.cell(row=row, column=3).alignment = Alignment(wrap_text=True)
    contract.column_dimensions["A"].width = 18
    contract.column_dimensions["B"].width = 60
    contract.column_dimensions["C"].width = 80
    contract.column_dimensions["D"].width = 16

    # Same bytes for the same evaltool version: openpyxl stamps the time otherwise.
    stamp = dt.datetime(2026, 1, 1)
    wb.properties.created = stamp
    wb.properties.modified = stamp
    wb.properties.creator = "evaltool"
    try:
        wb.save(path)
    except OSError as exc:
        raise UsageError(Problem(Location(str(path)), code="template-not-writable", params={
            "reason": exc.strerror or type(exc).__name__})) from None


TEMPLATE_FIRST_ROW = 5
