"""MFU-adjusted cost: from a workload and an offer to MFU, time to train and total cost.

Public API::

    from evaltool.estimate import estimate_offer, estimate_many, load_assumptions
"""

from __future__ import annotations

from evaltool.estimate.assumptions import assumption_values, load_assumptions
from evaltool.estimate.core import (
    estimate_many,
    estimate_offer,
    estimate_offers,
)
from evaltool.estimate.costs import buy_vs_rent
from evaltool.estimate.result import round_numbers
from evaltool.estimate.views import AcceleratorSpec

__all__ = [
    "AcceleratorSpec",
    "assumption_values",
    "buy_vs_rent",
    "estimate_many",
    "estimate_offer",
    "estimate_offers",
    "load_assumptions",
    "round_numbers",
]
