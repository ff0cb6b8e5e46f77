"""Fuzzing through the real pipeline: whatever one offer file holds, the batch survives.

Hypothesis writes hostile YAML offers, CSV rows and workbook cells (impossible dates, huge
and negative numbers, control characters, deep nesting, missing keys, corrupt bytes) and runs
them through `normalize_files` beside a good offer. The specification: every input is
accounted for (among the offers or in `not_evaluated`, with a registered code that is not an
internal error), and the good offer is still read. `benchmarks/fuzz.py` runs thousands of
such cases through `score_files`; this is the quick version for every test run.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaltool.issues import is_registered
from evaltool.normalize.core import normalize_files

ROOT = Path(__file__).resolve().parents[1]
GOOD = ROOT / "offers" / "nimbusgpu-h100-ib.xlsx"
HPC = yaml.safe_load((ROOT / "offers" / "hpc-centre-a100.yaml").read_text(encoding="utf-8"))
FAST = settings(max_examples=10, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

HOSTILE_TEXT = st.sampled_from([
    "2027-02-30", "31.02.2027", "0", "-1", "1e400", "NaN", "inf", "", "\x00", "A\x00B",
    "9" * 50_000, "1" * 400, "24,80 € / Knoten / h", "$19.92 per node-hour", "per node",
    "0 months", "\x1b[31mred", "(" * 3000, "H100 " * 500, "GBP 2.10 per GPU-hour",
])
HOSTILE = st.one_of(
    HOSTILE_TEXT, st.text(max_size=60), st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(),
)


def _check(folder: Path, bad: Path) -> None:
    result = normalize_files([bad, GOOD], {"EUR": 1.08})
    files = {o.source["file"] for o in result.offers} | {
        n.source["file"] for n in result.not_evaluated}
    assert {str(bad), str(GOOD)} <= files, "an input was lost"
    assert str(GOOD) in {o.source["file"] for o in result.offers}, "the good offer was dropped"
    for item in result.not_evaluated:
        for error in item.errors:
            code = str(error.get("code"))
            assert is_registered(code), error
            assert not code.startswith("internal"), error


def _set(tree: dict[str, Any], path: list[str], value: Any) -> None:
    node = tree
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


LEAVES = [["offer valid until"], ["hardware", "gpu"], ["hardware", "nodes"],
          ["hardware", "gpus per node"], ["pricing", "rate"], ["pricing", "minimum commitment"],
          ["storage", "quota"], ["network", "interconnect"], ["centre"], ["contract"]]


@FAST
@given(changes=st.lists(st.tuples(st.sampled_from(LEAVES), HOSTILE), min_size=1, max_size=4),
       deletions=st.lists(st.sampled_from(LEAVES), max_size=2))
def test_hostile_values_in_a_yaml_offer_never_lose_the_batch(
        tmp_path_factory: Any, changes: list[tuple[list[str], Any]],
        deletions: list[list[str]]) -> None:
    tree = yaml.safe_load(yaml.safe_dump(HPC))
    for path, value in changes:
        _set(tree, path, value)
    for path in deletions:
        parent = tree
        for key in path[:-1]:
            parent = parent[key]
        parent.pop(path[-1], None)
    folder = tmp_path_factory.mktemp("yaml")
    bad = folder / "offer.yaml"
    bad.write_text(yaml.safe_dump(tree, allow_unicode=True), encoding="utf-8")
    _check(folder, bad)


@FAST
@given(data=st.binary(max_size=300), position=st.floats(min_value=0, max_value=1))
def test_corrupt_bytes_in_a_yaml_offer_never_lose_the_batch(
        tmp_path_factory: Any, data: bytes, position: float) -> None:
    raw = (ROOT / "offers" / "hpc-centre-a100.yaml").read_bytes()
    cut = int(len(raw) * position)
    folder = tmp_path_factory.mktemp("bytes")
    bad = folder / "offer.yaml"
    bad.write_bytes(raw[:cut] + data + raw[cut:])
    _check(folder, bad)


@FAST
@given(rows=st.lists(st.lists(HOSTILE_TEXT | st.text(max_size=20), min_size=1, max_size=8),
                     max_size=6))
def test_hostile_rows_in_a_csv_never_lose_the_batch(
        tmp_path_factory: Any, rows: list[list[str]]) -> None:
    import csv

    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["provider", "accelerator", "gpu count", "price per gpu hour", "region"])
    writer.writerow(["Alpha", "H100 SXM", "8", "$2.49", "us-east"])
    writer.writerows(rows)
    folder = tmp_path_factory.mktemp("csv")
    bad = folder / "offers.csv"
    bad.write_text(out.getvalue(), encoding="utf-8")
    _check(folder, bad)


@FAST
@given(cells=st.lists(st.tuples(st.integers(1, 40), st.integers(1, 6), HOSTILE), min_size=1,
                      max_size=5))
def test_hostile_cells_in_a_workbook_never_lose_the_batch(
        tmp_path_factory: Any, cells: list[tuple[int, int, Any]]) -> None:
    from openpyxl import load_workbook

    wb = load_workbook(GOOD)
    ws = wb.worksheets[0]
    for row, col, value in cells:
        if isinstance(value, str):
            value = "".join(ch for ch in value if ch >= " ")[:32_000]
        if isinstance(value, int) and abs(value) > 2**53:
            value = str(value)
        try:
            ws.cell(row, col).value = value
        except (AttributeError, ValueError, TypeError):
            continue  # merged cells and values openpyxl itself refuses
    folder = tmp_path_factory.mktemp("xlsx")
    bad = folder / "offer.xlsx"
    wb.save(bad)
    _check(folder, bad)


@FAST
@given(flips=st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), min_size=1, max_size=6))
def test_corrupt_deflate_streams_in_a_workbook_never_lose_the_batch(
        tmp_path_factory: Any, flips: list[tuple[float, int]]) -> None:
    raw = bytearray(GOOD.read_bytes())
    with zipfile.ZipFile(io.BytesIO(bytes(raw))) as archive:
        info = archive.getinfo("xl/worksheets/sheet1.xml")
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for where, byte in flips:
        raw[start + int(where * (info.compress_size - 1))] = byte
    folder = tmp_path_factory.mktemp("zip")
    bad = folder / "offer.xlsx"
    bad.write_bytes(bytes(raw))
    _check(folder, bad)
