"""ruff and mypy, configured in pyproject.toml, pass on the code (so `.ci/run` runs them)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _tool(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True, timeout=300)


def test_ruff_finds_nothing():
    out = _tool("ruff", "check", "--no-cache", ".")
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_finds_nothing():
    out = _tool("mypy")   # files and options: [tool.mypy] in pyproject.toml
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Success: no issues found" in out.stdout
