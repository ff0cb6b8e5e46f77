"""Rubrics: the shipped ones are valid, encode the twelve domain rules, and bad ones are named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from evaltool.errors import UsageError
from evaltool.report.rubric_table import describe_rubric
from evaltool.score.rubric import (
    REQUIRED_CATEGORIES,
    PiecewiseLinear,
    load_rubric,
    parse_rubric,
    shipped_rubrics,
)


@pytest.mark.parametrize("name", ["llm-pretraining", "llm-inference", "fine-tuning"])
def test_shipped_rubric_is_valid_and_complete(name: str) -> None:
    rubric = load_rubric(name)
    assert set(REQUIRED_CATEGORIES) <= set(rubric.categories)
    assert abs(sum(rubric.global_weights().values()) - 1.0) < 1e-9
    for criterion in rubric.criteria:
        assert len(criterion.source) > 10, f"{criterion.id} must cite its source"
    for gate in rubric.gates:
        assert gate.source


def test_shipped_rubrics_together_encode_all_twelve_domain_rules() -> None:
    encoded: set[int] = set()
    for name in shipped_rubrics():
        rubric = load_rubric(name)
        encoded |= set(rubric.rules_encoded)
        encoded |= {c.rule for c in rubric.criteria if c.rule}
    assert encoded >= set(range(1, 13))


def test_default_rubric_weights_follow_seed_000_network_before_storage_before_cpu() -> None:
    rubric = load_rubric(None)
    assert rubric.name == "llm-pretraining"
    cat = rubric.category_weights()
    weights = rubric.global_weights()
    assert cat["network"] > cat["storage"]
    assert cat["storage"] > weights["cpu_cores_per_gpu"]


def test_piecewise_linear_clamps_interpolates_and_inverts() -> None:
    vf = PiecewiseLinear(points=[(10, 0.0), (100, 0.5), (320, 1.0)])
    assert vf.value(0) == 0.0
    assert vf.value(1000) == 1.0
    assert vf.value(55) == pytest.approx(0.25)
    assert vf.invert(0.25) == pytest.approx(55)
    decreasing = PiecewiseLinear(points=[(3.0, 1.0), (25.0, 0.0)])
    assert decreasing.invert(0.5) == pytest.approx(14.0)


def test_bad_rubric_error_names_file_and_key_path(tmp_path: Path) -> None:
    data = yaml.safe_load((Path(__file__).parents[1] / "rubrics/llm-pretraining.yaml").read_text())
    data["criteria"][1]["value_function"]["points"] = [[900, 1.0], [100, 0.0]]
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(UsageError) as info:
        load_rubric(path)
    message = str(info.value)
    assert "broken.yaml" in message
    assert "criteria[1:achievable_tflops_per_gpu].value_function" in message
    assert "strictly increasing" in message


def test_rubric_without_a_required_category_is_refused(tmp_path: Path) -> None:
    data = yaml.safe_load((Path(__file__).parents[1] / "rubrics/llm-pretraining.yaml").read_text())
    del data["categories"]["storage"]
    path = tmp_path / "no-storage.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(UsageError, match="storage"):
        load_rubric(path)


def test_unknown_rubric_name_lists_the_shipped_ones() -> None:
    with pytest.raises(UsageError, match="llm-pretraining"):
        load_rubric("no-such-rubric")


def test_describe_rubric_shows_weights_functions_and_sources() -> None:
    text = describe_rubric(load_rubric("llm-pretraining"))
    assert "effective_inter_node_bandwidth" in text
    assert "github.com/stas00/ml-engineering" in text  # a public source a user can look up
    assert "gates" in text


@pytest.mark.parametrize("name", ["llm-pretraining", "llm-inference", "fine-tuning"])
def test_rubric_sources_cite_public_material_never_our_notes(name: str) -> None:
    text = describe_rubric(load_rubric(name))
    for note in ("seed 00", "mfu-specs", "mcda", "contracts §", "offer-tools", "PRODUCT.md",
                 "issue #", "shared/"):
        assert note not in text, note


def _shipped_data() -> dict[str, Any]:
    import yaml

    from evaltool.score.rubric import shipped_rubrics

    return yaml.safe_load(shipped_rubrics()["llm-pretraining"].read_text(encoding="utf-8"))


def test_a_one_character_typo_in_a_metric_fails_on_load() -> None:
    # Issue #11: "derived.storage_clas" used to pass validate and score every offer "not stated".
    data = _shipped_data()
    data["criteria"][0]["reads"] = data["criteria"][0]["reads"][:-1]
    with pytest.raises(UsageError, match="does not exist"):
        parse_rubric(data, "typo.yaml")


def test_a_typo_in_a_gate_placeholder_fails_on_load() -> None:
    data = _shipped_data()
    data["gates"][0]["says"] = "needs {estimates.min_gpus_requird} GPUs"
    with pytest.raises(UsageError, match="min_gpus_requird"):
        parse_rubric(data, "typo.yaml")


@pytest.mark.parametrize("change", [
    lambda d: d["categories"]["cost"].update(weight_band=[0.30, 0.40]),  # weight outside band
    lambda d: d["criteria"][0].update(weight_band=[0.6, 0.4]),  # band upside down
    lambda d: d["criteria"][1]["value_function"].update(points=[[100, 0.5], [900, 0.5]]),
    lambda d: d["gates"][1].update(min=2.0),  # min above max
])
def test_inconsistent_bounds_and_bands_fail_on_load(change: Any) -> None:
    data = _shipped_data()
    change(data)
    with pytest.raises(UsageError):
        parse_rubric(data, "bad.yaml")


def test_every_derived_metric_a_rubric_may_read_is_produced_by_scoring() -> None:
    import builders

    from evaltool.estimate.money import estimate_with_money
    from evaltool.models import Workload
    from evaltool.score.core import offer_metrics
    from evaltool.score.rubric import DERIVED_METRICS

    workload = Workload(name="w", params_b=7, tokens_b=100, deadline_days=90)
    offer = builders.make_offer("a")
    metrics = offer_metrics(offer, estimate_with_money(offer, workload), workload)
    produced = {k.split(".", 1)[1] for k in metrics if k.startswith("derived.")}
    assert produced <= DERIVED_METRICS


@pytest.mark.parametrize("name", ["llm-pretraining", "fine-tuning"])
def test_time_priced_by_the_cost_of_delay_is_scored_once_in_dollars(name: str) -> None:
    rubric = load_rubric(name)
    before = rubric.global_weights()
    priced = rubric.priced_for(40_000.0)
    after = priced.global_weights()
    moved = set(priced.priced_in_money)
    assert moved >= {"time_vs_deadline", "achievable_tflops_per_gpu"}
    assert moved.isdisjoint(after)  # speed is no longer scored beside its price
    assert after["economic_cost"] == pytest.approx(
        before["economic_cost"] + sum(before[c] for c in moved))
    for cid, weight in after.items():  # everything else keeps its weight in the whole score
        if cid != "economic_cost":
            assert weight == pytest.approx(before[cid])
    assert sum(after.values()) == pytest.approx(1.0)
    bands = priced.global_weight_bands()
    assert all(lo - 1e-12 <= after[c] <= hi + 1e-12 for c, (lo, hi) in bands.items())


def test_without_a_cost_of_delay_nothing_moves_to_money() -> None:
    rubric = load_rubric("llm-pretraining")
    assert rubric.priced_for(0.0) is rubric
    assert rubric.priced_for(None) is rubric


def test_priced_by_must_name_a_money_criterion(tmp_path: Path) -> None:
    data = yaml.safe_load(Path(shipped_rubrics()["llm-pretraining"]).read_text())
    data["criteria"][0]["priced_by"] = "gpu_memory"
    with pytest.raises(UsageError, match="priced_by"):
        parse_rubric(data, "r.yaml")
