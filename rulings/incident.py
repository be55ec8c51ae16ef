"""Reading an incident (YAML or JSON) into typed values with exact money, refusing bad input by field."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulings.betting import Action, Game, Hand, Player
from rulings.catalogue import did_you_mean, facts
from rulings.kill import Table, read_table
from rulings.money import MoneyError, major, to_minor
from rulings.procedure import Procedure, read_procedure
from rulings.problems import Problem, ProblemsError
from rulings.yamlsrc import Located, load_file, load_text

STREETS = {
    "board": ("preflop", "flop", "turn", "river"),
    "stud": ("third", "fourth", "fifth", "sixth", "seventh"),
    "draw": ("before-draw", "after-draw"),   # single-draw games: two betting rounds (RRP-BR-3)
}
VARIANT_STREETS = {"holdem": "board", "omaha": "board", "stud": "stud", "razz": "stud",
                   "draw": "draw", "lowball": "draw", "other": "board"}
ACTIONS = ("post", "fold", "check", "call", "bet", "raise", "complete", "bring-in")
TOP = ("incident", "house", "game", "button", "players", "street", "pot", "pot_now", "actions",
       "disputed", "after", "noticed", "pointed_out_by", "deliberated", "count_requested", "params", "note",
       "table", "upcards", "exposed_downcard", "split", "procedure")
GAME = ("variant", "structure", "setting", "blinds", "ante", "straddles", "bet_sizes", "spread",
        "betting_unit", "bring_in", "players_left")
DISPUTED = ("seat", "said", "chips", "motions", "words_first", "based_on_count", "chips_total", "prior_chips",
            "prior_pulled", "released", "forward_motion", "unaware_of_raise", "misunderstood", "bettor_showed",
            "count_asked", "count_answer", "conditional", "hidden_chips", "mucked", "from_pocket", "chips_removed",
            "side_deal", "buy_in", "short_buy_in_before")
DISPUTED_FLAGS = ("released", "forward_motion", "unaware_of_raise", "misunderstood", "bettor_showed",
                  "count_asked", "conditional", "mucked", "from_pocket", "chips_removed", "short_buy_in_before")
ACTION_KEYS = ("seat", "action", "to")
MAX_INCIDENT_BYTES = 256_000   # an incident is a page of YAML; the examples are under 2 KB (Y007)
MAX_INCIDENT_NODES = 20_000    # values in one incident (Y012)
MAX_SEATS = 30                 # players in one hand (a table seats at most 11)
MAX_LIST = 500                 # actions, chips or pots in one list: far beyond any hand
MAX_PARAMS = 100               # what-if parameters in one incident (the book declares about 60)
MAX_SAID = 500                 # characters of the player's words (disputed.said)
MAX_UNKNOWN_SHOWN = 20         # unknown fields reported one by one per mapping; the rest are counted


@dataclass(frozen=True)
class Disputed:
    seat: int
    said: str | None = None
    motions: tuple[tuple[int, ...], ...] = ()   # chip values per motion, minor units
    words_first: str | None = None
    based_on_count: int | None = None
    prior_chips: tuple[int, ...] = ()            # chips of an earlier bet still in front (TDA-2024-46)
    prior_pulled: str | None = None              # none | part | all of them pulled back
    flags: dict[str, bool] = field(default_factory=dict)   # released, misunderstood, bettor_showed, ...
    count_answer: int | None = None              # the bet size the dealer gave when asked (TDA-2024-49)
    hidden_chips: int | None = None              # chips found behind after an all-in was called (TDA-2024-62)
    side_deal: str | None = None                 # insurance | proposition | run_twice (RRP-NL-17)
    buy_in: int | None = None                    # chips the player is buying in for (RRP-BUYIN, RRP-NL-16)


@dataclass(frozen=True)
class Incident:
    """A validated incident: the hand so far, the disputed act, when it was noticed."""

    name: str
    hand: Hand
    street: str
    disputed: Disputed | None
    after: tuple[Action, ...]
    inputs: dict[str, Any]                     # other input facts: noticed, pointed_out_by, ...
    params: dict[str, Any] = field(default_factory=dict)
    house: str | None = None
    pot_now: int | None = None
    source: Located | None = None
    table: Table | None = None                 # the table's kill-pot history (rulings/kill.py)
    upcards: dict[int, str] = field(default_factory=dict)   # stud: each seat's upcard on the first round, e.g. "2c"
    exposed_downcard: int | None = None        # stud: the seat whose showing card is a downcard exposed in the deal
    split: dict | None = None                  # a tied pot: {winners: (seats), pot: index, smallest_chip: minor units}
    procedure: Procedure | None = None         # a table procedure in dispute (rulings/procedure.py)


class _Reader:
    def __init__(self, doc: Located):
        self.doc = doc
        self.problems: list[Problem] = []

    def bad(self, path: tuple, code: str, message: str, hint: str | None = None, key: bool = False) -> None:
        where = _dotted(path)
        self.problems.append(self.doc.problem(path, code, f"{where}: {message}" if where else message, hint, key))

    def keys(self, data: dict, allowed: tuple, path: tuple) -> None:
        unknown = [k for k in data if k not in allowed]
        if len(unknown) > MAX_UNKNOWN_SHOWN:
            self.bad(path, "I101", f"{len(unknown):,} unknown fields; the first {MAX_UNKNOWN_SHOWN} follow",
                     "allowed: " + ", ".join(allowed))
        for k in unknown[:MAX_UNKNOWN_SHOWN]:
            close = did_you_mean(k, allowed)
            self.bad(path + (k,), "I101", "unknown field",
                     f"did you mean '{close}'?" if close else "allowed: " + ", ".join(allowed), key=True)

    def mapping(self, data: Any, path: tuple, required: bool = True) -> dict | None:
        if data is None and not required:
            return None
        if not isinstance(data, dict):
            self.bad(path, "I103", "expected a mapping of fields")
            return None
        return data

    def money(self, value: Any, path: tuple, required: bool = True) -> int | None:
        if value is None:
            if required:
                self.bad(path, "I102", "an amount is required")
            return None
        try:
            return to_minor(value)
        except MoneyError as exc:
            self.bad(path, "I103", str(exc))
            return None

    def whole(self, value: Any, path: tuple, low: int = 1, high: int = 1_000_000) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "..."
            self.bad(path, "I103", f"expected a whole number from {low} to {high:,}, found {shown}")
            return None
        return value

    def choice(self, value: Any, allowed: tuple, path: tuple, required: bool = True) -> Any:
        if value is None:
            if required:
                self.bad(path, "I102", "is required", "one of: " + ", ".join(map(str, allowed)))
            return None
        if value not in allowed:
            close = did_you_mean(value, allowed)
            self.bad(path, "I104", f"'{value}' is not one of: {', '.join(map(str, allowed))}",
                     f"did you mean '{close}'?" if close else None)
            return None
        return value


def _dotted(path: tuple) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (("." if out else "") + str(p))
    return out


def _game(r: _Reader, raw: dict) -> tuple[Game | None, str | None]:
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
    if structure in ("fixed-limit", "spread-limit") and not bet_sizes:
        r.bad(("game", "bet_sizes"), "I102", f"a {structure} game needs its bet sizes", "e.g. bet_sizes: [20, 40]")
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


def _actions(r: _Reader, raw: Any, path: tuple, seats: set[int]) -> list[Action]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        r.bad(path, "I103", "expected a list of actions")
        return []
    out = []
    for i, a in enumerate(raw):
        here = path + (i,)
        if not isinstance(a, dict):
            r.bad(here, "I103", "an action is a mapping like {seat: 3, action: raise, to: 300}")
            continue
        r.keys(a, ACTION_KEYS, here)
        seat = r.whole(a.get("seat"), here + ("seat",))
        kind = r.choice(a.get("action"), ACTIONS, here + ("action",))
        to = r.money(a.get("to"), here + ("to",), required=kind in ("post", "bet", "raise", "complete", "bring-in"))
        if seat is not None and seats and seat not in seats:
            r.bad(here + ("seat",), "I105", f"seat {seat} is not in the hand", "seats: " + ", ".join(map(str, sorted(seats))))
            continue
        if seat is not None and kind is not None:
            out.append(Action(seat, kind, to))
    return out


def _motions(r: _Reader, raw: dict) -> tuple[tuple[int, ...], ...]:
    if "chips" in raw and "motions" in raw:
        r.bad(("disputed", "motions"), "I105", "give either chips (one motion) or motions, not both")
        return ()
    if "chips" in raw:
        groups, base = [raw["chips"]], ("disputed", "chips")
    else:
        groups, base = raw.get("motions", []), ("disputed", "motions")
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


def _disputed_act(r: _Reader, raw: dict, motions: tuple[tuple[int, ...], ...]) -> dict[str, Any]:
    """The chip-handling details of the disputed act; fields that contradict each other are refused (I108)."""
    stated = r.money(raw.get("chips_total"), ("disputed", "chips_total"), required=False)
    counted = sum(c for m in motions for c in m)
    if stated is not None and stated != counted:
        r.bad(("disputed", "chips_total"), "I108", f"the chips listed add up to {major(counted)}, not "
              f"{major(stated)}", "list every chip of every motion, or correct the total")
    prior: tuple[int, ...] = ()
    if raw.get("prior_chips") is not None:
        chips = raw["prior_chips"]
        if not isinstance(chips, list) or not chips:
            r.bad(("disputed", "prior_chips"), "I103", "a list of chip values, e.g. [1000]")
        else:
            values = [r.money(c, ("disputed", "prior_chips", i)) for i, c in enumerate(chips)]
            prior = tuple(v for v in values if v)
    pulled = r.choice(raw.get("prior_pulled"), ("none", "part", "all"), ("disputed", "prior_pulled"), required=False)
    if pulled is not None and not prior:
        r.bad(("disputed", "prior_pulled"), "I108", "says how earlier chips were pulled back, but no prior_chips "
              "are listed", "add prior_chips: [...] or remove prior_pulled")
    flags = {}
    for name in DISPUTED_FLAGS:
        if raw.get(name) is not None:
            if isinstance(raw[name], bool):
                flags[name] = raw[name]
            else:
                r.bad(("disputed", name), "I103", "expected true or false")
    answer = r.money(raw.get("count_answer"), ("disputed", "count_answer"), required=False)
    if answer is not None and not flags.get("count_asked", False):
        r.bad(("disputed", "count_answer"), "I108", "a count answer is given but count_asked is not true",
              "set count_asked: true, or remove count_answer")
    hidden = r.money(raw.get("hidden_chips"), ("disputed", "hidden_chips"), required=False)
    deal = r.choice(raw.get("side_deal"), ("insurance", "proposition", "run_twice"), ("disputed", "side_deal"),
                    required=False)
    buy_in = r.money(raw.get("buy_in"), ("disputed", "buy_in"), required=False)
    return {"prior_chips": prior, "prior_pulled": pulled if prior else None, "flags": flags,
            "count_answer": answer, "hidden_chips": hidden, "side_deal": deal, "buy_in": buy_in}


def _house_name(r: _Reader, value: Any) -> str | None:
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


def read_incident(doc: Located) -> Incident:
    """Validate an incident document; raise ProblemsError naming every field that is wrong."""
    r = _Reader(doc)
    data = r.mapping(doc.data, ())
    if data is None:
        raise ProblemsError(r.problems)
    r.keys(data, TOP, ())
    game_raw = r.mapping(data.get("game"), ("game",))
    game, variant = _game(r, game_raw) if game_raw is not None else (None, None)
    family = STREETS[VARIANT_STREETS.get(variant or "holdem", "board")]
    street = r.choice(data.get("street", family[0]), family, ("street",))
    button = data.get("button")
    players_raw = data.get("players")
    if isinstance(players_raw, (dict, list)) and len(players_raw) > MAX_SEATS:
        r.bad(("players",), "I103", f"{len(players_raw):,} players; a hand has at most {MAX_SEATS}")
        raise ProblemsError(r.problems)
    for name in ("actions", "after"):
        if isinstance(data.get(name), list) and len(data[name]) > MAX_LIST:
            r.bad((name,), "I103", f"{len(data[name]):,} actions; at most {MAX_LIST} are read")
            raise ProblemsError(r.problems)
    stacks: dict[int, int | None] = {}
    if isinstance(players_raw, dict):
        for seat, stack in players_raw.items():
            seat = int(seat) if isinstance(seat, str) and seat.isdigit() else seat   # JSON keys are text
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
    if button is not None and r.whole(button, ("button",)) is None:
        button = None
    order = sorted(stacks)
    if button is not None:
        order = [s for s in order if s > button] + [s for s in order if s <= button]
    elif stacks:
        r.bad(("button",), "I102", "which seat has the button?", "button: 6")
    seats = set(stacks)
    table = read_table(r, data.get("table"), seats, variant)
    procedure = read_procedure(r, data.get("procedure"), seats, variant)
    actions = _actions(r, data.get("actions"), ("actions",), seats)
    after = _actions(r, data.get("after"), ("after",), seats)
    pot = r.money(data.get("pot", 0), ("pot",))
    pot_now = r.money(data.get("pot_now"), ("pot_now",), required=False)
    disputed = None
    d_raw = r.mapping(data.get("disputed"), ("disputed",), required=False)
    if d_raw is not None:
        r.keys(d_raw, DISPUTED, ("disputed",))
        seat = r.whole(d_raw.get("seat"), ("disputed", "seat"))
        if seat is not None and seats and seat not in seats:
            r.bad(("disputed", "seat"), "I105", f"seat {seat} is not in the hand")
        said = d_raw.get("said")
        if said is not None and not isinstance(said, str):
            said = str(said)
        if said is not None and len(said) > MAX_SAID:
            r.bad(("disputed", "said"), "I103", f"{len(said):,} characters; the player's words are at most "
                  f"{MAX_SAID}", "write what the player said, word for word")
        words_first = r.choice(d_raw.get("words_first"), facts()["words_first"].values,
                               ("disputed", "words_first"), required=False)
        motions = _motions(r, d_raw)
        count = r.money(d_raw.get("based_on_count"), ("disputed", "based_on_count"), required=False)
        act = _disputed_act(r, d_raw, motions)
        if seat is not None:
            disputed = Disputed(seat, said, motions, words_first, count, **act)
    inputs = {}
    for name in ("noticed", "pointed_out_by"):
        if data.get(name) is not None:
            inputs[name] = r.choice(data[name], facts()[name].values, (name,))
    for name in ("deliberated", "count_requested"):
        if data.get(name) is not None:
            if isinstance(data[name], bool):
                inputs[name] = data[name]
            else:
                r.bad((name,), "I103", "expected true or false")
    params = data.get("params") or {}
    if not isinstance(params, dict):
        r.bad(("params",), "I103", "params is a mapping of parameter names to values")
        params = {}
    elif len(params) > MAX_PARAMS:
        r.bad(("params",), "I103", f"{len(params):,} parameters; an incident sets at most {MAX_PARAMS}",
              "rulings explain NAME describes each parameter")
        params = {}
    house = _house_name(r, data.get("house"))
    upcards, exposed = _upcards(r, data, seats)
    split = _split(r, data, seats)
    if variant is not None:
        inputs["variant"] = variant
    if game_raw is not None and game_raw.get("players_left") is not None:
        left = r.whole(game_raw["players_left"], ("game", "players_left"), low=2)
        if left is not None:
            inputs["event_players_left"] = left
    if r.problems or game is None or street is None:
        raise ProblemsError(r.problems)
    players = tuple(Player(s, stacks[s]) for s in order)
    idx = family.index(street)
    straddles = game_raw.get("straddles") or []
    if not isinstance(straddles, list):
        raise ProblemsError([r.doc.problem(("game", "straddles"), "I103", "game.straddles: expected a list of amounts")])
    amounts = tuple(r.money(s, ("game", "straddles", i)) for i, s in enumerate(straddles))
    if r.problems:
        raise ProblemsError(r.problems)
    # streets[0] is the street the incident describes; earlier streets are summed up in `pot`
    hand = Hand(game, players, (tuple(actions),), first_street=idx, pot_before=pot or 0,
                straddles=tuple(a or 0 for a in amounts))
    return Incident(str(data.get("incident") or Path(doc.file).stem), hand, street, disputed, tuple(after),
                    inputs, params, house, pot_now, doc, table, upcards, exposed, split,
                    procedure)


RANKS = "23456789TJQKA"
SUITS = "cdhs"


def _upcards(r: _Reader, data: dict, seats: set[int]) -> tuple[dict[int, str], int | None]:
    """Stud upcards (``upcards: {1: Kd, 2: 2c}``) and the seat showing an exposed downcard, checked by field."""
    raw = data.get("upcards")
    out: dict[int, str] = {}
    if raw is not None:
        if not isinstance(raw, dict):
            r.bad(("upcards",), "I103", "upcards are a mapping of seat to card, e.g. {1: Kd, 2: 2c}")
            raw = {}
        for key, card in raw.items():
            seat = int(key) if isinstance(key, str) and key.isdigit() else key
            if r.whole(seat, ("upcards", key)) is None:
                continue
            if seats and seat not in seats:
                r.bad(("upcards", key), "I105", f"seat {seat} is not in the hand")
                continue
            text = str(card).strip()
            text = "T" + text[2:] if text[:2] == "10" else text
            if len(text) != 2 or text[0].upper() not in RANKS or text[1].lower() not in SUITS:
                r.bad(("upcards", key), "I104", f"'{card}' is not a card", "a rank (2-9, T, J, Q, K, A) and a suit "
                      "(c, d, h, s), e.g. Td or 2c")
                continue
            text = text[0].upper() + text[1].lower()
            if text in out.values():
                r.bad(("upcards", key), "I105", f"{text} is showing in front of two seats")
                continue
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


def load_incident(path: str | Path) -> Incident:
    doc, problems = load_file(path, MAX_INCIDENT_BYTES, MAX_INCIDENT_NODES)
    if doc is None:
        raise ProblemsError(problems)
    return read_incident(doc)


def incident_from_data(data: dict, file: str = "<example>") -> Incident:
    """An incident given as data (a rulebook example): positions are those of the YAML it came from."""
    return read_incident(Located(file, data, {}))


def incident_from_text(text: str, file: str = "<text>") -> Incident:
    doc, problems = load_text(text, file, MAX_INCIDENT_BYTES, MAX_INCIDENT_NODES)
    if doc is None:
        raise ProblemsError(problems)
    return read_incident(doc)



def _split(r: _Reader, data: dict, seats: set[int]) -> dict | None:
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
