"""Clause classifier against the labelled dev set, and analysis speed on a long contract.

Prints per-label precision/recall, the weak-vs-rest confusion, firm commitments flagged
weak, flags on "reasonable" in unrelated senses, and the time to analyse a ~50,000-word
contract. Run from the repo root:

    PYTHONPATH=. .venv/bin/python benchmarks/clauses_eval.py [--errors] [--no-speed]
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaltool.clauses import analyse_text, classify_sentence  # noqa: E402
from evaltool.clauses.lexicon import load_lexicon  # noqa: E402
from evaltool.clauses.models import DEV_LABELS  # noqa: E402

DEV_CSV = ROOT.parent / "shared" / "data" / "clauses" / "cuad-dev.csv"
FIXTURE = ROOT / "tests" / "fixtures" / "contracts" / "gpu_cloud_msa.md"


def evaluate(path: Path, show_errors: bool) -> dict[str, float]:
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    pairs: list[tuple[str, str, dict[str, str]]] = []
    obligors: list[tuple[str, str]] = []
    start = time.perf_counter()
    for row in rows:
        label, obligor = classify_sentence(row["text"])
        pairs.append((row["label"], label, row))
        obligors.append((row["obligor"], obligor))
    elapsed = time.perf_counter() - start

    print(f"dev set: {path.name}, {len(rows)} sentences, classified in {elapsed * 1000:.1f} ms")
    print(f"{'label':<18}{'n':>5}{'pred':>6}{'prec':>8}{'recall':>8}{'f1':>7}")
    out: dict[str, float] = {}
    for lab in DEV_LABELS:
        tp = sum(1 for g, p, _ in pairs if g == lab and p == lab)
        n_gold = sum(1 for g, _, _ in pairs if g == lab)
        n_pred = sum(1 for _, p, _ in pairs if p == lab)
        prec = tp / n_pred if n_pred else 0.0
        rec = tp / n_gold if n_gold else 0.0
        f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
        out[f"{lab}.precision"], out[f"{lab}.recall"] = prec, rec
        print(f"{lab:<18}{n_gold:>5}{n_pred:>6}{prec:>8.3f}{rec:>8.3f}{f1:>7.3f}")
    acc = sum(1 for g, p, _ in pairs if g == p) / len(pairs)
    print(f"accuracy (6 labels): {acc:.3f}")
    obligor_acc = sum(1 for g, p in obligors if g == p) / len(obligors)
    out["obligor_accuracy"] = obligor_acc
    print(f"obligor agreement (vendor/customer/both/unknown): {obligor_acc:.3f}")

    tp = sum(1 for g, p, _ in pairs if g == "weak_commitment" and p == "weak_commitment")
    fn = sum(1 for g, p, _ in pairs if g == "weak_commitment" and p != "weak_commitment")
    fp = sum(1 for g, p, _ in pairs if g != "weak_commitment" and p == "weak_commitment")
    tn = len(pairs) - tp - fn - fp
    print("\nweak vs rest confusion      pred weak   pred rest")
    print(f"  gold weak_commitment    {tp:>10}  {fn:>10}")
    print(f"  gold rest               {fp:>10}  {tn:>10}")

    firm = [(g, p) for g, p, _ in pairs if g == "firm_commitment"]
    firm_weak = sum(1 for _, p in firm if p == "weak_commitment")
    out["firm_flagged_weak_share"] = firm_weak / len(firm)
    print(f"firm commitments flagged weak: {firm_weak}/{len(firm)} ({firm_weak / len(firm):.1%})")

    stop = load_lexicon().stoplist
    unrelated = [(g, p) for g, p, r in pairs if stop.search(r["text"]) and g != "weak_commitment"]
    flagged = sum(1 for _, p in unrelated if p == "weak_commitment")
    out["unrelated_reasonable_flagged"] = flagged
    print(
        f"'reasonable' in unrelated senses (non-weak rows with a stop-list phrase): "
        f"{flagged}/{len(unrelated)} flagged weak"
    )

    confusion = Counter((g, p) for g, p, _ in pairs if g != p)
    print("\nmost common confusions (gold -> predicted):")
    for (g, p), n in confusion.most_common(8):
        print(f"  {g:<17} -> {p:<17} {n}")
    if show_errors:
        print("\nerrors:")
        for g, p, r in pairs:
            if g != p:
                print(f"  {r['id']} gold={g} pred={p} | {r['text'][:160]}")
    return out


def _long_contract(target_words: int = 50_000) -> str:
    """A ~100-page contract: the fixture MSA's clauses and dev sentences, renumbered."""
    parts: list[str] = []
    base = FIXTURE.read_text(encoding="utf-8") if FIXTURE.exists() else ""
    dev = []
    if DEV_CSV.exists():
        dev = [r["text"] for r in csv.DictReader(DEV_CSV.open(encoding="utf-8"))]
    words = 0
    section = 0
    while words < target_words:
        section += 1
        block = base.replace("## ", f"## {section}.") if base else ""
        chunk = dev[(section * 37) % max(len(dev), 1) :][:40]
        text = block + "\n\n" + f"{section}.99 Additional Terms\n\n" + " ".join(chunk) + "\n"
        parts.append(text)
        words += len(text.split())
    return "\n".join(parts)


def speed() -> None:
    text = _long_contract()
    n_words = len(text.split())
    analyse_text(text[:2000], "warmup.md", vendor_names=("Acme GPU Cloud",))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        result = analyse_text(text, "long-contract.md", vendor_names=("Acme GPU Cloud",))
        best = min(best, time.perf_counter() - start)
    print(
        f"\nlong contract: {n_words} words, {len(text)} chars -> "
        f"{len(result.findings)} findings, {len(result.figures)} figures; "
        f"analysed in {best:.2f} s (best of 3; target < 2 s)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--csv", type=Path, default=DEV_CSV)
    parser.add_argument("--errors", action="store_true", help="list every misclassified row")
    parser.add_argument("--no-speed", action="store_true")
    args = parser.parse_args()
    if not args.csv.exists():
        print(f"dev set not found: {args.csv}", file=sys.stderr)
        return 2
    evaluate(args.csv, args.errors)
    if not args.no_speed:
        speed()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
