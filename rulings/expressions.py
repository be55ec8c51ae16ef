"""Rulebook expressions and sentences: jinja2's immutable sandbox behind a syntax whitelist.

Every expression is parsed and checked when the rulebook loads; anything not
on the whitelist (``**``, ``/``, attribute access other than ``param.x.y``,
calls, loops, float or huge constants, string or list repetition) is refused
with a rulebook error instead of being run.

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

from typing import Any, Callable

from jinja2 import StrictUndefined, TemplateSyntaxError, nodes, pass_context
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from rulings.money import show

MAX_CONSTANT = 10 ** 12
FILTERS = ("money", "abs", "min", "max", "join", "default")
_EXPR_NODES = (nodes.Name, nodes.Const, nodes.Add, nodes.Sub, nodes.Mul, nodes.FloorDiv, nodes.Mod,
               nodes.Neg, nodes.Pos, nodes.Compare, nodes.Operand, nodes.And, nodes.Or, nodes.Not,
               nodes.CondExpr, nodes.Filter, nodes.Getattr, nodes.List, nodes.Tuple, nodes.Concat)
_TEMPLATE_NODES = _EXPR_NODES + (nodes.Template, nodes.Output, nodes.TemplateData, nodes.If)
_NAMED = {nodes.Pow: "'**'", nodes.Div: "'/' (use '//' for whole units)", nodes.Call: "a call",
          nodes.Getitem: "indexing", nodes.For: "a loop", nodes.Macro: "a macro",
          nodes.Assign: "an assignment", nodes.Slice: "a slice"}


class _Env(ImmutableSandboxedEnvironment):
    """The sandbox, refusing at run time what the whitelist already refuses at load time."""

    intercepted_binops = frozenset(["*", "**", "/"])

    def call_binop(self, context, operator, left, right):
        if operator == "*" and (isinstance(left, (str, list, tuple)) or isinstance(right, (str, list, tuple))):
            raise SecurityError("repetition of text or lists is not allowed")
        if operator in ("**", "/"):
            raise SecurityError(f"'{operator}' is not allowed")
        return super().call_binop(context, operator, left, right)


@pass_context
def _money(ctx, value):
    return show(int(value), ctx.get("setting", "cash"))


ENV = _Env(undefined=StrictUndefined, autoescape=False)
ENV.filters = {"money": _money, "abs": abs, "min": ENV.filters["min"], "max": ENV.filters["max"],
               "join": ENV.filters["join"], "default": ENV.filters["default"]}


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
        root = node
        while isinstance(root, nodes.Getattr):
            root = root.node
        if not (isinstance(root, nodes.Name) and root.name in ("param", "effect")):
            problems.append("only parameters and effects may be read with a dot (param.topic.name, effect.name)")
    if isinstance(node, nodes.Mul) and any(
            isinstance(side, (nodes.List, nodes.Tuple, nodes.Concat))
            or (isinstance(side, nodes.Const) and isinstance(side.value, str))
            for side in (node.left, node.right)):
        problems.append("repeating text or a list with '*' is not allowed")
    if isinstance(node, nodes.Filter) and node.name not in FILTERS:
        problems.append(f"the filter '{node.name}' is not allowed (allowed: {', '.join(FILTERS)})")
    if isinstance(node, nodes.Name) and node.name.startswith("_"):
        problems.append(f"the name '{node.name}' is not allowed")
    for child in node.iter_child_nodes():
        _walk(child, allowed, problems)


def parse_expression(text: str) -> nodes.Expr:
    parser_src = "{{ " + text + " }}"
    tmpl = ENV.parse(parser_src)
    out = tmpl.body[0]
    if not (isinstance(out, nodes.Output) and len(out.nodes) == 1):
        raise TemplateSyntaxError("not a single expression", 1)
    return out.nodes[0]


def check_expression(text: str) -> list[str]:
    """Problems with an expression, as sentences; empty when it is on the whitelist."""
    if not isinstance(text, (str, int)) or isinstance(text, bool):
        return ["an expression must be text or a whole number"]
    try:
        expr = parse_expression(str(text))
    except TemplateSyntaxError as exc:
        return [f"not a valid expression: {exc.message}"]
    problems: list[str] = []
    _walk(expr, _EXPR_NODES, problems)
    return problems


def check_template(text: str) -> list[str]:
    """Problems with a ``say`` sentence template."""
    try:
        tmpl = ENV.parse(text)
    except TemplateSyntaxError as exc:
        return [f"not a valid sentence template: {exc.message}"]
    problems: list[str] = []
    _walk(tmpl, _TEMPLATE_NODES, problems)
    return problems


def _all(tree: nodes.Node, kind: type) -> list:
    """Every node of a kind, the root included (jinja2's find_all looks only below the root)."""
    return ([tree] if isinstance(tree, kind) else []) + list(tree.find_all(kind))


def names_in(text: str, template: bool = False) -> set[str]:
    """The fact names an expression or template reads (``param`` stands for all parameters)."""
    tree = ENV.parse(text) if template else parse_expression(str(text))
    return {n.name for n in _all(tree, nodes.Name)}


def param_names_in(text: str, template: bool = False) -> set[str]:
    """The parameters (``param.a.b`` -> 'a.b') an expression or template reads."""
    tree = ENV.parse(text) if template else parse_expression(str(text))
    found = set()
    for node in _all(tree, nodes.Getattr):
        parts, root = [], node
        while isinstance(root, nodes.Getattr):
            parts.append(root.attr)
            root = root.node
        if isinstance(root, nodes.Name) and root.name == "param":
            found.add(".".join(reversed(parts)))
    # keep only the longest chains (a.b, not a)
    return {f for f in found if not any(g != f and g.startswith(f + ".") for g in found)}


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


def to_durable(text: str | int, field_name: Callable[[str], str]) -> Any:
    """Translate a whitelisted arithmetic expression into durable-rules' ``$m`` arithmetic form.

    Only names, parameters, whole numbers and + - * are accepted: the engine
    compares one fact with itself, never with another fact.

    >>> to_durable("pot + 2 * to_call", lambda n: n)
    {'$add': {'$l': {'$m': 'pot'}, '$r': {'$mul': {'$l': 2, '$r': {'$m': 'to_call'}}}}}
    """
    def conv(node: nodes.Node) -> Any:
        if isinstance(node, nodes.Const) and isinstance(node.value, int) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, nodes.Name):
            return {"$m": field_name(node.name)}
        if isinstance(node, nodes.Getattr):
            parts, root = [], node
            while isinstance(root, nodes.Getattr):
                parts.append(root.attr)
                root = root.node
            return {"$m": field_name("param." + ".".join(reversed(parts)))}
        ops = {nodes.Add: "$add", nodes.Sub: "$sub", nodes.Mul: "$mul"}
        for cls, op in ops.items():
            if isinstance(node, cls):
                return {op: {"$l": conv(node.left), "$r": conv(node.right)}}
        raise ValueError("only names, whole numbers and + - * may appear in a condition")
    return conv(parse_expression(str(text)))
