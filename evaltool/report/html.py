"""The memo and the full report as HTML (jinja2, autoescape on); the PDF is made from it."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Literal

from evaltool import errors
from evaltool.errors import Problem, UsageError
from evaltool.report._paths import templates_dir
from evaltool.report.view import build_view

if TYPE_CHECKING:
    import jinja2

    from evaltool.models import ScoreReport
    from evaltool.report.view_model import ReportView

Kind = Literal["memo", "full"]
PageSize = Literal["A4", "Letter"]


@cache
def environment() -> jinja2.Environment:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        # Vendor strings reach the HTML: escape everything, everywhere (including .css/.svg
        # partials, whose literal text jinja2 never escapes, only their expressions).
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def html_from_view(view: ReportView, *, for_pdf: bool = False) -> str:

    try:
        template = environment().get_template(f"{view.kind}.html.j2")
        return template.render(v=view, version=view_version(view), for_pdf=for_pdf)
    except errors.EvaltoolError:
        raise
    except Exception as exc:  # a broken template is our bug, but never a bare traceback
        raise errors.RenderError(
            f"templates/{view.kind}.html.j2: could not render ({type(exc).__name__}: {exc})"
        ) from exc


def view_version(view: ReportView) -> str:
    for name, text in view.basis:
        if name == "Tool":
            return text.removeprefix("evaltool ")
    return ""


def render_html(report: ScoreReport, *, kind: Kind = "memo", page_size: PageSize = "A4") -> str:
    """The memo or the full report as one self-contained HTML page (styles inlined)."""

    _check(kind, page_size)
    return html_from_view(build_view(report, kind=kind, page_size=page_size))


def _check(kind: str, page_size: str) -> None:

    if kind not in ("memo", "full"):
        raise UsageError(Problem(None, code="unknown-report-kind", params={"kind": repr(kind)}),
                         setting="kind")
    if page_size not in ("A4", "Letter"):
        raise UsageError(Problem(None, code="unknown-page-size",
                                 params={"page_size": repr(page_size)}), setting="page_size")
