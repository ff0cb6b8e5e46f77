"""Run one scenario of tests/scenarios/ through `score` and check it against expected.yaml.

A scenario is a folder with a workload, offer files and `expected.yaml`: the answer an
experienced buyer gives (the winner, offers that must not win, offers that are ineligible,
and money figures per offer, each a point with a tolerance or a [low, high] range). The
checks read the score JSON a user gets (`estimates` keys), never evaltool internals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from evaltool.pipeline import score_files

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"

# expected.yaml names → the score JSON's estimates keys.
MONEY_KEYS = {
    "run_cost_usd": "total_cost_usd",
    "minimum_cash_to_sign_usd": "minimum_cash_to_sign_usd",
    "full_commitment_usd": "full_commitment_usd",
    "cost_of_delay_usd": "cost_of_delay_usd",
    "total_economic_cost_usd": "total_economic_cost_usd",
}
OTHER_KEYS = {"gpu_hours": "gpu_hours", "time_to_train_days": "time_to_train_days",
              "effective_usd_per_gpu_hour": "effective_usd_per_gpu_hour"}


@dataclass(frozen=True)
class Check:
    scenario: str
    what: str  # "winner", "eligible:<offer>", "money:<offer>:<key>", "figure:<offer>:<key>"
    ok: bool
    detail: str


def scenario_dirs() -> list[Path]:
    return sorted(p for p in SCENARIOS.iterdir() if (p / "expected.yaml").is_file())


def load_expected(folder: Path) -> dict[str, Any]:
    data = yaml.safe_load((folder / "expected.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict), folder
    return data


def within(found: Any, spec: Any) -> bool:
    """A point spec {value, rel_tol, abs_tol} or a [low, high] range."""
    if not isinstance(found, int | float) or isinstance(found, bool) or not math.isfinite(found):
        return False
    if isinstance(spec, list | tuple):
        low, high = float(spec[0]), float(spec[1])
        return low <= found <= high
    if isinstance(spec, dict):
        value = float(spec["value"])
        tol = max(float(spec.get("rel_tol", 0.0)) * abs(value), float(spec.get("abs_tol", 0.0)))
        return abs(found - value) <= tol + 1e-9
    return found == spec


def run_scenario(folder: Path, draws: int = 400) -> dict[str, Any]:
    """The score JSON (as a dict) for a scenario folder, with the flags expected.yaml asks for."""
    expected = load_expected(folder)
    source = ROOT / "offers" if expected.get("inputs") == "samples" else folder
    files = sorted(p for p in source.iterdir()
                   if p.suffix in (".yaml", ".yml", ".xlsx", ".csv", ".json")
                   and p.name not in ("expected.yaml",) and not p.name.startswith("_"))
    workload = next((p for p in files if p.stem == "workload"), None)
    offers = [p for p in files if p is not workload]  # a rates file is sorted out by score
    flags = expected.get("flags") or {}
    assumptions: dict[str, Any] = {}
    for name, value in (flags.items() if isinstance(flags, dict) else []):
        key = str(name).lstrip("-").replace("-", "_")
        if key == "cost_basis":
            assumptions["cost_basis"] = value
        elif key in ("resale_value", "resale_value_fraction"):
            assumptions["resale_value_fraction"] = float(value)
    report = score_files(offers, workload=workload, assumptions=assumptions or None,
                         draws=draws)
    return report.model_dump(mode="json")


def check_scenario(folder: Path, report: dict[str, Any] | None = None) -> list[Check]:
    expected = load_expected(folder)
    report = report if report is not None else run_scenario(folder)
    name = folder.name
    offers = {o["id"]: o for o in report["offers"]}
    checks: list[Check] = []
    winner = (report.get("recommendation") or {}).get("offer_id")
    acceptable = expected.get("acceptable_winners") or [expected.get("winner")]
    must_not = set(expected.get("must_not_win") or [])
    ok = winner in acceptable and winner not in must_not
    checks.append(Check(name, "winner", ok, f"found {winner!r}, expected {acceptable}"))
    for entry in expected.get("ineligible") or []:
        # a bare offer id, or {offer, why} as buyers also write it
        offer_id = entry["offer"] if isinstance(entry, dict) else entry
        found = offers.get(offer_id, {}).get("eligible")
        checks.append(Check(name, f"eligible:{offer_id}", found is False,
                            f"eligible={found!r}, expected False"))
    for offer_id, spec in (expected.get("offers") or {}).items():
        estimates = offers.get(offer_id, {}).get("estimates") or {}
        breakdown = estimates.get("cost_breakdown_usd") or {}
        egress = breakdown.get("egress") if isinstance(breakdown, dict) else None
        # A scenario that states the run cost with and without egress means run_cost_usd
        # without it (its own words); total_cost_usd is the run with every add-on.
        excl_egress = "run_cost_incl_egress_usd" in (spec or {})
        for key, want in ((spec or {}).get("money") or {}).items():
            found = estimates.get(MONEY_KEYS.get(key, key))
            if key == "run_cost_usd" and excl_egress and isinstance(found, int | float):
                found = found - float(egress or 0.0)
            checks.append(Check(name, f"money:{offer_id}:{key}", within(found, want),
                                f"found {found!r}, expected {want}"))
        for key, found in (("egress_usd", egress),
                           ("run_cost_incl_egress_usd", estimates.get("total_cost_usd"))):
            if key in (spec or {}):
                want = spec[key]
                checks.append(Check(name, f"money:{offer_id}:{key}", within(found, want),
                                    f"found {found!r}, expected {want}"))
        for key, want in (spec or {}).items():
            if key in OTHER_KEYS:
                found = estimates.get(OTHER_KEYS[key])
                checks.append(Check(name, f"figure:{offer_id}:{key}", within(found, want),
                                    f"found {found!r}, expected {want}"))
    return checks


def scenario_passes(checks: list[Check]) -> bool:
    """Right when the winner and every money figure are right (other figures are reported)."""
    return all(c.ok for c in checks if not c.what.startswith("figure:"))
