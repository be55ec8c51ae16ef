"""Reading an incident (YAML or JSON) into typed values with exact money: every problem by field, at once.

Two forms, one reader. The one-street form (``street``, ``pot``, ``actions``,
one ``disputed`` act) is a shorthand for the whole hand (``streets``: every
street's actions and board in order, ``showdown``, ``pots_won``, one or more
disputed acts each placed ``at`` a point of the hand). The sections for kill
pots (``table:``) and table procedure (``procedure:``) are read in
rulings/incident/table.py and procedure.py; what needs the betting replayed
under the book's parameters is checked in rulings/incident/checks.py. All
their problems are reported together.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

from rulings.betting import Action, Game, Hand, Player
from rulings.rulebook.catalogue import did_you_mean, facts
from rulings.incident.hand import pair_showing, read_at, read_awards, read_showdown, read_streets
from rulings.incident.model import Act, Disputed, HandLog, Incident, focus
from rulings.records import evolve
from rulings.incident.procedure import read_procedure
from rulings.incident.unsized import fill_unsized
from rulings.incident.cards import CARD_HINT, card, split_cards
from rulings.incident.reader import Reader, _dotted, seat_key, twice_keyed
from rulings.incident.table import read_table
from rulings.money import major
from rulings.problems import Problem, ProblemsError, bounded_lines
from rulings.yamlsrc import Located, load_file, load_json_line, load_text

STREETS = {
    "board": ("preflop", "flop", "turn", "river"),
    "stud": ("third", "fourth", "fifth", "sixth", "seventh"),
    "draw": ("before-draw", "after-draw"),   # single-draw games: two betting rounds (RRP-BR-3)
}
VARIANT_STREETS = {"holdem": "board", "omaha": "board", "stud": "stud", "razz": "stud",
                   "draw": "draw", "lowball": "draw", "other": "board"}
ACTIONS = ("post", "fold", "check", "call", "bet", "raise", "complete", "bring-in")
PHH_ACTIONS = {"f": "fold", "cc": "call", "cbr": "raise"}   # PHH's codes: fold, check or call, bet or raise
# the words a floor writes an action down in: "folded", "called", "raised" (read as the action itself)
ACTION_WORDS = {"folded": "fold", "folds": "fold", "checked": "check", "checks": "check", "called": "call",
                "calls": "call", "bets": "bet", "raised": "raise", "raises": "raise", "completed": "complete",
                "completes": "complete", "posted": "post", "posts": "post"}
AMOUNT_REQUIRED = ("post",)     # a bet, raise or complete without `to`: rulings/incident/unsized.py; a bring-in
                                # without it is the game's bring-in (``_bring_in_amounts``)
SHORT = ("street", "pot", "actions")          # the one-street form
TIMING = ("noticed", "pointed_out_by", "deliberated", "count_requested", "skipped_had_time")
TOP = ("incident", "house", "game", "button", "players", "street", "pot", "pot_now", "actions",
       "disputed", "after", "noticed", "pointed_out_by", "deliberated", "count_requested", "skipped_had_time",
       "params", "note",
       "table", "upcards", "exposed_downcard", "split", "procedure", "streets", "showdown", "pots_won")
GAME = ("variant", "structure", "setting", "blinds", "ante", "straddles", "bet_sizes", "spread",
        "betting_unit", "bring_in", "players_left", "big_blind_ante", "high_low")
DISPUTED = ("seat", "said", "chips", "motions", "words_first", "based_on_count", "chips_total", "prior_chips",
            "prior_pulled", "released", "forward_motion", "unaware_of_raise", "misunderstood", "bettor_showed",
            "count_asked", "count_answer", "conditional", "hidden_chips", "mucked", "from_pocket", "chips_removed",
            "side_deal", "buy_in", "short_buy_in_before", "amount_not_known", "dealer_took", "cashed_out",
            "minutes_away")
ACT_KEYS = DISPUTED + ("at", "after") + TIMING    # one act of a list: where it happened and its own timing
DISPUTED_FLAGS = ("released", "forward_motion", "unaware_of_raise", "misunderstood", "bettor_showed",
                  "count_asked", "conditional", "mucked", "from_pocket", "chips_removed", "short_buy_in_before",
                  "amount_not_known")
ACTION_KEYS = ("seat", "action", "to")
MAX_INCIDENT_BYTES = 256_000   # an incident is a page of YAML; the examples are under 2 KB (Y007)
MAX_INCIDENT_NODES = 20_000    # values in one incident (Y012)
MAX_SEATS = 30                 # players in one hand (a table seats at most 11)
MAX_LIST = 500                 # actions, chips or pots in one list: far beyond any hand
MAX_PARAMS = 100               # what-if parameters in one incident (the book declares about 60)
MAX_SAID = 500                 # characters of the player's words (disputed.said)
MAX_ACTS = 10                  # disputed acts in one incident
# the fields whose problems leave no hand to replay
HAND_FIELDS = ("game", "players", "button", "street", "pot", "actions", "streets")


def _read_game(r: Reader, raw: dict) -> tuple[Game | None, str | None]:
    r.keys(raw, GAME, ("game",))
    structure = r.choice(raw.get("structure"), facts()["structure"].values, ("game", "structure"))
    setting = r.choice(raw.get("setting", "cash"), ("cash", "tournament"), ("game", "setting"))
    variant = r.choice(raw.get("variant", "holdem"), facts()["variant"].values, ("game", "variant"))
    blinds = raw.get("blinds", [])
    if not isinstance(blinds, list) or len(blinds) > 2:
        r.bad(("game", "blinds"), "I103", "give the blinds as [small, big] (or [big] alone)")
        blinds = []
    amounts = [r.money(b, ("game", "blinds", i)) for i, b in enumerate(blinds)]
    sb, bb = (amounts + [0, 0])[:2] if len(amounts) == 2 else (0, amounts[0] if amounts else 0)
    sizes = raw.get("bet_sizes", [])
    if not isinstance(sizes, list):
        r.bad(("game", "bet_sizes"), "I103", "give the bet sizes as a list, one per street or [small, big]")
        sizes = []
    bet_sizes = [r.money(s, ("game", "bet_sizes", i)) for i, s in enumerate(sizes)]
    family = STREETS[VARIANT_STREETS.get(variant or "holdem", "board")]
    if len(bet_sizes) == 2 and len(family) > 2:   # [small, big]: small bets on the first half of the streets
        bet_sizes = [bet_sizes[0]] * 2 + [bet_sizes[1]] * (len(family) - 2)
    spread = raw.get("spread")
    spread_min = r.money(spread[0], ("game", "spread", 0)) if isinstance(spread, list) and spread else 0
    if None in amounts or None in bet_sizes or structure is None or setting is None:
        return None, variant
    game = Game(structure=structure, setting=setting, small_blind=sb or 0, big_blind=bb or 0,
                ante=r.money(raw.get("ante", 0), ("game", "ante")) or 0,
                bring_in=r.money(raw.get("bring_in", 0), ("game", "bring_in")) or 0,
                bet_sizes=tuple(b for b in bet_sizes if b is not None), spread_min=spread_min or 0,
                betting_unit=r.money(raw.get("betting_unit", 0), ("game", "betting_unit")) or 0,
                betting_rounds=len(family))
    return game, variant


_GAMES: dict[tuple, tuple[Game | None, str | None]] = {}   # each game read without a problem, by what it says


def _game_key(raw: dict) -> tuple | None:
    """What a ``game:`` mapping says, as a key (each value with its type: 1, 1.0 and True read apart); None
    for anything but scalars and lists of them."""
    out = []
    for k, v in raw.items():
        if isinstance(v, list):
            if not all(x is None or isinstance(x, (str, int, float)) for x in v):
                return None
            v = tuple((x.__class__, x) for x in v)
        elif not (v is None or isinstance(v, (str, int, float))):
            return None
        out.append((k, v.__class__, v))
    return tuple(out)


def _game(r: Reader, raw: dict) -> tuple[Game | None, str | None]:
    """``_read_game`` once per game: a room's incidents name a handful of games, and a game read without a
    problem reads the same every time (any problem is read again, so that it is named where it is written)."""
    key = _game_key(raw)
    got = _GAMES.get(key) if key is not None else None
    if got is not None:
        return got
    before = len(r.problems)
    got = _read_game(r, raw)
    if key is not None and len(r.problems) == before and len(_GAMES) < 256:
        _GAMES[key] = got
    return got



def _actions(r: Reader, raw: Any, path: tuple, seats: set[int]) -> tuple[list[Action], list[tuple]]:
    """A list of actions, and where each one read is written."""
    if raw is None:
        return [], []
    if not isinstance(raw, list):
        r.bad(path, "I103", "expected a list of actions")
        return [], []
    if len(raw) > MAX_LIST:
        r.bad(path, "I103", f"{len(raw):,} actions; at most {MAX_LIST} are read")
        return [], []
    out, paths = [], []
    for i, a in enumerate(raw):
        here = path + (i,)
        if not isinstance(a, dict):
            r.bad(here, "I103", "an action is a mapping like {seat: 3, action: raise, to: 300}")
            continue
        r.keys(a, ACTION_KEYS, here)
        seat = r.whole(a.get("seat"), here + ("seat",))
        word = a.get("action")
        if isinstance(word, str):
            word = PHH_ACTIONS.get(word, ACTION_WORDS.get(word.lower(), word))
        kind = r.choice(word, ACTIONS + tuple(PHH_ACTIONS), here + ("action",))
        to = r.money(a.get("to"), here + ("to",), required=kind in AMOUNT_REQUIRED)
        if seat is not None and seats and seat not in seats:
            r.bad(here + ("seat",), "I105", f"seat {seat} is not in the hand", "seats: " + ", ".join(map(str, sorted(seats))))
            continue
        if seat is not None and kind is not None:
            out.append(Action(seat, kind, to))
            paths.append(here)
    return out, paths


def _bring_in_amounts(r: Reader, game: Any, log: list, after: tuple[list[Action], list[tuple]]
                      ) -> tuple[list, list[Action]]:
    """A bring-in told without its amount ("seat 1 brings it in") is the game's bring-in; a game that does not
    say its bring-in leaves the amount to be written (I102, at the action)."""
    amount = getattr(game, "bring_in", None) if game is not None else None

    def filled(actions: list[Action], paths: list[tuple]) -> list[Action]:
        out = []
        for i, a in enumerate(actions):
            if a.kind == "bring-in" and a.to is None:
                if amount:
                    a = replace(a, to=amount)
                else:
                    r.bad(paths[i] + ("to",), "I102", "an amount is required",
                          "write the bring-in's amount here, or the game's (game.bring_in)")
            out.append(a)
        return out

    return [(street, filled(acts, paths), paths) for street, acts, paths in log], filled(*after)


def _motions(r: Reader, raw: dict, base: tuple) -> tuple[tuple[int, ...], ...]:
    if "chips" in raw and "motions" in raw:
        r.bad((*base, "motions"), "I105", "give either chips (one motion) or motions, not both")
        return ()
    if "chips" in raw:
        groups, base = [raw["chips"]], (*base, "chips")
    else:
        groups, base = raw.get("motions", []), (*base, "motions")
    if not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
        r.bad(base, "I103", "chips are a list of chip values, e.g. [500] or [100, 100, 25]")
        return ()
    if sum(len(g) for g in groups) > MAX_LIST:
        r.bad(base, "I103", f"{sum(len(g) for g in groups):,} chips; at most {MAX_LIST} are read",
              "give the chips' values, or chips_total")
        return ()
    out = []
    for m, group in enumerate(groups):
        values = []
        for i, chip in enumerate(group):
            here = base + ((i,) if "chips" in raw else (m, i))
            v = r.money(chip, here)
            if v is not None and v == 0:
                r.bad(here, "I103", "a chip is worth more than nothing")
            elif v is not None:
                values.append(v)
        out.append(tuple(values))
    return tuple(out)


def _disputed_act(r: Reader, raw: dict, base: tuple, motions: tuple[tuple[int, ...], ...]) -> dict[str, Any]:
    """The chip-handling details of the disputed act; fields that contradict each other are refused (I108)."""
    stated = r.money(raw.get("chips_total"), (*base, "chips_total"), required=False)
    counted = sum(c for m in motions for c in m)
    if stated is not None and stated != counted:
        r.bad((*base, "chips_total"), "I108", f"the chips listed add up to {major(counted)}, not "
              f"{major(stated)}", "list every chip of every motion, or correct the total")
    prior: tuple[int, ...] = ()
    if raw.get("prior_chips") is not None:
        chips = raw["prior_chips"]
        if not isinstance(chips, list) or not chips:
            r.bad((*base, "prior_chips"), "I103", "a list of chip values, e.g. [1000]")
        else:
            values = [r.money(c, (*base, "prior_chips", i)) for i, c in enumerate(chips)]
            prior = tuple(v for v in values if v)
    pulled = r.choice(raw.get("prior_pulled"), ("none", "part", "all"), (*base, "prior_pulled"), required=False)
    if pulled is not None and not prior:
        r.bad((*base, "prior_pulled"), "I108", "says how earlier chips were pulled back, but no prior_chips "
              "are listed", "add prior_chips: [...] or remove prior_pulled")
    flags = {}
    for name in DISPUTED_FLAGS:
        if raw.get(name) is not None:
            if isinstance(raw[name], bool):
                flags[name] = raw[name]
            else:
                r.bad((*base, name), "I103", "expected true or false")
    answer = r.money(raw.get("count_answer"), (*base, "count_answer"), required=False)
    if answer is not None and not flags.get("count_asked", False):
        r.bad((*base, "count_answer"), "I108", "a count answer is given but count_asked is not true",
              "set count_asked: true, or remove count_answer")
    hidden = r.money(raw.get("hidden_chips"), (*base, "hidden_chips"), required=False)
    deal = r.choice(raw.get("side_deal"), ("insurance", "proposition", "run_twice"), (*base, "side_deal"),
                    required=False)
    buy_in = r.money(raw.get("buy_in"), (*base, "buy_in"), required=False)
    cashed_out = r.money(raw.get("cashed_out"), (*base, "cashed_out"), required=False)
    away = r.whole(raw["minutes_away"], (*base, "minutes_away"), low=0) if raw.get("minutes_away") is not None else None
    return {"prior_chips": prior, "prior_pulled": pulled if prior else None, "flags": flags,
            "count_answer": answer, "hidden_chips": hidden, "side_deal": deal, "buy_in": buy_in,
            "cashed_out": cashed_out, "minutes_away": away,
            "dealer_took": _dealer_took(r, raw.get("dealer_took"), (*base, "dealer_took"))}


def _dealer_took(r: Reader, raw: Any, path: tuple) -> tuple[str, int | None] | None:
    """``dealer_took: {action: raise, to: 1000}``: the act as the dealer took it (his record, "raised to 1,000"),
    kept apart from what the player said or did; the amount may be left out."""
    if raw is None:
        return None
    t = r.mapping(raw, path)
    if t is None:
        return None
    r.keys(t, ("action", "to"), path)
    word = t.get("action")
    if isinstance(word, str):
        word = PHH_ACTIONS.get(word, ACTION_WORDS.get(word.lower(), word))
    kind = r.choice(word, ACTIONS[1:], path + ("action",))
    to = r.money(t.get("to"), path + ("to",), required=False)
    if kind in ("fold", "check") and to is not None:
        r.bad(path + ("to",), "I105", f"a {kind} has no amount", "leave to out")
        return None
    return (kind, to) if kind is not None else None


def _house_name(r: Reader, value: Any) -> str | None:
    """An incident names its house; it never gives a path (a path comes only from --house)."""
    if value is None:
        return None
    from rulings.rulebook.house import HOUSE_NAME, find_house, house_names
    if not isinstance(value, str) or not HOUSE_NAME.match(value):
        r.bad(("house",), "I104", "a house book is named here, not given as a path or other value",
              "write a house name such as " + ", ".join(house_names()[:3]) +
              "; a file is given on the command line with --house PATH")
        return None
    if find_house(value) is None:
        names = house_names()
        close = did_you_mean(value, names)
        r.bad(("house",), "I104", f"no house book named '{value}'",
              f"did you mean '{close}'?" if close else "house books: " + ", ".join(names))
        return None
    return value


def _acts(r: Reader, data: dict, seats: set[int], log: list, default_street: str | None) -> list[Act]:
    """The disputed acts: one mapping (the one-street form), or a list, each placed ``at`` a point of the hand."""
    raw = data.get("disputed")
    if raw is None:
        return []
    one = isinstance(raw, dict)
    items = [raw] if one else raw
    if not isinstance(items, list) or not items or not all(isinstance(x, dict) for x in items):
        r.bad(("disputed",), "I103", "the disputed act is a mapping of fields, or a list of them (several acts), "
              "each placed with at: {street, after}")
        return []
    if len(items) > MAX_ACTS:
        r.bad(("disputed",), "I103", f"{len(items)} disputed acts; at most {MAX_ACTS} are read")
        return []
    acts: list[Act] = []
    points: dict[tuple[str, int], tuple] = {}
    for i, d_raw in enumerate(items):
        base: tuple = ("disputed",) if one else ("disputed", i)
        r.keys(d_raw, DISPUTED + ("at",) if one else ACT_KEYS, base)
        seat = r.whole(d_raw.get("seat"), (*base, "seat"))
        if seat is not None and seats and seat not in seats:
            r.bad((*base, "seat"), "I105", f"seat {seat} is not in the hand",
                  "seats: " + ", ".join(map(str, sorted(seats))))
            seat = None
        said = d_raw.get("said")
        if said is not None and not isinstance(said, str):
            said = str(said)
        if said is not None and len(said) > MAX_SAID:
            r.bad((*base, "said"), "I103", f"{len(said):,} characters; the player's words are at most "
                  f"{MAX_SAID}", "write what the player said, word for word")
        words_first = r.choice(d_raw.get("words_first"), facts()["words_first"].values,
                               (*base, "words_first"), required=False)
        motions = _motions(r, d_raw, base)
        count = r.money(d_raw.get("based_on_count"), (*base, "based_on_count"), required=False)
        act = _disputed_act(r, d_raw, base, motions)
        at = read_at(r, d_raw.get("at"), (*base, "at"), log, default_street)
        if at is not None and at in points:
            r.bad((*base, "at"), "I144", f"two disputed acts at the same point ({at[0]}, after {at[1]} action(s)); "
                  f"the other is {_dotted(points[at])}",
                  "list the earlier act among the street's actions as the dealer took it, and place the next "
                  "act after it")
            continue
        if at is not None:
            points[at] = base
        after: tuple[Action, ...] = ()
        inputs = _timing(r, d_raw, base) if not one else {}
        if not one and d_raw.get("after") is not None:
            after = tuple(_actions(r, d_raw["after"], (*base, "after"), seats)[0])
        elif at is not None and seat is not None:
            rest = next(a for name, a, _ in log if name == at[0])[at[1]:]
            if rest and rest[0].seat == seat:
                record = (rest[0].kind, rest[0].to)
                rest = rest[1:]            # the log's own record of the act, as the dealer took it
                took = act.get("dealer_took")
                if took is None:
                    act["dealer_took"] = record
                elif took[0] != record[0] or (took[1] is not None and record[1] is not None
                                              and took[1] != record[1]):
                    r.bad((*base, "dealer_took"), "I105", "the hand's actions record the act as the dealer took "
                          f"it ({record[0]}{'' if record[1] is None else ' to ' + str(major(record[1]))}), and "
                          "dealer_took says otherwise", "give it once: in the actions, or in dealer_took")
            after = tuple(rest)
        if seat is not None and at is not None:
            acts.append(Act(Disputed(seat, said, motions, words_first, count, **act), at[0], at[1], after,
                            inputs, base, "motions" if "motions" in d_raw else "chips"))
    return acts


def _timing(r: Reader, raw: dict, path: tuple) -> dict[str, Any]:
    """When the act was noticed and by whom, whether a player deliberated or asked for a count."""
    out: dict[str, Any] = {}
    for name in ("noticed", "pointed_out_by"):
        if raw.get(name) is not None:
            out[name] = r.choice(raw[name], facts()[name].values, (*path, name))
    for name in ("deliberated", "count_requested", "skipped_had_time"):
        if raw.get(name) is not None:
            if isinstance(raw[name], bool):
                out[name] = raw[name]
            else:
                r.bad((*path, name), "I103", "expected true or false")
    return {k: v for k, v in out.items() if v is not None}


BOARD_DEALT = {"flop": 3, "turn": 1, "river": 1}      # new community cards by street, board games
HOLE_CARDS = {"holdem": 2, "omaha": 4}


def _card_counts(r: Reader, data: dict, variant: str, board: tuple[str, ...]) -> None:
    """A street's board or a shown hand of the wrong size for the game would be read wrongly (I105)."""
    if variant not in HOLE_CARDS:
        return
    streets = data.get("streets")
    for k, entry in enumerate(streets if isinstance(streets, list) else []):
        if not isinstance(entry, dict) or entry.get("board") is None or not isinstance(entry.get("street"), str):
            continue
        name, cards = entry["street"], split_cards(entry["board"]) or []
        if name == "preflop" or (name in BOARD_DEALT and len(cards) != BOARD_DEALT[name]):
            r.bad(("streets", k, "board"), "I105", f"the {name} deals {BOARD_DEALT.get(name, 0)} board card(s), "
                  f"not {len(cards)}", "flop: 3 cards, turn: 1, river: 1")
    need = HOLE_CARDS[variant]
    events = data.get("showdown")
    for i, ev in enumerate(events if isinstance(events, list) else []):
        for kind in ("shows", "tables"):
            shown = split_cards(ev.get(kind)) if isinstance(ev, dict) and ev.get(kind) is not None else None
            if shown is not None and len(shown) != need:
                r.bad(("showdown", i, kind), "I105", f"a {variant} hand has {need} cards, not {len(shown)}",
                      f"list all {need} of the hand's cards")


def _stacks(r: Reader, players_raw: Any) -> dict[int, int | None]:
    stacks: dict[int, int | None] = {}
    if isinstance(players_raw, dict):
        skip = twice_keyed(r, players_raw, ("players",))
        for seat, stack in players_raw.items():
            if seat in skip:
                continue
            seat = seat_key(seat)
            s = r.whole(seat, ("players", seat))
            if s is not None:
                stacks[s] = None if stack is None else r.money(stack, ("players", seat))
    elif isinstance(players_raw, list):
        for i, seat in enumerate(players_raw):
            s = r.whole(seat, ("players", i))
            if s is not None:
                stacks[s] = None
    else:
        r.bad(("players",), "I102", "list the seats in the hand, with their stacks: {1: 500, 2: 300}")
    if len(stacks) < 2 and isinstance(players_raw, (dict, list)):
        r.bad(("players",), "I105", "a hand needs at least two players")
    return stacks


def read_incident(doc: Located, book: Any = None) -> Incident:
    """Read and check an incident document; raise ProblemsError naming every field that is wrong, at once.

    ``book`` is the rulebook whose parameters the betting is checked under (a
    ``Rulebook``); without one, the house the incident names, else the standard book.
    """
    r = Reader(doc)
    data = r.mapping(doc.data, ())
    if data is None:
        raise ProblemsError(r.problems)
    r.keys(data, TOP, ())
    whole = "streets" in data
    for k in SHORT:
        if whole and k in data:
            r.bad((k,), "I105", f"{k} belongs to the one-street form, and this incident gives the whole hand "
                  "(streets)", "give the hand's streets in streets:, or use street, pot and actions alone")
    alone = stands_alone(data)
    game_raw = r.mapping(data.get("game"), ("game",), required=not alone)
    no_structure = alone and (game_raw or {}).get("structure") is None
    if no_structure:
        # a section that needs no betting (the deal): its game told without a structure is replayed on a
        # stand-in, and the structure's fact is left out (``no_betting``); the button may be left out too
        game_raw = {**(game_raw or {}), "structure": "no-limit"}
    game, variant = _game(r, game_raw) if game_raw is not None else (None, None)
    family = STREETS[VARIANT_STREETS.get(variant or "holdem", "board")]
    players_raw = data.get("players")
    if isinstance(players_raw, (dict, list)) and len(players_raw) > MAX_SEATS:
        r.bad(("players",), "I103", f"{len(players_raw):,} players; a hand has at most {MAX_SEATS}")
        raise ProblemsError(r.problems)
    stacks = _stacks(r, players_raw)
    button = data.get("button")
    if button is not None and r.whole(button, ("button",)) is None:
        button = None
    order = sorted(stacks)
    if button is not None:
        order = [s for s in order if s > button] + [s for s in order if s <= button]
    elif stacks and family is not STREETS["stud"] and not alone:   # stud: the upcards set who acts
        r.bad(("button",), "I102", "which seat has the button?",
              f"button: {order[-1]} (a seat of the hand: {', '.join(map(str, order))}; "
              "or the empty seat a dead button is on)")
    seats = set(stacks)
    table = read_table(r, data.get("table"), seats, variant)
    procedure = read_procedure(r, data.get("procedure"), seats, variant, button)
    log: list[tuple[str, list[Action], list[tuple]]] = []
    board: tuple[str, ...] = ()
    street_upcards: dict[str, dict[int, tuple[str, ...]]] = {}
    pot: int | None = 0
    pot_unknown = False
    street = None
    told: list = []
    seats_out: set[int] = set()
    if whole:
        log, board, street_upcards = read_streets(r, data["streets"], family, seats, _actions, told)
        if told and not r.problems:
            # the hand is replayed from the street after the last told one, with the seats left and its pot
            last = told[-1]
            told_at = family.index(last.street)
            if not log:
                log = [(family[told_at + 1] if told_at + 1 < len(family) else last.street, [], [])]
            pot_unknown = last.pot is None
            pot = last.pot or 0
            gone = [s for s in stacks if s not in last.left]
            all_in = {s for _, in_it in last.pots for s in last.pots[0][1] if s not in last.pots[-1][1]}
            # the stacks given are what each seat has in front of him when the street told action by action
            # begins (the earlier chips are in the pot told): a seat all in by the pots told has none
            stacks = {s: (0 if s in all_in else stacks[s]) for s in stacks if s in last.left}
            order = [s for s in order if s in stacks]
            seats_out = set(gone)
    else:
        street = r.choice(data.get("street", family[0]), family, ("street",))
        pot = r.money(data.get("pot", 0), ("pot",))
        # Only the first street's pot follows from the blinds and antes; a later one not given is unknown, never
        # guessed: the betting is replayed on a stand-in 0, and the facts that read the pot are left unknown.
        pot_unknown = "pot" not in data and street not in (None, family[0])
        actions, paths = _actions(r, data.get("actions"), ("actions",), seats)
        if street is not None:
            log = [(street, actions, paths)]
    _card_counts(r, data, variant or "holdem", board)
    folded = {a.seat for _, acts_, _ in log for a in acts_ if a.kind == "fold"} | seats_out
    showdown = read_showdown(r, data.get("showdown"), seats, folded)
    awards = read_awards(r, data.get("pots_won"), seats, folded)
    acts = _acts(r, data, seats, log, street)
    stand_in = _limits_needed(r, game, log, acts)
    limits_unknown = stand_in is not None
    game = stand_in or game
    top_after, after_paths = _actions(r, data.get("after"), ("after",), seats)
    log, top_after = _bring_in_amounts(r, game, log, (top_after, after_paths))
    if isinstance(data.get("disputed"), list) and data.get("after") is not None:
        r.bad(("after",), "I105", "with several disputed acts, each act gives what came after it",
              "move after: into the act it follows, or leave it out: the actions listed after each act's point count")
    pot_now = r.money(data.get("pot_now"), ("pot_now",), required=False)
    inputs = _timing(r, data, ())
    params = data.get("params") or {}
    if not isinstance(params, dict):
        r.bad(("params",), "I103", "params is a mapping of parameter names to values")
        params = {}
    elif len(params) > MAX_PARAMS:
        r.bad(("params",), "I103", f"{len(params):,} parameters; an incident sets at most {MAX_PARAMS}",
              "rulings explain NAME describes each parameter")
        params = {}
    house = _house_name(r, data.get("house"))
    first_up = {s: c[-1] for s, c in street_upcards.get(family[0], {}).items()}
    if first_up and data.get("upcards") is not None:
        r.bad(("upcards",), "I105", "the upcards are given in the streets already",
              "give each street's upcards in streets:, and leave out the top-level upcards")
    upcards, exposed = _upcards(r, data, seats, first_up)
    split = _split(r, data, seats)
    if variant is not None:
        inputs["variant"] = variant
    high_low = (game_raw or {}).get("high_low")
    if high_low is not None:
        if not isinstance(high_low, bool):
            r.bad(("game", "high_low"), "I103", "expected true or false")
        elif variant in ("razz", "lowball"):
            r.bad(("game", "high_low"), "I105", f"{variant} is played for low only, not high-low",
                  "leave out high_low, or give the variant that is split (omaha, stud, holdem)")
        else:
            inputs["high_low"] = high_low
    if game_raw is not None and game_raw.get("players_left") is not None:
        left = r.whole(game_raw["players_left"], ("game", "players_left"), low=2)
        if left is not None:
            inputs["event_players_left"] = left
    straddles = (game_raw or {}).get("straddles") or []
    if not isinstance(straddles, list):
        r.bad(("game", "straddles"), "I103", "expected a list of amounts")
        straddles = []
    amounts = tuple(r.money(s, ("game", "straddles", i)) for i, s in enumerate(straddles))
    bba = r.money((game_raw or {}).get("big_blind_ante", 0), ("game", "big_blind_ante")) or 0
    if bba and game is not None and game.ante:
        r.bad(("game", "big_blind_ante"), "I105", "a big blind ante replaces the antes of every player",
              "give ante or big_blind_ante, not both")
    unkilled = None
    kill_post = None
    if game is not None and table is not None and table.kill_posted and game.structure == "fixed-limit" \
            and game.bet_sizes and not limits_unknown and log:
        # a killed hand: every bet of it is played at the killed limits (RRP kill pots), on every street. On the
        # first, the kill blind is posted with the blinds (unless the actions list the posts themselves), and the
        # killer acts in his turn or, where the house says so, last on that round
        from rulings.betting.kill import KILL_SIZES
        from rulings.incident.checks import kill_sizes, reader_value
        size = reader_value(book, house, params, game.setting, "kill.size")
        first_acts = log[0][1]
        from_first = family.index(log[0][0]) == 0 and not (first_acts and first_acts[0].kind == "post")
        last = reader_value(book, house, params, game.setting, "kill.killer_acts") == "last_on_first_round"
        seated = [s for s in order if s in stacks]
        after_bb = seated[2] if len(seated) > 2 else None
        if from_first and last and table.kill_posted["seat"] != after_bb:
            # a killer who acts last on the first round but does not sit first after the big blind: the
            # arithmetic keeps one circular order, so the first round is not replayed as killed (the facts that
            # read it stay at the game's own limits and no killed-limits rule fires on them)
            size = None
        if size in KILL_SIZES and kill_sizes(game).get(size) is not None:
            numerator, denominator = KILL_SIZES[size]
            unkilled = game
            game = replace(game, bet_sizes=tuple(b * numerator // denominator for b in game.bet_sizes))
            if from_first:
                kill_post = (table.kill_posted["seat"], table.kill_posted["amount"], last)
    if game is None or not log or not stacks:   # no hand to replay; what does not need one is still checked
        from rulings.incident.checks import params_problems
        raise ProblemsError(r.problems + params_problems(params, house, book, doc))
    replay = not any(p[0] in HAND_FIELDS for p in r.paths if p)   # a broken hand is not replayed
    assert game is not None
    players = [Player(s, stacks[s]) for s in order]
    first = family.index(log[0][0])
    if first > 0:
        bba = 0          # a hand described from a later street: the big blind's ante is in its pot
    bba_posts: tuple = ()
    bba_due = bba    # the ante the table owes; ``bba`` becomes what the big blind could post of it
    if bba:
        # the big blind posts the table's ante: his chips behind for the replay are what is left after it; a
        # stack too short for both is split in the room's order (Params.bba_short_order, TDA 2024 RP-11)
        bb_seat = order[0] if len(order) == 2 else order[1]
        bb_stack = stacks.get(bb_seat)
        ante_posted = bba
        if bb_stack is not None and bb_stack < game.big_blind + bba:
            from rulings.betting.pots import big_blind_ante_split
            from rulings.incident.checks import reader_params
            bparams = reader_params(book, house, params, game.setting)
            split_order = bparams.bba_short_order if bparams is not None else "big_blind_first"
            blind_posted, ante_posted = big_blind_ante_split(bb_stack, game.big_blind, bba, split_order)
            bba_posts = (bb_seat, bb_stack, blind_posted, ante_posted, split_order, bba)
        elif bb_stack is not None:
            bba_posts = (bb_seat, bb_stack, game.big_blind, bba, None, bba)
        players = [Player(p.seat, None if p.stack is None else max(p.stack - ante_posted, 0))
                   if p.seat == bb_seat else p for p in players]
        bba = ante_posted
    whole_hand = Hand(game, tuple(players), tuple(tuple(a) for _, a, _ in log), first_street=first,
                      pot_before=_stand_in(game) if pot_unknown else (pot or 0) + bba, straddles=tuple(a or 0 for a in amounts),
                      open_pair=() if inputs.get("high_low") else _open_pair(variant, family, log, street_upcards, order),
                      kill_post=kill_post if kill_post is not None and kill_post[0] in stacks else None)
    action_paths = tuple(p for _, _, ps in log for p in ps)
    unsized: tuple[int, ...] = ()
    if any(a.kind in SIZED and a.to is None for _, acts_, _ in log for a in acts_):
        from rulings.incident.checks import reader_params
        bparams = reader_params(book, house, params, game.setting)
        if bparams is not None:
            whole_hand, unsized = fill_unsized(whole_hand, bparams, exact=not limits_unknown)
            log = [(name, list(s), ps) for (name, _, ps), s in zip(log, whole_hand.streets)]
    acts.sort(key=lambda a: (family.index(a.street), a.after_count))
    if acts and not isinstance(data.get("disputed"), list) and data.get("after") is not None:
        acts[0] = replace(acts[0], after=tuple(top_after))
    hand_log = HandLog(tuple(name for name, _, _ in log), board, street_upcards, showdown, awards, bba_due,
                       tuple(sorted(folded)), tuple(told)) \
        if whole or showdown or awards else None
    incident = Incident(str(data.get("incident") or Path(doc.file).stem), whole_hand, log[-1][0], None,
                        tuple(top_after), inputs, params, house, pot_now, doc, table, upcards, exposed, split,
                        procedure, tuple(acts), hand_log, action_paths, None, whole_hand, pot_unknown=pot_unknown,
                        limits_unknown=limits_unknown, unsized=unsized, unkilled_game=unkilled, bba_posts=bba_posts,
                        blinds_unknown=blinds_unknown(game, bba, amounts), no_betting=no_structure)
    if acts:
        incident = focus(incident, acts[0])
    from rulings.incident.checks import check_read
    later, checked, replays = check_read(incident, book, replay)
    if r.problems or later:
        raise ProblemsError(r.problems + later)
    return evolve(incident, checked=checked, replays=replays)


def stands_alone(data: dict) -> bool:
    """An incident about a section that needs no betting (declared ``stands_alone``: the deal) and nothing
    else: no disputed act, no actions or streets, no table history, and only such sections under
    ``procedure:``. It may then leave out the game's structure and the button (no rule reads them)."""
    from rulings.incident.procedure import declared
    proc = data.get("procedure")
    if not isinstance(proc, dict) or not proc or any(data.get(k) is not None for k in
                                                      ("disputed", "actions", "streets", "after", "table")):
        return False
    decls = declared()
    return all(name in decls and decls[name]["stands_alone"] for name in proc)


def _open_pair(variant: str | None, family: tuple[str, ...], log: list, upcards: dict, order: list[int]) -> tuple[int, ...]:
    """The betting rounds with an open pair showing: seven-card stud's fourth street when the third- and
    fourth-street upcards are given and a seat still in pairs its door card (TDA-2024-RP10's custom reads it).
    Stud/8 is not asked: a pair showing there never allows the big bet (RRP-STUD8-7, BARGE-STUD8-1)."""
    if variant != "stud" or "fourth" not in family or not {"third", "fourth"} <= set(upcards):
        return ()
    folded = {a.seat for name, acts, _ in log if name == "third" for a in acts if a.kind == "fold"}
    return (family.index("fourth"),) if pair_showing(order, upcards, folded) is not None else ()


STAND_IN_POT = 10 ** 12   # minor units: above any pot-limit maximum a hand's actions can reach


def _stand_in(game: Game) -> int:
    """What the betting is replayed on when a later street's pot is not given: nothing in no-limit and the
    limit games (the pot sizes no bet there), and in pot-limit a pot no action can exceed (the maximum is then
    unknown, never a refusal: rulings/facts/situation.py leaves it out)."""
    return STAND_IN_POT if game.structure == "pot-limit" else 0


BIG_BET = ("no-limit", "pot-limit")


def blinds_unknown(game: Game, bba: int, straddles: tuple) -> bool:
    """A big-bet game told without its blinds: RRP-NL-2 makes the big blind the smallest bet on every round,
    and the blinds are the first round's bets and pot, so what they size is not known (never taken as 0).
    A game that says what else opens its betting keeps its own numbers: a bring-in (stud), an ante (an
    ante-only game) or a betting unit (WIKI-UNIT)."""
    return game.structure in BIG_BET and not (game.small_blind or game.big_blind or game.bring_in or game.ante
                                              or game.betting_unit or bba or any(straddles))


SIZED = ("bet", "raise", "complete")   # actions a limit game sizes by its bet sizes


STAND_IN_LIMIT = 100   # minor units: the bet size a limit game with no sizes given is replayed on (never shown)


def _limits_needed(r: Reader, game: Game | None, log: list, acts: list[Act]) -> Game | None:
    """A limit game's bet sizes are needed only where something is sized by them: a bet, raise or complete in
    the hand, or a disputed act with chips or words. Who brings it in, a miscalled hand or a clock call
    are ruled without them (I102 only where they would be read); the game is then replayed on a stand-in
    size and returned with ``limits_unknown`` for the facts (rulings/facts/situation.py leaves the sizes out)."""
    if game is None or game.structure not in ("fixed-limit", "spread-limit") or game.bet_sizes or game.big_blind:
        return None
    sized = any(a.kind in SIZED for _, actions, _ in log for a in actions) or \
        any(a.disputed.motions or a.disputed.said is not None for a in acts)
    if sized:
        r.bad(("game", "bet_sizes"), "I102", f"a {game.structure} game needs its bet sizes here: they size "
              "the bets and raises", "e.g. bet_sizes: [20, 40]")
        return None
    return replace(game, bet_sizes=(STAND_IN_LIMIT,) * game.betting_rounds)


def each_act(incident: Incident) -> list[Incident]:
    """One incident per disputed act, in hand order (one report each); with several, each is named
    after its act ('name, act 2 of 3 (seat 5)')."""
    if len(incident.acts) <= 1:
        return [incident]
    n = len(incident.acts)
    return [replace(focus(incident, act), name=f"{incident.name}, act {i} of {n} (seat {act.disputed.seat})",
                    focused=True)
            for i, act in enumerate(incident.acts, 1)]


def each_request(incident: Incident) -> list[Incident]:
    """One incident per entry of a section's list (``procedure.showdown.requests``: each request to see a hand;
    ``procedure.penalty.offenders``: each player penalised), in the order given, each with that entry's fields as
    the section's own and named after it ('name, request 2 of 3 (seat 2)'); the incident itself when it lists
    none."""
    p = incident.procedure
    if p is None:
        return [incident]
    from rulings.incident.procedure import declared
    found = next(((name, rep) for name, decl in declared().items() for rep in decl["repeats"]
                  if (p.raw.get(name) or {}).get(rep)), None)
    if found is None:
        return [incident]
    section, rep = found            # several requests to see a hand, several offenders penalised: one each
    entries = p.raw[section][rep]
    n = len(entries)
    base = {k: v for k, v in p.raw[section].items() if k != rep}
    word = {"requests": "request", "offenders": "offender"}.get(rep, "entry")
    out = []
    for i, (values, asked) in enumerate(entries, 1):
        procedure = evolve(p, facts={**p.facts, **asked}, raw={**p.raw, section: {**base, **values}})
        who = values.get("asker", values.get("seat"))
        name = f"{incident.name}, {word} {i} of {n} (seat {who})" if n > 1 else incident.name
        out.append(replace(incident, procedure=procedure, name=name))
    return out


def _upcards(r: Reader, data: dict, seats: set[int], seed: dict[int, str]) -> tuple[dict[int, str], int | None]:
    """Stud upcards (``upcards: {1: Kd, 2: 2c}``, or third street's from the streets: ``seed``) and the seat
    showing an exposed downcard, checked by field."""
    raw = data.get("upcards")
    out: dict[int, str] = dict(seed)
    if raw is not None and not seed:
        if not isinstance(raw, dict):
            r.bad(("upcards",), "I103", "upcards are a mapping of seat to card, e.g. {1: Kd, 2: 2c}")
            raw = {}
        skip = twice_keyed(r, raw, ("upcards",))
        for key, value in raw.items():
            seat = seat_key(key)
            if key in skip or r.whole(seat, ("upcards", key)) is None:
                continue
            if seats and seat not in seats:
                r.bad(("upcards", key), "I105", f"seat {seat} is not in the hand")
                continue
            text = card(value)
            if text is None:
                r.bad(("upcards", key), "I104", f"'{value}' is not a card", CARD_HINT)
                continue
            if text in out.values():
                r.bad(("upcards", key), "I105", f"{text} is showing in front of two seats")
                continue
            if text in r.dealt:
                r.bad(("upcards", key), "I140", f"the card {text} is dealt twice", "each card is in the deck once")
                continue
            r.dealt[text] = ("upcards", key)
            out[seat] = text
    exposed = data.get("exposed_downcard")
    if exposed is not None:
        if r.whole(exposed, ("exposed_downcard",)) is None:
            exposed = None
        elif exposed not in out:
            r.bad(("exposed_downcard",), "I105", f"seat {exposed} has no upcard listed",
                  "list the exposed card among the upcards: it plays as his upcard")
            exposed = None
    return out, exposed


def load_incident(path: str | Path, book: Any = None) -> Incident:
    """An incident file: YAML or JSON, or a PHH hand history with a ``[_rulings]`` dispute table (.phh)."""
    if str(path).endswith(".phh"):
        from rulings.incident.phh import load_phh_document
        return read_incident(load_phh_document(path), book)
    doc, problems = load_file(path, MAX_INCIDENT_BYTES, MAX_INCIDENT_NODES)
    if doc is None:
        raise ProblemsError(problems)
    return read_incident(doc, book)


def incident_from_data(data: dict, file: str = "<example>", book: Any = None) -> Incident:
    """An incident given as data (a rulebook example): positions are those of the YAML it came from."""
    return read_incident(Located(file, data, {}), book)


def json_line_document(text: str, file: str, line: int) -> Located:
    """One line of a JSONL batch as an incident document, read with ``json.loads`` under an incident file's
    limits and rules, its problems placed at their line and column (``rulings.yamlsrc.load_json_line``)."""
    doc, problems = load_json_line(text, file, line, MAX_INCIDENT_BYTES, MAX_INCIDENT_NODES)
    if doc is None:
        raise ProblemsError(problems)
    return doc


def incident_document(path: str | Path) -> tuple[Located | None, list]:
    """An incident file (or a draft of ``rulings ask``) read as every file is, under an incident's limits:
    a regular file only, at most ``MAX_INCIDENT_BYTES`` read, strict YAML."""
    return load_file(path, MAX_INCIDENT_BYTES, MAX_INCIDENT_NODES)


def incident_lines(path: str | None) -> Iterator[tuple[int, str | None, str]]:
    """Each line of a JSONL batch (``None``: standard input) as (its number, its text, ""), or (its number,
    None, the code it is refused with unread: Y007 longer than an incident, Y009 not UTF-8). A line is held
    to an incident's size while it is read (``bounded_lines``); a path that is no regular file is refused
    (``LimitError``) before any line is read."""
    lines = bounded_lines(path, MAX_INCIDENT_BYTES)

    def each() -> Iterator[tuple[int, str | None, str]]:
        for n, raw in lines:
            if raw is None:
                yield n, None, "Y007"
                continue
            try:
                yield n, raw.decode("utf-8"), ""
            except UnicodeDecodeError:
                yield n, None, "Y009"
    return each()


def unread_line(code: str, file: str, line: int) -> Problem:
    """The problem of a JSONL line refused unread (``incident_lines``)."""
    if code == "Y007":
        return Problem(file, line, 1, code, f"the line is over the limit of an incident, {MAX_INCIDENT_BYTES:,} "
                       "bytes", hint="one incident a line")
    return Problem(file, line, 1, code, "the line is not UTF-8 text", hint="save the file as UTF-8")


def incident_from_text(text: str, file: str = "<text>", book: Any = None) -> Incident:
    doc, problems = load_text(text, file, MAX_INCIDENT_BYTES, MAX_INCIDENT_NODES)
    if doc is None:
        raise ProblemsError(problems)
    return read_incident(doc, book)


def _split(r: Reader, data: dict, seats: set[int]) -> dict | None:
    """A pot the showdown left tied: ``split: {winners: [2, 5], pot: 0, smallest_chip: 1}`` (pot 0 is the main pot)."""
    raw = data.get("split")
    if raw is None:
        return None
    d = r.mapping(raw, ("split",))
    if d is None:
        return None
    r.keys(d, ("winners", "pot", "smallest_chip"), ("split",))
    winners = d.get("winners")
    if not isinstance(winners, list) or len(winners) < 2:
        r.bad(("split", "winners"), "I103", "a split pot needs the two or more seats that tie, e.g. [2, 5]")
        return None
    out = []
    for i, seat in enumerate(winners):
        if r.whole(seat, ("split", "winners", i)) is None:
            continue
        if seats and seat not in seats:
            r.bad(("split", "winners", i), "I105", f"seat {seat} is not in the hand")
        elif seat in out:
            r.bad(("split", "winners", i), "I105", f"seat {seat} is listed twice")
        else:
            out.append(seat)
    pot = d.get("pot", 0)
    if pot != 0 and r.whole(pot, ("split", "pot")) is None:
        pot = 0
    chip = r.money(d.get("smallest_chip"), ("split", "smallest_chip"), required=False)
    if chip == 0:
        r.bad(("split", "smallest_chip"), "I103", "a chip is worth more than nothing")
    return {"winners": tuple(out), "pot": pot, "smallest_chip": chip}
