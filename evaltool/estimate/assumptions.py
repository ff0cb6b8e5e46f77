"""The defaults and rules of thumb behind every estimate (evaltool/data/assumptions.yaml).

Each entry carries its `value`, `unit` and `source`; a run may override values by name.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from evaltool.errors import Location, Problem, UsageError
from evaltool.resources import data_dir
from evaltool.yamlsafe import load_yaml_file

ASSUMPTIONS_FILE = "assumptions.yaml"


@lru_cache(maxsize=1)
def _load_cached() -> dict[str, Any]:
    path = data_dir() / ASSUMPTIONS_FILE
    data = load_yaml_file(path)
    if not isinstance(data, dict):
        raise UsageError(Problem(Location(str(path)), code="assumptions-not-a-mapping",
                                 params={"type": type(data).__name__}))
    for name, entry in data.items():
        if not isinstance(entry, dict) or "value" not in entry or not entry.get("source"):
            raise UsageError(Problem(Location(str(path), key=str(name)), found=repr(entry),
                                     code="assumption-without-source"))
    return data


def load_assumptions() -> dict[str, Any]:
    """Every assumption as name -> {value, unit, source}; a fresh copy the caller may change."""
    return copy.deepcopy(_load_cached())


def assumption_values(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """name -> value, with `overrides` (name -> value, or name -> {value: ...}) applied.

    An unknown name, or a value whose type differs from the default's, is a UsageError:
    a typo in an override must not silently fall back to the default.
    """
    base = _load_cached()
    values = {name: entry["value"] for name, entry in base.items()}
    for name, raw in (overrides or {}).items():
        where = Location("assumptions", key=str(name))
        if name not in values:
            raise UsageError(Problem(where, code="unknown-assumption", params={
                "name": str(name), "names": ", ".join(sorted(values))}))
        value = raw["value"] if isinstance(raw, Mapping) and "value" in raw else raw
        default = values[name]
        if isinstance(default, Mapping):
            if not isinstance(value, Mapping):
                raise UsageError(Problem(where, code="assumption-override-wrong-type",
                                         found=repr(value),
                                         expected="a mapping like the default"))
            merged = dict(default)
            merged.update(value)
            value = merged
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise UsageError(Problem(where, code="assumption-override-wrong-type",
                                         found=repr(value), expected="true or false"))
        elif isinstance(default, (int, float)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise UsageError(Problem(where, code="assumption-override-wrong-type",
                                         found=repr(value), expected="a non-negative number"))
        elif isinstance(default, str) and not isinstance(value, str):
            raise UsageError(Problem(where, code="assumption-override-wrong-type",
                                     found=repr(value), expected="text"))
        values[name] = value
    return values


def assumption_source(name: str) -> str:
    return str(_load_cached()[name]["source"]).strip()
