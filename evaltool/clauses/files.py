"""`evaltool clauses FILES...` as a library call: every file analysed or reported.

Contract documents (.txt/.md/.pdf/.docx) and offer files (.xlsx/.xlsm/.csv/.yaml/.yml/
.json) are read for their contract text only; prices, currencies and the rest of the
offer are never normalised, so an offer that `score` rejects still has its terms checked.
One unreadable file never stops the others: each is reported, nothing is lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from evaltool.clauses.analyse import analyse_segments
from evaltool.clauses.models import ClauseAnalysis
from evaltool.clauses.readers import read_contracts, read_segments
from evaltool.errors import EvaltoolError


def analyse_files_clauses(
    paths: Sequence[Path], vendor_names: Sequence[str] = ()
) -> tuple[list[ClauseAnalysis], list[str]]:
    """Clause analysis of each file (one analysis per contract or per offer), and the
    reason each file that could not be analysed was not ("FILE: not found").

    ``vendor_names`` (the `--vendor` option) name the vendor party, together with the
    vendor an offer file names and the parties the contract itself defines.
    """
    analyses: list[ClauseAnalysis] = []
    failures: list[str] = []
    for path in paths:
        try:
            contracts = read_contracts(Path(path))
        except EvaltoolError as exc:
            failures.append(str(exc))
            continue
        for contract in contracts:
            names = list(dict.fromkeys([*vendor_names, *filter(None, [contract.vendor])]))
            analysis = analyse_segments(contract.segments, vendor_names=names)
            vendor = contract.vendor or (vendor_names[0] if vendor_names else None)
            analyses.append(analysis.model_copy(update={"vendor": vendor}))
    return analyses, failures


def analyse_file(path: Path, vendor_names: Sequence[str] = ()) -> ClauseAnalysis:
    """Analyse a .txt/.md/.pdf/.docx contract, or an offer file's contract sheet or key."""
    return analyse_segments(read_segments(Path(path)), vendor_names)
