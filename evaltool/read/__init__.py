"""Offer readers: any file a vendor or the team sends, read into labelled raw records.

`read_offer_file` dispatches on the file's content (not only its name): workbooks
(.xlsx/.xlsm/.xls/.ods, read as data only: never a macro, and of a formula saved without
its value only plain arithmetic, read/formulas.py), CSV,
YAML and JSON.  `sniff_input_kind` tells offers from the workload, rates and rubric files
that `evaltool score offers/*` also passes.  Such a file is obeyed only when the caller allows
it (the project's own examples, or the user said the inputs may configure the run); among
offers it is refused with the code `not-an-offer`, so a vendor's file never changes the
workload, rates or rubric of a run.  Every way reading can fail ends in an `InputError` with a
coded problem that names the file (`read_offer_file`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from evaltool.errors import InputError, Location, Problem, UsageError
from evaltool.models import ServingTarget, Workload
from evaltool.read.cells import RawRecord
from evaltool.read.count_pairs import split_count_pairs
from evaltool.read.layout import slug
from evaltool.read.mapping import load_mapping, read_mapping
from evaltool.read.references import follow_sheet_references
from evaltool.read.safety import check_file_size, problem_for_exception
from evaltool.read.sheets import read_sheets
from evaltool.read.tabular import read_csv
from evaltool.read.vocabulary import load_vocabulary
from evaltool.read.xlsx import read_workbook_and_properties

InputKind = Literal["offer", "workload", "fx_rates", "rubric"]
_YAML_SUFFIXES = frozenset({".yaml", ".yml", ".json"})
_CSV_SUFFIXES = frozenset({".csv", ".tsv", ".txt"})
_ZIP_MAGIC = b"PK\x03\x04"
_OLE_MAGIC = b"\xd0\xcf\x11\xe0"  # legacy .xls (and encrypted .xlsx)


# Keys a rates file may hold beside `fx:` (anything else makes it an offer with a stray key).
_FX_FILE_KEYS = frozenset({"fx", "as_of", "date", "source", "note", "notes", "comment"})
_KIND_NAMES = {"workload": "a workload", "fx_rates": "a currency-rates file",
               "rubric": "a rubric"}


def _top_level(path: Path) -> dict[str, Any] | None:
    """The top-level mapping of a small YAML/JSON file, or None if it is not one."""
    try:
        if path.stat().st_size > 2_000_000:
            return None

        data = load_mapping(path)
    except (OSError, InputError, ValueError, RecursionError, MemoryError):
        return None
    return data if isinstance(data, dict) else None


def sniff_input_kind(path: Path) -> InputKind:
    """What a file given among the offers looks like.

    A rates file is a top-level `fx:` mapping (and notes); a workload has `params_b` and only
    workload keys; a rubric has `categories` and `criteria`.  An offer that merely contains one
    of these keys beside its own fields is an offer.
    """
    if path.suffix.lower() not in _YAML_SUFFIXES:
        return "offer"
    data = _top_level(path)
    if data is None:
        return "offer"
    keys = {str(k) for k in data}
    if "fx" in keys and isinstance(data.get("fx"), dict) and keys <= _FX_FILE_KEYS:
        return "fx_rates"
    workload_keys = set(Workload.model_fields) | set(ServingTarget.model_fields) | {"notes"}
    if "params_b" in keys and keys <= workload_keys:
        return "workload"
    if "categories" in keys and "criteria" in keys:
        return "rubric"
    return "offer"


def refuse_non_offer(path: Path, kind: InputKind) -> InputError:
    """The error for a workload, rates or rubric file given where offers are read."""
    return InputError(Problem(Location(str(path)), code="not-an-offer",
                              params={"kind": _KIND_NAMES.get(kind, kind)}))


# Sanity bounds on "USD per 1 unit": from the weakest traded currencies (~1e-5 USD)
# to the strongest (~3.3 USD, KWD) with wide margins; outside them it is a typo.
FX_MIN_USD, FX_MAX_USD = 1e-6, 100.0


def check_fx_rate(code: str, rate: float, where: str) -> None:
    """A rate must be finite, positive and plausible; USD is 1 by definition."""
    import math

    if not math.isfinite(rate) or rate <= 0:
        raise UsageError(Problem(Location(where), code="fx-rate-not-positive",
                                 params={"currency": code, "found": repr(rate)}))
    if code == "USD" and rate != 1.0:
        raise UsageError(Problem(Location(where), code="fx-usd-rate-not-one",
                                 params={"found": repr(rate)}))
    if not FX_MIN_USD <= rate <= FX_MAX_USD:
        raise UsageError(Problem(Location(where), code="fx-rate-implausible", params={
            "found": repr(rate), "currency": code, "min_usd": FX_MIN_USD,
            "max_usd": FX_MAX_USD}))


def read_fx_file(path: Path) -> dict[str, float]:
    """A rates file `fx: {EUR: 1.08}` (1 EUR = 1.08 USD).  UsageError names the bad key."""

    try:
        data = load_mapping(path)
    except InputError as exc:
        raise UsageError(Problem(None, code="fx-file-unreadable",
                                 params={"reason": str(exc)})) from None
    if not isinstance(data, dict) or not isinstance(data.get("fx"), dict):
        raise UsageError(Problem(Location(str(path)), code="fx-file-without-rates"))
    rates: dict[str, float] = {}
    for code, rate in data["fx"].items():
        name = str(code).strip().upper()
        if len(name) != 3 or not name.isalpha():
            raise UsageError(Problem(Location(str(path), key=f"fx.{code}"),
                                     code="fx-bad-currency-code", params={"found": repr(code)}))
        if isinstance(rate, bool) or not isinstance(rate, (int, float)):
            raise UsageError(Problem(Location(str(path), key=f"fx.{code}"),
                                     code="fx-rate-not-positive",
                                     params={"currency": name, "found": repr(rate)}))
        check_fx_rate(name, float(rate), f"{path} › fx.{code}")
        if name in rates and rates[name] != float(rate):
            raise UsageError(Problem(Location(str(path), key=f"fx.{code}"),
                                     code="fx-rate-given-twice", params={"currency": name}))
        rates[name] = float(rate)
    return rates


def _sniff_format(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm", ".xltx", ".xltm", ".xls", ".xlsb", ".ods"):
        # A workbook by its name whatever its first bytes (the workbook reader names what is
        # wrong with it): no need to open the file for them.
        return "workbook"
    try:
        with path.open("rb") as handle:
            head = handle.read(8)
    except OSError:
        head = b""
    if head.startswith(_ZIP_MAGIC) or head.startswith(_OLE_MAGIC):
        return "workbook"
    if suffix in _YAML_SUFFIXES:
        return "mapping"
    if suffix in _CSV_SUFFIXES:
        return "csv"
    return "unknown"


def read_offer_file(path: Path) -> list[RawRecord]:
    """Read one offer file into raw records (one per offer), at least one.

    Raises InputError, and nothing else: a damaged file, a file that is too deep, too large or
    not an offer, and a bug while reading it all become one coded problem naming the file.
    """

    try:
        records = _read_offer_file(path)
    except InputError:
        raise
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # native panics from the workbook reader are BaseExceptions
        raise InputError(problem_for_exception(exc, Location(str(path)), "reading")) from None
    if not records:
        raise InputError(Problem(Location(str(path)), code="no-offer-in-file"))
    return records


def _read_offer_file(path: Path) -> list[RawRecord]:

    check_file_size(path)
    vocab = load_vocabulary()
    kind = _sniff_format(path)
    base_id = slug(path.stem)
    if kind == "mapping":

        look_alike = sniff_input_kind(path)
        if look_alike != "offer":
            raise refuse_non_offer(path, look_alike)

        return read_mapping(path, vocab)
    if kind == "workbook":

        grids, properties = read_workbook_and_properties(path)
        if not grids or all(not any(any(str(v).strip() for v in row if v is not None)
                                    for row in g.rows) for g in grids):
            raise InputError(Problem(Location(str(path)), code="empty-workbook"))
    elif kind == "csv":

        grids = [read_csv(path)]
    else:
        raise InputError(Problem(Location(str(path)), found=path.suffix or "no file extension",
                                 code="unsupported-format"))
    record = RawRecord(id=base_id, source={"file": str(path)})
    if kind == "workbook":  # hook: a vendor may name itself only in the document properties
        record.properties = properties
    extra = read_sheets(grids, vocab, record, base_id)
    for each in [record, *extra]:  # "nodes x gpus | 4 x 8": two counts
        split_count_pairs(each)
    if len(grids) > 1:  # "Price | see sheet 'Rates'": the rate that sheet states for the offer
        follow_sheet_references(grids, [record, *extra], vocab)
    if extra:
        for item in extra:
            item.properties = dict(record.properties)
            item.candidates.extend(record.candidates)  # the file's shared facts, after its own
            item.notes.extend(record.notes)
            item.banners = item.banners or list(record.banners)
            item.footers = item.footers or list(record.footers)
            item.segments.extend(record.segments)
            item.problems.extend(record.problems)
            item.skipped.extend(record.skipped)  # hidden or superseded sheets, for --explain
        return extra
    return [record]
