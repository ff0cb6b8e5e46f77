"""The recommendation and what would change it: every statement holds when applied.

decide returns numbers and names; report words them (`decision_with_words`). Each "what
would change the decision" sentence comes with a structured item
(`sensitivity["what_would_change_detail"]`); these tests apply the item to the real
estimate + score path (a price cut, an MFU or bandwidth gain, a weight, an answer) and
check that the claimed tie or change happens. Oracles: the product's own scoring path
(`evaltool.estimate.estimate_offer` + `evaltool.score.core.score_offer`), which decide.py only
calls, and the published Kendall tau-b example of scipy.stats.kendalltau.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import builders
import pytest

from evaltool.cli import error_text
from evaltool.decide.core import decide, kendall_tau
from evaltool.decide.whatif import (
    MAX_INTER_NODE_GBIT_S_PER_GPU,
    MAX_SOFTWARE_EFFICIENCY,
    PRICE_FIELDS,
    rubric_with_weight,
    software_efficiency_of,
)
from evaltool.errors import UsageError
from evaltool.estimate.money import estimate_with_money
from evaltool.models import Offer, Workload
from evaltool.pipeline import evaluate_offer
from evaltool.report.decide_words import QUESTIONS, clarification_question, decision_with_words
from evaltool.score.core import ScoredOffer, aggregate, rank, score_offer
from evaltool.score.rubric import Rubric, load_rubric

ROOT = Path(__file__).resolve().parents[1]
OFFER_FILES = sorted(p for p in (ROOT / "offers").iterdir() if p.is_file())

WORKLOAD = Workload(
    name="70b", params_b=70, tokens_b=2000, seq_len=4096, n_layers=80, d_model=8192,
    deadline_days=120, cost_of_delay_usd_per_day=40_000, storage_needed_tb=400,
    gpus_wanted=1024,
)
RUBRIC = load_rubric("llm-pretraining")


make_offer = builders.make_offer


@dataclass
class Case:
    ranked: list[ScoredOffer]
    rubric: Rubric
    workload: Workload
    sensitivity: dict[str, Any]  # as the report states it: decide's figures, worded
    recommendation: dict[str, Any]
    decided: tuple[dict[str, Any], dict[str, Any]]  # what decide returned, before the words

    @property
    def eligible(self) -> list[ScoredOffer]:
        return [s for s in self.ranked if s.eligible]

    def offer(self, offer_id: str) -> ScoredOffer:
        return next(s for s in self.ranked if s.offer.id == offer_id)


def run_case(offers: list[Offer], rubric: Rubric = RUBRIC, workload: Workload = WORKLOAD,
             **kwargs: Any) -> Case:
    ranked = rank([evaluate_offer(o, rubric, workload, None) for o in offers])
    sensitivity, recommendation = decide(ranked, rubric, workload, None, **kwargs)
    decided = copy.deepcopy((sensitivity, recommendation))
    decision_with_words(sensitivity, recommendation, rubric)
    return Case(ranked, rubric, workload, sensitivity, recommendation, decided)


@pytest.fixture(scope="module")
def samples() -> Case:
    """The bundled sample offers, through the same stages as `evaltool score offers/*`."""
    from evaltool.normalize.core import normalize_files
    from evaltool.pipeline import parse_fx, resolve_workload, sort_inputs

    inputs = sort_inputs(OFFER_FILES)
    workload, _ = resolve_workload(None, inputs.workloads)
    normalized = normalize_files(inputs.offers, parse_fx([], inputs.fx_files))
    return run_case(list(normalized.offers), load_rubric(None), workload)


@pytest.fixture(scope="module")
def contest() -> Case:
    """A close contest: a cheaper MI300X offer with no contract terms 2 points behind."""
    return run_case([
        make_offer("alpha"),
        make_offer("bravo", price_usd_per_gpu_hour=2.9, inter_node_gbit_s_per_gpu=200),
        make_offer("charlie", price_usd_per_gpu_hour=2.1, accelerator="MI300X",
                   gpu_memory_gb=192, inter_node_fabric="roce", sla_uptime_pct=None),
        make_offer("delta", network_dedicated=False, price_usd_per_gpu_hour=2.2,
                   storage_type="nfs"),
        make_offer("echo", inter_node_gbit_s_per_gpu=50, inter_node_fabric="ethernet",
                   price_usd_per_gpu_hour=1.9),
    ])


# ----------------------------------------------------------------------------- appliers
# Written here, not imported, so the checks do not share a bug with decide.py.


def rescore(s: ScoredOffer, case: Case, offer: Offer | None = None,
            workload: Workload | None = None) -> float:
    offer = offer or s.offer
    workload = workload or case.workload
    estimates = estimate_with_money(offer, workload, None, s.terms)
    return score_offer(offer, estimates, case.rubric, workload, s.findings).score


def priced(offer: Offer, factor: float) -> Offer:
    f = offer.fields
    update = {n: getattr(f, n) * factor for n in PRICE_FIELDS if getattr(f, n) is not None}
    return offer.model_copy(update={"fields": f.model_copy(update=update)})


def with_bandwidth(offer: Offer, gbit_s_per_gpu: float) -> Offer:
    f = offer.fields
    update: dict[str, Any] = {"inter_node_gbit_s_per_gpu": gbit_s_per_gpu}
    if f.inter_node_gbit_s_per_node is not None and f.gpus_per_node:
        update["inter_node_gbit_s_per_node"] = gbit_s_per_gpu * f.gpus_per_node
    return offer.model_copy(update={"fields": f.model_copy(update=update)})


def with_efficiency(workload: Workload, value: float) -> Workload:
    return workload.model_copy(update={"software_efficiency": value})


def rescored_with_rubric(s: ScoredOffer, rubric: Rubric, case: Case) -> float:
    return score_offer(s.offer, s.estimates, rubric, case.workload, s.findings).score


def check_change(item: Mapping[str, Any], case: Case) -> None:
    """Apply one 'what would change the decision' item and assert what it claims."""
    winner = case.eligible[0]
    kind = item["kind"]
    if kind == "input_break_even":
        s = case.offer(item["offer_id"])
        assert item["target_offer_id"] == winner.offer.id
        if "price_cut_pct" in item:
            score = rescore(s, case, priced(s.offer, 1 - item["price_cut_pct"] / 100))
            assert score == pytest.approx(winner.score, abs=0.01)
        if "software_efficiency_at_tie" in item:
            wl = with_efficiency(case.workload, item["software_efficiency_at_tie"])
            assert rescore(s, case, workload=wl) == pytest.approx(winner.score, abs=0.01)
        if "inter_node_gbit_s_per_gpu_at_tie" in item:
            offer = with_bandwidth(s.offer, item["inter_node_gbit_s_per_gpu_at_tie"])
            assert rescore(s, case, offer) == pytest.approx(winner.score, abs=0.01)
    elif kind == "no_input_change":
        for offer_id in item["offer_ids"]:
            s = case.offer(offer_id)
            cut = 1 - item["max_price_cut_pct"] / 100
            assert rescore(s, case, priced(s.offer, cut)) < winner.score
            if software_efficiency_of(s.estimates) is not None:
                wl = with_efficiency(case.workload, item["max_software_efficiency"])
                assert rescore(s, case, workload=wl) < winner.score
            offer = with_bandwidth(s.offer, item["max_inter_node_gbit_s_per_gpu"])
            assert rescore(s, case, offer) < winner.score
    elif kind == "weight":
        changed = rubric_with_weight(case.rubric, item["criterion"], item["weight_at_tie"])
        challenger = case.offer(item["new_winner"])
        assert rescored_with_rubric(challenger, changed, case) == pytest.approx(
            rescored_with_rubric(winner, changed, case), abs=1e-6)
    elif kind == "no_weight_change":
        bands = case.rubric.global_weight_bands()
        weights = case.rubric.global_weights()
        for cid, (low, high) in bands.items():
            for t in (min(low, weights[cid]), max(high, weights[cid])):
                changed = rubric_with_weight(case.rubric, cid, t)
                scores = {s.offer.id: rescored_with_rubric(s, changed, case)
                          for s in case.eligible}
                assert max(scores.values()) == scores[winner.offer.id], (cid, t)
    elif kind == "clarification":
        s = case.offer(item["offer_id"])
        if s is winner:  # a poor answer could cost it first place
            worst = min(aggregate(case.rubric, {**s.values, c: 0.0})[0]
                        for c in item["criteria"])
            assert worst < max(o.score for o in case.eligible[1:])
        else:
            best = max(aggregate(case.rubric, {**s.values, c: 1.0})[0]
                       for c in item["criteria"])
            assert best > winner.score
    elif kind == "unverified_gate":
        s = case.offer(item["offer_id"])
        assert not s.eligible
        assert all(g.status in ("pass", "unverified") for g in s.gates)
        assert {g.gate for g in s.gates if g.status == "unverified"} == set(item["gates"])
        assert item["would_rank_first"] == (s.score > winner.score)
    elif kind == "cost_basis":
        charged = {"cost_basis": item["basis"]}
        scores = {}
        for s in case.eligible:
            est = estimate_with_money(s.offer, case.workload, charged, s.terms)
            scores[s.offer.id] = score_offer(s.offer, est, case.rubric, case.workload,
                                             s.findings).score
        assert max(scores, key=lambda k: scores[k]) == item["new_winner"]
        for offer_id, score in item["scores"].items():  # the scores the sentence quotes
            assert score == pytest.approx(scores[offer_id], abs=1e-6)
            assert f"{score:.1f}" in item["text"] or offer_id not in (
                item["new_winner"], case.eligible[0].offer.id)
    elif kind == "tie":
        runner = case.offer(item["runner_up"])
        assert winner.score - runner.score < case.rubric.tie_threshold_points
    elif kind == "cross_check":
        assert case.sensitivity["cross_check"]["ranking"][0] != winner.offer.id
    else:  # pragma: no cover - a new kind needs its check here
        raise AssertionError(f"no check for {kind!r}")


# ----------------------------------------------------------------------------- tests


def test_every_sample_what_would_change_line_is_true_when_applied(samples: Case) -> None:
    detail = samples.sensitivity["what_would_change_detail"]
    assert [d["text"] for d in detail] == samples.sensitivity["what_would_change"]
    assert detail, "the memo must say what would change the decision"
    for item in detail:
        check_change(item, samples)


def test_every_contest_what_would_change_line_is_true_when_applied(contest: Case) -> None:
    detail = contest.sensitivity["what_would_change_detail"]
    kinds = {d["kind"] for d in detail}
    # The close contest exercises price/MFU break-evens and questions.
    assert {"input_break_even", "clarification"} <= kinds
    for item in detail:
        check_change(item, contest)


def test_a_winner_committing_far_more_than_the_run_is_checked_on_commitments(
    samples: Case,
) -> None:
    # The sample winner's 12-month term commits far more than the 24-day run uses.
    item = next(d for d in samples.sensitivity["what_would_change_detail"]
                if d["kind"] == "cost_basis")
    basis = samples.sensitivity["commitment_basis"]
    assert basis["winner_commitment_usd"] > 1.2 * basis["winner_minimum_cash_usd"]
    check_change(item, samples)
    # The sentence says what the recomputed scores say, never a templated claim.
    kept = basis["winner"] == samples.eligible[0].offer.id
    assert ("keeps" in item["text"]) == kept


def test_headline_names_the_money_of_winner_and_runner_up(samples: Case) -> None:
    from evaltool.report.fmt import usd

    rec = samples.recommendation
    for offer_id in (rec["offer_id"], rec["runner_up_id"]):
        est = samples.offer(offer_id).estimates.model_dump()
        for key in ("total_cost_usd", "minimum_cash_to_sign_usd", "total_economic_cost_usd"):
            assert usd(est[key]) in rec["headline"], (offer_id, key)
        assert rec["money"][offer_id]["minimum_cash_to_sign_usd"] == est[
            "minimum_cash_to_sign_usd"]
    # The winner's cheapest way out rests on its contract's termination clause, named.
    winner = samples.offer(rec["offer_id"]).estimates.model_dump()
    basis = winner["minimum_cash_to_sign_basis"][0]
    assert basis["code"] == "termination_for_convenience"
    assert basis["where"]["cell"] in rec["headline"]
    assert "even charging" not in " ".join(samples.sensitivity["what_would_change"])


def test_sample_recommendation_reads_right(samples: Case) -> None:
    rec = samples.recommendation
    winner = samples.eligible[0]
    assert rec["offer_id"] == winner.offer.id
    assert rec["confidence"] == "high"  # wins in ~100% of weightings, 10+ points ahead
    assert rec["headline"].startswith(f"Take {winner.offer.fields.vendor}")
    assert "hpc-centre-a100" in rec["excluded"]  # fails the deadline gate
    # The trade-off is spelled out in dollars and days (delivery wait + training).
    def days(s: ScoredOffer) -> float:
        return float(s.estimates.model_extra["days_to_trained_model"])

    cheapest = min(samples.eligible, key=lambda s: s.estimates.total_cost_usd or 0.0)
    fastest = min(samples.eligible, key=days)
    if cheapest is winner and fastest is winner:
        assert rec["tradeoff"] == "It is both the cheapest and the fastest eligible offer."
    elif cheapest is not winner:
        assert cheapest.offer.fields.vendor in rec["tradeoff"]
        assert f"finishes {days(cheapest) - days(winner):.0f} days sooner" in rec["tradeoff"]


def test_confidence_follows_win_probability_and_margin(contest: Case) -> None:
    rec = contest.recommendation
    p = contest.sensitivity["win_probability"][rec["offer_id"]]
    tie = contest.sensitivity["margin"]["statistical_tie"]
    expected = ("high" if p >= 0.8 and not tie else "medium" if p >= 0.5 and not tie
                else "low")
    assert rec["confidence"] == expected


def test_identical_offers_are_a_tie_with_low_confidence() -> None:
    case = run_case([make_offer("twin-a"), make_offer("twin-b")])
    assert case.sensitivity["margin"]["statistical_tie"]
    assert case.recommendation["confidence"] == "low"
    first = case.sensitivity["what_would_change_detail"][0]
    assert first["kind"] == "tie"
    check_change(first, case)


def test_reported_price_cut_is_the_smallest_that_ties(contest: Case) -> None:
    winner = contest.eligible[0]
    cuts = [c for c in contest.sensitivity["price_cut_to_win"] if c["price_cut_pct"]]
    assert cuts
    for cut in cuts:
        s = contest.offer(cut["offer_id"])
        pct = cut["price_cut_pct"]
        at_cut = rescore(s, contest, priced(s.offer, 1 - pct / 100))
        assert at_cut == pytest.approx(winner.score, abs=0.01)
        assert rescore(s, contest, priced(s.offer, 1 - (pct - 1) / 100)) < winner.score
        price = s.offer.fields.price_usd_per_gpu_hour
        assert price is not None
        assert cut["price_usd_per_gpu_hour_at_tie"] == pytest.approx(price * (1 - pct / 100),
                                                                    rel=1e-5)


def test_mfu_gain_is_the_software_efficiency_at_which_the_offer_ties(contest: Case) -> None:
    winner = contest.eligible[0]
    gains = [g for g in contest.sensitivity["gain_to_win"] if g["software_efficiency_at_tie"]]
    assert gains
    for gain in gains:
        s = contest.offer(gain["offer_id"])
        now = gain["software_efficiency_now"]
        assert rescore(s, contest, workload=with_efficiency(contest.workload, now)) == (
            pytest.approx(s.score, abs=1e-9))  # the knob at its current value changes nothing
        at = gain["software_efficiency_at_tie"]
        assert now < at <= MAX_SOFTWARE_EFFICIENCY
        wl = with_efficiency(contest.workload, at)
        assert rescore(s, contest, workload=wl) == pytest.approx(winner.score, abs=0.01)
        assert gain["mfu_at_tie"] > gain["mfu_now"]


def test_bandwidth_gain_ties_when_bandwidth_is_what_holds_an_offer_back() -> None:
    # Same offer twice, one with a thin 100 Gbit/s per GPU network and a lower price.
    case = run_case([make_offer("fat"),
                     make_offer("thin", inter_node_gbit_s_per_gpu=100, price_usd_per_gpu_hour=2.3)])
    gain = case.sensitivity["gain_to_win"][0]
    at = gain["inter_node_gbit_s_per_gpu_at_tie"]
    assert at is not None and 100 < at <= MAX_INTER_NODE_GBIT_S_PER_GPU
    s = case.offer("thin")
    assert rescore(s, case, with_bandwidth(s.offer, at)) == pytest.approx(
        case.eligible[0].score, abs=0.01)


def test_every_reported_weight_break_even_rebuilds_into_a_tie(contest: Case,
                                                              samples: Case) -> None:
    for case in (contest, samples):
        winner = case.eligible[0]
        assert case.sensitivity["weight_break_evens"]
        for be in case.sensitivity["weight_break_evens"]:
            assert 0 < be["weight_at_tie"] < 1
            changed = rubric_with_weight(case.rubric, be["criterion"], be["weight_at_tie"])
            challenger = case.offer(be["new_winner"])
            assert rescored_with_rubric(challenger, changed, case) == pytest.approx(
                rescored_with_rubric(winner, changed, case), abs=1e-6), be["criterion"]


def test_rubric_with_weight_moves_one_weight_and_scales_the_rest() -> None:
    before = RUBRIC.global_weights()
    after = rubric_with_weight(RUBRIC, "gpu_memory", 0.25).global_weights()
    assert after["gpu_memory"] == pytest.approx(0.25)
    scale = 0.75 / (1 - before["gpu_memory"])
    for cid, w in before.items():
        if cid != "gpu_memory":
            assert after[cid] == pytest.approx(w * scale)
    with pytest.raises(UsageError, match="unknown criterion 'gpu_mem'"):
        rubric_with_weight(RUBRIC, "gpu_mem", 0.2)
    with pytest.raises(UsageError, match="expected a share in"):
        rubric_with_weight(RUBRIC, "gpu_memory", 1.0)


def test_clarification_questions_are_ranked_and_checked_on_the_real_scores(
    contest: Case,
) -> None:
    questions = contest.sensitivity["clarification_questions"]
    assert questions
    flags = [q["could_change_winner"] for q in questions]
    assert flags == sorted(flags, reverse=True)  # those that could change the winner first
    winner = contest.eligible[0]
    for q in questions:
        s = contest.offer(q["offer_id"])
        best = aggregate(contest.rubric, {**s.values, q["criterion"]: 1.0})[0]
        assert q["score_if_best"] == pytest.approx(best, abs=1e-4)
        if s is not winner:
            assert q["could_change_winner"] == (best > winner.score)
    # decide returns the field; report/decide_words asks the question
    assert not any("question" in q for q in contest.decided[0]["clarification_questions"])
    assert all(q["question"] for q in questions)


def test_kendall_tau_b_matches_the_published_example() -> None:
    # scipy.stats.kendalltau docstring: x = [12, 2, 1, 12, 2], y = [1, 4, 7, 1, 0]
    # gives tau-b = -0.47140452079103173.
    assert kendall_tau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) == pytest.approx(-0.4714045208)
    assert kendall_tau([1, 2, 3], [1, 2, 3]) == 1.0
    assert kendall_tau([1, 2, 3], [3, 2, 1]) == -1.0
    assert kendall_tau([1.0], [1.0]) is None


@pytest.mark.parametrize("method", ["topsis", "vikor"])
def test_cross_check_reranks_the_eligible_offers(contest: Case, method: str) -> None:
    case = run_case([s.offer for s in contest.ranked], method=method)
    check = case.sensitivity["cross_check"]
    ids = [s.offer.id for s in case.eligible]
    assert check["method"] == method
    assert sorted(check["ranking"]) == sorted(ids)
    assert -1 <= check["kendall_tau"] <= 1
    assert isinstance(check["agrees_with_primary"], bool)
    assert check["details"]
    # The primary ranking is untouched by the cross-check.
    assert [s.offer.id for s in case.ranked] == [s.offer.id for s in contest.ranked]
    agreement = case.sensitivity["method_agreement"][method]
    assert agreement["kendall_tau"] == check["kendall_tau"]


def test_method_agreement_is_always_reported_and_cross_check_only_on_request(
    contest: Case,
) -> None:
    assert set(contest.sensitivity["method_agreement"]) == {"topsis", "vikor"}
    assert "cross_check" not in contest.sensitivity


def test_unknown_method_is_a_usage_error_about_the_method_setting(contest: Case) -> None:
    """The library names the setting, not the flag: the CLI leads the message with it."""
    with pytest.raises(UsageError, match="'ahp': expected one of weighted, topsis, vikor") as err:
        decide(contest.ranked, RUBRIC, WORKLOAD, None, method="ahp")
    assert err.value.setting == "method"
    assert error_text(err.value).startswith("--method: 'ahp'")


def test_pareto_frontier_holds_only_undominated_cost_time_points(samples: Case) -> None:
    frontier = set(samples.sensitivity["pareto_frontier"])
    points: dict[str, tuple[float, float]] = {
        s.offer.id: (s.estimates.total_cost_usd, s.estimates.time_to_train_days)
        for s in samples.ranked
        if s.estimates.total_cost_usd is not None and s.estimates.time_to_train_days is not None
    }
    assert len(points) == len(samples.ranked)
    for oid, (cost, days) in points.items():
        dominated = any(c <= cost and d <= days and (c, d) != (cost, days)
                        for c, d in points.values())
        assert (oid in frontier) == (not dominated), oid


def test_an_offer_excluded_for_an_unanswered_gate_is_named_with_its_score() -> None:
    # GPU count unknown: the fit gate cannot be verified, so the offer is excluded.
    case = run_case([make_offer("known", price_usd_per_gpu_hour=2.6),
                     make_offer("unknown", gpu_count=None, node_count=None)])
    items = [d for d in case.sensitivity["what_would_change_detail"]
             if d["kind"] == "unverified_gate"]
    assert [i["offer_id"] for i in items] == ["unknown"]
    for item in items:
        check_change(item, case)
    assert "Enough GPU memory" in items[0]["text"]
    assert case.recommendation["excluded"] == ["unknown"]


def test_no_eligible_offer_gives_no_recommendation() -> None:
    case = run_case([make_offer("slow", accelerator="A100-SXM-80GB", gpu_count=64,
                                node_count=8)])
    decided = case.decided[1]
    assert decided["offer_id"] is None
    assert decided["confidence"] == "low"
    assert decided["excluded"] == ["slow"]
    assert "headline" not in decided  # words are report/decide_words'
    assert case.recommendation["headline"] == (
        "No offer passes the rubric's knock-out gates; none can be recommended.")


def test_each_clarification_question_asks_for_its_field(contest: Case) -> None:
    sensitivity = {"clarification_questions": [
        dict(q) for q in contest.sensitivity["clarification_questions"]]}
    decision_with_words(sensitivity, dict(contest.recommendation), contest.rubric)
    titles = {c.id: c.title for c in contest.rubric.criteria}
    for q in sensitivity["clarification_questions"]:
        assert q["question"] == QUESTIONS.get(
            q["field"], f"Please state: {titles[q['criterion']].lower()}.")
        assert q["question"].endswith(("?", "."))
    assert clarification_question("no_such_field", "Egress price") == (
        "Please state: egress price.")


SENTENCES = ("headline", "headline_lead", "headline_time", "headline_runner_up",
             "confidence_reason", "tradeoff")


@pytest.mark.parametrize("name", ["samples", "contest"])
def test_decide_returns_numbers_and_names_and_report_words_them(
    name: str, request: pytest.FixtureRequest,
) -> None:
    case: Case = request.getfixturevalue(name)
    sensitivity, recommendation = case.decided
    # decide: no sentence, but every figure a sentence states, under `figures`
    assert "what_would_change" not in sensitivity
    assert not set(SENTENCES) & set(recommendation)
    assert {"draws", "tradeoff", "cash_basis"} <= set(recommendation["figures"])
    for item in sensitivity["what_would_change_detail"]:
        assert "text" not in item and "labels" in item["figures"], item
    # report: each item keeps its kind and structured fields, its figures worded into `text`
    worded = case.sensitivity["what_would_change_detail"]
    items = sensitivity["what_would_change_detail"]
    assert [list(i) for i in worded] == [[k for k in i if k != "figures"] + ["text"]
                                         for i in items]
    assert case.sensitivity["what_would_change"] == [i["text"] for i in worded]
    assert set(SENTENCES) <= set(case.recommendation)
    assert "figures" not in case.recommendation


def test_score_cli_method_flag_adds_the_cross_check(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from evaltool.cli import cli

    out = tmp_path / "scores.json"
    result = CliRunner().invoke(
        cli, ["score", *map(str, OFFER_FILES), "--method", "vikor", "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["sensitivity"]["cross_check"]["method"] == "vikor"
    assert data["assumptions"]["method"] == "vikor"
    assert data["offers"][0]["id"] == data["recommendation"]["offer_id"]
