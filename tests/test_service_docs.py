"""The limits the documents state are the code's: docs/limits.md's table (what every input is read within) and
docs/service.md's "What a stranger can make the service do" (issue 42: the docs had said 300 rules where the
code allowed 2,500, and described a login limit the code no longer had)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _rows(doc: str) -> dict[str, str]:
    """A document's table rows, by their first cell: the second cell."""
    rows = {}
    for line in (ROOT / "docs" / doc).read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 2 and not set(cells[0]) <= {"-"}:
            rows[cells[0]] = cells[1]
    return rows


def _numbers(text: str) -> list[float]:
    """The numbers a cell states, in order (``2,500`` is 2500; ``2^62`` is 2 and 62)."""
    return [float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", text)]


def _limits() -> list[tuple[str, str, list[float]]]:
    from rulings import problems, yamlsrc
    from rulings.incident import fields, reader
    from rulings.rulebook import bounds, expressions, load, model
    return [
        ("limits.md", "rules in one book", [load.MAX_RULES]),
        ("limits.md", "a rulebook file / an incident", [problems.MAX_FILE_BYTES / 1_000_000,
                                                        fields.MAX_INCIDENT_BYTES / 1_000]),
        ("limits.md", "nesting of mappings and lists", [yamlsrc.MAX_DEPTH]),
        ("limits.md", "values in one document", [yamlsrc.MAX_NODES, fields.MAX_INCIDENT_NODES]),
        ("limits.md", "unknown fields reported one by one", [reader.MAX_UNKNOWN_SHOWN, problems.MAX_SHOWN]),
        ("limits.md", "the player's words (`disputed.said`)", [fields.MAX_SAID]),
        ("limits.md", "players / actions, chips or pots in one list / what-if `params`",
         [fields.MAX_SEATS, fields.MAX_LIST, fields.MAX_PARAMS]),
        ("limits.md", "values in one `in:`/`not_in:`, groups in one `any_of`, ways a rule can match",
         [bounds.MAX_ALTERNATIVES, 513]),
        ("limits.md", "tests in one rule / citation keys / examples",
         [bounds.MAX_CONDITIONS, bounds.MAX_CITES, bounds.MAX_EXAMPLES]),
        ("limits.md", "an expression", [expressions.MAX_EXPRESSION_CHARS, expressions.MAX_EXPRESSION_NODES, 2, 62]),
        ("limits.md", "a sentence template", [expressions.MAX_SAY_CHARS, expressions.MAX_TEMPLATE_BLOCKS,
                                              expressions.MAX_TEMPLATE_NODES]),
        ("limits.md", "a count parameter without its own maximum", [model.MAX_PARAM_COUNT]),
    ]


def _service() -> list[tuple[str, str, list[float]]]:
    from rulings.service import core, guard
    from rulings.service.store import auth, housebook
    config, limiter = core.Config(), auth.Limiter(None)
    return [
        ("service.md", "logins one client address may start", [config.address_logins, 1, config.address_every, 429]),
        ("service.md", "logins waiting for or in a password hash", [config.login_queue, 503]),
        ("service.md", "threads hashing passwords (Argon2id, 64 MiB each)", [core.LOGIN_THREADS]),
        ("service.md", "failed logins on one name from one address, free",
         [config.login_attempts, config.login_window, limiter.base, limiter.cap]),
        ("service.md", "open connections", [guard.MAX_CONNECTIONS]),
        ("service.md", "of which kept for connections with a live session", [guard.RESERVED]),
        ("service.md", "connections from one address without a live session", [guard.MAX_PER_ADDRESS]),
        ("service.md", "a request's line and headers", [guard.HEAD_SECONDS, guard.MAX_HEAD / 1024]),
        ("service.md", "a request's body", [guard.BODY_SECONDS, guard.MAX_REQUEST / 2**20, 256]),
        ("service.md", "threads for consultations and podium pages", [guard.CPU_THREADS]),
        ("service.md", "threads for the house-book pages", [guard.CHECK_THREADS]),
        ("service.md", "a manager's house-book check (lint, examples, diff, publish)", [housebook.CHECK_SECONDS]),
    ]


@pytest.mark.parametrize("doc, row, code", _limits() + _service(), ids=lambda v: v if isinstance(v, str) else "")
def test_a_documented_limit_is_the_codes(doc, row, code):
    rows = _rows(doc)
    assert row in rows, f"docs/{doc} has no row '{row}'"
    assert _numbers(rows[row]) == [float(c) for c in code], f"docs/{doc}, '{row}': {rows[row]}"


def test_the_api_reference_states_the_same_connection_caps():
    from rulings.service import guard
    text = (ROOT / "rulings/service/API.md").read_text(encoding="utf-8")
    said = re.search(r"at most ([\d,]+) connections open, ([\d,]+) of them kept for connections with a live "
                     r"session, and at most ([\d,]+) from one client address", " ".join(text.split()))
    assert said, "API.md, 'Connections', does not state the caps"
    assert [int(n.replace(",", "")) for n in said.groups()] == [guard.MAX_CONNECTIONS, guard.RESERVED,
                                                                guard.MAX_PER_ADDRESS]
