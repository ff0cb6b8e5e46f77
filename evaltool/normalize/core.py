"""Turn raw offer records into canonical `Offer`s: fields in PRODUCT.md units, each value
with its provenance, derived values explained, inconsistencies as warnings and flags.

Flow: read (evaltool.read) -> apply a user mapping (teach.py) -> map labels to slots and read
each value (builder.py, slots.py; values with evaltool.normalize.values, phrases by shape with
shapes.py, the vendor name with vendor.py) -> resolve facts (a labelled value beats a line
item, which beats a figure read from other text) -> derive and check (derive.py: counts,
bandwidths, prices, purchase economics, catalog) -> validate with the models -> render.
A file that cannot be read, or an offer missing a required field, becomes `NotEvaluated`
naming file, sheet and cell; the other offers proceed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evaltool.errors import InputError, Location, Problem
from evaltool.grammar.currency_signs import document_signs
from evaltool.models import (
    FieldSource,
    NotEvaluated,
    Offer,
    OfferFields,
)
from evaltool.normalize import values as V
from evaltool.normalize.builder import Builder
from evaltool.normalize.contract_total import total_is_contract_value
from evaltool.normalize.derive import Derive
from evaltool.normalize.facts import REQUIRED, NormalizeResult
from evaltool.normalize.formula_gaps import warn_uncomputed
from evaltool.normalize.identity import flag_duplicates, unique_ids
from evaltool.normalize.line_discounts import place_discount_lines
from evaltool.normalize.noted_options import offers_from_notes
from evaltool.normalize.plausible import Plausibility
from evaltool.normalize.render import (
    normalize_to_rows,
    render_normalized,
    result_to_dict,
)
from evaltool.normalize.short_values import shorten_texts
from evaltool.normalize.signs import note_shared_signs
from evaltool.normalize.teach import UserMapping, apply_mapping
from evaltool.normalize.tiers import choose_tiers
from evaltool.normalize.upfront_share import upfront_from_share
from evaltool.read import read_offer_file
from evaltool.read.cells import RawRecord
from evaltool.read.currency_signs import settle_record
from evaltool.read.safety import problem_for_exception
from evaltool.read.vocabulary import Vocabulary, load_vocabulary

# The codes of values a length limit skipped: they explain a missing required field.
_LENGTH_LIMITS = ("value-too-long", "cell-too-long", "number-too-long")

# --- public API ---------------------------------------------------------------------------

def normalize_records(records: Sequence[RawRecord], fx_rates: Mapping[str, float] | None = None
                      ) -> tuple[list[Offer], list[NotEvaluated]]:
    fx = {"USD": 1.0, **(fx_rates or {})}
    vocab = load_vocabulary()
    offers: list[Offer] = []
    failed: list[NotEvaluated] = []
    for record in records:
        try:
            result = _normalize_record(record, fx, vocab)
        except InputError as exc:
            source = _tried(record)
            tried = [p.to_dict() for p in exc.problems]
            if "sheets" in source or "skipped_sheets" in source:  # each sheet, said
                tried.append(Problem(
                    Location(str(record.source.get("file", record.id))), severity="info",
                    code="sheets-tried", params={
                        "read": ", ".join(source.get("sheets", [source.get("sheet", "-")])),
                        "skipped": ", ".join(f"{s['sheet']} ({s['why']})" for s in source.get(
                            "skipped_sheets", ())) or "none"}).to_dict())
            failed.append(NotEvaluated(source=source, errors=tried))
            continue
        except Exception as exc:  # one offer's bug never takes the others down
            where = Location(str(record.source.get("file", record.id)),
                             sheet=record.source.get("sheet"), key=record.source.get("key"))
            failed.append(NotEvaluated(source=record.source, errors=[
                problem_for_exception(exc, where, "normalising").to_dict()]))
            continue
        offers.append(result)
    return offers_from_notes(choose_tiers(offers), fx), failed


def _tried(record: RawRecord) -> dict[str, Any]:
    """The source of a record that gave no offer, naming every sheet read into it and every
    sheet skipped (hidden, superseded): no sheet of a file is dropped unsaid."""
    source = dict(record.source)
    if len(record.sheets) > 1:
        source["sheets"] = list(record.sheets)
    skipped = [{"sheet": where.sheet, "why": why} for where, why in record.skipped
               if where.sheet is not None and where.cell is None]
    if skipped:
        source["skipped_sheets"] = skipped
    return source


def _normalize_record(record: RawRecord, fx: Mapping[str, float], vocab: Vocabulary) -> Offer:
    withdrawn = [p for p in record.problems if p.code == "offer-withdrawn"]
    if withdrawn:  # a listing its own file marks as withdrawn, expired or sold
        raise InputError(withdrawn)
    place_discount_lines(record)  # a JSON quote's discount line is no line bought
    readings = settle_record(record)
    with document_signs(readings):  # "$" and "kr" mean what this document says
        b = Builder(record, fx, vocab)
        note_shared_signs(b, readings)
        b.read()
        values, provenance = b.resolve()
        shorten_texts(b, values, provenance)
        total_is_contract_value(b, values, provenance)  # a rental's total is no capex
        d = Derive(b, values, provenance)
        try:
            d.run()
            warn_uncomputed(b, values, provenance)  # a price its formula could not give
            upfront_from_share(b, values, provenance)  # "10% prepay of contract value"
        except V.MissingFxRate as exc:
            raise InputError(exc.to_problem(Location(str(record.source.get("file"))),
                                            "currency")) from None
        Plausibility(b, values, provenance).run()
    values.pop("claimed_peak_precision_raw", None)
    errors = _required(b, values, record)
    fields, invalid = _validated_fields(values, provenance)
    errors += [p for p in invalid if p.field in REQUIRED or p.field == "price_usd_per_gpu_hour"]
    if errors:
        # Values skipped by a length limit explain a missing field: name them too.
        raise InputError(errors + [p for p in b.problems if p.severity == "error"
                                   or p.code in _LENGTH_LIMITS])
    for problem in invalid:
        b.problems.append(problem)
    where_text = " ".join(s["text"] for s in record.segments)
    if record.segments and fields.contract_text is None:
        fields = fields.model_copy(update={"contract_text": "\n".join(
            s["text"] for s in record.segments)})
        provenance["contract_text"] = FieldSource(
            where=record.segments[0]["where"], raw=where_text[:200],
            note=f"{len(record.segments)} contract segments joined")
    warnings = [p.to_dict() for p in b.problems]
    return Offer(id=record.id, source=record.source, fields=fields,
                 provenance={k: provenance[k] for k in sorted(provenance)
                             if getattr(fields, k, None) is not None},
                 warnings=warnings, flags=b.flags, contract_segments=record.segments)


def _required(b: Builder, values: dict[str, Any], record: RawRecord) -> list[Problem]:
    errors: list[Problem] = []
    file_where = Location(str(record.source.get("file", "")), sheet=record.source.get("sheet"),
                          key=record.source.get("key"))
    needed = [*REQUIRED]
    is_purchase = values.get("capex_usd") is not None or values.get("offer_kind") == "purchase"
    needed.append("capex_usd" if is_purchase else "price_usd_per_gpu_hour")
    expectations = {
        "accelerator": "the accelerator model (GPU type), e.g. 'NVIDIA HGX H100 SXM5 80GB'",
        "gpu_count": "the total number of GPUs (or nodes and GPUs per node)",
        "price_usd_per_gpu_hour": "a compute price, e.g. '$2.35 per GPU-hour'",
        "capex_usd": "the purchase price (total capex)",
    }
    for name in needed:
        if values.get(name) is not None:
            continue
        if name in b.unreadable:
            prob = b.unreadable[name]
            if prob.code == "fx-rate-missing":  # the user can fix this one with a rate
                errors.append(Problem(prob.where, field=name, found=prob.found,
                                      code="required-field-needs-fx-rate",
                                      params={"field": name, "cause": prob.message,
                                              "currency": prob.params["currency"]}))
                continue
            errors.append(Problem(prob.where, field=name, found=prob.found,
                                  expected=prob.expected or expectations[name],
                                  code="required-field-unreadable",
                                  params={"field": name, "cause": prob.message}))
        else:
            # A formula saved without its value is the usual reason a present field is empty.
            uncached = [p for p in record.problems if p.found == "formula without cached value"]
            if uncached:
                cells = ", ".join(f"{p.where} ({p.message.split(':', 1)[0]})"
                                  for p in uncached[:5])
                errors.append(Problem(file_where, field=name, expected=expectations[name],
                                      code="required-field-in-formula",
                                      params={"field": name, "cells": cells}))
            else:
                errors.append(Problem(file_where, field=name, expected=expectations[name],
                                      code="required-field-missing", params={"field": name}))
    return errors


def _validated_fields(values: dict[str, Any], provenance: dict[str, FieldSource]
                      ) -> tuple[OfferFields, list[Problem]]:
    from pydantic import ValidationError

    known = OfferFields.model_fields  # pydantic builds it on each access: asked once
    clean = {k: v for k, v in values.items() if k in known}
    for key in ("gpu_count", "node_count", "gpus_per_node", "cpu_cores_per_node"):
        if isinstance(clean.get(key), float) and clean[key].is_integer():
            clean[key] = int(clean[key])
    problems: list[Problem] = []
    for _ in range(len(clean) + 1):
        try:
            return OfferFields(**clean), problems
        except ValidationError as exc:
            for err in exc.errors():
                name = str(err["loc"][0]) if err["loc"] else "?"
                source = provenance.get(name)
                where = Location(**source.where) if source else Location("?")
                problems.append(Problem(where, field=name, found=repr(clean.get(name)),
                                        expected=_expected_from(err), severity="warning",
                                        code="value-out-of-range",
                                        params={"field": name, "reason": err["msg"]}))
                clean.pop(name, None)
                values.pop(name, None)
    return OfferFields(), problems


def _expected_from(err: Mapping[str, Any]) -> str:
    ctx = err.get("ctx") or {}
    parts = [f"{k.replace('_', ' ')} {v}" for k, v in ctx.items()]
    return ", ".join(parts) or str(err.get("type"))


def normalize_files(paths: Sequence[Path], fx_rates: Mapping[str, float] | None = None,
                    mapping: UserMapping | None = None) -> NormalizeResult:
    """Read and normalise every file; a bad file becomes NotEvaluated, never an exception.

    Every path ends among the offers or in not_evaluated with a coded problem naming it;
    offer ids are unique across the run, and offers given twice are flagged. `mapping` (a
    per-vendor mapping file, `--map`) is applied to what is read.
    """

    offers: list[Offer] = []
    failed: list[NotEvaluated] = []
    for path in paths:
        path = Path(path)
        try:
            records = read_offer_file(path)  # raises InputError only
        except InputError as exc:
            failed.append(NotEvaluated(source={"file": str(path)},
                                       errors=[p.to_dict() for p in exc.problems]))
            continue
        if mapping is not None:
            apply_mapping(records, mapping, path)
        good, bad = normalize_records(records, fx_rates)
        offers.extend(good)
        failed.extend(bad)
    return NormalizeResult(offers=flag_duplicates(unique_ids(offers)), not_evaluated=failed)


__all__ = ["NormalizeResult", "normalize_files", "normalize_records", "normalize_to_rows",
           "render_normalized", "result_to_dict"]
