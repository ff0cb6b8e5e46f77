"""The clause lexicon (evaltool/data/clause_lexicon.yaml), loaded once and compiled.

The phrases, tiers, topics and firmer-wording templates are data, not code; this module
only turns them into compiled regular expressions so classification is one cheap pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from evaltool.errors import Location, Problem, UsageError

LEXICON_PATH = Path(__file__).resolve().parent.parent / "data" / "clause_lexicon.yaml"
FLAGS = re.IGNORECASE


@dataclass(frozen=True)
class HedgeFamily:
    family: str
    tier: str
    kind: str  # "efforts" or "hedge"
    regex: re.Pattern[str]
    source: str
    requires_supply_verb: bool = False
    anchor_cancels: bool = False
    needs_no_figure: bool = False


@dataclass(frozen=True)
class Lexicon:
    raw: dict[str, Any]
    hedges: tuple[HedgeFamily, ...]
    tier_order: tuple[str, ...]
    trigger_before: re.Pattern[str]
    trigger_after: re.Pattern[str]
    timing_anchor: re.Pattern[str]
    discretion_supply: re.Pattern[str]
    non_obligation: re.Pattern[str]
    disclaimer: re.Pattern[str]
    unilateral_change: re.Pattern[str]
    unilateral_guard: re.Pattern[str]
    liability_cap: re.Pattern[str]
    indemnity: re.Pattern[str]
    fm_marker: re.Pattern[str]
    fm_excuse: re.Pattern[str]
    remedy_strong: re.Pattern[str]
    remedy_consequence: re.Pattern[str]
    failure_trigger: re.Pattern[str]
    customer_failure: re.Pattern[str]
    self_help: re.Pattern[str]
    exit_patterns: re.Pattern[str]
    renewal: re.Pattern[str]
    representation: re.Pattern[str]
    lock_in: dict[str, re.Pattern[str]]
    other_markers: dict[str, re.Pattern[str]]
    stoplist: re.Pattern[str]
    vendor_roles: tuple[str, ...]
    customer_roles: tuple[str, ...]
    both_roles: tuple[str, ...]
    customer_verbs: re.Pattern[str]
    receipt_verbs: re.Pattern[str]
    defined_term: re.Pattern[str]
    hereinafter: re.Pattern[str]
    topic_order: tuple[str, ...]
    topic_patterns: dict[str, re.Pattern[str]]
    core_topics: frozenset[str]
    boilerplate_topics: frozenset[str]
    ask_for: dict[str, dict[str, str]]


def _alt(patterns: list[str]) -> str:
    return "|".join(f"(?:{p})" for p in patterns)


def _compile(pattern: str, key: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern, FLAGS)
    except re.error as exc:  # a broken lexicon is a configuration error, not a traceback
        raise UsageError(
            str(
                Problem(
                    Location(str(LEXICON_PATH), key=key),
                    "invalid regular expression",
                    found=pattern[:80],
                    expected=f"a Python regex ({exc})",
                )
            )
        ) from exc


@lru_cache(maxsize=1)
def load_lexicon(path: str | None = None) -> Lexicon:
    """Load and compile the lexicon (cached: the YAML is read once per process)."""
    import yaml  # safe_load only: the lexicon is data

    source = Path(path) if path else LEXICON_PATH
    try:
        raw: dict[str, Any] = yaml.safe_load(source.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise UsageError(f"{source}: cannot read the clause lexicon ({exc})") from exc

    hedges = []
    for i, fam in enumerate(raw["hedge_families"]):
        hedges.append(
            HedgeFamily(
                family=fam["family"],
                tier=fam["tier"],
                kind=fam["kind"],
                regex=_compile(_alt(fam["patterns"]), f"hedge_families[{i}].patterns"),
                source=fam["source"],
                requires_supply_verb=bool(fam.get("requires_supply_verb", False)),
                anchor_cancels=bool(fam.get("anchor_cancels", False)),
                needs_no_figure=bool(fam.get("needs_no_figure", False)),
            )
        )
    remedy = raw["remedy"]
    exit_ = raw["termination_exit"]
    parties = raw["parties"]
    topics = raw["topics"]
    return Lexicon(
        raw=raw,
        hedges=tuple(hedges),
        tier_order=tuple(raw["efforts_tiers"]["order"]),
        trigger_before=_compile(raw["trigger_context"]["before"], "trigger_context.before"),
        trigger_after=_compile(raw["trigger_context"]["after"], "trigger_context.after"),
        timing_anchor=_compile(raw["timing_anchor"], "timing_anchor"),
        discretion_supply=_compile(raw["discretion_supply"], "discretion_supply"),
        non_obligation=_compile(_alt(raw["non_obligation"]["patterns"]), "non_obligation"),
        disclaimer=_compile(_alt(raw["disclaimer"]["patterns"]), "disclaimer"),
        unilateral_change=_compile(
            _alt(raw["unilateral_change"]["patterns"]), "unilateral_change"
        ),
        unilateral_guard=_compile(raw["unilateral_change"]["guard"], "unilateral_change.guard"),
        liability_cap=_compile(_alt(raw["liability_cap"]["patterns"]), "liability_cap"),
        indemnity=_compile(raw["indemnity"], "indemnity"),
        fm_marker=_compile(raw["force_majeure"]["marker"], "force_majeure.marker"),
        fm_excuse=_compile(raw["force_majeure"]["excuse"], "force_majeure.excuse"),
        remedy_strong=_compile(_alt(remedy["strong"]), "remedy.strong"),
        remedy_consequence=_compile(remedy["consequence"], "remedy.consequence"),
        failure_trigger=_compile(remedy["failure_trigger"], "remedy.failure_trigger"),
        customer_failure=_compile(remedy["customer_failure"], "remedy.customer_failure"),
        self_help=_compile(remedy["self_help"], "remedy.self_help"),
        exit_patterns=_compile(_alt(exit_["patterns"]), "termination_exit.patterns"),
        renewal=_compile(exit_["renewal"], "termination_exit.renewal"),
        representation=_compile(exit_["representation"], "termination_exit.representation"),
        lock_in={
            k: _compile(v, f"lock_in.{k}") for k, v in raw["lock_in"].items() if k != "source"
        },
        other_markers={
            k: _compile(v, f"other_markers.{k}")
            for k, v in raw["other_markers"].items()
            if k != "source"
        },
        stoplist=_compile(_alt(raw["stoplist"]["patterns"]), "stoplist"),
        vendor_roles=tuple(parties["vendor_roles"]),
        customer_roles=tuple(parties["customer_roles"]),
        both_roles=tuple(parties["both_roles"]),
        customer_verbs=_compile(parties["customer_verbs"], "parties.customer_verbs"),
        receipt_verbs=_compile(parties["receipt_verbs"], "parties.receipt_verbs"),
        defined_term=re.compile(parties["defined_term"]),  # case matters: defined terms
        hereinafter=re.compile(parties["hereinafter"], FLAGS),
        topic_order=tuple(topics["order"]),
        topic_patterns={
            k: _compile(v, f"topics.patterns.{k}") for k, v in topics["patterns"].items()
        },
        core_topics=frozenset(topics["core"]),
        boilerplate_topics=frozenset(topics["boilerplate"]),
        ask_for={k: v for k, v in raw["ask_for"].items() if k != "source"},
    )
