"""Strict YAML reading that remembers where every value came from.

Plain Python values come back (dict, list, str, int, Decimal, bool, None) with
a side table from each value's path to its line and column, so that every
later check can point at the source. Floats are read as Decimal from their
text, never through binary floating point. Duplicate keys, tags, anchors and
aliases are refused: each could silently change what a rule means.

Every file is read through ``read_bounded`` and every text through one pass of
``_limits`` before anything is built, so no input can exhaust memory, time or
the stack: only regular files are opened, at most ``max_bytes`` are read (a
bound on the read, not a ``stat``, so ``/dev/zero`` or a growing file cannot
slip past), nesting is at most ``MAX_DEPTH`` deep, a document holds at most
``max_nodes`` values, and anchors and aliases are refused before any of them
is expanded. Each limit has its own code (docs/errors.md).
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import yaml

from rulings.problems import MAX_FILE_BYTES, LimitError, Problem, _display, read_bounded  # noqa: F401

# libyaml's parser when PyYAML was built with it: the same nodes and marks, several times faster
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_DEPTH = 32               # mappings and lists inside each other (Y011); the books use 10
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


def _scalar(node: yaml.ScalarNode) -> Any:
    text = node.value
    tag = node.tag
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
        return d if d.is_finite() else text
    if tag == "tag:yaml.org,2002:bool":
        low = text.lower()
        return True if low == "true" else False if low == "false" else text  # yes/no/on/off stay words
    if tag == "tag:yaml.org,2002:null":
        return None
    return text


class _Builder:
    def __init__(self, file: str):
        self.file = file
        self.marks: dict[Path_, tuple[int, int, int]] = {}
        self.problems: list[Problem] = []

    def _mark(self, path: Path_, node: yaml.Node) -> None:
        s, e = node.start_mark, node.end_mark
        width = e.column - s.column if e.line == s.line else 1
        self.marks[path] = (s.line + 1, s.column + 1, max(1, width))

    def build(self, node: yaml.Node, path: Path_) -> Any:
        self._mark(path, node)
        if isinstance(node, yaml.ScalarNode):
            return _scalar(node)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(child, path + (i,)) for i, child in enumerate(node.value)]
        result: dict[Any, Any] = {}
        for knode, vnode in node.value:
            if not isinstance(knode, yaml.ScalarNode):
                self.problems.append(Problem(self.file, knode.start_mark.line + 1,
                                             knode.start_mark.column + 1, "Y003",
                                             "a key must be a plain word or number",
                                             tuple(str(x) for x in path)))
                continue
            key = _scalar(knode)
            if key in result:
                first = self.marks.get(path + (key, "<key>"), (0, 0, 0))[0]
                self.problems.append(Problem(
                    self.file, knode.start_mark.line + 1, knode.start_mark.column + 1, "Y002",
                    f"duplicate key '{key}'", tuple(str(x) for x in path + (key,)),
                    f"the first '{key}' is on line {first}; YAML would silently keep only the last one",
                    len(str(knode.value))))
                continue
            self._mark(path + (key, "<key>"), knode)
            result[key] = self.build(vnode, path + (key,))
        return result


def _limits(text: str, file: str, max_nodes: int) -> list[Problem]:
    """One streaming pass over the parser's events, before any node is built.

    Tags, anchors and aliases (refused: an alias expands to a copy of what it
    names, so a few hundred bytes can stand for gigabytes), nesting deeper than
    ``MAX_DEPTH`` and more than ``max_nodes`` values stop the pass at once.
    """
    found: list[Problem] = []
    depth = nodes = 0
    for ev in yaml.parse(text, Loader=LOADER):
        m = ev.start_mark
        if isinstance(ev, yaml.AliasEvent) or getattr(ev, "anchor", None):
            name = ev.anchor
            found.append(Problem(file, m.line + 1, m.column + 1, "Y005",
                                 f"YAML anchor or alias '{_short(name)}' is not allowed", (),
                                 "repeat the value; anchors and aliases are not allowed", len(name or "") + 1))
            if isinstance(ev, yaml.AliasEvent):
                return found   # stop at the first alias: nothing is ever expanded
        if isinstance(ev, (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if ev.tag is not None:   # set only when the text writes a tag
                tag = ev.tag.replace("tag:yaml.org,2002:", "!!", 1)
                found.append(Problem(file, m.line + 1, m.column + 1, "Y004",
                                     f"YAML tag '{_short(tag, 60)}' is not allowed", (),
                                     "write the value plainly; tags are not part of the rulebook format",
                                     len(tag)))
            nodes += 1
            if nodes > max_nodes:
                return found + [Problem(file, m.line + 1, m.column + 1, "Y012",
                                        f"the document holds more than {max_nodes:,} values", (),
                                        "split it into smaller files; nothing real comes close")]
        if isinstance(ev, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                return found + [Problem(file, m.line + 1, m.column + 1, "Y011",
                                        f"values are nested more than {MAX_DEPTH} deep", (),
                                        "flatten the structure; the formats need at most 10 levels")]
        elif isinstance(ev, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1
    return found


def _short(text: str | None, limit: int = 40) -> str:
    text = text or ""
    return text if len(text) <= limit else text[:limit] + "..."


def load_text(text: str, file: str, max_bytes: int = MAX_FILE_BYTES,
              max_nodes: int = MAX_NODES) -> tuple[Located | None, list[Problem]]:
    """Parse one YAML document within the limits; return it with positions, and every problem found."""
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        return None, [Problem(file, 0, 0, "Y007", f"the text is over the limit of {max_bytes:,} bytes",
                              hint="split it into smaller files")]
    if not text.strip():
        return None, [Problem(file, 0, 0, "Y006", "the file is empty",
                              hint="write a YAML mapping")]
    try:
        problems = _limits(text, file, max_nodes)
        if problems:
            return None, problems
        node = yaml.compose(text, Loader=LOADER)
    except yaml.MarkedYAMLError as exc:
        m = exc.problem_mark
        line, col = (m.line + 1, m.column + 1) if m else (0, 0)
        return None, [Problem(file, line, col, "Y001", f"malformed YAML: {exc.problem}",
                              hint=str(exc.context) if exc.context else "check indentation and quoting")]
    except yaml.YAMLError as exc:
        return None, [Problem(file, 0, 0, "Y001", f"malformed YAML: {_short(str(exc), 200)}")]
    except RecursionError:   # not reached within MAX_DEPTH; kept so no input can give a traceback
        return None, [Problem(file, 0, 0, "Y011", "values are nested too deep")]
    if node is None:
        return None, [Problem(file, 0, 0, "Y006", "the file is empty", hint="write a YAML mapping")]
    builder = _Builder(file)
    data = builder.build(node, ())
    problems += builder.problems
    return (None if problems else Located(file, data, builder.marks)), problems


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
