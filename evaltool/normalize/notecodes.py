"""The registered issue codes the readers of normalize/ report with ``Builder.note``."""

from __future__ import annotations

from typing import Literal

# The codes a reader reports with Builder.note, its words from the code's template in
# evaltool/data/issues/: typed, so mypy refuses a code that is not one of them.
NoteCode = Literal[
    "accelerator-count-label", "accelerator-from-cell-text", "accelerator-label-not-a-name",
    "amount-in-assumed-usd", "amount-under-term-label", "annual-commitment-as-price",
    "assumed-value",
    "bandwidth-basis-unstated", "bare-figure-beside-unit", "bandwidth-not-a-node-figure",
    "bandwidth-per-gpu-per-node-disagree", "bandwidth-units",
    "contract-value-as-price", "cores-basis-unstated", "cores-per-cpu-assumed", "costs-combined",
    "count-from-labelled-counts", "credit-cap-from-ladder", "count-mismatch",
    "currency-sign-ambiguous",
    "currency-sign-assumed", "date-order-assumed", "date-order-read", "date-role-from-label",
    "date-span", "date-under-uptime-label", "decimal-or-thousands-assumed", "derivation-failed",
    "european-thousands", "figures-disagree",
    "formula-not-computed-value-from-elsewhere", "gpu-count-from-text", "gpu-count-label-per-node",
    "gpu-count-may-be-one-node",
    "gpu-count-of-one-node", "gpu-link-under-network-label", "gpus-per-node-from-text",
    "gpus-per-node-disagree",
    "implausible-value", "implausible-value-dropped", "implied-by-purchase",
    "label-shape-disagree", "label-without-reader", "line-discount-applied", "line-item-not-read",
    "line-total-mismatch", "list-price-discounted", "price-discount-unclear",
    "line-unit-unknown-one-off", "memory-unlike-catalog", "node-count-from-text",
    "node-disks-under-storage-label", "offer-name-from-title", "opex-holds-colocation",
    "period-under-date-label", "plausibility-check-not-run", "price-from-text",
    "price-from-total-over-hours", "price-tier-chosen", "price-tier-unchosen",
    "price-over-assumed-months",
    "purchase-without-running-cost", "recurring-price-basis-unknown",
    "region-cut-from-description", "region-from-text",
    "region-site-code", "rental-with-purchase-price", "second-compute-price",
    "sparse-peak-claimed", "stated-price-unlike-purchase", "storage-from-tb-months",
    "storage-price-by-unit", "total-is-contract-value", "upfront-amortised",
    "upfront-from-one-off-fee", "upfront-from-share-of-contract",
    "upfront-per-unit", "upfront-per-unit-disagrees", "value-conflict",
    "value-reads-as-count",
    "value-reads-as-egress-price", "value-reads-as-flops", "value-reads-as-network",
    "value-unreadable", "vendor-anonymised", "vendor-cut-from-description",
    "vendor-is-document-title",
    "vendor-is-a-figure", "vendor-is-facility-tier", "vendor-not-found", "vendor-not-labelled",
    "vendor-two-scripts"]
