"""The package's own checked copy of the standard book (rulings/shipped-book.bin, rulings/rulebook/cache.py).

It must be current (this test fails until scripts/ship_book.py is run after a
change to the book, a catalogue or the loading code), serve an empty cache
folder with exactly the book the files give, be ignored when any book file's
bytes differ, and be ignored, never trusted, when it is damaged.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulings.rulebook import cache as bookcache
from rulings.engine.rulesets import Engine
from rulings.rulebook.load import ROOT, standard_book

REPO = Path(__file__).resolve().parents[1]
HEADLINE = REPO / "examples" / "incidents" / "pl-silent-overchip.yaml"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("RULINGS_CACHE", str(where))
    monkeypatch.delenv("RULINGS_SHIPPED", raising=False)
    return where


@pytest.fixture(scope="module")
def from_files() -> object:
    """The standard book read and checked from its files, no cache and no shipped copy."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULINGS_CACHE", "off")
        return standard_book()


def _written(where: Path) -> list[str]:
    return sorted(p.name for p in where.iterdir()) if where.exists() else []


def _built(where: Path) -> bool:
    """Whether a book was read and checked from its files (and so kept in the cache folder)."""
    return any(n.startswith("book-") for n in _written(where))


def test_the_shipped_copy_is_current():
    spec = importlib.util.spec_from_file_location("ship_book", REPO / "scripts" / "ship_book.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    def meant(raw: bytes) -> tuple:   # the copy but for its code's bytes: a comment edited keeps the copy
        head, _, body = raw.partition(b"\n")
        head = json.loads(head)
        head["codes"] = {name: pair[1] for name, pair in head["codes"].items()}
        return head, body
    assert meant(bookcache.SHIPPED.read_bytes()) == meant(script.make_shipped()), (
        "rulings/shipped-book.bin is out of date: run .venv/bin/python scripts/ship_book.py")
    assert json.loads(bookcache.SHIPPED.read_bytes().partition(b"\n")[0])["code"] == bookcache.code_key()


def test_the_code_key_is_of_what_the_modules_do_not_of_their_bytes(monkeypatch):
    """The shipped copy is keyed on each module's meaning (rulings/rulebook/cache.py ``meaning``): with every
    module's bytes unknown to the copy's table (as after a comment edited in each), every module is parsed
    and the key is the copy's own; a module's comment, docstring or line wrapping changes nothing."""
    shipped = bookcache.code_key()
    monkeypatch.setattr(bookcache, "_shipped_codes", lambda: {})
    monkeypatch.setattr(bookcache, "_MEANINGS", {})
    assert bookcache.code_key() == shipped
    source = (bookcache.PACKAGE / "rulebook" / "cache.py").read_bytes()
    edited = source.replace(b"# -- the package's own checked copy", b"# -- the package's own\n# checked copy", 1)
    assert edited != source and bookcache.meaning(edited) == bookcache.meaning(source)
    assert bookcache.meaning(source.replace(b"SETTLED_NS = 2_000_000_000", b"SETTLED_NS = 2_000_000_001")) \
        != bookcache.meaning(source)


def _same_compiled(engine: Engine, plain: Engine) -> None:
    """Two engines hold the same compiled book: every ruleset as durable-rules takes it, every rule's data."""
    assert [(p.members, p.text, p.gates, p.checks) for p in engine._parts] == [
        (p.members, p.text, p.gates, p.checks) for p in plain._parts]
    assert [(r.order, r.reads, r.trees) for r in engine._rules] == [(r.order, r.reads, r.trees) for r in plain._rules]
    assert (engine._uses, engine._fields, engine._param_field) == (plain._uses, plain._fields, plain._param_field)


def _same_as_compiled_from_nothing(engine: Engine, book) -> None:
    """``engine`` holds what compiling ``book`` with no cache and no shipped copy gives."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULINGS_CACHE", "off")
        mp.setattr(bookcache, "shipped_seed", lambda: None)
        plain = Engine(book)
    try:
        _same_compiled(engine, plain)
    finally:
        plain.close()


def _compiling(monkeypatch) -> list[str]:
    """The ids of the rules the engine compiles from now on (it asks ``uses`` of each rule it compiles)."""
    from rulings.engine import rulesets as engine_module
    compiled: list[str] = []
    real = engine_module.uses

    def compiling(rule):
        compiled.append(rule.id)
        return real(rule)
    monkeypatch.setattr(engine_module, "uses", compiling)
    return compiled


def test_an_empty_cache_folder_gets_the_book_the_files_give_and_writes_nothing(cache, from_files, monkeypatch):
    book = standard_book()
    rule = next(iter(book.rules.values()))
    assert "examples" not in vars(rule)   # decoded when first read, with this machine's file names
    assert [e.origin for e in rule.examples] == [e.origin for e in from_files.rules[rule.id].examples]
    assert book == from_files   # every rule, parameter, example and origin (file, line, column)
    assert book.rules["pot-limit.silent-overchip-is-pot-bet"].origin.file == "rulebooks/standard/pot-limit.yaml"
    assert book.files == from_files.files
    with pytest.MonkeyPatch.context() as mp:
        compiled = _compiling(mp)
        engine = Engine(book)
    try:
        assert compiled == []   # the engine's whole compiled form came shipped too
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("RULINGS_CACHE", "off")
            plain = Engine(from_files)
        try:   # the shipped compiled form is the one the compiler gives
            _same_compiled(engine, plain)
            assert all(p.handle for p in engine._parts)
        finally:
            plain.close()
    finally:
        engine.close()
    assert _written(cache) == []


def test_the_command_in_an_empty_folder_prints_what_a_full_check_prints(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "RULINGS_SHIPPED"}
    outs = {}
    for how in ("shipped", "off"):
        where = tmp_path / how
        run = subprocess.run([sys.executable, "-m", "rulings", "rule", str(HEADLINE), "--verbose"], cwd=tmp_path,
                             env=dict(env, RULINGS_CACHE=str(where), RULINGS_SHIPPED=how), capture_output=True,
                             text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        outs[how] = (run.stdout, _written(where))
    assert outs["shipped"][0] == outs["off"][0]
    # outside the working folder: from the rulebooks folder, never the install's absolute path
    assert "from:    rulebooks/standard/pot-limit.yaml:" in outs["shipped"][0] and str(ROOT) not in outs["shipped"][0]
    assert outs["shipped"][1] == []   # the book, its compiled conditions and the catalogues all came shipped
    assert any(n.startswith("book-") for n in outs["off"][1])   # read, checked and kept in the folder


def test_a_copy_of_the_same_files_is_served_with_its_own_names_and_one_changed_byte_is_a_miss(
        cache, from_files, tmp_path, monkeypatch):
    root = tmp_path / "rulebooks"
    shutil.copytree(ROOT / "standard", root / "standard")
    monkeypatch.chdir(tmp_path)
    same = standard_book(root)
    assert _written(cache) == []
    assert {r.origin.file for r in same.rules.values()} == {f"rulebooks/standard/{f.name}"
                                                            for f in sorted((root / "standard").glob("*.yaml"))}
    assert all(Path(f).parent == root / "standard" for f in same.files)

    topic = root / "standard" / "wagers.yaml"
    topic.write_bytes(topic.read_bytes() + b"# one comment more\n")
    edited = standard_book(root)   # read and checked from the files, and kept in the cache folder
    assert _built(cache)
    assert edited == same and edited is not same


def _damaged(tmp_path: Path, monkeypatch, raw: bytes) -> None:
    path = tmp_path / "shipped-book.bin"
    path.write_bytes(raw)
    monkeypatch.setattr(bookcache, "SHIPPED", path)
    monkeypatch.setattr(bookcache, "_SHIP", {})


def _parts(raw: bytes) -> tuple[dict, dict[str, bytes]]:
    head_text, _, body = raw.partition(b"\n")
    head = json.loads(head_text)
    return head, {n: body[at:at + size] for n, (at, size, _) in head.pop("parts").items()}


def _with_part(raw: bytes, name: str, payload: bytes, fix_digest: bool) -> bytes:
    """The shipped file with one part's bytes replaced; its digest made to match them, or left as it was."""
    head, parts = _parts(raw)
    old = hashlib.sha256(parts[name]).hexdigest()
    parts[name] = payload
    out = bookcache.ship_bytes(head, parts)
    if not fix_digest:
        head_text, _, body = out.partition(b"\n")
        out = head_text.replace(hashlib.sha256(payload).hexdigest().encode(), old.encode()) + b"\n" + body
    return out


class Payload:
    """A pickle that would run a command if its reader let it name a callable."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_a_damaged_shipped_copy_is_ignored_and_runs_nothing(cache, from_files, tmp_path, monkeypatch):
    good = bookcache.SHIPPED.read_bytes()
    head, parts = _parts(good)
    assert b"pot-size bet" in parts["book"]
    book_at, book_size, _ = json.loads(good.partition(b"\n")[0])["parts"]["book"]
    marker = tmp_path / "ran"
    damaged = {
        # cut inside the book's own part (the file's other parts may lie after it or before it)
        "truncated": good[: good.index(b"\n") + 1 + book_at + book_size // 2],
        "garbage": os.urandom(5000),
        "empty": b"",
        "content changed": _with_part(good, "book", parts["book"].replace(b"pot-size bet", b"pot-size BET", 1),
                                      False),
        "another key": good.replace(head["key"].encode(), b"0" * 40, 1),
        "a class outside the model": _with_part(good, "book", pickle.dumps(Payload(marker)), True),
        "a class outside the model, protocol 0": _with_part(good, "book", pickle.dumps(Payload(marker), 0), True),
        "not a book": _with_part(good, "book", bookcache.data_payload((1, 2)), True),
        "a part out of the file": good.replace(b'"book": [0, ', b'"book": [99999999, ', 1),
    }
    for i, (what, raw) in enumerate(damaged.items()):
        (tmp_path / str(i)).mkdir()
        _damaged(tmp_path / str(i), monkeypatch, raw)
        assert standard_book() == from_files, what
        assert _built(cache), what   # read and checked from the files, and kept in the folder
        shutil.rmtree(cache)
    assert not marker.exists()


def test_a_damaged_or_planted_compiled_part_is_compiled_again_and_runs_nothing(cache, from_files, tmp_path,
                                                                                monkeypatch):
    good = bookcache.SHIPPED.read_bytes()
    _, parts = _parts(good)
    marker = tmp_path / "ran"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULINGS_CACHE", "off")
        plain = Engine(from_files)
    wrong_shape = {"rules": [()] * len(from_files.rules), "fields": [], "param_field": {}, "parts": "x"}
    damaged = {
        "form changed": _with_part(good, "form", parts["form"].replace(b"f__1", b"f__2", 1), False),
        "form planted": _with_part(good, "form", pickle.dumps(Payload(marker)), True),
        "form of the wrong shape": _with_part(good, "form", bookcache.data_payload(wrong_shape), True),
        "form and entries planted": _with_part(_with_part(good, "form", pickle.dumps(Payload(marker)), True),
                                               "compiled", pickle.dumps(Payload(marker)), True),
    }
    try:
        for i, (what, raw) in enumerate(damaged.items()):
            (tmp_path / str(i)).mkdir()
            _damaged(tmp_path / str(i), monkeypatch, raw)
            book = standard_book()
            assert book == from_files and not _built(cache), what   # the book part is whole: served
            with pytest.MonkeyPatch.context() as mp:
                compiled = _compiling(mp)
                engine = Engine(book)
            try:
                # every rule compiled again; the rules' own entries, where they are whole, are taken as they are
                assert compiled == ([r.id for r in book.rules.values()] if "entries" in what else []), what
                _same_compiled(engine, plain)
                assert all(p.handle for p in engine._parts)
            finally:
                engine.close()
            assert any(n.startswith("compiled-") for n in _written(cache)), what   # and kept in the folder
            shutil.rmtree(cache)
    finally:
        plain.close()
    assert not marker.exists()


def test_the_shipped_copy_covers_the_code_that_loading_and_compiling_run():
    """Every module of the package that reading, checking and compiling the book and the house books imports
    is in the one cache key (but the carried durable-rules, rulings._durable: it takes the compiled texts,
    rulings/engine/rulesets.py writes them)."""
    code = ("import os, sys; os.environ['RULINGS_CACHE'] = 'off'\n"
            "from pathlib import Path\n"
            "from rulings.rulebook.load import standard_book\nfrom rulings.engine.rulesets import Engine\n"
            "from rulings.rulebook.house import load_house\n"
            "Engine(standard_book())\n"
            "for p in sorted(Path('rulebooks/houses').glob('*.yaml')): Engine(load_house(p, standard_book()))\n"
            "print('\\n'.join(sorted(m.__file__ for n, m in sys.modules.items()\n"
            "      if n.startswith('rulings') and n != 'rulings.rulebooks' and not n.startswith('rulings._durable')\n"
            "      and getattr(m, '__file__', None))))")
    assert list((REPO / "rulebooks" / "houses").glob("*.yaml"))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert run.returncode == 0, run.stderr
    used = {Path(f).resolve() for f in run.stdout.split()}
    assert used and used <= {f.resolve() for f in bookcache.ship_code()}


# -- a true miss: only the files that differ from the shipped copy are read and checked ----------------------

def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "rulebooks"
    shutil.copytree(ROOT / "standard", root / "standard")
    return root


def _edit(root: Path, name: str, old: str, new: str) -> None:
    f = root / "standard" / name
    text = f.read_text(encoding="utf-8")
    assert old in text
    f.write_text(text.replace(old, new, 1), encoding="utf-8")


def _full(root: Path):
    """What reading and checking every file gives: the book, or the problems."""
    from rulings.problems import ProblemsError
    from rulings.rulebook.load import build_book
    try:
        return build_book("standard", "Standard card-room rulebook", sorted((root / "standard").glob("*.yaml")))
    except ProblemsError as exc:
        return exc.problems


def _layered(root: Path, monkeypatch) -> tuple:
    """standard_book on a miss, with the names of the files it read."""
    from rulings.problems import ProblemsError
    from rulings.rulebook import load
    read: list[str] = []
    real = load.read_topic_files

    def reading(files, *faults):
        read.extend(f.name for f in files)
        return real(files, *faults)
    monkeypatch.setattr(load, "read_topic_files", reading)
    try:
        got = standard_book(root)
    except ProblemsError as exc:
        got = exc.problems
    finally:
        monkeypatch.setattr(load, "read_topic_files", real)
    return got, read


def test_one_file_edited_reads_that_file_and_gives_the_book_a_full_check_gives(cache, from_files, tmp_path,
                                                                               monkeypatch):
    root = _copy(tmp_path)
    monkeypatch.chdir(tmp_path)
    # the rule pot-limit.yaml's exception inherits from gets one more condition
    _edit(root, "wagers.yaml", "      chip_count: 1\n      facing_bet: false\n",
          "      chip_count: 1\n      facing_bet: false\n      setting: cash\n")
    book, read = _layered(root, monkeypatch)
    assert read == ["wagers.yaml"]
    assert book == _full(root)
    assert ("setting", "eq", "cash") in [(c.fact, c.op, c.value)
                                         for c in book.rules["pot-limit.silent-overchip-is-pot-bet"].when]
    assert book.rules["pot-limit.silent-overchip-is-pot-bet"].origin.file == "rulebooks/standard/pot-limit.yaml"
    assert _built(cache)

    # compiled: the copy's entries for the rules it holds unchanged, the compiler's for the others
    with pytest.MonkeyPatch.context() as mp:
        compiled, registered = _compiling(mp), _registering(mp)
        engine = Engine(book)
    try:
        # given to durable-rules now: only the rulesets whose documents the copy's compiled form lacks
        taken = bookcache.shipped_texts()
        assert registered == [p.name for p in engine._parts if p.text not in taken]
        assert 0 < len(registered) < len(engine._parts)
        before = {r.id: (r.when, r.then) for r in from_files.rules.values()}
        changed = [r.id for r in book.rules.values() if before[r.id] != (r.when, r.then)]
        assert changed == ["misdeclared-calls.opening-overchip-stands-late", "pot-limit.silent-overchip-is-pot-bet",
                           "wagers.silent-single-chip-bet"]
        assert compiled == changed
        _same_as_compiled_from_nothing(engine, _full(root))
    finally:
        engine.close()


def _registering(monkeypatch) -> list[str]:
    """The rulesets engines give durable-rules from now on (at construction, or when first posted to)."""
    registered: list[str] = []
    real = Engine._register

    def registering(self, part):
        if not part._handle:
            registered.append(part.name)
        return real(self, part)
    monkeypatch.setattr(Engine, "_register", registering)
    return registered


def test_entries_only_moved_are_the_copys_rules_with_their_new_lines(cache, from_files, tmp_path, monkeypatch):
    from rulings.rulebook import load
    root = _copy(tmp_path)
    monkeypatch.chdir(tmp_path)
    # two comment lines above wagers.yaml's first rule: every rule of the file moves down two lines, none changes
    _edit(root, "wagers.yaml", "rules:\n", "rules:\n# a note\n# and another\n")
    parsed: list[str] = []
    real = load.parse_rule

    def parsing(doc, raw, *a, **kw):
        parsed.append(raw["id"])
        return real(doc, raw, *a, **kw)
    monkeypatch.setattr(load, "parse_rule", parsing)
    book, read = _layered(root, monkeypatch)
    assert read == ["wagers.yaml"] and parsed == []   # the file read and checked, no entry of it parsed again
    full = _full(root)
    assert book == full   # every rule, example and origin as a full check gives them
    moved, was = book.rules["wagers.silent-single-chip-bet"], from_files.rules["wagers.silent-single-chip-bet"]
    assert (moved.origin.file, moved.origin.line) == ("rulebooks/standard/wagers.yaml", was.origin.line + 2)
    assert [(e.origin.file, e.origin.line) for e in moved.examples] == [
        ("rulebooks/standard/wagers.yaml", e.origin.line + 2) for e in was.examples]
    unmoved = book.rules["pot-limit.silent-overchip-is-pot-bet"]
    assert [e.origin for e in unmoved.examples] == [e.origin for e in full.rules[unmoved.id].examples]
    assert _built(cache)

    # the copy kept in the folder reads back as the same book, examples and origins too
    again = standard_book(root)
    assert again is not book and again == full
    assert [e.origin for r in again.rules.values() for e in r.examples] == [
        e.origin for r in full.rules.values() for e in r.examples]

    # and compiles to the shipped form: nothing compiled, no ruleset given to durable-rules until it is used
    with pytest.MonkeyPatch.context() as mp:
        compiled, registered = _compiling(mp), _registering(mp)
        engine = Engine(book)
        assert compiled == [] and registered == []
        try:
            with pytest.MonkeyPatch.context() as off:
                off.setenv("RULINGS_CACHE", "off")
                plain = Engine(full)
            try:
                _same_compiled(engine, plain)
                from rulings.incident import load_incident
                from rulings.report.render import report_json
                from rulings.ruling.decide import rule_on
                incident = load_incident(HEADLINE)
                assert report_json(rule_on(incident, book, engine)) == report_json(rule_on(incident, full, plain))
                ours = [n for n in registered if n.startswith(engine.name + "p")]
                assert ours and len(ours) < len(engine._parts)   # only the rulesets posted to
            finally:
                plain.close()
        finally:
            engine.close()


def test_an_edit_that_breaks_a_rule_of_another_file_is_reported_as_a_full_check_reports_it(
        cache, tmp_path, monkeypatch):
    root = _copy(tmp_path)
    monkeypatch.chdir(tmp_path)
    _edit(root, "wagers.yaml", "- id: wagers.silent-single-chip-bet\n", "- id: wagers.silent-single-chip-bet-x\n")
    problems, read = _layered(root, monkeypatch)
    assert read[0] == "wagers.yaml" and len(read) > 1   # the problem sent it back to every file
    assert problems == _full(root)
    # the line of pot-limit.yaml whose exception_to names the renamed rule (found, not written in: the file grows)
    pointing = [n for n, text in enumerate((root / "standard" / "pot-limit.yaml").read_text().splitlines(), 1)
                if text.strip() == "exception_to: wagers.silent-single-chip-bet"]
    assert len(pointing) == 1
    assert [(p.code, p.file, p.line) for p in problems if "silent-single-chip-bet'" in p.message] == [
        ("R104", "rulebooks/standard/pot-limit.yaml", pointing[0])]


def test_a_parameter_changed_or_a_problem_in_the_edited_file_reads_every_file(cache, tmp_path, monkeypatch):
    root = _copy(tmp_path)
    monkeypatch.chdir(tmp_path)
    _edit(root, "pot-limit.yaml", "    default: false\n    cites: [RRP-PL-5]\n",
          "    default: true\n    cites: [RRP-PL-5]\n")
    book, read = _layered(root, monkeypatch)
    every = len(list((root / "standard").glob("*.yaml"))) + 1   # the edited file, then every topic file
    assert read[0] == "pot-limit.yaml" and len(read) == every
    assert book == _full(root) and book.parameters["pot_limit.sb_counts_as_bb"].default is True

    root = _copy(tmp_path / "again")
    _edit(root, "wagers.yaml", "      chip_count: 1\n", "      chip_count: one\n")
    problems, read = _layered(root, monkeypatch)
    assert read[0] == "wagers.yaml" and len(read) == every
    assert problems == _full(root) and problems


def test_a_house_book_is_kept_and_read_back_without_reading_the_standard_book(cache, from_files, tmp_path,
                                                                              monkeypatch):
    from rulings.rulebook import house
    from rulings.rulebook.house import load_house, load_house_kept
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "tda-series.yaml"
    shutil.copy(ROOT / "houses" / "tda-series.yaml", path)
    first = load_house_kept(path)

    def checked(house_file: Path):   # every file read and checked, nothing kept or taken from a copy
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("RULINGS_CACHE", "off")
            return load_house(house_file, standard_book())
    full = checked(path)
    assert first == full and _built(cache)

    reads: list[str] = []
    real_house, real_standard = house.load_house, bookcache.shipped_book
    monkeypatch.setattr(house, "load_house", lambda *a, **k: reads.append("house") or real_house(*a, **k))
    monkeypatch.setattr(bookcache, "shipped_book", lambda *a, **k: reads.append("standard") or real_standard(*a, **k))
    again = load_house_kept(path)
    assert reads == [] and again is not first and again == full   # from the folder: nothing read, nothing checked
    assert [e.origin for r in again.rules.values() for e in r.examples] == [
        e.origin for r in full.rules.values() for e in r.examples]

    # one byte of the house file changed: read and checked again, and kept as well
    text = path.read_text(encoding="utf-8")
    assert "The round was capped at five bets" in text
    path.write_text(text.replace("The round was capped at five bets", "The round was capped at five"),
                    encoding="utf-8")
    edited = load_house_kept(path)
    assert reads == ["standard", "house"] and edited != full
    reads.clear()
    assert edited == checked(path)
    kept = len(_written(cache))

    # a house over that house depends on two files: read and checked every time, never kept
    over = tmp_path / "over.yaml"
    over.write_text("rulebook: over\nextends: tda-series.yaml\ntitle: Over\n"
                    "parameters:\n  kill.size: half\n", encoding="utf-8")
    for _ in range(2):
        assert load_house_kept(over).settings["kill.size"] == "half"
    assert reads == ["standard", "house", "house", "standard", "house", "house"]
    assert len(_written(cache)) == kept


def test_a_house_book_compiles_only_the_rules_the_shipped_copy_lacks(cache, from_files, tmp_path, monkeypatch):
    from rulings.rulebook.house import load_house_kept
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "tda-series.yaml"
    text = (ROOT / "houses" / "tda-series.yaml").read_text(encoding="utf-8")
    path.write_text(text.replace("The round was capped at five bets", "The round was capped (a new sentence)"),
                    encoding="utf-8")
    standard_book()   # the standard book served by the copy, as a start with --house has it
    book = load_house_kept(path)
    with pytest.MonkeyPatch.context() as mp:
        compiled, registered = _compiling(mp), _registering(mp)
        engine = Engine(book)
    try:
        same = {r.id for r in book.rules.values() if r.id in from_files.rules
                and (r.when, r.then) == (from_files.rules[r.id].when, from_files.rules[r.id].then)}
        # the house's two replacements; every other rule is the copy's, giving its ruling at the same place
        assert compiled == [r.id for r in book.rules.values() if r.id not in same] == [
            "tda-series.raise-at-cap-is-call", "tda-series.cap-reached"]
        ours = [n for n in registered if n.startswith(engine.name + "p")]
        taken = bookcache.shipped_texts()
        assert ours == [p.name for p in engine._parts if p.text not in taken] and len(ours) < len(engine._parts)
        _same_as_compiled_from_nothing(engine, book)
    finally:
        engine.close()


def test_a_house_file_saved_while_it_is_read_is_not_kept_under_its_earlier_bytes(cache, tmp_path, monkeypatch):
    from rulings.rulebook import house
    from rulings.rulebook.house import load_house_kept
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "tda-series.yaml"
    text = (ROOT / "houses" / "tda-series.yaml").read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    real = house.load_house

    def saved_meanwhile(*args, **kwargs):   # the manager saves an edit while the book is being read
        path.write_text(text.replace("The round was capped at five bets", "Capped at five bets"), encoding="utf-8")
        return real(*args, **kwargs)
    monkeypatch.setattr(house, "load_house", saved_meanwhile)
    book = load_house_kept(path)
    assert "Capped at five bets" in book.rules["tda-series.raise-at-cap-is-call"].then.say
    assert not _built(cache) and bookcache.key_of(book) is None   # neither kept nor known by the old key
    monkeypatch.setattr(house, "load_house", real)
    again = load_house_kept(path)   # the bytes as they are now: read, checked and kept
    assert again == book and _built(cache) and bookcache.key_of(again) is not None
