"""The scenario bank (tests/scenarios/): the buyer's answer, winner and money, for each case.

Blind scenarios were written by someone who never read evaltool/; their expectations are
copied unchanged. A scenario the code does not yet meet is marked xfail with the reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario_bank import check_scenario, scenario_dirs, scenario_passes

KNOWN_GAPS = {
    "06b-buy-vs-rent-95pct-utilisation-4yr": (
        "the money is right (purchase $3.51M, renewals $5.28M, on demand $6.86M) but every "
        "offer fails the 1,460-day deadline gate: the estimate counts attention FLOPs at an "
        "8k sequence (2.30M GPU-hours against the buyer's 6ND 2.15M at 40% MFU), 1,494 days; "
        "time model, items 6 and 8, the estimate helper's"),
    "07-moe-fp8-deepseek-v3-shape": (
        "run cost on a shared 25 Gb/s network is ~4x the buyer's: MFU calibration, item 8"),
    # Set C (blind, /work/blind/scenarios_c): not yet met on main; each is taken off as fixed.
    "c-02-min-commit-below-vs-above-run": "set C: not yet met (see SET_C_RESULTS_BEFORE.txt)",
    "c-05-spot-interruptions-hard-deadline": "set C: not yet met (see SET_C_RESULTS_BEFORE.txt)",
    "c-07-finetune-gpu-memory-fit": "set C: not yet met (see SET_C_RESULTS_BEFORE.txt)",
    "c-09-purchase-vs-rent-24x7-programme": "set C: not yet met (see SET_C_RESULTS_BEFORE.txt)",
    "c-11-reallocation-right-and-expired-quote": "set C: not yet met (see SET_C_RESULTS_BEFORE.txt)",
    "c-12-egress-and-storage-heavy": "set C: not yet met (see SET_C_RESULTS_BEFORE.txt)",
}


@pytest.mark.parametrize("folder", scenario_dirs(), ids=lambda p: p.name)
def test_scenario_winner_and_money_are_the_buyers(folder: Path) -> None:
    try:
        checks = check_scenario(folder)
    except Exception:
        if folder.name in KNOWN_GAPS:
            pytest.xfail(KNOWN_GAPS[folder.name])
        raise
    failed = [f"{c.what}: {c.detail}" for c in checks if not c.ok and not c.what.startswith(
        "figure:")]
    if failed and folder.name in KNOWN_GAPS:
        pytest.xfail(KNOWN_GAPS[folder.name])
    assert scenario_passes(checks), "\n".join(failed)
    assert folder.name not in KNOWN_GAPS, "now right: take it off KNOWN_GAPS"
