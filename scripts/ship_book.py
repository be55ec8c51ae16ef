"""Write rulings/shipped-book.json, the package's own checked copy of the standard book (rulings/bookcache.py).

Run after changing a standard topic file, a catalogue or the code that loads or compiles the book
(tests/test_shipped_book.py says when): .venv/bin/python scripts/ship_book.py

The copy holds, each on its own line with its digest in the header: the book as the cache encodes it
(every origin's file, and the book's files, by file name only: a reader gives them the files' own names),
its rules' compiled conditions, and the three catalogues as the package parses them.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def make_shipped() -> bytes:
    """The shipped copy for the package's standard book as it is now, read and checked from its files."""
    import hashlib
    import json
    import os
    from typing import Any

    from rulings import catalogue, matters
    from rulings.bookcache import PACKAGE, SHIP_FORMAT, _data_key, code_key, encode, file_digests, ship_key
    from rulings.engine import _compiled, ruled_flags
    from rulings.problems import _display
    from rulings.rulebook.load import ROOT as BOOKS
    from rulings.rulebook.load import standard_book
    saved = os.environ.get("RULINGS_CACHE")
    os.environ["RULINGS_CACHE"] = "off"   # built from the files, whatever any cache holds
    try:
        files = sorted((BOOKS / "standard").glob("*.yaml"))
        book = standard_book(BOOKS)
        rules = list(book.rules.values())
        compiled = _compiled(rules, ruled_flags(rules))
        catalogues = [(sorted((PACKAGE / "facts").glob("*.yaml")), catalogue._parse),
                      ([PACKAGE / "citations.yaml"], catalogue._parse), ([PACKAGE / "matters.yaml"], matters._parse)]
        datas = [(_data_key(paths), [parse(p.read_text(encoding="utf-8")) for p in paths])
                 for paths, parse in catalogues]
    finally:
        if saved is None:
            del os.environ["RULINGS_CACHE"]
        else:
            os.environ["RULINGS_CACHE"] = saved
    plain = {str(f): f.name for f in files}
    plain.update({_display(f): f.name for f in files})
    tree = encode(book)

    def canonical(value: Any) -> None:   # every Origin's file, and the book's files, by file name only
        if isinstance(value, list):
            for v in value:
                canonical(v)
        elif isinstance(value, dict):
            if value.get("@c") == "Origin":
                value["v"][0] = plain[value["v"][0]]
            for v in value.values():
                canonical(v)
    canonical(tree)
    assert tree["@c"] == "Rulebook" and tree["v"][2] == [str(f) for f in files]
    tree["v"][2] = [f.name for f in files]

    def line(value: Any) -> bytes:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()
    lines = [line(tree), line(compiled)] + [line(data) for _, data in datas]
    names = ["book", "compiled"] + [f"data-{k}" for k, _ in datas]
    code = code_key()
    head = {"format": SHIP_FORMAT, "key": ship_key(files, code), "code": code, "files": file_digests(files),
            "parts": {n: [i + 1, hashlib.sha256(b).hexdigest()] for i, (n, b) in enumerate(zip(names, lines))}}
    return b"\n".join([json.dumps(head, indent=None).encode()] + lines) + b"\n"


def main() -> None:
    from rulings import bookcache
    data = make_shipped()
    bookcache.SHIPPED.write_bytes(data)
    print(f"wrote {bookcache.SHIPPED.relative_to(ROOT)} ({len(data):,} bytes)")


if __name__ == "__main__":
    main()
