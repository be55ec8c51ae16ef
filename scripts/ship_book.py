"""Write rulings/shipped-book.bin, the package's own checked copy of the standard book (rulings/rulebook/cache.py).

Run after changing a standard topic file, a catalogue or the code that loads or compiles the book
(tests/test_shipped_book.py says when): .venv/bin/python scripts/ship_book.py

The copy holds, after a JSON header giving each part's place and digest, each part encoded as the cache
folder encodes it: the book (every origin's file, and the book's files, by file name only: a reader gives
them the files' own names), the engine's whole compiled form, each rule's compiled entry (for a true miss)
and the three catalogues as the package parses them.

It is built in a child process with a fixed hash seed: the compiled form holds sets, whose order (and so
the file's bytes) would otherwise differ from one run to the next.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _build() -> bytes:
    """The shipped copy for the package's standard book as it is now, read and checked from its files."""
    import dataclasses
    import json
    from typing import Any

    sys.path.insert(0, str(ROOT))
    from rulings.rulebook import cache as bookcache, catalogue
    from rulings.ruling import matters
    from rulings.engine.rulesets import PART_RULES, Engine, rule_compiled, ruled_flags
    from rulings.rulebook import model
    from rulings.rulebook.load import ROOT as BOOKS
    from rulings.rulebook.load import read_topic_files, rule_digest, standard_book
    from rulings.yamlsrc import _display
    assert os.environ.get("RULINGS_CACHE") == "off"   # built from the files, whatever any cache holds
    files = sorted((BOOKS / "standard").glob("*.yaml"))
    book = standard_book(BOOKS)
    rules = list(book.rules.values())
    ruled = ruled_flags(rules)
    compiled = [rule_compiled(r, ruled) for r in rules]
    engine = Engine(book)
    try:
        form = engine._form(rules, PART_RULES)
    finally:
        engine.close()
    package = bookcache.PACKAGE
    catalogues = [(sorted((package / "facts").glob("*.yaml")), catalogue._parse),
                  ([package / "citations.yaml"], catalogue._parse), ([package / "ruling" / "matters.yaml"], matters._parse),
                  ([package / "ruling" / "numbers.yaml"], matters._parse)]   # the numbers panel's catalogue
    datas = [(bookcache._data_key(paths), [parse(p.read_text(encoding="utf-8")) for p in paths])
             for paths, parse in catalogues]

    plain = {str(f): f.name for f in files}
    plain.update({_display(f): f.name for f in files})
    seen: set[int] = set()

    def canonical(value: Any) -> None:   # every Origin's file by file name only, each Origin held once
        if type(value) in bookcache._BY_TYPE:
            for name in bookcache._BY_TYPE[type(value)]:
                field = getattr(value, name)
                if type(field) is model.Origin:
                    if id(field) in seen:
                        field = dataclasses.replace(field)
                        object.__setattr__(value, name, field)
                    seen.add(id(field))
                    object.__setattr__(field, "file", plain[field.file])
                else:
                    canonical(field)
        elif type(value) in (list, tuple):
            for v in value:
                canonical(v)
        elif type(value) is dict:
            for v in value.values():
                canonical(v)
    canonical(book)
    assert book.files == [str(f) for f in files]
    book.files = [f.name for f in files]

    def text(value: Any) -> bytes:   # as bookcache.yaml_data keeps a catalogue
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()
    digests: dict[str, str] = {}   # for a true miss: each rule by its entry's digest (rule_digest)
    docs, problems = read_topic_files(files)
    assert not problems
    for doc, data in docs:
        for i, raw in enumerate(data["rules"]):
            assert " at 0x" not in repr(raw)   # the digest is of the entry's text form: no object's address
            digests[rule_digest(doc, raw, ("rules", i), data["topic"], data.get("example_defaults"))] = raw["id"]
    assert sorted(digests.values()) == sorted(book.rules)
    parts = {"book": bookcache.encode(book), "form": bookcache.data_payload(form),
             "compiled": bookcache.data_payload(compiled), "rules": bookcache.data_payload(digests)}
    parts.update({f"data-{k}": text(data) for k, data in datas})
    code = bookcache.code_key(fresh=True)     # every module's meaning worked out here, none taken from a copy
    head = {"format": bookcache.SHIP_FORMAT, "key": bookcache.ship_key(files, code), "code": code,
            "files": bookcache.file_digests(files), "part_rules": PART_RULES,
            "codes": {name: list(pair) for name, pair in bookcache.code_digests(fresh=True).items()}}
    return bookcache.ship_bytes(head, parts)


def make_shipped() -> bytes:
    """The shipped copy's bytes, built in a child process (a fixed hash seed, no cache, no shipped copy)."""
    env = dict(os.environ, PYTHONHASHSEED="0", RULINGS_CACHE="off", RULINGS_SHIPPED="off")
    run = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--stdout"], env=env, cwd=ROOT,
                         capture_output=True, timeout=600)
    if run.returncode != 0:
        raise RuntimeError(run.stderr.decode(errors="replace"))
    return run.stdout


def main() -> None:
    if sys.argv[1:] == ["--stdout"]:
        sys.stdout.buffer.write(_build())
        return
    sys.path.insert(0, str(ROOT))
    from rulings.rulebook import cache as bookcache
    data = make_shipped()
    bookcache.SHIPPED.write_bytes(data)
    print(f"wrote {bookcache.SHIPPED.relative_to(ROOT)} ({len(data):,} bytes)")


if __name__ == "__main__":
    main()
