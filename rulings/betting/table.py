"""Replay state of one hand: chips in front and behind, who is due to act, and how the street was bet."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter, itemgetter
from typing import NamedTuple

from rulings.betting.limits import BIG_BET, REOPEN, is_full, minimum_bet, raise_cap, street_bet
from rulings.betting.model import STRUCTURES, BettingError, Hand, Money, Params

HEADS_UP_EXCEPTIONS = ("none", "before_cap", "at_round_start", "before_third_bet")


_seat_of = attrgetter("seat")
_stack_of = attrgetter("stack")
_first = itemgetter(0)
_second = itemgetter(1)


@lru_cache(maxsize=512)
def seating(seats: tuple[int, ...]) -> tuple[dict[int, int], tuple[tuple[int, ...], ...], dict[int, int]]:
    """Each seat's index in ``seats``, ``seats`` read from each index round to the one before, and
    the index the turn passes to after each seat.

    Kept per seating, as the same seats play hand after hand: the tables of
    those hands share the answer, so they only ever read it.
    """
    n = len(seats)
    twice = seats + seats
    return (dict(zip(seats, range(n))), tuple(map(twice.__getitem__, map(slice, range(n), range(n, 2 * n)))),
            dict(zip(seats, (*range(1, n), 0))))


def put_in(banked: tuple[dict[int, Money], ...], committed: dict[int, Money]) -> dict[int, Money]:
    """Each seat's chips in the pot over the whole hand: ``Table.banked`` and this street's totals."""
    total = dict(committed)
    for chips in banked:
        for seat, amount in chips.items():
            total[seat] += amount
    return total


class Blinds(NamedTuple):
    """Who posted the blinds of the first street and how much (for the preflop pot-limit rules)."""

    sb_seat: int | None     # None when no small blind went in (a dead small blind)
    sb_post: Money
    bb_seat: int | None
    bb_post: Money


@dataclass(slots=True)
class Table:
    """The hand as replayed so far.

    Mutable on purpose: it is an accumulator private to the replay; callers
    only ever see the frozen ``Position`` built from it. It keeps running
    counts (``live_seats``, ``able``, ``in_front``) and the next seat due
    (``due``) so that no question about who may act has to look at every
    seat again; every method that moves chips or turns clears ``fresh`` so
    ``due`` is found anew.

    A Position holds the table's own ``committed`` and ``behind`` dicts
    rather than copies (``shared``); once shared they are never changed in
    place: the next move of chips copies them first. ``banked`` only grows
    by a closed street's ``committed``, which nothing changes again, so a
    bet copies nothing more. ``folded`` and ``live_seats`` are immutable and
    replaced on a fold.
    """

    # Set by start, in this order (it passes them by position: a call by keyword to a 40-field
    # __init__ costs more than the rest of the table's setup).
    hand: Hand
    params: Params
    order: tuple[int, ...]
    behind: dict[int, Money | None]
    banked: tuple[dict[int, Money], ...]     # what each seat put in the middle: the antes, then each street closed
    committed: dict[int, Money]              # each seat's total on this street
    middle: Money                            # the pot from earlier streets, antes and pot_before
    dead: Money                              # money in the middle that belongs to no seat (pot_before)
    street: int
    live_seats: tuple[int, ...]              # the seats that have not folded, in order
    able: int                                # live seats with chips behind (or no known stack)
    movers: set[int]                         # those seats: the ones that can still act
    place: dict[int, int]                    # each seat's index in order (shared: read only)
    rotations: tuple[tuple[int, ...], ...]   # order read from each index on (seating)
    following: dict[int, int]                # the cursor after each seat acts (shared: read only)
    big_bet: bool                            # no-limit or pot-limit
    pot_limit: bool                          # the structure is pot-limit
    plain_full: bool                         # big-bet with a known limit_reopen: is_full is ``increment >= full``
    stud: bool                               # the game has a bring-in: each street is opened by the seat named
    rounds: int                              # the game's betting rounds
    least_bet: Money | None                  # minimum_bet, the same on every street but in fixed limit (None)
    cap: int                                 # raise_cap of the game and params (bets in a limit round)
    # Changed by the replay.
    folded: frozenset[int] = frozenset()
    acted: dict[int, Money] = field(default_factory=dict)   # the street total each seat last acted at
    current_bet: Money = 0
    last_full_raise: Money = 0
    full_level: Money = 0                    # the total after the last bet or raise that counted as full
    bets: int = 0                            # limit: bets and raises counted toward the cap
    cursor: int | None = None                # index in order from which the next actor is searched
    uncapped: bool = False
    began_heads_up: bool = False             # limit: fewer than three players counted toward the cap as the round began
    short_all_in: tuple[int, Money] | None = None
    blinds: Blinds | None = None
    bb_seat: int | None = None               # blinds.bb_seat on the first street, read at every action there
    bb_acted: bool = False
    over: bool = False
    posting: bool = False                    # explicit posts are still coming in
    due: int | None = None                   # the first seat from the cursor still to act, when fresh
    fresh: bool = False
    in_front: Money = 0                      # the sum of committed: this street's bets
    pair_option: bool = False                # limit: an open pair shows and the house lets a player bet the big bet
    doubled: bool = False                    # that round's big bet has been made: every raise is a big bet
    shared: bool = False                     # committed and behind are held by a Position

    @classmethod
    def start(cls, hand: Hand, params: Params) -> Table:
        """The table before the first action: antes and (unless posts are given) blinds are in."""
        game = hand.game
        structure = game.structure
        if structure not in STRUCTURES:
            raise BettingError(f"unknown betting structure {structure!r}", field="game",
                               expected=" | ".join(STRUCTURES))
        players = hand.players
        seats = tuple(map(_seat_of, players))
        if len(seats) < 2 or len(set(seats)) != len(seats):
            raise BettingError("a hand needs two or more players in distinct seats", field="players",
                               expected="two or more distinct seats")
        first_street, rounds = hand.first_street, game.betting_rounds
        if first_street < 0 or first_street >= rounds:
            raise BettingError(f"first_street {first_street} is not a betting round of this game",
                               field="first_street", expected=f"0 to {rounds - 1}")
        stacks = tuple(map(_stack_of, players))
        place, rotations, following = seating(seats)
        big_bet = structure in BIG_BET
        nothing = dict.fromkeys(seats, 0)
        table = cls(hand, params, seats, dict(zip(seats, stacks)), (nothing,) if game.ante else (), nothing.copy(),
                    hand.pot_before, hand.pot_before, first_street, seats, len(stacks) - stacks.count(0),
                    set(seats) if 0 not in stacks else {s for s, chips in zip(seats, stacks) if chips != 0},
                    place, rotations, following, big_bet, structure == "pot-limit",
                    big_bet and params.limit_reopen in REOPEN, game.bring_in > 0, rounds,
                    None if structure == "fixed-limit" else minimum_bet(game, 0), raise_cap(game, params))
        if first_street > 0:
            table.open_street()
            return table
        if game.ante:
            for seat in seats:
                table.ante(seat, game.ante)
        first = hand.streets[0] if hand.streets else ()
        if first and first[0].kind == "post":
            table.posting = True
        else:
            table.open_first(table.automatic_posts())
        return table

    # -- chips -------------------------------------------------------------------------------

    @property
    def total(self) -> dict[int, Money]:
        """Each seat's chips in the pot over the whole hand, this street's bets included."""
        return put_in(self.banked, self.committed)

    def unshare(self) -> None:
        """Copy ``committed`` and ``behind`` before changing them: a Position holds these."""
        self.committed = dict(self.committed)
        self.behind = dict(self.behind)
        self.shared = False

    def put(self, seat: int, to: Money) -> None:
        """Move chips from behind the seat to in front of it, up to a street total of ``to``."""
        if self.shared:     # unshare(), written out: most puts follow a Position
            committed = self.committed = dict(self.committed)
            behind = self.behind = dict(self.behind)
            self.shared = False
        else:
            committed, behind = self.committed, self.behind
        amount = to - committed[seat]
        stack = behind[seat]
        if stack is not None:
            rest = behind[seat] = stack - amount
            if (stack != 0) != (rest != 0) and seat not in self.folded:
                self.chips_now(seat, rest != 0)
        committed[seat] = to
        self.in_front += amount
        self.fresh = False

    def ante(self, seat: int, ante: Money) -> None:
        if self.shared:
            self.unshare()
        stack = self.behind[seat]
        paid = ante if stack is None else min(ante, stack)
        if stack is not None:
            rest = self.behind[seat] = stack - paid
            if (stack != 0) != (rest != 0) and seat not in self.folded:
                self.chips_now(seat, rest != 0)
        self.banked[0][seat] += paid     # the antes go in before any Position is made
        self.middle += paid
        self.fresh = False

    def chips_now(self, seat: int, has_chips: bool) -> None:
        """A live seat has just gone all-in (or, having had none, has chips): ``able`` and ``movers``."""
        if has_chips:
            self.able += 1
            self.movers.add(seat)
        else:
            self.able -= 1
            self.movers.discard(seat)

    def all_in_total(self, seat: int) -> Money | None:
        """The street total the seat reaches by putting in everything (None: no known limit)."""
        stack = self.behind[seat]
        return None if stack is None else self.committed[seat] + stack

    # -- forced bets -------------------------------------------------------------------------

    def automatic_posts(self) -> list[tuple[int, Money]]:
        """Post the blinds and straddles the game and hand call for; return them in order."""
        game, order = self.hand.game, self.order
        if self.hand.straddles and (game.big_blind <= 0 or len(order) < 3):
            raise BettingError("a straddle needs blinds and three or more players", field="straddles",
                               expected="no straddles")
        if len(self.hand.straddles) > len(order) - 2:
            raise BettingError("more straddles than players after the blinds", field="straddles",
                               expected=f"at most {len(order) - 2}")
        if game.big_blind <= 0:
            return []
        heads_up = len(order) == 2
        sb_seat, bb_seat = (order[1], order[0]) if heads_up else (order[0], order[1])
        wanted = [(sb_seat, game.small_blind), (bb_seat, game.big_blind)]
        wanted += list(zip(order[2:], self.hand.straddles))
        if self.hand.kill_post is not None:   # the kill blind, from the killer's seat wherever it is
            wanted.append(self.hand.kill_post[:2])
        posts = []
        for seat, amount in wanted:
            if amount <= 0:
                continue
            stack = self.behind[seat]
            to = amount if stack is None else min(amount, stack)
            self.put(seat, to)
            posts.append((seat, to))
        return posts

    def open_first(self, posts: list[tuple[int, Money]]) -> None:
        """Open the first street once its forced bets are in: levels, the option, the first actor."""
        game = self.hand.game
        self.posting = False
        self.fresh = False
        # A short all-in big blind still sets the nominal blind as the bet to call (rooms' rule).
        levels = set(map(_second, posts))
        if posts and game.big_blind:
            levels.add(game.big_blind)
        self.current_bet = max(levels) if levels else 0
        if self.big_bet:
            # The largest forced bet is the bring-in the first raise is measured by (RRP-NL-2).
            self.last_full_raise = self.current_bet
        else:
            need = self.full_size()
            for level in sorted(levels):
                if level - self.full_level >= need:
                    self.bets += 1
                    self.full_level = level
                    self.last_full_raise = need
        kill = self.hand.kill_post
        if kill is not None and posts and kill[0] not in self.blind_run(posts)[:2]:
            # the kill blind is no blind of the run: its seat acts in turn (or last, by custom). A killer in the
            # blinds posts the kill as his blind
            posts = [p for p in posts if p[0] != kill[0]]
        else:
            kill = None
        run = self.blind_run(posts) if posts else []
        self.blinds = self.find_blinds(posts, run) if posts else None
        self.bb_seat = None if self.blinds is None else self.blinds.bb_seat
        if game.bring_in > 0:
            self.cursor = None       # stud: the bring-in seat, named by the actions, opens
        elif kill is not None and kill[2]:
            self.cursor = (self.place[kill[0]] + 1) % len(self.order)
        elif posts:
            self.cursor = (self.place[self.last_blind(posts, run)] + 1) % len(self.order)
        else:
            self.cursor = 0
        self.begin_round()

    def blind_run(self, posts: list[tuple[int, Money]]) -> list[int]:
        """The unbroken run of posting seats, in turn order, that starts with the first post.

        Blinds and straddles under the gun sit in such a run (SB, BB,
        straddles) and the action starts after it; a post from a seat outside
        it (a new player, a kill) acts in its normal turn, with the option,
        except a straddle in a big-bet game (``last_blind``).
        """
        posters = set(map(_first, posts))
        run = []
        for seat in self.rotations[self.place[posts[0][0]]]:
            if seat not in posters:
                break
            run.append(seat)
        return run

    def last_blind(self, posts: list[tuple[int, Money]], run: list[int]) -> int:
        """The seat the first round's action starts after, which acts last with the option.

        In a big-bet game the largest post above the big blind from a seat
        other than the blinds is the (last) straddle, wherever it sits: a
        straddle under the gun, a re-straddle, a button (Mississippi)
        straddle. Action starts on its left and the straddler acts last
        (WIKI-STRADDLE-1, WIKI-STRADDLE-MS: at $10-$25 with a $50 button
        straddle the small blind acts first). Otherwise it is the end of the
        blind run (``blind_run``). In a limit game a post above the big blind
        from outside the blinds may be a kill blind, which acts in turn
        (RRP-KILL-2), so limit games keep the run.
        """
        big = self.hand.game.big_blind
        if self.big_bet and big > 0 and self.blinds is not None:
            blinds = (self.blinds.sb_seat, self.blinds.bb_seat)
            last, level = None, big
            for seat, to in posts:
                if to > big and to >= level and seat not in blinds:
                    last, level = seat, to
            if last is not None:
                return last
        return run[-1]

    def find_blinds(self, posts: list[tuple[int, Money]], run: list[int]) -> Blinds:
        """Which posts are the small and big blind: the run's (``blind_run``) first seat is the SB
        only if it sits in the SB position and posted no more than a small blind; otherwise the SB is dead."""
        amount = dict(posts)
        sb_position = self.order[1] if len(self.order) == 2 else self.order[0]
        if len(run) >= 2 and run[0] == sb_position and amount[run[0]] <= self.hand.game.small_blind:
            return Blinds(run[0], amount[run[0]], run[1], amount[run[1]])     # sb_seat, sb_post, bb_seat, bb_post
        return Blinds(None, 0, run[0], amount[run[0]])

    # -- streets -----------------------------------------------------------------------------

    def open_street(self) -> None:
        """Open a later street (or the first, when the hand starts after the deal's first round).

        The street's bets are already cleared: by close_street, or by a table just started."""
        self.uncapped = False
        self.fresh = False
        self.cursor = None if self.stud else 0
        self.begin_round()

    def begin_round(self) -> None:
        # TDA-2024-RP10's custom: an open pair on this round (stud's fourth street) lets any player bet the big
        # bet (the next round's) instead of the small one, where the house plays it so; fixed limit only.
        self.pair_option = self.params.open_pair_big_bet and self.street in self.hand.open_pair \
            and self.least_bet is None and self.street + 1 < self.rounds
        self.doubled = False
        variant = self.params.heads_up_exception
        if variant not in HEADS_UP_EXCEPTIONS:
            self.heads_up_variant()     # refuses it
        self.began_heads_up = self.heads_up()
        if variant == "at_round_start" and self.began_heads_up:
            self.uncapped = True
        if not self.big_bet:
            self.review_cap()

    def close_street(self) -> None:
        """Sweep the street's bets into the middle."""
        self.middle += self.in_front
        self.in_front = 0
        self.banked += (self.committed,)
        self.committed = dict.fromkeys(self.order, 0)     # a new dict: a Position may hold the old one
        self.current_bet = self.last_full_raise = self.full_level = self.bets = 0
        self.acted = {}
        self.bb_seat = None     # the big blind's option is the first street's
        self.short_all_in = None
        self.fresh = False

    def advance(self) -> None:
        """After an action: move past every street whose betting is complete."""
        while not self.over and (len(self.live_seats) <= 1 or self.next_due() is None):
            if len(self.live_seats) <= 1 or self.street + 1 >= self.rounds:
                self.close_street()
                self.over = True
            else:
                self.close_street()
                self.street += 1
                self.open_street()

    # -- who acts ----------------------------------------------------------------------------

    def live(self) -> tuple[int, ...]:
        """The seats that have not folded, in order."""
        return self.live_seats

    def can_act(self, seat: int) -> bool:
        return seat not in self.folded and self.behind[seat] != 0

    def others_can_call_a_raise(self, seat: int) -> bool:
        """Whether another live player has chips beyond the current bet (OLR-SIDEPOT-1)."""
        behind, committed, bet = self.behind, self.committed, self.current_bet
        for other in self.live_seats:
            stack = behind[other]
            if other != seat and (stack is None or committed[other] + stack > bet):
                return True
        return False

    def facing(self, seat: int) -> Money:
        """The street total the seat must reach to call.

        When every other live player is all-in, nothing above the largest of
        their totals can be called, so that is the bet (a short all-in big
        blind heads-up is called for what it is).
        """
        if self.able - (seat not in self.folded and self.behind[seat] != 0) > 0:
            return self.current_bet     # another seat can still act (and so call more)
        others = [self.committed[s] for s in self.live_seats if s != seat]
        return min(self.current_bet, max(others, default=0))

    def to_call(self, seat: int) -> Money:
        stack = self.behind[seat]
        if self.able - (seat not in self.folded and stack != 0) > 0:
            owed = self.current_bet - self.committed[seat]     # facing() when others can act
        else:
            owed = self.facing(seat) - self.committed[seat]
        if owed < 0:
            owed = 0
        return owed if stack is None or owed <= stack else stack

    def actor(self) -> int | None:
        if self.over or self.cursor is None:
            return None
        return self.next_due()

    def next_due(self) -> int | None:
        """The first seat from the cursor (from the first seat when there is none) that needs to act;
        None when the street's betting is complete."""
        if not self.fresh:
            self.due = self.find_due()
            self.fresh = True
        return self.due

    def find_due(self) -> int | None:
        """``next_due`` worked out: a seat needs to act when it can (live, with chips) and it is short
        of what it faces, or it has not acted yet and another seat can still act."""
        live = self.live_seats
        if len(live) <= 1:
            return None
        folded, behind, committed, bet = self.folded, self.behind, self.committed, self.current_bet
        rotation = self.rotations[self.cursor or 0]
        if self.able > 1:
            # For a seat that can act, another can too (it is not the only one): it faces the bet.
            acted, movers = self.acted, self.movers
            for seat in rotation:
                if seat in movers and (committed[seat] < bet or seat not in acted):
                    return seat
            return None
        if self.able == 0:
            return None     # every live seat is all-in
        # No other seat can act: the one seat that can faces only what the others have put in (facing).
        for seat in rotation:
            if seat in folded or behind[seat] == 0:
                continue
            faced = 0
            for other in live:
                if other != seat and committed[other] > faced:
                    faced = committed[other]
            return seat if committed[seat] < min(bet, faced) else None
        return None

    # -- raising -----------------------------------------------------------------------------

    def full_size(self) -> Money:
        """The increment a bet or raise needs to count as full on this street."""
        least = self.least_bet
        if least is None:
            return street_bet(self.hand.game, self.street + self.doubled)   # doubled: the big bet (pair_option)
        return self.last_full_raise if self.last_full_raise >= least else least

    def raise_base(self) -> Money:
        """The level a raise is measured from: the high bet in big-bet games, the last full level in limit."""
        return self.current_bet if self.big_bet else self.full_level

    def reopened_for(self, seat: int) -> bool:
        """Whether the seat may raise: it has not acted, or it now faces a full bet or raise (TDA-2024-47)."""
        if seat not in self.acted:
            return True
        faced = self.facing(seat) - self.acted[seat]
        return faced > 0 and is_full(faced, self.full_size(), self.hand.game, self.params)

    def heads_up_variant(self) -> str:
        variant = self.params.heads_up_exception
        if variant not in HEADS_UP_EXCEPTIONS:
            raise BettingError(f"unknown heads_up_exception {variant!r}", field="params",
                               expected=" | ".join(HEADS_UP_EXCEPTIONS))
        return variant

    def heads_up(self) -> bool:
        """Fewer than three players count toward the cap (RRP-BR-3: all-in players do not, by default)."""
        counted = len(self.live_seats) if self.params.count_all_in_players else self.able
        return counted <= 2

    def review_cap(self) -> None:
        """Lift the cap if the round has just become heads-up early enough (inventory section 7)."""
        if self.big_bet or not self.heads_up():
            return
        variant = self.heads_up_variant()
        if variant == "before_cap" and self.bets < self.cap:
            self.uncapped = True
        elif variant == "before_third_bet" and self.bets < 3:
            self.uncapped = True

    def capped(self) -> bool:
        if self.big_bet or self.uncapped:
            return False
        return self.bets >= self.cap

    # -- actions -----------------------------------------------------------------------------

    def wager(self, seat: int, to: Money) -> None:
        """A bet, raise or completion to ``to`` (above the current bet); counts it as full or short."""
        self.put(seat, to)
        self.acted[seat] = to
        if self.plain_full:     # raise_base(), full_size() and is_full() of a big-bet game
            base, last, least = self.current_bet, self.last_full_raise, self.least_bet
            assert least is not None    # plain_full is a big-bet game's, and only fixed limit has no least bet (start)
            full = to - base >= (last if last >= least else least)
        else:
            base = self.raise_base()
            full = is_full(to - base, self.full_size(), self.hand.game, self.params)
        if full:
            if self.pair_option and not self.doubled and to - base >= street_bet(self.hand.game, self.street + 1):
                self.doubled = True     # the big bet is made: raises from here are big bets
            self.bets += 1
            self.full_level = to
            self.last_full_raise = max(self.last_full_raise, to - base)
        else:
            self.short_all_in = (seat, to)
        self.current_bet = to

    def bring_in(self, seat: int, to: Money) -> None:
        """A stud bring-in: the first bet of the round without counting as a full bet."""
        self.put(seat, to)
        self.acted[seat] = to
        self.current_bet = to
        if self.big_bet:
            self.last_full_raise = max(self.last_full_raise, to)

    def call(self, seat: int, owed: Money | None = None) -> None:
        """Call: put in ``owed``, the seat's ``to_call`` (worked out when not given)."""
        self.put(seat, self.committed[seat] + (self.to_call(seat) if owed is None else owed))
        self.acted[seat] = self.committed[seat]

    def fold(self, seat: int) -> None:
        if seat not in self.folded:
            self.able -= self.behind[seat] != 0
            self.movers.discard(seat)
            self.folded = self.folded | {seat}
            live = self.live_seats
            at = live.index(seat)
            self.live_seats = live[:at] + live[at + 1:]
        self.fresh = False

    def play(self, seat: int, move: str, to: Money | None, owed: Money | None) -> None:
        """Apply a checked move other than a post (``_move``'s fold, check, call, bring-in or wager)
        by the seat, then find the next seat due, moving on past a street whose betting is complete.

        ``owed`` is the seat's ``to_call`` when the caller has it.
        """
        if move == "check":
            self.acted[seat] = self.committed[seat]
        elif move == "call":
            self.call(seat, owed)
        elif move == "fold":
            self.fold(seat)
        elif move == "bring-in":
            self.bring_in(seat, to)             # type: ignore[arg-type]   # _move: a bring-in has its total
        else:
            self.wager(seat, to)                # type: ignore[arg-type]   # _move: a wager has its total
        self.turn_after(seat)

    def turn_after(self, seat: int) -> None:
        """The turn passes from ``seat``, which has just acted: find the next seat due, moving on past
        a street whose betting is complete (``find_due``'s usual case written out)."""
        if seat == self.bb_seat:      # None after the first street
            self.bb_acted = True
        cursor = self.cursor = self.following[seat]
        if not self.big_bet:
            self.review_cap()
        if self.able > 1:
            # Two or more seats can act (so two or more are live), and each faces the current bet.
            movers, committed, acted, bet = self.movers, self.committed, self.acted, self.current_bet
            self.fresh = True
            for due in self.rotations[cursor]:
                if due in movers and (committed[due] < bet or due not in acted):
                    self.due = due
                    return
            self.due = None
        elif len(self.live_seats) > 1:
            found = self.due = self.find_due()
            self.fresh = True
            if found is not None:
                return
        else:
            self.fresh = False
        self.advance()
