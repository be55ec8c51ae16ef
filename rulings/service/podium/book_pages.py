"""The house-book pages, for managers: the effective book, parameters in plain words, the editor, diff, publish."""
from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from rulings.ruling import books
from rulings.report.bookdoc import render_book
from rulings.report.diff import SETTINGS, value_words
from rulings.money import major, whole_number
from rulings.problems import ProblemsError
from rulings.service.podium import account_pages
from rulings.service.podium.form import amount
from rulings.service.podium.kit import (MANAGERS, account_of, first, form_data, login_redirect, page, refuse, render,
                                        service_of)
from rulings.service.store.chain import room_book
from rulings.service.store.housebook import NAME, HouseBooks, content_hash, set_parameter


def store(request: Request) -> HouseBooks:
    """The data folder's published house books: the very store the warm books (core.Books) follow."""
    published = service_of(request).books.published
    if published is None:
        raise RuntimeError("the service was made without a data folder: it has no published house books")
    return published


def _manager(request: Request) -> tuple[dict, Response | None]:
    """The manager's account, and None; or the refusal to show instead (with no account: ``{}``)."""
    account = account_of(request)
    if account is None:
        return {}, login_redirect(request)
    if account["role"] not in MANAGERS:
        return account, refuse(request, "Managers only", "House books are changed by a manager. Your account ("
                               f"{account['role']}) may rule, consult and record, but not open these pages.", 403)
    return account, None


def _not_his_book(request: Request, account: dict, name: str) -> Response | None:
    """The refusal for a manager whose room has a book of its own (``rulings chain room-book``) and who asks to
    change another; None when he may (an admin changes every book)."""
    if account.get("role") != "manager":
        return None
    own = room_book(service_of(request).engine, account.get("room") or "main")
    if own is None or own == name:
        return None
    return refuse(request, "Not your room's book", f"Your room ({account.get('room')}) changes only its own book, "
                  f"{own}. Another room's book is changed by its managers or an admin.", 403)


def _load(hb: HouseBooks, name: str):
    if name == "standard":
        return books.load(None, compile=False)[0]
    return books.load(str(hb.path(name)), compile=False)[0]


def _param_rows(book) -> list[dict]:
    rows = []
    for name, p in sorted(book.parameters.items()):
        values = {s: book.param_values(s).get(name) for s in SETTINGS}
        current = values["cash"]
        choices = []
        if p.type in ("enum", "bool"):
            for v in p.values:
                choices.append({"value": _written(v), "words": value_words(p, v, "cash"), "selected": v == current})
        rows.append({"name": name, "description": p.description, "type": p.type, "choices": choices,
                     "value": _shown(p, current), "house": name in book.settings,
                     "words": value_words(p, current, "cash"), "minimum": p.minimum, "maximum": p.upper(),
                     "differs": values["cash"] != values["tournament"],
                     "tournament": value_words(p, values["tournament"], "tournament")})
    return rows


def _written(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def _shown(p, v: Any) -> str:
    if p.type == "money" and isinstance(v, int):
        return str(major(v))
    return _written(v) if v is not None else ""


def _typed(p, raw: str) -> Any:
    if p.type == "bool":
        return raw == "true"
    if p.type == "enum":
        return raw
    if p.type == "money":
        v = amount(raw)
        if v is None:
            raise ValueError(f"{p.name}: '{raw}' is not an amount")
        return v
    text = raw.strip()
    number = whole_number(text.removeprefix("-"), 0, 10 ** 18)   # ASCII digits only, at most 18 of them
    if number is None:
        raise ValueError(f"{p.name}: '{text[:40]}' is not a whole number")
    return -number if text.startswith("-") else number


def books_list(request: Request) -> Response:
    account, refused = _manager(request)
    if refused:
        return refused
    hb = store(request)
    rows = []
    for name in hb.names():
        versions = hb.versions(name)
        live = next((v for v in versions if v["live"]), None)
        try:
            title = _load(hb, name).title
        except ProblemsError as exc:   # a book that does not load is listed with why
            title = f"(does not load: {len(exc.problems)} problem(s); open it to see them)"
        rows.append({"name": name, "title": title, "versions": len(versions), "live": live})
    return render(request, "books.html", nav="books", rows=rows, account=account)


def _shown_book(request: Request) -> tuple[Any, Any, str, Response | None]:
    """For the pages that show a book: the manager, the book store and the book named in the path
    (the standard book or a house book that exists), or the refusal to send instead."""
    account, refused = _manager(request)
    if refused:
        return None, None, "", refused
    name = request.path_params["name"]
    hb = store(request)
    if name != "standard" and (not NAME.match(name) or name not in hb.names()):
        return None, None, "", refuse(request, "No such book", f"There is no house book '{name}'.", 404)
    return account, hb, name, None


def book_page(request: Request) -> Response:
    account, hb, name, refused = _shown_book(request)
    if refused:
        return refused
    try:
        book = _load(hb, name)
    except ProblemsError:   # the live text does not load: the editor shows why, at its lines
        text = hb.text(name)
        return _editor(request, account, name, text, status=422, checked=hb.check(name, text),
                       message="The book in force does not load; fix it here.")
    versions = hb.versions(name) if name != "standard" else []
    return render(request, "book.html", nav="books", name=name, book=book, params=_param_rows(book),
                  versions=versions, flash=request.query_params.get("published", ""),
                  editable=name != "standard", account=account)


def book_document(request: Request) -> Response:
    """The effective book exactly as `rulings book NAME` prints it (HTML)."""
    _, hb, name, refused = _shown_book(request)
    if refused:
        return refused
    return HTMLResponse(render_book(_load(hb, name), "html"), headers={"X-Content-Type-Options": "nosniff"})


def _editor(request: Request, account: dict, name: str, text: str, status: int = 200, checked=None,
            message: str = "", changed: list | None = None) -> Response:
    source = text.splitlines()

    def shown(p) -> dict:
        """A problem as the editor shows it: where (file:line:col), and the draft's line as written (its
        indentation kept, a caret under the column) when the problem is in the draft itself."""
        own = p.file in (f"{name}.yaml", "<draft>") or p.file.endswith("/" + f"{name}.yaml")
        line = source[p.line - 1] if own and 0 < p.line <= len(source) else None
        caret = (" " * (len(str(p.line)) + 3 + max(p.col - 1, 0)) + "^" * max(getattr(p, "width", 1) or 1, 1)) \
            if line is not None else ""
        return {"line": p.line, "col": p.col, "code": p.code, "message": p.message, "hint": p.hint,
                "where": f"{p.file}:{p.line}:{p.col}" if p.line else p.file, "own": own,
                "source": f"{p.line} | {line}" if line is not None else None, "caret": caret,
                "before": f"{p.line - 1:>{len(str(p.line))}} | {source[p.line - 2]}" if line is not None and p.line > 1 else None}
    problems = [shown(p) for p in checked.problems] if checked is not None else []
    warnings = [shown(p) for p in getattr(checked, "warnings", [])] if checked is not None else []
    groups = diff_groups(checked.diff) if checked is not None and checked.diff else []
    return render(request, "book_edit.html", status=status, nav="books", name=name, text=text,
                  rows=min(len(source) + 2, 30), groups=groups, checked=checked, problems=problems,
                  warnings=warnings, message=message, changed=changed or [], account=account)


def book_edit(request: Request) -> Response:
    account, refused = _manager(request)
    if refused:
        return refused
    name = request.path_params["name"]
    refused = _not_his_book(request, account, name)
    if refused:
        return refused
    hb = store(request)
    if not NAME.match(name) or name == "standard":
        return refuse(request, "Not editable", "The standard book is not changed here; a house book is.", 404)
    text = hb.text(name) if name in hb.names() else (
        f"rulebook: {name}\nextends: standard\ntitle: {name}\nparameters: {{}}\n")
    return _editor(request, account, name, text)


def book_params(request: Request) -> Response:
    """New parameter values from the form, written into a draft that is checked and diffed, not yet published."""
    account, refused = _manager(request)
    if refused:
        return refused
    name = request.path_params["name"]
    refused = _not_his_book(request, account, name)
    if refused:
        return refused
    hb = store(request)
    if not NAME.match(name) or name not in hb.names():
        return refuse(request, "No such book", f"There is no house book '{name}'.", 404)
    form = form_data(request)
    book = _load(hb, name)
    text, changed, errors = hb.text(name), [], []
    for pname, p in sorted(book.parameters.items()):
        raw = first(form, "p." + pname)
        if not raw or raw == _shown(p, book.param_values("cash").get(pname)):
            continue
        try:
            value = _typed(p, raw)
            text = set_parameter(text, pname, value)
            changed.append(pname)
        except ValueError as exc:
            errors.append(str(exc))
    if errors:
        return refuse(request, "Not changed", "; ".join(errors), 422)
    checked = hb.check(name, text)
    return _editor(request, account, name, text, checked=checked, changed=changed,
                   message="Draft with the new values — not live yet. Read the changes below, then publish.")


def book_check(request: Request) -> Response:
    account, refused = _manager(request)
    if refused:
        return refused
    name = request.path_params["name"]
    refused = _not_his_book(request, account, name)
    if refused:
        return refused
    if not NAME.match(name) or name == "standard":
        return refuse(request, "Not editable", f"'{name}' is not a house book name.", 404)
    form = form_data(request)
    text = first(form, "text").replace("\r\n", "\n")
    hb = store(request)
    if first(form, "go") == "publish":
        checked, info = hb.publish(name, text, account["username"], first(form, "note"), room=account["room"])
        if info is not None:
            _reload(request, name)
            return RedirectResponse(f"/podium/books/{name}?published={info['version']}", status_code=303)
        return _editor(request, account, name, text, status=422, checked=checked,
                       message=_unchecked(checked) or "Not published: the book must load and every example must "
                                                      "pass. Fix what is listed.")
    checked = hb.check(name, text)
    return _editor(request, account, name, text, status=200 if checked.ok else 422, checked=checked,
                   message="Checked — not live yet." if checked.ok else _unchecked(checked) or
                   "This draft has problems.")


def _unchecked(checked) -> str:
    """What the editor says when the check itself did not finish (too long, or its process ended), or ''."""
    stopped = next((p for p in checked.problems if p.code in ("P004", "P005")), None)
    if stopped is None:
        return ""
    return ("The check took too long and was stopped; nothing was published." if stopped.code == "P004"
            else "The draft could not be checked; nothing was published.")


# the diff grouped by cause: each group a kind of change, each change with the examples it changed
GROUPS = (("added", "Rules added", ("added", "exception")), ("changed", "Rules changed", ("replaced", "changed")),
          ("off", "Rules switched off", ("disabled",)), ("parameters", "Parameters", ("parameter",)))
_CAUSE = re.compile(r"^(?:parameter (?P<param>\S+) \(|added rule (?P<added>\S+)$|house exception (?P<exception>\S+) "
                    r"|rule (?P<replaced>\S+) replaced by |rule (?P<other>\S+) (?:disabled|changed)$)")


def _cause_key(cause: str) -> tuple[str, str] | None:
    """(kind, name) of a cause as rulings.report.diff.cause_text words it: ('parameter', 'kill.size'), ('rule', id)."""
    m = _CAUSE.match(cause)
    if m is None:
        return None
    if m["param"]:
        return "parameter", m["param"]
    return "rule", next(v for v in (m["added"], m["exception"], m["replaced"], m["other"]) if v)


def diff_groups(d: dict) -> list[dict]:
    """The diff (``Diff.to_json``) by cause: rules added, changed, switched off, parameters; each change with
    the examples whose ruling it changed (an example changed by several appears under each, said so)."""
    by_cause: dict[tuple[str, str], list[dict]] = {}
    placed: set[int] = set()
    for i, e in enumerate(d.get("examples", [])):
        for c in e.get("causes", []):
            key = _cause_key(c)
            if key is not None:
                by_cause.setdefault(key, []).append(dict(e, others=[x for x in e["causes"] if x != c]))
                placed.add(i)
    groups = []
    for gid, title, kinds in GROUPS:
        items = []
        if "parameter" in kinds:
            for p in d.get("parameters", []):
                items.append({"kind": "parameter", "name": p["name"], "title": p["description"], "param": p,
                              "examples": by_cause.get(("parameter", p["name"]), [])})
        else:
            for r in d.get("rules", []):
                if r["change"] in kinds:
                    items.append({"kind": r["change"], "name": r["rule"], "title": r["title"], "rule": r,
                                  "examples": by_cause.get(("rule", r["rule"]), [])})
        groups.append({"id": gid, "title": title, "changes": items,
                       "examples": len({(e["rule"], e["example"]) for it in items for e in it["examples"]})})
    rest = [e for i, e in enumerate(d.get("examples", [])) if i not in placed]
    if rest:
        groups.append({"id": "other", "title": "Other changes", "examples": len(rest),
                       "changes": [{"kind": "other", "name": "", "title": "examples changed by no single change",
                                  "examples": [dict(e, others=[]) for e in rest]}]})
    return groups


def book_diff(request: Request) -> Response:
    """What the house book in force changes against the standard book, grouped by cause and collapsed."""
    account, hb, name, refused = _shown_book(request)
    if refused:
        return refused
    if name == "standard":
        return refuse(request, "Nothing to compare", "The standard book is what house books are compared with.", 404)
    checked = hb.standard_diff(name)
    if checked.diff is None:   # the book in force does not load: the editor shows why, at its lines
        return _editor(request, account, name, hb.text(name), status=422, checked=checked,
                       message="The book in force does not load; fix it here.")
    return render(request, "book_diff.html", nav="books", name=name, d=checked.diff,
                  groups=diff_groups(checked.diff), account=account)


def _reload(request: Request, name: str) -> None:
    """Tell the warm books the live version changed, so the next ruling uses it."""
    service_of(request).books.reload(name)


def book_version(request: Request) -> Response:
    """One version of a house book, by its content hash (where a logged ruling links)."""
    account = account_of(request)
    if account is None:
        return login_redirect(request)
    name, digest = request.path_params["name"], request.path_params["digest"]
    hb = store(request)
    text = hb.version_text(name, digest)
    if text is None and name == "standard":
        return render(request, "version.html", nav="log", name=name, digest=digest, text=None, versions=[])
    if text is None:
        return refuse(request, "No such version", f"No version of '{name}' has the hash {digest}.", 404)
    return render(request, "version.html", nav="log", name=name, digest=digest, text=text,
                  versions=hb.versions(name), sha=content_hash(text))


def routes() -> list:
    return [
        *account_pages.routes(),
        Route("/podium/books", page(books_list, managers=True), methods=["GET"]),
        Route("/podium/books/{name}", page(book_page, managers=True), methods=["GET"]),
        Route("/podium/books/{name}/document", page(book_document, managers=True), methods=["GET"]),
        Route("/podium/books/{name}/diff", page(book_diff, managers=True), methods=["GET"]),
        Route("/podium/books/{name}/edit", page(book_edit, managers=True), methods=["GET"]),
        Route("/podium/books/{name}/edit", page(book_check, managers=True), methods=["POST"]),
        Route("/podium/books/{name}/params", page(book_params, managers=True), methods=["POST"]),
        Route("/podium/books/{name}/version/{digest}", page(book_version, managers=True), methods=["GET"]),
    ]
