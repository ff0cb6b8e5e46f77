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
    low, high = 1.0, 1.0
    if wv.software_efficiency is not None:
        soft = wv.software_efficiency
    else:
        soft = p.software_efficiency
        low, high = p.software_efficiency_low / soft, p.software_efficiency_high / soft
        if wv.precision == "fp8":
            soft *= p.fp8_software_factor
        if wv.is_moe:
            # Measured against dense runs at the same precision: an FP8 MoE run gets the FP8
            # factor once (above) and the FP8 MoE penalty, never a BF16-equivalent ratio that
            # already contains FP8's speed-up.
            moe, moe_low, moe_high = (p.moe_fp8_software_factor if wv.precision == "fp8"
                                      else p.moe_software_factor)
            soft *= moe
            low, high = low * moe_low / moe, high * moe_high / moe
        family = p.accelerator_factor.get(ov.accelerator or "")
        if family is not None:
            factor, f_low, f_high = family
            soft *= factor
            low, high = low * f_low / factor, high * f_high / factor
    r.software_efficiency = soft
    r.base_mfu = ceiling * soft
    r.mfu_low_factor, r.mfu_high_factor = low, high
    return True

