"""Map a vendor's label to a canonical field, using evaltool/data/field_synonyms.yaml."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from evaltool.grammar.basis import basis_vocabulary
from evaltool.models import CANONICAL_FIELDS
from evaltool.read.text import BASIS_PHRASE_RE, billing_unit, currency_of
from evaltool.resources import data_dir

MAX_LABEL_WORDS = 7  # longer texts are sentences (notes, clauses), never labels
_FOOTNOTE_MARKS = re.compile("[\u00b9\u00b2\u00b3\u2070-\u2079*\u2020\u2021]+")


_UNSPLIT_LETTERS = str.maketrans({"æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "œ": "oe",
                                  "Œ": "OE", "ł": "l", "Ł": "L", "ß": "ss", "đ": "d", "Đ": "D",
                                  "ı": "i"})
UNSPLIT_LETTERS = _UNSPLIT_LETTERS  # for the prose readers' folding (normalize/phrases.py)


_PLURAL_RE = re.compile(r"(?<=[A-Za-z])['\u2019]s\b")
_CAMEL_RE = re.compile(r"([a-z])([A-Z])")
_DOT_IN_WORD_RE = re.compile(r"(?<=[^\W\d_])\.(?=[^\W\d_])")


@lru_cache(maxsize=65536)  # called for every cell of every sheet, with few distinct texts
def normalise_label(text: str) -> str:
    """'Total GPUs:' -> 'total gpus'; 'Gültig bis' -> 'gultig bis' (accents folded)."""
    text = _FOOTNOTE_MARKS.sub("", text)  # "Price¹", "Shared storage³", "Peak*"
    folded = text if text.isascii() else _fold_letters(text)  # (ASCII: nothing to fold)
    if "'" in folded or "\u2019" in folded:
        folded = _PLURAL_RE.sub("s", folded)  # "GPU's per node": plural
    # "GPU-hour" and "per_gpu_hr" become words; camelCase keys become words too.
    if " " not in folded.strip():  # a key such as gpuCount: split camelCase
        folded = _CAMEL_RE.sub(r"\1 \2", folded)
    folded = folded.lower()
    # Letters of every script are words ("単価", "단가", "περιγραφή", "цена"): a label is never
    # read as its Latin fragments alone ("GPU당 시간 단가" is no "GPU"); a run of kana and
    # ideographs, or of Hangul, is a word of its own beside Latin letters ("GPU当たり").
    # The middle dot "・" joins two words ("品名・仕様": name and specification).
    return " ".join(_WORD_RE.findall(folded))


def _fold_letters(text: str) -> str:
    # letters NFKD does not split: "Bemærkninger" -> "bemaerkninger", "Łącznie" -> "lacznie"
    folded = unicodedata.normalize("NFKD", text.translate(_UNSPLIT_LETTERS))
    # NFC again: a Hangul syllable NFKD split into its letters ("단가") is one again.
    return unicodedata.normalize("NFC", "".join(c for c in folded
                                                if not unicodedata.combining(c)))


_WORD_RE = re.compile(r"[\u3040-\u30fa\u30fc-\u30ff\u3400-\u9fff]+|[\uac00-\ud7af]+|"
                      r"(?:(?![\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])[^\W_])+")


_NODE_WORDS = ("node", "nodes", "server", "servers", "host", "hosts", "instance", "instances",
               "vm", "vms", "system", "systems", "machine", "machines", "knoten", "serveur",
               "serveurs", "noeud", "noeuds", "tray", "trays")
_GPU_WORDS = ("gpu", "gpus", "accelerator", "accelerators", "chip", "chips", "card", "cards",
              "beschleuniger", "accelerateur", "accelerateurs")
# "GPU w serwerze", "GPUs im Knoten", "GPU v serveru": the small words of "in" a node.
_IN_WORDS = ("in each", "each", "in", "im", "w", "v", "i", "dans", "en", "op", "nel", "pro")


@lru_cache(maxsize=1)
def _resource_words() -> dict[str, str]:
    """Folded word -> 'gpu' or 'node': the basis words of evaltool/data/basis_words.yaml
    (every language's node, server and accelerator) and the English ones above."""
    # Never "no": Portuguese "nó" (node) folds to the "No." of a numbered column.
    words = {normalise_label(w): b for w, b in basis_vocabulary()["words"].items()
             if b in ("gpu", "node") and len(normalise_label(w)) > 1
             and normalise_label(w) not in ("no", "nr")}
    words.update({w: "node" for w in _NODE_WORDS})
    words.update({w: "gpu" for w in _GPU_WORDS})
    return words


def resource_words() -> dict[str, str]:
    """Folded word -> 'gpu' or 'node', in every language of the basis words."""
    return _resource_words()


@lru_cache(maxsize=1)
def _label_shapes() -> tuple[tuple[str, re.Pattern[str]], ...]:
    words = _resource_words()
    node = "(?:" + "|".join(sorted((re.escape(w) for w, b in words.items() if b == "node"),
                                   key=len, reverse=True)) + ")"
    gpu = "(?:" + "|".join(sorted((re.escape(w) for w, b in words.items() if b == "gpu"),
                                  key=len, reverse=True)) + ")"
    per = "(?:" + "|".join(re.escape(normalise_label(w)) for w in
                           (*basis_vocabulary()["per"], *_IN_WORDS)) + ")"
    vocab = load_vocabulary()
    count = "(?:number of|nombre de|anzahl der|no of|count of|" + "|".join(
        re.escape(w) for w in sorted(vocab.count_words, key=len, reverse=True)) + ")"
    total = "(?:" + "|".join(re.escape(w) for w in sorted(vocab.total_words, key=len,
                                                            reverse=True)) + ")"
    return (
        ("gpus_per_node", re.compile(rf"^{gpu} {per} (?:each |1 |one )?{node}$")),
        # "nodes x gpus", "Knoten × GPU": both counts in one cell (read/count_pairs.py)
        ("node_count", re.compile(rf"^{node} (?:x|by|mal|fois) {gpu}(?: {node})?$")),
        ("node_count", re.compile(rf"^(?:{count}|{total}|no(?: de| di)?) {node}$|"
                                  rf"^{node}(?: reserved| {total}| {count})?$")),
        # "Nº GPU", "N° de nodos", "№ GPU": the numero sign folds to "no" and counts what
        # follows (only in front: "GPU No." after the resource is a serial number).
        ("gpu_count", re.compile(rf"^(?:{count}|{total}|no(?: de| di)?) {gpu}$|"
                                 rf"^{gpu} (?:{total}|{count})$")),
    )


def label_shape(text: str) -> str | None:
    """Count labels by their shape: '<GPUs> per <node>', 'number of <nodes>', '<total> GPU',
    in every language of the basis and count words."""
    for slot, pattern in _label_shapes():
        if pattern.match(text):
            return slot
    return None


# A section of more words than this is a description, not a heading.
_MAX_HEADING_WORDS = 5
# "GPUs/node", "GPU / Knoten", "GPU/nodo": a ratio of two resources, written with a slash.
_RATIO_RE = re.compile(r"\s*([^\W\d_]+)\s*/\s*([^\W\d_]+)\.?\s*")


def _ratio_shape(label: str) -> str | None:
    found = _RATIO_RE.fullmatch(label)
    if found is None:
        return None
    words = _resource_words()
    if (words.get(normalise_label(found.group(1))),
            words.get(normalise_label(found.group(2)))) == ("gpu", "node"):
        return "gpus_per_node"
    return None


def storage_price_label(label: str) -> str | None:
    """'Storage $/TB-mo', 'Stockage €/To/mois': a currency and a per-TB-month basis make a
    label the storage price, whatever storage word it holds (never the capacity)."""
    if billing_unit(label) == "tb_month" and currency_of(label):
        return "storage_usd_per_tb_month"
    return None


# Slots of words so generic ("type", "name", "dedicated") that under a known parent key they
# mean the parent's field: interconnect.type is the fabric, not the offer's type.
_GENERIC_SLOTS = frozenset({"offer_kind", "offer_name", "vendor"})


@dataclass(frozen=True)
class Vocabulary:
    labels: dict[str, str]  # normalised synonym -> slot
    line_item_headers: dict[str, str]  # normalised header word -> column role
    offer_kinds: tuple[tuple[str, str], ...]  # (normalised phrase, kind), in priority order
    superseded: tuple[str, ...] = ()  # normalised phrases that mark a sheet as superseded
    count_words: frozenset[str] = frozenset()  # "qty", "anzahl", "liczba": a count of what follows
    total_words: frozenset[str] = frozenset()  # "total", "razem", "celkem": a total of what follows
    status_headers: frozenset[str] = frozenset()  # "status", "estado": a listing's status
    withdrawn: frozenset[str] = frozenset()  # statuses of a listing no longer on offer

    # Labels recur across cells, sheets and files: each (label, section) is matched once.
    _matched: dict[tuple[str, str | None], str | None] = field(
        default_factory=dict, compare=False, repr=False)

    def match(self, label: str, section: str | None = None) -> str | None:
        """The slot a label stands for, or None.  Exact matches beat phrase matches; the
        section ("Storage" above "Capacity") is tried first."""
        key = (label, section)
        if key not in self._matched:
            if len(self._matched) > 65_536:  # a hostile file of distinct labels: start over
                self._matched.clear()
            slot = self._match(label, section)
            if slot == "storage_capacity_tb" and storage_price_label(label):
                slot = "storage_usd_per_tb_month"  # "Storage $/TB-mo" is a price
            self._matched[key] = slot
        return self._matched[key]

    def _match(self, label: str, section: str | None) -> str | None:
        text = normalise_label(label)
        if len(text.split()) > MAX_LABEL_WORDS and "(" in label:
            # "Managed service (monitoring, remote hands) – included in TCO": an aside in
            # brackets does not make a label a sentence.
            text = normalise_label(re.sub(r"\([^()]*\)", " ", label))
        if not text or len(text.split()) > MAX_LABEL_WORDS:
            return None
        shaped = label_shape(text) or _ratio_shape(label)
        if shaped is not None and text not in self.labels:
            return shaped
        if text not in self.labels:
            compound = self._compound_shape(label, text)
            if compound is not None:
                return compound
        context = normalise_label(section) if section else ""
        tries = [f"{context} {text}", text] if context else [text]
        for candidate in tries:
            if candidate in self.labels:
                found = self.labels[candidate]
                if candidate == text and context and found in _GENERIC_SLOTS:
                    # interconnect: {type: ...}: a generic word takes its parent's meaning
                    inner = self.labels.get(context) or self._longest_phrase(context)
                    if inner is not None and inner not in _GENERIC_SLOTS and inner != "ignore":
                        return inner
                return found
        # A section that is a line's description, not a heading ("Cloud TPU v6e (Trillium),
        # v6e-256 slice, 1-year ..." over "orchestration"), gives a label no meaning of its
        # own words alone: a phrase must reach into the label.  A heading ("supplier" over
        # "name", "pricing" over "hourly") gives its meaning as it is.
        described = len(context.split()) > _MAX_HEADING_WORDS
        for candidate in tries:
            reach = len(context.split()) if candidate != text and described else 0
            slot = self._longest_phrase(candidate, reach)
            if slot is not None:
                return slot
        return None

    def _compound_shape(self, label: str, text: str) -> str | None:
        """A header built of a quantity word and a resource ("qty_gpu", "Anzahl Knoten",
        "liczba GPU") is a count; a currency and a resource x time basis ("usd_gpu_hr",
        "£ / node / week", "EUR / ora-nodo") is the compute price.  Neither is ever the
        accelerator, whatever resource word it holds."""
        words = text.split()
        inner = self._longest_phrase(text)
        if inner not in (None, "accelerator", "node_count", "gpu_count", "price"):
            return None  # "Support EUR per node per month" is the support fee's
        if len(words) >= 2 and any(w in self.count_words for w in words):
            resources = {_resource_words().get(w) for w in words} - {None}
            if len(resources) == 1:
                return f"{resources.pop()}_count"
        if len(words) >= 2 or not words:
            unit = billing_unit(f"{label} {text}")
            if unit is not None and re.match(r"^(?:gpu|node|rack)_(?:hour|day|week|month|year)$",
                                             unit) and (currency_of(label) or currency_of(text)
                                                        or BASIS_PHRASE_RE.search(label)):
                return "price"  # "EUR / node / week", "Server, per server per maand"
        return None

    def _longest_phrase(self, text: str, reach: int = 0) -> str | None:
        words = text.split()
        for size in range(len(words) - 1, 0, -1):
            for start in range(0, len(words) - size + 1):
                if start + size <= reach:
                    continue  # words of the section alone
                phrase = " ".join(words[start:start + size])
                if phrase in self.labels:
                    return self.labels[phrase]
        return None

    def header_role(self, text: str) -> str | None:
        key = ("\0header", text)  # a key no (label, section) pair can take
        if key not in self._matched:
            self._matched[key] = self._header_role(text)
        return self._matched[key]

    def _header_role(self, text: str) -> str | None:
        role = self._header_role_of(text)
        if role is None and "." in text:
            # an abbreviation with a dot inside one word ("Q.tà", "Q.ty", "Q.té") is that word
            joined = _DOT_IN_WORD_RE.sub("", text)
            if joined != text:
                role = self._header_role_of(joined)
        return role

    def _header_role_of(self, text: str) -> str | None:
        norm = normalise_label(text)
        if norm in self.line_item_headers:
            return self.line_item_headers[norm]
        words = norm.split()
        if 0 < len(words) <= 4:
            for size in range(len(words) - 1, 0, -1):
                for start in range(0, len(words) - size + 1):
                    phrase = " ".join(words[start:start + size])
                    if phrase in self.line_item_headers:
                        return self.line_item_headers[phrase]
        return None

    def offer_kind(self, text: str) -> str | None:
        norm = f" {normalise_label(text)} "
        for phrase, kind in self.offer_kinds:
            if f" {phrase} " in norm:
                return kind
        return None


@lru_cache(maxsize=1)
def load_vocabulary() -> Vocabulary:
    import yaml

    raw = yaml.safe_load((data_dir() / "field_synonyms.yaml").read_text(encoding="utf-8"))
    labels: dict[str, str] = {}
    for slot, synonyms in raw["fields"].items():
        labels.setdefault(normalise_label(slot.replace("_", " ")), slot)
        for synonym in synonyms:
            if normalise_label(str(synonym)):
                labels.setdefault(normalise_label(str(synonym)), slot)

    for name in CANONICAL_FIELDS:  # the template's own labels are the canonical names
        labels.setdefault(normalise_label(name.replace("_", " ")), name)
    headers: dict[str, str] = {}
    for role, words in raw["line_item_headers"].items():
        for word in words:
            if normalise_label(str(word)):  # a word in a script normalise_label drops
                headers.setdefault(normalise_label(str(word)), role)
    kinds = tuple(
        (normalise_label(str(phrase)), kind)
        for kind, phrases in raw["offer_kind"].items()
        for phrase in phrases
    )
    superseded = tuple(normalise_label(str(p)) for p in raw.get("superseded_sheet", ())
                       if normalise_label(str(p)))
    count_words = frozenset(normalise_label(str(w)) for w in raw.get("count_words", ())
                            if normalise_label(str(w)))
    def folded(key: str) -> frozenset[str]:
        return frozenset(n for w in raw.get(key, ()) if (n := normalise_label(str(w))))

    return Vocabulary(labels=labels, line_item_headers=headers, offer_kinds=kinds,
                      superseded=superseded, count_words=count_words,
                      status_headers=folded("status_headers"), withdrawn=folded("withdrawn_status"),
                      total_words=folded("total_words"))
