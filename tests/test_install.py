"""The wheel: built from the repository, installed into a fresh virtual environment outside it, ruling there.

The wheel must carry the standard and example house books and the command line
inside the one package ``rulings`` (nothing generic such as a top-level ``cli``),
and find the books with importlib.resources wherever it is installed. The new
environment borrows only the third-party dependencies (PyYAML, Jinja2, pokerkit)
from the running one through a ``.pth`` line, so the test needs no network;
``rulings`` itself comes only from the wheel, and so does durable-rules: the
wheel's build compiles the copy the project carries (vendor/durable-rules) into
``rulings._durable``.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
INCIDENT = REPO / "examples" / "incidents" / "pl-silent-overchip.yaml"


def _run(cmd: list, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=300, **kw)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(REPO / name, src / name)
    for name in ("rulings", "cli", "rulebooks", "vendor"):
        shutil.copytree(REPO / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so"))
    dist = base / "dist"
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                  "-q", "-w", dist, src])
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = dist.glob("rulings-*.whl")

    venv = base / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", venv])
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    site = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip())
    import jinja2
    import markupsafe
    import pokerkit
    import yaml
    deps = sorted({str(Path(m.__file__).resolve().parents[1]) for m in (yaml, jinja2, markupsafe, pokerkit)})
    (site / "_rulings_test_deps.pth").write_text("\n".join(deps) + "\n")
    done = _run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-index", "--no-deps", wheel])
    assert done.returncode == 0, done.stdout + done.stderr
    work = base / "elsewhere"   # outside the repository, nothing beside it
    work.mkdir()
    shutil.copy(INCIDENT, work / INCIDENT.name)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["RULINGS_CACHE"] = str(base / "cache")
    return {"wheel": wheel, "venv": venv, "python": python, "site": site, "work": work, "env": env}


def _in_venv(installed: dict, *args: str) -> subprocess.CompletedProcess:
    exe = installed["venv"] / "bin" / args[0]
    return _run([exe, *args[1:]], cwd=installed["work"], env=installed["env"])


def test_the_wheel_carries_the_books_and_nothing_generic(installed):
    names = zipfile.ZipFile(installed["wheel"]).namelist()
    top = {n.split("/")[0] for n in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"rulings"}
    for book in ("standard/pot-limit.yaml", "standard/wagers.yaml", "houses/east-coast-limit.yaml",
                 "houses/pnw-lowball.yaml", "houses/tda-series.yaml"):
        assert f"rulings/rulebooks/{book}" in names
    assert "rulings/cli/main.py" in names and "rulings/__main__.py" in names
    assert "rulings/citations.yaml" in names and "rulings/report/templates/book.html" in names
    # the service's data: its contract, the podium's templates and static files, the store's migrations
    for data in ("API.md", "podium/templates/floor.html", "podium/templates/base.html", "podium/static/podium.css",
                 "podium/static/podium.js", "store/migrations/env.py", "store/migrations/versions/0001_ruling_log.py"):
        assert f"rulings/service/{data}" in names, data
    # durable-rules, built from the carried source: its C core and its Python host, inside the package
    assert any(n.startswith("rulings/_durable/durable_rules_engine.") and n.endswith(".so") for n in names)
    assert "rulings/_durable/engine.py" in names


def test_the_wheel_carries_every_file_of_the_package(installed):
    """A new subpackage, template or data file must be listed in pyproject.toml (packages, package-data)."""
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    expected = set()
    for folder, inside in (("rulings", "rulings"), ("cli", "rulings/cli"), ("rulebooks", "rulings/rulebooks"),
                           ("vendor/durable-rules/libpy/durable", "rulings/_durable")):
        for f in (REPO / folder).rglob("*"):
            if f.is_file() and "__pycache__" not in f.parts and f.suffix not in (".pyc", ".so"):
                expected.add(f"{inside}/{f.relative_to(REPO / folder).as_posix()}")
    assert sorted(expected - names) == []


def test_the_installed_command_rules_outside_the_repository(installed):
    out = _in_venv(installed, "rulings", "rule", INCIDENT.name, "--format", "json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    [wager] = [r for r in report["rulings"] if r["decides"] == "wager"]
    assert wager["effects"] == {"wager_to": 80, "returned": 420}
    assert wager["rule"] == "pot-limit.silent-overchip-is-pot-bet"
    assert {c["key"] for c in wager["citations"]} >= {"RRP-PL-6"}
    # named from the rulebooks folder, never by the install's absolute path (docs/report-contract.md)
    assert wager["origin"]["file"] == "rulebooks/standard/pot-limit.yaml"
    assert str(installed["site"]) not in out.stdout
    # the standard book, its compiled conditions and the catalogues came from the wheel's own checked copy
    # (rulings/shipped-book.bin): an empty cache folder is not a miss for the book the package came with
    cache = Path(installed["env"]["RULINGS_CACHE"])
    assert not list(cache.glob("book-*")) and not list(cache.glob("compiled-*")) and not list(cache.glob("data-*"))

    where = _in_venv(installed, "python", "-c", "import rulings, importlib.util as u; "
                     "print(rulings.__file__); print(u.find_spec('cli')); print(u.find_spec('durable')); "
                     "import rulings._durable.durable_rules_engine as d; print(d.__file__)")
    lines = where.stdout.splitlines()
    assert lines[:3] == [str(installed["site"] / "rulings" / "__init__.py"), "None", "None"], where.stderr
    assert lines[3].startswith(str(installed["site"] / "rulings" / "_durable" / "durable_rules_engine."))


def test_version_module_entry_and_lint_work_installed(installed):
    version = _in_venv(installed, "rulings", "--version")
    assert version.returncode == 0 and version.stdout.strip() == "rulings 0.1.0"
    text = _in_venv(installed, "python", "-m", "rulings", "rule", INCIDENT.name)
    assert text.returncode == 0 and "pot-size bet of $80; $420 goes back" in text.stdout
    lint = _in_venv(installed, "rulings", "lint")
    assert (lint.returncode, lint.stdout) == (0, "The standard book and 3 house books checked: no problems found\n"), lint.stderr
    hand = _in_venv(installed, "python", "-c", "from rulings.incident.cards import read_cards as r; "
                    "from rulings.facts.strength import strength; "
                    "print(strength(r('AhKh'), r('QhJhTh2c3d')))")
    assert hand.stdout.strip() == "Straight flush (AhKhQhJhTh)", hand.stderr
    house = _in_venv(installed, "rulings", "rule", INCIDENT.name, "--house", "tda-series", "--format", "json")
    assert house.returncode == 0 and json.loads(house.stdout)["rulebook"] == "tda-series"


def test_an_install_without_its_standard_book_is_a_load_error(installed):
    """Last in this module: it empties the installed standard book."""
    standard = installed["site"] / "rulings" / "rulebooks" / "standard"
    for f in standard.glob("*.yaml"):
        f.unlink()
    out = _in_venv(installed, "rulings", "rule", INCIDENT.name)
    assert out.returncode == 1
    assert "error R001: the standard rulebook has no topic files" in out.stderr
    assert "Traceback" not in out.stderr and "No rule" not in out.stdout
