"""The clause lexicon (evaltool/data/clause_lexicon.yaml), loaded once and compiled.

The phrases, tiers, topics and firmer-wording templates are data, not code; this module
only turns them into compiled regular expressions so classification is one cheap pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from evaltool.errors import Location, Problem, UsageError
from evaltool.resources import data_dir

LEXICON_PATH = data_dir() / "clause_lexicon.yaml"
FLAGS = re.IGNORECASE


@dataclass(frozen=True)
class HedgeFamily:
    family: str
    tier: str
    kind: str  # "efforts" or "hedge"
    regex: GatedRegex
    source: str
    requires_supply_verb: bool = False
    anchor_cancels: bool = False
    needs_no_figure: bool = False


@dataclass(frozen=True)
class Lexicon:
    raw: dict[str, Any]
    hedges: tuple[HedgeFamily, ...]
    tier_order: tuple[str, ...]
    trigger_before: GatedRegex
    trigger_after: GatedRegex
    timing_anchor: GatedRegex
    discretion_supply: GatedRegex
    non_obligation: GatedRegex
    disclaimer: GatedRegex
    unilateral_change: GatedRegex
    unilateral_guard: GatedRegex
    liability_cap: GatedRegex
    indemnity: GatedRegex
    fm_marker: GatedRegex
    fm_excuse: GatedRegex
    remedy_strong: GatedRegex
    remedy_consequence: GatedRegex
    failure_trigger: GatedRegex
    customer_failure: GatedRegex
    self_help: GatedRegex
    exit_patterns: GatedRegex
    renewal: GatedRegex
    representation: GatedRegex
    lock_in: dict[str, GatedRegex]
    other_markers: dict[str, GatedRegex]
    stoplist: GatedRegex
    vendor_roles: tuple[str, ...]
    customer_roles: tuple[str, ...]
    both_roles: tuple[str, ...]
    customer_verbs: GatedRegex
    receipt_verbs: GatedRegex
    defined_term: GatedRegex
    hereinafter: GatedRegex
    topic_order: tuple[str, ...]
    topic_patterns: dict[str, GatedRegex]
    core_topics: frozenset[str]
    boilerplate_topics: frozenset[str]
    ask_for: dict[str, dict[str, str]]


def _alt(patterns: list[str]) -> str:
    return "|".join(f"(?:{p})" for p in patterns)


def _structure(pattern: str) -> Iterator[tuple[int, str, int]]:
    """(index, char, group depth after it) for each regex char outside classes and escapes."""
    depth, in_class, escaped = 0, False, False
    for i, ch in enumerate(pattern):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        else:
            depth += (ch == "(") - (ch == ")")
            yield i, ch, depth


def _top_level_split(pattern: str) -> list[str]:
    """Split a regex at its top-level '|' (outside groups, classes and escapes)."""
    parts: list[str] = []
    start = 0
    for i, ch, depth in _structure(pattern):
        if ch == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
    parts.append(pattern[start:])
    return parts


_LEADING_ASSERTION_RE = re.compile(r"^(?:\\b|\(\?<[!=](?:[^()\\]|\\.)*\))+")
_UPPER_LITERAL_RE = re.compile(r"(?<!\\)(?<!\?P<)(?<!\(\?-i:)[A-Z]")


def _gate_source(pattern: str) -> str:
    """A superset of ``pattern``: leading word boundaries and lookbehinds dropped, so the
    engine can use its fast first-character scan (a leading \\b disables it)."""
    pieces = []
    for part in _top_level_split(pattern):
        if _is_wrapped(part):
            inner = part[3:-1]
            if len(_top_level_split(inner)) > 1:
                pieces.append(_gate_source(inner))
                continue
            part = inner
        pieces.append(_LEADING_ASSERTION_RE.sub("", part))
    return "|".join(f"(?:{p})" for p in pieces)


def _is_wrapped(part: str) -> bool:
    """True when ``part`` is exactly one non-capturing group '(?:...)'."""
    return (part.startswith("(?:") and part.endswith(")")
            and _group_end(part) == len(part) - 1)


_MAX_POS = 2**62
_WORD_RUN_RE = re.compile(r"[a-z]+")
_QUANT_OPTIONAL = ("?", "*", "{0")


def _group_end(piece: str) -> int:
    """Index of the ')' closing the group that opens ``piece`` (-1 if none)."""
    for i, ch, depth in _structure(piece):
        if ch == ")" and depth == 0:
            return i
    return -1


def _word_prefixes(piece: str) -> list[str] | None:
    """Words, one of which must start a word of the text where ``piece`` matches.

    Reads only the start of the piece: a literal word ('liabilit' of 'liabilit(?:y|ies)'),
    a group of such alternatives, or an optional group followed by more (both sides
    count). None when the start is anything else (a class, a digit, an escape)."""
    m = _WORD_RUN_RE.match(piece)
    if m:
        word, rest = m.group(0), piece[m.end() :]
        if rest.startswith(_QUANT_OPTIONAL):
            word = word[:-1]
        return [word] if word else None
    if not piece.startswith("(?:"):
        return None
    end = _group_end(piece)
    if end < 0:
        return None
    words: list[str] = []
    for alt in _top_level_split(piece[3:end]):
        got = _word_prefixes(alt)
        if got is None:
            return None
        words.extend(got)
    rest = piece[end + 1 :]
    if rest.startswith(_QUANT_OPTIONAL):
        rest = rest[1:] if rest[0] in "?*" else rest[rest.index("}") + 1 :]
        rest = rest[1:] if rest.startswith("?") else rest  # lazy quantifier
        rest = re.sub(r"^\\s[+*]", "", rest)
        more = _word_prefixes(rest)
        if more is None:
            return None
        words.extend(more)
    return words


def _gate_keywords(pattern: str) -> frozenset[str] | None:
    """Keywords for the whole pattern, or None when some alternative cannot be gated.

    Only alternatives that start with a word boundary are gated: then a match must
    begin a word, and that word must start with one of the keywords."""
    keywords: list[str] = []
    for part in _top_level_split(pattern):
        if _is_wrapped(part):
            inner = part[3:-1]
            if len(_top_level_split(inner)) > 1:
                sub = _gate_keywords(inner)
                if sub is None:
                    return None
                keywords.extend(sub)
                continue
            part = inner
        body = re.sub(r"^(?:\(\?<[!=](?:[^()\\]|\\.)*\))+", "", part)
        if not body.startswith("\\b"):
            return None
        words = _word_prefixes(body[2:])
        if not words:
            return None
        keywords.extend(words)
    return frozenset(keywords)


class GatedRegex:
    """A case-insensitive regex that scans fast and verifies exactly.

    Python's engine cannot use its fast first-character scan when a pattern starts with
    a word boundary or lookbehind, nor well under IGNORECASE. So a *scan* pattern (the
    same regex without its leading assertions, matched on the lower-cased text without
    IGNORECASE; a superset) finds candidate start positions, and the exact regex is
    anchored there on the original text. Results are identical to ``regex.search``;
    matches come from the original text. Same search/finditer/match interface."""

    __slots__ = ("keywords", "pattern", "regex", "scan")
    keywords: tuple[str, ...] | None

    def __init__(self, pattern: str, flags: int = FLAGS) -> None:
        self.pattern = pattern
        self.regex = re.compile(pattern, flags)
        source = _gate_source(pattern)
        stripped = re.sub(r"\(\?-i:[^)]*\)|\\[A-Za-z]|\(\?P<\w+>", "", source)
        on_lower = bool(flags & re.IGNORECASE) and not _UPPER_LITERAL_RE.search(stripped)
        self.scan = re.compile(source, flags & ~re.IGNORECASE) if on_lower else None
        words = _gate_keywords(pattern) if on_lower else None
        # " word" substrings of the text with every non-word run turned into one space
        self.keywords = tuple(sorted(" " + w for w in words)) if words else None

    def search(self, text: str, pos: int = 0, endpos: int = _MAX_POS) -> re.Match[str] | None:
        if self.keywords is not None and len(text) > _GATE_MIN_CHARS:
            padded = _padded(text)
            if not any(k in padded for k in self.keywords):
                return None  # no word of the text starts like any alternative
        if self.scan is None:
            return self.regex.search(text, pos, endpos)
        low = _lower(text)
        if len(low) != len(text):  # lower-casing changed offsets (rare Unicode): exact path
            return self.regex.search(text, pos, endpos)
        scan, match = self.scan.search, self.regex.match
        while True:
            cand = scan(low, pos, endpos)
            if cand is None:
                return None
            m = match(text, cand.start(), endpos)
            if m is not None:
                return m
            pos = cand.start() + 1

    def finditer(self, text: str, pos: int = 0, endpos: int = _MAX_POS) -> Iterator[re.Match[str]]:
        if self.scan is None:
            yield from self.regex.finditer(text, pos, endpos)
            return
        while True:
            m = self.search(text, pos, endpos)
            if m is None:
                return
            yield m
            pos = m.end() if m.end() > m.start() else m.end() + 1

    def match(self, text: str, pos: int = 0, endpos: int = _MAX_POS) -> re.Match[str] | None:
        return self.regex.match(text, pos, endpos)


_LOWER_CACHE: dict[str, str] = {}


def _lower(text: str) -> str:
    """Lower-cased text, cached for the sentence being classified (many gates ask)."""
    low = _LOWER_CACHE.get(text)
    if low is None:
        if len(_LOWER_CACHE) > 256:
            _LOWER_CACHE.clear()
        low = _LOWER_CACHE[text] = text.lower()
    return low


_PADDED_CACHE: dict[str, str] = {}
_NON_WORD_RE = re.compile(r"\W+")
_GATE_MIN_CHARS = 80  # shorter texts: the regex itself is as cheap as the gate


def _padded(text: str) -> str:
    """' ' + the lower-cased text with each run of non-word characters made one space:
    a word starting with k exists iff ' ' + k occurs in it."""
    got = _PADDED_CACHE.get(text)
    if got is None:
        if len(_PADDED_CACHE) > 256:
            _PADDED_CACHE.clear()
        got = _PADDED_CACHE[text] = " " + _NON_WORD_RE.sub(" ", _lower(text))
    return got


def fast_compile(pattern: str, flags: int = FLAGS) -> GatedRegex:
    """Compile a case-insensitive regex with a fast gate (see GatedRegex)."""
    return GatedRegex(pattern, flags)


def _compile(pattern: str, key: str) -> GatedRegex:
    try:
        return GatedRegex(pattern, FLAGS)
    except re.error as exc:  # a broken lexicon is a configuration error, not a traceback
        raise UsageError(Problem(Location(str(LEXICON_PATH), key=key), found=pattern[:80],
                                 code="lexicon-invalid-regex", params={"reason": str(exc)})
                         ) from exc


@lru_cache(maxsize=1)
def load_lexicon(path: str | None = None) -> Lexicon:
    """Load and compile the lexicon (cached: the YAML is read once per process)."""
    import yaml  # safe_load only: the lexicon is data

    source = Path(path) if path else LEXICON_PATH
    try:
        raw: dict[str, Any] = yaml.safe_load(source.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise UsageError(Problem(Location(str(source)), code="lexicon-unreadable",
                                 params={"reason": str(exc)})) from exc

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
        unilateral_change=_compile(_alt(raw["unilateral_change"]["patterns"]), "unilateral_change"),
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
        defined_term=GatedRegex(parties["defined_term"], 0),  # case matters: defined terms
        hereinafter=_compile(parties["hereinafter"], "parties.hereinafter"),
        topic_order=tuple(topics["order"]),
        topic_patterns={
            k: _compile(v, f"topics.patterns.{k}") for k, v in topics["patterns"].items()
        },
        core_topics=frozenset(topics["core"]),
        boilerplate_topics=frozenset(topics["boilerplate"]),
        ask_for={k: v for k, v in raw["ask_for"].items() if k != "source"},
    )


# --------------------------------------------------------------------------- word gates
# A cheap necessary condition for a case-insensitive pattern: some word of the text starts
# like one of its alternatives, or the text holds a literal every match must contain.  Used
# to skip patterns that cannot match (results are those of the pattern itself).

_CASE_ODD: frozenset[str] | None
try:  # characters re's IGNORECASE pairs with a letter that str.lower() does not ('ı', 'ſ')
    from re._casefix import _EXTRA_CASES

    _CASE_ODD = frozenset(chr(c) for c in _EXTRA_CASES if c > 127)
except ImportError:  # pragma: no cover - another Python: every non-ASCII text goes exact
    _CASE_ODD = None


_DIGIT_RE = re.compile(r"\d")


def _required_literal(part: str) -> str | None:
    """The longest run of plain characters outside groups, classes and escapes that every
    match of ``part`` (one alternative) contains ('laufzeit' of '\\b\\w+laufzeit\\b')."""
    best, run, last = "", "", -2
    for i, ch, depth in _structure(part):
        plain = ch.isalnum() and not ch.isdigit() and depth == 0 and ch not in "()"
        if plain and i == last + 1:
            run += ch
        else:
            run = ch if plain else ""
        last = i if plain else -2
        following = part[i + 1 : i + 2]
        usable = run[:-1] if following and following in "?*{" else run
        best = max(best, usable, key=len)
        if following and following in "?*{":
            run, last = "", -2
    return best.lower() if len(best) >= 2 else None


class WordGates:
    """Which of several named patterns might match a text, found without running them: each
    pattern's alternatives give word starts ('storage' starting a word) or required literals
    ('laufzeit', '納期'); a pattern with an alternative giving neither is always a candidate.
    Word starts are looked up by each word's prefixes, so the cost is per word of the text,
    not per alternative."""

    def __init__(self, patterns: dict[str, list[str]]) -> None:
        self.by_prefix: dict[str, set[str]] = {}
        self.by_literal: dict[str, set[str]] = {}
        self.always: set[str] = set()
        self.need_digit: set[str] = set()
        for name, alternatives in patterns.items():
            for alt in (part for each in alternatives for part in _top_level_split(each)):
                words = _gate_keywords(f"(?:{alt})")
                literal = _required_literal(alt)
                if literal and (_CASE_ODD & set(literal) if _CASE_ODD is not None
                                else not literal.isascii()):
                    literal = None
                if words and (not literal or min(map(len, words)) >= min(3, len(literal))):
                    for word in words:
                        self.by_prefix.setdefault(word, set()).add(name)
                elif literal:  # also where a word start is one letter ('p' of 'p(?:eta)?flops')
                    self.by_literal.setdefault(literal, set()).add(name)
                elif alt.startswith("\\d"):  # '\d\s*cores': no digit, no match
                    self.need_digit.add(name)
                else:
                    self.always.add(name)
        self.lengths = sorted({len(k) for k in self.by_prefix})

    def candidates(self, low: str, padded: str) -> set[str]:
        found = set(self.always)
        by_prefix, lengths = self.by_prefix, self.lengths
        for word in set(padded.split()):
            for n in lengths:
                if n > len(word):
                    break
                names = by_prefix.get(word[:n])
                if names:
                    found |= names
        for literal, names in self.by_literal.items():
            if literal in low:
                found |= names
        if self.need_digit and _DIGIT_RE.search(low):
            found |= self.need_digit
        return found


def gate_texts(text: str) -> tuple[str, str] | None:
    """(lower-cased text, padded words) for WordGate.may_match, or None when lower-casing is
    not what IGNORECASE compares (a length change, 'ı', 'ſ'): then run every pattern."""
    low = _lower(text)
    if len(low) != len(text) or (not low.isascii() and (_CASE_ODD is None
                                                        or not _CASE_ODD.isdisjoint(low))):
        return None
    return low, _padded(text)
