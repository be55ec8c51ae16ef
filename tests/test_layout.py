"""The layout rules of docs/architecture.md that a machine can check, read from the code's own imports."""
from __future__ import annotations

import ast
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


def test_every_module_is_on_the_map():
    """docs/architecture.md names every module under rulings/ and cli/."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    missing = [str(p.relative_to(REPO)) for p in CODE
               if p.name != "__init__.py" and "service" not in p.parts and str(p.relative_to(REPO)) not in text]
    assert missing == []
