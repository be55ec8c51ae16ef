"""Refresh rulings/citations.yaml (key -> source, section, topic) from a copy of the rules inventory.

rulings/citations.yaml is the source of truth for citation keys; the inventory
is a document kept outside this repository. When it changes, refresh the
catalogue from it and commit the result:

    python scripts/citations_from_inventory.py PATH/TO/rules-inventory.md

Only the key, the source's name and its own section number are carried over; the
inventory's sentences are not copied.

Each key's ``applies:`` (the structures, games and settings it speaks for) is not in the inventory: it is
written by hand in rulings/citations.yaml and carried over from the file as it is when the file is
refreshed. A new key comes out without it, and tests/test_citation_fit.py fails until it is given one.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "rulings" / "citations.yaml"

SOURCES = [  # key prefix -> the source's name as a ruling prints it
    ("TDA-2024", "Poker TDA Rules 2024 (v1.0)"),
    ("TDA-", "Poker TDA Rules, an earlier edition"),
    ("RRP-PG", "Robert's Rules of Poker, private-games edition"),
    ("RRP", "Robert's Rules of Poker, card-room edition"),
    ("WIKI", "Encyclopedia text on betting (seed documents)"),
    ("OLR", "An online room's pot-limit rules page"),
    ("BARGE", "BARGE tournament rulebook"),
    ("HOUSE", "A card room's posted house rules"),
    ("CP", "Card Player commentary"),
    ("FORUM-TDA", "Poker TDA forum commentary"),
    ("FIDPA", "FIDPA international rules"),
    ("REG-", "A state's gaming regulation"),
    ("NEWS-", "Poker news report"),
    ("SPLIT-", "Worked from the split-pot rules of the Poker TDA and Robert's Rules of Poker"),
    ("BBA-", "Worked from the big blind ante rules of the Poker TDA and the rooms that use it"),
    ("PL-FORMULA", "Derived from the pot-limit preamble of Robert's Rules of Poker and checked on every source example"),
]
# Robert's Rules (card-room edition) numbers its rules within sections, so "rule 10" alone cannot be
# looked up. The inventory's ID scheme (its section 0) names the section each key group sits in; every
# key of a group is written with that section's number and the one name below, whatever shorthand its
# inventory line uses ("RRP §4 r.2", "§4 Button & Blind Use r.5", "r.9" and "B&R r.3" all come out alike).
RRP_SECTIONS = {
    "KILL": "§13 Kill Pots", "NL": "§14 NL", "PL": "§14 PL", "NLPL": "§14 No-Limit and Pot-Limit",
    "BR": "§3 Betting & Raising", "SD": "§3 Showdown", "TIE": "§3 Ties", "BB": "§4 Button & Blind Use",
    "LB": "§11 Lowball", "TRN": "§15 Tournaments", "BUYIN": "§3 The Buy-in",
    "O8": "§7 Omaha High-Low", "STUD8": "§10 Seven-Card Stud High-Low", "DH": "§12 Draw High",
    "JOKER": "§12 The Joker",
    "MISDEAL": "§3 Misdeals", "IRR": "§3 Irregularities", "DEAD": "§3 Dead Hands", "EXPOSED": "§5 Texas Hold'em",
    "STUD": "§8 Seven-Card Stud", "TOURN": "§15 Tournaments", "DEC": "§2 Decision-Making",
}
# The later topics (§30 on) write notes of their own into a line's section: how sure a number is, the
# private-games edition's numbering, that a source has no text. A reader of a ruling gets none of them.
NOTES = (re.compile(r"\s*\([^()]*(?:RRP-PG|verify|cardroom|confirmed)[^()]*(?:\)|$)"), re.compile(r";\s*no TDA 2024 text"))
RRP_SHORT = {"BR": ("B&R",), "EXPOSED": ("Hold'em",)}   # other spellings of a section's name in the inventory
RRP_DRAW = {"Lowball": "§11", "Draw High": "§12"}   # RRP-DRAW-IRR-*: the draw games' own sections
RRP_DRAW_PART = {"LB": "§11 Lowball", "A5": "§11 Lowball, Ace-to-Five", "27": "§11 Lowball, Deuce-to-Seven",
                 "NL": "§11 Lowball, No-Limit and Pot-Limit", "DH": "§12 Draw High",
                 "JB": "§12 Draw High, Jacks-or-Better"}   # ... by the key's part, for a line written "r.10" alone
ADDENDUM = re.compile(r",\s*(?=TDA-\d{4}-ADD)")   # "r.47-A, TDA-2024-ADD47-EX2": the addendum, after " + "
LINE = re.compile(r"^- ((?:`[A-Z0-9][A-Za-z0-9./-]*`(?: / )?)+) — ([^—]+) — ")
TOPIC = re.compile(r"^## (\d+)\. (.+)$")
# the inventory's topics whose keys rules may cite: 1-15, 20-23 (the deal and its irregularities, #44), 24-25 (tournament
# procedure, penalties and etiquette, #47)
COVERED = set(range(1, 16)) | set(range(20, 26)) | set(range(30, 33))   # betting, the deal, the tournament floor, showdown; split, antes, lowball


def source_of(key: str) -> str:
    for prefix, name in SOURCES:
        if key.startswith(prefix):
            return name
    raise SystemExit(f"no source name for {key}")


def findable(key: str, section: str, known: dict) -> str:
    """The section as a reader can find it in the source: an RRP rule number with its section in front,
    and a "see §N" pointer (to the inventory's own topic) replaced by the rule it points at."""
    if section.startswith("see §"):
        base = key.rsplit("-", 1)[0]
        if base in known:
            return findable(base, known[base]["section"], known)
    if key.startswith("TDA-"):
        return ADDENDUM.sub(" + ", re.sub(r"^TDA \d{4}\s+", "", section))
    if not key.startswith("RRP-") or key.startswith("RRP-PG"):
        return section
    section = re.sub(r"(r\.\d+) parenthesis\b", r"\1 (its parenthesis)", section)
    section = re.sub(r"(^|\band )RRP (?=§)", r"\1", section)   # the source already says Robert's Rules
    section = re.sub(r"^RRP (?=[A-Z])", "", section)               # ... and "RRP Hold'em r.1" is its Hold'em r.1
    group = key.split("-")[1]
    if section.startswith("verify"):   # a line of ours where the source has no rule: say so, in its section
        section = "(no rule found)"
        if group == "DRAW":
            return "§11 Lowball and §12 Draw High (no rule found)"
    if group == "DRAW" and not section.startswith("§"):
        part = re.sub(r"\d+$", "", key.split("-")[3]) if key.count("-") >= 3 else ""
        named = next((f"{n} {section}" for name, n in RRP_DRAW.items() if section.startswith(name)), None)
        return named or (f"{RRP_DRAW_PART[part]} {section}" if part in RRP_DRAW_PART else section)
    if group not in RRP_SECTIONS:
        return section
    return _rrp_named(group, section)


def _rrp_named(group: str, section: str) -> str:
    """The section written the one way: its number and name, then the rest ("r.5 (note)", "preamble")."""
    where = RRP_SECTIONS[group]
    number, name = where.split(" ", 1)
    rest = re.sub(rf"^{re.escape(number)}(?!\d)\s*", "", section)
    if rest.startswith("§"):   # a rule of another section of Robert's Rules: left as written
        return section
    for spelling in (name, *RRP_SHORT.get(group, ())):
        if rest == spelling or rest.startswith((spelling + " ", spelling + ",")):
            rest = rest[len(spelling):].lstrip(" ")
            break
    # a later "and §4 r.4" names its section too, when the number says which
    rest = re.sub(r"(?<=and )(§\d+)(?= r\.)", lambda m: _named_number(m.group(1)), rest)
    return f"{where}{'' if rest.startswith(',') else ' '}{rest}".rstrip()


def _named_number(number: str) -> str:
    names = {w for w in RRP_SECTIONS.values() if w.split(" ", 1)[0] == number}
    return names.pop() if len(names) == 1 else number


def build(text: str) -> dict:
    out: dict[str, dict] = {}
    topic, later, last = None, False, ""
    for raw in text.splitlines():
        t = TOPIC.match(raw)
        if t:
            topic = t.group(2).strip() if int(t.group(1)) in COVERED else None
            later = int(t.group(1)) >= 30
            continue
        m = LINE.match(raw)
        if not m or topic is None:
            continue
        for key in re.findall(r"`([^`]+)`", m.group(1)):
            section = re.sub(r"\s*·\s*[TC/]+(?=,|$)", "", m.group(2).replace("`", "").replace("**", "").strip())   # T/C
            for note in NOTES if later or "verify" in section or section.count("(") > section.count(")") else ():
                section = note.sub("", section)
            if section == "same" or section.startswith("same section"):    # the line before's section
                section = last or section
            last = section
            out.setdefault(key, {"source": source_of(key), "section": section, "topic": topic})
    for key, c in out.items():
        c["section"] = findable(key, c["section"], out)
    return out


class _Flow(dict):
    """A mapping written on one line (a key's ``applies:``)."""


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data) -> bool:   # equal lists written out each time, never as anchors
        return True


_Dumper.add_representer(_Flow, lambda d, m: d.represent_mapping("tag:yaml.org,2002:map", m, flow_style=True))


def write(data: dict) -> None:
    """The catalogue as the file holds it: keys in order, each key's ``applies:`` on one line."""
    data = {k: {f: _Flow(v) if f == "applies" else v for f, v in c.items()} for k, c in data.items()}
    header = ("# Generated by scripts/citations_from_inventory.py from the rules inventory; refresh with that "
              "script. Only each key's\n# applies: is written by hand (the structures, games and settings the "
              "source speaks for; the script keeps it).\n")
    OUT.write_text(header + yaml.dump(data, Dumper=_Dumper, sort_keys=True, allow_unicode=True, width=120),
                   encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python scripts/citations_from_inventory.py PATH/TO/rules-inventory.md", file=sys.stderr)
        return 2
    data = build(Path(args[0]).read_text(encoding="utf-8"))
    kept = yaml.safe_load(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    for key, c in data.items():   # the hand-written part: where each key applies
        if "applies" in (kept.get(key) or {}):
            c["applies"] = kept[key]["applies"]
    write(data)
    shown = OUT.relative_to(ROOT) if OUT.is_relative_to(ROOT) else OUT
    print(f"{len(data)} citation keys written to {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
