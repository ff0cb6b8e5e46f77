"""The leadership memo, the full report and the exports of a scoring run.

`render_report(report, out)` picks the format from `out`'s extension: .pdf .html .md .csv
.xlsx .json. Heavy libraries (weasyprint, openpyxl) are imported only by the writer that
needs them, so importing this package stays cheap for the CLI.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from evaltool.errors import RenderError, UsageError
from evaltool.report.exports import report_to_json
from evaltool.report.html import render_html
from evaltool.report.terminal import terminal_table

if TYPE_CHECKING:
    from evaltool.models import ScoreReport

__all__ = [
    "FORMATS", "render_html", "render_report", "render_text", "report_to_json", "terminal_table",
]

FORMATS: dict[str, str] = {
    ".pdf": "PDF memo or report",
    ".html": "HTML (same templates as the PDF)",
    ".md": "Markdown, for chat and wikis",
    ".csv": "CSV ranking, one row per input",
    ".xlsx": "Excel workbook, one sheet per view",
    ".json": "the score JSON every output is built from",
}


def render_text(
    report: ScoreReport, fmt: Literal["csv", "markdown"], *, kind: Literal["memo", "full"] = "memo"
) -> str:
    """The ranking as CSV or the memo as Markdown, for `score --format csv|markdown` (stdout)."""
    from evaltool.report.exports import to_csv, to_markdown

    if fmt == "csv":
        return to_csv(report)
    if fmt == "markdown":
        return to_markdown(report, kind=kind)
    raise UsageError(f"--format: unknown text format {fmt!r} (expected csv or markdown)")


def _render_bytes(
    report: ScoreReport, suffix: str, kind: Literal["memo", "full"],
    page_size: Literal["A4", "Letter"],
) -> bytes:
    from evaltool.report.progress import progress_bar

    if suffix == ".pdf":
        from evaltool.report.pdf import render_pdf_bytes

        steps = 2 if kind == "full" else 0  # layout, write; the memo is quick
        with progress_bar(steps, f"Rendering the {kind} PDF") as advance:
            return render_pdf_bytes(
                report, kind=kind, page_size=page_size, progress=lambda _stage: advance(1)
            )
    if suffix == ".html":
        return render_html(report, kind=kind, page_size=page_size).encode("utf-8")
    if suffix == ".md":
        from evaltool.report.exports import to_markdown

        return to_markdown(report, kind=kind).encode("utf-8")
    if suffix == ".csv":
        from evaltool.report.exports import to_csv

        # utf-8-sig: Excel opens a BOM-less UTF-8 CSV as cp1252 and mangles "—" and "€".
        return to_csv(report).encode("utf-8-sig")
    if suffix == ".xlsx":
        from evaltool.report.exports import to_xlsx_bytes

        return to_xlsx_bytes(report)
    if suffix == ".json":
        return report_to_json(report).encode("utf-8")
    raise UsageError(
        f"-o {suffix or '(no extension)'}: unknown output format "
        f"(expected one of {', '.join(FORMATS)})"
    )


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
        raise UsageError(
            f"-o {out}: unknown output format {suffix or '(no extension)'!r} "
            f"(expected one of {', '.join(FORMATS)})"
        )
    if kind not in ("memo", "full"):
        raise UsageError(f"--report: unknown report kind {kind!r} (expected memo or full)")
    if page_size not in ("A4", "Letter"):
        raise UsageError(f"--page-size: unknown page size {page_size!r} (expected A4 or Letter)")
    data = _render_bytes(report, suffix, kind, page_size)
    parent = out.parent if str(out.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", dir=parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.chmod(tmp, 0o644)
            os.replace(tmp, out)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise RenderError(f"-o {out}: could not write the file ({exc.strerror or exc})") from exc
    return out
