"""Print how many scenarios of tests/scenarios/ the current code gets right.

    python scripts/scenario_bank.py [NAME...]

A scenario is right when its winner and every money figure are within tolerance; each
failing check is listed so a fix can go by class.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # this checkout's evaltool, and the runner

from scenario_bank import check_scenario, scenario_dirs, scenario_passes  # noqa: E402


def main(names: list[str]) -> int:
    right = 0
    total_checks = ok_checks = 0
    folders = [d for d in scenario_dirs() if not names or d.name in names]
    for folder in folders:
        try:
            checks = check_scenario(folder)
        except Exception as exc:  # a scenario the code cannot run counts as wrong
            print(f"ERROR {folder.name}: {type(exc).__name__}: {exc}")
            continue
        passed = scenario_passes(checks)
        right += passed
        total_checks += len(checks)
        ok_checks += sum(c.ok for c in checks)
        print(f"{'PASS' if passed else 'FAIL'} {folder.name}")
        for c in checks:
            if not c.ok:
                print(f"    {c.what}: {c.detail}")
    print(f"scenarios right: {right}/{len(folders)}; checks right: {ok_checks}/{total_checks}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
