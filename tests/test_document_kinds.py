"""Specification: a document's kind (quotation, Angebot, devis, tilbud, invoice, export...) says
WHAT the document is, never WHO sent it.  The vendor is the issuer: the company named with its
legal form in the letterhead or issuer block, or the name standing before the document's kind
in a title ("ExampleHub marketplace export").  Our own small examples, never a blind file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from workbooks import write_workbook

from evaltool.normalize.core import normalize_files
from evaltool.normalize.doc_kinds import is_document_title, name_before_kind

_PRICED = [["GPU", "NVIDIA H100 SXM5 80GB"], ["Number of GPUs", 64],
           ["Price per GPU-hour", "USD 2.00"]]


def _offers(path: Path) -> list[Any]:
    result = normalize_files([path], {"BRL": 0.19})
    assert not result.not_evaluated, result.not_evaluated
    return result.offers


@pytest.mark.parametrize("title", [
    "PRO FORMA INVOICE", "Angebot Nr. 2030-031", "DEVIS", "Preventivo n. 12/2030",
    "TILBUD", "Cenová nabídka č. CN-2030/11", "Factura proforma", "御　見　積　書", "견적서",
    "Binding offer", "Quotation Q-2030-001 dated 2030-01-02"])
def test_a_title_that_only_names_a_document_kind_names_nobody(title: str) -> None:
    assert is_document_title(title)
    assert name_before_kind(title) == ""


@pytest.mark.parametrize(("title", "name"), [
    ("ExampleHub marketplace export", "ExampleHub"),
    ("Esempio Cloud preventivo", "Esempio Cloud"),
    ("Beispiel Rechenzentrum Angebot", "Beispiel Rechenzentrum"),
    ("Quotation from Example Compute", "Example Compute"),
])
def test_the_name_is_what_stands_before_the_document_kind(title: str, name: str) -> None:
    assert name_before_kind(title) == name


@pytest.mark.parametrize("text", ["Example Cloud, LLC", "Offerta Cloud Srl", "Nordic GPU AB"])
def test_a_company_name_is_never_a_document_title(text: str) -> None:
    assert not is_document_title(text)
    assert name_before_kind(text) is None


@pytest.mark.parametrize(("issuer", "title"), [
    ("Beispiel Rechenzentrum GmbH", "ANGEBOT"),
    ("Exemple Calcul SAS", "FACTURE PRO FORMA"),
    ("Example AI Cloud, LLC", "PRO FORMA INVOICE"),
])
def test_a_letterhead_with_the_title_beside_it_gives_the_issuer_not_the_title(
        tmp_path: Path, issuer: str, title: str) -> None:
    rows: list[list[Any]] = [[issuer, None, None, title], ["1 Main St", None, None, "No. 42"],
                             [], *_PRICED]
    (offer,) = _offers(write_workbook(tmp_path / "q.xlsx", {"Quote": rows}))
    assert offer.fields.vendor == issuer
    codes = {w["code"] for w in offer.warnings}
    assert "vendor-not-labelled" in codes  # where the name came from is said


def test_a_vendor_cell_holding_a_document_title_is_warned_and_not_read(tmp_path: Path) -> None:
    rows: list[list[Any]] = [["Vendor", "Offerte"], *_PRICED]
    (offer,) = _offers(write_workbook(tmp_path / "Voorbeeld_offerte.xlsx", {"Blad1": rows}))
    assert offer.fields.vendor != "Offerte"
    assert any(w["code"] == "vendor-is-document-title" for w in offer.warnings)


def test_an_export_comment_line_names_its_marketplace(tmp_path: Path) -> None:
    path = tmp_path / "listings.csv"
    path.write_text("listing_id,gpu,gpus_total,price_per_gpu_hr_usd\n"
                    "L-1,NVIDIA H100 SXM,8,2.00\nL-2,NVIDIA H200,16,2.50\n"
                    "# ExampleHub saved-search export 2030-01-01T08:00:00Z; prices in USD\n")
    assert [o.fields.vendor for o in _offers(path)] == ["ExampleHub"] * 2


@pytest.mark.parametrize(("banner", "vendor"), [
    ("Centro de Cálculo Ejemplo, S.L. · Calle Mayor 1, Madrid", "Centro de Cálculo Ejemplo, S.L."),
    ("Banca della Rete di Calcolo S.p.A. – Via Roma 1", "Banca della Rete di Calcolo S.p.A."),
    ("Exemplo Nuvem, Lda. | Rua Augusta 1, Lisboa", "Exemplo Nuvem, Lda."),
])
def test_a_legal_name_keeps_its_small_words_and_its_form(
        tmp_path: Path, banner: str, vendor: str) -> None:
    rows: list[list[Any]] = [[banner], [], *_PRICED]
    (offer,) = _offers(write_workbook(tmp_path / "q.xlsx", {"Quote": rows}))
    assert offer.fields.vendor == vendor


def test_an_issuer_block_beside_the_tables_names_the_vendor_not_the_addressee(
        tmp_path: Path) -> None:
    # A Japanese quote: the customer "... 御中" top left, the issuer's block on the right.
    rows: list[list[Any]] = [
        ["御見積書"], [],
        ["株式会社バイヤーラボ\u3000御中", None, None, None, "見積日", "2030年1月10日"],
        ["下記の通りお見積り申し上げます。", None, None, None, None, "株式会社サンプル計算"],
        [], *_PRICED]
    (offer,) = _offers(write_workbook(tmp_path / "mitsumori.xlsx", {"見積": rows}))
    assert offer.fields.vendor == "株式会社サンプル計算"


def test_a_file_number_before_the_name_is_not_the_name(tmp_path: Path) -> None:
    (offer,) = _offers(write_workbook(tmp_path / "07_examplecloud_angebot.xlsx",
                                      {"Blatt1": _PRICED}))
    assert offer.fields.vendor == "Examplecloud"
    assert any(w["code"] == "vendor-not-labelled" for w in offer.warnings)


@pytest.mark.parametrize(("title", "header", "unit", "price", "included"), [
    ("FATURA PRÓ-FORMA Nº PF-1", ["Item", "Descrição", "Qtd.", "Unidade", "Valor unitário",
                                 "Valor total"], "servidor/mês", "R$ 43.800,00", "incluso"),
    ("PROFORMA FATURA No. 7", ["No", "Açıklama", "Miktar", "Birim", "Birim fiyat", "Tutar"],
     "sunucu/ay", "USD 8.760,00", "dahil"),
    ("PRO FORMA INVOICE No. 12", ["Item", "Description", "Qty", "Unit", "Unit price",
                                  "Amount"], "server/month", "USD 8,760.00", "included"),
])
def test_an_invoice_like_quote_is_one_offer_its_included_lines_shared(
        tmp_path: Path, title: str, header: list[str], unit: str, price: str,
        included: str) -> None:
    """A pro-forma invoice lists the compute line, the lines included at no charge (the
    network) and the extras: one offer, never one offer per line."""
    rows: list[list[Any]] = [
        ["Example Cloud Ltda"], [title], [], header,
        [1, "Dedicated GPU server: 4x NVIDIA H100 PCIe 80GB", 4, unit, price, None],
        [2, "Private network 100 Gb/s Ethernet per server", 4, unit, included, None],
    ]
    offers = _offers(write_workbook(tmp_path / "pf.xlsx", {"PF": rows}))
    assert len(offers) == 1
    assert offers[0].fields.gpu_count == 16
    assert offers[0].fields.inter_node_gbit_s_per_node == 100


@pytest.mark.parametrize(("header", "signature", "vendor"), [
    (["From: Jane Roe <jane@example-cloud.test>", "To: Anna Berg", "Subject: RE: quote"],
     "Jane Roe, Example Cloud OÜ, Tallinn", "Example Cloud OÜ"),
    (["Von: Max Muster <max@beispiel.test>", "An: Anna Berg", "Betreff: Angebot"],
     "Max Muster, Beispiel Rechenzentrum GmbH, Hamburg", "Beispiel Rechenzentrum GmbH"),
])
def test_an_email_names_its_sender_in_the_signature_never_the_addressee(
        tmp_path: Path, header: list[str], signature: str, vendor: str) -> None:
    rows: list[list[Any]] = [*([h] for h in header), [], *_PRICED, [], ["Best regards,"],
                             [signature]]
    (offer,) = _offers(write_workbook(tmp_path / "mail.xlsx", {"Mail": rows}))
    assert offer.fields.vendor == vendor


@pytest.mark.parametrize(("lines", "gpus", "storage_per_tb", "support"), [
    ([["Cloud TPU v6e, v6e-256 slice = 256 chips, 730 timer – antal chip-timer", 186880, 1.5],
      ["Hyperdisk ML, 100 TB, pr. måned – antal TB", 100, 23],
      ["Partnersupport Premium (svartid 1 time), pr. måned", 1, 5000]], 256, 23, 5000),
    ([["HGX H100 8-GPU servers, 32 GPUs, 730 Stunden – Anzahl GPU-Stunden", 23360, 2.0],
      ["Paralleles Dateisystem, 100 TB, monatlich – Anzahl TB", 100, 23],
      ["Premium-Support (Reaktionszeit 1 Stunde), monatlich", 1, 5000]], 32, 23, 5000),
])
def test_a_pro_forma_invoice_without_a_unit_column_says_what_each_quantity_counts(
        tmp_path: Path, lines: list[list[Any]], gpus: int, storage_per_tb: float,
        support: float) -> None:
    rows: list[list[Any]] = [["Example Cloud ApS"], ["PROFORMAFAKTURA"], [],
                             ["Description", "Qty", "Unit price (USD)", "Amount (USD)"],
                             *([d, q, p, q * p] for d, q, p in lines)]
    (offer,) = _offers(write_workbook(tmp_path / "pf.xlsx", {"PF": rows}))
    assert offer.fields.gpu_count == gpus
    assert offer.fields.storage_capacity_tb == 100
    assert offer.fields.storage_usd_per_tb_month == storage_per_tb
    assert offer.fields.support_usd_per_month == support
    assert offer.fields.support_response_hours == 1


@pytest.mark.parametrize(("footer", "vendor"), [
    ("Bank: Example Bank AG · IBAN DE00 0000 · Account holder: Example Cloud GmbH",
     "Example Cloud GmbH"),
    ("Bankverbindung: Beispielbank AG · Kontoinhaber: Beispiel Rechenzentrum GmbH",
     "Beispiel Rechenzentrum GmbH"),
])
def test_the_bank_in_the_remittance_details_is_never_the_vendor(
        tmp_path: Path, footer: str, vendor: str) -> None:
    rows: list[list[Any]] = [["ANGEBOT"], [], *_PRICED, [], [footer]]
    (offer,) = _offers(write_workbook(tmp_path / "q.xlsx", {"Q": rows}))
    assert offer.fields.vendor == vendor


def test_a_bank_named_alone_in_the_footer_is_not_taken_for_the_vendor(tmp_path: Path) -> None:
    rows: list[list[Any]] = [["TILBUD"], [], *_PRICED, [],
                             ["Betaling: netto 14 dage. Bank: Danske Bank A/S, reg. 3001"]]
    (offer,) = _offers(write_workbook(tmp_path / "examplecloud_tilbud.xlsx", {"Q": rows}))
    assert offer.fields.vendor != "Danske Bank A/S"
