"""Finding, loading, caching and linting rulebooks; one compiled engine per book per process."""
from __future__ import annotations

from pathlib import Path

from rulings.engine import Engine
from rulings.problems import Problem, ProblemsError
from rulings.rulebook.load import ROOT, build_book, standard_book
from rulings.rulebook.model import Rulebook

_CACHE: dict[str, tuple[Rulebook, Engine | None]] = {}


def house_path(house: str) -> Path:
    """A house book given as a path, or as a name under rulebooks/houses/."""
    p = Path(house)
    if p.suffix in (".yaml", ".yml") or p.exists():
        return p
    return ROOT / "houses" / f"{house}.yaml"


def load(house: str | None = None, compile: bool = True) -> tuple[Rulebook, Engine | None]:
    """The book in force (standard, or a house book over it) and, if asked, its compiled engine."""
    key = str(house_path(house).resolve()) if house else "standard"
    cached = _CACHE.get(key)
    if cached and (cached[1] is not None or not compile):
        return cached
    if house:
        from rulings.rulebook.house import load_house
        book = load_house(house_path(house), standard_book())
    else:
        book = standard_book()
    engine = Engine(book) if compile else None
    if engine is not None:
        _CACHE[key] = (book, engine)
    return book, engine


def reload(house: str | None = None) -> tuple[Rulebook, Engine]:
    """Load the book again from disk and free the old compiled ruleset."""
    key = str(house_path(house).resolve()) if house else "standard"
    old = _CACHE.pop(key, None)
    if old and old[1] is not None:
        old[1].close()
    book, engine = load(house)
    return book, engine


def lint(paths: list[str]) -> list[Problem]:
    """Every problem in the standard book and in any house books among ``paths``."""
    problems: list[Problem] = []
    standard = None
    try:
        standard = standard_book()
    except ProblemsError as exc:
        problems += exc.problems
    houses: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            houses += sorted(p.glob("houses/*.yaml")) + (sorted(p.glob("*.yaml")) if p.name == "houses" else [])
        elif p.suffix in (".yaml", ".yml") and p.parent.name != "standard":
            houses.append(p)
        elif not p.exists():
            problems.append(Problem(str(p), 0, 0, "R001", "no such file or folder"))
    if standard is not None:
        from rulings.rulebook.house import load_house
        for h in dict.fromkeys(houses):
            try:
                load_house(h, standard)
            except ProblemsError as exc:
                problems += exc.problems
    return sorted(problems)


def topic_book(files: list[Path]) -> Rulebook:
    return build_book("files", "Selected files", files)
