"""An issue's words come from its registered type (issue #13): a stage states a code, where,
and the numbers and values it found (``params``); the message is rendered from the type's
template in evaltool/data/issues/, so one sentence is written in exactly one place.

A message given directly is refused: DEBT and TEMPLATE_DEBT below are empty and stay empty.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import pickle
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from evaltool.cli import cli
from evaltool.errors import UsageError
from evaltool.grammar.valuetypes import VALUE_ISSUE_CODES, MissingFxRate, ValueParseError
from evaltool.issues import Issue, Location, issue_type, issue_types, template_fields
from evaltool.report import flag_words

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "evaltool"
BUSY = ("evaltool/read/", "evaltool/normalize/", "evaltool/estimate/")

# Constructions that still pass a message of their own, by code: the files they are in. Empty,
# and it stays so: a new sentence is a registered code with a template (README, "adding an
# issue type"); a reader reports it with Builder.note and its typed NoteCode.
DEBT: dict[str, set[str]] = {}

# Codes whose types have neither a template nor a writer in report/: none, and none may come.
TEMPLATE_DEBT: set[str] = set()


# UsageErrors and InputErrors (or their subclasses) raised with a text of their own, by file:
# how many. Empty, and it stays so: one is raised with the registered issue(s) it is,
# UsageError(Problem(where, code=...)) or UsageError([problem, ...]).
USAGE_DEBT: dict[str, int] = {}


@dataclass(frozen=True)
class Construction:
    path: str
    line: int
    code: str | None  # None: not a literal (a helper passes it on)
    message_given: bool
    params: frozenset[str] | None  # None: not a literal dict


def _literal(node: ast.expr | None) -> object:
    try:
        return ast.literal_eval(node) if node is not None else None
    except ValueError:
        return ...


def _constructions() -> list[Construction]:
    """Every call of Issue(...) or Problem(...) in the package, read from its source."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in ("Issue", "Problem"):
                continue
            keywords = {k.arg: k.value for k in node.keywords if k.arg}
            code = _literal(keywords["code"]) if "code" in keywords else "invalid-input"
            params = keywords.get("params")
            if params is None:
                keys: frozenset[str] | None = frozenset()
            elif isinstance(params, ast.Dict) and all(
                    isinstance(k, ast.Constant) for k in params.keys):
                keys = frozenset(str(k.value) for k in params.keys if isinstance(k, ast.Constant))
            else:
                keys = None
            found.append(Construction(
                path=path.relative_to(ROOT).as_posix(), line=node.lineno,
                code=code if isinstance(code, str) else None,
                message_given=len(node.args) >= 2 or "message" in keywords, params=keys))
    return found


def test_the_walk_finds_the_constructions_of_every_stage() -> None:
    paths = {c.path for c in _constructions()}
    assert {"evaltool/yamlsafe.py", "evaltool/workload.py", "evaltool/market/catalog.py",
            "evaltool/clauses/readers.py", "evaltool/read/safety.py"} <= paths


def test_a_message_is_given_directly_only_for_codes_on_the_debt_list() -> None:
    direct: dict[str, set[str]] = {}
    for c in _constructions():
        if c.message_given:
            direct.setdefault(c.code or "?", set()).add(c.path)
    assert direct == DEBT, "convert the new ones to params, or remove the converted ones"
    for code, paths in DEBT.items():
        assert all(p.startswith(BUSY) for p in paths), (code, paths)


def test_every_construction_passes_exactly_the_params_its_templates_use() -> None:
    checked = 0
    for c in _constructions():
        if c.message_given or c.code is None or c.params is None:
            continue  # debt, or a helper's pass-through (checked when it renders, below)
        kind = issue_type(c.code)
        assert kind.message, f"{c.path}:{c.line}: {c.code} has no message template"
        assert c.params == kind.param_names, (
            f"{c.path}:{c.line}: {c.code} passes {sorted(c.params)}, its templates use "
            f"{sorted(kind.param_names)}")
        checked += 1
    assert checked >= 25


def _writes_words(code: str, module: str) -> bool:
    """The report module a type names really writes that code's sentence."""
    if module == "evaltool.report.flag_words":
        return code in flag_words.SENTENCES
    if module == "evaltool.report.finding_words":
        return issue_type(code).stage == "clauses"  # every clause finding, by its reason
    if module == "evaltool.report.score_words":
        return code.startswith("gate-")  # a gate's reason, from the rubric's `says`
    return False


def test_every_type_has_a_template_or_a_writer_in_report_or_is_debt() -> None:
    for code, kind in issue_types().items():
        if kind.templates():
            assert kind.message, f"{code}: found/expected templates without a message"
            sample = dict.fromkeys(kind.param_names, 1234)
            for part, text in kind.render(sample).items():
                # No field is left unrendered (a literal "{{EUR: 1.08}}" renders as braces).
                assert not any("{" + name in text for name in kind.param_names), (
                    code, part, text)
        elif kind.words:
            assert _writes_words(code, kind.words), (code, kind.words)
        else:
            assert code in TEMPLATE_DEBT, f"{code}: give it a message template"
    stale = {c for c in TEMPLATE_DEBT if issue_type(c).templates()}
    assert not stale, f"templated now, remove from TEMPLATE_DEBT: {stale}"


def test_a_template_names_its_fields_plainly() -> None:
    assert template_fields("{size_bytes:,} of {limit!r}") == ["size_bytes", "limit"]
    with pytest.raises(ValueError, match="plain name"):
        template_fields("{0} rows")
    with pytest.raises(ValueError, match="plain name"):
        template_fields("{row.count}")


def test_an_issue_renders_its_message_found_and_expected_from_params() -> None:
    issue = Issue(Location("offer.yaml"), code="file-too-large",
                  params={"size_bytes": 3_000_000, "limit_bytes": 2_000_000,
                          "limit": "YAML/JSON"})
    # The same bytes the stage wrote by hand before the words moved to the template.
    assert str(issue) == ("offer.yaml: file too large to be an offer or config; refused unread "
                          "(found '3,000,000 bytes', expected at most 2,000,000 bytes "
                          "(YAML/JSON limit))")
    data = issue.to_dict()
    assert data["code"] == "file-too-large" and data["message"].startswith("file too large")
    assert data["params"] == {"size_bytes": 3_000_000, "limit_bytes": 2_000_000,
                              "limit": "YAML/JSON"}
    json.dumps(data)


def test_what_was_found_given_directly_is_kept() -> None:
    issue = Issue(Location("vms.csv", cell="row 7"), found="0.5", code="market-bad-gpu-count",
                  severity="warning")
    assert str(issue) == ("vms.csv › row 7: AcceleratorCount is not a whole number of GPUs "
                          "(found '0.5', expected 1, 2, 4, 8 ...)")


def test_a_missing_or_an_unused_param_names_the_code() -> None:
    with pytest.raises(ValueError, match="file-too-large"):
        Issue(Location("a.yaml"), code="file-too-large", params={"size_bytes": 1})
    with pytest.raises(ValueError, match="market-empty-catalog"):
        Issue(Location("a.csv"), code="market-empty-catalog", params={"rows": 3})


def test_a_param_is_a_number_or_short_text() -> None:
    with pytest.raises(ValueError, match="not a number or short text"):
        Issue(Location("a.yaml"), code="invalid-yaml", params={"reason": ["a", "list"]})


def test_a_value_its_format_cannot_take_names_the_code() -> None:
    with pytest.raises(ValueError, match="market-catalog-too-large"):
        Issue(Location("a.csv"), code="market-catalog-too-large",
              params={"size_bytes": "big", "limit_bytes": 10})


def test_a_rendered_issue_can_be_copied_with_a_change() -> None:
    issue = Issue(Location("a.yaml"), code="invalid-yaml", params={"reason": "bad indent"})
    warning = dataclasses.replace(issue, severity="warning")
    assert (warning.message, warning.expected, warning.params) == (
        "not valid YAML: bad indent", "a YAML document", {"reason": "bad indent"})


def test_params_and_a_different_message_together_are_refused() -> None:
    with pytest.raises(ValueError, match="not both"):
        Issue(Location("a.yaml"), "my own words", code="invalid-yaml", params={"reason": "x"})


def test_a_code_without_a_template_needs_a_message() -> None:
    with pytest.raises(ValueError, match="no message template"):
        Issue(Location("a.xlsx"), code="quote-expired")


def test_the_older_form_still_works_while_call_sites_move() -> None:
    issue = Issue(Location("a.xlsx", sheet="Quote", cell="B7"), "not a price",
                  field="price_usd_per_gpu_hour", found="call us", expected="a number",
                  code="value-unreadable", severity="warning")
    assert issue.params == {} and "params" not in issue.to_dict()
    assert str(issue).endswith("not a price (found 'call us', expected a number)")


def test_explain_prints_the_title_description_and_template() -> None:
    result = CliRunner().invoke(cli, ["explain", "market-row-without-price"])
    assert result.exit_code == 0, result.output
    kind = issue_type("market-row-without-price")
    assert kind.title in result.output and kind.description in result.output
    assert "message:  {instance}: no on-demand or spot price listed" in result.output
    assert "expected: a USD price" in result.output and "params:   instance" in result.output


def test_explain_names_the_writer_of_a_flags_sentence() -> None:
    result = CliRunner().invoke(cli, ["explain", "commitment-exceeds-run"])
    assert result.exit_code == 0, result.output
    assert "written by evaltool.report.flag_words" in result.output


def test_explain_as_json_carries_the_templates() -> None:
    result = CliRunner().invoke(cli, ["explain", "workload-without-tokens", "--format", "json"])
    data = json.loads(result.output)
    assert data["message"] == "a {kind} workload needs the number of training tokens"
    assert data["expected"] == "billions of tokens, e.g. tokens_b: 2000"


def test_a_value_parsers_error_is_reported_under_a_typed_code_with_its_reason() -> None:
    # to_problem takes its code from ValueIssueCode (mypy refuses any other); each such code's
    # template takes exactly the parser's reason.
    for code in VALUE_ISSUE_CODES:
        assert issue_type(code).param_names == {"reason"}, code
    error = ValueParseError("not a price", found="call us", expected="a number")
    problem = error.to_problem(Location("q.xlsx", sheet="Quote", cell="B7"),
                               field="price_usd_per_gpu_hour", severity="warning")
    assert (problem.code, problem.params) == ("value-unreadable", {"reason": "not a price"})
    assert str(problem) == ("q.xlsx › Quote › B7: price_usd_per_gpu_hour: not a price "
                            "(found 'call us', expected a number)")
    # a missing exchange rate keeps its own code and currency, whatever the caller asks
    fx = MissingFxRate("EUR", "€2.10").to_problem(Location("q.xlsx"), code="value-unreadable")
    assert (fx.code, fx.params["currency"]) == ("fx-rate-missing", "EUR")
    assert fx.expected == "an exchange rate for EUR (USD per 1 EUR)"


@pytest.mark.parametrize(("code", "params", "text"), [
    # One code, one sentence: where a code once carried two messages, the second has its own.
    ("uncompressed-too-large", {"size_bytes": 300_000_000, "limit_bytes": 200_000_000},
     "workbook expands to too much data (possible zip bomb); refused unread "
     "(found '300,000,000 bytes uncompressed', expected at most 200,000,000 (uncompressed "
     "workbook limit))"),
    ("nested-too-deeply-to-read", {"doing": "reading"},
     "reading: the data is nested too deeply to read; refused (expected an offer a few levels "
     "deep)"),
    ("sheet-too-large", {"last_cell": "XFD1048576", "rows": 1_048_576, "columns": 16_384,
                         "cells": 17_179_869_184, "limit": 5_000_000},
     "sheet spans A1:XFD1048576 (1,048,576 rows x 16,384 columns = 17,179,869,184 cells); "
     "refused before loading (found 'last used cell XFD1048576', expected at most 5,000,000 "
     "cells per sheet (sheet size limit); a stray value far from the table is the usual "
     "cause)"),
])
def test_a_limit_renders_the_numbers_the_stage_states(
        code: str, params: dict[str, int | str], text: str) -> None:
    assert str(Issue(None, code=code, params=params)) == text


def _call_name(node: ast.expr | None) -> str | None:
    if not isinstance(node, ast.Call):
        return None
    return getattr(node.func, "id", None) or getattr(node.func, "attr", None)


ERROR_BASES = ("UsageError", "InputError")


def _error_classes(trees: dict[str, ast.Module]) -> set[str]:
    """UsageError, InputError and every class deriving from them, read from the source: a
    class whose base is one of them, and so on down (McdaError(UsageError), ...)."""
    bases: dict[str, set[str]] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = {getattr(b, "id", None) or getattr(b, "attr", "")
                                    for b in node.bases}
    found = set(ERROR_BASES)
    while more := {name for name, of in bases.items() if of & found} - found:
        found |= more
    return found


def _is_text(node: ast.expr | None) -> bool:
    """A message written on the spot: a string, an f-string, a concatenation, str(...),
    "...".join(...) or "...".format(...). An issue, a list of issues, or a name or attribute
    holding them (exc.issues, problems) is not text; mypy checks their types."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):  # "found " + x, "%s" % x; a list + a list is not text
        return _is_text(node.left) or _is_text(node.right)
    return _call_name(node) in ("str", "join", "format", "repr")


def _text_raises(trees: dict[str, ast.Module]) -> dict[str, int]:
    """Calls of an error class (UsageError, InputError or a subclass) given text, by file."""
    classes = _error_classes(trees)
    texts: dict[str, int] = {}
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if _call_name(node) not in classes or name == "evaltool/errors.py":
                continue
            assert isinstance(node, ast.Call)
            first = node.args[0] if node.args else None
            if _is_text(first) or any(_is_text(k.value) for k in node.keywords
                                       if k.arg in ("problems", "issues")):
                texts[name] = texts.get(name, 0) + 1
    return texts


def _package_trees() -> dict[str, ast.Module]:
    return {path.relative_to(ROOT).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted(PACKAGE.rglob("*.py"))}


def test_the_walk_sees_the_subclasses_of_usage_and_input_errors() -> None:
    trees = _package_trees()
    assert {"UsageError", "InputError", "McdaError"} <= _error_classes(trees)
    calls = sum(1 for tree in trees.values() for node in ast.walk(tree)
                if _call_name(node) == "McdaError")
    assert calls >= 40  # every check of evaltool/decide/mcda.py, sensitivity.py, weight_draws.py


def test_a_new_plain_text_raise_of_a_subclass_is_caught() -> None:
    source = ast.parse(
        "class ShapeError(McdaError): ...\n"
        "class McdaError(UsageError): ...\n"
        "raise ShapeError(f'values: found {shape}')\n"
        "raise McdaError('weights: all 0')\n"
        "raise InputError('; '.join(texts))\n"
        "raise InputError(problems + [problem])\n"
        "raise UsageError(name + ': not a rubric')\n"
        "raise ShapeError(Issue(None, code='mcda-table-shape', params=params))\n"
        "raise UsageError(exc.issues)\n"
        "raise UsageError([first, second])\n")
    assert _text_raises({"evaltool/example.py": source}) == {"evaltool/example.py": 4}


def test_a_usage_error_is_raised_with_its_issue_outside_the_debt_list() -> None:
    assert _text_raises(_package_trees()) == USAGE_DEBT, (
        "raise UsageError(Problem(...)) in the new ones; shrink the list")
    assert USAGE_DEBT == {}


def test_a_usage_error_carries_its_code_and_says_what_it_always_said() -> None:
    error = UsageError(Issue(Location("rates.yaml", key="fx.EURO"), code="fx-bad-currency-code",
                             params={"found": "'EURO'"}), setting="fx")
    assert error.code == "fx-bad-currency-code" and error.setting == "fx"
    assert str(error) == ("rates.yaml › fx.EURO: expected a 3-letter ISO currency code "
                          "(found 'EURO')")
    with pytest.raises(TypeError, match="registered issue"):
        UsageError("a message of its own")  # type: ignore[arg-type]


def test_a_usage_error_carries_several_issues_said_as_one_text() -> None:
    where = Location("workload.yaml", key="params_b")
    first = Issue(where, code="workload-active-exceeds-total",
                  params={"active_params_b": 80.0, "params_b": 70.0})
    second = Issue(Location("workload.yaml", key="tokens_b"), code="workload-without-tokens",
                   params={"kind": "pretraining"})
    error = UsageError([first, second], setting="workload")
    assert error.issues == [first, second] and error.issue == first
    assert error.code == "workload-active-exceeds-total" and error.exit_code == 2
    assert str(error) == f"{first}; {second}"
    copied = pickle.loads(pickle.dumps(error))
    assert (copied.issues, copied.setting, str(copied)) == ([first, second], "workload",
                                                            str(error))
    with pytest.raises(TypeError):
        UsageError([])
