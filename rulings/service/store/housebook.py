"""House books a manager edits and publishes from the podium: every version kept, only a good one goes live.

A published book lives in the service's data directory::

    DATA/houses/NAME/0001.yaml      each version as written, never changed or deleted
    DATA/houses/NAME/0001.json      who published it, when (UTC), its content hash
    DATA/houses/NAME/current        the file name of the version in force (replaced atomically)

On PostgreSQL (a chain of rooms) the versions are rows of the database instead: ``chain.ChainBooks``.
A book never published from the podium is the repository's ``rulebooks/houses/NAME.yaml``.
A draft is checked the same way ``rulings lint`` and ``rulings test --house`` check a
file: it must load (every problem with its line), and none of its own or the standard
examples may fail under it. ``diff`` is ``rulings diff`` of the draft against the standard book.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import yaml

from rulings.problems import Problem, ProblemsError
from rulings.rulebook.load import ROOT
from rulings.settings import env_seconds, env_whole

NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
MAX_TEXT = 256 * 1024
_LOCK = threading.Lock()
# the checks answered, by what each depends on (HouseBooks._check_key), for every HouseBooks of the process
_CHECKS: dict[tuple, "Check"] = {}
KEPT_CHECKS = 16


def content_hash(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Check:
    """What a draft would do: its problems (by line), failing examples, and the diff against standard."""

    problems: list[Problem] = field(default_factory=list)
    failures: list[dict] = field(default_factory=list)
    diff: dict | None = None
    warnings: list[Problem] = field(default_factory=list)     # what `rulings lint` warns of (R607); no bar to going live

    @property
    def ok(self) -> bool:
        return not self.problems and not self.failures


class HouseBooks:
    def __init__(self, data_dir: str | Path, hasher: Callable[[Path], str] | None = None):
        self.root = Path(data_dir) / "houses"
        # the hash the service logs with each ruling (its book hash), so a log entry finds its version
        self.hasher = hasher or (lambda p: content_hash(p.read_text(encoding="utf-8")))

    # ---- reading
    def names(self) -> list[str]:
        from rulings.rulebook.house import house_names
        mine = sorted(p.name for p in self.root.glob("*") if (p / "current").exists()) if self.root.exists() else []
        return sorted(set(house_names()) | set(mine))

    def live_path(self, name: str) -> Path | None:
        """The file of the version in force, when one was published here; None: the repository's file."""
        if not NAME.match(name):
            return None
        current = self.root / name / "current"
        if not current.exists():
            return None
        return self.root / name / current.read_text(encoding="utf-8").strip()

    def path(self, name: str) -> Path:
        live = self.live_path(name)
        if live is not None:
            return live
        p = ROOT / "houses" / f"{name}.yaml"
        if not NAME.match(name) or not p.exists():
            raise LookupError(f"no house book '{name}'")
        return p

    def text(self, name: str) -> str:
        return self.path(name).read_text(encoding="utf-8")

    def versions(self, name: str) -> list[dict]:
        """Every published version, newest first; the repository's file is the first version of a room."""
        out = []
        folder = self.root / name
        live = self.live_path(name)
        if NAME.match(name) and folder.exists():
            for meta in sorted(folder.glob("*.json"), reverse=True):
                info = json.loads(meta.read_text(encoding="utf-8"))
                info["file"] = meta.with_suffix(".yaml").name
                info["hash"] = self.hasher(meta.with_suffix(".yaml"))
                info["live"] = live is not None and live.name == info["file"]
                out.append(info)
        repo = ROOT / "houses" / f"{name}.yaml"
        if repo.exists():
            out.append({"version": 0, "file": f"rulebooks/houses/{name}.yaml", "hash": self.hasher(repo),
                        "at": None, "by": "the repository", "note": "as shipped", "live": live is None})
        return out

    def version_text(self, name: str, digest: str) -> str | None:
        """The text of the version with this content hash (a logged ruling's book version)."""
        if not NAME.match(name):
            return None
        folder = self.root / name
        candidates = sorted(folder.glob("[0-9]*.yaml")) if folder.exists() else []
        candidates.append(ROOT / "houses" / f"{name}.yaml")
        for f in candidates:
            if f.exists() and self.hasher(f) == digest:
                return f.read_text(encoding="utf-8")
        return None

    def _known(self, name: str) -> bool:
        try:
            self.path(name)
            return True
        except LookupError:
            return False

    # ---- checking and publishing
    def check(self, name: str, text: str, with_diff: bool = True, against_standard: bool = False) -> Check:
        """Lint the draft, run its examples and the standard ones under it, and diff it against the version in
        force (a new book, or ``against_standard``: against the standard book)."""
        if not NAME.match(name):
            return Check([Problem("<draft>", 0, 0, "P001", f"'{name}' is not a house book name",
                                  hint="lower-case letters, digits and dashes")])
        if len(text.encode("utf-8")) > MAX_TEXT:
            return Check([Problem(f"{name}.yaml", 0, 0, "P002", "the book is over 256 KiB")])
        live = self.path(name) if with_diff and not against_standard and self._known(name) else None
        key = self._check_key(name, text, with_diff, live)
        with _LOCK:
            found = _CHECKS.pop(key, None)
            if found is not None:
                _CHECKS[key] = found       # put back last: the least recently used goes first
            elif not with_diff:            # a publish after "See what changes": the same check, less the diff
                found = next((c for k, c in reversed(_CHECKS.items()) if k[:2] == key[:2] and k[2] and k[4] == key[4]),
                             None)
                found = found and Check(found.problems, found.failures, None, found.warnings)
        if found is not None:
            return found
        with tempfile.TemporaryDirectory(prefix="rulings-draft-") as tmp:
            draft = Path(tmp) / f"{name}.yaml"
            draft.write_text(text, encoding="utf-8")
            result = _local(_checked(name, draft, with_diff, live), [Path(tmp), self.root, ROOT / "houses", ROOT])
        if any(p.code in ("P004", "P005") for p in result.problems):
            return result                  # no answer about the book (stopped, or not started): checked again next time
        with _LOCK:
            if len(_CHECKS) >= KEPT_CHECKS:
                _CHECKS.pop(next(iter(_CHECKS)))
            _CHECKS[key] = result
        return result

    def _check_key(self, name: str, text: str, with_diff: bool, live: Path | None) -> tuple:
        """What a check's answer depends on besides the code and the standard book (loaded once per checking
        process): the draft, the version it is compared with, and the repository's house books (which a
        draft may extend), by content. The version compared with is known by its content and by the name the
        check shows it under ('NAME/0001.yaml' in any service's folder, 'NAME.yaml' for the repository's),
        never by the folder it is in: the same draft checked again (a publish after its check, a page shown
        again, another service in this process) is answered from the checks kept (``_CHECKS``)."""
        live_text = live.read_text(encoding="utf-8") if live is not None else None
        houses = tuple(sorted((p.name, content_hash(p.read_text(encoding="utf-8")))
                              for p in (ROOT / "houses").glob("*.yaml")))
        shown = None
        if live is not None:
            shown = str(live)
            for folder in (self.root, ROOT / "houses"):
                try:
                    shown = live.relative_to(folder).as_posix()
                    break
                except ValueError:
                    continue
        return (name, content_hash(text), with_diff, live_text and (shown, content_hash(live_text)), houses)

    def standard_diff(self, name: str) -> Check:
        """What the version in force changes against the standard book (the podium's diff page): checked
        once per version and kept (a version never changes; a publish makes a new one)."""
        text = self.text(name)
        key = (name, content_hash(text))
        cache = self.__dict__.setdefault("_diffs", {})
        if key not in cache:
            if len(cache) > 32:
                cache.clear()
            cache[key] = self.check(name, text, against_standard=True)
        return cache[key]

    def publish(self, name: str, text: str, by: str, note: str = "", room: str | None = None
                ) -> tuple[Check, dict | None]:
        """Make the draft the live version, only if it lints and its tests pass; the earlier ones stay."""
        result = self.check(name, text, with_diff=False)
        if not result.ok:
            return result, None
        with _LOCK:
            folder = self.root / name
            folder.mkdir(parents=True, exist_ok=True)
            number = 1 + max((int(p.stem) for p in folder.glob("[0-9]*.yaml")), default=0)
            stem = f"{number:04d}"
            info = {"version": number, "hash": content_hash(text), "by": by, "note": note,
                    "at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "room": room}
            _write(folder / f"{stem}.yaml", text)
            _write(folder / f"{stem}.json", json.dumps(info, indent=1))
            _write(folder / "current", f"{stem}.yaml\n")
        return result, info


def _local(check: Check, folders: list[Path]) -> Check:
    """The check with every file named as a manager knows it, never by the server's folders: the draft and
    the repository's copy as 'NAME.yaml', a published version as 'NAME/0001.yaml' (relative to the house-book
    folder), the standard book's files as 'standard/TOPIC.yaml'. A file is written absolute or relative to
    the working folder when its book was read (problems._display; books are kept per process), so each
    folder is taken off however much of its path was written."""
    spelled: list[str] = []
    for folder in folders:
        for f in dict.fromkeys((folder.absolute(), folder.resolve())):
            spelled += [str(Path(*f.parts[i:])) + os.sep for i in range(len(f.parts))]
    # longest first: rulebooks/houses/ before rulebooks/; never inside a longer path or a word
    where = re.compile(r"(?<![\w./-])(?:" + "|".join(map(re.escape, sorted(set(spelled), key=len, reverse=True)))
                       + ")")

    def shown(value: Any) -> Any:
        if isinstance(value, str):
            return where.sub("", value)
        if isinstance(value, dict):
            return {k: shown(v) for k, v in value.items()}
        if isinstance(value, list):
            return [shown(v) for v in value]
        return value
    from dataclasses import replace
    problems, warnings = ([replace(p, file=shown(p.file), message=shown(p.message), hint=shown(p.hint)) for p in ps]
                          for ps in (check.problems, check.warnings))
    return Check(problems, shown(check.failures), shown(check.diff), warnings)


def _write(path: Path, text: str) -> None:
    """Write a file whole or not at all: a temporary file, flushed to disk, renamed over the old one."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


_POOL: Any = None
_POOL_LOCK = threading.Lock()
_STOPPING = threading.Event()    # the service is stopping: no check starts a new checking process
_RUNNING: list = []              # the checks waited for now (their futures)
CHECK_SECONDS = 120.0    # a check (loading, linting, every example, the diff) is ended after this long


def check_seconds() -> float:
    """How long a check may take before it is ended (``RULINGS_CHECK_SECONDS``, default ``CHECK_SECONDS``)."""
    return env_seconds("RULINGS_CHECK_SECONDS", CHECK_SECONDS, 0.1, 86400)


def _checked(name: str, draft: Path, with_diff: bool, live: Path | None) -> Check:
    """``_check_file`` in a process of its own (a pool of ``RULINGS_CHECK_PROCESSES``, default 1, started on
    the first check), within ``check_seconds()``: loading, linting and running every example of a book holds
    the interpreter for seconds, and in a thread of the service it would keep the event loop (and the floor's
    requests) waiting for it; a draft whose check never ends (a value the reader takes for ever) would hold
    it for good. The process runs at a lower priority (``BEHIND``); when the time is up it is killed (a check
    stuck in C code answers no signal it could catch), the check is refused as too long, and the next check
    starts a fresh process. A check is never run in the service's own process: one that cannot start is
    refused, saying so."""
    from concurrent.futures import TimeoutError as TooLong
    from concurrent.futures.process import BrokenProcessPool
    limit = check_seconds()
    ends = time.monotonic() + limit
    for _ in range(3):     # a pool ended under this check (another check's time ran out, a crash): a fresh one
        if _STOPPING.is_set():
            return _not_checked(name, "the service is stopping")
        try:
            pool = _pool()
            future = pool.submit(_check_file, name, draft, with_diff, live)
        except (BrokenProcessPool, OSError, RuntimeError) as exc:
            return _not_checked(name, f"the checking process could not start ({exc.__class__.__name__})")
        _RUNNING.append(future)
        try:
            return future.result(timeout=max(ends - time.monotonic(), 0.001))
        except TooLong:
            _end(pool)
            return Check([Problem(f"{name}.yaml", 0, 0, "P004", f"the check took too long: it was stopped after "
                                  f"{limit:g} s, and the book was not published",
                                  hint="look for a value that is far too large, or check the book with "
                                       "`rulings test --house` and `rulings lint` on a computer of your own")])
        except BrokenProcessPool:
            _end(pool)
        finally:
            _RUNNING.remove(future)
    return _not_checked(name, "the checking process ended before the check did")


def _not_checked(name: str, why: str) -> Check:
    return Check([Problem(f"{name}.yaml", 0, 0, "P005", f"the book was not checked: {why}",
                          hint="try again; the service's log says more")])


def _pool() -> Any:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            from rulings.workers import pool as start
            _POOL = start(env_whole("RULINGS_CHECK_PROCESSES", 1, 1, 16), nice=BEHIND)
            import atexit
            atexit.register(stop_checks)     # stopped before the interpreter's teardown, never collected in it
        return _POOL


KILLED_SECONDS = 30.0    # the longest a killed checking process is waited for (it cannot refuse SIGKILL)


def _end(pool: Any) -> None:
    """Kill ``pool``'s processes (a check in them is abandoned) and let the next check start a fresh pool."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is pool:
            _POOL = None
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        try:
            process.kill()
        except (OSError, ValueError, AttributeError):    # already gone
            pass
    # each killed process is waited for (reaped) before the check is answered: a SIGKILL is delivered at once,
    # but a big process's teardown (its memory freed) takes the OS a moment on a loaded host, and until it is
    # reaped the process still holds its memory and shows in the process table
    for process in processes:
        try:
            process.join(KILLED_SECONDS)
        except (OSError, ValueError, AttributeError, AssertionError):   # already reaped by the pool's own thread
            pass
    pool.shutdown(wait=False, cancel_futures=True)


def stop_checks(for_good: bool = False, running_only: bool = False) -> None:
    """End the checking processes, and any check running in them, at once (the service is stopping: a check
    that never ends must not keep a process, 64 MiB and a core after the service is gone). ``for_good``: the
    process is stopping, and a check waiting for the one ended is answered at once, never started again.
    ``running_only`` (a service closed in a process that goes on): only when a check is running; an idle
    checking process, with the standard book and its examples' rulings already worked out, is kept for the
    next service of the process (it ends with the process)."""
    if for_good:
        _STOPPING.set()
    with _POOL_LOCK:
        pool = _POOL
    if pool is not None and not (running_only and not _RUNNING):
        _end(pool)


# The checking process gives way to the service's own: on a busy machine the floor's requests are answered
# first and the manager's check waits a little longer.
BEHIND = 10


def _check_file(name: str, draft: Path, with_diff: bool, live: Path | None = None) -> Check:
    from rulings.ruling import books
    from rulings.report.diff import diff
    from rulings.engine.rulesets import Engine
    from rulings.report.diff import house_outcomes
    from rulings.rulebook.house import load_house
    from rulings.rulebook.load import standard_book
    standard = standard_book()
    warned: list[Problem] = []
    try:
        book = load_house(draft, standard, warnings=warned)
    except ProblemsError as exc:
        found = sorted(set(exc.problems), key=lambda p: (p.line, p.col))
        return Check([p for p in found if p.severity != "warning"],
                     warnings=[p for p in found if p.severity == "warning"])
    from rulings.rulebook.house import topic_warnings
    warned = sorted(set(warned + topic_warnings(book, standard, str(draft))), key=lambda p: (p.line, p.col))
    if book.name != name:
        line = next((i + 1 for i, s in enumerate(draft.read_text(encoding="utf-8").splitlines())
                     if s.startswith("rulebook:")), 1)
        return Check([Problem(draft.name, line, 1, "P003", f"rulebook: says '{book.name}', the page is for '{name}'",
                              hint=f"write rulebook: {name}")], warnings=warned)
    engine = Engine(book)
    try:
        base, base_engine = books.load()
        # without the diff (a publish), the causes are worked out for the failing examples only
        outcomes = house_outcomes(book, engine, base, base_engine, only_failures=not with_diff)
        failures = [{"rule": o.rule, "example": o.example, "origin": str(o.origin), "why": o.why}
                    for o in outcomes if not o.ok]
        result = Check([], failures, warnings=warned)
        if with_diff:   # what the change does: against the version in force (a new book: against standard)
            against, against_engine = books.load(str(live)) if live is not None else (base, base_engine)
            d = diff(book, engine, against, against_engine)
            # a rule is not "changed" just because the draft is read from another file
            d.rules = [r for r in d.rules if r.change != "changed" or r.rule not in against.rules
                       or not _same_rule(book.rules[r.rule], against.rules[r.rule])]
            result.diff = d.to_json()
        return result
    finally:
        engine.close()


def _same_rule(a, b) -> bool:
    """Two rules equal but for where they were written."""
    from dataclasses import replace

    def bare(r):
        return replace(r, origin=None, examples=tuple(replace(e, origin=None) for e in r.examples))
    return bare(a) == bare(b)


def set_parameter(text: str, name: str, value: Any) -> str:
    """The book's text with one parameter set, other lines (and comments) kept where the layout allows."""
    rendered = yaml.safe_dump(value, default_flow_style=True).strip()
    if rendered.endswith("..."):
        rendered = rendered[:-3].strip()
    lines = text.splitlines()
    start = next((i for i, s in enumerate(lines) if re.match(r"^parameters:\s*(#.*)?$", s)), None)
    if start is not None:
        end = start + 1
        while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end].strip()):
            end += 1
        indent = "  "
        for i in range(start + 1, end):
            m = re.match(r"^(\s+)([A-Za-z0-9_.]+)\s*:", lines[i])
            if m:
                indent = m.group(1)
                if m.group(2) == name:
                    lines[i] = f"{indent}{name}: {rendered}"
                    return "\n".join(lines) + "\n"
        last = max((i for i in range(start + 1, end) if lines[i].strip()), default=start)
        lines.insert(last + 1, f"{indent}{name}: {rendered}")
        return "\n".join(lines) + "\n"
    data = yaml.safe_load(text) if text.strip() else {}
    if not isinstance(data, dict):
        raise ValueError("the book is not a mapping; fix it in the editor first")
    params = data.get("parameters") or {}
    params[name] = value
    data["parameters"] = params
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
