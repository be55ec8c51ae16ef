"""The incident checks that need the hand replayed under the book's parameters, reported with the field checks.

The reader (rulings/incident/fields.py) reads every field; here the hand is
replayed with the betting arithmetic (rulings/betting/) under the parameter
values in force, so an action the betting does not allow (I106), a pot count
the actions do not make (I105), chips beyond a stack (I107), a kill the
limits do not allow (I120, I122, I123), a seat count below the seats dealt in
(I131) and a pot awarded to a seat not in it (I142) are found with every
other problem, in one run. The fact builders that follow never refuse.
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from rulings.betting import BettingError, Game, Hand, KillLimits, Params, SidePot, kill_limits, position, side_pots
from rulings.betting.model import Position
from rulings.betting.arithmetic import _walk
from rulings.betting.model import PARAM_NAMES
from rulings.betting.table import Table as Replay
from rulings.incident.model import Act, Incident, hand_at
from rulings.incident.reader import _dotted
from rulings.money import show
from rulings.problems import Problem, ProblemsError
from rulings.records import evolve
from rulings.rulebook.model import per_book


def betting_params(values: Any) -> Params:
    """The house parameters the arithmetic honours, from the book's values and its declarations.

    Which parameter supplies which attribute is the book's word (each
    declaration's ``arithmetic:``); a book that leaves one out is refused (R111, a book problem).
    """
    supplied = {attr: values[name] for name, attr in values.arithmetic.items() if name in values}
    try:
        key = tuple((k, v.__class__, v) for k, v in supplied.items())   # 1 and True are one key else
        made = _PARAMS.get(key)
    except TypeError:   # a value that cannot be a key: made afresh
        key, made = None, None
    if made is not None:
        return made
    missing = [f for f in PARAM_NAMES if f not in supplied]
    if missing:
        raise ProblemsError([Problem("<rulebook>", 0, 0, "R111",
                                     "no parameter of the book supplies the betting arithmetic's "
                                     + ", ".join(missing), hint="declare one with arithmetic: NAME")])
    made = Params(**supplied)
    if key is not None and len(_PARAMS) < 256:   # a handful of settings and what-ifs per process
        _PARAMS[key] = made
    return made


# Params is frozen: one per set of values serves every incident ruled under it (a batch line asked for it
# some four times: the reader's check, the situation, the dealer's next step)
_PARAMS: dict[tuple, Params] = {}


def kill_sizes(game: Game) -> dict[str, KillLimits | None]:
    """The full and half kill of a limit game's limits (None: that kill is not a whole amount)."""
    sizes: dict[str, KillLimits | None] = {}
    for size in ("full", "half"):
        try:
            sizes[size] = kill_limits(game, size)
        except BettingError:
            sizes[size] = None
    return sizes


def pots_now(table: Replay, told: tuple = ()) -> tuple[SidePot, ...]:
    """The main pot and side pots as they stand, in our reading of an incident that starts mid-hand.

    The money already in the middle when the street began (``pot``) is one pot
    contested by every player still in: a player who went all-in on an earlier
    street (no chips when this street began) contests it and nothing after it.
    This street's chips are cut into pots only at an all-in player's level: a
    player with chips behind may still call, so he contests every pot (at
    $1/$2, a raise to $6 and a call before the big blind acts is one pot, not a
    main pot and a side pot the big blind cannot win).
    """
    pots = list(side_pots(dict(table.total), set(table.folded), table.behind))
    if told and table.dead == sum(a for a, _ in told):
        # the pots told by amount with their seats (main pot first): this street's chips join the pot of the
        # same seats, or make a pot of their own above them
        alive = set(table.live_seats)
        out = [SidePot(a, tuple(sorted(s for s in in_it if s in alive))) for a, in_it in told]
        for p in pots:
            same = next((i for i, q in enumerate(out) if set(q.eligible) == set(p.eligible)), None)
            if same is None:
                out.append(p)
            else:
                out[same] = SidePot(out[same].amount + p.amount, out[same].eligible)
        return tuple(out)
    if table.dead:
        live = tuple(sorted(table.live_seats))
        if pots and pots[0].eligible == live:
            pots[0] = SidePot(pots[0].amount + table.dead, live)
        else:
            pots.insert(0, SidePot(table.dead, live))
    return tuple(pots)


def told_pots(incident: Incident) -> tuple:
    """The pots by amount with their seats, as the last street told by who was left gave them (or none)."""
    log = incident.log
    return log.told[-1].pots if log is not None and log.told else ()


def replayed(hand: Hand, params: Params) -> Replay | None:
    """The replay state after every action of ``hand``, or None when an action is refused."""
    table = None
    try:
        for _index, _action, table, _how, _quote in _walk(hand, params):
            pass
    except BettingError:
        return None
    return table


def _problem(incident: Incident, path: tuple, code: str, message: str, hint: str | None = None) -> Problem:
    return _problem_in(incident.source, path, code, message, hint)


def _problem_in(source: Any, path: tuple, code: str, message: str, hint: str | None = None,
                key: bool = False) -> Problem:
    text = f"{_dotted(path)}: {message}"
    if source is None:
        return Problem("<incident>", 0, 0, code, text, path, hint=hint)
    return source.problem(path, code, text, hint, key)


def params_key(values: Any) -> tuple:
    """What the checks depend on: the arithmetic's parameters and the kill size."""
    return (betting_params(values), values.get("kill.size"))


def incident_overrides(book: Any, incident: Incident) -> tuple[dict[str, Any], list[Problem]]:
    """The incident's own parameter values (what-if overrides), checked against the book (I104)."""
    return overrides_of(book, incident.params, incident.source)


def params_problems(params: dict[str, Any], house: str | None, book: Any, source: Any) -> list[Problem]:
    """The incident's parameter values checked on their own (I104), for an incident whose hand cannot be
    built (a wrong street, no game): they do not depend on it, and are named with every other problem."""
    if not params:
        return []
    if book is None:
        try:
            book = _book(house)
        except ProblemsError:
            return []     # no book to check under: a book problem, reported when the book is loaded to rule
    return overrides_of(book, params, source)[1]


def overrides_of(book: Any, params: dict[str, Any], source: Any) -> tuple[dict[str, Any], list[Problem]]:
    """Parameter values given in an incident (``params:``), checked against the book (I104)."""
    from rulings.rulebook.catalogue import did_you_mean
    out, problems = {}, []
    for name, value in params.items():
        p = book.parameter(name)   # the book's name, or another name rooms use for the setting (also_named:)
        if p is None:   # the name is wrong: the caret under it, and the nearest name
            close = did_you_mean(name, book.parameters)
            problems.append(_problem_in(source, ("params", name), "I104", f"unknown parameter '{name}'",
                                        f"did you mean '{close}'?" if close else
                                        "rulings params lists the book's parameters", key=True))
            continue
        if p.name in out:
            problems.append(_problem_in(source, ("params", name), "I104", f"'{name}' sets {p.name} a second time",
                                        "give the setting once"))
            continue
        try:
            out[p.name] = p.coerce(value)
        except ValueError as exc:
            problems.append(_problem_in(source, ("params", name), "I104", str(exc)))
    return out, problems


@lru_cache(maxsize=8)
def _book(house: str | None) -> Any:
    """The book an incident is checked under when no book is given: the house it names, else the standard.

    Loaded once per process (and not compiled); a caller that holds the book it rules with passes it,
    as the command line, batch, calc, the consultation and the examples do.
    """
    from rulings.rulebook.load import standard_book
    book = standard_book()
    if house:
        from rulings.rulebook.house import find_house, load_house
        path = find_house(house)
        if path is not None:
            book = load_house(path, book)
    return book


def _reader_values(book: Any, house: str | None, params: dict[str, Any], setting: str) -> dict[str, Any] | None:
    """The book's parameter values an incident is read under (the book given, else its house, else the standard
    book; with the incident's own overrides); None when there is no book to read under or an override is wrong
    (reported with the other problems)."""
    try:
        if book is None:
            book = _book(house)
        overrides, problems = overrides_of(book, params, None) if params else ({}, [])
        if problems:
            return None
        return book.param_values(setting, overrides) if overrides else _defaults(book, setting)[0]
    except ProblemsError:
        return None


def reader_value(book: Any, house: str | None, params: dict[str, Any], setting: str, name: str) -> Any:
    """One parameter's value as ``reader_params`` reads the book (None where it cannot be read), for what
    the reader works out beside the arithmetic (the kill size of a killed hand's limits)."""
    values = _reader_values(book, house, params, setting)
    return None if values is None else values.get(name)


def reader_params(book: Any, house: str | None, params: dict[str, Any], setting: str) -> Params | None:
    """The arithmetic's parameters an incident is read under, for what the reader must work out before the
    replay; None when there is no book to read under or an override is wrong."""
    values = _reader_values(book, house, params, setting)
    return None if values is None else betting_params(values)


def check_read(incident: Incident, book: Any, replay: bool) -> tuple[list[Problem], tuple | None, tuple]:
    """Every check needing the book's parameters, the key of the values checked under, and the replays the
    check made (one per disputed act: ``Incident.replays``)."""
    if book is None:
        try:
            book = _book(incident.house)
        except ProblemsError:
            return [], None, ()     # no book to check under: a book problem, reported when the book is loaded to rule
    overrides, problems = incident_overrides(book, incident)
    if overrides:
        values = book.param_values(incident.hand.game.setting, overrides)
        key = params_key(values)
    else:
        values, key = _defaults(book, incident.hand.game.setting)
    kept: list = []
    problems += check(incident, values, replay, kept)
    return problems, key, tuple(kept)


def _defaults(book: Any, setting: str) -> tuple[Any, tuple]:
    """The book's own parameter values for a setting and their key, worked out once (a batch checks thousands
    of incidents under one book); only read, never changed."""
    def make() -> tuple[Any, tuple]:
        values = book.param_values(setting)
        return values, params_key(values)
    return per_book(book, "checked:" + setting, make)


def ensure_checked(incident: Incident, values: Any) -> Incident:
    """The incident checked again when the parameters in force differ from those it was read under (then
    carrying that check's replays, for the fact builders), else the incident itself."""
    key = params_key(values)
    if incident.checked == key:
        return incident
    kept: list = []
    problems = check(incident, values, kept=kept)
    if problems:
        raise ProblemsError(problems)
    return evolve(incident, checked=key, replays=tuple(kept))


def _last_point(incident: Incident) -> Hand:
    """The hand up to its last disputed act (every action when there is none): what must replay."""
    whole = incident.whole_hand or incident.hand
    if not incident.acts:
        return whole
    last = incident.acts[-1]
    names = incident.log.streets if incident.log is not None else (last.street,)
    k = names.index(last.street)
    return replace(whole, streets=whole.streets[:k] + (whole.streets[k][:last.after_count],))


def check(incident: Incident, values: Any, replay: bool = True, kept: list | None = None) -> list[Problem]:
    """The problems of an incident under these parameter values (empty: the facts can be built); ``kept``
    is given each act's replay (see ``_replay``)."""
    problems: list[Problem] = []
    bparams = betting_params(values)
    if replay:
        problems += _replay(incident, bparams, [] if kept is None else kept)
    problems += _kill(incident, values)
    problems += _procedure(incident)
    if replay:
        problems += _hand_contradicts(incident, bparams)
    problems += _noticed_contradicts(incident, bparams)
    return problems


def _noticed_contradicts(incident: Incident, params: Params) -> list[Problem]:
    """When it was noticed against the actions told after the act (I145): "before the next action" with an
    action listed after it cannot both be true. Both places are named; the floor says which is right. An act
    out of turn noticed at once is followed by the seat it skipped, acting in turn: that is no contradiction."""
    if incident.inputs.get("noticed") != "before_next_action" or not incident.after or incident.disputed is None:
        return []
    try:
        due = position(incident.hand, params).actor
    except BettingError:
        return []       # the replay's own problem is reported
    first = incident.after[0]
    if due is not None and due != incident.disputed.seat and first.seat == due:
        return []       # the action went back to the skipped seat once the act out of turn was pointed out
    data = incident.source.data if incident.source is not None else None
    if isinstance(data, dict) and data.get("after"):
        other: tuple = ("after", 0)
    else:   # the whole hand: the first action listed after the act's point
        told = sum(len(street) for street in incident.hand.streets)
        paths = incident.action_paths
        other = paths[told] if told < len(paths) else ("streets",)
    line = f", line {incident.source.at(other)[0]}" if incident.source is not None else ""
    return [_problem(incident, ("noticed",), "I145",
                     f"it was noticed before the next action, but {_dotted(other)}{line} lists seat {first.seat}'s "
                     f"{first.kind} after the act",
                     "give when it was really noticed (after_some_action, after_all_acted), or take out the actions "
                     "that came after it was noticed")]


def _hand_contradicts(incident: Incident, params: Params) -> list[Problem]:
    """A procedure field the floor states that the hand's own actions say otherwise (I145; rulings/incident/hand_says.py)."""
    from rulings.incident.hand_says import contradictions
    return [_problem(incident, path, "I145", message, hint)
            for path, message, hint in contradictions(incident, params)]


def betting_problem(incident: Incident, exc: BettingError) -> Problem:
    """A betting error as an incident problem pointing at the action at fault (I106)."""
    paths = incident.action_paths
    if exc.index is not None and exc.index < len(paths):
        path = paths[exc.index]
    else:
        path = ("streets",) if incident.log is not None else ("actions",)
    msg = str(exc) + (f" (seat {exc.seat})" if exc.seat is not None else "")
    return _problem(incident, path, "I106", msg, f"expected {exc.expected}" if exc.expected else None)


def _replay(incident: Incident, params: Params, kept: list) -> list[Problem]:
    """Replay the hand up to its last disputed act (every action without one): one problem for the first
    action the betting refuses; then each act's pot count and chips against the seat's stack.

    Each act's replay (the hand up to it, the parameters, the seat, its position and final table) is put in
    ``kept``: the reader keeps them on the incident it returns (``Incident.replays``), so the fact builders of
    each act's ruling read them there instead of replaying the hand again. On the incident, not in module
    state: the service rules in a pool of threads, and what one ruling hands to its own builders is its own."""
    acts = incident.acts or ((Act(incident.disputed, incident.street, 0),) if incident.disputed else ())
    seen = [hand_at(incident, act) if incident.acts else incident.hand for act in acts]
    try:    # the last act's hand is the longest: any refused action is in it (a single act: the only replay)
        hand = seen[-1] if acts else _last_point(incident)
        seat = acts[-1].disputed.seat if acts else None
        tables: list = []
        last = position(hand, params, seat=seat, tables=tables)
    except BettingError as exc:
        return [betting_problem(incident, exc)]
    kept.append((hand, params, seat, last, tables[-1]))
    out: list[Problem] = []
    setting = incident.hand.game.setting
    for n, (act, one) in enumerate(zip(acts, seen)):
        if n == len(acts) - 1:
            pos = last
        else:
            tables = []
            pos = position(one, params, seat=act.disputed.seat, tables=tables)
            kept.append((one, params, act.disputed.seat, pos, tables[-1]))
        if n == 0 and incident.pot_now is not None and incident.pot_now != pos.pot:
            out.append(_problem(incident, ("pot_now",), "I105", f"{show(incident.pot_now, setting)} does not match "
                                f"the actions, which make the pot {show(pos.pot, setting)}",
                                "check the pot and the listed actions"))
        chips = sum(c for m in act.disputed.motions for c in m)
        stack = pos.stacks.get(act.disputed.seat)
        if stack == 0 and (chips or act.disputed.said is not None):
            where = (*act.path, act.chips_key) if chips else (*act.path, "said")
            out.append(_problem(incident, where, "I107", f"seat {act.disputed.seat} is all in already: he has "
                                "no chips behind to bet, call or raise with", "check the seat, the stack or the "
                                "actions listed before the act"))
        elif chips and stack is not None and chips > stack:
            out.append(_problem(incident, (*act.path, act.chips_key), "I107", f"{show(chips, setting)} is more than the "
                                f"{show(stack, setting)} seat {act.disputed.seat} had behind",
                                "check the chips or the stack"))
    if not acts and incident.pot_now is not None and incident.pot_now != last.pot:
        out.append(_problem(incident, ("pot_now",), "I105", f"{show(incident.pot_now, setting)} does not match "
                            f"the actions, which make the pot {show(last.pot, setting)}",
                            "check the pot and the listed actions"))
    out += _awards(incident, params)
    return out


def replayed_table(incident: Incident, hand: Hand, params: Params) -> Replay | None:
    """``replayed(hand, params)``, taken from the replays the reader's check kept on the incident when it
    replayed this very hand under these parameters (the same walk gives the same table; it is only read),
    else worked out."""
    for got_hand, got_params, _seat, _pos, table in incident.replays:
        if got_params == params and (got_hand is hand or got_hand == hand):
            return table
    return replayed(hand, params)


def replayed_position(incident: Incident, hand: Hand, params: Params, seat: int | None) -> Position:
    """``position(hand, params, seat=seat)``, taken from the replays the reader's check kept on the incident
    when it was this very question (the same hand, parameters and seat: the answer is the same), else worked
    out."""
    for got_hand, got_params, got_seat, pos, _table in incident.replays:
        if got_seat == seat and got_params == params and (got_hand is hand or got_hand == hand):
            return pos
    return position(hand, params, seat=seat)


def _awards(incident: Incident, params: Params) -> list[Problem]:
    """A pot awarded to a seat that does not contest it, or a pot the hand does not have (I142)."""
    log = incident.log
    if log is None or not log.awards:
        return []
    table = replayed(incident.whole_hand or incident.hand, params)
    if table is None:
        return []       # the log runs on past a disputed act it does not record: its pots are not known
    pots = pots_now(table, told_pots(incident))
    out = []
    for award in log.awards:
        if award.pot >= len(pots):
            out.append(_problem(incident, award.path + ("pot",), "I142", f"the hand has no pot {award.pot}",
                                f"pots: 0 to {len(pots) - 1} (0 is the main pot)" if pots else "no pot was made"))
            continue
        for j, seat in enumerate(award.winners):
            if seat not in pots[award.pot].eligible:
                where = "the main pot" if award.pot == 0 else f"side pot {award.pot}"
                out.append(_problem(incident, award.path + ("winners", j), "I142",
                                    f"{where} is awarded to seat {seat}, which is not in it",
                                    "seats in it: " + ", ".join(map(str, pots[award.pot].eligible))))
    return out


def _kill(incident: Incident, values: Any) -> list[Problem]:
    t = incident.table
    if t is None:
        return []
    game = incident.unkilled_game or incident.hand.game   # the kill is sized on the game's own limits
    setting = game.setting
    if game.structure not in ("fixed-limit", "spread-limit"):
        return [_problem(incident, ("game", "structure"), "I123", f"kill pots raise the limits of a limit game, "
                         f"not of a {game.structure} game", "structure: fixed-limit, with bet_sizes")]
    size = values["kill.size"]
    limits = kill_sizes(game)[size]
    if limits is None and game.big_blind <= 0:
        return []   # the blinds not given: the kill blind is unknown (asked where a kill is due), nothing to check
    if limits is None:
        return [_problem(incident, ("game", "bet_sizes"), "I123", f"a {size} kill of these limits is not a whole "
                         "amount", "use a full kill (params: {kill.size: full}) or limits that divide evenly")]
    out = []
    blind = limits.kill_blind
    for i, pot in enumerate(t.pots):
        if pot.kill_blind is not None and pot.kill_blind != blind:
            out.append(_problem(incident, ("table", "pots", i, "kill", "amount"), "I122",
                                f"a {size} kill here is {show(blind, setting)}, not {show(pot.kill_blind, setting)}",
                                "check the kill blind or the kill.size parameter"))
    if t.kill_posted and t.kill_posted["amount"] != blind:
        out.append(_problem(incident, ("table", "kill_posted", "amount"), "I122",
                            f"a {size} kill here is {show(blind, setting)}, not "
                            f"{show(t.kill_posted['amount'], setting)}", "check the kill blind or the kill.size parameter"))
    elif t.underpaid and t.kill_posted and t.underpaid["amount"] >= t.kill_posted["amount"]:
        out.append(_problem(incident, ("table", "underpaid", "amount"), "I120",
                            f"{show(t.underpaid['amount'], setting)} is not less than the {show(blind, setting)} kill",
                            "underpaid.amount is what the player put in, short of the kill"))
    return out


def _procedure(incident: Incident) -> list[Problem]:
    p = incident.procedure
    if p is None or "button" not in p.raw:
        return []
    b = p.raw["button"]
    occupied = [pl.seat for pl in incident.hand.players]
    marks = [b.get("last_button", 0), b.get("last_small", 0), *b.get("last_big", ())]
    size = b.get("table_seats") or max(occupied + marks)
    if size < max(occupied):
        return [_problem(incident, ("procedure", "button", "table_seats"), "I131",
                         f"{size} seats, but seat {max(occupied)} is dealt in", f"table_seats: {max(occupied)} or more")]
    return []
