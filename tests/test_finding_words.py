"""Numbers in the stages, words in report/: the clause stage returns each finding's code and
figures (a `reason` and what it rests on); evaltool.report.finding_words writes its sentence,
the one place it is written, for `evaltool clauses`, the score report and the memo."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltool.clauses import analyse_file, analyse_text
from evaltool.report.finding_words import MISSING, SAYS, STATED_AS_AIM, finding_why

CONTRACTS = sorted((Path(__file__).resolve().parent / "fixtures" / "contracts").glob("*.*"))


@pytest.mark.parametrize("path", CONTRACTS, ids=lambda p: p.name)
def test_the_clause_stage_returns_reasons_and_report_writes_the_sentence(path: Path) -> None:
    findings = analyse_file(path).findings
    assert findings, path
    for f in findings:
        assert f.why == "", "the stage writes no sentence"
        reason = f.figures.get("reason")
        known = reason in SAYS or (
            reason == "missing" and f.figures.get("essential") in MISSING
        ) or (reason == "aim_only" and f.figures.get("essential") in STATED_AS_AIM)
        assert known, (f.code, f.figures)
        assert finding_why(f) and finding_why(f) != f.kind.replace("_", " ")


def test_a_lock_in_sentence_states_the_months_the_stage_found() -> None:
    text = "Customer shall purchase GPU compute exclusively from Provider for 36 months."
    lock = next(f for f in analyse_text(text, "c.txt").findings if f.kind == "lock_in")
    assert lock.figures["months"] == 36
    assert "for 36 months" in finding_why(lock)
