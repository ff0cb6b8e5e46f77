"""The built-in accelerator catalog, accelerator recognition, and the public price reference.

The catalog lives in ``evaltool/data/accelerators.yaml`` (dense peaks, memory, links, measured
matmul efficiency, ecosystem and lock-in, each number with its source); this module validates
it with pydantic and answers three questions:

- what is this accelerator? (``load_catalog().get(id)``, ``Accelerator.dense_tflops_for``)
- which catalog id does this vendor text mean? (``recognise_accelerator``)
- how does a price compare with public on-demand list prices? (``compare_to_public``)

Recognition is driven by the YAML (family names, aliases, form-factor words), not by code:
text is cut into tokens, aliases are matched as contiguous token runs, and the variant inside
a family (SXM / PCIe / NVL, 40 / 80 GB) is chosen from form-factor words and memory size,
falling back to the family default with a note saying what was assumed.
"""

from __future__ import annotations

import csv
import difflib
import functools
import io
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from evaltool.errors import EvaltoolError, InputError, Location, Problem

Precision = Literal["fp32", "tf32", "bf16", "fp16", "fp8", "int8"]
FormFactor = Literal["sxm", "pcie", "nvl", "oam", "superchip", "tpu", "trainium"]
Ecosystem = Literal["CUDA", "ROCm", "XLA", "Neuron", "SynapseAI"]
LockInLevel = Literal["low", "medium", "high"]

PRECISIONS: tuple[str, ...] = ("fp32", "tf32", "bf16", "fp16", "fp8", "int8")
CATALOG_RESOURCE = "evaltool/data/accelerators.yaml"
PUBLIC_PRICES_RESOURCE = "evaltool/data/public_prices.csv"

# A vendor figure counts as "the sparse peak" when within 1% of it: vendors round
# (H100 NVL 1,671 vs 2 x 835.5; MI355X FP8 10.1 PF vs 2 x 5000).
SPARSE_MATCH_REL_TOLERANCE = 0.01
# Reported memory snaps to a marketed size within 8%: clouds report usable GiB (AWS: 44.7 GiB
# for a 48 GB L40S, 179 GiB for a 180 GB B200); gpuhunt uses 7% for the same job
# (research/offer-tools.md §1.1). 8% still keeps H100 80 GB and H100 NVL 94 GB apart.
MEMORY_MATCH_REL_TOLERANCE = 0.08
# Efficiency stored with a MAMF figure must equal MAMF / dense peak to this absolute tolerance.
MAMF_CONSISTENCY_TOLERANCE = 0.006


# --------------------------------------------------------------------------- errors


class UnknownAcceleratorError(EvaltoolError):
    """Vendor text or an id that names no catalog accelerator; lists the closest ids.

    The closest ids may be given as a function: the readers ask the catalog of many cells that
    name no accelerator and drop the error, so the fuzzy match (difflib over every alias, the
    costliest step of reading an unseen workbook) runs only when the message is read.
    """

    def __init__(self, text: str, closest: list[str] | Callable[[], list[str]] | None = None,
                 where: str | None = None) -> None:
        super().__init__(text)
        self.text = text
        self.where = where
        self._closest: list[str] | Callable[[], list[str]] = (
            closest if callable(closest) else list(closest or []))

    @property
    def closest(self) -> list[str]:
        if callable(self._closest):
            self._closest = list(self._closest())
        return self._closest

    def __str__(self) -> str:
        prefix = f"{self.where}: " if self.where else ""
        closest = self.closest
        hint = f"; closest catalog ids: {', '.join(closest)}" if closest else ""
        return (f"{prefix}unknown accelerator {self.text!r}: it matches no catalog id or "
                f"alias{hint} (`evaltool accelerators` lists them all)")


class UndefinedPrecisionError(EvaltoolError):
    """A precision that is unknown, or that this accelerator has no peak for."""


# --------------------------------------------------------------------------- models


class Source(BaseModel):
    """Where numbers come from: ``what`` names one or more fields, comma-separated."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    what: str = Field(min_length=1)
    citation: str = Field(min_length=1)

    @property
    def fields(self) -> list[str]:
        return [part.strip() for part in self.what.split(",") if part.strip()]


class MatmulEfficiency(BaseModel):
    """Best-shape single-accelerator matmul FLOPS as a fraction of the dense peak."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    value: float = Field(gt=0, le=1)
    mamf_tflops: float | None = Field(default=None, gt=0)
    assumed: bool
    source: str = Field(min_length=1)


class LockIn(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    level: LockInLevel
    reason: str = Field(min_length=1)


# Numeric (or judgement) fields that must each be named by a source entry.
_SOURCED_FIELDS = (
    "dense_tflops",
    "sparse_tflops",
    "memory_gb",
    "memory_bandwidth_tbyte_s",
    "intra_node_gbyte_s",
    "intra_node_without_bridge_gbyte_s",
    "scale_up_domain_gpus",
    "tdp_w",
    "ecosystem",
    "proprietary_ecosystem_lock_in",
    "rent_only",
)


class Accelerator(BaseModel):
    """One catalog accelerator. TFLOPS are dense; bandwidths decimal; links bidirectional."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    vendor: str
    name: str
    family: str
    form_factor: FormFactor
    memory_gb: float = Field(gt=0)
    memory_note: str | None = None
    memory_bandwidth_tbyte_s: float = Field(gt=0)
    intra_node_gbyte_s: float = Field(gt=0)
    intra_node_note: str | None = None
    intra_node_without_bridge_gbyte_s: float | None = Field(default=None, gt=0)
    scale_up_domain_gpus: int = Field(ge=1)
    dense_tflops: dict[Precision, float]
    sparse_tflops: dict[Precision, float] = Field(default_factory=dict)
    matmul_efficiency: dict[Precision, MatmulEfficiency]
    tdp_w: float | None = Field(default=None, gt=0)
    ecosystem: Ecosystem
    proprietary_ecosystem_lock_in: LockIn
    rent_only: bool
    aliases: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    sources: list[Source] = Field(min_length=1)

    @model_validator(mode="after")
    def _check_numbers(self) -> Accelerator:
        if "bf16" not in self.dense_tflops:
            raise ValueError("dense_tflops must give bf16 (the LLM training precision)")
        for precision, tflops in self.dense_tflops.items():
            if tflops <= 0:
                raise ValueError(f"dense_tflops.{precision} must be > 0, found {tflops}")
        for precision, sparse in self.sparse_tflops.items():
            dense = self.dense_tflops.get(precision)
            if dense is None:
                raise ValueError(f"sparse_tflops.{precision} has no dense_tflops.{precision}")
            # Structured sparsity doubles (NVIDIA, AMD) or quadruples (Trainium2) the figure;
            # a "sparse" value near the dense one means a dense number was filed as sparse.
            if sparse < 1.5 * dense:
                raise ValueError(
                    f"sparse_tflops.{precision} = {sparse} is not a sparse peak for dense "
                    f"{dense} (expected about 2x); was a sparse figure stored as dense?"
                )
        for precision, eff in self.matmul_efficiency.items():
            dense = self.dense_tflops.get(precision)
            if dense is None:
                raise ValueError(f"matmul_efficiency.{precision} has no dense_tflops.{precision}")
            if eff.mamf_tflops is not None:
                ratio = eff.mamf_tflops / dense
                if abs(ratio - eff.value) > MAMF_CONSISTENCY_TOLERANCE:
                    raise ValueError(
                        f"matmul_efficiency.{precision}.value {eff.value} != mamf_tflops / "
                        f"dense = {eff.mamf_tflops} / {dense} = {ratio:.3f}"
                    )
        if self.rent_only and self.proprietary_ecosystem_lock_in.level != "high":
            raise ValueError("a rent-only accelerator must have lock-in level 'high'")
        cited: set[str] = set()
        for source in self.sources:
            for name in source.fields:
                if name not in _SOURCED_FIELDS:
                    raise ValueError(
                        f"sources: unknown field {name!r} in 'what' "
                        f"(expected some of {', '.join(_SOURCED_FIELDS)})"
                    )
                cited.add(name)
        missing = [
            name
            for name in _SOURCED_FIELDS
            if getattr(self, name) not in (None, {}) and name not in cited
        ]
        if missing:
            raise ValueError(f"sources: no source for {', '.join(missing)}")
        return self

    # ----------------------------------------------------------------- helpers

    def source_for(self, field_name: str) -> str:
        """The citation of a field (``dense_tflops``, ``memory_gb``, ...)."""
        found = [s.citation for s in self.sources if field_name in s.fields]
        if not found:
            raise KeyError(f"{self.id}: no source for {field_name!r}")
        return "; ".join(found)

    def dense_tflops_for(self, precision: str) -> float:
        """Dense peak TFLOPS (TOPS for int8) at a precision ("bf16", "BF16", "bfloat16")."""
        key = normalise_precision(precision)
        value = self.dense_tflops.get(key)  # type: ignore[call-overload]
        if value is None:
            raise UndefinedPrecisionError(
                f"accelerator {self.id}: no dense {key} peak (it has no {key} support or the "
                f"vendor publishes none); defined: {', '.join(self.dense_tflops)}"
            )
        return float(value)

    def matmul_efficiency_for(self, precision: str) -> MatmulEfficiency:
        """Measured (or documented assumed) MAMF / peak at a precision."""
        key = normalise_precision(precision)
        eff: MatmulEfficiency | None = self.matmul_efficiency.get(key)  # type: ignore[call-overload]
        if eff is None:
            raise UndefinedPrecisionError(
                f"accelerator {self.id}: no matmul efficiency for {key}; "
                f"defined: {', '.join(self.matmul_efficiency)}"
            )
        return eff

    def sparse_precision_matching(self, tflops: float, precision: str | None = None) -> str | None:
        """The precision whose SPARSE peak equals ``tflops`` (within 1%), else None.

        Without a precision the figure is only called sparse when it matches a sparse peak
        and no dense peak: 1,979 on an H100 SXM is both the BF16 sparse and the FP8 dense
        peak, so it is not flagged unless the claim says BF16.
        """
        if tflops <= 0:
            return None
        if precision is not None:
            key = normalise_precision(precision)
            sparse = self.sparse_tflops.get(key)  # type: ignore[call-overload]
            return key if sparse is not None and _close(tflops, sparse) else None
        if any(_close(tflops, dense) for dense in self.dense_tflops.values()):
            return None
        for key, sparse in self.sparse_tflops.items():
            if _close(tflops, sparse):
                return key
        return None

    def matches_sparse_peak(self, tflops: float, precision: str | None = None) -> bool:
        """True when a vendor's claimed peak equals a sparse (marketing) peak."""
        return self.sparse_precision_matching(tflops, precision) is not None


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= SPARSE_MATCH_REL_TOLERANCE * max(abs(a), abs(b))


class FormFactorWords(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    form_factors: list[FormFactor] = Field(min_length=1)
    words: list[str] = Field(min_length=1)


class Family(BaseModel):
    """Parts sold under one name (A100, H100): bare names and the variant assumed for them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    names: list[str] = Field(min_length=1)
    default: str
    why_default: str = Field(min_length=1)
    # What a bare name leaves open when it is not form factor or memory ("generation").
    variant_word: str | None = None


@dataclass(frozen=True)
class RecognisedAccelerator:
    """Result of recognising vendor text: a catalog id, how sure, and what was assumed."""

    id: str
    confidence: float  # 1.0 = the text names the variant; lower for each assumption made
    note: str | None = None
    matched: str = ""  # the alias or family name found in the text

    @property
    def assumed(self) -> bool:
        return self.note is not None


@dataclass(frozen=True)
class _Match:
    family: str
    entry_id: str | None  # set when an entry alias (not a bare family name) matched
    length: int  # number of tokens: longer = more specific
    start: int  # token position: earlier wins a tie between families
    alias: str


class Catalog(BaseModel):
    """The validated catalog: iterate it, ``get(id)``, ``recognise(text)``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_version: int
    precision_synonyms: dict[Precision, list[str]]
    form_factor_words: list[FormFactorWords]
    families: list[Family] = Field(default_factory=list)
    accelerators: list[Accelerator] = Field(min_length=1)

    _by_id: dict[str, Accelerator] = PrivateAttr(default_factory=dict)
    _members: dict[str, list[Accelerator]] = PrivateAttr(default_factory=dict)
    _family: dict[str, Family] = PrivateAttr(default_factory=dict)
    _aliases: dict[tuple[str, ...], tuple[str, str | None, str]] = PrivateAttr(default_factory=dict)
    _precision: dict[str, str] = PrivateAttr(default_factory=dict)
    _by_first_token: dict[str, list[tuple[str, ...]]] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _check_catalog(self) -> Catalog:
        seen: set[str] = set()
        for acc in self.accelerators:
            if acc.id in seen:
                raise ValueError(f"duplicate accelerator id {acc.id!r}")
            seen.add(acc.id)
        members: dict[str, list[Accelerator]] = {}
        for acc in self.accelerators:
            members.setdefault(acc.family, []).append(acc)
        declared = {f.name: f for f in self.families}
        for fam in self.families:
            ids = [a.id for a in members.get(fam.name, [])]
            if fam.default not in ids:
                raise ValueError(
                    f"families: {fam.name}.default {fam.default!r} is not a member "
                    f"(members: {', '.join(ids) or 'none'})"
                )
        for name, accs in members.items():
            if len(accs) > 1 and name not in declared:
                raise ValueError(
                    f"family {name!r} has {len(accs)} members but no 'families' entry "
                    "saying which one a bare name means"
                )
        # Every alias must point at one target: an alias shared by two entries would make
        # recognition depend on file order.
        aliases: dict[tuple[str, ...], tuple[str, str | None, str]] = {}

        def add(text: str, family: str, entry_id: str | None) -> None:
            key = tuple(_tokens(text))
            if not key:
                raise ValueError(f"alias {text!r} has no letters or digits")
            other = aliases.get(key)
            if other is not None and (other[0], other[1]) != (family, entry_id):
                raise ValueError(
                    f"alias {text!r} names both {other[1] or other[0]} and {entry_id or family}"
                )
            aliases[key] = (family, entry_id, text)

        for fam in self.families:
            for text in fam.names:
                add(text, fam.name, None)
        for acc in self.accelerators:
            # An id that is also a family name ("H200") means the family, not the variant.
            if tuple(_tokens(acc.id)) not in aliases:
                add(acc.id, acc.family, acc.id)
            for text in acc.aliases:
                add(text, acc.family, acc.id)
        precision: dict[str, str] = {p: p for p in PRECISIONS}
        for canonical, words in self.precision_synonyms.items():
            for word in words:
                precision[_compact(word)] = canonical
        self._by_id = {a.id: a for a in self.accelerators}
        self._members = members
        self._family = {
            name: declared.get(name)
            or Family(name=name, names=[name], default=accs[0].id, why_default="only member")
            for name, accs in members.items()
        }
        self._aliases = aliases
        by_first: dict[str, list[tuple[str, ...]]] = {}
        for key in aliases:
            by_first.setdefault(key[0], []).append(key)
        self._by_first_token = by_first
        self._precision = precision
        return self

    # ----------------------------------------------------------------- access

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(a.id for a in self.accelerators)

    def __iter__(self) -> Iterator[Accelerator]:  # type: ignore[override]
        return iter(self.accelerators)

    def __len__(self) -> int:
        return len(self.accelerators)

    def __contains__(self, accelerator_id: object) -> bool:
        return accelerator_id in self._by_id

    def get(self, accelerator_id: str) -> Accelerator:
        """The accelerator with this id (case-insensitive); raises with the closest ids."""
        found = self._by_id.get(accelerator_id)
        if found is not None:
            return found
        folded = accelerator_id.casefold()
        for acc in self.accelerators:
            if acc.id.casefold() == folded:
                return acc
        raise UnknownAcceleratorError(accelerator_id,
                                         functools.partial(self.closest_ids, accelerator_id))

    def normalise_precision(self, precision: str) -> str:
        key = self._precision.get(_compact(precision))
        if key is None:
            raise UndefinedPrecisionError(
                f"unknown precision {precision!r}; expected one of {', '.join(PRECISIONS)}"
            )
        return key

    def table_rows(self) -> list[dict[str, Any]]:
        """One flat row per accelerator, for `evaltool accelerators` and DataFrames."""
        rows: list[dict[str, Any]] = []
        for acc in self.accelerators:
            row: dict[str, Any] = {
                "id": acc.id,
                "vendor": acc.vendor,
                "name": acc.name,
                "form_factor": acc.form_factor,
                "memory_gb": acc.memory_gb,
                "memory_bandwidth_tbyte_s": acc.memory_bandwidth_tbyte_s,
                "intra_node_gbyte_s": acc.intra_node_gbyte_s,
                "scale_up_domain_gpus": acc.scale_up_domain_gpus,
            }
            for precision in PRECISIONS:
                row[f"dense_{precision}_tflops"] = acc.dense_tflops.get(precision)  # type: ignore[call-overload]
            for precision in ("bf16", "fp8"):
                eff = acc.matmul_efficiency.get(precision)  # type: ignore[call-overload]
                row[f"matmul_efficiency_{precision}"] = eff.value if eff else None
            row.update(
                tdp_w=acc.tdp_w,
                ecosystem=acc.ecosystem,
                lock_in=acc.proprietary_ecosystem_lock_in.level,
                rent_only=acc.rent_only,
            )
            rows.append(row)
        return rows

    # ----------------------------------------------------------------- recognition

    def closest_ids(self, text: str, n: int = 3) -> list[str]:
        """The ``n`` catalog ids whose id, name or aliases look most like ``text``."""
        compact = _compact(text)
        words = [w for w in _tokens(text) if len(w) >= 2]
        scored: list[tuple[float, int, str]] = []
        for order, acc in enumerate(self.accelerators):
            names = [acc.id, acc.name, *acc.aliases, *self._family[acc.family].names]
            best = 0.0
            for name in names:
                target = _compact(name)
                for probe in (compact, *words):
                    # ratio() <= quick_ratio() <= real_quick_ratio(): a pair whose bound
                    # cannot beat the best so far is not matched (same result, far fewer
                    # full comparisons)
                    matcher = difflib.SequenceMatcher(None, probe, target)
                    if (matcher.real_quick_ratio() > best and matcher.quick_ratio() > best):
                        best = max(best, matcher.ratio())
            scored.append((-best, order, acc.id))
        scored.sort()
        return [acc_id for _, _, acc_id in scored[:n]]

    def recognise(self, text: str, memory_gb: float | None = None) -> RecognisedAccelerator:
        """Map vendor text ("NVIDIA HGX H100 SXM5 80GB", "trn2", "TPU v5 lite") to an id.

        ``memory_gb`` (per accelerator, from elsewhere in the offer) tells variants apart
        when the text does not, e.g. a bare "A100" with 40 GB is an A100 40GB.
        """
        tokens = _tokens(text)
        if not tokens:
            raise UnknownAcceleratorError(text, [])
        matches = self._find(tokens)
        if not matches:
            raise UnknownAcceleratorError(text, functools.partial(self.closest_ids, text))
        notes: list[str] = []
        confidence = 1.0

        # 1. Which family: the longest alias wins; at equal length the earliest in the text.
        best: dict[str, _Match] = {}
        for m in matches:
            cur = best.get(m.family)
            if cur is None or (m.length, -m.start) > (cur.length, -cur.start):
                best[m.family] = m
        ranked = sorted(best.values(), key=lambda m: (-m.length, m.start))
        family_name = ranked[0].family
        if len(ranked) > 1 and ranked[1].length == ranked[0].length:
            names = ", ".join(m.family for m in ranked)
            notes.append(f"the text names more than one accelerator ({names}); took {family_name}")
            confidence -= 0.3
        family = self._family[family_name]
        members = self._members[family_name]
        candidates = list(members)

        # 2. Form factor words ("SXM5", "PCIe", "NVL", "HGX").
        form_stated = False
        token_set = set(tokens)
        if len(candidates) > 1:
            for group in self.form_factor_words:
                if token_set.intersection(group.words):
                    narrowed = [a for a in candidates if a.form_factor in group.form_factors]
                    if narrowed:
                        candidates = narrowed
                        form_stated = True
                        break

        # 3. Memory: from the text first, else the caller's figure.
        memory_stated = False
        text_memory = _memory_values(text)
        memory_values = text_memory or ([memory_gb] if memory_gb else [])
        if memory_values and len(members) > 1:
            fitting = [
                a for a in candidates if any(_memory_fits(v, a.memory_gb) for v in memory_values)
            ]
            if fitting:
                candidates = fitting
                memory_stated = True
            else:
                sizes = ", ".join(f"{a.memory_gb:g}" for a in candidates)
                shown = ", ".join(f"{v:g}" for v in memory_values)
                origin = "in the text" if text_memory else "given"
                notes.append(
                    f"memory {shown} GB {origin} fits no {family_name} variant ({sizes} GB); "
                    "ignored it"
                )
                confidence -= 0.2

        # 4. An alias that names one variant ("H100 80GB HBM3", "H100NVL") settles it.
        alias_len = {m.entry_id: m.length for m in matches if m.entry_id is not None}
        hits = [a for a in candidates if a.id in alias_len]
        top = max((alias_len[a.id] for a in hits), default=0)
        top_hits = [a for a in hits if alias_len[a.id] == top]
        if len(candidates) == 1:
            chosen = candidates[0]
        elif len(top_hits) == 1:
            chosen = top_hits[0]
        else:
            pool = top_hits or candidates
            default = self._by_id[family.default]
            pool = sorted(
                pool,
                key=lambda a: (
                    a.form_factor != default.form_factor,
                    abs(a.memory_gb - default.memory_gb),
                    members.index(a),
                ),
            )
            chosen = pool[0]
            missing: list[str] = []
            if not form_stated and len({a.form_factor for a in pool}) > 1:
                missing.append("form factor")
            same_form = [a for a in pool if a.form_factor == chosen.form_factor]
            if not memory_stated and len({a.memory_gb for a in same_form}) > 1:
                missing.append("memory size")
            if family.variant_word:
                missing = [family.variant_word]
            what = " or ".join(missing) if missing else "variant"
            if chosen.id == family.default:
                why = f": {family.why_default}"
            else:
                why = f" (the variant closest to the family default, {default.id})"
            notes.append(
                f"{text.strip()!r} does not state the {what} "
                f"({', '.join(a.id for a in pool)}); assumed {chosen.id}{why}"
            )
            confidence -= 0.25 * max(1, len(missing))
        matched = best[family_name].alias
        return RecognisedAccelerator(
            id=chosen.id,
            confidence=round(max(confidence, 0.1), 2),
            note="; ".join(notes) if notes else None,
            matched=matched,
        )

    def _find(self, tokens: list[str]) -> list[_Match]:
        """Every alias that occurs as a contiguous token run (first occurrence)."""
        found: dict[tuple[str, ...], _Match] = {}
        for start, token in enumerate(tokens):
            for key in self._by_first_token.get(token, ()):
                if key not in found and tuple(tokens[start : start + len(key)]) == key:
                    family, entry_id, alias = self._aliases[key]
                    found[key] = _Match(family, entry_id, len(key), start, alias)
        return list(found.values())


# --------------------------------------------------------------------------- text helpers

_COUNT_PREFIX = re.compile(r"(?<![a-z0-9.])\d+\s*x\s*(?=[a-z])")  # "8x H100", "8 x H100"
_COUNT_SUFFIX = re.compile(r"(?<=\d)x\d+\b")  # "A100x8" (hyperstack style)
# "80GB", "80 GB", "80G", "141GiB"; not "400Gb/s", "400Gbps", "100GbE".
_MEMORY = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)\s*(?:gib|gb|g)(?![a-z0-9/])")
_TOKEN = re.compile(r"\d+(?:\.\d+)?gb|[a-z0-9]+")


def _prepare(text: str) -> str:
    lowered = text.lower().replace("×", " x ")
    lowered = _COUNT_PREFIX.sub(" ", lowered)
    return _COUNT_SUFFIX.sub("", lowered)


def _tokens(text: str) -> list[str]:
    """Lower-case word tokens; memory sizes become one token ("80 GB" -> "80gb")."""
    prepared = _MEMORY.sub(lambda m: f" {float(m.group(1)):g}gb ", _prepare(text))
    return _TOKEN.findall(prepared)


def _memory_values(text: str) -> list[float]:
    return [float(m.group(1)) for m in _MEMORY.finditer(_prepare(text))]


def _memory_fits(reported_gb: float, marketed_gb: float) -> bool:
    return abs(reported_gb - marketed_gb) <= MEMORY_MATCH_REL_TOLERANCE * marketed_gb


def _compact(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


# --------------------------------------------------------------------------- loading


def _location_key(loc: tuple[int | str, ...], data: Mapping[str, Any]) -> str:
    """Turn a pydantic error location into a YAML key, naming the accelerator id."""
    parts: list[str] = []
    for i, part in enumerate(loc):
        if isinstance(part, int):
            label = f"[{part}]"
            if i == 1 and loc[0] == "accelerators":
                entries = data.get("accelerators")
                if isinstance(entries, list) and part < len(entries):
                    entry = entries[part]
                    if isinstance(entry, Mapping) and "id" in entry:
                        label = f"[{part}] ({entry['id']})"
            parts.append(label)
        else:
            parts.append(("." if parts else "") + part)
    return "".join(parts)


def parse_catalog(data: object, source: str = CATALOG_RESOURCE) -> Catalog:
    """Validate catalog data (the parsed YAML); errors name the YAML key."""
    where = Location(file=source)
    if not isinstance(data, Mapping):
        raise InputError(Problem(where, code="catalog-not-a-mapping",
                                 params={"type": type(data).__name__}))
    try:
        return Catalog.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            key = _location_key(tuple(err["loc"]), data)
            found = err.get("input")
            text = repr(found) if not isinstance(found, (Mapping, list)) else None
            if text is not None and len(text) > 80:
                text = text[:77] + "..."
            problems.append(Problem(Location(file=source, key=key or None), found=text,
                                    code="catalog-invalid",
                                    params={"reason": err["msg"].removeprefix("Value error, ")}))
        raise InputError(problems) from None


def _read_resource(name: str) -> str:
    return resources.files("evaltool").joinpath("data", name).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def load_catalog() -> Catalog:
    """The built-in catalog (``evaltool/data/accelerators.yaml``), validated once."""
    import yaml  # only needed here; safe_load: package data is trusted, but never run tags

    # libyaml's safe loader when present: same safety, ~10x faster than the Python one.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(_read_resource("accelerators.yaml"), Loader=loader)
    except yaml.YAMLError as exc:
        raise InputError(Problem(Location(file=CATALOG_RESOURCE), code="invalid-yaml",
                                 params={"reason": str(exc)})) from None
    return parse_catalog(data)


def normalise_precision(precision: str) -> str:
    """Canonical precision name: "BF16", "bfloat16" -> "bf16".

    Raises UndefinedPrecisionError for a word the catalog does not know.
    """
    return load_catalog().normalise_precision(precision)


def recognise_accelerator(text: str, memory_gb: float | None = None) -> RecognisedAccelerator:
    """Catalog id for free vendor text; raises UnknownAcceleratorError with the closest ids."""
    return load_catalog().recognise(text, memory_gb)


# --------------------------------------------------------------------------- public prices


@dataclass(frozen=True)
class PublicPriceReference:
    """Public on-demand list prices (USD per GPU-hour) for one catalog id."""

    accelerator_id: str
    n_offers: int
    n_rows: int
    min_usd_per_gpu_hour: float
    p25_usd_per_gpu_hour: float
    median_usd_per_gpu_hour: float
    p75_usd_per_gpu_hour: float
    max_usd_per_gpu_hour: float
    clouds: tuple[str, ...]
    n_form_factor_assumed: int
    source: str


_PRICE_FLOATS = (
    "min_usd_per_gpu_hour",
    "p25_usd_per_gpu_hour",
    "median_usd_per_gpu_hour",
    "p75_usd_per_gpu_hour",
    "max_usd_per_gpu_hour",
)


@functools.lru_cache(maxsize=1)
def _public_prices() -> dict[str, PublicPriceReference]:
    table: dict[str, PublicPriceReference] = {}
    reader = csv.DictReader(io.StringIO(_read_resource("public_prices.csv")))
    for line, row in enumerate(reader, start=2):
        try:
            ref = PublicPriceReference(
                accelerator_id=row["accelerator_id"],
                n_offers=int(row["n_offers"]),
                n_rows=int(row["n_rows"]),
                clouds=tuple(c for c in row["clouds"].split(";") if c),
                n_form_factor_assumed=int(row["n_form_factor_assumed"]),
                source=row["source"],
                **{name: float(row[name]) for name in _PRICE_FLOATS},
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(Problem(Location(file=PUBLIC_PRICES_RESOURCE, cell=f"row {line}"),
                                     code="public-price-row-invalid",
                                     params={"reason": str(exc)})) from None
        table[ref.accelerator_id] = ref
    return table


def public_price_reference(accelerator_id: str) -> PublicPriceReference | None:
    """Public on-demand price spread for a catalog id, or None when no public offer maps."""
    acc = load_catalog().get(accelerator_id)
    return _public_prices().get(acc.id)


def compare_to_public(accelerator_id: str, price_usd_per_gpu_hour: float) -> str | None:
    """E.g. "31% below the public on-demand median for H100-SXM ($3.20/GPU-h, 14 offers)".

    None when there is no public reference for this accelerator.
    """
    if not price_usd_per_gpu_hour > 0:
        raise EvaltoolError(
            f"price_usd_per_gpu_hour must be > 0 to compare with public prices, "
            f"found {price_usd_per_gpu_hour!r}"
        )
    ref = public_price_reference(accelerator_id)
    if ref is None:
        return None
    median = ref.median_usd_per_gpu_hour
    offers = f"{ref.n_offers} offer{'s' if ref.n_offers != 1 else ''}"
    tail = f"for {ref.accelerator_id} (${median:.2f}/GPU-h, {offers})"
    change_pct = (price_usd_per_gpu_hour - median) / median * 100
    if abs(change_pct) < 0.5:
        return f"at the public on-demand median {tail}"
    side = "below" if change_pct < 0 else "above"
    return f"{abs(change_pct):.0f}% {side} the public on-demand median {tail}"
