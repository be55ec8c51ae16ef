"""The `procedure:` section (the clock, calling time, posting, the button, showdown, the deal), read and checked by field.

Its sections, their fields and kinds are declared once, in the fact catalogue (`sections:`); every problem
goes to the incident's reader and nothing here raises. The facts
are worked out from the checked values in rulings/facts/procedure.py.
"""
from __future__ import annotations

from typing import Any

from rulings.incident.cards import RANKS, SUITS
from rulings.incident.model import Procedure
from rulings.incident.reader import seat_key
from rulings.rulebook import catalogue


def declared() -> dict[str, dict]:
    """The declared sections (the catalogue's ``sections()``), looked up on each call."""
    return catalogue.sections()


_SPEC: list = [None, None]   # the declarations last read and the reader's table made from them


def spec() -> dict[str, dict[str, tuple[Any, str | None]]]:
    """Each declared section's fields as the reader reads them: field -> (kind, fact). kind: bool | count |
    money | hand_seat (dealt in) | seat (any seat) | seats | seat_or_seats | cards | board | items | a tuple of
    choices. Made from the catalogue's declarations (rulings/facts/*.yaml ``sections:``), never written here."""
    decls = declared()
    if _SPEC[0] is not decls:
        _SPEC[:] = [decls, {name: {key: (tuple(f["values"]) if f["kind"] == "choice" else f["kind"], f.get("fact"))
                                   for key, f in decl["fields"].items()}
                            for name, decl in decls.items()}]
    return _SPEC[1]


def __getattr__(name: str) -> Any:
    """``SPEC`` (``spec()``), ``SECTIONS`` (the declared sections' names), ``REQUEST`` (showdown's repeated
    request fields) and ``DEFAULT_FALSE`` (posting's flags that are false when left out), as the modules that
    read the reader's tables name them; all made from the declarations."""
    if name == "SPEC":
        return spec()
    if name == "SECTIONS":
        return tuple(declared())
    if name == "REQUEST":
        return tuple(declared()["showdown"]["repeats"]["requests"])
    if name == "DEFAULT_FALSE":
        return tuple(k for k, f in declared()["posting"]["fields"].items() if f.get("absent") is False)
    raise AttributeError(name)


def absent_facts(name: str) -> dict[str, Any]:
    """The facts a section's fields left out stand for (a posting flag left out did not happen), as declared."""
    return {f["fact"]: f["absent"] for f in declared()[name]["fields"].values()
            if f.get("fact") and f.get("absent") is not None}


def _cards(r, value: Any, path: tuple) -> tuple[str, ...] | None:
    """Cards as text, two characters each ('AhKd'); checked against the ranks and suits."""
    if not isinstance(value, str) or len(value.replace(" ", "")) % 2:
        r.bad(path, "I103", "cards are written rank then suit, e.g. 'AsKd' (ranks 2-9 T J Q K A, suits c d h s)")
        return None
    text = value.replace(" ", "")
    out = tuple(text[i:i + 2] for i in range(0, len(text), 2))
    for c in out:
        if c[0] not in RANKS or c[1] not in SUITS:
            r.bad(path, "I103", f"'{c}' is not a card", "ranks 2-9 T J Q K A, suits c d h s, e.g. 'Th'")
            return None
    return out


def _value(r, kind: Any, value: Any, path: tuple, players: set[int], decl: dict | None = None) -> Any:
    if isinstance(kind, tuple):
        return r.choice(value, kind, path)
    if kind == "bool":
        if not isinstance(value, bool):
            r.bad(path, "I103", "expected true or false")
            return None
        return value
    if kind == "count":
        return r.whole(value, path, low=0)
    if kind == "money":
        return r.money(value, path)
    if kind in ("seat", "hand_seat"):
        s = r.whole(value, path)
        if s is not None and kind == "hand_seat" and s not in players:
            r.bad(path, "I105", f"seat {s} is not in the hand", "seats: " + ", ".join(map(str, sorted(players))))
            return None
        return s
    if kind in ("seats", "table_seats"):    # seats dealt in; any seats of the table
        if not isinstance(value, list):
            r.bad(path, "I103", "expected a list of seats, e.g. [3, 5]")
            return None
        one = "hand_seat" if kind == "seats" else "seat"
        out = [_value(r, one, v, path + (i,), players) for i, v in enumerate(value)]
        return tuple(out) if None not in out else None
    if kind == "seat_or_seats":
        if isinstance(value, list) and value:
            out = [r.whole(v, path + (i,)) for i, v in enumerate(value)]
            return tuple(out) if None not in out else None
        s = r.whole(value, path)
        return None if s is None else (s,)
    if kind == "board":
        return _cards(r, value, path)
    if kind == "cards":
        if not isinstance(value, dict):
            r.bad(path, "I103", "hands are a mapping of seat to cards, e.g. {3: 'AsKd', 5: 'QhQc'}")
            return None
        hands = {}
        from rulings.incident.reader import twice_keyed
        skip = twice_keyed(r, value, path)
        for seat, cards in value.items():
            if seat in skip:
                continue
            seat = seat_key(seat)
            s = _value(r, "hand_seat", seat, path + (seat,), players)
            c = _cards(r, cards, path + (seat,))
            if s is not None and c is not None:
                hands[s] = c
        return hands
    if kind == "seat_counts":
        if not isinstance(value, dict):
            r.bad(path, "I103", "a mapping of seat to how many cards he holds, e.g. {3: 3, 5: 1}")
            return None
        from rulings.incident.reader import twice_keyed
        skip = twice_keyed(r, value, path)
        counts = {}
        for seat, n in value.items():
            if seat in skip:
                continue
            seat = seat_key(seat)
            s = _value(r, "seat", seat, path + (seat,), players)
            c = r.whole(n, path + (seat,), low=0)
            if s is not None and c is not None:
                counts[s] = c
        return counts
    if kind == "items":
        return _items(r, value, path, players, decl or {})
    raise AssertionError(kind)


def _items(r, value: Any, path: tuple, players: set[int], decl: dict) -> tuple[dict, ...] | None:
    """A list of entries, each a mapping of the declared item fields (``items:``), read by field."""
    most = decl.get("maximum", 100)
    if not isinstance(value, list):
        r.bad(path, "I103", "expected a list of entries", "e.g. [{" + ", ".join(
            f"{k}: ..." for k, d in decl["items"].items() if d.get("needed")) + "}]")
        return None
    if len(value) > most:
        r.bad(path, "I103", f"{len(value):,} entries; at most {most}")
        return None
    out = []
    for i, item in enumerate(value):
        sub = r.mapping(item, path + (i,))
        if sub is None:
            continue
        r.keys(sub, tuple(decl["items"]), path + (i,))
        got: dict[str, Any] = {}
        for key, d in decl["items"].items():
            if sub.get(key) is None:
                if d.get("needed"):
                    r.bad(path + (i,), "I102", f"{key} is needed", f"{key}: ...")
                continue
            kind = tuple(d["values"]) if d["kind"] == "choice" else d["kind"]
            v = _value(r, kind, sub[key], path + (i, key), players)
            if v is not None:
                got[key] = v
        out.append(got)
    return tuple(out)


def read_procedure(r, raw: Any, players: set[int], variant: str | None = None,
                   button: int | None = None) -> Procedure | None:
    """Read the `procedure:` section with the incident's reader ``r``; every problem is reported by field.
    Its sections, their fields and kinds come from the declarations (``spec()``)."""
    if raw is None:
        return None
    data = r.mapping(raw, ("procedure",))
    if data is None:
        return None
    decls = declared()
    table = spec()
    r.keys(data, tuple(decls), ("procedure",))
    facts: dict[str, Any] = {}
    values: dict[str, dict[str, Any]] = {}
    for name, decl in decls.items():
        if data.get(name) is None:
            continue
        sub = r.mapping(data[name], ("procedure", name))
        if sub is None:
            continue
        fields = table[name]
        r.keys(sub, tuple(fields) + tuple(decl["repeats"]), ("procedure", name))
        listed = [rep for rep, keys in decl["repeats"].items() if sub.get(rep) is not None]
        for need in decl["needs"]:
            if sub.get(need) is None and not any(need in decl["repeats"][rep] for rep in listed):
                # a field each entry of a list gives is needed there, not here
                question = decl["fields"][need]["question"]
                r.bad(("procedure", name), "I102", "which seat is this about?" if need == "seat" else question,
                      f"{need}: 4" if need == "seat" else None)
        got = values.setdefault(name, {})
        for key, (kind, fact) in fields.items():
            if sub.get(key) is None:
                continue
            v = _value(r, kind, sub[key], ("procedure", name, key), players, decl["fields"][key])
            if v is None:
                continue
            got[key] = v
            if fact is not None:
                facts[fact] = v
        for rep, keys in decl["repeats"].items():
            if sub.get(rep) is not None:
                entries = _requests(r, sub[rep], players, name, rep, keys)
                if entries is not None:
                    got[rep] = entries
    _contradictions(r, values)
    _card_counts(r, values.get("showdown", {}), variant or "holdem")
    for name, check in CHECKS.items():
        if name in values:
            check(r, values[name], players, variant or "holdem", button)
    return Procedure(facts, values, variant or "holdem")


# the cards each player gets on the deal, by game (a game not listed: not known)
DEALT = {"holdem": 2, "omaha": 4, "stud": 3, "razz": 3, "draw": 5, "lowball": 5}
SHOWN = ("exposed", "face_up", "flashed", "off_table")   # how a card of the deal can be seen


def deal_order(deal: dict[str, Any], players: set[int], button: int | None) -> list[int] | None:
    """The seats in the order the deal went round: every seat that got cards (the players, and seats with no
    right to a hand that got some, but not a seat dealt out), from the seat that got the first card (else the
    first on the button's left). None when neither the first card's seat nor the button is known."""
    seats = sorted((set(players) | set(deal.get("not_entitled") or ())) - set(deal.get("dealt_out") or ()))
    first = deal.get("first_card_seat")
    if not seats:
        return None
    if first is None or first not in seats:
        if button is None:
            return None
        first = next((s for s in seats if s > button), seats[0])
    i = seats.index(first)
    return seats[i:] + seats[:i]


def proper_first(deal: dict[str, Any], players: set[int], button: int | None) -> int | None:
    """The seat the deal should start at: the first seat on the button's left with a right to a hand."""
    if button is None:
        return None
    right = sorted((set(players) | set(deal.get("dealt_out") or ())) - set(deal.get("not_entitled") or ()))
    return next((s for s in right if s > button), right[0] if right else None)


def _deal_checks(r, deal: dict[str, Any], players: set[int], variant: str, button: int | None) -> None:
    """The deal as told must be one deal: each card once, where the deal order puts it, no more cards to a
    player than he holds, no cards to a seat dealt out, actions only when noticed after some; every problem
    at once (I130)."""
    at = ("procedure", "deal")
    order = deal_order(deal, players, button)
    hands = deal.get("hands") or {}
    out = set(deal.get("dealt_out") or ())
    seen: dict[int, int] = {}
    listed: dict[int, int] = {}
    for i, card in enumerate(deal.get("cards") or ()):
        pos = card.get("position")
        if pos is None:
            continue
        if card.get("card") is not None and len(card["card"]) != 1:
            r.bad(at + ("cards", i, "card"), "I130", f"one card's face, not {len(card['card'])}", "card: 6s")
        if card.get("how") not in (None, "boxed") and card.get("by") is None:
            r.bad(at + ("cards", i), "I102", f"who let card {pos} be seen: the dealer, the player or another "
                  "player?", "by: dealer")
        if pos < 1:
            r.bad(at + ("cards", i, "position"), "I130", "the deal's cards are counted from 1 (the first card "
                  "off the deck)")
            continue
        if pos in seen:
            r.bad(at + ("cards", i, "position"), "I130", f"card {pos} of the deal is listed twice",
                  f"give card {pos} once (it is entry {seen[pos] + 1})")
        seen[pos] = i
        if card.get("how") == "boxed":
            continue     # a boxed card is found in the deck: it goes to no one
        seat = card.get("seat")
        if order is not None:
            due = order[(pos - 1) % len(order)]
            if seat is not None and seat != due:
                r.bad(at + ("cards", i, "seat"), "I130", f"card {pos} of a deal starting at seat {order[0]} "
                      f"goes to seat {due}, not seat {seat}", f"seat: {due}, or check first_card_seat")
                continue
            seat = due
            nth = (pos - 1) // len(order) + 1
            if seat in hands and nth > hands[seat]:
                r.bad(at + ("cards", i), "I130", f"card {pos} is seat {seat}'s card number {nth}, but he holds "
                      f"{hands[seat]}", "check the card's place in the deal, or the cards he holds")
        if seat is None:
            continue
        listed[seat] = listed.get(seat, 0) + 1
        if seat in out:
            r.bad(at + ("cards", i), "I130", f"seat {seat} was dealt out, so no card of the deal went to him",
                  "remove him from dealt_out, or the card")
        elif seat in hands and listed[seat] > hands[seat]:
            r.bad(at + ("cards", i), "I130", f"{listed[seat]} cards are listed to seat {seat}, who holds "
                  f"{hands[seat]}", "check the cards he holds")
    for seat, n in hands.items():
        if seat in out and n:
            r.bad(at + ("hands", seat), "I130", f"seat {seat} was dealt out, but holds {n} card(s)",
                  "remove him from dealt_out, or give 0")
        if seat not in players and seat not in (deal.get("not_entitled") or ()):
            r.bad(at + ("hands", seat), "I105", f"seat {seat} is not in the hand",
                  "seats: " + ", ".join(map(str, sorted(players))))
    wrong = deal.get("first_card_wrong_seat")
    proper = proper_first(deal, players, button)
    if wrong is not None and proper is not None and deal.get("first_card_seat") is not None and \
            wrong != (deal["first_card_seat"] != proper):
        r.bad(at + ("first_card_wrong_seat",), "I130", f"with the button on seat {button} the deal starts at "
              f"seat {proper}, and the first card went to seat {deal['first_card_seat']}",
              "leave first_card_wrong_seat out (the button and the first card decide it)")
    if deal.get("actions") and deal.get("noticed") in ("during_deal", "before_any_action"):
        r.bad(at + ("actions",), "I130", "actions are listed, but it was noticed before anyone acted",
              "noticed: after_action, or remove the actions")
    if deal.get("flop_cards") is not None and deal["flop_cards"] < 3:
        r.bad(at + ("flop_cards",), "I130", "a flop is three cards; give the number turned (4 for a four-card "
              "flop)")
    for key in ("killed_identifiable", "killed_uncalled"):
        if key in deal and "killed_seat" not in deal:
            r.bad(at + (key,), "I102", "whose hand did the dealer kill?", "killed_seat: 4")
    if deal.get("seventh_players") is not None and deal["seventh_players"] > len(players):
        r.bad(at + ("seventh_players",), "I130", f"{deal['seventh_players']} players on seventh street, but "
              f"{len(players)} in the hand", "count the players still in")
    for seat in deal.get("on_penalty") or ():     # a player away and dealt round is told as both; on a penalty, not
        if seat in out:
            r.bad(at + ("on_penalty",), "I130", f"seat {seat} is both on penalty and dealt out",
                  "a player on a penalty is dealt in (his hand is killed): leave him out of dealt_out")


# a section's own checks across its fields (each refuses by field, I130), by section; a section without
# cross-field checks needs none
CHECKS: dict[str, Any] = {"deal": _deal_checks}


def _requests(r, raw: Any, players: set[int], name: str = "showdown", rep: str = "requests",
              keys: Any = None) -> tuple[tuple[dict, dict], ...] | None:
    """A section's repeated entries (procedure.showdown.requests: each request to see a hand), each read with
    the section's own fields, as (values, facts); every problem by field."""
    path = ("procedure", name, rep)
    decl = declared()[name]
    keys = tuple(keys or decl["repeats"][rep])
    fields = spec()[name]
    # what each entry needs: a request, who asks and whose hand; another section's entry, the section's needs
    needed = ("asker", "asked_to_see") if name == "showdown" else tuple(k for k in decl["needs"] if k in keys)
    if not isinstance(raw, list) or not raw:
        r.bad(path, "I103", "requests is a list of requests to see a hand" if name == "showdown" else
              f"{rep} is a list, one entry each", "requests: [{asker: 1, asked_to_see: 3}, {asker: 2, "
              "asked_to_see: 3}]" if name == "showdown" else f"{rep}: [{{" + ", ".join(f"{k}: ..." for k in needed)
              + "}, ...]")
        return None
    out = []
    for i, item in enumerate(raw):
        sub = r.mapping(item, path + (i,))
        if sub is None:
            continue
        r.keys(sub, keys, path + (i,))
        if name == "showdown" and (sub.get("asker") is None or sub.get("asked_to_see") is None):
            r.bad(path + (i,), "I102", "who asked, and to see whose hand?", "asker: 1, asked_to_see: 3")
        for need in (() if name == "showdown" else needed):
            if sub.get(need) is None:
                r.bad(path + (i,), "I102", decl["fields"][need]["question"], f"{need}: ...")
        got: dict[str, Any] = {}
        facts: dict[str, Any] = {}
        for key in keys:
            if sub.get(key) is None:
                continue
            kind, fact = fields[key]
            v = _value(r, kind, sub[key], path + (i, key), players)
            if v is not None:
                got[key] = v
                if fact is not None:   # every field of a request has its fact (sd_asker, ...)
                    facts[fact] = v
        out.append((got, facts))
    return tuple(out)


HOLE_CARDS = {"holdem": 2, "omaha": 4}


def _card_counts(r, sd: dict[str, Any], variant: str) -> None:
    """A hand or board of the wrong size for the game would be read wrongly: refuse it."""
    need = HOLE_CARDS.get(variant)
    for seat, cards in (sd.get("hands") or {}).items():
        if need is not None and len(cards) != need:
            r.bad(("procedure", "showdown", "hands", seat), "I130", f"a {variant} hand has {need} cards, "
                  f"not {len(cards)}", f"list all {need} of seat {seat}'s cards")
    board = sd.get("board")
    if need is not None and board is not None and not 3 <= len(board) <= 5:
        r.bad(("procedure", "showdown", "board"), "I130", f"a board has 3 to 5 cards, not {len(board)}")


def _contradictions(r, v: dict[str, dict[str, Any]]) -> None:
    post = v.get("posting", {})
    if post.get("player") == "new" and post.get("missed") not in (None, "none"):
        r.bad(("procedure", "posting", "missed"), "I130", "a new player has missed no blind yet",
              "missed: none, or player: returning")
    if post.get("looked") is not None and not post.get("dealt_in_unposted"):
        r.bad(("procedure", "posting", "looked"), "I130", "looked says whether a player dealt in without posting "
              "saw his cards", "add dealt_in_unposted: true, or remove looked")
    clock = v.get("clock", {})
    if clock.get("called_by") not in (None, "player") and "caller_seated" in clock:
        r.bad(("procedure", "clock", "caller_seated"), "I130", "only a player calling the clock has a seat to "
              "be at", "called_by: player, or remove caller_seated")
    for name, decl in declared().items():      # a list of entries, or one entry's fields: not both
        body = v.get(name, {})
        for rep, keys in decl["repeats"].items():
            if name != "showdown" and body.get(rep) and any(key in body for key in keys):
                r.bad(("procedure", name, rep), "I130", f"give one entry's fields, or several under {rep}, not "
                      "both", f"move the single entry into {rep}")
    sd = v.get("showdown", {})
    if sd.get("requests") and any(key in sd for key in declared()["showdown"]["repeats"]["requests"]):
        r.bad(("procedure", "showdown", "requests"), "I130", "give one request with asker and asked_to_see, or "
              "several under requests, not both", "move the single request into requests")
    board = sd.get("board") or ()
    seen: set[str] = set(board)
    for seat, cards in (sd.get("hands") or {}).items():
        for c in cards:
            if c in seen:
                r.bad(("procedure", "showdown", "hands", seat), "I130", f"the card {c} appears twice",
                      "each card is dealt once")
            seen.add(c)
    if sd.get("hands") and sd.get("board") is None:
        r.bad(("procedure", "showdown", "board"), "I102", "the board is needed to read the hands",
              "board: 'Ah7c2d9sTs'")
    btn = v.get("button", {})
    if ("last_button" in btn or "last_small" in btn) and "last_big" not in btn:
        r.bad(("procedure", "button"), "I102", "where were the blinds last hand?",
              "last_button: 1, last_small: 2, last_big: 3")
