"""Specification: a rental invoiced by the month is a rental, not a purchase.  A line-item
table whose unit column says only what is counted ("node", "GPU", "Stk.") states its time
elsewhere on the line: a time column that multiplies the quantity ("Hours | 730": quantity x
hours x rate = amount, a node-hour rate) or a remarks column ("pro GPU-Stunde", "pr. måned").
Examples of our own in German and French layouts (never a blind file)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files


def _one(path: Path, fx: dict[str, float] | None = None) -> Any:
    result = normalize_files([path], fx or {})
    assert not result.not_evaluated, result.not_evaluated
    (offer,) = result.offers
    return offer


def test_a_time_column_makes_a_monthly_invoice_line_a_node_hour_rate(tmp_path: Path) -> None:
    # A German monthly pro-forma: 4 nodes x 720 hours x 20.00 EUR per node-hour.
    path = write_workbook(tmp_path / "proforma.xlsx", {"Rechnung": [
        ["PROFORMA-RECHNUNG"],
        ["Beispiel Rechenzentrum GmbH, Musterstraße 1, Berlin"],
        [],
        ["Beschreibung", "Menge", "Einheit", "Stunden", "Einzelpreis (EUR)", "Gesamt (EUR)"],
        ["H100 SXM Server (8x NVIDIA H100 80GB), reserviert", 4, "Knoten", 720, 20.0, 57600],
        ["Support Standard", 1, "Monat", None, 900, 900],
        [],
        ["", "", "", "", "Summe", 58500],
        ["Monat 1 einer Reservierung über 12 Monate, monatlich im Voraus berechnet."],
    ]})
    f = _one(path, {"EUR": 1.1}).fields
    assert f.offer_kind == "rent"
    assert f.capex_usd is None
    assert f.node_count == 4
    assert f.gpu_count == 32
    assert f.price_usd_per_gpu_hour == pytest.approx(20.0 / 8 * 1.1)
    assert f.support_usd_per_month == pytest.approx(990)


def test_a_time_column_that_does_not_explain_the_amount_says_nothing(tmp_path: Path) -> None:
    # "Hours" of installation work: the amount is quantity x price, not x hours as well, so
    # the column is not the line's basis and the hardware stays a purchase.
    path = write_workbook(tmp_path / "purchase.xlsx", {"Quote": [
        ["Example Systems Inc. - purchase quote"],
        ["Description", "Qty", "Unit", "Hours", "Unit price (USD)", "Amount (USD)"],
        ["HGX H100 server, 8x NVIDIA H100 SXM 80GB", 2, "unit", 16, 250000, 500000],
    ]})
    f = _one(path).fields
    assert f.offer_kind == "purchase"
    assert f.capex_usd == pytest.approx(500000)


def test_a_remarks_column_gives_the_time_of_a_counted_unit(tmp_path: Path) -> None:
    # A French quote: unit "GPU", the remark says per GPU-hour; support per month.
    path = write_workbook(tmp_path / "devis.xlsx", {"Devis": [
        ["Exemple Cloud SAS"],
        ["Ligne", "Quantité", "Unité", "Désignation", "Prix unitaire (EUR)", "Remarque"],
        [1, 64, "GPU", "NVIDIA H200 141 Go – 8 nœuds de 8 GPU", "3,10", "par GPU-heure"],
        [2, 1, "pce", "Support premium, temps de réponse 30 minutes", "2 000,00", "par mois"],
        [],
        ["Durée d'engagement : 12 mois."],
    ]})
    f = _one(path, {"EUR": 1.1}).fields
    assert f.offer_kind == "rent"
    assert f.gpu_count == 64
    assert f.node_count != 64  # the count of GPUs is never a count of nodes
    assert f.price_usd_per_gpu_hour == pytest.approx(3.10 * 1.1)
    assert f.support_usd_per_month == pytest.approx(2200)
    assert f.capex_usd is None


@pytest.mark.parametrize("said, hours", [("svartid 30 minutter", 0.5),
                                         ("czas reakcji 15 minutów", 0.25)])
def test_support_response_in_minutes_in_every_language(said: str, hours: float) -> None:
    from evaltool.normalize.values import parse_duration
    assert parse_duration(said, "hours").value == pytest.approx(hours)


def test_an_email_states_its_dates_and_response_in_prose(tmp_path: Path) -> None:
    # The order of words an e-mail uses: the thing first, then that it holds or is handed
    # over; a response time after a swap time in one bullet.
    path = write_workbook(tmp_path / "mail.xlsx", {"Sheet1": [
        ["From: Ana Ruiz <ana@example-cloud.com>"],
        ["Subject: GPU capacity"],
        ["Hi, as discussed: thirty-two H100 SXM GPUs (four nodes, 8 GPUs each) at $2.40 per "
         "GPU hour, billed monthly, 12-month reservation."],
        ["  - 8-hour hardware swap, 15-minute response on P1 tickets"],
        ["We can hand the nodes over from 6 April 2026. These rates stand until 13 March 2026."],
        ["Example Cloud Inc."],
    ]})
    f = _one(path).fields
    assert f.support_response_hours == pytest.approx(0.25)
    assert f.hw_replacement_hours == 8
    assert str(f.delivery_date) == "2026-04-06"
    assert str(f.valid_until) == "2026-03-13"


@pytest.mark.parametrize("sentence", ["Die Preise gelten bis 13.03.2026.",
                                      "Les prix sont maintenus jusqu'au 13 mars 2026.",
                                      "Pricing holds until 13 March 2026."])
def test_a_price_that_holds_until_a_date_is_the_validity(tmp_path: Path, sentence: str) -> None:
    path = write_workbook(tmp_path / "offer.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
        ["Price per GPU-hour", "USD 2.10"], [], [sentence]]})
    assert str(_one(path).fields.valid_until) == "2026-03-13"


def _offer_with(tmp_path: Path, rows: list[list[object]], fx: dict[str, float] | None = None
                ) -> Any:
    path = write_workbook(tmp_path / "offer.xlsx", {"Offer": [
        ["Vendor", "Example Cloud"], ["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
        ["Price per GPU-hour", "USD 2.10"], *rows]})
    return _one(path, fx).fields


def test_terms_stated_in_dutch_and_italian_prose(tmp_path: Path) -> None:
    f = _offer_with(tmp_path, [
        [], ["Betreft: GPU-cluster, contractduur 24 maanden"],
        ["Netwerk: InfiniBand NDR, 8× 400 Gbit/s per server, exclusief voor klant."],
        ["Beschikbaar vanaf: 1 april 2026."]])
    assert f.term_months == 24
    assert f.network_dedicated is True
    assert str(f.delivery_date) == "2026-04-01"


def test_italian_labels_for_response_and_unlimited_egress(tmp_path: Path) -> None:
    f = _offer_with(tmp_path, [["Tempo di presa in carico", "entro 4 ore, 24/7"],
                               ["Traffico in uscita (egress)", "illimitato"]])
    assert f.support_response_hours == 4
    assert f.egress_usd_per_gb == 0


def test_a_file_system_label_and_an_acceptance_deadline(tmp_path: Path) -> None:
    f = _offer_with(tmp_path, [["Sistema de archivos", "Lustre, 200 TB (scratch)"],
                               ["Termin przyjęcia oferty", "do 27.03.2026"]])
    assert f.storage_type == "lustre"
    assert f.storage_capacity_tb == 200  # a shared file system's scratch is no local disk
    assert str(f.valid_until) == "2026-03-27"


def test_a_quantity_counted_in_gpus_is_no_count_of_systems(tmp_path: Path) -> None:
    # A line with no time basis at all (read as bought once): its unit column counts GPUs,
    # so its quantity is never the number of servers (128 "nodes" of 8 GPUs would be 1,024).
    path = write_workbook(tmp_path / "quote.xlsx", {"Quote": [
        ["Example Systems Inc."],
        ["Line", "Qty", "Unit", "Description", "Unit price (USD)"],
        [1, 128, "GPU", "NVIDIA HGX B200 180 GB – 16 nodes of 8 GPUs", 30_000],
    ]})
    f = _one(path).fields
    assert f.node_count in (None, 16)
    assert f.gpu_count == 128


def test_an_amount_of_a_months_hours_makes_the_rate_hourly(tmp_path: Path) -> None:
    # No time column: 6 servers x 730 h x 14.00 = 61,320: the rate is per server-hour.
    path = write_workbook(tmp_path / "factuur.xlsx", {"Factuur": [
        ["Voorbeeld Compute B.V."],
        ["Omschrijving", "Aantal", "Eenheid", "Prijs", "Bedrag"],
        ["Bare-metal server, 8× NVIDIA H200 141 GB", 6, "server", 14.00, 61_320],
        [],
        ["Contractduur 12 maanden, maandelijks gefactureerd."],
    ]})
    f = _one(path, {"EUR": 1.0}).fields
    assert f.offer_kind == "rent"
    assert f.capex_usd is None
    assert f.price_usd_per_gpu_hour == pytest.approx(14.0 / 8)


def test_a_czech_quote_with_an_item_column_and_remarks(tmp_path: Path) -> None:
    # "Položka" (item) and "Popis" (description) both name a line: the item is the line's
    # number, the description what is sold; "Poznámka" (remark) says per GPU-hour / monthly.
    path = write_workbook(tmp_path / "nabidka.xlsx", {"Nabídka": [
        ["Příklad Cloud s.r.o."], [],
        ["Položka", "Množství", "Jednotka", "Popis", "Cena za jednotku (CZK)", "Poznámka"],
        [1, 32, "GPU", "NVIDIA H200 141 GB – 4 uzly po 8 GPU", "75,00", "za GPU-hodinu"],
        [2, 1, "ks", "Podpora 24/7, doba odezvy 1 hodina", "20 000,00", "měsíčně"],
        [], ["Doba trvání smlouvy: 12 měsíců."]]})
    f = _one(path, {"CZK": 0.043}).fields
    assert (f.offer_kind, f.accelerator, f.gpu_count, f.node_count) == ("rent", "H200", 32, 4)
    assert f.price_usd_per_gpu_hour == pytest.approx(75 * 0.043)
    assert f.support_usd_per_month == pytest.approx(20_000 * 0.043)
    assert f.support_response_hours == 1
    assert f.capex_usd is None


def test_a_json_invoice_line_of_a_months_hours_is_an_hourly_rate(tmp_path: Path) -> None:
    path = tmp_path / "invoice.json"
    path.write_text('''{"invoice": {"vendor": "Example Cloud Inc.", "currency": "USD", "lines": [
      {"description": "H100 SXM node (8x NVIDIA H100 80GB), reserved", "quantity": 4,
       "unit": "node", "rate": 20.0, "amount": 58400},
      {"description": "Support", "quantity": 1, "unit": "month", "rate": 900, "amount": 900}]},
     "notes": "Month 1 of a 12-month reservation."}''', encoding="utf-8")
    f = _one(path).fields
    assert (f.offer_kind, f.capex_usd, f.node_count) == ("rent", None, 4)
    assert f.price_usd_per_gpu_hour == pytest.approx(2.5)


def test_a_german_email_states_its_terms_in_prose(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "mail.xlsx", {"Mail": [
        ["Von: Jana Krüger <jana@nordwolke.example>"], ["Betreff: AW: H200-Kapazität"], [],
        ["wie besprochen bieten wir 32 H200 GPUs in Frankfurt an: 2,60 € pro GPU-Stunde, "
         "12 Monate Reservierung, monatliche Abrechnung."],
        ["  - InfiniBand NDR 400 Gb/s pro GPU, nur für Sie"],
        ["  - 4 Stunden Hardwaretausch, Reaktionszeit 30 Minuten bei P1"],
        ["Die Preise gelten bis 13. Februar 2026. Bereitstellung ab 2. März 2026."],
        ["Jana Krüger | Nordwolke Rechenzentren GmbH"]]})
    f = _one(path, {"EUR": 1.1}).fields
    assert f.vendor == "Nordwolke Rechenzentren GmbH"
    assert f.price_usd_per_gpu_hour == pytest.approx(2.86)
    assert (f.hw_replacement_hours, f.support_response_hours) == (4, 0.5)
    assert f.network_dedicated is True
    assert (str(f.valid_until), str(f.delivery_date)) == ("2026-02-13", "2026-03-02")


def test_an_invoice_line_for_one_month_of_a_monthly_billed_service(tmp_path: Path) -> None:
    # The line names its month ("Februar 2026") and the document bills monthly: the amount is
    # that month's compute, not hardware bought once.
    path = write_workbook(tmp_path / "rechnung.xlsx", {"Rechnung": [
        ["PROFORMA-RECHNUNG"], ["Beispiel GPU Cloud GmbH, Hafenstraße 1, Hamburg"], [],
        ["Beschreibung", "Menge", "Einzelpreis", "Betrag"],
        ["GPU-Rechenleistung – 64 × NVIDIA H100 SXM 80GB (8 Knoten à 8 GPU), Februar 2026",
         1, 128000, 128000],
        [], ["Monat 2 einer Laufzeit von 24 Monaten, monatlich im Voraus berechnet."]]})
    f = _one(path, {"EUR": 1.0}).fields
    assert (f.offer_kind, f.capex_usd, f.gpu_count) == ("rent", None, 64)
    assert f.price_usd_per_gpu_hour == pytest.approx(128000 / 64 / 730)


def test_a_month_of_delivery_is_no_month_billed(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "quote.xlsx", {"Quote": [
        ["Example Systems Inc."],
        ["Description", "Qty", "Unit price", "Amount"],
        ["HGX H100 server, 8x NVIDIA H100 SXM 80GB, delivery March 2026", 2, 250000, 500000],
        [], ["Payment: invoiced monthly for support; hardware invoiced on delivery."]]})
    f = _one(path).fields
    assert f.offer_kind == "purchase"
    assert f.capex_usd == pytest.approx(500000)


def test_a_french_email_states_its_terms_in_prose(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "courriel.xlsx", {"Courriel": [
        ["De : Claire Martin <claire@exemple-cloud.example>"], ["Objet : RE: capacité H100"],
        [], ["Comme convenu, nous proposons 64 GPU H100 SXM (huit nœuds de 8 GPU) : 2,10 € par "
             "GPU-heure, engagement de 12 mois, facturation mensuelle."],
        ["  - remplacement du matériel sous 4 heures, temps de réponse de 30 minutes pour les "
         "tickets P1"],
        ["Nous pouvons mettre la capacité à disposition à partir du 2 mars 2026. Ces tarifs "
         "sont valables jusqu'au 20 février 2026."],
        [], ["Claire Martin | Exemple Cloud SAS"]]})
    f = _one(path, {"EUR": 1.1}).fields
    assert (f.vendor, f.gpu_count, f.node_count) == ("Exemple Cloud SAS", 64, 8)
    assert (f.hw_replacement_hours, f.support_response_hours) == (4, 0.5)
    assert (str(f.valid_until), str(f.delivery_date)) == ("2026-02-20", "2026-03-02")
