"""Read a YAML or JSON offer whose keys and nesting are the vendor's, not ours.

Every scalar becomes a labelled value: its key is the label, its parent key the section,
its key path (`offer.accelerator.type`) the location.  A mapping like
`{amount: 2.35, currency: USD, unit: GPU-hour}` is read as one value.  Lists of mappings
with quantity and unit-price keys are line items; an `offers:` list (or a top-level list)
holds several offers.  YAML is loaded by evaltool.yamlsafe (safe loader, alias cap); the
walk below also caps the number of nodes visited, because an alias-built structure can be
small to parse yet huge to walk.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from evaltool.errors import InputError, Location, Problem
from evaltool.grammar.basis import minor_unit_amount, minor_unit_divisor
from evaltool.read.cells import Candidate, LineItem, RawRecord, cell_text, is_empty
from evaltool.read.layout import reads_like_terms, slug
from evaltool.read.lineitems import alternatives_by_accelerator
from evaltool.read.mapping_tiers import (
    MappingTiers,
    applied_tier,
    line_text,
    tier_list,
    tier_records,
)
from evaltool.read.offer_lists import priced_offer_list
from evaltool.read.price_tiers import tier_candidates
from evaltool.read.safety import MAX_TEXT_BYTES, read_text
from evaltool.read.sheets import line_groups
from evaltool.read.text import currency_of, first_number
from evaltool.read.vocabulary import Vocabulary, normalise_label
from evaltool.yamlsafe import check_depth, load_yaml_text

MAX_NODES = 50_000
_AMOUNT_KEYS = ("amount", "value", "price", "rate", "betrag", "wert", "montant", "valeur")
_UNIT_KEYS = ("unit", "per", "currency", "einheit", "unite", "waehrung", "devise")
_ITEM_NAME_KEYS = ("name", "id", "label", "title", "option", "plan", "package")
_OFFER_LIST_KEYS = {"offers", "quotes", "options", "angebote", "offres"}


def load_mapping(path: Path) -> Any:
    """Parse YAML or JSON text safely; InputError naming the file and line on failure."""
    text = read_text(path, MAX_TEXT_BYTES)
    if path.suffix.lower() == ".json":

        try:
            return check_depth(json.loads(text), str(path))  # the nesting limit YAML has
        except RecursionError:
            return check_depth([[]], str(path), max_depth=0)  # refused the same way
        except json.JSONDecodeError as exc:
            raise InputError(Problem(Location(str(path), cell=f"line {exc.lineno}, column "
                                              f"{exc.colno}"), code="invalid-json",
                                     params={"reason": exc.msg})) from None

    return load_yaml_text(text, str(path))


class _Walk:
    def __init__(self, path: Path, vocab: Vocabulary, record: RawRecord) -> None:
        self.file = str(path)
        self.vocab = vocab
        self.record = record
        self.nodes = 0
        self.billing_object = False  # the document is a billing API's object (amounts in cents)
        self.tiers: list[MappingTiers] = []  # lists of volume tiers, each priced

    def in_minor_units(self, node: dict[Any, Any], key: str) -> bool:
        """Whether node[key] is an amount in the currency's minor unit."""
        return minor_unit_amount(node, key) or (
            self.billing_object and minor_unit_amount({"object": "price"}, key))

    def where(self, keys: list[str]) -> Location:
        return Location(self.file, key=".".join(keys))

    def visit(self, node: Any, keys: list[str], root: bool = False) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise InputError(Problem(self.where(keys), code="document-too-large",
                                     params={"max_nodes": MAX_NODES}))
        if isinstance(node, dict):
            combined = None if root else _combined_value(node)  # (an offer is no one value)
            if combined is not None and keys:
                text, consumed = combined
                self.scalar(text, keys)
                for key, value in node.items():  # {amount, unit, term_months}: the rest
                    if key not in consumed:
                        self.visit(value, [*keys, str(key)])
                return
            tiered = tier_candidates(node, self.vocab, lambda k: self.where([*keys, *k]))
            if tiered is not None:  # "tiered_pricing": prices of this line, not lines bought
                self.record.candidates.extend(tiered[1])
            for key, value in node.items():
                if tiered is not None and str(key) == tiered[0]:
                    continue
                # Tiers price_tiers.py does not take (ranges as text, a flag on the buyer's
                # tier, keys of any name): each a candidate offer (mapping_tiers.py).
                tiers = tier_list(value, self.vocab) if isinstance(value, list) else None
                if tiers is not None:  # [{range: "1-63", rate: 1.95}, ...]
                    self.tiers.append(MappingTiers([*keys, str(key)], tiers[0], {
                        k: v for k, v in node.items() if not isinstance(v, (dict, list))},
                        tiers[1], applied_tier(value)))
                    continue
                self.visit(value, [*keys, str(key)])
        elif isinstance(node, list):
            if node and all(isinstance(x, dict) for x in node) and self.line_items(node, keys):
                return
            if all(not isinstance(x, (dict, list)) for x in node):
                if keys and len(node) > 1 and self.vocab.match(keys[-1]) == "contract_text":
                    for index, item in enumerate(node):
                        self.clause(cell_text(item), [*keys, str(index)])
                text = "; ".join(cell_text(x) for x in node)
                if text:
                    self.scalar(text, keys)
                return
            for index, item in enumerate(node):
                self.visit(item, [*keys, str(index)])
        elif node is not None and keys:
            self.scalar(_key_unit(node, keys[-1]), keys)

    def scalar(self, value: Any, keys: list[str]) -> None:
        label = keys[-1]
        section = keys[-2] if len(keys) > 1 else None
        text = cell_text(value)
        where = self.where(keys)
        slot = self.vocab.match(label, section)
        if slot == "gpu_count" and any(_NODE_KEY.match(normalise_label(k)) for k in keys[:-1]):
            # instance: {gpu: {count: 8}}: a count inside the description of one machine is
            # its GPUs per node, not the offer's total.
            label, section = "GPUs per node", None
        if slot == "contract_text" or (isinstance(value, str) and "\n" in text.strip()
                                       and reads_like_terms(text)):
            for number, line in enumerate(_clauses(text)):
                self.clause(line, keys, section=_clause_number(line, number))
        self.record.candidates.append(Candidate(label, value, where, section=section))

    def clause(self, text: str, keys: list[str], section: str | None = None) -> None:
        if len(text.split()) < 3:
            return
        segment: dict[str, Any] = {"text": text, "where": self.where(keys).to_dict()}
        if section:
            segment["section"] = section
        self.record.segments.append(segment)

    def line_items(self, items: list[Any], keys: list[str]) -> bool:
        roles_per_item = []
        for item in items:
            roles = {self.vocab.header_role(str(k)): k for k in item}
            roles.pop(None, None)
            roles_per_item.append(roles)
        # A line priced by a list of volume tiers is priced ({..., tiered_pricing: [...]}):
        # its tiers are prices of the line (price_tiers.py), else candidate offers.
        priced_by = [tier_candidates(item, self.vocab, lambda k, i=i: self.where(
            [*keys, str(i), *k])) for i, item in enumerate(items)]
        tiered = [{} if by is not None else {
            str(k): found for k, v in item.items() if isinstance(v, list)
            and (found := tier_list(v, self.vocab)) is not None}
            for item, by in zip(items, priced_by, strict=True)]
        # Every item priced and at least one counted: a list of line items; the others
        # (storage per GiB-month, egress per GB) are priced per unit, with no quantity.
        if not all("unit_price" in r or "total" in r or t or by is not None
                   for r, t, by in zip(roles_per_item, tiered, priced_by, strict=True)) or not any(
                "quantity" in r for r in roles_per_item):
            return False
        for index, (item, roles) in enumerate(zip(items, roles_per_item, strict=True)):
            item_keys = [*keys, str(index)]
            if (by := priced_by[index]) is not None:  # its tiers, and its text (Gaudi 3 ...)
                self.record.candidates.extend(by[1])
                self.record.candidates.extend(line_text(item, item_keys, self.file, self.vocab))
            for key, (tiers, bounds) in tiered[index].items():
                self.tiers.append(MappingTiers([*item_keys, key], tiers, {
                    k: v for k, v in item.items() if not isinstance(v, (dict, list))}, bounds,
                    applied_tier(item[key])))

            def num(role: str, item: dict[str, Any] = item, roles: dict[Any, Any] = roles
                    ) -> float | None:

                if role not in roles:
                    return None
                value, key, node = item[roles[role]], str(roles[role]), item
                if isinstance(value, dict):  # {"price": {"object": "price", "unit_amount": 245}}
                    inner = next((k for k in value if self.in_minor_units(value, str(k))), None)
                    if inner is None:
                        return None
                    value, key, node = value[inner], str(inner), value
                if isinstance(value, bool):
                    return None
                number = (float(value) if isinstance(value, (int, float)) else
                          first_number(str(value)) if value is not None else None)
                if number is not None and self.in_minor_units(node, key):
                    currency = node.get("currency") or item.get("currency")
                    return number / minor_unit_divisor(str(currency) if currency else None)
                return _in_major_unit(number, key)

            desc = cell_text(item.get(roles.get("description") or roles.get("part") or "", ""))
            raw = {role: cell_text(_key_unit(item[k], str(k))) for role, k in roles.items()
                   if role}
            self.record.line_items.append(LineItem(
                row_where=self.where(item_keys), description=desc, quantity=num("quantity"),
                unit=cell_text(item[roles["unit"]]) if "unit" in roles else None,
                unit_price=num("unit_price"), total=num("total"),
                currency=currency_of(" ".join(raw.values())),
                cells={role: self.where([*item_keys, str(k)]) for role, k in roles.items()
                       if role},
                raw=raw))
            # Facts beside the line's price ({..., term_months: 12}, {..., capacity: 100 TiB}),
            # and in the objects nested in the line ({"price": {"product": {"metadata":
            # {"gpus_per_node": "8", "nodes": "2"}}}}).
            for path, value in _leaves(item):
                if (len(path) == 1 and path[0] in roles.values()) or is_empty(value):
                    continue
                label = " ".join(path[-2:])  # "gpu memory_gb": the key read with its parent
                slot = self.vocab.match(label)
                if slot not in _NOT_A_LINE_FACT:
                    self.record.candidates.append(Candidate(
                        label, value, self.where([*item_keys, *path]), section=desc))
        return True


# A key that ends with the unit of its figure: "first_response_minutes", "per_node_gbps",
# "ram_gib", "uptime_pct".  Its bare number is read with that unit ("60 minutes").
_KEY_UNIT_RE = re.compile(r"(?:^|[\s_.-])(minutes?|mins?|hours?|hrs?|days?|weeks?|months?|"
                          r"years?|gib|gb|tib|tb|gbps|gbit|tbps|kw|pct|percent)$", re.I)
# A key that counts an amount in the currency's hundredths: "unit_price_cents".
_MINOR_UNIT_RE = re.compile(r"(?:^|[\s_.-])(?:cents?|pence|centimos|centimes|cents_amount)$",
                            re.I)


def _key_unit(value: Any, key: str) -> Any:
    """A bare number under a key that names its unit, with that unit ('60 minutes'), and an
    amount in cents in the currency's whole units; anything else as it stands."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    if _MINOR_UNIT_RE.search(key):
        return value / 100
    match = _KEY_UNIT_RE.search(key)
    if match is None:
        return value
    unit = match.group(1).lower()
    return f"{cell_text(value)} {_KEY_UNITS.get(unit, unit)}"


_KEY_UNITS = {"pct": "%", "percent": "%", "gib": "GiB", "gb": "GB", "tib": "TiB", "tb": "TB",
              "gbps": "Gbit/s", "gbit": "Gbit/s", "tbps": "Tbit/s", "kw": "kW"}


def _leaves(node: dict[Any, Any], depth: int = 0) -> list[tuple[list[str], Any]]:
    """The scalar values of a line item and of the objects nested in it, with their keys."""
    found: list[tuple[list[str], Any]] = []
    for key, value in node.items():
        if isinstance(value, dict) and depth < 3:
            found += [([str(key), *p], v) for p, v in _leaves(value, depth + 1)]
        elif not isinstance(value, (dict, list)):
            found.append(([str(key)], value))
    return found


def _in_major_unit(number: float | None, key: str) -> float | None:
    return number / 100 if number is not None and _MINOR_UNIT_RE.search(key) else number


# Keys of a line item that are no fact of the offer: its own name, its price, its notes.
_NOT_A_LINE_FACT = frozenset({None, "ignore", "offer_name", "price", "capex_usd", "vendor",
                              "contract_text", "currency"})
_NODE_KEY = re.compile(r"^(?:(?:per|each|one|1|je|par|por|pro) )?"  # per_node: {accelerators: 8}
                       r"(?:instance|instances|node|nodes|server|servers|vm|machine|host|"
                       r"system|box|knoten|noeud|serveur)(?: (?:type|spec|config|shape))?$")


def _combined_value(node: dict[Any, Any]) -> tuple[str, set[Any]] | None:
    """{amount: 2.35, currency: USD, unit: GPU-hour} -> '2.35 USD per GPU-hour', with the
    keys it used; other keys beside them ({..., term_months: 6}) are read on their own."""
    keys = {normalise_label(str(k)): k for k in node}
    amount_key = next((keys[k] for k in _AMOUNT_KEYS if k in keys), None)
    if amount_key is None:
        return _priced_in_key_currency(node, keys)
    if len(node) > 6 or isinstance(node[amount_key], (dict, list)):
        return None
    others = [k for k in node if k != amount_key and normalise_label(str(k)) in _UNIT_KEYS]
    if not others:
        return None
    parts = [_number_text(node[amount_key])]
    for key in others:
        text = cell_text(node[key]).replace("_", " ")  # unit: per_gpu_hour
        if normalise_label(str(key)) in ("unit", "per", "einheit", "unite") and text:
            # "USD/GPU/hr", "EUR per node-hour": a unit that starts with its currency is
            # written after the amount as it stands; "gpu_hour" alone becomes "per gpu hour".
            starts_with_currency = re.match(r"\s*(?:[A-Z]{3}\b|[$€£¥])", text) is not None
            parts.append(text if starts_with_currency or text.lower().startswith(("per", "/"))
                         else f"per {text}")
        elif text:
            parts.append(text)
    return " ".join(parts), {amount_key, *others}


# {unit: chip-hour, list_usd: 2.7, commitment_discount_pct: 37, net_usd: 1.701}: amounts whose
# key names their currency, beside a unit; the price paid (net, effective) before a list price.
_KEYED_AMOUNT_RE = re.compile(r"^(?:(?P<kind>[a-z]+(?: [a-z]+)?) )?(?P<cur>usd|eur|gbp|chf|cad|aud|"
                              r"sgd|jpy|sek|nok|dkk|pln|czk|huf|inr|brl|mxn)$")
# Amount keys that name the time they are for, the finest first: {hourly_usd, monthly_usd}
# state one price twice, per hour and per month (730 hours); the hourly one is read.
_TIME_KINDS = {"hourly": "hour", "per hour": "hour", "daily": "day", "weekly": "week",
               "monthly": "month", "per month": "month", "yearly": "year", "annual": "year"}
_PAID_FIRST = ("effective", "net", "discounted", "final", "committed", "commit", "net price",
               "price", "rate", "amount", "unit price", None, "list", "list price", "catalog")


def _priced_in_key_currency(node: dict[Any, Any], keys: dict[str, Any]
                            ) -> tuple[str, set[Any]] | None:
    """'1.701 USD per chip-hour' from {unit: chip-hour, net_usd: 1.701, list_usd: 2.7}: the
    amount paid (net or effective before list), its currency from its key, its basis from the
    unit beside it; the other amounts of the same price (the list price) are consumed with it."""
    unit_key = next((keys[k] for k in ("unit", "per", "einheit", "unite", "basis") if k in keys),
                    None)
    if unit_key is None or len(node) > 8 or not isinstance(node[unit_key], str):
        return None
    amounts: dict[str | None, tuple[Any, str]] = {}
    for norm, key in keys.items():
        match = _KEYED_AMOUNT_RE.match(norm)
        value = node[key]
        if match and isinstance(value, (int, float)) and not isinstance(value, bool):
            amounts.setdefault(match["kind"], (key, match["cur"].upper()))
    if not amounts:
        return None
    timed = [k for k in _TIME_KINDS if k in amounts]  # {hourly_usd, monthly_usd}: one price
    kind = timed[0] if timed else next((k for k in _PAID_FIRST if k in amounts),
                                       next(iter(amounts)))
    key, currency = amounts[kind]
    unit = cell_text(node[unit_key]).replace("_", " ")
    per = unit if unit.lower().startswith(("per", "/")) else f"per {unit}"
    if kind in _TIME_KINDS:  # "hourly_usd" beside "unit: instance": per instance per hour
        per = f"{per} per {_TIME_KINDS[kind]}"
    return (f"{_number_text(node[key])} {currency} {per}",
            {unit_key, *(k for k, _ in amounts.values())})


def _number_text(value: Any) -> str:
    """A number of the document as text no reader can take for a thousands group: 1.701 is
    written 1.7010 (the same number), never '1.701' that a European quote means as 1701."""
    text = cell_text(value)
    if isinstance(value, float) and re.fullmatch(r"-?\d{1,3}\.\d{3}", text):
        text += "0"
    return text


def _clauses(text: str) -> list[str]:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines if len(lines) > 1 else [text.strip()]


def _clause_number(line: str, index: int) -> str:
    match = re.match(r"^\s*(\(?[0-9]+(?:\.[0-9]+)*[.)]?|[A-Z]{1,3}-?[0-9]+)\s", line)
    return match.group(1).strip("().") if match else str(index + 1)


def _offer_list(data: dict[Any, Any], depth: int = 0
                ) -> tuple[list[str], list[dict[Any, Any]], dict[Any, Any]] | None:
    """(keys to it, the offers, what they share) of a list of offers: at the top
    ({"offers": [...]}) or inside the document's wrapper ({"quote": {"options": [...]}}),
    where the wrapper's other keys (vendor, terms) are shared by every offer."""
    key = next((k for k in data if normalise_label(str(k)) in _OFFER_LIST_KEYS
                and isinstance(data[k], list) and (data[k] or depth == 0)
                and all(isinstance(x, dict) for x in data[k])), None)
    if key is not None:
        return [str(key)], data[key], {k: v for k, v in data.items() if k != key}
    if depth >= 2:
        return None
    for outer, inner in data.items():
        if not isinstance(inner, dict):
            continue
        found = _offer_list(inner, depth + 1)
        if found is not None:
            keys, offers, shared = found
            siblings = {k: v for k, v in data.items() if k != outer}
            return [str(outer), *keys], offers, {**siblings, **shared}
    return None


def read_mapping(path: Path, vocab: Vocabulary) -> list[RawRecord]:
    """One record per offer in a YAML/JSON file."""
    data = load_mapping(path)
    base_id = slug(path.stem)
    where = Location(str(path))
    if data is None or data == {} or data == []:
        raise InputError(Problem(where, code="no-data-in-file"))
    items: list[tuple[str, Any, list[str]]]
    if isinstance(data, list):
        items = [(f"{base_id}-{i + 1}", x, [str(i)]) for i, x in enumerate(data)]
    elif isinstance(data, dict):
        found = _offer_list(data) or priced_offer_list(data, vocab)
        if found is not None:
            keys, offers, shared = found
            items = [(f"{base_id}-{i + 1}", {**shared, **x}, [*keys, str(i)])
                     for i, x in enumerate(offers)]
        else:
            items = [(base_id, data, [])]
    else:
        raise InputError(Problem(where, code="document-unreadable",
                                 params={"type": type(data).__name__}))
    comments = _comment_lines(path)
    records = []
    for offer_id, node, prefix in items:
        source: dict[str, Any] = {"file": str(path)}
        if prefix:
            source["key"] = ".".join(prefix)
        record = RawRecord(id=offer_id, source=source)
        tiers: list[MappingTiers] = []
        if not isinstance(node, dict):
            record.problems.append(Problem(Location(str(path), key=".".join(prefix) or None),
                                           code="offer-not-a-mapping",
                                           params={"type": type(node).__name__}))
        else:
            walker = _Walk(path, vocab, record)
            # a billing API's quote ({"object": "quote", ...}) writes every amount in cents,
            # its nested prices too, whether or not they name their own type
            walker.billing_object = isinstance(data, dict) and minor_unit_amount(data, "amount")
            walker.visit(node, list(prefix), root=True)  # each key, tier lists among them
            tiers = walker.tiers
            if prefix:  # an item of a list of offers: its own name or id names the offer
                own = next((k for k in node if normalise_label(str(k)) in _ITEM_NAME_KEYS
                            and isinstance(node[k], (str, int)) and str(node[k]).strip()),
                           None)
                if own is not None:
                    record.candidates.append(Candidate(
                        "offer name", str(node[own]).strip(),
                        Location(str(path), key=".".join([*prefix, str(own)]))))
        record.notes.extend(comments)
        records.extend(tier_records(record, tiers, str(path), vocab))
    if len(records) == 1:  # one document whose lines price different accelerators
        alternatives_by_accelerator(records[0].line_items)
        split = line_groups(records[0], [], base_id)
        names = {str(r.source.get("option")) for r in split}
        for item in split:  # a line's own facts (section = its description) stay its own
            item.candidates.extend(c for c in records[0].candidates
                                   if c.section not in names or c.section == item.source.get(
                                       "option"))
            item.notes.extend(records[0].notes)
            item.segments.extend(records[0].segments)
            item.problems.extend(records[0].problems)
        records = split or records
    return records


def _comment_lines(path: Path) -> list[tuple[str, Location]]:
    """A YAML file's own comment lines ('# quote valid until 2026-03-20'): notes its author
    wrote beside the keys, read for the facts they state (JSON has none)."""
    if path.suffix.lower() == ".json":
        return []
    found: list[tuple[str, Location]] = []
    for number, line in enumerate(read_text(path, MAX_TEXT_BYTES).splitlines(), start=1):
        match = re.match(r"\s*#\s*(\S.{2,300})$", line)
        if match and re.search(r"[^\W\d_]{3}", match.group(1)):
            found.append((match.group(1).strip(), Location(str(path), cell=f"line {number}")))
        if len(found) >= 50:
            break
    return found

