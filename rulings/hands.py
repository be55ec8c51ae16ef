"""Reading tabled cards: which seats hold the best high hand (cards speak), with pokerkit's evaluator.

Only the strength of hands is worked out here; who wins the pot, and what a
misread or a miscall means, is decided by rulebooks/standard/showdown.yaml.
"""
from __future__ import annotations

HIGH_GAMES = ("holdem", "omaha", "stud", "other")


def best_high(hands: dict[int, tuple[str, ...]], board: tuple[str, ...], variant: str) -> tuple[tuple[int, ...], str] | None:
    """The seats whose cards make the best high hand and that hand in words; None for games read low."""
    if variant not in HIGH_GAMES or not hands:
        return None
    from pokerkit import OmahaHoldemHand, StandardHighHand

    kind = OmahaHoldemHand if variant == "omaha" else StandardHighHand
    made = {}
    for seat, cards in hands.items():
        try:
            made[seat] = kind.from_game("".join(cards), "".join(board))
        except ValueError:
            return None          # too few cards to make a five-card hand
    best = max(made.values())
    winners = tuple(sorted(s for s, h in made.items() if h == best))
    return winners, f"{best.entry.label.value.lower()} ({' '.join(map(repr, best.cards))})"
