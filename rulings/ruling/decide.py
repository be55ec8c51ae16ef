"""From the rules that fired to a report: the rulings in force, the ones overridden, derived facts, open questions.

One decision per matter (rulings/ruling/matters.yaml): of the rulings that fire on a
matter, one stays in force and every other is listed as overridden with the
reason. The order of precedence, first that applies:

1. a declared exception (``exception_to``, directly or through a chain) beats its rule;
2. a ruling that undoes the act (``voids`` in matters.yaml) beats every ruling on the wager;
3. a ruling built on another (the other is in its chain) beats it: it read what the other decided;
4. a ruling on the matter itself beats one on a narrower matter ``within`` it;
5. the ruling with more conditions and a longer chain (the narrower case) beats the broader one;
6. two equally specific rulings that answer differently: the first in the book stays in force, the
   other is overridden, and the floor is asked to choose between them.

Rulings run in two strata. The first reads the act (words, chips, both, one
chip, several) and decides the wager; the wager in force is then handed to
the second stratum as the fact ``decided_to``, which the structure's checks
(pot-limit maximum, the stack, limit sizes, the minimum raise) read whatever
route decided it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any


from rulings.betting import BettingError
from rulings.rulebook.catalogue import by_fit, citations, facts
from rulings.ruling.matters import matters
from rulings.problems import ProblemsError
from rulings.engine.rulesets import Engine, Fired, Memo, field_name, rule_reads
from rulings.incident import Incident, each_act, each_request, ensure_checked
from rulings.betting.arithmetic import position
from rulings.incident.checks import betting_params, incident_overrides
from rulings.rulebook.expressions import names_in
from rulings.money import show
from rulings.facts.round import SPLIT_FACTS, said_straddle_act, straddle_post_act, without_straddles
from rulings.facts.said import straddle_words
from rulings.rulebook.model import Discretion, ParamValues, Rulebook, per_book
from rulings.facts.situation import build
from rulings.facts.wagers import DECIDED, decided_facts, given_facts

OUTCOMES = ("ruled", "questions", "not_covered")


@dataclass
class Ruling:
    rule: str
    ruling: str
    decides: str
    title: str
    sentence: str
    text: str
    effects: dict[str, Any]
    discretion: Discretion | None
    convention: str | None
    cites: list[str]
    origin: str
    chain: list[str]
    house: str | None = None
    modifies: str | None = None
    overridden_by: str | None = None
    reason: str | None = None
    # citations of the rules in the chain that only worked out a fact this ruling read (a derive, no ruling of
    # their own), after the ruling's own: (key, rule id), in chain order
    derived_cites: list[tuple[str, str]] = field(default_factory=list)
    # what the house book says of the room's own keys this ruling cites (its `citations:`): key -> text
    house_cites: dict[str, str] = field(default_factory=dict)
    # the numbers the floor needs to act on it and their sentences (rulings/ruling/panel.py, numbers.yaml)
    numbers: dict[str, Any] = field(default_factory=dict)
    say: list[str] = field(default_factory=list)


@dataclass
class Report:
    incident: str
    book: str
    setting: str
    rulings: list[Ruling] = field(default_factory=list)
    overridden: list[Ruling] = field(default_factory=list)
    conflicts: list[list[str]] = field(default_factory=list)
    derived: list[dict] = field(default_factory=list)
    questions: list[dict] = field(default_factory=list)
    facts: dict[str, Any] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    trace: list[str] = field(default_factory=list)
    problems: list[dict] = field(default_factory=list)   # rules that failed: {"rule", "problem"}
    outcome: str = "ruled"
    not_considered: list[str] = field(default_factory=list)
    not_covered: list[str] = field(default_factory=list)
    given: dict[str, Any] = field(default_factory=dict)
    now: list[str] = field(default_factory=list)
    next: dict[str, Any] | None = None   # the seat to act after the ruling and his options (rulings/ruling/now.py)
    more_acts: list[Report] = field(default_factory=list)   # the incident's other disputed acts, in hand order

    def final(self, name: str) -> Ruling | None:
        return next((r for r in self.rulings if r.ruling == name), None)


@lru_cache(maxsize=4096)   # matters.yaml is read once per process (``matters``): so is each matter's group
def group_of(decides: str) -> str:
    """The matter a ruling is resolved under: its own, or the broader one it lies ``within``."""
    spec = matters()[0]
    seen = set()
    while (spec.get(decides) or {}).get("within") and decides not in seen:
        seen.add(decides)
        decides = spec[decides]["within"]
    return decides


def _exception_chain(book: Rulebook, rid: str) -> list[str]:
    """The rules ``rid`` is an exception to: the one it names, the one that names, and so on."""
    out: list[str] = []
    seen = set()
    rule = book.rules.get(rid)
    while rule and rule.exception_to and rule.id not in seen:
        seen.add(rule.id)
        out.append(rule.exception_to)
        rule = book.rules.get(rule.exception_to)
    return out


@lru_cache(maxsize=4096)   # as ``group_of``: a function of matters.yaml, read once per process
def _within(decides: str) -> tuple[str, ...]:
    """The matters ``decides`` lies within, the nearest first."""
    out: list[str] = []
    spec = matters()[0]
    seen = set()
    matter: str | None = decides
    while matter is not None and matter not in seen:
        seen.add(matter)
        matter = (spec.get(matter) or {}).get("within")
        if matter is not None:
            out.append(matter)
    return tuple(out)


def _derived_cites(book: Rulebook, rule_id: str, chain: list[str], own: list[str],
                   grounds: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """The citations of the rules in a ruling's chain that only derived a fact (they decide nothing themselves,
    but the ruling stands on what they worked out), each key once and never one the ruling cites itself.
    ``grounds``: rules of the chain that derived a fact and gave a ruling of their own, which this ruling
    built on and replaced (TDA 40-A's "the chips came first, read them as silent chips", replaced by the
    reading of the chips): the ruling stands on what they worked out, so they are cited the same way."""
    out: list[tuple[str, str]] = []
    seen = set(own)
    for rid in chain:
        rule = book.rules.get(rid)
        if rid == rule_id or rule is None or not rule.then.derive or (rule.then.ruling and rid not in grounds):
            continue
        for key in rule.cites:
            if key not in seen:
                seen.add(key)
                out.append((key, rid))
    return out


def _make(f: Fired, book: Rulebook, parts: dict[str, tuple]) -> Ruling:
    """The ruling a fired rule gives. ``parts``: what each rule's rulings share (its words, citations, place),
    kept per book by ``resolve`` and checked to be this very rule's."""
    r = f.rule
    got = parts.get(r.id)
    if got is None or got[0] is not r:
        then = r.then
        got = parts[r.id] = (r, then.ruling or "", then.decides or "", r.title, r.text, then.discretion,
                             then.convention, tuple(r.cites), str(r.origin), r.house, r.modifies)
    _, ruling, decides, title, text, discretion, convention, cites, origin, house, modifies = got
    chain = list(f.chain)
    out = Ruling(r.id, ruling, decides, title, f.sentence or title, text, dict(f.effects), discretion, convention,
                 list(cites), origin, chain, house, modifies)
    if len(chain) > 1:   # a chain of the rule alone has no other rule to cite
        out.derived_cites = _derived_cites(book, r.id, chain, out.cites)
    return out


def _cite_for_game(rulings: list[Ruling], facts: dict[str, Any], book: Rulebook) -> None:
    """Each ruling's own citations in the order it cites them for this game (the first is the one it is
    quoted by): the sources written for the game's structure, variant and setting first, then those its
    setting adopts beside its own source, then the rest (``applies:`` in rulings/citations.yaml), each
    group in the rule's order. The citations of the rules its chain stood on stay after them."""
    game = facts.get("structure"), facts.get("variant"), facts.get("setting")
    described = book.citations
    for r in rulings:
        r.cites = by_fit(r.cites, *game)
        if described:
            r.house_cites = {k: described[k] for k in [*r.cites, *(k for k, _ in r.derived_cites)] if k in described}


def _changes(later: Ruling, base: Ruling) -> bool:
    """Whether a ruling built on another changes its answer (a check that confirms it changes nothing)."""
    return (later.ruling, later.effects.get("wager_to")) != (base.ruling, base.effects.get("wager_to"))


def _answer(r: Ruling) -> tuple:
    return r.ruling, tuple(sorted((k, str(v)) for k, v in r.effects.items()))


def _condition_counts(book: Rulebook) -> dict[str, int]:
    """Each rule's condition count (``Rule.condition_count``), filled in as rules are weighed, once per book."""
    return per_book(book, "condition counts", dict)


def _condition_count(counts: dict[str, int], rule: Any) -> int:
    """A rule's condition count, from ``counts`` (``_condition_counts``) or counted and kept there."""
    n = counts.get(rule.id)
    if n is None:
        n = counts[rule.id] = rule.condition_count()
    return n


def _book_order(book: Rulebook) -> dict[str, int]:
    """Each rule's place in the book."""
    order = per_book(book, "order", lambda: {rid: i for i, rid in enumerate(book.rules)})
    return order if len(order) == len(book.rules) else {rid: i for i, rid in enumerate(book.rules)}


def param_values(book: Rulebook, setting: str, overrides: dict[str, Any]) -> ParamValues:
    """``book.param_values``, the defaults worked out once per book and setting (a copy each time)."""
    if overrides:
        return book.param_values(setting, overrides)
    base = per_book(book, "params:" + setting, lambda: book.param_values(setting))
    out = ParamValues(base)
    out.arithmetic = dict(base.arithmetic)
    return out


def resolve(book: Rulebook, fired: list[Fired], settled: dict[str, tuple[str | None, str | None]] | None = None
            ) -> tuple[list[Ruling], list[Ruling], list[list[str]]]:
    """Pick one ruling in force per matter; every other is overridden, with the reason.

    ``settled`` holds the rulings the first stratum already overrode (rule id: winner, reason): they
    stay overridden when the second stratum replaces the ruling that beat them.

    Time is linear in the rulings that fire and the length of their chains: each test below looks only
    at the rulings that can beat a given one (those whose chain holds it, those in its own chain, its
    exceptions, the broader matters above it), found through indexes built once per matter, never by
    comparing every pair.
    """
    order = _book_order(book)
    voids = matters()[1]
    parts = per_book(book, "ruling parts", dict)
    items = [(_make(f, book, parts), f) for f in fired if f.rule.then.ruling]
    overridden: list[Ruling] = []
    conflicts: list[list[str]] = []
    if settled:
        for r, _ in items:
            if r.rule in settled:
                r.overridden_by, r.reason = settled[r.rule]
                overridden.append(r)
        items = [i for i in items if i[0].rule not in settled]
    chains = [frozenset(r.chain) for r, _ in items]
    of_rule: dict[str, list[int]] = {}
    for i, (r, _) in enumerate(items):
        of_rule.setdefault(r.rule, []).append(i)

    counts = _condition_counts(book)

    def own(i: int) -> tuple:
        r, f = items[i]
        n = _condition_count(counts, f.rule)
        return (n + len(r.chain), n, bool(r.house), -order.get(r.rule, 0))

    owns = [own(i) for i in range(len(items))]
    # a ruling built on others is at least as specific as any of them (it takes their place)
    weights = [owns[i] if len(chains[i]) == 1 and len(of_rule[items[i][0].rule]) == 1 else   # a rule alone
               max([owns[i]] + [owns[j] for rid in chains[i] for j in of_rule.get(rid, ())
                                if j != i and items[i][0].rule not in chains[j]])
               for i in range(len(items))]

    def beat(loser: Ruling, winner: Ruling, reason: str) -> None:
        loser.overridden_by, loser.reason = winner.rule, reason
        overridden.append(loser)

    groups: dict[str, list[int]] = {}
    for i, (r, _) in enumerate(items):
        groups.setdefault(group_of(r.decides), []).append(i)
    def settle(matter: str, alive: list[int]) -> list[int]:
        """The one ruling in force on ``matter`` (or more, where nothing tells them apart)."""

        def keep(candidates, test, why) -> None:
            """Each ruling beaten by the first one before it in ``alive`` that passes ``test``."""
            nonlocal alive
            place = {o: k for k, o in enumerate(alive)}
            out = []
            for i in alive:
                them = candidates(i)   # most rulings have none: nothing to weigh
                by = min((o for o in them if o != i and o in place and test(items[o][0], items[i][0])),
                         key=place.__getitem__, default=None) if them else None
                if by is None:
                    out.append(i)
                else:
                    beat(items[i][0], items[by][0], why(items[by][0], items[i][0]))
            alive = out or alive

        def indexed(keys_of) -> dict[str, list[int]]:
            """The rulings alive, by each key ``keys_of`` gives them (in the order they stand in ``alive``)."""
            out: dict[str, list[int]] = {}
            for o in alive:
                for k in keys_of(o):
                    out.setdefault(k, []).append(o)
            return out

        # what a stage below needs before it can beat anything: an exception, a chain beyond the rule itself
        # (or one rule fired twice), a matter within another; where nothing alive has it, the stage is skipped
        # (it would keep every ruling)
        rules = book.rules
        if any(getattr(rules.get(items[o][0].rule), "exception_to", None) for o in alive):
            excepting = indexed(lambda o: _exception_chain(book, items[o][0].rule))
            keep(lambda i: excepting.get(items[i][0].rule, ()), lambda w, lo: True,
                 lambda w, lo: f"{w.rule} is a declared exception to it")
        voiding = [o for o in alive if items[o][0].ruling in voids and matter in voids[items[o][0].ruling]][:2]
        if voiding:
            keep(lambda i: voiding, lambda w, lo: lo.ruling not in voids,
                 lambda w, lo: f"{w.rule} undoes the act ({w.ruling}), so there is no wager to decide")
        # a ruling's chain only ever holds its own rule: no ruling builds on or checked another one alive
        if any(len(chains[o]) > 1 for o in alive) or len({items[o][0].rule for o in alive}) < len(alive):
            holding = indexed(lambda o: chains[o])
            keep(lambda i: holding.get(items[i][0].rule, ()),
                 lambda w, lo: w.rule not in lo.chain and _changes(w, lo),
                 lambda w, lo: f"{w.rule} builds on it and decides the {matter} in its place")
            named = indexed(lambda o: (items[o][0].rule,))
            keep(lambda i: [o for rid in chains[i] for o in named.get(rid, ()) if o != i],
                 lambda w, lo: lo.rule not in w.chain,
                 lambda w, lo: f"it checked {w.rule} and gives the same answer")
        if any(_within(items[o][0].decides) for o in alive):
            deciding = {k: v[:2] for k, v in indexed(lambda o: (items[o][0].decides,)).items()}
            keep(lambda i: [o for m in _within(items[i][0].decides) for o in deciding.get(m, ())],
                 lambda w, lo: True,
                 lambda w, lo: f"{w.rule} decides the {w.decides}, which settles the {lo.decides} too")
        if len(alive) > 1:
            alive = sorted(alive, key=weights.__getitem__, reverse=True)
            top = alive[0]
            t = items[top][0]
            answer = _answer(t)
            for i in alive[1:]:
                r = items[i][0]
                if weights[i][:2] < weights[top][:2]:
                    beat(r, t, f"{t.rule} applies to a narrower case")
                elif r.ruling == t.ruling and _answer(r) == answer:   # the answer names the ruling first
                    beat(r, t, f"{t.rule} gives the same answer")
                else:
                    beat(r, t, f"{t.rule} is as specific and answers differently; the floor must choose between them")
                    conflicts.append([t.rule, r.rule])
            alive = [top]
        return alive

    final: list[int] = []
    for matter, alive in groups.items():
        final += alive if len(alive) == 1 else settle(matter, alive)   # a ruling alone has nothing to weigh
    # voided matters: a ruling that undoes the act leaves nothing to rule on the wager
    for i in [i for i in final if items[i][0].ruling in voids]:
        r = items[i][0]
        for m in voids[r.ruling]:
            for j in [j for j in final if j != i and group_of(items[j][0].decides) == m]:
                final.remove(j)
                beat(items[j][0], r, f"{r.rule} undoes the act ({r.ruling}), so there is no wager to decide")
    final.sort(key=weights.__getitem__, reverse=True)   # the most specific ruling first: the one the floor was called over
    # grounds come from the reading of the act (the first stratum): a check of the decided wager builds on
    # the wager it checks by construction (its chain starts from it) and does not stand on its derivation
    beaten: dict[str, str | None] = {r: w for r, (w, _) in settled.items()} if settled is not None else \
        {o.rule: o.overridden_by for o in overridden if o.overridden_by}
    _grounds(book, [items[i][0] for i in final], beaten)
    return [items[i][0] for i in final], overridden, conflicts


def _grounds(book: Rulebook, final: list[Ruling], beaten: dict[str, str | None]) -> None:
    """A ruling in force that replaced a ruling of its own chain while the act was read (it read what that
    rule derived and decides in its place) cites that rule after its own, through it, like a rule that only
    derived a fact. ``beaten``: each overridden rule and the rule that beat it."""
    for r in final:
        if len(r.chain) < 2:   # the rule alone: nothing it replaced
            continue
        grounds = frozenset(rid for rid in r.chain if rid != r.rule and beaten.get(rid) == r.rule)
        if grounds:
            r.derived_cites = _derived_cites(book, r.rule, r.chain, r.cites, grounds)


def _complete_change(final: list[Ruling], f: dict[str, Any]) -> None:
    """The change, where a wager ruling does not give it: chips put out above the wager go back, chips short
    of it are owed. Arithmetic on the ruling's own wager, never a different wager."""
    if "chips_to" not in f or f.get("prior_chips_total"):
        return
    for r in final:
        to = r.effects.get("wager_to")
        if r.decides != "wager" or not isinstance(to, int) or "returned" in r.effects or "owed" in r.effects:
            continue
        if f["chips_to"] > to:
            r.effects["returned"] = f["chips_to"] - to
        elif f["chips_to"] < to:
            r.effects["owed"] = to - f["chips_to"]


def _call_totals(final: list[Ruling], f: dict[str, Any]) -> None:
    """A ruling that gives the disputed seat's call as what he adds (``to_call``) while he already has chips in
    this street also gives the total the floor announces, ``call_to`` ("call $10 more, to $30"): arithmetic on the
    ruling's own call, never a different one."""
    if not f.get("committed") or "call_to" not in f:
        return
    for r in final:
        call = r.effects.get("to_call")
        if call == f.get("to_call") and isinstance(call, int) and call > 0 and "call_to" not in r.effects:
            r.effects["call_to"] = f["call_to"]


def _all_in_for_less(final: list[Ruling], f: dict[str, Any], setting: str) -> None:
    """A wager ruled with the seat's stack not given: where the chips it asks for are more than the chips he
    is seen to have put out, his stack could make it all in for less, and the ruling says so with its amount
    (the arithmetic of table stakes; the rule that sized the wager is unchanged)."""
    if f.get("stack") is not None or "committed" not in f:
        return
    for r in final:
        to = r.effects.get("wager_to")
        if r.decides != "wager" or not isinstance(to, int) or to.__class__ is bool:
            continue
        more = to - f["committed"] - (f.get("chips_total") or 0)
        if more > 0 and "all in for less" not in r.sentence:
            r.sentence = (f"{r.sentence.rstrip()} His stack is not given: the wager is {show(to, setting)} in "
                          f"all, or all in for less if he has less than {show(to - f['committed'], setting)} behind.")


def incident_params(book: Rulebook, incident: Incident) -> dict[str, Any]:
    """The incident's own parameter values (what-if overrides), checked against the book (the reader's check)."""
    out, problems = incident_overrides(book, incident)
    if problems:
        raise ProblemsError(problems)
    return out


def _second_stratum(fired: list[Fired], base: Ruling, engine: Engine) -> None:
    """Chains of the structure checks start from the ruling whose wager they checked."""
    readers = {f.rule.id for f in fired if DECIDED in engine.condition_reads(f.rule)}
    for f in fired:
        if readers & set(f.chain):
            f.chain[:] = base.chain + [r for r in f.chain if r not in base.chain]


REFUSED_STRADDLE = "straddle_refused_seat"   # derived by the straddle rules that send a straddle back


def _after_refused_straddle(incident: Incident, situation: Any, run: Any, params: ParamValues,
                            engine: Engine) -> tuple[Incident, Any, Any, list[Fired]]:
    """When the book sent a straddle back (a rule derived ``straddle_refused_seat``) and the act in
    dispute is another player's, that act is read against the betting without the straddle: the facts
    are built again from the hand with the straddle taken back, and the refusal is kept beside the new
    run's rulings (one decision per matter: never a wager sized by a straddle that does not play);
    the refusals carried over are returned too, for the second stratum's run. When the hand cannot be
    replayed without the straddle, only the refusal stays in force and the report asks."""
    refusals = [f for f in run.fired if REFUSED_STRADDLE in f.derived]
    if not refusals or incident.disputed is None or situation.facts.get("straddle_post_disputed"):
        return incident, situation, run, []
    bare = without_straddles(incident, refusals[0].derived[REFUSED_STRADDLE])
    if bare is None:
        return incident, situation, run, []
    try:
        again = build(bare, params)
    except BettingError:
        situation.questions.append({"fact": None, "asked_by": refusals[0].rule.id, "question":
                                    "The straddle goes back, and the actions after it do not replay on the "
                                    "blinds alone: what did each player mean to do, facing the blinds?"})
        run.fired[:] = refusals   # nothing read against the straddle stands beside its refusal
        return incident, situation, run, []
    rerun = engine.run(again.facts, params, Memo())
    carried = [f for f in refusals if f.rule.id not in {g.rule.id for g in rerun.fired}]
    rerun.fired[:0] = carried
    rerun.failures[:0] = [f for f in run.failures if f not in rerun.failures]
    return bare, again, rerun, carried


def _said_straddle(incident: Incident, params: ParamValues) -> Incident | None:
    """The act as the straddle post its words declare ("straddle", "straddle fifty"), when the hand replays
    with that post (rulings/facts/round.py ``said_straddle_act``); None otherwise, and the words are asked about."""
    words = straddle_words(incident, params)
    posted = None if words is None else said_straddle_act(incident, words.amount)
    if posted is None:
        return None
    try:
        position(posted.hand, betting_params(params))
    except BettingError:
        return None
    return posted


def rule_on(incident: Incident, book: Rulebook, engine: Engine,
            prepared: tuple[Incident, ParamValues, Any] | None = None) -> Report:
    """Rule on one incident with a compiled book: read the act, then check the wager it decided.

    With several disputed acts every act is ruled on, in hand order, each seen at its own point of the
    hand and named after it (``each_act``): the first act's report carries the others' in ``more_acts``.
    Several requests to see hands at a showdown (``procedure.showdown.requests``) likewise: one report each.
    ``prepared``: what ``_prepared`` gave for this very incident and book (a consultation's trial answer
    prepared to be told alike, then ruled), not worked out again.
    """
    from rulings.facts.strength import one_ruling
    with one_ruling():     # the same tabled cards ranked once in this ruling, its acts and its trial answers
        return _rule_on(incident, book, engine, prepared)


def _prepared(incident: Incident, book: Rulebook) -> tuple[Incident, ParamValues, Any]:
    """The incident as ruled (checked under the book's parameter values, a straddle's post read), the
    parameter values and the situation: what the engine's first run is given."""
    params = param_values(book, incident.hand.game.setting, incident_params(book, incident))
    incident = ensure_checked(incident, params)   # read under other parameter values (another book): checked again
    incident = straddle_post_act(incident) or _said_straddle(incident, params) or incident
    return incident, params, build(incident, params)


def ruled_apart(incident: Incident) -> bool:
    """Whether ``rule_on`` rules the incident act by act or request by request (``each_act``, ``each_request``):
    then no answer or trial of it is told from its facts alone."""
    return (len(incident.acts) > 1 and not incident.focused) or each_request(incident)[0] is not incident


def not_told_alike(book: Rulebook, report: Report) -> bool:
    """Whether a report's trials cannot be told alike against it: a straddle was sent back (the facts were built
    again) or a rule fired that the book does not hold."""
    rules = book.rules
    return any(rid not in rules or any(k == REFUSED_STRADDLE for k, _ in rules[rid].then.derive)
               for rid in report.trace)


def _may_rule(incident: Incident, book: Rulebook, before: Report) -> bool:
    """Whether ruling on ``incident``, an answer to a procedure question ``before`` asks, could give a ruling:
    False only when its facts are built and none can (rulings/ruling/unknowns.py ``answer_may_rule``), or it is
    refused as ``rule_on`` would refuse it (ruled on, it gives no ruling either)."""
    from rulings.ruling.unknowns import answer_may_rule
    if ruled_apart(incident):
        return True   # ruled act by act, request by request: not told here
    try:
        _, params, situation = _prepared(incident, book)
    except (ProblemsError, BettingError):
        return False
    return answer_may_rule(book, before, situation.facts, params)


def _alike_to(book: Rulebook, report: Report, params: ParamValues, facts: dict[str, Any], undecided: bool,
              fired: frozenset[str] | None = None):
    """For the trials of an amount the floor did not give (the blinds): whether a trial incident surely rules
    as ``report`` does, from its facts alone (``unknowns.answer_rules_alike`` against ``facts``, the first
    run's, under the same parameter values, nothing read beside the rules changed: the proof the consultation's
    answers are told alike by). None when the report is not told here (a straddle sent back rebuilds the
    facts; a rule not in the book): every trial is then ruled in full. A trial ruled act by act or request
    by request, or refused, is never told alike. ``fired``: every rule that fired in the report's runs (the
    first and the second stratum's), when known."""
    from rulings.ruling.unknowns import TAIL, answer_rules_alike
    if not_told_alike(book, report):
        return None

    def alike(trial: Incident) -> bool:
        if ruled_apart(trial):
            return False
        try:
            _, trial_params, situation = _prepared(trial, book)
        except (ProblemsError, BettingError):
            return False
        return trial_params == params and answer_rules_alike(book, facts, situation.facts, params, TAIL, undecided,
                                                             kept, fired)
    kept: dict = {}   # what the proof finds once for all the trials of this report
    return alike


def _rule_on(incident: Incident, book: Rulebook, engine: Engine,
             prepared: tuple[Incident, ParamValues, Any] | None = None) -> Report:
    if len(incident.acts) > 1 and not incident.focused:
        first, *rest = [rule_on(one, book, engine) for one in each_act(incident)]
        first.more_acts = rest
        return first
    requests = each_request(incident)   # several requests to see hands: each is ruled on by itself
    if len(requests) > 1 or requests[0] is not incident:
        first, *rest = [rule_on(one, book, engine) for one in requests]
        first.more_acts = rest
        return first
    setting = incident.hand.game.setting
    incident, params, situation = prepared or _prepared(incident, book)
    first_facts = situation.facts   # what the first run is given: a blinds trial is told alike against it
    memo = Memo()   # the second stratum does again only what the decided wager changes
    run = engine.run(situation.facts, params, memo)
    first_fired = [f.rule.id for f in run.fired]   # a rule fired here and not in the second stratum still counts
    # a straddle sent back (the facts are built again without it): the pot's trials are not skipped
    refused = incident.pot_unknown and any(REFUSED_STRADDLE in f.derived for f in run.fired)
    incident, situation, run, carried = _after_refused_straddle(incident, situation, run, params, engine)
    failures = list(run.failures)
    final, overridden, conflicts = resolve(book, run.fired)
    wager = next((r for r in final if r.decides == "wager" and "wager_to" in r.effects), None)
    facts_used = dict(situation.facts)
    undecided = not (wager is not None and isinstance(wager.effects["wager_to"], int))   # no second stratum
    if wager is not None and not undecided:
        facts_used.update(decided_facts(incident, situation.facts, wager))
        run = engine.run(facts_used, params, memo)
        run.fired[:0] = carried   # a straddle sent back stays sent back
        failures += [f for f in run.failures if f not in failures]
        _second_stratum(run.fired, wager, engine)
        settled = {r.rule: (r.overridden_by, r.reason) for r in overridden}
        final, overridden, conflicts = resolve(book, run.fired, settled)
    _complete_change(final, facts_used)
    _call_totals(final, facts_used)
    _all_in_for_less(final, facts_used, setting)
    report = Report(incident.name, book.name, setting, final, overridden, conflicts,
                    facts=facts_used, params=params, trace=[f.rule.id for f in run.fired],
                    problems=[{"rule": rid, "problem": msg} for rid, msg in failures])
    _cite_for_game(final + overridden, facts_used, book)
    from rulings.ruling.unknowns import pot_may_matter, pot_question, probing
    trial = probing()   # a trial's report is read for its rulings alone (rulings/ruling/unknowns.py ``_trial``)
    if not trial:
        for f in run.fired:
            for key, value in f.derived.items():
                report.derived.append({"fact": key, "value": value, "by": f.rule.id, "chain": list(f.chain)})
    cat = facts()
    in_force = {r.rule for r in final}
    asked: list[dict] = []
    for f in sorted(run.fired, key=lambda f: f.rule.id not in in_force):
        for name in f.rule.then.ask:
            if name not in situation.facts and not any(q["fact"] == name for q in asked):
                asked.append({"fact": name, "question": cat[name].question, "asked_by": f.rule.id})
    if asked and not trial:   # a question only when its answer changes the ruling
        from rulings.ruling.unknowns import idle_question
        kept = []
        for question in asked:
            idle = idle_question(incident, report, book, lambda one: rule_on(one, book, engine), question)
            if idle is None:
                kept.append(question)
            elif idle is not True:   # every answer rules alike: that is the ruling, whatever the floor answers
                return _alike_under_every_answer(rule_on(idle, book, engine), incident, question["fact"])
        asked = kept
    report.questions = asked + list(situation.questions)
    for group in conflicts:
        report.questions.append({"fact": None, "asked_by": ", ".join(group),
                                 "question": "These rules give different answers to the same question and "
                                             "neither is an exception to the other; the floor must choose: "
                                             + " or ".join(group) + "."})
    report.given = given_facts(incident)
    if not trial:   # what the floor told that no rule read, and WHAT HAPPENS NOW: shown only on a report
        report.not_considered = not_considered(book, report, engine)
    from rulings.ruling.now import lead, now   # they read the report this module builds
    led = lead(incident, report.rulings, _told(book, incident, report.given, report.facts))   # the dispute's own matter first
    if not trial:
        report.now = now(incident, report, led[0] if led else None)   # reads the most specific too: resolve's first
    report.rulings = led
    if not trial:   # the numbers the floor needs to act on each ruling, where the facts give them
        from rulings.ruling.panel import lay
        report.now += [line for line in lay(incident, report) if line not in report.now]
    # a later street's pot not given: asked where some pot changes the ruling, and tried only where one could
    if incident.pot_unknown and not trial and \
            (refused or pot_may_matter(book, facts_used, params, situation.pot_facts)):
        own = frozenset(group_of(r.decides) for r in report.rulings[:1])
        q = pot_question(incident, report, lambda one: rule_on(one, book, engine), group_of, own)
        if q is not None:
            report.questions.append(q)
    if incident.blinds_unknown and not trial:   # a big-bet game told without blinds: asked where they change it
        from rulings.ruling.unknowns import blind_question
        own = frozenset(group_of(r.decides) for r in report.rulings[:1])
        q = blind_question(incident, report, lambda one: rule_on(one, book, engine), group_of, own,
                           _alike_to(book, report, params, first_facts, undecided,
                                     frozenset(first_fired) | frozenset(report.trace)))
        if q is not None:
            report.questions.append(q)
    if not report.rulings and not report.questions and incident.procedure is not None and not incident.focused \
            and not trial:
        from rulings.ruling.unknowns import procedure_questions   # no rule matches: ask the catalogue's questions
        report.questions = procedure_questions(incident, book, lambda one: rule_on(one, book, engine),
                                               lambda one: _may_rule(one, book, report))
    if report.questions:
        report.outcome = "questions"
    elif not report.rulings:
        report.outcome = "not_covered"
        report.not_covered = uncovered(incident, report)
    return report


def _alike_under_every_answer(report: Report, incident: Incident, fact: str) -> Report:
    """The report ruled with one answer to a question every answer of which rules alike, shown as the
    incident's own: the answer was never given, so it is not among the facts, nor among what the floor told
    (and no rule weighed)."""
    report.facts.pop(fact, None)
    report.given = given_facts(incident)
    report.not_considered = [n for n in report.not_considered if n != fact]
    return report


ACT = ("said", "chips")   # the disputed act itself: every ruling on it reads them


def _told(book: Rulebook, incident: Incident, given: dict[str, tuple[str, ...]], facts: dict[str, Any] | None = None):
    """For each rule, how many of the particulars the floor gave about the dispute (beyond the act's own words
    and chips: who pointed it out, what happened after, a request, the buy-in, an act made out of turn, words
    that make a condition) its own conditions read."""
    told = [set(facts_of) for name, facts_of in given.items() if name not in ACT]
    facts = facts or {}
    if facts.get("in_turn") is False:   # the actions told put another seat due: the act came out of turn
        told.append({"in_turn"})
    if facts.get("said_conditional") is True:   # words that make the action hang on another's ("if you bet...")
        told.append({"said_conditional"})
    d = incident.disputed
    told += [{name} for name in ("buy_in", "side_deal", "cashed_out", "minutes_away")
             if d is not None and getattr(d, name) is not None]
    told += [{field_name("param." + (p.name if (p := book.parameter(name)) is not None else name))}
             for name in incident.params]   # the house setting named for it (by the book's name)
    if incident.split:
        told.append(set(SPLIT_FACTS))

    counts = _condition_counts(book)

    def weigh(rule_id: str) -> tuple[int, int]:
        rule = book.rules.get(rule_id)
        if rule is None:
            return 0, 0
        n = _condition_count(counts, rule)
        if not told:
            return 0, n
        reads = rule_reads(rule)
        return sum(1 for facts_of in told if facts_of & reads), n
    return weigh


def not_considered(book: Rulebook, report: Report, engine: Engine | None = None) -> list[str]:
    """Facts the user gave that no rule behind a ruling read (in force, or weighed and overridden); from the
    engine's compiled form when it is given (no expression parsed again)."""
    if not report.given:
        return []
    read: set[str] = set()
    left = {n for facts_of in report.given.values() for n in facts_of}   # given facts no rule seen yet read
    seen: set[str] = set()
    for r in report.rulings + report.overridden:
        if not left:   # every given fact is read: what is left to name is only what nothing could read
            break
        for rid in r.chain:
            if rid in seen:
                continue
            seen.add(rid)
            known = engine.considered(rid) if engine is not None else None
            if known is not None:
                read |= known
                continue
            rule = book.rules.get(rid)
            if rule is not None:
                read |= rule_reads(rule)
                for _, expr in rule.then.effects:   # what goes back is worked out from the chips put out
                    read |= names_in(str(expr))
        left = {n for n in left if n not in read}
    return [name for name, facts_of in report.given.items() if not (set(facts_of) & read)]


def uncovered(incident: Incident, report: Report) -> list[str]:
    """The parts of the incident no rule of the book decides, in the floor's words."""
    d = incident.disputed
    parts = []
    if d is not None:
        what = []
        if d.said is not None:
            what.append(f"said {d.said!r}")
        chips = [c for m in d.motions for c in m]
        if chips:
            what.append("put out chips totalling " + show(sum(chips), report.setting))
        act = ", ".join(what) or "no words or chips described"
        parts.append(f"the disputed act of seat {d.seat} ({act}): {matters()[0]['wager']['question']}")
    parts += [f"{name}: given, but no rule of this book applies to it here" for name in report.given
              if name not in ("said", "chips")]
    if not parts:
        parts.append("the incident describes no disputed act and no table history to rule on")
    return parts


def citation(key: str, house: dict[str, str] | None = None) -> dict:
    """A citation as a report gives it; a room's own key with what its house book says of it (``house``)."""
    c = citations().get(key)
    if c is None:   # a house's own rule number, described by its book (else only the number is known)
        return {"key": key, "source": "House rule", "section": (house or {}).get(key, key)}
    return {"key": key, "source": c.source, "section": c.section}
