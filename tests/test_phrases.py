"""What players say at the table, in context, read the way the rules read it.

Each row is a phrase said in a known spot (structure, setting, blinds, pot, the
bet faced, the stack) and what the whole path - incident, reader, facts, the
standard book's rules - must make of it: the rule that settles it, the numbers
it gives (in the game's units), and the inventory key that rule stands on.
Words the reader cannot settle must come back as a question, never a guess.

The spots and numbers come from the sources: Robert's Rules' $100 pot and $50
bet, the TDA 2024 addendum's 200-400, 250-500 and 500-1,000 examples, BARGE's
PLO 100/200 pot raise, the encyclopedia's $10 pot and the fixed-limit games.
"""
from __future__ import annotations

import pytest

from rulings.incident import incident_from_text
from rulings.money import to_minor
from rulings.ruling.decide import rule_on

# --- the spots ---------------------------------------------------------------------------------------------
# name: (incident head, the seat that speaks). Amounts are in the game's units.
_NL12 = "game: {structure: no-limit, blinds: [1, 2]}\nbutton: 3\nplayers: {1: 1000, 2: 1000, 3: 1000}\nstreet: flop\npot: 100\n"
_NL510 = "game: {structure: no-limit, blinds: [5, 10]}\nbutton: 3\nplayers: {1: 3000, 2: 3000, 3: 3000}\n"
_T500 = ("game: {structure: no-limit, setting: tournament, blinds: [500, 1000]}\nbutton: 3\n"
         "players: {1: 50000, 2: 50000, 3: 50000}\nstreet: flop\npot: 6000\n")
_T200 = ("game: {structure: no-limit, setting: tournament, blinds: [200, 400]}\nbutton: 3\n"
         "players: {1: 50000, 2: 50000, 3: 50000}\nstreet: flop\n")
_T4WAY = ("game: {structure: no-limit, setting: tournament, blinds: [500, 1000]}\nbutton: 4\n"
          "players: {1: 50000, 2: 50000, 3: 50000, 4: 50000}\nstreet: flop\npot: 4000\n")
_PL12 = "game: {structure: pot-limit, blinds: [1, 2]}\nbutton: 3\nstreet: flop\npot: 100\n"
_PLO = ("game: {variant: omaha, structure: pot-limit, setting: tournament, blinds: [100, 200]}\nbutton: 4\n"
        "players: {1: 20000, 2: 20000, 3: 20000, 4: 20000}\nstreet: preflop\n")
_FL = "game: {structure: fixed-limit, blinds: [1, 2], bet_sizes: [2, 4]}\nbutton: 3\nplayers: {1: 200, 2: 200, 3: 200}\n"
_FL20 = ("game: {structure: fixed-limit, blinds: [10, 20], bet_sizes: [20, 40]}\nbutton: 3\n"
         "players: {1: 1000, 2: 1000, 3: 1000}\nstreet: flop\npot: 60\n")

SPOTS = {
    # cash $1/$2 no-limit, flop, $100 pot
    "nl-open": (_NL12, 1),
    "nl-50": (_NL12 + "actions: [{seat: 1, action: bet, to: 50}]\n", 2),
    "nl-100": (_NL12 + "actions: [{seat: 1, action: bet, to: 100}]\n", 2),
    "nl-100-150": (_NL12.replace("2: 1000", "2: 150") + "actions: [{seat: 1, action: bet, to: 100}]\n", 2),
    # cash $5/$10: a $500 turn bet into $800, a $600 river bet into $900
    "nl-500": (_NL510 + "street: turn\npot: 800\nactions: [{seat: 1, action: bet, to: 500}]\n", 2),
    "nl-600": (_NL510 + "street: river\npot: 900\nactions: [{seat: 1, action: bet, to: 600}]\n", 2),
    # cash $0.50/$1: a game whose chips make cents
    "nl-cents": ("game: {structure: no-limit, blinds: [0.50, 1]}\nbutton: 3\nplayers: {1: 200, 2: 200, 3: 200}\n"
                 "street: flop\npot: 40\n", 1),
    # tournament 500-1,000, flop, 6,000 pot
    "t-open": (_T500, 1),
    "t-1000": (_T500 + "actions: [{seat: 1, action: bet, to: 1000}]\n", 2),
    "t-800": (_T200 + "pot: 1200\nactions: [{seat: 1, action: bet, to: 800}]\n", 2),
    "t-2000": (_T500 + "actions: [{seat: 1, action: bet, to: 2000}]\n", 2),
    # tournament 1,000-2,000 heads-up, a 6,000 turn bet into 6,000
    "t-hu": ("game: {structure: no-limit, setting: tournament, blinds: [1000, 2000]}\nbutton: 2\n"
             "players: {1: 80000, 2: 80000}\nstreet: turn\npot: 6000\nactions: [{seat: 1, action: bet, to: 6000}]\n", 2),
    # TDA addendum 51: four-way, an 8,000 opening bet; or 2,000 raised to 8,000
    "t-open-8000": (_T4WAY + "actions: [{seat: 1, action: bet, to: 8000}]\n", 2),
    "t-raised-8000": (_T4WAY + "actions: [{seat: 1, action: bet, to: 2000}, {seat: 2, action: raise, to: 8000}]\n", 3),
    # TDA 2024 rule 57: NLHE 200-400 with 4,000 or 5,000 in the pot; a short stack of 3,000
    "t57-4000": (_T200 + "pot: 4000\n", 1),
    "t57-5000": (_T200 + "pot: 5000\n", 1),
    "t57-short": (_T200.replace("{1: 50000", "{1: 3000") + "pot: 5000\n", 1),
    "t57-400": (_T200 + "pot: 4000\nactions: [{seat: 1, action: bet, to: 400}]\n", 2),
    # TDA addendum 43/45: 250-500, a raise to 1,100 before the flop (minimum re-raise 1,700)
    "t-1100": ("game: {structure: no-limit, setting: tournament, blinds: [250, 500]}\nbutton: 4\n"
               "players: {1: 20000, 2: 20000, 3: 20000, 4: 20000}\nstreet: preflop\n"
               "actions: [{seat: 3, action: raise, to: 1100}]\n", 4),
    # TDA addendum 43: 100-200, 600 raised to 1,600 (minimum 2,600)
    "t-1600": ("game: {structure: no-limit, setting: tournament, blinds: [100, 200]}\nbutton: 4\n"
               "players: {1: 40000, 2: 40000, 3: 40000, 4: 40000}\nstreet: flop\npot: 1000\n"
               "actions: [{seat: 1, action: bet, to: 600}, {seat: 2, action: raise, to: 1600}]\n", 3),
    # Robert's Rules pot-limit: $100 pot, $50 bet; with $1,000, $251, $250 or $249 behind
    "pl-open": (_PL12 + "players: {1: 1000, 2: 1000, 3: 1000}\n", 1),
    "pl-50": (_PL12 + "players: {1: 1000, 2: 1000, 3: 1000}\nactions: [{seat: 1, action: bet, to: 50}]\n", 2),
    "pl-50-251": (_PL12 + "players: {1: 1000, 2: 251, 3: 1000}\nactions: [{seat: 1, action: bet, to: 50}]\n", 2),
    "pl-50-250": (_PL12 + "players: {1: 1000, 2: 250, 3: 1000}\nactions: [{seat: 1, action: bet, to: 50}]\n", 2),
    "pl-50-249": (_PL12 + "players: {1: 1000, 2: 249, 3: 1000}\nactions: [{seat: 1, action: bet, to: 50}]\n", 2),
    # the encyclopedia's $10 pot: open, then a $10 bet, then $10 raised to $40
    "pl-10": ("game: {structure: pot-limit, blinds: [1, 2]}\nbutton: 3\nplayers: {1: 1000, 2: 1000, 3: 1000}\n"
              "street: flop\npot: 10\n", 1),
    "pl-10-10": ("game: {structure: pot-limit, blinds: [1, 2]}\nbutton: 3\nplayers: {1: 1000, 2: 1000, 3: 1000}\n"
                 "street: flop\npot: 10\nactions: [{seat: 1, action: bet, to: 10}]\n", 2),
    "pl-10-40": ("game: {structure: pot-limit, blinds: [1, 2]}\nbutton: 3\nplayers: {1: 1000, 2: 1000, 3: 1000}\n"
                 "street: flop\npot: 10\nactions: [{seat: 1, action: bet, to: 10}, {seat: 2, action: raise, to: 40}]\n", 3),
    # PLO 100-200 tournament: first in (TDA 54-B), or after the cutoff made it 500 (BARGE)
    "plo-first": (_PLO, 3),
    "plo-500": (_PLO + "actions: [{seat: 3, action: raise, to: 500}]\n", 4),
    # PLO 500-1,000, a 10,500 pot on the turn (TDA addendum 52-B)
    "plo-10500": ("game: {variant: omaha, structure: pot-limit, setting: tournament, blinds: [500, 1000]}\nbutton: 3\n"
                  "players: {1: 60000, 2: 60000, 3: 60000}\nstreet: turn\npot: 10500\n", 1),
    # Robert's Rules PL rule 5: $5/$10, the small blind counted as a big blind
    "pl-510-sb": ("game: {structure: pot-limit, blinds: [5, 10]}\nbutton: 4\n"
                  "players: {1: 1000, 2: 1000, 3: 1000, 4: 1000}\nstreet: preflop\n"
                  "params: {pot_limit.sb_counts_as_bb: true}\n", 3),
    # fixed limit $2/$4 (flop, turn) and $20/$40
    "fl-open": (_FL + "street: flop\npot: 12\n", 1),
    "fl-2": (_FL + "street: flop\npot: 12\nactions: [{seat: 1, action: bet, to: 2}]\n", 2),
    "fl-turn": (_FL + "street: turn\npot: 20\n", 1),
    "fl-turn-4": (_FL + "street: turn\npot: 20\nactions: [{seat: 1, action: bet, to: 4}]\n", 2),
    "fl20-open": (_FL20, 1),
    "fl20-20": (_FL20 + "actions: [{seat: 1, action: bet, to: 20}]\n", 2),
    # the same $100 bet, with chips put out as well (words first)
    "nl-100+200": (_NL12 + "actions: [{seat: 1, action: bet, to: 100}]\n", 2, "chips: [100, 100], words_first: words"),
    "nl-100+100": (_NL12 + "actions: [{seat: 1, action: bet, to: 100}]\n", 2, "chips: [100], words_first: words"),
    "nl-100+50": (_NL12 + "actions: [{seat: 1, action: bet, to: 100}]\n", 2, "chips: [25, 25], words_first: words"),
    "pl-50+500": (_PL12 + "players: {1: 1000, 2: 1000, 3: 1000}\nactions: [{seat: 1, action: bet, to: 50}]\n", 2,
                  "chips: [500], words_first: words"),
    # a tournament whose chips move in 25s
    "t-unit25": (_T500.replace("blinds: [500, 1000]", "blinds: [500, 1000], betting_unit: 25"), 1),
    # house books that define room slang for amounts
    "t-dime": (_T500 + "params: {amount_words.dime: 1000, amount_words.nickel: 5000}\n", 1),
}

# --- the phrases ---------------------------------------------------------------------------------------------
# (spot, phrase, rule that settles it, its numbers, the inventory key it stands on).
# Numbers: {"wager_to": n} or another effect of that rule; "derived" means the rule derives wager_to
# rather than ruling (a legal amount needs no ruling beyond being read). Rule "?" means the words must
# come back as a question containing the given text.
OFFICIAL = [
    ("nl-open", "check", "declarations.tap-is-check", {"wager_to": 0}, "TDA-2024-3"),
    ("nl-open", "I check", "declarations.tap-is-check", {"wager_to": 0}, "TDA-2024-3"),
    ("nl-open", "checking", "declarations.tap-is-check", {"wager_to": 0}, "TDA-2024-3"),
    ("nl-open", "knock knock", "declarations.tap-is-check", {"wager_to": 0}, "RRP-BR-RAP"),
    ("nl-open", "I'll tap", "declarations.tap-is-check", {"wager_to": 0}, "RRP-BR-RAP"),
    ("nl-open", "call", "declarations.call-with-no-bet-is-check", {"wager_to": 0}, "TDA-2024-55"),
    ("nl-open", "I call", "declarations.call-with-no-bet-is-check", {"wager_to": 0}, "TDA-2024-55"),
    ("nl-open", "raise", "declarations.raise-with-no-bet-is-bet", {"min_raise_to": 2}, "TDA-2024-55"),
    ("nl-open", "I raise", "declarations.raise-with-no-bet-is-bet", {"min_raise_to": 2}, "TDA-2024-55"),
    ("nl-open", "fold", "declarations.fold-not-facing-bet", None, "TDA-2024-58"),
    ("nl-open", "I fold", "declarations.fold-not-facing-bet", None, "TDA-2024-58"),
    ("nl-open", "muck it", "declarations.nonstandard-term", None, "TDA-2024-3"),
    ("nl-50", "call", "declarations.call-commits-full-amount", {"wager_to": 50, "to_call": 50}, "TDA-2024-51A"),
    ("nl-50", "I call", "declarations.call-commits-full-amount", {"wager_to": 50}, "TDA-2024-51A"),
    ("nl-50", "calling", "declarations.call-commits-full-amount", {"wager_to": 50}, "TDA-2024-51A"),
    ("nl-50", "Call.", "declarations.call-commits-full-amount", {"wager_to": 50}, "TDA-2024-51A"),
    ("nl-50", "I'm in", "declarations.call-commits-full-amount", {"wager_to": 50}, "TDA-2024-51A"),
    ("nl-50", "I'll play", "declarations.nonstandard-term", None, "TDA-2024-57"),
    ("nl-50", "I'll see it", "declarations.call-commits-full-amount", {"wager_to": 50}, "TDA-2024-51A"),
    ("nl-50", "check", "declarations.check-facing-bet", {"to_call": 50}, "TDA-2024-55"),
    ("nl-50", "tap", "declarations.check-facing-bet", {"to_call": 50}, "TDA-2024-55"),
    ("nl-50", "fold", "declarations.verbal-binds", None, "RRP-BR-VERBAL"),
    ("nl-50", "folding", "declarations.verbal-binds", None, "WIKI-DECL-1"),
    ("nl-50", "raise", "declarations.raise-commits-minimum", {"min_raise_to": 100}, "TDA-2024-51A"),
    ("nl-50", "re-raise", "declarations.raise-commits-minimum", {"min_raise_to": 100}, "TDA-2024-51A"),
    ("nl-50", "I raise", "declarations.raise-commits-minimum", {"min_raise_to": 100}, "TDA-2024-51A"),
    ("nl-50", "bump it", "declarations.raise-commits-minimum", {"min_raise_to": 100}, "TDA-2024-51A"),
    ("nl-50", "pot", "declarations.pot-in-no-limit", {"min_raise_to": 100}, "TDA-2024-54D"),
    ("nl-50", "I bet the pot", "declarations.pot-in-no-limit", {"min_raise_to": 100}, "TDA-2024-54D"),
    ("nl-50", "all in", "declarations.all-in-is-whole-stack", {"wager_to": 1000}, "TDA-2024-3"),
    ("nl-50", "I'm all-in", "declarations.all-in-is-whole-stack", {"wager_to": 1000}, "TDA-2024-3"),
    ("nl-50", "shove", "declarations.all-in-is-whole-stack", {"wager_to": 1000}, "WIKI-ALLIN-1"),
    ("nl-open", "all in", "declarations.all-in-is-whole-stack", {"wager_to": 1000}, "TDA-2024-3"),
    ("nl-open", "jam", "declarations.nonstandard-term", None, "TDA-2024-3"),
]

TOTALS = [   # TDA 2024 rule 43-B: "raise" plus an amount is the total; "more", "by", "on top" add it
    ("nl-100", "raise to 300", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "raise 300", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "raise, three hundred", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "raise to $300", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "raise 300 dollars", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "raise to 3 hundred", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "raise up to 300", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "make it 300", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "make it three hundred", "declarations.nonstandard-term", None, "TDA-2024-3"),
    ("nl-100", "bump it to 300", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "re-raise to four hundred", "wagers.declared-amount-is-total", {"derived": 400}, "TDA-2024-43B"),
    ("nl-100", "raise by 200", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "raise 200 more", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "raise another two hundred", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "raise 200 on top", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "raise two hundred on top", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "raise to 200", "wagers.declared-amount-is-total", {"derived": 200}, "TDA-2024-43B"),
    ("nl-100", "raise 100 more", "wagers.declared-amount-is-total", {"derived": 200}, "TDA-2024-43B"),
    ("nl-100", "three hundred", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-40BC"),
    ("nl-100", "$250", "wagers.declared-amount-is-total", {"derived": 250}, "TDA-2024-40BC"),
    ("nl-100", "two fifty", "wagers.declared-amount-is-total", {"derived": 250}, "TDA-2024-40BC"),
    ("nl-100", "raise to two-fifty", "wagers.declared-amount-is-total", {"derived": 250}, "TDA-2024-43B"),
    ("nl-open", "bet fifty", "wagers.declared-amount-is-total", {"derived": 50}, "TDA-2024-43B"),
    ("nl-open", "bet 75", "wagers.declared-amount-is-total", {"derived": 75}, "TDA-2024-43B"),
    ("nl-open", "bet five", "wagers.declared-amount-is-total", {"derived": 5}, "TDA-2024-43B"),
    ("nl-open", "bet a hundred", "wagers.declared-amount-is-total", {"derived": 100}, "TDA-2024-43B"),
    ("nl-open", "one twenty-five", "wagers.declared-amount-is-total", {"derived": 125}, "TDA-2024-40BC"),
    ("nl-open", "bet twelve fifty", "declarations.amount-over-stack-is-all-in", {"wager_to": 1000}, "WIKI-TS-1"),
    ("t-2000", "raise, eight thousand", "wagers.declared-amount-is-total", {"derived": 8000}, "TDA-2024-43B"),
    ("t-2000", "raise to 8k", "wagers.declared-amount-is-total", {"derived": 8000}, "TDA-2024-43B"),
    ("t-2000", "raise 6,000 more", "wagers.declared-amount-is-total", {"derived": 8000}, "TDA-2024-43B"),
    ("t-2000", "raise six thousand on top", "wagers.declared-amount-is-total", {"derived": 8000}, "TDA-2024-43B"),
    ("t-2000", "raise to seventy-five hundred", "wagers.declared-amount-is-total", {"derived": 7500}, "TDA-2024-43B"),
    ("t-open", "one thousand", "wagers.declared-amount-is-total", {"derived": 1000}, "TDA-2024-40BC"),
    ("t-open", "bet 2k", "wagers.declared-amount-is-total", {"derived": 2000}, "TDA-2024-43B"),
    ("t-open", "bet 2.5k", "wagers.declared-amount-is-total", {"derived": 2500}, "TDA-2024-43B"),
    ("t-open", "bet 2 thousand", "wagers.declared-amount-is-total", {"derived": 2000}, "TDA-2024-43B"),
    ("t-open", "bet two grand", "wagers.declared-amount-is-total", {"derived": 2000}, "TDA-2024-43B"),
    ("t-open", "bet two and a half thousand", "wagers.declared-amount-is-total", {"derived": 2500}, "TDA-2024-43B"),
    ("t-open", "bet two and a half k", "wagers.declared-amount-is-total", {"derived": 2500}, "TDA-2024-43B"),
    ("t-open", "bet one and a half k", "wagers.declared-amount-is-total", {"derived": 1500}, "TDA-2024-43B"),
    ("t-open", "bet twenty-five hundred", "wagers.declared-amount-is-total", {"derived": 2500}, "TDA-2024-43B"),
    ("t-open", "bet two thousand five hundred", "wagers.declared-amount-is-total", {"derived": 2500}, "TDA-2024-43B"),
    ("t-open", "bet one thousand and fifty", "wagers.declared-amount-is-total", {"derived": 1050}, "TDA-2024-43B"),
    ("t-open", "twelve fifty", "wagers.declared-amount-is-total", {"derived": 1250}, "TDA-2024-40BC"),
    ("t-open", "bet twelve-fifty", "wagers.declared-amount-is-total", {"derived": 1250}, "TDA-2024-43B"),
    ("t-open", "bet half a k... no, a thousand", "declarations.first-declaration-binds", None, "WIKI-DECL-1"),
    ("t-open", "bet 1.5 thousand", "wagers.declared-amount-is-total", {"derived": 1500}, "TDA-2024-43B"),
    ("t-open", "bet 3 grand", "wagers.declared-amount-is-total", {"derived": 3000}, "TDA-2024-43B"),
    ("t-dime", "bet a dime", "wagers.declared-amount-is-total", {"derived": 1000}, "TDA-2024-43B"),
    ("t-unit25", "bet twelve twenty-five", "wagers.declared-amount-is-total", {"derived": 1225}, "TDA-2024-43B"),
    ("t-unit25", "bet 1,275", "wagers.declared-amount-is-total", {"derived": 1275}, "TDA-2024-43B"),
    ("t-dime", "bet a nickel", "wagers.declared-amount-is-total", {"derived": 5000}, "TDA-2024-43B"),
    ("nl-open", "bet half the pot", "wagers.declared-amount-is-total", {"derived": 50}, "TDA-2024-43B"),
    ("nl-open", "half pot", "declarations.nonstandard-term", None, "TDA-2024-57"),
    ("pl-open", "half pot", "wagers.declared-amount-is-total", {"derived": 50}, "TDA-2024-43B"),
    ("t-open", "I bet half pot", "wagers.declared-amount-is-total", {"derived": 3000}, "TDA-2024-43B"),
    ("pl-10", "half of the pot", "wagers.declared-amount-is-total", {"derived": 5}, "TDA-2024-43B"),
]

UNDER_MINIMUM = [   # RRP NL rule 12, TDA 2024 rule 43: a declared raise is at least the minimum
    ("nl-100", "raise to 150", "misdeclared-calls.declared-underraise", {"wager_to": 200}, "RRP-NL-12"),
    ("nl-100", "raise to 199", "misdeclared-calls.declared-underraise", {"wager_to": 200}, "RRP-NL-12"),
    ("nl-100", "raise 50 more", "misdeclared-calls.declared-underraise", {"wager_to": 200}, "RRP-NL-12"),
    ("nl-100", "raise by fifty", "misdeclared-calls.declared-underraise", {"wager_to": 200}, "RRP-NL-12"),
    ("nl-100", "raise 100", "misdeclared-calls.declared-raise-not-above-bet", {"wager_to": 200}, "RRP-NL-12"),
    ("nl-100", "raise to 100", "misdeclared-calls.declared-raise-not-above-bet", {"wager_to": 200}, "TDA-2024-43A"),
    ("nl-100", "raise one hundred", "misdeclared-calls.declared-raise-not-above-bet", {"wager_to": 200}, "TDA-2024-43B"),
    ("nl-100", "raise 50", "misdeclared-calls.declared-raise-not-above-bet", {"wager_to": 200}, "RRP-NL-12"),
    ("nl-100", "raise a hundred", "misdeclared-calls.declared-raise-not-above-bet", {"wager_to": 200}, "RRP-NL-12"),
    ("nl-100", "raise 101", "misdeclared-calls.declared-underraise", {"wager_to": 200}, "RRP-NL-12"),
    ("t-1600", "raise sixteen hundred", "misdeclared-calls.declared-raise-not-above-bet", {"wager_to": 2600},
     "TDA-2024-43A"),
    ("t-1600", "raise to two thousand", "misdeclared-calls.declared-underraise", {"wager_to": 2600}, "TDA-2024-43A"),
    ("t-1600", "raise to 2,600", "wagers.declared-amount-is-total", {"derived": 2600}, "TDA-2024-43B"),
    ("t-1600", "raise 1,000 more", "wagers.declared-amount-is-total", {"derived": 2600}, "TDA-2024-43B"),
    ("t-1600", "raise 999 more", "misdeclared-calls.declared-underraise", {"wager_to": 2600}, "RRP-NL-12"),
    ("t-1000", "raise to 2,500", "wagers.declared-amount-is-total", {"derived": 2500}, "TDA-2024-43B"),
    ("t-1000", "raise to 2,000", "wagers.declared-amount-is-total", {"derived": 2000}, "TDA-2024-43B"),
    ("t-1000", "raise to 1,999", "misdeclared-calls.declared-underraise", {"wager_to": 2000}, "TDA-2024-43A"),
    ("t-1000", "raise to 1,500", "misdeclared-calls.declared-underraise", {"wager_to": 2000}, "TDA-2024-43A"),
    ("t-1000", "raise one thousand", "misdeclared-calls.declared-raise-not-above-bet", {"wager_to": 2000},
     "TDA-2024-43A"),
    ("t-1000", "raise 1k", "misdeclared-calls.declared-raise-not-above-bet", {"wager_to": 2000}, "TDA-2024-43B"),
    ("nl-100-150", "raise one hundred", "misdeclared-calls.declared-raise-short-stack", {"wager_to": 150},
     "RRP-NL-12"),
    ("nl-100-150", "raise 50", "misdeclared-calls.declared-raise-short-stack", {"wager_to": 150}, "TDA-2024-43A"),
    ("nl-100-150", "call", "declarations.call-commits-full-amount", {"wager_to": 100}, "TDA-2024-51A"),
    ("nl-100-150", "all in", "declarations.all-in-is-whole-stack", {"wager_to": 150}, "TDA-2024-3"),
    ("nl-100", "raise to 5,000", "declarations.amount-over-stack-is-all-in", {"wager_to": 1000}, "WIKI-TS-1"),
    ("nl-100-150", "raise to 300", "declarations.amount-over-stack-is-all-in", {"wager_to": 150}, "WIKI-TS-2"),
    ("nl-open", "bet two thousand", "declarations.amount-over-stack-is-all-in", {"wager_to": 1000}, "WIKI-TS-1"),
    ("nl-open", "bet a thousand", "wagers.declared-amount-is-total", {"derived": 1000}, "TDA-2024-43B"),
    ("nl-open", "all in for 5,000", "declarations.all-in-is-whole-stack", {"wager_to": 1000}, "TDA-2024-3"),
]

BARE = [   # TDA 2024 rule 57: a number below the big blind is read by the pot, never above the stack
    ("t57-4000", "I bet five", "declarations.bare-number-read-by-pot", {"wager_to": 500}, "TDA-2024-57"),
    ("t57-4000", "bet five", "declarations.bare-number-read-by-pot", {"wager_to": 500}, "TDA-2024-57"),
    ("t57-5000", "I bet five", "declarations.bare-number-read-by-pot", {"wager_to": 5000}, "TDA-2024-57"),
    ("t57-short", "I bet five", "declarations.bare-number-read-by-pot", {"wager_to": 500}, "TDA-2024-57"),
    ("t57-4000", "bet four", "declarations.bare-number-read-by-pot", {"wager_to": 4000}, "TDA-2024-57"),
    ("t57-4000", "bet three", "declarations.bare-number-read-by-pot", {"wager_to": 3000}, "TDA-2024-57"),
    ("t57-4000", "bet eight", "declarations.bare-number-read-by-pot", {"wager_to": 800}, "TDA-2024-57"),
    ("t57-4000", "bet twelve", "declarations.bare-number-read-by-pot", {"wager_to": 1200}, "TDA-2024-57"),
    ("t57-4000", "bet fifteen", "declarations.bare-number-read-by-pot", {"wager_to": 1500}, "TDA-2024-57"),
    ("t57-4000", "bet twenty", "declarations.bare-number-read-by-pot", {"wager_to": 2000}, "TDA-2024-57"),
    ("t57-4000", "bet fifty", "declarations.bare-number-read-by-pot", {"wager_to": 500}, "TDA-2024-57"),
    ("t57-5000", "bet fifty", "declarations.bare-number-read-by-pot", {"wager_to": 5000}, "TDA-2024-57"),
    ("t57-4000", "bet 5", "declarations.bare-number-read-by-pot", {"wager_to": 500}, "TDA-2024-57"),
    ("t57-4000", "bet two and a half", "declarations.bare-number-read-by-pot", {"wager_to": 2500}, "TDA-2024-57"),
    ("t57-400", "raise to eight", "declarations.bare-number-read-by-pot", {"wager_to": 800}, "TDA-2024-57"),
    ("t57-400", "raise to twelve", "declarations.bare-number-read-by-pot", {"wager_to": 1200}, "TDA-2024-57"),
    ("t57-4000", "bet four hundred", "wagers.declared-amount-is-total", {"derived": 400}, "TDA-2024-43B"),
    ("nl-open", "bet one", "declarations.bare-number-read-by-pot", {"wager_to": 100}, "TDA-2024-57"),
    ("nl-open", "bet two", "wagers.declared-amount-is-total", {"derived": 2}, "TDA-2024-43B"),
    ("t-hu", "six", "declarations.amount-equal-to-bet-is-call", {"wager_to": 6000}, "TDA-2024-40BC"),
]

CALLS = [   # TDA 2024 rule 51-A, RRP NL rules 8-9: "call" is a call of the bet faced
    ("nl-500", "call", "declarations.call-commits-full-amount", {"wager_to": 500, "to_call": 500}, "TDA-2024-51A"),
    ("nl-500", "call three hundred", "declarations.call-names-wrong-amount", {"wager_to": 500}, "TDA-2024-51A"),
    ("nl-500", "call 300", "declarations.call-names-wrong-amount", {"wager_to": 500}, "RRP-NL-9"),
    ("nl-500", "call 499", "declarations.call-names-wrong-amount", {"wager_to": 500}, "RRP-NL-9"),
    ("nl-500", "call 501", "declarations.call-names-wrong-amount", {"wager_to": 500}, "RRP-NL-8"),
    ("nl-500", "call a thousand", "declarations.call-names-wrong-amount", {"wager_to": 500}, "RRP-NL-8"),
    ("nl-500", "call five hundred", "declarations.call-commits-full-amount", {"wager_to": 500}, "TDA-2024-51A"),
    ("nl-500", "I call your five hundred", "declarations.call-commits-full-amount", {"wager_to": 500}, "TDA-2024-51A"),
    ("nl-500", "call $500", "declarations.call-commits-full-amount", {"wager_to": 500}, "TDA-2024-51A"),
    ("nl-500", "call four fifty", "declarations.call-names-wrong-amount", {"wager_to": 500}, "TDA-2024-51A"),
    ("t-800", "call two thousand", "declarations.call-names-wrong-amount", {"wager_to": 800}, "TDA-2024-51A"),
    ("t-800", "call 2k", "declarations.call-names-wrong-amount", {"wager_to": 800}, "TDA-2024-51A"),
    ("t-800", "call eight hundred", "declarations.call-commits-full-amount", {"wager_to": 800}, "TDA-2024-51A"),
    ("t-800", "call", "declarations.call-commits-full-amount", {"wager_to": 800}, "TDA-2024-51A"),
    ("t-2000", "call one thousand", "declarations.call-names-wrong-amount", {"wager_to": 2000}, "TDA-2024-51A"),
]

STRING = [   # WIKI-DECL-1, RRP-BR-STRING, TDA 2024 rule 56: a call then a raise in words is a call
    ("nl-100", "I call and raise", "declarations.call-and-raise-is-call", {"wager_to": 100}, "WIKI-DECL-1"),
    ("nl-100", "I call... and raise", "declarations.call-and-raise-is-call", {"wager_to": 100}, "TDA-2024-56"),
    ("nl-100", "I call \u2026 and raise", "declarations.call-and-raise-is-call", {"wager_to": 100}, "TDA-2024-56"),
    ("nl-100", "call and raise 200", "declarations.call-and-raise-is-call", {"wager_to": 100}, "RRP-BR-STRING"),
    ("nl-100", "I call your hundred and raise two hundred", "declarations.call-and-raise-is-call",
     {"wager_to": 100}, "WIKI-DECL-1"),
    ("nl-100", "I call your hundred and raise two", "declarations.call-and-raise-is-call", {"wager_to": 100},
     "WIKI-DECL-1"),
    ("nl-100", "call, raise to 300", "declarations.call-and-raise-is-call", {"wager_to": 100}, "WIKI-DECL-1"),
    ("nl-100", "I see your hundred and raise you two", "declarations.call-and-raise-is-call", {"wager_to": 100},
     "WIKI-DECL-1"),
    ("nl-100", "call and make it 300", "declarations.call-and-raise-is-call", {"wager_to": 100}, "RRP-BR-STRING"),
    ("nl-100", "call... raise 300", "declarations.call-and-raise-is-call", {"wager_to": 100}, "TDA-2024-56"),
    ("nl-100", "I call and raise you 200 more", "declarations.call-and-raise-is-call", {"wager_to": 100},
     "WIKI-DECL-1"),
    ("nl-100", "call it, and raise", "declarations.call-and-raise-is-call", {"wager_to": 100}, "WIKI-DECL-1"),
    ("t-2000", "I call... and raise", "declarations.call-and-raise-is-call", {"wager_to": 2000}, "TDA-2024-56"),
    ("t-2000", "call two thousand and raise five", "declarations.call-and-raise-is-call", {"wager_to": 2000},
     "TDA-2024-56"),
    ("t-2000", "call 2k, raise 5", "declarations.call-and-raise-is-call", {"wager_to": 2000}, "TDA-2024-56"),
    ("nl-open", "call and raise 50", "declarations.call-with-no-bet-is-check", {"wager_to": 0}, "TDA-2024-55"),
]

BELOW_THE_BET = [   # TDA 2024 rule 51-B/C (tournaments), RRP NL rule 9 (cash): an undercall said alone
    ("nl-600", "four hundred", "misdeclared-calls.spoken-undercall-corrected", {"wager_to": 600}, "RRP-NL-9"),
    ("nl-600", "three hundred", "misdeclared-calls.spoken-undercall-corrected", {"wager_to": 600}, "RRP-NL-9"),
    ("nl-600", "$200", "misdeclared-calls.spoken-undercall-corrected", {"wager_to": 600}, "RRP-NL-9"),
    ("nl-600", "five ninety-nine", "misdeclared-calls.spoken-undercall-corrected", {"wager_to": 600}, "RRP-NL-9"),
    ("nl-600", "five fifty", "misdeclared-calls.spoken-undercall-corrected", {"wager_to": 600}, "RRP-NL-9"),
    ("nl-600", "six hundred", "declarations.amount-equal-to-bet-is-call", {"wager_to": 600}, "TDA-2024-40BC"),
    ("nl-600", "600", "declarations.amount-equal-to-bet-is-call", {"wager_to": 600}, "TDA-2024-41"),
    ("nl-600", "$600", "declarations.amount-equal-to-bet-is-call", {"wager_to": 600}, "TDA-2024-41"),
    ("nl-100", "one hundred", "declarations.amount-equal-to-bet-is-call", {"wager_to": 100}, "TDA-2024-40BC"),
    ("nl-100", "a hundred", "declarations.amount-equal-to-bet-is-call", {"wager_to": 100}, "TDA-2024-40BC"),
    ("nl-100", "sixty", "misdeclared-calls.spoken-undercall-corrected", {"wager_to": 100}, "RRP-NL-9"),
    ("nl-100", "ninety-nine", "misdeclared-calls.spoken-undercall-corrected", {"wager_to": 100}, "RRP-NL-9"),
    ("t-hu", "four thousand", "misdeclared-calls.spoken-undercall-forced-call", {"wager_to": 6000}, "TDA-2024-51BC"),
    ("t-hu", "4k", "misdeclared-calls.spoken-undercall-forced-call", {"wager_to": 6000}, "TDA-2024-51BC"),
    ("t-hu", "five thousand", "misdeclared-calls.spoken-undercall-forced-call", {"wager_to": 6000}, "TDA-2024-51BC"),
    ("t-hu", "three and a half thousand", "misdeclared-calls.spoken-undercall-forced-call", {"wager_to": 6000},
     "TDA-2024-51BC"),
    ("t-hu", "fifty-nine hundred", "misdeclared-calls.spoken-undercall-forced-call", {"wager_to": 6000},
     "TDA-2024-51BC"),
    ("t-hu", "six thousand", "declarations.amount-equal-to-bet-is-call", {"wager_to": 6000}, "TDA-2024-40BC"),
    ("t-hu", "6k", "declarations.amount-equal-to-bet-is-call", {"wager_to": 6000}, "TDA-2024-40BC"),
    ("t-open-8000", "two thousand", "misdeclared-calls.spoken-undercall-forced-call", {"wager_to": 8000},
     "TDA-2024-51BC"),
    ("t-open-8000", "seven thousand", "misdeclared-calls.spoken-undercall-forced-call", {"wager_to": 8000},
     "TDA-2024-51BC"),
    ("t-open-8000", "eight thousand", "declarations.amount-equal-to-bet-is-call", {"wager_to": 8000},
     "TDA-2024-40BC"),
    ("t-raised-8000", "two thousand", "misdeclared-calls.spoken-undercall-floor-choice", {"wager_to": 8000},
     "TDA-2024-51BC"),
    ("t-raised-8000", "6k", "misdeclared-calls.spoken-undercall-floor-choice", {"wager_to": 8000}, "TDA-2024-51BC"),
    ("t-raised-8000", "eight thousand", "declarations.amount-equal-to-bet-is-call", {"wager_to": 8000},
     "TDA-2024-41"),
]

ABOVE_THE_BET = [   # TDA 2024 rules 40-C and 43-A (tournaments), RRP NL rule 12 (cash): an amount alone
    ("t-1100", "fifteen hundred", "misdeclared-calls.amount-alone-half-raise", {"wager_to": 1700}, "TDA-2024-43A"),
    ("t-1100", "fourteen hundred", "misdeclared-calls.amount-alone-half-raise", {"wager_to": 1700}, "TDA-2024-43A"),
    ("t-1100", "thirteen ninety-nine", "misdeclared-calls.amount-alone-under-half", {"wager_to": 1100},
     "TDA-2024-43A"),
    ("t-1100", "thirteen hundred", "misdeclared-calls.amount-alone-under-half", {"wager_to": 1100}, "TDA-2024-43A"),
    ("t-1100", "eleven hundred", "declarations.amount-equal-to-bet-is-call", {"wager_to": 1100}, "TDA-2024-40BC"),
    ("t-1100", "seventeen hundred", "wagers.declared-amount-is-total", {"derived": 1700}, "TDA-2024-40BC"),
    ("t-1100", "1,100", "declarations.amount-equal-to-bet-is-call", {"wager_to": 1100}, "TDA-2024-41"),
    ("nl-600", "eight hundred", "misdeclared-calls.amount-alone-attempted-raise", {"wager_to": 1200}, "RRP-NL-12"),
    ("nl-600", "six oh one", "?", "amount", None),
    ("nl-600", "twelve hundred", "wagers.declared-amount-is-total", {"derived": 1200}, "TDA-2024-40BC"),
]

FIRST_BINDS = [   # WIKI-DECL-1, RRP-BR-VERBAL: the first declaration in turn is the one that binds
    ("t-open", "bet two thousand... no, three", "declarations.first-declaration-binds", None, "WIKI-DECL-1"),
    ("t-open", "bet two thousand... no, three", "wagers.declared-amount-is-total", {"derived": 2000}, "TDA-2024-43B"),
    ("t-open", "bet 2000, sorry, 3000", "wagers.declared-amount-is-total", {"derived": 2000}, "TDA-2024-43B"),
    ("t-open", "bet two thousand - I mean three", "declarations.first-declaration-binds", None, "RRP-BR-VERBAL"),
    ("t-open", "bet 2,000, make that 3,000", "wagers.declared-amount-is-total", {"derived": 2000}, "TDA-2024-43B"),
    ("t-1000", "raise to 2,500\u2026 3,000", "declarations.first-declaration-binds", None, "WIKI-DECL-1"),
    ("t-1000", "raise to 2,500\u2026 3,000", "wagers.declared-amount-is-total", {"derived": 2500}, "TDA-2024-43B"),
    ("t-1000", "raise to 2,500... no, 3,000", "wagers.declared-amount-is-total", {"derived": 2500}, "TDA-2024-43B"),
    ("t-1000", "raise to 1,500\u2026 2,000", "misdeclared-calls.declared-underraise", {"wager_to": 2000},
     "RRP-NL-12"),
    ("nl-open", "check \u2014 bet fifty", "declarations.first-declaration-binds", None, "WIKI-DECL-1"),
    ("nl-open", "check \u2014 bet fifty", "declarations.tap-is-check", {"wager_to": 0}, "TDA-2024-3"),
    ("nl-open", "check -- bet 50", "declarations.tap-is-check", {"wager_to": 0}, "TDA-2024-3"),
    ("nl-open", "check... actually bet fifty", "declarations.tap-is-check", {"wager_to": 0}, "TDA-2024-3"),
    ("nl-50", "fold - no, I mean call", "declarations.first-declaration-binds", None, "WIKI-DECL-1"),
    ("nl-50", "call... no, fold", "declarations.call-commits-full-amount", {"wager_to": 50}, "TDA-2024-51A"),
    ("nl-50", "call, wait, raise", "declarations.call-commits-full-amount", {"wager_to": 50}, "TDA-2024-51A"),
    ("nl-50", "raise... no, call", "declarations.raise-commits-minimum", {"min_raise_to": 100}, "TDA-2024-51A"),
    ("nl-50", "all in... no, call", "declarations.all-in-is-whole-stack", {"wager_to": 1000}, "TDA-2024-3"),
    ("nl-50", "raise, wait, call", "declarations.first-declaration-binds", None, "WIKI-DECL-1"),
    ("nl-100", "raise to 300 sorry 400", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "raise... three hundred", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
    ("nl-100", "raise -- to 300", "wagers.declared-amount-is-total", {"derived": 300}, "TDA-2024-43B"),
]

FIXED_LIMIT = [   # fixed limit: a bet or raise is one bet of the round, whatever number is said
    ("fl-2", "raise ten", "declarations.fixed-limit-one-bet", {"wager_to": 4}, "WIKI-UNIT"),
    ("fl-2", "raise", "declarations.fixed-limit-one-bet", {"wager_to": 4}, "WIKI-UNIT"),
    ("fl-2", "raise to six", "declarations.fixed-limit-one-bet", {"wager_to": 4}, "RRP-BR-LOWAMT"),
    ("fl-2", "raise two", "declarations.fixed-limit-one-bet", {"wager_to": 4}, "RRP-BR-LOWAMT"),
    ("fl-2", "raise by four", "declarations.fixed-limit-one-bet", {"wager_to": 4}, "RRP-BR-LOWAMT"),
    ("fl-2", "raise to 4", "declarations.fixed-limit-one-bet", {"wager_to": 4}, "WIKI-UNIT"),
    ("fl-2", "call", "declarations.call-commits-full-amount", {"wager_to": 2}, "TDA-2024-51A"),
    ("fl-2", "check", "declarations.check-facing-bet", {"to_call": 2}, "TDA-2024-55"),
    ("fl-open", "bet", "declarations.fixed-limit-one-bet", {"wager_to": 2}, "WIKI-UNIT"),
    ("fl-open", "bet four", "declarations.fixed-limit-one-bet", {"wager_to": 2}, "RRP-BR-LOWAMT"),
    ("fl-open", "bet ten", "declarations.fixed-limit-one-bet", {"wager_to": 2}, "RRP-BR-LOWAMT"),
    ("fl-open", "raise", "declarations.fixed-limit-one-bet", {"wager_to": 2}, "WIKI-UNIT"),
    ("fl-open", "check", "declarations.tap-is-check", {"wager_to": 0}, "TDA-2024-3"),
    ("fl-turn", "bet", "declarations.fixed-limit-one-bet", {"wager_to": 4}, "WIKI-UNIT"),
    ("fl-turn", "bet two", "declarations.fixed-limit-one-bet", {"wager_to": 4}, "RRP-BR-LOWAMT"),
    ("fl-turn-4", "raise", "declarations.fixed-limit-one-bet", {"wager_to": 8}, "WIKI-UNIT"),
    ("fl-turn-4", "raise to twelve", "declarations.fixed-limit-one-bet", {"wager_to": 8}, "WIKI-UNIT"),
    ("fl20-open", "bet", "declarations.fixed-limit-one-bet", {"wager_to": 20}, "WIKI-UNIT"),
    ("fl20-open", "bet forty", "declarations.fixed-limit-one-bet", {"wager_to": 20}, "RRP-BR-LOWAMT"),
    ("fl20-20", "raise", "declarations.fixed-limit-one-bet", {"wager_to": 40}, "WIKI-CAP-2"),
    ("fl20-20", "raise forty", "declarations.fixed-limit-one-bet", {"wager_to": 40}, "WIKI-CAP-2"),
    ("fl20-20", "raise to sixty", "declarations.fixed-limit-one-bet", {"wager_to": 40}, "WIKI-CAP-2"),
    ("fl20-20", "call", "declarations.call-commits-full-amount", {"wager_to": 20}, "TDA-2024-51A"),
]

POT_LIMIT = [   # RRP's $250, the encyclopedia's $10/$40/$140, BARGE's 1,800, TDA 54-B's 700; RRP PL r.1
    ("pl-50", "pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 250}, "RRP-NLPL-INTRO"),
    ("pl-50", "raise pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 250}, "PL-FORMULA"),
    ("pl-50", "pot it", "declarations.pot-limit-pot-is-maximum", {"wager_to": 250}, "TDA-2024-3"),
    ("pl-50", "I raise the pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 250}, "TDA-2024-3"),
    ("pl-50", "repot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 250}, "TDA-2024-3"),
    ("pl-50", "all in", "declarations.pot-limit-all-in-over-maximum", {"wager_to": 250}, "RRP-PL-1"),
    ("pl-50", "I'm all in", "declarations.pot-limit-all-in-over-maximum", {"wager_to": 250}, "TDA-2024-52B"),
    ("pl-50", "shove", "declarations.pot-limit-all-in-over-maximum", {"wager_to": 250}, "RRP-PL-1"),
    ("pl-50-251", "all in", "declarations.pot-limit-all-in-over-maximum", {"wager_to": 250}, "RRP-PL-1"),
    ("pl-50-250", "all in", "declarations.all-in-is-whole-stack", {"wager_to": 250}, "TDA-2024-3"),
    ("pl-50-250", "pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 250}, "RRP-NLPL-INTRO"),
    ("pl-50-249", "pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 249}, "RRP-NLPL-INTRO"),
    ("pl-50-249", "all in", "declarations.all-in-is-whole-stack", {"wager_to": 249}, "TDA-2024-3"),
    ("pl-50", "raise to 400", "pot-limit.oversize-wager", {"wager_to": 250}, "RRP-PL-1"),
    ("pl-50", "raise to 250", "wagers.declared-amount-is-total", {"derived": 250}, "TDA-2024-43B"),
    ("pl-50", "call", "declarations.call-commits-full-amount", {"wager_to": 50}, "TDA-2024-51A"),
    ("pl-open", "pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 100}, "RRP-NLPL-INTRO"),
    ("pl-open", "bet the pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 100}, "RRP-NLPL-INTRO"),
    ("pl-open", "all in", "declarations.pot-limit-all-in-over-maximum", {"wager_to": 100}, "RRP-PL-1"),
    ("pl-10", "pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 10}, "WIKI-PL-1"),
    ("pl-10-10", "pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 40}, "WIKI-PL-1"),
    ("pl-10-40", "pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 140}, "WIKI-PL-1"),
    ("pl-10-40", "repot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 140}, "WIKI-PL-1"),
    ("plo-first", "pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 700}, "PL-FORMULA"),
    ("plo-500", "pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 1800}, "BARGE-PL-1"),
    ("plo-500", "all in", "declarations.pot-limit-all-in-over-maximum", {"wager_to": 1800}, "RRP-PL-1"),
    ("plo-10500", "pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 10500}, "PL-FORMULA"),
    ("plo-10500", "all in", "declarations.pot-limit-all-in-over-maximum", {"wager_to": 10500}, "TDA-2024-52B"),
    ("pl-510-sb", "pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 40}, "PL-FORMULA"),
    ("pl-510-sb", "raise the pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 40}, "PL-FORMULA"),
]

WITH_CHIPS = [   # words and chips together: RRP NL rule 8 corrects to the words, once the words are read
    ("nl-100+200", "raise 100", "misdeclared-calls.declared-raise-not-above-bet", {"wager_to": 200}, "RRP-NL-12"),
    ("nl-100+100", "raise 100", "misdeclared-calls.declared-raise-not-above-bet", {"wager_to": 200}, "RRP-NL-12"),
    ("nl-100+200", "I call and raise", "misdeclared-calls.words-over-chips", {"wager_to": 100, "returned": 100},
     "RRP-NL-8"),
    ("nl-100+200", "call", "misdeclared-calls.words-over-chips", {"wager_to": 100, "returned": 100}, "RRP-NL-8"),
    ("nl-100+200", "raise to 300", "misdeclared-calls.words-over-chips", {"wager_to": 300, "owed": 100}, "RRP-NL-8"),
    ("nl-100+200", "four hundred", "misdeclared-calls.words-over-chips", {"wager_to": 400, "owed": 200}, "RRP-NL-8"),
    ("nl-100+100", "sixty", "misdeclared-calls.spoken-undercall-corrected", {"wager_to": 100}, "RRP-NL-9"),
    ("nl-100+50", "sixty", "misdeclared-calls.undercall-always-corrected", {"wager_to": 100, "owed": 50}, "RRP-NL-9"),
    ("nl-100+50", "call", "misdeclared-calls.short-call-made-good", {"wager_to": 100, "owed": 50}, "RRP-NL-9"),
    ("pl-50+500", "all in", "declarations.pot-limit-all-in-over-maximum", {"wager_to": 250}, "RRP-PL-1"),
    ("pl-50+500", "pot", "declarations.pot-limit-pot-is-maximum", {"wager_to": 250}, "RRP-NLPL-INTRO"),
]

QUESTIONS = [   # words the reader cannot settle: a question, never a guess
    ("nl-50", "if you bet I raise", "?", "conditional statement", None),
    ("nl-open", "if he bets, I raise", "?", "conditional statement", None),
    ("nl-open", "if you check I check", "?", "TDA 2024 rule 59", None),
    ("nl-50", "maybe I call", "?", "thinking", None),
    ("nl-50", "I think I call", "?", "thinking", None),
    ("nl-50", "let's see... call", "?", "thinking", None),
    ("nl-open", "pass", "?", "check in some rooms and fold", None),
    ("nl-50", "I called", "?", "past", None),
    ("nl-50", "pot?", "?", "question mark", None),
    ("nl-50", "raise blah", "?", "'blah'", None),
    ("nl-50", "no, raise", "?", "negation", None),
    ("nl-50", "I don't call", "?", "negation", None),
    ("nl-50", "not all in", "?", "negation", None),
    ("nl-50", "wait, call", "?", "correction", None),
    ("nl-50", "sorry, raise 400", "?", "correction", None),
    ("nl-open", "half", "?", "half", None),
    ("nl-open", "bet half", "?", "half", None),
    ("nl-100", "three hundred, raise", "?", "came before", None),
    ("nl-100", "call all in", "?", "call followed by a raise", None),
    ("nl-100", "call the pot", "?", "call followed by a raise", None),
    ("nl-100", "check raise 100", "?", "contradict", None),
    ("nl-100", "bet raise 300", "?", "which one", None),
    ("nl-100", "pot, all in", "?", "which one", None),
    ("nl-100", "raise 300 400", "?", "Two amounts", None),
    ("nl-100", "call 100 200", "?", "Two amounts", None),
    ("nl-100", "another hundred", "?", "more than what", None),
    ("nl-100", "200 on top", "?", "more than what", None),
    ("nl-100", "raise to 300 more", "?", "'to' and 'by'", None),
    ("nl-100", "make it", "?", "how much", None),
    ("nl-100", "raise by", "?", "how much", None),
    ("nl-cents", "bet twelve fifty", "?", "$12.50 or 1,250", None),
    ("nl-cents", "eighty-four fifty", "?", "$84.50 or 8,450", None),
    ("t-open", "bet 12.50", "?", "cents", None),
    ("t-unit25", "bet 1,230", "?", "betting unit", None),
    ("t-unit25", "bet twelve thirty", "?", "betting unit", None),
    ("t-open", "bet a dime", "?", "house book does not define", None),
    ("nl-open", "bet a nickel", "?", "house book does not define", None),
    ("t-dime", "bet two dimes", "?", "How many", None),
    ("nl-open", "", "?", "Nothing", None),
    ("nl-open", "hello there", "?", "No betting action", None),
    ("nl-open", "bet zero", "?", "zero", None),
    ("nl-open", "bet -100", "?", "negative", None),
    ("nl-open", "bet 84.505", "?", "fraction of a cent", None),
    ("nl-open", "check 100", "?", "amount", None),
    ("nl-50", "fold 50", "?", "amount", None),
    ("nl-50", "raise half pot", "?", "share of the pot", None),
    ("nl-open", "bet half pot 300", "?", "which did the player declare", None),
    ("t-open", "bet two point five k", "?", "'point'", None),
    ("t-open", "bet half a k and a half", "?", "amount", None),
]

PHRASES = (OFFICIAL + TOTALS + UNDER_MINIMUM + BARE + CALLS + STRING + BELOW_THE_BET + ABOVE_THE_BET
           + FIRST_BINDS + FIXED_LIMIT + POT_LIMIT + WITH_CHIPS + QUESTIONS)


# The floor's branch (issue 8) settles some of the same words with its own wager checks. Where a merged
# book keeps only one of the two rules, the row holds for the one it keeps: same numbers, and the key the
# row names cited by one of them.
SAME_AS = {
    "declarations.pot-limit-pot-is-maximum": "pot-limit.pot-declared",
    "declarations.pot-limit-all-in-over-maximum": "pot-limit.oversize-wager",
    "declarations.all-in-is-whole-stack": "wagers.all-in-declared",
    "declarations.amount-over-stack-is-all-in": "wagers.over-stack-is-all-in",
    "declarations.fixed-limit-one-bet": "wagers.limit-wager-is-one-bet",
    "misdeclared-calls.declared-raise-not-above-bet": "wagers.declared-raise-under-the-bet",
}


def test_there_are_at_least_two_hundred_phrases():
    assert len(PHRASES) >= 200
    assert len({(s, p, r) for s, p, r, _, _ in PHRASES}) == len(PHRASES)


def _report(standard, spot: str, phrase: str):
    head, seat, *extra = SPOTS[spot]
    said = phrase.replace("\\", "\\\\").replace('"', '\\"')
    text = head + f'disputed: {{seat: {seat}, said: "{said}"{"".join(", " + e for e in extra)}}}\n'
    book, engine = standard
    return rule_on(incident_from_text(text, f"{spot}.yaml"), book, engine)


@pytest.mark.parametrize("spot, phrase, rule, numbers, key", PHRASES,
                         ids=[f"{s}:{p}" for s, p, *_ in PHRASES])
def test_phrase(standard, spot, phrase, rule, numbers, key):
    report = _report(standard, spot, phrase)
    reader = [q["question"] for q in report.questions if q["asked_by"] == "declaration reader"]
    if rule == "?":
        assert reader and numbers in reader[0], (reader, report.rulings)
        return
    assert not reader, reader
    assert not report.conflicts, report.conflicts
    book, _ = standard
    cites = {k for r in (rule, SAME_AS.get(rule)) if r in book.rules for k in book.rules[r].cites}
    if rule not in book.rules:
        rule = SAME_AS[rule]
    assert key in cites, f"{rule} does not cite {key}"
    if numbers and "derived" in numbers:
        got = [d["value"] for d in report.derived if d["by"] == rule and d["fact"] == "wager_to"]
        assert got == [to_minor(numbers["derived"])], (got, [r.rule for r in report.rulings])
        # a legal amount read from the words leaves no other ruling on the wager
        others = [r.rule for r in report.rulings if r.decides == "wager" and r.rule != rule]
        assert not others, others
        return
    ruling = next((r for r in report.rulings if r.rule == rule), None)
    assert ruling is not None, ([r.rule for r in report.rulings], [r.rule for r in report.overridden])
    for name, value in (numbers or {}).items():
        assert ruling.effects.get(name) == to_minor(value), (name, ruling.effects)
    if ruling.decides == "wager":
        others = [r.rule for r in report.rulings if r.decides == "wager" and r is not ruling]
        assert not others, others


def test_no_pot_limit_declaration_is_ruled_above_the_maximum(standard):
    for spot, phrase, *_ in POT_LIMIT:
        report = _report(standard, spot, phrase)
        top = report.facts["max_raise_to"]
        for r in report.rulings:
            assert r.effects.get("wager_to", 0) <= top, (spot, phrase, r.rule, r.effects)


def test_no_call_is_ruled_as_anything_but_a_call_of_the_bet_faced(standard):
    for spot, phrase, *_ in CALLS + STRING:
        report = _report(standard, spot, phrase)
        f = report.facts
        wager = [r for r in report.rulings if r.decides == "wager"]
        assert [r.effects["wager_to"] for r in wager] == [f["committed"] + f["to_call"]], (spot, phrase)


_PL_SPOTS = ("pl-50", "pl-50-249", "plo-500", "pl-50+500")
_SAID = sorted({p for _, p, r, _, _ in PHRASES if r != "?"})


@pytest.mark.parametrize("spot", _PL_SPOTS)
def test_every_phrase_in_pot_limit_is_ruled_within_the_maximum(standard, spot):
    for phrase in _SAID:
        report = _report(standard, spot, phrase)
        top = report.facts["max_raise_to"]
        for r in report.rulings:
            if r.decides == "wager" and "wager_to" in r.effects:
                assert r.effects["wager_to"] <= top, (phrase, r.rule, r.effects)


@pytest.mark.parametrize("spot", ["nl-500", "t-hu", "fl-2", "nl-100+200"])
def test_every_call_in_the_table_is_a_call_of_the_bet_faced(standard, spot):
    for phrase in _SAID:
        report = _report(standard, spot, phrase)
        f = report.facts
        if f.get("said_kind") != "call" or not f["facing_bet"]:
            continue
        wager = [r.effects["wager_to"] for r in report.rulings if r.decides == "wager" and "wager_to" in r.effects]
        assert wager == [f["committed"] + f["to_call"]], (phrase, [r.rule for r in report.rulings])


@pytest.mark.parametrize("phrase", ["if you bet I raise", "if he bets, I raise", "if you check I check"])
def test_a_conditional_statement_is_asked_about_and_may_bind(standard, phrase):
    report = _report(standard, "nl-open", phrase)
    assert [r.rule for r in report.rulings] == ["declarations.conditional-statement"]
    assert report.rulings[0].discretion is not None
    assert "TDA-2024-59" in report.rulings[0].cites


@pytest.mark.parametrize("spot", ["nl-100-150", "t57-short", "pl-50-249"])
def test_no_phrase_is_ruled_above_the_stack_or_two_ways(standard, spot):
    for phrase in _SAID:
        report = _report(standard, spot, phrase)
        f = report.facts
        assert not report.conflicts, (phrase, report.conflicts)
        for r in report.rulings:
            assert r.effects.get("wager_to", 0) <= f["committed"] + f["stack"], (phrase, r.rule, r.effects)
