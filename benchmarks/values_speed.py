"""Parses per second for a mix of vendor values (the normaliser calls these per cell).

Run: PYTHONPATH=. .venv/bin/python benchmarks/values_speed.py
Prints the figures; it asserts nothing (benchmarks are not tests).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from evaltool.normalize import values

MIX: list[tuple[str, Callable[[Any], object], list[Any]]] = [
    ("number (float cell)", values.parse_number, [2.35, 9600000.0, 24.8, 512]),
    ("number (text)", values.parse_number, ["9,600,000", "24,80", "~80", "1.234,5"]),
    ("bandwidth", values.parse_bandwidth,
     ["8 × 400 Gb/s NDR per node", "3.2 Tbps", "400GbE x8", "50 GB/s"]),
    ("quantity (memory)", lambda raw: values.parse_quantity(raw, "memory"),
     ["80GB", "141 GB HBM3e", "NVIDIA HGX H100 SXM5 80GB"]),
    ("quantity (float cell, header unit)",
     lambda raw: values.parse_quantity(raw, "capacity", default_unit="TB"),
     [500.0, 30.72, 2000]),
    ("money", values.parse_money,
     ["$2.35 per GPU-hour", "24,80 € / Knoten / h", "USD 9,600,000", "$45 per TB-month"]),
    ("date", values.parse_date,
     ["2027-02-01", "1 Feb 2027", "Q2 2027", datetime(2027, 2, 1), "8 weeks ARO"]),
    ("duration", lambda raw: values.parse_duration(raw, "months"),
     ["36-month commitment", "3 years", "90 days", 12]),
    ("bool", values.parse_bool, ["Yes", "included", "✓", "n/a", True]),
    ("percent", values.parse_percent, ["99.9%", "99,95 %", 0.999]),
]


def rate(func: Callable[[Any], object], inputs: list[Any], seconds: float = 0.5) -> float:
    calls = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for raw in inputs:
            func(raw)
        calls += len(inputs)
    return calls / elapsed


def main() -> None:
    start = time.perf_counter()
    imported = "pint" in sys.modules
    values.parse_quantity("3 TiB", "capacity")  # first unit conversion builds the registry
    print(f"first pint conversion (registry build): {time.perf_counter() - start:.3f} s"
          f"{' (pint already imported)' if imported else ''}")
    for name, func, inputs in MIX:
        func(inputs[0])  # warm caches
        print(f"{name:38s} {rate(func, inputs):>10,.0f} parses/s")
    everything = [(func, raw) for _, func, inputs in MIX for raw in inputs]
    calls = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < 1.0:
        for func, raw in everything:
            func(raw)
        calls += len(everything)
    print(f"{'whole mix':38s} {calls / elapsed:>10,.0f} parses/s")


if __name__ == "__main__":
    main()
