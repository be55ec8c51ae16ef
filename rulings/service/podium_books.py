"""The house-book pages, for managers: the effective book, parameters in plain words, the editor, diff, publish."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from rulings.diff import SETTINGS, value_words
from rulings.problems import ProblemsError
from rulings.service.housebook import NAME, HouseBooks, content_hash, set_parameter
from rulings.service.pages import MANAGERS, _account, first, form_data, login_redirect, page, refuse, render


def store(request: Request) -> HouseBooks:
    svc = request.app.state.service
    hb = getattr(svc, "housebooks", None)
    if hb is None:
        books = getattr(svc, "books", None)
        hb = HouseBooks(Path(getattr(svc, "data_dir", None) or getattr(getattr(svc, "config", None), "data_dir", ".")),
                        hasher=getattr(books, "_house_hash", None))
        try:
            svc.housebooks = hb
        except AttributeError:
            pass
    return hb


def _manager(request: Request) -> tuple[dict | None, Response | None]:
    account = _account(request)
    if account is None:
        return None, login_redirect(request)
    if account["role"] not in MANAGERS:
        return account, refuse(request, "Managers only", "House books are changed by a manager. Your account ("
                               f"{account['role']}) may rule, consult and record, but not open these pages.", 403)
    return account, None


def _load(hb: HouseBooks, name: str):
    from rulings import books
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
        from rulings.money import major
        return str(major(v))
    return _written(v) if v is not None else ""


def _typed(p, raw: str) -> Any:
    if p.type == "bool":
        return raw == "true"
    if p.type == "enum":
        return raw
    if p.type == "money":
        from rulings.service.podium_form import amount
        v = amount(raw)
        if v is None:
            raise ValueError(f"{p.name}: '{raw}' is not an amount")
        return v
    if not raw.strip().lstrip("-").isdigit():
        raise ValueError(f"{p.name}: '{raw}' is not a whole number")
    return int(raw)


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
    from rulings.bookdoc import render_book
    _, hb, name, refused = _shown_book(request)
    if refused:
        return refused
    return HTMLResponse(render_book(_load(hb, name), "html"), headers={"X-Content-Type-Options": "nosniff"})


def _editor(request: Request, account: dict, name: str, text: str, status: int = 200, checked=None,
            message: str = "", changed: list | None = None) -> Response:
    problems = []
    if checked is not None:
        for p in checked.problems:
            problems.append({"line": p.line, "col": p.col, "code": p.code, "message": p.message, "hint": p.hint})
    by_line: dict[int, list[dict]] = {}
    for p in problems:
        by_line.setdefault(p["line"], []).append(p)
    lines = [{"n": i + 1, "text": s, "problems": by_line.get(i + 1, [])} for i, s in enumerate(text.splitlines())]
    return render(request, "book_edit.html", status=status, nav="books", name=name, text=text, lines=lines,
                  checked=checked, problems=problems, message=message, changed=changed or [],
                  unplaced=[p for p in problems if p["line"] < 1 or p["line"] > len(lines)], account=account)


def book_edit(request: Request) -> Response:
    account, refused = _manager(request)
    if refused:
        return refused
    name = request.path_params["name"]
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
    if not NAME.match(name) or name == "standard":
        return refuse(request, "Not editable", f"'{name}' is not a house book name.", 404)
    form = form_data(request)
    text = first(form, "text").replace("\r\n", "\n")
    hb = store(request)
    if first(form, "go") == "publish":
        checked, info = hb.publish(name, text, account["username"], first(form, "note"))
        if info is not None:
            _reload(request, name)
            return RedirectResponse(f"/podium/books/{name}?published={info['version']}", status_code=303)
        return _editor(request, account, name, text, status=422, checked=checked,
                       message="Not published: the book must load and every example must pass. Fix what is listed.")
    checked = hb.check(name, text)
    return _editor(request, account, name, text, status=200 if checked.ok else 422, checked=checked,
                   message="Checked — not live yet." if checked.ok else "This draft has problems.")


def _reload(request: Request, name: str) -> None:
    """Tell the service the live version changed, so the next ruling uses it."""
    svc = request.app.state.service
    hook = getattr(svc, "house_published", None) or getattr(getattr(svc, "books", None), "reload", None)
    if hook is not None:
        hook(name)
    else:
        from rulings.service.pages import sync_published
        sync_published(request, force=name)


def book_version(request: Request) -> Response:
    """One version of a house book, by its content hash (where a logged ruling links)."""
    account = _account(request)
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
    from rulings.service import podium_accounts
    return [
        *podium_accounts.routes(),
        Route("/podium/books", page(books_list), methods=["GET"]),
        Route("/podium/books/{name}", page(book_page), methods=["GET"]),
        Route("/podium/books/{name}/document", page(book_document), methods=["GET"]),
        Route("/podium/books/{name}/edit", page(book_edit), methods=["GET"]),
        Route("/podium/books/{name}/edit", page(book_check), methods=["POST"]),
        Route("/podium/books/{name}/params", page(book_params), methods=["POST"]),
        Route("/podium/books/{name}/version/{digest}", page(book_version), methods=["GET"]),
    ]
