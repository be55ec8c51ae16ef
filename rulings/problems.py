"""Problems found in rulebooks and incidents: position, code, path, hint; rendered as text or JSON."""
from __future__ import annotations

import os
import re
import stat
from dataclasses import field
from collections.abc import Iterator
from pathlib import Path

from rulings.records import LazyFrozen, record

MAX_FILE_BYTES = 1_000_000   # a rulebook topic file or house book (Y007)
# what no text a book publishes may hold (R115): NUL and the other C0 controls but tab, line feed and carriage
# return, DEL and the C1 controls, lone surrogates (PostgreSQL stores neither a NUL nor a lone surrogate, and a
# terminal obeys the others), and the bidirectional overrides and isolates that make a text read otherwise
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")


def control_character(text: str) -> str | None:
    """The first character of ``text`` no published text may hold, shown as an escape ('\\x00'), or None."""
    found = _CONTROL.search(text)
    return None if found is None else found.group().encode("unicode_escape").decode("ascii")


@record(frozen=True, order=True)
class Problem(LazyFrozen):
    """One thing wrong, where it is, and what to do about it."""

    file: str
    line: int                 # 1-based; 0 when the whole file is at fault
    col: int                  # 1-based
    code: str                 # stable code, e.g. R104 (listed in docs/errors.md)
    message: str
    path: tuple[str, ...] = ()
    hint: str | None = None
    width: int = 1            # how many characters the caret underlines
    severity: str = field(default="error", compare=False)

    def location(self) -> str:
        return f"{self.file}:{self.line}:{self.col}" if self.line else self.file

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "col": self.col, "code": self.code,
                "severity": self.severity, "message": self.message, "path": list(self.path),
                "hint": self.hint}


class ProblemsError(Exception):
    """Raised with every problem found, never just the first."""

    def __init__(self, problems: list[Problem]):
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = sorted(problems)


MAX_SHOWN = 100        # problems printed in full; the rest are counted ("and N more")
LINE_SHOWN = 120       # characters of the offending line shown around the column


def _source_line(file: str, line: int, cache: dict[str, list[str]]) -> str | None:
    if not line:
        return None
    if file not in cache:
        try:
            cache[file] = read_bounded(file).decode("utf-8").splitlines()
        except (LimitError, UnicodeDecodeError):
            cache[file] = []
    lines = cache[file]
    return lines[line - 1] if 0 < line <= len(lines) else None


def clip(src: str, col: int, width: int) -> tuple[str, int, int]:
    """At most LINE_SHOWN characters of a line around ``col``: the text, the new column and caret width."""
    if len(src) <= LINE_SHOWN:
        return src, col, width
    start = max(0, min(col - 1 - LINE_SHOWN // 3, len(src) - LINE_SHOWN))
    text = src[start:start + LINE_SHOWN]
    lead = "..." if start else ""
    tail = "..." if start + LINE_SHOWN < len(src) else ""
    new_col = col - start + len(lead)
    return lead + text + tail, new_col, max(1, min(width, LINE_SHOWN - (col - 1 - start)))


def render_text(problems: list[Problem], limit: int = MAX_SHOWN) -> str:
    """Every problem (up to ``limit``, then a count of the rest) with the offending line and a caret."""
    cache: dict[str, list[str]] = {}
    out: list[str] = []
    ordered = sorted(problems)
    for p in ordered[:limit]:
        out.append(f"{p.location()}: {p.severity} {p.code}: {p.message}")
        src = _source_line(p.file, p.line, cache)
        if src is not None:
            gutter = f"{p.line:>5} | "
            text, col, width = clip(src, p.col, p.width)
            out.append(gutter + text)
            out.append(" " * (len(gutter) - 2) + "| " + " " * (col - 1) + "^" * max(1, width))
        if p.path:
            out.append("  at: " + " -> ".join(p.path))
        if p.hint:
            out.append("  hint: " + p.hint)
    n = len(problems)
    if n > limit:
        out.append(f"... and {n - limit} more problem{'s' if n - limit != 1 else ''} not shown")
    warned = sum(1 for p in problems if p.severity == "warning")
    split = f" ({n - warned} error{'s' if n - warned != 1 else ''}, {warned} warning{'s' if warned != 1 else ''})" \
        if warned else ""
    out.append(f"{n} problem{'s' if n != 1 else ''} found{split}")
    return "\n".join(out)


class LimitError(Exception):
    """A document over one of the reading limits; carries the problem to report."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


def _display(path: Path) -> str:
    """A path as people read it: relative to the working folder when it lies inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _open_regular(path: str | Path, name: str) -> int:
    """A descriptor of a regular file, opened without blocking and checked with ``fstat`` on the open
    descriptor (a FIFO, a device such as ``/dev/zero`` or ``/dev/urandom``, a socket or a folder is refused,
    also behind a link); the caller closes it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise LimitError(Problem(name, 0, 0, "Y008", f"cannot read the file: {exc.strerror}")) from None
    try:
        mode = os.fstat(fd).st_mode
    except OSError as exc:
        os.close(fd)
        raise LimitError(Problem(name, 0, 0, "Y008", f"cannot read the file: {exc.strerror}")) from None
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = ("a folder" if stat.S_ISDIR(mode) else "a pipe" if stat.S_ISFIFO(mode) else
                "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket"
                if stat.S_ISSOCK(mode) else "not a plain file")
        raise LimitError(Problem(name, 0, 0, "Y010", f"this is {kind}, not a regular file",
                                 hint="give a YAML file"))
    return fd


def _read(fd: int, name: str, size: int) -> bytes:
    try:
        return os.read(fd, size)
    except BlockingIOError:
        raise LimitError(Problem(name, 0, 0, "Y010", "the file cannot be read without waiting",
                                 hint="give a YAML file")) from None
    except OSError as exc:
        raise LimitError(Problem(name, 0, 0, "Y008", f"cannot read the file: {exc.strerror}")) from None


def read_bounded(path: str | Path, max_bytes: int = MAX_FILE_BYTES, *, head: bool = False) -> bytes:
    """At most ``max_bytes`` of a regular file; ``LimitError`` for anything else.

    The one reader of every file the command line reads (incidents, hand histories, books, drafts): the file
    is opened without blocking and must be a regular file (``_open_regular``); then read with a bound, so
    a file that is bigger than its ``stat`` said (or grows) is refused too (Y007). With ``head``, the first
    ``max_bytes`` are returned instead (a look at a file's first lines, never a refusal for its size).
    """
    name = _display(Path(path))
    fd = _open_regular(path, name)
    try:
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = _read(fd, name, min(1 << 16, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    finally:
        os.close(fd)
    if total > max_bytes:
        if head:
            return b"".join(chunks)[:max_bytes]
        raise LimitError(Problem(name, 0, 0, "Y007", f"the file is over the limit of {max_bytes:,} bytes",
                                 hint="split it into smaller files"))
    return b"".join(chunks)


def bounded_lines(path: str | Path | None, max_bytes: int) -> Iterator[tuple[int, bytes | None]]:
    """Each line of a regular file (``None``: standard input, which may be a pipe) as (its number, its bytes),
    never holding more than ``max_bytes`` of one line: a longer line comes as (its number, None) and is
    skipped to its end, so a file of one endless line (``/dev/zero`` given as standard input) is refused
    line by line in bounded memory. A path that is not a regular file is refused (``LimitError``) here,
    before anything is read."""
    import sys
    if path is None:
        return _lines_of(sys.stdin.fileno(), "<stdin>", max_bytes, own=False)
    name = _display(Path(path))
    return _lines_of(_open_regular(path, name), name, max_bytes, own=True)


def _lines_of(fd: int, name: str, max_bytes: int, own: bool) -> Iterator[tuple[int, bytes | None]]:
    try:
        number, line, over, buffer, at = 0, bytearray(), False, b"", 0
        while True:
            if at >= len(buffer):
                buffer, at = (_read(fd, name, 1 << 16) if own else os.read(fd, 1 << 16)), 0
                if not buffer:
                    break
            cut = buffer.find(b"\n", at)
            end = len(buffer) if cut < 0 else cut + 1
            if not over:
                line += buffer[at:end]
                if len(line) > max_bytes:
                    over, line = True, bytearray()
            at = end
            if cut >= 0:
                number += 1
                yield number, None if over else bytes(line)
                line, over = bytearray(), False
        if line or over:
            yield number + 1, None if over else bytes(line)
    finally:
        if own:
            os.close(fd)
