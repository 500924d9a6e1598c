"""``shardy_py.explain`` (this package, ``shardy_py.explanation``): why a value ended up sharded the way it is.

On a module propagated with origin tracking (``shardy_py.propagate(module,
debug_sharding_origins=True, debug_propagation_edge_sharding=True)``, or ``opt`` with the
propagation passes' debug options), ``explain(module, value)`` says for each dimension and axis of
the value's sharding which user sharding it came from (a function argument or result, a sharding
constraint, a manual computation's in/out sharding; its priority) and the ops it travelled through,
latest step first, with their source lines (``trace``).  Chains go through the ``func.call`` ops
the pipeline rebuilds from ``sdy.named_computation`` after propagation, matched to their callees by
name and argument/result index (``calls``; those hops have no step).

It also lists the axes kept away (``kept_away``): for every op the value is an operand or result
of (its defining op and its users), and for the ops along its axes' chains, each axis another
tensor of the op has on a factor of the op's sharding rule that maps to a dimension of the value but
is not there, with the first reason that holds in the module: the op's tensors conflict on the
factor (and which priority or the conflict resolution decided), the dimension is closed in the
value's user sharding, the axis already shards another dimension, it is replicated, the factor is
not divisible by it, or the rule blocks the factor.

Priorities are read from the module before propagation: ``propagate`` remembers it for the module
it returns; otherwise pass it as ``original``.

Modules: ``model`` (the dataclasses), ``origins`` (reading the debug attributes, user shardings),
``calls`` (crossing rebuilt calls), ``trace`` (chains), ``kept_away``, ``written`` (user shardings as
written before propagation), ``render`` (text, HTML).
"""
from __future__ import annotations

import re
import sys
import weakref

from shardy_py.explanation.model import AxisStory, Explanation, Hop, KeptAway
from shardy_py.explanation.origins import Node, enclosing_func, func_name
from shardy_py.explanation.trace import explain_node, node_stories
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Value
from shardy_py.passes.manager import PassError
from shardy_py.passes.propagation.propagation_pipeline import (
    options_of,
    original_of,
    propagate,
    remember_original,
)

__all__ = ["explain", "Explanation", "AxisStory", "Hop", "KeptAway", "ExplainError", "remember_original",
           "find_value", "axis_stories"]

#: Modules of ``shardy_py.propagate`` run without debug options -> the same run with them.
_TRACKED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: Ops the propagation pipeline replaces by another kind at the same location.
_RENAMED = {"stablehlo.constant": ("sdy.constant",), "sdy.sharding_constraint": ("sdy.reshard",)}


class ExplainError(ValueError):
    """The value to explain cannot be found (or is not a value of the module)."""


def _tracked(module: Module) -> Module:
    """``module`` when it carries Shardy's origin attributes or is not ``shardy_py.propagate``'s;
    else the same propagation run again with the debug options on (once per module: the copy
    ``explain`` reads, so that the Python API tracks origins as the command line does)."""
    options = options_of(module)
    if options is None or options.get("debug_sharding_origins"):
        return module
    if module in _TRACKED:
        return _TRACKED[module]
    tracked = module
    for edges in (True, False):  # edges fail verification on some modules (a while), in jaxlib too
        try:
            run = propagate(original_of(module), **{**options, "debug_sharding_origins": True,
                                                   "debug_propagation_edge_sharding": edges})
        except PassError:
            continue
        if _same_shape(run, module):
            tracked = run
        break
    _TRACKED[module] = tracked
    return tracked


def _same_shape(a: Module, b: Module) -> bool:
    """Whether the two modules have the same ops in the same places (values map one to one)."""
    return [(op.name, len(op.results)) for op in a.walk()] == [(op.name, len(op.results)) for op in b.walk()]


def _same_value(value: Value, source: Module, target: Module) -> Value:
    """The value of ``target`` at ``value``'s place in ``source`` (modules of the same shape)."""
    owner = value.owner
    op = owner.parent.parent if isinstance(owner, Block) else owner
    ops = _op_map(source, target)
    if op not in ops:  # the module changed since the map was made
        _OP_MAPS.pop(source, None)
        ops = _op_map(source, target)
    if isinstance(owner, Block):
        target_op = ops[op]
        region = op.regions.index(owner.parent)
        block = op.regions[region].blocks.index(owner)
        return target_op.regions[region].blocks[block].arguments[owner.arguments.index(value)]
    return ops[owner].results[owner.results.index(value)]


#: source module -> (target module, {op of source: op of target at the same place}).
_OP_MAPS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _op_map(source: Module, target: Module) -> dict:
    cached = _OP_MAPS.get(source)
    if cached is None or cached[0]() is not target:
        cached = (weakref.ref(target), dict(zip(source.walk(), target.walk(), strict=False)))
        _OP_MAPS[source] = cached
    return cached[1]


def _funcs(module: Module):
    return [op for op in module.ops if op.name == "func.func"]


def find_value(module: Module, spec: str, original: Module | None = None) -> Node:
    """The value named by ``spec``: ``%name`` (as written in the input; ``%argN`` is also argument
    N), ``result N`` (a function result), each optionally prefixed by ``@func:`` (default: the only
    function, else ``@main``, else the first function that has it).  A name the propagated module
    lost (the result of a call the pipeline rebuilt, a constraint it made a reshard, a constant it
    made an ``sdy.constant``) is looked up in ``original`` (the module before propagation) and found
    again by its op's name and location."""
    try:
        return _find_value(module, spec)
    except ExplainError:
        if original is None:
            raise
        error = sys.exc_info()[1]
    try:
        before = _find_value(original, spec)
    except ExplainError:
        raise error from None
    if before.value is None or isinstance(before.value.owner, Block):
        raise error
    op = before.value.owner
    names = (op.name, *_RENAMED.get(op.name, ()))
    for candidate in module.walk():
        if candidate.name in names and candidate.loc == op.loc and len(candidate.results) == len(op.results):
            return Node(candidate.results[before.value.index])
    raise error


def _find_value(module: Module, spec: str) -> Node:
    text = spec.strip()
    func_spec = None
    m = re.fullmatch(r'@("[^"]*"|[\w$.\-]+):\s*(.+)', text)
    if m is not None:
        func_spec, text = m.group(1).strip('"'), m.group(2).strip()
    funcs = _funcs(module)
    if func_spec is not None:
        funcs = [f for f in funcs if func_name(f) == func_spec]
        if not funcs:
            raise ExplainError(f"no function @{func_spec} in the module")
    elif len(funcs) > 1:
        main = [f for f in funcs if func_name(f) == "main"]
        funcs = main + [f for f in funcs if f not in main]
    if not funcs:
        raise ExplainError("the module has no function")
    m = re.fullmatch(r"result\s*#?(\d+)", text)
    if m is not None:
        index = int(m.group(1))
        func = funcs[0]
        count = len(func.properties.get("result_types") or [])
        if index >= count:
            raise ExplainError(f"@{func_name(func)} has {count} result(s); there is no result {index}")
        return Node(func=func, result=index)
    if not text.startswith("%"):
        raise ExplainError(f"cannot read value '{spec}': write %name, result N, or @func:%name")
    for func in funcs:
        for op in func.walk():
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        if arg.name == text:
                            return Node(arg)
            for result in op.results:
                if result.name == text:
                    return Node(result)
        arg = re.fullmatch(r"%arg(\d+)", text)
        if arg is not None and func.regions and func.regions[0].blocks:
            args = func.regions[0].blocks[0].arguments
            if int(arg.group(1)) < len(args):
                return Node(args[int(arg.group(1))])
    raise ExplainError(f"no value {text} in " + ", ".join(f"@{func_name(f)}" for f in funcs))


def printed_value(module: Module, spec: str) -> Value | None:
    """The value ``str(module)`` prints as ``spec`` (``%4``, ``%arg0``, ``@func:%cst_1``), or None."""
    from shardy_py.syntax.names import SsaNames

    text = spec.strip()
    func_spec = None
    m = re.fullmatch(r'@("[^"]*"|[\w$.\-]+):\s*(.+)', text)
    if m is not None:
        func_spec, text = m.group(1).strip('"'), m.group(2).strip()
    if not text.startswith("%"):
        return None
    names = SsaNames(module.op)
    funcs = [f for f in _funcs(module) if func_spec is None or func_name(f) == func_spec]
    main = [f for f in funcs if func_name(f) == "main"]
    for func in main + [f for f in funcs if f not in main]:
        for op in func.walk():
            values = list(op.results)
            for region in op.regions:
                for block in region.blocks:
                    values += block.arguments
            for v in values:
                if names.name(v, v.name) == text:
                    return v
    return None


def explain(module: Module, value: Value | str, *, original: Module | None = None,
            source_name: str | None = None, names: str = "printed") -> Explanation:
    """Why ``value`` (a ``Value`` of ``module`` or a ``find_value`` spec) is sharded as it is in
    the propagated ``module``: per dimension and axis, the user sharding it came from (with its
    priority) and the hops it took (``Explanation.stories``, through rebuilt calls too), and the axes
    kept away from it by the ops it is a tensor of or that its axes went through, each with its
    reason (``Explanation.kept_away``, see ``kept_away``).  ``original`` is the module before
    propagation (for priorities, closed dimensions and replicated axes as written, and names the
    pipeline lost; remembered by ``shardy_py.propagate``), ``source_name`` the file name shown with
    line numbers.  ``str()`` of the result is text, ``_repr_html_()`` an HTML table.

    A name in ``value`` is read as ``str(module)`` prints it (``names="printed"``, what a notebook
    shows), or as the input was written (``names="written"``, what the command line reads in FILE;
    also the fallback when no printed name matches)."""
    if isinstance(value, str) and names == "printed":
        value = printed_value(module, value) or value
    if isinstance(value, Value):
        owner = value.owner
        op = owner.parent.parent if isinstance(owner, Block) and owner.parent is not None else owner
        if enclosing_func(op) is None or _root(op) is not module.op:
            raise ExplainError(f"{value.name or 'the value'} is not a value of this module")
        tracked = _tracked(module)
        node = Node(value if tracked is module else _same_value(value, module, tracked))
    elif isinstance(value, str):
        tracked = _tracked(module)
        node = find_value(tracked, value, original if original is not None else original_of(module))
    else:
        raise ExplainError(f"explain needs a Value or a name such as '%0', not {type(value).__name__}")
    if original is None:
        original = original_of(module)
    module = tracked
    explanation = explain_node(node, module, original)
    explanation.source_name = source_name
    return explanation


def _root(op):
    while op.parent_op is not None:
        op = op.parent_op
    return op


def axis_stories(module: Module, value: Value | str, *, original: Module | None = None) -> list[AxisStory]:
    """``explain(module, value).stories`` without looking for the axes kept away: per dimension and
    axis of ``value``'s sharding (a ``Value`` of ``module``, or a ``find_value`` spec such as
    ``"@main:result 0"``), the user sharding it came from and its hops.  Cheaper than ``explain``
    when only the origins are wanted (``shardy_py.cost`` reads them for each collective)."""
    if isinstance(value, Value):
        tracked = _tracked(module)
        node = Node(value if tracked is module else _same_value(value, module, tracked))
    else:
        tracked = _tracked(module)
        node = find_value(tracked, value, original if original is not None else original_of(module))
    return node_stories(node, tracked, original if original is not None else original_of(module))
