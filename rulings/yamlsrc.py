"""Strict YAML reading that remembers where every value came from.

Plain Python values come back (dict, list, str, int, Decimal, bool, None) with
a side table from each value's path to its line and column, so that every
later check can point at the source. Floats are read as Decimal from their
text, never through binary floating point. Duplicate keys, tags, anchors and
aliases are refused: each could silently change what a rule means.
"""
from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import yaml

from rulings.problems import Problem

# libyaml's parser when PyYAML was built with it: the same nodes and marks, several times faster
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_FILE_BYTES = 1_000_000

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


def _token_problems(text: str, file: str) -> list[Problem]:
    """Tags, anchors and aliases, found in the token stream (they leave no trace in nodes)."""
    found = []
    for tok in yaml.scan(text, Loader=LOADER):
        kind = None
        if isinstance(tok, yaml.TagToken):
            kind, code, hint = "tag", "Y004", "write the value plainly; tags are not part of the rulebook format"
        elif isinstance(tok, (yaml.AnchorToken, yaml.AliasToken)):
            kind, code, hint = "anchor or alias", "Y005", "repeat the value; anchors and aliases are not allowed"
        if kind:
            m = tok.start_mark
            found.append(Problem(file, m.line + 1, m.column + 1, code,
                                 f"YAML {kind} '{''.join(getattr(tok, 'value', ''))}' is not allowed", (), hint,
                                 max(1, tok.end_mark.column - m.column)))
    return found


def load_text(text: str, file: str) -> tuple[Located | None, list[Problem]]:
    """Parse one YAML document; return it with positions, and every problem found."""
    if not text.strip():
        return None, [Problem(file, 0, 0, "Y006", "the file is empty",
                              hint="write a YAML mapping")]
    try:
        problems = _token_problems(text, file)
        node = yaml.compose(text, Loader=LOADER)
    except yaml.MarkedYAMLError as exc:
        m = exc.problem_mark
        line, col = (m.line + 1, m.column + 1) if m else (0, 0)
        return None, [Problem(file, line, col, "Y001", f"malformed YAML: {exc.problem}",
                              hint=str(exc.context) if exc.context else "check indentation and quoting")]
    except yaml.YAMLError as exc:
        return None, [Problem(file, 0, 0, "Y001", f"malformed YAML: {exc}")]
    if node is None:
        return None, [Problem(file, 0, 0, "Y006", "the file is empty", hint="write a YAML mapping")]
    builder = _Builder(file)
    data = builder.build(node, ())
    problems += builder.problems
    return (None if problems else Located(file, data, builder.marks)), problems


def _display(path: Path) -> str:
    """A path as people read it: relative to the working folder when it lies inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def load_file(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> tuple[Located | None, list[Problem]]:
    """Read a YAML file strictly: size limit, UTF-8, then ``load_text``."""
    name = _display(Path(path))
    try:
        size = Path(path).stat().st_size
        if size > max_bytes:
            return None, [Problem(name, 0, 0, "Y007",
                                  f"the file is {size:,} bytes, over the limit of {max_bytes:,}",
                                  hint="split it by topic")]
        raw = Path(path).read_bytes()
    except OSError as exc:
        return None, [Problem(name, 0, 0, "Y008", f"cannot read the file: {exc.strerror}")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        return None, [Problem(name, line, 1, "Y009", "the file is not UTF-8 text",
                              hint="save it as UTF-8")]
    return load_text(text, name)
