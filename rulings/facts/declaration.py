"""Read a player's spoken betting words into a Declaration, or into a question when they are unclear."""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

__all__ = ["Context", "Declaration", "Unclear", "bare_readings", "parse_declaration"]

# Decisions on ambiguous speech (each is tested):
# - "two fifty" is 250 and "one twenty-five" is 125: a digit then a two-digit piece drops "hundred".
# - "eighty-four fifty", "twelve fifty": $84.50 or 8,450 are both heard at tables, so we ask.
# - "grand" and "k" are 1,000; "$" or "dollars" make an amount explicit, so it is not a bare number.
# - A bare 1-9 borrows the last magnitude said earlier ("call your hundred and raise two" -> 200);
#   anything else under 100 with no magnitude word stays as said, flagged bare for TDA-2024-57.
# - "raise" plus an amount is a total (TDA-2024-43B), except after a call ("call and raise 100"),
#   where the words add the raise on top; "by", "more", "another", "on top" and "to" always win.
# - "call all in" / "call the pot" could be a call or a call-then-raise, so we ask; with "raise"
#   in between it is call-then-raise. "make it" is a raise (a bet beside "bet"), not an official term.
# - An amount said before the action word ("three hundred, raise") is asked about (TDA-2024-40A order).
# - "I'll go" alone is a non-standard call; "I'll go three hundred" a non-standard bare amount.
# - Negations, musing, questions, past tense and unknown words are asked about, not skipped.
# - Declarations in order: a pause ("...", a dash) or a correction ("no", "sorry", "I mean", "make that")
#   after a complete declaration starts a later declaration; each is kept, in order, in `later`. Which
#   one binds is for the rules (WIKI-DECL-1: the first). A pause before the amount of a declaration that
#   had none ("raise... three hundred") only completes it. A correction with nothing declared before it
#   ("no, raise") is asked about. "I call and raise" is a call with a later raise (call_then_raise).
# - "two and a half" is 2.5, "half a thousand" 500, "1.5k" 1,500; "up to" is "to", "on top" is "by".
# - Amounts the game's chips cannot make are never offered: with no cents in the game (every tournament,
#   a cash game whose blinds and stacks are whole), "twelve fifty" is 1,250 and "12.50" is asked about.
# - Room slang for amounts ("a dime", "a nickel") is read only where the house book defines it.


@dataclass(frozen=True)
class Context:
    """What the game lets an amount be: whether its chips make cents, and the house's amount words."""

    cents: bool = True                          # False: no amount with cents can be bet in this game
    unit: int = 0                               # chips move in multiples of this (minor units; 0: any amount)
    words: tuple[tuple[str, int], ...] = ()     # house amount words: (("dime", 100000),) in minor units


@dataclass(frozen=True)
class Declaration:
    """What the player declared; money is in minor units (1/100), as everywhere in ``rulings``."""

    kind: str                 # fold|check|call|bet|raise|all-in|pot|complete|straddle|amount (amount alone: TDA-2024-40B/C)
    amount: int | None        # minor units; None when no amount was said
    amount_means: str | None  # 'to' (a total) or 'by' (on top); None without an amount
    call_then_raise: bool     # the words began as a call and went on to raise (WIKI-DECL-1 string raise)
    call_amount: int | None   # the amount named for the call part ("call your hundred" -> 10000)
    nonstandard: bool         # a word outside TDA-2024-3's official terms was needed (at the player's risk, r.57)
    bare_number: bool         # the magnitude was missing or inferred ("I bet five"): TDA-2024-57 reads it by the pot
    text: str                 # the original words
    said_as: str | None = None    # how the amount was said: 'to' ("raise to 300"), 'by' ("300 more"), 'plain'
    later: tuple["Declaration", ...] = ()   # what was declared after this, in order ("bet 2,000... no, 3,000")
    corrected: bool = False   # a correction word ("no", "sorry", "I mean") came before this declaration
    pot_percent: int | None = None   # "half pot": the share of the pot named (kind 'pot'), a non-standard term


@dataclass(frozen=True)
class Unclear:
    """Words that cannot be read without a guess, and what to ask the floorperson."""

    text: str
    question: str
    conditional: bool = False   # the words made an action depend on another's ("if you bet, I raise")


class _Ask(Exception):
    """Internal: stop reading and put this question to the floorperson."""

    conditional = False


class _Conditional(_Ask):
    """Internal: the words were a conditional statement (TDA-2024-59), which no reading settles."""

    conditional = True


# Action words -> (kind, official). "Official" means one of TDA-2024-3's terms; the rest are mapped
# but flagged, because a non-standard word may be ruled other than the player meant (TDA-2024-3, 57).
# "make" (make it) and "go" (I'll go) are placeholders resolved once the whole sentence is known.
_VERBS: dict[str, tuple[str, bool]] = {}
for _kind, _official, _words in (
    ("fold", True, "fold folds folding"),
    ("fold", False, "muck mucks mucking imout"),
    ("check", True, "check checks checking"),
    ("check", False, "knock knocks knocking tap taps tapping rap raps rapping"),
    ("call", True, "call calls calling"),
    ("call", False, "see play playing imin"),
    ("bet", True, "bet bets betting"),
    ("raise", True, "raise raises raising reraise reraises reraising"),
    ("raise", False, "bump bumps bumping"),
    ("make", False, "makeit"),
    ("all-in", True, "allin"),
    ("all-in", False, "shove shoves shoving jam jams jamming push pushes pushing ship ships shipping"),
    ("pot", True, "pot pots potting repot"),
    ("pot", False, "halfpot"),
    ("complete", True, "complete completes completing"),
    ("go", False, "go"),
    # not a wager but the live blind a player after the big blind posts before the cards (RRP-NL-14): the
    # words are read here, and rulings/facts/said.py makes the act the straddle post the straddle rules judge
    ("straddle", True, "straddle straddles straddling restraddle restraddles"),
):
    _VERBS.update(dict.fromkeys(_words.split(), (_kind, _official)))
_SHOW = {"allin": "all in", "makeit": "make it", "imin": "I'm in", "imout": "I'm out", "letssee": "let's see",
         "imean": "I mean", "ontop": "on top", "makethat": "make that", "andahalf": "and a half",
         "halfpot": "half pot"}
_PERCENT = {"halfpot": 50}   # words naming a share of the pot
_AGGRESSIVE = {"bet", "raise", "make", "pot", "all-in"}

_SMALL = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)}
_TENS["fourty"] = 40  # a common typing slip; the floorperson's meaning is not in doubt
_SCALES = {"thousand": 1000, "grand": 1000, "k": 1000, "million": 10**6, "mil": 10**6}
_NUMBER_WORDS = set(_SMALL) | set(_TENS) | set(_SCALES) | {"hundred", "andahalf"}
_BIG_START = {"hundred", "thousand", "grand", "million"}  # may open a number alone: "call your hundred"
# Room slang for amounts: what they mean differs between rooms, so only a house book can say.
_HOUSE_WORDS = {"dime", "dimes", "nickel", "nickels"}

# A pause ("...", a dash) or a correction word after a complete declaration begins a later one.
_PAUSE, _CORRECTION = "|", "<correction>"   # the second cannot come out of the tokeniser
_CORRECTIONS = set("no nope nah sorry actually imean wait instead oops makethat".split())

# Words that make any reading a guess: the player negated, corrected himself with nothing said before,
# mused, asked, or described the past instead of acting now. Each family gets its own question.
_STOP: dict[str, str] = {}
for _why, _words in (
    ("a negation ('{w}') that may take something back", "not dont never wont cant cannot didnt"),
    ("a correction ('{w}'), and the first declaration binds (TDA-2024-40A)",
     "mean undo scratch mind change changed nevermind"),
    ("thinking aloud ('{w}') rather than a declaration",
     "if maybe perhaps probably think thinking might should could would considering letssee what how"),
    ("'{w}', which means check in some rooms and fold in others", "pass passing"),
    ("a past action ('{w}') rather than a declaration in turn",
     "folded checked called raised reraised mucked shoved jammed pushed completed potted knocked tapped bumped"),
):
    _STOP.update(dict.fromkeys(_words.split(), _why))
_LEADING = {w: "a negation ('{w}') that may take something back" for w in ("no", "nope", "nah")}
_LEADING.update({w: "a correction ('{w}'), and the first declaration binds (TDA-2024-40A)"
                 for w in _CORRECTIONS - set(_LEADING)})
# Words that carry no meaning of their own in a declaration.
_FILLER = set(
    "i im ill id ive me my you your ya it its the a an and then so ok okay yes yeah yep um umm uh er oh "
    "hmm well just now here please sir dealer lets let will gonna going for of with that this is am be "
    "on at he she they says said say declares declared announces announced seat player chips to up".split())
_MODE_BY = {"by", "more", "another", "ontop"}
_UNITS = {"dollars", "dollar", "bucks", "buck"}

_PHRASES = [(re.compile(p), r) for p, r in (
    (r"[\u2018\u2019`']", ""),               # apostrophes go: "I'm" -> "im", "don't" -> "dont"
    (r"\u2026|\.{2,}|\s[\u2013\u2014-]+\s|[\u2013\u2014]|--+", " | "),   # a pause: "...", "…", a dash
    (r"(?<=[a-z])-(?=[a-z])", " "),          # "all-in", "forty-two", "re-raise"
    (r"\ball\s+in\b", "allin"),
    (r"\bre\s*(rais|pot|straddl)", r"re\1"),
    (r"\bmak(?:e|ing)\s+it\b", "makeit"),
    (r"\bmake\s+that\b", "makethat"),
    (r"\b(?:im|i\s+am)\s+in\b", "imin"),
    (r"\b(?:im|i\s+am)\s+out\b", "imout"),
    (r"\bon\s+top\b", "ontop"),
    (r"\bup\s+to\b", "to"),
    (r"\band\s+a\s+half\b", "andahalf"),
    (r"\bhalf\s+(?:of\s+)?(?:the\s+|a\s+)?pot\b", "halfpot"),
    (r"\bhalf\s+an?\b", "half"),
    (r"\blet(?:s|\s+me)\s+see\b", "letssee"),  # "let's see" is musing, not "see" (a call)
    (r"\bi\s+mean\b", "imean"),
)]
_NEGATIVE = re.compile(r"(?<![a-z0-9])-\$?[0-9]|\$-[0-9]|\b(?:minus|negative)\b")
_TOKEN = re.compile(r"[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?|\.[0-9]+|[a-z]+|[$?|]|[^\s\w]|\w+")
_DIGITS = "0123456789"  # ASCII only: str.isdigit() also accepts "²", which Decimal cannot read
_MAX_MINOR = 10**15  # ten trillion: anything larger is a typing accident, not a bet


@dataclass(frozen=True)
class _Amount:
    minor: int
    bare: bool
    scale: int    # the last magnitude word said (100, 1000, ...), 0 if none: the scale a later bare number borrows
    said: str


@dataclass
class _Group:
    """One action word with the amount and by/to sense that belong to it."""

    kind: str
    official: bool
    word: str
    amount: _Amount | None = None
    mode: str | None = None
    percent: int | None = None   # a share of the pot ("half pot")


@dataclass
class _Segment:
    """The words between two pauses or corrections."""

    groups: list[_Group]
    pending: _Group            # an amount or by/to said before any action word of the segment
    corrected: bool = False    # a correction word began this segment


def _figure(token: str) -> bool:
    """A token written in digits: "300", "1,000", "84.50", ".50" (a lone "." is punctuation)."""
    return token[0] in _DIGITS or (token[0] == "." and len(token) > 1)


def _chunks(words: list) -> list[int]:
    """Spoken 1-2 digit pieces: 'twenty five fifty' -> [25, 50]."""
    out: list[int] = []
    after_tens = False
    for w in words:
        value = 1 if w == "a" else _SMALL.get(w, _TENS.get(w))
        if value is None:
            raise _Ask("")
        if after_tens and 1 <= value <= 9:
            out[-1] += value  # "forty two" is one piece
        else:
            out.append(value)
        after_tens = w in _TENS
    return out


def _segment(words: list, said: str, ctx: Context) -> tuple[Decimal | None, bool]:
    """Value below one thousand of the words between magnitude words; True when said 'two fifty' style."""
    if not words:
        return None, False
    if words[-1] == "andahalf":
        # "two and a half": the half belongs to the number before it, and nothing may follow it
        if len(words) == 1 or "andahalf" in words[:-1]:
            raise _Ask("")
        value, compound = _segment(words[:-1], said, ctx)
        if value is None or compound or "hundred" in words:
            raise _Ask("")
        return value + Decimal("0.5"), False
    if "andahalf" in words:
        raise _Ask("")
    if words[0] == "half":
        # "half a thousand": half of the magnitude word that follows
        if len(words) > 1:
            raise _Ask("")
        return Decimal("0.5"), False
    if isinstance(words[0], Decimal):
        if len(words) == 1 or words[1:] == ["hundred"]:
            return words[0] * (100 if len(words) == 2 else 1), False
        raise _Ask("")
    if "hundred" in words:
        k = words.index("hundred")
        before, after = _chunks(words[:k]), _chunks(words[k + 1:])  # a second "hundred" fails here
        if len(before) > 1 or len(after) > 1 or before == [0] or after == [0]:
            raise _Ask("")
        return Decimal((before[0] if before else 1) * 100 + (after[0] if after else 0)), False
    chunks = _chunks(words)
    if len(chunks) == 1:
        return Decimal(chunks[0]), False
    if len(chunks) == 2 and 10 <= chunks[1] <= 99:
        a, b = chunks
        # Card-room speech drops "hundred": "two fifty" is 250, "one twenty-five" is 125.
        if 1 <= a <= 9:
            return Decimal(a * 100 + b), True
        # Two two-digit pieces read as dollars-and-cents or as hundreds; where the game's chips
        # make no cents only the hundreds can be meant.
        if 10 <= a <= 99:
            if not _exists(a * 100 + b, ctx):
                return Decimal(a * 100 + b), True
            raise _Ask(f"'{said}' could be ${a}.{b:02d} or {a * 100 + b:,}; which amount did the player mean?")
    raise _Ask("")


def _exists(minor: int, ctx: Context) -> bool:
    """Whether the game's chips can make this amount (minor units)."""
    return (ctx.cents or minor % 100 == 0) and (not ctx.unit or minor % ctx.unit == 0)


def _number(tokens: list[str], i: int, currency: bool, carry: int, ctx: Context) -> tuple[_Amount, int]:
    """Read the amount that starts at tokens[i]; return it and the index after it."""
    words: list = []
    j = i
    if _figure(tokens[i]):
        if len(tokens[i].replace(",", "").split(".")[0]) > 13:
            raise _Ask(f"'{tokens[i]}' is implausibly large; what amount did the player say?")
        words.append(Decimal(tokens[i].replace(",", "")))
        j += 1
        while j < len(tokens) and (tokens[j] == "hundred" or tokens[j] in _SCALES):
            words.append(tokens[j])
            j += 1
    else:
        while j < len(tokens):
            t = tokens[j]
            nxt = tokens[j + 1] if j + 1 < len(tokens) else ""
            if t in ("a", "half") and j == i:
                words.append(t)
            elif t in _NUMBER_WORDS:
                words.append(t)
            # "a hundred and fifty" continues; "your hundred and raise two" stops before "and".
            elif t == "and" and words and words[-1] in _BIG_START | {"k"} and (nxt in _SMALL or nxt in _TENS):
                pass
            else:
                break
            j += 1
    unit = j < len(tokens) and tokens[j] in _UNITS
    j += unit
    said = " ".join(_SHOW.get(t, t) for t in tokens[i:j])
    try:
        total, top, compound, scales = Decimal(0), None, False, []
        seg: list = []   # the words of the segment being read (as ``words``)
        for w in words:
            if w in _SCALES:
                if top is not None and _SCALES[w] >= top:
                    raise _Ask("")
                value, c = _segment(seg, said, ctx)
                total += (1 if value is None else value) * _SCALES[w]
                top, compound, seg = _SCALES[w], compound or c, []
                scales.append(_SCALES[w])
            elif w == "hundred" and seg and seg[0] == "half":
                total, seg = total + 50, []     # "half a hundred"
                scales.append(100)
            else:
                scales += [100] if w == "hundred" else []
                seg.append(w)
        value, c = _segment(seg, said, ctx)
        if value is not None:
            total += value
        compound = compound or c
    except _Ask as ask:
        raise _Ask(str(ask) or f"'{said}' is not a number I can read; what amount did the player say?") from None
    if words == ["half"]:
        raise _Ask("'half' of what? Half the pot, or half of an amount said before?")
    minor = total * 100
    if minor != minor.to_integral_value():
        raise _Ask(f"'{said}' has a fraction of a cent; what amount did the player say?")
    if minor > _MAX_MINOR:
        raise _Ask(f"'{said}' is implausibly large; what amount did the player say?")
    # A small number with no magnitude word leaves the size to TDA-2024-57 (the pot decides).
    bare = not (scales or compound or currency or unit) and total < 100 and (
        total == int(total) or "andahalf" in words)
    if bare and total == int(total) and 1 <= total <= 9 and carry:
        # "call your hundred and raise two": the earlier "hundred" sets the scale of "two".
        minor *= carry
    elif not bare and not ctx.cents and minor % 100:
        raise _Ask(f"'{said}' has cents, which this game's chips cannot make; what amount did the player say?")
    elif not bare and not _exists(int(minor), ctx):
        raise _Ask(f"'{said}' is not a multiple of the game's betting unit, so its chips cannot make it; what "
                   "amount did the player say?")
    return _Amount(int(minor), bare, scales[-1] if scales else 0, said), j


def _house_amount(word: str, ctx: Context) -> _Amount:
    words = dict(ctx.words)
    base = word.rstrip("s")
    if not words.get(base):
        raise _Ask(f"'{word}' means different amounts in different rooms and the house book does not define "
                   "it; what amount did the player mean?")
    if word != base:
        raise _Ask(f"How many {word}? Say the amount.")
    return _Amount(words[base], False, 0, word)


def _read(text: str, ctx: Context) -> tuple[list[_Segment], list[str]]:
    """Tokenise and attach each amount and by/to word to its action word; raise _Ask on stop words."""
    s = text.lower()
    for pattern, repl in _PHRASES:
        s = pattern.sub(repl, s)
    if _NEGATIVE.search(s):
        raise _Ask("The amount sounds negative; what amount did the player say?")
    tokens = [_CORRECTION if t in _CORRECTIONS else t for t in _TOKEN.findall(s)]
    raw = _TOKEN.findall(s)
    segments = [_Segment([], _Group("", False, ""))]
    unknown: list[str] = []
    currency, carry, i = False, 0, 0
    while i < len(tokens):
        t = tokens[i]
        seg = segments[-1]
        target = seg.groups[-1] if seg.groups else seg.pending
        if t in (_PAUSE, _CORRECTION):
            said_before = any(g.groups or g.pending.amount or g.pending.mode for g in segments)
            if t == _CORRECTION and not said_before:
                w = raw[i]
                raise _Ask(f"The words contain {_LEADING[w].format(w=_SHOW.get(w, w))}; what did the player declare?")
            if seg.groups or seg.pending.amount or seg.pending.mode:
                segments.append(_Segment([], _Group("", False, ""), t == _CORRECTION))
            elif t == _CORRECTION:
                seg.corrected = True
        elif t in _VERBS:
            if seg.pending.amount is not None:
                # "three hundred, raise": the amount alone came first and may be the binding declaration.
                raise _Ask(f"The amount '{seg.pending.amount.said}' came before '{_SHOW.get(t, t)}'; the first "
                           "declaration binds (TDA-2024-40A). Was the amount alone the declaration, or the "
                           f"size of the '{_SHOW.get(t, t)}'?")
            seg.groups.append(_Group(*_VERBS[t], _SHOW.get(t, t), None, seg.pending.mode, _PERCENT.get(t)))
            seg.pending = _Group("", False, "")
        elif _figure(t) or t in _SMALL or t in _TENS or t in _BIG_START or t in _HOUSE_WORDS or (
                t in ("a", "half") and i + 1 < len(tokens) and tokens[i + 1] in _BIG_START | {"k"}):
            if t in _HOUSE_WORDS:
                amount, i = _house_amount(t, ctx), i + 1
            else:
                amount, i = _number(tokens, i, currency, carry, ctx)
            currency, carry = False, amount.scale or carry  # the latest magnitude word sets the carry
            if target.amount is not None:
                if seg.pending.amount is not None:
                    raise _Ask(f"Two amounts were said ('{seg.pending.amount.said}' and '{amount.said}'); "
                               "which one did the player declare?")
                target = seg.pending
            target.amount = amount
            continue
        elif t == "$":
            currency = True
        elif t in _MODE_BY or t == "to" and (i + 1 == len(tokens) or tokens[i + 1] == "$"
                                             or _figure(tokens[i + 1]) or tokens[i + 1] in _NUMBER_WORDS):
            mode = "to" if t == "to" else "by"
            if target.mode not in (None, mode):
                raise _Ask("The words say both 'to' and 'by'/'more'; is the amount the new total or the "
                           "amount on top?")
            target.mode = mode
        elif t == "if" and any(w in _VERBS for w in tokens[i + 1:]):
            raise _Conditional("The words are a conditional statement ('if ...'), which TDA 2024 rule 59 leaves to the "
                               "floor; what, if anything, did the player declare in turn?")
        elif t in _STOP:
            raise _Ask(f"The words contain {_STOP[t].format(w=_SHOW.get(t, t))}; what did the player declare?")
        elif t == "?":
            raise _Ask("The words contain a question mark; was the player declaring or asking?")
        elif t == "half":
            raise _Ask("'half' of what? Half the pot, or half of an amount said before?")
        elif t in _FILLER or not (t[0].isalnum() or t[0] == "_"):
            pass  # punctuation and filler words do not change the declaration
        else:
            unknown.append(t)
        i += 1
    return [g for g in segments if g.groups or g.pending.amount or g.pending.mode], unknown


def _merge(groups: list[_Group]) -> _Group:
    """Fold several words for one action ("raise, make it 300", "bet the pot") into one group."""
    kinds = {g.kind for g in groups}
    words = " and ".join(f"'{w}'" for w in dict.fromkeys(g.word for g in groups))
    if len(kinds) > 1 and not kinds <= _AGGRESSIVE:
        raise _Ask(f"The words name {words}, which contradict each other; which did the player declare first?")
    if {"pot", "all-in"} <= kinds or {"bet", "raise"} <= kinds:
        raise _Ask(f"The words name {words}; which one did the player declare?")
    kind = next((k for k in ("all-in", "pot", "bet", "raise", "make") if k in kinds), groups[0].kind)
    amounts = {g.amount.minor: g.amount for g in groups if g.amount}
    modes = {g.mode for g in groups if g.mode}
    if len(amounts) > 1:
        said = " and ".join(f"'{a.said}'" for a in amounts.values())
        raise _Ask(f"Two amounts were said ({said}); which one did the player declare?")
    if len(modes) > 1:
        raise _Ask("The words say both 'to' and 'by'/'more'; is the amount the new total or the amount on top?")
    percent = next((g.percent for g in groups if g.percent), None)
    if percent and amounts:
        raise _Ask(f"The words name {words} and an amount; which did the player declare?")
    return _Group(kind, all(g.official for g in groups) if percent else any(g.official for g in groups),
                  groups[0].word, next(iter(amounts.values()), None), next(iter(modes), None), percent)


@dataclass
class _Part:
    """One declaration in the order said: its action, amount, and how it was introduced."""

    group: _Group
    corrected: bool = False     # a correction word came before it
    breath: bool = False        # said straight on from the one before, with no pause or correction
    nonstandard: bool = False


def _parts(seg: _Segment) -> list[_Part]:
    """The declarations of one segment: usually one; a call going on to a raise is two."""
    groups = seg.groups
    if seg.pending.amount is not None and groups:
        raise _Ask(f"Two amounts were said (the last, '{seg.pending.amount.said}', has no action word); "
                   "which one did the player declare?")
    # "go" only means something alone ("I'll go"); beside another action ("go all in") it is filler.
    real = [g for g in groups if g.kind != "go"]
    if real and any(g.amount or g.mode for g in groups if g.kind == "go"):
        raise _Ask("The amount follows 'go' but another action word was said too; which did the player declare?")
    groups = real or [_Group("amount" if g.amount else "call", False, "go", g.amount, g.mode)
                      for g in groups[:1]]
    if not groups:
        if seg.pending.amount is None:
            raise _Ask(f"'{'by' if seg.pending.mode == 'by' else 'to'}' with no amount; how much did the player say?")
        return [_Part(_Group("amount", True, "", seg.pending.amount, seg.pending.mode), seg.corrected)]
    if groups[0].kind == "call" and any(g.kind != "call" for g in groups):
        k = next(n for n, g in enumerate(groups) if g.kind != "call")
        call, rest = _merge(groups[:k]), groups[k:]
        return [_Part(call, seg.corrected), _Part(_merge(rest), breath=True)]
    return [_Part(_merge(groups), seg.corrected)]


def _finish(part: _Part, call_raise: bool) -> Declaration:
    """One declaration from its group, checked for the words that cannot go together."""
    g = part.group
    if g.kind == "make":  # "make it" alone names a total, so it needs one; with it, it is a raise
        if g.amount is None:
            raise _Ask("'make it' with no amount; make it how much?")
        g.kind = "raise"
    if g.kind in ("fold", "check") and (g.amount or g.mode):
        raise _Ask(f"'{g.word}' was said with an amount; did the player mean {g.word} or a bet?")
    if g.mode and g.amount is None:
        if g.kind == "amount":
            raise _Ask(f"'{g.amount.said if g.amount else 'more'}' more than what? No action word was said; "
                       "was it a raise?")
        raise _Ask(f"'{g.word}' with 'by'/'to' but no amount; how much did the player say?")
    if g.kind == "amount" and g.mode == "by" and g.amount is not None:   # not None: refused just above
        raise _Ask(f"'{g.amount.said}' more than what? No action word was said; was it a raise?")
    if g.amount and g.amount.minor == 0:
        raise _Ask(f"The amount '{g.amount.said}' is zero; what did the player declare?")
    said_as = None if not g.amount else (g.mode or "plain")
    # TDA-2024-43B: "raise" plus an amount is the total. Going on from a call ("call and raise 100")
    # the grammar is additive, so that raise is read as on top of the call.
    means = None if not g.amount else (g.mode or ("by" if call_raise else "to"))
    amount = g.amount.minor if g.amount else None
    return Declaration(kind=g.kind, amount=amount, amount_means=means, call_then_raise=False,
                       call_amount=amount if g.kind == "call" else None,
                       nonstandard=not g.official, bare_number=bool(g.amount and g.amount.bare),
                       text="", said_as=said_as, corrected=part.corrected, pot_percent=g.percent)


def _declare(text: str, ctx: Context) -> Declaration:
    if not text.strip():
        raise _Ask("Nothing was typed; what did the player say?")
    segments, unknown = _read(text, ctx)
    if unknown:
        if not segments:
            raise _Ask(f"No betting action or amount is recognisable in '{text.strip()}'; what did the player say?")
        shown = ", ".join(f"'{u}'" for u in dict.fromkeys(unknown))
        raise _Ask(f"Could not read {shown}; does it change what the player declared?")
    if not segments:
        raise _Ask("Nothing that could be a declaration was typed; what did the player say?")
    parts: list[_Part] = []
    for seg in segments:
        new = _parts(seg)
        head = new[0].group
        if parts and head.kind == "amount":
            before = parts[-1].group
            if before.amount is None and not new[0].corrected and before.kind not in ("fold", "check"):
                # "raise... three hundred": the pause came before the amount of the same declaration
                before.amount, before.mode = head.amount, before.mode or head.mode
                continue
            if before.kind not in ("fold", "check", "amount"):
                # "bet two thousand... no, three": a later amount keeps the action it corrects
                head.kind, head.official = before.kind, before.official
                head.mode = head.mode or before.mode
        parts += new
    first = parts[0]
    if len(parts) > 1 and first.group.kind == "call" and not parts[1].corrected \
            and parts[1].group.kind in ("all-in", "pot"):
        # "call all in", "call the pot": a call sized to that, or a call and then a raise?
        raise _Ask(f"'{first.group.word}' then '{parts[1].group.word}': was it only a call (of the whole stack or "
                   "the pot bet), or a call followed by a raise?")
    call_raise = len(parts) > 1 and first.group.kind == "call" and not parts[1].corrected \
        and parts[1].group.kind in ("raise", "make", "bet")
    decls = [_finish(p, call_raise and n == 1) for n, p in enumerate(parts)]
    main, later = decls[0], tuple(decls[1:])
    return Declaration(
        kind=main.kind, amount=main.amount, amount_means=main.amount_means,
        call_then_raise=call_raise, call_amount=main.call_amount,
        nonstandard=main.nonstandard or (call_raise and later[0].nonstandard),
        bare_number=main.bare_number or (call_raise and later[0].bare_number), text=text,
        said_as=main.said_as, later=later, corrected=False, pot_percent=main.pot_percent)


def bare_readings(amount: int, cents: bool = True, unit: int = 0) -> tuple[int, ...]:
    """TDA-2024-57: what a bare number can mean, smallest first, each ten times the last.

    Readings the game's chips cannot make (cents where there are none) are left out.

    >>> bare_readings(500)[:3], bare_readings(250, cents=False)[:2]
    ((500, 5000, 50000), (2500, 25000))
    """
    return tuple(r for r in (amount * 10 ** k for k in range(13)) if _exists(r, Context(cents=cents, unit=unit)))


def parse_declaration(text: str, context: Context | None = None) -> Declaration | Unclear:
    """Turn the words a player said into a Declaration, or into an Unclear question; never raises.

    >>> d = parse_declaration("raise, eight thousand")          # TDA-2024-43B: the total
    >>> d.kind, d.amount, d.amount_means, d.said_as
    ('raise', 800000, 'to', 'plain')
    >>> parse_declaration("four hundred").kind                  # RRP-NL-10: an amount alone
    'amount'
    >>> d = parse_declaration("I call your hundred and raise two")
    >>> d.kind, d.call_amount, d.call_then_raise, d.bare_number
    ('call', 10000, True, True)
    >>> r = d.later[0]
    >>> r.kind, r.amount, r.amount_means
    ('raise', 20000, 'by')
    >>> d = parse_declaration("bet two thousand... no, three")  # WIKI-DECL-1: the rules pick the first
    >>> d.amount, d.later[0].kind, d.later[0].amount, d.later[0].corrected
    (200000, 'bet', 300000, True)
    >>> d = parse_declaration("I bet five")                     # TDA-2024-57: size set by the pot
    >>> d.amount, d.bare_number
    (500, True)
    >>> parse_declaration("shove").nonstandard
    True
    >>> parse_declaration("eighty-four fifty").question
    "'eighty four fifty' could be $84.50 or 8,450; which amount did the player mean?"
    >>> parse_declaration("bet twelve fifty", Context(cents=False)).amount
    125000
    """
    if not isinstance(text, str):
        return Unclear(text=repr(text), question="The declaration was not text; what did the player say?")
    try:
        return _declare(text, context or Context())
    except _Ask as ask:
        return Unclear(text=text, question=str(ask), conditional=ask.conditional)
    except Exception as error:  # a floor tool must not crash mid-dispute; tests assert this never fires
        return Unclear(text=text, question=f"Internal reading error ({type(error).__name__}); "
                                           "what did the player say, in plain words?")
