"""Facts of the betting round around one seat: its options, reopening, side pots, straddles, table stakes.

Nothing here decides a ruling. It reads the replayed table (the same replay
``rulings.betting`` makes for the numbers) and states definitions: whether the
seat already acted on this street, whether what it now faces is a full raise
(the betting reopened for it), the pots it may win, who acts next and what
that seat has in front, where a straddle was posted. What any of it means is
decided by the topic files of rulebooks/standard/ (options, minimum-raise,
side-pots, straddles, table-stakes, bring-in).

Money is in minor units, never float.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulings.betting import Params, Position
from rulings.betting.arithmetic import position, position_if_legal
from rulings.betting import side_pots
from rulings.betting.model import Action, SidePot
from rulings.betting.pots import uncalled
from rulings.incident.checks import pots_now, replayed_table, told_pots
from rulings.incident.model import Incident, act_of
from rulings.incident.cards import RANKS
from rulings.money import show
from rulings.records import evolve

if TYPE_CHECKING:
    from rulings.betting.table import Table

WAGERS = ("bet", "raise", "complete")


def final_table(incident: Incident, params: Params) -> Table | None:
    """The table after the incident's actions (the replay the Position is made from); the reader has checked them."""
    return replayed_table(incident, incident.hand, params)


def round_facts(incident: Incident, params: Params, pos: Position, f: dict[str, Any]) -> dict[str, Any]:
    """Every fact of the round the options, reopening, side-pot, straddle and table-stakes rules read."""
    out: dict[str, Any] = {}
    out.update(_straddles(incident, params, pos))
    if incident.hand.game.bring_in > 0:
        out["bring_in"] = incident.hand.game.bring_in    # the game's bring-in, whether or not the upcards were told
    out.update(_upcards(incident))
    if incident.disputed is not None:
        d = incident.disputed
        out.update({k: v for k, v in (("side_deal", d.side_deal), ("buy_in", d.buy_in), ("cashed_out", d.cashed_out),
                                      ("minutes_away", d.minutes_away)) if v is not None})
        out.update(_small_chips(incident))
    out.update(_unit(incident, f))
    table = final_table(incident, params)
    if table is None:
        return out
    setting = incident.hand.game.setting
    out.update(_pots(table, incident, setting))
    seat = incident.disputed.seat if incident.disputed else None
    if seat is None or seat not in table.behind:
        return out
    out.update(_seat(table, seat, f, setting))
    out["betting_done"] = pos.actor is None and not out.get("bring_in_due")
    if out.get("bring_in_due"):
        out.pop("options", None)     # nobody may check or bet before the bring-in: the bring-in rules say what follows
    return out


def _seat(table: Table, seat: int, f: dict[str, Any], setting: str) -> dict[str, Any]:
    """The seat's place in the round: acted or not, reopened or not, why it may not raise, what it may do."""
    out: dict[str, Any] = {}
    same_street = table.street == _last_street(table) and not table.over
    stack = table.behind.get(seat)
    committed = table.committed.get(seat, 0) if same_street else 0
    if stack is not None:
        out["all_in_to"] = committed + stack
    if not same_street:
        return out
    acted = seat in table.acted
    out["acted_this_round"] = acted
    out["reopened"] = table.reopened_for(seat)
    if acted:
        out["raised_since"] = max(table.facing(seat) - table.acted[seat], 0)
    short = table.short_all_in
    out["bet_is_short_all_in"] = short is not None and short[1] == table.current_bet and table.current_bet > 0
    wagers = [a for a in (table.hand.streets[-1] if table.hand.streets else ()) if a.kind in WAGERS]
    out["raises_this_round"] = max(len(wagers) - (0 if table.street == 0 else 1), 0)
    out["bet_is_all_in"] = bool(wagers) and table.behind[wagers[-1].seat] == 0 \
        and table.committed[wagers[-1].seat] == table.current_bet
    owed = max(table.current_bet - committed, 0)
    if stack is not None and owed > stack:
        out["call_short_of_bet"] = owed - stack
    out["call_is_all_in"] = stack is not None and 0 < owed >= stack
    barred = _barred(table, seat)
    if barred is not None:
        out["raise_barred_by"] = barred
    if not table.big_bet and f.get("can_raise") and f.get("min_raise_to") and \
            table.full_level < table.current_bet < table.full_level + table.full_size():
        out["complete_to"] = f["min_raise_to"]     # the bet faced is a bring-in, a short blind or a short all-in
        out["next_raise_to"] = f["min_raise_to"] + table.full_size()   # once completed
    acts = table.hand.streets[-1] if table.hand.streets else ()
    out["facing_bring_in"] = any(a.kind == "bring-in" for a in acts) and not wagers
    if any(a.kind == "bring-in" for a in acts):   # stud's first round: the completion is its bet, not a raise
        out["bring_in_completed"] = any(a.kind == "complete" for a in acts)
    nxt = _next_seat(table, seat)
    if nxt is not None:
        out["next_seat"] = nxt
        out["next_committed"] = table.committed[nxt]
        behind = table.behind[nxt]
        if behind is not None:
            out["next_all_in_to"] = table.committed[nxt] + behind
    if not table.big_bet:
        out["cap_heads_up"] = table.heads_up()
        out["cap_heads_up_at_start"] = table.began_heads_up
        if not table.uncapped and table.bets < table.cap:
            out["cap_bets_left"] = table.cap - table.bets
        out["two_round_game"] = table.rounds == 2
    if not table.big_bet and table.capped():
        out["uncapped_raise_to"] = table.full_level + table.full_size()
    out["others_to_call"] = _others_owe(table, seat, setting)   # empty: nobody else owes anything
    out["options"] = options_text(f, out, setting, table.current_bet > 0)
    return out


def _others_owe(table: Table, seat: int, setting: str) -> str:
    """After the seat, in turn: each other seat still in with chips that owes chips to call the bet as it stands,
    and how much (a short stack its all-in), in words: 'seat 7 owes $15 (to $60)'. Empty when none does."""
    order = list(table.order)
    i = order.index(seat)
    out = []
    for other in order[i + 1:] + order[:i]:
        behind, owed = table.behind[other], table.current_bet - table.committed[other]
        if other in table.folded or behind == 0 or owed <= 0:
            continue
        pay = owed if behind is None else min(owed, behind)
        out.append(f"seat {other} owes {show(pay, setting)} (to {show(table.committed[other] + pay, setting)})"
                   + (" and is then all-in" if behind is not None and behind <= owed else ""))
    return "; ".join(out)


def _last_street(table: Table) -> int:
    """The betting round of the act: the last street the hand gives."""
    return table.hand.first_street + len(table.hand.streets) - 1


def _barred(table: Table, seat: int) -> str | None:
    """Why the seat may not raise, as one word (None when it may); the same order of checks as the arithmetic."""
    stack = table.behind[seat]
    if seat in table.folded:
        return "folded"
    if stack == 0:
        return "all_in"
    if table.able <= 1 or not table.others_can_call_a_raise(seat):
        return "nobody_to_call"
    if stack is not None and table.committed[seat] + stack <= table.current_bet:
        return "only_a_call"
    if seat in table.acted and not table.reopened_for(seat):
        if table.facing(seat) <= table.acted[seat]:
            return "nothing_new"
        return "not_reopened"
    if table.capped():
        return "capped"
    return None


def _next_seat(table: Table, seat: int) -> int | None:
    """The next seat after ``seat`` that is still in and has chips to act with."""
    order = list(table.order)
    i = order.index(seat)
    for other in order[i + 1:] + order[:i]:
        if other not in table.folded and table.behind[other] != 0:
            return other
    return None


def options_text(f: dict[str, Any], seat: dict[str, Any], setting: str, bet_out: bool) -> str:
    """The seat's legal actions in words: fold / check / call X / bet or raise from Y to Z / all-in."""
    def m(v: int) -> str:
        return show(v, setting)
    to_call = f.get("to_call", 0)
    parts = ["fold"]
    if to_call:
        call = f"call {m(to_call)}" + (f" (to {m(f['call_to'])})" if f.get("committed") and f.get("call_to") else "")
        parts.append(call + " (all-in)" if seat.get("call_is_all_in") else call)
    else:
        parts.append("check")
    if f.get("can_raise"):
        verb = "raise" if bet_out else "bet"
        low, high = f.get("min_raise_to"), f.get("max_raise_to")
        if "complete_to" in seat:
            parts.append(f"complete to {m(seat['complete_to'])}")
        elif low is not None and high is not None and low == high:
            parts.append(f"{verb} to {m(low)}" + (" (all-in)" if high == seat.get("all_in_to") else ""))
        elif low is not None and high is not None and f.get("structure") == "fixed-limit":
            parts.append(f"{verb} to {m(low)} or {m(high)}")   # stud's open pair: the small bet or the big bet
        elif low is not None and high is None:
            parts.append(f"{verb} to {m(low)} or more")
        elif low is not None and high is not None:
            parts.append(f"{verb} to {m(low)} up to {m(high)}" + (" (all-in)" if high == seat.get("all_in_to") else ""))
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def _pots(table: Table, incident: Incident, setting: str) -> dict[str, Any]:
    """The pots, who may win each, the chips nobody called, and the disputed seat's share."""
    pots = pots_now(table, told_pots(incident))   # pots told by amount with their seats
    if not pots and incident.pot_unknown:   # a later street has a pot, of a size not given
        pots = (SidePot(incident.hand.pot_before, tuple(sorted(table.live_seats))),)
    out: dict[str, Any] = {"all_in_players": sum(1 for s in table.live_seats if table.behind[s] == 0)}
    if not pots:
        return out
    unknown = incident.pot_unknown   # the main pot holds the pot before this street, not given: its size is unknown
    stand_in = incident.hand.pot_before if unknown else 0
    if not unknown:
        out["main_pot"] = pots[0].amount
    out["side_pot_count"] = len(pots) - 1
    if len(pots) > 1:
        out["side_pots_total"] = sum(p.amount for p in pots[1:])
        out["last_side_pot"] = pots[-1].amount
    this_street = _main_pot_this_street(table)
    if this_street is not None and not unknown and 0 < this_street < pots[0].amount:
        out["main_pot_this_round"] = this_street

    def size(i: int, amount: int) -> str:
        if i or not unknown:
            return show(amount, setting)
        more = amount - stand_in
        return f"(the pot before the {incident.street}, not given" + (f", and {show(more, setting)})" if more else ")")
    out["pots_listed"] = "; ".join(
        f"{'main pot' if i == 0 else f'side pot {i}'} {size(i, p.amount)} "
        f"(seat{'s' if len(p.eligible) != 1 else ''} {', '.join(map(str, p.eligible)) or 'none'})"
        for i, p in enumerate(pots))
    who, excess = uncalled(dict(table.total))
    out.update(_split(incident, pots, setting))
    if not unknown and (table.over or table.next_due() is None):
        out.update(_takes(incident, pots, setting))
    seat = incident.disputed.seat if incident.disputed else None
    # Chips nobody called go back only once everyone has acted on the bet: never while a seat that can
    # still act (the one left with chips, facing an all-in) is due to act on it.
    if who is not None and (table.over or (table.able <= 1 and table.next_due() is None)
                            or table.street > _last_street(table)):
        out["uncalled_seat"], out["uncalled_amount"] = who, excess
        if seat is not None:
            out["seat_uncalled"] = excess if who == seat else 0
    if seat is not None:
        mine = [p for p in pots if seat in p.eligible]
        out["seat_pot_count"] = len(mine)
        if not (unknown and seat in pots[0].eligible):
            out["seat_can_win"] = sum(p.amount for p in mine)
        out["seat_in_main_pot"] = seat in pots[0].eligible
    return out


def _main_pot_this_street(table: Table) -> int | None:
    """The part of the main pot bet on this street (the rest was in the middle before it), when the money
    from earlier streets is one pot: every live seat put the same in before this street. None otherwise."""
    k = _last_street(table) - table.hand.first_street + (1 if table.hand.game.ante else 0)
    closed = len(table.banked) > k      # the round is over and its chips are in the middle (a run-out)
    chips = table.banked[k] if closed else table.committed
    if not any(chips.values()):
        return None
    before = {s: sum(c.get(s, 0) for c in table.banked[:k]) for s in table.live_seats}
    if len(set(before.values())) > 1:
        return None
    pots = side_pots(dict(chips), set(table.folded), table.behind)
    return pots[0].amount if pots else None


def _straddle_posts(hand: Any) -> list[tuple[int, int]]:
    """The straddles of a hand's first round, in order, as (seat, street total): from game.straddles
    (posted by the seats after the big blind) or from posts above the big blind by seats other than the
    blinds. Empty when the hand does not start before the cards or has fewer than three players."""
    if hand.first_street != 0:
        return []
    order = [p.seat for p in hand.players]
    if len(order) < 3:
        return []
    if hand.straddles:
        return list(zip(order[2:], hand.straddles))
    acts = hand.streets[0] if hand.streets else ()
    big = hand.game.big_blind
    return [(a.seat, a.to) for a in acts if a.kind == "post" and a.to is not None
            and a.seat not in order[:2] and big and a.to > big]


def _straddles(incident: Incident, params: Params, pos: Position) -> dict[str, Any]:
    """Where and how big the straddles were: from game.straddles (posted in order after the big blind) or
    from posts in the actions beyond the two blinds. When the disputed act is a straddle post itself, also
    the seat due to act after it and what that seat faces (WIKI-STRADDLE-MS: the small blind first after a
    button straddle)."""
    hand = incident.hand
    if hand.first_street != 0 or len(hand.players) < 3:
        return {}
    order = [p.seat for p in hand.players]
    button = order[-1]
    posts = _straddle_posts(hand)
    if not posts:
        return {"straddle_count": 0}
    seat, to = posts[0]
    utg = order[2]
    where = "utg" if seat == utg else "button" if seat == button else "other"
    out: dict[str, Any] = {"straddle_count": len(posts), "straddle_seat": seat, "straddle_position": where,
                           "straddle_to": to, "straddle_largest": max(t for _, t in posts),
                           # the largest (the last re-straddle) acts last, as in Table.last_blind
                           "straddle_last_seat": max(reversed(posts), key=lambda p: p[1])[0]}
    if len(posts) > 1:
        out["restraddle_seat"], out["restraddle_to"] = posts[1]
    d = incident.disputed
    first = hand.streets[0] if hand.streets else ()
    if d is not None and d.said is None and not d.motions \
            and d.seat in {s for s, _ in posts} and all(a.kind == "post" for a in first):
        out["straddle_post_disputed"] = True   # asked about at the post itself: nobody has acted since
        due = pos.actor
        if due is not None:   # the reader replayed this hand: the seat due has a position
            faced = position(hand, params, seat=due)
            out["straddle_due_seat"] = due
            out["straddle_due_to_call"] = faced.to_call
            out["straddle_due_blind"] = "small_blind" if due == order[0] else "big_blind" if due == order[1] \
                else "none"
    return out


def straddle_post_act(incident: Incident) -> Incident | None:
    """A disputed act that is the straddle post the whole hand records at the act's point (the action
    listed where the act is placed, by the same seat: a post above the big blind, with no words and no
    chips other than the post's): the incident with the post in the hand and the act reduced to the
    seat, so the facts are those of the post and of the seat due after it. None for any other act."""
    d, hand, whole = incident.disputed, incident.hand, incident.whole_hand
    if d is None or d.said is not None or incident.street != "preflop" or whole is None \
            or hand.first_street != 0 or not hand.streets or len(whole.streets) < len(hand.streets):
        return None
    k = len(hand.streets) - 1
    recorded = whole.streets[k][len(hand.streets[k]):]
    post = recorded[0] if recorded else None
    if post is None or post.seat != d.seat or post.kind != "post" or post.to is None:
        return None
    chips = sum(c for m in d.motions for c in m)
    if chips and chips != post.to:
        return None
    grown = evolve(hand, streets=hand.streets[:k] + (hand.streets[k] + (post,),))
    if (post.seat, post.to) not in _straddle_posts(grown):
        return None
    return evolve(incident, hand=grown, disputed=evolve(d, motions=()))


def said_straddle_act(incident: Incident, amount: int | None) -> Incident | None:
    """A disputed act whose words declared a straddle ("straddle", "I straddle", "straddle fifty": ``amount``
    is the street total the words named, or None), read as the straddle post it declares: the incident with
    the post in the hand and the act reduced to the seat, as ``straddle_post_act`` does for a post the hand
    records. The post is the chips put out, else the amount said, else the standard straddle: twice the
    largest blind posted (two big blinds; twice the straddle for a re-straddle), the least straddle every
    straddle.size of the book allows. Whether that straddle plays is for rulebooks/standard/straddles.yaml.

    None when the act cannot be a straddle post: not before the cards with only blinds and straddles posted
    so far, something acted after it, words and chips naming different amounts, more than the seat's stack,
    or a seat or amount that is no straddle (a blind, not above the big blind)."""
    d, hand, whole = incident.disputed, incident.hand, incident.whole_hand
    if d is None or incident.street != "preflop" or incident.after:
        return None
    recorded = straddle_post_act(evolve(incident, disputed=evolve(d, said=None)))
    if recorded is not None:   # the whole hand records the post at this point: the words must name it
        post = recorded.hand.streets[0][-1]
        return recorded if amount is None or amount == post.to else None
    if hand.first_street != 0 or len(hand.streets) != 1 or any(a.kind != "post" for a in hand.streets[0]):
        return None
    if whole is not None and (len(whole.streets) > 1 or len(whole.streets[0]) > len(hand.streets[0])):
        return None   # the whole hand goes on after the words: what was played against them is not known
    chips = sum(c for m in d.motions for c in m)
    if chips and amount is not None and chips != amount:
        return None
    largest = max([hand.game.big_blind, *hand.straddles, *(a.to or 0 for a in hand.streets[0])])
    to = chips or amount or 2 * largest
    stack = next((p.stack for p in hand.players if p.seat == d.seat), None)
    order = [p.seat for p in hand.players]
    if not largest or len(order) < 3 or stack is not None and to > stack:
        return None
    if hand.straddles:
        grown = evolve(hand, straddles=hand.straddles + (to,))
    else:   # the blinds the table posts by itself, written out when the hand lists no posts (a post then follows)
        stacks = {p.seat: p.stack for p in hand.players}
        blinds = tuple(Action(seat, "post", _at_most(blind, stacks[seat]))
                       for seat, blind in zip(order[:2], (hand.game.small_blind, hand.game.big_blind)) if blind > 0)
        grown = evolve(hand, streets=((hand.streets[0] or blinds) + (Action(d.seat, "post", to),),))
    if (d.seat, to) not in _straddle_posts(grown):
        return None
    bare = evolve(d, said=None, motions=())
    if whole is None:
        return evolve(incident, hand=grown, disputed=bare)
    return evolve(incident, hand=grown, disputed=bare,
                  whole_hand=evolve(whole, straddles=grown.straddles, streets=grown.streets))


def without_straddles(incident: Incident, seat: int) -> Incident | None:
    """The incident with the straddle of ``seat`` and every straddle after it taken back (a refused
    straddle's chips go back): the replay the rest of the hand is then read against. None when the seat
    posted no straddle."""
    hand = incident.hand
    posts = _straddle_posts(hand)
    seats = [s for s, _ in posts]
    if seat not in seats:
        return None
    gone = set(seats[seats.index(seat):])
    if hand.straddles:
        kept = hand.straddles[:seats.index(seat)]
        whole = incident.whole_hand
        return evolve(incident, hand=evolve(hand, straddles=kept),
                      whole_hand=None if whole is None else evolve(whole, straddles=kept))
    def bare(h: Any) -> Any:
        first = tuple(a for a in h.streets[0] if not (a.kind == "post" and a.seat in gone))
        return evolve(h, streets=(first,) + h.streets[1:])
    whole = incident.whole_hand
    return evolve(incident, hand=bare(hand), whole_hand=None if whole is None or not whole.streets else bare(whole))


def _at_most(amount: int, stack: int | None) -> int:
    """An amount capped by a stack (a stack not given caps nothing)."""
    return amount if stack is None else min(amount, stack)


def _more_than(stack: int | None, amount: int) -> bool:
    """Whether a stack is above an amount (a stack not given counts as above: chips to act with)."""
    return stack is None or stack > amount


def card_order(card: str, ace_low: bool) -> tuple[int, int]:
    """A card's place for choosing the stud bring-in: by rank (the ace high, or low in razz), then by suit,
    clubs lowest and spades highest (the suit order of RRP-TIE-SUITS)."""
    rank = "A23456789TJQK".index(card[0]) if ace_low else "23456789TJQKA".index(card[0])
    return rank, "cdhs".index(card[1])


def bring_in_due_seat(incident: Incident) -> int | None:
    """Stud's first round before anyone has acted: the seat the round waits for, or None.

    The order of action, as ``board_first_seat`` gives it on later streets: the
    weakest upcard (the lowest, ace high; in razz the highest, ace low; suits
    breaking ties as ``card_order`` ranks them) opens, and a seat the ante left
    with no chips cannot act, so the round waits for the next seat on its left
    that has chips. None when the round is not waiting for its opener or the
    upcards are not given. What that seat must do, and what an act by another
    seat means, is decided in rulebooks/standard/bring-in.yaml and declarations.yaml.
    """
    up, hand = incident.upcards, incident.hand
    if not up or hand.game.bring_in <= 0 or hand.first_street != 0 or len(hand.streets) != 1 \
            or any(a.kind != "post" for a in hand.streets[0]):
        return None
    razz = incident.inputs.get("variant") == "razz"
    weakest = max(up, key=lambda s: card_order(up[s], ace_low=True)) if razz else \
        min(up, key=lambda s: card_order(up[s], ace_low=False))
    order = [p.seat for p in hand.players]
    if weakest not in order:
        return None
    stacks = {p.seat: p.stack for p in hand.players}
    ante, i = hand.game.ante, order.index(weakest)
    return next((s for s in order[i:] + order[:i] if _more_than(stacks[s], ante)), None)


def _upcards(incident: Incident) -> dict[str, Any]:
    """Whose upcard is the lowest (ace high) and the highest (ace low), and who brought it in."""
    up = incident.upcards
    if not up:
        return {}
    low = min(up, key=lambda s: card_order(up[s], ace_low=False))
    high = max(up, key=lambda s: card_order(up[s], ace_low=True))
    out: dict[str, Any] = {"low_card_seat": low, "low_card": up[low], "high_card_seat": high, "high_card": up[high]}
    hand = incident.hand
    acts = hand.streets[0] if hand.first_street == 0 and hand.streets else ()
    if hand.game.bring_in > 0:
        out["bring_in"] = hand.game.bring_in
        # the act is on the first round and nobody has opened it yet (no bring-in, completion or other action)
        out["bring_in_due"] = hand.first_street == 0 and len(hand.streets) == 1 and \
            all(a.kind == "post" for a in acts)
    elif hand.first_street == 0 and len(hand.streets) == 1 and all(a.kind == "post" for a in acts):
        out["bring_in_unknown"] = True   # stud's first round, not yet opened, and the game gives no bring-in
    due = bring_in_due_seat(incident)
    if due is not None:
        out["bring_in_turn_seat"] = due
    if incident.disputed is not None:
        out["seat_low_card"] = incident.disputed.seat == low
        out["seat_high_card"] = incident.disputed.seat == high
    by = next((a.seat for a in acts if a.kind == "bring-in"), None)
    if by is not None:
        out.update(brought_in_by=by, brought_in_by_low_card=by == low, brought_in_by_high_card=by == high)
    if incident.exposed_downcard is not None:
        out["exposed_downcard_seat"] = incident.exposed_downcard
    stacks = {p.seat: p.stack for p in incident.hand.players}
    ante = incident.hand.game.ante
    low_stack = stacks.get(low)
    if ante and low_stack is not None and low_stack <= ante:
        out["low_card_all_in"] = True         # the ante took every chip he had
        order = [p.seat for p in incident.hand.players]
        i = order.index(low)
        nxt = next((s for s in order[i + 1:] + order[:i] if _more_than(stacks[s], ante)), None)
        if nxt is not None:
            out["low_card_next_seat"] = nxt
    elif low in stacks:
        out["low_card_all_in"] = False
    return out


def _unit(incident: Incident, f: dict[str, Any]) -> dict[str, Any]:
    """A named amount against the game's betting unit: off the unit or not, and the nearest multiple (ties up)."""
    unit, amount = incident.hand.game.betting_unit, f.get("said_amount_to")
    if not unit or amount is None:
        return {}
    nearest = (amount + unit // 2) // unit * unit
    return {"said_off_unit": amount % unit != 0, "said_to_unit": nearest}


def _small_chips(incident: Incident) -> dict[str, Any]:
    """Chips of the disputed act smaller than the smallest blind (the bring-in in stud), and how much of them
    makes whole units of that blind (RRP-NL-13: such chips may play only in quantity)."""
    game = incident.hand.game
    unit = game.small_blind or game.bring_in
    chips = [c for m in act_of(incident).motions for c in m]
    if not unit or not chips:
        return {}
    small = sum(c for c in chips if c < unit)
    return {"chips_below_blind": small, "chips_below_blind_playing": small // unit * unit}


SPLIT_FACTS = ("split_pot_missing", "split_pot", "split_share", "odd_chips", "split_leftover", "split_winner_not_in_pot",
               "odd_chip_seats", "odd_chip_value", "odd_chip_share", "split_shares_listed",
               *(f"stud_odd_chip_{n}_{w}" for n in ("seat", "card", "shares") for w in ("all", "five")))   # ``_split``'s

SUITS_HIGH_FIRST = "shdc"   # spades, hearts, diamonds, clubs: the order of suits (RRP ties r.1, TDA 20-B)


def _stud_odd_chip(incident: Incident, winners: list[int], share: int, chip: int, setting: str) -> dict[str, Any]:
    """High stud, one odd chip between tied winners whose cards the showdown gives: the winner holding the
    highest card by rank, then suit, counted over all his cards (``_all``) and over his best five alone
    (``_five``); which of the two counts is the rules' (side-pots.yaml, split.odd_chip.stud_high)."""
    shown = {e.seat: e.cards for e in (incident.log.showdown if incident.log is not None else ())
             if e.kind in ("shows", "tables") and e.cards}
    if not all(len(shown.get(s, ())) >= 5 for s in winners):
        return {}
    from rulings.facts.strength import strength
    from rulings.incident.cards import CardsError, read_cards

    def key(card) -> tuple[int, int]:
        return RANKS.index(card.rank), -SUITS_HIGH_FIRST.index(card.suit)

    try:
        held = {s: read_cards("".join(shown[s])) for s in winners}
        five = {s: strength(held[s], game="high").cards for s in winners}
    except CardsError:
        return {}
    out: dict[str, Any] = {}
    for name, cards in (("all", held), ("five", five)):
        top = {s: max(cards[s], key=key) for s in winners}
        seat = max(winners, key=lambda s: key(top[s]))
        out[f"stud_odd_chip_seat_{name}"] = seat
        out[f"stud_odd_chip_card_{name}"] = str(top[seat])
        out[f"stud_odd_chip_shares_{name}"] = ", ".join(
            f"seat {s} {show(share + (chip if s == seat else 0), setting)}" for s in winners)
    return out


def _split(incident: Incident, pots: tuple[SidePot, ...], setting: str) -> dict[str, Any]:
    """A tied pot cut into equal shares of the smallest chip, and where the odd chips fall counting
    clockwise from the button (the first winner on the button's left first, one odd chip each)."""
    split = incident.split
    if not split:
        return {}
    index = split["pot"]
    if index >= len(pots):
        return {"split_pot_missing": True}
    if index == 0 and incident.pot_unknown:
        return {}     # the main pot's size is not known: its shares are unknown (the report asks the pot)
    pot = pots[index]
    game = incident.hand.game
    chip = split["smallest_chip"] or game.small_blind or game.bring_in or 1
    winners = [s for s in (p.seat for p in incident.hand.players) if s in split["winners"]]   # from the button's left
    units = pot.amount // chip
    share = units // len(winners) * chip
    odd = units % len(winners)
    out: dict[str, Any] = {"split_pot": pot.amount, "split_share": share, "odd_chips": odd,
                           "split_leftover": pot.amount - units * chip,
                           "split_winner_not_in_pot": any(s not in pot.eligible for s in winners)}
    if odd:
        out["odd_chip_seats"] = " and ".join(str(s) for s in winners[:odd])
        out["odd_chip_value"] = chip
        out["odd_chip_share"] = share + chip
    out["split_shares_listed"] = ", ".join(
        f"seat {s} {show(share + (chip if i < odd else 0), setting)}" for i, s in enumerate(winners))
    if odd == 1 and incident.inputs.get("variant") == "stud" and not incident.inputs.get("high_low"):
        out.update(_stud_odd_chip(incident, winners, share, chip, setting))
    return out


def _takes(incident: Incident, pots: tuple[SidePot, ...], setting: str) -> dict[str, Any]:
    """Once the betting is over and the log names the winners of every pot: what each winner takes in all.
    Each pot is cut as ``_split`` cuts a tied one (shares of the smallest chip, an odd chip to each winner
    from the button's left in turn), and each seat's shares are added up over the pots."""
    log = incident.log
    awards = log.awards if log is not None and log.awards else _awards_by_the_cards(incident, pots)
    if not awards or sorted(a.pot for a in awards) != list(range(len(pots))):
        return {}
    game = incident.hand.game
    chip = (incident.split or {}).get("smallest_chip") or game.small_blind or game.bring_in or 1
    order = [p.seat for p in incident.hand.players]   # from the button's left
    takes: dict[int, int] = {}
    for award in awards:
        pot = pots[award.pot]
        winners = [s for s in order if s in award.winners]
        if not winners or any(s not in pot.eligible for s in winners):
            return {}
        units = pot.amount // chip
        share, odd = units // len(winners) * chip, units % len(winners)
        for i, s in enumerate(winners):
            takes[s] = takes.get(s, 0) + share + (chip if i < odd else 0)
        if units * chip != pot.amount:   # chips below the smallest chip in play: not cut here
            return {}
    return {"pot_takes_listed": ", ".join(f"seat {s} takes {show(v, setting)}" for s, v in
                                          sorted(takes.items(), key=lambda kv: order.index(kv[0])))}


def _awards_by_the_cards(incident: Incident, pots: tuple[SidePot, ...]) -> tuple:
    """Who wins each pot when the floor names no winners but the hands were tabled (cards speak): in a high game
    with the whole board, each pot to the best hand among its players who showed, once every player in it has
    shown or mucked. Empty when a pot's players are not all accounted for, or for a game read low or high-low
    (rulings/facts/hilo.py halves those)."""
    log = incident.log
    if log is None or not log.showdown or len(log.board) != 5 or incident.inputs.get("high_low"):
        return ()
    from rulings.facts.strength import best_high
    from rulings.incident.model import Award
    shown = {e.seat: e.cards for e in log.showdown if e.kind in ("shows", "tables") and e.cards}
    mucked = {e.seat for e in log.showdown if e.kind == "mucks"}
    out = []
    for i, pot in enumerate(pots):
        live = [s for s in pot.eligible if s not in mucked]
        if len(live) == 1:   # everyone else in it mucked: his without a showdown
            out.append(Award(i, (live[0],)))
            continue
        if not live or any(s not in shown for s in live):
            return ()
        ranked = best_high({s: shown[s] for s in live}, log.board, incident.inputs.get("variant", "holdem"))
        if ranked is None:
            return ()
        out.append(Award(i, tuple(ranked[0])))
    return tuple(out)


def out_of_turn_return(incident: Incident, params: Params, skipped: set[int]) -> dict[str, Any]:
    """For an act out of turn after which a skipped seat bet or raised: the smallest raise the out-of-turn
    seat may make when the action comes back to him (TDA 2024 rule 53: he then has every option). The
    skipped seats' acts, from the first of them, are replayed in turn before him; a replay the betting
    does not allow gives nothing (the fact stays unknown)."""
    d = incident.disputed
    if d is None or not skipped:
        return {}
    back: list[Action] = []
    for a in incident.after:
        if a.seat in skipped:
            back.append(a)
        elif back:
            break
    if not back:
        return {}
    hand = incident.hand
    streets = hand.streets[:-1] + (tuple(hand.streets[-1]) + tuple(back),)
    pos = position_if_legal(evolve(hand, streets=streets), params, seat=d.seat)
    if pos is None or not pos.can_raise or pos.min_raise_to is None:
        return {}
    return {"out_of_turn_min_raise_to": pos.min_raise_to}


def skipped_replay(incident: Incident, skipped: set[int]) -> tuple[Any, tuple[Action, ...]] | None:
    """The hand as it stands for the skipped seats after an act out of turn, and the acts of theirs it plays:
    the acts told after it from the first skipped seat's on (acts before that were out of turn too and wait
    with it: whether they made substantial action is the rules' to say). None when a seat that was not
    skipped acted after a skipped seat did (play went on in turn), or when nothing was skipped."""
    if not skipped:
        return None
    after = incident.after
    first = next((i for i, a in enumerate(after) if a.seat in skipped), len(after))
    back = tuple(after[first:])
    if any(a.seat not in skipped for a in back):
        return None
    hand = incident.hand
    return evolve(hand, streets=hand.streets[:-1] + (tuple(hand.streets[-1]) + back,)), back


def out_of_turn_back(incident: Incident, params: Params, skipped: set[int]) -> dict[str, Any]:
    """For an act out of turn while a skipped seat has still to act: whose turn it is now and what he faces
    (TDA 2024 rule 53: the action goes back to the player whose turn it was). The acts of skipped seats
    told after it are replayed in turn first; the act out of turn is not, since it waits for its turn.

    Nothing when ``skipped_replay`` gives nothing or when the replay names no skipped seat (every skipped
    seat has acted, or stud before the bring-in).
    """
    d = incident.disputed
    replay = skipped_replay(incident, skipped)
    if d is None or replay is None:
        return {}
    hand, back = replay
    pos = position_if_legal(hand, params)
    if pos is None or pos.actor is None or pos.actor not in skipped:
        return {}
    seats = [p.seat for p in hand.players]
    start = seats.index(pos.actor)
    acted = {a.seat for a in back}
    waiting = [s for s in seats[start:] + seats[:start] if s in skipped and s not in acted]
    return {"out_of_turn_back_to": pos.actor, "out_of_turn_back_faces": pos.to_call,
            "out_of_turn_seat": d.seat,
            "out_of_turn_still_to_act": " or ".join(f"seat {s}" for s in waiting)}


def deal_money_facts(incident: Incident, params: Params, pos: Position) -> dict[str, Any]:
    """The chips of a hand whose deal is in dispute, from the replay of its betting (rulings/facts/deal.yaml):
    each seat's chips in the pot (what a void hand gives back), what a killed hand's seat faces, who acts
    next and for how much, and the pot a lone live hand takes once a killed hand is dead. Counting only:
    whether a hand is void, dead or given back is decided in rulebooks/standard/deal.yaml."""
    p = incident.procedure
    if p is None or "deal" not in p.raw or incident.no_betting:
        return {}
    table = final_table(incident, params)
    if table is None:
        return {}
    setting = incident.hand.game.setting
    out: dict[str, Any] = {}
    chips = dict(table.total)
    bba = incident.log.big_blind_ante if incident.log is not None else 0
    bb = table.blinds.bb_seat if table.blinds is not None else None
    if bba and bb is not None and table.dead >= bba:    # the big blind's ante sits in the middle: it is his
        chips[bb] = chips.get(bb, 0) + bba
    for a in p.raw["deal"].get("actions") or ():     # an amount the deal's actions tell, beyond the replay's
        if a.get("to") is not None and a["to"] > chips.get(a["seat"], 0):
            chips[a["seat"]] = a["to"]
    total = {s: v for s, v in sorted(chips.items()) if v > 0}
    if total and not incident.pot_unknown:
        parts = [f"seat {s} {show(v, setting)}" for s, v in total.items()]
        out["deal_chips_back_listed"] = ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
    due = pos.actor      # the seat due to act after the actions told (None: the round, or the hand, is over)
    if due is not None:
        out["deal_next_seat"] = due
        out["deal_next_to_call"] = pos.to_call
    prior = {"flop": "preflop", "turn": "flop", "river": "turn"}.get(p.raw["deal"].get("premature") or "")
    if prior is not None and incident.street == prior and due is None and not incident.pot_unknown:
        out["deal_pot_to_street"] = sum(table.total.values()) + table.dead   # the round finished as told
    killed = p.raw["deal"].get("killed_seat")
    if isinstance(killed, int) and killed in table.committed:
        flat = [a for street in incident.hand.streets for a in street]
        last = max((i for i, a in enumerate(flat) if a.seat == killed), default=None)
        if last is not None and flat[last].kind == "fold":   # his fold is what the given-back hand undoes
            # the reader replayed the whole hand: the point just before his own fold replays as well
            out["deal_killed_to_call"] = position(incident.hand, params, after=last, seat=killed).to_call
        else:
            out["deal_killed_to_call"] = max(table.current_bet - table.committed.get(killed, 0), 0)
        others = [s for s in table.live_seats if s != killed]
        if len(others) == 1 and not incident.pot_unknown:
            who, excess = uncalled(dict(table.total))
            back = excess if who == killed else 0
            out["deal_killed_pot_seat"] = others[0]
            out["deal_killed_pot"] = sum(table.total.values()) + table.dead - back
    return out
