"""Consultation: from a partial incident, the ruling so far and only the questions whose answers change it.

A step rules on the incident as it stands (every disputed act of it), then tries every allowed answer of
every fact the floorperson could still give (a fact some rule asked for, or an
input fact the incident leaves out) and keeps a question only when at least
one answer gives different rulings from now. Questions come most important
first: one a rule asked, then the one whose answers lead to the most
different rulings. An answer is written into the incident at the fact's own
field (the catalogue's ``from``) and the incident is ruled on again at once.

With several disputed acts (``disputed:`` as a list) a fact about the act (``disputed.…``, and when it
was noticed and by whom) is asked of each act that leaves it out, answered as ``FACT@N`` (N: the act's
place in hand order, as the reports number them) and written into that act; a fact about the table is
asked once, of the whole incident. A plain ``noticed`` answer is written at the top and holds for every
act that gives none of its own.

Nothing here decides what a fact means: the rulebook does, through the same
``rule_on`` the command line uses.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulings.betting import BettingError
from rulings.engine.rulesets import Engine, reads, rule_reads
from rulings.facts.strength import one_ruling
from rulings.facts.wagers import given_facts
from rulings.incident import read_incident
from rulings.money import whole_number
from rulings.problems import Problem, ProblemsError
from rulings.rulebook.catalogue import Fact, did_you_mean, facts
from rulings.rulebook.model import Rulebook
from rulings.ruling.decide import Report, _prepared, group_of, not_told_alike, rule_on, ruled_apart
from rulings.ruling.unknowns import TAIL, answer_rules_alike
from rulings.yamlsrc import Located, load_text

# the incident fields a consultation may ask about; game fields are required or have a reader default
_ASKABLE_ROOTS = ("disputed", "table")


def askable(fact: Fact) -> bool:
    """A fact the floor can answer with one value written at one field of the incident."""
    if fact.kind != "input" or fact.type not in ("enum", "bool") or not fact.source or "[" in fact.source:
        return False
    parts = fact.source.split(".")
    return len(parts) == 1 or (len(parts) == 2 and parts[0] in _ASKABLE_ROOTS) or \
        (len(parts) == 3 and parts[0] == "procedure")   # a field of a procedure section the incident gives


def allowed(fact: Fact) -> tuple[Any, ...]:
    return (True, False) if fact.type == "bool" else tuple(fact.values)


def _path(fact: Fact) -> tuple[str, ...]:
    """Where an askable fact is written in the incident (``askable``: every one has its source)."""
    if fact.source is None:
        raise ValueError(f"the fact {fact.name} is written nowhere in an incident: it cannot be asked")
    return tuple(fact.source.split("."))


# facts about one act: where it was noticed and by whom are written into the act when there are several
_TIMING = ("noticed", "pointed_out_by", "deliberated", "count_requested", "skipped_had_time")


def _get(data: Any, path: tuple) -> Any:
    node: Any = data
    for p in path:
        if isinstance(node, list) and isinstance(p, int) and 0 <= p < len(node):
            node = node[p]
        elif isinstance(node, dict) and p in node:
            node = node[p]
        else:
            return None
    return node


def _parent_present(data: dict, path: tuple) -> bool:
    return len(path) == 1 or isinstance(_get(data, path[:-1]), dict)


def _set(data: dict, path: tuple, value: Any) -> dict:
    """The incident data with ``value`` written at ``path``: the mappings and lists along the path are new,
    everything beside it is shared with ``data`` (neither the reader nor a ruling changes what it reads)."""
    out = dict(data)
    node: Any = out
    for p in path[:-1]:
        inner = node[p] if isinstance(node, list) else node.get(p)
        inner = list(inner) if isinstance(inner, list) else dict(inner) if isinstance(inner, dict) else {}
        node[p] = inner
        node = inner
    node[path[-1]] = value
    return out


def per_act(fact: Fact) -> bool:
    """A fact about one disputed act (asked of each act when there are several)."""
    return _path(fact)[0] == "disputed" or fact.name in _TIMING


def act_field(fact: Fact, act_path: tuple) -> tuple:
    """Where a fact about one act is written in that act (``act_path``: ``("disputed", i)``)."""
    path = _path(fact)
    return act_path + (path[1:] if path[0] == "disputed" else path)


def several(data: Any) -> bool:
    """Whether the incident gives its disputed acts as a list (each answered as ``FACT@N``)."""
    return isinstance(data, dict) and isinstance(data.get("disputed"), list)


def answer_key(name: str, act: int | None) -> str:
    return name if act is None else f"{name}@{act}"


MAX_KEY = 80   # an answer's key: a fact's name, '@' and an act's number; a longer one is no key (and is clipped)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_KEY else text[:MAX_KEY - 3] + "..."


def _answer_problem(fact: str, message: str, hint: str | None) -> Problem:
    fact = _clip(fact)
    return Problem("<answers>", 0, 0, "C101", f"answers.{fact}: {message}", ("answers", fact), hint)


def apply_answers(data: dict, answers: dict[str, Any], acts: list[tuple] | None = None) -> dict:
    """The incident data with each answer written at its fact's field; every bad answer refused at once.

    ``acts`` are where the disputed acts are written, in hand order, for answers ``FACT@N`` (act N).
    """
    cat = facts()
    problems = []
    out = data
    for key, value in answers.items():
        name, _, number = str(key).partition("@")
        fact = cat.get(name) if len(str(key)) <= MAX_KEY else None
        if fact is None or not askable(fact):
            choices = [f for f, spec in cat.items() if askable(spec)]
            close = did_you_mean(name, choices) if len(name) <= MAX_KEY else None
            problems.append(_answer_problem(key, "is not a question the consultation can take an answer to",
                                            f"did you mean '{close}'?" if close else "answerable: " + ", ".join(choices)))
            continue
        if isinstance(value, bool) is not (fact.type == "bool") or value not in allowed(fact):
            problems.append(_answer_problem(key, f"{value!r} is not one of the allowed answers",
                                            "one of: " + ", ".join(str(v).lower() if isinstance(v, bool) else str(v)
                                                                   for v in allowed(fact))))
            continue
        path = _path(fact)
        if number:
            count = len(acts or ())
            if not per_act(fact):
                problems.append(_answer_problem(key, "is asked of the whole incident, not of one act",
                                                f"answer it as '{name}'"))
                continue
            act = whole_number(number, 1, count)   # ASCII digits only: '²'.isdigit(), but int('²') raises
            if act is None:
                problems.append(_answer_problem(key, f"the incident has no disputed act {_clip(number)}",
                                                f"acts 1 to {count}, in hand order, in digits 0-9" if count else
                                                f"answer it as '{name}'"))
                continue
            path = act_field(fact, acts[act - 1])   # type: ignore[index]
        elif path[0] == "disputed" and several(out):
            count = len(out["disputed"])
            problems.append(_answer_problem(key, f"the incident has {count} disputed acts; say which act it is about",
                                            "answer " + " or ".join(f"{name}@{i}" for i in range(1, count + 1))))
            continue
        if not _parent_present(out, path):
            problems.append(_answer_problem(key, f"the incident has no {path[0]} section to answer it in",
                                            f"describe the {path[0]} first"))
            continue
        out = _set(out, path, value)
    if problems:
        raise ProblemsError(problems)
    return out


def answered(answers: dict[str, Any]) -> list[dict]:
    """Answers as the log keeps them: each fact with its question (and the act, for ``FACT@N``)."""
    cat = facts()
    out = []
    for key, value in answers.items():
        name, _, number = str(key).partition("@")
        item = {"fact": name, "question": cat[name].question if name in cat else name, "answer": value}
        act = whole_number(number, 1, 10 ** 6)
        if act is not None:
            item["act"] = act
        out.append(item)
    return out


def _reports(report: Report) -> list[Report]:
    """One report per disputed act, in hand order."""
    return [report, *report.more_acts]


def _now_numbers(one: Report) -> tuple:
    """The numbers WHAT HAPPENS NOW says (who puts in or gets back what, what the next player faces)."""
    import re
    return tuple(m for line in one.now for m in re.findall(r"\d[\d,]*(?:\.\d+)?", line))


def _signature(report: Report, matters: frozenset[str] | None = None) -> tuple:
    """Per act, the rulings in force (on the given matters only, when given), the numbers of WHAT HAPPENS NOW
    and the open conflicts."""
    return tuple((tuple(sorted((r.rule, r.ruling, tuple(sorted((k, str(v)) for k, v in r.effects.items())))
                               for r in one.rulings if matters is None or group_of(r.decides) in matters)),
                  _now_numbers(one) if matters is not None else (),
                  tuple(tuple(c) for c in one.conflicts))
                 for one in _reports(report))


def _own_matters(report: Report) -> frozenset[str] | None:
    """The matter the dispute is about: that of the ruling that leads each act's report (``now.lead`` puts the
    ruling on the dispute's own matter first), and the matters that lie within it (None: nothing is ruled yet,
    so any answer that brings a ruling matters). A question whose answers only add or change a ruling on some
    other matter (a side deal, who may point it out) cannot change the ruling on the dispute: it is kept
    apart, under "also worth asking"."""
    own = {group_of(one.rulings[0].decides) for one in _reports(report) if one.rulings}
    return frozenset(own) or None


def _brief(report: Report, act: int | None = None) -> list[dict]:
    """The rulings a question's answer leads to: of its act, or of every act (each named by its number)."""
    reports = _reports(report)
    if act is not None:
        return [{"rule": r.rule, "ruling": r.ruling, "sentence": r.sentence} for r in reports[act - 1].rulings]
    return [{"rule": r.rule, "ruling": r.ruling, "sentence": r.sentence, **({"act": n} if len(reports) > 1 else {})}
            for n, one in enumerate(reports, 1) for r in one.rulings]


def combined(outcomes: list[str]) -> str:
    """The outcome of the whole incident: ruled when every act is, else questions when any act has them."""
    if all(o == "ruled" for o in outcomes):
        return "ruled"
    return "questions" if "questions" in outcomes else "not_covered"


@dataclass
class Step:
    """One step of a consultation: the report so far and the questions that would change it."""

    outcome: str
    report: Report
    questions: list[dict] = field(default_factory=list)
    open: list[dict] = field(default_factory=list)
    data: dict = field(default_factory=dict)        # the incident with the answers written in
    answers: dict = field(default_factory=dict)
    outcomes: list[str] = field(default_factory=list)   # each disputed act's, in hand order (``outcome``: all)
    also: list[dict] = field(default_factory=list)   # also worth asking: answers change a ruling on another matter


class Consultation:
    """Rule on partial incidents with one compiled book; each ``step`` is independent (no state kept)."""

    def __init__(self, book: Rulebook, engine: Engine, file: str = "<incident>"):
        self.book, self.engine, self.file = book, engine, file

    def parse(self, incident: dict | str | Located) -> Located:
        """An incident given as data, or as YAML/JSON text (then problems carry line and column)."""
        if isinstance(incident, Located):
            return incident
        if isinstance(incident, str):
            doc, problems = load_text(incident, self.file)
            if doc is None:
                raise ProblemsError(problems)
            if not isinstance(doc.data, dict):
                raise ProblemsError([Problem(self.file, 1, 1, "I103", "expected a mapping of fields")])
            return doc
        if not isinstance(incident, dict):
            raise ProblemsError([Problem(self.file, 0, 0, "I103", "the incident is a mapping of fields")])
        return Located(self.file, incident, {})

    def _read(self, doc: Located, data: dict):
        return read_incident(Located(doc.file, data, doc.marks), self.book)

    def _rule(self, doc: Located, data: dict) -> Report:
        return rule_on(self._read(doc, data), self.book, self.engine)

    def _acts(self, doc: Located, answers: dict[str, Any]) -> list[tuple] | None:
        """Where each disputed act is written, in hand order, when an answer names an act (``FACT@N``)."""
        if not any("@" in str(k) for k in answers):
            return None
        try:
            return [act.path for act in self._read(doc, doc.data).acts]
        except ProblemsError:   # refused as it stands: the acts in the order written (the ruling says why)
            raw = doc.data.get("disputed") if isinstance(doc.data, dict) else None
            return [("disputed", i) for i in range(len(raw))] if isinstance(raw, list) else []

    def rule(self, incident: dict | str | Located, answers: dict[str, Any] | None = None) -> Step:
        """Rule once with the answers, without searching for questions (what a recorded ruling needs)."""
        doc = self.parse(incident)
        answers = dict(answers or {})
        data = apply_answers(doc.data, answers, self._acts(doc, answers))
        report = self._rule(doc, data)
        reports = _reports(report)
        outcomes = [r.outcome for r in reports]
        open_ = [q if len(reports) == 1 else {**q, "act": n} for n, r in enumerate(reports, 1) for q in r.questions]
        return Step(combined(outcomes), report, [], open_, data, answers, outcomes)

    def step(self, incident: dict | str | Located, answers: dict[str, Any] | None = None,
             skipped: tuple[str, ...] = ()) -> Step:
        """Rule on the incident with the answers so far; list the questions whose answers change the rulings.

        The step is one ruling for the cards' memo (``one_ruling``): its trial answers rank the same tabled
        cards once, as a ruling's acts do."""
        with one_ruling():
            return self._step(incident, answers, skipped)

    def _step(self, incident: dict | str | Located, answers: dict[str, Any] | None,
              skipped: tuple[str, ...]) -> Step:
        doc = self.parse(incident)
        answers = dict(answers or {})
        data = apply_answers(doc.data, answers, self._acts(doc, answers))
        read = self._read(doc, data)
        report = rule_on(read, self.book, self.engine)
        reports = _reports(report)
        own = _own_matters(report)
        now = _signature(report, own)
        cat = facts()
        # (fact, act, field): act None for a fact of the whole incident (or of its only act)
        candidates: list[tuple[str, int | None, tuple]] = []
        asked: dict[tuple[str, int | None], dict] = {}
        if several(data):
            paths = [act.path for act in read.acts]
            for n, one in enumerate(reports, 1):
                for q in one.questions:
                    fact = cat.get(q.get("fact") or "")
                    if fact is not None and askable(fact):
                        asked.setdefault((fact.name, n if per_act(fact) else None), q)
            for n, path in enumerate(paths, 1):
                for name, fact in cat.items():
                    if not askable(fact) or not per_act(fact):
                        continue
                    where = act_field(fact, path)
                    if (name, n) in asked or (_get(data, where) is None and _parent_present(data, where)
                                              and (name not in _TIMING or data.get(name) is None)):
                        candidates.append((name, n, where))
            for name, fact in cat.items():
                if askable(fact) and not per_act(fact) and ((name, None) in asked or (
                        _parent_present(data, _path(fact)) and _get(data, _path(fact)) is None)):
                    candidates.append((name, None, _path(fact)))
        else:
            for q in report.questions:
                if q.get("fact") in cat and askable(cat[q["fact"]]):
                    asked[(q["fact"], None)] = q
            names = [f for f, _ in asked]
            for name, fact in cat.items():
                if askable(fact) and name not in names and _parent_present(data, _path(fact)) \
                        and _get(data, _path(fact)) is None:
                    names.append(name)
            candidates = [(name, None, _path(cat[name])) for name in names]
        questions, order = [], list(cat)
        also: list[dict] = []
        everything = _signature(report)
        base = self._base(read, report)
        for name, act, where in candidates:
            key = answer_key(name, act)
            if key in answers or key in skipped or name in skipped:
                continue
            if cat[name].premise_fails(reports[(act or 1) - 1].facts):   # "missed the raise" with no raise made
                continue
            question = self._question(doc, data, cat[name], asked.get((name, act)), now, where, act, own, everything,
                                      base)
            if question is not None and question.pop("_also", False):
                also.append({"fact": name, "question": question["question"], "key": question["key"],
                             "rules": question["rules"], **({"act": act} if act is not None else {})})
            elif question is not None:
                questions.append(question)
        # a rule's own question first, then one where leaving it out matches no answer (it decides),
        # then the one whose answers split the rulings most
        questions.sort(key=lambda q: (q.pop("_rule_asked"), q.pop("_now_is_an_answer"), -q.pop("_distinct"),
                                      -q.pop("_changing"), order.index(q["fact"]), q.get("act") or 0))
        open_ = [q if len(reports) == 1 else {**q, "act": n} for n, r in enumerate(reports, 1) for q in r.questions
                 if not q.get("fact") or q["fact"] not in cat or not askable(cat[q["fact"]])]
        outcomes = []
        for n, r in enumerate(reports, 1):
            mine = [q for q in questions if q.get("act") in (None, n)] or [q for q in open_ if q.get("act", 1) == n]
            # a ruling that hangs on an amount not given (the pot, the blinds: unknowns.py rules each answer,
            # ``under_each``) is no ruling to follow yet: its outcome stays "questions" (issue 45)
            hangs = any(q.get("under_each") for q in open_ if q.get("act", 1) == n)
            outcomes.append("questions" if (mine or hangs) and (hangs or not r.rulings)
                            else "ruled" if r.rulings else "not_covered")
        return Step(combined(outcomes), report, questions, open_, data, answers, outcomes, also)

    def _base(self, read: Any, report: Report) -> tuple | None:
        """What a trial answer is told alike against (``_alike``): the incident as it stands, prepared as the
        engine's first run takes it, its parameter values and facts, what the floor told, and what the rules
        in force read; None when it is ruled act by act or request by request, or a straddle was sent back
        (the facts are built again), or it is not prepared here: then every answer is ruled in full."""
        if ruled_apart(read) or not_told_alike(self.book, report):
            return None
        try:
            incident, params, situation = _prepared(read, self.book)
        except (ProblemsError, BettingError):
            return None
        in_force = set().union(*(rule_reads(self.book.rules[r.rule]) for r in report.rulings
                                 if r.rule in self.book.rules))
        if any(r.rule not in self.book.rules for r in report.rulings):
            return None
        return incident, params, situation.facts, given_facts(incident), in_force

    def _alike(self, base: tuple, one: Any) -> bool | tuple | None:
        """True when the incident ``one`` (a trial answer, read) surely rules as the incident as it stands: the
        same rules in force with the same effects, the same conflicts and the same WHAT HAPPENS NOW
        (``unknowns.answer_rules_alike``, the proof ``answer_may_rule`` gives the procedure questions), and
        nothing the report works out beside the rules reads what the answer changed: the arithmetic and
        WHAT HAPPENS NOW read none of the facts it changes (``TAIL``), the same hand, acts after and
        setting, and what the floor told newly is read by no rule in force (the lead ruling is the same).
        Else (not sure) what ``rule_on`` is to rule it with (the incident prepared, not prepared twice), or
        None when it is not prepared here: the answer is then ruled in full."""
        incident, params, facts_now, given, in_force = base
        if ruled_apart(one):
            return None
        try:
            ready = _prepared(one, self.book)
        except (ProblemsError, BettingError):
            return None
        trial, trial_params, situation = ready
        if trial_params != params or trial.hand != incident.hand or trial.after != incident.after \
                or trial.params != incident.params or trial.split != incident.split \
                or (trial.disputed is None) != (incident.disputed is None) \
                or (trial.disputed is not None and trial.disputed.seat != incident.disputed.seat):
            return ready
        told = given_facts(trial)
        newly = {f for k in told.keys() | given.keys() if told.get(k) != given.get(k) for f in told.get(k, ())}
        if trial.disputed is not None:   # and the particulars ``_told`` counts beside them
            newly |= {name for name in ("buy_in", "side_deal", "cashed_out", "minutes_away")
                      if (getattr(trial.disputed, name) is None) != (getattr(incident.disputed, name) is None)}
        if newly & in_force:
            return ready
        return True if answer_rules_alike(self.book, facts_now, situation.facts, params, TAIL) else ready

    def _question(self, doc: Located, data: dict, fact: Fact, asked: dict | None, now: tuple,
                  where: tuple | None = None, act: int | None = None,
                  own: frozenset[str] | None = None, everything: tuple | None = None,
                  base: tuple | None = None) -> dict | None:
        """The question with each answer's rulings, when some answer changes the ruling on the dispute's own
        matter (or a number of WHAT HAPPENS NOW); marked ``_also`` when answers change only a ruling on another
        matter; None when no answer changes anything."""
        values: list[dict] = []
        signatures, changing, differing = set(), 0, set()
        elsewhere: set[str] = set()
        current = {r[0] for one in everything or () for r in one[0]}   # the rules in force now
        current_rules: set[str] = set()
        where = where or _path(fact)
        alike: list[tuple[int, Any, Any]] = []   # answers surely ruled as now (``_alike``): ruled only if asked
        for value in allowed(fact):
            try:
                one = self._read(doc, _set(data, where, value))
                ready = self._alike(base, one) if base is not None else None
                if ready is True:
                    alike.append((len(values), value, one))
                    signatures.add(now)
                    current_rules |= current
                    continue
                report = rule_on(one, self.book, self.engine, ready or None)
            except ProblemsError:
                continue   # not a possible answer for this incident (e.g. needs another field first)
            sig = _signature(report, own)
            signatures.add(sig)
            if everything is not None and own is not None and _signature(report) != everything:
                elsewhere |= {r.rule for one in _reports(report) for r in one.rulings} - current
            if sig != now:
                changing += 1
                differing |= {r.rule for one in _reports(report) for r in one.rulings}
            current_rules |= {r.rule for one in _reports(report) for r in one.rulings}
            outcome = report.outcome if act is None or act == 1 else report.more_acts[act - 2].outcome
            values.append({"value": value, "outcome": outcome, "leads_to": _brief(report, act)})
        if not changing and elsewhere:
            return {"fact": fact.name, "question": (asked or {}).get("question") or fact.question,
                    "key": answer_key(fact.name, act), "rules": sorted(elsewhere), "_also": True}
        if not changing:
            return None
        for i, value, one in reversed(alike):   # asked: each answer shows its rulings, these too
            report = rule_on(one, self.book, self.engine)
            outcome = report.outcome if act is None or act == 1 else report.more_acts[act - 2].outcome
            values.insert(i, {"value": value, "outcome": outcome, "leads_to": _brief(report, act)})
        field_name = fact.name
        needing = [rid for rid in sorted(differing | current_rules)
                   if rid in self.book.rules and field_name in reads(self.book.rules[rid].when)]
        asked_by = asked["asked_by"] if asked else (needing[0] if needing else sorted(differing)[0] if differing else None)
        return {"fact": fact.name, "question": (asked or {}).get("question") or fact.question, "type": fact.type,
                "field": ".".join(map(str, where)), "asked_by": asked_by, "rules": needing or sorted(differing),
                "values": values, "key": answer_key(fact.name, act), **({"act": act} if act is not None else {}),
                "_rule_asked": asked is None, "_now_is_an_answer": now in signatures, "_distinct": len(signatures),
                "_changing": changing}
