"""One issue model: every problem, warning, flag, finding and gate reason has a stable code.

In the manner of frictionless-py's errors (each error type has a code, a title, a
description and a message template), every message evaltool gives a user is an issue of a
registered *type*. The types live in data, one YAML file per pipeline stage under
``evaltool/data/issues/``, so the catalogue grows without Python edits and without two
stages editing one file. ``evaltool explain CODE`` prints a type's description and template.

A stage states what it found as ``params`` (numbers and short strings, JSON-safe) and the
words come from the type's ``message`` template (``str.format`` with named fields, e.g.
``"{count:,} rows; refused"``); ``expected`` and ``found`` may have templates too. Where
frictionless passes a free ``note``, a parameter here only ever carries what was read or
what a third-party parser said (``reason``), never a sentence of ours.

Exit codes, filters, the memo and the exports select issues by ``code``, never by text.

Kept free of third-party imports except where a function needs YAML: the CLI imports this
module at start-up.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Mapping
from dataclasses import dataclass, fields
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import Any, Literal

Severity = Literal["error", "high", "medium", "low", "info", "warning"]

# What an issue's parameters may hold: JSON-safe scalars, so the JSON and the memo carry the
# same values the template was rendered from.
Param = str | int | float | bool | None
_PARAM_TYPES = (str, int, float, bool)

# The parts of an issue a type may give a template for, in the order they are rendered.
TEMPLATE_PARTS = ("message", "found", "expected")

# One ranking for every kind of issue: an input error stops an offer; buyer-facing flags and
# findings go high → info; "warning" is a reader's note that changes no decision on its own.
SEVERITY_ORDER: dict[str, int] = {
    "error": 0, "high": 1, "medium": 2, "warning": 3, "low": 4, "info": 5,
}

ISSUE_TYPES_DIR = Path(__file__).resolve().parent / "data" / "issues"


def severity_rank(severity: str) -> int:
    """Sort key: the most severe first; unknown severities last."""
    return SEVERITY_ORDER.get(severity, len(SEVERITY_ORDER))


@dataclass(frozen=True)
class Location:
    """Where something was read: a file plus a sheet and cell, or a key path, or a span."""

    file: str
    sheet: str | None = None
    cell: str | None = None
    key: str | None = None

    def __str__(self) -> str:
        text = self.file
        for part in (self.sheet, self.cell, self.key):
            if part:
                text += f" › {part}"
        return text

    def to_dict(self) -> dict[str, Any]:
        # Its fields are text: a shallow dict is asdict()'s without its deep copy (a tenth of
        # normalising an offer at 10,000 offers, benchmarks/limits.py).
        # (its field names listed once: dataclasses.fields() on every call cost more than
        # the dict, 10,000 calls in a batch of 165 quotes)
        return {name: value for name in _LOCATION_FIELDS
                if (value := getattr(self, name)) is not None}


_LOCATION_FIELDS = tuple(f.name for f in fields(Location))


@dataclass(frozen=True)
class IssueType:
    """A registered kind of issue: what ``evaltool explain CODE`` prints."""

    code: str
    stage: str
    title: str
    severity: str
    description: str
    message: str | None = None  # the template of an occurrence's message (str.format fields)
    found: str | None = None  # templates of what was found and expected, when they are words
    expected: str | None = None
    # A flag, finding or gate reason is not rendered from a template: its sentence needs
    # grammar a format string cannot carry (plurals, optional clauses, money in the memo's
    # roundings), so one module of evaltool/report/ writes it from the figures it carries.
    words: str | None = None

    def templates(self) -> dict[str, str]:
        """The type's templates by part (message, found, expected), those it has."""
        return self._templates

    @functools.cached_property
    def _templates(self) -> dict[str, str]:
        # worked out once per type: every occurrence of an issue renders its templates
        return {part: text for part in TEMPLATE_PARTS if (text := getattr(self, part))}

    @functools.cached_property
    def param_names(self) -> frozenset[str]:
        """The parameter names its templates use: exactly the params an occurrence passes."""
        return frozenset(name for text in self.templates().values()
                         for name in template_fields(text))

    def render(self, params: Mapping[str, Param]) -> dict[str, str]:
        """Every template of the type rendered with ``params``; a missing or an unused
        parameter is a bug at the call site and raises ValueError naming the code."""
        names = set(params)
        if names != self.param_names:
            raise ValueError(
                f"issue {self.code!r}: params {sorted(names)} do not match its templates' "
                f"fields {sorted(self.param_names)}")
        for name, value in params.items():
            if value is not None and not isinstance(value, _PARAM_TYPES):
                raise ValueError(f"issue {self.code!r}: param {name!r} is a "
                                 f"{type(value).__name__}, not a number or short text")
        try:
            return {part: text.format_map(params) for part, text in self.templates().items()}
        except (TypeError, ValueError) as exc:  # a value its format spec cannot take
            raise ValueError(f"issue {self.code!r}: params do not fit its templates: {exc}"
                             ) from None


def template_fields(template: str) -> list[str]:
    """The named fields of a ``str.format`` template, in order ("{size:,} of {limit}" ->
    size, limit). Only plain names are allowed: no positional, attribute or index fields."""
    names = []
    for _, name, _, _ in string.Formatter().parse(template):
        if name is None:
            continue
        if not name.isidentifier():
            raise ValueError(f"template field {name!r} is not a plain name: {template!r}")
        names.append(name)
    return names


@functools.cache
def issue_types() -> dict[str, IssueType]:
    """Every registered issue type, by code (read once from ``data/issues/*.yaml``)."""
    import yaml  # imported here: the CLI's --help must not pay for it

    types: dict[str, IssueType] = {}
    for path in sorted(ISSUE_TYPES_DIR.glob("*.yaml")):
        stage = path.stem
        entries = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for code, entry in entries.items():
            if code in types:
                raise ValueError(f"issue code {code!r} is registered twice ({path})")
            types[code] = IssueType(
                code=code,
                stage=stage,
                title=str(entry["title"]),
                severity=str(entry.get("severity", "warning")),
                description=" ".join(str(entry["description"]).split()),
                **{part: str(entry[part]) for part in TEMPLATE_PARTS if entry.get(part)},
                words=str(entry["words"]) if entry.get("words") else None,
            )
    return types


def issue_type(code: str) -> IssueType:
    """The registered type of ``code``; a KeyError names the code when it is unknown."""
    try:
        return issue_types()[code]
    except KeyError:
        raise KeyError(f"unknown issue code {code!r}") from None


def is_registered(code: str) -> bool:
    return code in issue_types()


@dataclass(frozen=True)
class Issue:
    """One thing to tell the user: its code, how bad, where, what was found and expected.

    Built as ``Issue(where, code="...", params={...})``: ``message`` (and ``found`` and
    ``expected`` where the type has templates for them and none is given) are rendered from
    the registered type's templates, so the words live in ``data/issues/*.yaml`` and the
    stage states only numbers and what it read. ``issue_type(code).description`` says what
    the code means in general.

    The older form ``Issue(where, "a message", ...)`` still works while call sites move:
    tests/test_issue_templates.py keeps the shrinking list of the codes still given a message
    directly. ``code`` defaults to the generic ``invalid-input`` only for those.
    """

    where: Location | None
    message: str = ""
    field: str | None = None
    found: str | None = None
    expected: str | None = None
    severity: Severity = "error"
    code: str = "invalid-input"
    params: Mapping[str, Param] = dataclass_field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        if self.message and not self.params:
            return  # a message given directly (a code on the debt list)
        rendered = issue_type(self.code).render(self.params)
        if "message" not in rendered:
            raise ValueError(f"issue {self.code!r} has no message template; give it one in "
                             "evaltool/data/issues/")
        if self.message and self.message != rendered["message"]:
            raise ValueError(f"issue {self.code!r}: give params or a message, not both")
        object.__setattr__(self, "params", dict(self.params))
        for part, text in rendered.items():
            if part == "message" or getattr(self, part) is None:
                object.__setattr__(self, part, text)

    def __str__(self) -> str:
        text = f"{self.where}: " if self.where else ""
        if self.field:
            text += f"{self.field}: "
        text += self.message
        if self.found is not None:
            text += f" (found {self.found!r}"
            text += f", expected {self.expected})" if self.expected else ")"
        elif self.expected:
            text += f" (expected {self.expected})"
        return text

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code}
        if self.where is not None:
            data["where"] = self.where.to_dict()
        data["text"] = str(self)
        for name in ("field", "found", "expected", "message", "severity"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        if self.params:  # the values the message was rendered from, for exports and filters
            data["params"] = dict(self.params)
        return data
