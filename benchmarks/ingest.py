"""Benchmark: normalising 200 workbooks vs merely opening them and reading every cell;
and the accuracy of the reader on a blind corpus (``--blind DIR``).

Target (issue 3): normalise_files on 200 vendor workbooks costs at most 1.5x the time of
opening each with openpyxl (full mode, data_only=True, as ecosystem.md §3 recommends for
merged cells) and reading every cell.  Both run side by side in one process on the same
files: copies of the sample offers and the test corpus workbooks.  Prints its figures.

Blind corpora (files written by someone who never read evaltool, with an expected.yaml of
canonical values) measure what the reader gets right, misses and gets wrong: per field right /
missing / wrong (and wrong without a warning on that field: silently wrong), offers found vs
expected, every file accounted for (among offers or not_evaluated), and the failures grouped
by field and by file so they can be fixed by class.

Run: PYTHONPATH=. .venv/bin/python benchmarks/ingest.py [N] [--blind DIR]...
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _workbooks() -> list[Path]:
    sources = sorted((ROOT / "offers").glob("*.xlsx"))
    sources += sorted(p for p in (ROOT / "tests" / "offers_corpus").glob("*.xls*")
                      if p.name not in ("empty.xlsx", "not_a_workbook.xlsx"))
    return sources


def _openpyxl_read_all(paths: list[Path]) -> int:
    from openpyxl import load_workbook

    cells = 0
    for path in paths:
        wb = load_workbook(path, data_only=True)
        for ws in wb.worksheets:
            for row in ws.iter_rows():
                for cell in row:
                    if cell.value is not None:
                        cells += 1
        wb.close()
    return cells


def _openpyxl_read_only_all(paths: list[Path]) -> int:
    from openpyxl import load_workbook

    cells = 0
    for path in paths:
        wb = load_workbook(path, read_only=True, data_only=True)
        for ws in wb.worksheets:
            for row in ws.iter_rows(values_only=True):
                cells += sum(1 for v in row if v is not None)
        wb.close()
    return cells


def clear_text_caches() -> int:
    """Empty every per-text cache of the package (a bounded lru_cache or
    read.textcache.by_text, a module's ``*_CACHE`` dict, the vocabulary's memo of labels), so
    a timed run starts as a fresh process would; the unbounded caches are loaders and compiled
    patterns (read once per process, as after a batch's first file) and stay.  Returns how
    many were cleared.  (Until session 6 the dicts and the label memo were kept: a run reused
    the previous run's clause analysis of the same files, about a sixth of (b).)"""
    import functools

    from evaltool.read.vocabulary import load_vocabulary

    load_vocabulary()._matched.clear()
    cleared = 1
    for name, module in list(sys.modules.items()):
        if not name.startswith("evaltool") or module is None:
            continue
        for key, value in list(vars(module).items()):
            if key.isupper() and "CACHE" in key and isinstance(value, dict):
                value.clear()  # prose._TERMS_CACHE, lexicon._LOWER_CACHE, ...
                cleared += 1
                continue
            clear = getattr(value, "cache_clear", None)
            if clear is None or getattr(value, "__module__", None) != name:
                continue
            if isinstance(value, functools._lru_cache_wrapper):
                maxsize = value.cache_info().maxsize
                if maxsize is None or maxsize <= 8:
                    continue  # a loader or a compiled pattern
            clear()
            cleared += 1
    return cleared


def _distinct_workbooks() -> list[Path]:
    """Every distinct workbook the repository holds: the samples, the reader's corpus and the
    blind corpora (written by people who never read evaltool)."""
    import zipfile

    found = _workbooks()
    for folder in sorted((ROOT / "tests").glob("blind_offers_*")):
        # a file named .xlsx that is not a workbook is a reader test, not a timing
        found += [p for p in sorted(folder.glob("*.xlsx")) if zipfile.is_zipfile(p)]
    return found


def _time_distinct() -> None:
    """Normalise every distinct workbook once per run, caches cleared before each run."""
    from evaltool.normalize.core import normalize_files

    paths = _distinct_workbooks()
    normalize_files(paths[:3], {"EUR": 1.08})
    _openpyxl_read_only_all(paths[:3])  # openpyxl's import is no part of reading (run alone)
    runs: dict[str, list[float]] = {"normalize": [], "read_only": []}
    for _ in range(3):
        t0 = time.perf_counter()
        _openpyxl_read_only_all(paths)
        t1 = time.perf_counter()
        clear_text_caches()
        t2 = time.perf_counter()
        normalize_files(paths, {"EUR": 1.08})
        t3 = time.perf_counter()
        runs["read_only"].append(t1 - t0)
        runs["normalize"].append(t3 - t2)
    norm = statistics.median(runs["normalize"])
    read_only = statistics.median(runs["read_only"])
    print(f"{len(paths)} distinct workbooks (samples, reader corpus, blind corpora), no copies,"
          " every text cache emptied before each run:")
    print(f"  evaltool normalize_files             : {norm:7.3f} s (median of 3)")
    print(f"  openpyxl read-only read every cell   : {read_only:7.3f} s")
    print(f"  ratio normalize / openpyxl read-only : {norm / read_only:7.2f}x (target <= 1.0x)")


def _calamine_read_all(paths: list[Path]) -> int:
    import python_calamine

    cells = 0
    for path in paths:
        wb = python_calamine.CalamineWorkbook.from_path(str(path))
        for name in wb.sheet_names:
            for row in wb.get_sheet_by_name(name).to_python():
                cells += sum(1 for v in row if v != "")
    return cells

# --- blind corpus accuracy -------------------------------------------------------------

_REL_TOL = 0.01  # a figure within 1% of the expected one is right (rounding of converted prices)


def _same_value(got: object, want: object) -> bool:
    if isinstance(want, bool) or isinstance(got, bool):
        return got == want
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        return abs(float(got) - float(want)) <= _REL_TOL * max(abs(float(want)), 1e-9)
    return str(got).strip().casefold() == str(want).strip().casefold()


def _match_offers(produced: list[dict[str, Any]], expected: list[dict[str, Any]]
                  ) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    """Pair each expected offer with the produced offer of its file that agrees on most
    fields (greedy, best pairs first); unpaired expected offers get None."""
    pairs = []
    for e_index, exp in enumerate(expected):
        for p_index, got in enumerate(produced):
            agree = sum(1 for k, v in exp.get("fields", {}).items()
                        if k in got["fields"] and _same_value(got["fields"][k], v))
            pairs.append((agree, -e_index, -p_index))
    pairs.sort(reverse=True)
    taken_e: dict[int, int] = {}
    taken_p: set[int] = set()
    for _agree, e_neg, p_neg in pairs:
        if -e_neg in taken_e or -p_neg in taken_p:
            continue
        taken_e[-e_neg] = -p_neg
        taken_p.add(-p_neg)
    return [(exp, produced[taken_e[i]] if i in taken_e else None)
            for i, exp in enumerate(expected)]


def measure_blind(folder: Path, fx: dict[str, float] | None = None) -> dict[str, Any]:
    """Normalise every file of a blind corpus and compare with its expected.yaml."""
    import yaml

    from evaltool.normalize.core import normalize_files, result_to_dict

    spec = yaml.safe_load((folder / "expected.yaml").read_text(encoding="utf-8"))
    rates = fx or {k: float(v) for k, v in spec.get("fx", {}).items()
                   if isinstance(v, (int, float))}
    files = sorted(spec["files"])
    result: dict[str, list[Any]] = {"offers": [], "not_evaluated": []}
    crashed: dict[str, str] = {}
    for name in files:  # one file at a time: a crash in one must not hide the others
        try:
            one = result_to_dict(normalize_files([folder / name], rates))
        except Exception as exc:
            crashed[name] = f"{type(exc).__name__}: {exc}"[:160]
            continue
        result["offers"] += one["offers"]
        result["not_evaluated"] += one["not_evaluated"]
    by_file: dict[str, list[dict[str, Any]]] = {}
    for offer in result["offers"]:
        by_file.setdefault(Path(offer["source"]["file"]).name, []).append(offer)
    rejected: dict[str, list[dict[str, Any]]] = {}
    for item in result["not_evaluated"]:
        rejected.setdefault(Path(item["source"]["file"]).name, []).append(item)
    report: dict[str, Any] = {"folder": str(folder), "files": len(files), "right": 0,
                              "missing": 0, "wrong": 0, "silently_wrong": 0,
                              "offers_expected": 0, "offers_found": 0,
                              "not_evaluable_expected": 0, "not_evaluable_rejected": 0,
                              "unaccounted_files": [], "failures": [],
                              "crashed": crashed}
    for name in files:
        if name not in by_file and name not in rejected:
            report["unaccounted_files"].append(name)
        expected = spec["files"][name]["offers"]
        evaluable = [e for e in expected if e.get("evaluable", True)]
        broken = [e for e in expected if not e.get("evaluable", True)]
        produced = list(by_file.get(name, []))
        report["offers_expected"] += len(evaluable)
        report["not_evaluable_expected"] += len(broken)
        pairs = _match_offers(produced, expected)
        for exp, got in pairs:
            label = exp.get("offer_label", "")
            if not exp.get("evaluable", True):
                if got is None or got["fields"].get("price_usd_per_gpu_hour") is None:
                    report["not_evaluable_rejected"] += 1
                else:
                    report["failures"].append((name, label, "(offer)", "evaluated although "
                                               "not evaluable", "wrong"))
                continue
            if got is None:
                report["missing"] += len(exp["fields"])
                reasons = "; ".join(e.get("message", e.get("text", ""))[:80]
                                    for r in rejected.get(name, []) for e in r["errors"][:2])
                report["failures"].append((name, label, "(offer)", f"not found: {reasons}",
                                           "missing"))
                continue
            report["offers_found"] += 1
            warned = {w.get("field") for w in got.get("warnings", [])}
            for field_name, want in exp["fields"].items():
                have = got["fields"].get(field_name)
                if have is None:
                    report["missing"] += 1
                    report["failures"].append((name, label, field_name, f"want {want!r}",
                                               "missing"))
                elif _same_value(have, want):
                    report["right"] += 1
                else:
                    report["wrong"] += 1
                    silent = field_name not in warned
                    report["silently_wrong"] += silent
                    report["failures"].append((name, label, field_name,
                                               f"want {want!r} got {have!r}",
                                               "silently wrong" if silent else "wrong, warned"))
    total = report["right"] + report["missing"] + report["wrong"]
    report["fields_expected"] = total
    report["accuracy"] = report["right"] / total if total else 0.0
    return report


def print_blind(report: dict[str, Any], detail: bool = True) -> None:
    from collections import Counter

    print(f"blind corpus {report['folder']}: {report['files']} files")
    print(f"  offers found              : {report['offers_found']} of "
          f"{report['offers_expected']} evaluable; not-evaluable rejected "
          f"{report['not_evaluable_rejected']} of {report['not_evaluable_expected']}")
    print(f"  files accounted for       : {report['files'] - len(report['unaccounted_files'])}"
          f" of {report['files']}")
    for name, why in report["crashed"].items():
        print(f"  CRASHED (batch would die) : {name}: {why}")
    print(f"  fields right              : {report['right']} of {report['fields_expected']} "
          f"({report['accuracy']:.1%})")
    print(f"  missing / wrong           : {report['missing']} / {report['wrong']} "
          f"(silently wrong: {report['silently_wrong']})")
    by_field = Counter((f[2], f[4]) for f in report["failures"])
    print("  failures by field (field, kind: count):")
    for (name, kind), n in sorted(by_field.items(), key=lambda kv: -kv[1]):
        print(f"    {name:<32} {kind:<15} {n}")
    if detail:
        print("  every failure (file | offer | field | detail | kind):")
        for row in report["failures"]:
            print("    " + " | ".join(str(x)[:110] for x in row))


def main() -> None:
    args = sys.argv[1:]
    if any(a in ("-h", "--help") for a in args) or (args and args[0] != "--blind"
                                                   and not args[0].isdigit()):
        print("usage: ingest.py [N]            normalise N workbooks (200) against openpyxl,\n"
              "                                then every blind corpus in tests/\n"
              "       ingest.py --blind DIR ...  measure blind corpora, with every failure")
        return
    blind = [Path(args[i + 1]) for i, a in enumerate(args) if a == "--blind"]
    if blind:
        for folder in blind:
            print_blind(measure_blind(folder))
        return
    count = int(args[0]) if args else 200
    from evaltool.normalize.core import normalize_files

    sources = _workbooks()
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i in range(count):
            src = sources[i % len(sources)]
            dst = Path(tmp) / f"{i:03d}-{src.name}"
            shutil.copyfile(src, dst)
            paths.append(dst)
        normalize_files(paths[:3], {"EUR": 1.08})  # warm imports and the catalog
        _openpyxl_read_all(paths[:3])
        runs: dict[str, list[float]] = {"openpyxl": [], "calamine": [], "normalize": [],
                                        "read_only": []}
        for _ in range(3):
            t_ro = time.perf_counter()
            _openpyxl_read_only_all(paths)
            t0 = time.perf_counter()
            runs["read_only"].append(t0 - t_ro)
            cells = _openpyxl_read_all(paths)
            t1 = time.perf_counter()
            _calamine_read_all(paths)
            clear_text_caches()  # each run as a fresh process would read this batch
            t2 = time.perf_counter()
            result = normalize_files(paths, {"EUR": 1.08})
            t3 = time.perf_counter()
            runs["openpyxl"].append(t1 - t0)
            runs["calamine"].append(t2 - t1)
            runs["normalize"].append(t3 - t2)
    base = statistics.median(runs["openpyxl"])
    norm = statistics.median(runs["normalize"])
    print(f"{count} workbooks ({len(sources)} distinct layouts), {cells} non-empty cells")
    print(f"openpyxl full load + read every cell : {base:7.3f} s (median of 3)")
    print(f"python-calamine read every cell      : {statistics.median(runs['calamine']):7.3f} s")
    print(f"evaltool normalize_files             : {norm:7.3f} s "
          f"({len(result.offers)} offers, {len(result.not_evaluated)} not evaluated)")
    read_only = statistics.median(runs["read_only"])
    print(f"openpyxl read-only read every cell   : {read_only:7.3f} s")
    print(f"ratio normalize / openpyxl full      : {norm / base:7.2f}x (target <= 1.5x)")
    print(f"ratio normalize / openpyxl read-only : {norm / read_only:7.2f}x (target <= 1.0x)")
    print()
    _time_distinct()
    print()
    print(BASELINE_A)
    print()
    print(SESSION_3)
    print()
    print(SESSION_4)
    print(SESSION_5_J1)
    print()
    print(SESSION_5)
    print(SESSION_5_SPEED6)
    print()
    print(SESSION_5_END)
    print()
    print(SESSION_6_SPEED7)
    print()
    print(SESSION_6)
    for folder in sorted((ROOT / "tests").glob("blind_offers_*")):
        print()
        print_blind(measure_blind(folder), detail=False)


# Measured on the code before the reader was generalised (issue 10), for comparison.
BASELINE_A = (
    "blind set A before the reader was generalised: 0 of 29 evaluable offers found, 0 of 623\n"
    "expected fields right (0.0%), 2 of 25 files crashed the batch (a per-node price without\n"
    "GPUs per node raised out of the price derivation). Failure classes then: vendor only in a\n"
    "letterhead, document properties, footer or file name (29 offers rejected for the name);\n"
    "options side by side in columns; label | unit | value; offers as rows under phrase headers;\n"
    "counts in prose or words; accelerator only in a description; one-cell 'Label: value'\n"
    "lines and footnotes; hidden superseded sheets; CPQ list vs net price columns.\n"
    "After the first pass: 21 of 29 offers, 355 of 623 fields (57.0%), 3 wrong (warned).\n"
    "Second pass (classes): contract/terms-sheet figures read by role (clause analysis and\n"
    "labelled terms rows), per-rack prices, percentages never read as amounts, compliance\n"
    "matrices kept as one offer, nested JSON prices and per-instance counts, section | item |\n"
    "value | unit CSVs, NVLink beside memory, add-ons not folded into the rate: 26 of 29\n"
    "offers, 483 of 623 fields (77.5%), 0 wrong.\n"
    "Blind set C (20 files, 30 offers, 809 fields; written by someone new to it) before: 10 of\n"
    "30 offers, 175 of 809 fields (21.6%), 14 silently wrong. Classes fixed: labels and price\n"
    "bases in Spanish/Italian/Polish/Dutch/Swedish/Japanese; a unit or notes column gives a\n"
    "value its basis, currency and unit; a count or price never taken as the accelerator;\n"
    "amounts in an assumed currency and titles taken as names warned; semicolon CSVs with\n"
    "decimal commas; dotted and spaced thousands; table headers in other languages and a unit\n"
    "header over a two-row header; paired 'read / write' figures; count phrases ('4 chips per\n"
    "host (128 hosts)', '8基/ノード'); port counts; sockets x cores; nested 'USD/GPU/hr'.\n"
    "After: 20 of 30 offers, 372 of 809 fields (46.0%), 4 silently wrong; set A 487 of 623\n"
    "(78.2%), 0 silently wrong.\n"
    "Offer-level pass (issue 10; B held out until then: 9 of 20 offers, 180 of 537 fields,\n"
    "33.5%). Classes fixed: per-instance/node prices whose GPUs per node are stated elsewhere\n"
    "('1 instance = 8 GPUs', a spec row 'GPUs | 8 x H200' beside a node count); a line's\n"
    "price cell carrying its basis ('19,84 € / Knoten / h'); two-row line-item headers and\n"
    "a basis column; per-rack lines; lots/options in columns under a described corner and\n"
    "merged cells; short options tables; options tables ending at a blank row; one offer per\n"
    "sheet; offers stacked under headings; line items grouped by lot; superseded sheets;\n"
    "accelerator labels whose value names none; a total contract value as the term price;\n"
    "per-chip-hour JSON line items; 'per 6-month term'; prices in columns headed by their\n"
    "basis; counts in words; vendor from a legal-form name, not the customer's; CSV comment\n"
    "lines; mapping-file options applied. After: A 29/29 offers, 537/623 (86.2%), 0 silently\n"
    "wrong; C 29/30, 569/809 (70.3%), 1; B 20/20, 433/537 (80.6%), 3."
    "Session 3, field level (values, same offers found): before A 487/623 (78.2%), C 372/809\n"
    "(46.0%), B 180/537 (33.5%); silently wrong A 0, C 4, B 5. Classes fixed: facts stated in\n"
    "sentences of letters, notes, footers, banners and notes columns (network, dedicated or\n"
    "shared, storage kind/capacity/read/write, local NVMe, orchestrator, root, peak, NVLink,\n"
    "validity and delivery dates, term, commitment); a server's description (CPU cores,\n"
    "memory, drives, NICs); a GPU-memory size, a model number or 'one OS node' never a count;\n"
    "NIC count x port speed; a GPU link's speed never the network's; a BOM's total before tax\n"
    "after its discount row; a capex with no rate is a purchase; yes/no answers with an\n"
    "explanation; durations, dates, months and labels in Swedish, Spanish, Italian, Dutch,\n"
    "Polish, Finnish and Japanese; two figures sharing one unit refused; a value whose shape is\n"
    "another field's read as that field and warned; support response and credit caps in\n"
    "sentences; a cell's other facts; a node's own disks never the shared storage. After:\n"
    "A 559/623 (89.7%), C 476/809 (58.8%), B 216/537 (40.2%); silently wrong 0 / 0 / 0.\n"
    "Left (offer level, the layout's): options sharing a 'common services' block, offers not\n"
    "found in B (11 of 20), CSV comment lines, short sentences read as labels, vendor names.")


# Session 3: a fresh dev set (D) and a held-out set (E) written blind by two new writers.
SESSION_3 = (
    "Session 3. Held-out set E (15 files, 22 offers, 537 fields; no fixer saw it), measured\n"
    "untouched: before the session's reader work 106/537 (19.7%), 6/22 offers, 8 silently\n"
    "wrong; after round 1 (A/B/C fixed to 86-96%) 195/537 (36.3%), 9/22, 13 silently wrong;\n"
    "after round 2 258/537 (48.0%), 12/22, 11 silently wrong. Set D (fresh dev set) read 12.9%\n"
    "(4/22 offers) as written after round 1: the fixes had fitted the layouts they were made\n"
    "on. Round 2 fixed by mechanism on D (a resource x time price grammar, listing exports,\n"
    "options by table orientation, counts as relations, a plausibility guard dropping\n"
    "low-confidence values the catalog contradicts). Round 3 took E's classes as dev (unit\n"
    "columns, nested JSON options and unit-named keys, stacked options, pricing calculators,\n"
    "prose prices, node configurations, month counts, purchase + colocation, NVL72 trays,\n"
    "cores each, signing dates): E 88.6%, 22/22, 0 silently wrong; D 75.1%. A last held-out\n"
    "set F (15 files, 21 offers, 495 fields), written blind at the end: 43.8% (12/21, 5\n"
    "silently wrong) before round 3 and 44.8% (12/21, 4) after it. Offers not found on a\n"
    "layout nobody has seen remain the main failure class; the 95% target is not met.")



# Session 4: three rounds of fixes by class, each measured on sets nobody fixing had seen.
SESSION_4 = (
    "Session 4 (fields right, offers found, silently wrong; held-out sets measured untouched).\n"
    "Dev: F 44.8% 12/21 4 -> 96.0% 21/21 0 (round 1: price grammar in 12 languages, GPUs per\n"
    "node from anywhere, net capex, line-item sections and totals, options side by side, date\n"
    "order by the document, storage kinds); G 22.8% -> 66.5% 19/21 0 (round 2: cores by CPU\n"
    "model, negated fabrics, node sizes per family, CJK counters, CSV comment-defined columns,\n"
    "nodes x GPUs per node from different places); H 32.8% -> 37.1% 9/21 2 (round 3).\n"
    "Held out: G 22.8% (6/21, 7) -> 42.1% (11/21, 7) after round 1; H 33.0% (8/21, 7) at the\n"
    "start -> 32.8% (8/21, 3) after rounds 1-2; I (mostly English) 42.3% (11/23, 4) at the\n"
    "start -> 43.8% (11/23, 4) after rounds 1-3. Every dev set reaches 90-96% while unseen\n"
    "layouts stay at 33-44%: offers never found remain the main class (price grids of regions x\n"
    "terms with the count stated once, tiered volume prices, 'no single time basis' prices,\n"
    "formula totals without saved values, pro-forma invoices, third stacked options); the\n"
    "silently wrong left on I: a '$' that is CAD, a document title read as the vendor.\n"
    "The 95% target on a held-out set is not met.")


# Session 5, reader-j1: table structure that hid whole offers, fixed by mechanism.
SESSION_5_J1 = (
    "Session 5, reader-j1 (price grids, volume tiers, options that went missing). Mechanisms:\n"
    "a price grid is a header row and a header column framing prices whose basis is stated\n"
    "once (title line, spanning header, column header, corner, a row of units); each priced\n"
    "cell is an offer named by its row and column, sharing the file's other facts; a row or\n"
    "column label that states a term gives the cell's term. Volume tiers (ranges down, across,\n"
    "in a column, as 'From | To' figures, or as header-less label | price lines, in 12\n"
    "languages) are chosen by the document's mark, else by the offer's GPU or server count;\n"
    "unresolved tiers stay visible and warned; a note that limits a column to some tiers is\n"
    "obeyed. A heading that names the next stacked option ends an options table; an option a\n"
    "note offers is its own offer when it is one discount under a one-offer file (paid up front\n"
    "for the term when the note says so), else a warning naming it. Dev before -> after:\n"
    "I 43.8% 11/23 4 -> 67.0% 16/23 6 (the 2 added: the prepay option copies the base offer's\n"
    "title-as-vendor and catalog memory); H 37.2% 9/21 2 -> 57.4% 15/21 2; G 66.5% 19/21 0 ->\n"
    "71.8% 21/21 0; F, E, D, C, B, A unchanged (96.0, 95.2, 92.2, 89.7, 95.7, 97.8; 0).")
# Session 5: the speed of normalising (issue 10, "<= 1.0x a bare openpyxl read-only read").
SESSION_5 = (
    "Session 5 (speed; reader output unchanged: blind sets A-I, offers/ and the test corpus\n"
    "normalise byte-identically). Normalise / openpyxl read-only on these 200 workbooks, as\n"
    "printed above (median of 3, wall clock; other jobs shared the machine): before 1.20-1.67x\n"
    "(lead: 1.21-1.25x quiet), after median 0.89x over 8 runs (0.83-1.06x). Both sides in one\n"
    "process, CPU time, runs 2-8: 1.13x (1.04-1.24) before, 0.80x (0.75-0.86) after. On 12\n"
    "workbooks the process had not seen: 0.13 s -> 0.08 s. Savings: patterns compiled once\n"
    "(re's 512-pattern cache kept dropping them), the prose topic patterns through clause\n"
    "analysis's fast gate (66 -> 13 ms on the samples' clauses), a row's header and filled\n"
    "columns worked out once per grid, superseded markers as one pattern, no sniffing of files\n"
    "named as workbooks, and pure readers of a text (counts, bandwidth, billing unit, storage\n"
    "kinds, number words, yes/no, accelerator) cached by it (texts up to 1,000 characters).\n"
    "The text caches are about half of the saving here, where 200 copies of 12 layouts share\n"
    "their texts; a batch of distinct quotes gains less from them.")

# Session 5, speed6: the distinct workbooks (b), each text cache emptied before each run.
SESSION_5_SPEED6 = (
    "Session 5, speed6 (reader output unchanged: blind sets A-I, offers/ and the test corpus\n"
    "normalise byte-identically after every step). Ratio to openpyxl read-only as printed\n"
    "above, base and new runs alternating on a loaded machine: (b) 129 distinct workbooks\n"
    "before median 2.82x (2.29-3.32, 12 runs), after 2.19x (2.13-2.70, 8 runs); CPU time of\n"
    "normalising them, 5 runs each: 1.27 s -> 0.97 s (2.70x -> 2.08x of a 0.47 s read-only\n"
    "read). (a) 200 copies: before 1.07x (1.03-1.92, 12 runs), after 1.01x (0.97-1.11, 8).\n"
    "Savings, each a cheap necessary condition tested before the costly patterns: a clause's\n"
    "topics gated by the words its patterns start with and the literals they need (2,940\n"
    "clauses 115 -> 42 ms), count shapes only for phrases with a figure and a word of GPUs,\n"
    "nodes or racks (56 -> 33 ms), 'node ... N x' only after a figure and an x, currency\n"
    "words as a set, tier ranges only with a figure, no accent folding of ASCII text, grid\n"
    "starts found in one pass over a sheet, dateutil and a text's clause plan once per text,\n"
    "closest catalog ids bounded by difflib's quick ratios. Left: the rest is spread thin\n"
    "(no reader above ~10% of the run: price grids, key-value rows, prose readers, dates,\n"
    "issue rendering, cell helpers called 100,000 times); <= 1.0x on (b) is not met.")

# Session 5 as a whole: two sets written blind, measured before and after, untouched.
SESSION_5_END = (
    "Session 5, end (main after rounds 7 and 8). Held-out sets written blind by two new\n"
    "writers who never read evaltool; fields right, offers found, silently wrong:\n"
    "  J, held out for round 7 (price grids and tiers, money to price, document kinds and\n"
    "  lost fields, fixed on dev sets G-I): 45.2% 10/21 9 -> 45.9% 10/21 9, while I rose\n"
    "  43.8% -> 98.9% and H 37.2% -> 87.4%. J was then round 8's dev set: 93.8% 21/21 0.\n"
    "  K, held out to the end: 71.8% 18/21 12 at the start, 72.1% 17/21 5 after round 7,\n"
    "  77.7% 18/21 5 after round 8. Its failure classes: a marketplace CSV's vendor only in\n"
    "  a comment line (a data-centre tier column read as the vendor: the 5 silently wrong)\n"
    "  and its term column; a per-server-month price written with the euro sign first and\n"
    "  a decimal comma in an Italian sheet, a pro-forma whose accelerator is only in an\n"
    "  instance name, a purchase + colocation bundle ('no single time basis'); a GB200 rack\n"
    "  rental read as a purchase with its activation fee amortised; credit caps, minimum\n"
    "  commitments and storage prices in calculators.\n"
    "  Every dev set A-J: 0 silently wrong. Fixes on dev sets lift dev sets; unseen sets\n"
    "  move little (J +0.7 points in round 7, K +5.9 over both rounds), mostly through\n"
    "  guards that turn silently wrong values into warned or missing ones (K 12 -> 5).\n"
    "Speed: the benchmark now empties every per-text cache before each timed run (it used\n"
    "to reuse the previous run's, which flattered the 200 copies) and adds (b), the 129\n"
    "distinct workbooks of the repository: (a) 1.06-1.16x, (b) 2.2-2.9x of openpyxl\n"
    "read-only on a loaded machine. An unknown accelerator's fuzzy 'closest ids' (difflib)\n"
    "now run only when its message is read: half the time of reading unseen workbooks.\n"
    "<= 1.0x is not met on either.\n"
    "After K was measured and landed, its one silently wrong class was fixed (reader-l1: a\n"
    "data-centre tier is never a vendor) and two of its lost offers found (reader-l2): K as\n"
    "a dev set 90.5% 20/21 0; D 481/502.\n"
    "L, written blind at the very end and never seen by anyone fixing, untouched: 52.7%\n"
    "12/21 3 on the session's starting code, 72.1% 16/21 4 on its final code. Its classes:\n"
    "a private offer's region grid per instance-hour with list and private-rate columns, a\n"
    "Portuguese per-node-hour price whose GPUs per node are elsewhere; silently wrong: a region\n"
    "with its description, NVLink 'TB/s' read as GB/s, a calculator's list rate where the\n"
    "effective rate is a VLOOKUP/ROUND formula with no saved value.")


# Session 6, speed7: (a) and (b) again; reader output unchanged (byte-identical).
SESSION_6_SPEED7 = (
    "Session 6, speed7 (blind sets A-L, offers/ and the test corpus normalise byte-identically\n"
    "after every step). CPU-time ratio to openpyxl read-only, main and new code alternating,\n"
    "median (range) of 6 runs each on a loaded 2-core machine (load 3-8; wall-clock figures\n"
    "scatter more and agree). With the old cache clearing, comparable to session 5's figures:\n"
    "(a) 1.12x (1.10-1.19) -> 0.96x (0.88-1.02); (b) 165 distinct workbooks 3.02x (2.85-3.05)\n"
    "-> 2.71x (2.57-2.89). The benchmark was kinder than a fresh process: clear_text_caches\n"
    "kept the modules' *_CACHE dicts and the vocabulary's label memo, so a run reused the last\n"
    "run's clause analysis of the same files; now emptied too: (a) 1.56x (1.50-1.70) -> 1.18x\n"
    "(1.12-1.22), (b) 3.90x (3.80-4.05) -> 3.29x (3.11-3.43). (b) run alone also timed\n"
    "openpyxl's import in its first baseline (now imported before). Savings: a sentence's\n"
    "clause classification, topic, figures and commercial facts cached by its text (options\n"
    "and copies share their clauses; facts recorded once and replayed on each builder), a\n"
    "document's shared-sign reading once per document text, Location.to_dict without\n"
    "dataclasses.fields(), an exact resource-word gate before the price-basis patterns.\n"
    "Measured and not done: reading each option's shared notes once per sheet would save at\n"
    "most 3% of (b) (repeats cost 0.06 of 2.07 s CPU: the text caches already absorb them).\n"
    "The reading is not the cost: python-calamine reads every cell of (b) in 0.03 s CPU, our\n"
    "read (calamine + one zip pass for formulas, extents, properties) 0.10 s, openpyxl\n"
    "read-only 0.54 s; the rest (~95%) is understanding the sheets, spread over hundreds of\n"
    "readers (regex search ~38% of it). <= 1.0x is met on (a) only with the old clearing.")


SESSION_6 = (
    "Session 6 (issue 10). Four sets written blind at the session's start by writers who never\n"
    "read evaltool, its tests or offers/, each measured untouched on the starting code (5bb0db6)\n"
    "(fields right; offers found; silently wrong):\n"
    "  M 58.8% (273/464); 15/22; 3   N 79.6% (362/455); 18/21; 4\n"
    "  O 42.5% (197/463); 10/22; 1   P 60.0% (280/467); 14/21; 2 (written mid-session)\n"
    "Round 9 fixed K and L classes (facts stated once elsewhere, list vs net columns, charges\n"
    "tables, regions cut from descriptions, a document's thousands point in every slot,\n"
    "VLOOKUP/INDEX/IF worked out, date roles, storage units in labels): L 72.1% -> 99.2%,\n"
    "21/21, 0 (was 4 silently wrong); unseen after it: M 65.1%, 16/22, 3; N 80.0%, 18/21, 3;\n"
    "O 43.0%, 10/22, 1. Round 10 fixed M and N classes (what the buyer pays: discount lines,\n"
    "columns, tiers, net before tax, all-upfront options; ticked rows; racks x the rack's GPUs;\n"
    "count grids joined to price grids; sheets replaced by another; JSON tiers; basis labels;\n"
    "printed pages; rentals billed monthly; colocation bundles; vendor forms; count phrases):\n"
    "M 97.8%, 22/22, 0; N 99.6%, 21/21, 0; unseen after it: O 43.0%, 10/22, 0; P 67.9%, 15/21, 3.\n"
    "Round 11 fixed O classes (compound node-hour words, unit cells between rate and remark,\n"
    "fee nouns as a basis, lists of bids, alternative rows, paired grid columns, priced\n"
    "bullets, one-off fees, rack power, server lines): O 98.7%, 22/22, 0. Held out to the end,\n"
    "untouched: P 60.0% (280/467), 14/21, 2 -> 67.9% (317/467), 15/21, 3. Written at the end and\n"
    "never seen (kept held out for the next session, not in tests/): Q 51.9% (245/472), 13/21,\n"
    "13 silently wrong on the starting code -> 63.3% (299/472), 15/21, 8 after round 11 ->\n"
    "64.0% (302/472), 15/21, 5 on the final code (a figure or a rating-first facility is never\n"
    "the vendor: a guard, found on P, that transferred).\n"
    "P's open classes: a count scoped '2 x' read as GPUs per node; 'DDN ... Lustre' storage;\n"
    "bilingual options per node-month; instance names stating GPUs ('h100-pcie-2'); a purchase\n"
    "+ colocation bundle not read as a purchase; a broker's data-centre column as the vendor.\n"
    "The lesson a fourth time: each round lifts the sets it was fixed on to 97-99% and moves\n"
    "an unseen set 0-11 points; the guards transfer best (silently wrong 1-4 -> 0-3 on O/P).\n"
    "Speed, honest (every cache emptied): (a) 1.18x after speed7, 1.38x at round 10's end on a\n"
    "loaded machine (the session's new readers cost ~15%); (b) 3.29x -> 4.34x. Not met.")


if __name__ == "__main__":
    main()
