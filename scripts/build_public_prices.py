"""Build evaltool/data/public_prices.csv from the public GPU VM offers sample.

Input: shared/data/public-offers/gpu-vm-offers.csv (rows from skypilot-org/skypilot-catalog,
see its README). Each row's accelerator is mapped to a catalog id with
``evaltool.catalog.recognise_accelerator``;
rows that map to nothing (L4, T4, V100, B300, ...)
are skipped and counted. Output: per catalog id the number of offers and the min, p25, median,
p75 and max on-demand USD per GPU-hour, the clouds, and the source commits.

Caveats from the README applied here:
- The per-GPU price is recomputed as on-demand instance price / gpu_count and checked against
  the sample's derived column (host CPU/RAM/disk are not separated out).
- Memory is GiB as reported by the catalog (usable, not marketing): recognition snaps it to
  the marketed size within 8% (evaltool.catalog.MEMORY_MATCH_REL_TOLERANCE).
- SkyPilot names the 40 GB A100 plain "A100" and the 80 GB one "A100-80GB", so a bare "A100"
  with no memory listed (Azure rows) is taken as 40 GB.
- Rows flagged ``catalog_gpu_count_12_suspect_vendor_spec_is_8`` have a wrong GPU count, so
  their per-GPU price is wrong: excluded. Rows without an on-demand price are skipped.
- Lambda and OCI list every SKU in every region at one price (listing is not capacity), so
  identical (cloud, instance type, per-GPU price) rows count as one offer.
- Where the listing does not state the form factor (e.g. AWS p5 "H100"), the family default
  (SXM) is assumed; the count of such offers is kept in ``n_form_factor_assumed``.

Run from the repository root:
    PYTHONPATH=. .venv/bin/python scripts/build_public_prices.py [--input CSV] [--output CSV]
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path

from evaltool.catalog import UnknownAcceleratorError, recognise_accelerator

REPO = Path(__file__).resolve().parents[1]
DEFAULT_INPUT = REPO.parent / "shared" / "data" / "public-offers" / "gpu-vm-offers.csv"
DEFAULT_OUTPUT = REPO / "evaltool" / "data" / "public_prices.csv"
SOURCE_REPO = "skypilot-org/skypilot-catalog"
EXCLUDED_FLAGS = {
    "catalog_gpu_count_12_suspect_vendor_spec_is_8": "GPU count in catalog is wrong (12 vs 8)",
}
# SkyPilot naming: "A100" is the 40 GB part, "A100-80GB" the 80 GB one.
SKYPILOT_BARE_A100_GB = 40.0
COLUMNS = [
    "accelerator_id",
    "n_offers",
    "n_rows",
    "min_usd_per_gpu_hour",
    "p25_usd_per_gpu_hour",
    "median_usd_per_gpu_hour",
    "p75_usd_per_gpu_hour",
    "max_usd_per_gpu_hour",
    "clouds",
    "n_form_factor_assumed",
    "source",
]


def quartiles(values: list[float]) -> tuple[float, float, float]:
    """p25, median, p75 with linear interpolation (numpy's default, 'inclusive')."""
    if len(values) == 1:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def accelerator_text(row: dict[str, str]) -> tuple[str, float | None]:
    """The listing's accelerator name plus its variant hint, and the memory to use."""
    name = row["accelerator_name_as_listed"].strip()
    hint = row["gpu_variant_hint"].strip()
    text = f"{name} {hint}".strip()
    memory = float(row["gpu_memory_gib_each"]) if row["gpu_memory_gib_each"].strip() else None
    if memory is None and name == "A100":
        memory = SKYPILOT_BARE_A100_GB
    return text, memory


def build(input_path: Path, output_path: Path) -> int:
    with input_path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    unmapped: Counter[str] = Counter()
    excluded: Counter[str] = Counter()
    no_price = 0
    mismatched_per_gpu = 0
    # id -> (cloud, instance_type, per-GPU price) -> (row count, form factor assumed)
    offers: dict[str, dict[tuple[str, str, float], bool]] = defaultdict(dict)
    rows_per_id: Counter[str] = Counter()
    commits: dict[str, set[str]] = defaultdict(set)
    mapping: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:
        text, memory = accelerator_text(row)
        try:
            found = recognise_accelerator(text, memory_gb=memory)
        except UnknownAcceleratorError:
            unmapped[row["accelerator_name_as_listed"]] += 1
            continue
        mapping[found.id][text] += 1
        flags = set(filter(None, row["data_notes"].split(";")))
        bad = flags.intersection(EXCLUDED_FLAGS)
        if bad:
            excluded[", ".join(sorted(bad))] += 1
            continue
        if not row["price_ondemand_usd_per_hr"].strip():
            no_price += 1
            continue
        per_gpu = float(row["price_ondemand_usd_per_hr"]) / int(row["gpu_count"])
        listed = row["price_ondemand_usd_per_gpu_hr"].strip()
        if listed and abs(float(listed) - per_gpu) > 0.0001 + 1e-6 * per_gpu:
            mismatched_per_gpu += 1
        key = (row["cloud"], row["instance_type"], round(per_gpu, 4))
        offers[found.id][key] = offers[found.id].get(key, False) or found.note is not None
        rows_per_id[found.id] += 1
        commits[found.id].add(f"{row['source_file']}@{row['source_commit']}")

    out_rows = []
    for acc_id in sorted(offers):
        prices = sorted(price for (_, _, price) in offers[acc_id])
        p25, median, p75 = quartiles(prices)
        out_rows.append(
            {
                "accelerator_id": acc_id,
                "n_offers": len(prices),
                "n_rows": rows_per_id[acc_id],
                "min_usd_per_gpu_hour": f"{prices[0]:.4f}",
                "p25_usd_per_gpu_hour": f"{p25:.4f}",
                "median_usd_per_gpu_hour": f"{median:.4f}",
                "p75_usd_per_gpu_hour": f"{p75:.4f}",
                "max_usd_per_gpu_hour": f"{prices[-1]:.4f}",
                "clouds": ";".join(sorted({cloud for (cloud, _, _) in offers[acc_id]})),
                "n_form_factor_assumed": sum(offers[acc_id].values()),
                "source": f"{SOURCE_REPO} " + "; ".join(sorted(commits[acc_id])),
            }
        )
    with output_path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(out_rows)

    mapped = sum(sum(c.values()) for c in mapping.values())
    print(f"rows read: {len(rows)}")
    print(f"rows mapped to a catalog id: {mapped}")
    print(f"rows not mapped (not in catalog): {sum(unmapped.values())}")
    for name, count in sorted(unmapped.items()):
        print(f"  {name}: {count}")
    print(f"rows excluded by data_notes flag: {sum(excluded.values())} {dict(excluded)}")
    print(f"mapped rows without an on-demand price: {no_price}")
    print(f"rows whose listed per-GPU price disagrees with price / gpu_count: {mismatched_per_gpu}")
    print("mapping (listed name + hint -> id):")
    for acc_id in sorted(mapping):
        names = ", ".join(f"{t} x{n}" for t, n in sorted(mapping[acc_id].items()))
        print(f"  {acc_id}: {names}")
    print(f"wrote {len(out_rows)} ids to {output_path}")
    for row in out_rows:
        print(
            f"  {row['accelerator_id']:<14} n={row['n_offers']:>3} "
            f"min={row['min_usd_per_gpu_hour']} median={row['median_usd_per_gpu_hour']} "
            f"max={row['max_usd_per_gpu_hour']} clouds={row['clouds']} "
            f"ff_assumed={row['n_form_factor_assumed']}"
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", type=Path, default=DEFAULT_INPUT)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    if not args.input.is_file():
        print(
            f"error: input {args.input} not found (expected the public offers sample)",
            file=sys.stderr,
        )
        return 2
    return build(args.input, args.output)


if __name__ == "__main__":
    sys.exit(main())
