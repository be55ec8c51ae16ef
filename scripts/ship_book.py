"""Write rulings/shipped-book.json, the package's own checked copy of the standard book (rulings/bookcache.py).

Run after changing a standard topic file, a catalogue or the code that loads or compiles the book
(tests/test_shipped_book.py says when): .venv/bin/python scripts/ship_book.py
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from rulings import bookcache
    data = bookcache.make_shipped()
    bookcache.SHIPPED.write_bytes(data)
    print(f"wrote {bookcache.SHIPPED.relative_to(ROOT)} ({len(data):,} bytes)")


if __name__ == "__main__":
    main()
