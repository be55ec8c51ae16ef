"""The `procedure:` section (the clock, calling time, posting, the button, showdown), read and checked by field.

Every problem goes to the incident's reader; nothing here raises. The facts
are worked out from the checked values in rulings/facts/procedure.py.
"""
from __future__ import annotations

from typing import Any

from rulings.incident.cards import RANKS, SUITS
from rulings.incident.model import Procedure

SECTIONS = ("clock", "time", "posting", "button", "showdown")
# field: (kind, fact). kind: bool | count | money | hand_seat (dealt in) | seat (any seat) | a tuple of choices
SPEC: dict[str, dict[str, tuple[Any, str | None]]] = {
    "clock": {
        "seat": ("hand_seat", "clock_seat"),
        "called_by": (("player", "floor", "dealer"), "clock_called_by"),
        "caller_seat": ("seat", "clock_caller_seat"),
        "caller_seated": ("bool", "clock_caller_seated"),
        "facing_bet": ("bool", "clock_facing_bet"),
        "seconds_taken": ("count", "clock_seconds_taken"),
    },
    "time": {
        "seat": ("hand_seat", "time_seat"),
        "called_time": ("bool", "time_called"),
        "at_seat": ("bool", "time_at_seat"),
        "acted_behind": ("count", "time_acted_behind"),
        "earlier_to_act": ("bool", "time_earlier_to_act"),
    },
    "posting": {
        "seat": ("seat", "post_seat"),
        "player": (("new", "returning", "seat_change", "dealt_off", "played_over", "rebuy_after_bust"),
                   "post_player"),
        "missed": (("none", "small", "big", "both"), "post_missed"),
        "choice": (("post", "wait"), "post_choice"),
        "due_big_blind": ("bool", "post_due_big_blind"),
        "between_bb_and_button": ("bool", "post_between_bb_and_button"),
        "dealt_in_unposted": ("bool", "post_dealt_in_unposted"),
        "looked": ("bool", "post_looked"),
        "acted": ("bool", "post_acted"),
        "new_game": ("bool", "post_new_game"),
        "blind_passed_seat": ("bool", "post_blind_passed_seat"),
        "button_passed": ("bool", "post_button_passed"),
        "same_position": ("bool", "post_same_position"),
        "absent": ("bool", "post_absent"),
        "posted": ("money", "post_amount"),
    },
    "button": {
        "last_button": ("seat", None),
        "last_small": ("seat", None),
        "last_big": ("seat_or_seats", None),   # several seats when a moving button had more than one
        "table_seats": ("count", None),
        "wrong_move": ("bool", "button_wrong_move"),
        "substantial_action": ("bool", "button_substantial_action"),
        "blind_first_turn": ("hand_seat", "button_blind_first_turn"),
        "dodged_blind": ("bool", "button_dodged_blind"),
    },
    "showdown": {
        "last_aggressor": ("hand_seat", "sd_last_aggressor"),
        "river_checked": ("bool", "sd_river_checked"),
        "in_showdown": ("seats", None),
        "first_to_act": ("hand_seat", None),   # stud and razz: the high (razz: low) hand showing
        "claimant": ("hand_seat", "sd_claimant"),
        "claimant_folded": ("bool", "sd_claimant_folded"),
        "tabled": (("all", "some", "none"), "sd_tabled"),
        "winning_if_tabled": ("bool", "sd_winning_if_tabled"),
        "mucked": ("bool", "sd_mucked"),
        "identifiable": ("bool", "sd_identifiable"),
        "asker": ("hand_seat", "sd_asker"),
        "asker_kept_cards": ("bool", "sd_asker_kept_cards"),
        "asker_called": ("bool", "sd_asker_called"),
        "asked_to_see": ("hand_seat", "sd_asked_to_see"),
        "asked_mucked": ("bool", "sd_asked_mucked"),              # the hand asked for was thrown away
        "asked_identifiable": ("bool", "sd_asked_identifiable"),  # ... and can still be told apart from the muck
        "river_bet": ("bool", "sd_river_bet"),
        "player_all_in": ("bool", "sd_player_all_in"),
        "betting_done": ("bool", "sd_betting_done"),
        "dealer_read": ("hand_seat", "sd_dealer_read_winner"),
        "hands": ("cards", None),
        "board": ("board", None),
        "miscall": (("none", "first_card", "second_card", "pair_unannounced"), "sd_miscall"),
        "other_fouled": ("bool", "sd_other_fouled"),
        "players_left": ("count", "sd_players_left"),
        "dispute": (("reading", "count"), "sd_dispute"),
        "when": (("before_next_hand", "next_hand_started", "after_substantial_action"), "sd_dispute_when"),
        "paid": ("money", "sd_count_paid"),          # a count in dispute: what the winner was pushed
        "due": ("money", "sd_count_due"),            # ... and what the pot he won held
    },
}


# procedure.showdown.requests: several requests to see hands in one dispute, each with these fields
REQUEST = ("asker", "asker_called", "asker_kept_cards", "asked_to_see", "asked_mucked", "asked_identifiable")

DEFAULT_FALSE = ("due_big_blind", "between_bb_and_button", "dealt_in_unposted", "new_game", "button_passed",
                 "absent", "acted")


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


def _value(r, kind: Any, value: Any, path: tuple, players: set[int]) -> Any:
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
    if kind == "seats":
        if not isinstance(value, list):
            r.bad(path, "I103", "expected a list of seats, e.g. [3, 5]")
            return None
        out = [_value(r, "hand_seat", v, path + (i,), players) for i, v in enumerate(value)]
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
            seat = int(seat) if isinstance(seat, str) and seat.isdigit() else seat
            s = _value(r, "hand_seat", seat, path + (seat,), players)
            c = _cards(r, cards, path + (seat,))
            if s is not None and c is not None:
                hands[s] = c
        return hands
    raise AssertionError(kind)


def read_procedure(r, raw: Any, players: set[int], variant: str | None = None) -> Procedure | None:
    """Read the `procedure:` section with the incident's reader ``r``; every problem is reported by field."""
    if raw is None:
        return None
    data = r.mapping(raw, ("procedure",))
    if data is None:
        return None
    r.keys(data, SECTIONS, ("procedure",))
    facts: dict[str, Any] = {}
    values: dict[str, dict[str, Any]] = {}
    for name in SECTIONS:
        if data.get(name) is None:
            continue
        sub = r.mapping(data[name], ("procedure", name))
        if sub is None:
            continue
        spec = SPEC[name]
        r.keys(sub, tuple(spec) + (("requests",) if name == "showdown" else ()), ("procedure", name))
        if name in ("clock", "time", "posting") and sub.get("seat") is None:
            r.bad(("procedure", name), "I102", "which seat is this about?", "seat: 4")
        got = values.setdefault(name, {})
        for key, (kind, fact) in spec.items():
            if sub.get(key) is None:
                continue
            v = _value(r, kind, sub[key], ("procedure", name, key), players)
            if v is None:
                continue
            got[key] = v
            if fact is not None:
                facts[fact] = v
    if "showdown" in values and isinstance(data.get("showdown"), dict) and data["showdown"].get("requests") is not None:
        requests = _requests(r, data["showdown"]["requests"], players)
        if requests is not None:
            values["showdown"]["requests"] = requests
    _contradictions(r, values)
    _card_counts(r, values.get("showdown", {}), variant or "holdem")
    return Procedure(facts, values, variant or "holdem")


def _requests(r, raw: Any, players: set[int]) -> tuple[tuple[dict, dict], ...] | None:
    """procedure.showdown.requests: each request to see a hand, read with the showdown's own fields, as
    (values, facts); every problem by field."""
    path = ("procedure", "showdown", "requests")
    if not isinstance(raw, list) or not raw:
        r.bad(path, "I103", "requests is a list of requests to see a hand",
              "requests: [{asker: 1, asked_to_see: 3}, {asker: 2, asked_to_see: 3}]")
        return None
    out = []
    for i, item in enumerate(raw):
        sub = r.mapping(item, path + (i,))
        if sub is None:
            continue
        r.keys(sub, REQUEST, path + (i,))
        if sub.get("asker") is None or sub.get("asked_to_see") is None:
            r.bad(path + (i,), "I102", "who asked, and to see whose hand?", "asker: 1, asked_to_see: 3")
        got: dict[str, Any] = {}
        facts: dict[str, Any] = {}
        for key in REQUEST:
            if sub.get(key) is None:
                continue
            kind, fact = SPEC["showdown"][key]
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
    sd = v.get("showdown", {})
    if sd.get("requests") and any(key in sd for key in REQUEST):
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
