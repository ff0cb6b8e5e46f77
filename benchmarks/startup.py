"""Start-up cost: median wall time of `evaltool --help` against `python -c "import click"`.

Target (issue 2): ratio at most 2.0. Run: .venv/bin/python benchmarks/startup.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 15
ROOT = Path(__file__).resolve().parents[1]


def median_seconds(cmd: list[str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    python = sys.executable
    evaltool = str(Path(python).with_name("evaltool"))
    if not Path(evaltool).exists():
        evaltool_cmd = [python, "-m", "evaltool.cli", "--help"]
    else:
        evaltool_cmd = [evaltool, "--help"]
    median_seconds(evaltool_cmd)  # warm the file cache
    click_s = median_seconds([python, "-c", "import click"])
    help_s = median_seconds(evaltool_cmd)
    ratio = help_s / click_s
    print(f"python -c 'import click': median {click_s * 1000:.0f} ms over {RUNS} runs")
    print(f"evaltool --help:          median {help_s * 1000:.0f} ms over {RUNS} runs")
    print(f"ratio: {ratio:.2f} (target <= 2.0) {'OK' if ratio <= 2.0 else 'OVER TARGET'}")


if __name__ == "__main__":
    main()
