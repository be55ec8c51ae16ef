"""Strict YAML reading that remembers where every value came from.

Plain Python values come back (dict, list, str, int, Decimal, bool, None) with
a side table from each value's path to its line and column, so that every
later check can point at the source. Floats are read as Decimal from their
text, never through binary floating point. Duplicate keys, tags, anchors and
aliases are refused: each could silently change what a rule means.

Every file is read through ``read_bounded`` and every text through one pass
over the parser's events (``_Reader``: libyaml's parser when PyYAML has it)
that checks the limits as it builds the values, so no input can exhaust memory,
time or the stack: only regular files are opened, at most ``max_bytes`` are
read (a bound on the read, not a ``stat``, so ``/dev/zero`` or a growing file
cannot slip past), nesting is at most ``MAX_DEPTH`` deep, a document holds at
most ``max_nodes`` values, and anchors and aliases are refused before any of
them is expanded (the reader stops at the first alias; it never recurses).
Each limit has its own code (docs/errors.md).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from itertools import compress
from pathlib import Path
from typing import Any

import yaml

from rulings.problems import MAX_FILE_BYTES, LimitError, Problem, _display, read_bounded  # noqa: F401

# libyaml's parser when PyYAML was built with it: the same nodes and marks, several times faster
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_DEPTH = 32               # mappings and lists inside each other (Y011); the books use 10
MAX_NUMBER_EXPONENT = 1000   # a number read is within 10^±1000 (else text): no field holds more, and no step overflows
MAX_NODES = 200_000          # values in one document (Y012); the largest topic file has about 8,000

Path_ = tuple[Any, ...]


@dataclass(frozen=True)
class Located:
    """A YAML document's data and the position of each value (path -> (line, col, width))."""

    file: str
    data: Any
    marks: dict[Path_, tuple[int, int, int]]

    def at(self, path: Path_) -> tuple[int, int, int]:
        """The position of ``path``, or of its nearest ancestor that has one."""
        p = tuple(path)
        while p and p not in self.marks:
            p = p[:-1]
        return self.marks.get(p, (1, 1, 1))

    def problem(self, path: Path_, code: str, message: str, hint: str | None = None,
                key: bool = False) -> Problem:
        """A problem pointing at the value at ``path`` (or at its key when ``key``)."""
        pos = self.marks.get(tuple(path) + ("<key>",)) if key else None
        line, col, width = pos or self.at(path)
        return Problem(self.file, line, col, code, message,
                       tuple(str(x) for x in path), hint, width)


_TAG = {
    "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:str", "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq", "tag:yaml.org,2002:timestamp",
}


# the implicit resolvers of PyYAML's safe loader, by a plain scalar's first character: the tags
# yaml.compose would give, without going through a composer and its nodes
_RESOLVERS = yaml.resolver.Resolver.yaml_implicit_resolvers
_WILD = _RESOLVERS.get(None, [])
_STR = "tag:yaml.org,2002:str"


def _resolve(text: str) -> str:
    """The tag of an untagged plain (unquoted) scalar; quoted ones are always text."""
    for tag, regexp in _RESOLVERS.get(text[:1], []) + _WILD:
        if regexp.match(text):
            return tag
    return _STR


def _scalar(tag: str, text: str) -> Any:
    if tag == _STR:
        return text
    if tag == "tag:yaml.org,2002:int":
        try:
            return int(text.replace("_", ""), 10)
        except ValueError:
            return text   # hex/octal forms: left as text, refused by type checks
    if tag == "tag:yaml.org,2002:float":
        try:
            d = Decimal(text.replace("_", ""))
        except InvalidOperation:
            return text   # .inf / .nan: left as text, refused by type checks
        # a number past 10^1000 either way (1.0e+999999999) is no number any field holds: it stays text, refused
        # by the field's type check, so no later step does arithmetic on it (Decimal's context would overflow)
        return d if d.is_finite() and (not d or abs(d.adjusted()) <= MAX_NUMBER_EXPONENT) else text
    if tag == "tag:yaml.org,2002:bool":
        low = text.lower()
        return True if low == "true" else False if low == "false" else text  # yes/no/on/off stay words
    if tag == "tag:yaml.org,2002:null":
        return None
    return text


def _width(s: Any, e: Any) -> tuple[int, int, int]:
    """(line, column, width) from a value's start and end marks; width 1 when it spans lines."""
    return (s.line + 1, s.column + 1, max(1, e.column - s.column) if e.line == s.line else 1)


class _Open:
    """A mapping or list being read: where it is, what it holds so far, what comes next in it."""

    __slots__ = ("value", "path", "skip", "start", "is_map", "want_key", "key", "skip_value")

    def __init__(self, value: Any, path: Path_, skip: bool, start: Any, is_map: bool):
        self.value = value            # the dict or list (None while skipped)
        self.path = path
        self.skip = skip              # built for the limits only: under a refused key, or a later document
        self.start = start
        self.is_map = is_map
        self.want_key = True          # a mapping: the next value is a key
        self.key: Any = None
        self.skip_value = False       # a mapping: the value after a refused key is not built


_NODE = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)
_END = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


class _Reader:
    """One pass over the parser's events that checks the limits and builds the values with positions.

    Tags, anchors and aliases (refused: an alias expands to a copy of what it names, so a few hundred
    bytes can stand for gigabytes), nesting deeper than ``MAX_DEPTH`` and more than ``max_nodes``
    values are found as the events arrive; an alias, too many values or too deep a nesting stops the
    pass at once. Nothing is ever expanded, and the values built are bounded by ``max_nodes``.
    """

    def __init__(self, file: str, max_nodes: int):
        self.file = file
        self.max_nodes = max_nodes
        self.limits: list[Problem] = []     # limit problems: any of them and nothing is built
        self.problems: list[Problem] = []   # duplicate and non-word keys, found while building
        self.marks: dict[Path_, tuple[int, int, int]] = {}
        self.data: Any = None
        self.documents = 0
        self.second: Any = None             # where a second document starts
        self._seen: dict[str, Any] = {}     # plain scalars read so far, by their text

    def _plain(self, text: str) -> Any:
        """The value of a plain scalar; the same words come back again and again (every rule's keys)."""
        try:
            return self._seen[text]
        except KeyError:
            value = self._seen[text] = _scalar(_resolve(text), text)
            return value

    def read(self, text: str) -> None:
        parser = LOADER(text)
        try:
            self._events(parser.get_event)
        finally:
            parser.dispose()

    def _limit(self, m: Any, code: str, message: str, hint: str, width: int = 1) -> None:
        self.limits.append(Problem(self.file, m.line + 1, m.column + 1, code, message, (), hint, width))

    def _events(self, get: Any) -> None:
        file, marks, problems = self.file, self.marks, self.problems
        stack: list[_Open] = []
        depth = nodes = 0
        scalar, alias = yaml.ScalarEvent, yaml.AliasEvent
        while True:
            ev = get()
            cls = ev.__class__
            if cls in _END:
                depth -= 1
                done = stack.pop()
                if not done.skip:
                    marks[done.path] = _width(done.start, ev.end_mark)
                value, skip = done.value, done.skip
            elif cls in _NODE or cls is alias:
                m = ev.start_mark
                if ev.anchor:
                    self._limit(m, "Y005", f"YAML anchor or alias '{_short(ev.anchor)}' is not allowed",
                                "repeat the value; anchors and aliases are not allowed", len(ev.anchor) + 1)
                    if cls is alias:
                        return   # stop at the first alias: nothing is ever expanded
                if cls is alias:   # an alias always names an anchor; kept so no event is left unread
                    return
                if ev.tag is not None:   # set only when the text writes a tag
                    tag = ev.tag.replace("tag:yaml.org,2002:", "!!", 1)
                    self._limit(m, "Y004", f"YAML tag '{_short(tag, 60)}' is not allowed",
                                "write the value plainly; tags are not part of the rulebook format", len(tag))
                nodes += 1
                if nodes > self.max_nodes:
                    self._limit(m, "Y012", f"the document holds more than {self.max_nodes:,} values",
                                "split it into smaller files; nothing real comes close")
                    return
                # where this value goes, and whether it is built
                if not stack:
                    path: Path_ = ()
                    skip = self.documents > 1
                else:
                    top = stack[-1]
                    skip = top.skip
                    if not top.is_map:
                        path = top.path + (len(top.value),) if not skip else ()
                    elif not top.want_key:
                        path = top.path + (top.key,)
                        skip = skip or top.skip_value
                    elif cls is scalar:   # a key
                        top.want_key = False
                        if skip:
                            continue
                        key = self._plain(ev.value) if ev.implicit[0] else ev.value
                        if key in top.value:
                            first = marks.get(top.path + (key, "<key>"), (0, 0, 0))[0]
                            problems.append(Problem(
                                file, m.line + 1, m.column + 1, "Y002", f"duplicate key '{key}'",
                                tuple(str(x) for x in top.path + (key,)),
                                f"the first '{key}' is on line {first}; YAML would silently keep only the last one",
                                len(str(ev.value))))
                            top.skip_value = True
                        else:
                            e = ev.end_mark   # _width, written out: a key or a word is most of the events
                            marks[top.path + (key, "<key>")] = (m.line + 1, m.column + 1, max(
                                1, e.column - m.column) if e.line == m.line else 1)
                            top.key, top.skip_value = key, False
                        continue
                    else:   # a mapping or list as a key: refused, it and its value left unbuilt
                        if not skip:
                            problems.append(Problem(file, m.line + 1, m.column + 1, "Y003",
                                                    "a key must be a plain word or number",
                                                    tuple(str(x) for x in top.path)))
                        skip = True
                        path = ()
                if cls is scalar:
                    value = self._plain(ev.value) if ev.implicit[0] else ev.value
                    if not skip:
                        e = ev.end_mark
                        marks[path] = (m.line + 1, m.column + 1,
                                       max(1, e.column - m.column) if e.line == m.line else 1)
                else:
                    depth += 1
                    if depth > MAX_DEPTH:
                        self._limit(m, "Y011", f"values are nested more than {MAX_DEPTH} deep",
                                    "flatten the structure; the formats need at most 10 levels")
                        return
                    is_map = cls is yaml.MappingStartEvent
                    if not skip:
                        marks[path] = (0, 0, 0)   # its place in the table now; its position at its end
                    stack.append(_Open(None if skip else {} if is_map else [], path, skip, m, is_map))
                    continue
            elif cls is yaml.DocumentStartEvent:
                self.documents += 1
                if self.documents == 2:
                    self.second = ev.start_mark
                continue
            elif cls is yaml.StreamEndEvent:
                return
            else:
                continue
            # a value is complete: into its parent
            if not stack:
                if not skip:
                    self.data = value
                continue
            top = stack[-1]
            if not top.is_map:
                if not skip:
                    top.value.append(value)
            elif top.want_key:   # a mapping or list that was a key: its value is skipped
                top.want_key, top.skip_value = False, True
            else:
                top.want_key = True
                if not skip:
                    top.value[top.key] = value


def _short(text: str | None, limit: int = 40) -> str:
    text = text or ""
    return text if len(text) <= limit else text[:limit] + "..."


def _indent(text: str, line: int, column: int) -> str:
    """The blanks that start line ``line`` (0-based) up to ``column``: where a tab breaks YAML's indentation."""
    lines = text.splitlines()
    start = lines[line][:column + 1] if 0 <= line < len(lines) else ""
    return start[:len(start) - len(start.lstrip(" \t"))]


def load_text(text: str, file: str, max_bytes: int = MAX_FILE_BYTES,
              max_nodes: int = MAX_NODES) -> tuple[Located | None, list[Problem]]:
    """Parse one YAML document within the limits; return it with positions, and every problem found."""
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        return None, [Problem(file, 0, 0, "Y007", f"the text is over the limit of {max_bytes:,} bytes",
                              hint="split it into smaller files")]
    if not text.strip():
        return None, [Problem(file, 0, 0, "Y006", "the file is empty",
                              hint="write a YAML mapping")]
    reader = _Reader(file, max_nodes)
    try:
        reader.read(text)
    except yaml.MarkedYAMLError as exc:
        m = exc.problem_mark
        line, col = (m.line + 1, m.column + 1) if m else (0, 0)
        if m and "\t" in _indent(text, m.line, m.column):
            return None, [Problem(file, line, col, "Y001", "malformed YAML: a tab character: YAML indents with "
                                  "spaces only", hint=f"replace the tab on line {line} with spaces")]
        return None, [Problem(file, line, col, "Y001", f"malformed YAML: {exc.problem}",
                              hint=str(exc.context) if exc.context else "check indentation and quoting")]
    except yaml.YAMLError as exc:
        return None, [Problem(file, 0, 0, "Y001", f"malformed YAML: {_short(str(exc), 200)}")]
    if reader.limits:
        return None, reader.limits
    if reader.second is not None:   # what yaml.compose says of a second document
        m = reader.second
        return None, [Problem(file, m.line + 1, m.column + 1, "Y001", "malformed YAML: but found another document",
                              hint="expected a single document in the stream")]
    if not reader.documents:
        return None, [Problem(file, 0, 0, "Y006", "the file is empty", hint="write a YAML mapping")]
    problems = reader.problems
    return (None if problems else Located(file, reader.data, reader.marks)), problems


def load_file(path: str | Path, max_bytes: int = MAX_FILE_BYTES,
              max_nodes: int = MAX_NODES) -> tuple[Located | None, list[Problem]]:
    """Read a YAML file strictly: a regular file, within the limits, UTF-8, then ``load_text``."""
    name = _display(Path(path))
    try:
        raw = read_bounded(path, max_bytes)
    except LimitError as exc:
        return None, [exc.problem]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        return None, [Problem(name, line, 1, "Y009", "the file is not UTF-8 text",
                              hint="save it as UTF-8")]
    return load_text(text, name, max_bytes, max_nodes)


# ---------------------------------------------------------------- one JSON line (rulings rule --jsonl)

def json_number(text: str) -> Any:
    """A JSON number with a fraction or exponent (or NaN, Infinity), read as YAML reads the same text: a
    Decimal from its digits, never a binary float, within 10^±1000; what YAML does not take for a number stays
    text. Every JSON reader passes it as ``parse_float`` and ``parse_constant`` (the API's bodies too)."""
    return _scalar(_resolve(text), text)


# one decoder for every line (``json.loads`` with options makes a decoder and its scanner each call)
_JSON = json.JSONDecoder(parse_float=json_number, parse_constant=json_number)


class _LineMarks:
    """The positions of a JSON line's values, as the YAML reader gives them for the same text (a line of JSON
    is a YAML flow mapping), on the line's own line number; worked out only when a position is first asked
    for (a problem to report), never for a line that reads without one. When the YAML reader cannot read the
    text or reads other values from it than JSON did, every value is placed at the line's start."""

    __slots__ = ("_text", "_file", "_line", "_data", "_marks")

    def __init__(self, text: str, file: str, line: int, data: Any):
        self._text, self._file, self._line, self._data = text, file, line, data
        self._marks: dict | None = None

    def _all(self) -> dict:
        if self._marks is None:
            doc, _ = load_text(self._text, self._file)
            if doc is not None and doc.data == self._data:
                shift = self._line - 1
                self._marks = {p: (line + shift, col, width) for p, (line, col, width) in doc.marks.items()}
            else:
                self._marks = {(): (self._line, 1, 1)}
        return self._marks

    def __contains__(self, path: object) -> bool:
        return path in self._all()

    def __getitem__(self, path: Path_) -> tuple[int, int, int]:
        return self._all()[path]

    def get(self, path: Path_, default: Any = None) -> Any:
        return self._all().get(path, default)

    def __iter__(self) -> Any:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def items(self) -> Any:
        return self._all().items()


def _on_line(problems: list[Problem], line: int) -> list[Problem]:
    """Problems the YAML reader found in a one-line text, moved to the line's own number (a problem of the
    whole text, line 0, is on that line, at its start)."""
    out = []
    for p in problems:
        at, col = (p.line + line - 1, p.col) if p.line else (line, 1)
        out.append(Problem(p.file, at, col, p.code, p.message, p.path, p.hint, p.width))
    return out


def load_json_line(text: str, file: str, line: int, max_bytes: int = MAX_FILE_BYTES,
                   max_nodes: int = MAX_NODES) -> tuple[Located | None, list[Problem]]:
    """One line of JSON, read with ``json.loads`` and held to the same rules as ``load_text`` holds the same
    text to, with the same problems at the same places (on line ``line``): the same limits (bytes, nesting,
    values), duplicate keys refused, numbers with a fraction read as Decimal (an exponent-only number, as in
    YAML, is text). The positions are the YAML reader's for the same text, worked out only when a problem
    asks for one (``_LineMarks``); whenever the line breaks a rule, the YAML reader itself names it."""
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        return None, _on_line(load_text(text, file, max_bytes, max_nodes)[1], line)   # Y007, read no further
    try:
        data = _JSON.decode(text)
    except RecursionError:      # deeper than the JSON reader goes: the YAML reader names the depth, and where
        return None, _as_yaml_says(text, file, line, max_bytes, max_nodes) or [_too_deep(file, line)]
    except ValueError as exc:   # not JSON at all: JSON's own words, at its place on the line
        return None, [Problem(file, line, getattr(exc, "colno", 1), "Y001", f"not a JSON object: {exc}")]
    depth, nodes, keys = _shape(data)
    # every key is followed by one ':' outside a string, so as many ':' as keys read means no key was
    # written twice (json.loads keeps the last without a word); more (a ':' in a text, or a key again):
    # read again, each mapping's pairs counted
    twice = keys != text.count(":") and _twice(text)
    if twice or depth > MAX_DEPTH or nodes > max_nodes:
        problems = _as_yaml_says(text, file, line, max_bytes, max_nodes)
        if problems:
            return None, problems
        # the YAML reader could not read what JSON read (libyaml stops at a thousand open brackets) or read
        # it otherwise: the rule broken, named plainly at the line's start
        if depth > MAX_DEPTH:
            return None, [_too_deep(file, line)]
        if nodes > max_nodes:
            return None, [Problem(file, line, 1, "Y012", f"the document holds more than {max_nodes:,} values", (),
                                  "split it into smaller files; nothing real comes close")]
        return None, [Problem(file, line, 1, "Y002", f"duplicate key '{twice}'", (),
                              "YAML would silently keep only the last one")]
    return Located(file, data, _LineMarks(text, file, line, data)), []  # type: ignore[arg-type]


def _too_deep(file: str, line: int) -> Problem:
    return Problem(file, line, 1, "Y011", f"values are nested more than {MAX_DEPTH} deep", (),
                   "flatten the structure; the formats need at most 10 levels")


def _as_yaml_says(text: str, file: str, line: int, max_bytes: int, max_nodes: int) -> list[Problem]:
    """The rules the YAML reader finds a JSON line breaks, on the line's number; none when it cannot read
    the text at all (Y001: JSON read it, so what is wrong is for the caller to name)."""
    problems = load_text(text, file, max_bytes, max_nodes)[1]
    return [] if any(p.code == "Y001" for p in problems) else _on_line(problems, line)


def _shape(data: Any) -> tuple[int, int, int]:
    """How deep ``data`` is nested (mappings and lists), how many values it holds (keys counted, as the YAML
    reader counts them) and how many keys: a walk over the mappings and lists only, level by level (the
    values of each picked out by their type without a Python call for each)."""
    if data.__class__ is not dict and data.__class__ is not list:
        return 0, 1, 0
    level = [data]
    depth = keys = 0
    nodes = 1
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            break
        below: list = []
        item: Any
        for item in level:
            values: list
            if item.__class__ is dict:
                keys += len(item)
                nodes += 2 * len(item)
                values = list(item.values())
            else:
                nodes += len(item)
                values = item
            below += compress(values, map(_CONTAINER, map(type, values)))
        level = below
    return depth, nodes, keys


_CONTAINER = frozenset((dict, list)).__contains__


def _twice(text: str) -> str:
    """The first key a JSON text writes twice in one mapping ('' for none)."""
    found: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict:
        out = dict(items)
        if len(out) != len(items) and not found:
            names = [k for k, _ in items]
            found.append(next(k for i, k in enumerate(names) if k in names[:i]))
        return out

    json.JSONDecoder(parse_float=json_number, parse_constant=json_number, object_pairs_hook=pairs).decode(text)
    return found[0] if found else ""


# ---------------------------------------------------------------- the package's own catalogues

_FAST = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_FAST):  # type: ignore[valid-type, misc]
    """PyYAML's safe loader (libyaml's where PyYAML has it) that refuses a key written twice in a mapping,
    as the rulebooks' reader does: in a catalogue, the second of two same keys would silently win."""

    def construct_mapping(self, node, deep=False):
        seen: dict = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.setdefault(key, key_node)
            except TypeError:        # an unhashable key: PyYAML's own refusal follows
                continue
            if first is not key_node:
                raise yaml.constructor.ConstructorError(
                    "while reading a mapping", node.start_mark, f"the key '{key}' is written twice "
                    f"(line {first.start_mark.line + 1} and line {key_node.start_mark.line + 1})", key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


def load_catalogue(text: str) -> Any:
    """One of the package's own YAML catalogues (the fact catalogues, the matters): plain data, fast, and a
    key written twice refused (a ``yaml.YAMLError`` naming both lines), never silently taken as the last."""
    return yaml.load(text, Loader=_StrictLoader)
