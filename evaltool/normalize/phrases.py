"""Phrases by their words: what a clause is about (network, storage, orchestrator, root,
validity, delivery...), and the readings that need the words of several languages (a network
said dedicated or shared, root granted or not, read and write speeds).  The words live in
evaltool/data/prose_words.yaml."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

from evaltool.clauses.lexicon import WordGates, fast_compile, gate_texts
from evaltool.grammar.textcache import by_text
from evaltool.normalize import values as V
from evaltool.normalize.facts import _CORES_RE, _GPU_NAME_RE, _SOCKETS_RE, _WordsRegex
from evaltool.read import text as T
from evaltool.read.vocabulary import UNSPLIT_LETTERS
from evaltool.resources import data_dir

# A clause ends at . ; ! ? (not after an abbreviation: "ca. 15 kW pr. server", "max. 25%",
# "inkl. Strom"), a line break or a middle dot.
_ABBREVIATIONS = ("ca", "pr", "approx", "incl", "excl", "inkl", "ekskl", "exkl", "stk", "nr",
                  "vs", "max", "bzw", "evt", "ggf", "resp", "mtl", "md", "ea", "cf")
# ("31. marts 2026", "1. April 2027": a day's full stop before its month is no clause end)
_CLAUSE_SPLIT = re.compile(r"(?<=[.;!?])" + "".join(rf"(?<!\b{a}\.)" for a in _ABBREVIATIONS)
                           + r"(?!(?<=\d\.)\s+[^\W\d_]{3,}\.?\s+\d{4})"
                           + r"\s+|\n+|\s+·\s+", re.I)
MAX_PROSE_CHARS = 2000  # longer text is contract text, read by clause analysis instead


@functools.cache
def _words() -> dict[str, Any]:
    import yaml

    raw = yaml.safe_load((data_dir() / "prose_words.yaml").read_text(encoding="utf-8"))
    # The topic patterns run over every clause of every note and cell: compiled with clause
    # analysis's fast gate (evaltool.clauses.lexicon.GatedRegex, results identical to
    # re.search; a case-insensitive alternation of 261 words scanned each position slowly).
    return {
        "topics": {topic: fast_compile("|".join(f"(?:{w})" for w in words))
                   for topic, words in raw["topics"].items()},
        "any_topic": fast_compile("|".join(f"(?:{w})" for words in raw["topics"].values()
                                           for w in words)),
        # which topics' words a clause might hold, tested before any topic pattern runs
        "topic_gates": WordGates(raw["topics"]),
        **{key: re.compile("|".join(f"(?:{w})" for w in raw[key]), re.I)
           for key in ("dedicated", "shared", "not_shared", "no_root", "read", "write",
                       "notes_label", "cap", "network_adapter", "network_switch",
                       "network_aggregate", "no_orchestrator", "optional_aside", "billed")},
    }


@functools.lru_cache(maxsize=8192)  # the same notes and cells recur in every option's record
def fold(text: str) -> str:
    """'Dédié, keine Mandantenteilung' -> 'Dedie, keine Mandantenteilung' (accents off)."""
    if text.isascii():
        return text  # nothing to fold
    # letters NFKD does not split, as the vocabulary writes them ("Netværk" -> "Netvaerk",
    # "højst" -> "hojst", "wyłącznie" -> "wylacznie"), the same table as normalise_label's
    text = text.translate(UNSPLIT_LETTERS)
    if _KANA_HANGUL_RE.search(text):
        # Kana and Hangul keep their marks ("クレジット" is not "クレシット", "크레딧" is no
        # string of jamo): the vocabulary writes them whole; the rest is folded as usual.
        return "".join(part if _KANA_HANGUL_RE.match(part) else fold(part)
                       for part in _KANA_HANGUL_SPLIT_RE.split(text) if part)
    folded = unicodedata.normalize("NFKD", text)
    return "".join(c for c in folded if not unicodedata.combining(c))


_KANA_HANGUL_RE = re.compile(r"[\u3040-\u30ff\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]+")
_KANA_HANGUL_SPLIT_RE = re.compile(r"([\u3040-\u30ff\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]+)")


def clauses(text: str) -> list[str]:
    """The clauses of a text, each short enough to be about one or two things.  A heading
    of a word or two ("2. Term. Twenty-four (24) months") stays with what follows it."""
    out: list[str] = []
    carry = ""
    for piece in _CLAUSE_SPLIT.split(text):
        piece = (piece or "").strip()
        if not piece:
            continue
        if len(piece.split()) <= 2 and piece.endswith("."):
            carry = f"{carry} {piece}".strip()
            continue
        out.append(f"{carry} {piece}".strip())
        carry = ""
    if carry:
        out.append(carry)
    return out


def yes_no(value: Any) -> bool | None:
    """True/False for a yes-or-no cell (bool, 'yes', 'nein', 'oui'), else None."""
    if isinstance(value, bool):
        return value
    if not isinstance(value, str) or len(value.split()) > 2:
        return None
    try:
        return V.parse_bool(value).value
    except V.ValueParseError:
        return None


def names_one_adapter(text: str) -> bool:
    """'Síťová karta NVIDIA ConnectX-7 400 Gb/s' names one network adapter, '400 Gb/s per
    port' one port: the speed is a port's, whatever a node carries."""
    return _words()["network_adapter"].search(fold(text)) is not None


def port_speed_only(text: str, count: int) -> bool:
    """Whether a bandwidth with no stated basis is no node's: a switch's ports, whatever
    their number ('64-port NDR 400Gb/s switch'), a whole fabric's ('51.2 Tb/s aggregate
    bisection bandwidth'), or one adapter's or port's speed."""
    folded = fold(text)
    return _words()["network_switch"].search(folded) is not None or _words()[
        "network_aggregate"].search(folded) is not None or (count <= 1 and names_one_adapter(text))


def topics(clause: str) -> list[str]:
    return list(_topics(clause))


@functools.lru_cache(maxsize=8192)
def _topics(clause: str) -> tuple[str, ...]:
    folded = fold(clause)
    words = _words()
    gate = gate_texts(folded)
    if gate is None:
        if not words["any_topic"].search(folded):
            return ()
        return tuple(name for name, pattern in words["topics"].items()
                     if pattern.search(folded))
    maybe = words["topic_gates"].candidates(*gate)
    return tuple(name for name, pattern in words["topics"].items()
                 if name in maybe and pattern.search(folded))


def is_notes_label(label: str) -> bool:
    """'Notes', 'Kommentar', 'Remarques': a column of free text that may state facts."""
    return bool(_words()["notes_label"].search(fold(label).strip(" :").lower()))


@by_text(8192)  # by the clause's words alone
def network_dedicated(clause: str) -> bool | None:
    """True for a network said to be dedicated, False for one said to be shared, else None."""
    folded = fold(clause)
    words = _words()
    if words["not_shared"].search(folded):
        return True
    dedicated = words["dedicated"].search(folded)
    shared = words["shared"].search(folded)
    if dedicated and shared and not (dedicated.start() <= shared.start() < dedicated.end()):
        return None  # "shared infrastructure, dedicated nodes": the sentence says both
    if dedicated:
        return True
    return False if shared else None


def root_granted(clause: str) -> bool:
    return not _words()["no_root"].search(fold(clause))


_SPEED = T.NUMBER + r"\s*((?:[kmgt]i?b(?:yte)?|[kmgt]bit)(?:/s|ps)|[gt]bps)"


def read_write(clause: str) -> tuple[float | None, float | None]:
    """Storage read and write speeds in GB/s: 'Läs/skriv 200 / 100 GB/s', 'lectura
    120 GB/s, escritura 90 GB/s', 'read 80 GB/s, write 40 GB/s'."""
    folded = fold(clause)
    words = _words()
    reads, writes = words["read"].search(folded), words["write"].search(folded)
    if not (reads and writes):
        found = T.parse_read_write(clause)
        if found != (None, None) or not (reads or writes):
            return found
        # "WEKA, 100 TB (lectura 40 GB/s)": one speed, named by its word, in its own part
    paired = re.search(T.NUMBER + r"\s*(?:[kmgt]i?b(?:yte)?/s|[gt]bps)?\s*/\s*" + _SPEED,
                       folded[max(reads.end(), writes.end()):], re.I) if reads and writes \
        else None
    if paired and reads and writes:  # "read / write 200 / 100 GB/s": in the words' order
        first = T.parse_gbyte_s(f"{paired.group(1)} {paired.group(3)}")
        second = T.parse_gbyte_s(f"{paired.group(2)} {paired.group(3)}")
        if first and second:
            pair = (first[0], second[0]) if reads.start() < writes.start() else (
                second[0], first[0])
            return pair
    read = write = None
    for part in re.split(r"[,;]|\s/\s|\band\b|\bund\b|\bet\b|\by\b|\be\b|\boch\b", folded):
        speed = T.parse_gbyte_s(part)
        if speed is None:
            continue
        if words["read"].search(part) and read is None:
            read = speed[0]
        elif words["write"].search(part) and write is None:
            write = speed[0]
    return read, write


# "(or bring your own k8s)", "eigenes Kubernetes möglich": one the customer installs, not
# one the offer runs.
_OWN_RE = re.compile(r"(?:bring\s+your\s+own|\bbyo\w*|your\s+own|\beigene[nsmr]?|"
                     r"\bpropi[oa]s?|votre\s+propre|\bw[łl]asn\w*|\bvlastn\w*|\beg(?:en|et|ne)|\boma)"
                     r"\W+(?:\w+\W+)?$")


def named_not_own(low: str, pattern: str) -> bool:
    return any(not _OWN_RE.search(low[max(0, m.start() - 40):m.start()])
               for m in re.finditer(pattern, low))


def without_optional(low: str) -> str:
    """'kubernetes (slurm-on-k8s optional)' -> 'kubernetes ': the text without its asides that
    offer something as an option (not part of the offer), when the rest still names a
    scheduler; the text as it is otherwise."""
    bare = _words()["optional_aside"].sub(" ", low)
    return bare if re.search(r"slurm|kubernetes|\bk8s\b|\bgke\b|\beks\b|\baks\b", bare) else low


def offered_schedulers(text: str) -> str:
    """The text, lower case, without the schedulers it names only to deny ("CKE with TPU node
    pools; no Slurm") or to offer as an option ("Kubernetes (Slurm-on-K8s optional)")."""
    return without_optional(re.sub(r"\b(?:no|not|without|kein\w*|sans|pas\s+de|geen|sin|"
                                   r"senza)\s+(?:\w+\s+){0,2}?(?:slurm|kubernetes|k8s)\b",
                                   " ", text.lower()))


def orchestrator_named(clause: str) -> str | None:
    low = clause.lower()
    slurm = named_not_own(low, r"slurm")
    k8s = named_not_own(low, r"kubernetes|\bk8s\b")
    if slurm and k8s:
        bare = without_optional(low)
        if bare != low:
            return orchestrator_named(bare)
        return "both"
    if not slurm and not k8s and _words()["no_orchestrator"].search(fold(low)):
        return "none"  # "sem orquestrador pré-instalado": bare machines, no scheduler
    return "slurm" if slurm else "kubernetes" if k8s else None




# --- a system's description ----------------------------------------------------------------

_CPU_WORDS_RE = re.compile(r"\b(?:xeon|epyc|grace|cpus?|processors?|processeurs?|prozessor\w*|"
                           r"procesador\w*|processor[ei]|threadripper|neoverse|ampere)\b", re.I)
_RAM_WORDS_RE = re.compile(r"\b(?:(?:lp)?ddr\d\w*|ram|memory|dimms?|rdimms?|lrdimms?|memoire|"
                           r"arbeitsspeicher|memoria|geheugen|minne|pamiec)\b", re.I)
_NVME_WORDS_RE = re.compile(r"\b(?:nvme|ssds?|u\.2|e1\.s|e3\.s)\b", re.I)
_SIZE_TOKEN = r"(\d+(?:[.,]\d+)?)\s*(gb|gib|tb|tib|go|to)\b"
_SIZE_GB = {"gb": 1.0, "go": 1.0, "gib": 1.073741824, "tb": 1000.0, "to": 1000.0,
            "tib": 1099.511627776}
_TIMES = r"(\d{1,3})\s*[x×]\s*"
# "(72C)", and a reseller's bare "56C" after the CPU model ("2x Xeon Platinum 8480+ 56C")
_CORES_IN_BRACKETS_RE = re.compile(r"(?:\(|(?<![\w.(]))(\d{2,3})(?:\s*c(?:ores?)?\)|C\b)", re.I)
# "(2 x 56 cores)", "(2 × 48 Kerne)": sockets times the cores of each, in brackets.
_SOCKETS_TIMES_CORES_RE = _WordsRegex(
    lambda w: r"\(\s*(\d)\s*[x×]\s*(\d{1,3})\s*" + w["core"] + r"\b")
# "2x EPYC 9654 mit je 96 Kernen", "2 Xeon, chacun 56 coeurs": the cores of each socket
# after the word for "each".
_EACH_THEN_CORES_RE = _WordsRegex(
    lambda w: r"(?:" + w["each"] + r"|mit\s+je|con|avec|med)\s+(\d{1,3})\s*" + w["core"] +
    r"\b")


def _parts(text: str) -> list[str]:
    """Comma- and semicolon-separated parts, brackets kept with their part."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif ch in ",;" and depth == 0 and not (ch == "," and text[i - 1:i].isdigit()
                                                and text[i + 1:i + 2].isdigit()):
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


# "1× EPYC 9354 (32 núcleos) e 384 GB de RAM": a conjunction before a figure starts a part.
_AND_FIGURE_RE = re.compile(r"\s+(?:and|e|y|und|et|og|och|i|a|oraz|és|ve|en|и)\s+(?=\d)", re.I)
_PER_NODE_RE = re.compile(r"\bper\s+(?:node|server|system|tray|instance|host|blade|vm)\b", re.I)


_EACH_WORD_RE = _WordsRegex(lambda w: r"(?<!\w)(?:" + w["each"] + r")(?!\w)")


def _with_bracket_lists(parts: list[str]) -> list[str]:
    """The parts, then the items of a list in brackets ("2 Grace CPUs (144 Arm cores, 960 GB
    LPDDR5X per tray)"), each with the list's 'per tray' when one item says it."""
    out = list(parts)
    for part in parts:
        for group in re.findall(r"\(([^()]*)\)", part):
            items = _parts(group)
            if len(items) < 2:
                continue
            per = _PER_NODE_RE.search(group)
            # "(72 Arm cores each, 480 GB LPDDR5X each)": each CPU's, not the node's; the
            # part itself reads sockets x each, an item alone would not
            out.extend(item if per is None or _PER_NODE_RE.search(item) else
                       f"{item} {per.group(0)}" for item in items
                       if not _EACH_WORD_RE.search(item))
    return out


def _size_gb(number: str, unit: str) -> float:
    return float(number.replace(",", ".")) * _SIZE_GB[unit.lower()]


@functools.cache
def _cpu_catalog() -> tuple[tuple[re.Pattern[str], str, int], ...]:
    """The server CPUs of evaltool/data/cpus.yaml: a pattern for each model, its cores."""
    import yaml

    raw = yaml.safe_load((data_dir() / "cpus.yaml").read_text(encoding="utf-8"))
    out = []
    for key, cores in raw["cpus"].items():
        brand, _, number = str(key).partition(" ")
        pattern = rf"\b{brand}\b" + (rf"[^,;()]{{0,30}}?(?<![\d.,]){number}(?!\d)" if number
                                       else "")
        out.append((re.compile(pattern, re.I), str(key), int(cores)))
    return tuple(out)


def cpu_model_cores(text: str) -> tuple[str, int] | None:
    """'2 x Intel Xeon Platinum 8480+' -> ('xeon 8480', 56): the cores of one CPU named."""
    for pattern, model, cores in _cpu_catalog():
        if pattern.search(text):
            return model, cores
    return None


def cores_of_sockets(sockets: int, stated: int, text: str) -> tuple[int | None, str]:
    """A core figure after a socket count, its basis unstated ('2 x Xeon 8480+ (112 cores)'
    and '2 x Xeon 8480+ (56 cores)' are both written): the named CPU's own core count says
    whether it is per socket or per node.  (None, why) when nothing says which."""
    part = cpu_model_cores(text)
    if part is None:
        return None, (f"'{stated} cores' after {sockets} CPUs may count one CPU or all "
                      f"{sockets}, and the CPU model is not one evaltool knows")
    model, per = part
    if stated == per:
        return sockets * per, f"{sockets} sockets x {per} cores (a {model} has {per})"
    if stated == sockets * per:
        return stated, f"the total of {sockets} x {model} ({per} cores each)"
    return None, (f"'{stated} cores' is neither one {model} ({per} cores) nor {sockets} of "
                  "them")


# "2x EPYC 9454 (48 núcleos)", "2 × Xeon 8480+ (56C)": a bracket that holds only a core figure
# after N CPUs, no word for "each" or "in total" in it.
_SOCKETS_BRACKET_CORES_RE = re.compile(
    r"(?<![\d.])([2-8])\s*[x×]\s*([^,;()]{2,60}?)\(\s*(\d{1,3})\s*([^\W\d_]+)\s*\)")


def cores_taken_per_cpu(text: str) -> dict[str, str | int] | None:
    """'2x EPYC 9454 (48 núcleos)': the bracket's figure is one named CPU's own count, so it is
    read per CPU (2 x 48 = 96), though a vendor may have meant the node's total; the reading
    is to be said (its parameters), never kept silently.  None for any other shape."""
    m = _SOCKETS_BRACKET_CORES_RE.search(text)
    if m is None or not _CORES_RE.search(f"{m.group(3)} {m.group(4)}"):
        return None
    named = cpu_model_cores(m.group(2))
    sockets, stated = int(m.group(1)), int(m.group(3))
    if named is None or named[1] != stated:
        return None
    return {"sockets": sockets, "stated": stated, "model": named[0], "used": sockets * stated}


def bracket_cores(text: str) -> tuple[int | None, str] | None:
    """A labelled CPU cell '2 x Xeon 8480+ (112 cores)': the cores per node and why, (None,
    why) when nothing says whether the figure counts one CPU or all; None if no such shape."""
    cores = _CORES_RE.search(text)
    sockets = re.match(r"\s*(\d)\s*[x×]\s*\D", text)
    if not (cores and sockets and int(sockets.group(1)) > 1):
        return None
    return cores_of_sockets(int(sockets.group(1)), int(T.to_number(cores.group(1))), text)


def system_facts(text: str) -> dict[str, float]:
    """What a server's description states beside its GPUs: 'HGX B200 8-GPU, 2× Xeon 6960P
    (72C), 2,048 GB DDR5 (32 × 64 GB), 8× 3.84 TB NVMe U.2' -> cpu_cores_per_node 144,
    cpu_memory_gb_per_node 2048, local_nvme_tb_per_node 30.72.  Only parts that name what
    they are (a CPU, DDR memory, NVMe drives) are read."""
    found: dict[str, float] = {}
    parts = [piece for part in _parts(fold(text)) for piece in _AND_FIGURE_RE.split(part)]
    for part in _with_bracket_lists(parts):
        if (_CPU_WORDS_RE.search(part) or _CORES_RE.search(part)) and \
                "cpu_cores_per_node" not in found:
            sockets = _SOCKETS_RE.search(part)
            bracket = _CORES_IN_BRACKETS_RE.search(part)
            count = re.match(r"\s*" + _TIMES, part)
            times = _SOCKETS_TIMES_CORES_RE.search(part)
            each_after = _EACH_THEN_CORES_RE.search(part)
            if times:
                found["cpu_cores_per_node"] = int(times.group(1)) * int(times.group(2))
            elif each_after and count:
                found["cpu_cores_per_node"] = int(count.group(1)) * int(each_after.group(1))
            elif sockets:
                each = int(sockets.group(2) or sockets.group(3) or sockets.group(4))
                found["cpu_cores_per_node"] = int(sockets.group(1)) * each
            elif bracket and count:  # "2 x Xeon 8480+ (112C)": per socket or per node?
                cores_n, _ = cores_of_sockets(int(count.group(1)), int(bracket.group(1)), part)
                if cores_n is not None:
                    found["cpu_cores_per_node"] = cores_n
            elif count and int(count.group(1)) > 1 and (cores := _CORES_RE.search(part)) and \
                    cpu_model_cores(part) is not None:
                # "2x Xeon 8568Y+ (48 jader)": the named CPU's own cores say which it is
                cores_n, _ = cores_of_sockets(int(count.group(1)),
                                              int(cores.group(1).replace(",", "")), part)
                if cores_n is not None:
                    found["cpu_cores_per_node"] = cores_n
            elif count and int(count.group(1)) == 1 and (cores := _CORES_RE.search(part)):
                # "1× EPYC 9354 (32 núcleos)": one CPU, so its cores are the node's
                found["cpu_cores_per_node"] = int(cores.group(1).replace(",", ""))
            elif (cores := _CORES_RE.search(part)) and re.search(
                    r"per\s+(?:node|server|system|tray|instance|host|blade|vm)|total|celkem|insgesamt|gesamt|lacznie|razem|"
                    r"en total|au total|in totale|i alt|totalt|össz|toplam|計|合計|총|共", part,
                    re.I):
                found["cpu_cores_per_node"] = int(cores.group(1).replace(",", ""))
        elif _RAM_WORDS_RE.search(part) and "cpu_memory_gb_per_node" not in found \
                and not re.search(r"\bhbm", part, re.I):
            modules = re.search(_TIMES + _SIZE_TOKEN, part, re.I)
            if modules:  # "32 x 64 GB": the modules say the total exactly
                found["cpu_memory_gb_per_node"] = int(modules.group(1)) * _size_gb(
                    modules.group(2), modules.group(3))
            elif (size := re.search(_SIZE_TOKEN, part, re.I)) and re.search(
                    r"(?<![\d.,])\d{1,3}[ \u00a0\u202f]$", part[:size.start()]) is None:
                # ("2 048 GB": a space-grouped thousand or a count; the labelled reading, which
                # knows the document's convention, decides, never this one)
                exact = re.match(r"\s*(?:[^\W\d_]+\s*)?\(\s*" + _SIZE_TOKEN + r"\s*\)",
                                 part[size.end():], re.I)
                if exact:  # "2 TB RAM (2048 GB)": the bracket restates the figure exactly
                    size = exact
                number = size.group(1)
                if re.fullmatch(r"\d{1,3}[,.]\d{3}", number) and size.group(2).lower() in (
                        "gb", "gib", "go"):
                    # "2,048 GB DDR5", "1.536 GB": a server's memory is never 2 GB, so the mark
                    # groups thousands
                    number = re.sub(r"[,.]", "", number)
                found["cpu_memory_gb_per_node"] = _size_gb(number, size.group(2))
        elif _NVME_WORDS_RE.search(part) and "local_nvme_tb_per_node" not in found:
            drives = re.search(_TIMES + _SIZE_TOKEN, part, re.I)
            if drives:
                found["local_nvme_tb_per_node"] = int(drives.group(1)) * _size_gb(
                    drives.group(2), drives.group(3)) / 1000.0
    return found


def capped_percent(clause: str) -> float | None:
    """'service credits capped at 10% of monthly fees', 'crediti fino al 20 % del canone'
    -> the capped percentage; a credit tier without a cap word ('10% if below 99.5%') is no
    cap."""
    folded = fold(clause)
    cap = _words()["cap"].search(folded)
    if cap is None:
        return None
    figure = re.match(r"[^%\d]{0,25}?(\d{1,3}(?:[.,]\d+)?)\s*%", folded[cap.end():])
    return float(figure.group(1).replace(",", ".")) if figure else None


@functools.cache
def _other_traffic_re() -> re.Pattern[str]:
    import yaml

    raw = yaml.safe_load((data_dir() / "free_words.yaml").read_text(encoding="utf-8"))
    return re.compile("|".join(f"(?:{w})" for w in raw["other_traffic"]), re.I)


def other_traffic(text: str) -> bool:
    """Traffic that is not egress ("intra-region", "ingress", "innerhalb der Region"): a
    "free" said of it says nothing of the egress price (evaltool/data/free_words.yaml)."""
    return bool(_other_traffic_re().search(text)) and not _words()["topics"]["egress"].search(
        fold(text))  # "no egress or ingress fees" still says egress is free


_PRICE_SHAPE_RE = re.compile(r"[$€£¥]|\b(?:usd|eur|gbp|chf|jpy|sek|pln|zł)\b|(?:\bper\b|/)\s*"
                             r"(?:gb|tb|hour|month|h|mo)\b", re.I)


_FLOPS_SHAPE_RE = re.compile(r"\s*[\d.,\s]+\s*(?:[pt](?:era|eta)?flops|[pt]flop/s)\b", re.I)


def not_an_accelerator_shape(value: object, text: str) -> bool:
    """A count (8, '128') or a price ('98.32 USD / instance-hour', '€ per GB per month')
    never names an accelerator, whatever its label says."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return True
    if re.fullmatch(r"[\s\d.,x×]*", text) or _FLOPS_SHAPE_RE.match(text):
        return True
    return bool(_PRICE_SHAPE_RE.search(text)) and not _GPU_NAME_RE.search(text)



def says_billed(text: str) -> bool:
    """'Billed monthly in advance', 'monatlich im Voraus berechnet': a text about billing."""
    return bool(_words()["billed"].search(fold(text)))
