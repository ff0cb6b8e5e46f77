"""Clause classifier against labelled sentence sets, next to a keyword baseline; speed.

Prints, for each set, per-kind precision / recall / F1 of the classifier and of a keyword
baseline (for weak_commitment: "effort"/"endeavo"), how many firm commitments are flagged
weak, and the time to analyse a ~50,000-word contract. Sets:

* ``real-gpu-cloud-dev.csv`` (8 kinds: weak/firm commitment, remedy, liability_cap,
  termination_exit, lock_in, unilateral_change, none; an optional second label ``also``),
* ``cuad-dev.csv`` (6 labels: lock_in, unilateral_change and none count as ``other``),
* any CSV given with ``--set PATH`` (columns ``text`` and ``label``, optional ``also``).

Scores are on the primary label (strict); the "lenient" accuracy also accepts ``also``.
Run from the repo root:

    .venv/bin/python benchmarks/clauses_eval.py [--set PATH ...] [--errors] [--no-speed]
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaltool.clauses import analyse_text  # noqa: E402
from evaltool.clauses.classify import classify_detail  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "clauses"
REAL_CSV = SHARED / "real-gpu-cloud-dev.csv"
CUAD_CSV = SHARED / "cuad-dev.csv"
FIXTURE = ROOT / "tests" / "fixtures" / "contracts" / "gpu_cloud_msa.md"

KINDS = (
    "weak_commitment",
    "firm_commitment",
    "remedy",
    "liability_cap",
    "termination_exit",
    "lock_in",
    "unilateral_change",
    "none",
)
CUAD_LABELS = (
    "weak_commitment",
    "firm_commitment",
    "remedy",
    "liability_cap",
    "termination_exit",
    "other",
)

# The keyword baseline: one search per kind, first hit in this order wins, else "none".
# Only a yardstick (what a reviewer's Ctrl-F finds), never used by the package.
BASELINE: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.IGNORECASE))
    for kind, pattern in (
        ("weak_commitment", r"effort|endeavo"),
        ("liability_cap", r"liab"),
        ("remedy", r"credit|refund"),
        ("termination_exit", r"terminat|renew"),
        ("lock_in", r"exclusiv|non-?refundable|egress|minimum commit"),
        ("unilateral_change", r"reserve[sd]? the right|may (?:change|modify|update|amend)"),
        ("firm_commitment", r"\b(?:shall|will|must|guarantee)"),
    )
)


def baseline(text: str) -> str:
    for kind, regex in BASELINE:
        if regex.search(text):
            return kind
    return "none"


def predict(text: str) -> str:
    return classify_detail(text).kind8


def _to_cuad(label: str) -> str:
    return label if label in CUAD_LABELS else "other"


def _prf(pairs: list[tuple[str, str]], kind: str) -> tuple[int, int, float, float, float]:
    tp = sum(1 for g, p in pairs if g == kind and p == kind)
    n_gold = sum(1 for g, _ in pairs if g == kind)
    n_pred = sum(1 for _, p in pairs if p == kind)
    prec = tp / n_pred if n_pred else 0.0
    rec = tp / n_gold if n_gold else 0.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    return n_gold, n_pred, prec, rec, f1


def evaluate(
    path: Path, show_errors: bool, predictor: Callable[[str], str] = predict
) -> dict[str, float]:
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    cuad = not any(r["label"] in ("none", "lock_in", "unilateral_change") for r in rows) and any(
        r["label"] == "other" for r in rows
    )
    labels = CUAD_LABELS if cuad else KINDS
    norm = _to_cuad if cuad else (lambda x: x)
    start = time.perf_counter()
    preds = [norm(predictor(r["text"])) for r in rows]
    elapsed = time.perf_counter() - start
    base = [norm(baseline(r["text"])) for r in rows]
    gold = [r["label"] for r in rows]
    also = [r.get("also") or "" for r in rows]
    pairs = list(zip(gold, preds, strict=True))
    base_pairs = list(zip(gold, base, strict=True))

    print(f"\n== {path.name}: {len(rows)} sentences, classified in {elapsed * 1000:.0f} ms")
    print(f"{'kind':<18}{'n':>4}{'pred':>5}{'prec':>7}{'rec':>7}{'f1':>7}   "
          f"{'keyword baseline: prec':>22}{'rec':>6}{'f1':>6}")
    out: dict[str, float] = {}
    for kind in labels:
        n, npred, p, r, f = _prf(pairs, kind)
        _, _, bp, br, bf = _prf(base_pairs, kind)
        out[f"{kind}.precision"], out[f"{kind}.recall"], out[f"{kind}.f1"] = p, r, f
        print(f"{kind:<18}{n:>4}{npred:>5}{p:>7.2f}{r:>7.2f}{f:>7.2f}   "
              f"{bp:>22.2f}{br:>6.2f}{bf:>6.2f}")
    acc = sum(1 for g, p in pairs if g == p) / len(pairs)
    lenient = sum(1 for (g, p), a in zip(pairs, also, strict=True) if p in (g, a)) / len(pairs)
    out["accuracy"] = acc
    print(f"accuracy: {acc:.3f} (lenient, accepting 'also': {lenient:.3f})")
    firm = [p for g, p in pairs if g == "firm_commitment"]
    firm_weak = sum(1 for p in firm if p == "weak_commitment")
    out["firm_flagged_weak"] = firm_weak
    print(f"firm commitments flagged weak: {firm_weak}/{len(firm)}")

    confusion = Counter((g, p) for g, p in pairs if g != p)
    print("most common confusions (gold -> predicted):")
    for (g, p), n in confusion.most_common(6):
        print(f"  {g:<17} -> {p:<17} {n}")
    if show_errors:
        print("errors:")
        for row, g, p, a in zip(rows, gold, preds, also, strict=True):
            if p not in (g, a):
                print(f"  {row.get('id', '')} gold={g}{'+' + a if a else ''} pred={p} | "
                      f"{row['text'][:200]}")
    return out


def _long_contract(target_words: int = 50_000) -> str:
    """A ~100-page contract: the fixture MSA's clauses and dev sentences, renumbered."""
    parts: list[str] = []
    base = FIXTURE.read_text(encoding="utf-8") if FIXTURE.exists() else ""
    dev: list[str] = []
    for csv_path in (CUAD_CSV, REAL_CSV):
        if csv_path.exists():
            dev += [r["text"] for r in csv.DictReader(csv_path.open(encoding="utf-8"))]
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
    parser.add_argument("--set", dest="sets", type=Path, action="append", default=[],
                        help="another labelled CSV (columns text, label, optional also)")
    parser.add_argument("--only", action="store_true", help="measure only the --set files")
    parser.add_argument("--errors", action="store_true", help="list every misclassified row")
    parser.add_argument("--no-speed", action="store_true")
    args = parser.parse_args()
    paths = ([] if args.only else [REAL_CSV, CUAD_CSV]) + list(args.sets)
    for path in paths:
        if not path.exists():
            print(f"set not found: {path}", file=sys.stderr)
            continue
        evaluate(path, args.errors)
    if not args.no_speed:
        speed()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
