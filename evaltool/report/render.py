"""The leadership memo, the full report and the exports of a scoring run.

`render_report(report, out)` picks the format from `out`'s extension: .pdf .html .md .csv
.xlsx .json. Heavy libraries (weasyprint, openpyxl) are imported only by the writer that
needs them, so importing this package stays cheap for the CLI.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from evaltool.errors import EvaltoolError, Problem, UsageError
from evaltool.report.exports import (
    iter_report_json,
    report_to_json,
    to_csv,
    to_markdown,
    to_xlsx_bytes,
)
from evaltool.report.html import render_html
from evaltool.report.output import (
    FORMATS,
    check_outputs,
    silence_stdout,
    write_file,
    write_stdout,
)
from evaltool.report.pdf import render_pdf_bytes
from evaltool.report.progress import progress_bar
from evaltool.report.terminal import terminal_table

if TYPE_CHECKING:
    from evaltool.models import ScoreReport

__all__ = [
    "FORMATS", "RenderOutcome", "check_outputs", "render_html", "render_report", "render_reports",
    "render_text", "report_to_json", "silence_stdout", "terminal_table", "write_file",
    "write_stdout",
]

def render_text(
    report: ScoreReport, fmt: Literal["csv", "markdown"], *, kind: Literal["memo", "full"] = "memo"
) -> str:
    """The ranking as CSV or the memo as Markdown, for `score --format csv|markdown` (stdout)."""

    if fmt == "csv":
        return to_csv(report)
    if fmt == "markdown":
        return to_markdown(report, kind=kind)
    raise UsageError(Problem(None, code="unknown-text-format", params={"fmt": repr(fmt)}),
                     setting="fmt")


def _render_bytes(
    report: ScoreReport, suffix: str, kind: Literal["memo", "full"],
    page_size: Literal["A4", "Letter"],
) -> bytes:

    if suffix == ".pdf":

        steps = 2 if kind == "full" else 0  # layout, write; the memo is quick
        with progress_bar(steps, f"Rendering the {kind} PDF") as advance:
            return render_pdf_bytes(
                report, kind=kind, page_size=page_size, progress=lambda _stage: advance(1)
            )
    if suffix == ".html":
        return render_html(report, kind=kind, page_size=page_size).encode("utf-8")
    if suffix == ".md":

        return to_markdown(report, kind=kind).encode("utf-8")
    if suffix == ".csv":

        # utf-8-sig: Excel opens a BOM-less UTF-8 CSV as cp1252 and mangles "—" and "€".
        return to_csv(report).encode("utf-8-sig")
    if suffix == ".xlsx":

        return to_xlsx_bytes(report)
    if suffix == ".json":
        return report_to_json(report).encode("utf-8")
    raise UsageError(Problem(None, code="unknown-output-format", params={
        "suffix": suffix or "(no extension)", "formats": ", ".join(FORMATS)}), setting="out")


def render_report(
    report: ScoreReport,
    out: Path,
    *,
    kind: Literal["memo", "full"] = "memo",
    page_size: Literal["A4", "Letter"] = "A4",
) -> Path:
    """Write `report` to `out` in the format its extension names; return the path written.

    Raises UsageError for an unknown extension, kind or page size, and RenderError when the
    file cannot be written. The file appears whole or not at all (written, then renamed).
    """
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(Problem(None, code="unknown-output-extension", params={
            "out": str(out), "suffix": repr(suffix or "(no extension)"),
            "formats": ", ".join(FORMATS)}), setting="out")
    if kind not in ("memo", "full"):
        raise UsageError(Problem(None, code="unknown-report-kind", params={"kind": repr(kind)}),
                         setting="kind")
    if page_size not in ("A4", "Letter"):
        raise UsageError(Problem(None, code="unknown-page-size",
                                 params={"page_size": repr(page_size)}), setting="page_size")
    if suffix == ".json":  # piece by piece: the whole document is never held at once
        return write_file(out, (piece.encode("utf-8") for piece in iter_report_json(report)))
    data = _render_bytes(report, suffix, kind, page_size)
    return write_file(out, data)


@dataclass(frozen=True)
class RenderOutcome:
    """What became of one requested output: written, or the error that stopped it."""

    out: Path
    written: bool
    error: str | None = None
    exit_code: int = 0


def render_reports(
    report: ScoreReport,
    outs: Sequence[Path],
    *,
    kind: Literal["memo", "full"] = "memo",
    page_size: Literal["A4", "Letter"] = "A4",
) -> list[RenderOutcome]:
    """Write every output that can be written, cheapest first, and say what became of each.

    One output that fails (no Pango for the PDF, a read-only folder) never stops the others;
    its RenderOutcome carries the message and exit code 3. Unknown extensions are a
    UsageError raised before anything is written.
    """
    check_outputs(outs)
    order = {".json": 0, ".csv": 1, ".md": 2, ".xlsx": 3, ".html": 4, ".pdf": 5}
    outcomes: dict[int, RenderOutcome] = {}
    indexed = sorted(enumerate(outs), key=lambda item: order.get(Path(item[1]).suffix.lower(), 9))
    for index, out in indexed:
        try:
            written = render_report(report, Path(out), kind=kind, page_size=page_size)
            outcomes[index] = RenderOutcome(written, True)
        except UsageError:
            raise
        except EvaltoolError as exc:
            outcomes[index] = RenderOutcome(Path(out), False, str(exc), 3)
        except Exception as exc:  # a renderer bug must not cost the other outputs
            outcomes[index] = RenderOutcome(
                Path(out), False, f"{out}: could not be rendered ({type(exc).__name__}: "
                f"{exc}); this is a bug in evaltool", 3)
    return [outcomes[i] for i in range(len(outs))]


