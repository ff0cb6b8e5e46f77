"""A vendor's right to deliver slower hardware than quoted: the time it puts at risk.

A contract may let the vendor, at its discretion, provide "equivalent or comparable"
accelerators in place of those quoted, and may name them ("which may include NVIDIA A100
80GB, H100 PCIe or L40S systems"). A buyer with a deadline plans for what the contract lets
the vendor deliver: the run on the slowest named substitute (its dense peak at the run's
precision against the quoted one's, from the catalog) takes longer, and the extra days
count against the deadline and in the cost of delay. The money of the run stays on the
hardware quoted (the fees do not change). A right that needs the customer's consent, or
that names only hardware at least as fast, puts nothing at risk. A right that names no
hardware cannot be counted: it is flagged (``hardware-substitution``) and left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from evaltool.catalog import (
    UndefinedPrecisionError,
    UnknownAcceleratorError,
    load_catalog,
)
from evaltool.clauses.schedules import words
from evaltool.estimate.timeline import lengthen_run
from evaltool.models import Estimates, OfferFields, Workload

FLAGS = re.IGNORECASE


@lru_cache(maxsize=1)
def _res() -> dict[str, re.Pattern[str]]:
    return {k: re.compile(v, FLAGS) for k, v in words()["substitution"].items()}


def substitution_right(sentence: str) -> bool:
    """Whether the sentence gives the vendor a right to deliver other hardware without the
    customer's consent."""
    res = _res()
    if not (res["verb"].search(sentence) and res["other"].search(sentence)
            and res["discretion"].search(sentence)) or res["denied"].search(sentence):
        return False
    # "only with Customer's prior written consent" takes the right away; "without the
    # Customer's consent" does not.
    return not any(not res["without"].search(sentence[max(0, m.start() - 40):m.start()])
                   for m in res["consent"].finditer(sentence))


def named_accelerators(sentence: str, quoted: str | None = None) -> list[str]:
    """Catalog ids of the accelerators a sentence names, other than the quoted one."""
    catalog = load_catalog()
    out: list[str] = []
    for chunk in re.split(r"[,;()/]|\bor\b|\band\b|\boder\b|\bund\b|\bou\b|\bet\b", sentence):
        if not re.search(r"[A-Za-z]+\d|\d+[A-Za-z]", chunk):
            continue
        try:
            found = catalog.recognise(chunk.strip())
        except (UnknownAcceleratorError, ValueError):
            continue
        if found.id != quoted and found.id not in out:
            out.append(found.id)
    return out


def slowest_substitute(quoted: str | None, substitutes: Sequence[str],
                       precision: str) -> tuple[str, float] | None:
    """(the slowest named substitute, its dense peak over the quoted one's) when slower."""
    if not quoted or not substitutes:
        return None
    catalog = load_catalog()
    try:
        peak = float(catalog.get(quoted).dense_tflops_for(precision))
    except (UnknownAcceleratorError, UndefinedPrecisionError, KeyError):
        return None
    slowest: tuple[str, float] | None = None
    for acc in substitutes:
        try:
            ratio = float(catalog.get(acc).dense_tflops_for(precision)) / peak
        except (UnknownAcceleratorError, UndefinedPrecisionError, KeyError):
            continue
        if ratio < 1.0 and (slowest is None or ratio < slowest[1]):
            slowest = (acc, ratio)
    return slowest


def with_substitution(estimates: Estimates, fields: OfferFields,
                      substitutes: Sequence[str] | None, workload: Workload) -> Estimates:
    """The estimates with the run on the slowest substitute the vendor may deliver."""
    if not substitutes or estimates.time_to_train_days is None:
        return estimates
    slowest = slowest_substitute(fields.accelerator, substitutes, workload.precision)
    if slowest is None:
        return estimates
    accelerator, ratio = slowest
    before = float(estimates.time_to_train_days)
    added = before * (1.0 / ratio - 1.0)
    return lengthen_run(estimates, "slower_substitute", added, workload,
                        substitute_accelerator=accelerator, substitute_peak_ratio=ratio)
