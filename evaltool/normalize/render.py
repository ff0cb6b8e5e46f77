"""The outputs of `evaltool normalize`: JSON, YAML, CSV and the terminal table, with the
`--explain` listing of cells not understood."""

from __future__ import annotations

import json
from typing import Any

from evaltool.errors import Location
from evaltool.normalize.facts import NormalizeResult


def _display(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, float):
        return round(value, 6)
    return value


def normalize_to_rows(result: NormalizeResult) -> list[dict[str, Any]]:
    """Flat rows (offer, field, value, where, raw, note) for CSV and table output."""
    rows: list[dict[str, Any]] = []
    for offer in result.offers:
        data = offer.fields.model_dump()
        for name, value in data.items():
            if value is None or name == "contract_text":
                continue
            source = offer.provenance.get(name)
            rows.append({
                "offer": offer.id, "field": name, "value": _display(value),
                "where": str(Location(**source.where)) if source else "",
                "raw": (source.raw or "") if source else "",
                "note": (source.note or "") if source else "",
            })
        for warning in offer.warnings:
            rows.append({"offer": offer.id, "field": "(warning)", "value": "",
                         "where": str(Location(**warning["where"])), "raw": "",
                         "note": warning.get("text", "")})
    for item in result.not_evaluated:
        for err in item.errors:
            rows.append({"offer": item.source.get("file", ""), "field": "(not evaluated)",
                         "value": "", "where": str(Location(**err["where"])), "raw": "",
                         "note": err.get("text", "")})
    return rows


def result_to_dict(result: NormalizeResult) -> dict[str, Any]:
    return {"offers": [o.model_dump(mode="json", exclude_none=True) for o in result.offers],
            "not_evaluated": [n.model_dump(mode="json") for n in result.not_evaluated]}


def render_normalized(result: NormalizeResult, fmt: str,
                      not_understood: list[dict[str, Any]] | None = None) -> str:
    """The text `evaltool normalize --format json|csv|yaml|table` prints; with
    `not_understood` (from `--explain`) the cells the reader did not use."""
    if fmt == "json":
        data = result_to_dict(result)
        if not_understood is not None:
            data["not_understood"] = not_understood
        return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if not_understood is not None and fmt == "table":
        listing = [render_normalized(result, fmt).rstrip("\n"), "",
                   f"not understood ({len(not_understood)} non-empty cells neither read nor "
                   "deliberately skipped):"]
        listing += [f"  {Location(**u['where'])}: {u['text'][:80]}" for u in not_understood]
        return "\n".join(listing) + "\n"
    if fmt == "yaml":
        import yaml

        return str(yaml.safe_dump(result_to_dict(result), sort_keys=True, allow_unicode=True))
    rows = normalize_to_rows(result)
    if fmt == "csv":
        import csv
        import io

        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=["offer", "field", "value", "where", "raw",
                                                 "note"], lineterminator="\n")
        writer.writeheader()
        for row in rows:
            # Spreadsheet programs run cells that start with = + - @ as formulas.
            writer.writerow({k: _csv_safe(v) for k, v in row.items()})
        return out.getvalue()
    lines: list[str] = []
    current = None
    for row in rows:
        if row["offer"] != current:
            current = row["offer"]
            lines.extend(["", str(current)])
        value = str(row["value"])
        where = row["where"]
        if row["field"].startswith("("):
            lines.append(f"  {row['field']:<32} {row['note']}")
        else:
            lines.append(f"  {row['field']:<32} {value[:40]:<40}  {where}")
    return "\n".join(lines).lstrip("\n") + "\n"


def _csv_safe(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


