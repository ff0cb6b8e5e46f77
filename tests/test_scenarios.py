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
    # Set C (blind, written without reading evaltool/): the ones not met, each with its reason.
    "c-02-min-commit-below-vs-above-run": (
        "the buyer takes MFU 30-50% of the FP8 dense peak for a MoE; DeepSeek-V3's published "
        "2.664M H800 GPU-hours for 14.8T tokens at 37B active is ~17% of that peak, which the "
        "estimate follows (281k GPU-hours, not 98-164k); at that run size b's $600k floor is "
        "covered by its own run ($641k) and b is the cheaper cash. A convention we think wrong, "
        "not a money-model gap"),
    "c-05-spot-interruptions-hard-deadline": (
        "not yet met: spot facts stated only in the contract (preemptible, 20% of GPU-hours "
        "preempted, median 448 GPUs concurrently available) do not reach the offer's "
        "preemptible/availability fields, so the spot pool is timed as 1,024 dedicated GPUs"),
    "c-07-finetune-gpu-memory-fit": (
        "winner right (offer-d); only the ineligible MI300X offer's run cost differs: the "
        "estimate's AMD efficiency is below the buyer's 30-50% of MI300X dense peak (calibration,"
        " issue item 8, the estimate helper's)"),
    "c-09-purchase-vs-rent-24x7-programme": (
        "not yet met: the money is the buyer's (purchase $24.4M vs rental $26.2M minimum cash, "
        "total economic cost lower for the purchase) but the rental still scores higher on the "
        "non-money criteria; the ranking's weight on money vs lock-in for a purchase is open"),
    # Set B (blind, held out, written without reading evaltool/): landed failing, each reason.
    "b-01-etf-6mo-vs-cancellable-12mo": (
        "not yet met: the 25% early-termination fee on the fees for the remainder of the term "
        "is not read, so the 6-month term's exit is priced fee-free and wins"),
    "b-02-min-commit-below-run-cost": (
        "not yet met: a USD 75k spend floor replaces the 12-month term's fees as the full "
        "commitment, and on-demand capacity's full commitment is 0, not the run as billed"),
    "b-03-hpc-free-but-late": (
        "not yet met: on-demand capacity's full commitment is 0, not the run as billed; the "
        "one-month minimum term is not the floor of the exit"),
    "b-04-inference-rps-target": (
        "not yet met: the ineligible 16-GPU block's run cost is what the block bills; the "
        "buyer prices the 20+ GPUs the target needs, which the offer does not have"),
    "b-05-mi300x-vs-h100-405b-finetune": (
        "not yet met: monthly billing (a term of whole months) is not the floor of the exit; "
        "MI300X and H100 run costs follow the estimate's MFU calibration"),
    "b-07-auto-renewal-notice-longer-than-term": (
        "not yet met: a month-to-month deal's full commitment is its one-month minimum, not "
        "the run as billed"),
    "b-08-storage-heavy-per-tb-month": (
        "not yet met: storage billed per TB-month is in the run cost; the buyer keeps the run "
        "cost to GPU-hours and counts storage in the commitments"),
    "b-10-capacity-reallocation-at-vendor-discretion": (
        "not yet met: capacity the vendor may reallocate at its sole discretion under a tight "
        "deadline does not weigh enough against dedicated capacity"),
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
