"""The main job on the bundled sample offers, through the real CLI (issue 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from evaltool.cli import cli

ROOT = Path(__file__).resolve().parents[1]
OFFERS = sorted(str(p) for p in (ROOT / "offers").iterdir() if p.is_file())
VENDORS = ["NimbusGPU", "Stratus Cloud", "Helios Compute", "Ironbridge Systems", "Cumulus Cloud",
           "Nordhavn"]


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path, str]:
    out = tmp_path_factory.mktemp("out")
    result = CliRunner().invoke(
        cli, ["score", *OFFERS, "-o", str(out / "memo.pdf"), "-o", str(out / "scores.json")]
    )
    assert result.exit_code == 0, result.output
    return json.loads((out / "scores.json").read_text()), out, result.output


def test_score_json_has_the_product_shape(scored: tuple[dict, Path, str]) -> None:
    data, _, _ = scored
    assert set(data) >= {"offers", "not_evaluated", "rubric", "workload", "assumptions"}
    assert data["not_evaluated"] == []
    assert len(data["offers"]) == 6
    for rank, offer in enumerate(data["offers"], start=1):
        assert offer["rank"] == rank
        assert 0 <= offer["score"] <= 100
        assert set(offer["categories"]) >= {"compute", "network", "storage", "lock_in",
                                            "contract", "cost"}
        for key in ("mfu", "time_to_train_days", "total_cost_usd", "effective_usd_per_gpu_hour"):
            assert key in offer["estimates"]
        for flag in offer["flags"]:
            assert {"kind", "severity", "why"} <= set(flag)
    scores = [o["score"] for o in data["offers"] if o["eligible"]]
    assert scores == sorted(scores, reverse=True)


def test_workload_and_rates_files_among_the_inputs_are_used_not_scored(
    scored: tuple[dict, Path, str],
) -> None:
    data, _, _ = scored
    assert data["workload"]["name"] == "llama-70b-pretrain"
    assert data["assumptions"]["fx_usd_per_unit"]["EUR"] == 1.08


def test_weak_sla_of_the_hyperscaler_is_flagged_with_its_quote(
    scored: tuple[dict, Path, str],
) -> None:
    data, _, _ = scored
    stratus = next(o for o in data["offers"] if o["vendor"].startswith("Stratus"))
    weak = [f for f in stratus["flags"] if f["kind"] == "weak_commitment"]
    assert any("commercially reasonable efforts" in (f["quote"] or "") for f in weak)
    assert all(f["where"] for f in weak)


def test_memo_pdf_names_every_vendor(scored: tuple[dict, Path, str]) -> None:
    from pypdf import PdfReader

    _, out, _ = scored
    reader = PdfReader(out / "memo.pdf")
    assert 1 <= len(reader.pages) <= 2
    text = " ".join(page.extract_text() for page in reader.pages)
    for vendor in VENDORS:
        assert vendor in text, vendor


def test_terminal_output_is_a_ranking(scored: tuple[dict, Path, str]) -> None:
    _, _, output = scored
    assert "NimbusGPU" in output


def test_same_inputs_give_the_same_json_byte_for_byte(tmp_path: Path) -> None:
    runner = CliRunner()
    first = runner.invoke(cli, ["score", *OFFERS, "--format", "json"])
    second = runner.invoke(cli, ["score", *OFFERS, "--format", "json"])
    assert first.exit_code == 0
    assert first.stdout == second.stdout


def test_an_unreadable_offer_is_listed_and_the_rest_still_scored(tmp_path: Path) -> None:
    bad = tmp_path / "broken.xlsx"
    bad.write_text("this is not a workbook")
    out = tmp_path / "scores.json"
    result = CliRunner().invoke(cli, ["score", *OFFERS, str(bad), "-o", str(out)])
    assert result.exit_code == 1
    data = json.loads(out.read_text())
    assert len(data["offers"]) == 6
    assert [n["source"]["file"] for n in data["not_evaluated"]] == [str(bad)]
    assert "Traceback" not in result.output


def test_a_bad_flag_is_a_usage_error_with_exit_2() -> None:
    result = CliRunner().invoke(cli, ["score", *OFFERS, "--fx", "EURO"])
    assert result.exit_code == 2
    assert "CUR=RATE" in result.output
