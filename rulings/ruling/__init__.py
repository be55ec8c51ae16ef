"""Ruling: from the rules that fired to a report (strata, one decision per matter, what happens now,
questions, invariants), the consultation, the book for an incident."""
