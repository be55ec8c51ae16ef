"""The incident reader's helper: reads typed values by field and collects every problem, never raising.

Each problem carries the file, line and column of the field (rulings/yamlsrc.py),
the field's dotted name, what is wrong and the legal options. The cards dealt in
a hand are read in the notation of rulings/incident/cards.py, none of them twice
(``read_cards``).
"""
from __future__ import annotations

from typing import Any

from rulings.incident.cards import CARD_HINT, card, split_cards
from rulings.rulebook.catalogue import did_you_mean
from rulings.money import MAX_AMOUNT, SCALE, MoneyError, digits, to_minor
from rulings.problems import Problem
from rulings.yamlsrc import Located

MAX_UNKNOWN_SHOWN = 20         # unknown fields reported one by one per mapping; the rest are counted


class Reader:
    def __init__(self, doc: Located):
        self.doc = doc
        self.problems: list[Problem] = []
        self.paths: list[tuple] = []               # the field of each problem, in the same order
        self.dealt: dict[str, tuple] = {}          # each card seen in the hand, and where it was first written

    def bad(self, path: tuple, code: str, message: str, hint: str | None = None, key: bool = False) -> None:
        where = _dotted(path)
        self.paths.append(path)
        self.problems.append(self.doc.problem(path, code, f"{where}: {message}" if where else message, hint, key))

    def keys(self, data: dict, allowed: tuple, path: tuple) -> None:
        unknown = [k for k in data if k not in allowed]
        if len(unknown) > MAX_UNKNOWN_SHOWN:
            self.bad(path, "I101", f"{len(unknown):,} unknown fields; the first {MAX_UNKNOWN_SHOWN} follow",
                     "allowed: " + ", ".join(allowed))
        for k in unknown[:MAX_UNKNOWN_SHOWN]:
            close = did_you_mean(k, allowed)
            self.bad(path + (k,), "I101", "unknown field",
                     f"did you mean '{close}'?" if close else "allowed: " + ", ".join(allowed), key=True)

    def mapping(self, data: Any, path: tuple, required: bool = True) -> dict | None:
        if data is None and not required:
            return None
        if not isinstance(data, dict):
            self.bad(path, "I103", "expected a mapping of fields")
            return None
        return data

    def money(self, value: Any, path: tuple, required: bool = True) -> int | None:
        if value is None:
            if required:
                self.bad(path, "I102", "an amount is required")
            return None
        if type(value) is int and 0 <= value <= MAX_AMOUNT:   # the common case, as to_minor gives it
            return value * SCALE
        try:
            return to_minor(value)
        except MoneyError as exc:
            self.bad(path, "I103", str(exc))
            return None

    def whole(self, value: Any, path: tuple, low: int = 1, high: int = 1_000_000) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "..."
            self.bad(path, "I103", f"expected a whole number from {low} to {high:,}, found {shown}")
            return None
        return value

    def choice(self, value: Any, allowed: tuple, path: tuple, required: bool = True) -> Any:
        if value is None:
            if required:
                self.bad(path, "I102", "is required", "one of: " + ", ".join(map(str, allowed)))
            return None
        if value not in allowed:
            close = did_you_mean(value, allowed)
            self.bad(path, "I104", f"'{value}' is not one of: {', '.join(map(str, allowed))}",
                     f"did you mean '{close}'?" if close else None)
            return None
        return value


def _dotted(path: tuple) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (("." if out else "") + str(p))
    return out


def read_cards(r: Reader, value: Any, path: tuple) -> tuple[str, ...] | None:
    """Cards dealt in the hand (board, upcards, shown hands); a card seen twice anywhere in the hand is refused (I140)."""
    parts = split_cards(value)
    if parts is None:
        r.bad(path, "I103", "cards are a list or text like 'Ah 7c 2d'", CARD_HINT)
        return None
    out = []
    for i, text in enumerate(parts):
        c = card(text)
        if c is None:
            r.bad(path, "I104", f"'{text}' is not a card", CARD_HINT)
            continue
        if c in r.dealt:
            where = "listed twice here" if r.dealt[c] == path else f"dealt twice (also at {_dotted(r.dealt[c])})"
            r.bad(path, "I140", f"the card {c} is {where}",
                  "each card is in the deck once: correct one of the two")
            continue
        r.dealt[c] = path
        out.append(c)
    return tuple(out)


def seat_key(key: Any) -> Any:
    """A seat given as a mapping key: JSON keys are text."""
    n = digits(key)
    return key if n is None else n


def twice_keyed(r: "Reader", mapping: dict, path: tuple) -> set:
    """The keys of a seat mapping that name a seat another key names too (``1`` and ``"1"``): each refused
    (I105), never merged in silence. Returns the keys to skip."""
    seen: dict[Any, Any] = {}
    skip = set()
    for key in mapping:
        seat = seat_key(key)
        if seat in seen and seen[seat] is not key:
            r.bad(path + (key,), "I105", f"seat {seat} is given twice in {_dotted(path) or 'this mapping'} "
                  f"(as {seen[seat]!r} and {key!r})", "give each seat once")
            skip.add(key)
        else:
            seen.setdefault(seat, key)
    return skip
