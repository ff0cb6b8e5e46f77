"""The memo and the full report as PDF, with WeasyPrint (imported here only: ~0.6 s).

Safety and determinism (issue 7, item 5):
- the URL fetcher serves only files inside the bundled templates folder (the font); any
  other URL, including a local file or a `url()` that slipped into vendor text, is refused;
- no creation or modification date is written and the PDF identifier is derived from the
  report itself, so the same report gives the same bytes on the same machine;
- the memo is laid out at decreasing levels of detail until it fits two pages.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import unquote, urlsplit

from evaltool.errors import RenderError
from evaltool.report._paths import templates_dir
from evaltool.report.html import _check, html_from_view
from evaltool.report.view import build_view
from evaltool.report.view_model import MEMO_LEVELS

if TYPE_CHECKING:
    from evaltool.models import ScoreReport

MEMO_MAX_PAGES = 2
PANGO_PACKAGES = "apt-get install -y libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0"
ALLOWED_SUFFIXES = frozenset({".ttf", ".otf", ".woff", ".woff2", ".css", ".svg", ".png"})


def pango_hint(platform: str | None = None) -> str:
    """How to install Pango on this system (README "Install" has the full table)."""
    import sys

    platform = platform or sys.platform
    if platform == "darwin":
        return "brew install pango"
    if platform.startswith("win"):
        return ("the GTK3 runtime (MSYS2: pacman -S mingw-w64-x86_64-pango, then add "
                "C:\\msys64\\mingw64\\bin to PATH)")
    return f"sudo {PANGO_PACKAGES} (Debian/Ubuntu), or dnf install pango (Fedora)"


def _weasyprint() -> Any:
    try:
        import weasyprint
    except OSError as exc:  # Pango/HarfBuzz shared libraries missing
        raise RenderError(
            f"PDF output needs the Pango text libraries, which could not be loaded ({exc}). "
            f"Install them with: {pango_hint()} (or write .html instead; README \"Install\")"
        ) from exc
    # WeasyPrint logs every refused URL and unsupported CSS property as a warning; they are
    # expected here (the fetcher refuses on purpose) and must not reach the user's terminal.
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    return weasyprint


def bundled_only_fetcher(weasyprint: Any, root: Path) -> Any:
    """A URL fetcher that serves files under `root` and refuses everything else."""
    root = root.resolve()

    class BundledOnly(weasyprint.URLFetcher):  # type: ignore[misc]  # untyped library
        def fetch(self, url: str, headers: Any = None) -> Any:
            parts = urlsplit(url)
            if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
                raise ValueError(f"refused to fetch {url[:80]!r}: only bundled assets load")
            path = Path(unquote(parts.path)).resolve()
            if not path.is_relative_to(root) or path.suffix.lower() not in ALLOWED_SUFFIXES:
                raise ValueError(f"refused to fetch {url[:80]!r}: not a bundled asset")
            return weasyprint.urls.URLFetcherResponse(url, path.read_bytes())

    return BundledOnly(fail_on_errors=False)


@contextlib.contextmanager
def _no_cyclic_gc() -> Any:
    """Pause Python's cyclic garbage collector while WeasyPrint builds and paints the boxes.

    Layout allocates millions of short-lived objects, so the collector keeps rescanning a
    heap that only grows; pausing it saved about a tenth of the 50-offer full report
    (benchmarks/report.py). Reference counting still frees memory; the collector resumes
    (as it was) when the document is written.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _identifier(html: str) -> bytes:
    return hashlib.sha256(html.encode("utf-8")).hexdigest()[:32].encode("ascii")


def _layout(weasyprint: Any, html: str, font_config: Any) -> Any:
    root = templates_dir()
    document = weasyprint.HTML(
        string=html,
        base_url=root.as_uri() + "/",
        url_fetcher=bundled_only_fetcher(weasyprint, root),
    ).render(font_config=font_config)
    document.metadata.created = None
    document.metadata.modified = None
    document.metadata.authors = []
    return document


def render_pdf_bytes(
    report: ScoreReport,
    *,
    kind: Literal["memo", "full"] = "memo",
    page_size: Literal["A4", "Letter"] = "A4",
    progress: Any = None,
) -> bytes:
    """The PDF for `report`; the memo is tightened level by level until it fits two pages."""

    _check(kind, page_size)
    weasyprint = _weasyprint()
    from weasyprint.text.fonts import FontConfiguration

    font_config = FontConfiguration()
    levels = range(len(MEMO_LEVELS)) if kind == "memo" else range(1)
    document = html = None
    with _no_cyclic_gc():
        for level in levels:
            view = build_view(report, kind=kind, page_size=page_size, level=level)
            if progress:
                progress("layout")
            html = html_from_view(view, for_pdf=True)
            document = _layout(weasyprint, html, font_config)
            if kind != "memo" or len(document.pages) <= MEMO_MAX_PAGES:
                break
        assert document is not None and html is not None
        if progress:
            progress("write")
        data: bytes = document.write_pdf(pdf_identifier=_identifier(html))
    return data
