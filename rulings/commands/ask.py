"""`rulings ask`: the consultation in the terminal — the ruling so far, then the question that matters most.

With no incident file the essentials are asked one by one, in floor shorthand (rulings/incident/shorthand.py: "nl 2/5",
"1:1000 2:640", "3 bet 60, seat 4 raises to 150"). Each answer is checked as it is entered: a wrong one is said
at once and asked again, the text kept for correcting. When the whole incident is refused at the end (a seat
not in the hand, more chips than a stack), the problems are shown and the answers they name are asked again;
nothing typed is lost. Every answer goes into a draft file as it is given (``default_draft``: the user's data
folder, or $RULINGS_DATA); Ctrl-C, Ctrl-D or a pipe that runs dry leaves it there, and the next start offers
to continue it. In a terminal the prompts are prompt_toolkit's (the check shown as you type, line editing,
history); when standard input is not a terminal (scripts, tests) they are plain ``input()`` lines.
docs/ask.md is the user's page.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any, Callable

import yaml

from rulings.money import whole_number
from rulings.incident import shorthand as sh
from rulings.problems import ProblemsError, render_text

TRIES = 5   # plain prompts: a wrong or blank answer is asked again this many times, then the typing stops
DRAFT_NAME = "ask-draft.yaml"
FIRST_STREET = {"holdem": "preflop", "omaha": "preflop", "other": "preflop", "stud": "third", "razz": "third",
                "draw": "before-draw", "lowball": "before-draw"}
LIMITS = ("fixed-limit", "spread-limit")
NO_BLINDS = ("stud", "razz")           # antes and a bring-in, no blinds


class GaveUp(Exception):
    """The same answer was wrong TRIES times at a plain prompt."""


class Stop(Exception):
    """The typing stopped (Ctrl-C, Ctrl-D, a pipe that ran dry): the draft keeps what was given."""


# ---------------------------------------------------------------- the essentials, one field a prompt

@dataclass(frozen=True)
class Field:
    name: str
    prompt: str
    read: Callable[[str, dict], dict]        # (text, incident so far) -> the values it gives; raises Unread
    applies: Callable[[dict], bool] = lambda data: True
    required: bool = False
    blank: str = ""                          # what a blank answer means, shown in the prompt

    def check(self, text: str, data: dict) -> dict:
        if not text:
            if self.required:
                raise sh.Unread(f"{self.name} is needed: there is no default")
            return {}
        return self.read(text, data)


def _game(data: dict) -> dict:
    return data.get("game") or {}


def _read_game(text: str, data: dict) -> dict:
    parts = sh.game(text)
    if "structure" not in parts:
        raise sh.Unread(f"say the betting too: nl, pl, fl or spread (e.g. 'nl {text.strip()}')")
    game = {k: parts[k] for k in ("variant", "structure", "setting", "ante", "big_blind_ante", "bring_in")
            if k in parts}
    game.setdefault("variant", "holdem")
    stakes = parts.get("stakes")
    if stakes and game["structure"] in LIMITS:
        if len(stakes) != 2:
            raise sh.Unread("a limit game's stakes are its two bet sizes, e.g. 'limit 10/20'")
        game["bet_sizes"] = stakes
    elif stakes:
        game["blinds"] = stakes[:2]
        if len(stakes) == 3:
            game["straddles"] = stakes[2:]
    return {"game": game}


def _read_blinds(text: str, data: dict) -> dict:
    amounts = sh.stakes(text)
    if len(amounts) > 2:
        raise sh.Unread("the blinds are two amounts, small and big, e.g. 1/2")
    return {"game.blinds": amounts}


def _read_sizes(text: str, data: dict) -> dict:
    amounts = sh.stakes(text)
    if len(amounts) != 2:
        raise sh.Unread("the small bet and the big bet, e.g. 10/20")
    return {"game.bet_sizes": amounts}


def _seats_in(data: dict, n: int, what: str) -> None:
    seats = data.get("players") or {}
    if seats and n not in seats:
        raise sh.Unread(f"{what} seat {n} is not in the hand (the seats in it: {', '.join(map(str, seats))})")


def _read_players(text: str, data: dict) -> dict:
    seats = sh.players(text)
    if len(seats) < 2:
        raise sh.Unread("a hand has at least two seats in it, e.g. '1:1000 2:640' or '1-6'")
    return {"players": seats}


def _read_button(text: str, data: dict) -> dict:
    return {"button": sh.seat(text)}


def _read_street(text: str, data: dict) -> dict:
    return {"street": sh.street(text, _game(data).get("variant"))}


def _read_pot(text: str, data: dict) -> dict:
    return {"pot": sh.amount(text)}


def _read_actions(text: str, data: dict) -> dict:
    if text.lstrip()[:1] in "[{" and "seat" in text:      # the incident format itself, as YAML
        value = _yaml(text)
        if not (isinstance(value, list) and all(isinstance(a, dict) for a in value)):
            raise sh.Unread("a YAML list of actions, e.g. [{seat: 1, action: bet, to: 50}], or '1 bet 50, 2 call'")
        return {"actions": value}
    acts = sh.actions(text, data.get("button"), data.get("players") or ())   # "UTG raises to 60" by the button
    for n, act in enumerate(acts, 1):
        _seats_in(data, act["seat"], f"action {n}:")
    return {"actions": acts}


def _section_named(text: str) -> str | None:
    """The declared procedure section a text names ('penalty', 'chip race', 'at seat'), or None."""
    from rulings.incident.procedure import declared
    key = "_".join(text.strip().lower().replace("-", " ").split())
    return key if key in declared() else None


def _read_d_seat(text: str, data: dict) -> dict:
    section = _section_named(text)
    if section is not None:          # not an act in the hand: a table procedure, its fields asked next
        return {f"procedure.{section}": {}}
    if not any(c.isdigit() for c in text):
        from rulings.incident.procedure import declared
        raise sh.Unread("a seat (e.g. 3), or what the dispute is about: " + ", ".join(
            name.replace("_", " ") for name in declared()))
    n = sh.seat(text)
    _seats_in(data, n, "the disputed act's")
    return {"disputed.seat": n}


def _read_said(text: str, data: dict) -> dict:
    if len(text) > 500:
        raise sh.Unread("at most 500 characters of what he said")
    return {"disputed.said": text}


def _read_chips(text: str, data: dict) -> dict:
    return {"disputed.chips": sh.chips(text)}


def _limit(data: dict) -> bool:
    return _game(data).get("structure") in LIMITS


def _blinds_apply(data: dict) -> bool:
    g = _game(data)
    return "blinds" not in g and g.get("variant") not in NO_BLINDS


def _later_street(data: dict) -> bool:
    return data.get("street") not in (None, FIRST_STREET.get(_game(data).get("variant", "holdem")))


FIELDS: tuple[Field, ...] = (
    Field("game", "Game, e.g. 'nl 2/5', 'plo $1/$2 tournament', 'limit stud 10/20'", _read_game, required=True),
    Field("blinds", "Blinds, e.g. 1/2 or $5/$10", _read_blinds, _blinds_apply, required=True),
    Field("bet sizes", "Bet sizes, small and big, e.g. 10/20", _read_sizes,
          lambda d: _limit(d) and "bet_sizes" not in _game(d), required=True),
    Field("players", "Seats in the hand and stacks, e.g. '1:1000 2:640 3:815' or '1-6' (stacks not known)",
          _read_players, required=True),
    Field("button", "Button seat, e.g. 3", _read_button, lambda d: _game(d).get("variant") not in NO_BLINDS,
          required=True),
    Field("street", "Street (preflop, flop, turn, river; 3rd..7th; before/after the draw)", _read_street,
          required=True),
    Field("pot", "Pot before this street, e.g. 60", _read_pot, _later_street, blank="not known"),
    Field("actions", "Actions this street before the disputed act, e.g. '3 bet 60, 4 call'", _read_actions,
          blank="none"),
    Field("disputed seat", "Seat of the disputed act, e.g. 3, or what the dispute is about (penalty, conduct, at seat, "
          "moved, tables, chip race, chips, deal, clock...)", _read_d_seat, blank="none: a kill or procedure matter"),
    Field("said", "What the player said, word for word", _read_said, lambda d: "disputed" in d, blank="nothing"),
    Field("chips", "Chips put out in one motion, e.g. 500 or '100 100 25'", _read_chips, lambda d: "disputed" in d,
          blank="none"),
)


# ---------------------------------------------------------------- a table procedure's fields, as declared

def _in_section(name: str) -> Callable[[dict], bool]:
    return lambda data: isinstance((data.get("procedure") or {}).get(name), dict)


_YES, _NO = ("y", "yes", "true"), ("n", "no", "false")


def _pairs(text: str) -> list[tuple[int, str]]:
    """'1:3 4:2' or '1=3, 4=2' as (seat, text) pairs."""
    out = []
    for part in text.replace(",", " ").split():
        seat, sep, value = part.replace("=", ":").partition(":")
        if not sep or not value:
            raise sh.Unread(f"'{part}' is not seat:value, e.g. '1:3 4:2'")
        out.append((sh.seat(seat), value))
    return out


def _section_value(kind: str, decl: dict, text: str, data: dict) -> Any:
    """One typed answer read by the field's declared kind (the reader checks it again with the whole incident)."""
    t = text.strip()
    if kind == "bool":
        if t.lower() not in _YES + _NO:
            raise sh.Unread("y or n")
        return t.lower() in _YES
    if kind == "count":
        n = whole_number(t, 0, 10 ** 9)
        if n is None:
            raise sh.Unread(f"'{t}' is not a whole number")
        return n
    if kind == "money":
        return sh.amount(t)
    if kind in ("seat", "hand_seat"):
        n = sh.seat(t)
        if kind == "hand_seat":
            _seats_in(data, n, "")
        return n
    if kind == "choice":
        values = decl["values"]
        picked = whole_number(t, 1, len(values))
        key = "_".join(t.lower().replace("-", " ").split())
        if picked is not None:
            return values[picked - 1]
        if key in values:
            return key
        raise sh.Unread("one of: " + ", ".join(v.replace("_", " ") for v in values))
    if kind in ("seats", "table_seats", "seat_or_seats"):
        return [sh.seat(p) for p in t.replace(",", " ").split()]
    if kind == "seat_counts":
        counts = {}
        for seat, value in _pairs(t):
            n = whole_number(value, 0, 10 ** 9)
            if n is None:
                raise sh.Unread(f"'{value}' is not a whole number (seat {seat})")
            counts[seat] = n
        return counts
    if kind == "cards":
        return dict(_pairs(t))
    return _yaml(t)      # a list of entries (items), a board: the incident format's own YAML


def _section_prompt(decl: dict) -> str:
    kind = decl["kind"]
    hint = {"bool": "y/n", "count": "e.g. 2", "money": "e.g. 1,500", "seat": "e.g. 4", "hand_seat": "e.g. 4",
            "seats": "e.g. 3 5", "table_seats": "e.g. 3 5", "seat_counts": "e.g. '1:3 4:2'",
            "cards": "e.g. '1:Kd4d 3:Kh6c'", "items": "as the incident format's YAML, e.g. [{...}]",
            "choice": ", ".join(v.replace("_", " ") for v in decl.get("values", ()))}.get(kind, "as YAML")
    return f"{decl['question'].rstrip('?')}? ({hint})"


def _section_fields() -> tuple[Field, ...]:
    """Every declared procedure section's fields as prompts (the declaration's question, its kind's reader),
    asked once the dispute has been said to be about that section; a field it cannot be read without (``needs``)
    must be answered, any other may be left blank (not known)."""
    from rulings.incident.procedure import declared
    out = []
    for name, decl in declared().items():
        for key, fd in decl["fields"].items():
            def read(text: str, data: dict, name=name, key=key, fd=fd) -> dict:
                return {f"procedure.{name}.{key}": _section_value(fd["kind"], fd, text, data)}
            out.append(Field(f"{name}.{key}", _section_prompt(fd), read, _in_section(name),
                             required=key in decl["needs"], blank="" if key in decl["needs"] else "not known"))
    return tuple(out)


FIELDS = FIELDS + _section_fields()
BY_NAME = {f.name: f for f in FIELDS}


def _yaml(text: str) -> Any:
    """A typed value read as the incident reader reads YAML (amounts as exact decimals)."""
    from rulings.yamlsrc import load_text
    doc, _ = load_text(text, "<typed>")
    return text if doc is None else doc.data


def _put(data: dict, path: str, value: Any) -> None:
    node = data
    parts = path.split(".")
    for p in parts[:-1]:
        node = node.setdefault(p, {})
    node[parts[-1]] = value


def build(texts: dict[str, str]) -> tuple[dict, dict[str, str]]:
    """The incident the typed answers give, in field order, and what is wrong with any answer that no longer
    reads (a seat the hand lost, a street of another game); a field that no longer applies is left out."""
    data: dict = {}
    wrong: dict[str, str] = {}
    for f in FIELDS:
        if f.name not in texts or not f.applies(data):
            continue
        try:
            values = f.check(texts[f.name], data)
        except sh.Unread as exc:
            wrong[f.name] = exc.message
            continue
        for path, value in values.items():
            _put(data, path, value)
    return data, wrong


def _preview(values: dict) -> str:
    """What an answer reads as, in a few words (the terminal shows it while typing)."""
    bits: list[str] = []
    for path, value in values.items():
        if isinstance(value, dict) and path == "game":
            bits.extend(f"{k} {_show(v)}" for k, v in value.items())
        else:
            bits.append(f"{path.split('.')[-1]} {_show(value)}")
    return "; ".join(bits)


def _show(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(a, dict) for a in value):
        return ", ".join(f"{a.get('seat')} {a.get('action')}" + (f" {a['to']}" if "to" in a else "") for a in value) \
            or "none"
    if isinstance(value, list):
        return "/".join(map(str, value))
    if isinstance(value, dict):
        return " ".join(f"{k}:{'?' if v is None else v}" for k, v in value.items())
    return str(value)


# ---------------------------------------------------------------- two ways to ask: prompt_toolkit, plain lines

class PlainAsker:
    """Plain lines (``input()``, or a reader given by the caller): a wrong answer is said and asked again, up to
    TRIES times; a blank one keeps the default shown in brackets."""

    def __init__(self, read: Callable[[str], str], out):
        self.read, self.out = read, out

    def ask(self, prompt: str, check: Callable[[str], str | None], default: str = "", blank: str = "",
            what: str = "") -> str:
        for _ in range(TRIES):
            shown = f" [{default}]" if default else (f" [{blank}]" if blank else "")
            try:
                text = self.read(f"{prompt}{shown}: ").strip()
            except EOFError:
                raise Stop("the input ended") from None
            if not text and default:
                text = default
            problem = check(text)
            if problem is None:
                return text
            print(f"  '{text}' will not do for {what}: {problem}" if text and what else f"  {problem}", file=self.out)
        raise GaveUp(what or prompt)


class TerminalAsker:
    """prompt_toolkit prompts: the answer is checked on Enter (a wrong one stays in the line with the reason
    below it, to be corrected), and the bottom bar says what the text reads as while it is typed."""

    def __init__(self):
        from prompt_toolkit import PromptSession
        self.session = PromptSession()

    def ask(self, prompt: str, check: Callable[[str], str | None], default: str = "", blank: str = "",
            what: str = "", preview: Callable[[str], str] | None = None) -> str:
        from prompt_toolkit.validation import ValidationError, Validator

        class _Check(Validator):
            def validate(self, document):
                problem = check(document.text.strip())
                if problem is not None:
                    raise ValidationError(message=problem, cursor_position=len(document.text))

        def toolbar():
            text = self.session.default_buffer.text.strip()
            if not text:
                return f" blank: {blank}" if blank else " type the answer; Ctrl-C stops (the draft is kept)"
            problem = check(text)
            if problem is not None:
                return f" not yet: {problem}"
            return f" reads as: {preview(text)}" if preview else " ok"
        shown = f" [{blank}]" if blank and not default else ""
        try:
            return self.session.prompt(f"{prompt}{shown}: ", default=default, validator=_Check(),
                                       validate_while_typing=False, bottom_toolbar=toolbar).strip()
        except EOFError:
            raise Stop("the input ended") from None


def _asker(read: Callable[[str], str] | None, out):
    if read is not None:
        return PlainAsker(read, out)
    if sys.stdin.isatty() and sys.stdout.isatty():
        try:
            return TerminalAsker()
        except Exception:   # a terminal prompt_toolkit cannot drive (no TERM, a Windows console it refuses)
            pass
    return PlainAsker(input, out)


def _ask(asker, prompt: str, check, **kw) -> str:
    if isinstance(asker, PlainAsker):
        kw.pop("preview", None)
    return asker.ask(prompt, check, **kw)


# ---------------------------------------------------------------- the draft

def default_draft() -> Path:
    """Where the draft is kept: $RULINGS_DATA (the service's data folder) if set, else the user's data folder
    ($XDG_DATA_HOME/rulings, ~/.local/share/rulings; %LOCALAPPDATA%\\rulings on Windows). Never the install."""
    if os.environ.get("RULINGS_DATA"):
        return Path(os.environ["RULINGS_DATA"]) / DRAFT_NAME
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "rulings" / DRAFT_NAME
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rulings" / DRAFT_NAME


class Dumper(yaml.SafeDumper):
    pass


Dumper.add_representer(Decimal, lambda d, v: d.represent_scalar("tag:yaml.org,2002:float", f"{v:f}"))


@dataclass
class Draft:
    """What was typed so far: the essentials' texts, the consultation's answers and skips; kept in one file."""
    path: Path | None
    source: str                           # "typed", or the incident file's absolute path
    texts: dict
    answers: dict
    skipped: list
    failed: str | None = None             # why the draft could not be written, said once

    def save(self) -> None:
        if self.path is None:
            return
        doc = {"saved": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "source": self.source,
               "typed": dict(self.texts), "answers": dict(self.answers), "skipped": list(self.skipped)}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_text(yaml.dump(doc, Dumper=Dumper, sort_keys=False, allow_unicode=True), encoding="utf-8")
            os.replace(tmp, self.path)
            self.failed = None
        except OSError as exc:
            self.failed = f"{exc.strerror or exc} ({self.path})"

    def remove(self) -> None:
        if self.path is not None:
            try:
                self.path.unlink()
            except OSError:
                pass

    def empty(self) -> bool:
        return not (self.texts or self.answers or self.skipped)


def load_draft(path: Path | None) -> tuple[dict | None, str | None]:
    """The saved draft, or None; and what is wrong with the file when it cannot be read (never a traceback)."""
    from rulings.incident.fields import incident_document
    if path is None or not os.path.lexists(path):
        return None, None
    # as every file is read: a regular file only, never more than an incident's size (a FIFO, /dev/zero), strict
    located, problems = incident_document(path)
    if located is None:
        return None, f"{problems[0].message} ({problems[0].code})"
    doc = located.data
    if not (isinstance(doc, dict) and isinstance(doc.get("typed", {}), dict)
            and isinstance(doc.get("answers", {}), dict) and isinstance(doc.get("skipped", []), list)
            and isinstance(doc.get("source", ""), str)):
        return None, "it is not a draft of rulings ask"
    typed = {k: v for k, v in (doc.get("typed") or {}).items() if k in BY_NAME and isinstance(v, str)}
    answers = {str(k): v for k, v in (doc.get("answers") or {}).items()
               if isinstance(v, (str, int, bool)) or v is None}
    skipped = [str(s) for s in doc.get("skipped") or [] if isinstance(s, (str, int))]
    return {"saved": str(doc.get("saved", "earlier")), "source": doc.get("source") or "typed", "typed": typed,
            "answers": answers, "skipped": skipped}, None


def _offer(asker, path: Path | None, source: str, resume: bool | None, out) -> Draft:
    """A new draft, or the saved one continued when the user says so (or ``resume`` is given)."""
    draft = Draft(path, source, {}, {}, [])
    saved, problem = load_draft(path)
    if problem:
        print(f"(a draft at {path} was not used: {problem}; it is replaced as you type)", file=out)
        return draft
    if saved is None or resume is False:
        return draft
    if saved["source"] != source:
        where = "typed answers" if saved["source"] == "typed" else saved["source"]
        print(f"(a draft of {where} from {saved['saved']} is saved at {path}; it is replaced as you type)", file=out)
        return draft
    n = len(saved["typed"]) + len(saved["answers"]) + len(saved["skipped"])
    if resume is None:
        print(f"A draft from {saved['saved']} is saved at {path} ({n} answer{'' if n == 1 else 's'}: "
              f"{', '.join([*saved['typed'], *saved['answers']][:6])}).", file=out)
        yes = _ask(asker, "Continue it? (y: continue, n: start afresh)", _yes_no, default="y", what="the draft")
        if yes.lower().startswith("n"):
            return draft
    draft.texts, draft.answers, draft.skipped = saved["typed"], saved["answers"], saved["skipped"]
    print(f"continuing the draft: {n} answer{'' if n == 1 else 's'} kept", file=out)
    return draft


def _yes_no(text: str) -> str | None:
    return None if text.lower() in ("y", "yes", "n", "no") else "y or n"


# ---------------------------------------------------------------- the essentials typed, refusals sent back

def gather(asker, draft: Draft, out, only: tuple[str, ...] | None = None) -> dict:
    """Ask each essential that applies and has no answer yet (or each of ``only`` again, its old text kept as the
    default); every answer is checked against what came before it, and saved in the draft as it is given."""
    for f in FIELDS:
        data, _ = build(draft.texts)
        if not f.applies(data):
            continue
        if only is not None and f.name not in only and f.name in draft.texts:
            continue            # kept; a field that now applies and was never answered is asked too
        if only is None and f.name in draft.texts:
            continue

        def check(text: str, f=f, data=data) -> str | None:
            try:
                f.check(text, data)
            except sh.Unread as exc:
                return exc.message
            return None

        def preview(text: str, f=f, data=data) -> str:
            return _preview(f.check(text, data))
        old = draft.texts.get(f.name, "")
        text = _ask(asker, f.prompt, check, default=old, blank=f.blank, what=f.name, preview=preview)
        draft.texts[f.name] = text
        draft.save()
    data, wrong = build(draft.texts)
    if wrong:       # an earlier answer changed and a later one no longer reads: ask those again
        for name, message in wrong.items():
            print(f"  {name}: {message}", file=out)
        return gather(asker, draft, out, only=tuple(wrong))
    return data


# a refused field of the incident -> the answer that gave it
_FIELD_OF = {"players": "players", "button": "button", "street": "street", "pot": "pot", "pot_now": "pot",
             "actions": "actions", "after": "actions"}
_DISPUTED_OF = {"seat": "disputed seat", "said": "said", "chips": "chips"}


def answers_named(problems, texts: dict) -> list[str]:
    """The typed answers a refusal of the whole incident is about, in the order they are asked."""
    names = set()
    for p in problems:
        path = tuple(str(x) for x in p.path)
        if not path:
            continue
        if path[0] == "game":
            part = path[1] if len(path) > 1 else ""
            names.add("blinds" if part == "blinds" and "blinds" in texts
                      else "bet sizes" if part == "bet_sizes" and "bet sizes" in texts else "game")
        elif path[0] == "disputed":
            names.add(_DISPUTED_OF.get(path[1] if len(path) > 1 else "seat", "disputed seat"))
        elif path[0] in _FIELD_OF:
            names.add(_FIELD_OF[path[0]])
    return [f.name for f in FIELDS if f.name in names and f.name in texts]


def _pick(asker, draft: Draft, out) -> tuple[str, ...]:
    """Which answers to change when a refusal names none of them."""
    names = [f.name for f in FIELDS if f.name in draft.texts]
    for i, name in enumerate(names, 1):
        print(f"  {i}. {name}: {draft.texts[name] or '(blank)'}", file=out)

    def check(text: str) -> str | None:
        picks = text.replace(",", " ").split()
        ok = picks and all(whole_number(p, 1, len(names)) is not None for p in picks)
        return None if ok or text.lower() in ("q", "quit") else f"the numbers of the answers to change, 1 to " \
                                                               f"{len(names)} (or q to stop; the draft is kept)"
    text = _ask(asker, "Which answers to change (numbers)", check, what="the answers to change")
    if text.lower() in ("q", "quit"):
        raise Stop("stopped")
    return tuple(names[int(p) - 1] for p in text.replace(",", " ").split())


# ---------------------------------------------------------------- the consultation

def _words(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value).replace("_", " ")


def _choice(q: dict, text: str) -> tuple[str, Any]:
    """('finish' | 'skip' | 'answer' | 'wrong', value)."""
    choice = text.strip().lower()
    if choice in ("q", "quit", ""):
        return "finish", None
    if choice in ("s", "skip") or (q.get("type") == "enum" and choice in ("0", "none", "none of these")):
        return "skip", None
    picked = whole_number(choice, 1, len(q["values"]))
    if picked is not None:
        return "answer", q["values"][picked - 1]["value"]
    for v in q["values"]:
        if choice in (str(v["value"]).lower(), _words(v["value"])):
            return "answer", v["value"]
    return "wrong", None


def _print_step(step, out) -> None:
    print(f"\nso far ({step.outcome}):", file=out)
    acts = [step.report, *step.report.more_acts]     # every disputed act, in hand order
    for report in acts:
        if len(acts) > 1:
            print(f"  {report.incident}:", file=out)
        for r in report.rulings:
            print(f"  RULING  {r.sentence}  [{r.rule}]", file=out)
    q = step.questions[0]
    print(f"\nQUESTION ({len(step.questions)} left that could change the ruling; asked by {q['asked_by']}):", file=out)
    print(f"  {q['question']}" + (f"  (act {q['act']})" if q.get("act") else ""), file=out)
    for i, v in enumerate(q["values"], 1):
        leads = "; ".join(x["ruling"] for x in v["leads_to"]) or "no ruling"
        print(f"  {i}. {_words(v['value'])}   -> {leads}", file=out)
    if q.get("type") == "enum":   # the listed answers may all be wrong: leave the fact out, as now
        now = "; ".join(r.ruling for r in step.report.rulings) or "no ruling"
        print(f"  0. none of these   -> {now}", file=out)


_COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


def chip_readings(chips: Any) -> tuple[list, list] | None:
    """A typed amount of chips that reads two ways: one chip of that value, or the room's chips that make it
    (rulings/told/: the chip values of the lexicon, largest first). None when it reads one way: several chips
    typed, or an amount that is itself a chip's value (500: one $500 chip)."""
    from rulings.told import standard
    from rulings.told.reader import _make_up
    if not isinstance(chips, list) or len(chips) != 1:
        return None
    total = Decimal(str(chips[0]))
    lex = standard()
    if total <= 0 or total in set(lex.colours.values()):
        return None
    several = _make_up(total, lex, None)
    if len(several) < 2:
        return None
    return [chips[0]], [int(v) if v == int(v) else v for v in several]


def _chips_words(chips: list, setting: str) -> str:
    from collections import Counter
    from rulings.money import show, to_minor
    parts = []
    for value, n in sorted(Counter(chips).items(), key=lambda kv: -Decimal(str(kv[0]))):
        amount = show(to_minor(value), setting)
        parts.append(f"one {amount} chip" if n == 1 else f"{_COUNT_WORDS.get(n, str(n))} {amount} chips")
    return " and ".join(parts)


def _acted_on(step) -> tuple:
    """What the floor acts on in a step: its outcome, each act's numbers ruled (the effects) and the numbers of
    WHAT HAPPENS NOW; two readings that differ only in which rule's words say it rule alike."""
    import re
    return (step.outcome, tuple((tuple(sorted((k, str(v)) for r in one.rulings for k, v in r.effects.items())),
                                 tuple(m for line in one.now for m in re.findall(r"\d[\d,]*(?:\.\d+)?", line)))
                                for one in (step.report, *step.report.more_acts)))


def _confirm_chips(asker, consultation, data: dict, answers: dict, state: "Draft", out) -> dict:
    """A typed amount of chips that reads two ways ("300": one $300 chip, or three $100 chips) is confirmed only
    when the two readings rule differently: each reading's ruling is shown beside it and the floor picks one.
    When both rule alike, nothing is asked and the amount stands as typed."""
    disputed = data.get("disputed") if isinstance(data, dict) else None
    if not isinstance(disputed, dict):
        return data
    readings = chip_readings(disputed.get("chips"))
    if readings is None:
        return data
    one, several = readings
    ruled = []
    for chips in (several, one):
        try:
            step = consultation.rule({**data, "disputed": {**disputed, "chips": chips}}, answers)
        except ProblemsError:
            return data         # the incident is refused as typed: the consultation says why
        ruled.append(step)
    if _acted_on(ruled[0]) == _acted_on(ruled[1]):
        return data
    setting = (data.get("game") or {}).get("setting", "cash")
    total = _chips_words(one, setting).replace("one ", "", 1).replace(" chip", "")
    choices = [(_chips_words(several, setting), several, ruled[0]), (f"one {total} chip", one, ruled[1])]
    print(f"\nThe chips typed, {total}, read two ways, and the ruling differs:", file=out)
    for n, (words, _, step) in enumerate(choices, 1):
        sentences = [r.sentence for one_report in (step.report, *step.report.more_acts) for r in one_report.rulings]
        print(f"  {n}. {words}: {' '.join(sentences) or 'no ruling'}", file=out)
    text = _ask(asker, f"{total}: {choices[0][0]}, or {choices[1][0]}? (1 or 2)",
                lambda t: None if t in ("1", "2") else "give 1 or 2", what="")
    words, chips, _ = choices[int(text) - 1]
    print(f"  read as {words}", file=out)
    state.texts["chips"] = " ".join(str(c) for c in chips)
    state.save()
    return {**data, "disputed": {**disputed, "chips": chips}}


def _open_amount(step) -> dict | None:
    """The amount not given that the ruling hangs on (the pot before this street: unknowns.py tried each answer,
    ``under_each``), when it is one typed field of the incident; None otherwise."""
    for q in step.open:
        if q.get("under_each") and q.get("field") == "pot" and not q.get("act"):
            return q
    return None


def _print_open(q: dict, out) -> None:
    print("\nNOT A RULING YET: it depends on an amount not given.", file=out)
    print(f"QUESTION: {q['question']}", file=out)
    for line in q["under_each"]:
        print(f"  {line}", file=out)


def _stopped(draft: Draft, why: str, out_err) -> int:
    if draft.path is not None and not draft.empty():
        draft.save()
    if draft.path is None or draft.empty():
        kept = ""
    elif draft.failed:
        kept = f"; the draft could not be saved: {draft.failed}"
    else:
        kept = f"; what was typed is saved at {draft.path}, and `rulings ask` offers to continue it"
    print(f"\nrulings ask: {why}; nothing was ruled{kept} (or give a partial incident file: rulings ask FILE)",
          file=out_err)
    return 2


def run(incident: str | None, house: str | None, save: str | None, read: Callable[[str], str] | None = None,
        out=sys.stdout, draft: Path | None = None, resume: bool | None = None, told: str | None = None) -> int:
    """The consultation. ``read`` gives plain prompts (tests, scripts); ``draft`` is where the typed answers are
    kept (None: nowhere); ``resume`` True continues a saved draft, False ignores it, None asks. ``told``: a
    dispute told in words (rulings/told/), read and shown as read, then consulted on as an incident file is
    (its text kept in the incident's ``note``; no draft: the text is the record)."""
    from rulings.ruling import books
    from rulings.ruling.consult import Consultation
    from rulings.report.render import report_text
    reading = None
    if told is not None:
        from rulings.told import read_told
        from rulings.told.rule import house_lexicon, read_as_text
        try:
            reading = read_told(told, house_lexicon(house))
        except ProblemsError as exc:
            print(render_text(exc.problems), file=sys.stderr)
            return 2
        print(read_as_text(reading), file=out)
        draft, resume, source_told = None, False, True
    else:
        source_told = False
    asker = _asker(read, out)
    source = str(Path(incident).resolve()) if incident else "typed"
    state = Draft(draft, source, {}, {}, [])
    try:
        state = _offer(asker, draft, source, resume, out)
        doc = None
        if incident:
            from rulings.incident.fields import incident_document
            doc, problems = incident_document(incident)   # an incident's limits
            if doc is None:
                print(render_text(problems), file=sys.stderr)
                return 2
            data = doc.data
        elif reading is not None:
            data = reading.incident
        else:
            data = gather(asker, state, out)
        named = books.book_for(data, house)     # --house, else the incident's house (a name)
        if house is None and named is not None:
            from rulings.rulebook.house import find_house
            if find_house(named) is None:
                named = None        # the reader refuses the incident's house (I104, with its line), as `rule` does
        book, engine = books.load(named)
        consultation = Consultation(book, engine, incident or "<typed>")
        answers: dict[str, Any] = state.answers
        skipped: list[str] = state.skipped
        refused: dict | None = None       # the answers as they were at the last refusal
        if doc is None and reading is None:
            try:
                data = _confirm_chips(asker, consultation, data, answers, state, out)
            except (Stop, GaveUp):
                pass
        while True:
            try:
                step = consultation.step(doc if doc is not None else data, answers, tuple(skipped))   # doc: a file
            except ProblemsError as exc:
                print(render_text(exc.problems), file=sys.stderr)
                if incident or source_told:
                    return 2
                again = answers_named(exc.problems, state.texts)
                if again and state.texts == refused:     # kept as they were: let the user say which to change
                    again = []
                refused = dict(state.texts)
                if again:
                    print(f"\nthe incident as typed is refused; asking again: {', '.join(again)} "
                          "(your answers are kept: press Enter to keep one, or correct it)", file=out)
                else:
                    print("\nthe incident as typed is refused; which answers should change?", file=out)
                    again = list(_pick(asker, state, out))
                data = gather(asker, state, out, only=tuple(again))
                continue
            if not step.questions:
                amount = _open_amount(step) if doc is None and step.outcome == "questions" else None
                if amount is None:
                    break
                _print_open(amount, out)      # the pot not given decides it: asked, each answer's ruling shown
                try:
                    text = _ask(asker, amount["question"], lambda t: None if not t or sh.money_or_none(t) is not None
                                else f"'{t}' is not an amount, e.g. 60 or 1.5k", blank="not known", what="")
                except (Stop, GaveUp):
                    break
                if not text:
                    break
                data = {**data, amount["field"]: sh.amount(text)}
                state.texts["pot"] = text      # as if typed at the pot's prompt: a draft continued has it
                state.save()
                continue
            _print_step(step, out)
            q = step.questions[0]
            try:
                text = _ask(asker, "answer (number, s to skip, q to finish)",
                            lambda t, q=q: None if _choice(q, t)[0] != "wrong" else
                            f"'{t}' is not one of the answers; give its number", what="")
            except Stop:
                break            # the input ended at a question: the ruling as it stands
            except GaveUp:
                break
            kind, value = _choice(q, text)
            if kind == "finish":
                break
            if kind == "skip":
                skipped.append(q["key"])
            else:
                answers[q["key"]] = value      # FACT, or FACT@N for act N of several
            state.save()
        print("", file=out)
        if step.outcome == "questions":        # a non-answer: said first, never passed off as the ruling
            print("NOT A RULING YET: it depends on the questions under ASK FIRST; each answer's ruling is "
                  "given there. Answer them (rulings ask again, or the incident file) before the floor follows it.",
                  file=out)
        print(report_text(step.report), file=out)
        print(f"\noutcome: {step.outcome}", file=out)
        if step.outcome == "questions":
            state.save()                       # not ruled: the draft is kept for the answers
        else:
            state.remove()                     # ruled: the draft is done
        target = save
        if target is None and isinstance(asker, TerminalAsker):
            try:
                target = _ask(asker, "save the incident to", lambda t: None, blank="do not save", what="") or None
            except Stop:
                target = None
        if target:
            text = yaml.dump(step.data, Dumper=Dumper, sort_keys=False, allow_unicode=True)
            try:
                Path(target).write_text(text, encoding="utf-8")
            except OSError as exc:
                print(f"rulings ask: not saved: {exc.strerror or exc} ({target})", file=sys.stderr)
                return 2
            print(f"saved {target}", file=out)
        return 0
    except Stop as exc:
        return _stopped(state, "the input ended before the incident was typed", sys.stderr) \
            if str(exc) == "the input ended" else _stopped(state, "stopped", sys.stderr)
    except GaveUp as exc:
        return _stopped(state, f"no usable answer for {exc} after {TRIES} tries", sys.stderr)
    except KeyboardInterrupt:
        return _stopped(state, "interrupted", sys.stderr)
