"""Dataclasses whose methods are made when the class is first used, not when its module is imported.

``dataclasses.dataclass`` compiles the source of ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``
(and for a frozen class ``__setattr__`` and ``__delattr__``) as it decorates: about 0.4 ms a class,
a fifth of a cold `rulings rule`'s own time over the model modules. Most of those classes are never
used by a given command (a ruling reads the rulebook model only through objects the book cache
builds field by field, and an incident of one street never makes a hand log).

``@record(...)`` on a class deriving from ``Lazy`` (``LazyFrozen`` for ``frozen=True``) takes the
same options as ``dataclass`` and leaves the class as written until it is first used -- made, compared,
hashed, printed, assigned to, or asked for its fields (``dataclasses.fields``, ``replace``,
``asdict``, ``is_dataclass``, ``__match_args__``). Then ``dataclass`` itself is applied to the very
same class, and from then on the class is exactly what ``dataclass`` makes. Until then the base
class's stand-ins answer each of those uses by doing that first (under a lock, so a thread that
meets the class half done waits for it).
"""
from __future__ import annotations

import dataclasses
import threading
from typing import TYPE_CHECKING, Any, Callable, TypeVar, dataclass_transform

T = TypeVar("T", bound=type)

_PENDING: dict[type, dict[str, Any]] = {}   # classes declared, not yet made: their dataclass options
_LOCK = threading.RLock()                    # re-entrant: making a class makes its record bases first


def made(cls: type) -> None:
    """Apply ``dataclass`` to ``cls`` (and to its record bases) if it has not been yet."""
    if not _PENDING:
        return
    with _LOCK:
        for klass in reversed(cls.__mro__):
            options = _PENDING.pop(klass, None)
            if options is not None:
                dataclasses.dataclass(klass, **options)


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: T | None = None, /, **options: Any) -> Any:
    """``dataclasses.dataclass(**options)``, applied when the class is first used (see the module)."""
    def wrap(klass: T) -> T:
        if not issubclass(klass, Lazy):
            raise TypeError(f"{klass.__name__}: a record derives from records.Lazy")
        if options.get("frozen") and not issubclass(klass, LazyFrozen):
            raise TypeError(f"{klass.__name__}: a frozen record derives from records.LazyFrozen")
        if options.get("slots"):   # dataclass would make a new class, not the one written
            raise TypeError(f"{klass.__name__}: slots are not for records; use dataclasses.dataclass")
        with _LOCK:
            _PENDING[klass] = options
        return klass
    return wrap if cls is None else wrap(cls)


def _stand_in(name: str) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        cls = type(self)
        made(cls)
        real = getattr(cls, name)
        if real is None and name == "__hash__":   # eq without frozen: dataclass makes it unhashable
            raise TypeError(f"unhashable type: '{cls.__name__}'")
        if real is method:   # dataclass was told not to make this one: the object's own
            real = getattr(object, name)
        return real(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = name
    return method


class _ClassAttribute:
    """A class attribute dataclass sets (``__dataclass_fields__``, ...): asked for, the class is made first."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, cls: type) -> Any:
        if cls in (Lazy, LazyFrozen):   # the bases themselves are not dataclasses
            raise AttributeError(self.name)
        made(cls)
        for klass in cls.__mro__:
            if self.name in klass.__dict__ and klass.__dict__[self.name] is not self:
                return klass.__dict__[self.name]
        raise AttributeError(self.name)


class Lazy:
    """The base of a ``@record`` class: stand-ins for what ``dataclass`` adds, each making the class first."""

    __slots__ = ()
    __init__ = _stand_in("__init__")
    __repr__ = _stand_in("__repr__")
    __eq__ = _stand_in("__eq__")
    __hash__ = _stand_in("__hash__")   # type: ignore[assignment]
    if not TYPE_CHECKING:   # a type checker knows them from ``order=True`` (dataclass_transform), as written
        # made by ``order=True``; without it the made class keeps these, which answer as object's own do (a
        # comparison it does not support: NotImplemented, so ``<`` raises TypeError)
        __lt__ = _stand_in("__lt__")
        __le__ = _stand_in("__le__")
        __gt__ = _stand_in("__gt__")
        __ge__ = _stand_in("__ge__")
    __dataclass_fields__ = _ClassAttribute("__dataclass_fields__")
    __dataclass_params__ = _ClassAttribute("__dataclass_params__")
    __match_args__ = _ClassAttribute("__match_args__")


class LazyFrozen(Lazy):
    """The base of a ``@record(frozen=True)`` class: assignment is refused once made, as ``dataclass`` does."""

    __slots__ = ()
    __setattr__ = _stand_in("__setattr__")
    __delattr__ = _stand_in("__delattr__")


_FIELDS: dict[type, frozenset[str]] = {}


def filled(cls: type, values: dict[str, Any]) -> Any:
    """An object of a record (or dataclass) with no ``__post_init__``, given every field ``__init__`` takes,
    made without making the class: what its ``__init__`` would do (a catalogue of several hundred objects is
    built on every start, and most of a ruling's reads of it are plain attribute reads)."""
    names = _FIELDS.get(cls)
    if names is None:
        if hasattr(cls, "__post_init__"):
            raise TypeError(f"{cls.__name__} has a __post_init__: make it with its __init__")
        if "__dataclass_fields__" in cls.__dict__:
            names = frozenset(f.name for f in dataclasses.fields(cls) if f.init)
        else:   # as written: the annotations, less any field(init=False)
            declared = cls.__dict__.get("__annotations__", {})
            names = frozenset(n for n in declared if not (isinstance(cls.__dict__.get(n), dataclasses.Field)
                                                          and not cls.__dict__[n].init))
        _FIELDS[cls] = names
    if values.keys() != names:
        raise TypeError(f"{cls.__name__} takes the fields {', '.join(sorted(names))}")
    obj: Any = object.__new__(cls)
    obj.__dict__.update(values)
    return obj


def evolve(obj: Any, **changes: Any) -> Any:
    """``dataclasses.replace`` for a made record or dataclass with no ``__post_init__`` and every field
    given to ``__init__``: a copy of its fields with ``changes`` set (replace's generic path, over
    every field through ``__init__``, was some 3% of a `rulings rule --jsonl` line on its own)."""
    cls = type(obj)
    if hasattr(cls, "__post_init__"):   # its own work on the new fields: replace's own way
        return dataclasses.replace(obj, **changes)
    fields = cls.__dataclass_fields__
    for name in changes:
        if name not in fields:
            raise TypeError(f"{cls.__name__} has no field {name!r}")
    new = object.__new__(cls)
    state = new.__dict__
    state.update(obj.__dict__)
    state.update(changes)
    return new
