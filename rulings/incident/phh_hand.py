"""Read PHH hand histories (.phh, .phhs) into the betting model's ``Hand``, with exact money.

PHH is a TOML format (spec v0.0.1). Every amount becomes an ``int`` in minor
units, a hundredth of the file's unit: ``0.50`` is 50 and a chip count of
``1150000`` is 115000000. An amount finer than a hundredth is refused.

>>> text = '''
... variant = 'NT'
... antes = [0, 0, 0]
... blinds_or_straddles = [1, 2, 0]
... min_bet = 2
... starting_stacks = [200, 200, 150.50]
... actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 6', 'p2 cc']
... '''
>>> hand = loads_phh(text)[0]
>>> [(a.line, a.action.kind, a.action.to) for a in hand.actions]
[(None, 'post', 100), (None, 'post', 200), (3, 'raise', 600), (None, 'fold', None), (4, 'call', None)]
>>> hand.filled
("p1 (seat 1) folded before actions[4] 'p2 cc'; the log leaves the fold out.",)
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from itertools import takewhile
from pathlib import Path
from typing import Any

from rulings.betting.model import Action, Game, Hand, Money, Player

#: PHH variant code -> betting structure. PO is pot-limit Omaha: its betting is pot-limit hold'em's.
VARIANTS: dict[str, str] = {"NT": "no-limit", "FT": "fixed-limit", "PO": "pot-limit"}
#: The structures a caller may force on each variant (PHH has no code for pot-limit hold'em).
OVERRIDES: dict[str, tuple[str, ...]] = {
    "NT": ("no-limit", "pot-limit"), "PO": ("pot-limit", "no-limit"), "FT": ("fixed-limit",),
}
_LIMIT_FIELDS = {"no-limit": ("min_bet",), "pot-limit": ("min_bet",),
                 "fixed-limit": ("small_bet", "big_bet")}
_AMOUNT = re.compile(r"\d+(\.\d+)?")
_PLAYER = re.compile(r"p([1-9][0-9]*)")
_BOARD_STREETS = 3  # flop, turn, river: the only `d db` lines a hold'em hand can have


class PhhError(ValueError):
    """A PHH file that cannot be read: bad TOML, a missing or wrong field, or a bad action line.

    ``line`` is the index of the entry of ``actions`` at fault (None when the
    fault is elsewhere), ``field`` the PHH field, ``hand`` the table name of
    the hand inside a ``.phhs`` file.
    """

    def __init__(self, message: str, *, line: int | None = None, field: str | None = None,
                 hand: str | None = None, source: str | None = None):
        super().__init__(message)
        self.message = message
        self.line = line
        self.field = field
        self.hand = hand
        self.source = source

    def __str__(self) -> str:
        where = [self.source or "", f"[{self.hand}]" if self.hand else ""]
        if self.field:
            where.append(f" {self.field}" + (f"[{self.line}]" if self.line is not None else ""))
        prefix = "".join(where).strip()
        return f"{prefix}: {self.message}" if prefix else self.message


@dataclass(frozen=True)
class PhhAction:
    """One action of the hand, with the ``actions`` entry it came from (None: a post or a filled action)."""

    line: int | None
    street: int
    action: Action
    filled: bool = False


@dataclass(frozen=True)
class PhhHand:
    """A PHH hand read into the model: ``actions`` lists every action of ``hand.streets`` in order."""

    hand: Hand
    seats: tuple[int, ...]               # seats[i] is the seat of PHH player p(i+1)
    actions: tuple[PhhAction, ...]
    filled: tuple[str, ...] = ()         # one sentence per action the log left out
    notes: tuple[str, ...] = ()          # how a quirk of the file was read
    name: str | None = None              # the table name inside a .phhs file
    source: str | None = None
    players: tuple[str, ...] | None = None
    finishing_stacks: tuple[Money, ...] | None = None
    winnings: tuple[Money, ...] | None = None

    def seat(self, player: int) -> int:
        """The seat of PHH player ``p<player>`` (1-based, as in the action lines)."""
        return self.seats[player - 1]

    def line_of(self, index: int) -> int | None:
        """The ``actions`` entry behind the action at ``index`` (as counted by ``positions``)."""
        return self.actions[index].line


def to_minor(value: Any, *, field: str, line: int | None = None) -> Money:
    """Convert a PHH amount to minor units exactly.

    >>> to_minor(Decimal("0.50"), field="x"), to_minor(1150000, field="x"), to_minor("3.00", field="x")
    (50, 115000000, 300)
    >>> to_minor(Decimal("0.505"), field="min_bet")
    Traceback (most recent call last):
    ...
    rulings.incident.phh_hand.PhhError: min_bet: 0.505 has more than 2 decimals; amounts must be whole hundredths
    """
    if isinstance(value, str):
        if not _AMOUNT.fullmatch(value):
            raise PhhError(f"{value!r} is not an amount", field=field, line=line)
        value = Decimal(value)
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise PhhError(f"{value!r} is not an amount", field=field, line=line)
    try:
        minor = Decimal(value) * 100
        whole = minor.is_finite() and minor == minor.to_integral_value()
    except InvalidOperation:
        whole = False
    if not whole:
        raise PhhError(f"{value} has more than 2 decimals; amounts must be whole hundredths",
                       field=field, line=line)
    if minor < 0:
        raise PhhError(f"{value} is negative", field=field, line=line)
    return int(minor)


def toml_document(text: str) -> tuple[dict[str, Any] | None, str, str]:
    """PHH (TOML) text as a document, read within the YAML reader's limits: (document, "", "") or (None, the
    code, what is wrong). A number is read as YAML reads it (``json_number``: exact, within 10^±1000; a whole
    number of more digits than Python converts is refused, not a ValueError), and values nested more than
    ``MAX_DEPTH`` deep are refused (Y011) whether or not the TOML reader itself ran out of stack first."""
    from rulings.yamlsrc import MAX_DEPTH, json_number
    try:
        document = tomllib.loads(text, parse_float=json_number)
    except tomllib.TOMLDecodeError as error:
        return None, "Y001", f"not valid TOML: {error}"
    except RecursionError:      # arrays or tables inside each other deeper than the TOML reader goes
        return None, "Y011", f"values are nested more than {MAX_DEPTH} deep (a hand history needs two levels)"
    except ValueError as error:   # a whole number of more than 4,300 digits
        return None, "Y001", f"not valid TOML: {str(error)[:80]}"
    level: list[Any] = [document]
    depth = 1
    while level:                  # breadth first, never recursive: the reader may have gone deeper than we can
        if depth > MAX_DEPTH:
            return None, "Y011", f"values are nested more than {MAX_DEPTH} deep (a hand history needs two levels)"
        level = [v for x in level for v in (x.values() if isinstance(x, dict) else x) if isinstance(v, (dict, list))]
        depth += 1
    return document, "", ""


def read_phh(path: str | Path, structure: str | None = None) -> list[PhhHand]:
    """Read a ``.phh`` (one hand) or ``.phhs`` (tables ``[1]``, ``[2]``, ...) file.

    ``structure`` forces a betting structure, e.g. ``"pot-limit"`` for an NT
    file that records pot-limit hold'em (PHH has no code for it).
    """
    from rulings.yamlsrc import LimitError, read_bounded   # regular files only, read with a bound
    path = Path(path)
    try:
        text = read_bounded(path).decode("utf-8")
    except LimitError as error:
        raise PhhError(error.problem.message, source=str(path)) from None
    except UnicodeDecodeError as error:
        raise PhhError(f"cannot read the file: {error}", source=str(path)) from None
    return loads_phh(text, structure=structure, many=path.suffix == ".phhs", source=str(path))


def loads_phh(text: str, structure: str | None = None, *, many: bool = False,
              source: str | None = None) -> list[PhhHand]:
    """Read PHH text: one hand, or with ``many`` a ``.phhs`` collection of tables."""
    document, _, why = toml_document(text)
    if document is None:
        raise PhhError(why, source=source)
    if not many:
        return [_read_hand(document, structure, None, source)]
    hands = []
    for name, table in document.items():
        if not isinstance(table, dict):
            raise PhhError(f"a .phhs file holds only tables of hands, not {name!r}", field=name,
                           source=source)
        hands.append(_read_hand(table, structure, name, source))
    return hands


def _read_hand(fields: dict[str, Any], structure: str | None, name: str | None,
               source: str | None) -> PhhHand:
    try:
        return _HandReader(fields, structure).read(name, source)
    except PhhError as error:
        error.hand, error.source = name, source
        raise


class _HandReader:
    """Turns one hand's fields into a ``PhhHand``; fills the folds and checks the log left out."""

    def __init__(self, fields: dict[str, Any], structure: str | None):
        self.fields = fields
        variant = self._required("variant")
        if not isinstance(variant, str) or variant not in VARIANTS:
            raise PhhError(f"unknown variant {variant!r}; this reader knows "
                           + ", ".join(VARIANTS), field="variant")
        self.structure = structure or VARIANTS[variant]
        if self.structure not in OVERRIDES[variant]:
            raise PhhError(f"a {variant} file cannot be read as {self.structure}; allowed: "
                           + ", ".join(OVERRIDES[variant]), field="structure")
        self.stacks = self._amounts("starting_stacks")
        self.n = len(self.stacks)
        if self.n < 2:
            raise PhhError("a hand needs at least 2 players", field="starting_stacks")
        antes = self._amounts("antes", self.n)
        blinds = self._amounts("blinds_or_straddles", self.n)
        # PHH lists heads-up forced bets in blind order (SB, BB) while p1 is the big blind;
        # ``antes`` and ``blinds`` are by player, ``role_blinds`` as the file has them.
        self.antes = antes[::-1] if self.n == 2 else antes
        self.blinds = blinds[::-1] if self.n == 2 else blinds
        self.role_blinds = blinds
        self.limits = [to_minor(self._required(f), field=f) for f in _LIMIT_FIELDS[self.structure]]
        self.seats = self._seats()
        self.lines = self._required("actions")
        if not isinstance(self.lines, list):
            raise PhhError("actions must be a list of strings", field="actions")

    def _required(self, field: str) -> Any:
        if field not in self.fields:
            raise PhhError(f"the required field {field!r} is missing", field=field)
        return self.fields[field]

    def _amounts(self, field: str, length: int | None = None) -> list[Money]:
        values = self._required(field)
        if not isinstance(values, list):
            raise PhhError("must be a list of amounts", field=field)
        if length is not None and len(values) != length:
            raise PhhError(f"has {len(values)} entries for {length} players", field=field)
        return [to_minor(value, field=field) for value in values]

    def _seats(self) -> tuple[int, ...]:
        seats = self.fields.get("seats")
        if seats is None:
            return tuple(range(1, self.n + 1))
        if (not isinstance(seats, list) or len(seats) != self.n
                or not all(isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in seats)
                or len(set(seats)) != self.n):
            raise PhhError(f"must be {self.n} different positive seat numbers", field="seats")
        return tuple(seats)

    def read(self, name: str | None, source: str | None) -> PhhHand:
        game = self._game()
        straddles = tuple(takewhile(bool, self.role_blinds[2:]))  # the run after the big blind
        table = _Table(self)
        for index, line in enumerate(self.lines):
            table.play_line(index, line)
        streets = [tuple(a.action for a in table.log if a.street == s)
                   for s in range(table.street + 1)]
        stacks, pot_before = self.stacks, 0
        if not game.ante and any(self.antes):
            # Uneven antes (a big-blind ante) have no field in the model: they go in as dead
            # money already in the middle, out of the stacks of those who paid them.
            paid = [min(a, s) for a, s in zip(self.antes, self.stacks)]
            stacks = [s - p for s, p in zip(self.stacks, paid)]
            pot_before = sum(paid)
        hand = Hand(game=game, players=tuple(Player(seat, stack) for seat, stack
                                             in zip(self.seats, stacks)),
                    streets=tuple(streets), straddles=straddles, pot_before=pot_before)
        return PhhHand(hand=hand, seats=self.seats, actions=tuple(table.log),
                       filled=tuple(table.filled), notes=tuple(self._notes()), name=name,
                       source=source, players=self._names(),
                       finishing_stacks=self._optional("finishing_stacks"),
                       winnings=self._optional("winnings"))

    def _game(self) -> Game:
        small, big = (self.role_blinds + [0, 0])[:2]
        ante = self.antes[0] if len(set(self.antes)) == 1 else 0
        if self.structure == "fixed-limit":
            small_bet, big_bet = self.limits
            return Game(structure="fixed-limit", small_blind=small, big_blind=big, ante=ante,
                        bet_sizes=(small_bet, small_bet, big_bet, big_bet))
        return Game(structure=self.structure, small_blind=small, big_blind=big, ante=ante)

    def _notes(self) -> list[str]:
        notes = []
        if len(set(self.antes)) > 1:
            notes.append("the antes differ from player to player, so they are read as dead money "
                         "in the middle (pot_before) and the players' stacks are given net of them.")
        if self.fields.get("ante_trimming_status") is True and len(set(self.antes)) > 1:
            notes.append("ante_trimming_status = true is read as false: antes are dead money in a "
                         "card room and are never trimmed back (a replay that trims refunds a "
                         "lone big-blind ante and misses finishing_stacks).")
        return notes

    def _names(self) -> tuple[str, ...] | None:
        names = self.fields.get("players")
        if names is None:
            return None
        if not isinstance(names, list) or len(names) != self.n:
            raise PhhError(f"must name {self.n} players", field="players")
        return tuple(str(name) for name in names)

    def _optional(self, field: str) -> tuple[Money, ...] | None:
        return tuple(self._amounts(field, self.n)) if field in self.fields else None


class _Table:
    """Whose turn it is and what each player owes, just enough to map and fill PHH lines."""

    def __init__(self, reader: _HandReader):
        self.reader = reader
        self.n = reader.n
        self.seats = reader.seats
        self.behind: list[Money] = [s - a for s, a in zip(reader.stacks, reader.antes)]
        self.committed = [0] * self.n
        self.folded = [False] * self.n
        self.street = 0
        self.log: list[PhhAction] = []
        self.filled: list[str] = []
        self._post_blinds()
        self._start_street(first=1 if self.n == 2 else self._after_largest_blind())

    def _after_largest_blind(self) -> int:
        """The player after the largest blind or straddle (the last of equal ones), as pokerkit opens:
        a straddle from any seat, or a re-straddle on its right, acts last (WIKI-STRADDLE-MS)."""
        blinds = self.reader.blinds
        return (max(range(self.n), key=lambda i: (blinds[i], i)) + 1) % self.n

    def _post_blinds(self) -> None:
        order = [1, 0] if self.n == 2 else range(self.n)
        for i in order:
            amount = min(self.reader.blinds[i], max(self.behind[i], 0))
            if amount:
                self._put(i, amount)
                self._record(None, Action(self.seats[i], "post", to=amount))
        # A short blind does not lower the bet to call (RRP/TDA: calls are to the full blind).
        self.current_bet = max(self.reader.blinds, default=0)

    def _put(self, i: int, to: Money) -> None:
        self.behind[i] -= to - self.committed[i]
        self.committed[i] = to

    def _record(self, line: int | None, action: Action, filled: bool = False) -> None:
        self.log.append(PhhAction(line, self.street, action, filled))

    def _can_act(self, i: int) -> bool:
        return not self.folded[i] and self.behind[i] > 0

    def _start_street(self, first: int) -> None:
        order = [(first + k) % self.n for k in range(self.n)]
        self.pending = [i for i in order if self._can_act(i)]
        if len(self.pending) == 1 and self.committed[self.pending[0]] >= self.current_bet:
            self.pending = []

    def _live(self) -> int:
        return sum(not f for f in self.folded)

    def play_line(self, index: int, line: Any) -> None:
        """Take the ``actions`` entry at ``index``: record its action, fill what it shows missing."""
        if not isinstance(line, str):
            raise PhhError(f"{line!r} is not an action line", field="actions", line=index)
        words = line.split("#", 1)[0].split()
        match words:
            case []:
                return
            case ["d", "dh", player, _]:
                self._player(player, index, line)
            case ["d", "db", _]:
                self._deal_board(index, line)
            case [player, "f" | "cc" as verb]:
                self._bet_line(self._player(player, index, line), verb, None, index, line)
            case [player, "cbr", amount]:
                to = to_minor(amount, field="actions", line=index)
                self._bet_line(self._player(player, index, line), "cbr", to, index, line)
            case [player, "sm" | "sd", *_] | [player, "pb"]:
                self._player(player, index, line)
                if words[1] == "sm":
                    self._fill_street(index, repr(line))
            case _:
                raise PhhError(f"cannot read the action line {line!r}", field="actions", line=index)

    def _player(self, label: str, index: int, line: str) -> int:
        match = _PLAYER.fullmatch(label)
        if not match:
            raise PhhError(f"{label!r} in {line!r} is not a player (p1, p2, ...)",
                           field="actions", line=index)
        number = int(match.group(1))
        if number > self.n:
            raise PhhError(f"{line!r} names p{number} but the hand has {self.n} players",
                           field="actions", line=index)
        return number - 1

    def _deal_board(self, index: int, line: str) -> None:
        if self._live() < 2:
            raise PhhError(f"{line!r} deals a board after the hand was won", field="actions",
                           line=index)
        if self.street >= _BOARD_STREETS:
            raise PhhError(f"{line!r} deals a board after the river", field="actions", line=index)
        self._fill_street(index, repr(line))
        self.street += 1
        self.committed = [0] * self.n
        self.current_bet = 0
        self._start_street(first=0)

    def _fill_street(self, index: int, before: str) -> None:
        while self.pending and self._live() > 1:
            self._fill(self.pending[0], index, before)

    def _fill(self, i: int, index: int, before: str) -> None:
        """Fill the action of player ``i``, due before ``before`` (the line at ``index``)."""
        owes = self.current_bet > self.committed[i]
        kind = "fold" if owes else "check"
        self._record(None, Action(self.seats[i], kind), filled=True)
        self.pending.remove(i)
        if owes:
            self.folded[i] = True
        self.filled.append(f"p{i + 1} (seat {self.seats[i]}) {'folded' if owes else 'checked'} "
                           f"before actions[{index}] {before}; the log leaves the {kind} out.")

    def _bet_line(self, i: int, verb: str, to: Money | None, index: int, line: str) -> None:
        while self.pending and self.pending[0] != i and self._live() > 1:
            self._fill(self.pending[0], index, repr(line))
        if not self.pending or self._live() < 2:
            state = "the hand is over" if self._live() < 2 else "no one is due to act"
            raise PhhError(f"{line!r}: {state} on this street", field="actions", line=index)
        self.pending.pop(0)
        seat = self.seats[i]
        if verb == "f":
            self.folded[i] = True
            action = Action(seat, "fold")
        elif verb == "cc" and self.committed[i] >= self.current_bet:
            action = Action(seat, "check")
        elif verb == "cc":
            self._put(i, min(self.current_bet, self.committed[i] + self.behind[i]))
            action = Action(seat, "call")
        else:
            assert to is not None
            action = Action(seat, "raise" if self.current_bet else "bet", to=to)
            self._put(i, to)
            self.current_bet = max(self.current_bet, to)
            after = [(i + k) % self.n for k in range(1, self.n)]
            self.pending = [j for j in after if self._can_act(j)]
        self._record(index, action)


def phh_from_fields(fields: dict[str, Any], source: str | None = None) -> PhhHand:
    """One hand from PHH fields already parsed from TOML (an incident's hand history, its ``_rulings`` table removed)."""
    return _read_hand(fields, None, None, source)
