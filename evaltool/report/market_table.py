"""`evaltool market` output: the listed offers as a table, JSON, CSV, Markdown or YAML."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from evaltool.market import Market
from evaltool.market.catalog import FIELD_NAMES, MarketOffer

TABLE_COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("provider", "provider", 10), ("instance_type", "instance", 26),
    ("accelerator", "accelerator", 14), ("gpu_count", "GPUs", 4), ("memory", "GB/GPU", 6),
    ("term", "term", 9), ("price_usd_per_gpu_hour", "$/GPU-h", 8),
    ("price_usd_per_hour", "$/h", 9), ("region", "region", 16), ("snapshot_date", "date", 10),
)
FORMATS: tuple[str, ...] = ("table", "json", "csv", "markdown", "yaml")


def _neutral(text: str) -> str:
    """A CSV cell a spreadsheet would run as a formula, made inert (OWASP CSV injection)."""
    return "'" + text if text.startswith(("=", "+", "-", "@", "\t", "\r")) else text


def _cells(o: MarketOffer) -> dict[str, str]:
    return {
        "provider": o.provider, "instance_type": o.instance_type,
        "accelerator": o.accelerator_id or f"({o.accelerator_name})",
        "gpu_count": str(o.gpu_count),
        "memory": "" if o.gpu_memory_gib is None else f"{o.gpu_memory_gib:g}",
        "term": o.term, "price_usd_per_gpu_hour": f"{o.price_usd_per_gpu_hour:.3f}",
        "price_usd_per_hour": f"{o.price_usd_per_hour:.3f}", "region": o.region,
        "snapshot_date": o.snapshot_date,
    }


def render_market(offers: Sequence[MarketOffer], market: Market, fmt: str) -> str:
    """The offers in ``fmt``; JSON and YAML carry every column plus the snapshot dates."""
    if fmt in ("json", "yaml"):
        data: dict[str, Any] = {
            "snapshot_dates": market.dates,
            "count": len(offers),
            "offers": [o.to_dict() for o in offers],
            "note": "public list prices from catalog snapshots, not quotes; capacity not "
                    "confirmed",
        }
        if fmt == "json":
            return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
        import yaml

        return str(yaml.safe_dump(data, sort_keys=True, allow_unicode=True))
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(FIELD_NAMES)
        for o in offers:
            row = o.to_dict()
            writer.writerow(["" if row[f] is None else _neutral(str(row[f])) for f in FIELD_NAMES])
        return buffer.getvalue()
    rows = [_cells(o) for o in offers]
    if fmt == "markdown":
        lines = ["| " + " | ".join(title for _, title, _ in TABLE_COLUMNS) + " |",
                 "|" + "|".join("---" for _ in TABLE_COLUMNS) + "|"]
        lines += ["| " + " | ".join(r[key].replace("|", "\\|") for key, _, _ in TABLE_COLUMNS)
                  + " |" for r in rows]
        lines.append("")
        lines.append(f"{len(rows)} public offers; list prices of {market.date_range} "
                     "(each row's source is in the JSON output).")
        return "\n".join(lines) + "\n"
    header = " ".join(f"{title:<{width}}" for _, title, width in TABLE_COLUMNS)
    lines = [header.rstrip(), "-" * len(header.rstrip())]
    for r in rows:
        lines.append(" ".join(f"{r[key][:width]:<{width}}" for key, _, width in TABLE_COLUMNS
                              ).rstrip())
    lines.append(f"{len(rows)} public offers, cheapest per GPU-hour first; list prices of "
                 f"{market.date_range}, not quotes (each row's source is in the JSON output)")
    return "\n".join(lines) + "\n"
