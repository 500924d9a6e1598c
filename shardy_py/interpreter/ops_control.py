"""Control flow and calls: ``stablehlo.while``/``if``/``case``/``map``, ``func.call``,
``stablehlo.composite`` (runs its decomposition) and ``stablehlo.custom_call`` (none supported)."""
from __future__ import annotations

import numpy as np

from shardy_py.interpreter.evaluator import InterpretError, attr, handler
from shardy_py.interpreter.values import fit


def _symbol(value) -> str:
    text = getattr(value, "value", None)
    if isinstance(text, str):
        return text.lstrip("@")
    return str(value).lstrip("@").strip('"')


def _callee(ev, op, name: str) -> str:
    """The function attribute ``name`` of ``op`` names, read once per op."""
    found = ev.memo.get(op)
    if found is None:
        found = ev.memo[op] = _symbol(attr(op, name))
    return found


@handler("func.call")
def _call(ev, op, args):
    return ev.call(_callee(ev, op, "callee"), args, op.loc)


@handler("stablehlo.composite")
def _composite(ev, op, args):
    return ev.call(_callee(ev, op, "decomposition"), args, op.loc)


@handler("stablehlo.while")
def _while(ev, op, args):
    cond, body = op.regions
    values = list(args)
    scope = ev.scope
    while True:
        (pred,) = ev.run_region(cond, values, scope)
        if not pred:
            return values
        values = ev.run_region(body, values, scope)


@handler("stablehlo.if")
def _if(ev, op, args):
    (pred,) = args
    branch = op.regions[0] if bool(np.asarray(pred).reshape(())) else op.regions[1]
    return ev.run_region(branch, [], ev.scope)


@handler("stablehlo.case")
def _case(ev, op, args):
    (index,) = args
    i = int(np.asarray(index).reshape(()))
    n = len(op.regions)
    if i < 0 or i >= n:
        i = n - 1
    return ev.run_region(op.regions[i], [], ev.scope)


@handler("stablehlo.map")
def _map(ev, op, args):
    from shardy_py.interpreter.regions import apply_scalar_region

    name = op.results[0].type.element_type
    out = apply_scalar_region(ev, op.regions[0], [a.reshape(-1) for a in args])
    return [fit(np.asarray(out[0]), name).reshape(args[0].shape)]


@handler("stablehlo.custom_call")
def _custom_call(ev, op, args):
    target = attr(op, "call_target_name")
    raise InterpretError(f"Unsupported custom call: {getattr(target, 'value', target)}")
