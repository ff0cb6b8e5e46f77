"""Errors and problems that name where they happened.

Kept free of third-party imports: the CLI imports this module at start-up.
A ``Problem`` follows frictionless-py's idea that an error names the row,
field and cause: here the file, sheet and cell (or YAML key), what was found
and what was expected.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Location:
    """Where a value was read: a file plus a sheet and cell, or a key path."""

    file: str
    sheet: str | None = None
    cell: str | None = None
    key: str | None = None

    def __str__(self) -> str:
        text = self.file
        if self.sheet:
            text += f" › {self.sheet}"
        if self.cell:
            text += f" › {self.cell}"
        if self.key:
            text += f" › {self.key}"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: where, what was found, what was expected."""

    where: Location
    message: str
    field: str | None = None
    found: str | None = None
    expected: str | None = None
    severity: str = "error"  # "error" stops the offer; "warning" does not

    def __str__(self) -> str:
        text = f"{self.where}: "
        if self.field:
            text += f"{self.field}: "
        text += self.message
        if self.found is not None:
            text += f" (found {self.found!r}"
            text += f", expected {self.expected})" if self.expected else ")"
        elif self.expected:
            text += f" (expected {self.expected})"
        return text

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"where": self.where.to_dict(), "text": str(self)}
        for name in ("field", "found", "expected", "message", "severity"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        return data


class EvaltoolError(Exception):
    """Base class: every error evaltool raises on purpose. Never shown as a traceback."""

    exit_code = 1


class UsageError(EvaltoolError):
    """A bad flag, rubric or workload: the whole run cannot go on (exit 2)."""

    exit_code = 2


class InputError(EvaltoolError):
    """One input could not be read or evaluated; it carries the problems found."""

    def __init__(self, problems: list[Problem] | Problem) -> None:
        self.problems: list[Problem] = (
            [problems] if isinstance(problems, Problem) else list(problems)
        )
        super().__init__("; ".join(str(p) for p in self.problems))


class RenderError(EvaltoolError):
    """A report could not be rendered (for example, Pango is missing)."""

    exit_code = 3


@dataclass
class ProblemList:
    """Collects problems while reading one input, so all are reported at once."""

    items: list[Problem] = field(default_factory=list)

    def add(self, problem: Problem) -> None:
        self.items.append(problem)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.severity != "error"]
