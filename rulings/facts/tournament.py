"""The tournament floor's numbers (issue #47): from the `procedure:` sections at_seat, moved, tables,
chip_race, chips, conduct and penalty (declared in rulings/facts/tournament.yaml).

Counts and places only, never a verdict: the place of the last card of the initial deal and what an absent
player's killed hand leaves in the pot; where a moved player's seat falls against the button and the blinds;
how short a table is of the fullest, who would be big blind next and the open seat where the big blind comes
soonest; the chip race worked out card by card under the house's cap, rounding and raced-out rule; the hands
a penalty lasts at this table, the hands in which the blinds find the penalised seat, and what it posts
meanwhile. Whether a hand is dead, who moves, whether play stops and what penalty is due is decided in
rulebooks/standard/tournament.yaml and penalties.yaml. Every number is an exact integer (money in hundredths)
and every loop is bounded by the reader's limits (seats, tables and race cards are whole numbers the reader
checked; a race deals at most MAX_RACE_CARDS cards). Nothing here refuses.
"""
from __future__ import annotations

from typing import Any

from rulings.incident.model import Incident
from rulings.incident.cards import RANKS, SUITS
from rulings.incident.procedure import DEALT
from rulings.money import to_minor

MAX_RACE_CARDS = 1000      # a race deals one card per odd chip: more than this is told, never dealt out here
MAX_SEATS = 100            # seats of a table counted round (the reader's seat numbers are whole and small)


def tournament_facts(incident: Incident, raw: dict[str, Any], params: dict[str, Any], f: dict[str, Any]) -> None:
    """Add the facts of each tournament section the incident gives (``raw``: its procedure sections)."""
    seats = sorted(pl.seat for pl in incident.hand.players)
    button = _given(incident, "button")
    game = incident.hand.game
    bba = _bba(incident)
    if "deal" in raw:
        _away_redealt(raw["deal"], seats, button, game, bba, f)
    if "at_seat" in raw:
        _at_seat(raw["at_seat"], seats, button, game, bba, f)
    if "moved" in raw:
        _moved(raw["moved"], seats, button, game, bba, f)
    if "tables" in raw:
        _tables(raw["tables"], seats, f)
    if "chip_race" in raw:
        _race(raw["chip_race"], params, f)
    if "hand_for_hand" in raw:
        _hand_for_hand(raw["hand_for_hand"], params, f)
    if "chips" in raw:
        _chips_kept(raw["chips"], f)
    if "conduct" in raw:
        f["conduct_in_dispute"] = True
        f["conduct_round_size"] = len(seats)
        f["conduct_hand_note"] = "; his hand stays live" if raw["conduct"].get("in_hand") else ""
        f["conduct_blinds"] = game.small_blind + game.big_blind + bba   # both blinds, with the big blind ante
    if "penalty" in raw:
        _penalty(raw["penalty"], seats, button, game, bba, f)


def _given(incident: Incident, key: str) -> int | None:
    data = incident.source.data if incident.source is not None else None
    if isinstance(data, dict):
        v = data.get(key)
        return v if isinstance(v, int) and not isinstance(v, bool) else None
    return None


def _bba(incident: Incident) -> int:
    """The big blind ante the game names (hundredths), 0 without one (the reader has checked it)."""
    data = incident.source.data if incident.source is not None else None
    game = data.get("game") if isinstance(data, dict) else None
    v = game.get("big_blind_ante") if isinstance(game, dict) else None
    try:
        return to_minor(v) if v is not None else 0
    except (ValueError, TypeError):
        return 0


def _left_of(seat: int, occupied: list[int], steps: int = 1) -> int:
    """The occupied seat ``steps`` players to the left of ``seat`` (clockwise), in seat order wrapping."""
    ring = sorted(set(occupied) | {seat})
    i = ring.index(seat)
    ring_players = [s for s in ring[i + 1:] + ring[:i + 1] if s in occupied]
    if not ring_players:
        return seat
    return ring_players[(steps - 1) % len(ring_players)]


def _blind_seats(button: int | None, seats: list[int]) -> tuple[int | None, int | None]:
    """The small and big blind seats this hand under a plain moving button (heads-up: the button is the small
    blind)."""
    if button is None or len(seats) < 2:
        return None, None
    if len(seats) == 2:
        return button, _left_of(button, seats)
    return _left_of(button, seats), _left_of(button, seats, 2)


def _at_seat(d: dict[str, Any], seats: list[int], button: int | None, game: Any, bba: int,
             f: dict[str, Any]) -> None:
    f["at_seat_in_dispute"] = True
    variant = f.get("variant") or "holdem"
    each = DEALT.get(variant)
    f["at_seat_last_card"] = len(seats) * each if each is not None and seats else 0   # 0: not known
    after = d.get("after_card")
    f["at_seat_arrival"] = ""           # empty: the card he came back after not told
    if after is not None:
        f["at_seat_arrival"] = ("before the first card was dealt" if after == 0 else f"after card {after}"
                                + (f" of {f['at_seat_last_card']}" if f["at_seat_last_card"] else "") + " had been dealt")
    if after is not None and d.get("reached") is None and (after == 0 or f["at_seat_last_card"]):
        # how many cards had gone out says which moment he made: none yet, some of them, or all of them
        f["at_seat_reached"] = ("before_first_card" if after == 0 else
                                "during_deal" if after < f["at_seat_last_card"] else "after_last_card")
    seat = d.get("seat")
    f["at_seat_left_seat"] = _left_of(seat, seats) if seat is not None and len(seats) > 1 else 0
    parts = _posted(seat, seats, button, game, bba, bool(d.get("bring_in_card")))
    f["at_seat_forfeit"] = sum(v for _, v in parts)      # 0: nothing posted, or not known (no button, no ante)
    stud = variant in ("stud", "razz")
    f["at_seat_forfeit_known"] = seat is not None and (
        (stud and bool(game.ante or game.bring_in)) or (not stud and bool(game.big_blind) and button is not None))
    f["at_seat_forfeit_parts"] = " + ".join(f"{name} {_chips(v)}" for name, v in parts)


def _posted(seat: int | None, seats: list[int], button: int | None, game: Any, bba: int,
            bring_in_card: bool = False) -> list[tuple[str, int]]:
    """The forced bets a seat puts in this hand: its ante, its blind (the big blind with the big blind ante)
    where the button puts one on it, the bring-in where its card brings it in."""
    parts: list[tuple[str, int]] = []
    if game.ante:
        parts.append(("ante", game.ante))
    sb, bb = _blind_seats(button, seats)
    if seat is not None and seat == sb and game.small_blind:
        parts.append(("small blind", game.small_blind))
    if seat is not None and seat == bb:
        if game.big_blind:
            parts.append(("big blind", game.big_blind))
        if bba:
            parts.append(("big blind ante", bba))
    if bring_in_card and game.bring_in:
        parts.append(("bring-in", game.bring_in))
    return parts


def _away_redealt(d: dict[str, Any], seats: list[int], button: int | None, game: Any, bba: int,
                  f: dict[str, Any]) -> None:
    """A misdeal with players away (the deal section's ``away``): what their killed re-dealt hands leave in the
    pot, where the house kills them (the forced bets they posted on the original deal stay in)."""
    away = [s for s in d.get("away") or () if s in seats]
    if not away or button is None:
        return
    parts = [(s, _posted(s, seats, button, game, bba)) for s in away]
    f["deal_away_forfeit"] = sum(v for _, ps in parts for _n, v in ps)
    f["deal_away_forfeit_parts"] = "; ".join(
        f"seat {s}: " + (" + ".join(f"{name} {_chips(v)}" for name, v in ps) or "nothing posted") for s, ps in parts)


def _chips(v: int) -> str:
    return f"{v // 100:,}" if v % 100 == 0 else f"{v / 100:,.2f}"


def _moved(d: dict[str, Any], seats: list[int], button: int | None, game: Any, bba: int,
           f: dict[str, Any]) -> None:
    f["moved_in_dispute"] = True
    seat = d.get("seat")
    others = [s for s in seats if s != seat]
    if button is None or seat is None or not others:
        return
    f["moved_button"] = button
    sb = d.get("small_blind")
    if sb is None:
        sb = _left_of(button, others) if len(others) > 1 else None
    if sb is None:
        return
    f["moved_sb_seat"] = sb
    bb_given = d.get("big_blind")
    bb = bb_given if bb_given is not None else _left_of(sb, others)
    between = _strictly_between(button, sb, seat)
    f["moved_between_sb_and_button"] = between
    position = ("button" if seat == button else "small_blind" if seat == sb else
                "big_blind" if seat == bb or (bb_given is None and _strictly_between(sb, bb, seat)) else
                "between_blinds" if _strictly_between(sb, bb, seat) else
                "between_sb_and_button" if between else "other")
    f["moved_position"] = position
    if position == "big_blind":
        bb = seat
    f["moved_bb_seat"] = bb
    ring = sorted(set(others) | {seat, bb})
    f["moved_first_bb_hand"] = (ring.index(seat) - ring.index(bb)) % len(ring)   # the dead button: one a hand
    if position == "small_blind":
        if game.small_blind:
            f["moved_posts"] = game.small_blind
            f["moved_posts_words"] = f"the small blind, {_chips(game.small_blind)}"
    elif position == "big_blind":
        if game.big_blind:
            f["moved_posts"] = game.big_blind + bba
            f["moved_posts_words"] = f"the big blind, {_chips(game.big_blind)}" + (
                f", and the big blind ante, {_chips(bba)}" if bba else "")
    else:
        f["moved_posts"] = 0
        f["moved_posts_words"] = "nothing"


def _strictly_between(a: int, b: int, s: int) -> bool:
    """Seat ``s`` lies clockwise after ``a`` and before ``b`` (seat numbers rising clockwise, wrapping)."""
    if a == b:
        return False
    if a < b:
        return a < s < b
    return s > a or s < b


def _tables(d: dict[str, Any], seats: list[int], f: dict[str, Any]) -> None:
    f["tables_in_dispute"] = True
    counts = d.get("players_at") or {}
    if counts:
        live = {t: n for t, n in counts.items() if n > 0}
        f["tables_count"] = len(live)
        f["tables_fullest"] = max(counts.values())
        table = d.get("table")
        if table is None and live:
            table = min(live, key=lambda t: (live[t], t))     # the shortest table
        if table in counts:
            f["tables_this_count"] = counts[table]
            f["tables_short_by"] = f["tables_fullest"] - counts[table]
        if d.get("players_left") is None:
            f["tables_players_left"] = sum(counts.values())
        if table in live and len(live) > 1 and counts[table] == f["tables_fullest"] and min(live.values()) < counts[table]:
            # a full table named: it is the one giving up a player, and the table short is the shortest one
            short = min(live, key=lambda t: (live[t], t))
            f["tables_this_count"] = counts[short]
            f["tables_short_by"] = f["tables_fullest"] - counts[short]
            given, table = table, short
        else:
            given = None
        _source_table(d, counts, table, f, given)
    left = d.get("players_left", f.get("tables_players_left"))
    handed = d.get("handed")
    if left is not None and handed:
        f["tables_over_handed"] = max(left - handed, 0)
        f["tables_fit_one"] = left <= handed
    bb = d.get("big_blind")
    if bb is not None and len(seats) > 1:
        f["tables_next_big_blind"] = _left_of(bb, seats)
    open_seats = sorted(set(d.get("open_seats") or ()))
    bb_there = d.get("big_blind_there")
    f["tables_worst_seat"] = 0          # 0: not known (the open seats or the big blind there not told)
    if open_seats and bb_there is not None:
        later = [s for s in open_seats if s > bb_there]
        f["tables_worst_seat"] = (later or open_seats)[0]
    draw = d.get("draw_cards") or {}
    if draw:
        ranked = sorted(draw, key=lambda seat: _card_rank(draw[seat][0]), reverse=True)
        f["tables_draw_order"] = ", ".join(f"seat {seat} ({draw[seat][0]})" for seat in ranked)
        f["tables_draw_first"] = ranked[0]
        ranks = [draw[seat][0][0] for seat in ranked]
        f["tables_draw_ties"] = len(ranks) - len(set(ranks))
        away = sorted(d.get("absent") or ())
        f["tables_absent"] = ", ".join(f"seat {seat}" for seat in away) or "none"


def _source_table(d: dict[str, Any], counts: dict[int, int], short: int | None, f: dict[str, Any],
                  given: int | None = None) -> None:
    """The table that gives up a player under the procedure posted in advance (TDA 11-C): the next full table in
    the posted breaking order, or in numerical order after the short table (wrapping round), or, with no
    procedure told, the full table the incident names (``given``); and the tables' counts once he has come."""
    if short in counts:
        f["tables_short_after"] = counts[short] + 1
        f["tables_short_by_after"] = max(f["tables_fullest"] - counts[short] - 1, 0)
    how = d.get("source")
    full = {t for t, n in counts.items() if n == f["tables_fullest"] and t != short}
    f["tables_counts_after"] = ""
    if how is None and given is not None and given in full:   # no procedure told, the giving table named
        f["tables_source"] = given
        f["tables_source_words"] = f"table {given}, the full table named as giving up the player"
        f["tables_counts_after"] = _counts_after(counts, given, short)
        return
    if how == "breaking_order":
        order = [t for t in d.get("breaking_order") or () if t in counts]
        words = "the posted breaking order (" + ", ".join(map(str, order)) + ")"
    elif how == "numerical_order" and short is not None:
        numbers = sorted(counts)
        order = [t for t in numbers if t > short] + [t for t in numbers if t < short]
        words = f"numerical order after table {short}"
    else:
        return
    source = next((t for t in order if t in full), None)
    if source is None:
        return
    f["tables_source"] = source
    f["tables_counts_after"] = _counts_after(counts, source, short)
    skipped = [t for t in order[:order.index(source)]]
    f["tables_source_words"] = (f"table {source}, the first full table ({f['tables_fullest']} players) in {words}"
                                + (f"; table{'s' if len(skipped) > 1 else ''} " + ", ".join(map(str, skipped))
                                   + (" are" if len(skipped) > 1 else " is") + " not full" if skipped else ""))


def _counts_after(counts: dict[int, int], source: int, short: int | None) -> str:
    """Each table's players once one has moved from ``source`` to ``short``, in words."""
    after = {t: n - (t == source) + (t == short) for t, n in sorted(counts.items())}
    return ", ".join(f"table {t}: {n}" for t, n in after.items())


def _card_rank(card: str) -> tuple[int, int]:
    """A card's place for a draw or a race: rank first, then suit (spades, hearts, diamonds, clubs)."""
    return RANKS.index(card[0]), SUITS.index(card[1])


def _race(d: dict[str, Any], params: dict[str, Any], f: dict[str, Any]) -> None:
    """The chip race (TDA 24, RRP's chip race): direct changes, the odd chips' pool, the chips raced, the race
    cards' places, and who wins what under the house's cap, rounding and raced-out rule."""
    f["race_in_dispute"] = True
    removed, smallest = d.get("removed"), d.get("smallest_left")
    if not removed or not smallest or smallest <= removed:
        return
    per = smallest // removed if smallest % removed == 0 else 0
    if per:
        f["race_per_chip"] = per
    found = d.get("found_after") or {}
    if found:
        words = []
        for seat, n in sorted(found.items()):
            value = n * removed
            new, drop = value // smallest, value % smallest
            words.append(f"seat {seat}: {n} old chips worth {_chips(value)} change for {new} of {_chips(smallest)}"
                         + (f", {_chips(drop)} taken out of play" if drop else ""))
        f["race_found_seat"] = min(found)
        f["race_found"] = sum(found.values())
        f["race_found_changed"] = sum(n * removed // smallest for n in found.values())
        f["race_found_dropped"] = sum(n * removed % smallest for n in found.values())
        f["race_found_words"] = "; ".join(words)
    chips = d.get("chips") or {}
    if not chips:
        return
    changed, odd = {}, {}
    for seat, n in sorted(chips.items()):
        value = n * removed
        if value // smallest:
            changed[seat] = value // smallest
        rest = (value % smallest) // removed
        if rest:
            odd[seat] = rest
    f["race_changed"] = ", ".join(f"seat {s}: {n} ({_chips(n * smallest)})" for s, n in changed.items()) or "none"
    total = sum(odd.values())
    value = total * removed
    f["race_odd_chips"] = total
    f["race_cards"] = total
    f["race_odd_value"] = value
    f["race_whole"] = value // smallest
    f["race_remainder"] = value % smallest
    f["race_half_or_more"] = value % smallest * 2 >= smallest and value % smallest > 0
    up = 1 if params["chip_race.round_half_up"] and f["race_half_or_more"] else 0
    to_race = value // smallest + up
    f["race_chips_cap"] = to_race
    places, at = [], 1
    for seat, n in odd.items():
        places.append(f"seat {seat}: card {at}" if n == 1 else f"seat {seat}: cards {at}-{at + n - 1}")
        at += n
    f["race_card_places"] = "; ".join(places) or "none"
    dealt = d.get("cards") or {}
    f["race_awards"] = ""               # not known until the cards are told
    f["race_after"] = ""
    f["race_stacks_after"] = ""
    if total > MAX_RACE_CARDS or not dealt or any(len(dealt.get(s, ())) != n for s, n in odd.items()):
        return      # the cards are not told (or do not match the odd chips): who wins is asked, not guessed
    cards = [seat for seat, _card in sorted(((seat, c) for seat, cs in dealt.items() for c in cs),
                                             key=lambda sc: _card_rank(sc[1]), reverse=True)]
    cap = params["chip_race.max_chips_per_player"] or 0
    out_rule = params["chip_race.raced_out_award"]
    stacks = d.get("stacks") or {}
    only_old = {s for s, n in chips.items() if s in stacks and stacks[s] * 100 == n * removed}   # told by the stacks
    whole_stack = sorted((set(d.get("nothing_else") or ()) | only_old) & set(odd))
    won: dict[int, int] = {}
    left, added = to_race, 0
    first: list[int] = []
    if out_rule == "new_denomination_first":    # RRP: each player left with nothing gets his chip before any other
        for seat in whole_stack:
            won[seat] = 1
            first.append(seat)
            if left:
                left -= 1
            else:
                added += 1
    for seat in cards:                          # then the highest card first, at most the cap each
        if not left:
            break
        if cap and won.get(seat, 0) >= cap:
            continue
        won[seat] = won.get(seat, 0) + 1
        left -= 1
    if out_rule != "new_denomination_first":    # TDA: nobody is raced out: one chip of the smallest left, added
        for seat in whole_stack:
            if not won.get(seat):
                won[seat] = 1
                first.append(seat)
                added += 1
    f["race_awards"] = ", ".join(f"seat {s}: " + (f"{_chips(n * smallest)} ({n} chip{'s' if n != 1 else ''})" if n else "0")
                                 for s, n in sorted({**{s: 0 for s in odd}, **won}.items()))
    after = {s: changed.get(s, 0) + won.get(s, 0) for s in sorted(set(chips) | set(won))}
    f["race_after"] = ", ".join(f"seat {s}: {_chips(n * smallest)}" + (f" ({n} chip{'s' if n != 1 else ''})" if n else "")
                                for s, n in after.items())
    if stacks and all(s in stacks for s in after):      # whole chips before; old chips off, new chips on
        f["race_stacks_after"] = ", ".join(
            f"seat {s}: {_chips(max(stacks[s] * 100 - chips.get(s, 0) * removed, 0) + n * smallest)}"
            for s, n in after.items())
    f["race_raced_out"] = ", ".join(f"seat {s}" for s in first) or "none"
    f["race_chips_added"] = added
    f["race_raced_out_count"] = len(first)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _hand_for_hand(d: dict[str, Any], params: dict[str, Any], f: dict[str, Any]) -> None:
    """Hand-for-hand (TDA RP-8): the places of the players knocked out on the announcement hand against the
    places paid, and the clock after the hands played at the house's minutes a hand."""
    f["hfh_in_dispute"] = True
    left, paid, out = d.get("players_left"), d.get("paid"), d.get("busted")
    f["hfh_share_places"] = ""
    if left is not None and paid is not None and out is not None and 0 < out <= left:
        after = left - out
        f["hfh_left_after"] = after
        shared = max(0, min(paid, left) - after)
        f["hfh_places_shared"] = shared
        if shared:
            first, last = after + 1, after + shared
            f["hfh_share_places"] = _ordinal(first) if first == last else f"{_ordinal(first)}-{_ordinal(last)}"
    f["hfh_bust_order"] = ""
    f["hfh_bust_ranked"] = 0
    started = d.get("started_with") or {}
    if started and left is not None and len(started) <= left:
        top = left - len(started) + 1               # the best place among them
        ranked = sorted(started.items(), key=lambda sc: (-sc[1], sc[0]))
        words = []
        for seat, chips in ranked:
            better = sum(1 for c in started.values() if c > chips)
            same = sum(1 for c in started.values() if c == chips)
            first, last = top + better, top + better + same - 1
            place = _ordinal(first) if first == last else f"{_ordinal(first)}-{_ordinal(last)} shared"
            words.append(f"seat {seat} ({_chips(chips * 100)}): {place}")
        f["hfh_bust_order"] = "; ".join(words)
        f["hfh_bust_ranked"] = len(words)
    f["hfh_clock_after"] = ""
    clock, hands = d.get("clock_seconds"), d.get("hands")
    if clock is not None and hands is not None:
        per = min(params["hand_for_hand.minutes_per_hand"], params["hand_for_hand.max_minutes_per_hand"])
        off = min(per * hands, clock // 60)
        rest = clock - off * 60
        f["hfh_minutes_off"] = off
        f["hfh_clock_after"] = f"{rest // 60}:{rest % 60:02d}"


def _chips_kept(d: dict[str, Any], f: dict[str, Any]) -> None:
    """His stack by denomination: the total, and what was hidden on him or out of view at the table."""
    f["chips_in_dispute"] = True
    for key in ("chips_stack_total", "chips_hidden_value", "chips_out_of_view_value", "chips_in_view_value"):
        f[key] = 0          # 0: his chips by denomination not told
    stack = d.get("stack") or ()
    if not stack:
        return
    value = [(item["denomination"] * item["chips"], item) for item in stack]
    f["chips_stack_total"] = sum(v for v, _ in value)
    f["chips_hidden_value"] = sum(v for v, i in value if i.get("hidden"))
    f["chips_out_of_view_value"] = sum(v for v, i in value if i.get("out_of_view") and not i.get("hidden"))
    f["chips_in_view_value"] = f["chips_stack_total"] - f["chips_hidden_value"] - f["chips_out_of_view_value"]
    if f["chips_hidden_value"]:
        f["chips_hidden"] = True
    if f["chips_out_of_view_value"]:
        f["chips_big_out_of_view"] = True


MAX_PENALTY_HANDS = 2000   # hands followed one by one; a longer penalty is told by whole rounds only


def _penalty(d: dict[str, Any], seats: list[int], button: int | None, game: Any, bba: int,
             f: dict[str, Any]) -> None:
    """The hands a penalty lasts at this table (TDA 71-A: the players at the table when it is given, the offender
    included, times the rounds), the hands in which the blinds and the button find his seat (the offence's
    hand is hand 0) and what his seat posts meanwhile (TDA 71-C), followed hand by hand under the dead button
    (TDA 32: the big blind moves one player a hand, the small blind is last hand's big blind): a new level from
    a given hand, players knocked out meanwhile, and in stud the hands his upcard brings it in."""
    f["penalty_in_dispute"] = True
    size = d.get("at_table") or len(seats)
    f["penalty_chips_removed"] = 0
    if d.get("given") == "disqualification" and f.get("chips_seat") == d.get("seat"):
        f["penalty_chips_removed"] = f.get("chips_stack_total") or 0   # his chips told by denomination
    if not size:
        return
    f["penalty_round_size"] = size
    given = d.get("given")
    rounds, hands = d.get("rounds"), d.get("hands")
    if given == "missed_round" and rounds is None:
        rounds = 1
    if given == "missed_hand" and hands is None:
        hands = 1
    if given == "missed_round":
        missed = size * (rounds if rounds is not None else 1)
    elif given == "missed_hand":
        missed = hands
    else:
        return
    f["penalty_rounds_served"] = rounds if given == "missed_round" else 0
    f["penalty_hands_missed"] = missed
    for key in ("penalty_bb_hand", "penalty_sb_hand", "penalty_button_hand", "penalty_blinds_owed",
                "penalty_antes_owed", "penalty_forfeit", "penalty_small_blinds_owed", "penalty_big_blinds_owed",
                "penalty_bb_antes_owed"):
        f[key] = 0          # 0: not known (the button or the whole table not told, or not whole rounds)
    f["penalty_forfeit_known"] = False
    f["penalty_forfeit_parts"] = ""
    f["penalty_back_hand"] = missed + 1
    f["penalty_deals"] = missed + (d.get("misdeals") or 0)
    full = given == "missed_round" or (missed % size == 0 and missed > 0)
    f["penalty_full_rounds"] = full
    seat = d.get("seat")
    bb0 = d.get("big_blind")
    if bb0 is None and button is not None and button in seats and len(seats) > 2:
        bb0 = _left_of(button, seats, 2)
    if seat in seats and bb0 in seats and len(seats) == size and size > 2 and missed <= MAX_PENALTY_HANDS:
        _penalty_hands(d, seats, seat, bb0, missed, game, bba, f)
        return
    if full and size > 1:   # the seats not told: each blind comes round once a round, an ante every hand
        r = missed // size
        each = game.small_blind + game.big_blind + bba
        bring_ins = d.get("bring_in_hands") or 0
        blinds = r * each + bring_ins * game.bring_in
        antes = missed * game.ante
        parts = []
        if each:
            names = " + ".join(f"{name} {_chips(v)}" for name, v in (
                ("small blind", game.small_blind), ("big blind", game.big_blind), ("big blind ante", bba)) if v)
            parts.append(f"{names} {'once' if r == 1 else f'{r} times'} (one each round)")
        if antes:
            parts.append(f"antes {missed} × {_chips(game.ante)} = {_chips(antes)}")
        if bring_ins and game.bring_in:
            parts.append(f"the bring-in {bring_ins} × {_chips(game.bring_in)} = {_chips(bring_ins * game.bring_in)}")
        f["penalty_blinds_owed"] = blinds
        f["penalty_antes_owed"] = antes
        f["penalty_small_blinds_owed"], f["penalty_big_blinds_owed"] = r * game.small_blind, r * game.big_blind
        f["penalty_bb_antes_owed"] = r * bba
        f["penalty_forfeit"] = blinds + antes
        f["penalty_forfeit_parts"] = "; ".join(parts)
        f["penalty_forfeit_known"] = bool(blinds + antes)


def _penalty_hands(d: dict[str, Any], seats: list[int], seat: int, bb0: int, missed: int, game: Any, bba: int,
                   f: dict[str, Any]) -> None:
    """Follow the penalty hand by hand from hand 0's big blind (``bb0``), the dead button's way."""
    levels = sorted(d.get("levels") or (), key=lambda lv: lv.get("from_hand", 0))
    level_changes = sum(1 for lv in levels if 1 <= lv.get("from_hand", 0) <= missed)
    busted = d.get("busted") or {}
    level = {"small_blind": game.small_blind, "big_blind": game.big_blind, "ante": game.ante,
             "big_blind_ante": bba}
    bring_ins = d.get("bring_in_hands") or 0
    stud = not game.small_blind and not game.big_blind and bool(game.bring_in)
    table = list(seats)
    bb: int = bb0
    sb: int | None = table[table.index(bb0) - 1]               # hand 0: the small blind on the big blind's right
    button: int | None = None
    blinds = antes = 0
    kinds = {"small_blind": 0, "big_blind": 0, "big_blind_ante": 0}   # what of the blinds is which
    parts: list[str] = []
    first = {"bb": 0, "sb": 0, "button": 0}
    horizon = max(missed, len(seats) + 1)
    for k in range(1, horizon + 1):
        for lv in levels:
            if lv.get("from_hand") == k:
                level = {**level, **{key: lv[key] for key in level if key in lv}}
        table = [s for s in table if s == seat or busted.get(s) is None or busted[s] >= k]
        if bb not in table and len(table) < 2:
            break
        button, sb = sb, bb if bb in table else None            # dead button: last hand's blinds move on
        bb = _left_of(bb, table)
        if bb == seat and not first["bb"]:
            first["bb"] = k
        if sb == seat and not first["sb"]:
            first["sb"] = k
        if button == seat and not first["button"]:
            first["button"] = k
        if k > missed:
            continue
        here: list[str] = []
        if level["ante"]:
            antes += level["ante"]
        if bb == seat:
            if level["big_blind"]:
                blinds += level["big_blind"]
                kinds["big_blind"] += level["big_blind"]
                here.append(f"big blind {_chips(level['big_blind'])}")
            if level["big_blind_ante"]:
                blinds += level["big_blind_ante"]
                kinds["big_blind_ante"] += level["big_blind_ante"]
                here.append(f"big blind ante {_chips(level['big_blind_ante'])}")
        if sb == seat and level["small_blind"]:
            blinds += level["small_blind"]
            kinds["small_blind"] += level["small_blind"]
            here.append(f"small blind {_chips(level['small_blind'])}")
        if here:
            parts.append(f"hand {k}: " + " + ".join(here))
    if stud and bring_ins:
        blinds += bring_ins * game.bring_in
        parts.append(f"the bring-in {bring_ins} × {_chips(game.bring_in)} = {_chips(bring_ins * game.bring_in)}")
    if antes:
        parts.append(f"antes {missed} × {_chips(antes // missed)} = {_chips(antes)}" if level_changes == 0
                     else f"antes {_chips(antes)}")
    f["penalty_bb_hand"], f["penalty_sb_hand"], f["penalty_button_hand"] = first["bb"], first["sb"], first["button"]
    f["penalty_blinds_owed"] = blinds
    f["penalty_antes_owed"] = antes
    f["penalty_small_blinds_owed"], f["penalty_big_blinds_owed"] = kinds["small_blind"], kinds["big_blind"]
    f["penalty_bb_antes_owed"] = kinds["big_blind_ante"]
    f["penalty_forfeit"] = blinds + antes
    f["penalty_forfeit_known"] = True
    f["penalty_forfeit_parts"] = "; ".join(parts)
