"""Where outputs go: the known formats, atomic file writes and standard output.

Light on purpose (no pydantic, no renderer): the CLI imports it at start-up.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from evaltool.errors import Problem, RenderError, UsageError

STDOUT = "-"  # `-o -`: write to standard output (the format then comes from --format)

FORMATS: dict[str, str] = {
    ".pdf": "PDF memo or report",
    ".html": "HTML (same templates as the PDF)",
    ".md": "Markdown, for chat and wikis",
    ".csv": "CSV ranking, one row per input",
    ".xlsx": "Excel workbook, one sheet per view",
    ".json": "the score JSON every output is built from",
}


def write_file(out: Path, data: bytes | Iterable[bytes]) -> Path:
    """Write `data` to `out` whole or not at all (a temporary file, then renamed).

    `data` may come in pieces (the JSON of thousands of offers, hundreds of MB): each is
    written as it comes, so the whole document is never held in memory.
    """
    parent = out.parent if str(out.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", dir=parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                if isinstance(data, bytes | bytearray):
                    fh.write(data)
                else:
                    for piece in data:
                        fh.write(piece)
            os.chmod(tmp, 0o644)
            os.replace(tmp, out)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise RenderError(f"{out}: could not write the file ({exc.strerror or exc})",
                          setting="out") from exc
    return out


def check_outputs(outs: Sequence[Path]) -> None:
    """Refuse unknown extensions before any work: a typo should not cost a scoring run."""
    for out in outs:
        if str(out) == STDOUT:
            continue
        suffix = Path(out).suffix.lower()
        if suffix not in FORMATS:
            raise UsageError(Problem(None, code="unknown-output-target", params={
                "out": str(out), "suffix": suffix or "(no extension)",
                "formats": ", ".join(FORMATS)}), setting="out")


def write_stdout(text: str) -> None:
    """Text for `-o -` or a --format, to standard output; a closed pipe ends quietly."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()


def silence_stdout() -> None:
    # Python flushes stdout again at exit; point it at devnull so that flush cannot fail.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
