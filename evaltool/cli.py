"""The `evaltool` command: a thin click layer over the library.

Only click and evaltool.errors are imported at start-up; each command imports the
library stage it needs, so `evaltool --help` stays as fast as click itself.
Exit codes (PRODUCT.md): 0 all inputs evaluated; 1 at least one input could not be
evaluated; 2 usage or configuration error; 3 a report could not be rendered; 70 (EX_SOFTWARE)
an internal error, a bug in evaltool. A closed output pipe (`| head`) ends the command quietly.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from evaltool.errors import EvaltoolError, UsageError

F = TypeVar("F", bound=Callable[..., Any])

OFFER_PATHS = click.argument(
    "offers", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False)
)
FX_OPTION = click.option(
    "--fx", "fx", multiple=True, metavar="CUR=RATE",
    help="Currency rate: --fx EUR=1.10 means 1 EUR = 1.10 USD. Repeatable. "
    "A YAML rates file (fx: {EUR: 1.10}) among the inputs also works.",
)
RUBRIC_OPTION = click.option(
    "--rubric", metavar="NAME|PATH", default=None,
    help="A shipped rubric (llm-pretraining, llm-inference, fine-tuning) or a YAML file. "
    "Default: llm-pretraining.",
)
CONFIGURE_OPTION = click.option(
    "--inputs-may-configure", "inputs_may_configure", is_flag=True, default=False,
    help="Let a workload, rates (fx:) or rubric YAML among OFFERS configure the run. Without "
    "it such files are listed as not evaluated (a vendor's file never changes the run), except "
    "the project's own bundled examples.",
)
INTERNAL_ERROR_EXIT = 70  # sysexits.h EX_SOFTWARE: a bug, not a bad input or a failed render
WORKLOAD_OPTION = click.option(
    "--workload", type=click.Path(path_type=Path, dir_okay=False, exists=True), default=None,
    help="Workload YAML. Default: a workload file among the inputs, else the bundled 70B example.",
)


def _fail(message: str, code: int) -> None:
    click.secho(f"error: {message}", fg="red", err=True)
    sys.exit(code)


def _guarded(func: F) -> F:
    """Turn every error into a message and an exit code: no traceback reaches a user."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except EvaltoolError as exc:
            _fail(str(exc), exc.exit_code)
        except KeyboardInterrupt:
            _fail("interrupted", 130)
        except BrokenPipeError:
            # The reader closed the pipe (`evaltool accelerators | head -1`): not an error.
            # Point stdout at /dev/null so the interpreter's final flush cannot fail again.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(0)
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


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="evaltool")
def cli() -> None:
    """Which GPU compute offer to take, and why.

    Reads vendor offers (spreadsheets, YAML, contract text), normalises them, estimates
    MFU-adjusted time and cost for a workload, flags weak contract terms, ranks the offers
    against a rubric, and writes a leadership memo.

    \b
    Quick start:
      evaltool score offers/* -o out/memo.pdf -o out/scores.json
    """


@cli.command()
@OFFER_PATHS
@RUBRIC_OPTION
@WORKLOAD_OPTION
@FX_OPTION
@CONFIGURE_OPTION
@click.option("-o", "--output", "outputs", multiple=True, type=click.Path(path_type=Path),
              help="Write the result; the extension picks the format: .pdf (memo), .html, "
              ".json, .csv, .xlsx, .md. Repeatable.")
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv", "markdown"]),
              default="table", show_default=True, help="What to print when no -o is given.")
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
@click.option("--cost-basis", type=click.Choice(["run", "commitment"]), default="run",
              show_default=True,
              help="run: charge the GPU-hours the run uses; commitment: charge the larger of "
              "that and the contract's minimum commitment.")
@click.option("--method", type=click.Choice(["weighted", "topsis", "vikor"]), default="weighted",
              show_default=True,
              help="Cross-check the weighted ranking with TOPSIS or VIKOR (reported in the "
              "sensitivity); the ranking itself is always the weighted additive value.")
@_guarded
def score(
    offers: Sequence[Path], rubric: str | None, workload: Path | None, fx: Sequence[str],
    outputs: Sequence[Path], fmt: str, report_kind: str, page_size: str, seed: int,
    software_efficiency: float | None, cost_basis: str, method: str, as_of: Any,
    inputs_may_configure: bool,
) -> None:
    """Rank OFFERS: the main job.

    Without -o, prints a ranked table. Exit code 1 when any input could not be
    evaluated (the rest are still scored and written).
    """
    from evaltool.errors import UsageError
    from evaltool.pipeline import score_files
    from evaltool.report import FORMATS, render_report, report_to_json, terminal_table

    for out in outputs:  # a typo in -o should not cost a whole scoring run
        if out.suffix.lower() not in FORMATS:
            raise UsageError(f"-o {out}: unknown output format {out.suffix or '(none)'}; "
                             f"expected one of {', '.join(FORMATS)}")

    overrides: dict[str, Any] = {}
    if software_efficiency:
        overrides["software_efficiency"] = software_efficiency
    if cost_basis != "run":
        overrides["cost_basis"] = cost_basis
    result = score_files(list(offers), rubric=rubric, workload=workload, fx=fx,
                         assumptions=overrides or None, seed=seed, method=method,
                         as_of=as_of.date() if as_of else None,
                         inputs_may_configure=inputs_may_configure)
    if not result.workload.get("source", "").endswith((".yaml", ".yml")):
        click.echo(f"note: {result.workload.get('source')}", err=True)
    if outputs:
        click.echo(terminal_table(result, color=sys.stdout.isatty()))
        for out in outputs:
            written = render_report(result, out, kind=report_kind,  # type: ignore[arg-type]
                                    page_size=page_size)  # type: ignore[arg-type]
            click.echo(f"wrote {written}", err=True)
    elif fmt == "json":
        click.echo(report_to_json(result))
    elif fmt in ("csv", "markdown"):
        from evaltool.report import render_text

        click.echo(render_text(result, "csv" if fmt == "csv" else "markdown"), nl=False)
    else:
        click.echo(terminal_table(result, color=sys.stdout.isatty()))
    _report_not_evaluated(result.not_evaluated)
    sys.exit(1 if result.not_evaluated else 0)


def _report_not_evaluated(items: Sequence[Any]) -> None:
    for item in items:
        source = item.source.get("file", "?")
        for err in item.errors:
            click.secho(f"not evaluated: {err.get('text') or err}", fg="yellow", err=True)
        if not item.errors:
            click.secho(f"not evaluated: {source}", fg="yellow", err=True)


@cli.command()
@OFFER_PATHS
@FX_OPTION
@CONFIGURE_OPTION
@click.option("--format", "fmt", type=click.Choice(["json", "csv", "yaml", "table"]),
              default="table", show_default=True)
@_guarded
def normalize(offers: Sequence[Path], fx: Sequence[str], fmt: str,
              inputs_may_configure: bool) -> None:
    """Show each offer as canonical fields, with where each value came from and any warnings."""
    from evaltool.normalize.core import normalize_files, render_normalized
    from evaltool.pipeline import parse_fx, sort_inputs

    inputs = sort_inputs(list(offers), inputs_may_configure=inputs_may_configure)
    result = normalize_files(inputs.offers, parse_fx(fx, inputs.fx_files))
    click.echo(render_normalized(result, fmt), nl=False)
    _report_not_evaluated(result.not_evaluated)
    sys.exit(1 if result.not_evaluated else 0)


@cli.command()
@OFFER_PATHS
@RUBRIC_OPTION
@WORKLOAD_OPTION
@FX_OPTION
@CONFIGURE_OPTION
@_guarded
def validate(
    offers: Sequence[Path], rubric: str | None, workload: Path | None, fx: Sequence[str],
    inputs_may_configure: bool,
) -> None:
    """Check inputs only, and list every problem (errors and warnings)."""
    from evaltool.normalize.core import normalize_files
    from evaltool.pipeline import parse_fx, resolve_workload, rubric_for, sort_inputs
    inputs = sort_inputs(list(offers), inputs_may_configure=inputs_may_configure)
    the_workload, _ = resolve_workload(workload, inputs.workloads)
    rubric_for(the_workload, rubric or (inputs.rubrics[0] if inputs.rubrics else None))
    result = normalize_files(inputs.offers, parse_fx(fx, inputs.fx_files))
    for offer in result.offers:
        status = "ok" if not offer.warnings else f"{len(offer.warnings)} warning(s)"
        click.echo(f"{offer.source.get('file')}: {status}")
        for warning in offer.warnings:
            click.echo(f"  warning: {warning.get('text') or warning}")
    for item in result.not_evaluated:
        click.echo(f"{item.source.get('file')}: cannot be evaluated")
        for err in item.errors:
            click.echo(f"  error: {err.get('text') or err}")
    total = len(result.offers) + len(result.not_evaluated)
    click.echo(f"{len(result.offers)} of {total} offers valid", err=True)
    sys.exit(1 if result.not_evaluated else 0)


@cli.command()
# no exists=True: a missing or unreadable file is reported like any other input (exit 1)
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--vendor", "vendors", multiple=True,
              help="Name(s) of the vendor party, besides the vendor an offer file names.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@_guarded
def clauses(files: Sequence[Path], vendors: Sequence[str], fmt: str) -> None:
    """Flag weak commitments and extract SLA figures, dates, remedies, exit and lock-in terms.

    FILES are .txt, .md, .pdf or .docx contracts, or offer files (.xlsx, .xlsm, .csv,
    .yaml, .yml, .json) whose contract sheet or section is analysed; prices are not read.
    """
    from evaltool.clauses import render_analysis
    from evaltool.clauses.files import analyse_files_clauses

    analyses, failures = analyse_files_clauses(list(files), vendors)
    click.echo(render_analysis(analyses, fmt, not_analysed=failures), nl=False)
    for failure in failures:
        click.secho(f"not analysed: {failure}", fg="yellow", err=True)
    sys.exit(1 if failures else 0)


@cli.command()
@click.argument("out", type=click.Path(path_type=Path, dir_okay=False))
@_guarded
def template(out: Path) -> None:
    """Write the blank request-for-proposal workbook that vendors fill in."""
    from evaltool.template import write_template

    write_template(out)
    click.echo(f"wrote {out}", err=True)


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@_guarded
def accelerators(fmt: str) -> None:
    """The built-in accelerator catalog (dense peak TFLOPS, memory, links, sources)."""
    from evaltool.estimate.catalog import load_catalog

    catalog = load_catalog()
    if fmt == "json":
        data = [acc.model_dump(mode="json") for acc in catalog]
        click.echo(json.dumps({"accelerators": data}, indent=2, sort_keys=True))
        return
    header = (f"{'id':<15} {'vendor':<7} {'mem GB':>7} {'TB/s':>6} {'BF16':>8} {'FP8':>8} "
              f"{'link GB/s':>9}  ecosystem")
    click.echo(header)
    click.echo("-" * len(header))
    for acc in catalog:
        bf16 = acc.dense_tflops.get("bf16")
        fp8 = acc.dense_tflops.get("fp8")
        click.echo(
            f"{acc.id:<15} {acc.vendor:<7} {acc.memory_gb:>7g} {acc.memory_bandwidth_tbyte_s:>6g} "
            f"{bf16 if bf16 is not None else '-':>8} {fp8 if fp8 is not None else '-':>8} "
            f"{acc.intra_node_gbyte_s:>9g}  {acc.ecosystem}"
        )
    click.echo("\nTFLOPS are dense (no sparsity). Sources: evaltool accelerators --format json")


@cli.command()
@_guarded
def rubrics() -> None:
    """The shipped rubrics."""
    from evaltool.score.rubric import load_rubric, shipped_rubrics

    for name in shipped_rubrics():
        r = load_rubric(name)
        gates = f"{len(r.gates)} gate" + ("" if len(r.gates) == 1 else "s")
        click.echo(f"{name:<18} v{r.version:<5} {r.title} ({len(r.criteria)} criteria, "
                   f"{gates}; for {r.workload_kind} workloads)")


@cli.group()
def rubric() -> None:
    """Look at one rubric."""


@rubric.command("show")
@click.argument("name")
@click.option("--format", "fmt", type=click.Choice(["text", "yaml", "json"]), default="text",
              show_default=True)
@_guarded
def rubric_show(name: str, fmt: str) -> None:
    """Show rubric NAME (a shipped name or a path) in full: weights, value functions, gates."""
    from evaltool.score.rubric import describe_rubric, load_rubric

    r = load_rubric(name)
    if fmt == "json":
        click.echo(json.dumps(r.model_dump(mode="json"), indent=2, sort_keys=True))
    elif fmt == "yaml":
        import yaml

        click.echo(yaml.safe_dump(r.model_dump(mode="json"), sort_keys=False))
    else:
        click.echo(describe_rubric(r))


@cli.command()
@click.argument("code", required=False)
@_guarded
def explain(code: str | None) -> None:
    """What issue CODE means (every warning, error, flag, finding and gate carries one).

    Without CODE, list every code with its title.
    """
    from evaltool.issues import issue_type, issue_types

    if code is None:
        for kind in issue_types().values():
            click.echo(f"{kind.code:<32} {kind.severity:<8} {kind.title}")
        return
    try:
        kind = issue_type(code)
    except KeyError:
        raise UsageError(f"unknown issue code {code!r}; `evaltool explain` lists them") from None
    click.echo(f"{kind.code} ({kind.stage}, usually {kind.severity}): {kind.title}\n")
    click.echo(kind.description)


def main() -> None:
    cli(prog_name="evaltool")


if __name__ == "__main__":  # pragma: no cover
    main()
