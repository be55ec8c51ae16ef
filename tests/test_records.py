"""rulings/records.py: a record is made into its dataclass on first use, and is then exactly that dataclass."""
from __future__ import annotations

import copy
import dataclasses
import pickle
import threading

import pytest

from rulings.rulebook import cache as bookcache
from rulings.records import Lazy, LazyFrozen, evolve, record


def _pair():
    """The same class twice: a plain dataclass and a record (fresh classes: each test sees them unmade)."""
    def body():
        return {"__annotations__": {"name": "str", "line": "int", "tags": "dict"},
                "line": 1, "tags": dataclasses.field(default_factory=dict, compare=False),
                "__str__": lambda self: f"{self.name}:{self.line}"}
    plain = dataclasses.dataclass(frozen=True)(type("Spot", (), body()))
    lazy = record(frozen=True)(type("Spot", (LazyFrozen,), body()))
    return plain, lazy


def test_a_record_is_not_made_until_used_then_is_its_dataclass():
    plain, lazy = _pair()
    assert "__init__" not in lazy.__dict__ and "__dataclass_fields__" not in lazy.__dict__
    a, b = lazy("pot.yaml", 3), lazy("pot.yaml", 3, {"x": 1})
    assert "__init__" in lazy.__dict__
    assert a == b and hash(a) == hash(b) and a != lazy("pot.yaml", 4)   # tags: compare=False
    assert repr(a) == repr(plain("pot.yaml", 3)) and str(a) == "pot.yaml:3"
    assert [f.name for f in dataclasses.fields(a)] == [f.name for f in dataclasses.fields(plain)]
    assert lazy.__match_args__ == plain.__match_args__ == ("name", "line", "tags")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.line = 4
    with pytest.raises(dataclasses.FrozenInstanceError):
        del a.name


@pytest.mark.parametrize("first_use", ["eq", "hash", "repr", "setattr", "fields", "replace", "asdict",
                                       "is_dataclass", "match_args", "copy"])
def test_an_object_built_field_by_field_makes_its_class_on_any_first_use(first_use):
    """As the book cache builds the model: object.__new__ and the fields, no __init__."""
    plain, lazy = _pair()
    obj = object.__new__(lazy)
    obj.__dict__.update(name="pot.yaml", line=3, tags={})
    twin = object.__new__(lazy)
    twin.__dict__.update(name="pot.yaml", line=3, tags={"x": 1})
    use = {"eq": lambda: obj == twin, "hash": lambda: hash(obj) == hash(twin),
           "repr": lambda: repr(obj) == "Spot(name='pot.yaml', line=3, tags={})",
           "setattr": lambda: pytest.raises(dataclasses.FrozenInstanceError, setattr, obj, "line", 4) is not None,
           "fields": lambda: [f.name for f in dataclasses.fields(obj)] == ["name", "line", "tags"],
           "replace": lambda: dataclasses.replace(obj, line=4) == lazy("pot.yaml", 4),
           "asdict": lambda: dataclasses.asdict(obj) == {"name": "pot.yaml", "line": 3, "tags": {}},
           "is_dataclass": lambda: dataclasses.is_dataclass(obj) and dataclasses.is_dataclass(lazy),
           "match_args": lambda: lazy.__match_args__ == ("name", "line", "tags"),
           "copy": lambda: copy.copy(obj) == obj and copy.deepcopy(obj) == twin}
    assert use[first_use]()
    assert "__eq__" in lazy.__dict__ and obj == twin and hash(obj) == hash(twin)


@record(frozen=True)
class Pickled(LazyFrozen):
    """Used by one test only: pickled before anything else made it."""

    name: str
    line: int = 1


def test_an_unmade_record_pickles_and_comes_back_whole():
    obj = object.__new__(Pickled)
    obj.__dict__.update(name="pot.yaml", line=3)
    assert "__eq__" not in Pickled.__dict__
    again = pickle.loads(pickle.dumps(obj))
    assert "__eq__" not in Pickled.__dict__   # pickling copies the fields; nothing needed the class made
    assert again == Pickled("pot.yaml", 3) and again.__dict__ == obj.__dict__


def test_a_record_that_is_not_frozen_is_unhashable_like_its_dataclass():
    @record
    class Book(Lazy):
        name: str

    obj = object.__new__(Book)
    obj.__dict__["name"] = "standard"
    with pytest.raises(TypeError, match="unhashable"):
        hash(obj)
    obj.name = "house"
    assert obj == Book("house") and Book.__hash__ is None
    with pytest.raises(TypeError, match="unhashable"):
        {Book("x")}


def test_options_a_record_cannot_take_are_refused():
    with pytest.raises(TypeError, match="LazyFrozen"):
        record(frozen=True)(type("X", (Lazy,), {"__annotations__": {"a": "int"}}))
    with pytest.raises(TypeError, match="slots"):
        record(slots=True)(type("Y", (Lazy,), {"__annotations__": {"a": "int"}}))
    with pytest.raises(TypeError, match="derives from"):
        record(type("Z", (), {"__annotations__": {"a": "int"}}))


def test_an_ordered_record_sorts_as_its_dataclass_and_an_unordered_one_refuses_to():
    body = {"__annotations__": {"file": "str", "line": "int", "note": "str"},
            "note": dataclasses.field(default="", compare=False)}
    plain = dataclasses.dataclass(frozen=True, order=True)(type("At", (), dict(body)))
    lazy = record(frozen=True, order=True)(type("At", (LazyFrozen,), dict(body)))
    rows = [("b.yaml", 2, "x"), ("a.yaml", 9, "y"), ("b.yaml", 1, "z"), ("a.yaml", 9, "a")]
    first = object.__new__(lazy)   # built field by field; the first comparison makes the class
    first.__dict__.update(file="b.yaml", line=2, note="x")
    assert "__lt__" not in lazy.__dict__
    got = sorted([first] + [lazy(*r) for r in rows[1:]])
    assert "__lt__" in lazy.__dict__
    assert [(o.file, o.line, o.note) for o in got] == [(o.file, o.line, o.note)
                                                       for o in sorted(plain(*r) for r in rows)]
    assert lazy("a.yaml", 1) <= lazy("a.yaml", 1, "other") and lazy("b.yaml", 1) > lazy("a.yaml", 5)

    _, unordered = _pair()
    with pytest.raises(TypeError, match="not supported"):
        unordered("a.yaml", 1) < unordered("b.yaml", 1)   # noqa: B015


def test_threads_meeting_an_unmade_record_all_get_the_dataclass():
    _, lazy = _pair()
    start = threading.Barrier(8)
    got: list = []

    def worker(i):
        start.wait()
        got.append((lazy("f", i), hash(lazy("f", i)), repr(lazy("f", i))))

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(g[0].line for g in got) == list(range(8))
    assert all(g[2] == f"Spot(name='f', line={g[0].line}, tags={{}})" for g in got)


def test_the_book_cache_reads_the_model_fields_as_dataclass_would_give_them():
    for name, cls in bookcache.CLASSES.items():
        fields = dataclasses.fields(cls)
        assert bookcache._spec(cls)[1] == tuple(f.name for f in fields if f.init), name
    # and from a record not yet made
    _, lazy = _pair()
    spec = bookcache._spec(lazy)
    assert "__dataclass_fields__" not in lazy.__dict__ and spec[1:] == (("name", "line", "tags"), True)


def test_evolve_gives_what_replace_gives_and_refuses_a_field_the_class_lacks():
    plain, lazy = _pair()
    for cls in (plain, lazy):
        a = cls("pot.yaml", 3, {"x": 1})
        b = evolve(a, line=7)
        assert b == dataclasses.replace(a, line=7) and (b.name, b.line, b.tags) == ("pot.yaml", 7, {"x": 1})
        assert (a.line, type(b)) == (3, cls)   # the original stands
        with pytest.raises(dataclasses.FrozenInstanceError):
            b.line = 8
        with pytest.raises(TypeError, match="no field 'lines'"):
            evolve(a, lines=7)
