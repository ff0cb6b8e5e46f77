"""Benchmark the memo, the full report and the exports; prints its figures.

Targets (issue 7): the memo for 10 offers under 3 s and the full report for 50 offers under
15 s, after the first render (which pays for importing WeasyPrint and loading the font).
Wall time on a shared machine is noisy, so CPU time of this process is printed beside it.
The sample is the real `score` JSON of the bundled offers (scripts/make_fixtures.py writes
it), so each offer carries what a real run gives it: ~30 canonical fields with provenance
(the appendix rows) and ~10 contract findings.

Run: .venv/bin/python benchmarks/report.py
"""

from __future__ import annotations

import copy
import io
import json
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaltool.models import ScoreReport  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "score_report_sample.json"
MEMO_TARGET_S = 3.0
FULL_TARGET_S = 15.0


def report_with(n: int) -> ScoreReport:
    """The six-offer sample grown to `n` offers by copying offers under new vendor names."""
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    originals = data["offers"]
    offers = []
    for i in range(n):
        offer = copy.deepcopy(originals[i % len(originals)])
        if i >= len(originals):
            offer["id"] = f"{offer['id']}-{i}"
            offer["vendor"] = f"Vendor {i:02d} {offer['vendor']}"
        offer["score"] = round(offer["score"] - i * 0.01, 2)
        offers.append(offer)
    offers.sort(key=lambda o: (not o["eligible"], -o["score"]))
    for rank, offer in enumerate(offers, 1):
        offer["rank"] = rank
    data["offers"] = offers
    return ScoreReport.model_validate(data)


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """Median wall and CPU seconds over `repeat` runs, and the last result."""
    walls, cpus = [], []
    result = None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def main() -> None:
    from pypdf import PdfReader

    from evaltool.report.exports import to_csv, to_markdown, to_xlsx_bytes
    from evaltool.report.pdf import render_pdf_bytes
    from evaltool.report.render import render_html, report_to_json

    ten, fifty = report_with(10), report_with(50)
    print(f"machine: {sys.platform}, python {sys.version.split()[0]}")
    per_offer = {label: statistics.mean(len(getattr(o, key)) for o in fifty.offers)
                 for label, key in (("fields", "fields"), ("findings", "flags"))}
    print(f"sample: {FIXTURE.relative_to(ROOT)}, per offer "
          + ", ".join(f"{n:.0f} {label}" for label, n in per_offer.items()))

    wall, cpu, _ = timed(lambda: render_pdf_bytes(ten), 1)
    print(f"first memo render, 10 offers (imports WeasyPrint): {wall:6.2f} s wall {cpu:6.2f} s cpu")

    wall, cpu, pdf = timed(lambda: render_pdf_bytes(ten), 3)
    verdict = "OK" if wall < MEMO_TARGET_S else "SLOW"
    print(f"memo PDF, 10 offers, median of 3:               {wall:6.2f} s wall {cpu:6.2f} s cpu "
          f"({len(pdf) / 1024:.0f} KiB)  target < {MEMO_TARGET_S:.0f} s: {verdict}")

    wall, cpu, pdf = timed(lambda: render_pdf_bytes(fifty, kind="full"), 2)
    verdict = "OK" if wall < FULL_TARGET_S else "SLOW"
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    print(f"full PDF, 50 offers, median of 2:               {wall:6.2f} s wall {cpu:6.2f} s cpu "
          f"({pages} pages, {len(pdf) / 1024:.0f} KiB)  target < {FULL_TARGET_S:.0f} s: {verdict}")

    for label, fn in (
        ("full HTML, 50 offers", lambda: render_html(fifty, kind="full")),
        ("full Markdown, 50 offers", lambda: to_markdown(fifty, kind="full")),
        ("XLSX, 50 offers", lambda: to_xlsx_bytes(fifty)),
        ("CSV, 50 offers", lambda: to_csv(fifty)),
        ("JSON, 50 offers", lambda: report_to_json(fifty)),
    ):
        wall, cpu, _ = timed(fn, 5)
        print(f"{label + ', median of 5:':48s} {wall * 1000:7.1f} ms wall {cpu * 1000:7.1f} ms cpu")

    print(f"peak RSS of this process: {peak_rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
