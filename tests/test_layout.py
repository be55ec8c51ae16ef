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
    assert users == ["rulings/engine/rulesets.py"]


def test_durable_rules_is_the_carried_copy():
    """The engine imports the copy built from vendor/durable-rules, never a durable-rules installed beside it."""
    imported = _imports(REPO / "rulings" / "engine" / "rulesets.py")
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
    assert "rulings/service/store/migrations/versions/" in whole
    missing = [rel for p in CODE
               if (rel := p.relative_to(REPO).as_posix()) not in text
               and not (p.name == "__init__.py" and _only_docstring_and_imports(p))
               and not any(rel.startswith(folder) for folder in whole)]
    assert missing == []


def test_every_path_on_the_map_exists():
    """Each file or folder docs/architecture.md names is there: by its path from the repository, or, named bare
    (``fields.py`` after ``rulings/incident/``), at its top or somewhere in its own folders."""
    named = _paths_named(ARCH.read_text(encoding="utf-8"))
    assert {"rulings/engine/rulesets.py", "rulings/service/guard.py", "rulings/report/templates/", "fields.py"} <= named
    own = [REPO / d for d in ("rulings", "cli", "rulebooks", "scripts", "docs", "tests", "schemas", "benchmarks",
                              "vendor")]
    absent = [t for t in sorted(named)
              if not (list(REPO.glob(t.rstrip("/"))) if "/" in t else (REPO / t).exists() or any(next(d.rglob(t), None) for d in own))]
    assert absent == []


# ---------------------------------------------------------------- the import graph: no cycle, folders' promises

def _module_name(path: Path) -> str:
    """``rulings/service/core.py`` -> ``rulings.service.core``; cli/ is installed as ``rulings.cli``."""
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[0] == "cli":
        parts = ["rulings", *parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in CODE}


def _imported_modules(name: str, path: Path) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its text (at the top or inside a function, a
    relative import resolved): ``from rulings.service.store import db`` is an edge to rulings.service.store.db,
    ``from rulings.money import show`` to rulings.money."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for n in names:
            while n and n not in MODULES:
                n = n.rpartition(".")[0]
            if n and n != name:
                found.add(n)
    return found


GRAPH = {name: _imported_modules(name, path) for name, path in MODULES.items()}

# cycles known and accepted, each with its reason: none today (the service's five-module cycle was undone by
# issue 28's split; a new entry here needs its reason beside it)
KNOWN_CYCLES: dict[frozenset[str], str] = {}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_the_graph_sees_imports_inside_functions():
    """The builder reads function-level imports too (how the service's cycle was hidden): the API's factory
    imports the podium's pages inside create_app (optional: the API serves without them)."""
    assert "rulings.service.podium.floor" in GRAPH["rulings.service.api.app"]
    assert "rulings.service.commands" in GRAPH["rulings.cli.main"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_anywhere():
    cycles = [c for c in _cycles(GRAPH) if frozenset(c) not in KNOWN_CYCLES]
    assert cycles == []


SERVICE = "rulings.service"


def _in(name: str, *prefixes: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _third_party_users(tops: set[str]) -> list[str]:
    return sorted(name for name, path in MODULES.items() if _top(_imports(path)) & tops)


def test_only_the_store_imports_sqlalchemy():
    users = _third_party_users({"sqlalchemy", "alembic", "psycopg"})
    assert users and all(_in(u, f"{SERVICE}.store") for u in users), users


# the web framework (Starlette, and uvicorn, which serves it): the API, the podium's pages, and the two
# request-side modules both build on (the guard's middleware and CSRF, a request's session)
WEB = (f"{SERVICE}.api", f"{SERVICE}.podium", f"{SERVICE}.guard", f"{SERVICE}.session", f"{SERVICE}.commands",
       f"{SERVICE}.accept")


def test_only_the_named_modules_import_the_web_framework():
    users = _third_party_users({"starlette", "uvicorn", "anyio"})
    assert f"{SERVICE}.api.app" in users and f"{SERVICE}.podium.kit" in users
    assert all(_in(u, *WEB) for u in users), [u for u in users if not _in(u, *WEB)]
    templated = [u for u in _third_party_users({"jinja2"}) if _in(u, SERVICE)]
    assert templated and all(_in(u, f"{SERVICE}.podium") for u in templated), templated


def test_the_service_s_folders_point_one_way():
    """store/ <- core <- session, guard <- podium/ <- api/ (and commands, the command line's side): nothing points
    back, and outside the service only the command line imports it (its commands, lazily)."""
    allowed = {
        f"{SERVICE}.store": (f"{SERVICE}.store",),
        f"{SERVICE}.core": (f"{SERVICE}.store",),
        f"{SERVICE}.session": (f"{SERVICE}.store",),
        f"{SERVICE}.guard": (f"{SERVICE}.session",),
        f"{SERVICE}.podium": (f"{SERVICE}.podium", f"{SERVICE}.core", f"{SERVICE}.guard", f"{SERVICE}.session",
                              f"{SERVICE}.store"),
        f"{SERVICE}.api": (f"{SERVICE}.api", f"{SERVICE}.podium.floor", f"{SERVICE}.core", f"{SERVICE}.guard",
                           f"{SERVICE}.session", f"{SERVICE}.store"),
    }
    packages = {n for n, p in MODULES.items() if _in(n, SERVICE) and p.name == "__init__.py"}
    assert all(_only_docstring_and_imports(MODULES[n]) for n in packages)   # so an edge to one leads nowhere
    wrong = []
    for name, targets in GRAPH.items():
        inside = {t for t in targets if _in(t, SERVICE) and t not in packages}
        if not _in(name, SERVICE):
            if inside and name != "rulings.cli.main":
                wrong.append((name, sorted(inside)))
            continue
        for part, ok in allowed.items():
            if _in(name, part):
                bad = sorted(t for t in inside if not _in(t, *ok))
                if bad:
                    wrong.append((name, bad))
    assert wrong == []


# ---------------------------------------------------------------- the folders by stage (issue 28)

# the stages an incident goes through, in order; a module imports only its own folder and the folders before
# it (the shared base at the top of rulings/ first); commands/ and service/ share a rank: neither imports the
# other; cli/ (and python -m rulings) sits on top of both
STAGES = {"base": 0, "betting": 1, "rulebook": 2, "incident": 3, "facts": 4, "engine": 5, "ruling": 6,
          "report": 7, "told": 8, "commands": 9, "service": 9, "cli": 10}
TOP = REPO / "rulings"


def _stage(name: str) -> str:
    """``rulings.facts.said`` -> facts; ``rulings.money`` -> base; ``rulings.cli.main``, ``rulings.__main__`` -> cli."""
    parts = name.split(".")
    if name == "rulings":
        return "base"
    if name == "rulings.__main__" or parts[1:2] == ["cli"]:
        return "cli"
    if len(parts) > 2 or (TOP / parts[1]).is_dir():
        return parts[1]
    return "base"


def test_every_folder_of_the_package_is_a_stage():
    folders = {p.name for p in TOP.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    assert folders == set(STAGES) - {"base", "cli"}
    assert {_stage(n) for n in MODULES} == set(STAGES)


def test_at_most_eight_modules_at_the_top_and_they_are_the_base():
    """The top of rulings/ is the shared base (money, problems, strict YAML, records): at most eight modules,
    and none of them imports a stage (python -m rulings, the entry, is the command line's)."""
    top = sorted(p.name for p in TOP.glob("*.py"))
    assert len(top) <= 8, top
    assert {"money.py", "problems.py", "yamlsrc.py", "records.py"} <= set(top)
    leaning = {n: sorted(GRAPH[n]) for n in MODULES if _stage(n) == "base" and any(_stage(t) != "base"
                                                                                    for t in GRAPH[n])}
    assert leaning == {}


def test_imports_go_forward_along_the_stages():
    """incident -> facts -> engine -> ruling -> report, commands/ and service/ on top: no module imports a
    stage after its own (imports inside functions counted too)."""
    back = sorted((name, target) for name, targets in GRAPH.items() for target in targets
                  if _stage(target) != _stage(name) and STAGES[_stage(target)] >= STAGES[_stage(name)])
    assert back == []


def test_the_forward_check_sees_a_backward_import():
    """The stage of a module is read from its name, so a fact builder importing the ruling would be caught."""
    assert _stage("rulings.facts.situation") == "facts" and _stage("rulings.ruling.decide") == "ruling"
    assert STAGES[_stage("rulings.ruling.decide")] >= STAGES[_stage("rulings.facts.situation")]
    assert _stage("rulings.money") == "base" and _stage("rulings.cli.main") == "cli"
    assert "rulings.facts.situation" in GRAPH["rulings.ruling.decide"]   # the edge the other way exists


def test_the_fact_builders_never_refuse():
    """facts/ turns a read incident into facts: it imports none of the problems machinery and reads no file
    (the reader has refused what it had to before the facts are built)."""
    facts = [n for n in MODULES if _stage(n) == "facts"]
    assert "rulings.facts.situation" in facts
    wrong = {n: sorted(t for t in GRAPH[n] if t in ("rulings.problems", "rulings.yamlsrc")
                       or t.startswith("rulings.rulebook.load") or t.startswith("rulings.rulebook.house"))
             for n in facts}
    assert {n: t for n, t in wrong.items() if t} == {}
    assert not any(_top(_imports(MODULES[n])) & {"yaml", "jinja2"} for n in facts)


def test_durable_rules_is_imported_only_inside_the_engine_folder():
    users = sorted(n for n, p in MODULES.items() if _durable(_imports(p)))
    assert users and all(_stage(u) == "engine" for u in users), users


def test_the_command_line_s_own_commands_serve_nothing_else():
    """commands/ holds what only the command line uses: nothing but cli/ imports it."""
    users = sorted(n for n, targets in GRAPH.items() if _stage(n) != "commands"
                   and any(_stage(t) == "commands" for t in targets))
    assert users and all(_stage(u) == "cli" for u in users), users


def test_every_package_s_init_holds_no_code():
    """A folder's __init__.py is its docstring and re-exports at most, so importing a folder runs nothing."""
    inits = sorted(p for p in TOP.rglob("__init__.py"))
    assert len(inits) > 10
    assert [str(p.relative_to(REPO)) for p in inits if not _only_docstring_and_imports(p)] == []


def test_every_test_marked_slow_by_name_is_still_a_test():
    """tests/conftest.py SLOW names the slow tests by file and name: a test renamed or moved without its entry
    would silently join the fast part (`pytest -m "not slow"`)."""
    from conftest import SLOW
    root = Path(__file__).resolve().parent.parent
    gone = [name for name in SLOW
            if not (root / name.partition("::")[0]).is_file()
            or f"def {name.partition('::')[2]}(" not in (root / name.partition("::")[0]).read_text(encoding="utf-8")]
    assert not gone, gone
