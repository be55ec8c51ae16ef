"""Floor shorthand: what a floorperson types ("nl 2/5", "3 bet 60", "seat 3 raises to 60") read into incident values.

One reader for `rulings ask` and the podium's form (docs/ask.md lists what it takes). Pure: text in, a value
out, or :class:`Unread` with what is wrong and an example of what would do. Nothing is guessed: a word it does
not know, an amount that is not exact, an all-in without its amount, "raise by" (which needs the bet it
raises) are all said, never filled in.

>>> game("nl 2/5")
{'structure': 'no-limit', 'stakes': [2, 5]}
>>> game("PLO $1/$2 tourney")
{'structure': 'pot-limit', 'variant': 'omaha', 'stakes': [1, 2], 'setting': 'tournament'}
>>> actions("3 bet 60, seat 4 raises to 150; 5 folds")
[{'seat': 3, 'action': 'bet', 'to': 60}, {'seat': 4, 'action': 'raise', 'to': 150}, {'seat': 5, 'action': 'fold'}]
>>> players("1:1000 2:640 3:1.5k")
{1: 1000, 2: 640, 3: 1500}
>>> structure("no limt")
Traceback (most recent call last):
...
rulings.incident.shorthand.Unread: 'no limt' is not a betting structure: did you mean 'no limit'? one of nl (no-limit), pl (pot-limit), fl (fixed-limit), spread (spread-limit)
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

MAX_SEAT = 30            # the incident reader's limit on seats (a table seats at most 11)
MAX_TEXT = 2_000         # characters of one answer read (a line of actions is far shorter)
MAX_AMOUNT = 10 ** 12    # as rulings.money.MAX_AMOUNT

ACTIONS = ("post", "fold", "check", "call", "bet", "raise", "complete", "bring-in")
AMOUNT_NEEDED = ("bet", "raise", "complete", "post", "bring-in")

STRUCTURES = {
    "no-limit": ("nl", "no-limit", "nolimit", "no limit"),
    "pot-limit": ("pl", "pot-limit", "potlimit", "pot limit"),
    "fixed-limit": ("fl", "fixed-limit", "fixed limit", "fixed", "limit", "lim"),
    "spread-limit": ("spread", "spread-limit", "spread limit", "sl"),
}
VARIANTS = {
    "holdem": ("holdem", "hold'em", "hold em", "hold-em", "he", "texas", "texas holdem"),
    "omaha": ("omaha", "omaha hi", "o"),
    "stud": ("stud", "7 stud", "7-stud", "7cs", "seven card stud", "7 card stud", "seven-card stud"),
    "razz": ("razz",),
    "draw": ("draw", "5 card draw", "five card draw", "5cd"),
    "lowball": ("lowball", "2-7", "27", "deuce to seven", "ace to five", "a-5"),
    "other": ("other",),
}
# a structure and a game in one word, as floors write them
COMBINED = {"nlhe": ("no-limit", "holdem"), "nlh": ("no-limit", "holdem"), "plo": ("pot-limit", "omaha"),
            "plhe": ("pot-limit", "holdem"), "plh": ("pot-limit", "holdem"), "lhe": ("fixed-limit", "holdem"),
            "flhe": ("fixed-limit", "holdem"), "nlo": ("no-limit", "omaha"), "lo": ("fixed-limit", "omaha")}
SETTINGS = {"cash": ("cash", "cash game", "ring", "ring game", "live"),
            "tournament": ("tournament", "tourney", "tourn", "mtt", "sng", "sit and go")}
STREETS = {
    "preflop": ("preflop", "pre-flop", "pre flop", "pre", "pf"),
    "flop": ("flop", "on the flop"),
    "turn": ("turn", "on the turn"),
    "river": ("river", "on the river"),
    "third": ("third", "3rd", "3rd street", "third street", "3"),
    "fourth": ("fourth", "4th", "4th street", "fourth street", "4"),
    "fifth": ("fifth", "5th", "5th street", "fifth street", "5"),
    "sixth": ("sixth", "6th", "6th street", "sixth street", "6"),
    "seventh": ("seventh", "7th", "7th street", "seventh street", "7"),
    "before-draw": ("before-draw", "before draw", "before the draw", "predraw", "pre-draw", "pre draw"),
    "after-draw": ("after-draw", "after draw", "after the draw", "postdraw", "post-draw", "post draw"),
}
VARIANT_STREETS = {"holdem": ("preflop", "flop", "turn", "river"), "omaha": ("preflop", "flop", "turn", "river"),
                   "other": ("preflop", "flop", "turn", "river"),
                   "stud": ("third", "fourth", "fifth", "sixth", "seventh"),
                   "razz": ("third", "fourth", "fifth", "sixth", "seventh"),
                   "draw": ("before-draw", "after-draw"), "lowball": ("before-draw", "after-draw")}
VERBS = {
    "fold": ("fold", "folds", "folded", "f", "mucks", "mucked"),
    "check": ("check", "checks", "checked", "x", "k"),
    "call": ("call", "calls", "called", "c", "flat", "flats", "flatted", "limp", "limps", "limped"),
    "bet": ("bet", "bets", "b", "lead", "leads", "led"),
    "raise": ("raise", "raises", "raised", "r", "reraise", "reraises", "re-raise", "re-raises", "3-bet", "3-bets",
              "3bet", "3bets", "4-bet", "4-bets", "4bet", "4bets", "5-bet", "5-bets", "5bet", "5bets"),
    "complete": ("complete", "completes", "completed"),
    "bring-in": ("bring-in", "brings-in", "brought-in", "bring", "brings", "brought"),
    "post": ("post", "posts", "posted", "straddle", "straddles", "straddled"),
}
ALL_IN = ("all-in", "allin", "shove", "shoves", "shoved", "jam", "jams", "jammed", "push", "pushes", "all")
SEAT_WORDS = ("seat", "s", "player", "p", "#")
FILLER = ("to", "for", "and", "then", "in")


class Unread(ValueError):
    """Text the shorthand cannot read: the message says what is wrong and what would do."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _lookup(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    return {alias: name for name, aliases in table.items() for alias in aliases}


_STRUCTURE, _VARIANT, _SETTING, _STREET, _VERB = (_lookup(t) for t in (STRUCTURES, VARIANTS, SETTINGS, STREETS,
                                                                          VERBS))
_AMOUNT = re.compile(r"^\$?([0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)?(\.[0-9]+)?(k)?$")


def _clean(text: object, what: str) -> str:
    if not isinstance(text, str):
        raise Unread(f"{what}: expected text")
    text = " ".join(text.strip().split())
    if len(text) > MAX_TEXT:
        raise Unread(f"{what}: {len(text):,} characters is far more than an answer needs ({MAX_TEXT:,} at most)")
    return text


def _close(word: str, choices) -> str:
    from difflib import get_close_matches    # only when a word is not known
    close = get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'? " if close else ""


def amount(text: str) -> int | Decimal:
    """An exact amount: '60', '$1,000', '84.50', '1k', '1.5k'. Cents at most; never negative.

    >>> amount("$1,000"), amount("84.50"), amount("2.5k"), amount("0")
    (1000, Decimal('84.50'), 2500, 0)
    """
    t = _clean(text, "an amount").lower().replace(" ", "")
    m = _AMOUNT.match(t)
    if not t or not m or not (m.group(1) or m.group(2)):
        raise Unread(f"'{text.strip()}' is not an amount (e.g. 60, $1,000, 84.50 or 1.5k)")
    try:
        value = Decimal((m.group(1) or "0").replace(",", "") + (m.group(2) or ""))
    except InvalidOperation:   # pragma: no cover - the pattern admits only digits
        raise Unread(f"'{text.strip()}' is not an amount") from None
    if m.group(3):
        value *= 1000
    if value > MAX_AMOUNT:
        raise Unread(f"'{text.strip()}' is more than the largest amount accepted ({MAX_AMOUNT:,})")
    if value != value.quantize(Decimal("0.01")):
        raise Unread(f"'{text.strip()}' has more than cents: an amount is exact to the cent")
    if value == value.to_integral_value():
        return int(value)
    return value if not m.group(3) else value.normalize()


def money_or_none(text: str) -> int | Decimal | None:
    """``amount`` or None when the text is not one (for a form's optional fields)."""
    try:
        return amount(text)
    except Unread:
        return None


def _one_of(text: str, table: dict[str, str], what: str, listing: str) -> str:
    t = _clean(text, what).lower()
    if t in table:
        return table[t]
    raise Unread(f"'{text.strip()}' is not {what}: {_close(t, table)}one of {listing}")


def structure(text: str) -> str:
    """'nl', 'PL', 'limit', 'fixed limit', 'spread' -> the incident's structure.

    >>> structure("NL"), structure("pot limit"), structure("limit")
    ('no-limit', 'pot-limit', 'fixed-limit')
    """
    return _one_of(text, _STRUCTURE, "a betting structure",
                   "nl (no-limit), pl (pot-limit), fl (fixed-limit), spread (spread-limit)")


def variant(text: str) -> str:
    """"hold'em", 'omaha', '7 stud', '2-7' -> the incident's variant."""
    return _one_of(text, _VARIANT, "a game", ", ".join(VARIANTS))


def setting(text: str) -> str:
    """'cash', 'tourney', 'mtt' -> cash or tournament."""
    return _one_of(text, _SETTING, "cash or tournament", "cash, tournament (or tourney)")


def street(text: str, game_variant: str | None = None) -> str:
    """'pre', 'pf', 'flop', '3rd', 'before the draw' -> the street, checked against the game when it is known.

    >>> street("pf"), street("4th", "stud")
    ('preflop', 'fourth')
    """
    streets = VARIANT_STREETS.get(game_variant or "", tuple(STREETS))
    allowed = {a: s for a, s in _STREET.items() if s in streets and not (a.isdigit() and game_variant is None)}
    name = _one_of(text, allowed, "a street" + (f" of {game_variant}" if game_variant else ""), ", ".join(streets))
    return name


def stakes(text: str) -> list:
    """'2/5', '$1/$2', '1-2', '[1, 2]', '5/10/20' (a straddle third) -> the amounts, small to large.

    >>> stakes("$1/$2"), stakes("1-2"), stakes("[2, 5]"), stakes("5/10/20"), stakes("1k/2k")
    ([1, 2], [1, 2], [2, 5], [5, 10, 20], [1000, 2000])
    """
    t = _clean(text, "the stakes").strip("[]() ")
    if re.search(r"^[/-]|[/-]$", t):
        raise Unread(f"'{text.strip()}': an amount on each side of the '/', e.g. 2/5")
    parts = [p for p in re.split(r"\s*(?:/|\s-\s|(?<=\d)-(?=\$?\d)|,\s+|\s+)\s*", t) if p]
    if not parts:
        raise Unread("the stakes, e.g. 2/5 or $1/$2")
    values = []
    for p in parts:
        try:
            values.append(amount(p))
        except Unread:
            raise Unread(f"'{text.strip()}' is not stakes: '{p}' is not an amount (e.g. 2/5 or $1/$2)") from None
    if len(values) > 3:
        raise Unread(f"'{text.strip()}': at most three amounts (small blind, big blind, a straddle), e.g. 2/5")
    if any(v == 0 for v in values):
        raise Unread(f"'{text.strip()}': a blind or bet of 0 is not a stake; give the amounts, e.g. 2/5")
    if values != sorted(values):
        raise Unread(f"'{text.strip()}': the stakes go small to large, e.g. 2/5")
    return values


_PHRASES = sorted({*(a for a in _STRUCTURE if " " in a), *(a for a in _VARIANT if " " in a),
                   *(a for a in _SETTING if " " in a)}, key=len, reverse=True)


_FORCED = {"ante": "ante", "bba": "big_blind_ante", "big-blind-ante": "big_blind_ante", "bring-in": "bring_in",
           "bringin": "bring_in"}   # forced bets a game line may name, each followed by its amount


def game(text: str) -> dict:
    """A game line, words in any order: structure, game, stakes, cash or tournament; what is not said is left out.

    >>> game("2/5 no limit hold'em")
    {'stakes': [2, 5], 'structure': 'no-limit', 'variant': 'holdem'}
    >>> game("limit stud 10/20")
    {'structure': 'fixed-limit', 'variant': 'stud', 'stakes': [10, 20]}
    >>> game("nl 1000/2000 bba 2000 tournament")
    {'structure': 'no-limit', 'stakes': [1000, 2000], 'big_blind_ante': 2000, 'setting': 'tournament'}
    """
    t = _clean(text, "the game").lower()
    if not t:
        raise Unread("the game, e.g. 'nl 2/5', 'plo 1/2' or 'limit stud 10/20'")
    for phrase in _PHRASES:          # two-word names become one token
        t = re.sub(rf"(?<![\w'-]){re.escape(phrase)}(?![\w'-])", phrase.replace(" ", "_"), t)
    out: dict = {}

    def put(key: str, value, word: str) -> None:
        if key in out and out[key] != value:
            raise Unread(f"'{text.strip()}' says {key} twice: {out[key]} and {value} ('{word}')")
        out[key] = value
    tokens = t.replace(",", " ").split()
    taken: set[int] = set()
    for i, token in enumerate(tokens):
        if i in taken:
            continue
        word = token.replace("_", " ")
        if word in _FORCED:      # 'ante 300', 'bba 2000', 'bring-in 50': the amount is the next word
            if i + 1 >= len(tokens) or money_or_none(tokens[i + 1]) is None:
                raise Unread(f"'{word}' in '{text.strip()}' needs its amount after it, e.g. '{word} 300'")
            put(_FORCED[word], amount(tokens[i + 1]), word)
            taken.add(i + 1)
        elif word in COMBINED:
            put("structure", COMBINED[word][0], word)
            put("variant", COMBINED[word][1], word)
        elif word in _STRUCTURE:
            put("structure", _STRUCTURE[word], word)
        elif word in _VARIANT and word != "o":
            put("variant", _VARIANT[word], word)
        elif word in _SETTING:
            put("setting", _SETTING[word], word)
        elif re.search(r"[0-9]", word):
            put("stakes", stakes(word), word)
        elif word in ("game", "cash-game", "at", "stakes"):
            continue
        else:
            known = [*COMBINED, *_STRUCTURE, *(v for v in _VARIANT if len(v) > 1), *_SETTING]
            pair = f"{word} {tokens[i + 1]}" if i + 1 < len(tokens) else ""
            close = (_close(pair, _PHRASES) if pair else "") or _close(word, known)
            raise Unread(f"'{word}' in '{text.strip()}' is not a structure, game, stakes or setting: "
                         f"{close}e.g. 'nl 2/5', 'plo 1/2' or 'limit stud 10/20 tournament'")
    return out


def seat(text: str, high: int = MAX_SEAT) -> int:
    """'3', 'seat 3', 's3', '#3', 'btn 3' -> seat 3.

    >>> seat("seat 3"), seat("s7"), seat("#10"), seat("btn 2")
    (3, 7, 10, 2)
    """
    t = _clean(text, "a seat").lower()
    m = re.fullmatch(r"(?:(?:seat|s|player|p|#|btn|button|bu|on)\s*)?#?\s*([0-9]{1,3})", t)
    if not m:
        raise Unread(f"'{text.strip()}' is not a seat: a seat number, e.g. 3 or 'seat 3'")
    n = int(m.group(1))
    if not 1 <= n <= high:
        raise Unread(f"seat {n}: the seats are numbered 1 to {high}")
    return n


def players(text: str) -> dict:
    """The seats in the hand and their stacks: '1:1000 2:640 3:815', '1 1000, 2 640', '1-6' (stacks not known),
    '1 2 3', '{1: 1000, 2: 640}'. A stack of '?' is not known.

    >>> players("1-3"), players("1 2 5"), players("1 1000, 2 ?, 3 $815")
    ({1: None, 2: None, 3: None}, {1: None, 2: None, 5: None}, {1: 1000, 2: None, 3: 815})
    """
    t = _clean(text, "the seats").strip("{}[] ")
    if not t:
        raise Unread("the seats in the hand, e.g. '1:1000 2:640 3:815' or '1-6' when the stacks are not known")
    out: dict = {}

    def put(n: int, stack) -> None:
        if n in out:
            raise Unread(f"seat {n} is given twice in '{text.strip()}'")
        out[n] = stack

    def stack(word: str, n: int):
        if word.lower() in ("?", "unknown", "not known", "-", "none"):
            return None
        try:
            return amount(word)
        except Unread:
            raise Unread(f"seat {n}'s stack '{word}' is not an amount (e.g. 1000, 1.5k, or ? when not known)") \
                from None
    hint = "e.g. '1:1000 2:640 3:815', '1 1000, 2 640' or '1-6' when the stacks are not known"
    if re.search(r"[:=]", t):
        pair = r"(?:seat\s*|s)?([0-9]{1,3})\s*[:=]\s*(\$?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?k?|[^\s,;:=]+)"
        pairs = re.findall(pair, t, flags=re.I)
        rest = re.sub(pair, "", t, flags=re.I)
        if not pairs or rest.strip(" ,;"):
            raise Unread(f"'{text.strip()}' is not seats and stacks: {hint}")
        for n, s in pairs:
            put(seat(n), stack(s, int(n)))
        return out
    chunks = [c.strip() for c in re.split(r"[;]|,(?!\d{3}(?!\d))", t) if c.strip()]
    if len(chunks) == 1 and re.fullmatch(r"[0-9 ]+", chunks[0]):
        chunks = chunks[0].split()      # '1 2 3': seats alone
        for c in chunks:
            if int(c) > MAX_SEAT:
                raise Unread(f"'{text.strip()}': {c} is not a seat; give stacks with a colon, {hint}")
    for c in chunks:
        m = re.fullmatch(r"(?:seat\s*|s)?([0-9]{1,3})\s*(?:-|to)\s*(?:seat\s*|s)?([0-9]{1,3})", c, flags=re.I)
        if m:
            a, b = seat(m.group(1)), seat(m.group(2))
            if a >= b:
                raise Unread(f"'{c}': a range of seats goes up, e.g. 1-6")
            for n in range(a, b + 1):
                put(n, None)
            continue
        m = re.fullmatch(r"(?:seat\s*|s)?([0-9]{1,3})(?:\s+(\S+))?", c, flags=re.I)
        if not m:
            raise Unread(f"'{c}' is not a seat and its stack: {hint}")
        put(seat(m.group(1)), stack(m.group(2), int(m.group(1))) if m.group(2) else None)
    return out


def chips(text: str) -> list:
    """The chips of one motion: '500', '100 100 25', '2x100 25', '$1,000'. A chip of 0 is not a chip.

    >>> chips("2x100 25"), chips("[500]"), chips("1,000")
    ([100, 100, 25], [500], [1000])
    """
    t = _clean(text, "the chips").strip("[]() ")
    out: list = []
    for word in re.split(r"\s+|,\s*(?!\d{3}(?!\d))", t):
        if not word:
            continue
        m = re.fullmatch(r"([0-9]{1,2})\s*[x×*]\s*(.+)", word, flags=re.I)
        count, word = (int(m.group(1)), m.group(2)) if m else (1, word)
        try:
            v = amount(word)
        except Unread:
            v = None
        if v is None or v == 0 or count == 0:
            raise Unread(f"'{word}' is not a chip value; list chips like '500', '100 100 25' or '2x100 25'")
        out.extend([v] * count)
    if not out:
        raise Unread("the chips, e.g. '500' or '100 100 25'")
    return out


POSITIONS = {
    "sb": ("sb", "small", "small-blind", "smallblind"),
    "bb": ("bb", "big", "big-blind", "bigblind"),
    "btn": ("btn", "bu", "button", "dealer", "d"),
    "utg": ("utg", "under-the-gun", "underthegun", "utg+0"),
    "co": ("co", "cutoff", "cut-off"),
    "hj": ("hj", "hijack"),
    "lj": ("lj", "lojack"),
}
_POSITION = _lookup(POSITIONS)
_UTG_PLUS = re.compile(r"^utg\s*\+\s*([0-9])$")


def position_seat(name: str, button: int | None, seats) -> int:
    """The seat a position name stands for at this table: 'sb', 'the button', 'utg+1', 'co', 'hj'.

    The small blind is the first seat dealt in on the button's left (heads-up the button itself), the big
    blind the next; UTG the seat after the big blind, UTG+1 the next; the cutoff is the seat on the button's
    right, the hijack the one before it, the lojack the one before that; three-handed UTG is the button.
    Needs the button and the seats.

    >>> [position_seat(p, 6, [1, 2, 3, 4, 5, 6]) for p in ("sb", "bb", "utg", "utg+1", "hj", "co", "btn")]
    [1, 2, 3, 4, 4, 5, 6]
    >>> position_seat("sb", 2, [2, 5]), position_seat("bb", 2, [2, 5])
    (2, 5)

    Three-handed the button is first to act preflop: under the gun.

    >>> position_seat("utg", 3, [1, 2, 3]), position_seat("btn", 3, [1, 2, 3])
    (3, 3)
    """
    word = name.lower().replace(" ", "")
    plus = _UTG_PLUS.match(word)
    key = "utg" if plus else _POSITION.get(word)
    if key is None:
        raise Unread(f"'{name}' is not a position: sb, bb, utg, utg+1, lj, hj, co or the button")
    occupied = sorted(set(seats or ()))
    if button is None or len(occupied) < 2:
        raise Unread(f"'{name}': give the button and the seats first, then a position names a seat "
                     "(or give the seat number)")
    ring = [x for x in occupied if x > button] + [x for x in occupied if x <= button]   # left of the button first
    if len(ring) == 2 and button in ring:      # heads-up: the button is the small blind
        ring = [button] + [x for x in ring if x != button]
        named = {"sb": ring[0], "btn": ring[0], "bb": ring[1]}
        if key not in named:
            raise Unread(f"'{name}': heads-up there are only the button (small blind) and the big blind")
        return named[key]
    if key == "btn":
        if button not in occupied:
            raise Unread(f"'{name}': the button is on seat {button}, which is not dealt in")
        return button
    if key in ("sb", "bb"):
        return ring[0] if key == "sb" else ring[1]
    rest = ring[2:]                            # UTG round to the button
    if button in rest:
        rest = rest[:rest.index(button)]       # the seats before the button that are not blinds
    step = int(plus.group(1)) if plus else 0
    if key == "utg" and not rest and button in occupied:
        # three-handed the button is first to act preflop, so he is the one a floor calls under the gun
        if step == 0:
            return button
        raise Unread(f"'{name}': three-handed the button (seat {button}) is UTG and the blinds come next; "
                     f"say SB or BB, or give the seat number")
    back = {"co": 1, "hj": 2, "lj": 3}
    index = step if key == "utg" else len(rest) - back[key]
    if not rest or not 0 <= index < len(rest):
        raise Unread(f"'{name}': with {len(occupied)} seats dealt in and the button on {button} there is no "
                     f"{name.upper()}; give the seat number")
    return rest[index]


_NUMBER = re.compile(r"^\$?[0-9][0-9,]*(?:\.[0-9]+)?k?$")
_SEAT_TOKEN = re.compile(r"^(?:seat|s|p|#)([0-9]{1,3})$")


def _tokens(chunk: str) -> list[str]:
    chunk = re.sub(r"\ball\s+in\b", "all-in", chunk)
    chunk = re.sub(r"\b(bring|brings|brought)\s+(it\s+)?in\b", r"\1-in", chunk)
    chunk = re.sub(r"#\s*(?=[0-9])", "seat ", chunk)
    chunk = re.sub(r"\butg\s*\+\s*(?=[0-9])", "utg+", chunk)      # "utg + 1" is one position
    return chunk.split()


def _verb(word: str) -> str | None:
    return _VERB.get(word.rstrip(".").replace("brings-in", "bring-in").replace("brought-in", "bring-in"))


def actions(text: str, button: int | None = None, seats=None) -> list[dict]:
    """A line of actions, in order: '1 bet 50, 2 call, 3 raise to 150', 'seat 3 raises to 60', '3 bet 60 4 call'.
    Each amount is the seat's total on the street (as the incident format's ``to``); '-' or 'none' is no action.

    >>> actions("3 bet 60 4 call 5 raises to 200")
    [{'seat': 3, 'action': 'bet', 'to': 60}, {'seat': 4, 'action': 'call'}, {'seat': 5, 'action': 'raise', 'to': 200}]
    >>> actions("seat 2 calls 40. seat 6 folded")
    [{'seat': 2, 'action': 'call', 'to': 40}, {'seat': 6, 'action': 'fold'}]

    Given the button and the seats, a position names the seat (``position_seat``):

    >>> actions("UTG raises to 60, the button calls, SB folds", button=6, seats=[1, 2, 3, 4, 5, 6])
    [{'seat': 3, 'action': 'raise', 'to': 60}, {'seat': 6, 'action': 'call'}, {'seat': 1, 'action': 'fold'}]
    """
    t = _clean(text, "the actions").lower()
    if t in ("", "-", "none", "no action", "nothing"):
        return []
    example = "e.g. '3 raise 150' or 'seat 3 raises to 150'"
    out: list[dict] = []
    chunks = [c for c in re.split(r"[;\n]|,(?!\d{3}(?!\d))|\.(?!\d)|\bthen\b", t) if c.strip()]
    for chunk in chunks:
        words = _tokens(chunk)
        i = 0
        while i < len(words):
            n = len(out) + 1
            shown = chunk.strip()
            w = words[i]
            if w == "the" and i + 1 < len(words):      # "the button calls"
                i += 1
                w = words[i]
            if w in SEAT_WORDS and i + 1 < len(words):
                i += 1
                w = words[i]
            m = _SEAT_TOKEN.match(w)
            w = m.group(1) if m else w
            if w in ("small", "big", "under", "cut") and i + 1 < len(words):   # two words: "big blind", "cut off"
                pair = {"small": "small-blind", "big": "big-blind", "cut": "cut-off"}.get(w)
                if words[i + 1] in ("blind", "off") and pair:
                    i += 1
                    w = pair
            if w.isdigit():
                who = seat(w)
            elif w in _POSITION or _UTG_PLUS.match(w):
                try:
                    who = position_seat(w, button, seats)
                except Unread as exc:
                    raise Unread(f"action {n} ('{shown}'): {exc.message}") from None
            else:
                raise Unread(f"action {n} ('{shown}') should start with the seat or its position: {example}")
            i += 1
            if i == len(words):
                raise Unread(f"action {n} ('{shown}'): what did seat {who} do? one of {', '.join(ACTIONS)}")
            word = words[i]
            verb = _verb(word)
            if verb is None:
                if word in ALL_IN:
                    raise Unread(f"action {n} ('{shown}'): an all-in is a bet, raise or call of some amount; "
                                 f"say which, e.g. '{who} raise 200' or '{who} call'")
                raise Unread(f"action {n} ('{shown}') should read like '3 raise 150': '{word}' is not an action; "
                             f"{_close(word, _VERB)}one of {', '.join(ACTIONS)}")
            i += 1
            while i < len(words) and words[i] in FILLER:
                i += 1
            if i < len(words) and words[i] == "by":
                raise Unread(f"action {n} ('{shown}'): give the seat's total on the street, not the raise by "
                             f"itself: e.g. '{who} {verb} to 100'")
            to = None
            if i < len(words) and _NUMBER.match(words[i]):
                # after a call, fold or check a number followed by an action is the next seat, not an amount
                nxt = words[i + 1] if i + 1 < len(words) else None
                takes = verb in AMOUNT_NEEDED or nxt is None or _verb(nxt) is None and nxt not in ALL_IN
                if takes and verb in ("fold", "check"):
                    raise Unread(f"action {n} ('{shown}'): a {verb} has no amount")
                if takes:
                    try:
                        to = amount(words[i])
                    except Unread as exc:
                        raise Unread(f"action {n} ('{shown}'): {exc.message}") from None
                    i += 1
            if to is None and verb in AMOUNT_NEEDED:
                raise Unread(f"action {n} ('{shown}'): how much? e.g. '{who} {verb} 100' (the seat's total on "
                             "the street)")
            item: dict = {"seat": who, "action": verb}
            if to is not None:
                item["to"] = to
            out.append(item)
            while i < len(words) and words[i] in FILLER:
                i += 1
    return out
