"""`evaltool demo [DIR]`: the bundled sample offers, copied out and scored.

The sample offers ship inside the wheel as `evaltool/sample_offers` (pyproject:
hatch force-include of the repository's `offers/`); in a checkout they stand at the top
of the repository. The demo names the workload and the rates file explicitly, as a user
should: vendor files never choose them.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

from evaltool.errors import Problem, UsageError

_PACKAGE_DIR = Path(__file__).resolve().parent
WORKLOAD_FILE = "workload.yaml"
RATES_FILE = "fx-rates.yaml"
OFFER_SUFFIXES = (".xlsx", ".xlsm", ".csv", ".yaml", ".yml", ".json")


def sample_offers_dir() -> Path:
    """Where the bundled sample offers are: inside the package, else the checkout's offers/."""
    for candidate in (_PACKAGE_DIR / "sample_offers", _PACKAGE_DIR.parent / "offers"):
        if (candidate / WORKLOAD_FILE).is_file():
            return candidate
    raise UsageError(Problem(None, code="sample-offers-missing",
                             params={"folder": str(_PACKAGE_DIR)}))


@dataclass
class DemoFiles:
    folder: Path
    offers: list[Path] = field(default_factory=list)
    workload: Path | None = None
    rates: Path | None = None


def copy_samples(folder: Path) -> DemoFiles:
    """Copy the sample offers, workload and rates into `folder` (created; files not replaced)."""
    source = sample_offers_dir()
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(Problem(None, code="demo-folder-unwritable", params={
            "folder": str(folder), "reason": str(exc.strerror or exc)})) from exc
    files = DemoFiles(folder)
    for path in sorted(source.iterdir()):
        if not path.is_file() or path.suffix.lower() not in OFFER_SUFFIXES:
            continue
        target = folder / path.name
        if not target.exists():
            shutil.copyfile(path, target)
        if path.name == WORKLOAD_FILE:
            files.workload = target
        elif path.name == RATES_FILE:
            files.rates = target
        else:
            files.offers.append(target)
    return files
