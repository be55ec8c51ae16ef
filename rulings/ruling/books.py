"""Finding, loading, caching and linting rulebooks; one compiled engine per book per process."""
from __future__ import annotations

import gc
import threading
from pathlib import Path
from typing import Any, Literal, NamedTuple, overload

from rulings.rulebook.catalogue import did_you_mean
from rulings.engine.rulesets import Engine
from rulings.problems import LimitError, Problem, ProblemsError, read_bounded
from rulings.rulebook.load import ROOT, build_book, standard_book
from rulings.rulebook.model import Rulebook

_CACHE: dict[str, tuple[Rulebook, Engine | None]] = {}
_LOCK = threading.RLock()   # one load (and one compiled engine) per book, whatever the threads
_FIRST = [True]             # no book loaded yet in this process


def is_path(house: str) -> bool:
    """Whether a --house value is a path (it has a folder separator or a .yaml/.yml ending), not a name."""
    return "/" in house or "\\" in house or Path(house).suffix in (".yaml", ".yml")


def book_for(incident: Any = None, named: str | None = None) -> str | None:
    """Which book rules an incident: the one place that decides it, for the command line, batch, ask, the
    service's API and the podium. The book the caller names (``--house``, a request's ``book``, the podium's
    book) goes first; else the house the incident names (``house:``, a name, never a path); else the
    standard book (None).

    ``incident`` is the incident as data (a mapping), as a located document (``yamlsrc.Located``), as the
    reader's ``Incident`` (its ``house``), or as YAML or JSON text, which is read here for its ``house:``
    only (text that does not read names no house; the reader refuses it, with line and column, when ruled).
    A ``house:`` that is not a name is left to the reader too (I104), never loaded.
    """
    if named:
        return named
    if isinstance(incident, str):
        from rulings.yamlsrc import load_text
        incident, _ = load_text(incident, "<incident>")
    data = getattr(incident, "data", incident)      # a located document's data
    house = data.get("house") if isinstance(data, dict) else getattr(incident, "house", None)
    return house if isinstance(house, str) and house and not is_path(house) else None


def house_path(house: str) -> Path:
    """A house book given on the command line: a path (relative to the working folder), or a name
    looked up in the house-book folders (rulebooks/houses/). A bare name never reads the working folder."""
    if is_path(house):
        return Path(house)
    from rulings.rulebook.house import find_house, house_dirs
    return find_house(house) or house_dirs()[0] / f"{house}.yaml"


@overload
def load(house: str | None = None, compile: Literal[True] = True) -> tuple[Rulebook, Engine]: ...
@overload
def load(house: str | None = None, *, compile: bool) -> tuple[Rulebook, Engine | None]: ...


def load(house: str | None = None, compile: bool = True) -> tuple[Rulebook, Engine | None]:
    """The book in force (standard, or a house book over it) and, if asked, its compiled engine (always
    there when asked: one cached without it is compiled now; without asking, the engine is None unless
    one is cached)."""
    key = str(house_path(house).resolve()) if house else "standard"
    with _LOCK:
        cached = _CACHE.get(key)
        if cached and (cached[1] is not None or not compile):
            return cached
        return _load(house, key, compile)


def _load(house: str | None, key: str, compile: bool) -> tuple[Rulebook, Engine | None]:
    # the first book of a process is some 10,000 objects that live as long as it does: the collector's
    # passes over them while they are built find nothing to free (about 6 ms of a cold start). Later
    # loads (a reload in the service) run with the collector on: paused each time, the garbage of the
    # books and engines they replace waits, and the process grew by 44 MB over 200 reloads.
    was = gc.isenabled()
    if _FIRST:
        _FIRST.clear()
        gc.disable()
    try:
        return _build(house, key, compile)
    finally:
        if was:
            gc.enable()


def _build(house: str | None, key: str, compile: bool) -> tuple[Rulebook, Engine | None]:
    if house:
        from rulings.rulebook.house import house_names, load_house_kept
        path = house_path(house)
        if not path.exists():
            close = did_you_mean(house, house_names())
            here = f"{house}.yaml"
            hint = (f"{here} in this folder is a file: give it as a path, --house {here} (a plain name is a "
                    "book in rulebooks/houses/)") if "/" not in house and Path(here).is_file() else \
                f"did you mean '{close}'?" if close else "give a path or a name under rulebooks/houses/"
            raise ProblemsError([Problem(str(path), 0, 0, "R001", f"no house book '{house}'", hint=hint)])
        book = load_house_kept(path)
    else:
        book = standard_book()
    engine = Engine(book) if compile else None
    if engine is not None:
        _CACHE[key] = (book, engine)
    return book, engine


def reload(house: str | None = None) -> tuple[Rulebook, Engine]:
    """Load the book again from disk and free the old compiled ruleset."""
    key = str(house_path(house).resolve()) if house else "standard"
    with _LOCK:
        old = _CACHE.pop(key, None)
        if old and old[1] is not None:
            old[1].close()
        book, engine = load(house)
    assert engine is not None
    return book, engine


def lint(paths: list[str]) -> list[Problem]:
    """Every problem in the standard book and in the house books or topic files among ``paths``."""
    return lint_report(paths)[0]


class Checked(NamedTuple):
    """What one lint checked: the house books and topic files it was given or found, and whether the
    standard book was among them. The standard book is checked every time (each house book extends it,
    each topic file is checked with the rest of it); ``total`` counts it too (``books_checked``)."""
    houses: int
    topics: int
    standard_named: bool

    @property
    def total(self) -> int:
        return 1 + self.houses + self.topics

    def words(self) -> str:
        """What was checked, as a manager reads it: '1 house book checked (with the standard book it
        extends)', 'The standard book and 3 house books checked'."""
        def n(count: int, what: str) -> str:
            return f"{count} {what}{'s' if count != 1 else ''}"
        parts = ([n(self.houses, "house book")] if self.houses else []) + \
                ([n(self.topics, "topic file")] if self.topics else [])
        if self.standard_named:
            return " and ".join(["The standard book"] + parts) + " checked"
        if not parts:
            return "No rulebook checked but the standard book"
        if not self.topics:
            return f"{parts[0]} checked (with the standard book {'it extends' if self.houses == 1 else 'they extend'})"
        if not self.houses:
            return f"{parts[0]} checked (with the rest of the standard book)"
        return f"{' and '.join(parts)} checked (with the standard book)"


LEXICON_SUFFIX = ".told.yaml"   # a house's told-dispute words beside its book (rulings/told/lexicon.py)


def lint_report(paths: list[str], skipped: list[str] | None = None,
                lexicons: list[Path] | None = None) -> tuple[list[Problem], Checked]:
    """Every problem in the standard book and in every rulebook among or under ``paths``, and what was
    checked (``Checked``).

    A folder is searched at every depth for ``*.yaml`` / ``*.yml`` files, whatever it is called; a
    file with ``topic:`` is a topic file, checked together with the standard book (in place of the
    standard topic file of the same name, if there is one), any other is a house book. A house book
    that loads also has its own examples run through the engine (R402 for each expectation not met).
    A folder holding no rulebook is a problem (R001): a check that checked nothing is not a pass.
    An incident file found in a folder (a top-level ``game:`` and no ``rulebook:``, ``extends:`` or
    ``topic:``) is not a rulebook: it is left out and its path added to ``skipped``; one named on its own
    is checked, and refused, as a house book. A house's told-dispute words (``NAME.told.yaml``) are no book:
    they are added to ``lexicons`` for the command line to check with the told reader's loader.
    """
    problems: list[Problem] = []
    standard = None
    try:
        standard = standard_book()
    except ProblemsError as exc:
        problems += exc.problems
    else:
        from rulings.rulebook.load import undescribed_keys
        problems += undescribed_keys(standard)
    own = {f.resolve() for f in (ROOT / "standard").glob("*.yaml")}
    found: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.suffix in (".yaml", ".yml") and p.exists():
            found.append(p)
        elif p.is_dir():
            books_here = sorted(f for f in p.rglob("*") if f.suffix in (".yaml", ".yml") and f.is_file())
            if not books_here:
                problems.append(Problem(str(p), 0, 0, "R001", "no rulebook (*.yaml) in this folder",
                                        hint="give a house book, a topic file or a folder holding them"))
            incidents = [f for f in books_here if _is_incident_file(f)]
            if skipped is not None:
                skipped += [str(f) for f in incidents]
            if books_here and len(incidents) == len(books_here):
                problems.append(Problem(str(p), 0, 0, "R001", f"no rulebook in this folder, only {len(incidents)} "
                                        "incident file(s)", hint="rule on incidents with `rulings rule`; "
                                        "give lint a house book, a topic file or a folder holding them"))
            found += [f for f in books_here if f not in incidents]
        else:
            problems.append(Problem(str(p), 0, 0, "R001", "no such file or folder",
                                    hint="give a house book, a topic file or a folder holding them"))
    houses: list[Path] = []
    topics: list[Path] = []
    standard_named = False
    for f in dict.fromkeys(found):
        if f.resolve() in own:   # the standard book itself, checked above
            standard_named = True
            continue
        if f.name.endswith(LEXICON_SUFFIX):   # a house's told-dispute words: no book; the command line checks it
            if lexicons is not None:           # with the told reader's loader (rulings/told/lexicon.py, R117)
                lexicons.append(f)
            continue
        (topics if _is_topic_file(f) else houses).append(f)
    checked = Checked(len(houses), len(topics), standard_named)
    standard_files = sorted((ROOT / "standard").glob("*.yaml"))
    for t in topics:
        base = [f for f in standard_files if f.name != t.name]
        try:
            build_book("standard", "Standard card-room rulebook", base + [t], problems)
        except ProblemsError as exc:
            problems += exc.problems
    if standard is not None:
        from rulings.rulebook.house import load_house, topic_warnings
        for h in dict.fromkeys(houses):
            try:
                book = load_house(h, standard, warnings=problems)
            except ProblemsError as exc:
                problems += exc.problems
                continue
            problems += topic_warnings(book, standard, str(h))
            problems += _example_problems(book)
    return sorted(set(problems)), checked


def _top_keys(path: Path) -> set[str]:
    """The top-level keys in the first 4 KB of a YAML file (its own lines that start a mapping key)."""
    try:   # a regular file only (a FIFO among the books would block an open for reading)
        head = read_bounded(path, 4096, head=True).decode("utf-8", "replace")
    except LimitError:
        return set()
    return {line.split(":", 1)[0] for line in head.splitlines() if line[:1].isalpha() and ":" in line}


def _is_incident_file(path: Path) -> bool:
    """An incident (what `rulings rule` reads), not a rulebook: it describes a game and is no book."""
    keys = _top_keys(path)
    return "game" in keys and not keys & {"rulebook", "extends", "topic"}


def _is_topic_file(path: Path) -> bool:
    """A standard-shaped topic file (checked against the standard book) rather than a house book."""
    try:   # a folder, FIFO or device: the loader refuses it as a house book
        head = read_bounded(path, 4096, head=True).decode("utf-8", "replace")
    except LimitError:
        return False
    return any(line.startswith("topic:") for line in head.splitlines())


# A house example copied from a topic file lacks what that file's example_defaults gave it (game, button...).
REFUSED_HINT = ("complete the example's incident, or give what the book's examples share once in "
                "example_defaults: (game, button, players, street, pot; docs/rulebook-language.md)")


def _example_problems(book: Rulebook) -> list[Problem]:
    """The house's own examples run through the merged book; each unmet expectation is an R402."""
    from rulings.ruling.examples import run_example
    own = [r for r in book.rules.values() if r.house is not None]
    if not own:
        return []
    engine = Engine(book)
    try:
        out = []
        for rule in own:
            for i, ex in enumerate(rule.examples):
                result = run_example(book, engine, rule, ex)
                if not result.ok:
                    refused = result.why.startswith("the example's incident is refused")
                    out.append(Problem(ex.origin.file, ex.origin.line, ex.origin.col, "R402",
                                       f"example '{ex.name}': {result.why}",
                                       ("rules", rule.id, "examples", str(i)),
                                       REFUSED_HINT if refused else
                                       "fix the example's expectation or the rule; rulings test --house runs it"))
        return out
    finally:
        engine.close()

