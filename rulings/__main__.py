"""``python -m rulings``: the same command line as the ``rulings`` script."""
import sys

from rulings.cli.main import main

sys.exit(main())
