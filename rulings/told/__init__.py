"""Told disputes: a dispute told in the floor's own words read into an incident, then ruled through the one reader.

``read_told`` (rulings/told/reader.py) reads the text by the grammar over the lexicon; ``rule_told``
(rulings/told/rule.py) hands what it read to the one incident reader and the same ruling path as a YAML
incident, the report led by what was read.
"""
from rulings.told.lexicon import Lexicon, LexiconError, extended, standard  # noqa: F401
from rulings.told.reader import MAX_TOLD, Told, check_text, read_told  # noqa: F401
