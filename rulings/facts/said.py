"""The facts of what a player said: the reader's declarations put in the game's numbers.

Reading the words is rulings/facts/declaration.py's job; this module gives the
reader what the game lets an amount be (whether its chips make cents, the
house's amount words) and turns each declaration into street totals the
rules compare. Which declaration binds, and what it binds to, is decided by
rulebooks/standard/declarations.yaml and misdeclared-calls.yaml, not here.
"""
from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulings.incident.model import Incident, act_of

if TYPE_CHECKING:   # the parser itself is imported when an incident has words (a cold start without needs none)
    from rulings.facts.declaration import Context, Declaration, Unclear

# House parameters naming room slang for amounts (0: the room does not use the word).
HOUSE_WORDS = {"dime": "amount_words.dime", "nickel": "amount_words.nickel"}


def context(incident: Incident, params: dict[str, Any]) -> Context:
    """What amounts the game's chips can make, and the amount words the house book defines."""
    from rulings.facts.declaration import Context
    game, hand = incident.hand.game, incident.hand
    if game.setting == "tournament":
        cents = False   # tournament chips are whole numbers
    else:
        amounts = [game.small_blind, game.big_blind, game.ante, game.betting_unit, game.spread_min,
                   game.bring_in, *game.bet_sizes, *hand.straddles,
                   *(p.stack for p in hand.players if p.stack is not None)]
        amounts += [a.to for street in hand.streets for a in street if a.to is not None]
        cents = any(a % 100 for a in amounts if a)
    words = tuple((w, params[p]) for w, p in HOUSE_WORDS.items() if params.get(p))
    return Context(cents=cents, unit=game.betting_unit, words=words)


def _to(d: Declaration, f: dict[str, Any]) -> int | None:
    """The street total a declaration's amount names: 'by' adds it to the bet faced."""
    if d.amount is None:
        return None
    return f["current_bet"] + d.amount if d.amount_means == "by" else d.amount


def _bare(d: Declaration, f: dict[str, Any], ctx: Context) -> int | None:
    """TDA-2024-57 arithmetic for a number said without its size, below the game's big blind.

    Such a number cannot be a wager as said, so its readings (ten times, a hundred times ...)
    are the amounts it can mean: the highest not above the pot, never above the stack, and
    never short of the least the declaration can be (a call facing a bet, else a minimum bet).
    """
    from rulings.facts.declaration import bare_readings
    literal = _to(d, f)
    if not d.bare_number or literal is None or not f.get("big_blind") or literal >= f["big_blind"]:
        return None
    ceiling = f["committed"] + f["stack"] if f.get("stack") is not None else None
    readings = [r for r in bare_readings(literal, ctx.cents, ctx.unit) if ceiling is None or r <= ceiling]
    if not readings:
        if ceiling is None:   # no reading the game's chips can make (a $3 unit, "five"), no stack to cap it:
            return None       # the number is not read as another amount; it stands as said
        readings = [ceiling]  # every reading is above what he has: all of it
    if f.get("pot") is None:
        return None      # the pot is not known: the reading it decides is unknown (the report asks the pot)
    fitting = [r for r in readings if r <= f["pot"]]
    best = max(fitting) if fitting else readings[0]
    least = f["current_bet"] if d.kind == "amount" and f["facing_bet"] else (f.get("min_raise_to") or 0)
    if best < least:
        best = next((r for r in readings if r >= least), best)
    return best


def _said_to(f: Mapping[str, Any]) -> int | None:
    """The street total the words name, where they name a well-formed one.

    A call is the bet faced, a check stays put, an all-in is the whole stack (in pot-limit only
    while the stack is within the pot); an amount is its total when it is at least the bet faced
    (more than it, for a bet or raise). Words whose number is not a street total by itself - a
    raise no bigger than the bet, an amount below the bet, a number said with a fixed-limit bet -
    name none: what they bind to is for the rules, not for a comparison with the chips.
    """
    kind, to, bet = f.get("said_kind"), f.get("said_amount_to"), f["current_bet"]
    if kind == "call":
        return f["committed"] + f["to_call"]
    if kind == "check":
        return f["committed"]
    if kind == "all-in" and f.get("stack") is not None:
        whole = f["committed"] + f["stack"]
        limit = f.get("max_raise_to")
        return whole if f["structure"] != "pot-limit" or limit is None or whole <= limit else None
    if to is None or f["structure"] == "fixed-limit" and kind in ("bet", "raise"):
        return None
    if to > bet or (kind == "amount" and to == bet):
        return to
    return None


_PARSED: dict[tuple[str, Context], Declaration | Unclear] = {}


def _parse(text: str, ctx: Context) -> Declaration | Unclear:
    """``parse_declaration``, each (words, context) read once per process: a batch hears the same words often,
    and the reading is a function of the two (both frozen)."""
    from rulings.facts.declaration import parse_declaration
    key = (text, ctx)
    try:
        got = _PARSED.get(key)
    except TypeError:   # a house word's value that cannot be a key: read it afresh
        return parse_declaration(text, ctx)
    if got is None:
        if len(_PARSED) >= 4096:
            _PARSED.clear()
        got = _PARSED[key] = parse_declaration(text, ctx)
    return got


def straddle_words(incident: Incident, params: dict[str, Any]) -> Declaration | None:
    """The declaration of the disputed act's words when they declare a straddle and nothing else ("straddle",
    "I straddle", "straddle fifty"), with any amount as a street total; None for any other words."""
    d = incident.disputed
    if d is None or d.said is None or "straddl" not in d.said.casefold():   # every straddle verb has it
        return None
    from rulings.facts.declaration import Declaration
    got = _parse(d.said, context(incident, params))
    if not isinstance(got, Declaration) or got.kind != "straddle" or got.later or got.amount_means == "by":
        return None
    return got


def said_facts(incident: Incident, f: dict[str, Any], params: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The said_* facts of the disputed act, or the question the words raise."""
    text = act_of(incident).said
    if text is None:
        return {"said": False}, None
    from rulings.facts.declaration import Unclear
    ctx = context(incident, params)
    d = _parse(text, ctx)
    if isinstance(d, Unclear):
        return ({"said": True, "said_conditional": True} if d.conditional else {"said": True}), d.question
    if "straddle" in (d.kind, *(n.kind for n in d.later)):   # rulings/ruling/decide.py made a straddle alone a post
        return {"said": True}, (f"'{text.strip()}' declares a straddle, a blind a player after the big blind posts "
                                "before anyone acts, and this act cannot be one as said (the seat, the point of the "
                                "hand, the amount, or other words with it): what did the player mean to do?")
    if d.pot_percent is not None:
        if f["facing_bet"]:
            return {"said": True}, (f"'{text.strip()}' facing a bet: a share of the pot before his call or after "
                                    "it? What amount did the player mean?")
        if f.get("pot") is None:
            return {"said": True}, None   # a share of a pot not known: unknown (the report asks the pot)
        unit = incident.hand.game.betting_unit or (1 if ctx.cents else 100)
        share = f["pot"] * d.pot_percent // 100 // unit * unit
        if share <= 0:
            return {"said": True}, f"'{text.strip()}' of this pot is nothing; what amount did the player mean?"
        return {"said": True, "said_kind": "bet", "said_call_then_raise": False, "said_nonstandard": True,
                "said_bare_number": False, "said_later_count": len(d.later), "said_amount_means": "to",
                "said_amount_to": f["committed"] + share, "said_to": f["committed"] + share,
                "said_pot_percent": d.pot_percent}, None
    out: dict[str, Any] = {
        "said": True, "said_kind": d.kind, "said_call_then_raise": d.call_then_raise,
        "said_nonstandard": d.nonstandard, "said_bare_number": False, "said_later_count": len(d.later)}
    if d.said_as is not None:
        out["said_amount_means"] = d.said_as
    if d.kind == "call":
        if d.amount is not None:
            out["said_call_named_to"] = _to(d, f)   # "call three hundred": the amount he named
    elif d.amount is not None:
        reading = _bare(d, f, ctx)
        out["said_amount_to"] = _to(d, f) if reading is None else reading
        if reading is not None:
            out.update(said_bare_number=True, said_bare_reading=reading)
    f_words = ChainMap(out, f)   # f read through its own get and [] (rulings/facts/situation.py watches what is read)
    said_to = _said_to(f_words)
    if said_to is not None:
        out["said_to"] = said_to
    if d.later:
        nxt = d.later[0]
        out.update(said_later_kind=nxt.kind, said_later_corrected=nxt.corrected)
        if nxt.amount is not None:
            out["said_later_amount_to"] = _to(nxt, f)
    return out, None
