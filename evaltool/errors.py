"""Errors and problems that name where they happened.

Kept free of third-party imports: the CLI imports this module at start-up.
A ``Problem`` follows frictionless-py's idea that an error names the row,
field and cause: here the file, sheet and cell (or YAML key), what was found
and what was expected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from evaltool.issues import Issue, Location

__all__ = [
    "EvaltoolError", "InputError", "Issue", "Location", "Problem", "ProblemList",
    "RenderError", "UsageError",
]


# One issue model (evaltool.issues): a Problem is an Issue; the old name stays for readers.
Problem = Issue


class EvaltoolError(Exception):
    """Base class: every error evaltool raises on purpose. Never shown as a traceback.

    ``setting`` names the library parameter the error is about ("fx", "workload", "rubric",
    "method", "kind", "page_size", "out", "fmt"), so the message itself never names a
    command-line flag: the CLI maps the setting to its flag when it prints the error.
    """

    exit_code = 1

    def __init__(self, *args: object, setting: str | None = None) -> None:
        super().__init__(*args)
        self.setting = setting


class UsageError(EvaltoolError):
    """A bad flag, rubric or workload: the whole run cannot go on (exit 2).

    Raised with the registered issue it is, ``UsageError(Issue(where, code=..., params=...))``,
    or with several found at once (a workload's every invalid key),
    ``UsageError([issue, ...])``: its text is the issues' texts joined with "; " (as an
    InputError's), ``issues`` holds them and ``code`` names the first's type. A text of its
    own is refused: every message to a user is a registered code (tests/test_issue_templates).
    """

    exit_code = 2

    def __init__(self, issues: Issue | Sequence[Issue], *, setting: str | None = None) -> None:
        self.issues: list[Issue] = [issues] if isinstance(issues, Issue) else list(issues)
        if not self.issues or not all(isinstance(i, Issue) for i in self.issues):
            raise TypeError("a UsageError is raised with the registered issue(s) it is, "
                            f"UsageError(Issue(where, code=..., params=...)); got {issues!r}")
        super().__init__("; ".join(str(i) for i in self.issues), setting=setting)

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its issues, not its text (a copy or a pickle would pass the text).
        return (type(self), (self.issues,), {"setting": self.setting})

    @property
    def issue(self) -> Issue:
        """The first issue it was raised with."""
        return self.issues[0]

    @property
    def code(self) -> str:
        """The registered code of its first issue."""
        return self.issues[0].code


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
