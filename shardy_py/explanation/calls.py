"""The call graph as the propagation pipeline leaves it: each ``func.call`` was an
``sdy.named_computation`` inlined in its caller while propagating and was rebuilt (with its callee
function) afterwards, so the values of a callee carry no ``sdy.propagation_edges`` across the call
and their origin names (``"input: 0"``) are those of the function the call sits in (and so on up to
a function nobody calls).  These helpers cross those edges by name and index."""
from __future__ import annotations

from shardy_py.explanation.model import Hop
from shardy_py.explanation.origins import Node, enclosing_func, func_name, returned_value
from shardy_py.ir.attrs import AxisRefAttr
from shardy_py.ir.ops import Block, Operation
from shardy_py.passes.func_calls import callee_of
from shardy_py.verify.axes import overlaps

#: Deepest call chain walked up (a guard against recursive call graphs).
MAX_DEPTH = 64
#: Longest run of places holding one value followed across calls.
MAX_ALIASES = 256


def _module_op(op: Operation) -> Operation:
    while op.parent_op is not None:
        op = op.parent_op
    return op


def calls_to(func: Operation) -> list[Operation]:
    """The ``func.call`` ops of the module calling ``func``, in walk order."""
    name = func_name(func)
    return [op for op in _module_op(func).walk() if op.name == "func.call" and callee_of(op) == name]


def callee(call: Operation) -> Operation | None:
    """The function ``call`` calls (None when the module has no such function)."""
    name = callee_of(call)
    return next((op for op in _module_op(call).regions[0].blocks[0].ops
                 if op.name == "func.func" and func_name(op) == name), None)


def origin_func(func: Operation | None) -> Operation | None:
    """The function whose arguments and results the origin names seen in ``func`` stand for: ``func``
    itself unless it is called, else (recursively) the function holding its first call."""
    seen: set[int] = set()
    for _ in range(MAX_DEPTH):
        if func is None or id(func) in seen:
            return func
        seen.add(id(func))
        calls = calls_to(func)
        if not calls:
            return func
        func = enclosing_func(calls[0])
    return func


def is_called(func: Operation | None) -> bool:
    return func is not None and bool(calls_to(func))


def call_result(node: Node) -> tuple[Operation, int] | None:
    """(the call, result index) when ``node`` is a result of a ``func.call``."""
    value = node.value
    if value is None or isinstance(value.owner, Block) or value.owner.name != "func.call":
        return None
    return value.owner, value.index


def callee_argument(node: Node) -> tuple[Operation, int] | None:
    """(the callee, argument index) when ``node`` is an argument of a called function."""
    value = node.value
    if value is None or not isinstance(value.owner, Block):
        return None
    owner = node.owner
    if owner is None or owner.name != "func.func" or value.owner is not owner.regions[0].blocks[0]:
        return None
    return (owner, value.index) if is_called(owner) else None


def _hop(op_label: str, loc, source: str, target: str, other: Node) -> tuple[Hop, Node]:
    return Hop(None, op_label, loc, source, target, other.label), other


def aliases(node: Node) -> list[tuple[Hop, Node]]:
    """The places holding the same value as ``node`` across a call, each with the (stepless) hop
    from it to ``node``: a call's result and its callee's result, a callee's result and the value it
    returns, a callee's argument and the operand of each call to it."""
    out: list[tuple[Hop, Node]] = []
    found = call_result(node)
    if found is not None:
        call, index = found
        func = callee(call)
        if func is not None:
            name = func_name(func)
            out.append(_hop(f"func.call @{name}", call.loc, f"result {index} of @{name}", f"result {index}",
                            Node(func=func, result=index)))
    if node.is_func_result:
        name = func_name(node.func)
        value = returned_value(node)
        if value is not None:
            out.append(_hop(f"@{name} returns", node.loc, f"operand {node.result}", "the function result",
                            Node(value)))
        for call in calls_to(node.func):
            if node.result < len(call.results):
                out.append(_hop(f"func.call @{name}", call.loc, f"result {node.result}",
                                f"result {node.result} of @{name}", Node(call.results[node.result])))
        return out
    found = callee_argument(node)
    if found is not None:
        func, index = found
        for call in calls_to(func):
            if index < len(call.operands):
                out.append(_hop(f"func.call @{func_name(func)}", call.loc, f"operand {index}",
                                f"argument {index} of @{func_name(func)}", Node(call.operands[index])))
    for use in node.value.uses:
        if use.op.name == "func.call":
            func = callee(use.op)
            if func is not None and func.regions and func.regions[0].blocks:
                args = func.regions[0].blocks[0].arguments
                if use.index < len(args):
                    out.append(_hop(f"func.call @{func_name(func)}", use.op.loc, f"argument {use.index} of "
                                    f"@{func_name(func)}", f"operand {use.index}", Node(args[use.index])))
        elif use.op.name == "func.return":
            func = enclosing_func(use.op)
            if func is not None and use.op.parent_op is func and is_called(func):
                out.append(_hop(f"@{func_name(func)} returns", use.op.loc, "the function result",
                                f"returned value {use.index}", Node(func=func, result=use.index)))
    return out


def has_axis(node: Node, axis: AxisRefAttr) -> bool:
    """Whether ``node``'s sharding has ``axis`` (or an axis overlapping it) on some dimension."""
    sharding = node.sharding()
    return sharding is not None and any(overlaps(a, axis) for d in sharding.dim_shardings for a in d.axes)


def own_origin_name(node: Node) -> str | None:
    """The origin name ``node`` stands for itself; none for an argument or result of a called
    function (its names are the caller's, see ``calls``)."""
    if node.is_func_result and is_called(node.func):
        return None
    if callee_argument(node) is not None:
        return None
    return node.own_origin_name()


def node_origins(node: Node) -> tuple[dict[str, str] | None, Node]:
    """``node``'s origins, or those of the first place holding the same value across a call (for
    values the pipeline rebuilt after propagation), with the node they were read from."""
    seen = [node]
    current = node
    for _ in range(MAX_ALIASES):
        found = current.origins()
        if found is not None:
            return found, current
        sharding = current.sharding()
        nxt = next((other for _hop, other in aliases(current)
                    if not any(other.same(s) for s in seen) and other.sharding() == sharding), None)
        if nxt is None:
            return None, node
        seen.append(nxt)
        current = nxt
    return None, node
