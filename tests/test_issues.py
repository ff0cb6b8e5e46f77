"""Every message to a user is an issue with a registered code (`evaltool explain CODE`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaltool.issues import Issue, Location, issue_type, issue_types, severity_rank

ROOT = Path(__file__).resolve().parents[1]


def test_every_registered_type_has_a_title_and_a_description() -> None:
    types = issue_types()
    assert len(types) >= 20
    for code, kind in types.items():
        assert code == code.lower() and " " not in code and "_" not in code
        assert kind.title and kind.description


def test_an_unknown_code_is_named_in_the_error() -> None:
    with pytest.raises(KeyError, match="no-such-code"):
        issue_type("no-such-code")


def test_an_issue_names_where_what_was_found_and_what_was_expected() -> None:
    issue = Issue(Location("a.xlsx", sheet="Quote", cell="B7"), "not a price",
                  field="price_usd_per_gpu_hour", found="call us", expected="a number")
    assert str(issue) == ("a.xlsx › Quote › B7: price_usd_per_gpu_hour: not a price "
                          "(found 'call us', expected a number)")
    assert issue.to_dict()["code"] == "invalid-input"


def test_severities_sort_worst_first() -> None:
    order = sorted(["info", "low", "error", "high", "medium"], key=severity_rank)
    assert order == ["error", "high", "medium", "low", "info"]


def test_every_code_in_a_sample_score_report_is_registered() -> None:
    from evaltool.pipeline import score_files

    offers = sorted(p for p in (ROOT / "offers").iterdir() if p.name != "workload.yaml")
    report = score_files(offers, workload=ROOT / "offers" / "workload.yaml")
    data = json.loads(report.model_dump_json())
    codes = set()
    for offer in data["offers"]:
        codes.update(f["code"] for f in offer["flags"])
        codes.update(g["code"] for g in offer["gates"])
    assert codes, "the sample run carries flags and gates"
    assert codes <= set(issue_types()), codes - set(issue_types())
