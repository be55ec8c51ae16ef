"""The standard rulebook: clean, cited from the inventory, every example passing through the engine."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulings.ruling import books
from rulings.rulebook.catalogue import citations
from rulings.ruling.examples import run_example

ROOT = Path(__file__).resolve().parents[1]


def _examples():
    book, _ = books.load(compile=False)
    return [(rule.id, i) for rule in book.rules.values() for i in range(len(rule.examples))]


def test_standard_book_lints_clean():
    assert books.lint([str(ROOT / "rulebooks")]) == []


@pytest.mark.parametrize("rule_id,index", _examples())
def test_rulebook_example(standard, rule_id, index):
    book, engine = standard
    rule = book.rules[rule_id]
    outcome = run_example(book, engine, rule, rule.examples[index])
    assert outcome.ok, f"{outcome.origin}: {outcome.example}: {outcome.why}"


def test_every_rule_cites_inventory_keys_and_has_both_sides():
    book, _ = books.load(compile=False)
    known = citations()
    for rule in book.rules.values():
        assert rule.cites and all(k in known for k in rule.cites), rule.id
        fires = [e.expect.get("fires", True) for e in rule.examples]
        assert True in fires and False in fires, f"{rule.id} needs an example on each side"


def test_citation_catalogue_round_trips_through_the_refresh_script(tmp_path):
    """rulings/citations.yaml is the source of truth (554 keys of the inventory: the betting and showdown topics
    §1-§15 and §30-§32, the deal's §20-§23, the tournament floor's §24-§25); the script that refreshes it reads an inventory-shaped document back
    into exactly the same catalogue, and leaves out the other topics (house parameters, disagreements)."""
    import importlib.util
    import yaml
    spec = importlib.util.spec_from_file_location("gen", ROOT / "scripts" / "citations_from_inventory.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    known = citations()
    assert len(known) == 554
    topics = list(dict.fromkeys(c.topic for c in known.values()))
    # the later topics' lines (§30 on) have their notes taken out of the section: only topics whose sections
    # hold none can stand there and read back the same
    noted = {c.topic for c in known.values() if any(n.search(c.section) for n in gen.NOTES)}
    topics.sort(key=lambda t: t not in noted)
    numbers = sorted(gen.COVERED)   # the inventory's topics the catalogue takes
    lines = []
    for n, topic in zip(numbers, topics):
        lines += [f"## {n}. {topic}", ""]
        lines += [f"- `{c.key}` — {c.section} — a restated fact." for c in known.values() if c.topic == topic]
    lines += ["## 16. House parameters", "- `NOT-A-KEY` — x — parameters are not citation keys",
              "## 26. House parameters of the deal", "- `NOT-A-KEY-EITHER` — x — nor are these"]
    inventory = tmp_path / "inventory.md"
    inventory.write_text("\n".join(lines) + "\n", encoding="utf-8")
    built = gen.build(inventory.read_text(encoding="utf-8"))
    assert built == {k: {"source": c.source, "section": c.section, "topic": c.topic} for k, c in known.items()}
    assert gen.source_of("TDA-2024-43A") == "Poker TDA Rules 2024 (v1.0)"
    assert gen.main([]) == 2   # the inventory's path is required: nothing outside the repository is assumed
    raw = yaml.safe_load((ROOT / "rulings" / "citations.yaml").read_text(encoding="utf-8"))
    assert {k: {f: v for f, v in c.items() if f != "applies"} for k, c in raw.items()} == built
    # a refresh keeps each key's applies: (written by hand, not in the inventory): the file comes out as it was
    copy = tmp_path / "citations.yaml"
    copy.write_text((ROOT / "rulings" / "citations.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    gen.OUT = copy
    assert gen.main([str(inventory)]) == 0
    assert copy.read_text(encoding="utf-8") == (ROOT / "rulings" / "citations.yaml").read_text(encoding="utf-8")


def test_refresh_script_writes_every_robert_rules_key_of_a_section_one_way():
    """The inventory writes one section several ways ("RRP §4 r.2", "§4 Button & Blind Use r.5", "r.9");
    the catalogue holds one form, our notes kept in parentheses, so every quote of it reads alike."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("gen", ROOT / "scripts" / "citations_from_inventory.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    inventory = "\n".join([
        "## 4. Blinds", "",
        "- `RRP-BB-2` — RRP §4 r.2 (RRP-PG numbering) — a fact.",
        "- `RRP-BB-5` — §4 Button & Blind Use r.5 — a fact.",
        "- `RRP-BB-9` — r.9 — a fact.",
        "- `RRP-BR-3` — B&R r.3 — a fact.",
        "- `RRP-BR-RAP` — RRP §3 B&R (#9 in RRP-PG) — a fact.",
        "- `RRP-KILL-2` — §13 r.2 — a fact.",
        "- `RRP-TRN-TIME` — RRP §15 — a fact.",
        "- `TDA-2024-1` — TDA 2024 r.1 — a fact.",
        "- `TDA-2024-47-MIN` — r.47-A, `TDA-2024-ADD47-EX2` — a fact.", ""])
    built = {k: c["section"] for k, c in gen.build(inventory).items()}
    assert built == {
        "RRP-BB-2": "§4 Button & Blind Use r.2 (RRP-PG numbering)", "RRP-BB-5": "§4 Button & Blind Use r.5",
        "RRP-BB-9": "§4 Button & Blind Use r.9", "RRP-BR-3": "§3 Betting & Raising r.3",
        "RRP-BR-RAP": "§3 Betting & Raising (#9 in RRP-PG)", "RRP-KILL-2": "§13 Kill Pots r.2",
        "RRP-TRN-TIME": "§15 Tournaments", "TDA-2024-1": "r.1", "TDA-2024-47-MIN": "r.47-A + TDA-2024-ADD47-EX2"}


def test_every_pot_limit_inventory_key_is_cited_or_explained():
    """Inventory section 3: each key is cited by a rule (docs/rulebooks.md lists any that is not a ruling)."""
    book, _ = books.load(compile=False)
    cited = {k for r in book.rules.values() for k in r.cites}
    cited |= {k for p in book.parameters.values() for k in p.cites}
    section3 = {k for k, c in citations().items() if c.topic.startswith("Pot-limit")}
    readme = (ROOT / "docs" / "rulebooks.md").read_text(encoding="utf-8")   # moved from the README
    missing = sorted(k for k in section3 - cited if k not in readme)
    assert missing == []


def test_fact_doc_is_current():
    """docs/facts.md is generated; run scripts/facts_doc.py after editing rulings/facts/*.yaml."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("factsdoc", ROOT / "scripts" / "facts_doc.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert (ROOT / "docs" / "facts.md").read_text(encoding="utf-8") == mod.render()


def test_the_standard_cites_only_house_keys_the_catalogue_has():
    """A room's own key (HOUSE-...) in a topic file must be in the catalogue: lint warns of one that is not
    (R607), at the key, also when the book comes from the cache (which keeps no warnings)."""
    from rulings.rulebook.load import undescribed_keys
    book, _ = books.load(compile=False)
    assert undescribed_keys(book) == []


def test_a_topic_file_citing_an_uncatalogued_house_key_loads_with_a_warning_at_the_key(tmp_path):
    from rulings.rulebook.load import build_book, undescribed_keys
    arithmetic = ROOT / "tests" / "data" / "arithmetic.yaml"
    topic = tmp_path / "t.yaml"
    topic.write_text("""\
topic: t
title: T
rules:
  - id: t.one
    title: One
    cites: [RRP-KILL-INTRO, HOUSE-AZ-KIL]
    text: A rule.
    when: {street: river}
    then: {ruling: no-kill, decides: kill}
    examples:
      - {name: a, incident: {street: river}, expect: {ruling: no-kill}}
      - {name: b, incident: {street: turn}, expect: {fires: false}}
""", encoding="utf-8")
    warnings: list = []
    book = build_book("t", "t", [topic, arithmetic], warnings)
    assert [(w.line, w.col, w.code, w.severity) for w in warnings] == [(6, 29, "R607", "warning")]
    assert warnings[0].hint.startswith("did you mean 'HOUSE-AZ-KILL'? the catalogue has HOUSE-AZ-KILL, HOUSE-BBC")
    assert undescribed_keys(book) == warnings


def test_the_package_catalogues_refuse_a_key_written_twice():
    """The fact catalogues and the matters are read by a loader that refuses a second key of the same name
    (plain yaml.load would keep the last silently); every catalogue the package ships reads with it."""
    from pathlib import Path

    import yaml

    import rulings
    from rulings.yamlsrc import load_catalogue
    with pytest.raises(yaml.YAMLError, match="the key 'pot' is written twice .line 2 and line 4"):
        load_catalogue("facts:\n  pot: {type: money}\n  stack: {type: money}\n  pot: {type: count}\n")
    shipped = sorted(Path(rulings.__file__).parent.glob("**/*.yaml"))
    assert len(shipped) >= 5
    for path in shipped:
        assert isinstance(load_catalogue(path.read_text(encoding="utf-8")), dict), path


def test_a_place_is_shown_from_the_working_folder_it_is_shown_in(tmp_path, monkeypatch):
    """``shown`` reads the working folder once, and again after every change of it (its audit hook on
    os.chdir): a rule's place under the folder is relative to it, and after a chdir elsewhere it is shown
    from its rulebooks folder, never from the folder the process left."""
    from rulings.rulebook.model import shown
    place = tmp_path / "room" / "rulebooks" / "houses" / "mine.yaml"
    monkeypatch.chdir(tmp_path)
    assert shown(f"{place}:12") == "room/rulebooks/houses/mine.yaml:12"
    monkeypatch.chdir("/")
    assert shown(f"{place}:12") == f"{place.relative_to('/').as_posix()}:12"
    (tmp_path / "room").mkdir()
    monkeypatch.chdir(tmp_path / "room")
    assert shown(f"{place}:12") == "rulebooks/houses/mine.yaml:12"
