"""A dispute told in the floor's words read into an incident (the one-street form), with what it read and what not.

Three steps, none of which guesses:

1. **Words into terms.** The text is cut into sentences and words; each run of words is looked up in the
   lexicon (``rulings/told/lexicon.yaml``, the longest phrase first). Quoted words ("says 'raise'") are kept
   whole; amounts in digits or in words (the spoken-declaration reader, ``rulings/facts/declaration.py``,
   reads "two hundred"); a capital letter A-H is a person when the text names two or more of them. A word of
   five letters or more one edit from a lexicon word is read as that word and said ("read 'rasies' as
   'raises'"). Any other word is not known.
2. **Sentences by the grammar.** Each sentence is parsed by ``rulings/told/grammar.lark`` (lark's Earley
   parser). A sentence with a word not known, or that the grammar does not take, is not read: it is named
   word for word with its line and column. One that names a seat, an amount or an action stops the reading
   (it may change the ruling: the floor is asked to say it again); one that names none is listed and left.
3. **The incident.** What was read is put in the incident format and handed to the one incident reader
   (``rulings.incident.incident_from_data``): the same checks, the same refusals, the same unknowns. A
   stack, a pot or a street the text did not give is left out, never filled in.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from importlib import resources
from typing import Any

from rulings.facts.declaration import parse_declaration
from rulings.problems import Problem, ProblemsError, control_character
from rulings.told.lexicon import Lexicon, standard

MAX_TOLD = 8_000          # characters of a told dispute read (a dispute is told in a few sentences)
MAX_SENTENCES = 60
MAX_SEAT = 10
FILE = "<told>"


# ------------------------------------------------------------------------------------------------ words

@dataclass
class Term:
    type: str
    value: Any
    text: str               # the words as written
    start: int              # offset in the text
    note: str | None = None  # a typo read as another word


_RAW = re.compile(r"""
    (?P<quote>“[^”]{0,400}”|"[^"]{0,400}"|(?<![A-Za-z])'[^'\n]{1,400}'(?![A-Za-z]))
  | (?P<card>(?i:(?:the\s+|a\s+|an\s+)?(?:ace|king|queen|jack|ten|nine|eight|seven|six|five|four|three|trey|deuce|two|10|[2-9])\s+of\s+(?:clubs|diamonds|hearts|spades))\b|\b(?:10|[2-9TJQK])[cdhs]\b)
  | (?P<nbets>(?<![\d,])[345]-?bets?\b)
  | (?P<ordinal>\b\d{1,2}(?:st|nd|rd|th)\b)
  | (?P<stakes>\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?k?\s?[/-]\s?\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?k?(?:\s?[/-]\s?\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?k?)?(?![\w/]))
  | (?P<poss>(?<=\d)['’]s\b)
  | (?P<plural>(?:\d{1,3}(?:,\d{3})+|\d+)k?s(?![\w']))
  | (?P<amount>\$\s?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?k?|(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?k?(?![\w]))
  | (?P<word>[A-Za-z][A-Za-z'’\-]*(?:\s?\+\s?\d)?)
  | (?P<pause>\.\.\.|…|--|—)
  | (?P<punct>[.,;:?!()])
  | (?P<other>\S)
""", re.VERBOSE)

_NUMBER_WORDS = set("""zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand grand k
million""".split())
_COUNTABLE = {"AMOUNT", "COLOUR", "CHIP"}


_RANKS = {"ace": "A", "king": "K", "queen": "Q", "jack": "J", "ten": "T", "10": "T", "nine": "9", "eight": "8",
          "seven": "7", "six": "6", "five": "5", "four": "4", "three": "3", "trey": "3", "deuce": "2", "two": "2"}


def _card(text: str) -> str:
    """A card as the incident writes it ("the king of spades" -> "Ks", "10h" -> "Th")."""
    words = text.lower().split()
    if len(words) == 1:
        rank, suit = words[0][:-1], words[0][-1]
        return _RANKS.get(rank, rank.upper()) + suit
    words = [w for w in words if w not in ("the", "a", "an", "of")]
    return _RANKS.get(words[0], words[0].upper()) + words[1][0]


def _amount(text: str) -> Decimal | None:
    t = text.replace("$", "").replace(",", "").strip().lower()
    mult = 1
    if t.endswith("k"):
        t, mult = t[:-1], 1000
    try:
        value = Decimal(t) * mult
    except InvalidOperation:
        return None
    return value if value.is_finite() and value <= 10 ** 10 else None


def _spoken(words: str) -> Decimal | None:
    """Amount words ("two hundred", "sixty", "fourteen hundred") by the spoken-declaration reader."""
    d = parse_declaration(words)
    amount = getattr(d, "amount", None)
    if getattr(d, "kind", None) == "amount" and amount is not None:
        return Decimal(amount) / 100
    return None


def _words(text: str, lex: Lexicon) -> list[Term]:
    """The text as terms (one list, sentence ends kept as END terms)."""
    raw = [("word" if m.lastgroup == "ordinal" else m.lastgroup, m.group(), m.start()) for m in _RAW.finditer(text)]
    letters = {w for kind, w, _ in raw if kind == "word" and w in lex.letters}
    # "A" is a person only beside another letter ("A bets, B calls"); "B wants to raise" alone is a person too
    letters_mode = len(letters) >= 2 or bool(letters - {"A"}) or any(
        kind == "word" and w.lower() == "player" and k + 1 < len(raw) and raw[k + 1][1] in lex.letters
        for k, (kind, w, _) in enumerate(raw))
    names = _names(raw, lex)
    out: list[Term] = []
    i = 0
    while i < len(raw):
        kind, w, at = raw[i]
        if kind == "word" and w in names:        # "Alice bets, Bob calls": each name its own seat
            out.append(Term("LETTER", w, w, at))
            i += 1
            continue
        if kind == "card":
            out.append(Term("CARD", _card(w), w, at))
        elif kind == "quote":
            out.append(Term("QUOTE", w[1:-1].strip(), w, at))
            nxt = raw[i + 1] if i + 1 < len(raw) else None
            if re.search(r"[.?!][\s]*$", w[1:-1]) and nxt is not None and nxt[0] == "word" and nxt[1][:1].isupper():
                out.append(Term("END", ".", "", at + len(w)))     # 'asks "raise to what?" The cutoff...'

        elif kind == "stakes":
            parts = [_amount(p) for p in re.split(r"\s?[/-]\s?", w)]
            if all(p is not None for p in parts):
                out.append(Term("STAKES", parts, w, at))
            else:
                out.append(Term("UNKNOWN", w, w, at))
        elif kind == "poss":          # "seat 6's raise": the seat just named
            pass
        elif kind == "plural":       # "two 1,000s": chips of that value
            value = _amount(w[:-1])
            out.append(Term("AMOUNT", value, w, at) if value is not None else Term("UNKNOWN", w, w, at))
            if value is not None:
                out.append(Term("CHIP", "chip", "", at + len(w) - 1))
        elif kind == "amount":
            value = _amount(w)
            out.append(Term("AMOUNT", value, w, at) if value is not None else Term("UNKNOWN", w, w, at))
        elif kind == "nbets":
            out.append(Term("VERB", "raise", w, at))
        elif kind == "punct":
            out.append(Term({",": "COMMA", "(": "LPAREN", ")": "RPAREN", ":": "COLON", "?": "QMARK"}.get(w, "END"),
                            w, w, at))
            if w == "?":
                out.append(Term("END", w, "", at))
        elif kind == "pause":
            out.append(Term("PAUSE", w, w, at))
        elif kind == "other":
            out.append(Term("UNKNOWN", w, w, at))
        else:
            i = _word_run(raw, i, lex, letters_mode, out)
            continue
        i += 1
    return _counts(out)


def _names(raw: list, lex: Lexicon) -> set[str]:
    """People told by name: a capitalised word the lexicon does not know (nor its typo reading), told twice, or
    once inside a sentence; a word only ever at a sentence's start ("Dealing the first round") is not a name."""
    seen: dict[str, list[bool]] = {}
    for k, (kind, w, _) in enumerate(raw):
        if kind != "word" or not re.fullmatch(r"[A-Z][a-z]{2,}", w):
            continue
        low = w.lower()
        if any(key[0] == low for key in lex.phrases) or low in _NUMBER_WORDS or lex.typo(low):
            continue
        if low.endswith("ing"):
            continue
        start = k == 0 or raw[k - 1][1] in (".", "?", "!", ":", "(") or raw[k - 1][0] == "quote"
        nxt = raw[k + 1][1].lower() if k + 1 < len(raw) else ""
        acts = lex.phrases.get((nxt,), ("", ""))[0] in _ACTING          # "Alice bets", "Bob says"
        seen.setdefault(w, []).append(start and not acts)
    return {w for w, starts in seen.items() if len(starts) >= 2 or not all(starts)}


_ACTING = {"VERB", "ALLIN", "SAYS", "PUT", "SILENT", "HAS", "WANTS", "CLAIM", "BETPOT", "THINKS", "STRADDLES", "COVERS",
           "SHOWS"}


def _word_run(raw: list, i: int, lex: Lexicon, letters_mode: bool, out: list[Term]) -> int:
    """The term starting at raw[i] (a word): a person letter, a seat, amount words, else the longest phrase."""
    kind, w, at = raw[i]
    if letters_mode and w in lex.letters:
        out.append(Term("LETTER", w, w, at))
        return i + 1
    base = re.sub(r"['’]s$", "", w)
    if base != w and (letters_mode and base in lex.letters):
        out.append(Term("LETTER", base, w, at))         # "B's raise": B
        return i + 1
    if base != w and lex.phrases.get((base.lower(),), ("",))[0] in ("POSITION", "ROLE", "PRONOUN"):
        term, meaning = lex.phrases[(base.lower(),)]
        out.append(Term(term, meaning, w, at))          # "the button's chips": the button
        return i + 1
    if w.lower() == "player" and letters_mode and i + 1 < len(raw) and raw[i + 1][1] in lex.letters:
        out.append(Term("LETTER", raw[i + 1][1], text_between(raw, i, i + 1), at))     # "player A"
        return i + 2
    low = w.lower().rstrip(":").replace("’", "'")
    # seats: "seats 7 and 1", "seats 1, 3, 4"
    if low == "seats" and i + 1 < len(raw) and raw[i + 1][0] == "amount":
        j = i + 1
        while j < len(raw):
            if raw[j][0] == "amount" and "$" not in raw[j][1] and raw[j][1].isdigit() and 1 <= int(raw[j][1]) <= 30:
                out.append(Term("SEAT", int(raw[j][1]), f"seat {raw[j][1]}", raw[j][2]))
                j += 1
                if j + 1 < len(raw) and raw[j][1].lower() in (",", "and") and raw[j + 1][0] == "amount":
                    out.append(Term("COMMA" if raw[j][1] == "," else "SEP", raw[j][1], raw[j][1], raw[j][2]))
                    j += 1
                    continue
                if j + 2 < len(raw) and raw[j][1] == "," and raw[j + 1][1].lower() == "and" \
                        and raw[j + 2][0] == "amount":
                    out.append(Term("SEP", "and", ", and", raw[j][2]))
                    j += 2
                    continue
            break
        return j
    # a seat: "seat 4", "s4", "player 2"
    if low in ("seat", "s", "player", "#") and i + 1 < len(raw) and raw[i + 1][0] == "amount":
        n = _amount(raw[i + 1][1])
        if n is not None and n == int(n) and 1 <= n <= 30 and "$" not in raw[i + 1][1]:
            out.append(Term("SEAT", int(n), text_between(raw, i, i + 1), at))
            return i + 2
    if low == "player" and not (i + 1 < len(raw) and raw[i + 1][0] == "amount"):
        out.append(Term("ROLE", "player", w, at))        # "player wants to know...": the player, no seat told
        return i + 1
    m = re.fullmatch(r"s(\d{1,2})", low)
    if m:
        out.append(Term("SEAT", int(m.group(1)), w, at))
        return i + 1
    # amount words: a run of number words ("two hundred", "fourteen hundred")
    j = i
    while j < len(raw) and raw[j][0] == "word" and raw[j][1].lower() in _NUMBER_WORDS | {"and", "a"}:
        j += 1
    while j > i and raw[j - 1][1].lower() in ("and", "a"):
        j -= 1
    if j > i and raw[i][1].lower() not in ("and", "a"):
        run = " ".join(r[1] for r in raw[i:j]).lower()
        single_count = j == i + 1 and low in ("one", "two", "three", "four", "five", "six", "seven", "eight",
                                              "nine", "ten")
        value = None if single_count else _spoken(run)
        if value is not None:
            out.append(Term("AMOUNT", value, text_between(raw, i, j - 1), at))
            return j
    # the longest phrase of the lexicon
    for size in range(min(lex.longest, len(raw) - i), 0, -1):
        seq = raw[i:i + size]
        if any(k not in ("word", "punct") for k, _, _ in seq):
            continue
        key = tuple(s[1].lower().replace("’", "'") for s in seq)
        if size == 1:
            key = (low,)
        hit = lex.phrases.get(key)
        if hit:
            out.append(Term(hit[0], hit[1], text_between(raw, i, i + size - 1), at))
            return i + size
    fixed = lex.typo(low)
    if fixed:
        term, meaning = lex.phrases[(fixed,)]
        out.append(Term(term, meaning, w, at, note=f"read '{w}' as '{fixed}'"))
        return i + 1
    out.append(Term("UNKNOWN", w, w, at))
    return i + 1


def text_between(raw: list, i: int, j: int) -> str:
    return " ".join(r[1] for r in raw[i:j + 1])


def _counts(terms: list[Term]) -> list[Term]:
    """A count word before an amount, a colour or 'chips' counts chips ("six $100 chips", "a single 500 chip");
    an article elsewhere carries nothing. Fillers are dropped."""
    out: list[Term] = []
    skip = False
    terms_skip: set[int] = set()
    for k, t in enumerate(terms):
        nxt = terms[k + 1] if k + 1 < len(terms) else None
        if k in terms_skip:
            continue
        if skip:
            skip = False
            continue
        after = terms[k + 2] if k + 2 < len(terms) else None
        end = _reminder_end(terms, k) if t.type == "COMMA" and out and out[-1].type in (
            "SEAT", "LETTER", "POSITION", "ROLE") else None
        if end is not None:
            # "Seat 3, who had only called the bring-in, now wants to raise": a reminder of what he did before
            out.append(Term("COMMA", ",", ",", t.start))
            terms_skip.update(range(k + 1, end + 1))
            continue
        if t.type == "COMMA" and nxt is not None and nxt.type == "ASKS" and nxt.text.lower() == "who" and out \
                and out[-1].type in ("SEAT", "LETTER", "POSITION", "ROLE") and after is not None \
                and after.type == "VERB" and _past(after.text) and k + 3 < len(terms) and terms[k + 3].type == "COMMA":
            skip_to = k + 3          # "Seat 1, who checked, now wants to raise": a reminder of what he did, told
            out.append(Term("COMMA", ",", ",", t.start))     # before; the sentence goes on as if it were not said
            terms_skip.add(k + 1)
            terms_skip.add(k + 2)
            terms_skip.add(skip_to)
            continue
        if k in terms_skip:
            continue
        if t.type == "COMMA" and nxt is not None and nxt.type == "ASKS" and nxt.text.lower() == "who" and out \
                and out[-1].type in ("SEAT", "LETTER", "POSITION", "ROLE"):
            out.append(Term("RELWHO", "who", ", who", t.start))      # "the cutoff, who raises": the same one
            skip = True
            continue
        if t.type == "ASKS" and t.text.lower() == "who" and out and out[-1].type in ("SEAT", "LETTER", "POSITION") \
                and nxt is not None and nxt.type in ("VERB", "WANTS", "ALLIN", "SAYS", "PUT", "HAS"):
            out.append(Term("RELWHO", "who", "who", t.start))        # "back to UTG who wants to raise"
            continue
        if t.type == "COUNT" and not (nxt and nxt.type in _COUNTABLE | {"COUNT"}):
            if t.value == "1" or nxt is None:
                continue            # "a", "an": an article
            t = Term("AMOUNT", Decimal(t.value), t.text, t.start)   # "five" said alone: an amount
        if t.type == "FILLER":
            continue
        if t.type == "SEP" and t.text.lower() in ("then", "now", "next") and out and out[-1].type in _PEOPLE \
                and nxt is not None and nxt.type in ("VERB", "ALLIN", "PUT", "SAYS", "SILENT", "BETPOT", "WANTS"):
            continue            # "seat 4 then goes all in": the same sentence's order, not a second clause
        out.append(t)
    # "single" after "a": one count
    merged: list[Term] = []
    for t in out:
        if merged and merged[-1].type == "COUNT" and t.type == "COUNT" and "1" in (merged[-1].value, t.value):
            merged[-1] = Term("COUNT", t.value if merged[-1].value == "1" else merged[-1].value,
                              merged[-1].text + " " + t.text, merged[-1].start)
            continue
        merged.append(t)
    return merged


# what a reminder of an earlier action may hold besides the action word ("who had only called the bring-in")
_REMINDER = {"FILLER", "BRINGINWORD", "STREET", "AMOUNT", "TO", "FOR", "OPENBET", "POSITION", "SEAT"}


def _reminder_end(terms: list[Term], k: int) -> int | None:
    """The comma that closes ", who had VERBed ... ," at terms[k] (a comma), when what is inside is a past action
    ("had called", "called earlier") and nothing that moves chips now; None otherwise."""
    if k + 2 >= len(terms) or terms[k + 1].type != "ASKS" or terms[k + 1].text.lower() != "who":
        return None
    j = k + 2
    had = terms[j].type == "HAD"
    j += had
    verbs = 0
    while j < len(terms) and j <= k + 9 and terms[j].type != "COMMA":
        ty = terms[j].type
        if ty == "VERB" and (had or _past(terms[j].text)):
            verbs += 1
        elif ty not in _REMINDER:
            return None
        j += 1
    if j < len(terms) and terms[j].type == "COMMA" and verbs == 1 and (had or j > k + 4):
        return j
    return None


def _claim_words(sentence: list[Term]) -> list[Term]:
    """A sentence that is a claim ("UTG says the raise came too late"): one person or the dealer, then a claim word,
    then anything but chips moving. Its words after the claim word, known or not, are the claim's: kept word for word
    in the report, never read as facts. Any other sentence is returned as it was."""
    k = next((n for n, t in enumerate(sentence) if t.type == "CLAIM"), None)
    if k is None or k == 0:
        return sentence
    head = [t for t in sentence[:k] if t.type not in ("SEP", "COMMA")]
    if not head or any(t.type not in _PEOPLE | {"DEALER", "RELPLAYER"} for t in head) or len(head) > 2:
        return sentence
    if any(t.type in ("PUT", "ADDS", "SILENT") for t in sentence[k:]):
        return sentence
    return sentence[:k + 1] + [Term("QWORD", t.value, t.text, t.start) if t.type not in ("QMARK", "SHOWDOWN") else t
                               for t in sentence[k + 1:]]


def _past(word: str) -> bool:
    """An action word in the past ("checked", "called", "had bet"): what a player did before, not a new action."""
    return word.lower().split()[-1].endswith("ed") or word.lower() in ("bet", "had bet")


def _sentences(terms: list[Term]) -> list[list[Term]]:
    out: list[list[Term]] = [[]]
    for t in terms:
        if t.type == "END":
            if out[-1]:
                out.append([])
            continue
        out[-1].append(t)
    return [s for s in out if s]


def _bare_said(sentence: list[Term], text: str) -> list[Term]:
    """Words after 'says' not in quotes ("says raise and puts out..."): kept whole as the words said, up to the
    chips, a comma or the end."""
    out: list[Term] = []
    k = 0
    while k < len(sentence):
        t = sentence[k]
        out.append(t)
        if t.type == "SAYS" and k + 1 < len(sentence) and sentence[k + 1].type not in ("QUOTE", "SILENT"):
            j = k + 1
            while j < len(sentence) and sentence[j].type not in ("PUT", "ADDS", "COMMA", "SILENT") and not (
                    sentence[j].type == "SEP" and j + 1 < len(sentence) and sentence[j + 1].type in ("PUT", "ADDS")):
                j += 1
            if j > k + 1:
                first, last = sentence[k + 1], sentence[j - 1]
                words = text[first.start:last.start + len(last.text)]
                for typo in sentence[k + 1:j]:       # a typo read as a word is said as that word ("rasie")
                    if typo.note and typo.start >= first.start:
                        fixed = typo.note.split(" as ")[-1].strip("'")
                        at = typo.start - first.start
                        words = words[:at] + fixed + words[at + len(typo.text):]
                        break
                out.append(Term("QUOTE_BARE", words, words, first.start))
                k = j
                continue
        k += 1
    return out


# ------------------------------------------------------------------------------------------------ grammar

@lru_cache(maxsize=1)
def _parser():
    from lark import Lark, Token
    from lark.lexer import Lexer

    class Terms(Lexer):
        def __init__(self, conf):    # the terms come from the lexicon, not from lark's lexer
            pass

        def lex(self, data):
            for t in data:
                yield Token(t.type, t)

    grammar = resources.files("rulings.told").joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="earley", lexer=Terms, ambiguity="resolve")


_TERMS_OF_GRAMMAR: set[str] = set()


def _grammar_terms() -> set[str]:
    if not _TERMS_OF_GRAMMAR:
        grammar = resources.files("rulings.told").joinpath("grammar.lark").read_text(encoding="utf-8")
        for line in grammar.splitlines():
            if line.startswith("%declare"):
                _TERMS_OF_GRAMMAR.update(line.split()[1:])
    return _TERMS_OF_GRAMMAR


_PEOPLE = {"SEAT", "LETTER", "POSITION", "ROLE", "PRONOUN"}


def _trim(sentence: list[Term]) -> list[Term]:
    """No separator at either end, no empty brackets (what was inside was filler: "(his last chips)")."""
    out: list[Term] = []
    for t in sentence:
        if t.type == "RPAREN" and out and out[-1].type == "LPAREN":
            out.pop()
            continue
        out.append(t)
    out = [t for k, t in enumerate(out) if not (t.type == "COMMA" and k and out[k - 1].type == "COMMA")]
    while out and out[0].type in ("COMMA", "SEP", "COLON"):
        out.pop(0)
    while out and out[-1].type in ("COMMA", "SEP", "COLON"):
        out.pop()
    return out


def _pieces(sentence: list[Term]) -> list[list[Term]]:
    """The sentence cut where one clause ends and the next names its actor (", seat 2 ...", "and B ..."), and
    around a bracket that ends a clause ("... calls (pot $110), ..."), outside brackets: each piece is parsed
    alone (the Earley parser's work grows faster than the length)."""
    out: list[list[Term]] = [[]]
    depth = 0
    for k, t in enumerate(sentence):
        if t.type == "LPAREN" and depth == 0 and out[-1]:
            close = next((j for j in range(k + 1, len(sentence)) if sentence[j].type == "RPAREN"), None)
            after = sentence[close + 1] if close is not None and close + 1 < len(sentence) else None
            if close is not None and (after is None or after.type in ("COMMA", "SEP")) \
                    and sentence[k + 1].type not in ("SEAT", "LETTER", "POSITION", "ROLE") \
                    and not (close == k + 2 and sentence[k + 1].type == "AMOUNT"):   # "(6,000)": the chips' total
                out.append([])
        depth += t.type == "LPAREN"
        depth -= t.type == "RPAREN"
        nxt = sentence[k + 1] if k + 1 < len(sentence) else None
        if depth == 0 and t.type in ("COMMA", "SEP") and nxt is not None and nxt.type in _PEOPLE and out[-1] \
                and not (t.type == "COMMA" and nxt.type == "SEP") \
                and not (t.type == "SEP" and all(x.type in _PEOPLE | {"COMMA", "SEP"} for x in out[-1])):
            # ("seat 1 and seat 2 fold": one clause, its actors named in turn)
            out.append([])
            continue
        prev = sentence[k - 1] if k else None
        if depth == 0 and t.type in ("SEAT", "LETTER") and prev is not None and prev.type in ("AMOUNT", "VERB", "STREET") \
                and out[-1] and any(x.type in ("VERB", "ALLIN", "INPOT", "POTWORD", "PUT") for x in out[-1]):
            out.append([])      # "seat 4 bet 20 seat 7 put out...": a new clause names its actor
        if depth == 0 and t.type == "SEP" and out[-1] and out[-1][-1].type == "COMMA":
            out[-1].pop()
        out[-1].append(t)
        if t.type == "RPAREN" and depth == 0 and k + 1 < len(sentence) and len(out[-1]) > 1 \
                and out[-1][0].type == "LPAREN":
            out.append([])
    return [p for p in (_trim(p) for p in out) if p]


MAX_SHAPES = 4096      # sentence shapes (their terms' names in order) whose parse is kept


@lru_cache(maxsize=MAX_SHAPES)
def _shape(types: tuple[str, ...]) -> tuple | None:
    """The parse of a sequence of terms by their names alone, as a template (rule names, and each leaf's place
    in the sequence): a tree depends only on the terms' names, so each shape is parsed once per process (the
    Earley parser takes tens of milliseconds a sentence; told disputes repeat a few shapes). None: not read."""
    from lark.exceptions import UnexpectedInput
    try:
        tree = _parser().parse([Term(t, None, "", i) for i, t in enumerate(types)])
    except UnexpectedInput:     # the grammar does not take the sentence: it is not read
        return None

    def template(node):
        if hasattr(node, "data"):
            return (str(node.data), tuple(template(c) for c in node.children))
        return node.value.start
    return template(tree)


def _build(template, sentence: list[Term]):
    from lark import Token, Tree
    if isinstance(template, int):
        term = sentence[template]
        return Token(term.type, term)
    data, children = template
    return Tree(data, [_build(c, sentence) for c in children])


def _parse(sentence: list[Term]):
    """The sentence's tree: piece by piece when every piece is read so, else the whole sentence at once (a
    clause that runs over a cut: "seats 1 and 2 fold", "says raise and puts out..."); None: not read."""
    from lark import Tree
    pieces = _pieces(sentence)
    if len(pieces) > 1:
        trees = []
        for piece in pieces:
            shape = _shape(tuple(t.type for t in piece))
            if shape is None:
                break
            trees.append(_build(shape, piece))
        else:
            return Tree("start", [c for t in trees for c in t.children])
    shape = _shape(tuple(t.type for t in sentence))
    return None if shape is None else _build(shape, sentence)


# ------------------------------------------------------------------------------------------------ reading

@dataclass
class Unread:
    words: str
    line: int
    col: int
    sentence: str
    matters: bool       # names a seat, an amount or an action: the reading stops


@dataclass
class Told:
    """What a told dispute was read as: the incident (data for the one reader), the words in the floor's terms,
    what was not read, and the typos read as other words."""

    text: str
    incident: dict = field(default_factory=dict)
    read_as: list[str] = field(default_factory=list)
    unread: list[Unread] = field(default_factory=list)
    typos: list[str] = field(default_factory=list)
    question: str | None = None
    claims: list[str] = field(default_factory=list)    # what a player or the dealer claims: not a fact read
    unanswered: list[str] = field(default_factory=list)  # a later question: the first one is ruled on

    def read_as_line(self) -> str:
        return "Read as: " + "; ".join(self.read_as) + "."

    def to_json(self) -> dict:
        return {"text": self.text, "read_as": self.read_as_line(), "incident": self.incident,
                "not_read": [{"words": u.words, "line": u.line, "column": u.col, "sentence": u.sentence,
                              "stops_the_ruling": u.matters} for u in self.unread],
                "typos": self.typos, "question": self.question, "claims": self.claims,
                "not_answered": self.unanswered}


def _place(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


# a sentence not read that holds nothing but these (and words not known) names nothing of the game: it is listed,
# and the reading goes on; any other sentence not read stops it (it may change the ruling)
_CALM = {"NOTICED", "DEALER", "SEP", "COMMA", "PRONOUN", "LPAREN", "RPAREN", "UNKNOWN", "COLON", "NOACTION"}


def check_text(text: Any) -> str:
    """The told text, or ProblemsError saying what is wrong with it as a whole (empty, too long, control
    characters)."""
    if not isinstance(text, str):
        raise ProblemsError([_p(1, 1, "I103", "a told dispute is text", None)])
    if len(text) > MAX_TOLD:
        raise ProblemsError([_p(1, 1, "I103",
                                     f"{len(text):,} characters: a dispute is told in a few sentences "
                                     f"(at most {MAX_TOLD:,} characters are read)",
                                     "tell only the hand in dispute: the game, the actions, what was said and "
                                     "done, and the question")])
    bad = control_character(text.replace("\n", " ").replace("\t", " ").replace("\r", " "))
    if bad is not None:
        where = next((i for i, ch in enumerate(text) if control_character(ch) is not None and ch not in "\n\t\r"), 0)
        line, col = _place(text, where)
        raise ProblemsError([_p(line, col, "I103",
                                     f"a control character ('{bad}') is not text a floor tells",
                                     "remove it and send the words again")])
    if not text.strip():
        raise ProblemsError([_p(1, 1, "I102", "nothing was told",
                                     "tell the game and stakes, who did what, what was said, and the question, "
                                     "e.g. 'NL 2/5, flop, $60 in the pot. Seat 1 bets 40, seat 2 says raise and "
                                     "puts out three black chips.'")])
    return text


def read_told(text: str, lexicon: Lexicon | None = None) -> Told:
    """Read a told dispute; raises ProblemsError naming what was not read (word for word, with its place) or is
    missing or contradictory. The result's ``incident`` still goes through the one incident reader."""
    text = check_text(text)
    lex = lexicon or standard()
    told = Told(text=text)
    terms = _words(text, lex)
    told.typos = [t.note for t in terms if t.note]
    sentences = _sentences(terms)
    if len(sentences) > MAX_SENTENCES:
        raise ProblemsError([_p(1, 1, "I103",
                                     f"{len(sentences)} sentences: a dispute is told in a few (at most "
                                     f"{MAX_SENTENCES} are read)", "tell only the hand in dispute")])
    story = _Story(told, lex)
    known = _grammar_terms()
    for sentence in sentences:
        sentence = _bare_said(sentence, text)
        first, last = sentence[0], sentence[-1]
        shown = text[first.start:last.start + len(last.text)]
        sentence = _claim_words(sentence)
        unknown = [t for t in sentence if t.type not in known]
        sentence = _trim(sentence)
        if not sentence:
            continue
        tree = _parse(sentence) if not unknown else None
        if tree is None:
            where = unknown[0] if unknown else first
            words = ", ".join(f"'{u.text}'" for u in unknown) if unknown else f"'{shown}'"
            line, col = _place(text, where.start)
            # a question that is not read in full still names the seat asked about; an intention ("wants to")
            # or a statement that is not read may change the ruling
            question = any(t.type == "QMARK" for t in sentence)
            # a question not read that names an amount ("is the 25 good?") asks about a wager, which the ruling
            # on a seat may not answer: it stops the reading too
            matters = any(t.type not in _CALM for t in sentence) and (
                not question or (any(t.type == "AMOUNT" for t in sentence)
                                 and any(t.type in ("SEAT", "LETTER", "POSITION") for t in sentence)))
            told.unread.append(Unread(words, line, col, shown, matters))
            if not matters and any(t.type == "QMARK" for t in sentence):
                story.question_from(sentence, shown, parsed=False)
            continue
        try:
            story.sentence(tree, shown)
        except (LookupError, ValueError, TypeError, ArithmeticError, AttributeError) as exc:
            # a reading this code does not handle yet: said as not read, never a traceback
            line, col = _place(text, first.start)
            why = f" ({exc})" if type(exc) is ValueError else ""     # our own reason: "the chips told make 50, not 60"
            told.unread.append(Unread(f"'{shown}'{why}", line, col, shown, True))
            told.typos.append(f"internal: {type(exc).__name__}")
    try:
        story.finish()
    except ProblemsError:
        raise
    except (LookupError, ValueError, TypeError, ArithmeticError, AttributeError) as exc:
        # a reading this code does not put together yet: said plainly, never a traceback
        raise ProblemsError([_p(1, 1, "I102", f"the dispute was read but could not be put together as an incident "
                                f"({type(exc).__name__}: {exc}); this is a gap in the reader",
                                "tell it as the incident format's fields, or in other words")]) from None
    return told


# ------------------------------------------------------------------------------------------------ the story

@dataclass
class _Act:
    actor: Any
    said: str | None = None
    chips: list[Decimal] = field(default_factory=list)
    motions: list[list[Decimal]] = field(default_factory=list)
    order: str | None = None
    chips_told: str | None = None


POSITION_SEATS = {"sb": 1, "bb": 2, "utg": 3, "utg+1": 4, "utg+2": 5, "lj": 6, "hj": 7, "co": 8, "btn": 9}
_POSITION_NAMES = {"sb": "the small blind", "bb": "the big blind", "utg": "UTG", "utg+1": "UTG+1",
                   "utg+2": "UTG+2", "lj": "the lojack", "hj": "the hijack", "co": "the cutoff", "btn": "the button",
                   "first": "the first to act"}


class _Story:
    """The sentences read, in order, into what the incident needs."""

    def __init__(self, told: Told, lex: Lexicon):
        self.told, self.lex = told, lex
        self.game: dict[str, Any] = {}
        self.game_said: dict[str, str] = {}
        self.contradictions: list[str] = []
        self.street: str | None = None
        self.pot: Decimal | None = None
        self.events: list[tuple] = []          # ("action", actor, verb, amount, allin) | ("act", _Act)
        self.where: list[str | None] = []      # the street each event was told on (None: before any was told)
        self.stacks: dict[Any, Any] = {}
        self.asked: Any = None
        self.question: str | None = None
        self.last_actor: Any = None
        self.same: dict[Any, Any] = {}         # "UTG (seat 3)": the position is that seat
        self.seen: list[Any] = []              # people named without acting ("seat 3 ($45)")
        self.noticed: str | None = None
        self.together = False                  # "at the same moment": words and chips together
        self.showdown = False                  # the question is who shows first
        self.upcards: dict[Any, str] = {}      # stud: each player's upcard on third street
        # kill pots: the table's last pots as told (rulings/facts/kill.py reads them from the incident's table:)
        self.listed: set[int] = set()          # "three players: seat 2, seat 5 and seat 8": the seats in the hand
        self.turn_told: Any = None             # whose turn it was when the story began, as told
        self.turn_of: Any = None               # "before seat 2 acts", "with the action on seat 4": whose turn it is
        self.kill_kind: str | None = None      # "full", "half", "required", "required half", "scoop", "kill"
        self.kill_words: list[tuple[str, int, str]] = []   # the game's kill words, their place and sentence
        self.hilo = False                      # a high-low game: a pot won whole is a scoop
        self.won_last: list[Any] = []          # who won a pot before the one told
        self.kill_leg: Any = None              # who held the kill button with a leg up going into the last pot
        self.kill_pots: list[dict] = []        # the pots told, oldest first
        self.kill_shown: list[str] = []        # the sentences that told them
        self.limit_by_game = False             # the structure read from 'limits' or a stud game, not told

    def _add(self, event: tuple) -> None:
        if event[0] == "act" or (event[0] == "action" and event[1] == self.turn_of):
            self.turn_of = None
        self.events.append(event)
        self.where.append(self.street)

    # -- the game
    def _set(self, key: str, value: Any, said: str) -> None:
        if key in self.game and self.game[key] != value:
            self.contradictions.append(f"{key.replace('_', ' ')}: '{self.game_said[key]}' and '{said}'")
            return
        self.game[key] = value
        self.game_said[key] = said

    def sentence(self, tree, shown: str) -> None:
        for item in tree.children:
            if not hasattr(item, "data"):
                continue
            getattr(self, "_" + str(item.data))(item, shown)

    def _game(self, node, shown: str) -> None:
        for part in node.children:
            if hasattr(part, "data"):
                kind = str(part.data)
                toks = [c.value for c in part.children if not hasattr(c, "data")]
                amounts = [t.value for t in toks if t.type == "AMOUNT"]
                stakes = next((t.value for t in toks if t.type == "STAKES"), None)
                said = " ".join(t.text for t in toks)
                if kind in ("stakes", "blinds", "limits"):
                    pair = stakes if stakes is not None else amounts
                    self._set("stakes" if kind != "limits" else "bet_sizes", [_num(x) for x in pair], said)
                elif kind == "ante":
                    self._set("ante", _num(amounts[-1]), said)
                elif kind == "bba":
                    self._set("big_blind_ante", _num(amounts[-1]), said)
                elif kind == "bring_in":
                    self._set("bring_in", _num(amounts[-1]), said)
                elif kind == "level":
                    pass
                continue
            t = part.value
            if t.type == "STRUCT":
                self._set("structure", t.value, t.text)
            elif t.type == "VARIANT":
                self._set("variant", t.value, t.text)
            elif t.type == "COMBO":
                structure, variant = t.value.split()
                self._set("structure", structure, t.text)
                self._set("variant", variant, t.text)
            elif t.type == "SETTING":
                self._set("setting", t.value, t.text)
            elif t.type == "KILL":
                self._set("kill", t.value, t.text)
                self.kill_kind = t.value
                self.kill_words.append((t.text, t.start, shown))
            elif t.type == "HILO":
                self.hilo = True
                self.kill_words.append((t.text, t.start, shown))

    def _item(self, node, shown: str) -> None:
        """An item in brackets: "(pot 9,000)"."""
        for part in node.children:
            if hasattr(part, "data"):
                getattr(self, "_" + str(part.data))(part, shown)

    def _scene(self, node, shown: str) -> None:
        for part in node.children:
            getattr(self, "_" + str(part.data))(part, shown)

    def _street(self, node, shown: str) -> None:
        self.street = node.children[0].value.value

    def _pot(self, node, shown: str) -> None:
        amounts = [c.value.value for c in node.children if not hasattr(c, "data") and c.value.type == "AMOUNT"]
        chips = self._child(node, "chips")
        if chips is not None:            # "two greens and two reds in the middle": the pot by its chips
            amounts = [sum(self._chips(chips)[0], Decimal(0))]
        if self.pot is not None and self.pot != amounts[0] and self.street is None:
            self.contradictions.append(f"the pot: {self.pot} and {amounts[0]}")
        self.pot = amounts[0]

    # -- people
    def _actor(self, node) -> Any:
        whos = [c for c in node.children if not hasattr(c, "data")]
        for pair in [c for c in node.children if hasattr(c, "data") and str(c.data) == "paired"]:
            whos = [c for c in pair.children] + whos
        notes = [c for c in node.children if hasattr(c, "data") and str(c.data) == "stack_note"]
        keys: list = []
        cards: list[str] = []
        for w in whos:
            t = w.value
            if t.type == "SEAT":
                keys.append(("seat", t.value))
            elif t.type == "LETTER":
                keys.append(("letter", t.value))
            elif t.type == "POSITION":
                keys.append(("pos", t.value))
            elif t.type == "STREET":
                self.street = t.value
                continue
            elif t.type == "ROLE":
                role = t.text.lower().removeprefix("a ").removeprefix("the ")
                keys.append(self._role_seat(role) or ("role", role))
            elif t.type == "PRONOUN":
                keys.append(self.last_actor or ("pronoun", t.text))
            elif t.type == "CARD":
                cards.append(t.value)
        if len(keys) == 2:
            self.same[keys[0]] = keys[1]
            self.same[keys[1]] = keys[0]
        who = keys[0]
        for n in notes:
            self._note(who, n)
        for card in cards:         # "seat 3 (2 of clubs)": his upcard
            self._upcard(who, card)
        self.last_actor = who
        return who

    _ROLE_VERBS = {"bettor": ("bet",), "raiser": ("raise", "check-raise"), "caller": ("call",)}

    def _role_seat(self, role: str) -> Any:
        """"The bettor", "the raiser", "the caller": the one told doing it last, when one was (else None)."""
        verbs = self._ROLE_VERBS.get(role)
        if not verbs:
            return None
        for e in reversed(self.events):
            if e[0] == "action" and e[1] is not None and e[2] in verbs:
                return e[1]
        return None

    def _child(self, node, name: str):
        return next((c for c in node.children if hasattr(c, "data") and str(c.data) == name), None)

    def _toks(self, node) -> list:
        return [c.value for c in node.children if not hasattr(c, "data")]

    # -- actions
    def _who(self, node):
        actor = self._child(node, "actor")
        if actor is not None:
            return self._actor(actor)
        if self.last_actor is None:
            raise LookupError("an action with no one named")
        return self.last_actor

    def _plain(self, node, shown: str) -> None:
        who = self._who(node)
        toks = self._toks(node)
        verb = next(t.value for t in toks if t.type == "VERB")
        amount = next((t.value for t in toks if t.type == "AMOUNT"), None)
        more = any(t.type == "MORE" for t in toks)
        note = self._child(node, "stack_note")
        if note is not None:     # "bets $3 (with $400 behind)": his stack, when this is his first action told
            behind = next((c.value.value for c in note.children if not hasattr(c, "data")
                           and c.value.type == "AMOUNT"), None)
            first = not any(e[0] == "action" and e[1] == who for e in self.events)
            has = any(not hasattr(c, "data") and c.value.type == "HAS" for c in note.children) and not any(
                not hasattr(c, "data") and c.value.type == "BEHIND" for c in note.children)
            if behind is not None and first and amount is not None and not more:
                self.stacks[who] = ("has", behind if has else behind + amount)
            else:
                self.stacks[who] = ("more", None)
        if self.turn_of is not None and who != self.turn_of and not any(e[0] == "act" for e in self.events):
            # "Before seat 2 acts, seat 8 folds": another seat's action while it is his turn is out of turn
            self._out_of_turn(node, shown)
            return
        self._add(("action", who, verb, amount, False, more))

    def _straddle(self, node, shown: str) -> None:
        who = self._who(node)
        amount = next((t.value for t in self._toks(node) if t.type == "AMOUNT"), None)
        if amount is None:
            raise LookupError("a straddle without its amount")
        self._add(("action", who, "post", amount, False, False))

    def _many(self, node, shown: str) -> None:
        toks = self._toks(node)
        verb = next(t.value for t in toks if t.type == "VERB")
        amount = next((t.value for t in toks if t.type == "AMOUNT"), None)
        more = any(t.type == "MORECHIPS" for t in toks)     # "B and C call and have thousands left"
        for actor in [c for c in node.children if hasattr(c, "data") and str(c.data) == "actor"]:
            who = self._actor(actor)
            self._add(("action", who, verb, amount, False, False))
            if more:
                self.stacks.setdefault(who, ("more", None))

    def _opening(self, node, shown: str) -> None:
        toks = self._toks(node)
        street = next((t.value for t in toks if t.type == "STREET"), None)
        if street:
            self.street = street
        amount = next(t.value for t in toks if t.type == "AMOUNT")
        self.last_actor = ("role", "the opener")
        self._add(("action", ("role", "the opener"), "bet", amount, False, False))

    def _seating(self, node, shown: str) -> None:
        who = self._actor(node)
        self.seen.append(who)

    def _table_size(self, node, shown: str) -> None:  # noqa: D102 (the street, when one is told with it)
        toks = self._toks(node)
        listed = [t.value for t in toks if t.type == "SEAT"]
        if listed:       # "four players (seats 3, 4, 5, 6)": the seats in the hand, as many as told
            count = next(t.value for t in toks if t.type == "AMOUNT")
            if count != len(listed):
                raise ValueError(f"{count} players told and {len(listed)} seats named")
            for n in listed:
                if ("seat", n) not in self.seen:
                    self.seen.append(("seat", n))
            self.listed = set(listed)
        note = self._child(node, "first_note")
        if note is not None:
            self._first_note(note, shown)
        street = next((t.value for t in self._toks(node) if t.type == "STREET"), None)
        if street:
            self.street = street

    def _first_note(self, node, shown: str) -> None:
        """"(seat 6 acts first after the flop)": the button is the seat before him."""
        who = self._actor(self._child(node, "actor"))
        if ("pos", "first") in self.same and self.same[("pos", "first")] != who:
            raise ValueError("two seats told as first to act")
        self.same[("pos", "first")] = who
        if who not in self.seen:
            self.seen.append(who)

    def _round_size(self, node, shown: str) -> None:
        pass

    def _showdown_q(self, node, shown: str) -> None:
        """"Who shows first?": the showdown's order, which the hand's last round decides."""
        self.showdown = True
        self.question = self.told.question = shown

    def _upcard(self, who, card: str) -> None:
        if self.upcards.get(who, card) != card:
            raise ValueError(f"two upcards told for one player: {self.upcards[who]} and {card}")
        self.upcards[who] = card
        if who not in self.seen:
            self.seen.append(who)

    def _upcards(self, node, shown: str) -> None:
        """"Upcards: seat 1 king of diamonds, seat 3 king of spades", "seat 2 shows the 5 of diamonds, seat 4 the 3
        of hearts": each player's upcard on third street."""
        for entry in [c for c in node.children if hasattr(c, "data") and str(c.data) == "upcard"]:
            who = self._actor(self._child(entry, "actor"))
            card = next(t.value for t in self._toks(entry) if t.type == "CARD")
            self._upcard(who, card)

    def _claim(self, node, shown: str) -> None:
        """What a player or the dealer claims or argues: kept word for word in the report, never a fact read."""
        toks = list(node.scan_values(lambda v: hasattr(v, "type")))
        first, last = toks[0].value, toks[-1].value
        self.told.claims.append(self.told.text[first.start:last.start + len(last.text)])
        if any(t.value.type == "SHOWDOWN" for t in toks):      # "seat 6 says seat 2 must show first"
            self.showdown = True

    # -- kill pots: the table's last pots
    def _kill_leg(self, node, shown: str) -> None:
        who = self._who(node)
        for t in self._toks(node):
            if t.type == "LEGUP":
                self.kill_leg = who
            elif t.type == "WONLAST":
                self.won_last.append(who)
        self.kill_shown.append(shown)

    def _last_pot(self) -> dict:
        """The pot being told: a killed pot told before its winner ("killed it for $40 ... seat 2 wins") is one."""
        if self.kill_pots and not self.kill_pots[-1].get("winners"):
            return self.kill_pots[-1]
        self.kill_pots.append({})
        return self.kill_pots[-1]

    def _pot_won(self, node, shown: str) -> None:
        who = self._who(node)
        toks = self._toks(node)
        pot = self._last_pot()
        pot["winners"] = [who]
        amount = next((t.value for t in toks if t.type == "AMOUNT"), None)
        if amount is not None:
            pot["amount"] = amount
        flop = next((t.value for t in toks if t.type == "POTFLOP"), None)
        if flop is not None:
            pot["flop"] = flop == "true"
        if any(t.type == "WINS" and t.value == "scoops" for t in toks):
            pot["scooped"] = True
        if any(t.type == "BLINDSONLY" for t in toks):
            pot["blinds_only"] = True
        self.kill_shown.append(shown)

    def _pot_split(self, node, shown: str) -> None:
        winners = [self._actor(a) for a in node.children if hasattr(a, "data") and str(a.data) == "actor"]
        pot = self._last_pot()
        pot["winners"] = winners
        pot["split"] = True
        amount = next((t.value for t in self._toks(node) if t.type == "AMOUNT"), None)
        if amount is not None:
            pot["amount"] = amount
        self.kill_shown.append(shown)

    def _pot_killed(self, node, shown: str) -> None:
        who = self._who(node)
        toks = self._toks(node)
        pot: dict = {"kill": (who, next(t.value for t in toks if t.type == "AMOUNT"))}
        if any(t.type == "WINS" for t in toks):
            pot["winners"] = [who]
        self.kill_pots.append(pot)
        self.kill_shown.append(shown)

    def _nothing(self, node, shown: str) -> None:
        self._when(self._toks(node))

    def _together(self, node, shown: str) -> None:
        self.together = True

    def _when(self, toks: list) -> None:
        """"Nobody has acted on it yet", "the dealer stops him": noticed before the next action, when said after
        the disputed act."""
        if any(t.type in ("NOACTION", "NOTICED") and t.value == "before_next_action" for t in toks) and any(
                e[0] == "act" for e in self.events):
            first = next(n for n, e in enumerate(self.events) if e[0] == "act")
            # "seat 4 folds out of turn, then seat 5 folds. Seat 3 speaks up at once": at once after what was told
            # before it, so after some action on the act
            later = any(e[0] == "action" and e[1] is not None for e in self.events[first + 1:])
            self.noticed = "after_some_action" if later else "before_next_action"

    def _seats_list(self, node, shown: str) -> None:
        for c in node.children:
            if hasattr(c, "data") and str(c.data) == "seating":
                self.seen.append(self._actor(c))
            elif not hasattr(c, "data") and c.value.type == "SEAT":
                self.seen.append(("seat", c.value.value))

    def _stacks_list(self, node, shown: str) -> None:
        for entry in [c for c in node.children if hasattr(c, "data") and str(c.data) == "stack_entry"]:
            who = self._actor(self._child(entry, "actor"))
            self.stacks[who] = ("has", next(t.value for t in self._toks(entry) if t.type == "AMOUNT"))
            if who not in self.seen:
                self.seen.append(who)

    def _stack_aside(self, node, shown: str) -> None:
        """"(with $400 behind)" after an action: the stack of the seat just named."""
        if self.last_actor is None:
            raise LookupError("a stack with no one named")
        self._note(self.last_actor, self._child(node, "stack_note"))

    def _note(self, who, note) -> None:
        """A stack said beside a seat: "with $1,200" (his stack), "($2,000 behind)" (his stack too when he has
        not put anything in yet), "with more behind" (not all in; how much not told)."""
        toks = [c.value for c in note.children if not hasattr(c, "data")]
        amount = next((t.value for t in toks if t.type == "AMOUNT"), None)
        if amount is None:
            self.stacks[who] = ("more", None)
            return
        acted = any(e[0] == "action" and e[1] == who and e[2] != "check" for e in self.events)   # a check puts
        self.stacks[who] = ("has", amount) if not acted else ("more", None)                      # nothing in

    def _all_in(self, node, shown: str) -> None:
        who = self._who(node)
        toks = self._toks(node)
        verb = next((t.value for t in toks if t.type == "VERB"), None)
        amount = next((t.value for t in toks if t.type == "AMOUNT"), None)
        last = any(t.type == "LAST" for t in toks) and verb == "call"    # "calls all in for his last $155"
        self._add(("action", who, verb, amount, True, last))

    def _out_of_turn(self, node, shown: str) -> None:
        """"seat 5 calls 200 out of turn": the act in dispute, the action word as said and the amount as chips."""
        who = self._who(node)
        toks = self._toks(node)
        verb = next(t.value for t in toks if t.type == "VERB")
        amount = next((t.value for t in toks if t.type == "AMOUNT"), None)
        act = _Act(who, said={"limp": "call"}.get(verb, verb), order="words")
        if amount is not None:
            act.motions.append(_make_up(amount, self.lex, None))
            act.chips_told = _money(amount) + " (the make-up was not told)"
        else:
            act.order = None
        self._add(("act", act))

    def _out_of_turn_said(self, node, shown: str) -> None:
        """"seat 5 says "call" out of turn": the act in dispute."""
        self._act_of(node, "words")

    def _action_on(self, node, shown: str) -> None:
        """"with the action on seat 4": that seat is in the hand and has not acted yet."""
        who = self._actor(self._child(node, "actor"))
        if who not in self.seen:
            self.seen.append(who)
        if not any(e[0] == "action" and e[1] == who for e in self.events):
            self.turn_of = who
            if not self.events:
                self.turn_told = who

    def _pot_to(self, node, shown: str) -> None:
        """"pots it to 120", "raises pot to 160": a pot-sized bet or raise whose total was told."""
        who = self._actor(self._child(node, "actor"))
        amount = next(t.value for t in self._toks(node) if t.type == "AMOUNT")
        self._add(("action", who, "raise", amount, False, False))

    def _chips_action(self, node, shown: str) -> None:
        """"bets one black": an action whose amount was told by its chips."""
        who = self._who(node)
        verb = next(t.value for t in self._toks(node) if t.type == "VERB")
        if verb not in ("bet", "raise", "call", "complete", "bring-in", "post"):
            raise ValueError(f"chips with '{verb}'")
        amount = sum(self._chips(self._child(node, "chips"))[0], Decimal(0))
        self._add(("action", who, verb, amount, False, False))

    def _chips_all_in(self, node, shown: str) -> None:
        """"shoves four greens": all in for the chips told."""
        who = self._who(node)
        amount = sum(self._chips(self._child(node, "chips"))[0], Decimal(0))
        self._add(("action", who, None, amount, True, False))

    def _bet_pot(self, node, shown: str) -> None:
        who = self._actor(self._child(node, "actor"))
        self._add(("act", _Act(who, said="pot")))

    def _folded_to(self, node, shown: str) -> None:
        who = self._actor(self._child(node, "actor"))
        around = next(t.value for t in self._toks(node) if t.type == "AROUND")
        self._add(("action", None, "check-to" if around == "check-to" else "fold-to", who, False, False))
        verb = next((t.value for t in self._toks(node) if t.type == "VERB"), None)
        if verb is not None:
            amount = next((t.value for t in self._toks(node) if t.type == "AMOUNT"), None)
            self._add(("action", who, verb, amount, False, any(t.type == "MORE" for t in self._toks(node))))
        question = self._child(node, "question")
        if question is not None:        # "folds back to UTG, who wants to raise": the question is his
            self._question(question, shown)

    def _streets_around(self, node, shown: str) -> None:
        """"Turn and river are checked": each street named, checked around."""
        toks = self._toks(node)
        verb = next(t.value for t in toks if t.type == "AROUND")
        size = self._child(node, "table_size")
        if size is not None:        # "river checked by all three remaining players: seat 2, seat 5 and seat 8"
            self._table_size(size, shown)
        for t in toks:
            if t.type == "STREET":
                self.street = t.value
                self._add(("action", None, verb, None, False, False))

    def _everyone(self, node, shown: str) -> None:
        verb = self._toks(node)[0].value
        self._add(("action", None, verb, None, False, False))

    # -- the act
    def _act_of(self, node, order: str) -> None:
        actor = self._child(node, "actor")
        who = self._actor(actor) if actor is not None else self.last_actor
        if who is None:
            raise LookupError("an act with no one named")
        act = _Act(who, order=order)
        for part in node.children:
            if not hasattr(part, "data"):
                continue
            if str(part.data) == "stack_note":       # 'says "all in" and has 210 behind': his stack
                self._note(who, part)
                continue
            if str(part.data) in ("said", "said_bare"):
                act.said = "... ".join(t.value for t in self._toks(part) if t.type in ("QUOTE", "QUOTE_BARE"))
            elif str(part.data) == "put":
                chips_nodes = [c for c in part.children if hasattr(c, "data") and str(c.data) == "chips"]
                for cn in chips_nodes:
                    motion, told_as = self._chips(cn)
                    act.motions.append(motion)
                    act.chips_told = ((act.chips_told + " then ") if act.chips_told else "") + told_as
        if act.said is None and act.order == "words":
            act.order = None
        if (self.together or any(not hasattr(c, "data") and c.value.type == "SIMUL" for c in node.children)) \
                and act.said is not None:
            act.order = "together"
        prev = self.events[-1][1] if self.events and self.events[-1][0] == "act" else None
        if actor is None and prev is not None and prev.actor == who:     # "..., and puts out a red chip": the same act
            if act.said is not None and prev.said is None:
                prev.said, prev.order = act.said, "together" if self.together else "chips"
            if act.motions:
                prev.motions += act.motions
                prev.chips_told = ((prev.chips_told + " then ") if prev.chips_told else "") + (act.chips_told or "")
                if prev.order is None and prev.said is not None:
                    prev.order = "words"
            return
        self._add(("act", act))

    def _said_first(self, node, shown: str) -> None:
        self._act_of(node, "words")

    def _chips_first(self, node, shown: str) -> None:
        self._act_of(node, "chips")

    def _chips(self, node) -> tuple[list[Decimal], str]:
        out: list[Decimal] = []
        told: list[str] = []
        check: Decimal | None = None
        for g in node.children:
            if not hasattr(g, "data"):
                continue
            toks = [c.value for c in g.children]
            kind = str(g.data)
            if kind == "chips_check":     # "(525)", ", 7,000 total": the chips' total as told, checked below
                check = next(t.value for t in toks if t.type == "AMOUNT")
                continue
            amounts = [t.value for t in toks if t.type == "AMOUNT"]
            count = next((int(t.value) for t in toks if t.type == "COUNT"), None)
            colour = next((t.value for t in toks if t.type == "COLOUR"), None)
            if kind == "chips_coloured":
                if count is None and amounts and amounts[0] == int(amounts[0]) and 1 <= amounts[0] <= 50:
                    count = int(amounts[0])          # "3 blacks"
                value = self.lex.colours[str(colour)]
                out += [value] * (count or 1)
                told.append(f"{count} {colour} ({_money(value)} each)")
            elif kind == "chips_counted":
                out += [amounts[0]] * (count or 1)
                told.append(f"{count} × {_money(amounts[0])}")
            elif kind == "chips_amount_in" and colour:
                value = self.lex.colours[colour]
                n = count or 1
                out += [value] * n
                told.append(f"{_money(amounts[0])} in {n} {colour}")
            else:
                total = amounts[0]
                made = _make_up(total, self.lex, count)
                out += made
                told.append(f"{_money(total)}" + ("" if len(made) == 1 and count == 1 else
                                                  f" (read as {len(made)} chips: the make-up was not told)"))
        if check is not None and sum(out, Decimal(0)) != check:
            raise ValueError(f"the chips told make {_money(sum(out, Decimal(0)))}, not {_money(check)}")
        return out, ", ".join(told)

    # -- stacks
    def _stack_amount(self, node, shown: str) -> None:
        who = self._actor(self._child(node, "actor"))
        toks = self._toks(node)
        amount = next(t.value for t in toks if t.type == "AMOUNT")
        behind = any(t.type == "BEHIND" and t.value in ("behind",) for t in toks)
        self.stacks[who] = ("behind", amount) if behind else ("has", amount)
        if who not in self.seen:
            self.seen.append(who)

    def _stack_more(self, node, shown: str) -> None:
        actor = self._child(node, "actor")
        who = self._actor(actor) if actor is not None else self.last_actor
        if who is not None:
            self.stacks.setdefault(who, ("more", None))
            if who not in self.seen:       # a person told only by his stack is in the hand
                self.seen.append(who)

    # -- when noticed, the question
    def _noticed(self, node, shown: str) -> None:
        self._when([t.value for t in node.scan_values(lambda v: hasattr(v, "type"))])

    def _noticed_before(self, node, shown: str) -> None:
        """"The dealer says it is too much before seat 4 acts": noticed before that seat acted on the act."""
        actors = [c for c in node.children if hasattr(c, "data") and str(c.data) == "actor"]
        who = self._actor(actors[-1])
        first = next((n for n, e in enumerate(self.events) if e[0] == "act"), None)
        if first is None:
            raise ValueError("noticed before a seat acted, but no act was told before it")
        later = [e for e in self.events[first + 1:] if e[0] == "action"]
        if any(e[1] == who for e in later):
            raise ValueError("noticed before a seat acted, but that seat's action was told after the act")
        self.noticed = "after_some_action" if later else "before_next_action"

    def _question(self, node, shown: str) -> None:
        self.question_from([t.value for t in node.scan_values(lambda v: hasattr(v, "type"))], shown)

    def question_from(self, terms: list, shown: str, parsed: bool = True) -> None:
        if shown == self.question:        # the same sentence read as two questions ("who ..., and what ...")
            return
        first = self.asked
        self.asked = None
        self._asked_in(terms, parsed)
        if self.asked is not None and first is None:
            self.last_actor = self.asked   # "seat 3 wants to raise again. Can he?": he is seat 3
        if first is not None:             # a second question ("and if he only calls, can seat 1 raise?"): the
            if self.asked not in (None, first):        # first question's seat is the one ruled on; one about
                self.told.unanswered.append(shown)     # another is said as not answered
            self.asked = first
            return
        self.question = shown
        self.told.question = shown

    def _asked_in(self, terms: list, parsed: bool) -> None:
        named = [t for t in terms if getattr(t, "type", None) in ("SEAT", "LETTER", "POSITION")]
        asks = [k for k, t in enumerate(terms) if getattr(t, "type", None) == "ASKS"]
        if asks:      # "if seat 6 only calls, can seat 1 raise?": the one after the last asking word
            terms = terms[asks[-1]:] + terms[:asks[-1]]
        for t in terms:
            ty = getattr(t, "type", None)
            if ty == "PRONOUN" and named:      # "Back on A: can he raise?": he is the one the question names
                t, ty = named[0], named[0].type
            if ty in ("SEAT", "LETTER", "POSITION", "PRONOUN"):
                key = {"SEAT": "seat", "LETTER": "letter", "POSITION": "pos"}.get(ty)
                self.asked = (key, t.value) if key else self.last_actor
                return
        if parsed and self.last_actor is not None and self.asked is None:   # "B wants to raise": the seat named
            self.asked = self.last_actor

    # -- the incident
    def finish(self) -> None:
        problems: list[Problem] = []
        told = self.told
        stop = [u for u in told.unread if u.matters]
        for u in stop:
            problems.append(_p(u.line, u.col, "I102",
                                    f"not read: {u.words} in \"{_clip(u.sentence)}\"",
                                    "say it in other words (e.g. 'seat 2 raises to 60', 'says \"call\" and puts "
                                    "out a black chip'), or leave it out if it does not matter"))
        for c in self.contradictions:
            problems.append(_p(1, 1, "I105", f"two games at once: {c}",
                                    "tell one game and one set of stakes"))
        if problems:
            raise ProblemsError(problems)
        acts = [e[1] for e in self.events if e[0] == "act"]
        actions = [e for e in self.events if e[0] == "action"]
        kill_told = bool(self.won_last or self.kill_leg is not None or self.kill_pots)
        if "structure" not in self.game and ("bet_sizes" in self.game or self.game.get("variant") in ("stud", "razz")
                                             or (kill_told and not self.events)):
            # a kill history: kill pots are played only at limits
            # "limits 600/1,200", "stud 10/20": a limit game by its words (stud and razz are dealt limit); the
            # read-as line says so
            self.game["structure"] = "fixed-limit"
            self.game_said["structure"] = ""
            self.limit_by_game = True
        if "structure" not in self.game:
            problems.append(_p(1, 1, "I102", "the betting was not told: no-limit, pot-limit or "
                                    "limit", "e.g. 'NL 2/5', 'PLO 1/2', '20/40 limit'"))
        if kill_told and self.events:
            # a kill history told beside a hand's betting: the incident holds one or the other (a betting dispute
            # in a killed hand is told by the kill posted): the history is named, not dropped
            for shown in self.kill_shown:
                problems.append(_p(1, 1, "I102", f"not read: the kill history in \"{_clip(shown)}\" beside the "
                                   "betting of a hand", "tell the kill pots on their own, or the kill posted this "
                                   "hand with the betting"))
        if (self.kill_words or kill_told) and not (kill_told and not self.events):
            # a kill game (or a high-low game) told with a hand's betting: whether the hand is killed, and at what
            # limits, changes the ruling and is not read yet
            for text, start, shown in self.kill_words:
                line, col = _place(told.text, start)
                problems.append(_p(line, col, "I102", f"not read: {text} in \"{_clip(shown)}\"",
                                   "say whether this hand is killed and at what limits"))
        if problems:
            raise ProblemsError(problems)
        if not acts and self.asked is None and not self.showdown and not kill_told:
            problems.append(_p(1, 1, "I102", "no dispute was told: no act and no question about "
                                    "a seat", "tell what the player said or did, e.g. 'seat 2 says raise and puts out "
                                    "three black chips', or ask about a seat: 'what can seat 3 do?'"))
        if problems:
            raise ProblemsError(problems)
        told.incident = _incident(self, acts, actions)


def _p(line: int, col: int, code: str, message: str, hint: str | None) -> Problem:
    return Problem(FILE, line, col, code, message, ("told",), hint)


def _clip(s: str, n: int = 120) -> str:
    return s if len(s) <= n else s[:n - 1] + "…"


def _num(x: Decimal) -> int | float | str:
    x = Decimal(x)
    return int(x) if x == int(x) else str(x)


def _money(x: Decimal) -> str:
    x = Decimal(x)
    return f"{int(x):,}" if x == int(x) else f"{x:,.2f}"


def _make_up(total: Decimal, lex: Lexicon, count: int | None) -> list[Decimal]:
    """Chips of the house's values that make the told amount, never a single chip unless one was told."""
    if count == 1:
        return [total]
    values = sorted(set(lex.colours.values()) | {Decimal(25000), Decimal(100000)}, reverse=True)
    out: list[Decimal] = []
    left = total
    for v in values:
        while left >= v and len(out) < 200:
            out.append(v)
            left -= v
    if left > 0:
        out.append(left)
    if len(out) == 1:          # one chip of that value is a reading the text did not give
        small = next((v for v in values if v < total and total % v == 0), None)
        if small is not None:
            out = [small] * int(total / small)
    return out


_STREETS = ("preflop", "flop", "turn", "river")
_STUD = ("third", "fourth", "fifth", "sixth", "seventh")


def _incident(story: _Story, acts: list[_Act], actions: list[tuple]) -> dict:
    """What was read in the incident format; nothing the text did not give is filled in, except a seat number for
    a person told by letter or position, which the read-as line shows."""
    g = story.game
    read = story.told.read_as
    game: dict[str, Any] = {}
    variant = g.get("variant")
    structure = g["structure"]
    if variant:
        game["variant"] = variant
    game["structure"] = structure
    if "setting" in g:
        game["setting"] = g["setting"]
    stud = variant in ("stud", "razz")
    if "stakes" in g:
        st = g["stakes"]
        if structure in ("fixed-limit", "spread-limit"):
            if len(st) >= 2:
                game["bet_sizes"] = st[:2]
                if not stud:
                    game["blinds"] = [_half(st[0]), st[0]]
        else:
            game["blinds"] = st[:2]
            if len(st) > 2:
                game["straddles"] = st[2:]
    if "bet_sizes" in g:
        game["bet_sizes"] = g["bet_sizes"][:2]
    for k in ("ante", "big_blind_ante", "bring_in"):
        if k in g:
            game[k] = g[k]
    if story.won_last or story.kill_leg is not None or story.kill_pots:
        return _kill_incident(story, game)      # the table's last pots: no hand in dispute (finish() saw to it)
    # where it happened
    street = story.street
    people = [(e[3] if e[2] in ("fold-to", "check-to") else e[1]) if e[0] == "action" else e[1].actor
              for e in story.events] + [story.asked]
    preflop_words = any(isinstance(k, tuple) and k[0] == "pos" and k[1] not in ("btn", "first")
                        for k in people) or any(e[2] in ("limp", "bring-in", "complete") for e in actions)
    first_told = next((e for e in actions if e[1] is not None), None)
    if first_told is not None and first_told[2] == "raise" and "blinds" in game:
        preflop_words = True      # "A raises to 125" with nothing bet before it: the blinds were the bet
    street_said = street is not None
    if street is None and stud and story.upcards:
        street = "third"            # the upcards that decide who brings it in: the first round
    if street is None and story.showdown:
        street = "seventh" if stud else "river"      # who shows first: the hand's last round
    if street is None:
        street = ("third" if stud else "preflop") if preflop_words else ("fourth" if stud else "flop")
    # seats
    keys: list[Any] = []
    for e in story.events:
        who = (e[3] if e[2] in ("fold-to", "check-to") else e[1]) if e[0] == "action" else e[1].actor
        if who is not None and who not in keys:
            keys.append(who)
    if story.asked is not None and story.asked not in keys:
        keys.append(story.asked)
    for k in story.seen:
        if k not in keys:
            keys.append(k)
    seats, button, named = _seats(keys, story, street)
    def seat(k):
        return seats[k]
    players = sorted(set(seats.values()) | ({button} if button and (("pos", "btn") in seats or not any(
        k[0] == "pos" for k in seats)) and not (story.listed and button not in story.listed
                                               and ("pos", "btn") not in keys) else set()))
    if street == "preflop" and "blinds" in game and not stud and button is not None \
            and not any(k[0] in ("seat", "pos") for k in seats):
        players = sorted(set(players) | {1, 2})     # letters told preflop act after the blinds, seats 1 and 2
    if len(players) < 2:
        players = sorted(set(players) | {max(players + [0]) + 1})
    # actions and the act
    out_actions: list[dict] = []
    after: list[dict] = []
    disputed: dict[str, Any] | None = None
    stacks: dict[int, Any] = {p: None for p in players}
    for k, (kind, amount) in story.stacks.items():
        if k in seats and kind in ("has", "behind") and amount is not None:
            stacks[seats[k]] = amount if kind == "has" else None
    told_streets = [w for w in story.where if w is not None]
    first_street = story.where[0] if story.where and story.where[0] else street
    whole = len(set(told_streets) | {first_street}) > 1
    order_of = _STUD if stud else _STREETS
    if whole and any(order_of.index(a) > order_of.index(b) for a, b in zip(told_streets, told_streets[1:])
                     if a in order_of and b in order_of):
        raise ProblemsError([_p(1, 1, "I105", "the streets were told out of order",
                                "tell the hand from its first street to its last")])
    streets: list[dict] = []
    cur: str | None = None
    faced = Decimal(0)
    put: dict[int, Decimal] = {}
    earlier: dict[int, Decimal] = {}
    out: set[int] = set()          # folded or all in: not to act again
    told_actions: list[str] = []

    def open_street(name: str) -> list:
        nonlocal cur, faced, put
        for seat_no, amount in put.items():
            earlier[seat_no] = earlier.get(seat_no, Decimal(0)) + amount
        cur, put = name, {}
        faced = Decimal(str(game["blinds"][1])) if name == "preflop" and "blinds" in game else Decimal(0)
        streets.append({"street": name, "actions": []})
        if whole:
            told_actions.append(name)
        return streets[-1]["actions"]

    here = open_street(first_street if whole else street)
    for e, told_on in zip(story.events, story.where):
        if whole and told_on is not None and told_on != cur:
            while cur != told_on:      # a street with nothing told on it is left as it is: no actions
                nxt = order_of[order_of.index(cur) + 1] if cur in order_of and cur != order_of[-1] else told_on
                here = open_street(nxt)
        if e[0] == "action":
            _, who, verb, amount, allin, more = e
            if who is None:     # "checks it around", "everyone folds": each seat still to act
                if verb in ("fold-to", "check-to"):   # "folded to the cutoff": each seat before him folds
                    target = seat(amount)
                    ring = _order(players, button, street)
                    if cur == "preflop" and len(ring) > 2:
                        ring = ring[2:] + ring[:2]          # preflop the blinds act last
                    acted_now = {a["seat"] for a in here}
                    move = "fold" if verb == "fold-to" else "check"
                    for p in ring[:ring.index(target)] if target in ring else []:
                        if p not in out and p not in acted_now:
                            here.append({"seat": p, "action": move})
                            if move == "fold":
                                out.add(p)
                    told_actions.append(f"{'folded' if move == 'fold' else 'checked'} to {named[amount]}")
                    continue
                if verb in ("check-around",):
                    for p in _order(players, button, street):
                        if p not in out:
                            (after if disputed and not whole else here).append({"seat": p, "action": "check"})
                    told_actions.append("checked around")
                continue
            s = seat(who)
            item: dict[str, Any] = {"seat": s}
            if verb == "limp":
                verb = "call"
            if verb == "check-raise":     # he checked first this street, then raised
                if s not in {a["seat"] for a in here}:
                    here.insert(0, {"seat": s, "action": "check"})
                verb = "raise"
            if verb == "bet" and (faced > 0 and cur in ("preflop", "third")):
                verb = "raise"
            if verb == "raise" and faced == 0:
                verb = "bet"
            if allin:
                if amount is None:
                    verb = verb or ("raise" if faced else "bet")
                    item["action"] = verb if verb in ("bet", "raise", "call") else "raise"
                else:
                    total = amount + (put.get(s, 0) if more else 0)
                    item["action"] = "call" if total <= faced else ("raise" if faced else "bet")
                    item["to"] = _num(total)
                    stacks[s] = total + earlier.get(s, Decimal(0))
                out.add(s)
            else:
                item["action"] = verb
                if amount is not None and verb in ("bet", "raise", "call", "complete", "bring-in", "post"):
                    total = amount + (put.get(s, 0) if more else 0)
                    if verb == "call":
                        total = faced if more else total
                    item["to"] = _num(total)
            if item["action"] == "fold":
                out.add(s)
            if "to" in item:
                put[s] = Decimal(str(item["to"]))
                if item["action"] in ("bet", "raise", "complete", "bring-in", "post"):
                    faced = max(faced, put[s])
            elif item["action"] == "call":
                put[s] = faced
            (after if disputed and not whole else here).append(item)
            told_actions.append(_told_action(named[who], item, allin))
        else:
            act: _Act = e[1]
            if disputed is not None and act.said is not None and not any(act.motions) and act.actor != acts[0].actor \
                    and not hasattr(parse_declaration(act.said), "kind"):
                # another player's words that declare no action ('C says "string raise"'): his objection, kept
                # word for word as a claim, never a fact of the incident
                story.told.claims.append(f"{named[act.actor]} says '{act.said}'")
                continue
            if disputed is not None:
                # a second act (words or chips) after the one in dispute: the incident holds one; it is named, never
                # dropped (told as an action, "seat 2 raises to 60", it is read as what happened after)
                said = f"'{act.said}'" if act.said is not None else "chips"
                raise ProblemsError([_p(1, 1, "I102", f"two acts told: {named[act.actor]}'s ({said}) after "
                                        f"{named[acts[0].actor]}'s; one is read as the act in dispute",
                                        "tell the other as an action ('seat 2 raises to 60'), or ask about it "
                                        "on its own")])
            s = seat(act.actor)
            disputed = {"seat": s}
            if whole:
                disputed["at"] = {"street": cur, "after": len(here)}
            if act.said is not None:
                disputed["said"] = act.said
            motions = [m for m in act.motions if m]
            if len(motions) == 1:
                disputed["chips"] = [_num(c) for c in motions[0]]
            elif motions:
                disputed["motions"] = [[_num(c) for c in m] for m in motions]
            if act.said is not None and motions and act.order:
                disputed["words_first"] = act.order
            bits = [f"{named[act.actor]}"]
            if act.said is not None:
                bits.append(f"said '{act.said}'")
            if act.chips_told:
                bits.append(f"put out {act.chips_told}")
            if act.said is None and not act.chips_told:
                bits.append("acted")
            told_actions.append(" ".join(bits[:1]) + " " + " and ".join(bits[1:]))
    out_actions = streets[0]["actions"]
    if disputed is None and story.asked is not None and not story.showdown:
        disputed = {"seat": seats[story.asked]}
        told_actions.append(f"the question is about {named[story.asked]}")
    # the read-as line, in the floor's words
    read.append(_game_line(story, structure, variant))
    if not whole:
        read.append(street if street_said else f"{street} (the street was not told)")
    if story.pot is not None and not whole:
        read.append(f"pot {_money(story.pot)}")
    elif whole and story.pot is not None:
        read.append("the pot worked out from the actions (a count told along the way is not checked)")
    elif street not in ("preflop", "third") and not whole:
        read.append("pot before this street not told")
    seat_names = [f"{named[k]} is seat {seats[k]}" for k in keys if k[0] != "seat"] + [
        f"{_POSITION_NAMES[b]} read as seat {seats[('pos', b)]}" for b in ("sb", "bb")
        if ("pos", b) in seats and ("pos", b) not in keys and (street == "preflop" or whole)]
    button_told = ("pos", "btn") in seats
    if seat_names or (button and not stud):
        read.append(", ".join(seat_names + [f"button on seat {button}" if button_told or not button else
                                            f"button read as seat {button}"]))
    read.extend(told_actions)
    known_stacks = [f"seat {s} has {_money(v)}" for s, v in stacks.items() if v is not None]
    if known_stacks:
        read.append(", ".join(known_stacks))
    incident: dict[str, Any] = {"incident": "told", "note": story.told.text, "game": game}
    incident["players"] = {p: (_num(v) if v is not None else None) for p, v in stacks.items()}
    if whole:
        incident["streets"] = streets
    else:
        incident["street"] = street
        incident["actions"] = out_actions
    if not stud:
        incident["button"] = button
    if story.pot is not None and street not in ("preflop", "third") and not whole:
        incident["pot"] = _num(story.pot)
    if disputed is not None:
        incident["disputed"] = disputed
    if after:
        incident["after"] = after
    if stud and story.upcards:
        ups = {seats[k]: c for k, c in story.upcards.items()}
        if whole and streets and streets[0]["street"] == "third":
            streets[0]["upcards"] = ups
        elif not whole and street == "third":
            incident["upcards"] = ups
        else:
            raise ProblemsError([_p(1, 1, "I102", "upcards were told, but not on third street",
                                    "tell the upcards of the first round ('third street: seat 1 shows the king')")])
        read.append("upcards " + ", ".join(f"seat {n} {c}" for n, c in sorted(ups.items())))
    if story.showdown and disputed is None:      # the hand says who is in and who bet last (hand_says.py)
        incident["procedure"] = {"showdown": {}}
        read.append("the question: who shows first")
    if story.noticed and disputed is not None and ("said" in disputed or "chips" in disputed or "motions" in disputed):
        incident["noticed"] = story.noticed
        read.append("noticed before anyone acted on it" if story.noticed == "before_next_action" else
                    "noticed at once after the actions told after it")
    return incident


def _game_line(story: _Story, structure: str, variant: str | None) -> str:
    g = story.game
    name = " ".join(x for x in (_STRUCT_NAME.get(structure), _VARIANT_NAME.get(variant or "", "")) if x)
    stakes = g.get("stakes")
    line = name + (f" {'/'.join(_money(Decimal(str(x))) for x in stakes)}" if stakes else "")
    if "bet_sizes" in g and not stakes:
        line += f" {'/'.join(_money(Decimal(str(x))) for x in g['bet_sizes'])}"
    if "bring_in" in g:
        line += f", bring-in {g['bring_in']}"
    if "ante" in g:
        line += f", ante {g['ante']}"
    if "big_blind_ante" in g:
        line += f", big blind ante {g['big_blind_ante']}"
    if story.hilo:
        line += " high-low"
    if story.kill_kind is not None:
        line += _kill_name(story.kill_kind)
    line += f" {g['setting']}" if "setting" in g else ""
    if story.limit_by_game and (story.won_last or story.kill_leg is not None or story.kill_pots) \
            and "bet_sizes" not in g and variant not in ("stud", "razz"):
        return line.strip() + " (limit: kill pots are played at limits; the betting was not told)"
    return line.strip() + (" (limit by its limits or its game: no-limit or pot-limit was not told)"
                           if story.limit_by_game else "")


def _kill_params(kind: str | None) -> dict[str, str]:
    """The parameters a kill word of the lexicon sets ("kill.mode=required kill.size=half"): data, not code."""
    return dict(p.split("=", 1) for p in (kind or "").split())


def _kill_name(kind: str) -> str:
    words = {"kill.size=full": "full", "kill.size=half": "half", "kill.mode=required": "required",
             "kill.trigger=scoop_pot_size": "scoop"}
    return ", with a " + " ".join([words.get(p, p) for p in kind.split()] + ["kill"])


def _kill_incident(story: _Story, game: dict) -> dict:
    """A kill history told (the last pots, who held the kill button): the incident's table: section, with no hand
    in it. Nothing the text did not give is filled in: a pot's size, its blind money, a flop not told stay out
    (asked where they decide); the only reading added is a pot of only the blinds, whose size is the blinds."""
    read = story.told.read_as
    keys: list[Any] = []
    for k in story.won_last + ([story.kill_leg] if story.kill_leg is not None else []) + [
            w for p in story.kill_pots for w in p.get("winners", []) + ([p["kill"][0]] if "kill" in p else [])]:
        if k not in keys:
            keys.append(k)
    if any(k[0] == "pos" for k in keys):
        raise ProblemsError([_p(1, 1, "I102", "a kill history told by positions: the positions of which hand?",
                                "name the players of the last pots by seat ('seat 4 won the last pot')")])
    if any(not p.get("winners") for p in story.kill_pots):
        raise ProblemsError([_p(1, 1, "I102", "a killed pot was told without who won it",
                                "say who won the killed pot ('seat 4 killed it for $40 and wins it')")])
    seats, button, named = _seats(keys, story, "flop")
    said: list[str] = []
    pots: list[dict] = []
    if story.kill_pots:
        pots = [{"winners": [seats[w]]} for w in story.won_last]
        said += [f"{named[w]} won the pot before" for w in story.won_last]
    elif story.won_last:
        pots = [{"winners": [seats[w]]} for w in story.won_last]
        said += [f"{named[w]} won the last pot" for w in story.won_last]
    table: dict[str, Any] = {}
    if story.kill_leg is not None:
        table["kill_button"] = {"seat": seats[story.kill_leg], "legs": 1}
        said.append(f"{named[story.kill_leg]} held the kill button with a leg up going into the last pot")
    blinds = game.get("blinds")
    for n, p in enumerate(story.kill_pots):
        winners = sorted(seats[w] for w in p["winners"])
        pot: dict[str, Any] = {"winners": winners}
        bits = [" and ".join(named[w] for w in p["winners"]) + (" split" if p.get("split") else
                                                                " scooped" if p.get("scooped") else " won")]
        bits[0] += " the last pot" if n == len(story.kill_pots) - 1 else " a pot"
        if "amount" in p:
            pot["amount"] = _num(p["amount"])
            bits.append(_money(p["amount"]))
        if p.get("blinds_only"):
            pot["flop"] = False
            if blinds and "ante" not in game and "big_blind_ante" not in game and len(blinds) == 2:
                total = sum((Decimal(str(b)) for b in blinds), Decimal(0))
                pot["amount"] = pot["blind_money"] = _num(total)
                bits.append(f"only the blinds ({_money(total)}), no flop")
            else:
                bits.append("only the blinds, no flop")
        elif "flop" in p:
            pot["flop"] = p["flop"]
            bits.append("with a flop" if p["flop"] else "with no flop")
        if p.get("scooped"):
            pot["scooped"] = True
        if p.get("split"):
            pot["split"] = True
        if "kill" in p:
            pot["kill"] = {"seat": seats[p["kill"][0]], "amount": _num(p["kill"][1])}
            bits.append(f"killed by {named[p['kill'][0]]} for {_money(p['kill'][1])}")
        pots.append(pot)
        said.append(", ".join(bits))
    if pots:
        table["pots"] = pots
    if story.hilo or any(p.get("scooped") for p in pots):
        table["split_game"] = True
    players = sorted(set(seats.values()) | ({button} if button else set()))
    read.append(_game_line(story, game["structure"], game.get("variant")))
    read.append(f"button read as seat {button} (the button does not decide who kills)")
    read.extend(said)
    read.append("the question: the next hand's kill")
    incident: dict[str, Any] = {"incident": "told", "note": story.told.text, "game": game, "button": button,
                                "players": {p: None for p in players}, "table": table}
    params = _kill_params(story.kill_kind)
    if params:
        incident["params"] = params
    return incident


_STRUCT_NAME = {"no-limit": "no-limit", "pot-limit": "pot-limit", "fixed-limit": "limit", "spread-limit": "spread"}
_VARIANT_NAME = {"holdem": "hold'em", "omaha": "Omaha", "stud": "stud", "razz": "razz", "lowball": "lowball",
                 "draw": "draw"}


def _half(x) -> Any:
    d = Decimal(str(x)) / 2
    return int(d) if d == int(d) else str(d)


def _told_action(who: str, item: dict, allin: bool) -> str:
    verb = {"bet": "bet", "raise": "raised to", "call": "called", "check": "checked", "fold": "folded",
            "complete": "completed to", "bring-in": "brought it in for", "post": "posted"}[item["action"]]
    if allin:
        return f"{who} all in" + (f" for {_money(Decimal(str(item['to'])))}" if "to" in item else
                                  " (the amount not told)")
    if "to" in item:
        return f"{who} {verb} {_money(Decimal(str(item['to'])))}".replace("raised to", "raised to")
    return f"{who} {verb.replace(' to', '').replace(' for', '')}"


def _order(players: list[int], button: int | None, street: str) -> list[int]:
    if button is None:
        return players
    return [p for p in players if p > button] + [p for p in players if p <= button]


_FROM_BUTTON = {"sb": 1, "bb": 2, "utg": 3, "utg+1": 4, "utg+2": 5}    # seats after the button, in turn


def _seats(keys: list, story: _Story, street: str) -> tuple[dict, int | None, dict]:
    """Seat numbers for the people told: seat numbers as told; letters A, B, C... in turn order; positions at
    their places round a table of nine (the button on 9). Returns the seats, the button and each one's name."""
    seats: dict[Any, int] = {}
    named: dict[Any, str] = {}
    for k in keys:
        named[k] = (f"seat {k[1]}" if k[0] == "seat" else k[1] if k[0] == "letter" else f"the {k[1]}"
                    if k[0] == "role" else
                    _POSITION_NAMES.get(k[1], str(k[1])))
    for k, other in story.same.items():
        if k[0] == "pos" and other[0] == "seat":
            seats[k] = other[1]
    button: int | None = None
    explicit = [k for k in keys if k[0] == "seat"]
    for k in explicit:
        seats[k] = k[1]
    if ("pos", "btn") in seats:
        button = seats[("pos", "btn")]
    positions = [k for k in keys if k[0] == "pos" and k not in seats]
    # letters A, B, C... in their order; names (longer than a letter) in the order they were told, after them
    letters = [k for k in keys if k[0] == "role"] + sorted((k for k in keys if k[0] == "letter" and len(k[1]) == 1),
                                                           key=lambda k: k[1]) + \
        [k for k in keys if k[0] == "letter" and len(k[1]) > 1]
    if positions and not explicit:
        if street == "preflop":        # the blinds are dealt in before anyone acts
            seats.setdefault(("pos", "sb"), 1)
            seats.setdefault(("pos", "bb"), 2)
        for k in positions:
            p = "utg" if k[1] == "first" and street in ("preflop", "third") else k[1]
            seats[k] = POSITION_SEATS.get(p, 3)
        button = 9
        free = [s for s in (3, 4, 5, 6, 7, 8) if s not in seats.values()]
        for k, s in zip(letters, free):
            seats[k] = s
    elif positions and explicit:
        from rulings.incident.shorthand import Unread as ShortUnread, position_seat
        occupied = sorted(set(seats.values()))
        bb = seats.get(("pos", "bb"))
        if button is None and bb is not None and ("pos", "sb") in positions and bb - 1 >= 1 \
                and all(s > bb - 1 for s in occupied):
            # "the small blind folds, the big blind (seat 2) calls": the small blind is the seat just before the
            # big blind and the button the highest seat told after them (the read-as line shows both)
            seats[("pos", "sb")] = bb - 1
            positions = [k for k in positions if k != ("pos", "sb")]
            button = max(occupied) + 1
        for k in positions:
            try:
                seats[k] = position_seat(k[1], button, occupied)
            except ShortUnread:
                raise ProblemsError([_p(1, 1, "I102",
                                             f"'{named[k]}' names no seat: the button's seat was not told",
                                             "give the seat numbers, or the button's seat "
                                             "('the button is seat 6')")]) from None
    else:
        for n, k in enumerate(letters):
            seats[k] = n + 1 if street not in ("preflop",) else n + 3
    for k in keys:
        if k not in seats:
            raise ProblemsError([_p(1, 1, "I102", f"'{named[k]}' names no seat",
                                         "name the player by seat number or position")])
    paired = [(k[1], other[1]) for k, other in story.same.items() if k[0] == "pos" and other[0] == "seat"
              and k[1] in _FROM_BUTTON]
    first_act = next((e[1] for e in story.events if e[0] == "action" and e[1] is not None), None)
    if button is None and not paired and street == "preflop" and explicit and not positions and not letters \
            and first_act is not None and first_act[0] == "seat":
        # "seat 2 raises to 2,000 preflop": the first seat told acting is first to act; the blinds are the two
        # seats before him, the button the one before them (the read-as line shows it)
        told_seats = sorted(set(seats.values()))
        f, top = first_act[1], max(told_seats)
        ring = [x for x in range(f - 1, 0, -1)] + [top + 2, top + 1] if f > 1 else [top + 2, top + 1]
        free = [x for x in ring if x not in told_seats]
        if len(free) >= 2:
            bb, sb = free[0], free[1]
            if bb in range(1, f) and sb in range(1, f) or bb < f <= top < sb or (bb > top and sb > top):
                seats[("pos", "bb")], seats[("pos", "sb")] = bb, sb
                before = [x for x in range(sb - 1, 0, -1)] + [top + 3] if sb <= top else [top]
                button = before[0]
    if button is None and paired:      # "UTG (seat 3)": the button and the blinds are counted back from him
        pos, at = paired[0]
        back = _FROM_BUTTON[pos]
        taken = sorted(set(seats.values()))
        button = at - back if at - back >= 1 else max(taken) + 1
        if street == "preflop":
            for blind, step in (("sb", 1), ("bb", 2)):
                if ("pos", blind) not in seats and step < back:
                    seat_no = at - back + step
                    seats[("pos", blind)] = seat_no if seat_no >= 1 else button + step
    if button is None:
        taken = sorted(set(seats.values()))
        if street in ("preflop",) and letters and not explicit:
            button = max(taken)
        else:
            first = next((seats[e[1]] for e in story.events if e[0] == "action" and e[1] is not None), None)
            told_first = story.same.get(("pos", "first"), story.turn_told)
            if first is None and told_first in seats:
                first = seats[told_first]      # "seat 1 (first to act)", "before seat 1 acts, seat 6 folds"
            if first is None:
                first = next((seats[e[1].actor] for e in story.events if e[0] == "act"), taken[0])
            before = [s for s in taken if s < first]
            button = before[-1] if before else taken[-1]
            if button == first:
                button = first - 1 if first > 1 else max(taken) + 1
    return seats, button, named
