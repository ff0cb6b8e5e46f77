"""Sentences of a shared note that belong to another offer of the same table.

A rate card prices several columns ("Month-to-month | 12-month reserved") and states their
terms once, below it: "* 12-month reserved billed monthly, no upfront. * Month-to-month: 30
days' notice."  Each offer reads the note, so the sentence that names another column (and not
its own) is that column's: the month-to-month offer does not take the 12-month term.
"""

from __future__ import annotations

import re

from evaltool.read.vocabulary import normalise_label

# Sentences and bullets: ". " or "; " between them, or a bullet mark starting one.
_SPLIT_RE = re.compile(r"(?<=[.;])\s+|\s*(?:^|\s)[*•·▪‣-]\s+")


def without_other_columns(text: str, option: str, columns: list[str]) -> str:
    """`text` without the sentences that name another of the table's `columns` and not the
    column of `option` (the offer's name holds its own column's label)."""
    name = f" {normalise_label(option)} "
    labels = {n for c in columns if (n := normalise_label(c))}
    own = {n for n in labels if f" {n} " in name}
    theirs = labels - own
    if not theirs or not own:
        return text
    kept = []
    for sentence in _SPLIT_RE.split(text):
        folded = f" {normalise_label(sentence)} "
        if any(f" {t} " in folded for t in theirs) and not any(f" {o} " in folded for o in own):
            continue
        kept.append(sentence)
    return " ".join(s for s in kept if s.strip())
