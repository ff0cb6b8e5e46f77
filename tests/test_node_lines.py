"""Specification: a line of a quote whose name alone names the instance and its
accelerator ("Instancia dedicada 8× NVIDIA A100 ..., mensual", in any language) is compute;
a line that prices one node and says in brackets what the node holds ("Cuota mensual
servidor H100 (8 GPU)", "Monthly fee per node (8 GPUs)") is priced per node, and its quantity
counts the nodes; the abbreviated headers of a printed quote ("Q.ty", "Q.té", "Voce") name
the table's columns like the words they shorten; "€ 2.190,00" with the sign before a decimal
comma and dotted thousands is 2190 euros.  Small examples of our own."""

from __future__ import annotations

from pathlib import Path

import pytest
from workbooks import write_sheet

from evaltool.normalize.core import normalize_files
from evaltool.normalize.shapes import count_facts
from evaltool.read.vocabulary import load_vocabulary


@pytest.mark.parametrize(("header", "role"), [
    ("Q.ty", "quantity"), ("Q.té", "quantity"), ("Q.tà", "quantity"),
    ("Voce", "description"), ("Prezzo unitario", "unit_price"),
])
def test_an_abbreviated_header_names_its_column(header: str, role: str) -> None:
    assert load_vocabulary().header_role(header) == role


@pytest.mark.parametrize(("text", "facts"), [
    ("Cuota mensual servidor H100 (8 GPU)", {"gpus_per_node": 8}),
    ("Monthly fee per node (8 GPUs)", {"gpus_per_node": 8}),
    # a counted node: the bracket is the total, never the GPUs of one node
    ("24 x nx8.h200.48xlarge instances (192 NVIDIA H200 GPUs)", {}),
])
def test_a_node_and_what_it_holds_in_brackets(text: str, facts: dict[str, int]) -> None:
    found = count_facts(text)
    if facts:
        assert found == facts
    else:
        assert found.get("gpus_per_node") != 192


def test_a_spanish_printed_quote_priced_per_server_month(tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "oferta.xlsx", [
        ["EJEMPLO NUBE S.L. — Calle Mayor 1, 28013 Madrid"],
        ["OFERTA ECONÓMICA N.º 2026/077"],
        [],
        ["Concepto", "Cant.", "Precio unitario", "Importe mensual"],
        ["Cuota mensual servidor H100 (8 GPU)", "6", "€ 14.600,00", "€ 87.600,00"],
        ["Total cuota mensual", None, None, "€ 87.600,00"],
        [],
        ["Duración del contrato: 12 meses."],
    ])
    result = normalize_files([path], {"EUR": 1.08})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    f = offer.fields
    assert (f.node_count, f.gpus_per_node, f.gpu_count) == (6, 8, 48)
    assert f.price_usd_per_gpu_hour == pytest.approx(14_600 / 8 / 730 * 1.08)


def test_an_english_quote_with_abbreviated_headers(tmp_path: Path) -> None:
    path = write_sheet(tmp_path / "quote.xlsx", [
        ["Example Compute Ltd"],
        ["Dedicated servers", "3"],
        ["Item", "Q.ty", "Unit price", "Monthly amount"],
        ["Monthly fee per node (8 GPUs) NVIDIA H100 SXM", "3", "€ 12.410,00", "€ 37.230,00"],
    ])
    result = normalize_files([path], {"EUR": 1.08})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    f = offer.fields
    assert (f.node_count, f.gpus_per_node, f.gpu_count) == (3, 8, 24)
    assert f.price_usd_per_gpu_hour == pytest.approx(12_410 / 8 / 730 * 1.08)


@pytest.mark.parametrize(("line", "header"), [
    # German: the accelerator only inside the instance's name, the time an adverb
    ("Dedizierte Instanz 8× NVIDIA H100 SXM5 80 GB, monatlich",
     ["Bezeichnung", "Menge", "Einzelpreis (€)", "Betrag (€)"]),
    # Portuguese: a server named with its GPUs, billed per month
    ("Servidor dedicado 8× NVIDIA H100 SXM5 80 GB (mensal)",
     ["Descrição", "Quantidade", "Preço unitário (EUR)", "Valor (EUR)"]),
])
def test_an_instance_line_names_the_accelerator(tmp_path: Path, line: str,
                                                header: list[str]) -> None:
    path = write_sheet(tmp_path / "quote.xlsx", [
        ["Beispiel Rechenzentrum GmbH"],
        [],
        header,
        [line, 5, 14600, 73000],
        ["Lustre 100 TB (monatlich)", 1, 2300, 2300],
    ])
    result = normalize_files([path], {"EUR": 1.08})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    f = offer.fields
    assert f.accelerator.startswith("H100")
    assert (f.node_count, f.gpus_per_node, f.gpu_count) == (5, 8, 40)
    assert f.price_usd_per_gpu_hour == pytest.approx(14_600 / 8 / 730 * 1.08)
