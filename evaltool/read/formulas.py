"""Arithmetic formulas saved without a value, worked out from the cells they name.

A workbook written by a script (openpyxl, a CPQ export) holds its totals as formulas with no
cached value: "=C5*E5*730", "=$B$8*(1-B13)", "=SUM(F5:F9)*(1-F10)". A buyer opening it in a
spreadsheet sees the figures; a reader that never evaluates sees nothing, and an offer whose
capex or price is such a total is lost. Only arithmetic is evaluated here: numbers, cell and
range references (on this sheet or another, by name), + - * / ^ %, brackets, and SUM, MIN, MAX,
AVERAGE, PRODUCT, ROUND, ABS; comparisons and IF; and the lookups VLOOKUP, HLOOKUP, MATCH and
INDEX over the workbook's own cells (evaltool.read.lookups: a calculator's term discount).
Anything else (text arithmetic, dates, macros, external links, a lookup that finds nothing)
leaves the cell empty, as before: a missing value, never a guessed one.
Every value worked out here is said (code formula-evaluated), with its formula.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from evaltool.errors import Location, Problem
from evaltool.read.cells import SheetGrid, column_index
from evaltool.read.lookups import (
    LookupMiss,
    Raw,
    Table,
    as_vector,
    hlookup,
    index,
    match_position,
    vlookup,
)

_TOKEN_RE = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+)"
    r"|(?P<ref>(?:(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?\$?[A-Za-z]{1,3}\$?\d{1,7}"
    r"(?::\$?[A-Za-z]{1,3}\$?\d{1,7})?)"
    r"|(?P<bool>TRUE|FALSE)\b(?!\s*\()"
    r"|(?P<func>[A-Za-z][A-Za-z0-9.]*)\s*\("
    r'|(?P<str>"(?:[^"]|"")*")'
    r"|(?P<op><>|<=|>=|[-+*/^%(),;<>=]))", re.I)
_CELL_RE = re.compile(r"\$?([A-Za-z]{1,3})\$?(\d{1,7})")
_MAX_DEPTH = 40
_MAX_RANGE_CELLS = 10_000
_LOOKUPS = ("VLOOKUP", "HLOOKUP", "MATCH", "INDEX", "IF", "CHOOSE", "SUMPRODUCT", "AND", "OR",
            "NOT")
_COMPARE = {"=": lambda a, b: a == b, "<>": lambda a, b: a != b, "<": lambda a, b: a < b,
            ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}


class _CannotEvaluate(Exception):
    """The formula is not plain arithmetic over numbers: leave the cell empty."""


def _tokens(formula: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    text = formula.strip()
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if m is None or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise _CannotEvaluate(text[pos:])
        kind = m.lastgroup or ""
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


def _aggregate(name: str, values: list[float]) -> float:
    if name == "SUM":
        return sum(values)
    if name == "PRODUCT":
        return math.prod(values)
    if not values:
        raise _CannotEvaluate(name)
    if name == "MIN":
        return min(values)
    if name == "MAX":
        return max(values)
    if name == "AVERAGE":
        return sum(values) / len(values)
    raise _CannotEvaluate(name)


class _Workbook:
    """The grids of one workbook, their formulas, and the values worked out so far."""

    def __init__(self, grids: Sequence[SheetGrid], formulas: dict[str | None, dict[
            tuple[int, int], str]]) -> None:
        self.grids = {g.name: g for g in grids}
        self.formulas = formulas
        self.values: dict[tuple[str | None, int, int], float | None] = {}
        self.busy: set[tuple[str | None, int, int]] = set()

    def cell(self, sheet: str | None, r: int, c: int, depth: int) -> float:
        """A cell's number: its value, or its own formula's; an empty cell is 0 (as a
        spreadsheet counts it); text is no number."""
        if (r, c) in self.formulas.get(sheet, {}):
            value = self.evaluate(sheet, r, c, depth + 1)
            if value is None:
                raise _CannotEvaluate(f"{sheet}!{r},{c}")
            return value
        grid = self.grids.get(sheet)
        if grid is None:
            raise _CannotEvaluate(f"no sheet {sheet!r}")
        value = grid.value(r, c)
        if value is None or value == "":
            return 0.0
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _CannotEvaluate(f"text in {sheet}!{r},{c}")
        return float(value)

    def raw(self, sheet: str | None, r: int, c: int, depth: int) -> Raw:
        """A cell as a lookup sees it: a number (its formula's, worked out), text, or empty."""
        if (r, c) in self.formulas.get(sheet, {}):
            return self.cell(sheet, r, c, depth)
        grid = self.grids.get(sheet)
        if grid is None:
            raise _CannotEvaluate(f"no sheet {sheet!r}")
        value = grid.value(r, c)
        if isinstance(value, bool):
            return float(value)
        if isinstance(value, (int, float)):
            return float(value)
        return None if value is None or value == "" else str(value)

    def evaluate(self, sheet: str | None, r: int, c: int, depth: int = 0) -> float | None:
        key = (sheet, r, c)
        if key in self.values:
            return self.values[key]
        if key in self.busy or depth > _MAX_DEPTH:
            return None  # a circular reference, or a chain too deep to trust
        self.busy.add(key)
        try:
            value: float | None = _Parser(self, sheet, _tokens(self.formulas[sheet][(r, c)]),
                                          depth).parse()
            if value is not None and not math.isfinite(value):
                value = None
        except (_CannotEvaluate, LookupMiss, ZeroDivisionError, OverflowError, IndexError,
                ValueError, TypeError):
            value = None
        finally:
            self.busy.discard(key)
        self.values[key] = value
        return value


class _Parser:
    """Recursive descent over one formula's tokens (precedence: ^, then * /, then + -)."""

    def __init__(self, book: _Workbook, sheet: str | None, tokens: list[tuple[str, str]],
                 depth: int) -> None:
        self.book, self.sheet, self.tokens, self.depth, self.i = book, sheet, tokens, depth, 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise _CannotEvaluate("unexpected end")
        self.i += 1
        return token

    def parse(self) -> float:
        value = self.compare()
        if self.peek() is not None:
            raise _CannotEvaluate("trailing tokens")
        return value

    def _binary(self, ops: str, operand: Callable[[], float]) -> float:
        value = operand()
        while (token := self.peek()) is not None and token[0] == "op" and token[1] in ops:
            self.take()
            value = _apply(token[1], value, operand())
        return value

    def compare(self) -> float:
        """A comparison (1 when true, 0 when false, as IF reads it), or an expression."""
        value = self.expr()
        token = self.peek()
        if token is not None and token[0] == "op" and token[1] in _COMPARE:
            self.take()
            return 1.0 if _COMPARE[token[1]](value, self.expr()) else 0.0
        return value

    def expr(self) -> float:
        return self._binary("+-", self.term)

    def term(self) -> float:
        return self._binary("*/", self.power)

    def power(self) -> float:
        return self._binary("^", self.unary)

    def unary(self) -> float:
        token = self.peek()
        if token == ("op", "-"):
            self.take()
            return -self.unary()
        if token == ("op", "+"):
            self.take()
            return self.unary()
        value = self.primary()
        while self.peek() == ("op", "%"):
            self.take()
            value /= 100.0
        return value

    def primary(self) -> float:
        kind, text = self.take()
        if kind == "num":
            return float(text)
        if kind == "ref":
            values = self.ref_values(text)
            if len(values) != 1:
                raise _CannotEvaluate("a range outside a function")
            return values[0]
        if kind == "bool":
            return 1.0 if text.upper() == "TRUE" else 0.0
        if kind == "func":
            name = text.upper()
            if name == "IFERROR":
                return self.if_error()
            return self.lookup(name) if name in _LOOKUPS else self.function(name)
        if (kind, text) == ("op", "("):
            value = self.compare()
            if self.take() != ("op", ")"):
                raise _CannotEvaluate("unbalanced brackets")
            return value
        raise _CannotEvaluate(text)

    def function(self, name: str) -> float:
        args: list[list[float]] = []
        if self.peek() == ("op", ")"):
            self.take()
        else:
            while True:
                token = self.peek()
                nxt = self.tokens[self.i + 1] if self.i + 1 < len(self.tokens) else None
                if token is not None and token[0] == "ref" and nxt in (
                        ("op", ","), ("op", ";"), ("op", ")")):
                    self.take()
                    args.append(self.ref_values(token[1]))
                else:
                    args.append([self.compare()])
                sep = self.take()
                if sep == ("op", ")"):
                    break
                if sep not in (("op", ","), ("op", ";")):
                    raise _CannotEvaluate("bad argument list")
        flat = [v for arg in args for v in arg]
        if name in ("ROUND", "ROUNDUP", "ROUNDDOWN"):
            if len(args) != 2 or len(args[0]) != 1 or len(args[1]) != 1:
                raise _CannotEvaluate(name)
            digits = int(args[1][0])
            scale = 10.0 ** digits
            value = args[0][0] * scale
            rounded = {"ROUND": math.floor(abs(value) + 0.5) * (1 if value >= 0 else -1),
                       "ROUNDUP": math.ceil(abs(value)) * (1 if value >= 0 else -1),
                       "ROUNDDOWN": math.floor(abs(value)) * (1 if value >= 0 else -1)}[name]
            return rounded / scale
        if name == "ABS" and len(flat) == 1:
            return abs(flat[0])
        return _aggregate(name, flat)

    def if_error(self) -> float:
        """IFERROR(value, fallback): the value, or the fallback where the value cannot be
        worked out (a lookup that finds nothing, a division by zero)."""
        depth, spans, start = 0, [], self.i
        while self.i < len(self.tokens):
            token = self.tokens[self.i]
            if token[0] == "func" or token == ("op", "("):
                depth += 1
            elif token == ("op", ")"):
                if depth == 0:
                    break
                depth -= 1
            elif token in (("op", ","), ("op", ";")) and depth == 0:
                spans.append((start, self.i))
                start = self.i + 1
            self.i += 1
        spans.append((start, self.i))
        self.take()  # the closing bracket
        if len(spans) != 2:
            raise _CannotEvaluate("IFERROR needs two arguments")
        for first, last in spans:
            try:
                return _Parser(self.book, self.sheet, self.tokens[first:last],
                               self.depth).parse()
            except (_CannotEvaluate, LookupMiss, ZeroDivisionError, ValueError):
                continue
        raise _CannotEvaluate("IFERROR: neither argument")

    def lookup(self, name: str) -> float:
        """VLOOKUP, HLOOKUP, MATCH or INDEX: ranges as tables of raw cells, a key that may be
        text; the result must be a number."""
        args: list[Raw | Table] = []
        while True:
            args.append(self.raw_compare())
            sep = self.take()
            if sep == ("op", ")"):
                break
            if sep not in (("op", ","), ("op", ";")):
                raise _CannotEvaluate("bad argument list")
        result = _lookup(name, args)
        if not isinstance(result, float):
            raise _CannotEvaluate(f"{name} gives {result!r}, not a number")
        return result

    def raw_operand(self) -> Raw | Table:
        """A lookup's or IF's argument: a range (as a table), a text, or an expression."""
        token = self.peek()
        nxt = self.tokens[self.i + 1] if self.i + 1 < len(self.tokens) else None
        if token is not None and token[0] == "ref" and (nxt is None or nxt in (
                ("op", ","), ("op", ";"), ("op", ")")) or (nxt[0] == "op" and nxt[1] in _COMPARE)):
            self.take()
            table = self.ref_table(token[1])
            return table[0][0] if len(table) == 1 and len(table[0]) == 1 else table
        if token is not None and token[0] == "str":
            self.take()
            return token[1][1:-1].replace('""', '"')
        return self.expr()

    def raw_compare(self) -> Raw | Table:
        """An argument, or two compared ('B5=""', 'B8>=12'): 1 when true, 0 when false."""
        left = self.raw_operand()
        token = self.peek()
        if token is None or token[0] != "op" or token[1] not in _COMPARE:
            return left
        self.take()
        right = self.raw_operand()
        if isinstance(left, list) or isinstance(right, list):
            raise _CannotEvaluate("a range compared")
        if isinstance(left, str) or isinstance(right, str) or left is None or right is None:
            a, b = (str(x if x is not None else "").casefold() for x in (left, right))
            if token[1] not in ("=", "<>"):
                raise _CannotEvaluate("text ordered")
            return 1.0 if _COMPARE[token[1]](a, b) else 0.0
        return 1.0 if _COMPARE[token[1]](left, right) else 0.0

    def ref_table(self, text: str) -> Table:
        """A reference as rows of raw cells (a single cell is a 1 x 1 table)."""
        sheet, cells = self._cells(text)
        (r1, c1), (r2, c2) = cells if len(cells) == 2 else (cells[0], cells[0])
        if (abs(r2 - r1) + 1) * (abs(c2 - c1) + 1) > _MAX_RANGE_CELLS:
            raise _CannotEvaluate("range too large")
        return [[self.book.raw(sheet, r, c, self.depth) for c in range(min(c1, c2), max(c1, c2)
                                                                       + 1)]
                for r in range(min(r1, r2), max(r1, r2) + 1)]

    def _cells(self, text: str) -> tuple[str | None, list[tuple[int, int]]]:
        sheet: str | None = self.sheet
        if "!" in text:
            name, text = text.rsplit("!", 1)
            sheet = name[1:-1].replace("''", "'") if name.startswith("'") else name
        return sheet, [(int(m.group(2)) - 1, column_index(m.group(1)))
                       for m in _CELL_RE.finditer(text)]

    def ref_values(self, text: str) -> list[float]:
        sheet, cells = self._cells(text)
        if len(cells) == 1:
            return [self.book.cell(sheet, *cells[0], self.depth)]
        (r1, c1), (r2, c2) = cells
        if (abs(r2 - r1) + 1) * (abs(c2 - c1) + 1) > _MAX_RANGE_CELLS:
            raise _CannotEvaluate("range too large")
        out: list[float] = []
        for r in range(min(r1, r2), max(r1, r2) + 1):
            for c in range(min(c1, c2), max(c1, c2) + 1):
                value = self.book.cell(sheet, r, c, self.depth)
                out.append(value)
        return out


def _scalar(arg: Raw | Table) -> Raw:
    """A lookup's key or index: a value, or a one-cell reference's value."""
    if isinstance(arg, list):
        if len(arg) == 1 and len(arg[0]) == 1:
            return arg[0][0]
        raise _CannotEvaluate("a range where one value was expected")
    return arg


def _number(arg: Raw | Table) -> float:
    value = _scalar(arg)
    if not isinstance(value, float):
        raise _CannotEvaluate(f"{value!r} is not a number")
    return value


def _lookup(name: str, args: list[Raw | Table]) -> Raw:
    if name in ("AND", "OR", "NOT") and args:
        truths = [bool(_number(a)) for a in args]
        value = all(truths) if name == "AND" else any(truths) if name == "OR" else not truths[0]
        return 1.0 if value else 0.0
    if name == "CHOOSE" and len(args) >= 2:
        pick = int(_number(args[0]))
        if not 1 <= pick < len(args):
            raise LookupMiss("CHOOSE index outside its values")
        return _scalar(args[pick])
    if name == "SUMPRODUCT" and all(isinstance(a, list) for a in args):
        columns = [[c for row in a for c in row] for a in args if isinstance(a, list)]
        if len({len(c) for c in columns}) != 1:
            raise _CannotEvaluate("SUMPRODUCT of ranges of different sizes")
        total = 0.0
        for cells in zip(*columns, strict=True):
            product = 1.0
            for cell in cells:
                product *= cell if isinstance(cell, float) else 0.0  # text counts as 0
            total += product
        return total
    if name == "IF" and len(args) in (2, 3):
        taken = args[1] if _number(args[0]) else (args[2] if len(args) == 3 else 0.0)
        return _scalar(taken)
    table = args[1] if name in ("VLOOKUP", "HLOOKUP", "MATCH") and len(args) > 1 else args[0]
    if not isinstance(table, list):
        raise _CannotEvaluate(f"{name} without a range")
    if name in ("VLOOKUP", "HLOOKUP") and len(args) in (3, 4):
        exact = len(args) == 4 and not _number(args[3])  # FALSE or 0: an exact match
        find = vlookup if name == "VLOOKUP" else hlookup
        return find(_scalar(args[0]), table, _number(args[2]), exact)
    if name == "MATCH" and len(args) in (2, 3):
        mode = _number(args[2]) if len(args) == 3 else 1.0
        return float(match_position(_scalar(args[0]), as_vector(table), mode))
    if name == "INDEX" and len(args) in (2, 3):
        return index(table, _number(args[1]), _number(args[2]) if len(args) == 3 else None)
    raise _CannotEvaluate(f"{name} with {len(args)} arguments")


def _apply(op: str, left: float, right: float) -> float:
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    if op == "/":
        return left / right  # ZeroDivisionError: the cell stays empty
    return float(left ** right)


def _fmt(value: float) -> str:
    return f"{value:,.6g}" if abs(value) < 1e6 else f"{value:,.2f}"


def evaluate_formulas(grids: Sequence[SheetGrid],
                      formulas: dict[str | None, dict[tuple[int, int], str]]) -> None:
    """Fill each grid's formula cells that hold no value with the value their arithmetic
    gives, where it is plain arithmetic over numbers; say so once per sheet."""
    book = _Workbook(grids, formulas)
    for grid in grids:
        done: list[tuple[int, int, str, float]] = []
        for (r, c), formula in sorted(formulas.get(grid.name, {}).items()):
            if (r, c) not in grid.formula_cells_without_value:
                continue
            value = book.evaluate(grid.name, r, c)
            if value is None:
                continue
            value = round(value, 10)
            while len(grid.rows) <= r:
                grid.rows.append([])
            row = grid.rows[r]
            while len(row) <= c:
                row.append("")
            row[c] = int(value) if value.is_integer() and abs(value) < 1e15 else value
            grid.formula_cells_without_value.discard((r, c))
            done.append((r, c, formula, value))
        if done:
            cells = "; ".join(f"{grid.where(r, c).cell} ={f} -> {_fmt(v)}"
                              for r, c, f, v in done[:6])
            more = f" and {len(done) - 6} more" if len(done) > 6 else ""
            grid.problems.append(Problem(
                Location(grid.file, sheet=grid.name), severity="info", code="formula-evaluated",
                params={"count": len(done), "cells": cells + more}))
