"""Build evaltool/data/market/skypilot-snapshot.csv, the bundled public GPU offers snapshot.

Input: shared/data/public-offers/gpu-vm-offers.csv (rows read from skypilot-org/skypilot-catalog,
one stored version per cloud file; see that folder's README for provenance and licence).
Output: one row per (instance type, region/zone, term) with both the on-demand and the spot price
of a source row as separate offers, the accelerator mapped to a catalog id
(``evaltool.market.catalog.map_accelerator``; "" when not in the catalog), the source file and
commit, the snapshot date, and the sample's data notes.

Rules applied (from the sample's README):
- Rows flagged ``catalog_gpu_count_12_suspect_vendor_spec_is_8`` have a wrong GPU count: left out.
- GCP rows are host VM + accelerator rows summed by the sample (``price_basis``); kept, noted.
- Prices are USD per instance-hour; the per-GPU price is that / GPU count.
- The catalog versions are undated in the stored copy: the snapshot date is the day the rows
  were read into the sample (``--snapshot-date``, default the input file's modification date).

The product reads only the output (the package never reads ../shared at run time).

Run from the repository root:
    PYTHONPATH=. /work/main/.venv/bin/python scripts/build_market_snapshot.py [--input CSV]
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import sys
from collections import Counter
from pathlib import Path

from evaltool.market.catalog import MarketOffer, map_accelerator, write_snapshot_text

REPO = Path(__file__).resolve().parents[1]
DEFAULT_INPUT = REPO.parent / "shared" / "data" / "public-offers" / "gpu-vm-offers.csv"
DEFAULT_OUTPUT = REPO / "evaltool" / "data" / "market" / "skypilot-snapshot.csv"
SOURCE_REPO = "skypilot-org/skypilot-catalog"
EXCLUDED_FLAGS = {"catalog_gpu_count_12_suspect_vendor_spec_is_8"}


def _num(text: str) -> float | None:
    return float(text) if text.strip() else None


def build(input_path: Path, output_path: Path, snapshot_date: dt.date) -> int:
    with input_path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    offers: list[MarketOffer] = []
    excluded = 0
    unmapped: Counter[str] = Counter()
    for row in rows:
        notes = row["data_notes"].strip()
        if EXCLUDED_FLAGS & set(notes.split(";")):
            excluded += 1
            continue
        count = int(row["gpu_count"])
        memory = _num(row["gpu_memory_gib_each"])
        name = row["accelerator_name_as_listed"].strip()
        acc_id = map_accelerator(name, memory, row["gpu_variant_hint"].strip())
        if not acc_id:
            unmapped[name] += 1
        if row["price_basis"] != "listed":
            notes = ";".join(filter(None, [notes, f"price_basis={row['price_basis']}"]))
        for term, column in (("on-demand", "price_ondemand_usd_per_hr"),
                             ("spot", "price_spot_usd_per_hr")):
            price = _num(row[column])
            if price is None or price <= 0:
                continue
            offers.append(MarketOffer(
                provider=row["cloud"], instance_type=row["instance_type"],
                accelerator_name=name, accelerator_id=acc_id, gpu_count=count,
                gpu_memory_gib=memory, vcpus=_num(row["vcpus"]),
                memory_gib=_num(row["memory_gib"]), term=term, price_usd_per_hour=price,
                price_usd_per_gpu_hour=price / count, region=row["region"], zone=row["zone"],
                source=f"{SOURCE_REPO} {row['source_file']}@{row['source_commit']}",
                snapshot_date=snapshot_date.isoformat(), data_notes=notes))
    offers.sort(key=lambda o: (o.provider, o.instance_type, o.region, o.zone, o.term))
    output_path.parent.mkdir(parents=True, exist_ok=True)
    output_path.write_text(write_snapshot_text(offers), encoding="utf-8")
    terms = Counter(o.term for o in offers)
    print(f"rows read: {len(rows)}; excluded (wrong GPU count): {excluded}")
    print(f"offers written: {len(offers)} ({dict(sorted(terms.items()))}) to {output_path}")
    print(f"offers whose accelerator is not in the catalog (listed, never scored): "
          f"{sum(1 for o in offers if not o.accelerator_id)}; "
          f"names: {dict(sorted(unmapped.items()))}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", type=Path, default=DEFAULT_INPUT)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--snapshot-date", type=dt.date.fromisoformat, default=None,
                        help="YYYY-MM-DD; default: the input file's modification date (UTC)")
    args = parser.parse_args(argv)
    if not args.input.is_file():
        print(f"error: input {args.input} not found (expected the public offers sample)",
              file=sys.stderr)
        return 2
    date = args.snapshot_date or dt.datetime.fromtimestamp(
        args.input.stat().st_mtime, tz=dt.UTC).date()
    return build(args.input, args.output, date)


if __name__ == "__main__":
    sys.exit(main())
