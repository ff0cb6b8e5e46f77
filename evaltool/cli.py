"""The `evaltool` command: a thin click layer over the library.

Only click and a few light evaltool modules load at start-up; every command calls the
library through `evaltool.commands`, a lazy module (importlib.util.LazyLoader, see
evaltool/__init__.py) that runs on first use, so `evaltool --help` stays as fast as click.

One grammar for every command that prints data (in the style of sqlite-utils):
`--format table|json|csv|markdown|yaml` (table by default), `-o FILE` to write it to a
file and `-o -` for standard output. Colour only on a terminal and never with NO_COLOR;
tables fit the terminal's width. Control characters in vendor text are escaped on
every output (evaltool.report.text.terminal_safe).

Exit codes (README): 0 all inputs evaluated; 1 at least one input could not be
evaluated; 2 usage or configuration error; 3 a requested output could not be rendered
(every other output is still written); 70 (EX_SOFTWARE) an internal error, a bug in evaltool.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

import evaltool
from evaltool.errors import EvaltoolError, Problem, UsageError
from evaltool.issues import issue_type, issue_types
from evaltool.report import fmt as words
from evaltool.report.fmt import terminal_safe
from evaltool.report.issue_words import explain_text
from evaltool.report.output import check_outputs, silence_stdout, write_file, write_stdout
from evaltool.report.text import (
    render,
    rows_to_markdown,
    terminal_width,
    to_yaml,
    use_color,
)

F = TypeVar("F", bound=Callable[..., Any])

# The --format choices of every command that prints data (evaltool.report.text.FORMATS).
FORMATS = ("table", "json", "csv", "markdown", "yaml")
STDOUT = "-"

OFFER_PATHS = click.argument(
    "offers", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False)
)
FX_OPTION = click.option(
    "--fx", "fx", multiple=True, metavar="CUR=RATE",
    help="Currency rate: --fx EUR=1.10 means 1 EUR = 1.10 USD. Repeatable.",
)
RUBRIC_OPTION = click.option(
    "--rubric", metavar="NAME|PATH", default=None,
    help="A shipped rubric (llm-pretraining, llm-inference, fine-tuning) or a YAML file. "
    "Default: the shipped rubric for the workload's kind.",
)
WORKLOAD_OPTION = click.option(
    "--workload", type=click.Path(path_type=Path, dir_okay=False, exists=True), default=None,
    help="Workload YAML. Default: the bundled 70B pretraining example (the run says so).",
)
CONFIGURE_OPTION = click.option(
    "--inputs-may-configure", "inputs_may_configure", is_flag=True, default=False,
    help="Let a workload, rates (fx:) or rubric YAML among OFFERS configure the run. Without "
    "it such files are listed as not evaluated (a vendor's file never changes the run), except "
    "the project's own bundled examples.",
)
INTERNAL_ERROR_EXIT = 70  # sysexits.h EX_SOFTWARE: a bug, not a bad input or a failed render
MAP_OPTION = click.option(
    "--map", "map_file", type=click.Path(path_type=Path, dir_okay=False, exists=True),
    default=None, help="Per-vendor mapping file (labels or cells -> canonical fields, sheets "
    "to skip); `normalize --explain --write-map FILE` writes a starting point.")


def format_option(default: str = "table") -> Callable[[F], F]:
    """--format, the same choices on every command that prints data."""
    return click.option(
        "--format", "fmt", type=click.Choice(FORMATS), default=default, show_default=True,
        help="How to print: an aligned table, JSON, CSV, Markdown or YAML.",
    )


def output_option() -> Callable[[F], F]:
    """-o FILE for a data command: where its --format text goes (- is standard output)."""
    return click.option(
        "-o", "--output", "output", default=STDOUT, show_default=True, metavar="FILE|-",
        type=click.Path(path_type=Path, dir_okay=False, allow_dash=True),
        help="Write to FILE instead of standard output (-).",
    )


# --------------------------------------------------------------------------- output


def _stderr(message: str, color: str | None = None) -> None:

    text = terminal_safe(message)
    if color and use_color(sys.stderr):
        text = click.style(text, fg=color)
    click.echo(text, err=True, color=use_color(sys.stderr))


# The library names the parameter an error is about (EvaltoolError.setting); the flag that
# sets it is the CLI's word for it.
SETTING_FLAGS = {
    "fx": "--fx", "workload": "--workload", "rubric": "--rubric", "method": "--method",
    "kind": "--report", "page_size": "--page-size", "fmt": "--format", "out": "-o",
    "cost_basis": "--cost-basis",
}


def error_text(exc: EvaltoolError) -> str:
    """The error as the CLI says it: led by the flag that sets what it is about."""
    flag = SETTING_FLAGS.get(exc.setting or "")
    text = str(exc)
    if isinstance(exc, UsageError) and len(exc.issues) > 1:
        # a file's every problem, one to a line, so a long list stays readable
        text = "\n  ".join(str(issue) for issue in exc.issues)
    if flag is None:
        return text
    # An output's message starts with its path: "-o memo.docx: unknown output format".
    return f"{flag} {text}" if flag == "-o" else f"{flag}: {text}"


def _fail(message: str, code: int) -> None:
    _stderr(f"error: {message}", "red")
    sys.exit(code)


def _emit(text: str, output: Path | str = STDOUT, *, escaped: bool = False) -> None:
    """Data text to stdout or a file, control characters escaped (unless already safe)."""

    text = text if escaped else terminal_safe(text)
    if str(output) == STDOUT:
        write_stdout(text)
        return

    write_file(Path(output), text.encode("utf-8"))
    _stderr(f"wrote {output}")


def _guarded(func: F) -> F:
    """Turn every error into a message and an exit code: no traceback reaches a user."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except EvaltoolError as exc:
            _fail(error_text(exc), exc.exit_code)
        except BrokenPipeError:  # `evaltool accelerators | head -1`: the reader left

            silence_stdout()
            sys.exit(0)
        except KeyboardInterrupt:
            _fail("interrupted", 130)
        except Exception as exc:
            if os.environ.get("EVALTOOL_DEBUG"):
                raise
            _fail(
                f"internal error: {type(exc).__name__}: {exc}. This is a bug in evaltool; "
                "rerun with EVALTOOL_DEBUG=1 for details and report it.",
                INTERNAL_ERROR_EXIT,
            )

    wrapper.__name__ = func.__name__
    wrapper.__doc__ = func.__doc__
    return wrapper  # type: ignore[return-value]


def _report_not_evaluated(items: Sequence[Any]) -> None:
    for item in items:
        source = item.source.get("file", "?")
        for err in item.errors:
            text = err.get("text") if isinstance(err, Mapping) else None
            _stderr(f"not evaluated: {text or err}", "yellow")
            if isinstance(err, Mapping) and err.get("code") == "required-field-needs-fx-rate":
                currency = err.get("params", {}).get("currency", "EUR")
                _stderr(f"  give the rate with --fx {currency}=<USD per 1 {currency}>", "yellow")
        if not item.errors:
            _stderr(f"not evaluated: {source}", "yellow")


def _check_config(rubric: str | None, workload: Path | None) -> None:
    """Load --workload and --rubric together, so that all their errors are reported at once."""
    lib = evaltool.commands  # the library, loaded on first use

    errors: list[UsageError] = []
    the_workload = None
    if workload is not None:
        try:
            the_workload = lib.load_workload(workload)
        except UsageError as exc:
            errors.append(exc)
    if rubric is not None:
        try:
            if the_workload is not None:
                lib.rubric_for(the_workload, rubric)
            else:
                lib.load_rubric(rubric)
        except UsageError as exc:
            errors.append(exc)
    if errors:  # each raised with its registered issues; said together, one to a line
        _fail("\n".join(error_text(exc) for exc in errors), UsageError.exit_code)


# --------------------------------------------------------------------------- commands


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="evaltool")
def cli() -> None:
    """Which GPU compute offer to take, and why.

    Reads vendor offers (spreadsheets, YAML, contract text), normalises them, estimates
    MFU-adjusted time and cost for a workload, flags weak contract terms, ranks the offers
    against a rubric, and writes a leadership memo.

    \b
    Quick start:
      evaltool demo                     # score the bundled sample offers
      evaltool score offers/*.xlsx --workload workload.yaml -o memo.pdf -o scores.json
    """


@cli.command()
@OFFER_PATHS
@RUBRIC_OPTION
@WORKLOAD_OPTION
@FX_OPTION
@click.option("-o", "--output", "outputs", multiple=True,
              type=click.Path(path_type=Path, allow_dash=True),
              help="Write the result; the extension picks the format: .pdf (memo), .html, "
              ".json, .csv, .xlsx, .md; - is standard output in --format. Repeatable.")
@format_option()
@click.option("--report", "report_kind", type=click.Choice(["memo", "full"]), default="memo",
              show_default=True, help="The leadership memo (2 pages) or the detailed report.")
@click.option("--page-size", type=click.Choice(["A4", "Letter"]), default="A4", show_default=True)
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the weight draws of the sensitivity analysis.")
@click.option("--software-efficiency", type=click.FloatRange(0.05, 1.0), default=None,
              help="Override the assumed software/parallelism efficiency for every offer.")
@click.option("--as-of", "as_of", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="The decision date (YYYY-MM-DD): quote validity is checked against it, and "
              "delivery waits count from it when the workload gives no start_date. Default: "
              "today, or SOURCE_DATE_EPOCH.")
@click.option("--cost-basis", type=click.Choice(["cash", "commitment", "run"]), default="cash",
              show_default=True,
              help="What the cost criteria charge: cash, the minimum cash to sign (the cheapest "
              "way out after the run); commitment, the full-term commitment; run, the run alone.")
@click.option("--resale-value", "resale_value", type=click.FloatRange(0.0, 1.0), default=None,
              help="What capacity paid for but not used by the run is worth to you (follow-on "
              "work or resale), as a fraction of its cost; overrides the workload's "
              "resale_value_fraction (default 0).")
@click.option("--method", type=click.Choice(["weighted", "topsis", "vikor"]), default="weighted",
              show_default=True,
              help="Cross-check the weighted ranking with TOPSIS or VIKOR (reported in the "
              "sensitivity); the ranking itself is always the weighted additive value.")
@click.option("--market", "market_n", type=click.IntRange(0, 100_000), default=0,
              metavar="N", help="Also score the N best public offers for the workload "
              "(on-demand list prices from the market snapshot, `evaltool market`), labelled as "
              "list prices; they are ranked beside the quotes, never recommended.")
@MAP_OPTION
@CONFIGURE_OPTION
@_guarded
def score(
    offers: Sequence[Path], rubric: str | None, workload: Path | None, fx: Sequence[str],
    outputs: Sequence[Path], fmt: str, report_kind: str, page_size: str, seed: int,
    software_efficiency: float | None, cost_basis: str, method: str, as_of: Any,
    resale_value: float | None,
    market_n: int,
    map_file: Path | None,
    inputs_may_configure: bool,
) -> None:
    """Rank OFFERS: the main job.

    Without -o, prints a ranked table (or --format). Every output that can be written is
    written; exit 1 when an input could not be evaluated, 3 when an output could not be
    rendered.
    """

    lib = evaltool.commands  # the library, loaded on first use
    # A run keeps millions of small containers alive to its end; at the default gen-0
    # threshold (700) the collector re-scans them again and again, a fifth of the CPU time at
    # 5,000 offers (benchmarks/scale.py). This process is short-lived: collect less often.
    gc.set_threshold(100_000, 50, 50)
    check_outputs(outputs)  # a typo in -o should not cost a whole scoring run
    _check_config(rubric, workload)
    overrides: dict[str, Any] = {}
    if software_efficiency:
        overrides["software_efficiency"] = software_efficiency
    if cost_basis != "cash":
        overrides["cost_basis"] = cost_basis
    if resale_value is not None:
        overrides["resale_value_fraction"] = resale_value
    result = lib.score_files(list(offers), rubric=rubric, workload=workload, fx=fx,
                         assumptions=overrides or None, seed=seed, method=method,
                         as_of=as_of.date() if as_of else None, market=market_n,
                         map_file=map_file, inputs_may_configure=inputs_may_configure)
    if not str(result.workload.get("source", "")).endswith((".yaml", ".yml")):
        _stderr(f"note: {result.workload.get('source')}")
    sys.exit(_write_score_outputs(result, outputs, fmt, report_kind, page_size))


def _score_text(result: Any, fmt: str) -> str:

    lib = evaltool.commands  # the library, loaded on first use
    if fmt == "json":
        return lib.report_to_json(result)
    if fmt == "yaml":
        import json

        return to_yaml(json.loads(lib.report_to_json(result)))
    if fmt in ("csv", "markdown"):
        return lib.render_text(result, "csv" if fmt == "csv" else "markdown")
    return lib.terminal_table(result, color=use_color(sys.stdout), width=terminal_width())


def _write_score_outputs(
    result: Any, outputs: Sequence[Path], fmt: str, report_kind: str, page_size: str
) -> int:
    """Print and write every output; return the exit code (3 > 1 > 0)."""
    lib = evaltool.commands  # the library, loaded on first use

    files = [o for o in outputs if str(o) != STDOUT]
    printed = fmt if (not files or STDOUT in map(str, outputs)) else "table"
    if printed == "json":  # piece by piece: the whole document is never held at once
        for piece in lib.iter_report_json(result):
            write_stdout(piece)
    else:  # the table is cleaned cell by cell and may carry colour codes of its own
        _emit(_score_text(result, printed), escaped=printed == "table")
    outcomes = lib.render_reports(result, files, kind=report_kind,  # type: ignore[arg-type]
                              page_size=page_size)  # type: ignore[arg-type]
    for outcome in outcomes:
        if outcome.written:
            _stderr(f"wrote {outcome.out}")
        else:
            _stderr(f"error: not written: {outcome.error}", "red")
    _report_not_evaluated(result.not_evaluated)
    failed = [o for o in outcomes if not o.written]
    if files:
        written = len(outcomes) - len(failed)
        summary = f"{written} of {len(outcomes)} outputs written"
        if failed:
            summary += "; not written: " + ", ".join(str(o.out) for o in failed)
        _stderr(summary, "red" if failed else None)
    if failed:
        return 3
    return 1 if result.not_evaluated else 0


@cli.command()
@OFFER_PATHS
@FX_OPTION
@format_option()
@output_option()
@MAP_OPTION
@click.option("--explain", is_flag=True,
              help="Also list every non-empty cell that was neither read nor deliberately "
              "skipped (a 'not_understood' section in JSON).")
@click.option("--write-map", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="With --explain: write a starting mapping file for --map.")
@CONFIGURE_OPTION
@_guarded
def normalize(offers: Sequence[Path], fx: Sequence[str], fmt: str, output: Path,
              map_file: Path | None, explain: bool, write_map: Path | None,
              inputs_may_configure: bool) -> None:
    """Show each offer as canonical fields, with where each value came from and any warnings."""
    lib = evaltool.commands  # the library, loaded on first use

    inputs = lib.sort_inputs(list(offers), inputs_may_configure=inputs_may_configure)
    mapping = lib.load_user_mapping(map_file) if map_file else None
    result = lib.normalize_files(inputs.offers, lib.parse_fx(fx, inputs.fx_files), mapping)
    unread = None
    if explain or write_map:
        unread = [u for path in inputs.offers for u in lib.explain_file(Path(path), mapping)]
        if write_map:
            write_map.write_text(lib.mapping_skeleton(unread), encoding="utf-8")
            _stderr(f"wrote {write_map}")
    if fmt == "markdown":
        rows = lib.normalize_to_rows(result)
        columns = ["offer", "field", "value", "where", "raw", "note"]
        text = rows_to_markdown(columns, [[r.get(c) for c in columns] for r in rows])
    else:
        text = lib.render_normalized(result, fmt, unread)
    _emit(text, output)
    _report_not_evaluated(result.not_evaluated)
    sys.exit(1 if result.not_evaluated else 0)


@cli.command()
@OFFER_PATHS
@RUBRIC_OPTION
@WORKLOAD_OPTION
@FX_OPTION
@format_option()
@output_option()
@MAP_OPTION
@CONFIGURE_OPTION
@_guarded
def validate(
    offers: Sequence[Path], rubric: str | None, workload: Path | None, fx: Sequence[str],
    fmt: str, output: Path, map_file: Path | None, inputs_may_configure: bool,
) -> None:
    """Check inputs only, and list every problem (errors and warnings)."""
    lib = evaltool.commands  # the library, loaded on first use

    _check_config(rubric, workload)
    inputs = lib.sort_inputs(list(offers), inputs_may_configure=inputs_may_configure)
    the_workload, _ = lib.resolve_workload(workload, inputs.workloads)
    lib.rubric_for(the_workload, rubric or (inputs.rubrics[0] if inputs.rubrics else None))
    mapping = lib.load_user_mapping(map_file) if map_file else None
    result = lib.normalize_files(inputs.offers, lib.parse_fx(fx, inputs.fx_files), mapping)
    entries: list[dict[str, Any]] = []
    for offer in result.offers:
        entries.append({"file": offer.source.get("file"), "offer": offer.id, "valid": True,
                        "errors": [], "warnings": list(offer.warnings)})
    for item in result.not_evaluated:
        entries.append({"file": item.source.get("file"), "offer": None, "valid": False,
                        "errors": list(item.errors), "warnings": []})
    rows: list[list[Any]] = []
    for entry in entries:
        problems = [("error", e) for e in entry["errors"]]
        problems += [("warning", w) for w in entry["warnings"]]
        if not problems:
            rows.append([entry["file"], entry["offer"], "ok", "", "", ""])
        for severity, problem in problems:
            problem = problem if isinstance(problem, Mapping) else {"text": str(problem)}
            rows.append([entry["file"], entry["offer"], severity, problem.get("code") or "",
                         words.where(problem.get("where")), problem.get("text") or ""])
    valid = sum(1 for e in entries if e["valid"])
    data = {"inputs": entries, "valid": valid, "total": len(entries)}
    _emit(render(fmt, data=data, columns=["file", "offer", "status", "code", "where", "message"],
                 rows=rows, table=_validate_table(entries)), output)
    _stderr(f"{valid} of {len(entries)} offers valid")
    sys.exit(1 if result.not_evaluated else 0)


def _validate_table(entries: Sequence[Mapping[str, Any]]) -> str:
    """Each input, then its problems indented, wrapped to the terminal (the messages are long)."""
    import textwrap


    width = terminal_width()
    lines: list[str] = []
    for entry in entries:
        problems = [("error", e) for e in entry["errors"]]
        problems += [("warning", w) for w in entry["warnings"]]
        if not entry["valid"]:
            status = "cannot be evaluated"
        else:
            status = f"{len(problems)} warning(s)" if problems else "ok"
        lines.append(f"{entry['file']}: {status}")
        for severity, problem in problems:
            text = problem.get("text") if isinstance(problem, Mapping) else None
            code = problem.get("code") if isinstance(problem, Mapping) else None
            head = f"  {severity}" + (f" [{code}]" if code else "") + ": "
            lines += textwrap.wrap(str(text or problem), width, initial_indent=head,
                                   subsequent_indent=" " * 4) or [head]
    return "\n".join(lines) + "\n"


@cli.command()
# no exists=True: a missing or unreadable file is reported like any other input (exit 1)
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--vendor", "vendors", multiple=True,
              help="Name(s) of the vendor party, besides the vendor an offer file names.")
@format_option()
@output_option()
@_guarded
def clauses(files: Sequence[Path], vendors: Sequence[str], fmt: str, output: Path) -> None:
    """Flag weak commitments and extract SLA figures, dates, remedies, exit and lock-in terms.

    FILES are .txt, .md, .pdf or .docx contracts, or offer files (.xlsx, .xlsm, .csv,
    .yaml, .yml, .json) whose contract sheet or section is analysed; prices are not read.
    """
    lib = evaltool.commands  # the library, loaded on first use

    analyses, failures = lib.analyse_files_clauses(list(files), vendors)
    if fmt in ("table", "json"):
        text = lib.render_analysis(analyses, fmt, not_analysed=failures)
    else:
        data = lib.analyses_to_dict(analyses, failures)
        columns = ["severity", "kind", "code", "obligor", "quote", "where", "why", "ask_for"]
        rows = [[f.get("severity"), f.get("kind"), f.get("code"), f.get("obligor"),
                 f.get("quote"), words.where(f.get("where")), f.get("why"), f.get("ask_for")]
                for f in data["findings"]]
        text = render(fmt, data=data, columns=columns, rows=rows)
    _emit(text, output)
    for failure in failures:
        _stderr(f"not analysed: {failure}", "yellow")
    sys.exit(1 if failures else 0)


@cli.command()
@click.argument("out", type=click.Path(path_type=Path, dir_okay=False))
@_guarded
def template(out: Path) -> None:
    """Write the blank request-for-proposal workbook that vendors fill in (OUT.xlsx)."""
    lib = evaltool.commands  # the library, loaded on first use

    lib.write_template(out)
    _stderr(f"wrote {out}")


@cli.command()
@format_option()
@output_option()
@_guarded
def accelerators(fmt: str, output: Path) -> None:
    """The built-in accelerator catalog (dense peak TFLOPS, memory, links, sources)."""
    lib = evaltool.commands  # the library, loaded on first use

    catalog = lib.load_catalog()
    data = {"accelerators": [acc.model_dump(mode="json") for acc in catalog]}
    columns = ["id", "vendor", "memory (GB)", "memory bandwidth (TB/s)",
               "BF16 dense (TFLOPS)", "FP8 dense (TFLOPS)", "intra-node link (GB/s)",
               "ecosystem"]
    rows = [[acc.id, acc.vendor, acc.memory_gb, acc.memory_bandwidth_tbyte_s,
             acc.dense_tflops.get("bf16"), acc.dense_tflops.get("fp8"), acc.intra_node_gbyte_s,
             acc.ecosystem] for acc in catalog]
    _emit(render(fmt, data=data, columns=columns, rows=rows,
                 table=_accelerator_table(catalog)), output)


def _accelerator_table(catalog: Iterable[Any]) -> str:
    header = (f"{'id':<15} {'vendor':<7} {'mem GB':>7} {'TB/s':>6} {'BF16':>8} {'FP8':>8} "
              f"{'link GB/s':>9}  ecosystem")
    lines = [header, "-" * len(header)]
    for acc in catalog:
        bf16 = acc.dense_tflops.get("bf16")
        fp8 = acc.dense_tflops.get("fp8")
        lines.append(
            f"{acc.id:<15} {acc.vendor:<7} {acc.memory_gb:>7g} {acc.memory_bandwidth_tbyte_s:>6g} "
            f"{bf16 if bf16 is not None else '-':>8} {fp8 if fp8 is not None else '-':>8} "
            f"{acc.intra_node_gbyte_s:>9g}  {acc.ecosystem}"
        )
    lines.append("\nTFLOPS are dense (no sparsity). Sources: evaltool accelerators --format json")
    return "\n".join(lines) + "\n"


@cli.command()
@format_option()
@output_option()
@_guarded
def rubrics(fmt: str, output: Path) -> None:
    """The shipped rubrics."""
    lib = evaltool.commands  # the library, loaded on first use

    items = [lib.load_rubric(name) for name in lib.shipped_rubrics()]
    data = {"rubrics": [
        {"name": r.name, "version": r.version, "title": r.title,
         "workload_kind": r.workload_kind, "criteria": len(r.criteria), "gates": len(r.gates)}
        for r in items
    ]}
    columns = ["name", "version", "title", "workload kind", "criteria", "gates"]
    rows = [[d["name"], d["version"], d["title"], d["workload_kind"], d["criteria"], d["gates"]]
            for d in data["rubrics"]]
    _emit(render(fmt, data=data, columns=columns, rows=rows), output)


@cli.group()
def rubric() -> None:
    """Look at one rubric."""


@rubric.command("show")
@click.argument("name")
@format_option()
@output_option()
@_guarded
def rubric_show(name: str, fmt: str, output: Path) -> None:
    """Show rubric NAME (a shipped name or a path) in full: weights, value functions, gates.

    csv and markdown give one row per criterion: direction, bounds, weights and source.
    """
    lib = evaltool.commands  # the library, loaded on first use

    r = lib.load_rubric(name)
    columns, rows = lib.criterion_table(r)
    _emit(render(fmt, data=r.model_dump(mode="json"), columns=columns, rows=rows,
                 table=lib.describe_rubric(r)), output)


@cli.group(invoke_without_command=True)
@click.option("--accelerator", default=None, metavar="ID",
              help="Catalog id or family, e.g. H100 (all H100 variants) or H100-SXM.")
@click.option("--max-price", type=float, default=None, metavar="USD",
              help="Highest price per GPU-hour.")
@click.option("--min-gpus", type=click.IntRange(1), default=None, help="GPUs per instance.")
@click.option("--memory", type=float, default=None, metavar="GB", help="Least memory per GPU.")
@click.option("--provider", "providers", multiple=True, help="Cloud, e.g. aws. Repeatable.")
@click.option("--region", default=None, help="Region or zone text, e.g. us-east or europe.")
@click.option("--term", type=click.Choice(["on-demand", "spot", "1y", "3y"]), default=None)
@format_option()
@output_option()
@click.pass_context
@_guarded
def market(ctx: click.Context, accelerator: str | None, max_price: float | None,
           min_gpus: int | None, memory: float | None, providers: Sequence[str],
           region: str | None, term: str | None, fmt: str, output: Path) -> None:
    """List and filter public GPU offers from the dated catalog snapshot (no network).

    `evaltool market import FILE...` adds newer SkyPilot or gpuhunt catalog CSVs.
    """
    lib = evaltool.commands  # the library, loaded on first use
    if ctx.invoked_subcommand is not None:
        return

    snapshot = lib.current_market()
    rows = lib.filter_offers(snapshot.offers, accelerator=accelerator,
                         max_price_usd_per_gpu_hour=max_price, min_gpus=min_gpus,
                         min_memory_gb=memory, provider=providers, region=region, term=term)
    _emit(lib.render_market(rows, snapshot, fmt), output)


@market.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--provider", default=None,
              help="The cloud the files list (default: the SkyPilot folder or gpuhunt file name).")
@click.option("--snapshot-date", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="When the catalog was taken (default: the file's modification date).")
@_guarded
def market_import(files: Sequence[Path], provider: str | None, snapshot_date: Any) -> None:
    """Add catalog CSVs (SkyPilot vms.csv or gpuhunt) to the local market store."""
    lib = evaltool.commands  # the library, loaded on first use

    done, failed = lib.import_many(list(files), provider=provider,
                               snapshot_date=snapshot_date.date() if snapshot_date else None)
    for rec in done:
        state = "already in the store" if rec.already_imported else "imported"
        click.echo(f"{rec.file}: {state}: {rec.n_offers} offers, {rec.provider}, {rec.format} "
                   f"format, snapshot {rec.snapshot_date}")
        for problem in rec.skipped:
            click.secho(f"  skipped: {problem}", fg="yellow", err=True)
    for exc in failed:
        click.secho(f"not imported: {exc}", fg="yellow", err=True)
    click.echo(f"store: {lib.store_path()}", err=True)
    sys.exit(1 if failed else 0)


@cli.command()
@click.argument("code", required=False)
@format_option()
@output_option()
@_guarded
def explain(code: str | None, fmt: str, output: Path) -> None:
    """What issue CODE means (every warning, error, flag, finding and gate carries one).

    Without CODE, list every code with its title.
    """
    from dataclasses import asdict


    if code is None:
        kinds = list(issue_types().values())
    else:
        try:
            kinds = [issue_type(code)]
        except KeyError:
            raise UsageError(Problem(None, code="unknown-issue-code",
                                     params={"code": repr(code)})) from None
    columns = ["code", "severity", "stage", "title", "description", "message"]
    rows = [[k.code, k.severity, k.stage, k.title, k.description, k.message or ""]
            for k in kinds]
    data: Any = asdict(kinds[0]) if code else {"issues": [asdict(k) for k in kinds]}
    table = None
    if code:
        table = explain_text(kinds[0])
    elif fmt == "table":
        table = "".join(f"{k.code:<32} {k.severity:<8} {k.title}\n" for k in kinds)
    _emit(render(fmt, data=data, columns=columns, rows=rows, table=table), output)


@cli.command()
@click.argument("folder", required=False, default="evaltool-demo",
                type=click.Path(path_type=Path, file_okay=False))
@click.option("--report", "report_kind", type=click.Choice(["memo", "full"]), default="memo",
              show_default=True, help="The leadership memo (2 pages) or the detailed report.")
@_guarded
def demo(folder: Path, report_kind: str) -> None:
    """Copy the bundled sample offers to FOLDER (default ./evaltool-demo) and score them.

    Writes FOLDER/out/memo.pdf, scores.json and scores.xlsx, and prints the ranking.
    """
    lib = evaltool.commands  # the library, loaded on first use

    files = lib.copy_samples(folder)
    _stderr(f"copied {len(files.offers)} sample offers, the workload and the rates to {folder}")
    rates = lib.read_fx_file(files.rates) if files.rates else None
    result = evaltool.score_files(files.offers, workload=files.workload, fx=rates)
    out = folder / "out"
    outputs = [out / "memo.pdf", out / "scores.json", out / "scores.xlsx"]
    code = _write_score_outputs(result, outputs, "table", report_kind, "A4")
    fx = " ".join(f"--fx {k}={v:g}" for k, v in sorted((rates or {}).items()) if k != "USD")
    _stderr(f"next: evaltool score {folder}/*.xlsx --workload {files.workload} {fx} "
            "-o memo.pdf")
    sys.exit(code)


def main() -> None:
    cli(prog_name="evaltool")


if __name__ == "__main__":  # pragma: no cover
    main()
