"""What a loaded rulebook is: parameters, rules with their conditions, outcomes and examples."""
from __future__ import annotations

import os
import sys
import weakref
from dataclasses import field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from rulings.records import Lazy, LazyFrozen, record

MAX_PARAM_COUNT = 100     # a count or percent parameter without its own maximum (Parameter.coerce refuses more)
OPS = ("eq", "not", "in", "not_in", "above", "at_least", "below", "at_most", "missing", "present")


@record(frozen=True)
class Origin(LazyFrozen):
    """Where something was written: file, line, column."""

    file: str
    line: int
    col: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"

    def shown(self) -> str:
        """Where it was written as a text output prints it: see ``shown``."""
        return shown(str(self))


# No place: put for where a rule, example or parameter was written when two are compared as content only.
NOWHERE = Origin("", 0, 0)

_SHOWN: dict[tuple[str, str], str] = {}   # each place as shown, by the working folder it was shown from
_CWD: list[str | None] = [None]     # the working folder as last read; None until read, and again after a chdir


def _chdir_seen(event: str, args: tuple) -> None:
    """An audit hook: the working folder is read again after any ``os.chdir`` (or ``os.fchdir``)."""
    if event == "os.chdir":
        _CWD[0] = None


def shown(where: str) -> str:
    """``_shown(where)``, worked out once per place and working folder (every ruling of a report names its
    rule's place, and a batch names the same few hundred places again and again). The working folder is
    read once, and again only after the process changes it (an audit hook on ``os.chdir``), not by a system
    call per place shown."""
    cwd = _CWD[0]
    if cwd is None:
        if not _HOOKED:
            sys.addaudithook(_chdir_seen)
            _HOOKED.append(_chdir_seen)
        try:
            cwd = _CWD[0] = os.getcwd()
        except OSError:   # the working folder is gone: as it always was, worked out each time
            return _shown(where)
    key = (where, cwd)
    got = _SHOWN.get(key)
    if got is None:
        got = _shown(where, cwd)
        if len(_SHOWN) < 4096:
            _SHOWN[key] = got
    return got


_HOOKED: list = []   # the hook is added once per process (audit hooks cannot be removed)


def _shown(where: str, cwd: str | None = None) -> str:
    """A file (or ``file:line``) as the text outputs print it, never an absolute path of the install: relative
    to the working folder when the file is under it, else from the rulebooks folder it is in
    (``rulebooks/standard/pot-limit.yaml:191``), else a house version by its book (``pnw-lowball/0001.yaml``,
    from the service's ``houses/`` folder), else the file's name in its own folder.

    >>> shown("/nowhere/site-packages/rulings/rulebooks/houses/tda-series.yaml:50")
    'rulebooks/houses/tda-series.yaml:50'
    >>> shown("/srv/rulings-data/houses/pnw-lowball/0001.yaml:17")
    'pnw-lowball/0001.yaml:17'
    >>> shown("/elsewhere/my-room.yaml:7")
    'my-room.yaml:7'
    """
    from pathlib import Path
    file, sep, line = where.rpartition(":")
    if not (sep and line.isdigit()):
        file, sep, line = where, "", ""
    p = Path(file)
    if not p.is_absolute():
        return where
    try:
        out = p.relative_to(Path(cwd) if cwd is not None else Path.cwd()).as_posix()
    except ValueError:
        parts = p.parts
        at = [i for i in range(len(parts) - 2) if parts[i] == "rulebooks" and parts[i + 1] in ("standard", "houses")]
        kept = [i for i in range(len(parts) - 2) if parts[i] == "houses"]     # a published version: NAME/0001.yaml
        out = "/".join(parts[at[-1]:]) if at else "/".join(parts[kept[-1] + 1:]) if kept else p.name
    return out + sep + line


@record(frozen=True)
class Condition(LazyFrozen):
    """One test on one fact (or parameter) of the incident.

    ``value`` is a literal already converted to the fact's type (money in minor
    units), or, when ``is_expr``, an arithmetic expression over other facts.
    """

    fact: str
    op: str
    value: Any = None
    is_expr: bool = False


@record(frozen=True)
class AnyOf(LazyFrozen):
    """Conditions of which at least one group must hold."""

    groups: tuple[tuple["Condition | AnyOf", ...], ...]


def leaves(when):
    """Every single condition of a ``when:``, the alternatives of its ``any:`` groups included, in order."""
    for c in when:
        if isinstance(c, AnyOf):
            for g in c.groups:
                yield from leaves(g)
        else:
            yield c


@record(frozen=True)
class Discretion(LazyFrozen):
    """A ruling left to the floor: what is usual, and what to weigh."""

    usual: str
    weigh: tuple[str, ...]


@record(frozen=True)
class Outcome(LazyFrozen):
    """What a rule does when it fires: a ruling, derived facts, questions."""

    ruling: str | None = None
    decides: str | None = None
    effects: tuple[tuple[str, str], ...] = ()
    derive: tuple[tuple[str, str], ...] = ()
    say: str | None = None
    discretion: Discretion | None = None
    ask: tuple[str, ...] = ()
    convention: str | None = None


@record(frozen=True)
class Example(LazyFrozen):
    """One worked example of a rule: an incident and what the rule should do with it."""

    name: str
    incident: dict
    expect: dict
    origin: Origin


@record(frozen=True)
class Rule(LazyFrozen):
    """One checked rule of a book: when it applies, what it rules, where it came from."""

    id: str
    title: str
    topic: str
    cites: tuple[str, ...]
    text: str
    when: tuple[Condition | AnyOf, ...]
    then: Outcome
    examples: tuple[Example, ...]
    origin: Origin
    exception_to: str | None = None
    replaces: str | None = None
    house: str | None = None          # the house book that added or replaced it
    modifies: str | None = None       # the standard rule it overrides, for provenance
    written: tuple | None = None      # an exception's own conditions as written; `when` adds the inherited ones

    if not TYPE_CHECKING:   # hidden from mypy, which goes on checking every attribute read from a Rule
        def __getattr__(self, name: str) -> Any:
            """Called only for an attribute the object lacks: a rule from the book cache decodes its examples
            when they are first read (rulings/rulebook/cache.py); a ruling never reads them."""
            if name == "examples":
                load = self.__dict__.get("_examples_load")   # set by the book cache: no import of it here
                if load is not None:
                    value = self.__dict__["examples"] = load()
                    self.__dict__.pop("_examples_load", None)
                    return value
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def condition_count(self) -> int:
        def count(items) -> int:
            n = 0
            for c in items:
                n += max(count(g) for g in c.groups) if isinstance(c, AnyOf) else 1
            return n
        return count(self.when)


def as_written(value: Any) -> str:
    """A value as a rulebook writes it in YAML: true, 1.5, 'yes' (text in quotes), never Python's True or
    Decimal('1.5')."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return repr(value)
    return str(value)


@record(frozen=True)
class Parameter(LazyFrozen):
    """A house parameter a book declares: its type, default and limits."""

    name: str
    type: str                         # enum | bool | money | count | percent
    description: str
    values: tuple[Any, ...]           # allowed values (enum/bool); empty for numbers
    default: Any                      # a value, or a dict {cash: v, tournament: v}
    cites: tuple[str, ...]
    origin: Origin
    minimum: int | None = None
    maximum: int | None = None
    words: dict = field(default_factory=dict, compare=False)   # value -> plain words
    arithmetic: str | None = None     # the betting arithmetic's attribute (rulings.betting.Params) read from it
    also_named: tuple[str, ...] = ()  # other names rooms write the setting under (``Rulebook.parameter``)

    def upper(self) -> int | None:
        """The largest value accepted: the declared maximum, or for a number without one
        MAX_PARAM_COUNT (an amount has no maximum of its own)."""
        if self.maximum is not None:
            return self.maximum
        return None if self.type == "money" else MAX_PARAM_COUNT

    def allowed_words(self) -> str:
        """The values allowed, as `rulings params` and lint say them: half_bet, full_bet; true, false;
        a whole number from 1 to 100."""
        if self.values:
            return ", ".join(as_written(v) if isinstance(v, bool) else str(v) for v in self.values)
        unit = {"money": "an amount", "percent": "a whole percent", "count": "a whole number"}.get(self.type, "a number")
        low = "" if self.minimum is None else f" from {self.minimum}"
        high = "" if self.upper() is None else f" to {self.upper()}"
        return unit + low + high

    def coerce(self, value: Any) -> Any:
        """A value given for this parameter, checked and converted (money to minor units); ValueError if not allowed.

        The message writes the value back as it was written in YAML (1.5, true, 'yes'), never as Python, and
        names the allowed values as `rulings params` does; ``refusal_hint`` says what to write instead."""
        from rulings.money import to_minor
        shown = as_written(value)
        if self.type in ("enum", "bool"):
            if value not in self.values or (self.type == "enum" and isinstance(value, bool)):
                raise ValueError(f"{shown} is not an allowed value of {self.name} ({self.allowed_words()})")
            return value
        if isinstance(value, bool):
            raise ValueError(f"{self.name} is a number, not {shown}")
        try:
            v = to_minor(value) if self.type == "money" else value
        except ValueError as exc:   # MoneyError: not an amount, negative, more than two decimals
            raise ValueError(f"{self.name}: {exc}") from None
        low, high = self.minimum, self.upper()
        if not isinstance(v, int) or (low is not None and v < low) or (high is not None and v > high):
            raise ValueError(f"{self.name} must be {self.allowed_words()}, not {shown}")
        return v

    def refusal_hint(self, value: Any) -> str | None:
        """What to write instead of a refused value, when the mistake is a common one: a yes/no or a quoted
        true for a flag, a number in quotes, a fraction for a whole percent."""
        if self.type == "bool" and isinstance(value, str):
            return "write true or false, without quotes"
        if self.type in ("count", "percent") and isinstance(value, str):
            from rulings.money import whole_number
            written = value.strip()   # only plain digits are told to lose their quotes: int('1.0E+999999999')
            number = whole_number(written, 0, 10 ** 18)   # would write a billion digits first
            if number is not None:
                return f"write {number} without quotes"
        if self.type == "percent" and isinstance(value, Decimal) and 0 < value < 1:
            whole = value * 100
            if whole == whole.to_integral_value():
                return f"write {int(whole)} for {int(whole)}%"
        return None

    def default_for(self, setting: str) -> Any:
        return setting_value(self.default, setting)


def setting_value(value: Any, setting: str) -> Any:
    """A parameter's value in one setting: a value given per setting (a default or a house value
    ``{cash: v, tournament: v}``) read for ``setting``; any other value is the same in both."""
    return value[setting] if isinstance(value, dict) else value


class ParamValues(dict):
    """A book's parameter values by name, knowing which parameters the betting arithmetic reads.

    ``arithmetic`` maps a parameter's name to the attribute of
    ``rulings.betting.Params`` it supplies, as the book declares it.
    """

    arithmetic: dict[str, str]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arithmetic = {}


@record
class Rulebook(Lazy):
    """A merged book: the rules and parameters in force, with where each came from."""

    name: str
    title: str
    files: list[str]
    parameters: dict[str, Parameter]
    rules: dict[str, Rule]
    settings: dict[str, Any] = field(default_factory=dict)    # house parameter values
    disabled: dict[str, str] = field(default_factory=dict)     # rule id -> reason
    extends: str | None = None
    # derived facts some rule reads that have a default (the fact catalogue's `default:`), in the order
    # the engine gives them once nothing is left to fire: a fact before those whose deriving rules read it
    defaults: dict[str, Any] = field(default_factory=dict)
    # the room's own citation keys (HOUSE-ROOM-N) this book and the house books it extends describe
    # (a house book's citations:): key -> where the room's posted rules say it
    citations: dict[str, str] = field(default_factory=dict)

    def parameter(self, name: str) -> Parameter | None:
        """The parameter declared under ``name`` or under another name rooms use for it (``also_named:``)."""
        p = self.parameters.get(name)
        if p is None:
            p = next((q for q in self.parameters.values() if name in q.also_named), None)
        return p

    def param_values(self, setting: str, overrides: dict | None = None) -> ParamValues:
        """Every parameter's value for this setting: incident overrides, then house, then defaults."""
        values = ParamValues({n: p.default_for(setting) for n, p in self.parameters.items()})
        values.arithmetic = {n: p.arithmetic for n, p in self.parameters.items() if p.arithmetic}
        values.update({n: setting_value(v, setting) for n, v in self.settings.items()})
        values.update(overrides or {})
        return values

    def rulings(self) -> set[str]:
        return {r.then.ruling for r in self.rules.values() if r.then.ruling}


_PER_BOOK: dict[tuple, tuple] = {}


def per_book(book: Rulebook, what: str, make) -> Any:
    """``make()`` worked out once per book and ``what``: kept while the book's rules, parameters and house
    settings are those it was worked out from, and never keeping the book itself alive."""
    key = (id(book), what)
    got = _PER_BOOK.get(key)
    if (got is None or got[0]() is not book or got[1] is not book.rules or got[2] is not book.parameters
            or got[3] != book.settings):
        def forget(_: weakref.ref) -> None:
            _PER_BOOK.pop(key, None)
        got = (weakref.ref(book, forget), book.rules, book.parameters, dict(book.settings), make())
        _PER_BOOK[key] = got
    return got[4]
