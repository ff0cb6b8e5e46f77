"""Public GPU offers: one row per (instance, region, price term), read from catalog CSVs.

Three formats are read:

- the bundled snapshot (``evaltool/data/market/skypilot-snapshot.csv``), built by
  ``scripts/build_market_snapshot.py`` from rows of the SkyPilot catalogs; every row names its
  source file, commit and snapshot date;
- a SkyPilot catalog ``vms.csv`` (skypilot-org/skypilot-catalog, ``catalogs/v*/<cloud>/``:
  InstanceType, AcceleratorName, AcceleratorCount, vCPUs, MemoryGiB, Price, SpotPrice, Region,
  AvailabilityZone, GpuInfo); one row gives an on-demand and a spot offer;
- a gpuhunt catalog CSV (dstackai/gpuhunt, one file per provider: instance_name, location,
  price, cpu, memory, gpu_count, gpu_name, gpu_memory, spot, ...); one row is one offer.

The csv module reads them (quoted fields, embedded JSON in GpuInfo): no hand parser. Prices are
USD per instance-hour as the catalogs list them; the per-GPU price is that / GPU count.
Accelerators are mapped to catalog ids with ``recognise_accelerator``; a row that maps to no
catalog id keeps its listed name and an empty id (listed, never scored).
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, Literal

from evaltool.catalog import UnknownAcceleratorError, recognise_accelerator
from evaltool.errors import InputError, Location, Problem

Term = Literal["on-demand", "spot", "1y", "3y"]
TERMS: tuple[str, ...] = ("on-demand", "spot", "1y", "3y")
TERM_WORDS = {"on-demand": "on-demand", "spot": "spot", "1y": "1-year reserved",
              "3y": "3-year reserved"}
CatalogFormat = Literal["snapshot", "skypilot", "gpuhunt"]

# SkyPilot names the 40 GB A100 plain "A100" and the 80 GB one "A100-80GB"; a bare "A100"
# without a memory figure (Azure rows) is the 40 GB part (SkyPilot catalog naming).
SKYPILOT_BARE_A100_GB = 40.0
SKYPILOT_COLUMNS = frozenset({"InstanceType", "AcceleratorName", "AcceleratorCount", "Price",
                              "Region"})
GPUHUNT_COLUMNS = frozenset({"instance_name", "location", "price", "gpu_count", "gpu_name"})
SNAPSHOT_COLUMNS: tuple[str, ...] = (
    "provider", "instance_type", "accelerator_name", "accelerator_id", "gpu_count",
    "gpu_memory_gib", "vcpus", "memory_gib", "term", "price_usd_per_hour",
    "price_usd_per_gpu_hour", "region", "zone", "source", "snapshot_date", "data_notes",
)


@dataclass(frozen=True)
class MarketOffer:
    """One public offer: an instance type in a region at one price term."""

    provider: str
    instance_type: str
    accelerator_name: str
    accelerator_id: str  # catalog id, "" when the listed accelerator is not in the catalog
    gpu_count: int
    gpu_memory_gib: float | None
    vcpus: float | None
    memory_gib: float | None
    term: str
    price_usd_per_hour: float
    price_usd_per_gpu_hour: float
    region: str
    zone: str
    source: str  # file (and commit) the row was read from
    snapshot_date: str  # ISO date of the catalog snapshot
    data_notes: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def key(self) -> str:
        """Stable id: provider, instance, region, zone, term and snapshot date."""
        text = "|".join((self.provider, self.instance_type, self.region, self.zone, self.term,
                         self.snapshot_date, f"{self.price_usd_per_hour:.6f}"))
        return hashlib.sha256(text.encode()).hexdigest()[:10]


FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(MarketOffer))


def _num(text: str | None) -> float | None:
    text = (text or "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value == value else None  # NaN is "not stated"


def map_accelerator(name: str, memory_gib: float | None, hint: str = "") -> str:
    """The catalog id a listed accelerator name means, or "" when it is not in the catalog."""
    if not name.strip():
        return ""
    memory = memory_gib
    if memory is None and name.strip() == "A100":
        memory = SKYPILOT_BARE_A100_GB
    try:
        return recognise_accelerator(f"{name} {hint}".strip(), memory_gb=memory).id
    except UnknownAcceleratorError:
        return ""


def sniff_format(header: Sequence[str]) -> CatalogFormat | None:
    names = set(header)
    if set(SNAPSHOT_COLUMNS) <= names:
        return "snapshot"
    if names >= SKYPILOT_COLUMNS:
        return "skypilot"
    if names >= GPUHUNT_COLUMNS:
        return "gpuhunt"
    return None


def read_snapshot_text(text: str, where: str) -> list[MarketOffer]:
    """Rows of the bundled snapshot format (also the store's export format)."""
    out = []
    for line, row in enumerate(csv.DictReader(io.StringIO(text)), start=2):
        try:
            price = float(row["price_usd_per_hour"])
            count = int(row["gpu_count"])
            out.append(MarketOffer(
                provider=row["provider"], instance_type=row["instance_type"],
                accelerator_name=row["accelerator_name"], accelerator_id=row["accelerator_id"],
                gpu_count=count, gpu_memory_gib=_num(row["gpu_memory_gib"]),
                vcpus=_num(row["vcpus"]), memory_gib=_num(row["memory_gib"]), term=row["term"],
                price_usd_per_hour=price, price_usd_per_gpu_hour=float(
                    row["price_usd_per_gpu_hour"]),
                region=row["region"], zone=row["zone"], source=row["source"],
                snapshot_date=row["snapshot_date"], data_notes=row["data_notes"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(Problem(Location(where, cell=f"row {line}"),
                                     code="market-bad-snapshot-row", params={
                                         "reason": str(exc),
                                         "columns": ", ".join(SNAPSHOT_COLUMNS)})) from None
    return out


def write_snapshot_text(offers: Iterable[MarketOffer]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=SNAPSHOT_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for offer in offers:
        row = offer.to_dict()
        for name in ("gpu_memory_gib", "vcpus", "memory_gib"):
            row[name] = "" if row[name] is None else f"{row[name]:g}"
        row["price_usd_per_hour"] = f"{offer.price_usd_per_hour:.6g}"
        row["price_usd_per_gpu_hour"] = f"{offer.price_usd_per_gpu_hour:.6g}"
        writer.writerow(row)
    return buffer.getvalue()


@dataclass
class ParsedCatalog:
    """The offers read from one catalog file, and the rows skipped with why."""

    offers: list[MarketOffer]
    skipped: list[Problem]
    fmt: CatalogFormat


def _gpu_memory_from_info(info: str) -> float | None:
    """Per-GPU memory in GiB from SkyPilot's GpuInfo JSON (MemoryInfo.SizeInMiB)."""
    if not info.strip():
        return None
    try:
        data = json.loads(info)
    except ValueError:
        try:  # older catalogs write a Python repr with single quotes
            data = json.loads(info.replace("'", '"'))
        except ValueError:
            return None
    try:
        gpus = data.get("Gpus") or []
        mib = float(gpus[0]["MemoryInfo"]["SizeInMiB"])
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        return None
    return mib / 1024 if mib > 0 else None


def _skypilot_rows(rows: Iterator[dict[str, str]], where: str, provider: str, date: str,
                   source: str) -> tuple[list[MarketOffer], list[Problem]]:
    offers: list[MarketOffer] = []
    skipped: list[Problem] = []
    for line, row in enumerate(rows, start=2):
        name = (row.get("AcceleratorName") or "").strip()
        count = _num(row.get("AcceleratorCount"))
        if not name or not count:
            continue  # a CPU-only instance: not a GPU offer (not an error, not listed)
        if count != int(count) or count < 1:
            skipped.append(Problem(Location(where, cell=f"row {line}"),
                                   found=row.get("AcceleratorCount"),
                                   code="market-bad-gpu-count", severity="warning"))
            continue
        memory = _gpu_memory_from_info(row.get("GpuInfo") or "")
        acc_id = map_accelerator(name, memory)
        instance = (row.get("InstanceType") or "").strip()
        notes = "" if instance else "accelerator_price_only_host_vm_not_included"
        common = dict(provider=provider, instance_type=instance or f"({name} x{int(count)})",
                      accelerator_name=name, accelerator_id=acc_id, gpu_count=int(count),
                      gpu_memory_gib=memory, vcpus=_num(row.get("vCPUs")),
                      memory_gib=_num(row.get("MemoryGiB")),
                      region=(row.get("Region") or "").strip(),
                      zone=(row.get("AvailabilityZone") or "").strip(), source=source,
                      snapshot_date=date, data_notes=notes)
        found = False
        for term, column in (("on-demand", "Price"), ("spot", "SpotPrice")):
            price = _num(row.get(column))
            if price is None or price <= 0:
                continue
            found = True
            offers.append(MarketOffer(term=term, price_usd_per_hour=price,
                                      price_usd_per_gpu_hour=price / int(count),
                                      **common))  # type: ignore[arg-type]
        if not found:
            skipped.append(Problem(Location(where, cell=f"row {line}"),
                                   code="market-row-without-price", severity="info",
                                   params={"instance": instance or name}))
    return offers, skipped


def _gpuhunt_rows(rows: Iterator[dict[str, str]], where: str, provider: str, date: str,
                  source: str) -> tuple[list[MarketOffer], list[Problem]]:
    offers: list[MarketOffer] = []
    skipped: list[Problem] = []
    for line, row in enumerate(rows, start=2):
        name = (row.get("gpu_name") or "").strip()
        count = _num(row.get("gpu_count"))
        if not name or not count:
            continue  # CPU-only
        price = _num(row.get("price"))
        if price is None or price <= 0 or count != int(count):
            skipped.append(Problem(Location(where, cell=f"row {line}"),
                                   code="market-bad-row", severity="warning", params={
                                       "price": row.get("price"),
                                       "gpu_count": row.get("gpu_count")}))
            continue
        # gpuhunt's gpu_memory is GB per GPU as the provider lists it (gpuhunt README)
        memory = _num(row.get("gpu_memory"))
        spot = (row.get("spot") or "").strip().lower() in ("true", "1", "yes")
        offers.append(MarketOffer(
            provider=provider, instance_type=(row.get("instance_name") or "").strip(),
            accelerator_name=name, accelerator_id=map_accelerator(name, memory),
            gpu_count=int(count), gpu_memory_gib=memory, vcpus=_num(row.get("cpu")),
            memory_gib=_num(row.get("memory")), term="spot" if spot else "on-demand",
            price_usd_per_hour=price, price_usd_per_gpu_hour=price / int(count),
            region=(row.get("location") or "").strip(), zone="", source=source,
            snapshot_date=date, data_notes=(row.get("flags") or "").strip().replace(" ", ";")))
    return offers, skipped


def parse_catalog(text: str, where: str, *, provider: str, snapshot_date: dt.date,
                  source: str) -> ParsedCatalog:
    """Offers from the text of one catalog CSV (format recognised from its header)."""
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in (reader.fieldnames or [])]
    fmt = sniff_format(header)
    if fmt is None:
        raise InputError(Problem(Location(where, cell="row 1"),
                                 found=", ".join(header[:8]) or "no header",
                                 code="market-unknown-format"))
    reader.fieldnames = header
    date = snapshot_date.isoformat()
    if fmt == "snapshot":
        return ParsedCatalog(read_snapshot_text(text, where), [], fmt)
    parse = _skypilot_rows if fmt == "skypilot" else _gpuhunt_rows
    offers, skipped = parse(iter(reader), where, provider, date, source)
    return ParsedCatalog(offers, skipped, fmt)


def with_source(offer: MarketOffer, source: str) -> MarketOffer:
    return replace(offer, source=source)


def provider_from_path(path: Path) -> str | None:
    """SkyPilot keeps one vms.csv per cloud folder; gpuhunt names each file after its provider."""
    stem = path.stem.lower()
    if stem in ("vms", "images", "catalog") or stem.startswith("vms"):
        parent = path.parent.name.lower()
        return parent or None
    return stem or None
