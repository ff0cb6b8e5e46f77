"""The words of a table's header row: which column holds the label, the value, its unit,
its notes, a clause number or a section ('Voce | Valore | Unità | Note')."""

from evaltool.read.vocabulary import normalise_label

VALUE_HEADERS = {"value", "your value", "your offer", "offer value", "answer", "your answer",
                  "response", "vendor response", "wert", "angebot", "valeur", "reponse",
                  "your answer the contract wording", "ihre antwort", "votre reponse",
                  "valor", "valore", "wartosc", "waarde", "varde",
                  # Danish, Norwegian, Finnish, Hungarian, Czech, Romanian, Turkish
                  "vaerdi", "verdi", "arvo", "ertek", "valoare", "deger",
                  # Czech/Slovak, Russian
                  "hodnota", "значение"}
FIELD_HEADERS = {"field", "parameter", "attribute", "property", "question", "item", "feld",
                  "champ", "requirement", "canonical field", "label", "designation", "merkmal",
                  "rubrique", "position", "kennzahl", "parametre", "caracteristique",
                  # Spanish, Italian, Polish, Dutch, Swedish
                  "concepto", "parametro", "caracteristica", "voce", "parametr", "pozycja",
                  "onderdeel", "kenmerk", "egenskap", "specifikation", "component", "komponente",
                  "parametri", "parameteri", "jellemzo", "ozellik", "параметр",
                  "composant", "componente"}
UNIT_HEADERS = {"unit", "units", "unite", "einheit", "uom", "unit of measure", "per", "unidad",
                 "unita", "jednostka", "eenheid", "enhet", "enhed", "yksikko", "mertekegyseg",
                 "egyseg", "jednotka", "unitate", "birim"}
NO_UNIT = {"", "-", "--", "\u2014", "\u2013", "count", "n/a", "text", "yes/no", "anzahl",
            "nombre", "date", "datum"}
# The vendor's own clause number beside its answer (the RFP template's "Clause reference").
CLAUSE_REF_HEADERS = {"clause reference", "clause ref", "clause no", "clause number", "reference",
                       "ref", "section number", "section no", "paragraph", "klausel", "ziffer"}
SECTION_HEADERS = {"section", "category", "group", "area", "bereich", "kategorie", "categorie",
                    "domaine", "topic", "sekce", "oddil", "sekcja", "szakasz", "seccion",
                    "sezione", "раздел"}
NOTE_HEADERS = {"note", "notes", "comment", "comments", "remarks", "bemerkung", "remarque",
                 "notas", "uwagi", "opmerkingen", "opmerking", "anmarkning", "unita note",
                 "jednostka uwagi", "unidad notas", "eenheid opmerkingen", "unit notes", "remark",
                 "footnote", "footnotes", "observations", "observaciones", "observacoes",
                 "osservazioni", "anmerkungen", "bemerkungen", "bemaerkninger", "poznamky",
                 "anmarkningar", "kommentar", "kommentare", "bemaerkning", "merknad", "merknader",
                 "huomautus", "huomautukset", "lisatiedot", "megjegyzes", "observatii",
                 "aciklama", "notlar", "備考", "摘要", "poznamka", "uwaga", "anmerkung",
                 "nota", "observacion", "observacao", "bemerkninger", "huom",
                 "megjegyzesek", "pripominka", "komentar", "komentarz", "notes remarks"}


def is_qualified_note_header(label: str) -> bool:
    """A notes column qualified by whose notes they are ("Supplier notes", "Vendor comments",
    "Bemerkungen Lieferant"): two words, one of them a notes word."""
    words = normalise_label(label).split()
    return len(words) == 2 and (words[0] in NOTE_HEADERS or words[1] in NOTE_HEADERS)


def notes_word(label: str) -> str:
    """The notes word of a qualified notes header ("Supplier_Notes" -> "notes")."""
    return next((w for w in reversed(normalise_label(label).split()) if w in NOTE_HEADERS),
                label)

# "Component | Specification | Unit | Comment": a specification column is the value column
# only beside a unit column (without one, "Item | Specification" rows are read as prose).
SPEC_VALUE_HEADERS = {"specification", "spezifikation", "especificacion", "specifica",
                      "specificatie", "specyfikacja"}
