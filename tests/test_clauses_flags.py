"""Every clause finding of medium severity or above reaches leadership (issue 12).

One offer whose contract holds one clause of each kind a buyer reads for; scored through
the real pipeline. Each kind must show up as a flag with its registered code in the score
JSON, and in the report's view model (per vendor, with the firmer wording to ask for).
`evaltool clauses` must report the same findings for the same contract.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from evaltool.cli import cli
from evaltool.issues import is_registered
from evaltool.pipeline import score_files
from evaltool.report.view import build_view

CLAUSES: dict[str, str] = {
    "weak-commitment": "Acme will use commercially reasonable efforts to deliver the nodes by "
    "March 1, 2027.",
    "lock-in": "Prepaid credits are non-refundable and cannot be transferred to another "
    "instance type.",
    "termination-fee": "If Customer terminates early, Customer shall pay an early termination "
    "fee equal to 50% of the remaining fees.",
    "no-termination-for-convenience": "Customer may not terminate this Agreement for "
    "convenience.",
    "auto-renewal": "This Agreement renews automatically for successive 12-month terms unless "
    "either party gives 90 days' notice of non-renewal.",
    "capacity-reallocation": "Acme reserves the right to reallocate nodes among its customers "
    "at its discretion.",
    "maintenance-carve-out": "Scheduled maintenance may be carried out during any window Acme "
    "designates, and such periods do not count toward Downtime.",
    "hardware-discontinuation": "Acme may discontinue the A100 accelerator generation on "
    "ninety (90) days' notice.",
    "unilateral-change": "Acme may modify its prices upon 30 days' notice.",
    "vendor-termination": "Acme may terminate this Agreement for convenience at any time.",
}


def _offer(tmp_path: Path) -> Path:
    terms = "\n".join(f"    {text}" for text in CLAUSES.values())
    path = tmp_path / "acme.yaml"
    path.write_text(
        "vendor:\n  name: Acme\noffer:\n  accelerator:\n    type: NVIDIA H100 SXM\n"
        "    gpus: 256\n  commercials:\n    price: \"$2.50 per GPU-hour\"\n    term: 1 year\n"
        f"  terms: |\n{terms}\n",
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, object]:
    tmp = tmp_path_factory.mktemp("acme")
    offer = _offer(tmp)
    out = tmp / "scores.json"
    result = CliRunner().invoke(cli, ["score", str(offer), "-o", str(out)])
    assert result.exit_code == 0, result.output
    report = score_files([offer])
    return offer, json.loads(out.read_text()), report


def _json_flags(data: dict) -> list[dict]:
    (offer,) = [o for o in data["offers"]] or [data["not_evaluated"][0]]
    return list(offer["flags"])


@pytest.mark.parametrize("code", sorted(CLAUSES))
def test_each_kind_of_clause_is_a_flag_in_the_score_json(
    scored: tuple[Path, dict, object], code: str
) -> None:
    _, data, _ = scored
    flags = [f for f in _json_flags(data) if f["code"] == code]
    assert flags, f"no {code} flag"
    assert flags[0]["severity"] in ("high", "medium", "low")
    assert CLAUSES[code][:30] in (flags[0]["quote"] or "")
    assert flags[0]["ask_for"], "a flag tells leadership the firmer wording to ask for"


@pytest.mark.parametrize("code", sorted(CLAUSES))
def test_each_kind_of_clause_reaches_the_report_view_under_its_vendor(
    scored: tuple[Path, dict, object], code: str
) -> None:
    _, _, report = scored
    view = build_view(report, kind="full")  # type: ignore[arg-type]
    (detail,) = view.details
    flag = next(f for f in report.offers[0].flags if f.code == code)  # type: ignore[attr-defined]
    shown = [f for f in detail.flags if f.why == flag.why or flag.why.startswith(f.why[:40])]
    assert shown and shown[0].vendor == "Acme"
    assert shown[0].ask_for


def test_every_flag_code_is_registered(scored: tuple[Path, dict, object]) -> None:
    _, data, _ = scored
    assert [f["code"] for f in _json_flags(data) if not is_registered(f["code"])] == []


def test_clauses_and_score_report_the_same_findings(scored: tuple[Path, dict, object]) -> None:
    offer, data, _ = scored
    result = CliRunner().invoke(cli, ["clauses", str(offer), "--format", "json"])
    assert result.exit_code == 0, result.output
    clauses = json.loads(result.output)
    findings = clauses["findings"]
    medium_up = {(f["code"], f["quote"]) for f in findings if f["severity"] in ("high", "medium")}
    # A missing term the quote states is still that finding, under its softer code.
    flagged = {("missing" if f["code"] == "stated-only-in-quote" else f["code"], f["quote"])
               for f in _json_flags(data)}
    assert medium_up <= flagged
