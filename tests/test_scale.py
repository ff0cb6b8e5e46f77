"""Linear at scale (issue 15): the faster paths give the same results as the old ones.

Speed itself is measured by benchmarks/scale.py, never by a timed test.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
import random
from pathlib import Path

import numpy as np
import pytest
from scale_oracle import (
    old_clarification_priority,
    old_dominance,
    old_kendall_tau,
    old_rank_intervals,
    old_smaa,
    old_weight_break_evens,
)

from evaltool.decide.core import kendall_tau
from evaltool.decide.sensitivity import (
    clarification_priority,
    dominance,
    rank_intervals,
    smaa,
)
from evaltool.decide.weight_draws import (
    relative_weight_bands,
)
from evaltool.decide.weights import weight_break_evens
from evaltool.models import Workload
from evaltool.score.core import ScoredOffer, aggregate, aggregate_score, rank, to_result
from evaltool.score.rubric import Rubric, load_rubric

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("seed", range(6))
def test_smaa_without_unread_outputs_gives_the_same_acceptabilities(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n_alt, n_crit = int(rng.integers(2, 40)), int(rng.integers(2, 12))
    values = rng.random((n_alt, n_crit))
    weights = rng.random(n_crit) + 0.05
    weights /= weights.sum()
    bands = relative_weight_bands(weights, 0.3)
    missing = rng.random((n_alt, n_crit)) < 0.1
    old = smaa(values, weights, bands, n_draws=2_000, seed=seed, missing_intervals=missing,
               extra_outputs=True)
    new = smaa(values, weights, bands, n_draws=2_000, seed=seed, missing_intervals=missing)
    np.testing.assert_array_equal(new.rank_acceptability, old.rank_acceptability)
    np.testing.assert_array_equal(new.win_probability, old.win_probability)
    assert new.central_weights is None and new.pairwise_winning is None
    assert old.pairwise_winning is not None
    # the pairwise table, when asked for, still agrees with the acceptabilities
    np.testing.assert_allclose(old.pairwise_winning.diagonal(), 0.0)


def _random_problem(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Values (some rows repeated, some rounded so exact ties happen), weights, bands and
    a mask of unknown values."""
    rng = np.random.default_rng(seed)
    n_alt, n_crit = int(rng.integers(2, 260)), int(rng.integers(2, 14))
    values = rng.random((n_alt, n_crit))
    if seed % 3 == 0:
        values = np.round(values, 1)
        values[1] = values[0]
    weights = rng.random(n_crit) + 0.05
    weights /= weights.sum()
    return values, weights, relative_weight_bands(weights, 0.3), rng.random(values.shape) < 0.15


@pytest.mark.parametrize("seed", range(16))
def test_smaa_in_chunks_and_with_a_rank_limit_equals_the_first_implementation(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evaltool.decide import sensitivity

    values, weights, bands, unknown = _random_problem(seed)
    missing = unknown if seed % 2 else None
    draws = 300 + 397 * seed
    old = old_smaa(values, weights, bands, n_draws=draws, seed=seed, missing_intervals=missing,
                   extra_outputs=seed % 4 == 0)
    # small chunks: many chunks per run, as thousands of offers give
    monkeypatch.setattr(sensitivity, "_CHUNK_BYTES", 8 if seed % 5 == 0 else 20_000 + 5_000 * seed)
    new = smaa(values, weights, bands, n_draws=draws, seed=seed, missing_intervals=missing,
               extra_outputs=seed % 4 == 0)
    np.testing.assert_array_equal(new.rank_acceptability, old.rank_acceptability)
    np.testing.assert_array_equal(new.win_probability, old.win_probability)
    if seed % 4 == 0:
        np.testing.assert_array_equal(new.pairwise_winning, old.pairwise_winning)
        np.testing.assert_array_equal(new.central_weights, old.central_weights)
    top = smaa(values, weights, bands, n_draws=draws, seed=seed, missing_intervals=missing,
               ranks=7)
    np.testing.assert_array_equal(top.rank_acceptability, old.rank_acceptability[:, :7])
    np.testing.assert_array_equal(top.win_probability, old.win_probability)


@pytest.mark.parametrize("seed", range(8))
def test_dominance_among_the_first_offers_is_the_full_list_cut_there(seed: int) -> None:
    values, *_ = _random_problem(seed)
    values = np.round(values, 0)  # coarse values: many dominance pairs
    full = dominance(values)
    assert full == old_dominance(values)
    assert dominance(values, 5) == [(a, b) for a, b in full if b < 5]


@pytest.mark.parametrize("seed", range(40))
def test_rank_intervals_and_clarification_priority_equal_the_pairwise_versions(
    seed: int,
) -> None:
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(1, 40)), int(rng.integers(1, 8))
    values = np.round(rng.random((n, k)), int(rng.integers(0, 3)))  # rounded: ties
    unknown = rng.random((n, k)) < 0.4
    values[unknown & (rng.random((n, k)) < 0.3)] = np.nan
    weights = np.full(k, 1 / k) if seed % 5 == 0 else rng.random(k) + 0.01
    weights /= weights.sum()
    assert rank_intervals(values, weights, unknown) == old_rank_intervals(values, weights, unknown)
    new = [dataclasses.astuple(c) for c in clarification_priority(values, weights, unknown)]
    old = [dataclasses.astuple(c) for c in old_clarification_priority(values, weights, unknown)]
    assert new == old


@pytest.mark.parametrize("seed", range(40))
def test_kendall_tau_by_merge_sort_equals_the_pairwise_count(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(0, 60)
    steps = rng.choice([2, 3, 10, 10**6])  # few steps: many ties in either ranking
    x = [round(rng.random() * steps) / steps for _ in range(n)]
    y = ([round(rng.random() * steps) / steps for _ in range(n)] if seed % 2
         else [v if rng.random() < 0.7 else rng.random() for v in x])
    assert kendall_tau(x, y) == old_kendall_tau(x, y)


# --------------------------------------------------------------------------- weight break-evens


@pytest.fixture(scope="module")
def sample_scored() -> tuple[list[ScoredOffer], Rubric, Workload]:
    """The sample offers scored as `evaltool score offers/*` scores them."""
    from evaltool.normalize.core import normalize_files
    from evaltool.pipeline import evaluate_offer, parse_fx, resolve_workload, sort_inputs

    inputs = sort_inputs(sorted(p for p in (ROOT / "offers").iterdir() if p.is_file()))
    workload, _ = resolve_workload(None, inputs.workloads)
    rubric = load_rubric(None)
    offers = normalize_files(inputs.offers, parse_fx([], inputs.fx_files)).offers
    return rank([evaluate_offer(o, rubric, workload, None) for o in offers]), rubric, workload


def test_weight_break_evens_in_closed_form_equal_the_grid_search_on_the_sample_offers(
    sample_scored: tuple[list[ScoredOffer], Rubric, Workload],
) -> None:
    ranked, rubric, _ = sample_scored
    eligible = [s for s in ranked if s.eligible]
    bands = list(rubric.global_weight_bands().values())
    new = weight_break_evens(eligible, rubric, bands)
    assert new
    assert new == old_weight_break_evens(eligible, rubric, bands)


@pytest.mark.parametrize("seed", range(60))
def test_weight_break_evens_in_closed_form_equal_the_grid_search_on_random_values(
    seed: int, sample_scored: tuple[list[ScoredOffer], Rubric, Workload],
) -> None:
    """Random criterion values on the sample offers: unknown (neutral, re-shared in their
    category), worst, best, halves and anything between; sometimes two identical offers."""
    ranked, rubric, _ = sample_scored
    rng = random.Random(seed)
    picks = [copy.copy(rng.choice(ranked)) for _ in range(rng.randint(2, 14))]
    for s in picks:
        values = dict(s.values)
        for c in rubric.criteria:
            r = rng.random()
            if r < 0.15:
                values[c.id] = None
            elif r < 0.6:
                values[c.id] = rng.choice([0.0, 1.0, 0.5, round(rng.random(), 2), rng.random()])
        s.values = values
        s.score = aggregate(rubric, values)[0]
    picks.sort(key=lambda s: -s.score)
    if seed % 7 == 0:
        picks[1] = picks[0]
    bands = [(w * 0.7, min(1.0, w * 1.3)) for w in rubric.global_weights().values()]
    assert weight_break_evens(picks, rubric, bands) == old_weight_break_evens(picks, rubric, bands)


# --------------------------------------------------------------------------- decide


def test_decide_on_the_sample_offers_equals_the_first_implementation(
    sample_scored: tuple[list[ScoredOffer], Rubric, Workload], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every key of the sensitivity and the recommendation, with the old SMAA and the old
    weight break-evens put back in place of the new ones."""
    from evaltool.decide import core, sensitivity

    ranked, rubric, workload = sample_scored
    new = core.decide(ranked, rubric, workload, None, draws=2_000)
    with monkeypatch.context() as patch:
        patch.setattr(core, "weight_break_evens", old_weight_break_evens)
        patch.setattr(sensitivity, "smaa", lambda *a, ranks=None, **k: old_smaa(*a, **k))
        patch.setattr(sensitivity, "dominance", lambda values, among=None: old_dominance(values))
        old = core.decide(ranked, rubric, workload, None, draws=2_000)
    assert new == old
    assert len(new[0]["rank_acceptability"]) == sum(s.eligible for s in ranked)


def test_offers_by_offers_tables_cover_the_first_twenty_unless_asked_for_in_full() -> None:
    from evaltool.decide.core import TABLE_OFFERS

    rng = np.random.default_rng(3)
    values = rng.random((TABLE_OFFERS + 15, 6))
    weights = np.full(6, 1 / 6)
    bands = relative_weight_bands(weights, 0.2)
    cut = smaa(values, weights, bands, n_draws=500, ranks=TABLE_OFFERS)
    assert cut.rank_acceptability.shape == (TABLE_OFFERS + 15, TABLE_OFFERS)
    full = smaa(values, weights, bands, n_draws=500)
    assert full.rank_acceptability.shape == (TABLE_OFFERS + 15, TABLE_OFFERS + 15)


# --------------------------------------------------------------------------- score


@pytest.mark.parametrize("seed", range(10))
def test_score_alone_is_the_aggregate_score(
    seed: int, sample_scored: tuple[list[ScoredOffer], Rubric, Workload],
) -> None:
    _, rubric, _ = sample_scored
    rng = random.Random(seed)
    for _ in range(50):
        values: dict[str, float | None] = {
            c.id: rng.choice([None, 0.0, 1.0, rng.random()]) for c in rubric.criteria}
        assert aggregate_score(rubric, values) == aggregate(rubric, values)[0]


def test_result_estimates_share_the_explain_tree_and_equal_a_full_dump(
    sample_scored: tuple[list[ScoredOffer], Rubric, Workload],
) -> None:
    ranked, _, _ = sample_scored
    for i, s in enumerate(ranked, start=1):
        result = to_result(s, i)
        dumped = s.estimates.model_dump(mode="json")
        assert result.estimates == dumped
        assert list(result.estimates) == list(dumped)


# --------------------------------------------------------------------------- JSON writer


def _old_report_to_json(data: object) -> str:
    """The writer before issue 15: the oracle the fast writer must equal byte for byte."""
    import json

    from evaltool.report.exports import _canonical

    return json.dumps(_canonical(data), sort_keys=True, indent=2, ensure_ascii=False,
                      allow_nan=False) + "\n"


def _fast(data: object) -> str:
    from evaltool.report.exports import _encode_canonical

    out: list[str] = []
    _encode_canonical(data, "", out)
    return "".join(out) + "\n"


def test_fast_json_writer_equals_the_old_one_on_the_sample_report() -> None:
    import json

    sample = json.loads((Path(__file__).parent / "fixtures" / "score_report_sample.json")
                        .read_text(encoding="utf-8"))
    assert _fast(sample) == _old_report_to_json(sample)


@pytest.mark.parametrize("seed", range(20))
def test_fast_json_writer_equals_the_old_one_on_random_documents(seed: int) -> None:
    rng = np.random.default_rng(seed)
    atoms = [None, True, False, 0, -3, 10**20, 0.0, -0.0, 1e-9, -1e-7, 2.5e-7, 123456.7654321,
             float("nan"), float("inf"), 1e300, "", "é € \u2028 \"q\" \\ \n\t\x01", "z", "a"]

    def build(depth: int) -> object:
        kind = int(rng.integers(0, 4 if depth < 4 else 1))
        if kind == 0:
            if rng.random() < 0.3:
                return float(rng.normal() * 10.0 ** int(rng.integers(-8, 8)))
            return atoms[int(rng.integers(0, len(atoms)))]
        if kind == 1:
            return [build(depth + 1) for _ in range(int(rng.integers(0, 4)))]
        if kind == 2:
            return tuple(build(depth + 1) for _ in range(int(rng.integers(0, 3))))
        return {str(atoms[int(rng.integers(15, len(atoms)))]) + str(i): build(depth + 1)
                for i in range(int(rng.integers(0, 5)))}

    for _ in range(30):
        doc = build(0)
        assert _fast(doc) == _old_report_to_json(doc)


def test_json_written_piece_by_piece_is_the_whole_document() -> None:
    import json

    from evaltool.models import ScoreReport
    from evaltool.report.exports import iter_report_json, report_to_json
    from evaltool.report.text import terminal_safe

    data = json.loads((Path(__file__).parent / "fixtures" / "score_report_sample.json")
                      .read_text(encoding="utf-8"))
    data["offers"][0]["vendor"] = "Evil\u202e \x1b[2J \x85 \u00e9"  # made inert on every path
    report = ScoreReport.model_validate(data)
    # not JSON-ready: the writer falls back to the full dump for this offer
    report.offers[-1].estimates["as_of"] = datetime.date(2026, 1, 1)
    report.offers[-1].estimates["tags"] = {"b"}
    pieces = list(iter_report_json(report))
    assert len(pieces) > len(report.offers)
    whole = "".join(pieces)
    assert whole == report_to_json(report)
    assert whole == terminal_safe(_old_report_to_json(report.model_dump(mode="json")))
    assert "\\u202e" in whole and "\x1b" not in whole
    assert '"as_of": "2026-01-01"' in whole


def test_the_workbook_lists_every_offer_and_the_detail_of_the_first_ones(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Ranking, Categories and Sensitivity hold every offer; Criteria, Flags and Gates hold the
    first MAX_DETAIL_OFFERS and a closing row that says how many more there are."""
    import io

    from openpyxl import load_workbook

    from evaltool.pipeline import score_files
    from evaltool.report import sheets
    from evaltool.report.exports import to_xlsx_bytes

    offers = Path(__file__).resolve().parents[1] / "offers"
    report = score_files(sorted(offers.glob("*.xlsx")), fx=["EUR=1.08"], draws=200)
    monkeypatch.setattr(sheets, "MAX_DETAIL_OFFERS", 2)
    wb = load_workbook(io.BytesIO(to_xlsx_bytes(report)), read_only=True)
    n = len(report.offers)
    for title in ("Ranking", "Categories", "Sensitivity"):
        assert len(list(wb[title].iter_rows(min_row=3, values_only=True))) == n, title
    first_two = {o.id for o in sheets.ranked(report)[:2]}
    for title in ("Criteria", "Flags", "Gates"):
        rows = list(wb[title].iter_rows(min_row=3, values_only=True))
        assert {r[0] for r in rows[:-1]} == first_two, title
        assert rows[-1][0].startswith(f"… and {n - 2:,} more offers"), title


def test_the_json_file_is_written_in_pieces_and_equals_the_json_text(tmp_path: Path) -> None:
    from evaltool.pipeline import score_files
    from evaltool.report.render import render_report, report_to_json

    offers = Path(__file__).resolve().parents[1] / "offers"
    report = score_files(sorted(offers.glob("*.xlsx")), fx=["EUR=1.08"], draws=200)
    out = render_report(report, tmp_path / "scores.json")
    assert out.read_text(encoding="utf-8") == report_to_json(report)
