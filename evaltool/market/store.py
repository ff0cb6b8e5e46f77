"""The local market store: catalog CSVs a user imported, kept in SQLite in their data folder.

Where: ``EVALTOOL_DATA_DIR`` when set (tests, several stores side by side), else the user's
data directory from platformdirs when it is installed (not an evaltool dependency; it is the
library that knows each platform's convention: ``$XDG_DATA_HOME/evaltool`` or
``~/.local/share/evaltool`` on Linux, ``%LOCALAPPDATA%\\evaltool`` on Windows,
``~/Library/Application Support/evaltool`` on macOS). When platformdirs is not installed the
same three conventions are applied here, so the store never lands in the working directory.

Why SQLite: the standard library has it, one file holds every import with its date and hash,
and a listing or a comparison is a query, not a re-parse of every CSV. Each import records the
file's SHA-256, its format, provider and snapshot date; importing the same bytes twice is a
no-op, so a comparison made on a given store is reproducible and names its dates.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import os
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from evaltool.errors import InputError, Location, Problem, UsageError
from evaltool.market.catalog import (
    FIELD_NAMES,
    MarketOffer,
    ParsedCatalog,
    parse_catalog,
    provider_from_path,
)

STORE_FILE = "market.sqlite3"
SCHEMA_VERSION = 1
# A catalog CSV larger than this is refused: the biggest SkyPilot vms.csv (AWS) is ~10 MB.
MAX_CATALOG_BYTES = 200 * 1024 * 1024


def data_home() -> Path:
    """The folder evaltool keeps user data in (see the module docstring)."""
    override = os.environ.get("EVALTOOL_DATA_DIR")
    if override:
        return Path(override)
    try:
        import platformdirs
    except ImportError:
        platformdirs = None  # type: ignore[assignment]
    if platformdirs is not None:
        return Path(platformdirs.user_data_dir("evaltool", appauthor=False))
    if sys.platform.startswith("win"):
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "evaltool"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "evaltool"
    xdg = os.environ.get("XDG_DATA_HOME")
    return Path(xdg if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
                ) / "evaltool"


def store_path() -> Path:
    return data_home() / STORE_FILE


_REAL_COLUMNS = frozenset({"gpu_memory_gib", "vcpus", "memory_gib", "price_usd_per_hour",
                           "price_usd_per_gpu_hour"})
_COLUMNS_SQL = ", ".join(
    f"{name} {'INTEGER' if name == 'gpu_count' else 'REAL' if name in _REAL_COLUMNS else 'TEXT'}"
    for name in FIELD_NAMES)
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS imports (
    id INTEGER PRIMARY KEY,
    file TEXT NOT NULL,
    sha256 TEXT NOT NULL UNIQUE,
    format TEXT NOT NULL,
    provider TEXT NOT NULL,
    snapshot_date TEXT NOT NULL,
    imported_on TEXT NOT NULL,
    n_offers INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS offers (
    import_id INTEGER NOT NULL REFERENCES imports(id), {_COLUMNS_SQL}
);
CREATE INDEX IF NOT EXISTS offers_by_provider ON offers(provider, snapshot_date);
PRAGMA user_version = {SCHEMA_VERSION};
"""


@contextlib.contextmanager
def _connect(path: Path, *, create: bool) -> Iterator[sqlite3.Connection]:
    if not create and not path.is_file():
        raise FileNotFoundError(path)
    if create:
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        con = sqlite3.connect(path)
    except sqlite3.Error as exc:
        raise UsageError(Problem(None, code="market-store-unopenable",
                                 params={"path": str(path), "reason": str(exc)})) from None
    try:
        con.executescript(_SCHEMA)
        yield con
        con.commit()
    except sqlite3.DatabaseError as exc:
        raise UsageError(Problem(None, code="market-store-unreadable",
                                 params={"path": str(path), "reason": str(exc)})) from None
    finally:
        con.close()


@dataclass(frozen=True)
class ImportRecord:
    """One catalog file in the store."""

    file: str
    sha256: str
    format: str
    provider: str
    snapshot_date: str
    imported_on: str
    n_offers: int
    skipped: tuple[Problem, ...] = ()
    already_imported: bool = False


def _read_bytes(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_CATALOG_BYTES:
            raise InputError(Problem(Location(str(path)), code="market-catalog-too-large",
                                     params={"size_bytes": size,
                                             "limit_bytes": MAX_CATALOG_BYTES}))
        return path.read_bytes()
    except OSError as exc:
        raise InputError(Problem(Location(str(path)), code="market-unreadable",
                                 params={"reason": exc.strerror})) from None


def _decode(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        from charset_normalizer import from_bytes  # catalogs are UTF-8; guess only if not

        best = from_bytes(data).best()
        if best is None:
            raise InputError(Problem(Location(where), code="market-not-text")) from None
        return str(best)


def import_catalog(path: Path, *, provider: str | None = None,
                   snapshot_date: dt.date | None = None, today: dt.date | None = None,
                   store: Path | None = None) -> ImportRecord:
    """Add one catalog CSV (SkyPilot or gpuhunt format) to the store. Raises InputError.

    ``provider`` defaults to the cloud the path names (SkyPilot: the folder of ``vms.csv``;
    gpuhunt: the file name); ``snapshot_date`` to the file's modification date (UTC).
    """
    path = Path(path)
    data = _read_bytes(path)
    digest = hashlib.sha256(data).hexdigest()
    name = provider or provider_from_path(path)
    if not name:
        raise UsageError(Problem(Location(str(path)), code="market-provider-unknown"))
    date = snapshot_date or dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.UTC).date()
    db = store or store_path()
    with _connect(db, create=True) as con:
        row = con.execute("SELECT file, format, provider, snapshot_date, imported_on, n_offers "
                          "FROM imports WHERE sha256 = ?", (digest,)).fetchone()
        if row is not None:
            return ImportRecord(row[0], digest, row[1], row[2], row[3], row[4], row[5],
                                already_imported=True)
        parsed: ParsedCatalog = parse_catalog(
            _decode(data, str(path)), str(path), provider=name.lower(), snapshot_date=date,
            source=f"{path.name} sha256:{digest[:12]} imported")
        if not parsed.offers:
            raise InputError(Problem(Location(str(path)), code="market-empty-catalog"))
        imported_on = (today or dt.datetime.now(tz=dt.UTC).date()).isoformat()
        cur = con.execute(
            "INSERT INTO imports (file, sha256, format, provider, snapshot_date, imported_on, "
            "n_offers) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (str(path.resolve()), digest, parsed.fmt, name.lower(), date.isoformat(),
             imported_on, len(parsed.offers)))
        import_id = cur.lastrowid
        placeholders = ", ".join("?" for _ in range(len(FIELD_NAMES) + 1))
        con.executemany(
            f"INSERT INTO offers (import_id, {', '.join(FIELD_NAMES)}) VALUES ({placeholders})",
            [(import_id, *(getattr(o, f) for f in FIELD_NAMES)) for o in parsed.offers])
    return ImportRecord(str(path.resolve()), digest, parsed.fmt, name.lower(), date.isoformat(),
                        imported_on, len(parsed.offers), tuple(parsed.skipped))


def stored_offers(store: Path | None = None) -> list[MarketOffer]:
    """Every offer in the store, in import order ([] when nothing was imported)."""
    db = store or store_path()
    try:
        with _connect(db, create=False) as con:
            rows = con.execute(
                f"SELECT {', '.join(FIELD_NAMES)} FROM offers ORDER BY import_id, rowid"
            ).fetchall()
    except FileNotFoundError:
        return []
    return [MarketOffer(*row) for row in rows]


def stored_imports(store: Path | None = None) -> list[ImportRecord]:
    db = store or store_path()
    try:
        with _connect(db, create=False) as con:
            rows = con.execute("SELECT file, sha256, format, provider, snapshot_date, "
                               "imported_on, n_offers FROM imports ORDER BY id").fetchall()
    except FileNotFoundError:
        return []
    return [ImportRecord(*row) for row in rows]


def import_many(paths: Sequence[Path], **kwargs: object) -> tuple[list[ImportRecord],
                                                                  list[InputError]]:
    """Import each file; one bad file never stops the others."""
    done: list[ImportRecord] = []
    failed: list[InputError] = []
    for path in paths:
        try:
            done.append(import_catalog(path, **kwargs))  # type: ignore[arg-type]
        except InputError as exc:
            failed.append(exc)
    return done, failed
