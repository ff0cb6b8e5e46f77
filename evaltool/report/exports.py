"""Exports of a ScoreReport: JSON (the byte-stable basis), CSV, XLSX and Markdown.

Spreadsheet safety (OWASP "CSV injection"): a text cell that begins with = + - @, a tab or
a carriage return is prefixed with an apostrophe, so Excel, LibreOffice and Google Sheets
show it as text and never evaluate it. Numbers are written as numbers and left alone.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from evaltool.report import fmt
from evaltool.report.basis import as_of_date
from evaltool.report.fmt import md, neutralise, terminal_safe
from evaltool.report.sheets import AUTO, PCT, ranking_table, workbook_sheets
from evaltool.report.view import build_view

if TYPE_CHECKING:
    from evaltool.models import OfferResult, ScoreReport
    from evaltool.report.view_model import ReportView

FLOAT_DECIMALS = 6  # JSON floats: rounded once, so reruns and platforms agree byte for byte
# Characters the XLSX (XML 1.0) format cannot hold; openpyxl raises on them.
_XML_ILLEGAL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


# --------------------------------------------------------------------------- JSON


def _canonical(value: Any) -> Any:
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        rounded = round(value, FLOAT_DECIMALS)
        return 0.0 if rounded == 0 else rounded
    if isinstance(value, Mapping):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(v) for v in value]
    return value


def _float_text(value: float) -> str:
    text = _FLOAT_TEXTS.get(value)
    if text is not None:
        return text
    if not math.isfinite(value):
        return "null"
    rounded = round(value, FLOAT_DECIMALS)
    text = float.__repr__(0.0 if rounded == 0 else rounded)
    if len(_FLOAT_TEXTS) < 500_000:
        _FLOAT_TEXTS[value] = text
    return text


# A report repeats the same numbers across thousands of offers (catalog figures, assumptions):
# each is rounded and written once. (0.0 and -0.0 share an entry and a text: "0.0".)
_FLOAT_TEXTS: dict[float, str] = {}


def _encode_canonical(value: Any, indent: str, out: list[str]) -> None:
    """Append ``value`` as json.dumps(_canonical(value), sort_keys=True, indent=2,
    ensure_ascii=False, allow_nan=False) would write it, rounding in the same pass.

    The standard library falls back to its pure-Python, generator-based encoder whenever
    ``indent`` is set; this single recursive pass (strings through the C-accelerated
    ``encode_basestring``) writes the same bytes in about a quarter of the time: exact types
    first (what a model dump holds), strings and floats written in their parent's loop, and
    each key's ``"key": `` made once per run. Other types go the general way.
    """
    kind = type(value)
    if kind is str:
        out.append(_encode_string(value))
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = indent + "  "
        append = out.append
        heads = _KEY_HEADS
        sep, later = "{\n" + inner, ",\n" + inner
        if set(map(type, value)) == {str}:
            items = sorted(value.items())
        else:
            items = sorted((str(k), v) for k, v in value.items())
        for key, item in items:
            head = heads.get(key)
            if head is None:
                head = heads[key] = _encode_string(key) + ": "
            item_kind = type(item)
            if item_kind is str:
                append(sep + head + _encode_string(item))
            elif item_kind is float:
                append(sep + head + _float_text(item))
            elif item is None:
                append(sep + head + "null")
            else:
                append(sep + head)
                _encode_canonical(item, inner, out)
            sep = later
        append("\n" + indent + "}")
    elif kind is float:
        out.append(_float_text(value))
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = indent + "  "
        append = out.append
        sep, later = "[\n" + inner, ",\n" + inner
        for item in value:
            if type(item) is str:
                append(sep + _encode_string(item))
            else:
                append(sep)
                _encode_canonical(item, inner, out)
            sep = later
        append("\n" + indent + "]")
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(value))
    else:
        _encode_general(value, indent, out)


def _encode_general(value: Any, indent: str, out: list[str]) -> None:
    """Subclasses and other mappings and sequences (rare in a model dump)."""
    if isinstance(value, str):
        out.append(_encode_string(value))
    elif isinstance(value, float):
        out.append(_float_text(value))
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, Mapping):
        _encode_canonical({str(k): v for k, v in value.items()}, indent, out)
    elif isinstance(value, list | tuple):
        _encode_canonical(list(value), indent, out)
    else:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# What `terminal_safe` can still find in text this encoder wrote: it escapes every C0 control
# (and so every CR), leaving DEL, the C1 controls and the bidirectional overrides.
_JSON_UNSAFE_RE = re.compile("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _json_terminal_safe(text: str) -> str:
    """`terminal_safe(text)` for text the encoder above wrote, in a fraction of the time."""
    if text.isascii() and "\x7f" not in text:
        return text
    return _JSON_UNSAFE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


# '"key": ' per key, made once: a report repeats the same few hundred keys thousands of times.
_KEY_HEADS: dict[str, str] = {}
_encode_string = json.encoder.encode_basestring


def report_to_json(report: ScoreReport) -> str:
    """The report as deterministic JSON: sorted keys, floats rounded to 6 decimals, NaN→null.

    Byte for byte ``json.dumps(_canonical(data), sort_keys=True, indent=2,
    ensure_ascii=False, allow_nan=False)`` (tests/test_scale.py holds that as the oracle),
    except that C1 controls and bidi overrides, which JSON leaves raw, are written \\uXXXX
    (the same string to a JSON reader, inert on a terminal).
    """
    return "".join(iter_report_json(report))


def _offer_json(offer: OfferResult, lead: str) -> str:
    """One offer of the report's "offers" list, at its indent.

    Its estimates are JSON-ready already (`score.core.to_result` dumps them in JSON mode), so
    they are written as they are rather than dumped again: most of an offer's dump time.
    Anything the writer cannot take as it is goes through the full JSON-mode dump.
    """
    data = offer.model_dump(mode="json", exclude={"estimates"})
    data["estimates"] = offer.estimates
    out = [lead + "    "]
    try:
        _encode_canonical(data, "    ", out)
    except TypeError:
        out = [lead + "    "]
        _encode_canonical(offer.model_dump(mode="json"), "    ", out)
    return "".join(out)


def iter_report_json(report: ScoreReport) -> Iterator[str]:
    """`report_to_json` in pieces, one per offer and one per other top-level key.

    Joined they are exactly its text; written as they come, the whole document (hundreds of
    MB at thousands of offers, with its dict tree) is never in memory at once. Each piece
    is made terminal-safe on its own: JSON escapes every CR, so no match spans two pieces.
    """
    rest = report.model_dump(mode="json", exclude={"offers"})
    keys = sorted([*rest, "offers"])
    for i, key in enumerate(keys):
        head = ("{\n" if i == 0 else ",\n") + "  " + _encode_string(key) + ": "
        if key != "offers":
            out = [head]
            _encode_canonical(rest[key], "  ", out)
            yield _json_terminal_safe("".join(out))
            continue
        if not report.offers:
            yield head + "[]"
            continue
        yield head + "["
        for j, offer in enumerate(report.offers):
            yield _json_terminal_safe(_offer_json(offer, "\n" if j == 0 else ",\n"))
        yield "\n  ]"
    yield "\n}\n"


# --------------------------------------------------------------------------- tables


def _cell(value: Any) -> Any:
    """A value ready for a spreadsheet cell: numbers stay numbers, text is neutralised."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return value if math.isfinite(float(value)) else None
    if isinstance(value, Mapping | list | tuple):
        value = fmt.any_value(value)
    # control characters shown escaped (\u001b), never raw: a CSV is also read on terminals
    return neutralise(terminal_safe(_XML_ILLEGAL_RE.sub(" ", str(value))))


def _format_csv_number(value: Any) -> Any:
    if isinstance(value, float):
        text = f"{round(value, FLOAT_DECIMALS):.{FLOAT_DECIMALS}f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text
    return value


def to_csv(report: ScoreReport) -> str:
    """The ranking as CSV (RFC 4180, UTF-8, "\\r\\n"): one header row in words with units
    ("Run cost (USD)"), raw numbers in those units (fractions for %); JSON keeps the keys."""
    columns, rows = ranking_table(report)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([c.header for c in columns])
    percent = [c.number_format == PCT for c in columns]
    for row in rows:
        writer.writerow([
            "" if v is None else _format_csv_number(_cell(_percent(v) if pct else v))
            for v, pct in zip(row, percent, strict=True)
        ])
    return out.getvalue()


def _percent(value: Any) -> Any:
    """A fraction as the percentage its "(%)" header promises (CSV has no number formats)."""
    number = fmt.as_number(value)
    return value if number is None else number * 100


_MODIFIED_RE = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")


def _fixed_zip(data: bytes, stamp: str) -> bytes:
    """Rewrite the XLSX zip with fixed timestamps.

    openpyxl stamps every zip member and docProps/core.xml's "modified" with now() on save.
    """
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o600 << 16
            body = source.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = _MODIFIED_RE.sub(rb"\g<1>" + stamp.encode("ascii") + rb"\g<2>", body)
            target.writestr(fixed, body)
    return out.getvalue()


def _auto_format(value: float) -> str:
    return "#,##0" if float(value).is_integer() else "#,##0.00##"


def _xlsx_cell(ws: Any, value: Any, number_format: str | None, wrap: Any) -> Any:
    """One data cell: a number with its column's format, text stored as text (never a
    formula, whatever it says; long text wrapped), None left empty."""
    if value is None:
        return None
    from openpyxl.cell import WriteOnlyCell

    if isinstance(value, str):
        cell = WriteOnlyCell(ws, value=value)
        cell.data_type = "s"
        if len(value) > 60:
            cell.alignment = wrap
        return cell
    if number_format is None:
        return value
    cell = WriteOnlyCell(ws, value=value)
    cell.number_format = _auto_format(value) if number_format == AUTO else number_format
    return cell


def to_xlsx_bytes(report: ScoreReport) -> bytes:
    """A formatted workbook, one sheet per view.

    Row 1: headers in words with units; row 2: the machine keys of the JSON (small, grey);
    data from row 3, frozen above and filterable. Numbers are stored as numbers with a
    number format; text is stored as text, never as a formula.
    """
    import datetime as dt

    # openpyxl: the well-kept writer the team already uses for the RFP template.
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter


    # Write-only: rows stream to the file as they are appended, so a workbook of thousands
    # of offers is never held as millions of cell objects (4x faster, a fraction of the
    # memory; benchmarks/limits.py). Styles go on the cells before they are written.
    wb = Workbook(write_only=True)
    header_font = Font(bold=True)
    key_font = Font(italic=True, size=8, color="666666")
    header_fill = PatternFill("solid", fgColor="DDE4EE")
    header_align = Alignment(vertical="top", wrap_text=True)
    wrap_align = Alignment(wrap_text=True, vertical="top")
    for title, columns, rows in workbook_sheets(report):
        ws = wb.create_sheet(title)
        for index, column in enumerate(columns, start=1):
            ws.column_dimensions[get_column_letter(index)].width = column.width
        ws.freeze_panes = "A3"
        if rows:
            ws.auto_filter.ref = f"A2:{get_column_letter(len(columns))}{len(rows) + 2}"
        heads = []
        for column in columns:
            cell = WriteOnlyCell(ws, value=column.header)
            cell.font, cell.fill, cell.alignment = header_font, header_fill, header_align
            heads.append(cell)
        ws.append(heads)
        keys = []
        for column in columns:
            cell = WriteOnlyCell(ws, value=column.key)
            cell.font = key_font
            cell.data_type = "s"
            keys.append(cell)
        ws.append(keys)
        formats = [c.number_format for c in columns]
        for row in rows:
            ws.append([_xlsx_cell(ws, _cell(v), number_format, wrap_align)
                       for v, number_format in zip(row, formats, strict=False)])
    try:
        stamp = dt.datetime.fromisoformat(as_of_date(report))
    except ValueError:
        stamp = dt.datetime(2000, 1, 1)
    wb.properties.created = stamp
    wb.properties.modified = stamp
    wb.properties.creator = "evaltool"
    wb.properties.title = "GPU compute offer evaluation"
    buffer = io.BytesIO()
    wb.save(buffer)
    return _fixed_zip(buffer.getvalue(), stamp.strftime("%Y-%m-%dT%H:%M:%SZ"))


# --------------------------------------------------------------------------- Markdown



def _md_table(header: Sequence[str], rows: Iterable[Sequence[Any]],
              right: Sequence[int] = ()) -> list[str]:
    lines = ["| " + " | ".join(md(h) for h in header) + " |",
             "|" + "|".join("---:" if i in right else "---" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(md(c) for c in row) + " |" for row in rows]
    return [*lines, ""]


def _md_memo(v: ReportView) -> list[str]:
    out = [f"# {md(v.title)}", "", f"*{md(v.subtitle)} · as of {md(v.as_of)}*", "",
           f"**{md(v.headline)}**", ""]
    if v.facts:
        out += [md(v.facts), ""]
    if v.runner_up:
        out += [md(v.runner_up), ""]
    out += [f"Confidence: **{md(v.confidence)}**. {md(v.confidence_line)}", ""]
    if v.key_figures:
        rows = [["Recommended", *[k.value for k in v.key_figures]]]
        if any(k.runner_up for k in v.key_figures):
            rows.append(["Runner-up", *[k.runner_up or fmt.DASH for k in v.key_figures]])
        out += _md_table(["", *[k.label for k in v.key_figures]], rows)
        notes = [f"{k.label}: {k.note}" for k in v.key_figures if k.note]
        if v.price_note:
            notes.append(v.price_note[:1].upper() + v.price_note[1:])
        if notes:
            out += [md(". ".join(notes) + "."), ""]
    out += ["## Ranking of eligible offers", ""]
    out += _md_table(
        ["#", "Vendor", "Offer", "Score", "Run cost", "Time to train", "$/GPU-h", "MFU",
         "Wins", "Top red flag"],
        [[r.rank, r.vendor, r.offer_name, r.score,
          f"{r.total_cost} ({r.commitment})" if r.commitment else r.total_cost, r.days,
          f"{r.usd_per_gpu_hour} ({r.quoted_price})" if r.quoted_price else r.usd_per_gpu_hour,
          r.mfu, r.win_probability, r.top_flag] for r in v.ranking],
        right=(0, 3, 4, 5, 6, 7, 8),
    ) if v.ranking else ["No offer passes the knock-out gates.", ""]
    if v.ranking_more:
        out += [f"*{v.ranking_more} more eligible offers in the full report.*", ""]
    out += ["## Excluded offers and why", ""]
    out += [f"- **{md(e.name)}**{' (not evaluated)' if e.kind == 'not_evaluated' else ''}: "
            f"{md('; '.join(e.reasons))}" for e in v.exclusions] or ["None."]
    out += [f"- Unverified: {md(u)}" for u in v.unverified]
    out += ["", "## Contract and lock-in red flags", ""]
    for f in v.red_flags:
        out.append(f"- **{md(f.vendor)}** · {md(f.kind)} ({md(f.severity)}): {md(f.why)}")
        if f.quote:
            out.append(f"  > “{md(f.quote)}” — {md(f.where)}")
        if v.kind == "full" and f.ask_for:
            out.append(f"  Ask for: “{md(f.ask_for)}”")
    if not v.red_flags:
        out.append("None found.")
    if v.red_flags_more:
        out.append(f"\n*{v.red_flags_more} more red flags in the full report.*")
    out += ["", "## What would change the decision", ""]
    out += [f"- {md(c)}" for c in v.changes] or ["No sensitivity analysis in this run."]
    out += ["", "## What this rests on", ""]
    out += _md_table(["", ""], v.basis)
    return out


def _md_full(v: ReportView) -> list[str]:
    out = ["## Scores by category", ""]
    out += _md_table(["Offer", *v.category_names], [[n, *s] for n, s in v.category_scores],
                     right=tuple(range(1, len(v.category_names) + 1)))
    out += ["## Contract clauses and findings per vendor", ""]
    for d in v.details:
        out += [f"### {md(d.title)}", ""]
        for f in d.flags:
            out.append(f"- {md(f.kind)} ({md(f.severity)}): {md(f.why)}")
            if f.quote:
                out.append(f"  > “{md(f.quote)}” — {md(f.where)}")
            if f.ask_for:
                out.append(f"  Ask for: “{md(f.ask_for)}”")
        out += ["" if d.flags else "No findings.", ""]
    if v.break_evens:
        out += ["## Weight break-evens", ""]
        out += _md_table(["Criterion", "Weight now", "Weight at a tie", "New winner"],
                         v.break_evens)
    if v.questions:
        out += ["## Clarification questions", ""]
        out += _md_table(["Offer", "Field", "Question", "Could swing"], v.questions)
    if v.missing:
        out += ["## Missing data", ""]
        out += _md_table(["Offer", "Fields not stated"], v.missing)
    out += ["## Assumptions", ""]
    out += _md_table(["Key", "Value"], v.assumptions + [("workload." + k, x)
                                                        for k, x in v.workload])
    out += ["## Appendix: where every value comes from", ""]
    for d in v.details:
        out += [f"### {md(d.title)}", "", f"Source: {md(d.source)}", ""]
        out += _md_table(["Criterion", "Value", "Read from", "Score"], d.trace, right=(3,))
    out += ["## Appendix: the rubric used", ""]
    out += _md_table(["", ""], v.rubric_head)
    if v.rubric_criteria:
        out += _md_table(["Criterion", "Category", "Weight", "Direction",
                          "Bounds (value → points)", "Unit", "Source"], v.rubric_criteria,
                         right=(2,))
    return out


def to_markdown(report: ScoreReport, *, kind: str = "memo") -> str:

    view = build_view(report, kind="full" if kind == "full" else "memo")
    lines = _md_memo(view)
    if kind == "full":
        lines += _md_full(view)
    return "\n".join(lines).rstrip() + "\n"

