"""The fact catalogue and the citation catalogue, read once from the package's YAML."""
from __future__ import annotations

from typing import Any
from functools import lru_cache
from pathlib import Path

import yaml

from rulings.records import LazyFrozen, filled, record
from rulings.yamlsrc import load_catalogue

HERE = Path(__file__).resolve().parents[1]   # the package's folder: facts/*.yaml, citations.yaml
FACT_TYPES = ("enum", "bool", "money", "count", "percent", "seat", "text")
NUMERIC = ("money", "count", "percent", "seat")
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@record(frozen=True)
class Fact(LazyFrozen):
    """One fact a rule may test or set."""

    name: str
    kind: str                       # input | computed | derived
    type: str                       # one of FACT_TYPES
    description: str
    question: str
    values: tuple[str, ...] = ()    # for enums
    source: str | None = None       # for inputs: the incident field it comes from
    default: Any = None             # for derived facts: the value when no rule derives it (None: stays unknown)
    asked_if: tuple = ()            # for questions: (fact, test) pairs that must hold to ask it (its premise)

    def premise_fails(self, known: dict[str, Any]) -> bool:
        """Whether the question's premise is known to be false (a raise to have missed, with no raise made)."""
        for name, test in self.asked_if:
            value = known.get(name)
            if value is None:
                continue
            if isinstance(test, dict):
                if "above" in test and not (not isinstance(value, bool) and value > test["above"]):
                    return True
            elif value != test:
                return True
        return False

    @property
    def numeric(self) -> bool:
        return self.type in NUMERIC


@record(frozen=True)
class Citation(LazyFrozen):
    """One key of the rules inventory: where the rule it names is written."""

    key: str
    source: str
    section: str
    topic: str
    # where the source speaks (its `applies:`): the structures and games (variants) it is written for, () for
    # all; the settings it is written for; the settings where rooms adopt it beside their own source
    structures: tuple[str, ...] = ()
    games: tuple[str, ...] = ()
    settings: tuple[str, ...] = ()
    also_in: tuple[str, ...] = ()

    def fits(self, structure: str | None, variant: str | None, setting: str | None) -> int:
        """How well the source speaks for a game: 0 written for it (structure, game and setting), 1 for its
        structure and game in a setting that adopts it beside its own source, 2 not for this game. A
        dimension the incident does not tell is taken to fit."""
        if (structure and self.structures and structure not in self.structures) or \
                (variant and self.games and variant not in self.games):
            return 2
        if not setting or setting in self.settings:
            return 0
        return 1 if setting in self.also_in else 2


def _applies(key: str, raw: dict) -> dict:
    """A key's ``applies:`` as the Citation's fields; "all" (or no list) is every value."""
    a = raw.get("applies") or {}
    out = {}
    for name in ("structures", "games", "settings", "also_in"):
        v = a.get(name, "all" if name != "also_in" else ())
        out[name] = () if v == "all" else tuple(v)
    if not out["settings"]:
        out["settings"] = ("cash", "tournament")
    return out


def fit(key: str, structure: str | None, variant: str | None, setting: str | None) -> int:
    """``Citation.fits`` for any key: a key the catalogue lacks is a room's own (HOUSE-..., the loader
    refuses any other), written for every game of the room, described by its book or not."""
    c = citations().get(key)
    return 0 if c is None else c.fits(structure, variant, setting)


def by_fit(keys, structure: str | None, variant: str | None, setting: str | None) -> list[str]:
    """The keys in the order a ruling cites them for this game: those written for it first, then those its
    setting adopts beside its own source, then the rest, each group in the rule's own order."""
    return sorted(keys, key=lambda k: fit(k, structure, variant, setting))


def _parse(text: str):
    return load_catalogue(text)


# A section of an incident's `procedure:` part is declared once, under `sections:` in a catalogue file: each
# field's kind (how the reader reads it), its fact (or null), what it means and the question asked when it is
# left out. The reader (rulings/incident/procedure.py) takes its fields and checks from it and the catalogue
# its input facts, so a new section is one declaration. A field's kind and the type of the fact it gives:
SECTION_KINDS = {"bool": "bool", "count": "count", "money": "money", "seat": "seat", "hand_seat": "seat",
                 "choice": "enum", "seats": None, "seat_or_seats": None, "cards": None, "board": None,
                 "items": None, "seat_counts": None, "table_seats": None}
SECTION_KEYS = ("title", "fields", "needs", "repeats", "stands_alone")
FIELD_KEYS = ("kind", "values", "fact", "absent", "asked_if", "description", "question", "items", "maximum")


def _catalogue_files() -> list[tuple[Path, dict]]:
    from rulings.rulebook.cache import yaml_data   # parsed once, then read back as JSON
    paths = sorted((HERE / "facts").glob("*.yaml"))
    return [(path, part or {}) for path, part in zip(paths, yaml_data(paths, _parse))]


@lru_cache(maxsize=1)
def sections() -> dict[str, dict]:
    """Every section of the `procedure:` part, by name, as declared (``sections:`` of the catalogue files): its
    ``fields`` (key -> declaration, in order), ``needs`` (fields it cannot be read without), ``repeats`` (a
    list of entries made of some of its fields, e.g. showdown's requests), ``stands_alone`` (true: an
    incident with only this section needs no betting: no structure, button or blinds) and ``title`` (what the
    floor calls it, as the podium's section picker shows it)."""
    out: dict[str, dict] = {}
    for path, part in _catalogue_files():
        for name, decl in (part.get("sections") or {}).items():
            if name in out:
                raise ValueError(f"{path.name} declares the section {name} already declared")
            bad = set(decl) - set(SECTION_KEYS)
            if bad:
                raise ValueError(f"{path.name}: section {name}: unknown keys {', '.join(sorted(bad))}")
            for key, field in decl["fields"].items():
                if field["kind"] not in SECTION_KINDS or set(field) - set(FIELD_KEYS):
                    raise ValueError(f"{path.name}: section {name}: field {key}: bad kind or keys")
                if field.get("fact") and SECTION_KINDS[field["kind"]] is None:
                    raise ValueError(f"{path.name}: section {name}: field {key}: a {field['kind']} gives no fact")
            out[name] = {"title": str(decl.get("title") or name.replace("_", " ")), "fields": dict(decl["fields"]), "needs": tuple(decl.get("needs") or ()),
                         "repeats": dict(decl.get("repeats") or {}), "stands_alone": bool(decl.get("stands_alone"))}
    return out


def _section_facts(name: str, decl: dict) -> dict[str, dict]:
    """The input facts a section's declaration gives, in the catalogue's own form."""
    out = {}
    for key, field in decl["fields"].items():
        if not field.get("fact"):
            continue
        spec = {"kind": "input", "from": f"procedure.{name}.{key}", "type": SECTION_KINDS[field["kind"]],
                "description": field["description"], "question": field["question"]}
        if field.get("values"):
            spec["values"] = field["values"]
        if field.get("asked_if"):
            spec["asked_if"] = field["asked_if"]
        out[field["fact"]] = spec
    return out


@lru_cache(maxsize=1)
def facts() -> dict[str, Fact]:
    """Every fact of every catalogue file under rulings/facts/ (one file per topic), with the input facts of
    every section declared there (``sections()``)."""
    raw: dict = {}
    declared = sections()
    left = dict(declared)   # each section's facts where its file declares it; any other section's after them
    parts = []
    for path, part in _catalogue_files():
        part = dict(part)
        for name in part.pop("sections", None) or {}:
            part = {**_section_facts(name, left.pop(name)), **part}
        parts.append((path.name, part))
    parts += [(f"section {name}", _section_facts(name, decl)) for name, decl in left.items()]
    for where, part in parts:
        clash = set(part) & set(raw)
        if clash:
            raise ValueError(f"{where} declares facts already declared: {', '.join(sorted(clash))}")
        raw.update(part)
    out = {}
    for name, spec in raw.items():
        assert spec["type"] in FACT_TYPES, name
        default = spec.get("default")
        if default is not None and (spec["kind"] != "derived" or spec["type"] != "bool" or
                                    not isinstance(default, bool)):
            raise ValueError(f"{name}: only a derived true/false fact may have a default, and it is true or false")
        out[name] = filled(Fact, {"name": name, "kind": spec["kind"], "type": spec["type"],
                                  "description": spec["description"], "question": spec.get("question", ""),
                                  "values": tuple(spec.get("values", ())), "source": spec.get("from"),
                                  "default": default,
                                  "asked_if": tuple(sorted((spec.get("asked_if") or {}).items()))})
    return out


@lru_cache(maxsize=1)
def citations() -> dict[str, Citation]:
    from rulings.rulebook.cache import yaml_data
    raw = yaml_data([HERE / "citations.yaml"], _parse)[0]
    return {k: filled(Citation, {"key": k, "source": v["source"], "section": v["section"], "topic": v["topic"],
                                 **_applies(k, v)})
            for k, v in raw.items()}


def did_you_mean(word: str, choices, n: int = 1) -> str | None:
    """The closest known name, for hints."""
    import difflib   # only for a problem's hint: not imported on a start that finds none
    close = difflib.get_close_matches(str(word), [str(c) for c in choices], n=n, cutoff=0.6)
    return close[0] if close else None
