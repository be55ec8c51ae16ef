"""The rulebooks, as data: installed as the package ``rulings.rulebooks`` (see pyproject.toml).

The folder stays at the top of the repository; this file only lets the wheel and
an editable install carry it inside ``rulings``, where importlib.resources finds it.
"""
