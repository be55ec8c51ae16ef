"""House rulebooks: set parameters, add rules, add exceptions, replace or disable rules of the book they extend."""
from __future__ import annotations

import copy
import re
from dataclasses import replace
from pathlib import Path

from rulings.rulebook.catalogue import did_you_mean
from rulings.problems import Problem, ProblemsError
from rulings.rulebook.inherit import fact_defaults, inherit_all
from rulings.rulebook.load import MAX_RULES, ROOT, at_rule, cross_check, parse_rule, rulings_unread
from rulings.rulebook.model import Rulebook, setting_value
from rulings.rulebook.schema import EXAMPLE_DEFAULTS, RULE, SETTINGS, Spec, _f, check_shape, faulted_parts, text_problems
from rulings.yamlsrc import Located, load_file

HOUSE_FILE = Spec("map", "A house rulebook: what the room changes in the book it extends.", {
    "rulebook": _f(Spec("str", "The house book's short name (used as the rules' provenance)."), True),
    "extends": _f(Spec("str", "The book it extends: standard, or another house book (a name under "
                              "rulebooks/houses/, or a file name beside this one; never a path)."), True),
    "title": _f(Spec("str", "The room's name for its rules, as printed on the posted rulebook."), True),
    "parameters": _f(Spec("dict", "Parameter values the house chooses: name -> value (see rulings explain NAME).",
                          item=Spec("per_setting", "A value allowed for that parameter, used in cash games and "
                                                   "tournaments alike; or {cash: value, tournament: value} for a "
                                                   "value that differs (a setting left out keeps the value of the "
                                                   "book it extends)."))),
    "rules": _f(Spec("list", "Rules the house adds: new rules, exceptions (exception_to) or replacements "
                             "(replaces).", item=RULE)),
    "example_defaults": _f(EXAMPLE_DEFAULTS),
    "citations": _f(Spec("dict", "The room's own citation keys its rules cite (HOUSE-ROOM-N, not in the citation "
                                 "catalogue): key -> where the room's posted rules say it, in plain words.",
                         item=Spec("str", "Where the room's posted rules say it (e.g. 'posted rule 9, kill pots')."))),
    "disable": _f(Spec("list", "Rules of the extended book the house does not use.",
                       item=Spec("map", "A disabled rule and why.", {
                           "rule": _f(Spec("str", "The id of the rule the house does not use."), True),
                           "reason": _f(Spec("str", "Why the house does not use it, in plain words."), True),
                       }))),
})
MAX_DEPTH = 5   # a house over a house over ... : deeper chains are a mistake, not a need


def _param_value(doc: Located, name: str, value, book: Rulebook, problems: list[Problem]):
    p = book.parameter(name)   # the book's name, or another name rooms use for the setting (also_named:)
    path = ("parameters", name)
    if p is None:
        close = did_you_mean(name, book.parameters)
        problems.append(doc.problem(path, "R204", f"unknown parameter '{name}'",
                                 f"did you mean '{close}'?" if close else "rulings explain lists each parameter",
                                 key=True))
        return None
    if isinstance(value, dict):      # {cash: v, tournament: v}: each checked; a setting left out keeps the base's
        out = {}
        for setting in SETTINGS:
            if setting in value:
                v = _one_value(doc, path + (setting,), p, value[setting], problems)
                if v is None:
                    return None
                out[setting] = v
            else:
                out[setting] = setting_value(book.settings.get(name, p.default), setting)
        return out if out["cash"] != out["tournament"] else out["cash"]
    return _one_value(doc, path, p, value, problems)


def _one_value(doc: Located, path: tuple, p, value, problems: list[Problem]):
    try:
        return p.coerce(value)
    except ValueError as exc:   # MoneyError is a ValueError
        close = did_you_mean(value, p.allowed_words().split(", ")) if p.values else None
        problems.append(doc.problem(path, "R205", str(exc),
                                    f"did you mean '{close}'?" if close else p.refusal_hint(value)))
        return None


HOUSE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
# what extends: may name: a book's name, or a file beside the house book (name.yaml); ASCII, at most 64 characters
BOOK_REF = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}(?:\.ya?ml)?", re.ASCII)


def house_dirs() -> list[Path]:
    """The folders house books are looked up in by name (the project's rulebooks/houses)."""
    return [ROOT / "houses"]


def house_names(folder: Path | None = None) -> list[str]:
    folders = [folder] if folder is not None else house_dirs()
    # a house's told-dispute words (NAME.told.yaml, rulings/told/lexicon.py) sit beside its book: not a book
    return sorted({p.stem for f in folders for p in f.glob("*.yaml") if "." not in p.stem})


def find_house(name: str) -> Path | None:
    """The house book called ``name`` in the configured folders; None when there is none.

    Only a plain name is looked up (lowercase letters, digits, '-' and '_'):
    never a path, so the answer does not depend on where the command runs.
    """
    if not isinstance(name, str) or not HOUSE_NAME.match(name):
        return None
    for folder in house_dirs():
        candidate = folder / f"{name}.yaml"
        if candidate.is_file():
            return candidate
    return None


def extended_path(value: str, here: Path) -> Path | None:
    """Where ``extends: value`` points: a file beside the house file, or a house name.

    Only a plain file name is followed (no folder, no '..', no absolute path):
    a house book never makes the tool read a file outside its own folder and
    the house-book folders. None when the value is anything else.
    """
    if not BOOK_REF.fullmatch(value):   # a NUL, a control character, a path or 300 characters: never opened
        return None
    if value.endswith((".yaml", ".yml")):
        return (here.parent / value).resolve()
    sibling = here.parent / f"{value}.yaml"
    return (sibling if sibling.exists() else find_house(value) or ROOT / "houses" / f"{value}.yaml").resolve()


def _read(path: Path) -> tuple[Located, dict, list[Problem], set[tuple]]:
    """The house file, its data, the problems of its shape and the parts the shape check set aside.

    Nothing malformed stops the checking of the rest: an entry of parameters:, disable: or rules: that
    is not as the language says has its malformed parts set aside (the entry keeps its index and its
    line) and every other part and entry is checked too, so one missing reason does not hide a misspelt
    parameter, nor a rule without examples an exception to a misspelt rule. Only a file with no
    ``extends:`` to follow stops at its shape: every rule and parameter is checked against the book it
    extends."""
    doc, problems = load_file(path)
    if doc is None:
        raise ProblemsError(problems)
    if not isinstance(doc.data, dict) or not {"rulebook", "extends"} & set(doc.data):
        # one problem, not one per line: a file that is no house book at all is not echoed back
        raise ProblemsError([Problem(doc.file, 0, 0, "R106", "this is not a house rulebook "
                                     "(it has neither rulebook: nor extends:)",
                                     hint="start with rulebook:, extends: and title:")])
    faults: set[tuple] = set()
    controls = text_problems(doc)   # a NUL or a control in any text the book would publish (R115)
    if check_shape(doc, doc.data, HOUSE_FILE, (), problems, faults):
        return doc, doc.data, controls, faults
    problems = problems + controls
    top = faulted_parts(faults, ())
    if "extends" in top:
        raise ProblemsError(problems)
    data = {k: v for k, v in doc.data.items() if k not in top or k in ("parameters", "disable", "rules", "citations")}
    data.setdefault("rulebook", path.stem)
    data.setdefault("title", "")
    for part in ("disable", "rules"):
        if (part,) in faults:
            data[part] = []
    for part in ("parameters", "citations"):   # a malformed entry set aside, the others kept
        if (part,) in faults:
            data[part] = {}
        bad = faulted_parts(faults, (part,))
        data[part] = {k: v if k not in bad else "" for k, v in (data.get(part) or {}).items()
                      if k not in bad or part == "citations"}   # a key described badly: described still
    data["disable"] = [_disabled(raw, faults, ("disable", i)) for i, raw in enumerate(data.get("disable") or [])]
    data["rules"] = [None if ("rules", i) in faults else raw for i, raw in enumerate(data.get("rules") or [])]
    return doc, data, problems, faults


def _disabled(raw, faults: set[tuple], path: tuple) -> dict | None:
    """A disable entry as far as it can be read: its rule is checked even when its reason is missing."""
    if path in faults or path + ("rule",) in faults or not isinstance(raw, dict):
        return None
    return {"rule": raw["rule"], "reason": raw.get("reason") if path + ("reason",) not in faults else ""}


def _base(doc: Located, path: Path, standard: Rulebook, chain: tuple[Path, ...]) -> Rulebook:
    """The book this house extends, loaded in full first (standard, or another house book)."""
    value = str(doc.data["extends"])
    if value == "standard":
        return standard
    target = extended_path(value, path)
    if target is None:
        shown = repr(value[:60])[1:-1] + ("..." if len(value) > 60 else "")   # a NUL or a control shown escaped
        raise ProblemsError([doc.problem(("extends",), "R601", f"extends: '{shown}' is not a book's name",
                                      "name the book (standard, a house name: letters, digits, - and _, at most 64) "
                                      "or a file beside this one; folders and paths are not followed")])
    if target in chain or target == path.resolve():
        loop = " -> ".join(p.stem for p in chain + (path.resolve(), target))
        raise ProblemsError([doc.problem(("extends",), "R602", f"the book extends itself in a loop: {loop}",
                                      "a chain of house books must end at the standard book")])
    if not target.exists():
        close = did_you_mean(value, ["standard"] + house_names(path.parent) + house_names())
        raise ProblemsError([doc.problem(("extends",), "R601", f"no book named '{value}' to extend",
                                      f"did you mean '{close}'?" if close else
                                      "extend the standard book (extends: standard) or a house book's name")])
    if len(chain) >= MAX_DEPTH:
        raise ProblemsError([doc.problem(("extends",), "R601",
                                      f"the chain of books is more than {MAX_DEPTH} deep",
                                      "extend the standard book or a house book directly")])
    return load_house(target, standard, chain + (path.resolve(),))


def load_house_kept(path: Path) -> Rulebook:
    """``load_house`` over the standard book, kept in the book cache (rulings/rulebook/cache.py ``cached_house``):
    a house book that extends the standard book is read and checked again only when its bytes, the standard
    book or the code change; when the cache has it, the standard book is not read at all."""
    from rulings.rulebook import cache as bookcache
    from rulings.rulebook.load import standard_book, standard_files
    from rulings.yamlsrc import _display
    files = standard_files()
    return bookcache.cached_house(Path(path), _display(Path(path)), files, [_display(f) for f in files],
                                  lambda: load_house(path, standard_book()))


def load_house(path: Path, standard: Rulebook, _chain: tuple[Path, ...] = (),
               warnings: list[Problem] | None = None) -> Rulebook:
    """Merge a house book over the book it extends; raise ProblemsError with every problem (its warnings
    too), load nothing half-way. A book with only warnings (R607) loads; they are added to ``warnings``
    when it is given (lint reports them)."""
    path = Path(path)
    doc, data, problems, faults = _read(path)
    try:
        base = _base(doc, path, standard, _chain)
    except ProblemsError as exc:   # with the malformed entries already found: every problem at once
        raise ProblemsError(problems + exc.problems) from None
    _check_sizes(doc, data, base)
    book = copy.copy(base)
    book.rules = dict(base.rules)
    book.name, book.title, book.extends = str(data["rulebook"]), data["title"], base.name
    book.files = base.files + [doc.file]
    book.settings, book.disabled = dict(base.settings), dict(base.disabled)
    book.citations = dict(base.citations)
    for key, where in (data.get("citations") or {}).items():
        if str(key).startswith("HOUSE-"):
            book.citations[str(key)] = where
        else:
            problems.append(doc.problem(("citations", key), "R105", f"'{key}' is not a house citation key",
                                        "a house book describes only the room's own keys, which start with "
                                        "HOUSE- (e.g. HOUSE-BOARDWALK-9); the catalogue describes the others",
                                        key=True))
    for name, value in (data.get("parameters") or {}).items():
        v = _param_value(doc, name, value, book, problems)
        if v is not None:
            book.settings[book.parameter(name).name] = v   # type: ignore[union-attr]  # read: it exists
    touched: dict[str, tuple] = {}    # rule id -> where the house already disabled or replaced it
    replaced: dict[str, str] = {}     # rule id -> the house rule that replaces it
    for i, raw in enumerate(data.get("disable") or []):
        if raw is None:   # malformed, already reported
            continue
        rid = raw["rule"]
        if rid not in base.rules:
            problems.append(_unknown_rule(doc, ("disable", i, "rule"), rid, base))
            continue
        if rid in touched:
            problems.append(_twice(doc, ("disable", i, "rule"), rid, touched[rid]))
            continue
        touched[rid] = ("disable", i, "rule")
        book.disabled[rid] = raw["reason"]
        del book.rules[rid]
    for i, raw in enumerate(data.get("rules") or []):
        here = ("rules", i)
        if raw is None:   # not a mapping: reported, nothing of it to read
            continue
        rule = parse_rule(doc, raw, here, "house", book.parameters, problems, house=book.name,
                          defaults=data.get("example_defaults"), faults=faults, described=book.citations)
        if rule is None:
            continue
        if rule.replaces and rule.exception_to:
            problems.append(doc.problem(here + ("replaces",), "R603",
                                     f"'{rule.id}' both replaces '{rule.replaces}' and is an exception to "
                                     f"'{rule.exception_to}'",
                                     "a house rule either replaces a rule or is an exception to one, not both",
                                     key=True))
            continue
        target = rule.replaces or rule.exception_to
        if rule.replaces:
            if rule.replaces not in base.rules:
                problems.append(_unknown_rule(doc, here + ("replaces",), rule.replaces, base))
                continue
            if rule.replaces in touched:
                problems.append(_twice(doc, here + ("replaces",), rule.replaces, touched[rule.replaces]))
                continue
            touched[rule.replaces] = here + ("replaces",)
            replaced[rule.replaces] = rule.id
            del book.rules[rule.replaces]
        modified = base.rules.get(target) if target else None
        topic = modified.topic if modified else rule.id.split(".", 1)[0]
        rule = replace(rule, topic=topic, modifies=target)
        if rule.id in book.rules:
            first = book.rules[rule.id]
            problems.append(doc.problem(here + ("id",), "R103", f"duplicate rule id '{rule.id}'",
                                     f"it is first defined at {first.origin}; " +
                                     ("give one of them another id" if first.house == book.name else
                                      f"to change that rule, write replaces: {rule.id} under a new id")))
            continue
        book.rules[rule.id] = rule
    problems += _exceptions(doc, data, book, replaced)
    problems += cross_check(book, {doc.file: doc}, rulings_unread(faults))
    if len(book.rules) > MAX_RULES:
        problems.append(doc.problem(("rules",), "R501", f"the merged book has {len(book.rules)} rules, "
                                 f"over the limit of {MAX_RULES} for one book", "disable or merge rules"))
    if any(p.severity != "warning" for p in problems):
        raise ProblemsError(problems)
    if warnings is not None:
        warnings += problems
    return book


def _exceptions_to(book: Rulebook, rid: str) -> list[str]:
    """The rules of the book that are exceptions to ``rid`` (overrides stand on their own: not these)."""
    return sorted(r.id for r in book.rules.values() if r.exception_to == rid and r.written is not None)


def _exceptions(doc: Located, data: dict, book: Rulebook, replaced: dict[str, str]) -> list[Problem]:
    """Exceptions after the house's changes: to a replaced rule they modify its replacement (and inherit
    the replacement's conditions); to a disabled rule they are an error (R606) naming them."""
    problems: list[Problem] = []
    for rid, rule in list(book.rules.items()):
        if rule.exception_to in replaced:
            book.rules[rid] = replace(rule, exception_to=replaced[rule.exception_to])
    named: set[str] = set()
    for i, raw in enumerate(data.get("disable") or []):
        if raw is None or raw["rule"] in named:
            continue
        named.add(raw["rule"])
        orphans = _exceptions_to(book, raw["rule"])
        if orphans:
            every, below = set(orphans), list(orphans)   # their own exceptions must go too: named at once
            while below:
                more = [r for r in _exceptions_to(book, below.pop()) if r not in every]
                every.update(more)
                below += more
            deeper = " (exceptions to it, or to one of its exceptions)" if len(every) > len(orphans) else ""
            problems.append(doc.problem(("disable", i, "rule"), "R606",
                                        f"'{raw['rule']}' is disabled, but {', '.join(orphans)} "
                                        f"{'is an exception' if len(orphans) == 1 else 'are exceptions'} to it",
                                        "an exception applies only where its rule applies: disable "
                                        f"{', '.join(sorted(every))} too{deeper}, or replace the rule "
                                        "instead of disabling it"))
    problems += inherit_all(book.rules, lambda r: at_rule({doc.file: doc}, r))
    from rulings.rulebook.conditions import citations_fit
    problems += citations_fit(book.rules, lambda r: at_rule({doc.file: doc}, r))
    book.defaults = fact_defaults(book.rules, lambda r: at_rule({doc.file: doc}, r), problems)
    return problems


def _check_sizes(doc: Located, data: dict, base: Rulebook) -> None:
    """Refuse a book too big to check before checking any of it (each rule and parameter costs lint time)."""
    problems = []
    for part, most in (("rules", MAX_RULES), ("disable", len(base.rules)), ("parameters", len(base.parameters))):
        n = len(data.get(part) or ())
        if n > most:
            problems.append(doc.problem((part,), "R502", f"{n:,} entries under {part}:, more than the "
                                        f"{most} the book can have", "a house book changes a few things; "
                                        "split it, or check the entries", key=True))
    if problems:
        raise ProblemsError(problems)


def topic_warnings(book: Rulebook, base: Rulebook, file: str) -> list[Problem]:
    """A warning (R605) for each topic of the extended book whose every rule the house disables."""
    topics: dict[str, list[str]] = {}
    for rule in base.rules.values():
        topics.setdefault(rule.topic, []).append(rule.id)
    out = []
    for topic, ids in sorted(topics.items()):
        if all(rid in book.disabled and rid not in base.disabled for rid in ids):
            out.append(Problem(file, 0, 0, "R605", f"the house disables every rule of the topic '{topic}' "
                               f"({len(ids)} rules): incidents of that topic get no ruling",
                               hint="disable only the rules the room does not use", severity="warning"))
    return out


def _unknown_rule(doc: Located, path: tuple, rid: str, base: Rulebook) -> Problem:
    close = did_you_mean(rid, base.rules)
    if rid in base.disabled:
        return doc.problem(path, "R104", f"rule '{rid}' is disabled by the book this one extends")
    return doc.problem(path, "R104", f"unknown rule '{rid}'",
                    f"did you mean '{close}' ({base.rules[close].origin})?" if close else "rulings rules lists the ids")


def _twice(doc: Located, path: tuple, rid: str, other: tuple) -> Problem:
    """R604 at ``path``, naming the house's other change to the rule by what it does and where (disables are
    read before rules, so the other change may come later in the file: it is not called the first)."""
    line = doc.at(other)[0]
    if other[0] == "disable":
        what = f"disables it on line {line}"
    else:
        what = f"replaces it on line {line} ({doc.data['rules'][other[1]].get('id', '?')})"
    return doc.problem(path, "R604", f"rule '{rid}' is disabled or replaced twice",
                    f"the house also {what}; keep one change to it")
