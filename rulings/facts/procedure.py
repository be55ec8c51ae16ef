"""Procedure incidents (the clock, calling time, posting, the button, showdown, the deal) turned into facts.

The `procedure:` section of an incident describes a table procedure in
dispute; it needs no disputed act. The reader (rulings/incident/procedure.py)
reads and checks its fields; here we work out definitions: where the button
and blinds fall under each button mode, which seat shows first by each order,
the deal's counts and places. Whether a hand is dead, what a player owes, who
wins and whether a deal is a misdeal is decided in rulebooks/standard/clock.yaml,
posting.yaml, button.yaml, showdown.yaml and deal.yaml; the tournament sections' numbers are worked out in
rulings/facts/tournament.py and decided in tournament.yaml and penalties.yaml.
Nothing here refuses.
"""
from __future__ import annotations

from typing import Any

from rulings.incident.model import Incident, Procedure
from rulings.money import show
from rulings.facts.tournament import tournament_facts
from rulings.facts.deck import BOARD, STREETS, Dealt, as_dealt, draw_walk
from rulings.incident.procedure import DEALT, SHOWN, absent_facts, deal_order, proper_first

def procedure_facts(incident: Incident, params: dict[str, Any]) -> dict[str, Any]:
    """The procedure facts of an incident with a `procedure:` section (empty without one)."""
    p: Procedure | None = incident.procedure
    if p is None:
        return {}
    f: dict[str, Any] = {"variant": p.variant}
    for name in p.raw:          # what a field left out stands for, as declared (a posting flag: it did not happen)
        f.update(absent_facts(name))
    f.update(p.facts)
    order = [pl.seat for pl in incident.hand.players]      # first to act after the button first
    if "button" in p.raw:
        _button(p.raw["button"], order, f)
        _next_hand(p.raw["button"], order, _button_given(incident), f)
        b = p.raw["button"]
        if b.get("actions_in_turn") is not None:   # the counts the one substantial-action rule reads
            f["actions_since"] = b["actions_in_turn"]
            f["chip_actions_since"] = b.get("chip_actions", 0)
    if "deal" in p.raw:
        _deal(incident, p.raw["deal"], f)
    tournament_facts(incident, p.raw, params, f)   # at your seat, seating, tables, chip race, penalties (#47)
    if "showdown" in p.raw:
        _showdown(p, p.raw["showdown"], order, f, bool(incident.inputs.get("high_low")))
        if "sd_first_to_act" not in f and p.variant in ("stud", "razz"):   # stud shows by the boards
            from rulings.facts.hand import showing_first
            first = showing_first(incident, list(p.raw["showdown"].get("in_showdown") or order))
            if first is not None:
                f["sd_first_to_act"] = first
    return f


CHIP_ACTIONS = ("call", "bet", "raise", "complete", "bring-in")


def _seats(seats: Any) -> str:
    return ", ".join(map(str, sorted(seats))) if seats else "none"


def _deal(incident: Incident, d: dict[str, Any], f: dict) -> None:
    """The deal's counts and places (rulings/facts/deal.yaml): which cards the dealer let be seen and where
    the first of them is in the deal order, the cards held against the game's count, who was dealt in, and
    the actions in turn before it was noticed (``actions_since``, ``chip_actions_since``: the counts the one
    substantial-action rule reads). What any of it means is decided in rulebooks/standard/deal.yaml."""
    f["deal_in_dispute"] = True
    players = {pl.seat for pl in incident.hand.players}
    button = _button_given(incident)
    variant = incident.procedure.variant if incident.procedure is not None else "holdem"
    each = DEALT.get(variant)
    if each is not None:
        f["deal_cards_each"] = each
    order = deal_order(d, players, button)
    cards = list(d.get("cards") or ())
    shown = sorted((c for c in cards if c.get("by") == "dealer" and c.get("how") in SHOWN and "position" in c),
                   key=lambda c: c["position"])
    f["deal_dealer_shown"] = len(shown)
    if shown:
        first = shown[0]
        f["deal_dealer_shown_first"] = first["position"]
        if first.get("card"):
            f["deal_dealer_shown_rank"] = "A23456789TJQK".index(first["card"][0][0]) + 1
        seat = first.get("seat") or (order[(first["position"] - 1) % len(order)] if order else None)
        if seat is not None:
            f["deal_dealer_shown_seat"] = seat
            if order and seat in order and len(order) > 1:
                f["deal_shown_seat_left"] = order[(order.index(seat) + 1) % len(order)]
    dealt = len(order) if order else len(players | set(d.get("not_entitled") or ())) - len(d.get("dealt_out") or ())
    down = [c for c in shown if variant not in ("stud", "razz") or c["position"] <= 2 * dealt]
    f["deal_downcards_shown"] = len(down)
    if variant in ("stud", "razz") and order:       # the first three rounds of the deal: two down, one up
        first3 = [order[(c["position"] - 1) % len(order)] if not c.get("seat") else c["seat"] for c in shown
                  if c["position"] <= 3 * len(order)]
        f["deal_all_three_shown"] = any(first3.count(s) >= 3 for s in set(first3))
    seats = [c.get("seat") or (order[(c["position"] - 1) % len(order)] if order else None) for c in down]
    if len(down) < 2 or None not in seats:
        f["deal_both_downcards_shown"] = len(set(seats)) < len(seats)
    laid = laid_out(incident)
    boxed = [c["position"] for c in cards if c.get("how") == "boxed" and "position" in c]
    if laid is not None:      # a boxed card past the starting hands was found on the board, not in the deal
        f["deal_boxed"] = len(laid.boxed_in_deal)
        f["deal_boxed_board"] = len(boxed) - len(laid.boxed_in_deal)
        f["deal_boxed_all"] = len(boxed)
        f["deal_holecards_last"] = laid.holecards_last
        if boxed:
            first_boxed = min(boxed)
            f["deal_boxed_card"] = first_boxed
            f["deal_boxed_next"] = next(p for p in range(first_boxed + 1, first_boxed + len(boxed) + 2)
                                        if p not in boxed)
        f["deal_top_card"] = laid.top
        ahead = [b for b in boxed if b > laid.top]
        if ahead:       # a boxed card found further down (dealing the board): the cards from it on move one down
            f["deal_boxed_ahead"] = min(ahead)
        f["deal_next_street"] = laid.next_street or ("draw" if variant in ("draw", "lowball") else "none")
        if laid.next_street in BOARD:      # the cards that street has (flop 3, turn and river 1): the rules number them
            f["deal_next_street_cards"] = BOARD[laid.next_street]
        seat = f.get("deal_dealer_shown_seat")
        if seat in laid.seat_cards:
            f["deal_shown_seat_cards"] = " and ".join(map(str, laid.seat_cards[seat]))
        disputed = d.get("no_burn") or d.get("premature") or ("flop" if d.get("flop_cards") else None)
        for street, burn, got in laid.board:
            if street == disputed:
                if burn is not None:
                    f["deal_board_burn"] = burn
                f["deal_board_cards"] = ", ".join(map(str, got[:-1])) + (" and " if len(got) > 1 else "") + \
                    str(got[-1])
    else:
        f["deal_boxed"] = sum(1 for c in cards if c.get("how") == "boxed")
        f["deal_next_street"] = "none"
    flashed = sorted((c for c in cards if c.get("by") == "player" and c.get("how") in ("exposed", "face_up", "flashed")),
                     key=lambda c: c.get("position") or 0)
    f["deal_player_flashed"] = len(flashed)
    if flashed:   # whose card it is: told, or found from its place in the deal order
        first = flashed[0]
        seat = first.get("seat") or (order[(first["position"] - 1) % len(order)] if order and first.get("position")
                                     else None)
        if seat is not None:
            f["deal_player_flashed_seat"] = seat
    f["deal_player_dropped"] = sum(1 for c in cards if c.get("by") == "player" and c.get("how") in
                                   ("dropped", "off_table"))
    f["deal_other_exposed"] = sum(1 for c in cards if c.get("by") == "other_player")
    hands = d.get("hands") or {}
    if each is not None and hands:
        ranked = sorted(hands, key=lambda s: order.index(s) if order and s in order else s)
        extra = [s for s in ranked if hands[s] > each]
        short = [s for s in ranked if hands[s] < each and s not in (d.get("dealt_out") or ())]
        f["deal_extra_cards"] = sum(hands[s] - each for s in extra)
        f["deal_short_seats"] = len(short)
        if extra:
            f["deal_extra_seat"] = extra[0]
            f["deal_extra_cards_held"] = hands[extra[0]]
            if d.get("draws"):   # he drew: the cards he holds are his hand after the draw
                f["deal_extra_after_draw"] = extra[0] in d["draws"]
        if short:
            f["deal_short_seat"] = short[0]
        if button is not None:
            f["deal_short_is_button"] = short == [button] and hands[button] == each - 1 and not extra
    if d.get("seventh_players") and variant in ("stud", "razz"):   # seventh street's count (inventory §28)
        n = d["seventh_players"]
        stub = d.get("stub_cards")
        if stub is None and n == len(players):
            stub = 52 - 6 * n - 3
        if stub is not None and stub >= 0:
            f.update(deal_stub_cards=stub, deal_stub_and_burns=stub + 3,
                     deal_left_after_each_card=max(stub + 3 - 1 - n, 0), deal_left_after_common_card=stub + 3 - 2)
    shown_down = d.get("showdown_cards") or {}
    if shown_down and variant in ("stud", "razz"):
        most = max(shown_down, key=lambda s: shown_down[s])
        fewest = min(shown_down, key=lambda s: shown_down[s])
        f.update(deal_showdown_most=shown_down[most], deal_showdown_most_seat=most,
                 deal_showdown_fewest=shown_down[fewest], deal_showdown_fewest_seat=fewest)
    if d.get("draws"):
        f["deal_draw_fives"] = sum(1 for n in d["draws"].values() if n >= 5)
        # the draw's cards counted under each delivery the rules may choose (four then one, or five in a row)
        drawing = order or sorted(players)
        f["deal_draw_four_then_one"] = draw_walk(drawing, dict(d["draws"]), 4)
        f["deal_draw_in_a_row"] = draw_walk(drawing, dict(d["draws"]), 5)
    f["deal_not_entitled"] = len(d.get("not_entitled") or ())
    f["deal_dealt_out"] = len(d.get("dealt_out") or ())
    away_out = [s for s in d.get("dealt_out") or () if s in (d.get("away") or ())]
    seated = [pl.seat for pl in incident.hand.players]     # from the small blind on
    blinds = set(seated[:2]) if button is not None and len(seated) > 2 else None
    ante = getattr(getattr(incident.hand, "game", None), "ante", 0) or 0
    if away_out and blinds is not None and not ante:   # who among them has put up nothing (no blind, no ante)
        unposted = [s for s in away_out if s not in blinds]
        f["deal_dealt_out_away_unposted"] = len(unposted)
        if unposted:
            f["deal_dealt_out_away_seats"] = _seats(unposted)
    elif not away_out:
        f["deal_dealt_out_away_unposted"] = 0
    if "first_card_wrong_seat" not in d and d.get("first_card_seat") is not None:
        proper = proper_first(d, players, button)
        if proper is not None:
            f["deal_wrong_first_seat"] = d["first_card_seat"] != proper
    f["deal_seats_in"] = _seats(players - set(d.get("not_entitled") or ()) | set(d.get("dealt_out") or ()))
    f["deal_away_seats"] = _seats(d.get("away"))
    f["deal_away"] = len(d.get("away") or ())
    if d.get("carried_pot_seat"):
        f["deal_carried_pot_new"] = len(d["carried_pot_seat"])
        f["deal_carried_pot_seats"] = _seats(d["carried_pot_seat"])
    f["deal_penalty_seats"] = _seats(d.get("on_penalty"))
    if button is not None:
        f["deal_button_seat"] = button
    told: dict[int, int] = {}
    for a in d.get("actions") or ():      # a hand told without its betting: the chips the actions name, by seat
        if a.get("to") is not None:
            told[a["seat"]] = max(told.get(a["seat"], 0), a["to"])
    if told and incident.no_betting:
        setting = incident.hand.game.setting
        parts = [f"seat {s} {show(v, setting)}" for s, v in sorted(told.items())]
        f["deal_chips_back_listed"] = (", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
                                       + " (and each blind and ante to the player who posted it)")
    acts = [a for a in d.get("actions") or () if a.get("action") != "post"]
    if acts or d.get("noticed") in ("during_deal", "before_any_action"):
        f["actions_since"] = len(acts)
        f["chip_actions_since"] = sum(1 for a in acts if a.get("action") in CHIP_ACTIONS)
        f["fold_actions_since"] = sum(1 for a in acts if a.get("action") == "fold")
        f["check_actions_since"] = sum(1 for a in acts if a.get("action") == "check")


def laid_out(incident: Incident) -> Dealt | None:
    """The deal of an incident laid out card by card (rulings/facts/deck.py), or None when the game's count of
    cards is not known or no seat was dealt."""
    p = incident.procedure
    if p is None or "deal" not in p.raw:
        return None
    d = p.raw["deal"]
    each = DEALT.get(p.variant)
    players = {pl.seat for pl in incident.hand.players}
    order = deal_order(d, players, _button_given(incident))
    known = order is not None      # else the count of cards is known, not which seat got which
    order = order or sorted((players | set(d.get("not_entitled") or ())) - set(d.get("dealt_out") or ()))
    if each is None or not order:
        return None
    board: list[tuple[str, bool, int]] = []
    flop_game = p.variant in ("holdem", "omaha")
    if flop_game:
        told = d.get("premature") or d.get("no_burn")
        if told in STREETS:
            board = [(s, True, BOARD[s]) for s in STREETS[:STREETS.index(told) + 1]]
            if d.get("no_burn") == told and not d.get("premature"):
                board[-1] = (told, False, BOARD[told])
        elif d.get("flop_cards"):
            board = [("flop", True, d["flop_cards"])]
    held = {seat: n for seat, n in (d.get("hands") or {}).items() if seat in order}
    boxed = {c["position"] for c in d.get("cards") or () if c.get("how") == "boxed" and "position" in c}
    return as_dealt(order, each, held, boxed, board, flop_game, known)


def _button_given(incident: Incident) -> int | None:
    """The button's seat when the incident gives it (a deal told without it has none)."""
    data = incident.source.data if incident.source is not None else None
    if isinstance(data, dict):
        b = data.get("button")
        return b if isinstance(b, int) and not isinstance(b, bool) else None
    return None


def _next(seat: int, occupied: list[int], size: int) -> int:
    """The first occupied seat to the left of ``seat`` (seats 1..size, wrapping)."""
    for step in range(1, size + 1):
        s = (seat - 1 + step) % size + 1
        if s in occupied:
            return s
    return seat


def _prev_seat(seat: int, size: int) -> int:
    return (seat - 2) % size + 1


def _button(b: dict[str, Any], order: list[int], f: dict) -> None:
    occupied = sorted(order)
    marks = [b.get("last_button", 0), b.get("last_small", 0), *b.get("last_big", ())]
    size = b.get("table_seats") or max(occupied + marks)   # never below a seat dealt in: the reader refuses that (I131)
    f["heads_up"] = len(occupied) == 2
    if b.get("last_big") is None:
        return
    last_btn, last_bbs = b.get("last_button"), b["last_big"]
    last_bb = last_bbs[-1]
    # dead button: the big blind moves to the next player; small blind and button are the two seats before it
    bb = _next(last_bb, occupied, size)
    sb_seat = _prev_seat(bb, size)
    btn_seat = _prev_seat(sb_seat, size)
    f.update(dead_bb_seat=bb, dead_button_seat=btn_seat, dead_button_empty=btn_seat not in occupied,
             dead_no_small_blind=sb_seat not in occupied)
    if sb_seat in occupied:
        f["dead_sb_seat"] = sb_seat
    # moving button: the button moves to the next player; every player the big blind passed posts one
    if last_btn is not None:
        mbtn = _next(last_btn, occupied, size)
        pos_sb = _next(mbtn, occupied, size)
        pos_bb = _next(pos_sb, occupied, size)
        due_bb = _next(last_bb, occupied, size)
        bbs = [due_bb]
        while bbs[-1] != pos_bb and len(bbs) < len(occupied):
            bbs.append(_next(bbs[-1], occupied, size))
        f.update(moving_button_seat=mbtn, moving_big_blinds=len(bbs),
                 moving_bb_seats=" and ".join(map(str, bbs)))
        sbs = [s for s in [x for x in last_bbs if x in occupied] + [pos_sb] if s not in bbs]
        f["moving_sb_seats"] = " and ".join(map(str, dict.fromkeys(sbs))) or "none"
        # simplified moving button: button, small and big blind are the next three players, whoever missed
        f.update(simple_button_seat=mbtn, simple_sb_seat=pos_sb, simple_bb_seat=pos_bb)
    if f["heads_up"]:
        # heads-up the button is the small blind: the seat before the big blind's
        hu_bb = _next(last_bb, occupied, size)
        f.update(hu_bb_seat=hu_bb, hu_button_seat=_next(hu_bb, occupied, size))


def _next_hand(b: dict[str, Any], order: list[int], button: int | None, f: dict) -> None:
    """Where the button and blinds go next hand when this hand is played with the button where the dealer put
    it (``button``, the incident's; ``order`` from the small blind on): the big blind moves on one player
    and the small blind and the button are the two seats before it. Given only when both are players, so that
    no button mode could put them elsewhere."""
    if button is None or len(order) < 3:
        return
    occupied = sorted(order)
    size = b.get("table_seats") or max(occupied + [button])
    bb = _next(order[1], occupied, size)
    sb = _prev_seat(bb, size)
    btn = _prev_seat(sb, size)
    if sb in occupied and btn in occupied:
        f.update(next_hand_button_seat=btn, next_hand_sb_seat=sb, next_hand_bb_seat=bb)


def _showdown(p: Procedure, s: dict[str, Any], order: list[int], f: dict, high_low: bool) -> None:
    live = list(s.get("in_showdown") or order)
    claimant = s.get("claimant")
    others = [seat for seat in s.get("in_showdown") or () if seat != claimant]
    if claimant is not None and claimant in live and len(others) == 1:   # heads-up at the showdown
        f["sd_other_seat"] = others[0]
    first = s.get("first_to_act")
    if first is None and p.variant not in ("stud", "razz"):      # stud acts by the cards showing, not the button
        first = next((seat for seat in order if seat in live), None)
    if first is not None:
        f["sd_first_to_act"] = first
    if s.get("asked_to_see") is not None and s.get("last_aggressor") is not None:
        f["sd_asks_last_aggressor"] = s["asked_to_see"] == s["last_aggressor"]
    if s.get("in_showdown"):
        # the seats told to have given up their cards: an asker who kept none, a claimant who folded or whose
        # mucked cards can no longer be identified (cards thrown away unshown are not dead while they can still be
        # picked out, TDA 14: until that is known he may still be holding a hand)
        gone = set()
        if s.get("asker") is not None and s.get("asker_kept_cards") is False:
            gone.add(s["asker"])
        if s.get("claimant") is not None and ((s.get("mucked") is True and s.get("identifiable") is False)
                                              or s.get("claimant_folded") is True):
            gone.add(s["claimant"])
        holding = [seat for seat in s["in_showdown"] if seat not in gone]
        if len(holding) == 1:
            f["sd_last_holder"] = holding[0]
    if s.get("plays_board") is not None:
        f["sd_plays_board"] = s["plays_board"]
    elif s.get("claimant") is not None and s.get("tabled") in ("none", "some") and s.get("board") is not None \
            and p.variant == "holdem" and not high_low:
        # a claim from a hand not tabled on a board nobody can beat: whatever he holds, he plays the board
        from rulings.facts.strength import board_plays_for_all
        if board_plays_for_all(s["board"]):
            f["sd_plays_board"] = True
    if s.get("hands") and s.get("board") is not None and not high_low:   # high-low: rulings/facts/hilo.py
        from rulings.facts.strength import best_high
        ranked = best_high(s["hands"], s["board"], p.variant)
        if ranked is not None:
            winners, description = ranked
            f["sd_best_hand_seats"] = " and ".join(map(str, winners))
            f["sd_best_hand"] = description
            if len(winners) == 1:
                f["sd_best_hand_seat"] = winners[0]
            if s.get("dealer_read") is not None:
                f["sd_misread"] = s["dealer_read"] not in winners


def showdown_pots(incident: Incident, stacks: dict[int, Any]) -> dict[str, Any]:
    """Who at a showdown is all-in for the main pot only and who contests a side pot above it (the players still
    holding chips after the betting, ``stacks`` from the replay), and which side-pot player would act first: in
    flop games the first on the button's left, in stud the best board showing (razz: the lowest). Empty unless
    at least one player in the showdown is all-in and two others still have chips: then there is a pot above
    the all-in player's that only they contest."""
    p = incident.procedure
    if p is None or "showdown" not in p.raw:
        return {}
    s = p.raw["showdown"]
    order = [pl.seat for pl in incident.hand.players]
    live = [seat for seat in order if seat in (s.get("in_showdown") or order)]
    all_in = [seat for seat in live if stacks.get(seat) == 0]
    side = [seat for seat in live if seat not in all_in]
    if not all_in or len(side) < 2:
        return {}
    out: dict[str, Any] = {"sd_main_pot_only_seats": " and ".join(map(str, all_in)),
                           "sd_side_pot_seats": " and ".join(map(str, side))}
    if p.variant in ("stud", "razz"):
        from rulings.facts.hand import showing_first
        first = showing_first(incident, side)
    else:
        first = side[0]
    if first is not None:
        out["sd_side_first_to_act"] = first
        out["sd_show_order"] = ", ".join(map(str, _round_from(side, first) + all_in))
    aggressor = s.get("last_aggressor")
    if aggressor in side:   # a bet on the last round: its maker first, then the others in the side pot, then all-in
        out["sd_bet_show_order"] = ", ".join(map(str, _round_from(side, aggressor) + all_in))
    return out


def _round_from(seats: list[int], first: int) -> list[int]:
    """``seats`` (in the order of action) starting from ``first`` and going round."""
    i = seats.index(first)
    return seats[i:] + seats[:i]

