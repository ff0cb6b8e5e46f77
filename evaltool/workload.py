"""Loading and validating a workload YAML (PRODUCT.md "Workloads").

The file is read with the bounded safe loader (`evaltool.yamlsafe`) and validated by the
pydantic `Workload` model; every problem becomes a `UsageError` that names the file and
the key path, what was found and what was expected (a bad workload stops the run: exit 2).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from evaltool.errors import InputError, Location, Problem, UsageError
from evaltool.models import ServingTarget, Workload
from evaltool.yamlsafe import load_yaml_file

WORKLOAD_FILE_NAME = "workload.yaml"

# Readable names for pydantic's error types: "expected" in the message.
_EXPECTED = {
    "greater_than": "a number greater than {gt}",
    "greater_than_equal": "a number at least {ge}",
    "less_than_equal": "a number at most {le}",
    "less_than": "a number less than {lt}",
    "literal_error": "one of {expected}",
    "extra_forbidden": "one of the known keys: {known}",
    "missing": "this key (it is required)",
    "float_parsing": "a number",
    "float_type": "a number",
    "int_parsing": "a whole number",
    "int_type": "a whole number",
    "int_from_float": "a whole number",
    "string_type": "text",
    "model_type": "a mapping of keys to values",
    "bool_parsing": "true or false",
}


def _expected(error: dict[str, Any], known: str) -> str:
    template = _EXPECTED.get(error["type"])
    ctx = dict(error.get("ctx") or {})
    ctx.setdefault("known", known)
    if template is None:
        return str(error.get("msg", "a valid value"))
    try:
        return template.format(**ctx)
    except (KeyError, IndexError):
        return str(error.get("msg", "a valid value"))


def _problems_from_validation(exc: Any, source: str, data: dict[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    for error in exc.errors():
        loc = [str(part) for part in error["loc"]]
        key = ".".join(loc) if loc else None
        model = ServingTarget if loc[:1] == ["serving"] and len(loc) > 1 else Workload
        known = ", ".join(model.model_fields)
        found: Any = data
        for part in error["loc"]:
            found = found.get(part) if isinstance(found, dict) else None
        if error["type"] == "missing":
            found_text = None
        elif error["type"] == "extra_forbidden":
            found_text = loc[-1]
        else:
            found_text = str(found)
        problems.append(Problem(
            Location(source, key=key),
            code="workload-unknown-key" if error["type"] == "extra_forbidden"
            else "workload-invalid-value",
            found=found_text,
            expected=_expected(error, known),
        ))
    return problems


def parse_workload(data: Any, source: str) -> Workload:
    """Validate an already-loaded mapping as a Workload; `source` names it in errors."""
    from pydantic import ValidationError

    if not isinstance(data, dict):
        raise UsageError(Problem(Location(source), code="workload-not-a-mapping",
                                 params={"found_type": type(data).__name__}))
    if not {"name", "kind", "params_b"} & {str(k) for k in data}:
        # Not a workload at all (a mistyped path, say): never echo another file's keys.
        raise UsageError(Problem(Location(source), code="not-a-workload",
                                 params={"n_keys": len(data)}))
    try:
        workload = Workload.model_validate(_serving_by_concept(data))
    except ValidationError as exc:
        problems = _problems_from_validation(exc, source, data)
        raise UsageError(problems) from None
    problem = _consistency_problem(workload, source)
    if problem is not None:
        raise UsageError(problem)
    return workload


# A serving key read by what its words say, not by one spelling: a time per token in a
# stated unit ("max_ms_per_output_token", "tpot_ms", "inter_token_latency_ms",
# "max_seconds_per_token") is the time per output token; a time to the first token
# ("ttft_ms", "first_token_latency_s") is the TTFT target. A key with no time unit, or a rate
# of tokens per second ("output_tokens_per_s"), is left to validation (unknown keys refused).
_TIME_UNITS = {"ms": 1.0, "msec": 1.0, "millisecond": 1.0, "milliseconds": 1.0,
               "s": 1000.0, "sec": 1000.0, "secs": 1000.0, "second": 1000.0, "seconds": 1000.0}


def _serving_key_concept(key: str) -> tuple[str, float] | None:
    """(canonical serving key, factor to milliseconds) for a latency key in other words."""
    parts = [w for w in re.split(r"[^a-z0-9]+", key.lower()) if w]
    units = [(i, _TIME_UNITS[w]) for i, w in enumerate(parts) if w in _TIME_UNITS]
    if len(units) != 1 or (units[0][0] > 0 and parts[units[0][0] - 1] == "per"):
        return None  # no unit, several, or a rate ("tokens_per_s")
    factor = units[0][1]
    if "ttft" in parts or ("first" in parts and "token" in parts):
        return "max_time_to_first_token_ms", factor
    if {"tpot", "itl"} & set(parts) or ("token" in parts and {"per", "inter", "latency",
                                                                "time"} & set(parts)):
        return "max_latency_ms_per_token", factor
    return None


def _serving_by_concept(data: dict[Any, Any]) -> dict[Any, Any]:
    serving = data.get("serving")
    if not isinstance(serving, dict):
        return data
    known = set(ServingTarget.model_fields) | {"max_time_per_output_token_ms"}
    out = dict(serving)
    for key, value in serving.items():
        if str(key) in known or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        found = _serving_key_concept(str(key))
        if found is None or found[0] in out or (
                found[0] == "max_latency_ms_per_token" and "max_time_per_output_token_ms" in out):
            continue
        out.pop(key)
        out[found[0]] = float(value) * found[1]
    return {**data, "serving": out}


def _consistency_problem(workload: Workload, source: str) -> Problem | None:
    """Rules between keys that one field's validator cannot see."""
    if workload.active_params_b is not None and workload.active_params_b > workload.params_b:
        return Problem(Location(source, key="active_params_b"),
                       code="workload-active-exceeds-total",
                       params={"active_params_b": workload.active_params_b,
                               "params_b": workload.params_b})
    if workload.kind == "inference":
        if workload.serving is None:
            return None
        s = workload.serving
        if s.tokens_per_s is None and s.requests_per_s is None:
            return Problem(Location(source, key="serving"), code="workload-serving-without-rate")
        if s.requests_per_s is not None and s.output_tokens is None and s.tokens_per_s is None:
            return Problem(Location(source, key="serving.output_tokens"),
                           code="workload-requests-without-output-length")
        return None
    if workload.tokens_b is None:
        return Problem(Location(source, key="tokens_b"), code="workload-without-tokens",
                       params={"kind": workload.kind})
    return None


def load_workload(path: Path) -> Workload:
    """Read and validate a workload YAML; raise UsageError naming file and key on any problem."""

    path = Path(path)
    if not path.is_file():
        raise UsageError(Problem(Location(str(path)), code="workload-not-found"))
    try:
        data = load_yaml_file(path)
    except InputError as exc:  # not YAML, too large, too deep: the problems it names
        raise UsageError(exc.problems) from None
    except OSError as exc:
        raise UsageError(Problem(Location(str(path)), code="workload-unreadable",
                                 params={"reason": str(exc)})) from None
    return parse_workload(data, str(path))


def default_workload_path(offer_paths: list[Path] | None = None) -> Path | None:
    """`workload.yaml` beside the first offer that has one, else None (the caller says so)."""
    for offer in offer_paths or []:
        folder = offer if offer.is_dir() else offer.parent
        candidate = folder / WORKLOAD_FILE_NAME
        if candidate.is_file():
            return candidate
    return None


def examples_dir() -> Path | None:
    """The project's own bundled example inputs (`offers/` beside the package), if present."""
    folder = Path(__file__).resolve().parent.parent / "offers"
    return folder if folder.is_dir() else None


def is_bundled_example(path: Path) -> bool:
    """True for the project's own example files: inside `offers/` of this checkout, or a
    byte-identical copy of one (as `evaltool demo DIR` writes them).

    Only these configure a run (workload, rates, rubric) from among the offer inputs without
    being asked to: a vendor's file can never be one of them.
    """
    folder = examples_dir()
    if folder is None:
        return False
    try:
        real = Path(path).resolve()
        if real.parent == folder.resolve():
            return True
        twin = folder / Path(path).name
        return (twin.is_file() and twin.stat().st_size == real.stat().st_size
                and twin.read_bytes() == real.read_bytes())
    except OSError:
        return False
