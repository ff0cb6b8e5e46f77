"""Workload YAML: the shipped example loads; every bad file is a UsageError that names the
file and the key, what was found and what was expected (PRODUCT.md quality bars)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltool.errors import UsageError
from evaltool.pipeline import resolve_workload
from evaltool.report.basis import default_workload_note
from evaltool.workload import default_workload_path, load_workload

REPO = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, text: str, name: str = "workload.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_example_workload_loads() -> None:
    path = REPO / "offers" / "workload.yaml"
    if not path.is_file():
        pytest.skip("offers/workload.yaml not present")
    workload = load_workload(path)
    assert workload.kind == "pretraining"
    assert workload.params_b == 70 and workload.tokens_b == 2000
    assert workload.n_layers == 80 and workload.d_model == 8192
    assert workload.cost_of_delay_usd_per_day == 40_000


def test_inference_workload_with_serving_target(tmp_path: Path) -> None:
    path = write(tmp_path, """
name: chat
kind: inference
params_b: 70
precision: fp8
serving: {requests_per_s: 20, prompt_tokens: 1000, output_tokens: 300}
""")
    workload = load_workload(path)
    assert workload.serving is not None and workload.serving.requests_per_s == 20


def test_moe_workload(tmp_path: Path) -> None:
    path = write(tmp_path, "name: moe\nparams_b: 671\nactive_params_b: 37\ntokens_b: 14800\n")
    assert load_workload(path).compute_params_b == 37


@pytest.mark.parametrize(
    ("text", "key", "found", "expected"),
    [
        ("name: x\nparams_b: -5\ntokens_b: 10\n", "params_b", "-5", "greater than 0"),
        ("name: x\nparams_b: seventy\ntokens_b: 10\n", "params_b", "seventy", "a number"),
        ("name: x\nparams_b: 70\ntokens_b: 10\nkind: training\n", "kind", "training",
         "pretraining"),
        ("name: x\nparams_b: 70\ntokens_b: 10\nprecison: bf16\n", "precison", "precison",
         "known keys: name, kind"),
        ("name: x\nparams_b: 70\ntokens_b: 10\nprecision: fp4\n", "precision", "fp4", "bf16"),
        ("params_b: 70\ntokens_b: 10\n", "name", None, "required"),
        ("name: x\nparams_b: 70\n", "tokens_b", "missing", "billions of tokens"),
        ("name: x\nparams_b: 7\nactive_params_b: 13\ntokens_b: 1\n", "active_params_b", "13",
         "at most params_b"),
        ("name: x\nkind: inference\nparams_b: 7\nserving: {prompt_tokens: 10}\n", "serving",
         None, "tokens_per_s or serving.requests_per_s"),
        ("name: x\nparams_b: 70\ntokens_b: 10\nserving: {tokens_per_s: -1}\n",
         "serving.tokens_per_s", "-1", "greater than 0"),
    ],
)
def test_bad_values_name_file_key_found_and_expected(
    tmp_path: Path, text: str, key: str, found: str | None, expected: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(UsageError) as info:
        load_workload(path)
    message = str(info.value)
    assert str(path) in message
    assert key in message
    if found is not None:
        assert found in message
    assert expected in message


def test_not_a_mapping(tmp_path: Path) -> None:
    path = write(tmp_path, "- just\n- a list\n")
    with pytest.raises(UsageError, match="must be a YAML mapping"):
        load_workload(path)


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nparams_b: [70\n")
    with pytest.raises(UsageError) as info:
        load_workload(path)
    assert str(path) in str(info.value) and "line" in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="not found"):
        load_workload(tmp_path / "nope.yaml")


def test_yaml_is_loaded_safely(tmp_path: Path) -> None:
    path = write(tmp_path, "name: !!python/object/apply:os.system ['echo hi']\nparams_b: 1\n")
    with pytest.raises(UsageError):
        load_workload(path)


def test_default_workload_is_found_beside_the_offers(tmp_path: Path) -> None:
    write(tmp_path, "name: x\nparams_b: 7\ntokens_b: 1\n")
    offer = tmp_path / "vendor.xlsx"
    offer.write_bytes(b"")
    assert default_workload_path([offer]) == tmp_path / "workload.yaml"
    assert default_workload_path([]) is None


def test_the_default_workload_note_states_the_workload_it_used() -> None:
    used, note = resolve_workload(None, [])
    assert note == "no workload given: used the bundled default workload (70B dense pretraining, " \
        "2T tokens)"
    moe = used.model_copy(update={"params_b": 671, "active_params_b": 37, "tokens_b": 14_800})
    assert default_workload_note(moe).endswith("(671B MoE pretraining, 14.8T tokens)")
    small = used.model_copy(update={"kind": "fine-tuning", "tokens_b": 0.5})
    assert default_workload_note(small).endswith("(70B dense fine-tuning, 0.5B tokens)")


@pytest.mark.parametrize(("key", "value", "field", "ms"), [
    ("max_ms_per_output_token", 20, "max_latency_ms_per_token", 20.0),
    ("tpot_ms", 40, "max_latency_ms_per_token", 40.0),
    ("inter_token_latency_ms", 35, "max_latency_ms_per_token", 35.0),
    ("max_seconds_per_token", 0.05, "max_latency_ms_per_token", 50.0),
    ("ttft_ms", 450, "max_time_to_first_token_ms", 450.0),
    ("first_token_latency_s", 0.5, "max_time_to_first_token_ms", 500.0),
])
def test_a_serving_latency_key_is_read_by_what_its_words_say(
        tmp_path: Path, key: str, value: float, field: str, ms: float) -> None:
    path = write(tmp_path, f"""
name: chat
kind: inference
params_b: 70
serving: {{requests_per_s: 20, prompt_tokens: 1000, output_tokens: 300, {key}: {value}}}
""")
    serving = load_workload(path).serving
    assert serving is not None and getattr(serving, field) == pytest.approx(ms)


@pytest.mark.parametrize("key", [
    "max_latency",  # no time unit: which latency, in what?
    "p99_latency_ms",  # a request's latency, not a token's
    "output_tokens_per_s_min",  # a rate, not a time
])
def test_a_serving_key_that_names_no_time_per_token_is_still_refused(
        tmp_path: Path, key: str) -> None:
    path = write(tmp_path, f"""
name: chat
kind: inference
params_b: 70
serving: {{requests_per_s: 20, output_tokens: 300, {key}: 40}}
""")
    with pytest.raises(UsageError, match=r"known keys"):
        load_workload(path)


def test_every_invalid_key_is_raised_as_its_own_registered_issue(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nkind: training\nparams_b: -5\ncolour: blue\n")
    with pytest.raises(UsageError) as raised:
        load_workload(path)
    error = raised.value
    assert [(i.code, i.where.key if i.where else None) for i in error.issues] == [
        ("workload-invalid-value", "kind"), ("workload-invalid-value", "params_b"),
        ("workload-unknown-key", "colour")]
    assert error.code == "workload-invalid-value"
    # said as one text, the issues' texts joined, as before they were carried one by one
    assert str(error) == "; ".join(str(i) for i in error.issues)
    assert str(error).startswith(f"{path} › kind: invalid workload value (found 'training'")


def test_a_workload_that_is_not_yaml_keeps_the_readers_issue(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nkind: [unclosed\n")
    with pytest.raises(UsageError) as raised:
        load_workload(path)
    assert raised.value.code == "invalid-yaml" and raised.value.exit_code == 2
    assert str(raised.value).startswith(f"{path} › line 3, column 1: not valid YAML: ")
