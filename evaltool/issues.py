"""One issue model: every problem, warning, flag, finding and gate reason has a stable code.

In the manner of frictionless-py's errors (each error type has a code, a title, a
description and a message template), every message evaltool gives a user is an issue of a
registered *type*. The types live in data, one YAML file per pipeline stage under
``evaltool/data/issues/``, so the catalogue grows without Python edits and without two
stages editing one file. ``evaltool explain CODE`` prints a type's description.

Exit codes, filters, the memo and the exports select issues by ``code``, never by text.

Kept free of third-party imports except where a function needs YAML: the CLI imports this
module at start-up.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Literal

Severity = Literal["error", "high", "medium", "low", "info", "warning"]

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
        return {f.name: value for f in fields(self)
                if (value := getattr(self, f.name)) is not None}


@dataclass(frozen=True)
class IssueType:
    """A registered kind of issue: what ``evaltool explain CODE`` prints."""

    code: str
    stage: str
    title: str
    severity: str
    description: str


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

    ``message`` is the sentence for this occurrence; ``issue_type(code).description`` says
    what the code means in general. ``code`` defaults to the generic ``invalid-input`` only
    while older call sites are given their own codes; new code always names one.
    """

    where: Location | None
    message: str
    field: str | None = None
    found: str | None = None
    expected: str | None = None
    severity: Severity = "error"
    code: str = "invalid-input"

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
        return data
