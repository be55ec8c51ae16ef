"""From a validated incident to the flat facts the engine matches: betting numbers, chips, words.

Everything here is arithmetic or reading: what the pot is, what a call costs,
how many chips went in, what the words said. What any of it *means* for the
ruling is decided by the rulebook, never here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulings.facts.acts import act_facts, before_noticed, skipped_seats
from rulings.betting import Hand
from rulings.facts.hand import bba_facts, hand_facts
from rulings.facts.hilo import hilo_facts
from rulings.incident.checks import betting_params, replayed_position
from rulings.incident.hand_says import completed
from rulings.incident.model import Incident, act_of
from rulings.facts.kill import kill_facts
from rulings.facts.procedure import procedure_facts, showdown_pots
from rulings.rulebook.model import ParamValues
from rulings.facts.lowball import sevens_facts
from rulings.facts.round import (SPLIT_FACTS, bring_in_due_seat, deal_money_facts, out_of_turn_back, out_of_turn_return,
                                 round_facts)
from rulings.facts.said import said_facts

CHIP_KINDS = ("call", "bet", "raise", "complete", "bring-in")
OOT_CHIP_WORDS = ("call", "bet", "raise", "complete", "all-in", "pot", "amount")   # said, they put chips in


@dataclass
class Situation:
    """The facts of one incident, plus the questions reading it raised."""

    facts: dict[str, Any]
    questions: list[dict] = field(default_factory=list)
    # with a later street's pot not given: every fact whose value may differ once a pot is given (the facts
    # the pot is read into, and those a fact builder worked out after reading one of them); empty otherwise
    pot_facts: frozenset[str] = frozenset()


# What reads the pot before a street (``Hand.pot_before``) other than through the facts: the replay's pot and
# its maximum (only pot-limit's maximum is sized by the pot), the pots of the round and a tied pot's shares
# (rulings/facts/round.py ``_pots``, ``_split``), and the options text that names the pot-limit maximum.
# The pots are read with the stand-in in the middle (nothing but in pot-limit), so how many there are and who is
# in which may change too once a pot is given; a tied pot's shares only when the incident splits one.
POT_FACTS = frozenset(("pot", "pot_in_middle", "pot_unknown", "main_pot", "main_pot_this_round", "side_pot_count",
                       "side_pots_total", "last_side_pot", "pots_listed", "seat_pot_count", "seat_in_main_pot",
                       "seat_can_win"))
POT_LIMIT_FACTS = frozenset(("max_raise_to", "options"))


class _Watched(dict):
    """The facts while they are built with the pot unknown: which ones a builder reads (``seen``)."""

    __slots__ = ("seen",)

    def __init__(self, facts: dict[str, Any]) -> None:
        super().__init__(facts)
        self.seen: set[str] = set()

    def __getitem__(self, name: str) -> Any:
        self.seen.add(name)
        return dict.__getitem__(self, name)

    def get(self, name: str, default: Any = None) -> Any:
        self.seen.add(name)
        return dict.get(self, name, default)

    def __contains__(self, name: object) -> bool:
        self.seen.add(name)   # type: ignore[arg-type]
        return dict.__contains__(self, name)


class _PotFacts:
    """The facts that may depend on the pot, grown as the builders that read one of them add theirs."""

    def __init__(self, f: _Watched, structure: str, split: bool) -> None:
        self.f = f
        self.names = set(POT_FACTS) | (POT_LIMIT_FACTS if structure == "pot-limit" else set())
        if split:
            self.names |= set(SPLIT_FACTS)

    def __call__(self, build, *args, ignore: frozenset = frozenset(), may_add: tuple[str, ...] | None = None):
        """Run one builder over the facts; when it read a fact that may depend on the pot (but those in
        ``ignore``), every fact it added or changed may too, and so may every fact it could have added with
        another pot: ``may_add``, names or ``prefix*`` (empty: it adds the same facts whatever it read). A
        builder that does not say makes every fact one that may change (``*``): the trials then run."""
        f = self.f
        before = dict(f)
        f.seen = set()
        got = build(*args)
        if got is not None:
            f.update(got)
        if f.seen & (self.names - ignore):
            self.names |= {k for k, v in f.items() if k not in before or before[k] is not v}
            self.names |= {"*"} if may_add is None else set(may_add)
        return got


__all__ = ["Situation", "betting_params", "build"]


def build(incident: Incident, params: ParamValues) -> Situation:
    """Compute every fact the rules may read, from an incident the reader has checked (rulings/incident/).

    Nothing here refuses: the reader has replayed the betting, compared the pot
    and the chips with the stacks and checked the kill and procedure sections
    under these parameter values (``rulings.incident.ensure_checked``).
    """
    hand: Hand = incident.hand
    game = hand.game
    setting = game.setting
    bparams = betting_params(params)
    incident = completed(incident, bparams)   # what the floor left out of a procedure and the hand's actions say
    f: dict[str, Any] = {
        "structure": game.structure, "setting": setting, "street": incident.street,
        "small_blind": game.small_blind, "big_blind": game.big_blind, "ante": game.ante,
        "betting_unit": game.betting_unit, "players_dealt": len(hand.players),
    }
    if game.bet_sizes and not incident.limits_unknown:
        f["small_bet"], f["big_bet"] = game.bet_sizes[0], game.bet_sizes[-1]
    if incident.no_betting:   # the deal told without its game's structure: a stand-in, never read
        f["structure"] = None
    f.update(incident.inputs)
    f.update(bba_facts(incident))   # a big blind ante: what the big blind posted as blind and as ante
    sit = Situation(f)
    seat = incident.disputed.seat if incident.disputed else None
    pos = replayed_position(incident, hand, bparams, seat)   # the reader's replay, when it asked the same question
    f.update(pot=pos.pot, pot_in_middle=pos.pot_in_middle, current_bet=pos.current_bet,
             last_full_raise=pos.last_full_raise, min_raise_to=pos.min_raise_to,
             max_raise_to=pos.max_raise_to, can_raise=pos.can_raise,
             capped=pos.capped, cap_reached=pos.cap_reached)
    if incident.limits_unknown:   # a limit game replayed on stand-in sizes: what they size is unknown
        f.update(min_raise_to=None, max_raise_to=None)
    watch = None
    if incident.pot_unknown:
        # A later street's pot not given: what reads the pot is unknown (no rule fires on a guess). The
        # betting was replayed on a stand-in 0; what the street's own actions fix (the bet faced, the
        # smallest raise, a no-limit stack's all-in) stands, and a pot-limit maximum does not.
        f.update(pot=None, pot_in_middle=None, pot_unknown=True)
        if game.structure == "pot-limit":
            f["max_raise_to"] = None
        # which facts then may change with a pot given: the builders below that read the facts are watched
        f = _Watched(f)
        sit.facts = f
        watch = _PotFacts(f, game.structure, bool(incident.split))
    try:
        _facts_of_seat(incident, params, bparams, hand, pos, seat, f, sit, watch)
    finally:
        if watch is not None:
            sit.facts = dict(f)
            sit.pot_facts = frozenset(watch.names)
    if incident.blinds_unknown:
        _blinds_unknown(sit.facts, _blind_round(incident, hand))
    return sit


BLIND_SIZED = ("small_blind", "big_blind", "min_raise_to", "last_full_raise", "options")   # every round (RRP-NL-2)
FIRST_ROUND = ("pot", "pot_in_middle", "current_bet", "to_call", "facing_bet", "max_raise_to", "main_pot",
               "main_pot_this_round")   # the blinds are the first round's bets and its pot


def _blind_round(incident: Incident, hand: Hand) -> bool:
    """The first round of a big-bet game told without its blinds: who acts first, what he faces and the pot
    all follow from blinds not given."""
    return incident.blinds_unknown and hand.first_street + len(hand.streets) <= 1


def _blinds_unknown(f: dict[str, Any], first_round: bool) -> None:
    """A big-bet game told without its blinds (``Incident.blinds_unknown``): the facts the blinds size are
    left unknown, so no rule fires on a guessed 0 (rulings/ruling/unknowns.py asks for the big blind where it
    changes the ruling); on the first round that is also what the seat faces and the pot."""
    if first_round:
        names: tuple[str, ...] = BLIND_SIZED + FIRST_ROUND
    elif f.get("current_bet"):
        # a bet made on a later round is at least the big blind (RRP-NL-2): the raises are sized by the bets,
        # whatever the blinds were. With nothing bet the smallest bet is the big blind, unknown; pot-limit's
        # maximum is the pot's and stays known (pot-limit.maximum-without-blinds states it alone)
        names = ("small_blind", "big_blind")
    else:
        names = BLIND_SIZED
    for name in names:
        if name in f:
            f[name] = None


def _facts_of_seat(incident: Incident, params: ParamValues, bparams: Any, hand: Hand, pos: Any, seat: int | None,
                   f: dict[str, Any], sit: Situation, watch: _PotFacts | None) -> None:
    """``build``'s facts after the replay's; ``watch`` (the pot not given) runs each builder that reads them."""
    def run(builder, *args, **kw):
        if watch is None:
            got = builder(*args)
            if got is not None:
                f.update(got)
            return got
        return watch(builder, *args, **kw)
    f.update(kill_facts(incident, params))   # a kill question may have no disputed act
    f.update(procedure_facts(incident, params))   # nor may a procedure question (clock, posting, button, showdown)
    f.update(deal_money_facts(incident, bparams, pos))   # a deal in dispute in a hand with betting: its chips by seat
    f.update(showdown_pots(incident, {} if incident.unsized else pos.stacks))   # at a showdown: who is all-in for the main pot only
    f.update(hand_facts(incident, bparams))       # the whole hand: acts, board, upcards, showdown, pot winners
    run(hilo_facts, incident, f, len(pos.side_pots), hand.game.setting, may_add=("hilo_*",))   # high-low halves
    run(sevens_facts, incident, bparams, f, may_add=("sevens_*",))   # lowball: a seven checked after the draw
    reached = [i for i in incident.unsized if i < sum(map(len, hand.streets))]
    if reached:   # an amount told without its size (a stand-in) before this point: what it sizes is unknown
        f.update(pot=None, pot_in_middle=None, current_bet=None, last_full_raise=None, min_raise_to=None,
                 max_raise_to=None, amounts_unknown=True)
        if seat is not None:
            _ask_amounts(incident, reached, seat, sit)
            return
    d = incident.disputed
    if seat is None or d is None:   # the seat is the disputed act's: both are given or neither
        if incident.split:   # a tied pot at the showdown, no act in dispute: its shares and odd chips all the same
            got = run(round_facts, incident, bparams, pos, f, ignore=POT_LIMIT_FACTS)
            for name in set(got or ()) - set(SPLIT_FACTS):
                f.pop(name, None)
        elif _told_to_the_end(incident):   # no act in dispute, the hand told to its end: the dispute is the payout
            got = run(round_facts, incident, bparams, pos, f, ignore=POT_LIMIT_FACTS)
            for name in set(got or ()) - set(PAYOUT_FACTS):
                f.pop(name, None)
            f["payout_dispute"] = True
        return
    # The replay names no seat before stud's bring-in (the arithmetic knows no upcards): the upcards do.
    actor = pos.actor if pos.actor is not None else bring_in_due_seat(incident)
    f.update(to_call=pos.to_call, committed=pos.committed.get(seat, 0), stack=pos.stacks.get(seat),
             facing_bet=pos.to_call > 0)
    f["call_to"] = f["committed"] + pos.to_call   # the street total a call makes: "call to $30"
    if (actor is not None or not _waits_for_bring_in(incident)) and not _blind_round(incident, hand):
        f["in_turn"] = actor == seat     # (who acts first on a blinds round follows the blinds: unknown without)     # before the bring-in with no upcards given, whose turn it is is unknown
    if incident.street == "preflop":
        f.update(_preflop_facts(hand))
    run(_chips, incident, f, may_add=())   # all its facts or none, by the chips alone
    run(_words, incident, f, sit, params, may_add=("said*",))
    if f.get("said_conditional") or f.get("conditional"):   # what holding him to the words would mean (TDA 59)
        from rulings.facts.conditional import conditional_facts
        run(conditional_facts, incident, bparams, may_add=("conditional_*",))
    seen = before_noticed(incident, actor) if incident.after else []
    if incident.after:   # out of turn: only what went by before the action came back to a skipped seat
        f["actions_since"] = len(seen)
        f["chip_actions_since"] = sum(1 for a in seen if a.kind in CHIP_KINDS)
        f["fold_actions_since"] = sum(1 for a in seen if a.kind == "fold")
        f["check_actions_since"] = sum(1 for a in seen if a.kind == "check")
    if f.get("in_turn") is False and (d.said is not None or d.motions):
        # TDA 2024 rules 53-B and 36: the act out of turn is itself one of the actions counted
        run(_out_of_turn_counts, incident, f, seen, may_add=())
    if d.based_on_count is not None:
        f["bet_from_count"] = d.based_on_count
    run(act_facts, incident, f, actor)
    if f.get("out_of_turn_changed"):   # the options he has when the action comes back to him
        run(out_of_turn_return, incident, bparams, skipped_seats(incident, actor))
    if f.get("in_turn") is False:   # whose turn it is now: a skipped seat that has still to act
        run(out_of_turn_back, incident, bparams, skipped_seats(incident, actor))
    # options, reopening, pots, straddles (rulings/facts/round.py); what of them the pot sizes is in
    # POT_FACTS: the pot-limit maximum it reads only for the options text
    run(round_facts, incident, bparams, pos, f, ignore=POT_LIMIT_FACTS)
    if incident.limits_unknown:   # the sizes were a stand-in: what they size is unknown
        for name in ("min_raise_to", "max_raise_to", "options"):
            f[name] = None


# The facts of the pots at the hand's end (rulings/facts/round.py ``_pots``) that do not depend on a disputed seat.
PAYOUT_FACTS = ("main_pot", "side_pot_count", "side_pots_total", "last_side_pot", "pots_listed", "pot_takes_listed",
                "uncalled_seat", "uncalled_amount", "all_in_players")


def _told_to_the_end(incident: Incident) -> bool:
    """No act in dispute and the whole hand told to its end: the betting over, with its showdown or the pots'
    winners given. What is asked is how the money is paid: the pots, who is in each, what goes back. A
    procedure section that gives no field of its own (``showdown: {}``: "how is it paid?") tells nothing in
    dispute beside the payout; what the hand's actions fill in of it is not the floor's."""
    log = incident.log
    procedure = incident.procedure
    return incident.disputed is None and log is not None and bool(log.showdown or log.awards) \
        and not incident.table and not (procedure and any(f"{name}.{key}" not in procedure.derived
                                                          for name, given in procedure.raw.items() for key in given))


def _out_of_turn_counts(incident: Incident, f: dict, seen: list) -> None:
    own_chips = bool(act_of(incident).motions) or f.get("said_kind") in OOT_CHIP_WORDS
    f["out_of_turn_actions"] = 1 + len(seen)
    f["out_of_turn_chip_actions"] = int(own_chips) + sum(1 for a in seen if a.kind in CHIP_KINDS)


def _ask_amounts(incident: Incident, reached: list[int], seat: int, sit: Situation) -> None:
    """The amounts told without a size that the disputed act comes after: the ruling on it depends on them
    (what he faces, what is a raise), so each is asked, never guessed; no fact of the act is built on them."""
    whole = incident.whole_hand or incident.hand
    listed = [a for street in whole.streets for a in street]
    for i in reached:
        a = listed[i]
        where = incident.action_paths[i] if i < len(incident.action_paths) else ("actions",)
        field = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in where).replace(".[", "[") + ".to"
        sit.questions.append({"fact": field, "field": field, "asked_by": "hand reader",
                              "question": f"How much did seat {a.seat} {a.kind} to? The ruling on seat {seat}'s "
                                          f"act depends on it (what he faced, and what a call or raise was)"})


def _waits_for_bring_in(incident: Incident) -> bool:
    """Stud's first round with nothing but antes in: the round waits for the bring-in."""
    hand = incident.hand
    return hand.game.bring_in > 0 and hand.first_street == 0 and len(hand.streets) == 1 \
        and all(a.kind == "post" for a in hand.streets[0])


def _preflop_facts(hand: Hand) -> dict[str, Any]:
    order = [p.seat for p in hand.players]
    bb_seat = order[0] if len(order) == 2 else order[1]
    acts = hand.streets[0] if hand.streets else ()
    posts = {a.seat: a.to for a in acts if a.kind == "post"}
    short = False
    sb_seat = order[1] if len(order) == 2 else order[0]
    if posts:
        short = (posts.get(sb_seat, 0) or 0) < hand.game.small_blind or \
                (posts.get(bb_seat, 0) or 0) < hand.game.big_blind
    elif hand.game.big_blind > 0:   # the blinds posted by the arithmetic: a stack below its blind posts it short
        stacks = {p.seat: p.stack for p in hand.players}
        short = any((stack := stacks.get(seat)) is not None and stack < blind
                    for seat, blind in ((sb_seat, hand.game.small_blind), (bb_seat, hand.game.big_blind)))
    return {"preflop_bb_acted": any(a.seat == bb_seat and a.kind != "post" for a in acts),
            "blind_short_or_dead": short}


def _chips(incident: Incident, f: dict) -> None:
    motions = act_of(incident).motions
    chips = [c for m in motions for c in m]
    f["chips_put_out"] = bool(chips)   # the named form of "no chips": rules test it, not chips_total's absence
    if not chips:
        return
    total = sum(chips)
    stack = f.get("stack")   # never below the chips: the reader refuses that (I107)
    smallest = min(chips)
    f.update(chips_total=total, chip_count=len(chips), motion_count=len(motions),
             chips_to=f["committed"] + total,
             every_chip_needed=total - smallest < f["to_call"],
             all_chips_in=stack is not None and total == stack)


def _words(incident: Incident, f: dict, sit: Situation, params: dict[str, Any]) -> None:
    """The words of the disputed act as facts (rulings/facts/said.py), or the question they raise."""
    facts, question = said_facts(incident, f, params)
    f.update(facts)
    # the named form of "no amount": rules test it, not said_amount_to's absence
    f["amount_said"] = "said_amount_to" in facts
    if question is not None:
        sit.questions.append({"fact": "said_kind", "question": question, "asked_by": "declaration reader"})
