"""Specification: vendor offers written blind (by people who never read evaltool) are read right.

Blind corpora, each with the canonical values a buyer expects (expected.yaml; FX in it):

- tests/blind_offers_a/ — 25 files, used while fixing the reader by failure class. Measured
  before any change: 0 of 29 offers, 0% of fields (two files stopped the batch).
- tests/blind_offers_c/ — 20 files (Spanish, Italian, Polish, Dutch, Swedish, Japanese,
  Swiss-French and German quotes, HPC allocations, a BOM, broker JSON), written later for
  development. Measured before it was used: 10 of 30 offers, 21.6% of fields, 14 silently wrong.
- tests/blind_offers_d/ — 15 files written blind in session 3 (Polish, Danish, Czech,
  Japanese, Portuguese, Spanish, Dutch, Italian, UK and US quotes) for development after
  A–C read well. Measured before it was used: 4 of 22 offers, 12.9% of fields, 3 silently
  wrong — the reader had been fitted to the layouts it knew.
- tests/blind_offers_e/ — 15 files held out in session 3: no one fixing the reader saw it.
  Measured untouched before the session's reader work (19.7% of fields, 6 of 22 offers, 8
  silently wrong) and at its end (48.0%, 12 of 22, 11 silently wrong), then landed here.
- tests/blind_offers_f/ — 15 files written blind at the end of session 3 and held out: measured
  untouched twice (43.8% of fields, 12 of 21 offers, 5 silently wrong; then 44.8%, 12/21, 4),
  then landed here as the development set of session 4.
- tests/blind_offers_g/ — 15 files written blind in session 4 (Japanese, Korean, Norwegian,
  Polish, Czech, Italian, Spanish, Portuguese and Danish quotes, a marketplace CSV, a billing
  JSON, a US order form) and held out: measured untouched before the session's reader work
  (22.8% of fields, 6 of 21 offers, 7 silently wrong) and after its first round (42.1%, 11/21,
  7), then landed here for development.
- tests/blind_offers_h/ — 15 files written blind in session 4 (Estonian, Hungarian, Romanian,
  Turkish, Austrian, Irish, Indian, Singaporean, Brazilian, Mexican, Polish, Czech and Danish
  quotes) and held out: measured untouched at the start of the session (33.0% of fields, 8 of
  21 offers, 7 silently wrong) and after its two reader rounds (32.8%, 8/21, 3), then landed here.
- tests/blind_offers_i/ — 15 files written blind at the end of session 4 (mostly English: US,
  UK, Canadian and Australian neoclouds and hyperscalers, a procurement-portal JSON, a pro-forma
  invoice, with Italian, Spanish, Polish, Danish and Czech quotes) and held out to the end:
  42.3% of fields, 11 of 23 offers, 4 silently wrong at the start of the session and 43.8%,
  11/23, 4 after its three reader rounds, untouched.
- tests/blind_offers_j/ — 15 files written blind in session 5 (Australian, Canadian, UK and US
  neoclouds and hyperscalers, a German reseller, Dutch, Polish, Italian and Spanish quotes, a
  UK HPC award letter, a broker's e-mail, a procurement-portal CSV, a TPU JSON quote) and held
  out for the session's first reader round: 45.2% of fields, 10 of 21 offers, 9 silently wrong
  at the start and 45.9%, 10/21, 9 after the round, while the development sets rose to 87-99%.
  Then the second round's development set.
- tests/blind_offers_k/ — 15 files written blind in session 5 by a second writer and held out
  to the end: 71.8% of fields, 18 of 21 offers, 12 silently wrong at the start; 77.7%, 18/21,
  5 at the end, untouched.
- tests/blind_offers_l/ — 15 files written blind at the very end of session 5 and measured
  untouched on the session's starting and final code: 52.7% of fields, 12 of 21 offers, 3
  silently wrong before; 72.1%, 16/21, 4 after. The bar for the reader on unseen layouts.
- tests/blind_offers_m/ — 15 files written blind at the start of session 6 (US, Canadian,
  Australian and UK providers, Italian, Polish, Danish, Dutch, Spanish and Czech quotes, a
  marketplace CSV, an RFP JSON) and measured untouched: 58.8% of fields, 15 of 22 offers, 3
  silently wrong on the session's starting code; 65.1%, 16/22, 3 after its first reader round,
  which never saw it. Then the second round's development set.
- tests/blind_offers_n/ — 15 files written blind at the same time by a second writer: 79.6%,
  18 of 21 offers, 4 silently wrong at the start; 80.0%, 18/21, 3 after the first round,
  untouched. Then the second round's development set.
- tests/blind_offers_o/ — 15 files written blind at the start of session 6 by a third writer
  (Canadian, Australian, UK and US providers, Polish, Portuguese, Danish, Czech, Italian and
  Spanish quotes, an RFQ CSV, a broker JSON) and held out for two reader rounds: 42.5% of
  fields, 10 of 22 offers, 1 silently wrong at the start; 43.0%, 10/22, 0 after both rounds,
  while their development sets rose to 97-99%. Then the third round's development set.
- tests/blind_offers_p/ — 15 files written blind in the middle of session 6 (US, UK,
  Canadian, Australian, German, French, Polish, Dutch and Spanish quotes, a broker shortlist,
  an HPC award, a colocation bundle, YAML notes) and held out to its end, never seen by anyone
  fixing the reader: 60.0% of fields, 14 of 21 offers, 2 silently wrong on the session's
  starting code; 67.9%, 15/21, 3 on its final code. The bar for the reader on unseen layouts.
- tests/blind_offers_b/ — 15 files held out: no one fixing the reader saw it. Measured untouched
  at the end of session 2, then landed here.

Each test keeps what was won: the share of expected fields read right and the offers found
never fall below the measured floor, silently wrong values never rise above the measured
ceiling (the bar is 0: every one left is a failure class still open), every file is accounted
for, none stops the batch, and the files that cannot be evaluated are refused. The fixes and our
own example of each class are in tests/test_reader_classes.py.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Corpus:
    folder: str
    accuracy_floor: float  # share of expected fields read right, as measured
    offers_found_floor: int
    silently_wrong_ceiling: int
    not_evaluable: int


CORPORA = [
    # round 9, reader-m3 (fields missing from found offers: a date's role by its label's words,
    # year-first dates, a priceless line that is a label and value, a storage size in a line's
    # quantity, a storage price's unit in its label or key, a terms sheet's sentences, credit
    # words and ladders, term words, "no upfront" in any language): B 518->533, C 736->738,
    # D 481->484, F 483->487, G 460->466, H 355->363, J 378->387, K 402->411, L 279->285;
    # A, E, I unchanged; no new wrong value on any set
    # after reader-g2 (tables as rows and columns): 607/623 fields (97.4%), 29/29 offers
    Corpus("blind_offers_a", 0.987, 29, 0, 3),  # 602/623 fields (96.6%), 29/29 offers
    Corpus("blind_offers_c", 0.912, 29, 0, 2),  # 717/809 (88.6%); reader-g2 724/809 (89.5%)
    Corpus("blind_offers_b", 0.992, 20, 0, 2),  # 512/537 fields (95.3%), 20/20 offers
    # 350/502 fields (69.7%), 19/22 offers, 0 silently wrong (as written: 12.9%, 4/22, 3)
    # held out in session 3, measured untouched: 258/537 fields (48.0%), 12/22 offers, 11
    # silently wrong (19.7%, 6/22, 8 before the session's reader work); then as a dev set
    # (reader-e1 + reader-e2): 476/537 fields (88.6%), 22/22 offers, 0 silently wrong;
    # reader-g2: 496/537 (92.4%)
    # reader-j3 (who and what a document is, fields lost on found offers): 517/537 (96.3%)
    Corpus("blind_offers_e", 0.972, 22, 0, 3),
    Corpus("blind_offers_d", 0.968, 22, 0, 3),  # 377/502; reader-g2 420/502; reader-h1 463/502
    # held out, measured untouched: 222/495 fields (44.8%), 12/21 offers, 4 silently wrong;
    # reader-g2 (structure, counts and terms; money left to reader-g1): 392/495 (79.2%),
    # 17/21 offers, 0 silently wrong
    # reader-g1 + reader-g2 merged (session 4): F 475/495 (96.0%), 21/21; D 460/502 (91.6%),
    # 22/22; E 511/537 (95.2%); C 726/809 (89.7%); B 514/537 (95.7%); A 609/623 (97.8%)
    # held out, measured untouched: 115/504 (22.8%), 6/21, 7 silently wrong; after round 1
    # (reader-g1 + reader-g2): 212/504 (42.1%), 11/21 offers, 7 silently wrong; after
    # reader-h1 (no offer lost): 331/504 (65.7%), 19/21 offers, 5 silently wrong; with
    # reader-h2 (every multiplied value rests on a stated basis): 335/504 (66.5%), 19/21, 0
    # reader-j1 (price grids, volume tiers, stacked options): 362/504 (71.8%), 21/21, 0
    # with reader-j3 (who and what a document is, fields lost on found offers): 460/504
    # (91.3%), 21/21, 0 silently wrong
    # reader-m1 (a purchase's monthly charges table, managed-service labels as opex): 463/504
    # merged with round 9 (reader-m2, reader-m3): 473/504 (93.8%), 21/21, 0
    # reader-n4 (counting phrases: "Each rack: 18 compute trays with 4 GPUs"): 479/504
    Corpus("blind_offers_g", 0.950, 21, 0, 2),
    # held out, measured untouched: 134/406 (33.0%), 8/21, 7 silently wrong at the start of
    # session 4; 133/406 (32.8%), 8/21, 3 after its two reader rounds
    # reader-j1 (price grids, volume tiers, stacked options): 233/406 (57.4%), 15/21, 2
    # with reader-j3: 273/406 (67.2%), 15/21, 1 silently wrong (2 x EPYC 9454 "(48
    # núcleos)": 96 cores by the CPU catalog where the writer expects 48)
    # reader-m1 (a capitalised Turkish basis word "AYLIK" no longer crashes the file):
    # 372/406 (91.6%), 21/21, 0 silently wrong
    # merged with round 9 (reader-m2, reader-m3): 380/406 (93.6%), 21/21, 0
    Corpus("blind_offers_h", 0.935, 21, 0, 2),
    # held out to the end of session 4, untouched: 191/452 (42.3%), 11/23, 4 silently wrong
    # at its start; 198/452 (43.8%), 11/23, 4 after its three reader rounds
    # reader-j1 (price grids, volume tiers, options in notes): 303/452 (67.0%), 16/23, 6 -
    # the 2 above the start are the same two values of 15_ironpeak (the title read as the
    # vendor, the catalog memory) copied into its note's prepay option: fixing them there
    # (reader-j3's classes) fixes both offers
    # with reader-j3: 317/452 (70.1%), 16/23, 2 silently wrong (the "$" of a CAD quote)
    # round 8 (reader-k2, whole offers on J: tender exports, e-mail options, per-year
    # private offers, instance-month grids): every dev set as at main 096ee20, raised to it
    Corpus("blind_offers_i", 0.991, 23, 0, 2),
    Corpus("blind_offers_f", 0.983, 21, 0, 2),  # with reader-j3: 479/495 (96.8%)
    # held out for session 5's first reader round, measured untouched: 182/403 (45.2%), 10/21,
    # 9 silently wrong at the start; 185/403 (45.9%), 10/21, 9 after the round (the dev sets
    # rose to 87-99%); then the second round's development set: 378/403 (93.8%), 21/21, 0;
    # reader-n3 (session 6): 388/403 (96.3%), 21/21, 0
    Corpus("blind_offers_j", 0.962, 21, 0, 2),
    # held out to the end of session 5, untouched: 319/444 (71.8%), 18/21, 12 silently wrong
    # at the start; 320/444 (72.1%), 17/21, 5 after round 1; 345/444 (77.7%), 18/21, 5 at the
    # end. The 5 left are one class: a marketplace CSV whose vendor is only in a comment line,
    # read from a data-centre tier column ("Tier III")
    # after landing: reader-l1 (a data-centre tier is never a company name; the marketplace
    # named in the comment lines is the vendor; commit_months is the term): 355/444 (80.0%),
    # 18/21, 0 silently wrong (every dev set held; D rose 479 -> 481 of 502)
    # reader-l2 (a line pricing one node, "server L40S (4 GPU)", counts nodes; "Q.tà", "Voce"
    # headers): 378/444 (85.1%), 19/21, 0 silently wrong (every other dev set unchanged);
    # with a line whose instance name alone names the accelerator ("Instancia dedicada 8×
    # NVIDIA A100 ..., mensual") read as compute in any language: 402/444 (90.5%), 20/21, 0
    # reader-m1 (a purchase + colocation bundle: the table of monthly charges read as running
    # costs, '22 kW @ EUR 175 / kW / month' as quantity x price): 424/444 (95.5%), 21/21, 0
    # merged with round 9 (reader-m2, reader-m3): 441/444 (99.3%), 21/21, 0
    Corpus("blind_offers_k", 0.993, 21, 0, 2),
    # written blind at the end of session 5, never seen by anyone fixing the reader, untouched:
    # 204/387 (52.7%), 12/21, 3 silently wrong on the session's starting code (cc80cb5);
    # 264/387 (68.2%), 15/21, 3 on its final code before reader-l2; 279/387 (72.1%), 16/21, 4
    # after it. The 4 left: a region with its description ("Montréal (ca-east-1), 100%
    # hydro-powered"), NVLink "1.8 TB/s" read as 1.8 GB/s, a calculator's list rate where the
    # effective rate is a VLOOKUP/ROUND formula without a saved value
    # session 6, round 9 (reader-m2: regions cut from descriptions, a document's thousands point
    # in every slot, VLOOKUP/ROUND worked out, file-name vendors in the document's own form;
    # reader-m3: date roles from labels, storage units in labels, terms-sheet sentences):
    # 290/387 (74.9%), 16/21, 0 silently wrong (was 4); every dev set 0 silently wrong
    # reader-m1 (GPUs per node stated once in the document, "8× 180 GB HBM3e"; a price grid
    # with list and private rates side by side, a committed count and a discount share):
    # 370/387 (95.6%), 21/21, 4 silently wrong (the same 4 as above)
    # merged with round 9 (reader-m2, reader-m3): 384/387 (99.2%), 21/21, 0 silently wrong
    Corpus("blind_offers_l", 0.992, 21, 0, 2),
    # session 6, round 10 (reader-n1: what the buyer pays - discount lines, columns, tiers, net
    # before tax, all-upfront options; reader-n3: rentals billed by the month are no purchase,
    # colocation bundles, vendor forms, per-line sites, e-mail fields): 345/464 (74.4%), 16/22, 0
    # reader-n2 (whole offers not found: a ticked row among alternatives, whole racks bought,
    # a price grid's counts in a second grid, a superseded sheet naming its replacement,
    # JSON tiers, a fee label known by its basis, a quote printed to PDF): 454/464 (97.8%),
    # 22/22, 0 silently wrong; reader-o3: 455/464 (98.1%), 22/22, 0 silently wrong
    Corpus("blind_offers_m", 0.980, 22, 0, 2),
    # the same round: 391/455 (85.9%), 18/21, 0 silently wrong; reader-n2: 453/455 (99.6%),
    # 21/21, 0 silently wrong
    Corpus("blind_offers_n", 0.995, 21, 0, 2),
    # held out for two rounds, untouched: 197/463 (42.5%), 10/22, 1 at the start; 199/463
    # (43.0%), 10/22, 0 after them; reader-o2 (several offers in one file) 316/463 (68.3%),
    # 17/22, 0; with reader-o1 (a node-hour in one word, a unit cell beside a rate, a fee noun
    # per node, a stated accelerator variant, lists of bids, alternative CSV lines): 438/463
    # (94.6%), 22/22, 0 silently wrong
    # round 11 (reader-o1: compound node-hour words, unit cells between rate and remark, fee
    # nouns as a basis, lists of bids; reader-o2: alternative rows, paired grid columns, priced
    # bullets; reader-o3: fields of found offers): 457/463 (98.7%), 22/22, 0
    Corpus("blind_offers_o", 0.987, 22, 0, 2),
    # written blind mid-session 6 and held out to its end, untouched: 280/467 (60.0%), 14/21, 2
    # silently wrong at the start; 284 (60.8%), 14/21, 2 after round 9; 317 (67.9%), 15/21, 3
    # after rounds 10 and 11. Open: a count scoped "2 x" read as GPUs per node (Polish), a
    # storage kind written "DDN ... Lustre", options priced per node-month in a bilingual
    # sheet, instance names that state their GPUs ("h100-pcie-2"), a purchase + colocation
    # bundle not read as a purchase. After landing (dev): a rating-first facility ("Tier III
    # DC, Dallas TX") and a figure are never the vendor: 320/467 (68.5%)
    Corpus("blind_offers_p", 0.685, 15, 3, 2),
]


def _measure(folder: Path) -> dict[str, Any]:
    spec = importlib.util.spec_from_file_location("ingest_bench",
                                                  ROOT / "benchmarks" / "ingest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    report: dict[str, Any] = module.measure_blind(folder)
    return report


@pytest.fixture(scope="module", params=CORPORA, ids=lambda c: c.folder)
def measured(request: pytest.FixtureRequest) -> tuple[Corpus, dict[str, Any]]:
    corpus: Corpus = request.param
    return corpus, _measure(ROOT / "tests" / corpus.folder)


def test_silently_wrong_values_never_increase(measured: tuple[Corpus, dict[str, Any]]) -> None:
    corpus, report = measured
    silent = [f for f in report["failures"] if f[4] == "silently wrong"]
    assert len(silent) <= corpus.silently_wrong_ceiling, silent


def test_every_file_is_accounted_for_and_none_stops_the_batch(
        measured: tuple[Corpus, dict[str, Any]]) -> None:
    _, report = measured
    assert report["unaccounted_files"] == []
    assert report["crashed"] == {}


def test_offers_that_cannot_be_evaluated_are_not(measured: tuple[Corpus, dict[str, Any]]) -> None:
    corpus, report = measured
    assert report["not_evaluable_rejected"] == report["not_evaluable_expected"]
    assert report["not_evaluable_expected"] == corpus.not_evaluable


def test_field_accuracy_stays_above_the_measured_floor(
        measured: tuple[Corpus, dict[str, Any]]) -> None:
    corpus, report = measured
    assert report["accuracy"] >= corpus.accuracy_floor
    assert report["offers_found"] >= corpus.offers_found_floor
