"""Training and fine-tuning: FLOPs, fit, parallel layout, checkpoint and failure losses, MFU,
time to train and the money of the run."""

from __future__ import annotations

from evaltool.estimate import formulas as fm
from evaltool.estimate.costs import run_money
from evaltool.estimate.efficiency import peak_and_ceiling
from evaltool.estimate.layout import plan_layout
from evaltool.estimate.result import SECONDS_PER_HOUR, Result
from evaltool.estimate.timeline import preemptions_per_day, stretch_run
from evaltool.estimate.views import OfferView, Params, WorkloadView


def check_fit(wv: WorkloadView, ov: OfferView, p: Params, r: Result, inference: bool) -> None:
    if not ov.memory_gb:
        r.fit_reason = "GPU memory unknown: cannot check that the model fits."
        return
    bpp = (p.inference_bytes_per_param.get(wv.precision, 2.0) if inference
           else p.training_bytes_per_param)
    r.min_gpus_required = fm.min_gpus_by_memory(wv.params / 1e9, bpp,
                                                p.activation_memory_factor, ov.memory_gb)
    if ov.gpu_count is None:
        r.fit_reason = "GPU count unknown: cannot check that the model fits."
        return
    r.fits = ov.gpu_count >= r.min_gpus_required
    r.fit_reason = (
        f"{'fits' if r.fits else 'does not fit'}: needs at least {r.min_gpus_required} GPUs "
        f"of {ov.memory_gb:g} GB ({wv.params / 1e9:g}B params x {bpp:g} B x "
        f"{p.activation_memory_factor:g} / {ov.memory_gb:g} GB), offer has {ov.gpu_count}."
    )


def _gpus_used(wv: WorkloadView, ov: OfferView, r: Result) -> int | None:
    if ov.gpu_count is None:
        return None
    n = ov.gpu_count
    if wv.gpus_wanted is not None and wv.gpus_wanted < n:
        n = max(wv.gpus_wanted, r.min_gpus_required or 1)
        n = min(n, ov.gpu_count)
        r.gpus_note = (f"the offer has {ov.gpu_count} GPUs; the workload plans "
                       f"{wv.gpus_wanted}, so the run uses {n}.")
    else:
        r.gpus_note = f"the run uses all {n} GPUs of the offer."
    return n


def estimate_training(wv: WorkloadView, ov: OfferView, p: Params, r: Result) -> None:
    check_fit(wv, ov, p, r, inference=False)
    L, h, s = wv.n_layers, wv.d_model, wv.seq_len
    fpt = fm.palm_flops_per_token(wv.active_params, L, h, s)
    r.flops_per_token = fpt
    if wv.tokens is not None:
        r.total_flops = wv.tokens * fpt
    n = _gpus_used(wv, ov, r)
    r.gpus_used = n
    r.checkpoint_tb = p.checkpoint_bytes_per_param * wv.params / 1e12
    _storage_capacity(wv, ov, p, r)
    if n is None or not peak_and_ceiling(wv, ov, p, r):
        return
    assert r.peak_tflops is not None and r.base_mfu is not None
    peak = r.peak_tflops * 1e12
    base = r.base_mfu
    lay = plan_layout(n, wv, ov, p, peak, base, fpt) if ov.memory_gb else None
    if lay is None:
        r.notes.append("no parallel layout holds the model in GPU memory: MFU is the base "
                       "ceiling without parallelism losses, an optimistic bound.")
        step_mfu = base
        recompute = p.recompute
        r.losses = {}
    else:
        r.layout = lay
        recompute = lay.recompute
        u = lay.gpus / n
        scale = base * u / lay.t_step
        r.losses = {
            "network_loss": scale * lay.t_exposed,
            "tensor_parallel_loss": scale * lay.t_tp,
            "pipeline_bubble_loss": scale * lay.t_bubble,
            "recompute_loss": scale * lay.t_recompute,
            "idle_gpu_loss": base * (1.0 - u),
        }
        step_mfu = scale * lay.t_compute
        if lay.comm_gbyte_per_gpu > 0.0:
            r.required_gbit_s_per_gpu = 8.0 * fm.required_gbyte_s(
                lay.comm_gbyte_per_gpu * 1e9, lay.t_window, ov.network_factor, p.overlap)
        else:
            r.required_gbit_s_per_gpu = 0.0
    fpt_hw = fm.hardware_flops_per_token(wv.active_params, L, h, s, recompute)
    r.hardware_flops_per_token = fpt_hw

    # Checkpoints, failures and spot preemptions: the Young/Daly interval and what it costs
    # (Young 1974; Daly 2006). A preemption is a restart like a failure.
    stall = r.checkpoint_tb * 1e12 / (ov.write_gbyte_s * 1e9)
    failures = p.failures_per_gpu_day * n
    preemptions = preemptions_per_day(ov, p, n, r)
    mtbf_s = fm.SECONDS_PER_DAY / (failures + preemptions)
    tau, ck, fail = fm.checkpoint_overheads(stall, mtbf_s, p.restart_s)
    if ck + fail > 0.95:  # Young/Daly is invalid this far out; cap and say so
        scale_down = 0.95 / (ck + fail)
        ck, fail = ck * scale_down, fail * scale_down
        r.notes.append("checkpoint + failure overhead capped at 95%: the run cannot make progress.")
    r.stall_s, r.interval_s, r.mtbf_h = stall, tau, mtbf_s / SECONDS_PER_HOUR
    r.storage_frac, r.failure_frac = ck, fail
    r.losses["storage_loss"] = step_mfu * ck
    # Rework and restarts scale with the interruption rate: split them by cause.
    preempt = fail * preemptions / (failures + preemptions)
    r.preemption_frac = preempt
    r.losses["failure_loss"] = step_mfu * (fail - preempt)
    if preemptions:
        r.losses["preemption_loss"] = step_mfu * preempt
    r.mfu = step_mfu * (1.0 - ck - fail)
    r.hfu = r.mfu * fpt_hw / fpt
    r.tokens_per_s_per_gpu = peak * r.mfu / fpt
    if r.total_flops is not None and r.mfu > 0:
        stretch_run(ov, p, r, n, r.total_flops / (n * peak * r.mfu) / fm.SECONDS_PER_DAY)
    run_money(wv, ov, p, r)


def _storage_capacity(wv: WorkloadView, ov: OfferView, p: Params, r: Result) -> None:
    if wv.storage_needed_tb is not None:
        r.storage_needed_tb = wv.storage_needed_tb
    elif wv.tokens is not None and r.checkpoint_tb is not None:
        r.storage_needed_tb = (wv.tokens * p.dataset_bytes_per_token / 1e12
                               + p.checkpoints_kept * r.checkpoint_tb)
    if ov.storage_capacity_tb is not None:
        # A capacity the quote already states as usable ("1 PB usable", "nutzbar", "net")
        # is not cut again; a raw or unqualified figure gets the usable fraction.
        r.storage_usable_tb = ov.storage_capacity_tb * (
            1.0 if ov.storage_capacity_usable else p.storage_usable_fraction)
