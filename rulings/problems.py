"""Problems found in rulebooks and incidents: position, code, path, hint; rendered as text or JSON."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, order=True)
class Problem:
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


def _source_line(file: str, line: int, cache: dict[str, list[str]]) -> str | None:
    if not line:
        return None
    if file not in cache:
        try:
            cache[file] = Path(file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            cache[file] = []
    lines = cache[file]
    return lines[line - 1] if 0 < line <= len(lines) else None


def render_text(problems: list[Problem]) -> str:
    """Every problem with the offending line and a caret, then a count."""
    cache: dict[str, list[str]] = {}
    out: list[str] = []
    for p in sorted(problems):
        out.append(f"{p.location()}: {p.severity} {p.code}: {p.message}")
        src = _source_line(p.file, p.line, cache)
        if src is not None:
            gutter = f"{p.line:>5} | "
            out.append(gutter + src)
            out.append(" " * (len(gutter) - 2) + "| " + " " * (p.col - 1) + "^" * max(1, p.width))
        if p.path:
            out.append("  at: " + " -> ".join(p.path))
        if p.hint:
            out.append("  hint: " + p.hint)
    n = len(problems)
    out.append(f"{n} problem{'s' if n != 1 else ''} found")
    return "\n".join(out)
