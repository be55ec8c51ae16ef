"""Facts for the second stratum of a ruling, and the facts a user gave, for "not considered".

The first stratum of rules reads the disputed act and decides the wager; the
street total of the wager in force becomes the fact ``decided_to``, which the
structure's checks (rulebooks/standard/pot-limit.yaml, wagers.yaml) read
whatever route decided it. Nothing here decides whether that wager is legal:
the rules do.
"""
from __future__ import annotations

from typing import Any

from rulings.incident import Incident

DECIDED = "decided_to"

# what a user wrote in the incident -> the facts that carry it to the rules
_SAID = ("said", "said_kind", "said_amount_to", "amount_said", "said_call_then_raise", "said_nonstandard",
         "said_bare_number", "said_to", "said_raise_percent", "said_bare_reading", "words_chips_differ",
         "said_conditional", "conditional_on", "conditional_then", "conditional_binding_to")
_CHIPS = ("chips_total", "chips_put_out", "chip_count", "motion_count", "chips_to", "every_chip_needed", "all_chips_in",
          "chip_largest", "chip_smallest", "first_motion_to", "chips_behind", "chips_over_call", "chips_short",
          "chips_short_of_call", "chips_raise_percent", "call_percent", "words_chips_differ", "acted_on_chips",
          "read_as_silent", "put_out_to")   # what goes back is worked out from the chips put out
# facts that only name another fact's presence for the rules to read: never shown among a report's facts
NAMED_ONLY = ("chips_put_out", "amount_said", "chips_short_of_call")
_AFTER = ("actions_since", "chip_actions_since", "out_of_turn_changed", "acted_on_chips", "callers_since",
          "conditional_met", "conditional_met_by")
_PRIOR = ("prior_chips_total", "prior_covers_call", "combined_to", "combined_every_chip_needed",
          "combined_raise_percent")


def decided_facts(incident: Incident, facts: dict[str, Any], ruling) -> dict[str, Any]:
    """The wager the first stratum decided, and how many players called it since."""
    out: dict[str, Any] = {DECIDED: ruling.effects["wager_to"]}
    # no chips went in with the act (words only): nothing of his can go back; what the wager needs is owed
    out["put_out_to"] = facts["chips_to"] if "chips_to" in facts else facts.get("committed", 0)
    stack = facts.get("stack")
    everything = facts.get("committed", 0) + stack if stack is not None else None
    out["decided_all_in"] = everything is not None and out[DECIDED] == everything
    out["decided_over_stack"] = everything is not None and out[DECIDED] > everything
    out["callers_since"] = sum(1 for a in incident.after if a.kind == "call")
    return out


_GAME = ("variant",)   # describes the game, not the dispute: never listed as not considered


def given_facts(incident: Incident) -> dict[str, tuple[str, ...]]:
    """Each thing the user told us about the dispute (a false flag tells nothing), with the facts that carry it."""
    out: dict[str, tuple[str, ...]] = {}
    d = incident.disputed
    if d is not None:
        if d.said is not None:
            out["said"] = _SAID
        if any(d.motions):
            out["chips"] = _CHIPS
        if d.words_first is not None:
            out["words_first"] = ("words_first",)
        if d.based_on_count is not None:
            out["based_on_count"] = ("bet_from_count",)
        if d.prior_chips:
            out["prior_chips"] = _PRIOR
        if d.prior_pulled not in (None, "none"):
            out["prior_pulled"] = ("prior_pulled",)
        for name, value in d.flags.items():
            if value:
                out[name] = (name, "count_wrong", "count_answer") if name == "count_asked" else (name,)
        if d.count_answer is not None:
            out["count_answer"] = ("count_answer", "count_wrong")
        if d.hidden_chips:
            out["hidden_chips"] = ("hidden_chips",)
        if d.dealer_took is not None and incident.log is None:
            # the dealer's record, told apart from the act (in the whole hand it is the log's action at the
            # act's point, read with the hand): no rule of the standard book reads it, so it is named as not
            # considered unless a house rule does
            out["dealer_took"] = ("dealer_took", "dealer_took_to")
    if incident.after:
        out["after"] = _AFTER
    for name, value in incident.inputs.items():
        if value is not False and name not in _GAME:
            out[name] = (name,)
    return out
