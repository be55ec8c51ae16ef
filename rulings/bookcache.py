"""A checked copy of the standard book on disk, so a cold start does not parse and check the YAML again.

The copy is data only: JSON that names no code, decoded into the rulebook
model's own classes from a fixed list (nothing in the file can choose what runs).
Each file carries the digest of its payload; a file whose digest, key or shape
is wrong is ignored and rebuilt, never trusted and never a traceback.

- Key: a digest of the book's files (where they are, their names as reports
  print them, and their bytes), the fact and citation catalogues and the
  loader's own code. Any change to any of them is a miss. The book records
  both where its files are and how reports name them, so two copies of the
  same books in two places are two entries; the working directory matters
  only through those names (relative inside it, absolute outside).
- Writes go to a temporary file beside the target, then ``os.replace``: a
  reader sees the old file or the whole new one, so two processes at once are safe.
- A missing, unwritable or read-only folder only means no cache.
- Bounded: at most ``KEEP`` books are kept (the least recently used go), and
  leftover temporary files older than an hour are removed.
- ``RULINGS_CACHE=off`` turns it off; ``RULINGS_CACHE=DIR`` moves it
  (default ``~/.cache/rulings``).

The package also carries its own checked copy of the standard book
(``shipped-book.json``: the book, its compiled conditions and the catalogues,
in the same data-only encoding), so an empty cache folder is not a miss while
the standard book is the one the package came with. It is keyed by content
only: each topic file's name and bytes, the code that loading and compiling
run (``SHIP_CODE``) and the catalogues; every part carries its own digest.
A copy that does not match is ignored and the book is read and checked from
its files, as on any miss. ``scripts/ship_book.py`` writes it;
``tests/test_shipped_book.py`` fails until it is current.
``RULINGS_SHIPPED=off`` ignores it.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import stat
import sys
import tempfile
import time
import weakref
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Callable

from rulings.rulebook import model

FORMAT = "rulings.bookcache/3"
KEEP = 16                 # books kept in the folder; each is about 0.4 MB
MAX_BYTES = 16 << 20      # a cache file bigger than this is not read
STALE_TMP = 3600          # seconds after which a leftover temporary file is removed
PACKAGE = Path(__file__).resolve().parent
CLASSES: dict[str, type] = {c.__name__: c for c in (
    model.Origin, model.Condition, model.AnyOf, model.Discretion, model.Outcome,
    model.Example, model.Rule, model.Parameter, model.Rulebook)}


class CacheError(ValueError):
    """A cache file that does not hold what it should."""


def folder() -> Path | None:
    """The cache folder, or None when the cache is off."""
    value = os.environ.get("RULINGS_CACHE", "")
    if value.strip().lower() in ("off", "0", "no", "false", "none"):
        return None
    if value:
        return Path(value)
    try:
        return Path.home() / ".cache" / "rulings"
    except RuntimeError:   # no home folder: no cache
        return None


def code_files() -> list[Path]:
    """What the loading depends on besides the book itself: loader code and catalogues."""
    return (sorted(PACKAGE.glob("*.py")) + sorted(PACKAGE.glob("rulebook/*.py"))
            + sorted(PACKAGE.glob("*.yaml")) + sorted(PACKAGE.glob("facts/*.yaml")))


def key(files: list[Path], names: list[str]) -> str:
    """A digest of everything a checked book depends on (``names``: how its origins print the files)."""
    h = hashlib.sha256(f"{FORMAT}\0{sys.version_info[:2]}\0".encode())
    for f, name in zip(files, names):
        h.update(b"book\0" + str(f).encode() + b"\0" + name.encode() + b"\0" + f.read_bytes() + b"\0")
    for f in code_files():
        h.update(b"code\0" + f.relative_to(PACKAGE).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:40]


# -- the data-only encoding --------------------------------------------------------------------

def _spec(cls: type) -> tuple[type, tuple[str, ...], bool]:
    """A model class, its fields in order, and whether it may be built without calling ``__init__``
    (no ``__post_init__``, every field set by ``__init__``: then filling the fields is all it does)."""
    fields = dataclasses.fields(cls)
    names = tuple(f.name for f in fields if f.init)
    return cls, names, len(names) == len(fields) and not hasattr(cls, "__post_init__")


SPECS = {name: _spec(cls) for name, cls in CLASSES.items()}


_BY_TYPE = {cls: (name, SPECS[name][1]) for name, cls in CLASSES.items()}


def encode(value: Any) -> Any:
    """A rulebook (or any part of it) as plain JSON values; TypeError for anything else.

    A model object is ``{"@c": class name, "v": [its fields, in the class's order]}``; a tuple
    ``{"@t": [...]}``, a dict ``{"@d": [[key, value], ...]}``, a Decimal ``{"@dec": "1.5"}``.
    """
    t = type(value)   # the exact types first: a book is some 50,000 values, every one of them passes here
    if t is str or t is int or t is bool or value is None:
        return value
    if t is tuple:
        return {"@t": [encode(v) for v in value]}
    by_type = _BY_TYPE.get(t)
    if by_type is not None:
        return {"@c": by_type[0], "v": [encode(getattr(value, f)) for f in by_type[1]]}
    if t is dict:
        return {"@d": [[encode(k), encode(v)] for k, v in value.items()]}
    if t is list:
        return [encode(v) for v in value]
    return _encode_other(value)


def _encode_other(value: Any) -> Any:
    """``encode`` for anything not of one of the exact types it looks for first (subclasses included)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, Decimal):
        return {"@dec": str(value)}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, tuple):
        return {"@t": [encode(v) for v in value]}
    if isinstance(value, dict):
        return {"@d": [[encode(k), encode(v)] for k, v in value.items()]}
    name = type(value).__name__
    if dataclasses.is_dataclass(value) and CLASSES.get(name) is type(value):
        return {"@c": name, "v": [encode(getattr(value, f)) for f in SPECS[name][1]]}
    raise TypeError(f"cannot cache a {name}")


_new = object.__new__


def _object(data: dict) -> Any:
    """One JSON object of the payload back to what ``encode`` wrote (the JSON parser calls this for every
    object, innermost first); CacheError for anything ``encode`` would not have written."""
    if len(data) == 1:
        (tag, value), = data.items()
        if type(value) is list:
            if tag == "@t":
                return tuple(value)
            if tag == "@d":
                out = {}
                for pair in value:
                    if type(pair) is not list or len(pair) != 2:
                        raise CacheError("bad mapping entry")
                    try:
                        out[pair[0]] = pair[1]
                    except TypeError as exc:   # an unhashable key
                        raise CacheError(str(exc)) from None
                return out
        elif tag == "@dec" and type(value) is str:
            try:
                return Decimal(value)
            except InvalidOperation:
                raise CacheError("bad decimal") from None
    elif len(data) == 2 and "@c" in data and "v" in data:
        spec = SPECS.get(data["@c"]) if type(data["@c"]) is str else None
        if spec is None:
            raise CacheError(f"unknown class {data['@c']!r}")
        cls, names, plain = spec
        values = data["v"]
        if type(values) is not list or len(values) != len(names):
            raise CacheError(f"the wrong fields for {cls.__name__}")
        if plain:   # what the dataclass's own __init__ would do, without its per-field calls
            obj = _new(cls)
            obj.__dict__.update(zip(names, values))
            return obj
        return cls(*values)
    raise CacheError("unexpected mapping")


def decode(data: Any) -> Any:
    """The inverse of ``encode`` for an already parsed value; CacheError for anything it would not have written."""
    return json.loads(json.dumps(data), object_hook=_object)


def dumps(book: model.Rulebook, book_key: str) -> bytes:
    payload = json.dumps(encode(book), separators=(",", ":"), ensure_ascii=False, allow_nan=False,
                         check_circular=False)   # a tree of fresh lists and dicts: encode would have looped first
    digest = hashlib.sha256(payload.encode()).hexdigest()
    head = json.dumps({"format": FORMAT, "key": book_key, "sha256": digest})
    return (head + "\n" + payload).encode()


def loads(raw: bytes, book_key: str) -> model.Rulebook:
    """The book in a cache file; CacheError unless its header, key, digest and shape are all right."""
    try:
        head_text, _, payload = raw.decode("utf-8").partition("\n")
        head = json.loads(head_text)
    except (UnicodeDecodeError, ValueError):
        raise CacheError("not a cache file") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT or head.get("key") != book_key:
        raise CacheError("another format or another book")
    if hashlib.sha256(payload.encode()).hexdigest() != head.get("sha256"):
        raise CacheError("the content does not match its digest")
    try:
        book = json.loads(payload, object_hook=_object)
    except CacheError:
        raise
    except (ValueError, RecursionError) as exc:
        raise CacheError(f"bad content: {exc}") from None
    if not isinstance(book, model.Rulebook):
        raise CacheError("not a rulebook")
    return book


# -- the folder --------------------------------------------------------------------------------

def cached(files: list[Path], names: list[str], build: Callable[[], model.Rulebook]) -> model.Rulebook:
    """The book from the cache when a good copy is there, else ``build()`` (and keep a copy)."""
    where = folder()
    if where is None:
        return build()
    try:
        book_key = key(files, names)
    except OSError:
        return build()
    path = where / f"book-{book_key}.json"
    try:
        book = loads(_read(path), book_key)
        _touch(path)
        return _remember(book, book_key)
    except (OSError, CacheError):
        pass
    book = shipped_book(files, names)
    if book is not None:   # the package's own checked copy: nothing to write
        _SERVED.add(book_key)
        return _remember(book, book_key)
    book = build()
    _store(where, path, book, book_key)
    return _remember(book, book_key)


_KEYS: dict[int, tuple[weakref.ref, int, tuple[int, ...], str]] = {}


def _remember(book: model.Rulebook, book_key: str) -> model.Rulebook:
    """Note the key a book was cached under, without keeping the book alive (a weak reference)."""
    i = id(book)

    def forget(_: weakref.ref) -> None:
        _KEYS.pop(i, None)
    _KEYS[i] = (weakref.ref(book, forget), id(book.rules), tuple(map(id, book.rules.values())), book_key)
    return book


def key_of(book: model.Rulebook) -> str | None:
    """The cache key of a book as ``cached`` gave it, while its rules are still those very (frozen) rules:
    it covers the rules' content and all of the package's code, so the engine keys its compiled form by it."""
    got = _KEYS.get(id(book))
    if got is None or got[0]() is not book or got[1] != id(book.rules):
        return None
    return got[3] if got[2] == tuple(map(id, book.rules.values())) else None


def yaml_data(paths: list[Path], parse: Callable[[str], Any]) -> list[Any]:
    """What ``parse`` gives for each of the package's own YAML catalogues, kept as JSON beside the books.

    Keyed by the files' names and bytes; stored only when JSON gives back exactly the same values
    (plain mappings with text keys, lists, text, numbers, true/false/null), else parsed every time.
    """
    def build() -> list[Any]:
        return [parse(p.read_text(encoding="utf-8")) for p in paths]
    where = folder()
    if where is None:
        return build()
    try:
        h = hashlib.sha256(f"{FORMAT}\0data\0{sys.version_info[:2]}\0".encode())
        for p in paths:
            h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    except OSError:
        return build()
    data_key = h.hexdigest()[:40]
    path = where / f"data-{data_key}.json"
    try:
        raw = _read(path)
        head_text, _, payload = raw.decode("utf-8").partition("\n")
        head = json.loads(head_text)
        if (isinstance(head, dict) and head.get("format") == FORMAT and head.get("key") == data_key
                and hashlib.sha256(payload.encode()).hexdigest() == head.get("sha256")):
            data = json.loads(payload)
            if isinstance(data, list) and len(data) == len(paths):
                _touch(path)
                return data
    except (OSError, ValueError, RecursionError):
        pass
    shipped = shipped_data(paths)
    if shipped is not None:   # the package's own copy of these very files: nothing to write
        return shipped
    data = build()
    try:
        payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        if json.loads(payload) != data:
            return data
    except (TypeError, ValueError):   # a date, a number key, ...: JSON would not give it back
        return data
    head = json.dumps({"format": FORMAT, "key": data_key, "sha256": hashlib.sha256(payload.encode()).hexdigest()})
    _write(where, path, (head + "\n" + payload).encode())
    return data


def _read(path: Path) -> bytes:
    """A cache file's bytes: a regular file of at most MAX_BYTES (a FIFO or a device is never waited on)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise CacheError("not a regular file")
        parts, size = [], 0
        while size <= MAX_BYTES:
            part = os.read(fd, MAX_BYTES + 1 - size)
            if not part:
                break
            parts.append(part)
            size += len(part)
        raw = b"".join(parts)
    finally:
        os.close(fd)
    if len(raw) > MAX_BYTES:
        raise CacheError("too big")
    return raw


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


def _store(where: Path, path: Path, book: model.Rulebook, book_key: str) -> None:
    try:
        data = dumps(book, book_key)
    except (TypeError, ValueError):   # something in the book this format does not hold: no cache
        return
    _write(where, path, data)


def _write(where: Path, path: Path, data: bytes) -> None:
    tmp = None
    try:
        where.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".book-", suffix=".tmp", dir=where)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)   # atomic: readers see the old file or the new one, whole
        tmp = None
    except OSError:
        return
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    prune(where)


def prune(where: Path, keep: int = KEEP) -> None:
    """Keep the ``keep`` most recently used books (and catalogue copies); remove temporary files left by a crash."""
    now = time.time()
    books: list[tuple[float, Path]] = []
    datas: list[tuple[float, Path]] = []
    try:
        entries = list(where.iterdir())
    except OSError:
        return
    for p in entries:
        try:
            st = p.stat()
        except OSError:
            continue
        if p.name.startswith("book-") and p.name.endswith(".json"):
            books.append((st.st_mtime, p))
        elif p.name.startswith("data-") and p.name.endswith(".json"):
            datas.append((st.st_mtime, p))
        elif p.name.startswith(".book-") and p.name.endswith(".tmp") and now - st.st_mtime > STALE_TMP:
            _remove(p)
        elif p.name.startswith("book-") and p.name.endswith(".pickle"):   # an older version's cache
            _remove(p)
    for _, p in sorted(books, reverse=True)[keep:] + sorted(datas, reverse=True)[keep:]:
        _remove(p)


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


# -- the package's own checked copy of the standard book ------------------------------------------

SHIP_FORMAT = "rulings.shipped/1"
SHIPPED = PACKAGE / "shipped-book.json"
# the code and data that reading, checking and compiling the standard book run (tests/test_shipped_book.py
# checks that no other module of the package is imported while a book is built and compiled)
SHIP_CODE = ("__init__.py", "bookcache.py", "catalogue.py", "engine.py", "expressions.py", "money.py",
             "problems.py", "yamlsrc.py", "rulebook/*.py", "betting/*.py", "*.yaml", "facts/*.yaml")
_SERVED: set[str] = set()   # the cache keys of books served from the shipped copy (their compiled form is in it)
_SHIP: dict[Path, Any] = {}  # the shipped file, read once per process: its header and lines, or None


def ship_code() -> list[Path]:
    out: list[Path] = []
    for pattern in SHIP_CODE:
        out += sorted(PACKAGE.glob(pattern))
    return out


def _versions() -> str:
    import jinja2
    import yaml
    return f"{SHIP_FORMAT}\0jinja2 {jinja2.__version__}\0PyYAML {yaml.__version__}\0"


def code_key() -> str:
    """A digest of the code and catalogues that check and compile a book (``SHIP_CODE``) and the versions of
    the libraries that parse it."""
    h = hashlib.sha256(_versions().encode())
    for f in ship_code():
        h.update(b"code\0" + f.relative_to(PACKAGE).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:40]


def file_digests(files: list[Path]) -> dict[str, str]:
    return {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in files}


def ship_key(files: list[Path], code: str | None = None) -> str:
    """A digest of the book files' names and bytes and the code and catalogues that check and compile them;
    where the files are plays no part (the copy's origins are given the files' own names when it is read)."""
    h = hashlib.sha256((code or code_key()).encode())
    for name, digest in file_digests(files).items():
        h.update(b"book\0" + name.encode() + b"\0" + digest.encode() + b"\0")
    return h.hexdigest()[:40]


def _data_key(paths: list[Path]) -> str:
    h = hashlib.sha256((_versions() + "data\0").encode())
    for p in paths:
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:40]


def _shipped_file() -> dict | None:
    """The shipped copy's header and lines (each part's digest checked when it is first used), or None."""
    if os.environ.get("RULINGS_SHIPPED", "").strip().lower() in ("off", "0", "no", "false", "none"):
        return None
    if SHIPPED not in _SHIP:
        got = None
        try:
            lines = _read(SHIPPED).split(b"\n")
            head = json.loads(lines[0])
            if (isinstance(head, dict) and head.get("format") == SHIP_FORMAT and isinstance(head.get("key"), str)
                    and isinstance(head.get("parts"), dict)):
                got = {"head": head, "lines": lines, "checked": {}}
        except (OSError, CacheError, ValueError, RecursionError):
            pass
        _SHIP[SHIPPED] = got
    return _SHIP[SHIPPED]


def _part(ship: dict, name: str) -> bytes | None:
    """One part of the shipped copy, if its digest is right."""
    checked = ship["checked"]
    if name not in checked:
        checked[name] = None
        where = ship["head"]["parts"].get(name)
        if isinstance(where, list) and len(where) == 2 and type(where[0]) is int and 0 < where[0] < len(ship["lines"]):
            line = ship["lines"][where[0]]
            if hashlib.sha256(line).hexdigest() == where[1]:
                checked[name] = line
    return checked[name]


def _decoded(ship: dict) -> model.Rulebook | None:
    """The shipped book as written: every origin's file, and the book's files, by file name only."""
    payload = _part(ship, "book")
    if payload is None:
        return None
    try:
        book = json.loads(payload, object_hook=_object)
    except (CacheError, ValueError, RecursionError):
        return None
    return book if isinstance(book, model.Rulebook) else None


def shipped_book(files: list[Path], names: list[str]) -> model.Rulebook | None:
    """The shipped checked copy of these very files (by name and bytes), its origins given ``names``;
    None when there is none, it does not match or anything in it is wrong."""
    ship = _shipped_file()
    if ship is None or len({f.name for f in files}) != len(files):
        return None
    try:
        if ship["head"]["key"] != ship_key(files):
            return None
    except OSError:
        return None
    book = _decoded(ship)
    if book is None or book.files != [f.name for f in files]:
        return None
    where = {f.name: n for f, n in zip(files, names)}
    origins = [p.origin for p in book.parameters.values()]
    for r in book.rules.values():
        origins.append(r.origin)
        origins += [e.origin for e in r.examples]
    for o in origins:
        if type(o) is not model.Origin or o.file not in where:
            return None
        object.__setattr__(o, "file", where[o.file])   # a frozen Origin just decoded, held by nothing else
    book.files = [str(f) for f in files]
    return book


def shipped_parts(files: list[Path]) -> tuple[model.Rulebook, set[str]] | None:
    """On a miss (the cache folder on): the shipped book as written (origins by file name only) and the
    names of the files among ``files`` whose bytes it was built from, when the code that checks a book is
    the code it was checked with and at least one file is unchanged; else None. The loader takes the
    unchanged files' parameters and rules from it and reads and checks only the others
    (rulings/rulebook/load.py ``build_layered``)."""
    ship = _shipped_file() if folder() is not None else None
    if ship is None or len({f.name for f in files}) != len(files):
        return None
    head = ship["head"]
    try:
        if head.get("code") != code_key() or not isinstance(head.get("files"), dict):
            return None
        same = {n for n, d in file_digests(files).items() if head["files"].get(n) == d}
    except OSError:
        return None
    book = _decoded(ship) if same else None
    if book is None or not all(type(f) is str for f in book.files):
        return None
    if "seed" not in ship:
        ship["seed"] = [(r.when, r.then) for r in book.rules.values()]
    return book, same


def _compiled_part(ship: dict) -> list | None:
    payload = _part(ship, "compiled")
    if payload is None:
        return None
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, list) else None


def shipped_compiled(book_key: str, rules: list[model.Rule]) -> list | None:
    """The compiled conditions the shipped copy holds for these rules (``book_key``: the book's cache key):
    the whole list for a book served from the copy; after a miss that read the copy (``shipped_parts``),
    when every rule gives the ruling the copy's rule at its place gives (the compiler's flags for ``ruled:``
    tests are by place), the entry of each rule that is the copy's rule at its place with the same conditions
    and outcome, None for the others; else None."""
    ship = _shipped_file()
    if ship is None:
        return None
    if book_key in _SERVED:
        data = _compiled_part(ship)
        return data if data is not None and len(data) == len(rules) else None
    seed = ship.get("seed")   # the copy's rules' (when, then), noted by shipped_parts
    if seed is None or [r.then.ruling for r in rules] != [then.ruling for _, then in seed]:
        return None
    data = _compiled_part(ship)
    if data is None or len(data) != len(seed):
        return None
    return [data[i] if (r.when, r.then) == seed[i] else None for i, r in enumerate(rules)]


def shipped_data(paths: list[Path]) -> list | None:
    """The shipped copy's parse of these catalogue files (by name and bytes), or None."""
    ship = _shipped_file()
    if ship is None:
        return None
    try:
        name = "data-" + _data_key(paths)
    except OSError:
        return None
    payload = _part(ship, name)
    if payload is None:
        return None
    try:
        data = json.loads(payload)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, list) and len(data) == len(paths) else None
