"""Errors and problems that name where they happened.

Kept free of third-party imports: the CLI imports this module at start-up.
A ``Problem`` follows frictionless-py's idea that an error names the row,
field and cause: here the file, sheet and cell (or YAML key), what was found
and what was expected.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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

    Raised with the registered issue it is, ``UsageError(Issue(where, code=..., params=...))``:
    its text is the issue's, and ``code`` names its type. A plain text message is the older
    form, kept while call sites move (tests/test_issue_templates.py lists where).
    """

    exit_code = 2

    def __init__(self, *args: object, setting: str | None = None) -> None:
        self.issue = args[0] if len(args) == 1 and isinstance(args[0], Issue) else None
        super().__init__(*((str(self.issue),) if self.issue else args), setting=setting)

    @property
    def code(self) -> str | None:
        """The registered code of the issue it was raised with (None for a plain message)."""
        return self.issue.code if self.issue else None


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
