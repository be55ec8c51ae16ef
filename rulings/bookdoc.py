"""`rulings book`: the effective rulebook as a document for players and staff (HTML or Markdown, jinja2)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from rulings.diff import SETTINGS, value_words
from rulings.rulebook.model import Parameter, Rule, Rulebook
from rulings.render import quote_all
from rulings.yamlsrc import load_file

TEMPLATES = Path(__file__).resolve().parent / "templates"


@dataclass
class Section:
    topic: str
    title: str
    summary: str = ""
    params: list[dict] = field(default_factory=list)
    rules: list[dict] = field(default_factory=list)


def _topic_titles(book: Rulebook) -> tuple[dict[str, str], dict[str, str]]:
    """Each topic's title, and which topic each topic file holds (parameters are grouped by their file)."""
    titles, by_file = {}, {}
    for f in book.files:
        doc, _ = load_file(f)
        if doc is not None and isinstance(doc.data, dict) and "topic" in doc.data:
            titles[str(doc.data["topic"])] = str(doc.data.get("title", doc.data["topic"]))
            by_file[doc.file] = str(doc.data["topic"])
    return titles, by_file


def _param(book: Rulebook, name: str) -> dict:
    p = book.parameters[name]
    values = {s: book.param_values(s).get(name) for s in SETTINGS}
    words = {s: _plain(p, values[s], s) for s in SETTINGS}
    text = words["cash"] if values["cash"] == values["tournament"] else \
        f"in cash games, {words['cash']}; in tournaments, {words['tournament']}"
    return {"name": name, "description": p.description, "words": text, "house": name in book.settings,
            "cites": list(p.cites)}


def _plain(p: Parameter, value: Any, setting: str) -> str:
    """The value in the parameter's own words; a bare number is put after what it measures."""
    words = value_words(p, value, setting)
    if any(k == value and type(k) is type(value) for k in p.words):
        return words
    return f"{p.description.rstrip('.').lower()}: {words}"


def _rule(book: Rulebook, r: Rule) -> dict:
    return {"id": r.id, "title": r.title, "text": r.text, "house": r.house, "modifies": r.modifies,
            "replaces": r.replaces, "exception_to": r.exception_to,
            "sources": quote_all(list(r.cites), with_keys=True),   # quoted as a ruling quotes them
            "discretion": {"usual": r.then.discretion.usual, "weigh": list(r.then.discretion.weigh)}
            if r.then.discretion else None}


def sections(book: Rulebook) -> list[Section]:
    """The book grouped by topic: parameters in plain words, then every rule in force."""
    titles, by_file = _topic_titles(book)
    out: dict[str, Section] = {t: Section(t, title) for t, title in titles.items()}
    for name in sorted(book.parameters):
        topic = by_file.get(book.parameters[name].origin.file, name.split(".")[0])
        out.setdefault(topic, Section(topic, topic)).params.append(_param(book, name))
    for r in book.rules.values():
        title = f"House rules — {book.title}" if r.topic not in titles else r.topic
        out.setdefault(r.topic, Section(r.topic, title)).rules.append(_rule(book, r))
    order = list(book.settings)   # the summary says what the house chose, in the order the house wrote it
    for s in out.values():
        chosen = sorted((p for p in s.params if p["house"]), key=lambda p: order.index(p["name"]))
        s.summary = "; ".join(p["words"] for p in chosen)
    return [s for s in out.values() if s.params or s.rules]


def _env() -> Environment:
    return Environment(loader=FileSystemLoader(str(TEMPLATES)), undefined=StrictUndefined,
                       autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True,
                       keep_trailing_newline=True)


def render_book(book: Rulebook, fmt: str = "html") -> str:
    template = _env().get_template("book.html" if fmt == "html" else "book.md")
    disabled = [{"id": rid, "reason": reason} for rid, reason in sorted(book.disabled.items())]
    return template.render(book=book, sections=sections(book), disabled=disabled,
                           rule_count=len(book.rules))
