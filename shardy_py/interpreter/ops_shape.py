"""Constants and data movement: iota, reshape, transpose, broadcast, concatenate, slices, pad, reverse,
tuples and the dynamic-shape variants (whose result types are static when they run)."""
from __future__ import annotations

import numpy as np

from shardy_py.interpreter import arith
from shardy_py.interpreter.evaluator import InterpretError, attr, handler, int_attr, ints, result_element, result_shape
from shardy_py.interpreter.values import TOKEN, from_dense


@handler("stablehlo.constant")
def _constant(ev, op, args):
    found = ev.memo.get(op)
    if found is None:
        value = attr(op, "value")
        if value is None or not hasattr(value, "data"):
            raise InterpretError("stablehlo.constant: expected a dense elements attribute")
        found = ev.memo[op] = from_dense(value)
        found.flags.writeable = False  # shared by every run of the module
    return [found]


def iota(shape: tuple[int, ...], dimension: int, name: str) -> np.ndarray:
    """An array of ``shape`` counting 0, 1, ... along ``dimension``, of element type ``name``."""
    n = shape[dimension]
    line = np.arange(n, dtype=np.int64).reshape([n if d == dimension else 1 for d in range(len(shape))])
    return arith.convert(np.broadcast_to(line, shape), "i64", name)


@handler("stablehlo.iota", "stablehlo.dynamic_iota")
def _iota(ev, op, args):
    return [iota(result_shape(op), int_attr(op, "iota_dimension"), result_element(op))]


@handler("stablehlo.reshape", "stablehlo.dynamic_reshape")
def _reshape(ev, op, args):
    return [np.reshape(args[0], result_shape(op))]


@handler("stablehlo.transpose")
def _transpose(ev, op, args):
    return [np.ascontiguousarray(np.transpose(args[0], ints(op, "permutation")))]


def broadcast_in_dim(x: np.ndarray, dims: list[int], shape: tuple[int, ...]) -> np.ndarray:
    """``x`` broadcast to ``shape``, operand dimension i becoming result dimension ``dims[i]``."""
    order = sorted(range(len(dims)), key=lambda i: dims[i])
    x = np.transpose(x, order)
    sorted_dims = [dims[i] for i in order]
    view_shape = [1] * len(shape)
    for d, size in zip(sorted_dims, x.shape, strict=False):
        view_shape[d] = size
    out = np.empty(shape, x.dtype)
    out[...] = x.reshape(view_shape)
    return out


@handler("stablehlo.broadcast_in_dim", "stablehlo.dynamic_broadcast_in_dim")
def _broadcast_in_dim(ev, op, args):
    return [broadcast_in_dim(args[0], ints(op, "broadcast_dimensions"), result_shape(op))]


@handler("stablehlo.broadcast")
def _broadcast(ev, op, args):
    x = args[0]
    shape = result_shape(op)
    return [np.broadcast_to(x, shape).copy()]


@handler("stablehlo.concatenate")
def _concatenate(ev, op, args):
    return [np.concatenate(args, axis=int_attr(op, "dimension"))]


@handler("stablehlo.slice")
def _slice(ev, op, args):
    starts, limits, strides = ints(op, "start_indices"), ints(op, "limit_indices"), ints(op, "strides")
    index = tuple(slice(s, e, k) for s, e, k in zip(starts, limits, strides, strict=False))
    return [args[0][index].copy()]


def clamped_starts(indices, operand_shape, sizes) -> list[int]:
    """Start indices clamped so a window of ``sizes`` fits in ``operand_shape``."""
    starts = [int(np.asarray(i).reshape(())) for i in indices]
    return [min(max(i, 0), d - s) for i, d, s in zip(starts, operand_shape, sizes, strict=True)]


@handler("stablehlo.dynamic_slice")
def _dynamic_slice(ev, op, args):
    x, *indices = args
    sizes = ints(op, "slice_sizes")
    starts = clamped_starts(indices, x.shape, sizes)
    return [x[tuple(slice(s, s + n) for s, n in zip(starts, sizes, strict=False))].copy()]


@handler("stablehlo.dynamic_update_slice")
def _dynamic_update_slice(ev, op, args):
    x, update, *indices = args
    starts = clamped_starts(indices, x.shape, update.shape)
    out = x.copy()
    out[tuple(slice(s, s + n) for s, n in zip(starts, update.shape, strict=False))] = update
    return [out]


def pad(x: np.ndarray, value, low: list[int], high: list[int], interior: list[int]) -> np.ndarray:
    """``stablehlo.pad``: ``interior`` values between elements, then ``low``/``high`` (negative crops)."""
    spread_shape = [(d - 1) * (i + 1) + 1 if d else 0 for d, i in zip(x.shape, interior, strict=False)]
    spread = np.full(spread_shape, value, dtype=x.dtype)
    spread[tuple(slice(None, None, i + 1) for i in interior)] = x
    out_shape = [lo + s + hi for lo, s, hi in zip(low, spread_shape, high, strict=False)]
    out = np.full([max(d, 0) for d in out_shape], value, dtype=x.dtype)
    src, dst = [], []
    for lo, s, n in zip(low, spread_shape, out_shape, strict=False):
        a = max(0, -lo)
        b = min(s, n - lo)
        src.append(slice(a, max(a, b)))
        dst.append(slice(a + lo, max(a, b) + lo))
    out[tuple(dst)] = spread[tuple(src)]
    return out


@handler("stablehlo.pad")
def _pad(ev, op, args):
    x, value = args
    return [pad(x, value.reshape(()), ints(op, "edge_padding_low"), ints(op, "edge_padding_high"),
                ints(op, "interior_padding"))]


@handler("stablehlo.dynamic_pad")
def _dynamic_pad(ev, op, args):
    x, value, low, high, interior = args
    return [pad(x, value.reshape(()), [int(v) for v in low], [int(v) for v in high], [int(v) for v in interior])]


@handler("stablehlo.reverse")
def _reverse(ev, op, args):
    return [np.flip(args[0], ints(op, "dimensions")).copy()]


@handler("stablehlo.get_dimension_size")
def _get_dimension_size(ev, op, args):
    return [np.array(args[0].shape[int_attr(op, "dimension")], dtype=np.int32)]


@handler("stablehlo.tuple")
def _tuple(ev, op, args):
    return [tuple(args)]


@handler("stablehlo.get_tuple_element")
def _get_tuple_element(ev, op, args):
    return [args[0][int_attr(op, "index")]]


@handler("stablehlo.after_all")
def _after_all(ev, op, args):
    return [TOKEN]


@handler("stablehlo.create_token")
def _create_token(ev, op, args):
    return [TOKEN]


@handler("stablehlo.optimization_barrier")
def _optimization_barrier(ev, op, args):
    return list(args)
