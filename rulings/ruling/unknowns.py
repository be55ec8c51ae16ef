"""What the ruling depends on among the facts the floor did not give: the question, why, and the ruling under each answer.

A later street's pot is often not known at the table. The reader leaves it
unknown (``Incident.pot_unknown``) and the facts that read it are left out, so
no rule fires on a guess. Whether the pot matters to *this* ruling is found by
ruling again with pots put in: when every pot gives the rulings on the
dispute's own matter the report already has, the pot is not asked; otherwise
the report asks for it and shows the ruling under the answers that differ.

The pots tried are a scale of the game's unit (the big blind, else the small
bet, else the bet faced) from 1 to 500 units; between two neighbours whose
rulings differ in kind (another rule or ruling, not only another amount) the
threshold is found by halving, to the unit. Each stretch of pots that rules
alike is shown by its first pot (and, for a stretch that only changes the
amount, its first and last pot of the scale). Nothing here decides a ruling:
every answer is ruled by the book through ``rule_on``.

Most of the time no pot can change the ruling, and that can be seen without a trial (``pot_may_matter``):
the facts that may change with the pot are known from the fact builders (``Situation.pot_facts``), and,
closed over the book, the rules that read one of them (in their conditions, or to work out an effect or a
derived fact) and the facts and rulings those derive. When each such rule has a condition that reads none
of them, nor any fact a rule derives, and is false on this incident's facts, no pot lets it fire and none
fires now: every trial would rule as the report does, and none is run. Anything not surely false (a test
durable-rules compares its own way, an expression, an error) counts as true: the trials run as before.
"""
from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Callable

from rulings.betting import BettingError
from rulings.problems import ProblemsError
from rulings.money import major, show, to_minor
from rulings.records import evolve

_PROBING: ContextVar[bool] = ContextVar("probing", default=False)   # ruling a trial answer: ask nothing more


def probing() -> bool:
    """Whether a trial answer is being ruled on: its report asks no questions of its own (no question within
    a question: each trial is one ruling, never a search), and carries what a question reads of it, its
    rulings in the order the report gives them, without the derived facts, the facts no rule read or
    WHAT HAPPENS NOW (rulings/ruling/decide.py ``_rule_on``)."""
    return _PROBING.get()


def _trial(rule: Callable[[Any], Any], incident: Any) -> Any:
    token = _PROBING.set(True)
    try:
        return rule(incident)
    finally:
        _PROBING.reset(token)


DECIDED_FACTS = ("decided_to", "put_out_to", "decided_all_in", "decided_over_stack", "callers_since")
DECIDED_FACTS_SET = frozenset(DECIDED_FACTS)
DECIDED_READS = frozenset(("chips_to", "committed", "stack"))   # what rulings/facts/wagers.py decided_facts reads
CHANGE_READS = frozenset(("chips_to", "prior_chips_total"))     # and rulings/ruling/decide.py _complete_change
# facts read beside the rules (rulings/ruling/decide.py the change and the all-in-for-less arithmetic, the lead
# ruling's particulars; rulings/ruling/now.py WHAT HAPPENS NOW): an answer or a trial changing one is ruled in full
TAIL = frozenset(("stack", "committed", "chips_total", "chips_to", "prior_chips_total", "current_bet", "in_turn",
                  "facing_bet", "said_kind", "structure", "put_out_to", "said_conditional"))


def _plan_condition(c: Any, ruled: dict[str, list[str]]) -> tuple:
    """One condition as ``pot_may_matter`` tests it: ("any", groups) or ("leaf", the fields it reads, the
    engine's pre-check tests of it, or None when it cannot be told false here)."""
    from rulings.engine.rulesets import _atoms, compile_condition, reads
    from rulings.rulebook.model import AnyOf
    if isinstance(c, AnyOf):
        return ("any", tuple(tuple(_plan_condition(x, ruled) for x in g) for g in c.groups))
    try:
        got = frozenset(reads([c], ruled))
        atoms = None if c.fact == "ruled" else _atoms((c,), [compile_condition(c, ruled)])
    except Exception:   # noqa: BLE001 (a condition not told false: the trials run)
        return ("leaf", frozenset(), None)
    return ("leaf", got, atoms)


def _plan(book: Any) -> dict:
    """Per book: each rule's fields read (conditions, effects, derived facts, sentence), what it derives
    (facts, and its flag for ``ruled:``), its conditions as tested here, and which rules read each field."""
    from rulings.engine.rulesets import field_name, reads, ruled_flags, uses_of
    uses = uses_of(book)
    rules = list(book.rules.values())
    ruled = ruled_flags(rules)
    out: dict[str, Any] = {"rules": [], "readers": {}, "ids": [r.id for r in rules], "when": []}
    unstable = set(DECIDED_FACTS) | {field_name(n) for n in book.defaults}
    for i, r in enumerate(rules):
        try:
            when = frozenset(reads(r.when, ruled))
            fields = when | {field_name(n) for n in uses(r)}
            plan = tuple(_plan_condition(c, ruled) for c in r.when)
        except Exception:   # noqa: BLE001 (a rule not read here: any pot may matter to it)
            when, fields, plan = None, None, None
        out["when"].append(when)
        gives = tuple(field_name(k) for k, _ in r.then.derive) + ((f"f__{i}",) if r.then.ruling else ())
        unstable |= set(gives)
        out["rules"].append((fields, gives, plan))
        for name in fields or ():
            out["readers"].setdefault(name, []).append(i)
        if fields is None:
            out["unread"] = True
    out["unstable"] = frozenset(unstable)
    return out


def _touched(rules: list, readers: dict, changing: set[str]) -> set[int]:
    """The rules (by index) reading a fact in ``changing``, and those reading what they derive, in turn;
    ``changing`` grows by every fact such a rule derives."""
    touched: set[int] = set()
    work = list(changing)
    while work:
        for i in readers.get(work.pop(), ()):
            if i not in touched:
                touched.add(i)
                for name in rules[i][1]:
                    if name not in changing:
                        changing.add(name)
                        work.append(name)
    return touched


def pot_may_matter(book: Any, facts: dict[str, Any], params: dict[str, Any], pot_facts: frozenset[str]) -> bool:
    """Whether some pot could change the report's rulings: False only when it surely cannot (see the module's
    doc); ``facts`` are the report's (the incident's and the decided wager's), ``pot_facts`` the situation's."""
    from rulings.engine.rulesets import _may_match, field_name
    from rulings.rulebook.model import per_book
    if not pot_facts:
        return True
    plan = per_book(book, "pot plan", lambda: _plan(book))
    if plan.get("unread"):
        return True
    if "*" in pot_facts:   # a fact builder read the pot and could have given other facts: not told here
        return True
    changing = {n for n in pot_facts if not n.endswith("*")}
    for prefix in (n[:-1] for n in pot_facts if n.endswith("*")):   # every fact of that family the book reads
        changing |= {n for n in plan["readers"] if n.startswith(prefix)}
    if changing & CHANGE_READS:
        return True
    if changing & DECIDED_READS:
        changing |= set(DECIDED_FACTS)
    rules, readers = plan["rules"], plan["readers"]
    touched = _touched(rules, readers, changing)
    if not touched:
        return False
    unstable = plan["unstable"]
    view = {k: v for k, v in facts.items() if v is not None}
    view.update({field_name("param." + k): v for k, v in params.items() if v is not None})

    def false(cond: tuple) -> bool:
        if cond[0] == "any":
            return all(any(false(x) for x in g) for g in cond[1])
        _, fields, atoms = cond
        if atoms is None or not fields or any(n in changing or n in unstable for n in fields):
            return False
        try:
            return not _may_match(atoms, view)
        except Exception:   # noqa: BLE001 (not surely false)
            return False

    return not all(any(false(c) for c in rules[i][2]) for i in touched)


GIVE_RULINGS = frozenset(("straddle_refused_seat",))   # a derived fact after which the facts are built again


def _same(a: Any, b: Any) -> bool:
    """Whether two fact values post alike (True is not 1, nor 2 the same as Decimal 2)."""
    if type(a) is not type(b) or a != b:
        return False
    return type(a) in (bool, int, str) or repr(a) == repr(b)


def answer_may_rule(book: Any, before: Any, facts: dict[str, Any], params: dict[str, Any]) -> bool:
    """Whether an answer to a procedure question could bring a ruling, where ``before`` is the report ruled
    without it (no ruling in force, no question) and ``facts``, ``params`` what the engine's first run would
    be given with the answer. False only when it surely cannot: no rule that fired before gives a ruling (or
    derives a fact after which the book runs again), and every rule that reads a fact the answer changes (in a
    condition, an effect or a derived fact), and every rule reading what one of those derives, closed over
    the book, has a condition surely false on the answer's facts that reads no fact a rule derives or a
    default fills in (as ``pot_may_matter`` tells one). Every other rule reads the same facts as before and
    fires as it did: the answer's run fires only rules that fired before, none giving a ruling."""
    from rulings.rulebook.model import per_book
    if before.rulings or params != before.params:
        return True
    plan = per_book(book, "pot plan", lambda: _plan(book))
    if plan.get("unread"):
        return True
    if any(r.then.ruling or GIVE_RULINGS & {k for k, _ in r.then.derive}
           for r in (book.rules.get(rid) for rid in before.trace) if r is not None) \
            or any(rid not in book.rules for rid in before.trace):
        return True
    return not _unfired(plan, before.facts, facts, params)


def _changed(old: dict[str, Any], new: dict[str, Any]) -> set[str]:
    """The facts given in one and not the other, or given both with values that post otherwise."""
    a = {k: v for k, v in old.items() if v is not None}
    b = {k: v for k, v in new.items() if v is not None}
    return {k for k in a.keys() | b.keys() if k not in a or k not in b or not _same(a[k], b[k])}


def _unfired(plan: dict, old: dict[str, Any], facts: dict[str, Any], params: dict[str, Any],
             changing: set[str] | None = None, both: bool = False, absent: frozenset[str] = frozenset(),
             kept: dict | None = None, fired: frozenset[str] | None = None) -> bool:
    """Whether every rule reading a fact that differs between ``old`` and ``facts`` (``changing``, when given),
    and every rule reading what one of those derives, closed over the book, has a condition surely false on
    ``facts`` (and, with ``both``, one surely false on ``old`` too) that reads no fact a rule derives or a
    default fills in, but those in ``absent`` (derived facts the caller knows stay absent: read as missing).
    True when no rule is touched.

    ``kept`` (with ``both``): a dict the caller keeps for the trials of one ``old`` under the same ``params``
    and ``absent``. The rules touched by one set of differing facts are then found once, and a rule with a
    condition surely false on ``old`` that reads none of them is set aside once: that condition reads only
    facts alike in both, so it is false on every such trial too. Only the rules left are tested per trial.

    ``fired`` (with ``both``): the rules that fired in any of the runs on ``old``. A touched rule none of whose
    conditions reads a differing fact (or a fact derived from one, or a touched rule's flag) fired on ``old``
    exactly when it fires on ``facts``: one of them that did not fire on ``old`` is set aside, whatever else
    of it (its effects, its sentence) reads a differing fact."""
    from rulings.engine.rulesets import _may_match, field_name
    changing = _changed(old, facts) if changing is None else changing
    rules, readers, unstable = plan["rules"], plan["readers"], plan["unstable"] - absent
    key = frozenset(changing) if kept is not None and both else None
    touched = kept.get(key) if kept is not None and key is not None else None
    if touched is None:
        closure = set(changing)
        touched = _touched(rules, readers, closure)
        if fired is not None and both:
            ids, whens = plan["ids"], plan["when"]
            touched = {i for i in touched if whens[i] is None or not whens[i].isdisjoint(closure) or ids[i] in fired}
    if not touched:
        if key is not None and kept is not None:
            kept[key] = touched
        return True
    named = {field_name("param." + k): v for k, v in params.items() if v is not None}
    views = [{**{k: v for k, v in f.items() if v is not None}, **named} for f in ((facts, old) if both else (facts,))]

    def false(cond: tuple, view: dict) -> bool:
        if cond[0] == "any":
            return all(any(false(x, view) for x in g) for g in cond[1])
        _, fields, atoms = cond
        if atoms is None or not fields or not unstable.isdisjoint(fields):
            return False
        try:
            return not _may_match(atoms, view)
        except Exception:   # noqa: BLE001 (not surely false)
            return False

    if key is not None and kept is not None and key not in kept:
        def steady(cond: tuple) -> bool:   # surely false on ``old``, reading only facts alike in both
            if cond[0] == "any":
                return all(any(steady(x) for x in g) for g in cond[1])
            return cond[1].isdisjoint(changing) and false(cond, views[1])
        touched = kept[key] = {i for i in touched if rules[i][2] is None or not any(steady(c) for c in rules[i][2])}
    return all(rules[i][2] is not None and any(false(c, view) for c in rules[i][2])
               for i in touched for view in views)


def answer_rules_alike(book: Any, old: dict[str, Any], facts: dict[str, Any], params: dict[str, Any],
                       tail: frozenset[str] = frozenset(), undecided: bool = False, kept: dict | None = None,
                       fired: frozenset[str] | None = None) -> bool:
    """Whether the engine's runs on ``facts`` (a consultation's trial answer, its first run's facts) surely fire
    the very rules the runs on ``old`` (the incident as it stands, under the same ``params``) fired, with the
    same effects: every rule that reads a fact that differs, and every rule reading what one of those
    derives, has a condition surely false on both (``_unfired``); the others read only facts alike. A
    differing fact read by the decided wager's facts counts the decided facts as differing too; one in
    ``tail`` (what the report's arithmetic and WHAT HAPPENS NOW read beside the rules), or a rule not read
    here, and the answer is not told alike.

    ``undecided``: the runs on ``old`` decided no wager (no second stratum ran, so no decided fact was made).
    Then, when every touched rule is surely false with the decided facts read as missing, the first run on
    ``facts`` fires what it fired on ``old``, decides no wager either, and the decided facts stay missing:
    they are read as such (a rule that also tests them, such as "a wager under the minimum is brought up to
    it", does not hold every trial back). ``kept``, ``fired``: as ``_unfired`` takes them, for the trials of one
    ``old``."""
    from rulings.rulebook.model import per_book
    plan = per_book(book, "pot plan", lambda: _plan(book))
    if plan.get("unread"):
        return False
    changing = _changed(old, facts)
    if changing & (CHANGE_READS | tail):
        return False
    if changing & DECIDED_READS:
        changing |= set(DECIDED_FACTS)
    absent = frozenset(DECIDED_FACTS) if undecided and not DECIDED_FACTS_SET & (old.keys() | facts.keys()) \
        else frozenset()
    return _unfired(plan, old, facts, params, changing, both=True, absent=absent,
                    kept=kept.setdefault(absent, {}) if kept is not None else None, fired=fired)


SCALE = (1, 2, 3, 5, 10, 20, 50, 100, 200, 500)   # pots tried, in units of the game
REFUSED = (("", "refused", ()),)                  # the rulings of a pot the hand cannot have
MAX_RULINGS = 40                                   # rulings run for one question, at most


def _unit(incident: Any) -> int:
    game = incident.hand.game
    for v in (game.big_blind, game.bet_sizes[0] if game.bet_sizes else 0, game.small_blind):
        if v:
            return v
    return 100


def with_pot(incident: Any, pot: int) -> Any:
    """The incident with the pot before its street given."""
    hand = evolve(incident.hand, pot_before=pot)
    whole = incident.whole_hand
    if whole is not None:
        whole = hand if whole is incident.hand else evolve(whole, pot_before=pot)
    return evolve(incident, hand=hand, whole_hand=whole, pot_unknown=False)


def _own(report: Any, group_of: Callable[[str], str], matters: frozenset[str], lead: bool = False) -> tuple:
    return tuple(sorted((r.rule, r.ruling, tuple(sorted((k, str(v)) for k, v in r.effects.items())))
                        for r in _on_dispute(report, group_of, matters, lead)))


def _on_dispute(report: Any, group_of: Callable[[str], str], matters: frozenset[str], lead: bool) -> list:
    """The rulings on the dispute's own matters; with ``lead``, a report with none on them gives its own lead
    ruling (another answer may change which matter the dispute is: told the blinds, an act out of turn may
    be in turn)."""
    own = [r for r in report.rulings if not matters or group_of(r.decides) in matters]
    return own or (list(report.rulings[:1]) if lead else [])


def _kind(sig: tuple) -> tuple:
    return tuple((rule, ruling) for rule, ruling, _ in sig)


def pot_question(incident: Any, report: Any, rule: Callable[[Any], Any], group_of: Callable[[str], str],
                 matters: frozenset[str]) -> dict | None:
    """The pot question for a report ruled with the pot unknown, or None when no pot changes its ruling.

    ``rule`` rules on an incident (the book's ``rule_on``); ``matters`` are the dispute's own matters (empty:
    every ruling counts).
    """
    street = incident.street
    return _question(incident, report, rule, group_of, matters, _unit(incident), with_pot, {
        "fact": "pot", "field": "pot", "question": f"How much was in the pot when the {street} began?",
        "if": f"if the pot before the {street} was {{}}"})


BLIND_UNIT = 100   # minor units: the big blinds tried when none was given are this unit times SCALE


def with_blinds(incident: Any, big: int) -> Any:
    """The incident with blinds of ``big`` (the small blind half of it, to the minor unit below) given."""
    def put(hand: Any) -> Any:
        return evolve(hand, game=evolve(hand.game, small_blind=big // 2, big_blind=big))
    hand = put(incident.hand)
    whole = incident.whole_hand
    if whole is not None:
        whole = hand if whole is incident.hand else put(whole)
    return evolve(incident, hand=hand, whole_hand=whole, blinds_unknown=False, checked=None, replays=())


def blind_question(incident: Any, report: Any, rule: Callable[[Any], Any], group_of: Callable[[str], str],
                   matters: frozenset[str], alike: Callable[[Any], bool] | None = None) -> dict | None:
    """The big blind question for a big-bet game told without blinds (``Incident.blinds_unknown``), or None
    when no big blind changes the ruling on the dispute's own matter: tried as the pot is (``pot_question``),
    on a scale of big blinds, each with the small blind half of it."""
    return _question(incident, report, rule, group_of, matters, BLIND_UNIT, with_blinds, {
        "fact": "big_blind", "field": "game.blinds", "question": "What were the blinds (the big blind)?",
        "if": "if the big blind was {}"}, lead=True, alike=alike)


def _question(incident: Any, report: Any, rule: Callable[[Any], Any], group_of: Callable[[str], str],
              matters: frozenset[str], unit: int, put: Callable[[Any, int], Any], words: dict,
              lead: bool = False, alike: Callable[[Any], bool] | None = None) -> dict | None:
    """The question for an amount not given, tried at a scale of ``unit`` (``put`` gives it to the incident).
    ``alike``: whether a trial incident surely rules as the report does (its facts built, never ruled); such a
    trial is the report's, not ruled again."""
    setting = report.setting
    runs: dict[int, tuple] = {}
    reports: dict[int, Any] = {}

    now = _own(report, group_of, matters, lead)

    def at(pot: int) -> tuple:
        if pot not in runs:
            try:
                trial = put(incident, pot)
                got = report if alike is not None and alike(trial) else _trial(rule, trial)
            except (ProblemsError, BettingError):   # a pot this hand cannot have: not an answer
                got = None
            reports[pot] = got
            runs[pot] = REFUSED if got is None else now if got is report else _own(got, group_of, matters, lead)
        return runs[pot]

    pots = [k * unit for k in SCALE]
    sigs = [at(p) for p in pots]
    if all(s == now for s in sigs):
        return None
    # thresholds between neighbours whose rulings differ in kind
    points = list(pots)
    for lo, hi in zip(pots, pots[1:]):
        if _kind(at(lo)) == _kind(at(hi)):
            continue
        a, b = lo, hi
        while b - a > unit and len(runs) < MAX_RULINGS:
            mid = (a + b) // 2 // unit * unit
            if mid in (a, b):
                break
            if _kind(at(mid)) == _kind(at(a)):
                a = mid
            else:
                b = mid
        points.append(b)
    points = sorted(set(p for p in points if runs.get(p, REFUSED) != REFUSED))
    answers: list[dict] = []
    stretch: list[int] = []
    for p in points + [None]:
        if p is not None and stretch and _kind(runs[p]) == _kind(runs[stretch[0]]):
            stretch.append(p)
            continue
        if stretch:
            shown = [stretch[0]] if len(stretch) == 1 or runs[stretch[0]] == runs[stretch[-1]] \
                else [stretch[0], stretch[len(stretch) // 2], stretch[-1]]
            for i, q in enumerate(dict.fromkeys(shown)):
                one = reports[q]
                answers.append({
                    words["fact"]: major(q), "from": major(stretch[0]) if i == 0 else None,
                    "same_as_now": runs[q] == now,
                    "rulings": [{"rule": r.rule, "ruling": r.ruling, "sentence": r.sentence}
                                for r in _on_dispute(one, group_of, matters, lead)]})
        stretch = [p] if p is not None else []
    readers = sorted({r["rule"] for a in answers if not a["same_as_now"] for r in a["rulings"]})
    changes = [a for a in answers if not a["same_as_now"]]
    if not changes:
        return None
    lines = []
    for answer in answers:
        said = "; ".join(r["sentence"] for r in answer["rulings"]) or "no ruling on the dispute"
        lines.append(words["if"].format(show(to_minor(answer[words["fact"]]), setting)) + f": {said}")
    return {"fact": words["fact"], "question": words["question"],
            "asked_by": readers[0] if readers else None, "rules": readers,
            "why": f"the ruling on the dispute depends on it ({', '.join(readers)})",
            "field": words["field"], "type": "money", "answers": answers, "under_each": lines}



def _readers(book: Any) -> dict[str, tuple[str, ...]]:
    """Each fact and the rules of the book that read it, by rule id: worked out once per book (the questions
    of a procedure asked for each fact of its section the rules reading it, over every rule each time)."""
    from rulings.engine.rulesets import rule_reads
    from rulings.rulebook.model import per_book

    def make() -> dict[str, tuple[str, ...]]:
        out: dict[str, list[str]] = {}
        for rid in sorted(book.rules):
            for name in rule_reads(book.rules[rid]):
                out.setdefault(name, []).append(rid)
        return {name: tuple(rids) for name, rids in out.items()}
    return per_book(book, "readers", make)


def answered(incident: Any, section: str, key: str, value: Any) -> Any:
    """The incident with ``procedure.SECTION.KEY`` given as ``value``, built from the incident as read (its
    procedure's fact and raw value set, as the reader sets them for a yes/no or a choice), or None where that
    is not how reading the answer's text would go: another kind of field, a value the reader would refuse
    or change, several requests to see hands or a disputed act (rule_on rules those one by one). Its facts
    are those of the answer's text read in full whenever that is not refused (tests/test_unknowns.py holds
    it to that for every procedure example); only ``may_rule`` reads it, never a ruling."""
    from rulings.incident.procedure import SPEC
    p = incident.procedure
    spec = SPEC.get(section, {}).get(key)
    if p is None or spec is None or incident.acts or section not in p.raw \
            or (p.raw.get("showdown") or {}).get("requests") is not None:
        return None
    kind, fact = spec
    if not ((kind == "bool" and isinstance(value, bool)) or
            (isinstance(kind, tuple) and type(value) is str and value in kind)):
        return None
    procedure = evolve(p, facts={**p.facts, fact: value} if fact is not None else p.facts,
                       raw={**p.raw, section: {**p.raw[section], key: value}})
    return evolve(incident, procedure=procedure)


def procedure_questions(incident: Any, book: Any, rule: Callable[[Any], Any],
                        may_rule: Callable[[Any], bool] | None = None) -> list[dict]:
    """For a table procedure no rule decides as given: the catalogue's question for each of its section's facts
    left out that some rule reads, and, for a yes/no or a choice, only when an answer brings a ruling (each
    answer ruled by the book, and the rulings shown). A number (the clock's seconds) is asked when a rule reads
    it: its answers are too many to try.

    ``may_rule`` (rulings/ruling/decide.py ``_may_rule``) builds an answer's facts and tells, from the compiled book,
    whether any rule giving a ruling could fire on them: an answer it rules out gives no ruling, and is neither
    read nor ruled on in full (its facts are built from the incident as read, ``answered``). An answer that
    may bring one is read from the incident's own text with only that field set (the mappings on its path
    copied, the rest shared: the reader changes none of them) and ruled on."""
    from rulings.rulebook.catalogue import facts
    from rulings.engine.rulesets import rule_reads
    from rulings.incident import read_incident
    from rulings.yamlsrc import Located
    doc = incident.source
    data = doc.data if doc is not None else None
    proc = data.get("procedure") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(proc, dict):
        return []
    out = []
    for name, fact in facts().items():
        parts = (fact.source or "").split(".")
        if fact.kind != "input" or len(parts) != 3 or parts[0] != "procedure":
            continue
        section = proc.get(parts[1])
        if not isinstance(section, dict) or parts[2] in section:
            continue
        readers = list(_readers(book).get(name, ()))
        if fact.type not in ("bool", "enum"):   # answers not tried: a rule must read what the section gives too
            given = {n for n, g in facts().items() if g.source and g.source.startswith(f"procedure.{parts[1]}.")
                     and g.source.split(".")[-1] in section}
            readers = [rid for rid in readers if rule_reads(book.rules[rid]) & given]
        if not readers:
            continue
        lines = []
        outcomes: set = set()    # what each answer rules: a question whose answers all rule alike is not asked
        if fact.type in ("bool", "enum"):
            for value in ((True, False) if fact.type == "bool" else fact.values):
                tried = {**data, "procedure": {**proc, parts[1]: {**section, parts[2]: value}}}
                try:
                    quick = answered(incident, parts[1], parts[2], value) if may_rule is not None else None
                    if may_rule is not None and quick is not None and not may_rule(quick):
                        outcomes.add(())
                        continue   # no rule giving a ruling can fire: the answer brings none
                    one = read_incident(Located(doc.file, tried, doc.marks), book)
                    if may_rule is not None and quick is None and not may_rule(one):
                        outcomes.add(())
                        continue
                    got = _trial(rule, one)
                except (ProblemsError, BettingError):
                    continue
                outcomes.add(ruled_as(got) if got.rulings else ())
                if got.rulings:
                    word = ("yes" if value else "no") if fact.type == "bool" else str(value)
                    lines.append(f"if {word}: " + " ".join(r.sentence for r in got.rulings[:1]))
            if not lines or len(outcomes) < 2:
                continue
        out.append({"fact": name, "question": fact.question, "asked_by": readers[0], "rules": readers,
                    "field": fact.source, "type": fact.type,
                    "why": f"no rule decides this {parts[1]} question without it ({', '.join(readers[:3])} read it)",
                    "under_each": lines})
    return out


def ruled_as(report: Any) -> tuple:
    """What a report rules, as two answers to a question are told apart: on each matter, the numbers of the
    ruling in force (its name where it has none), and the open conflicts. Two routes to the same raise to
    $40 rule alike; a ruling on another matter, or other numbers, do not."""
    return (tuple(sorted((r.decides, tuple(sorted((k, str(v)) for k, v in r.effects.items())) or r.ruling)
                         for r in report.rulings)), tuple(tuple(c) for c in report.conflicts))


def _written(data: dict, path: tuple, value: Any) -> dict | None:
    """The incident data with ``value`` written at ``path`` (the mappings on the path copied, the rest
    shared); None when a mapping on the path is not there (the answer needs another field first)."""
    out = dict(data)
    node: Any = out
    for p in path[:-1]:
        inner = node.get(p)
        if not isinstance(inner, dict):
            return None
        node[p] = node = dict(inner)
    node[path[-1]] = value
    return out


def idle_question(incident: Any, report: Any, book: Any, rule: Callable[[Any], Any], question: dict) -> Any:
    """Whether a question a rule asked can change the ruling, for a fact the floor answers with one value (an
    input flag or choice written at one field): each answer the reader takes is read from the incident's own
    text with that field set and ruled on as a trial. None when two answers rule differently (``ruled_as``):
    the question stands. True when every answer rules as the report does without it: the question is not
    asked. Else every answer rules alike, though not as the report without it: the incident read with the
    first answer, to rule on instead (the ruling is the same whatever the floor answers). An incident ruled
    act by act, one without its text, or a fact some answer of which needs another field first keeps its
    question (None)."""
    from rulings.incident import read_incident
    from rulings.rulebook.catalogue import facts
    from rulings.yamlsrc import Located
    fact = facts().get(question.get("fact") or "")
    doc = incident.source
    if fact is None or fact.kind != "input" or fact.type not in ("bool", "enum") or not fact.source \
            or "[" in fact.source or doc is None or not isinstance(doc.data, dict) or len(incident.acts) > 1:
        return None
    path = tuple(fact.source.split("."))
    rulings: set[tuple] = set()
    first = None
    for value in ((True, False) if fact.type == "bool" else fact.values):
        data = _written(doc.data, path, value)
        if data is None:
            return None
        try:
            one = read_incident(Located(doc.file, data, doc.marks), book)
            got = _trial(rule, one)
        except (ProblemsError, BettingError):
            continue   # not an answer the reader takes here
        rulings.add(ruled_as(got))
        if len(rulings) > 1:
            return None
        first = first or one
    if first is None:
        return None
    return True if rulings == {ruled_as(report)} else first
