"""Contract inputs: text in any common encoding, PDF, DOCX, an offer's contract sheet or
YAML key; unreadable input is an InputError that names the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltool.clauses import analyse_file
from evaltool.clauses.readers import read_segments
from evaltool.errors import EvaltoolError, InputError

CLAUSES = [
    "1. Provider will use commercially reasonable efforts to deliver the Nodes by 2027-03-01.",
    "2. Failed nodes will be replaced within 24 hours.",
    "3. Egress is billed at $0.08/GB.",
]


def _minimal_pdf(lines: list[str]) -> bytes:
    """A one-page PDF with Helvetica text, written by hand (no renderer needed)."""

    def esc(s: str) -> str:
        return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    stream = "BT /F1 9 Tf 40 800 Td 12 TL " + " ".join(f"({esc(x)}) Tj T*" for x in lines) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] "
        "/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return out


def _kinds(path: Path) -> set[str]:
    return {f.kind for f in analyse_file(path).findings}


def test_pdf_contract_is_read_page_by_page(tmp_path: Path) -> None:
    pdf = tmp_path / "terms.pdf"
    pdf.write_bytes(_minimal_pdf(CLAUSES))
    result = analyse_file(pdf)
    weak = result.weak_commitments()
    assert weak and weak[0].where["key"] == "page 1"
    assert weak[0].where["file"] == str(pdf)
    assert {"weak_commitment", "firm_commitment", "lock_in"} <= _kinds(pdf)


def test_pdf_rendered_by_weasyprint_is_read(tmp_path: Path) -> None:
    weasyprint = pytest.importorskip("weasyprint")
    html = "".join(f"<p>{c}</p>" for c in CLAUSES)
    pdf = tmp_path / "rendered.pdf"
    try:
        weasyprint.HTML(string=html).write_pdf(str(pdf))
    except OSError as exc:  # Pango missing on this machine
        pytest.skip(f"weasyprint cannot render here: {exc}")
    figs = {f.field: f.value for f in analyse_file(pdf).figures}
    assert figs["hw_replacement_hours"] == 24.0
    assert figs["egress_usd_per_gb"] == 0.08


def test_docx_contract_paragraphs_and_tables_are_read(tmp_path: Path) -> None:
    docx = pytest.importorskip("docx")
    doc = docx.Document()
    for c in CLAUSES:
        doc.add_paragraph(c)
    table = doc.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text = "Support"
    table.rows[0].cells[1].text = "Provider shall respond to Severity 1 tickets within 30 minutes"
    path = tmp_path / "msa.docx"
    doc.save(str(path))
    result = analyse_file(path)
    assert result.weak_commitments()[0].quote == CLAUSES[0]
    figs = {f.field: f.value for f in result.figures}
    assert figs["support_response_hours"] == 0.5


_EURO_TEXT = (
    "Die Société Générale « Provider » will use commercially reasonable efforts to deliver "
    "the Nodes by 2027-03-01 — at a price of 24,80 € per node-hour.\n"
)
_LATIN1_TEXT = _EURO_TEXT.replace(" —", ",").replace("€", "EUR")


@pytest.mark.parametrize(
    ("encoding", "text"),
    [
        ("utf-8", _EURO_TEXT),
        ("utf-8-sig", _EURO_TEXT),
        ("utf-16", _EURO_TEXT),
        ("cp1252", _EURO_TEXT),
        ("latin-1", _LATIN1_TEXT),
    ],
)
def test_text_in_any_common_encoding(tmp_path: Path, encoding: str, text: str) -> None:
    path = tmp_path / f"terms-{encoding}.txt"
    path.write_bytes(text.encode(encoding))
    (segment,) = read_segments(path)
    assert segment.text == text
    assert analyse_file(path).weak_commitments()


def test_offer_workbook_contract_sheet_cells_are_located(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    wb.active.title = "Offer"
    wb.active["A1"] = "GPU"
    ws = wb.create_sheet("Contract Terms")
    ws["A1"] = "Clause"
    ws["B2"] = "Delivery is targeted for Q2 2027, subject to availability."
    ws["B3"] = "Provider may modify prices upon 30 days' notice."
    path = tmp_path / "offer.xlsx"
    wb.save(str(path))
    result = analyse_file(path)
    weak = result.weak_commitments()[0]
    assert (weak.where["sheet"], weak.where["cell"]) == ("Contract Terms", "B2")
    change = next(f for f in result.findings if f.kind == "unilateral_change")
    assert change.where["cell"] == "B3"


def test_offer_yaml_contract_key_is_located(tmp_path: Path) -> None:
    path = tmp_path / "offer.yaml"
    path.write_text(
        "vendor: Borealis\ncontract_text: |\n"
        "  Borealis will use commercially reasonable efforts to make the cluster available "
        "99.9% of each month.\n",
        encoding="utf-8",
    )
    weak = analyse_file(path, vendor_names=["Borealis"]).weak_commitments()[0]
    assert weak.where["key"] == "contract_text"
    assert weak.obligor == "vendor"


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.txt", None, "missing.txt: not found"),
        ("empty.md", b"  \n\n", "no text"),
        ("terms.rtf", b"{\\rtf1 hello}", "unsupported file type"),
        ("broken.pdf", b"%PDF-1.4 this is not really a pdf", "PDF"),
        ("broken.docx", b"not a zip", "Word document"),
        ("offer.xlsx", b"not a workbook", "workbook"),
        ("offer.yaml", b"vendor: x\n", "no contract text"),
    ],
)
def test_unreadable_input_is_an_input_error_naming_the_file(
    tmp_path: Path, name: str, content: bytes | None, message: str
) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(InputError) as info:
        analyse_file(path)
    assert isinstance(info.value, EvaltoolError)
    assert str(path) in str(info.value)
    assert message in str(info.value)
