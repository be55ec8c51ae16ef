"""The `rulings` command: parse arguments, call the package, print, exit 0 / 1 (rulebook) / 2 (input) / 3 (not covered)."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rulings.ruling import books
from rulings.engine.rulesets import EngineError
from rulings.problems import Problem, ProblemsError, render_text
from rulings.report.render import dumps, report_json, report_text
from rulings.rulebook.model import shown

OK, RULEBOOK, INPUT, NOT_COVERED = 0, 1, 2, 3
INTERNAL = 70   # a bug in rulings (EX_SOFTWARE); the fuzz suite keeps it from happening


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage problems exit 2 with one line, never a traceback
        self.print_usage(sys.stderr)
        print(f"rulings: {message}", file=sys.stderr)
        raise SystemExit(INPUT)


def _problems(exc: ProblemsError, fmt: str) -> None:
    if fmt == "json":
        print(dumps({"problems": [p.to_json() for p in exc.problems]}))
    else:
        print(render_text(exc.problems), file=sys.stderr)


def cmd_rule(args) -> int:
    if args.told is not None or (len(args.incident) == 1 and args.incident[0].lower().endswith(".txt")
                                 and not args.jsonl):
        return cmd_rule_told(args)
    if args.jsonl or len(args.incident) != 1:
        return cmd_rule_batch(args)
    args.incident = args.incident[0]
    from rulings.incident import each_act, load_incident
    from rulings.ruling.decide import rule_on
    book, engine = books.load(args.house)   # the reader checks under the book in force, loaded once
    try:
        incident = _stdin_incident(book) if args.incident == "-" else load_incident(args.incident, book)
    except ProblemsError as exc:
        _problems(exc, args.format)
        return INPUT
    ruled_by = books.book_for(incident, args.house)     # --house, else the incident's house (a name), else standard
    if ruled_by != args.house:
        book, engine = books.load(ruled_by)     # rule_on checks it again under the house's values
    try:   # one report per disputed act, in hand order (one act: one report, as always)
        reports = [rule_on(one, book, engine) for one in each_act(incident)]
    except ProblemsError as exc:
        _problems(exc, args.format)
        return INPUT
    if args.format == "json":
        print(dumps(report_json(reports[0]) if len(reports) == 1 else [report_json(r) for r in reports]))
    else:
        print("\n\n".join(report_text(r, verbose=args.verbose) for r in reports))
    return NOT_COVERED if any(r.outcome == "not_covered" for r in reports) else OK


def cmd_rule_told(args) -> int:
    """A dispute told in the floor's words (`--told TEXT` or a .txt file): read, shown as read, ruled."""
    from rulings.told.rule import rule_told_text
    if args.told is not None and args.incident:
        print("rulings: give a told dispute (--told) or files, not both", file=sys.stderr)
        return INPUT
    if args.told is not None:
        text = args.told
    else:
        from rulings.problems import read_bounded
        from rulings.told import MAX_TOLD
        raw = read_bounded(args.incident[0], MAX_TOLD * 4 + 1, head=True)
        text = raw.decode("utf-8", errors="replace")
    out, code = rule_told_text(text, args.house, args.format, args.verbose)
    if code == INPUT and args.format != "json":
        print(out, file=sys.stderr)
    else:
        print(out)
    return code

def _stdin_incident(book):
    """``rulings rule -``: one incident (YAML or JSON) from standard input, read up to an incident's size and no
    further (a larger one is refused as a file would be, Y007)."""
    from rulings.incident import incident_from_text
    from rulings.incident.fields import MAX_INCIDENT_BYTES
    raw = sys.stdin.buffer.read(MAX_INCIDENT_BYTES + 1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProblemsError([Problem("<stdin>", 1, 1, "Y009", "the incident is not UTF-8 text")]) from None
    return incident_from_text(text, "<stdin>", book)


def cmd_rule_batch(args) -> int:
    from rulings.commands import batch
    if args.jsonl and args.incident:
        print("rulings: give incident files or --jsonl, not both", file=sys.stderr)
        return INPUT
    if not args.jsonl and not args.incident:
        print("rulings: rule needs an incident file (or several, or --jsonl FILE-or-'-')", file=sys.stderr)
        raise SystemExit(INPUT)
    if args.jsonl:
        return batch.rule_jsonl(args.jsonl, args.house, max(1, args.jobs))
    return batch.rule_files(args.incident, args.house, args.format)


def cmd_lint(args) -> int:
    skipped: list[str] = []
    lexicons: list = []
    problems, checked = books.lint_report(args.paths or [str(books.ROOT)], skipped, lexicons)
    if lexicons:     # a house's told-dispute words beside its book, checked as the told reader loads them (R117)
        from rulings.told.lexicon import lexicon_problems
        problems = sorted(set(problems + [p for f in lexicons for p in lexicon_problems(f)]))
    if skipped and args.format != "json":
        print(f"skipped {len(skipped)} incident file{'s' if len(skipped) != 1 else ''} (not rulebooks; "
              f"rule on them with `rulings rule`): " + ", ".join(skipped), file=sys.stderr)
    if args.format == "json":
        print(dumps({"problems": [p.to_json() for p in problems], "books_checked": checked.total,
                     "house_books_checked": checked.houses, "topic_files_checked": checked.topics}
                    | ({"incidents_skipped": skipped} if skipped else {})))
    elif problems:
        print(render_text(problems), file=sys.stderr)
        print(f"{checked.words()}, {len(problems)} problem{'s' if len(problems) != 1 else ''}")
    else:
        print(f"{checked.words()}: no problems found")
    return RULEBOOK if any(p.severity == "error" for p in problems) else OK


def cmd_test(args) -> int:
    from rulings.report.diff import house_outcomes
    from rulings.ruling.examples import run_examples
    book, engine = books.load(args.house)
    if args.house:
        outcomes = house_outcomes(book, engine, *books.load())
        outcomes = [o for o in outcomes if not args.rule or o.rule in args.rule
                    or o.rule.split(".")[0] in args.rule]
    else:
        rules = [r for r in book.rules.values() if not args.rule or r.id in args.rule or r.topic in args.rule]
        outcomes = run_examples(book, engine, rules)
    failed = [o for o in outcomes if not o.ok]
    changed = [o for o in outcomes if o.ok and o.changed_by_house]
    for o in changed:
        print(f"{shown(o.origin)}: CHANGED BY THE HOUSE {o.rule}: {o.example}\n    {o.changed_by_house}")
    for o in failed:
        print(f"{shown(o.origin)}: FAIL {o.rule}: {o.example}\n    {o.why}")
    print(f"{len(outcomes) - len(failed) - len(changed)} passed, {len(changed)} changed by the house, "
          f"{len(failed)} failed" if args.house else
          f"{len(outcomes) - len(failed)} passed, {len(failed)} failed")
    return RULEBOOK if failed else OK


def cmd_diff(args) -> int:
    from rulings.report.diff import diff, diff_text
    book, engine = books.load(args.book)
    against, base = books.load(args.against if args.against != "standard" else None)
    result = diff(book, engine, against, base)
    print(dumps(result.to_json()) if args.format == "json" else diff_text(result))
    return OK


def cmd_schema(args) -> int:
    import json
    from rulings.report.schema_json import incident_schema, rulebook_schema
    schema = incident_schema() if args.what == "incident" else rulebook_schema()
    print(json.dumps(schema, indent=2, ensure_ascii=False))
    return OK


def cmd_book(args) -> int:
    from rulings.report.bookdoc import render_book
    book, _ = books.load(None if args.book == "standard" else args.book, compile=False)
    text = render_book(book, args.format)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        print(text, end="")
    return OK


def cmd_explain(args) -> int:
    from rulings.report.explain import explain
    book, _ = books.load(args.house, compile=False)
    text = explain(book, args.what)
    if text is None:
        from rulings.report.explain import matches, not_found
        found = matches(book, args.what)
        if not found:
            print(f"rulings: {not_found(book, args.what)}", file=sys.stderr)
            return INPUT
        text = f"no rule, parameter or citation key is named '{args.what}'; {len(found)} contain it:\n" \
            + "\n".join("  " + line for line in found)
    print(text)
    return OK


def cmd_params(args) -> int:
    from rulings.report.explain import params_text
    book, _ = books.load(args.house, compile=False)
    text = params_text(book, args.text)
    if text is None:
        print(f"rulings: no parameter mentions '{args.text}'", file=sys.stderr)
        return INPUT
    print(text)
    return OK


def cmd_rules(args) -> int:
    book, _ = books.load(args.house, compile=False)
    needle = (args.text or "").lower()
    for rule in book.rules.values():
        if args.topic and rule.topic != args.topic:
            continue
        hay = " ".join([rule.id, rule.title, rule.text, *rule.cites]).lower()
        if needle and needle not in hay:
            continue
        print(f"{rule.id:45} {', '.join(rule.cites):40} {rule.title}")
    return OK


class _Version(argparse.Action):
    """--version, looked up only when asked (the metadata search costs every other command nothing)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib.metadata import PackageNotFoundError, version
        try:
            found = version("rulings")
        except PackageNotFoundError:   # run from a checkout that was never installed
            found = "unknown (not installed)"
        print(f"rulings {found}")
        parser.exit()


CORE = ("rule", "lint", "test", "explain", "params", "rules", "diff", "schema", "book", "calc", "ask")


def build_parser(service: bool = True, only_rule: bool = False) -> argparse.ArgumentParser:
    """The parser; ``service=False`` leaves out the service's commands (serve, users), whose module a ruling
    does not need; ``only_rule`` gives the parser of `rulings rule ...` alone (each subcommand's parser costs a
    cold start some 0.2 ms, and `rule` is the command run most)."""
    p = _Parser(prog="rulings", description="A card room's rules expert: incidents in, cited rulings out.")
    p.add_argument("--version", action=_Version, help="print the version and exit")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    r = sub.add_parser("rule", help="rule on an incident file (YAML or JSON), several, or a JSONL stream")
    r.add_argument("incident", nargs="*", help="incident files ('-': one incident from standard input)")
    r.add_argument("--jsonl", metavar="FILE", help="one JSON incident per line ('-': standard input); "
                   "one JSON report per line out, in order")
    r.add_argument("--jobs", type=int, default=1, help="worker processes for --jsonl (default 1)")
    r.add_argument("--house", help="a house rulebook (path, or name under rulebooks/houses/)")
    r.add_argument("--told", metavar="TEXT", help="a dispute told in the floor's words, read and ruled "
                   "(a .txt file is read the same way)")
    r.add_argument("--format", choices=("text", "json"), default="text")
    r.add_argument("--verbose", "-v", action="store_true",
                   help="add the chain of rules, citation keys, derived facts and the rulings overridden")
    r.set_defaults(run=cmd_rule)
    if only_rule:
        return p
    li = sub.add_parser("lint", help="check rulebooks and report every problem")
    li.add_argument("paths", nargs="*")
    li.add_argument("--format", choices=("text", "json"), default="text")
    li.set_defaults(run=cmd_lint)
    t = sub.add_parser("test", help="run the rulebook's examples through the engine")
    t.add_argument("rule", nargs="*", help="rule ids or topics (default: all)")
    t.add_argument("--house")
    t.set_defaults(run=cmd_test)
    e = sub.add_parser("explain", help="a rule, parameter or citation key explained; a partial name lists what matches")
    e.add_argument("what")
    e.add_argument("--house")
    e.set_defaults(run=cmd_explain)
    pa = sub.add_parser("params", help="the parameters, their values in plain words and their defaults by setting")
    pa.add_argument("text", nargs="?", help="only parameters whose name, description or words mention this")
    pa.add_argument("--house")
    pa.set_defaults(run=cmd_params)
    ru = sub.add_parser("rules", help="list and search the rules")
    ru.add_argument("text", nargs="?")
    ru.add_argument("--topic")
    ru.add_argument("--house")
    ru.set_defaults(run=cmd_rules)
    d = sub.add_parser("diff", help="what a house book changes: parameters, rules, and the rulings of examples")
    d.add_argument("book", help="a house book (path, or name under rulebooks/houses/)")
    d.add_argument("--against", default="standard", help="the book to compare with (default: standard)")
    d.add_argument("--format", choices=("text", "json"), default="text")
    d.set_defaults(run=cmd_diff)
    sc = sub.add_parser("schema", help="print the JSON Schema for rulebook files (topic files and house books), "
                        "or with 'incident' for incident files")
    sc.add_argument("what", nargs="?", choices=("rulebook", "incident"), default="rulebook")
    sc.set_defaults(run=cmd_schema)
    b = sub.add_parser("book", help="the effective rulebook as a document for players and staff")
    b.add_argument("book", help="standard, or a house book (path, or name under rulebooks/houses/)")
    b.add_argument("--format", choices=("html", "markdown"), default="html")
    b.add_argument("-o", "--output", help="write to this file instead of standard output")
    b.set_defaults(run=cmd_book)
    c = sub.add_parser("calc", help="the betting numbers for a position (incident or PHH file)")
    c.add_argument("source")
    c.add_argument("--after", type=int)
    c.add_argument("--seat", type=int)
    c.add_argument("--structure", help="override the structure (PHH has no pot-limit hold'em code)")
    c.add_argument("--house")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.set_defaults(run=cmd_calc)
    a = sub.add_parser("ask", help="a consultation: the ruling so far, and only the questions that change it")
    a.add_argument("incident", nargs="?", help="a partial incident file (default: type the essentials)")
    a.add_argument("--house")
    a.add_argument("--told", metavar="TEXT", help="a dispute told in the floor's words: read, shown as read, and "
                   "consulted on")
    a.add_argument("--save", help="write the finished incident to this file")
    a.add_argument("--draft", help="keep the typed answers in this file (default: ask-draft.yaml in the user's "
                                   "data folder, or $RULINGS_DATA)")
    draft = a.add_mutually_exclusive_group()
    draft.add_argument("--resume", dest="resume", action="store_true", default=None, help="continue the saved draft")
    draft.add_argument("--fresh", dest="resume", action="store_false", help="start afresh (the draft is replaced)")
    a.set_defaults(run=cmd_ask)
    if service:
        from rulings.service.commands import add_commands   # serve, users: the ruling service
        add_commands(sub)
    return p


def cmd_ask(args) -> int:
    from rulings.commands.ask import default_draft, run
    if args.told is not None and args.incident:
        print("rulings: give a told dispute (--told) or an incident file, not both", file=sys.stderr)
        return INPUT
    return run(args.incident, args.house, args.save, draft=Path(args.draft) if args.draft else default_draft(),
               resume=args.resume, told=args.told)


def cmd_calc(args) -> int:
    from rulings.commands.calc import calc
    return calc(args)


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    command = next((w for w in words if not w.startswith("-")), None)
    # `rule` first: no option of the top-level parser can be given, so its own parser is all that is needed
    args = build_parser(service=command not in CORE, only_rule=words[:1] == ["rule"]).parse_args(argv)
    if isinstance(getattr(args, "house", None), str):
        args.house = _published(args.house)
    code = _main(args)
    if argv is None and args.run is cmd_rule:
        _leave(code)
    return code


def _published(house: str) -> str:
    """``--house NAME``: the version a service published from the podium, as the service rules with it, when
    there is one (rulings/service/running.py ``published``: $RULINGS_DATA's folder, the running services'
    folders and databases, the user's data folder, $RULINGS_DATABASE); else NAME as given (the repository's
    house books, or a path)."""
    from rulings.service.running import published
    live = published(house)
    return str(live) if live is not None else house


def _leave(code: int) -> None:
    """The command line's own exit after a ruling: the output flushed, the process ends without tearing
    down the book, the engine and every module one by one (a third of a cold `rulings rule`'s own time).
    Only from the installed command (``argv`` not given), never for a caller in the same process."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:   # output piped into `head`: nothing left to say
        pass
    except OSError:
        return   # let the ordinary exit report it
    os._exit(code)


def _os_error(exc: OSError | UnicodeError) -> str:
    """A file the command could not write (or open), said without Python's '[Errno 2]'; a missing folder named."""
    name = getattr(exc, "filename", None)
    if name is None:
        return str(exc)
    name = os.fsdecode(name)
    reason = getattr(exc, "strerror", None) or str(exc)
    folder = Path(name).parent
    if isinstance(exc, FileNotFoundError) and not folder.is_dir():
        reason = f"the folder {str(folder)!r} does not exist"
    return f"{name!r}: {reason}"


def _main(args) -> int:
    try:
        return args.run(args)
    except ProblemsError as exc:   # a rulebook that does not load
        print(render_text(exc.problems), file=sys.stderr)
        return RULEBOOK
    except EngineError as exc:
        print(f"rulings: engine error: {exc}", file=sys.stderr)
        return RULEBOOK
    except BrokenPipeError:   # output piped into `head`: nothing left to say
        return OK
    except (OSError, UnicodeError) as exc:
        print(f"rulings: {_os_error(exc)}", file=sys.stderr)
        return INPUT
    except KeyboardInterrupt:
        return INPUT
    except Exception as exc:   # a bug (RecursionError, MemoryError too): said plainly, never as a traceback
        if isinstance(exc, RuntimeError) and str(exc).startswith("Symlink loop"):   # Path.resolve() on a loop
            print(f"rulings: {str(exc).partition(' from ')[2] or exc}: a loop of symbolic links, "
                  "not a file or folder", file=sys.stderr)
            return INPUT
        print(f"rulings: internal error ({type(exc).__name__}): {str(exc)[:500]}; this is a bug in rulings, "
              "please report it with the input that caused it", file=sys.stderr)
        return INTERNAL


if __name__ == "__main__":
    sys.exit(main())
