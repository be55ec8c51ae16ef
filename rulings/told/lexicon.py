"""The lexicon of told disputes: the YAML catalogue of words (rulings/told/lexicon.yaml) and a house's additions.

Pure data in, a ``Lexicon`` out: every phrase with the grammar term and value it stands for, the chip colours,
the person letters. A phrase given under two terms is refused (the reader would have to guess between them).

>>> lex = standard()
>>> lex.phrases[("three-bets",)], lex.phrases[("under", "the", "gun")]
(('VERB', 'raise'), ('POSITION', 'utg'))
>>> lex.colours["black"]
Decimal('100')
>>> lex.typo("rasies")
'raises'
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

MAX_PHRASE = 8           # words in the longest phrase read
MAX_LEXICON_BYTES = 200_000

WORD = re.compile(r"[a-z0-9][a-z0-9'+\-]*:?|[,()]")


class LexiconError(ValueError):
    """A lexicon file that cannot be used: the message says where and why."""


def words_of(phrase: str) -> tuple[str, ...]:
    return tuple(WORD.findall(phrase.lower()))


@dataclass
class Lexicon:
    phrases: dict[tuple[str, ...], tuple[str, str]] = field(default_factory=dict)
    colours: dict[str, Decimal] = field(default_factory=dict)
    letters: tuple[str, ...] = ()
    longest: int = 1
    not_typos: frozenset[str] = frozenset()

    def add(self, data: Any, where: str) -> None:
        if not isinstance(data, dict):
            raise LexiconError(f"{where}: a lexicon is a mapping with terms:, chip_colours: and letters:")
        unknown = set(data) - {"terms", "chip_colours", "letters", "not_typos"}
        if unknown:
            raise LexiconError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))}; "
                               "a lexicon has terms:, chip_colours:, letters: and not_typos:")
        not_typos = data.get("not_typos") or []
        if not isinstance(not_typos, list):
            raise LexiconError(f"{where}: not_typos: a list of words")
        self.not_typos = self.not_typos | {str(w).lower() for w in not_typos}
        for colour, value in (data.get("chip_colours") or {}).items():
            try:
                amount = Decimal(str(value))
            except ArithmeticError:
                raise LexiconError(f"{where}: chip_colours.{colour}: {value!r} is not an amount") from None
            if not amount.is_finite() or amount <= 0 or amount > 10 ** 9:
                raise LexiconError(f"{where}: chip_colours.{colour}: {value!r} is not a chip's value")
            self.colours[str(colour).lower()] = amount
        if data.get("letters") is not None:
            self.letters = tuple(str(x) for x in data["letters"])
        for term, values in (data.get("terms") or {}).items():
            if not isinstance(values, dict):
                raise LexiconError(f"{where}: terms.{term}: a mapping of values to their phrases")
            for value, phrases in values.items():
                for phrase in phrases if isinstance(phrases, list) else [phrases]:
                    key = words_of(str(phrase))
                    if not key or len(key) > MAX_PHRASE:
                        raise LexiconError(f"{where}: terms.{term}.{value}: {phrase!r} is not a phrase of 1 to "
                                           f"{MAX_PHRASE} words")
                    had = self.phrases.get(key)
                    if had and had != (term, str(value)):
                        raise LexiconError(f"{where}: {phrase!r} is both {had[0]} {had[1]!r} and {term} {value!r}: "
                                           "give each phrase one meaning")
                    self.phrases[key] = (str(term), str(value))
                    self.longest = max(self.longest, len(key))
        for colour in self.colours:
            self.phrases.setdefault((colour,), ("COLOUR", colour))
            self.phrases.setdefault((colour + "s",), ("COLOUR", colour))

    def typo(self, word: str) -> str | None:
        """The one lexicon word a phone's typo of five letters or more stands for (one edit away), or None."""
        if len(word) < 5 or not word.isalpha() or word in self.not_typos:
            return None
        found = sorted(w for w in _single_words(self) if abs(len(w) - len(word)) <= 1 and _one_edit(word, w))
        meanings = {self.phrases[(w,)] for w in found}
        return found[0] if len(meanings) == 1 else None     # "rasie": 'raise' and 'rasies' both mean a raise


def _single_words(lex: Lexicon) -> tuple[str, ...]:
    return tuple(sorted({k[0] for k in lex.phrases if len(k) == 1 and len(k[0]) >= 4 and k[0].isalpha()}))


def _one_edit(a: str, b: str) -> bool:
    """a and b differ by one letter changed, added, dropped, or two neighbours swapped."""
    if a == b:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    for i in range(len(long_)):
        if long_[:i] + long_[i + 1:] == short:
            return True
    return False


@lru_cache(maxsize=1)
def _standard_data() -> Any:
    return yaml.safe_load(resources.files("rulings.told").joinpath("lexicon.yaml").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def standard() -> Lexicon:
    lex = Lexicon()
    lex.add(_standard_data(), "rulings/told/lexicon.yaml")
    return lex


LEXICON_SUFFIX = ".told.yaml"     # a house's words beside its book: rulebooks/houses/NAME.told.yaml


def lexicon_path(house_file: Path) -> Path:
    """Where a house book's told-dispute words are kept: beside it, NAME.told.yaml."""
    return house_file.with_name(house_file.stem + LEXICON_SUFFIX)


def for_house(house_file: Path | None) -> Lexicon:
    """The lexicon a house's told disputes are read by: the standard one, extended by the file beside the house
    book when there is one (re-read when it changes). Raises LexiconError when that file cannot be used."""
    if house_file is None:
        return standard()
    path = lexicon_path(house_file)
    try:
        stat = path.stat()
    except OSError:
        return standard()
    return _house_cached(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)
def _house_cached(path: str, mtime: int, size: int) -> Lexicon:
    if size > MAX_LEXICON_BYTES:
        raise LexiconError(f"{path}: more than {MAX_LEXICON_BYTES:,} bytes; a lexicon is far shorter")
    return extended(Path(path).read_text(encoding="utf-8", errors="replace"), path)


def lexicon_problems(path: Path) -> list:
    """A house's told-dispute lexicon checked as the reader loads it (lint's R117), as problems."""
    from rulings.problems import LimitError, Problem, read_bounded
    try:
        data = read_bounded(path, MAX_LEXICON_BYTES + 1)
    except (LimitError, OSError) as exc:
        return [Problem(str(path), 0, 0, "R117", f"the told lexicon cannot be read: {exc}")]
    try:
        extended(data.decode("utf-8", "replace"), str(path))
    except LexiconError as exc:
        return [Problem(str(path), 0, 0, "R117", str(exc).removeprefix(f"{path}: "),
                        hint="a told lexicon has terms:, chip_colours:, letters: and not_typos: as "
                             "rulings/told/lexicon.yaml does; each phrase one meaning")]
    return []


def extended(text: str, where: str) -> Lexicon:
    """The standard lexicon with a house's additions (its chip colours replace the standard ones)."""
    if len(text.encode("utf-8", "replace")) > MAX_LEXICON_BYTES:
        raise LexiconError(f"{where}: more than {MAX_LEXICON_BYTES:,} bytes; a lexicon is far shorter")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise LexiconError(f"{where}: not YAML ({str(exc).splitlines()[0]})") from None
    lex = Lexicon()
    lex.add(_standard_data(), "rulings/told/lexicon.yaml")
    if isinstance(data, dict) and data.get("chip_colours"):
        lex.colours = {}
    lex.add(data, where)
    return lex
