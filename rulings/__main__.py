"""``python -m rulings``: the same command line as the ``rulings`` script."""
import sys

from rulings.cli import run

sys.exit(run())
