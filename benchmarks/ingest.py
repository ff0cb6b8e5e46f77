"""Benchmark: normalising 200 workbooks vs merely opening them and reading every cell.

Target (issue 3): normalise_files on 200 vendor workbooks costs at most 1.5x the time of
opening each with openpyxl (full mode, data_only=True, as ecosystem.md §3 recommends for
merged cells) and reading every cell.  Both run side by side in one process on the same
files: copies of the sample offers and the test corpus workbooks.  Prints its figures.

Run: PYTHONPATH=. .venv/bin/python benchmarks/ingest.py [N]
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _workbooks() -> list[Path]:
    sources = sorted((ROOT / "offers").glob("*.xlsx"))
    sources += sorted(p for p in (ROOT / "tests" / "offers_corpus").glob("*.xls*")
                      if p.name not in ("empty.xlsx", "not_a_workbook.xlsx"))
    return sources


def _openpyxl_read_all(paths: list[Path]) -> int:
    from openpyxl import load_workbook

    cells = 0
    for path in paths:
        wb = load_workbook(path, data_only=True)
        for ws in wb.worksheets:
            for row in ws.iter_rows():
                for cell in row:
                    if cell.value is not None:
                        cells += 1
        wb.close()
    return cells


def _calamine_read_all(paths: list[Path]) -> int:
    import python_calamine

    cells = 0
    for path in paths:
        wb = python_calamine.CalamineWorkbook.from_path(str(path))
        for name in wb.sheet_names:
            for row in wb.get_sheet_by_name(name).to_python():
                cells += sum(1 for v in row if v != "")
    return cells


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    from evaltool.normalize.core import normalize_files

    sources = _workbooks()
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i in range(count):
            src = sources[i % len(sources)]
            dst = Path(tmp) / f"{i:03d}-{src.name}"
            shutil.copyfile(src, dst)
            paths.append(dst)
        normalize_files(paths[:3], {"EUR": 1.08})  # warm imports and the catalog
        _openpyxl_read_all(paths[:3])
        runs: dict[str, list[float]] = {"openpyxl": [], "calamine": [], "normalize": []}
        for _ in range(3):
            t0 = time.perf_counter()
            cells = _openpyxl_read_all(paths)
            t1 = time.perf_counter()
            _calamine_read_all(paths)
            t2 = time.perf_counter()
            result = normalize_files(paths, {"EUR": 1.08})
            t3 = time.perf_counter()
            runs["openpyxl"].append(t1 - t0)
            runs["calamine"].append(t2 - t1)
            runs["normalize"].append(t3 - t2)
    base = statistics.median(runs["openpyxl"])
    norm = statistics.median(runs["normalize"])
    print(f"{count} workbooks ({len(sources)} distinct layouts), {cells} non-empty cells")
    print(f"openpyxl full load + read every cell : {base:7.3f} s (median of 3)")
    print(f"python-calamine read every cell      : {statistics.median(runs['calamine']):7.3f} s")
    print(f"evaltool normalize_files             : {norm:7.3f} s "
          f"({len(result.offers)} offers, {len(result.not_evaluated)} not evaluated)")
    print(f"ratio normalize / openpyxl           : {norm / base:7.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    main()
