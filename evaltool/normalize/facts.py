"""What the normaliser collects about one offer before resolving it: facts with their
priority and provenance, priced figures awaiting counts and rates, the vocabularies of
fabric, storage and precision words, and the small helpers shared by the stages."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from evaltool.errors import Location
from evaltool.grammar.textcache import by_text
from evaltool.models import (
    NotEvaluated,
    Offer,
)
from evaltool.normalize import values as V
from evaltool.normalize.shapes import count_words
from evaltool.read import text as T

LABELLED, TABLE, IN_TEXT, DERIVED = 3, 2, 1, 0
REQUIRED = ("accelerator", "gpu_count")  # and a price or capex; a name changes no number
_REL_TOL = 0.02  # two readings of one figure that differ by more than 2% conflict
_MEMORY_TOL = 0.10  # usable GiB vs marketed GB (gpuhunt snaps with 7%, offer-tools.md §5)


@dataclass
class NormalizeResult:
    offers: list[Offer]
    not_evaluated: list[NotEvaluated]


@dataclass
class Fact:
    value: Any
    where: Location
    raw: str
    priority: int
    note: str | None = None
    derived_from: list[str] | None = None


@dataclass
class _Priced:
    """A money figure kept until the offer's counts and currency are known."""

    role: str  # compute | storage_month | support_month | network_month | capex_line
    money: V.Money
    where: Location
    raw: str
    priority: int
    note: str | None = None
    quantity: float | None = None
    paid: int = 0  # -1 a list or base price, 1 a net one (normalize/paid_price.py)


_PER: dict[str, tuple[str, ...]] = {
    "gpu_hour": ("gpu", "hour"), "node_hour": ("node", "hour"), "hour": ("hour",),
    "gpu_month": ("gpu", "month"), "node_month": ("node", "month"), "month": ("month",),
    "year": ("year",), "tb_month": ("tb", "month"), "gb": ("gb",), "kw_month": ("kw", "month"),
    "kwh": ("kwh",),
}
_FABRIC_WORDS: tuple[tuple[str, str], ...] = (
    ("roce", r"\broce(?:v\d)?\b|\brdma over converged"),
    ("infiniband", r"infini\s*band|\bib\b|\b[nhex]dr\b|\bquantum-?\d|\bconnectx"),
    ("ici", r"\bici\b|inter-chip interconnect"),
    ("ethernet", r"ethernet|\d\s*gbe\b|\bgbe\b|\btcp\b"),
    ("other", r"\befa\b|slingshot|omni-?path|\bopa\b|\bneuronlink|\bnvlink switch"),
)
_STORAGE_WORDS: tuple[tuple[str, str], ...] = (
    ("weka", r"\bweka"), ("vast", r"\bvast\b"), ("ddn", r"\bddn\b|exascaler|\bai400"),
    ("gpfs", r"\bgpfs\b|spectrum scale|storage scale"), ("lustre", r"\blustre\b|\bfsx\b"),
    ("nfs", r"\bnfs\b|filestore|netapp|\befs\b|azure files"),
    ("object", r"\bobject\b|\bs3\b|bucket|\bblob\b|\bgcs\b|cloud storage"),
    ("local_nvme", r"local nvme|local ssd"),
)
# Compiled once: every sentence and cell is tried against each (benchmarks/ingest.py).
_FABRIC_RES = tuple((name, re.compile(pattern, re.I)) for name, pattern in _FABRIC_WORDS)
_STORAGE_RES = tuple((name, re.compile(pattern, re.I)) for name, pattern in _STORAGE_WORDS)
_DEDICATED_RE = re.compile(r"\bnot shared\b|\bdedicated\b|\bsingle[- ]tenant\b|\bexclusive\b|"
                           r"\bisolated\b|\bprivate\b|\bunshared\b|\bnicht geteilt\b|\bdédié|"
                           r"\bdediziert|\btoegewijd|\bdedicad[oa]|\bdedicat[oa]|\bdedykowan|"
                           r"\bexklusiv|\bexclusi[fv]|\bnicht\b[^.;]{0,40}\bgeteilt\b|"
                           r"\bniet\b[^.;]{0,40}\bgedeeld\b|\bnot\b[^.;]{0,30}\bshared\b",
                           re.I)
_SHARED_RE = re.compile(r"\bshared\b|\bmulti[- ]?tenan\w*|\bgeteilt\b|\bpartagé", re.I)
_SPARSE_RE = re.compile(r"sparsity|sparse|with sparse|2:4", re.I)
_DENSE_RE = re.compile(r"\bdense\b", re.I)
_PRECISION_RE = re.compile(r"\b(bf16|bfloat16|fp16|float16|fp8|float8|tf32|fp32|float32|int8|"
                           r"fp4|fp6)\b", re.I)
_ALL_IN_RE = re.compile(r"\ball[- ]in\b|\ball[- ]inclusive\b|includes? (?:storage|support)", re.I)
_COUNT_IN_TEXT_RE = re.compile(r"(?<![\w.])(\d{1,2})\s*[x×]\s*(?=[A-Za-z])", re.I)
_DATE_TAIL = r"\s*:?\s*(?:on\s+|le\s+|am\s+)?(\d{1,2}\.?\s*\w+\.?\s+\d{4}|\d{4}-\d{2}-\d{2}|" \
    r"\d{1,2}[./]\d{1,2}[./]\d{4}|\w+\s+\d{1,2},?\s+\d{4}|1er\s+\w+\s+\d{4})"
_DATE_PHRASES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("valid_until", re.compile(r"\b(?:valid\s+(?:until|through|till|to)|expires?(?:\s+on)?|"
                               r"gültig\s+bis|valable\s+jusqu'au|ważna\s+do|wazna\s+do|"
                               r"platn[áa]\s+do|plat[íi]\s+do|geldig\s+tot(?:\s+en\s+met)?|"
                               r"v[áa]lid[ao]\s+hasta(?:\s+el)?|valid[ao]\s+fino\s+al?|"
                               # "Validez de la oferta: hasta el 31/03/2026", "Validade: até"
                               r"validez(?:\s+de\s+la\s+oferta)?\s*:?\s*hasta(?:\s+el)?|"
                               r"validade(?:\s+da\s+proposta)?\s*:?\s*at[ée]|"
                               r"v[áa]lid[ao]\s+at[ée]|g[äa]ller\s+till|giltig\s+till|"
                               r"gyldig\s+til|voimassa|[ée]rv[ée]nyes|valabil[ăa]\s+p[âa]n[ăa]\s+la)"
                               + _DATE_TAIL, re.I)),
    ("delivery_date", re.compile(r"\b(?:delivery(?:\s+date)?|ready\s+(?:by|on)|available\s+"
                                 r"(?:from|by)|live\s+by|handed\s+over\s+by|start\s+of\s+"
                                 r"(?:the\s+)?allocation|mise\s+à\s+disposition|liefertermin|"
                                 r"bereitstellung)" + _DATE_TAIL, re.I)),
)
_GPU_NAME_RE = re.compile(r"\b(?:h100|h200|h800|b200|b300|gb200|a100|l40s?|mi\d{3}x?|gaudi"
                          r"|tpu|trainium|nvidia|instinct)", re.I)
_PRICE_SENTENCE_RE = re.compile(
    r"\b(?:price|rate|tarif|preis|prix|charged?)\b[^.;]{0,25}?((?:USD|EUR|GBP|US\$|\$|€|£)\s?"
    r"[\d.,]+[^.;]{0,40}?\bper\b[^.;,]{0,30}|[\d.,]+\s?(?:USD|EUR|GBP|€|£)[^.;]{0,40}?"
    r"\bper\b[^.;,]{0,30})", re.I)


class _WordsRegex:
    """A pattern built from the count vocabulary on first use (evaltool/data/count_words)."""

    def __init__(self, build: Callable[[dict[str, str]], str]) -> None:
        self._build = build
        self._compiled: re.Pattern[str] | None = None

    def search(self, text: str) -> re.Match[str] | None:
        if self._compiled is None:
            self._compiled = re.compile(self._build(count_words()), re.I)
        return self._compiled.search(text)


# "112 cores", "48 kärnor", "64 Kerne".
# "144 Arm cores", "96 Zen 4 cores": an architecture may name the cores.
_CORES_RE = _WordsRegex(lambda w: r"(\d[\d,]*)\s*(?:physical\s+)?(?:(?:arm|x86|grace|neoverse"
                        r"(?:\s+v\d)?|zen\s*\d)\s+)?(?:cpu\s+)?" + w["core"] + r"\b")
# Sockets x cores each: "2 x 56", "2x EPYC 9534 (64 cores each)", "2 × Xeon (po 48 rdzeni)",
# "2 × EPYC, 48 kärnor var", "2x EPYC 9654 96-core" (96 per CPU).
_SOCKETS_RE = _WordsRegex(
    lambda w: r"^\s*(\d)\s*[x×]\s*(?:(\d{1,3})\b(?!\s*(?:gb|tb|gib))|[^()]*?[(\s,](?:(\d{1,3})"
    r"(?:\s*" + w["core"] + r"\s*" + w["each"] + r"(?!\w)|-core\b)|po\s+(\d{1,3})\s*" +
    w["core"] + r"))")
# Sockets x cores: "2 × EPYC (2 × 32 rdzenie)", "2× Xeon (je 56 Kerne)", "(72 núcleos c/u)".
_CORES_PRODUCT_RE = _WordsRegex(
    lambda w: rf"(?<![\d.,])(\d)\s*[x×]\s*(\d{{1,3}})\s*{w['core']}(?!\w)")
_CORES_EACH_RE = _WordsRegex(lambda w: rf"^\s*(\d)\s*[x×]\s*[^()]*?[(,]?\s*(?:{w['each']}\s+"
                             rf"(\d{{1,3}})\s*{w['core']}\b|(\d{{1,3}})\s*{w['core']}\s+"
                             rf"{w['each']}(?!\w))")
_CORES_TOTAL_RE = re.compile(r"\((\d{2,4})\s*(?:cores?\s+|kerne\s+|c(?:oe|\u0153)urs\s+)?(?:total|"
                             r"insgesamt|gesamt|au\s+total|in\s+total)\)", re.I)
_MIN_COMMIT_RE = re.compile(
    r"(minimum (?:commitment|commit|spend|contract value)|committed spend|mindestabnahme)"
    r"[^.;\d$€£]{0,30}((?:USD|EUR|GBP|US\$|\$|€|£)\s?[\d.,]+\s*(?:m|million|k|bn)?\b"
    r"|[\d.,]+\s*(?:m|million|k)?\s*(?:USD|EUR|GBP|\$|€|£))", re.I)


def _money_text(text: str) -> str:
    """The text a price is parsed from.  Basis words in other languages ("par GPU-heure",
    "per chip", "€/nœud/mois") are the money parser's own vocabulary
    (evaltool/data/basis_words.yaml); nothing is rewritten here any more."""
    return text




def _close(a: float, b: float, tol: float = _REL_TOL) -> bool:
    return abs(a - b) <= tol * max(abs(a), abs(b), 1e-12)


def _same(a: Any, b: Any, tol: float = _REL_TOL) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return _close(float(a), float(b), tol)
    return bool(a == b)


def _notes(notes: Sequence[str]) -> str | None:
    return "; ".join(notes) if notes else None


def _join(a: str | None, b: str | None) -> str | None:
    return "; ".join(x for x in (a, b) if x) or None


def _iso(text: str) -> str | None:
    text = text.strip().upper()
    return text if re.fullmatch(r"[A-Z]{3}", text) else None


def _precision(word: str) -> str:
    word = word.lower()
    return {"bfloat16": "bf16", "float16": "fp16", "float8": "fp8", "float32": "fp32"}.get(
        word, word)


# A fabric named after a negation ("TPU ICI; ingen InfiniBand", "kein InfiniBand", "sans
# RoCE", "no IB"): the document says what the network is NOT, so that name is never read.
_NEGATED_BEFORE_RE = re.compile(
    r"\b(?:no|not|without|non|kein\w*|ohne|nicht|sans|pas\s+de|aucun\w*|sin|ningun\w*|"
    r"senza|nessun\w*|geen|zonder|ingen|inget|intet|uden|utan|ikke|ei|bez|zadn\w*|\u017e\u00e1dn\w*|"
    r"brak|sem|nenhum\w*|nie|nincs)\s+(?:[\w-]+\s+){0,2}$", re.I)


_CLAUSE_MARK_RE = re.compile(r"[.;:,()|\n]")


def _negated(text: str, start: int) -> bool:
    """Whether the name found at `start` follows a negation in the same clause."""
    before = _CLAUSE_MARK_RE.split(text[:start])[-1]
    return _NEGATED_BEFORE_RE.search(before) is not None


def _fabric(text: str) -> str | None:
    for name, pattern in _FABRIC_RES:
        if any(not _negated(text, m.start()) for m in pattern.finditer(text)):
            return name
    return None


def one_shared_storage_kind(text: str) -> str | None:
    """The one shared storage kind a text names ('Managed Lustre (240 TB)'); None when it
    names none, several, or only local NVMe."""
    kind, others = _storage_kind(text)
    return kind if kind is not None and kind != "local_nvme" and not others else None


def _storage_kind(text: str) -> tuple[str | None, list[str]]:
    found = _storage_kinds(text)
    if not found:
        return None, []
    return found[0], list(found[1:])


@by_text(8192)  # by the text alone: a description is asked by several readers
def _storage_kinds(text: str) -> tuple[str, ...]:
    return tuple(name for name, pattern in _STORAGE_RES if pattern.search(text))


# "NVLink 5 (1,800 GB/s per GPU)": the speed of a GPU-to-GPU link is never the network's.
_GPU_LINK_SPEED_RE = re.compile(r"\b(?:nvlink|nvswitch|infinity\s+fabric|xgmi|neuronlink)\b"
                                r"[^,;]{0,40}?\d[\d,.]*\s*(?:tb/s|gb/s|tbps|gbps)[^,;)]*\)?",
                                re.I)


_SPEED_SHAPE_RE = re.compile(r"\d\s*(?:[kmgt](?:i?b|bit|byte)?\s*/\s*s(?:ec)?\b|[kmgt]bps\b|"
                             r"[kmgt]bits?\b|[gt]be\b|[gt]\b(?![.,]\d))|\b[nhex]dr\s*\d|"
                             r"\b[nhex]dr\b.*\d|\d.*\b[nhex]dr\b", re.I)  # "NDR400, 8 ports"


# "six 800GbE ports (in totaal 4,8 Tbit/s per server)": a total stated beside the ports is
# the figure to read, whatever the port count reads as.
_TOTAL_SPEED_RE = re.compile(
    r"\b(?:in\s+total[e]?|in\s+totaal|insgesamt|au\s+total|en\s+total|totalt|łącznie|"
    r"total(?:\s+of)?)\s*:?\s*(\d[\d.,]*\s*(?:[gt]bit/s|[gt]b/s|[gt]bps)(?:\s+per\s+\w+)?)|"
    r"(\d[\d.,]*\s*(?:[gt]bit/s|[gt]b/s|[gt]bps)(?:\s+per\s+\w+)?)\s+in\s+total\b", re.I)


@by_text(4096)  # by its words alone (frozen result); readers ask again
def _bandwidth(text: str, default_unit: str | None = None) -> V.ParsedBandwidth | None:
    text = _GPU_LINK_SPEED_RE.sub(" ", text)
    total = _TOTAL_SPEED_RE.search(text)
    if total is not None and total.group(0) != text:
        stated = _bandwidth(total.group(1) or total.group(2), default_unit)
        if stated is not None:
            return stated
    if default_unit is None and not _SPEED_SHAPE_RE.search(text):
        return None  # "192GB HBM3e" is a size: no speed without a speed's unit
    try:
        bw = V.parse_bandwidth(text, default_unit=default_unit)
    except V.NoValueGiven:
        raise
    except V.ValueParseError:
        bw = None
    local = T.parse_bandwidth(text)
    if bw is None:
        if local is None:
            return None
        return V.ParsedBandwidth(local.total_gbit_s, local.each_gbit_s, local.count,
                                 local.scope, local.was_bytes, text)  # type: ignore[arg-type]
    if local is not None and bw.count == 1 and local.count > 1 and _close(
            bw.gbit_s_each, local.each_gbit_s):
        # "NDR 400G, 8 ports per system": the port count stands apart from the speed.
        return V.ParsedBandwidth(local.total_gbit_s, bw.gbit_s_each, local.count, bw.scope,
                                 bw.was_bytes, text,
                                 [*bw.notes, f"{local.count} ports x {bw.gbit_s_each:g} Gbit/s"],
                                 bw.fabric)
    ports = T.port_count(text) if local is None and bw.count == 1 else None
    if ports is not None and ports > 1:
        # "InfiniBand NDR400, 8 portar per nod": the speed is named by the fabric generation,
        # the port count stands apart.
        return V.ParsedBandwidth(bw.gbit_s_each * ports, bw.gbit_s_each, ports, bw.scope,
                                 bw.was_bytes, text,
                                 [*bw.notes, f"{ports} ports x {bw.gbit_s_each:g} Gbit/s"],
                                 bw.fabric)
    return bw


_EXPECTED_BY_SUFFIX = (
    ("_usd_per_gpu_hour", "a price such as '$2.35 per GPU-hour' or '€24.80/node/h'"),
    ("_usd", "an amount such as 'USD 9,600,000'"),
    ("usd_per", "a price such as '$0.08 per GB'"),
    ("_gbit_s", "a bandwidth such as '400 Gb/s' or '8 × 400 Gb/s per node'"),
    ("_gbyte_s", "a bandwidth such as '50 GB/s'"),
    ("_date", "a date such as 2027-02-01"),
    ("valid_until", "a date such as 2027-02-01"),
    ("_pct", "a percentage such as 99.9%"),
    ("_hours", "a duration such as '24 hours'"),
    ("_months", "a duration such as '12 months'"),
    ("_tb", "a capacity such as '2 PB' or '500 TB'"),
    ("_gb", "a size such as '80 GB'"),
    ("_count", "a whole number"),
)


def expected_for(field_name: str) -> str:
    """What a cell for this canonical field should say, for error messages."""
    if field_name in ("vendor", "offer_name"):
        return "a name"
    if field_name == "accelerator":
        return "an accelerator such as 'NVIDIA H100 SXM5 80GB' (see `evaltool accelerators`)"
    for suffix, text in _EXPECTED_BY_SUFFIX:
        if field_name.endswith(suffix) or suffix in field_name:
            return text
    return "a value"


def _slot_field(slot: str) -> str:
    return {"support": "support_response_hours", "price": "price_usd_per_gpu_hour",
            "min_commitment": "min_commit_usd", "storage_throughput": "storage_read_gbyte_s",
            "accelerator": "accelerator"}.get(slot, slot)


# How a labelled value of each canonical field is read (slots with a _slot_ method excepted).
_FIELD_KIND: dict[str, str] = {
    "vendor": "text", "offer_name": "text", "region": "text",
    "valid_until": "date", "delivery_date": "date",
    "gpu_count": "count", "gpus_per_node": "count", "node_count": "count",
    "rack_count": "count", "gpus_per_rack": "count",
    "preemptible": "bool", "availability_pct": "percent", "preemptions_per_node_day": "number",
    "gpu_memory_gb": "quantity:memory:GB",
    "cpu_memory_gb_per_node": "quantity:memory:GB",
    "local_nvme_tb_per_node": "quantity:capacity:TB",
    "storage_capacity_tb": "quantity:capacity:TB",
    "power_kw_per_node": "quantity:power:kW",
    "sla_uptime_pct": "percent", "sla_max_credit_pct": "percent",
    "term_months": "months", "amortization_months": "months",
    "hw_replacement_hours": "hours", "support_response_hours": "hours",
    "upfront_usd": "money:once", "capex_usd": "money:once", "quote_total": "money:once",
    "min_commit_usd": "money:once",
    "egress_usd_per_gb": "money:gb", "storage_usd_per_tb_month": "money:tb_month",
    "opex_usd_per_month": "money:month", "colocation_usd_per_kw_month": "money:kw_month",
    "power_usd_per_kwh": "money:kwh",
    "price_usd_per_gpu_hour": "money:gpu_hour",
    "compute_price_usd_per_gpu_hour": "money:gpu_hour",
}

