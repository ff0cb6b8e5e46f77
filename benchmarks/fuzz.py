"""Mutation fuzzing through the real pipeline: one bad file must never take a batch down.

Every case is a batch: one mutated offer file (a workbook, CSV, YAML or JSON seed with hostile
values, deleted keys, corrupt bytes or far-away cells) beside two good sample offers, scored
with `evaltool.score_files` and exported to JSON.  A case passes when the run returns, every
input file is accounted for (among the offers or in `not_evaluated`), both good offers are
scored, no internal error is reported, offer ids are unique and it took under 30 s.

Cases run in worker processes with a 3 GiB address-space limit; a worker that dies (a native
abort, an allocation the limit refuses) or hangs past 60 s counts as an aborted batch and is
replaced, and so is a worker after an aborted case or every 100 cases (so that one case's
leftovers never fail the next).  Prints: cases tried, aborted batches, lost inputs, good
offers dropped, internal errors, duplicate ids, runs over 30 s, the slowest case, and a sample
of each failure class.

Run: PYTHONPATH=. .venv/bin/python benchmarks/fuzz.py [CASES] [--seed N] [--workers N]
"""

from __future__ import annotations

import collections
import contextlib
import datetime as dt
import io
import json
import multiprocessing as mp
import os
import random
import shutil
import sys
import tempfile
import time
import traceback
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GOOD = [ROOT / "offers" / "nimbusgpu-h100-ib.xlsx", ROOT / "offers" / "cumulus-tpu-v5p.yaml"]
SEEDS = [
    *sorted((ROOT / "offers").glob("*.xlsx")),
    *[p for p in sorted((ROOT / "offers").glob("*.yaml"))
      if p.name not in ("workload.yaml", "fx-rates.yaml")],
    *[p for p in sorted((ROOT / "tests" / "offers_corpus").iterdir())
      if p.suffix in (".xlsx", ".xlsm", ".csv", ".yaml", ".json")
      and p.name not in ("billion_laughs.yaml", "empty.xlsx", "not_a_workbook.xlsx")],
]
SLOW_S = 30.0
HANG_S = 60.0
MEMORY_LIMIT = 3 * 1024**3
RECYCLE_AFTER = 100  # cases per worker process, so one case's leftovers never hit another

HOSTILE: list[Any] = [
    "2027-02-30", "31.02.2027", "0000-00-00", "9999-12-31", dt.date(1, 1, 1),
    "0", 0, -1, "-0", "1e308", "1e400", "NaN", "inf", "-inf", float("nan"), float("inf"),
    10**30, -(10**30), 2**63, 1e-300, "", " ", "\x00", "A\x00B", "9" * 50_000, "1" * 400,
    "x" * 100_000, "€", "24,80 € / Knoten / h", "$19.92 per node-hour", "per node",
    "EUR 1,000.00", "1.234.567,89", "12 months", "0 months", "∞", "½", "٣٤", "\u202eevil",
    "=cmd|' /C calc'!A0", "<script>alert(1)</script>", "\x1b[31mred\x1b[0m", "H100" * 1000,
    " x ".join(["8"] * 2000), "(" * 5000, "1,2,3" * 3000, True, False, None,
    "GBP 2.10 per GPU-hour", "CHF 3 per GPU hour", "¥ 300 / GPU-h", "2.49 per node",
    "per GPU-hour", "0 GPUs", "-8", "8.5", "1e6 GPUs", "H100 B200 MI300X TPU-v5p",
    "99.999999999999999999%", "-5%", "1000%", "0 months amortisation",
]
HOSTILE_KEYS = ["params_b", "fx", "categories", "criteria", "offers", "kind", "name", "\x00",
                "a" * 10_000, "gpus per node", "amortization months", "currency"]
TARGETED_LABELS = ("amort", "per node", "gpus per node", "currency", "valid", "date", "price",
                   "rate", "gpu", "node", "capex", "term")


# --- mutators ------------------------------------------------------------------------------

def _hostile(rng: random.Random) -> Any:
    return rng.choice(HOSTILE)


def _mutate_tree(data: Any, rng: random.Random) -> Any:
    """Replace, delete or add one leaf of a YAML/JSON tree (several times)."""
    for _ in range(rng.randint(1, 3)):
        paths: list[tuple[Any, Any]] = []

        stack: list[tuple[Any, Any, Any]] = [(data, None, None)]
        while stack:
            node, parent_node, node_key = stack.pop()
            paths.append((parent_node, node_key))
            if isinstance(node, dict):
                stack.extend((v, node, k) for k, v in node.items())
            elif isinstance(node, list):
                stack.extend((v, node, i) for i, v in enumerate(node))
        targeted = [(p, k) for p, k in paths if isinstance(k, str)
                    and any(t in k.lower() for t in TARGETED_LABELS)]
        parent, key = rng.choice(targeted if targeted and rng.random() < 0.5 else paths)
        op = rng.random()
        if parent is None:
            if op < 0.1:
                data = rng.choice([[], {}, {"offers": []}, "text", 42, None,
                                   {"params_b": 70, "kind": "pretraining"},
                                   {"fx": {"EUR": 1.2}}, [[[[[]]]]]])
            continue
        if op < 0.55:
            parent[key] = _hostile(rng)
        elif op < 0.7:
            if isinstance(parent, dict):
                parent.pop(key, None)
            else:
                parent.pop(key)
        elif op < 0.8:
            nested: Any = "deep"
            for _ in range(rng.choice([50, 500, 5000])):
                nested = [nested] if rng.random() < 0.5 else {"k": nested}
            parent[key] = nested
        elif isinstance(parent, dict):
            parent[rng.choice(HOSTILE_KEYS)] = _hostile(rng)
        else:
            parent.append(_hostile(rng))
    return data


def _dump_tree(data: Any, suffix: str) -> bytes:
    import yaml

    if suffix == ".json":
        return json.dumps(data, default=str).encode()
    try:
        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode()
    except (yaml.YAMLError, RecursionError, ValueError):
        return json.dumps(data, default=str).encode()


def _mutate_bytes(raw: bytes, rng: random.Random) -> bytes:
    data = bytearray(raw)
    for _ in range(rng.randint(1, 8)):
        op = rng.random()
        pos = rng.randrange(max(len(data), 1))
        if op < 0.35 and data:
            data[pos] = rng.randrange(256)
        elif op < 0.55:
            data[pos:pos] = rng.choice([b"\x00", b"\x00" * 100, b"\xff\xfe", b"\n- [", b": &a [",
                                        b"*a", b"\r", b'"', b"{{{{", b"9" * 5000])
        elif op < 0.75 and data:
            del data[pos:pos + rng.randint(1, 64)]
        elif op < 0.85:
            data = data[:pos]
        else:
            data[pos:pos] = data[pos:pos + rng.randint(1, 400)]
    return bytes(data)


def _mutate_csv(raw: bytes, rng: random.Random) -> bytes:
    import csv

    text = raw.decode("utf-8", "replace")
    rows = list(csv.reader(io.StringIO(text)))
    for _ in range(rng.randint(1, 4)):
        if not rows:
            break
        op = rng.random()
        r = rng.randrange(len(rows))
        if op < 0.6 and rows[r]:
            rows[r][rng.randrange(len(rows[r]))] = str(_hostile(rng))
        elif op < 0.75:
            rows.pop(r)
        elif op < 0.9:
            rows.extend(list(row) for row in rows[1:] * rng.choice([1, 10, 100]))
        else:
            rows[r].extend(str(_hostile(rng)) for _ in range(rng.randint(1, 30)))
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode()


def _mutate_workbook(path: Path, rng: random.Random) -> bytes:
    from openpyxl import load_workbook

    wb = load_workbook(path)
    sheets = wb.worksheets
    for _ in range(rng.randint(1, 4)):
        ws = rng.choice(sheets)
        cells = [c for row in ws.iter_rows() for c in row if c.value is not None]
        op = rng.random()
        if op < 0.6 and cells:
            targeted = [c for c in cells
                        if any(t in str(ws.cell(c.row, max(c.column - 1, 1)).value).lower()
                               for t in TARGETED_LABELS)]
            cell = rng.choice(targeted if targeted and rng.random() < 0.5 else cells)
            value = _hostile(rng)
            if isinstance(value, str):
                value = value[:32_000]  # Excel's cell limit; openpyxl enforces it
                value = "".join(ch for ch in value if ch >= " " or ch in "\t\n")
            if isinstance(value, int) and abs(value) > 2**53:
                value = str(value)
            try:
                cell.value = value
            except (ValueError, TypeError):
                cell.value = str(value)
        elif op < 0.75 and ws.max_row > 1:
            ws.delete_rows(rng.randint(1, ws.max_row))
        elif op < 0.8:
            ws[rng.choice(["XFD5000", "XFD1048576", "A1048576", "ZZ20000", "AMJ1"])] = "far"
            break  # openpyxl's own row and column edits would walk the whole far range
        elif op < 0.9:
            ws.insert_cols(1)
        else:
            new = wb.create_sheet(rng.choice(["Contract", "Pricing", "Sheet2", "Notes"]))
            new["A1"] = rng.choice(["Price per GPU hour", "Vendor", "GPUs", "Terms"])
            new["B1"] = str(_hostile(rng))[:1000]
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _corrupt_zip(raw: bytes, rng: random.Random) -> bytes:
    """Flip bytes inside one deflated member (a corrupt deflate stream) or the directory."""
    data = bytearray(raw)
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            infos = archive.infolist()
    except zipfile.BadZipFile:
        return _mutate_bytes(raw, rng)
    info = rng.choice(infos)
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    end = start + info.compress_size
    for _ in range(rng.randint(1, 6)):
        if end > start:
            data[rng.randrange(start, end)] = rng.randrange(256)
    if rng.random() < 0.2:
        data = data[:rng.randrange(len(data))]
    return bytes(data)


def _mutate(source: Path, suffix: str, raw: bytes, rng: random.Random) -> bytes:
    """The mutated bytes of one seed file (may raise; the caller then mutates bytes)."""
    import yaml

    if suffix in (".xlsx", ".xlsm"):
        choice = rng.random()
        if choice < 0.6:
            return _mutate_workbook(source, rng)
        if choice < 0.85:
            return _corrupt_zip(raw, rng)
        return _mutate_bytes(raw, rng)
    if suffix == ".csv":
        return _mutate_csv(raw, rng) if rng.random() < 0.7 else _mutate_bytes(raw, rng)
    if rng.random() < 0.7:
        try:
            tree = yaml.safe_load(raw) if suffix != ".json" else json.loads(raw)
        except (yaml.YAMLError, ValueError):
            tree = {}
        return _dump_tree(_mutate_tree(tree, rng), suffix)
    return _mutate_bytes(raw, rng)


_FAR_CELLS = [(4_999, 16_383), (1_048_575, 16_383), (1_048_575, 0), (19_999, 701), (0, 1_023)]


def _other_workbook(rng: random.Random, out_dir: Path, index: int) -> Path:
    """A tiny .ods, .xlsb or .xls quote, written byte by byte (tests/hostile_workbooks.py), with a
    far cell in two cases of three: the formats whose extents are read from their own
    structure before calamine allocates."""
    sys.path.insert(0, str(ROOT / "tests"))
    from hostile_workbooks import write_ods, write_xls, write_xlsb

    cells = {(0, 0): "Vendor", (0, 1): f"Fuzz Cloud {index}", (1, 0): "Accelerator",
             (1, 1): rng.choice(["H100 SXM", "MI300X", "B200"]), (2, 0): "GPU count",
             (2, 1): str(8 * rng.randrange(1, 200)), (3, 0): "Price per GPU-hour",
             (3, 1): f"${rng.uniform(0.5, 6):.2f}"}
    writer, suffix = rng.choice([(write_ods, ".ods"), (write_xlsb, ".xlsb"), (write_xls, ".xls")])
    if rng.random() < 0.67:
        row, col = rng.choice(_FAR_CELLS)
        if suffix == ".xls":  # BIFF8's own bounds
            row, col = min(row, 65_535), min(col, 255)
        cells[(row, col)] = "far"
    folder = out_dir / f"case{index}"
    folder.mkdir(parents=True, exist_ok=True)
    path = writer(folder / f"quote{suffix}", cells)
    if rng.random() < 0.3:  # and some of them damaged
        path.write_bytes(_mutate_bytes(path.read_bytes(), rng))
    return path


def make_case(index: int, seed: int, out_dir: Path) -> Path:
    """Write case `index`'s mutated file into out_dir; return its path."""
    rng = random.Random(seed * 1_000_003 + index)
    if rng.random() < 0.05:
        return _other_workbook(rng, out_dir, index)
    source = rng.choice(SEEDS)
    suffix = source.suffix.lower()
    raw = source.read_bytes()
    try:
        data = _mutate(source, suffix, raw, rng)
    except (Exception, RecursionError):  # the mutator's own failure: mutate the bytes instead
        data = _mutate_bytes(raw, rng)
    # Some cases reuse a good offer's file name in another folder (ids must stay unique).
    name = source.name
    if rng.random() < 0.1:
        name = rng.choice(GOOD).name if suffix in (".xlsx", ".yaml") else name
        if Path(name).suffix != suffix:
            name = source.name
    folder = out_dir / f"case{index}"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(data)
    return path


# --- one case -------------------------------------------------------------------------------

def run_case(index: int, seed: int, work: Path) -> dict[str, Any]:
    from evaltool.errors import EvaltoolError
    from evaltool.pipeline import score_files
    from evaltool.report.render import report_to_json

    case_dir = work / f"c{index}"
    try:
        mutated = make_case(index, seed, case_dir)
    except Exception as exc:  # a mutator bug is not a finding about evaltool
        return {"index": index, "skipped": f"{type(exc).__name__}: {exc}"}
    good_dir = case_dir / "good"
    good_dir.mkdir()
    goods = []
    for path in GOOD:
        copy = good_dir / path.name
        shutil.copyfile(path, copy)
        goods.append(copy)
    inputs = [mutated, *goods]
    fx = ["EUR=1.08"] if index % 2 == 0 else []
    result: dict[str, Any] = {"index": index, "file": str(mutated.relative_to(work)),
                              "seed_file": None}
    start = time.perf_counter()
    try:
        report = score_files(inputs, fx=fx, draws=200, seed=index)
        report_to_json(report)
    except EvaltoolError as exc:
        result["aborted"] = f"{type(exc).__name__}: {str(exc)[:300]}"
        result["seconds"] = time.perf_counter() - start
        return result
    except (Exception, BaseException) as exc:  # a native panic is a BaseException
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        result["aborted"] = f"{type(exc).__name__}: {str(exc)[:300]}"
        result["internal"] = _innermost(exc)
        result["seconds"] = time.perf_counter() - start
        return result
    result["seconds"] = time.perf_counter() - start
    scored_files = {str(o.source.get("file")) for o in report.offers}
    listed = {str(n.source.get("file")) for n in report.not_evaluated}
    result["lost"] = [str(p.relative_to(work)) for p in inputs
                      if str(p) not in scored_files | listed]
    result["good_dropped"] = [p.name for p in goods if str(p) not in scored_files]
    codes = [str(e.get("code")) for n in report.not_evaluated for e in n.errors]
    result["internal_codes"] = [c for c in codes if c.startswith("internal")]
    ids = [o.id for o in report.offers]
    result["duplicate_ids"] = len(ids) - len(set(ids))
    return result


def _innermost(exc: BaseException) -> str:
    """The exception and the innermost evaltool line it passed through: its failure class."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "evaltool" in f.filename]
    where = ""
    if frames:
        frame = frames[-1]
        where = f" at {Path(frame.filename).name}:{frame.lineno} ({frame.name})"
    return f"{type(exc).__name__}{where}: {str(exc)[:120]}"


def _worker(conn: Any, seed: int, work: str) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)  # native panics print to stderr; the summary says what happened
    while True:
        index = conn.recv()
        if index is None:
            return
        result: dict[str, Any]
        try:
            result = run_case(index, seed, Path(work))
        except MemoryError:
            result = {"index": index, "aborted": "MemoryError (over the 3 GiB limit)",
                      "seconds": 0.0}
        finally:
            shutil.rmtree(Path(work) / f"c{index}", ignore_errors=True)
        conn.send(result)


def run_all(cases: int, seed: int, workers: int) -> list[dict[str, Any]]:
    ctx = mp.get_context("fork")
    work = Path(tempfile.mkdtemp(prefix="evaltool-fuzz-"))
    pending = collections.deque(range(cases))
    results: list[dict[str, Any]] = []

    def start() -> tuple[Any, Any]:
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(child, seed, str(work)), daemon=True)
        proc.start()
        return proc, parent

    slots: list[list[Any]] = []  # [process, pipe, index or None, started, cases run]
    for _ in range(workers):
        proc, pipe = start()
        slots.append([proc, pipe, None, 0.0, 0])
    done_at = time.perf_counter()
    try:
        while pending or any(s[2] is not None for s in slots):
            for slot in slots:
                proc, pipe, index, began, _ = slot
                if index is None and pending:
                    slot[2] = pending.popleft()
                    slot[3] = time.perf_counter()
                    pipe.send(slot[2])
                    continue
                if index is None:
                    continue
                if pipe.poll(0.01):
                    try:
                        answer = pipe.recv()
                    except EOFError:
                        answer = {"index": index, "aborted": "worker died",
                                  "seconds": time.perf_counter() - began}
                    results.append(answer)
                    slot[2] = None
                    slot[4] += 1
                    if "aborted" in answer or "skipped" in answer or slot[4] >= RECYCLE_AFTER:
                        with contextlib.suppress(BrokenPipeError, OSError):
                            pipe.send(None)
                        proc.join(timeout=5)
                        if proc.is_alive():
                            proc.kill()
                        slot[0], slot[1] = start()
                        slot[4] = 0
                elif not proc.is_alive():
                    results.append({"index": index, "seconds": time.perf_counter() - began,
                                    "aborted": f"process killed (exit {proc.exitcode})"})
                    slot[0], slot[1] = start()
                    slot[2] = None
                elif time.perf_counter() - began > HANG_S:
                    proc.kill()
                    results.append({"index": index, "seconds": time.perf_counter() - began,
                                    "aborted": f"no answer after {HANG_S:.0f} s"})
                    slot[0], slot[1] = start()
                    slot[2] = None
            if time.perf_counter() - done_at > 30:
                done_at = time.perf_counter()
                worst = max((r.get("seconds", 0.0) for r in results), default=0.0)
                print(f"  ... {len(results)} of {cases} cases; so far "
                      f"{sum('aborted' in r for r in results)} aborted, "
                      f"{sum(bool(r.get('lost')) for r in results)} with lost inputs, "
                      f"{sum(bool(r.get('internal') or r.get('internal_codes')) for r in results)}"
                      f" internal, {sum(r.get('seconds', 0) > SLOW_S for r in results)} over "
                      f"{SLOW_S:.0f} s, slowest {worst:.1f} s", file=sys.stderr, flush=True)
    finally:
        for proc, pipe, *_ in slots:
            with contextlib.suppress(BrokenPipeError, OSError):
                pipe.send(None)
            proc.join(timeout=2)
            if proc.is_alive():
                proc.kill()
        shutil.rmtree(work, ignore_errors=True)
    return results


def describe_case(index: int, seed: int) -> str:
    """How case `index` was built (its seed file), for the printed samples."""
    rng = random.Random(seed * 1_000_003 + index)
    if rng.random() < 0.05:  # as make_case draws: a byte-built .ods/.xlsb/.xls
        return "a written .ods/.xlsb/.xls"
    return rng.choice(SEEDS).name


def main() -> None:
    args = sys.argv[1:]
    cases = int(args[0]) if args and args[0].isdigit() else 5000
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
    workers = int(args[args.index("--workers") + 1]) if "--workers" in args \
        else max(1, (os.cpu_count() or 2))
    began = time.perf_counter()
    results = run_all(cases, seed, workers)
    wall = time.perf_counter() - began
    tried = [r for r in results if "skipped" not in r]
    aborted = [r for r in tried if "aborted" in r]
    lost = [r for r in tried if r.get("lost")]
    dropped = [r for r in tried if r.get("good_dropped")]
    internal = [r for r in tried if r.get("internal") or r.get("internal_codes")]
    dupes = [r for r in tried if r.get("duplicate_ids")]
    slow = [r for r in tried if r.get("seconds", 0) > SLOW_S]
    slowest = max(tried, key=lambda r: r.get("seconds", 0.0)) if tried else None
    print(f"fuzz: seed {seed}, {workers} workers, {wall:.0f} s wall")
    print(f"cases tried:          {len(tried)}  (skipped by the mutator: "
          f"{len(results) - len(tried)})")
    print(f"aborted batches:      {len(aborted)}")
    print(f"lost inputs:          {sum(len(r['lost']) for r in lost)}")
    print(f"good offers dropped:  {sum(len(r['good_dropped']) for r in dropped)}")
    print(f"internal errors:      {len(internal)}")
    print(f"duplicate offer ids:  {len(dupes)}")
    print(f"runs over {SLOW_S:.0f} s:       {len(slow)}")
    if slowest:
        print(f"slowest case:         #{slowest['index']} ({describe_case(slowest['index'], seed)}"
              f") {slowest.get('seconds', 0):.2f} s")
    skipped = [r for r in results if "skipped" in r]
    for title, group, key in (("skipped by the mutator", skipped, "skipped"),
                              ("aborted", aborted, "aborted"), ("lost", lost, "lost"),
                              ("good dropped", dropped, "good_dropped"),
                              ("internal", internal, "internal"),
                              ("duplicate ids", dupes, "duplicate_ids")):
        if not group:
            continue
        classes = collections.Counter(str(r.get(key) or r.get("internal_codes"))[:160]
                                      for r in group)
        print(f"\n{title}: {len(group)} cases, by message:")
        for text, count in classes.most_common(12):
            example = next(r for r in group
                           if str(r.get(key) or r.get("internal_codes"))[:160] == text)
            print(f"  {count:5d}  {text!s}  (e.g. #{example['index']} "
                  f"{describe_case(example['index'], seed)})")
    sys.exit(0)


if __name__ == "__main__":
    main()
