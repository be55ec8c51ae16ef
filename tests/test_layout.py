"""The layout rules of docs/architecture.md that a machine can check, read from the code's own imports."""
from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CODE = sorted((REPO / "rulings").rglob("*.py")) + sorted((REPO / "cli").rglob("*.py"))


def _imports(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}
    return out


def _top(names: set[str]) -> set[str]:
    return {n.split(".")[0] for n in names}


DURABLE = {"durable", "durable_rules_engine"}   # durable-rules' names, as PyPI's release installs them


def _durable(names: set[str]) -> bool:
    """Whether these imports reach durable-rules: the carried copy (rulings._durable) or a release's names."""
    return bool(_top(names) & DURABLE) or any(n == "rulings._durable" or n.startswith("rulings._durable.")
                                                for n in names)


def test_only_the_engine_module_imports_durable_rules():
    users = sorted(str(p.relative_to(REPO)) for p in CODE if _durable(_imports(p)))
    assert users == ["rulings/engine.py"]


def test_durable_rules_is_the_carried_copy():
    """The engine imports the copy built from vendor/durable-rules, never a durable-rules installed beside it."""
    imported = _imports(REPO / "rulings" / "engine.py")
    assert not _top(imported) & DURABLE
    assert {"rulings._durable.durable_rules_engine", "rulings._durable.engine"} <= imported


def test_the_betting_arithmetic_imports_no_engine_yaml_or_templates():
    for path in sorted((REPO / "rulings" / "betting").glob("*.py")):
        imported = _imports(path)
        assert not _top(imported) & {"yaml", "jinja2"} and not _durable(imported), path.name
        inside = {n for n in imported if n.startswith("rulings.")}
        assert all(n.startswith(("rulings.betting", "rulings.money")) for n in inside), (path.name, inside)


ARCH = REPO / "docs" / "architecture.md"


def _only_docstring_and_imports(path: Path) -> bool:
    """A package's ``__init__.py`` with nothing of its own: a docstring and re-exports at most."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    return all(isinstance(n, (ast.Import, ast.ImportFrom)) or
               (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str))
               for n in body)


def _paths_named(text: str) -> set[str]:
    """Every path the page names in backticks: a file with an extension, or a folder ending in '/'."""
    return {t for t in re.findall(r"`([^`\s]+)`", text)
            if re.fullmatch(r"[\w.*/-]+(\.(py|yaml|md|json|bin|toml)|/)", t) and not t.startswith("/")}


def test_every_module_is_on_the_map():
    """docs/architecture.md names every module under rulings/ and cli/ by its path, save what its own rule leaves
    out: a package's __init__.py that is only a docstring and re-exports, and the files of a folder that a table
    row names as a whole."""
    text = ARCH.read_text(encoding="utf-8")
    whole = re.findall(r"^\| `([^`]+/)` \|", text, flags=re.M)
    assert "rulings/service/migrations/versions/" in whole
    missing = [rel for p in CODE
               if (rel := p.relative_to(REPO).as_posix()) not in text
               and not (p.name == "__init__.py" and _only_docstring_and_imports(p))
               and not any(rel.startswith(folder) for folder in whole)]
    assert missing == []


def test_every_path_on_the_map_exists():
    """Each file or folder docs/architecture.md names is there: by its path from the repository, or, named bare
    (``fields.py`` after ``rulings/incident/``), at its top or somewhere in its own folders."""
    named = _paths_named(ARCH.read_text(encoding="utf-8"))
    assert {"rulings/engine.py", "rulings/service/guard.py", "rulings/templates/", "fields.py"} <= named
    own = [REPO / d for d in ("rulings", "cli", "rulebooks", "scripts", "docs", "tests", "schemas", "benchmarks",
                              "vendor")]
    absent = [t for t in sorted(named)
              if not (list(REPO.glob(t.rstrip("/"))) if "/" in t else (REPO / t).exists() or any(next(d.rglob(t), None) for d in own))]
    assert absent == []
