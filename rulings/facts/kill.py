"""The table's recent history for kill pots, turned into arithmetic facts.

Whether a kill is due, who posts it and where he acts is decided in
rulebooks/standard/kill-pots.yaml. The `table:` section is read and checked by
the incident reader (rulings/incident/table.py, and rulings/incident/checks.py
for what needs the limits); here we only compute facts that are definitions:
who won the last pot alone, how much of it was not blind money, whether the
button holder is among the winners, the kill blind and limits for a full and
a half kill. Nothing here refuses.
"""
from __future__ import annotations

from typing import Any

from rulings.incident.checks import kill_sizes
from rulings.incident.model import Incident, Table

def kill_facts(incident: Incident, params: dict[str, Any]) -> dict[str, Any]:
    """The kill-pot facts of an incident with a `table:` section (empty without one)."""
    t: Table | None = incident.table
    if t is None:
        return {}
    game = incident.unkilled_game or incident.hand.game   # the next kill is sized on the game's own limits
    sizes = kill_sizes(game)
    limits = sizes[params["kill.size"]]
    # the reader refuses a kill size that is not a whole amount (I123); None here: the blinds were not given,
    # so the kill blind and limits are unknown (a rule asks for them where a kill is due)
    assert limits is not None or game.big_blind <= 0
    f: dict[str, Any] = {"variant": t.variant, "kill_split_game": t.split_game, "kill_new_game": t.new_game,
                         "kill_pots_listed": len(t.pots), "kill_limits_played": incident.unkilled_game is not None}
    for name, lim in sizes.items():
        if lim is not None:
            f.update({f"kill_{name}_blind": lim.kill_blind, f"kill_{name}_small_bet": lim.small_bet,
                      f"kill_{name}_big_bet": lim.big_bet})
    _last_pots(t, f, game.bet_sizes[0] if game.bet_sizes else game.big_blind,
               None if limits is None else limits.small_bet)
    _button(t, f)
    _people(t, f)
    _this_hand(t, f, None if limits is None else limits.kill_blind)
    return f


def _last_pots(t: Table, f: dict, small_bet: int, killed_small_bet: int | None) -> None:
    if not t.pots:
        return
    last = t.pots[-1]
    if last.amount is not None and last.blind_money is not None:   # its size not told: what reads it is unknown
        f.update(kill_last_pot=last.amount, kill_last_blind_money=last.blind_money,
                 kill_last_live_money=last.amount - last.blind_money)
    full_bet = killed_small_bet if last.kill_seat is not None else small_bet
    if full_bet is not None:
        f["kill_last_full_bet"] = full_bet
    f.update(kill_last_split=len(last.winners) > 1,
             kill_last_killed=last.kill_seat is not None,
             kill_last_killer_won=last.kill_seat is not None and last.winners == (last.kill_seat,),
             kill_last_killer_in_split=len(last.winners) > 1 and last.kill_seat in last.winners)
    if len(last.winners) == 1:
        f["kill_last_winner"] = last.winners[0]
    if last.flop is not None:
        f["kill_last_flop"] = last.flop
    if last.kill_seat is not None:
        f["kill_last_killer"] = last.kill_seat
    if len(t.pots) >= 2:
        prev = t.pots[-2]
        f["kill_same_winner_twice"] = len(prev.winners) == 1 and prev.winners == last.winners
        f["kill_prev_split"] = len(prev.winners) > 1
        if prev.flop is not None:
            f["kill_prev_flop"] = prev.flop


def _button(t: Table, f: dict) -> None:
    f["kill_button_given"] = t.button is not None or t.button_neutral
    if t.button is None:
        if t.button_neutral and t.pots:
            f.update(kill_last_winner_had_button=False, kill_button_in_last_split=False)
        return
    seat, legs = t.button
    f.update(kill_button_seat=seat, kill_button_legs=legs)
    if t.pots:
        winners = t.pots[-1].winners
        f["kill_last_winner_had_button"] = winners == (seat,)
        f["kill_button_in_last_split"] = len(winners) > 1 and seat in winners


def _people(t: Table, f: dict) -> None:
    winner = f.get("kill_last_winner")
    if winner is not None:
        f["kill_last_winner_left"] = winner in t.left
        f["kill_last_winner_returned"] = winner in t.returned
    f["kill_new_players"] = len(t.new_players)
    if t.new_players:
        f["kill_new_player_seats"] = " and ".join(map(str, t.new_players))


def _this_hand(t: Table, f: dict, blind: int | None) -> None:
    if t.kill_posted:
        k = t.kill_posted
        f.update(kill_posted_seat=k["seat"], kill_posted_amount=k["amount"])
        if k["required"] is not None:
            f["kill_posted_required"] = k["required"]
    if t.face_up is not None:
        f["kill_button_face_up"] = t.face_up
    if t.underpaid:
        u = t.underpaid
        f.update(kill_underpaid_seat=u["seat"], kill_underpaid_amount=u["amount"])
        if blind is not None:
            f["kill_underpaid_short"] = blind - u["amount"]
    if t.voluntary:
        v = t.voluntary
        f.update(kill_voluntary_seat=v["seat"], kill_voluntary_cards=v["cards_seen"])
        if v["stack"] is not None:
            f["kill_voluntary_stack"] = v["stack"]
        if v["third_card_out"] is not None:
            f["kill_voluntary_third_card"] = v["third_card_out"]
    if t.blind_passed:
        f["kill_blind_passed_seat"] = t.blind_passed["seat"]
        if t.blind_passed["took_all_blinds"] is not None:
            f["kill_took_all_blinds"] = t.blind_passed["took_all_blinds"]
    for key, value in (t.broken_game or {}).items():
        f[f"kill_broken_{key}"] = value
