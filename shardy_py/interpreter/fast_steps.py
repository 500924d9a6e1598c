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


#: Results up to this many elements are made as new arrays; larger broadcasts are read-only views.
_SMALL = 4096


def _dtype(element: str) -> np.dtype:
    from shardy_py.interpreter.values import dtype_of

    return dtype_of(element)


def _static(t) -> bool:
    return isinstance(t, RankedTensorType) and all(d >= 0 for d in t.shape)


def _elements(op) -> list[str] | None:
    """The element types of the op's operands then results, when all are statically shaped tensors."""
    types = [v.type for v in op.operands if v is not None] + [r.type for r in op.results]
    if len(types) != len(op.operands) + len(op.results) or not all(_static(t) for t in types):
        return None
    elements = [t.element_type for t in types]
    if any(e.startswith("!") for e in elements):  # quantized: the handlers see them dequantized
        return None
    return elements


def _same_binary(op, allowed):
    """(lhs, rhs, result, element type, shape) of a binary op whose operands and result share one type
    with its element type in ``allowed``; None otherwise."""
    els = _elements(op)
    if els is None or len(els) != 3 or len(set(els)) != 1 or els[0] not in allowed:
        return None
    a, b = op.operands
    (r,) = op.results
    shape = tuple(r.type.shape)
    if tuple(a.type.shape) != shape or tuple(b.type.shape) != shape:
        return None
    return a, b, r, els[0], shape


def _binary(op, fn, allowed) -> Step | None:
    found = _same_binary(op, allowed)
    if found is None:
        return None
    a, b, r, _, shape = found
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

    size = int(np.prod(shape)) if shape else 1
    dtype = np.dtype(_dtype(r.type.element_type))

    if size <= _SMALL:
        def small(env):
            x = env[a]
            out = np.empty(shape, dtype)
            out[...] = (x if identity else x.transpose(order)).reshape(view)
            env[r] = out
        return small

    def step(env):
        x = env[a]
        if not identity:
            x = x.transpose(order)
        env[r] = np.broadcast_to(x.reshape(view), shape)
    return step


#: Float conversions numpy (and ml_dtypes) round once, to nearest even: all between these but f64 to bf16
#: (which ml_dtypes rounds through f32).
_CONVERTIBLE_FLOATS = frozenset({"f16", "bf16", "f32", "f64"})
#: Integer types a float converts to through a float clip (their bounds are exact in f64).
_CLIPPED_INTS = frozenset({"i8", "i16", "i32", "ui8", "ui16", "ui32", "si8", "si16", "si32"})


def _convert(op) -> Step | None:
    """Integer to integer or float, float to float (one rounding), float to an integer of at most 32
    bits (truncated toward zero, saturated, NaN to 0): numpy's casts are StableHLO's there."""
    els = _elements(op)
    if els is None or len(els) != 2:
        return None
    src, dst = els
    dtype = _dtype(dst) if dst in _NUMBERS | _CONVERTIBLE_FLOATS else None
    (a,), (r,) = op.operands, op.results
    if (src in _INTS and dst in _NUMBERS) or (src in _CONVERTIBLE_FLOATS and dst in _CONVERTIBLE_FLOATS
                                              and (src, dst) != ("f64", "bf16")):
        def cast(env):
            env[r] = env[a].astype(dtype, copy=False)
        return cast
    if src in _CONVERTIBLE_FLOATS and dst in _CLIPPED_INTS:
        info = np.iinfo(dtype)
        lo, hi = float(info.min), float(info.max)

        def saturate(env):
            x = env[a].astype(np.float64)
            env[r] = np.clip(np.trunc(np.where(x != x, 0.0, x)), lo, hi).astype(dtype)
        return saturate
    return None


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


def _shift(op) -> Step | None:
    """Shifts of 8-64 bit integers: the amount read unsigned, all bits shifted out from the width on."""
    found = _same_binary(op, _INTS)
    if found is None:
        return None
    a, b, r, element, shape = found
    dtype = _dtype(element)
    width = dtype.itemsize * 8
    unsigned = np.dtype(f"u{dtype.itemsize}")
    signed = np.dtype(f"i{dtype.itemsize}")
    kind = op.name.removeprefix("stablehlo.shift_")

    def step(env):
        x, n = env[a], env[b].view(unsigned)
        big = n >= width
        n = np.where(big, 0, n).astype(unsigned)
        if kind == "left":
            out = np.where(big, 0, np.left_shift(x.view(unsigned), n)).astype(unsigned).view(dtype)
        elif kind == "right_logical":
            out = np.where(big, 0, np.right_shift(x.view(unsigned), n)).astype(unsigned).view(dtype)
        else:
            out = np.right_shift(x.view(signed), np.where(big, width - 1, n).astype(signed)).view(dtype)
        env[r] = out.reshape(shape)
    return step


def _not(op) -> Step | None:
    els = _elements(op)
    if els is None or len(els) != 2 or els[0] != els[1] or els[0] not in _INTS | {"i1"}:
        return None
    (a,), (r,) = op.operands, op.results
    fn = np.logical_not if els[0] == "i1" else np.invert
    wrap = not r.type.shape

    def step(env):
        out = fn(env[a])
        env[r] = np.asarray(out) if wrap else out
    return step


def _bitcast_convert(op) -> Step | None:
    """Between element types of one width: the same bytes seen as the other dtype."""
    els = _elements(op)
    if els is None or len(els) != 2 or not all(e in _NUMBERS for e in els):
        return None
    src, dst = _dtype(els[0]), _dtype(els[1])
    if src.itemsize != dst.itemsize:
        return None
    (a,), (r,) = op.operands, op.results

    def step(env):
        env[r] = env[a].view(dst)
    return step


def _iota(op) -> Step | None:
    els = _elements(op)
    if els is None or op.operands or els[0] not in _NUMBERS:
        return None
    from shardy_py.interpreter.ops_shape import iota

    (r,) = op.results
    try:
        value = iota(tuple(r.type.shape), int(getattr(attr(op, "iota_dimension"), "value", attr(op, "iota_dimension"))),
                     r.type.element_type)
    except Exception:  # noqa: BLE001 - the handler reports what it cannot do
        return None
    value = np.array(value)
    value.flags.writeable = False

    def step(env):
        env[r] = value
    return step


def _window_of(op, operand, indices, sizes):
    """A reader of the window of ``sizes`` at ``indices`` of ``operand`` (the index tuple, each start
    clamped so the window fits), or None when the shapes do not allow a fast step."""
    shape = tuple(operand.type.shape)
    if len(sizes) != len(shape) or len(indices) != len(shape) or any(n > d for n, d in zip(sizes, shape, strict=True)):
        return None
    bounds = [(d - n, n) for d, n in zip(shape, sizes, strict=True)]

    def window(env) -> tuple:
        index = []
        for i, (hi, n) in zip(indices, bounds, strict=True):
            s = min(max(int(env[i]), 0), hi)
            index.append(slice(s, s + n))
        return tuple(index)
    return window


def _dynamic_slice(op) -> Step | None:
    if _elements(op) is None:
        return None
    x, *indices = op.operands
    (r,) = op.results
    window = _window_of(op, x, indices, tuple(int_list(attr(op, "slice_sizes"))))
    if window is None:
        return None

    def step(env):
        env[r] = env[x][window(env)]
    return step


def _dynamic_update_slice(op) -> Step | None:
    if _elements(op) is None:
        return None
    x, u, *indices = op.operands
    (r,) = op.results
    window = _window_of(op, x, indices, tuple(u.type.shape))
    if window is None:
        return None

    def step(env):
        out = env[x].copy()
        out[window(env)] = env[u]
        env[r] = out
    return step


def _reduce_precision(op) -> Step | None:
    els = _elements(op)
    if els is None or len(els) != 2 or els[0] != els[1] or els[0] not in _CONVERTIBLE_FLOATS:
        return None
    from shardy_py.interpreter.ops_elementwise import reduce_precision

    (a,), (r,) = op.operands, op.results
    exponent_bits = int(getattr(attr(op, "exponent_bits"), "value", attr(op, "exponent_bits")))
    mantissa_bits = int(getattr(attr(op, "mantissa_bits"), "value", attr(op, "mantissa_bits")))
    element = els[0]

    def step(env):
        env[r] = reduce_precision(env[a], element, exponent_bits, mantissa_bits)
    return step


def _view(op) -> Step | None:
    """reshape, slice, transpose and reverse of one operand: numpy views, their index or axes read once;
    a result of another shape than the type's goes to the handler."""
    if _elements(op) is None or len(op.operands) != 1:
        return None
    (a,), (r,) = op.operands, op.results
    shape, rank = tuple(r.type.shape), len(a.type.shape)
    if op.name == "stablehlo.reshape":
        def view(x):
            return x.reshape(shape)
    elif op.name == "stablehlo.transpose":
        permutation = tuple(int_list(attr(op, "permutation")))
        if sorted(permutation) != list(range(rank)):
            return None

        def view(x):
            return x.transpose(permutation)
    else:
        if op.name == "stablehlo.slice":
            starts, limits, strides = (int_list(attr(op, k)) for k in ("start_indices", "limit_indices", "strides"))
            index = tuple(slice(s, e, k) for s, e, k in zip(starts, limits, strides, strict=False))
        else:
            dims = set(int_list(attr(op, "dimensions")))
            index = tuple(slice(None, None, -1) if d in dims else slice(None) for d in range(rank))

        def view(x):
            return x[index]

    def step(env):
        out = view(env[a])
        if out.shape != shape:
            raise ValueError(f"{op.name}: unexpected shape")
        env[r] = out
    return step


_BUILDERS = {"stablehlo.compare": _compare, "stablehlo.select": _select,
             "stablehlo.reduce_precision": _reduce_precision,
             "stablehlo.transpose": _view, "stablehlo.reverse": _view,
             "stablehlo.dynamic_slice": _dynamic_slice, "stablehlo.dynamic_update_slice": _dynamic_update_slice,
             "stablehlo.shift_left": _shift, "stablehlo.shift_right_logical": _shift,
             "stablehlo.shift_right_arithmetic": _shift, "stablehlo.not": _not,
             "stablehlo.bitcast_convert": _bitcast_convert, "stablehlo.slice": _view, "stablehlo.iota": _iota,
             "stablehlo.broadcast_in_dim": _broadcast_in_dim, "stablehlo.reshape": _view,
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
