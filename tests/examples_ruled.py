"""Every example of a book ruled on under that book, once per test process.

Several tests read every report of every example of the standard book and of each house book (the
snapshot's digests, the citations, the invariants, the next seat's options, the questions): each used to
rule on them all again, about 1,500 examples a book. They read the same reports, made the same way
(``incident_from_data(ex.incident, file=str(ex.origin), book=book)``, then ``rule_on``), from here: the
first test to ask rules on the book's examples, the others find them made. They are the reports
`rulings diff` and `rulings test --house` keep for the book in force (rulings/report/diff.py ``_result``,
``example_result``), so the command-line tests of the same process share them too. A report is not
changed by any test that reads it; a refusal or an engine error is kept as it was raised.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any


@dataclass(frozen=True)
class Ruled:
    book: Any
    engine: Any
    rule: Any
    index: int          # the example's place among its rule's examples
    example: Any
    report: Any         # the report, or the ProblemsError / EngineError raised

    @property
    def refused(self) -> bool:
        """Refused by the reader (a ProblemsError); an engine error is no refusal: reading it fails the test."""
        from rulings.problems import ProblemsError
        return isinstance(self.report, ProblemsError)


def examples_ruled(house: str | None = None) -> tuple[Ruled, ...]:
    """Every example of the book ``house`` (None: the standard book), in the book's order, ruled on under it."""
    return _ruled(house or None)


@lru_cache(maxsize=None)
def _ruled(house: str | None) -> tuple[Ruled, ...]:
    from rulings.report.diff import _result
    from rulings.ruling import books
    book, engine = books.load(house)
    out = []
    for rule in book.rules.values():
        for i, ex in enumerate(rule.examples):
            got: dict = {}
            _result(book, engine, rule.id, ex, keep=got)
            out.append(Ruled(book, engine, rule, i, ex, got[(rule.id, ex.name)]))
    return tuple(out)
