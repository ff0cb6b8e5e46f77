"""Install anywhere: the built wheel, in a fresh virtual environment outside the checkout,
runs `evaltool demo` on the sample offers it carries (README "Install").

The wheel is built from this checkout; the fresh environment borrows the already-installed
third-party dependencies through a path file (so the test needs no network), but evaltool
itself, its data, rubrics, templates and sample offers come only from the wheel.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def _run(*args: str | Path, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    build = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, ROOT,
                 cwd=out)
    wheels = list(out.glob("evaltool-*.whl"))
    if build.returncode != 0 or not wheels:
        pytest.skip(f"no wheel could be built here (offline, no hatchling?): {build.stderr[-300:]}")
    return wheels[0]


@pytest.fixture(scope="module")
def fresh_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    made = _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=venv.parent)
    assert made.returncode == 0, made.stderr
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    installed = _run(sys.executable, "-m", "pip", "--python", python, "install", "-q",
                     "--no-deps", "--no-index", wheel, cwd=venv.parent)
    assert installed.returncode == 0, installed.stderr
    site = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                cwd=venv.parent).stdout.strip()
    # The dependencies the test runner already has; plain paths, so that no .pth in them
    # (an editable evaltool) is processed: evaltool comes from the wheel alone.
    borrowed = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site) / "zz_borrowed_dependencies.pth").write_text("\n".join(sorted(borrowed)) + "\n")
    return venv


def test_the_wheel_carries_the_samples_the_types_and_the_license(wheel: Path) -> None:
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    assert "evaltool/py.typed" in names
    assert "evaltool/sample_offers/workload.yaml" in names
    assert any(n.startswith("evaltool/sample_offers/") and n.endswith(".xlsx") for n in names)
    assert "evaltool/rubrics/llm-pretraining.yaml" in names
    assert any(n.endswith("licenses/LICENSE") for n in names)


def test_evaltool_demo_runs_from_the_installed_wheel(fresh_venv: Path, tmp_path: Path) -> None:
    bindir = fresh_venv / ("Scripts" if os.name == "nt" else "bin")
    where = _run(bindir / "python", "-c", "import evaltool; print(evaltool.__file__)",
                 cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(fresh_venv)  # not this checkout

    demo = _run(bindir / "evaltool", "demo", "trial", cwd=tmp_path)
    # 0, or 3 where the PDF backend (Pango) is missing: the other outputs are still written
    assert demo.returncode in (0, 3), demo.stderr
    assert "NimbusGPU" in demo.stdout
    scores = json.loads((tmp_path / "trial/out/scores.json").read_text(encoding="utf-8"))
    assert len(scores["offers"]) >= 5 and scores["not_evaluated"] == []
    assert (tmp_path / "trial/out/scores.xlsx").stat().st_size > 0
    if demo.returncode == 0:
        assert (tmp_path / "trial/out/memo.pdf").read_bytes()[:5] == b"%PDF-"

    module = _run(bindir / "python", "-m", "evaltool", "--version", cwd=tmp_path)
    assert module.returncode == 0 and "0." in module.stdout
