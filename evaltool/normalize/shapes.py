"""Facts recognised by the shape of a phrase, wherever it stands: counts of nodes and GPUs
("24 x Dell XE9680, each with 8x H100", "Twelve nodes", "8 (8 GPUs each, 64 GPUs)",
"4 × GB200 NVL72 racks"), in digits or in words (English, German, French).

A label is evidence and a value's shape is evidence: the caller gives these facts a lower
priority than a labelled value and warns when the two disagree.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from evaltool.grammar.basis import basis_vocabulary
from evaltool.grammar.textcache import by_text
from evaltool.normalize.count_phrases import read_count_phrase
from evaltool.resources import data_dir


@functools.cache
def count_words() -> dict[str, str]:
    """The nouns of counts and the words of CPU cores, each as one regular-expression
    alternative (evaltool/data/count_words.yaml)."""
    import yaml

    raw = yaml.safe_load((data_dir() / "count_words.yaml").read_text(encoding="utf-8"))
    return {kind: "(?:" + "|".join(str(w) for w in words) + ")" for kind, words in raw.items()}


_ACC = (r"(?:(?:nvidia|amd|intel)\s+)?(?:hgx\s+|dgx\s+|instinct\s+|tesla\s+)?"
        r"(?:h100|h200|h20|b100|b200|b300|gb200|gb300|a100|a10g?|l40s?|l4|mi\d{3}x?|"
        r"gaudi\s*\d|tpu)")


@functools.cache
def _number_words() -> dict[str, int]:
    import yaml

    raw = yaml.safe_load((data_dir() / "number_words.yaml").read_text(encoding="utf-8"))
    words: dict[str, int] = {}
    for table in raw.values():
        for word, value in table.items():
            words[_fold(str(word))] = int(value)
    return words


def _fold(text: str) -> str:
    if text.isascii():
        return text.lower()  # nothing to fold
    text = unicodedata.normalize("NFKD", text.replace("œ", "oe").replace("ł", "l")
                                 .replace("Ł", "L"))
    # NFC after dropping the accents: a Hangul syllable NFKD split into letters ("장") is
    # one again, so Korean count words match.
    return unicodedata.normalize(
        "NFC", "".join(c for c in text if not unicodedata.combining(c))).lower()


_LATIN_RE = re.compile(r"[a-z]")
_WORD_RE = re.compile(r"\b[a-z]+(?:-[a-z]+)?\b")
_REPEATED_COUNT_RE = re.compile(r"\b(\d+)\s*\(\s*\1\s*\)")


@by_text(8192)  # the same phrases are read for counts by several readers
def words_to_digits(text: str) -> str:
    """'Twelve nodes, each with eight GPUs' -> '12 nodes, each with 8 GPUs'."""
    words = _number_words()
    folded = _fold(text)
    if not _LATIN_RE.search(folded):
        return folded

    def swap(match: re.Match[str]) -> str:
        return str(words.get(match.group(0), match.group(0)))

    digits = _WORD_RE.sub(swap, folded)
    # "Twee (2) racks", "Two (2) nodes": the legal style repeats the count in figures.
    return _REPEATED_COUNT_RE.sub(r"\1", digits)


_X = r"\s*[x×*]\s*"
# The words that scope a count to one node ("8 GPUs per node", "je Knoten", "por nodo",
# "na węzeł", "cada uno", "per nodo"), folded like the text.  Never "para" (Spanish and
# Portuguese "for": "40 GPUs para inferência" is no count of one node).
# Danish and Norwegian abbreviate "per" as "pr." ("8 GPU pr. node").
_PER_WORDS = (r"per\b|each\b|in each\b|je\b|pro\b|par\b|por\b|na\b|voor\b|"
              r"pr\.?(?=\s)|cada\b|ogni\b|/")
_SIZE_UNIT = r"(?:gb|gib|tb|tib|go|to|mb)\b"
_INT = r"(\d{1,5}(?:[,.\s]\d{3})?)"
# "450.000 ore GPU", "10 000 GPU hours": hours of GPU time, never a count of GPUs.
_HOUR_WORDS = (r"|(?:hours?|ore|stunden|heures|horas|uur|timmar|godzin\w*|tunnit|óra|órák|órát|"
               r"hodin\w*|час\w*)\b")
# A GPU-hour in any language: "250 000 GPU-óra" is an allocation of hours, never 250,000 GPUs.
_GPU_HOUR_AFTER = (r"|[-\s]?(?:hours?|h|hrs?|óra|órák|órát|stunden?|std|heures?|horas?|ore|ora|uur|"
                   r"timmar|timer|time|timme|hod\w*|godz\w*|час\w*|tunti\w*)\b")


def _int(token: str) -> int:
    return int(re.sub(r"[,.\s]", "", token))


# A phrase that states counts ("24 x XE9680, each with 8x H100") is short; the patterns below
# scan a few words around each number, so longer text is read clause by clause and a clause
# longer than this is not a count phrase (keeps hostile 50,000-character cells linear).
MAX_COUNT_PHRASE_CHARS = 300
_CLAUSE_SPLIT = re.compile(r"[.;\n]\s")


def count_facts(text: str) -> dict[str, int]:
    """gpu_count, node_count and gpus_per_node a phrase states, as far as it states them.
    A quoted line of an earlier message ('> we need about 40 GPUs') is the buyer's request,
    not the offer: it states none."""
    return dict(_count_facts(text))  # the caller's own dict


@by_text(8192)  # a phrase's counts by its words alone; readers ask again
def _count_facts(text: str) -> tuple[tuple[str, int], ...]:
    if text.lstrip().startswith(">"):
        return ()
    if len(text) <= MAX_COUNT_PHRASE_CHARS:
        return tuple(_phrase_counts(text).items())
    found: dict[str, int] = {}
    for clause in _CLAUSE_SPLIT.split(text):
        if len(clause) <= MAX_COUNT_PHRASE_CHARS:
            for name, value in _phrase_counts(clause).items():
                found.setdefault(name, value)
    return tuple(found.items())


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """The count patterns, built from the count words, compiled once each: re's own cache
    (512 patterns for the whole program) kept dropping them (benchmarks/ingest.py)."""
    return re.compile(pattern)


def _search(pattern: str, text: str) -> re.Match[str] | None:
    return _compiled(pattern).search(text)


def _nodes_of_accelerators(low: str) -> dict[str, int]:
    """'24 instancias de 2 × NVIDIA L40S', '6 nœuds de 8 GPU', '4 Server mit je 8 GPUs': N
    nodes, each of M accelerators; 'Pro Rack 18 Knoten mit je 4 GPUs' counts the nodes of one
    rack, so only the GPUs of a node are taken from it."""
    words = count_words()
    m = re.search(r"(?<![\w.])" + _INT + r"\s*(?:[x×]\s*)?\s" + words["node"] +  # "2 x servidor
                  r"\s+(?:" + words["of"] + r")\s+(?:je\s+|each\s+|cada\s+|jeweils\s+)?" +
                  _INT + r"\s*(?:[x×*]\s*)?(?:" + _ACC + r"|" + words["gpu"] + r"\b)", low)
    if m is None:  # "4x HGX H100 (8 GPUs each)", "6 × XE9680 (je 8 × H200)": each in brackets
        m = re.search(r"(?<![\w.])" + _INT + _X + r"[^,;()]{2,50}?\(\s*(?:" + words["each"] +
                      r")?\s*" + _INT + r"\s*(?:[x×]\s*)?(?:" + _ACC + r"|" + words["gpu"] +
                      r")\b[^()]{0,20}?(?:\b(?:" + words["each"] + r")\s*)?\)", low)
        return {} if m is None or not re.search(words["each"], m.group(0)[m.group(0).find(
            "("):]) else {"node_count": _int(m.group(1)), "gpus_per_node": _int(m.group(2))}
    found = {"gpus_per_node": _int(m.group(2))}
    if not re.search(r"(?:each|per|pro|je|par|por|cada|ogni)\s+" + words["rack"] +
                     r"\s*[:,]?\s*$", low[:m.start()]):
        found["node_count"] = _int(m.group(1))
    return found


@functools.cache
def _may_count_re() -> re.Pattern[str]:
    """What every count shape below holds: a word of GPUs, nodes or racks, an accelerator's
    name or 'nvl' (each shape also holds a figure)."""
    words = count_words()
    return re.compile("|".join((words["gpu"], words["node"], words["rack"], _ACC, "nvl")))


_DIGIT_RE = re.compile(r"\d")


def _phrase_counts(text: str) -> dict[str, int]:
    low = words_to_digits(text)
    if not _DIGIT_RE.search(low) or not _may_count_re().search(low):
        return {}  # no shape can match: none runs (most phrases of a sheet state no count)
    return _count_facts_in_phrase(text)


def _single_node(low: str) -> tuple[dict[str, int], str]:
    """'a single server with 8 GPUs', '1 seul serveur avec 8 GPU' (number words are digits
    by now): one node of N GPUs, and the text without the phrase.  '1 node with 8 GPUs' is a
    ratio; 'single' says the offer is that one node.  ('N <GPUs> <model> per <node>' is
    _count_facts_in_phrase's per-node scope.)"""
    words = count_words()
    m = _search(r"(?<![\w.])" + words["single"] + r"\s+" + words["node"] + r"\s+(?:with|of|mit|"
                r"avec|con|de|met|med|z|com)\s+" + _INT + r"\s*(?:[x×]\s*)?(?:[a-z0-9-]+\s+){0,3}?"
                + words["gpu"] + r"\b", low)
    if m is not None:
        return ({"node_count": 1, "gpus_per_node": _int(m.group(1))},
                low[:m.start()] + " " + low[m.end():])
    return {}, low


def _node_holding(low: str) -> tuple[dict[str, int], str]:
    """'Canone mensile server L40S (4 GPU)', 'Monthly fee per node (8 GPUs)': a node with no
    count before it and what it holds in brackets after it: the GPUs of one node, and the
    text without the phrase ('24 x nx8 instances (192 GPUs)' is counted: not this shape)."""
    words = count_words()
    m = _search(r"(?<![\w.])" + words["node"] + r"\s+(?:[a-z0-9-]+\s+){0,3}?\(\s*" + _INT +
                r"\s*(?:[x×]\s*)?(?:[a-z0-9-]+\s+){0,2}?" + words["gpu"] + r"\s*\)", low)
    if m is None or _DIGIT_RE.search(low[:m.start()]):
        return {}, low
    return {"gpus_per_node": _int(m.group(1))}, low[:m.start()] + " " + low[m.end():]


def _count_facts_in_phrase(text: str) -> dict[str, int]:  # one pattern a shape
    low = words_to_digits(text)
    words = count_words()
    _NODE, _GPU, _RACK = words["node"], words["gpu"], words["rack"]
    found: dict[str, int] = {}

    def put(name: str, value: int) -> None:
        if value > 0 and name not in found:
            found[name] = value

    # "a single server with 8 GPUs", "1 seul serveur avec 8 GPU": one node, said to be one
    single, low = _single_node(low)
    found.update(single)  # the first shape tried: nothing is found before it
    # "1 instance = 8 GPUs", "1 node: 4 chips": a ratio, not a count of nodes
    # "1台（8GPU）あたり": in CJK a count follows a word with no space, and brackets say it
    m = _search(r"(?<![\d.a-z])(?:1|one|a|an|each)\s*" + _NODE + r"\s*(?:=|:|\(|equals|has|with|"
                  r"comprises|contains|mit|avec|hat|a)\s*" + _INT + r"\s*(?:[a-z0-9]+\s+){0,3}?"
                  + _GPU + r"\b", low)
    if m:
        put("gpus_per_node", _int(m.group(1)))
        low = low[:m.start()] + " " + low[m.end():]
    held, low = _node_holding(low)  # "server L40S (4 GPU)": what one node holds
    found.update({**held, **found})  # (an earlier shape's figure stays)
    # "Compute tray: 4 GPUs + 2 Grace CPUs", "Knoten: 8 GPUs": a node defined by what it holds
    m = _search(r"^\s*(?:[a-z-]+\s+){0,2}?" + _NODE + r"\s*:\s*" + _INT +
                  r"\s*(?:[a-z0-9-]+\s+){0,3}?" + _GPU + r"\b", low)
    if m:
        put("gpus_per_node", _int(m.group(1)))
        low = low[:m.start()] + " " + low[m.end():]
    # "2 racks x 72 GPUs = 144 GPUs", "2 Knoten x 8 GPUs = 16 GPUs": the product is the count
    m = _search(r"=\s*" + _INT + r"\s*(?:[a-z0-9-]+\s+){0,3}?" + _GPU + r"\b", low)
    if m:
        put("gpu_count", _int(m.group(1)))
    # "vier HGX-Knoten à 8 GPUs", "8 × HGX H100 nodes", "64 × H100 SXM 80GB" (count_phrases.py)
    found.update({**read_count_phrase(low, words, _ACC), **found})  # (earlier shapes stay)
    # "8 nodes x 8 GPUs", "32 nodes x 8 x NVIDIA H100", "24 x Dell XE9680, each with 8x H100"
    # ("4 nodes × 6 months" is a term, not 6 GPUs)
    m = _nodes_times_gpus_re().search(low)
    if m:
        put("node_count", _int(m.group(1)))
        put("gpus_per_node", _int(m.group(2)))
    # "N GPUs per node / each / in each server / je Knoten / par noeud"
    m = _search(r"(?<![\w.-])" + _INT + r"\s*(?:(?!\d+\b|" + _NODE + r"\b)[a-z0-9-]+\s+){0,4}?"
                  + _GPU +
                  r"\s*(?:" + _PER_WORDS + r")\s*(?:(?:[a-z0-9-]+\s+){0,3}?" + _NODE +
                  r")?", low)  # "4 chips per TPU VM host": a few words may name the node
    if m and not _search(_INT + r"\s*" + _GPU + r"\s+total", m.group(0)) and _search(
            r"each|per\s*(?:[a-z0-9-]+\s+){0,3}?" + _NODE + r"|" + _PER_WORDS + r"|/\s*" + _NODE,
            m.group(0)):
        put("gpus_per_node", _int(m.group(1)))
    # "16 x 8-GPU servers", "4x 8-GPU MI325X servers", "16 stk. 8-GPU servere": N nodes of
    # M GPUs each (the piece words of a quantity: stk., pcs., szt., ks)
    m = _search(r"(?<![\w.])" + _INT + r"\s*(?:[x×*]|" + words["piece"] + r")\s*" + _INT +
                  r"\s*-\s*" + _GPU + r"\b[\s-]*(?:[a-z0-9-]+\s+){0,3}?" + _NODE + r"\b", low)
    if m:
        put("node_count", _int(m.group(1)))
        put("gpus_per_node", _int(m.group(2)))
    # "24 instancias de 2 × NVIDIA L40S", "12 nodes of 8 x H100", "4 Server mit je 8 GPUs":
    # N nodes, each of M accelerators
    for name, value in _nodes_of_accelerators(low).items():
        put(name, value)
    # "N-GPU servers", "8-GPU nodes", "HGX B200 8-GPU"
    m = _search(_INT + r"\s*-\s*" + _GPU + r"\s+" + _NODE, low) or _search(
        r"\b(?:hgx|dgx)\b[^,;]{0,20}?" + _INT + r"\s*-\s*gpu", low)
    if m:
        put("gpus_per_node", _int(m.group(1)))
    # "N nodes", "Twelve nodes", "24 x Dell PowerEdge XE9680" (servers named by model)
    # "16 HGX A100 nodes", "32 H100 compute nodes": between the count and the noun only
    # model names (a letter and a digit) and system words, never "one OS node" prose.
    filler = (r"(?:(?:hgx|dgx|mgx|compute|physical|baremetal|bare-metal|dedicated|gpu|"
              r"(?!\d+\b|" + _SIZE_UNIT + r")[a-z]*\d[a-z0-9-]*)\s+){1,3}?")
    # "18 trays per rack", "9 Knoten pro Rack": the nodes of one rack, not of the offer.
    # "8 uds. de servidores", "4 pcs of servers": a piece word between is no filler.
    pieces = r"(?:" + words["piece"] + r")\s*(?:de|of|di|z|von)?\s+"
    m = _search(r"(?<![\w.-])" + _INT + r"\s*(?:dedicated\s+|bare[- ]metal\s+|gpu[\s-]+|" +
                  pieces + r"|" + filler + r")?" + _NODE +
                  r"\b(?!\s*(?:per|pro|par|por|je|each|in\s+each|na|voor|cada|ogni|pr\.?|/)\s*(?:"
                  + _RACK + r"))", low)
    # "Each rack: 18 compute trays", "pro Rack 18 Knoten": the nodes of one rack too.
    if m and not _search(r"per\s*$|each\s*$|(?:each|per|pro|je|par|por|cada|ogni)\s+"
                           + _RACK + r"\s*[:,]?\s*$", low[:m.start()]):
        put("node_count", _int(m.group(1)))
    # "8 acceleratori Intel Gaudi 3 (128 GB HBM2e) per nodo": the scope of a count closes its
    # clause, past the accelerator's name and a bracketed aside (never past another figure)
    per_node = _accelerators_per_node(low, _NODE) or _scoped_to_a_node(low)
    if per_node:
        put("gpus_per_node", per_node)
    # "each node with eight NVIDIA H100" / "4 x NVIDIA A100 per node" / "nodes 4 x H100"
    m = _search(r"(?:each|per)\s+" + _NODE + r"\s+(?:with|has|hat|avec)\s+" + _INT, low) or \
        _search(r"(?<![\w.])" + _INT + _X + _ACC + r"[^,;()]{0,30}?\bper\s+" + _NODE, low) or \
        _search(_NODE + r"\s+" + _INT + _X + _ACC, low)
    if m:
        put("gpus_per_node", _int(m.group(1)))
    # "24 x Dell PowerEdge XE9680, each with 8x H100", "6 × HGX H200 (je 8× NVIDIA H200)"
    m = _search(r"(?<![\w.])" + _INT + _X + r"[^,;(]{3,50}?[,(]?\s*(?:each|je|jeweils|chacun\w*|"
                  r"cada|ciascun\w*)\s*(?:with|has|mit|avec|con)?\s*" + _INT +
                  r"\s*[x×]?\s*" + _ACC, low)
    # "8 servers, elk uitgerust met 8 Intel Gaudi 3", "4 nodes, each equipped with 8 H100"
    # "szesnaście (16) serwerów NVIDIA DGX A100, każdy z 8 × A100": model names between
    m = m or _search(r"(?<![\w.])" + _INT + r"\)?\s+" + _NODE +
                       r"(?:\s+[a-z0-9-]+){0,4}?\s*,?\s*(?:each|elk\w?|je|jeweils|chacun\w*|"
                       r"cada|ciascun\w*|" + words["each"] + r")\s+(?:[a-z]+\s+){0,2}?"
                       r"(?:with|met|mit|avec|con|z|ze|s|se|med|com|cu|с)\s+" + _INT +
                       r"\s*[x×]?\s*" + _ACC, low)
    if m:
        put("node_count", _int(m.group(1)))
        put("gpus_per_node", _int(m.group(2)))
    # "(256 GPUs total)", "64 GPUs", "288 Blackwell GPUs"
    # "128 NVIDIA A100 SXM4 80GB GPUs": the count before the accelerator's name; a size
    # ("80GB GPUs") or a model number ("TV-9800 GPU server") is never a count.
    m = _search(r"(?<![\w.-])" + _INT + r"\s*(?:[x×]\s*)?" + _ACC + r"[^,;()]{0,30}?\b" + _GPU +
                  r"\b(?!\s*(?:" + _PER_WORDS + r"))", low)
    if m and not _search(r"(?:per|each|with)\s*$", low[:m.start()]):
        value = _int(m.group(1))
        if value > found.get("gpus_per_node", 0):
            put("gpu_count", value)
    m = _search(r"(?<![\w.-])" + _INT + r"\s*(?:(?!" + _SIZE_UNIT + _HOUR_WORDS + r"|" +
                  _NODE + r"\b)[a-z]+[\s-]+)?" + _GPU +
                  r"\b(?!\s*(?:" + _PER_WORDS + _GPU_HOUR_AFTER + r"))", low)
    if m and not _search(r"(?:per|each|with)\s*$", low[:m.start()]):
        value = _int(m.group(1))
        if value > found.get("gpus_per_node", 0) or "total" in low[m.end():m.end() + 8]:
            put("gpu_count", value)
    # "4 × GB200 NVL72 racks", "2 GB300 NVL72 racks": a rack-scale system names the GPUs of
    # one rack (NVL72 = 72 GPUs in one NVLink domain).
    m = _search(r"(?<![\w.])" + _INT + r"\)?(?:" + _X + r"|\s+)(?:[a-z]+\s+){0,2}?[a-z]*\d*\s*"
                  r"nvl(\d{2,3})[\s-]+" +
                  _RACK, low)
    if m:
        put("rack_count", _int(m.group(1)))
        put("gpus_per_rack", _int(m.group(2)))
        put("gpu_count", _int(m.group(1)) * _int(m.group(2)))
    return found


@functools.cache
def _nodes_times_gpus_re() -> re.Pattern[str]:
    """'8 nodes x 8 GPUs', never '4 nodes × 6 months' (any time word of any language)."""
    words = {_fold(w) for w, b in basis_vocabulary()["words"].items()
             if b in ("hour", "day", "week", "month", "year") and len(w) > 1}
    times = "|".join(re.escape(w) + r"\b" for w in sorted(words, key=len, reverse=True))
    return re.compile(_INT + r"\s*(?:bare[- ]metal\s+)?" + count_words()["node"] +
                      r"\b[^.;]{0,12}?" + _X + _INT + r"\b(?!\s*-?\s*(?:" + times + r"))")


@functools.cache
def _pieces_re() -> re.Pattern[str]:
    words = count_words()
    return re.compile(r"^\s*(?P<n>\d{1,5})\s*(?:" + words["piece"] + r"|" + words["node"] + r"|"
                      + words["gpu"] + r")?\.?\s*$", re.IGNORECASE)


def counted_pieces(text: str) -> int | None:
    """'8 uds.', '4 pcs', '16台', '12': a quantity and nothing else (a count of what its
    label names), or None."""
    m = _pieces_re().match(_fold(text))
    return int(m["n"]) if m else None


def _accelerators_per_node(low: str, node: str) -> int | None:
    """'8 × AMD Instinct MI300X 192 GB por servidor' (N of the accelerator, scoped to one
    node), 'AMD Instinct MI300X, 192 GB HBM3, 8 per node' (a count after the name), or a
    cell that is only the accelerator times N ('NVIDIA H100 SXM5 80GB × 8')."""
    m = _search(r"(?<![\w.])" + _INT + _X + _ACC + r"[^;()]{0,40}?\b(?:per|par|pro|je|por|"
                  r"each|/)\s*" + node + r"\b", low) or _search(
        _ACC + r"[^;()]{0,40}?,\s*" + _INT + r"\s*(?:per|par|pro|je|each|/)\s*" + node + r"\b",
        low) or _search(  # "NVIDIA H100 SXM5 80GB HBM3 × 8": the spec of one system
        r"^\s*" + _ACC + r"[\w\s.-]{0,30}?\s[x×]\s*(1|2|4|8|16)\s*(?:$|\()", low)
    return _int(m.group(1)) if m else None


_ASIDE_RE = re.compile(r"\([^()]{0,60}\)")


def _scoped_to_a_node(low: str) -> int | None:
    """'8 acceleratori Intel Gaudi 3 (128 GB HBM2e) per nodo', '4 GPUs NVIDIA H100 80GB je
    Knoten': N accelerators whose clause ends in 'per node'; what lies between may name the
    accelerator or hold a bracketed aside, but no other figure (in '256 GPUs with 3.2 Tbit/s
    per node' the scope belongs to the bandwidth)."""
    words = count_words()
    m = _search(r"(?<![\w.-])" + _INT + r"\s*(?:(?!\d+\b)[a-z0-9-]+\s+){0,4}?" + words["gpu"] +
                r"\b([^,;:]{0,80}?)\s(?:per|pro|je|par|por|each|ogni|cada|na)\s+" +
                words["node"] + r"\b", low)
    if m is None:
        return None
    # the accelerator's own name and memory ("Gaudi 3", "H100 80GB") are no other figure
    between = re.sub(_ACC + r"(?:(?:[\s-]+[a-z]+\d*){0,2}?[\s-]*\d+\s*(?:gb|go)\b)?", " ",
                     _ASIDE_RE.sub(" ", m.group(2)))
    # "32 GPUs with local NVMe per node", "16 GPUs und 2 TB RAM je Knoten": a word that adds
    # another thing ("with", "and", "+") gives the scope to that thing
    return None if re.search(r"\d|\+|&|\b(?:with|and|plus|mit|und|avec|et|con|y|e|en|och|og|"
                             r"met|i|z|oraz|sowie|including|incl)\b", between) \
        else _int(m.group(1))


def counts_accelerators(label: str, value: str) -> bool:
    """'Acceleratori totali | 32', 'Aceleradores | 16': a bare whole number under a label made
    of a word for the accelerators themselves (never 'Hardware | RAM GiB | 2048', never a
    size or a memory) counts them."""
    low = _fold(label)
    return re.fullmatch(r"\s*[1-9]\d{0,5}\s*", value) is not None and re.search(
        r"(?<![a-z])" + count_words()["gpu"] + r"(?![a-z])", low) is not None and re.search(
        r"ram|mem|gi?b\b|tb\b|hbm|\bper\b|price|pre[cz]|prix|kost|cost", low) is None


def gpus_per_rack_in_name(text: str) -> int | None:
    """'NVIDIA GB200 NVL72' -> 72: a rack-scale system's name counts the GPUs of a rack."""
    m = re.search(r"\bnvl\s*(\d{2,3})\b", text, re.I)
    return int(m.group(1)) if m else None


_LABEL_SPLIT_RE = re.compile(r"\s+/\s+|\s*;\s*")
_SHARED_UNIT_RE = re.compile(r"^(.*\d)\s*((?:[KMGTP]i?B|[KMGT]bit|[GT]b)/s)$")
_VALUE_SPLIT_RE = re.compile(r"\s*/\s*|\s*;\s*")


def pair_counts(label: str, value: str) -> list[tuple[str, str]]:
    """'Nodes / GPUs per node' with '24 / 8' -> [('Nodes', '24'), ('GPUs per node', '8')]."""
    labels = [x.strip() for x in _LABEL_SPLIT_RE.split(label) if x.strip()]
    # A shared unit after the last figure ("120 / 90 GB/s", joined from a unit column) is
    # every figure's unit; its own slash does not split the value.
    shared = _SHARED_UNIT_RE.match(value.strip())
    body, unit = (shared.group(1), f" {shared.group(2)}") if shared else (value, "")
    values = [x.strip() for x in _VALUE_SPLIT_RE.split(body) if x.strip()]
    if len(labels) >= 2 and len(labels) == len(values):
        return [(lab, f"{val}{unit}") for lab, val in zip(labels, values, strict=True)]
    return []
