"""Rulebook expressions and sentences: jinja2's immutable sandbox behind a syntax whitelist.

Every expression is parsed and checked when the rulebook loads; anything not
on the whitelist (``**``, ``/``, attribute access other than ``param.x.y``,
calls, loops, float or huge constants, string or list repetition, ``%``) is
refused with a rulebook error instead of being run. Sizes are bounded too
(``MAX_EXPRESSION_CHARS``, ``MAX_EXPRESSION_NODES``, ``MAX_SAY_CHARS``,
``MAX_TEMPLATE_BLOCKS``, ``MAX_TEMPLATE_NODES``): no sentence can multiply its
output, and no expression can recurse the parser or the compiler into a
RecursionError. ``//`` divides only by a positive whole number.

An expression in a condition is stricter still (``check_condition``): only
names, parameters, whole numbers and ``+ - * //`` and unary minus, exactly
what ``to_durable`` translates for the engine, and bounded so that the
engine's 64-bit arithmetic cannot overflow.

>>> check_expression("wager_to - max_raise_to")
[]
>>> check_expression("pot ** 3000")
["'**' is not allowed"]
>>> compile_expression("wager_to - max_raise_to")(wager_to=50000, max_raise_to=8000)
42000
>>> sorted(names_in("max_raise_to")), sorted(param_names_in("param.silent_raise.threshold"))
(['max_raise_to'], ['silent_raise.threshold'])
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from jinja2 import StrictUndefined, TemplateSyntaxError, nodes, pass_context
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from rulings.money import show
from rulings.problems import control_character

MAX_CONSTANT = 10 ** 12
MAX_EXPRESSION_CHARS = 300    # the longest in the standard book is 59
MAX_EXPRESSION_NODES = 40     # names, numbers and operators; the standard book's largest has 9
MAX_SAY_CHARS = 2_000         # a sentence template; the standard book's longest is 279
MAX_TEMPLATE_BLOCKS = 20      # {% if %} blocks in one sentence; the standard book uses at most 2
MAX_TEMPLATE_NODES = 400      # everything in one sentence template; the standard book's largest has 30
ENGINE_MAX = 2 ** 62          # what a condition's arithmetic may reach: durable-rules computes in 64 bits
FILTERS = ("money", "abs", "min", "max", "join", "default", "cards")
_EXPR_NODES = (nodes.Name, nodes.Const, nodes.Add, nodes.Sub, nodes.Mul, nodes.FloorDiv,
               nodes.Neg, nodes.Pos, nodes.Compare, nodes.Operand, nodes.And, nodes.Or, nodes.Not,
               nodes.CondExpr, nodes.Filter, nodes.Getattr, nodes.List, nodes.Tuple, nodes.Concat)
_TEMPLATE_NODES = _EXPR_NODES + (nodes.Template, nodes.Output, nodes.TemplateData, nodes.If)
_NAMED = {nodes.Pow: "'**'", nodes.Div: "'/' (use '//' for whole units)", nodes.Call: "a call",
          nodes.Mod: "'%' (it formats text as well as dividing)",
          nodes.Getitem: "indexing", nodes.For: "a loop", nodes.Macro: "a macro",
          nodes.Assign: "an assignment", nodes.Slice: "a slice"}


class _Env(ImmutableSandboxedEnvironment):
    """The sandbox, refusing at run time what the whitelist already refuses at load time."""

    intercepted_binops = frozenset(["*", "**", "/", "%"])

    def call_binop(self, context, operator, left, right):
        if operator == "*" and (isinstance(left, (str, list, tuple)) or isinstance(right, (str, list, tuple))):
            raise SecurityError("repetition of text or lists is not allowed")
        if operator in ("**", "/", "%"):
            raise SecurityError(f"'{operator}' is not allowed")
        return super().call_binop(context, operator, left, right)


@pass_context
def _money(ctx, value):
    return show(int(value), ctx.get("setting", "cash"))


def _cards(first, count=1):
    """Cards off the deck by their numbers in the deal, as the floor says them: ``14 | cards(3)`` is
    'cards 14, 15 and 16', ``18 | cards`` 'card 18' (a count from 1 to 52; counting only, no decision)."""
    first, count = int(first), max(1, min(int(count), 52))
    if count == 1:
        return f"card {first}"
    nums = [str(first + i) for i in range(count)]
    return "cards " + ", ".join(nums[:-1]) + f" and {nums[-1]}"


ENV = _Env(undefined=StrictUndefined, autoescape=False)
ENV.filters = {"money": _money, "abs": abs, "min": ENV.filters["min"], "max": ENV.filters["max"],
               "join": ENV.filters["join"], "default": ENV.filters["default"], "cards": _cards}


def _walk(node: nodes.Node, allowed: tuple, problems: list[str]) -> None:
    if not isinstance(node, allowed):
        what = next((v for k, v in _NAMED.items() if isinstance(node, k)), type(node).__name__)
        problems.append(f"{what} is not allowed")
        return
    if isinstance(node, nodes.Const):
        v = node.value
        if isinstance(v, float):
            problems.append(f"the number {v} is not whole; money and counts are whole numbers here")
        elif isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_CONSTANT:
            problems.append(f"the constant {v} is too large")
        elif isinstance(v, str) and len(v) > 500:
            problems.append("a text constant longer than 500 characters is not allowed")
    if isinstance(node, nodes.Getattr):
        if node.attr.startswith("_"):
            problems.append(f"the attribute '{node.attr}' is not allowed")
        root: nodes.Node = node
        while isinstance(root, nodes.Getattr):
            root = root.node
        if not (isinstance(root, nodes.Name) and root.name in ("param", "effect")):
            problems.append("only parameters and effects may be read with a dot (param.topic.name, effect.name)")
    if isinstance(node, nodes.Mul) and any(
            isinstance(side, (nodes.List, nodes.Tuple, nodes.Concat))
            or (isinstance(side, nodes.Const) and isinstance(side.value, str))
            for side in (node.left, node.right)):
        problems.append("repeating text or a list with '*' is not allowed")
    if isinstance(node, nodes.FloorDiv) and not (
            isinstance(node.right, nodes.Const) and type(node.right.value) is int and node.right.value > 0):
        problems.append("'//' divides only by a positive whole number (e.g. pot // 2)")
    if isinstance(node, nodes.Filter) and node.name not in FILTERS:
        problems.append(f"the filter '{node.name}' is not allowed (allowed: {', '.join(FILTERS)})")
    if isinstance(node, nodes.Name) and node.name.startswith("_"):
        problems.append(f"the name '{node.name}' is not allowed")
    for child in node.iter_child_nodes():
        _walk(child, allowed, problems)


def _size(node: nodes.Node) -> int:
    return 1 + sum(_size(c) for c in node.iter_child_nodes())


@lru_cache(maxsize=2048)
def _parse_once(source: str):
    return ENV.parse(source)


def _parse(source: str):
    """jinja2's parse, with a nesting too deep for its recursive parser turned into a syntax error.

    A text of up to 600 characters is parsed once per process (loading and checking a book reads each
    expression about six times), the 2,048 latest kept; the trees are shared, so nothing may change them.
    """
    try:
        return _parse_once(source) if len(source) <= 600 else ENV.parse(source)
    except RecursionError:
        raise TemplateSyntaxError("nested too deep", 1) from None


parse_template = _parse


def parse_expression(text: str) -> nodes.Expr:
    parser_src = "{{ " + text + " }}"
    tmpl = _parse(parser_src)
    out = tmpl.body[0]
    if not (isinstance(out, nodes.Output) and len(out.nodes) == 1):
        raise TemplateSyntaxError("not a single expression", 1)
    return out.nodes[0]


def check_expression(text: str) -> list[str]:
    """Problems with an expression, as sentences; empty when it is on the whitelist."""
    if not isinstance(text, (str, int)) or isinstance(text, bool):
        return ["an expression must be text or a whole number"]
    if len(str(text)) > MAX_EXPRESSION_CHARS:
        return [f"an expression of more than {MAX_EXPRESSION_CHARS} characters is not allowed"]
    try:
        expr = parse_expression(str(text))
    except TemplateSyntaxError as exc:
        return [f"not a valid expression: {exc.message}"]
    if _size(expr) > MAX_EXPRESSION_NODES:
        return [f"an expression of more than {MAX_EXPRESSION_NODES} names, numbers and operators is not allowed"]
    problems: list[str] = []
    _walk(expr, _EXPR_NODES, problems)
    return problems + _controls(expr)


_COND_NODES = (nodes.Name, nodes.Const, nodes.Add, nodes.Sub, nodes.Mul, nodes.FloorDiv, nodes.Neg,
               nodes.Pos, nodes.Getattr)


def check_condition(text: str | int, bound: Callable[[str], int] = lambda name: 0) -> list[str]:
    """Problems with an expression a condition compares with (``above: "pot // 2"``), as sentences.

    Only what the engine computes exactly: names, parameters, whole numbers,
    ``+ - *``, ``//`` by a positive whole number (over a sum that cannot be
    negative, where the engine's division rounds the same way) and unary minus;
    and ``bound(name)``, the largest value a fact or parameter can hold, must
    keep every intermediate result within the engine's 64-bit arithmetic.
    """
    problems = check_expression(str(text))
    if problems:
        return problems
    expr = parse_expression(str(text))
    names: dict[type, str] = {nodes.Compare: "a comparison", nodes.And: "'and'", nodes.Or: "'or'",
                              nodes.Not: "'not'", nodes.CondExpr: "'if ... else'", nodes.Filter: "a filter"}
    for node in [expr] + list(expr.find_all(nodes.Node)):
        if not isinstance(node, _COND_NODES):
            what = names.get(type(node), type(node).__name__)
            return [f"{what} cannot be used in a condition's value; a condition compares the fact with a "
                    "number made of names, whole numbers and + - * // (use any_of or a derived fact instead)"]
        if isinstance(node, nodes.Const) and type(node.value) is not int:
            return [f"{node.value!r} is not a whole number; a condition compares with numbers"]
        if isinstance(node, nodes.FloorDiv) and _may_be_negative(node.left):
            return ["'//' in a condition divides only a sum that cannot be negative (no '-' inside it)"]
    if _bound(expr, bound) > ENGINE_MAX:
        return ["the expression can grow past what the engine computes exactly (2^62); "
                "multiply by small whole numbers only"]
    return []


def _may_be_negative(node: nodes.Node) -> bool:
    return any(isinstance(n, (nodes.Sub, nodes.Neg)) for n in [node] + list(node.find_all(nodes.Node)))


def _attr_path(node: nodes.Getattr) -> tuple[nodes.Node, str]:
    """``param.kill.size`` as its root node and the dotted names after it (``kill.size``)."""
    parts: list[str] = []
    root: nodes.Node = node
    while isinstance(root, nodes.Getattr):
        parts.append(root.attr)
        root = root.node
    return root, ".".join(reversed(parts))


def _bound(node: nodes.Node, bound: Callable[[str], int]) -> int:
    """The largest magnitude an arithmetic expression can reach, each name at its own largest."""
    if isinstance(node, nodes.Const):
        return abs(node.value) if type(node.value) is int else 0
    if isinstance(node, nodes.Name):
        return bound(node.name)
    if isinstance(node, nodes.Getattr):
        return bound("param." + _attr_path(node)[1])
    if isinstance(node, (nodes.Add, nodes.Sub)):
        return _bound(node.left, bound) + _bound(node.right, bound)
    if isinstance(node, nodes.Mul):
        return _bound(node.left, bound) * _bound(node.right, bound)
    if isinstance(node, nodes.FloorDiv):
        return _bound(node.left, bound)
    if isinstance(node, (nodes.Neg, nodes.Pos)):
        return _bound(node.node, bound)
    if isinstance(node, nodes.CondExpr):
        return max(_bound(node.expr1, bound), _bound(node.expr2, bound) if node.expr2 else 0)
    if isinstance(node, (nodes.List, nodes.Tuple)):
        return max((_bound(n, bound) for n in node.items), default=0)
    if isinstance(node, nodes.Filter):
        return max([_bound(node.node, bound) if node.node else 0] + [_bound(a, bound) for a in node.args])
    return 1   # comparisons and and/or/not give true or false


def bound_of(text: str | int, bound: Callable[[str], int]) -> int:
    """The largest magnitude a whitelisted expression can reach (see ``_bound``)."""
    return _bound(parse_expression(str(text)), bound)


def value_type(text: str | int, type_of: Callable[[str], str]) -> str:
    """What a whitelisted expression gives: number, bool, text, none, list or any (cannot tell).

    ``type_of(name)`` gives a fact's or parameter's type the same way.
    """
    def t(node: nodes.Node) -> str:
        if isinstance(node, nodes.Const):
            v = node.value
            return ("bool" if isinstance(v, bool) else "number" if isinstance(v, int) else
                    "text" if isinstance(v, str) else "none" if v is None else "any")
        if isinstance(node, nodes.Name):
            return type_of(node.name)
        if isinstance(node, nodes.Getattr):
            root, path = _attr_path(node)
            return type_of(root.name + "." + path) if isinstance(root, nodes.Name) else "any"
        if isinstance(node, (nodes.Add, nodes.Sub, nodes.Mul, nodes.FloorDiv, nodes.Neg, nodes.Pos)):
            return "number"
        if isinstance(node, (nodes.Compare, nodes.And, nodes.Or, nodes.Not)):
            return "bool"
        if isinstance(node, nodes.Concat):
            return "text"
        if isinstance(node, (nodes.List, nodes.Tuple)):
            return "list"
        if isinstance(node, nodes.CondExpr):
            a, b = t(node.expr1), t(node.expr2) if node.expr2 else "none"
            return a if a == b else "any"
        if isinstance(node, nodes.Filter):
            if node.name in ("abs",):
                return "number"
            if node.name in ("min", "max"):
                inner = node.node
                if isinstance(inner, (nodes.List, nodes.Tuple)):
                    kinds = {t(i) for i in inner.items}
                    return kinds.pop() if len(kinds) == 1 else "any"
                return "any"
            if node.name == "join":
                return "text"
            if node.name in ("money", "cards"):
                return "text"
            return t(node.node) if node.node else "any"
        return "any"
    return t(parse_expression(str(text)))


def check_template(text: str) -> list[str]:
    """Problems with a ``say`` sentence template."""
    if not isinstance(text, str):
        return ["a sentence template is text"]
    if len(text) > MAX_SAY_CHARS:
        return [f"a sentence of more than {MAX_SAY_CHARS:,} characters is not allowed"]
    try:
        tmpl = _parse(text)
    except TemplateSyntaxError as exc:
        return [f"not a valid sentence template: {exc.message}"]
    blocks = sum(1 for _ in tmpl.find_all(nodes.If))
    if blocks > MAX_TEMPLATE_BLOCKS:
        return [f"{blocks} {{% if %}} blocks; a sentence may have at most {MAX_TEMPLATE_BLOCKS}"]
    if _size(tmpl) > MAX_TEMPLATE_NODES:
        return [f"a sentence template of more than {MAX_TEMPLATE_NODES} parts is not allowed"]
    problems: list[str] = []
    _walk(tmpl, _TEMPLATE_NODES, problems)
    return problems + _controls(tmpl)


def _controls(tree: nodes.Node) -> list[str]:
    """A quoted string that jinja2 reads into a control character ('\\x00', '\\u202e'): the text it renders
    would hold what no published text may (R115), so the expression or sentence is refused where written."""
    for const in _all(tree, nodes.Const):
        bad = control_character(const.value) if isinstance(const.value, str) else None
        if bad is not None:
            return [f"a quoted text holds a control character ('{bad}'); a book's texts are plain words"]
    return []


def _all(tree: nodes.Node, kind: type) -> list:
    """Every node of a kind, the root included (jinja2's find_all looks only below the root)."""
    return ([tree] if isinstance(tree, kind) else []) + list(tree.find_all(kind))


def names_in(text: str, template: bool = False) -> set[str]:
    """The fact names an expression or template reads (``param`` stands for all parameters)."""
    return set(_names_in(str(text), template))


@lru_cache(maxsize=2048)
def _names_in(text: str, template: bool) -> frozenset[str]:
    # loading, checking and compiling a book ask this of each expression several times
    tree = _parse(text) if template else parse_expression(text)
    return frozenset(n.name for n in _all(tree, nodes.Name))


def param_names_in(text: str, template: bool = False) -> set[str]:
    """The parameters (``param.a.b`` -> 'a.b') an expression or template reads."""
    return set(_param_names_in(str(text), template))


@lru_cache(maxsize=2048)
def _param_names_in(text: str, template: bool) -> frozenset[str]:
    tree = _parse(text) if template else parse_expression(text)
    found = set()
    for node in _all(tree, nodes.Getattr):
        parts, root = [], node
        while isinstance(root, nodes.Getattr):
            parts.append(root.attr)
            root = root.node
        if isinstance(root, nodes.Name) and root.name == "param":
            found.add(".".join(reversed(parts)))
    # keep only the longest chains (a.b, not a)
    return frozenset(f for f in found if not any(g != f and g.startswith(f + ".") for g in found))


def compile_expression(text: str | int) -> Callable[..., Any]:
    """A callable over facts. A lone fact name or constant is read directly (no jinja2 context to build)."""
    expr = parse_expression(str(text))
    if isinstance(expr, nodes.Name) and expr.name not in ("true", "false", "none"):
        name = expr.name

        def read(**ctx):
            if name not in ctx:
                raise NameError(f"'{name}' is undefined")
            return ctx[name]
        return read
    if isinstance(expr, nodes.Const):
        value = expr.value
        return lambda **ctx: value
    return ENV.compile_expression(str(text), undefined_to_none=False)


def compile_template(text: str):
    return ENV.from_string(text)


_FOLD = {nodes.Add: lambda a, b: a + b, nodes.Sub: lambda a, b: a - b, nodes.Mul: lambda a, b: a * b,
         nodes.FloorDiv: lambda a, b: a // b}


def to_durable(text: str | int, field_name: Callable[[str], str]) -> Any:
    """Translate an expression ``check_condition`` accepts into durable-rules' ``$m`` arithmetic form.

    Only names, parameters, whole numbers, + - *, // by a positive whole number
    and unary minus are accepted: the engine compares one fact with itself,
    never with another fact. durable-rules divides whole numbers rounding
    toward zero, which is Python's // for the sums that cannot be negative
    that ``check_condition`` lets through.

    >>> to_durable("pot + 2 * to_call", lambda n: n)
    {'$add': {'$l': {'$m': 'pot'}, '$r': {'$mul': {'$l': 2, '$r': {'$m': 'to_call'}}}}}
    >>> to_durable("-pot // 2", lambda n: n)
    {'$div': {'$l': {'$sub': {'$l': 0, '$r': {'$m': 'pot'}}}, '$r': 2}}
    """
    def conv(node: nodes.Node) -> Any:
        if isinstance(node, nodes.Const) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, nodes.Name):
            return {"$m": field_name(node.name)}
        if isinstance(node, nodes.Getattr):
            parts: list[str] = []
            root: nodes.Node = node
            while isinstance(root, nodes.Getattr):
                parts.append(root.attr)
                root = root.node
            return {"$m": field_name("param." + ".".join(reversed(parts)))}
        if isinstance(node, nodes.Neg):
            inner = conv(node.node)
            return -inner if isinstance(inner, int) else {"$sub": {"$l": 0, "$r": inner}}
        if isinstance(node, nodes.Pos):
            return conv(node.node)
        ops = {nodes.Add: "$add", nodes.Sub: "$sub", nodes.Mul: "$mul", nodes.FloorDiv: "$div"}
        for cls, op in ops.items():
            if isinstance(node, cls):
                left, right = conv(node.left), conv(node.right)
                if isinstance(left, int) and isinstance(right, int):   # the engine needs a field in arithmetic
                    return _FOLD[cls](left, right)
                return {op: {"$l": left, "$r": right}}
        raise ValueError("only names, whole numbers and + - * // may appear in a condition")
    return conv(parse_expression(str(text)))
