"""Specification: a price stated as nothing ("no fees", "Ingen gebyrer", "Brak opłat") in many
languages, as a whole answer or in a sentence, is a price of 0; a sentence that also states an
amount is never free (our own examples, never a blind file)."""

from __future__ import annotations

import pytest

from evaltool.grammar.money import parse_money
from evaltool.grammar.numbers import says_free_of_charge


@pytest.mark.parametrize("answer", [
    "No egress fees", "Ingen udgående gebyrer", "Ingen avgift", "Brak opłat",
    "Bez opłat za transfer", "Geen egress-kosten", "Aucuns frais de sortie",
    "Sin cargos", "Sem taxas",
])
def test_a_whole_answer_that_says_no_fee_is_a_price_of_zero(answer: str) -> None:
    assert parse_money(answer, currency="EUR").amount == 0.0


@pytest.mark.parametrize("sentence", [
    "§4. Brak opłat za transfer danych wychodzących do internetu.",
    "Udgående datatrafik: ingen gebyrer.",
    "Žádné poplatky za odchozí přenos dat.",
    "Nessun addebito per il traffico in uscita.",
    "Sem taxas de saída de dados.",
])
def test_a_sentence_that_says_no_fee_is_free(sentence: str) -> None:
    assert says_free_of_charge(sentence)


@pytest.mark.parametrize("sentence", [
    "Transfer danych: 0,05 zł za GB, brak opłat za ruch przychodzący.",
    "Dataoverførsel 0,40 kr pr. GB; ingen gebyrer for indgående trafik.",
    "Egress at 0.02 CAD per GB, no fees for ingress.",
])
def test_a_sentence_with_an_amount_is_never_free(sentence: str) -> None:
    assert not says_free_of_charge(sentence)
