"""A checked copy of the standard book on disk, so a cold start does not parse and check the YAML again.

The copy is data only: a pickle whose reader knows no class but the rulebook
model's own, from a fixed list, and Decimal (nothing in the file can choose what runs).
A rule's examples (over half of a book, never read by a ruling) are a payload of
their own inside it, decoded when first read.
Each file carries the digest of its payload; a file whose digest, key or shape
is wrong is ignored and rebuilt, never trusted and never a traceback.

- Key: one digest of what a checked book depends on -- its files' names and bytes,
  the code and catalogues that read, check and compile it (``SHIP_CODE``), the
  versions of the libraries that parse it -- and the names reports print for its
  files. Any change to any of them is a miss; a change to code that only rules
  is not. Where the files are plays no part: a book taken from the folder is
  given this place's files (two copies of the same books run from their own
  roots print the same names and share one entry). The working directory
  matters only through the names (relative inside it, absolute outside). The
  shipped copy below is found by this same key before the folder is looked in.
- Writes go to a temporary file beside the target, then ``os.replace``: a
  reader sees the old file or the whole new one, so two processes at once are safe.
- A missing, unwritable or read-only folder only means no cache.
- Bounded: at most ``KEEP`` books are kept (the least recently used go), and
  leftover temporary files older than an hour are removed.
- ``RULINGS_CACHE=off`` turns it off; ``RULINGS_CACHE=DIR`` moves it
  (default ``~/.cache/rulings``).

The package also carries its own checked copy of the standard book
(``shipped-book.bin``), in this very encoding: a JSON header, then parts each
encoded as the cache folder encodes it -- the book (``encode``), the engine's
whole compiled form and each rule's compiled conditions (``store_data``'s
plain-data pickle), the three catalogues (``yaml_data``'s JSON) -- each with
its own digest. So an empty cache folder is as cheap as a hit while the
standard book is the one the package came with, and nothing is written to it.
It is keyed by content only: each topic file's name and bytes, the code that
loading and compiling run (``SHIP_CODE``) and the catalogues. A copy that does
not match is ignored and the book is read and checked from its files, as on
any miss; on a true miss the files it holds unchanged are taken from it
(rulings/rulebook/load.py ``build_layered``), and so are the entries of a
changed file it holds as they are (by their digest: only their lines move)
and the compiled conditions of the rules it holds unchanged, in any book
(rulings/engine/rulesets.py).

A house book that extends the standard book is kept in the folder as well,
merged (``cached_house``): keyed by the standard book's key and the house
file's place, name in reports and bytes, so when it is there neither book is
read.
``scripts/ship_book.py`` writes it; ``tests/test_shipped_book.py`` fails until
it is current. ``RULINGS_SHIPPED=off`` ignores it.
"""
from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
import pickle
import stat
import sys
import time
import weakref
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any, Callable

from rulings.rulebook import model

FORMAT = "rulings.bookcache/4"
PROTOCOL = 5              # pickle protocol of the payload
KEEP = 16                 # books kept in the folder; each is about 0.6 MB
FORMS_PER_BOOK = 4        # compiled forms kept (engine/rulesets.py: house books too) per book kept
MAX_BYTES = 16 << 20      # a cache file bigger than this is not read
STALE_TMP = 3600          # seconds after which a leftover temporary file is removed
PACKAGE = Path(__file__).resolve().parents[1]   # the package's folder (this module is in rulebook/)
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


def key(files: list[Path], names: list[str]) -> str:
    """The book's key: what the book of ``files`` depends on (``ship_key``) and ``names``, how its origins
    print the files; OSError when a file cannot be read."""
    return _named(ship_key(files), names)


def _named(content: str, names: list[str]) -> str:
    return hashlib.sha256("\0".join([FORMAT, content, *names]).encode()).hexdigest()[:40]


# A cold start asks for the digest of the same files several times: the cache key, the check of which topic
# files are unchanged, the catalogues' keys. Each file is read and hashed once per process; the digest is kept
# with the file's stat (size, mtime, ctime, inode) and is used again only while the stat is the same and the
# file had not been written in the SETTLED_NS before it was first hashed (so an edit within one timestamp tick
# of an earlier one is never missed: a fresh file is hashed each time).
SETTLED_NS = 2_000_000_000
_DIGESTS: dict[str, tuple[tuple[int, int, int, int], str]] = {}


def digest(f: Path) -> str:
    """The sha256 of a file's bytes (hex); OSError when it cannot be read."""
    where = os.fspath(f)
    st = os.stat(where)
    sig = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    known = _DIGESTS.get(where)
    if known is not None and known[0] == sig:
        return known[1]
    with open(where, "rb") as fh:
        value = hashlib.sha256(fh.read()).hexdigest()
    if time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) > SETTLED_NS:
        _DIGESTS[where] = (sig, value)
    return value


# -- the data-only encoding --------------------------------------------------------------------
#
# The payload is a pickle restricted to data: the reader's ``find_class`` names only the model classes
# above (and Decimal), and maps each to a maker that fills the fields given, by position, after checking
# their count; nothing else in the file can name a callable. Pickle's C reader builds the ten thousand
# values of a book about three times as fast as the JSON parser with an object hook did.

def _spec(cls: type) -> tuple[type, tuple[str, ...], bool]:
    """A model class, its fields in order, and whether it may be built without calling ``__init__``
    (no ``__post_init__``, every field set by ``__init__``: then filling the fields is all it does).

    Read from the class as written (its annotations, and ``field(init=False)``) while ``dataclass`` has
    not been applied to it yet (rulings/records.py): decoding a book does not need the classes made."""
    if "__dataclass_fields__" in cls.__dict__:
        fields = dataclasses.fields(cls)
        names = tuple(f.name for f in fields if f.init)
        return cls, names, len(names) == len(fields) and not hasattr(cls, "__post_init__")
    written = tuple(cls.__dict__.get("__annotations__", {}))
    declared = [cls.__dict__.get(name) for name in written]
    names = tuple(n for n, d in zip(written, declared) if not (isinstance(d, dataclasses.Field) and not d.init))
    return cls, names, len(names) == len(written) and not hasattr(cls, "__post_init__")


SPECS = {name: _spec(cls) for name, cls in CLASSES.items()}
_BY_TYPE = {cls: SPECS[name][1] for name, cls in CLASSES.items()}
# a field kept as a payload of its own, decoded when first read: a rule's examples are over half of a book
# and a ruling never reads them (model.Rule.__getattr__)
LAZY: dict[type, str] = {model.Rule: "examples"}
_new = object.__new__


def _maker(cls: type, names: tuple[str, ...], plain: bool) -> Callable[..., Any]:
    """What the reader calls for a model object in the payload: the object from its fields, by position."""
    n = len(names)
    lazy = LAZY.get(cls)

    def make(*values: Any) -> Any:
        if len(values) != n:
            raise CacheError(f"the wrong fields for {cls.__name__}")
        if not plain:
            return cls(*values)
        obj: Any = _new(cls)   # what the dataclass's own __init__ would do, without its per-field calls
        fields = obj.__dict__
        fields.update(zip(names, values))
        if lazy is not None and type(fields.get(lazy)) is bytes:   # decoded when first read (model.Rule)
            fields["_examples_load"] = partial(decode_examples, fields.pop(lazy))
        return obj
    return make


_MAKERS: dict[tuple[str, str], Callable[..., Any]] = {
    (model.__name__, name): _maker(*spec) for name, spec in SPECS.items()}
_MAKERS[("decimal", "Decimal")] = Decimal


def _reduce(obj: Any) -> Any:
    """How the writer puts a model object: its class and its fields by position (see ``_maker``)."""
    names = _BY_TYPE.get(type(obj))
    if names is not None:
        lazy = LAZY.get(type(obj))
        return type(obj), tuple(_lazy_payload(obj, f) if f == lazy else getattr(obj, f) for f in names)
    if type(obj) is Decimal or obj is Decimal or obj in _BY_TYPE:
        return NotImplemented   # pickle's own way: a Decimal as its text; a model class by its name
    # text, numbers, lists, tuples, dicts and sets never come here (pickle writes them itself)
    raise TypeError(f"cannot cache a {type(obj).__name__}")


def _lazy_payload(obj: Any, name: str) -> bytes:
    """A lazy field's own payload: as it was read when it has not been decoded since (a shipped rule's
    examples on a true miss: their origins name the file by its name only, as ``loads`` expects), else
    encoded now."""
    load = obj.__dict__.get("_examples_load")
    if (type(load) is partial and load.func is _examples_here and len(load.args) == 2
            and type(load.args[0]) is partial and type(obj.origin.file) is str
            and load.args[1].get(Path(obj.origin.file).name) == obj.origin.file):
        inner = load.args[0]
        if inner.func is decode_examples and type(inner.args[0]) is bytes:
            return inner.args[0]
    return encode(getattr(obj, name))


class _Writer(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        return _reduce(obj)


class _Reader(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        got = _MAKERS.get((module, name))
        if got is None:
            raise CacheError(f"unknown class {module}.{name}")
        return got

    def persistent_load(self, pid: Any) -> Any:
        raise CacheError("unexpected reference")


def encode(value: Any) -> bytes:
    """A rulebook (or any part of it) as the payload's data-only pickle; TypeError for anything else."""
    out = io.BytesIO()
    _Writer(out, protocol=PROTOCOL).dump(value)
    return out.getvalue()


def decode(payload: bytes) -> Any:
    """The inverse of ``encode``; CacheError for anything it would not have written."""
    return _unpickled(_Reader, payload)


def _unpickled(reader: type[pickle.Unpickler], payload: bytes) -> Any:
    try:
        return reader(io.BytesIO(payload)).load()
    except CacheError:
        raise
    except Exception as exc:   # the reader's own refusals: truncated, a wrong opcode, too deep, a bad argument
        raise CacheError(f"bad content: {type(exc).__name__}") from None


def decode_examples(payload: bytes) -> tuple:
    """A rule's examples, kept as a payload of their own (see ``LAZY``)."""
    examples = decode(payload)
    if type(examples) is not tuple or not all(type(e) is model.Example for e in examples):
        raise CacheError("not a rule's examples")
    return examples


def dumps(book: model.Rulebook, book_key: str) -> bytes:
    payload = encode(book)
    head = json.dumps({"format": FORMAT, "key": book_key, "sha256": hashlib.sha256(payload).hexdigest()})
    return head.encode() + b"\n" + payload


def loads(raw: bytes, book_key: str) -> model.Rulebook:
    """The book in a cache file; CacheError unless its header, key, digest and shape are all right."""
    head_text, _, payload = raw.partition(b"\n")
    try:
        head = json.loads(head_text)
    except ValueError:   # UnicodeDecodeError too
        raise CacheError("not a cache file") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT or head.get("key") != book_key:
        raise CacheError("another format or another book")
    if hashlib.sha256(payload).hexdigest() != head.get("sha256"):
        raise CacheError("the content does not match its digest")
    book = decode(payload)
    if not isinstance(book, model.Rulebook) or not isinstance(book.rules, dict):
        raise CacheError("not a rulebook")
    for r in book.rules.values():   # examples kept as the shipped copy wrote them name their file by name only
        load = r.__dict__.get("_examples_load") if type(r) is model.Rule else None
        if load is not None and type(r.origin) is model.Origin and type(r.origin.file) is str:
            r.__dict__["_examples_load"] = partial(_examples_here, load, {Path(r.origin.file).name: r.origin.file})
    return book


class _DataWriter(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is Decimal or obj is Decimal:
            return NotImplemented
        raise TypeError(f"not plain data: a {type(obj).__name__}")


def data_payload(value: Any) -> bytes:
    """Plain data (text, numbers, lists, tuples, dicts, sets, Decimal) as ``store_data`` encodes it;
    TypeError (or ValueError) for anything else."""
    out = io.BytesIO()
    try:
        _DataWriter(out, protocol=PROTOCOL).dump(value)
    except pickle.PicklingError as exc:
        raise TypeError(str(exc)) from None
    return out.getvalue()


def decode_data(payload: bytes) -> Any:
    """The inverse of ``data_payload``; CacheError for anything it would not have written."""
    return _unpickled(_DataReader, payload)


class _DataReader(_Reader):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) != ("decimal", "Decimal"):
            raise CacheError(f"unknown class {module}.{name}")
        return Decimal


def store_data(path: Path, what: str, value: Any) -> None:
    """Keep plain data (text, numbers, lists, tuples, dicts, sets, Decimal) in the cache folder under
    ``path``, headed by ``what`` and its digest; nothing if it holds anything else or cannot be written."""
    try:
        payload = data_payload(value)
    except (TypeError, ValueError, RecursionError):
        return
    head = json.dumps({"format": what, "sha256": hashlib.sha256(payload).hexdigest()})
    _write(path.parent, path, head.encode() + b"\n" + payload)


def read_data(path: Path, what: str) -> Any:
    """What ``store_data`` kept under ``path``, or None when there is no such file or it is not whole and right."""
    try:
        head_text, _, payload = _read(path).partition(b"\n")
        head = json.loads(head_text)
        if (not isinstance(head, dict) or head.get("format") != what
                or hashlib.sha256(payload).hexdigest() != head.get("sha256")):
            return None
        value = decode_data(payload)
    except Exception:   # missing, unreadable, not ours, truncated, a class named: no copy
        return None
    _touch(path)
    return value


# -- the folder --------------------------------------------------------------------------------

def cached(files: list[Path], names: list[str], build: Callable[[], model.Rulebook]) -> model.Rulebook:
    """The book from the cache when a good copy is there, else ``build()`` (and keep a copy)."""
    where = folder()
    if where is None:
        return build()
    # the package's own checked copy first, found by the same key as the folder's entries
    try:
        book_key, shipped = book_key_of(files, names)
    except OSError:
        return build()
    if shipped:
        book = shipped_book(files, names, matched=True)
        if book is not None:
            _SERVED.add(book_key)
            return _remember(book, book_key)
    return _in_folder(where, book_key, build, lambda: key(files, names), _placed(files))


def _placed(files: list[Path]) -> Callable[[model.Rulebook], None]:
    """What gives a book taken from the folder this place's ``files`` (the key holds their names and
    bytes, not where they are); a house book keeps its own file, last, as it was shown."""
    def place(book: model.Rulebook) -> None:
        book.files = [str(f) for f in files] + book.files[len(files):]
    return place


def _in_folder(where: Path, book_key: str, build: Callable[[], model.Rulebook], again: Callable[[], str],
               place: Callable[[model.Rulebook], None],
               keep: Callable[[model.Rulebook], bool] = lambda book: True) -> model.Rulebook:
    """The book kept in the folder under ``book_key`` when a good copy is there, else ``build()``, kept
    there when ``keep`` says so -- and only when ``again()``, the key worked out anew once it is built, is
    still ``book_key``: a file saved while it was read and checked is not kept under its earlier bytes' key
    (and the book is not known by that key: its compiled form is then keyed by its own rules). ``place``
    gives a book read from the folder this place's files."""
    path = where / f"book-{book_key}.bin"
    try:
        book = loads(_read(path), book_key)
        if not isinstance(book.files, list) or len(book.files) < 1:
            raise CacheError("a book with no files")
        place(book)
        _touch(path)
        return _remember(book, book_key)
    except (OSError, CacheError):
        pass
    book = build()
    try:
        same = again() == book_key
    except (OSError, CacheError):
        same = False
    if not same:
        return book
    if keep(book):
        _store(where, path, book, book_key)
    return _remember(book, book_key)


def book_key_of(files: list[Path], names: list[str]) -> tuple[str, bool]:
    """The key ``cached`` keeps the book of these files under, and whether the package's shipped copy holds
    it (by the files' names and bytes and the code that checks and compiles them); OSError when a file
    cannot be read. Nothing is decoded."""
    content = ship_key(files)
    ship = _shipped_file()
    shipped = ship is not None and len({f.name for f in files}) == len(files) and ship["head"]["key"] == content
    return _named(content, names), shipped


def cached_house(path: Path, shown: str, files: list[Path], names: list[str],
                 build: Callable[[], model.Rulebook]) -> model.Rulebook:
    """A house book merged over the standard book of ``files`` (shown as ``names``), from the cache when a
    good copy is there, else ``build()`` (and a copy kept when the house extends the standard book: one that
    extends another house book depends on more files than its own). Keyed by the standard book's key (its
    files and the code that checks them), the house file's place, its name in reports and its bytes."""
    where = folder()
    if where is None or not files:
        return build()
    def house_key() -> str:
        base, _ = book_key_of(files, names)
        h = hashlib.sha256(f"{FORMAT}\0house\0{base}\0".encode())
        # the file as the careful reader takes it: a FIFO, a device or a huge file is left to it to refuse
        mine = hashlib.sha256(_read(Path(path))).hexdigest()
        h.update(str(Path(path).resolve()).encode() + b"\0" + shown.encode() + b"\0" + mine.encode())
        return h.hexdigest()[:40]
    try:
        book_key = house_key()
    except (OSError, CacheError):
        return build()
    return _in_folder(where, book_key, build, house_key, _placed(files),
                      keep=lambda book: book.extends == "standard")


_KEYS: dict[int, tuple[weakref.ref, int, tuple[int, ...], str]] = {}


def _remember(book: model.Rulebook, book_key: str) -> model.Rulebook:
    """Note the key a book was cached under, without keeping the book alive (a weak reference)."""
    i = id(book)

    def forget(_: weakref.ref, keys: dict = _KEYS) -> None:
        keys.pop(i, None)       # the dict bound here: at interpreter exit the module's globals are already None
    _KEYS[i] = (weakref.ref(book, forget), id(book.rules), tuple(map(id, book.rules.values())), book_key)
    return book


def key_of(book: model.Rulebook) -> str | None:
    """The cache key of a book as ``cached`` gave it, while its rules are still those very (frozen) rules:
    it covers the rules' content and the code and catalogues that check and compile them, so the engine
    keys its compiled form by it."""
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
            h.update(p.name.encode() + b"\0" + digest(p).encode() + b"\0")
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
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise CacheError("not a regular file")
        want = min(st.st_size, MAX_BYTES) + 1   # the size it has now and a byte more (not a 16 MB buffer)
        parts, size = [], 0
        while size <= MAX_BYTES:   # it may grow meanwhile: read on, to MAX_BYTES and a byte
            part = os.read(fd, (want if size < want else MAX_BYTES + 1) - size)
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
    import tempfile   # only to write (it imports shutil and random): a start served from a copy writes nothing
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
    """Keep the ``keep`` most recently used books and catalogue copies (and a few compiled forms for each);
    remove temporary files left by a crash."""
    now = time.time()
    books: list[tuple[float, Path]] = []
    datas: list[tuple[float, Path]] = []
    forms: list[tuple[float, Path]] = []
    try:
        entries = list(where.iterdir())
    except OSError:
        return
    for p in entries:
        try:
            st = p.stat()
        except OSError:
            continue
        if p.name.startswith("book-") and p.name.endswith((".bin", ".json")):   # .json: an older format
            books.append((st.st_mtime, p))
        elif p.name.startswith("data-") and p.name.endswith(".json"):
            datas.append((st.st_mtime, p))
        elif p.name.startswith("compiled-") and p.name.endswith((".bin", ".json")):   # the engine's forms (engine/rulesets.py)
            forms.append((st.st_mtime, p))
        elif p.name.startswith(".book-") and p.name.endswith(".tmp") and now - st.st_mtime > STALE_TMP:
            _remove(p)
        elif p.name.startswith("book-") and p.name.endswith(".pickle"):   # an older version's cache
            _remove(p)
    old = sorted(books, reverse=True)[keep:] + sorted(datas, reverse=True)[keep:]
    for _, p in old + sorted(forms, reverse=True)[keep * FORMS_PER_BOOK:]:
        _remove(p)


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


# -- the package's own checked copy of the standard book ------------------------------------------

SHIP_FORMAT = "rulings.shipped/2"
SHIPPED = PACKAGE / "shipped-book.bin"
# the code and data that reading, checking and compiling the standard book run (tests/test_shipped_book.py
# checks that no other module of the package is imported while a book is built and compiled)
SHIP_CODE = ("__init__.py", "money.py", "problems.py", "records.py", "yamlsrc.py", "rulebook/*.py",
             "engine/*.py", "betting/*.py", "*.yaml", "ruling/*.yaml", "facts/*.yaml")
_SERVED: set[str] = set()   # the cache keys of books served from the shipped copy (their compiled form is in it)
_SHIP: dict[Path, Any] = {}  # the shipped file, read once per process: its header and body, or None


def ship_code() -> list[Path]:
    out: list[Path] = []
    for pattern in SHIP_CODE:
        out += sorted(PACKAGE.glob(pattern))
    return out


def _versions() -> str:
    import jinja2
    import yaml
    return f"{SHIP_FORMAT}\0jinja2 {jinja2.__version__}\0PyYAML {yaml.__version__}\0"


def code_key(fresh: bool = False) -> str:
    """A digest of the code and catalogues that check and compile a book (``SHIP_CODE``) and the versions of
    the libraries that parse it: of each module what it does (``meaning``), not how it is laid out or
    commented, so that a comment re-wrapped or a docstring reworded keeps the shipped copy and the cache
    folder's entries. ``fresh``: every module's meaning worked out here (scripts/ship_book.py), rather than
    taken from the shipped copy's table for the modules whose bytes are those it was built from."""
    h = hashlib.sha256(_versions().encode())
    for name, (_, meant) in code_digests(fresh).items():
        h.update(b"code\0" + name.encode() + b"\0" + meant.encode() + b"\0")
    return h.hexdigest()[:40]


def code_digests(fresh: bool = False) -> dict[str, tuple[str, str]]:
    """Each file of ``SHIP_CODE`` (by its place in the package): the digest of its bytes and of its meaning
    (a catalogue's meaning is its bytes). The shipped copy's header holds this table: a module whose bytes
    are those it was built from takes its meaning from there; only a module changed since is parsed."""
    known = {} if fresh else _shipped_codes()
    out = {}
    for f in ship_code():
        name, at = f.relative_to(PACKAGE).as_posix(), digest(f)
        if f.suffix != ".py":
            out[name] = (at, at)
            continue
        was = known.get(name)
        meant = was[1] if isinstance(was, list) and len(was) == 2 and was[0] == at and type(was[1]) is str \
            else _MEANINGS.get((name, at)) or meaning(f.read_bytes())
        _MEANINGS[(name, at)] = meant
        out[name] = (at, meant)
    return out


_MEANINGS: dict[tuple[str, str], str] = {}   # a module's meaning by its place and bytes, worked out once


def meaning(source: bytes) -> str:
    r"""A digest of what a module does: its syntax tree, without its docstrings (comments, blank lines and
    line wrapping are not in the tree); a module that does not parse is known by its bytes.

    >>> meaning(b"'A.'\nX = (1 +\n     2)   # two\n") == meaning(b"'B, reworded.'\n\nX = (1 + 2)\n")
    True
    >>> meaning(b"X = 1 + 2\n") == meaning(b"X = 2 + 1\n")
    False
    """
    import ast
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return hashlib.sha256(b"bytes\0" + source).hexdigest()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body \
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(b"tree\0" + ast.dump(tree).encode()).hexdigest()


def _shipped_codes() -> dict:
    """The shipped copy's table of its code's digests (``code_digests``), read from its header alone (also
    where the copy is not used: RULINGS_SHIPPED=off), once per process; empty when there is none."""
    if SHIPPED not in _CODES:
        got: Any = None
        try:
            with open(SHIPPED, "rb") as fh:
                got = json.loads(fh.readline(1 << 20)).get("codes")
        except (OSError, ValueError, AttributeError, RecursionError):
            pass
        _CODES[SHIPPED] = got if isinstance(got, dict) else {}
    return _CODES[SHIPPED]


_CODES: dict[Path, dict] = {}


def file_digests(files: list[Path]) -> dict[str, str]:
    return {f.name: digest(f) for f in files}


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
        h.update(p.name.encode() + b"\0" + digest(p).encode() + b"\0")
    return h.hexdigest()[:40]


def ship_bytes(head: dict, parts: dict[str, bytes]) -> bytes:
    """The shipped file: ``head`` (with where each part is and its digest) as a JSON line, then the parts."""
    where, offset = {}, 0
    for name, payload in parts.items():
        where[name] = [offset, len(payload), hashlib.sha256(payload).hexdigest()]
        offset += len(payload)
    return json.dumps(dict(head, parts=where)).encode() + b"\n" + b"".join(parts.values())


def _shipped_file() -> dict | None:
    """The shipped copy's header and body (each part's digest checked when it is first used), or None."""
    if os.environ.get("RULINGS_SHIPPED", "").strip().lower() in ("off", "0", "no", "false", "none"):
        return None
    if SHIPPED not in _SHIP:
        got = None
        try:
            head_text, _, body = _read(SHIPPED).partition(b"\n")
            head = json.loads(head_text)
            if (isinstance(head, dict) and head.get("format") == SHIP_FORMAT and isinstance(head.get("key"), str)
                    and isinstance(head.get("parts"), dict)):
                got = {"head": head, "body": body, "checked": {}}
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
        body = ship["body"]
        if (isinstance(where, list) and len(where) == 3 and type(where[0]) is int and type(where[1]) is int
                and 0 <= where[0] and 0 <= where[1] and where[0] + where[1] <= len(body)):
            payload = body[where[0]:where[0] + where[1]]
            if hashlib.sha256(payload).hexdigest() == where[2]:
                checked[name] = payload
    return checked[name]


def _data_part(ship: dict, name: str) -> Any:
    """A plain-data part of the shipped copy (as ``store_data`` encodes it), or None."""
    payload = _part(ship, name)
    if payload is None:
        return None
    try:
        return decode_data(payload)
    except CacheError:
        return None


def _decoded(ship: dict) -> model.Rulebook | None:
    """The shipped book as written: every origin's file, and the book's files, by file name only."""
    payload = _part(ship, "book")
    if payload is None:
        return None
    try:
        book = decode(payload)
    except CacheError:
        return None
    if not isinstance(book, model.Rulebook) or not isinstance(book.files, list):
        return None
    if "seed" not in ship:   # what the copy's rules are, for compiling a book that holds some of them
        ship["seed"] = ([(r.id, r.exception_to, r.when, r.then) for r in book.rules.values()],
                        sorted(book.parameters))
    return book


def _examples_here(load: Callable[[], tuple], where: dict[str, str], lines: int = 0) -> tuple:
    """A shipped rule's examples when first read (see ``LAZY``), their origins given the files' names here
    (and moved ``lines`` down with their rule)."""
    examples = load()
    for e in examples:
        _moved(e.origin, where, lines)
    return examples


def moved_examples(rule: model.Rule, where: dict[str, str], lines: int = 0) -> None:
    """Give a shipped rule's examples (origins by file name only) the names in ``where`` and move them ``lines``
    further down (their rule's entry moved in its file): when they are first read if they are still a
    payload, else now (a rule just decoded, held by nothing else)."""
    fields = rule.__dict__
    load = fields.get("_examples_load")
    if load is not None:
        fields["_examples_load"] = partial(_examples_here, load, where, lines) if lines else partial(
            _examples_here, load, where)
        return
    for e in fields.get("examples", ()):
        _moved(e.origin, where, lines)


def _moved(origin: model.Origin, where: dict[str, str], lines: int) -> None:
    if origin.file in where:   # decoded just now, held by nothing else
        object.__setattr__(origin, "file", where[origin.file])
        if lines:
            object.__setattr__(origin, "line", origin.line + lines)


def shipped_book(files: list[Path], names: list[str], matched: bool = False) -> model.Rulebook | None:
    """The shipped checked copy of these very files (by name and bytes), its origins given ``names``;
    None when there is none, it does not match or anything in it is wrong. ``matched``: the caller has just
    found the copy's key to be these files' (``book_key_of``), so it is not worked out again."""
    ship = _shipped_file()
    if ship is None or len({f.name for f in files}) != len(files):
        return None
    try:
        if not matched and ship["head"]["key"] != ship_key(files):
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
        fields = r.__dict__
        load = fields.get("_examples_load")
        if load is not None:   # still a payload: its origins are given their names when it is decoded
            fields["_examples_load"] = partial(_examples_here, load, where)
        elif type(fields.get("examples")) is tuple:
            origins += [e.origin for e in fields["examples"]]
    seen: set[int] = set()
    for o in origins:
        if type(o) is not model.Origin or (id(o) not in seen and o.file not in where):
            return None
        if id(o) not in seen:
            seen.add(id(o))
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
    return book, same


def shipped_rule_digests() -> dict[str, str] | None:
    """The shipped copy's rules by the digest of their entries (rulings/rulebook/load.py ``rule_digest``)."""
    ship = _shipped_file()
    got = _data_part(ship, "rules") if ship is not None else None
    return got if type(got) is dict else None


def shipped_form(book_key: str | None, part_rules: int, rules: int) -> dict | None:
    """The engine's whole compiled form the shipped copy holds, for a book served from it (``book_key``: the
    book's cache key) compiled with the same rules per ruleset; else None."""
    ship = _shipped_file()
    if ship is None or book_key not in _SERVED or ship["head"].get("part_rules") != part_rules:
        return None
    form = _data_part(ship, "form")
    if not isinstance(form, dict) or not isinstance(form.get("rules"), list) or len(form["rules"]) != rules:
        return None
    return form


def shipped_seed() -> tuple[list[tuple], list[str], list] | None:
    """The shipped copy's rules as this process decoded them -- (id, exception_to, when, then) of each, in
    the copy's order -- its parameters' names, and each rule's compiled entry (what it needs, reads and
    uses, its fast expressions and its durable-rules conditions: rulings/engine/rulesets.py ``rule_compiled``); None
    when no book was taken from the copy in this process, or the copy does not hold them whole. The engine
    takes the entries of the rules it holds unchanged (``shipped_parts`` and ``shipped_book`` checked that
    the code and catalogues that compile them are the copy's)."""
    ship = _shipped_file()
    seed = ship.get("seed") if ship is not None else None
    if ship is None or seed is None:
        return None
    data = _data_part(ship, "compiled")
    if type(data) is not list or len(data) != len(seed[0]):
        return None
    return seed[0], seed[1], data


def shipped_whole_form(book: model.Rulebook, got: tuple[list[tuple], list[str], list],
                       part_rules: int) -> dict | None:
    """The shipped copy's whole compiled form when the engine would compile exactly it again, for a book whose
    every rule the engine found to be the copy's with the same conditions and outcome (``got``: what
    ``shipped_seed`` gave): the same ids and exceptions in the same order (a rule's priority is its depth of
    exceptions), the same parameters' names and the same rules per ruleset; else None."""
    ship = _shipped_file()
    if (ship is None or ship["head"].get("part_rules") != part_rules
            or [(r.id, r.exception_to) for r in book.rules.values()] != [(s[0], s[1]) for s in got[0]]
            or sorted(book.parameters) != got[1]):
        return None
    form = _data_part(ship, "form")
    if not isinstance(form, dict) or not isinstance(form.get("rules"), list) or len(form["rules"]) != len(got[0]):
        return None
    return form


def shipped_texts() -> set[str]:
    """The durable-rules documents of the shipped copy's rulesets: durable-rules took each of them when the
    copy was written (scripts/ship_book.py compiles the book and registers every ruleset)."""
    ship = _shipped_file()
    form = _data_part(ship, "form") if ship is not None else None
    if not isinstance(form, dict) or not isinstance(form.get("parts"), list):
        return set()
    return {p["text"] for p in form["parts"] if isinstance(p, dict) and type(p.get("text")) is str}


def shipped_data(paths: list[Path]) -> list | None:
    """The shipped copy's parse of these catalogue files (by name and bytes, as ``yaml_data`` keeps it)."""
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
