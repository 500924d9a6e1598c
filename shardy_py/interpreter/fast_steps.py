"""Fast steps: the commonest ops, on element types numpy computes exactly as StableHLO does, made once
per op into a closure ``step(env)`` that reads its operands from the environment and writes its result,
skipping the handler's generic path (attribute reading, element-type dispatch, result fitting).

An op gets a step only when its types make the shortcut exact: f32/f64 for float arithmetic (IEEE in
numpy; narrower floats keep the handlers' wider computation), integers of 8 to 64 bits (numpy wraps
around as StableHLO does), i1 for logic; statically shaped results.  Anything else (and any exception
in a step) goes through ``Evaluator.run_op``, which also gives the located errors.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from shardy_py.interpreter.evaluator import attr, int_list
from shardy_py.ir.types import RankedTensorType

Step = Callable[[dict], None]

_FLOATS = frozenset({"f32", "f64"})
_INTS = frozenset({"i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64", "si8", "si16", "si32", "si64"})
_NUMBERS = _FLOATS | _INTS

_BINARY = {
    "stablehlo.add": (np.add, _NUMBERS), "stablehlo.subtract": (np.subtract, _NUMBERS),
    "stablehlo.multiply": (np.multiply, _NUMBERS), "stablehlo.divide": (np.divide, _FLOATS),
    "stablehlo.maximum": (np.maximum, _INTS), "stablehlo.minimum": (np.minimum, _INTS),
    "stablehlo.and": (np.bitwise_and, _INTS | {"i1"}), "stablehlo.or": (np.bitwise_or, _INTS | {"i1"}),
    "stablehlo.xor": (np.bitwise_xor, _INTS | {"i1"}),
}
_UNARY = {"stablehlo.negate": (np.negative, _NUMBERS), "stablehlo.abs": (np.abs, _NUMBERS)}
_COMPARE = {"EQ": np.equal, "NE": np.not_equal, "GE": np.greater_equal, "GT": np.greater,
            "LE": np.less_equal, "LT": np.less}


def _static(t) -> bool:
    return isinstance(t, RankedTensorType) and all(d >= 0 for d in t.shape)


def _elements(op) -> list[str] | None:
    """The element types of the op's operands then results, when all are statically shaped tensors."""
    types = [v.type for v in op.operands if v is not None] + [r.type for r in op.results]
    if len(types) != len(op.operands) + len(op.results) or not all(_static(t) for t in types):
        return None
    return [t.element_type for t in types]


def _binary(op, fn, allowed) -> Step | None:
    els = _elements(op)
    if els is None or len(els) != 3 or len(set(els)) != 1 or els[0] not in allowed:
        return None
    a, b = op.operands
    (r,) = op.results
    shape = tuple(r.type.shape)
    if tuple(a.type.shape) != shape or tuple(b.type.shape) != shape:
        return None
    if not shape:
        def scalar(env):
            env[r] = np.asarray(fn(env[a], env[b]))
        return scalar

    def step(env):
        env[r] = fn(env[a], env[b])
    return step


def _unary(op, fn, allowed) -> Step | None:
    els = _elements(op)
    if els is None or len(els) != 2 or els[0] != els[1] or els[0] not in allowed:
        return None
    (a,), (r,) = op.operands, op.results
    wrap = np.asarray if not r.type.shape else None

    def step(env):
        out = fn(env[a])
        env[r] = wrap(out) if wrap is not None else out
    return step


def _compare(op) -> Step | None:
    els = _elements(op)
    if els is None or len(els) != 3 or els[0] != els[1] or els[0] not in _NUMBERS or els[2] != "i1":
        return None
    direction = getattr(attr(op, "comparison_direction"), "value", attr(op, "comparison_direction"))
    fn = _COMPARE.get(str(direction))
    a, b = op.operands
    (r,) = op.results
    if fn is None or tuple(a.type.shape) != tuple(b.type.shape) or tuple(r.type.shape) != tuple(a.type.shape):
        return None
    wrap = not r.type.shape

    def step(env):
        out = fn(env[a], env[b])
        env[r] = np.asarray(out) if wrap else out
    return step


def _select(op) -> Step | None:
    els = _elements(op)
    if els is None or len(els) != 4 or els[0] != "i1" or not (els[1] == els[2] == els[3]):
        return None
    p, a, b = op.operands
    (r,) = op.results
    shape = tuple(r.type.shape)
    if tuple(a.type.shape) != shape or tuple(b.type.shape) != shape or tuple(p.type.shape) not in ((), shape):
        return None

    def step(env):
        env[r] = np.where(env[p], env[a], env[b])
    return step


def _broadcast_in_dim(op) -> Step | None:
    if _elements(op) is None or len(op.operands) != 1:
        return None
    (a,), (r,) = op.operands, op.results
    dims = int_list(attr(op, "broadcast_dimensions"))
    shape = tuple(r.type.shape)
    if len(dims) != len(a.type.shape):
        return None
    order = tuple(sorted(range(len(dims)), key=lambda i: dims[i]))
    view = [1] * len(shape)
    for i in order:
        view[dims[i]] = a.type.shape[i]
    view = tuple(view)
    identity = order == tuple(range(len(order)))

    def step(env):
        x = env[a]
        if not identity:
            x = x.transpose(order)
        env[r] = np.broadcast_to(x.reshape(view), shape)
    return step


def _reshape(op) -> Step | None:
    if _elements(op) is None or len(op.operands) != 1:
        return None
    (a,), (r,) = op.operands, op.results
    shape = tuple(r.type.shape)

    def step(env):
        env[r] = env[a].reshape(shape)
    return step


def _convert(op) -> Step | None:
    """Integer to integer or float, f32 to f64 and back: numpy's casts are StableHLO's there."""
    els = _elements(op)
    if els is None or len(els) != 2:
        return None
    src, dst = els
    if not ((src in _INTS and dst in _NUMBERS) or (src in _FLOATS and dst in _FLOATS)):
        return None
    from shardy_py.interpreter.values import dtype_of

    dtype = dtype_of(dst)
    (a,), (r,) = op.operands, op.results

    def step(env):
        env[r] = env[a].astype(dtype)
    return step


def _constant(op) -> Step | None:
    value = attr(op, "value")
    if value is None or not hasattr(value, "data") or not _static(op.results[0].type):
        return None
    from shardy_py.interpreter.values import from_dense

    try:
        array = from_dense(value)
    except Exception:  # noqa: BLE001 - the handler reports what it cannot read
        return None
    array.flags.writeable = False
    (r,) = op.results

    def step(env):
        env[r] = array
    return step


_BUILDERS = {"stablehlo.compare": _compare, "stablehlo.select": _select,
             "stablehlo.broadcast_in_dim": _broadcast_in_dim, "stablehlo.reshape": _reshape,
             "stablehlo.convert": _convert, "stablehlo.constant": _constant}


def fast_step(op) -> Step | None:
    """A fast step for ``op``, or None when it must run through its handler."""
    name = op.name
    if name in _BINARY:
        return _binary(op, *_BINARY[name])
    if name in _UNARY:
        return _unary(op, *_UNARY[name])
    builder = _BUILDERS.get(name)
    return builder(op) if builder is not None else None
