"""Achievable compute: the dense peak, the measured matmul ceiling and the software efficiency
(per precision, MoE and accelerator family) that make the base MFU, and its range."""

from __future__ import annotations

from evaltool.estimate.result import Result
from evaltool.estimate.views import OfferView, Params, WorkloadView


def peak_and_ceiling(wv: WorkloadView, ov: OfferView, p: Params, r: Result) -> bool:
    peak = ov.peak_tflops.get(wv.precision)
    if peak is None:
        r.notes.append(f"no dense {wv.precision} peak for {ov.accelerator or 'this accelerator'}: "
                       "compute estimates are not possible.")
        return False
    r.peak_tflops = peak
    ceiling = ov.matmul_efficiency.get(wv.precision)
    if ceiling is None:
        ceiling = p.matmul_efficiency_fallback
        r.assumed.append(f"no measured {wv.precision} matmul ceiling for "
                         f"{ov.accelerator or 'this accelerator'}: assumed {ceiling:g} of peak.")
    r.matmul_efficiency = ceiling
    if wv.software_efficiency is not None:
        soft = wv.software_efficiency
    else:
        soft = p.software_efficiency
        if wv.precision == "fp8":
            soft *= p.fp8_software_factor
        if wv.is_moe:
            soft *= p.moe_software_factor
    r.software_efficiency = soft
    r.base_mfu = ceiling * soft
    return True
