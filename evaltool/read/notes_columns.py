"""A column whose header ends in a notes word is a notes column, whoever wrote the notes:
"Supplier_Notes", "Vendor comments", "Lieferanten_Bemerkungen", "Observaciones del proveedor"
is not the vendor's name, though its first word may name the vendor."""

from __future__ import annotations

import re

from evaltool.read.vocabulary import normalise_label

_NOTES_WORD = (r"(?:notes?|remarks?|comments?|bemerkung(?:en)?|anmerkung(?:en)?|kommentare?|"
               r"remarques?|observaciones|observacoes|osservazioni|opmerkingen|uwagi|poznamky|"
               r"anmarkningar|bemaerkninger|notas?)")
# the notes word last ("Supplier notes"), or first with its writer after it ("Observaciones
# del proveedor", "Bemerkungen des Anbieters", "Notes from vendor")
_NOTES_RE = re.compile(rf"(?:^|\s){_NOTES_WORD}$|^{_NOTES_WORD}\s+(?:\w+\s+){{0,2}}"
                       r"(?:supplier|vendor|seller|provider|bidder|anbieters?|lieferanten?|"
                       r"fournisseur|proveedor|fornitore|dostawcy|leverandor\w*)$")


def is_notes_column(header: str) -> bool:
    """'Supplier_Notes' -> True; 'Supplier' -> False."""
    return bool(_NOTES_RE.search(normalise_label(header)))
