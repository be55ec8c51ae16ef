"""Command line for the rulings expert."""


def run() -> int:
    """The installed `rulings` command (and ``python -m rulings``): ``main.main`` with the cyclic garbage
    collector paused while the command line's modules are imported.

    Importing yaml, jinja2, durable-rules and the package makes some 30,000 objects that live as
    long as the process; the collector, run every 700 new objects, would walk them again and again (about
    6 ms of a cold `rulings rule`). What the imports made is then set aside for good (``gc.freeze``), so each
    later collection walks only what the command itself makes. A caller in the same process imports
    ``rulings.cli.main`` and calls ``main(argv)``: its collector is left as it was.
    """
    import gc
    collecting = gc.isenabled()
    gc.disable()
    try:
        from rulings.cli.main import main
        gc.freeze()
    finally:
        if collecting:
            gc.enable()
    return main()
