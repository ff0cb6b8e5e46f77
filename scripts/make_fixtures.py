"""Regenerate the report fixtures from the real pipeline (tests/test_fixtures.py checks drift).

    python scripts/make_fixtures.py          # rewrite tests/fixtures/score_report_sample.json
    python scripts/make_fixtures.py --check  # exit 1 when the fixture differs from the pipeline

The fixture is the `score` JSON of the bundled sample offers with the bundled workload and
rates, on a fixed decision date and seed, so report tests exercise what users really get.
"""

from __future__ import annotations

import datetime as dt
import difflib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaltool.api import score_files  # noqa: E402
from evaltool.report.render import report_to_json  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "score_report_sample.json"
AS_OF = dt.date(2026, 11, 20)


def sample_report_json() -> str:
    offers = sorted(p for p in (ROOT / "offers").iterdir()
                    if p.suffix in (".xlsx", ".yaml") and p.stem not in ("workload", "fx-rates"))
    report = score_files(offers, workload=ROOT / "offers" / "workload.yaml",
                         fx={"EUR": 1.08}, as_of=AS_OF, seed=0)
    text = report_to_json(report)
    # Paths relative to the checkout, so the fixture is the same on every machine.
    return text.replace(str(ROOT) + "/", "")


def fixture_drift(context: int = 2, limit: int = 60) -> list[str]:
    """How the stored fixture differs from what the pipeline writes now (a unified diff cut
    to `limit` lines); [] when it is up to date."""
    stored = FIXTURE.read_text(encoding="utf-8") if FIXTURE.is_file() else ""
    fresh = sample_report_json()
    if stored == fresh:
        return []
    diff = list(difflib.unified_diff(
        stored.splitlines(), fresh.splitlines(), "stored fixture", "pipeline now",
        n=context, lineterm=""))
    return diff[:limit] + ([f"... {len(diff) - limit} more lines"] if len(diff) > limit else [])


def main(argv: list[str]) -> int:
    if "--check" in argv:
        drift = fixture_drift()
        print("\n".join(drift) if drift else "fixture up to date")
        if drift:
            print(f"{FIXTURE} differs from the pipeline: run python scripts/make_fixtures.py")
        return 1 if drift else 0
    text = sample_report_json()
    FIXTURE.write_text(text, encoding="utf-8")
    print(f"wrote {FIXTURE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
