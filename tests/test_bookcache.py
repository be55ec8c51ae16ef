"""The on-disk copy of the standard book: data only, checked by digest, atomic, bounded, never a crash.

Two `rulings rule` processes started together must both print the right ruling
whatever the cache folder is: empty, read-only or impossible to create.

These tests are about the cache folder, so the package's shipped copy of the
standard book (which serves an empty folder without writing to it) is turned
off here; tests/test_shipped_book.py is about that copy.
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import pickletools
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from rulings.rulebook import cache as bookcache
from rulings.ruling import books
from rulings.problems import ProblemsError
from rulings.rulebook import model
from rulings.rulebook.load import ROOT, standard_book

REPO = Path(__file__).resolve().parents[1]
HEADLINE = REPO / "examples" / "incidents" / "pl-silent-overchip.yaml"


@pytest.fixture(autouse=True)
def no_shipped_copy(monkeypatch) -> None:
    monkeypatch.setenv("RULINGS_SHIPPED", "off")


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("RULINGS_CACHE", str(where))
    return where


def _files(where: Path) -> list[Path]:
    return sorted(where.glob("book-*.bin"))


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> tuple:
    """The standard book and its cache file, built once for the tests that damage a copy of the file."""
    where = tmp_path_factory.mktemp("good")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULINGS_CACHE", str(where))
        mp.setenv("RULINGS_SHIPPED", "off")
        book = standard_book()
    [path] = _files(where)
    return book, path.name, path.read_bytes()


def _plant(cache: Path, good: tuple) -> Path:
    cache.mkdir()
    path = cache / good[1]
    path.write_bytes(good[2])
    return path


def test_a_book_round_trips_through_the_data_only_format(good):
    book = good[0]
    raw = bookcache.dumps(book, "k")
    assert raw.startswith(b'{"format": "rulings.bookcache/4"')
    named = {arg for op, arg, _ in pickletools.genops(raw.partition(b"\n")[2]) if op.name == "SHORT_BINUNICODE"
             and arg in ("rulings.rulebook.model", "decimal", "builtins", "copyreg", "os", "posix", "subprocess")}
    assert "rulings.rulebook.model" in named <= {"rulings.rulebook.model", "decimal"}   # all the reader builds
    again = bookcache.loads(raw, "k")
    rule = next(r for r in again.rules.values() if "examples" not in vars(r))   # their own payload until read
    assert rule.examples == book.rules[rule.id].examples and "examples" in vars(rule)
    assert again == book
    assert [p.words for p in again.parameters.values()] == [p.words for p in book.parameters.values()]


def test_the_cache_is_written_once_and_read_back(cache):
    first = standard_book()
    [path] = _files(cache)
    stamp = path.stat().st_mtime_ns
    assert standard_book() == first
    assert _files(cache) == [path] and path.stat().st_mtime_ns >= stamp
    assert not list(cache.glob(".book-*"))   # no temporary file left behind


def test_a_corrupt_cache_file_is_refused_then_rebuilt(cache, good):
    book, name, raw = good
    key = Path(name).stem[len("book-"):]
    head, _, payload = raw.partition(b"\n")
    assert b"pot-size bet" in payload
    damaged = {
        "truncated": raw[: len(raw) // 2],
        "garbage": os.urandom(5000),
        "empty": b"",
        "digest": head + b"\n" + payload.replace(b"pot-size bet", b"pot-size BET", 1),   # content changed
        "other-key": head.replace(b'"key": "', b'"key": "0', 1) + b"\n" + payload,
    }
    deep = b"\x80\x05" + b"]" * 100_000 + b"a" * 99_999 + b"."   # lists 100,000 deep, its digest right
    damaged["deep"] = json.dumps({"format": bookcache.FORMAT, "key": key,
                                  "sha256": hashlib.sha256(deep).hexdigest()}).encode() + b"\n" + deep
    for what, bad in damaged.items():
        with pytest.raises(bookcache.CacheError):
            bookcache.loads(bad, key)
    path = _plant(cache, good)
    path.write_bytes(damaged["truncated"])
    assert standard_book() == book
    assert bookcache.loads(path.read_bytes(), key) == book   # rewritten whole


def test_a_planted_cache_file_runs_nothing(cache, good, tmp_path):
    """A pickle that would run a command, and a well-formed file naming a class outside the model."""
    book = good[0]
    path = _plant(cache, good)
    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    path.write_bytes(pickle.dumps(Payload()))
    assert standard_book() == book and not marker.exists()

    key = path.stem[len("book-"):]
    for planted in (pickle.dumps(Payload()), pickle.dumps(Payload(), protocol=0), pickle.dumps(Payload(), protocol=2)):
        head = json.dumps({"format": bookcache.FORMAT, "key": key, "sha256": hashlib.sha256(planted).hexdigest()})
        with pytest.raises(bookcache.CacheError, match="unknown class"):   # its digest right: the reader refuses
            bookcache.loads(head.encode() + b"\n" + planted, key)
    assert not marker.exists()
    # a model class given one field of its three, and a model object as plain pickle writes it (a new object
    # whose fields are then set one by one): refused, never a traceback
    short = b"\x80\x05\x8c\x16rulings.rulebook.model\x8c\x06Origin\x93\x8c\x01x\x85R."
    for bad in (short, pickle.dumps(model.Origin("x", 1))):
        head = json.dumps({"format": bookcache.FORMAT, "key": key, "sha256": hashlib.sha256(bad).hexdigest()})
        with pytest.raises(bookcache.CacheError):
            bookcache.loads(head.encode() + b"\n" + bad, key)


def test_a_cache_entry_that_is_not_a_file_is_never_waited_on(cache, good):
    """A FIFO would block a plain open() forever; a device would be read without end."""
    cache.mkdir()
    (cache / "device").symlink_to("/dev/zero")
    (cache / "folder").mkdir()
    for other in ("device", "folder"):
        with pytest.raises(bookcache.CacheError, match="not a regular file"):
            bookcache._read(cache / other)
    os.mkfifo(cache / good[1])
    assert standard_book() == good[0]


def test_any_change_to_a_book_file_misses_the_cache(cache, tmp_path):
    root = tmp_path / "rulebooks"
    shutil.copytree(ROOT / "standard", root / "standard")
    before = standard_book(root)
    topic = root / "standard" / "pot-limit.yaml"
    topic.write_text(topic.read_text(encoding="utf-8").replace("pot-size bet", "pot-size wager", 1),
                     encoding="utf-8")
    after = standard_book(root)
    assert before != after
    assert any("pot-size wager" in r.text or "pot-size wager" in (r.then.say or "") for r in after.rules.values())
    assert len(_files(cache)) == 2


def test_the_same_books_in_two_places_share_one_entry_and_each_gets_its_own_files(cache, tmp_path, monkeypatch):
    """Two checkouts, each run from its own root: the books print the same relative names and hold the same
    bytes, so they are one entry, and each copy is handed its own files' paths, never the other's."""
    for where in ("a", "b"):
        shutil.copytree(ROOT / "standard", tmp_path / where / "standard")
    books = {}
    for where in ("a", "b"):
        monkeypatch.chdir(tmp_path / where)
        books[where] = standard_book(tmp_path / where)
        assert all(Path(f).parent == tmp_path / where / "standard" for f in books[where].files)
        assert {Path(r.origin.file).parent for r in books[where].rules.values()} == {Path("standard")}
    assert len(_files(cache)) == 1
    assert books["a"].rules == books["b"].rules and books["a"].files != books["b"].files
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")   # run from outside both: the names printed differ, so does the key
    assert {Path(r.origin.file).parent for r in standard_book(tmp_path / "a").rules.values()} == {
        tmp_path / "a" / "standard"}
    assert len(_files(cache)) == 2


def test_the_key_does_not_depend_on_the_working_folder(tmp_path, monkeypatch):
    files = sorted((ROOT / "standard").glob("*.yaml"))
    names = [str(f) for f in files]
    keys = set()
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
        monkeypatch.chdir(tmp_path / d)
        keys.add(bookcache.key(files, names))
    assert len(keys) == 1


def _cached(build):
    files = sorted((ROOT / "standard").glob("*.yaml"))
    return bookcache.cached(files, [str(f) for f in files], build)


def test_the_folder_is_bounded(cache, good):
    cache.mkdir()
    for i in range(bookcache.KEEP + 5):   # an older format's files (.json) age out with the others
        old = cache / f"book-old{i:02}.{'json' if i < 3 else 'bin'}"
        old.write_text("{}")
        os.utime(old, (1_000_000 + i, 1_000_000 + i))
    forms = bookcache.KEEP * bookcache.FORMS_PER_BOOK
    for i in range(forms + 7):   # the engine's compiled forms, one per book or house book compiled
        old = cache / f"compiled-old{i:03}.bin"
        old.write_text("{}")
        os.utime(old, (1_000_000 + i, 1_000_000 + i))
    stale = cache / ".book-crashed.tmp"
    stale.write_text("")
    os.utime(stale, (1_000_000, 1_000_000))
    legacy = cache / "book-0123.pickle"
    legacy.write_bytes(b"")
    _cached(lambda: good[0])
    left = _files(cache)
    assert len(left) == bookcache.KEEP and not list(cache.glob("book-*.json"))
    assert len(list(cache.glob("compiled-*"))) == forms and not (cache / "compiled-old006.bin").exists()
    assert not stale.exists() and not legacy.exists()
    assert any(not p.name.startswith("book-old") for p in left)   # the new book is kept, the oldest go


def test_off_writes_nothing(tmp_path, monkeypatch, good):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("RULINGS_CACHE", "off")
    assert bookcache.folder() is None
    built = []
    assert _cached(lambda: built.append(1) or good[0]) == good[0]
    assert _cached(lambda: built.append(1) or good[0]) == good[0]
    assert built == [1, 1] and list(tmp_path.rglob("*")) == []


def test_a_missing_or_empty_standard_book_is_a_load_error(tmp_path):
    for root in (tmp_path / "none", tmp_path / "empty"):
        (tmp_path / "empty" / "standard").mkdir(parents=True, exist_ok=True)
        with pytest.raises(ProblemsError) as exc:
            standard_book(root)
        [problem] = exc.value.problems
        assert problem.code == "R001" and "no topic files" in problem.message


def test_books_load_compiles_one_engine_from_many_threads():
    saved = books._CACHE.pop("standard", None)
    got: list = []
    try:
        start = threading.Barrier(6)

        def worker():
            start.wait()
            got.append(books.load())

        threads = [threading.Thread(target=worker) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(got) == 6
        assert len({id(engine) for _, engine in got}) == 1
    finally:
        fresh = books._CACHE.pop("standard", None)
        if fresh and fresh[1] is not None:
            fresh[1].close()
        if saved:
            books._CACHE["standard"] = saved


# -- two processes at once ---------------------------------------------------------------------

def _two_at_once(env_cache: str, cwd: Path) -> None:
    env = dict(os.environ, RULINGS_CACHE=env_cache)
    cmd = [sys.executable, "-m", "rulings", "rule", str(HEADLINE), "--format", "json"]
    procs = [subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert "Traceback" not in err
        [ruling] = [r for r in json.loads(out)["rulings"] if r["decides"] == "wager"]
        assert ruling["effects"] == {"wager_to": 80, "returned": 420}


def test_two_processes_with_an_empty_then_a_read_only_cache_folder(tmp_path):
    where = tmp_path / "cache"
    where.mkdir()
    _two_at_once(str(where), tmp_path)
    [book] = _files(where)
    assert bookcache.loads(book.read_bytes(), book.stem[len("book-"):]).name == "standard"
    assert not list(where.glob(".book-*"))

    if os.geteuid() != 0:   # root writes through mode bits: for root, the case below is the read-only one
        readonly = tmp_path / "readonly"
        readonly.mkdir()
        readonly.chmod(stat.S_IRUSR | stat.S_IXUSR)
        try:
            _two_at_once(str(readonly), tmp_path)
        finally:
            readonly.chmod(stat.S_IRWXU)
        assert list(readonly.iterdir()) == []
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    _two_at_once(str(blocked / "cache"), tmp_path)   # a folder that cannot be created or written, even by root


# -- the engine's compiled form (rulings/engine/rulesets.py), kept beside the book -------------------------------------

def _rulings(book, engine) -> list:
    from incident_gen import random_incidents

    from rulings.incident import incident_from_data, load_incident
    from rulings.report.render import report_json
    from rulings.ruling.decide import rule_on
    incidents = [load_incident(p, book) for p in sorted((REPO / "examples" / "incidents").glob("*.yaml"))]
    for data in random_incidents(11, 120):
        try:
            incidents.append(incident_from_data(data))
        except ProblemsError:
            continue
    return [report_json(rule_on(one, book, engine)) for one in incidents if one.disputed is not None]


def test_a_cached_compiled_form_rules_as_a_fresh_compile_and_compiles_nothing(cache, standard, monkeypatch):
    from rulings.engine.rulesets import Engine
    from rulings.incident import load_incident
    from rulings.ruling.decide import rule_on
    book = standard_book()
    first = Engine(book)
    [form] = cache.glob("compiled-*.bin")
    monkeypatch.setattr(Engine, "_form", lambda *a: pytest.fail("compiled again on a cache hit"))
    again = Engine(book)
    assert [p.members for p in again._parts] == [p.members for p in first._parts]
    assert again._host._ruleset_list == []   # each ruleset registered with durable-rules when first posted to
    # the pre-check is kept as data (its Python is generated in the process that uses it, never kept)
    assert [p.checks for p in again._parts] == [p.checks for p in first._parts] and b"def check" not in form.read_bytes()
    assert all(p.check is None for p in again._parts)
    one = next(i for i in (load_incident(p, book) for p in sorted((REPO / "examples" / "incidents").glob("*.yaml")))
               if i.disputed is not None)
    rule_on(one, book, again)   # rulesets of 20 rules: one ruling registers few of the book's 16
    assert 0 < len(again._host._ruleset_list) <= 5 < len(again._parts)
    expected = _rulings(*standard)
    assert len(expected) > 100 and _rulings(book, again) == expected
    assert any(p.check is not None for p in again._parts)   # generated from the kept data after 64 checks
    assert 0 < len(again._host._ruleset_list) <= len(again._parts)
    assert list(cache.glob("compiled-*.bin")) == [form]
    first.close()
    again.close()


def test_a_damaged_or_planted_compiled_form_is_compiled_again(cache, standard, tmp_path):
    from rulings.engine.rulesets import FORM, Engine
    book = standard_book()
    Engine(book).close()
    [path] = cache.glob("compiled-*.bin")
    good = path.read_bytes()
    head, _, payload = good.partition(b"\n")
    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    def signed(data: bytes) -> bytes:   # a digest that matches: only the reader's own checks stand
        return json.dumps({"format": FORM, "sha256": hashlib.sha256(data).hexdigest()}).encode() + b"\n" + data

    wrong_shape = {"rules": [()] * len(book.rules), "fields": [], "param_field": {}, "parts": "x"}
    # pre-check data whose Python would carry text of the form's (a rule's number, a ruled: flag's rule) or
    # name an unknown test: refused before any Python is generated from it
    sneaky = f"__import__('os').system('touch {marker}')"
    planted = []
    for change in (lambda c: (sneaky, c[1], c[2]), lambda c: (c[0], c[1], ((None, "ruled", (("f__1", sneaky),)),)),
                   lambda c: (c[0], c[1], (("pot", sneaky, 1),))):
        form = bookcache.read_data(path, FORM)
        form["parts"][0]["checks"][0] = change(form["parts"][0]["checks"][0])
        planted.append(signed(pickle.dumps(form)))
    for bad in (good[: len(good) // 2], head + b"\n" + payload[:-40] + bytes(40), signed(pickle.dumps(Payload())),
                signed(pickle.dumps(wrong_shape)), signed(pickle.dumps({"rules": []})), *planted):
        path.write_bytes(bad)
        engine = Engine(book)
        assert engine._parts and all(p.handle for p in engine._parts)
        for p in engine._parts:
            p.compiled_check()
        assert _rulings(book, engine)[:20] == _rulings(*standard)[:20]
        engine.close()
        assert path.read_bytes() == good   # compiled again and written whole
    assert not marker.exists()
