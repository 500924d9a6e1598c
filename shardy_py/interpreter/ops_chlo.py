"""The CHLO ops the interpreter tests use and JAX emits: ``chlo.mulhi``, ``chlo.scan``,
``chlo.ragged_dot``, and the elementwise CHLO ops numpy can compute directly."""
from __future__ import annotations

import numpy as np

from shardy_py.interpreter import arith
from shardy_py.interpreter.evaluator import InterpretError, attr, enum_attr, handler, int_attr, ints, result_element
from shardy_py.interpreter.ops_elementwise import compare
from shardy_py.interpreter.ops_linalg import dot_general
from shardy_py.interpreter.values import bit_width, int_info, is_complex


def _mulhi_u64(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The high 64 bits of the 128-bit product of unsigned 64-bit integers (32-bit limbs)."""
    mask = np.uint64(0xFFFFFFFF)
    s32 = np.uint64(32)
    a_lo, a_hi = a & mask, a >> s32
    b_lo, b_hi = b & mask, b >> s32
    lo_lo = a_lo * b_lo
    hi_lo = a_hi * b_lo
    lo_hi = a_lo * b_hi
    hi_hi = a_hi * b_hi
    cross = (lo_lo >> s32) + (hi_lo & mask) + lo_hi
    return hi_hi + (hi_lo >> s32) + (cross >> s32)


def mulhi(a: np.ndarray, b: np.ndarray, name: str) -> np.ndarray:
    """The high half of the double-width product of integers of type ``name``."""
    width, signed = int_info(name)
    a, b = np.broadcast_arrays(a, b)
    if width <= 32:
        wide_type = np.int64 if signed else np.uint64
        product = a.astype(wide_type) * b.astype(wide_type)
        return (product >> wide_type(width)).astype(a.dtype) if signed else (product >> np.uint64(width))
    ua, ub = a.astype(np.int64).view(np.uint64) if signed else a, b.astype(np.int64).view(np.uint64) if signed else b
    hi = _mulhi_u64(ua, ub)
    if signed:
        hi = hi - np.where(a < 0, ub, np.uint64(0)) - np.where(b < 0, ua, np.uint64(0))
        return hi.view(np.int64)
    return hi


@handler("chlo.mulhi")
def _mulhi(ev, op, args):
    return [mulhi(args[0], args[1], result_element(op))]


@handler("chlo.scan")
def _scan(ev, op, args):
    """Carry values along ``dimension`` (backward with ``is_reverse``): the region maps (input slices,
    carries) to (output slices, new carries); the results are the stacked outputs, then the carries."""
    dim = int_attr(op, "dimension")
    reverse = bool(getattr(attr(op, "is_reverse"), "value", False))
    n_in = (ints(op, "operandSegmentSizes") or [len(args)])[0]
    n_out = (ints(op, "resultSegmentSizes") or [len(op.results)])[0]
    inputs, carries = list(args[:n_in]), list(args[n_in:])
    length = inputs[0].shape[dim] if inputs else 0
    steps = range(length - 1, -1, -1) if reverse else range(length)
    outputs: list[list] = [[None] * length for _ in range(n_out)]
    for i in steps:
        values = ev.run_region(op.regions[0], [np.take(x, i, axis=dim) for x in inputs] + carries, ev.scope)
        for k in range(n_out):
            outputs[k][i] = values[k]
        carries = list(values[n_out:])
    stacked = [np.stack(o, axis=dim) if length else np.zeros(op.results[k].type.shape, dtype=inputs[0].dtype)
               for k, o in enumerate(outputs)]
    return stacked + carries


@handler("chlo.ragged_dot")
def _ragged_dot(ev, op, args):
    lhs, rhs, group_sizes = args
    d = attr(op, "ragged_dot_dimension_numbers")
    name = result_element(op)
    lhs = arith.convert(lhs, op.operands[0].type.element_type, name)
    rhs = arith.convert(rhs, op.operands[1].type.element_type, name)
    (ragged,) = d.lhs_ragged_dimensions
    group_dims = list(d.rhs_group_dimensions)
    lb, rb, lc, rc = (list(d.lhs_batching_dimensions), list(d.rhs_batching_dimensions),
                      list(d.lhs_contracting_dimensions), list(d.rhs_contracting_dimensions))
    sizes = group_sizes.astype(np.int64)
    ends = np.cumsum(sizes, axis=-1)
    starts = ends - sizes
    pos = np.arange(lhs.shape[ragged])
    n_groups = sizes.shape[-1]
    out_shape = tuple(op.results[0].type.shape)
    if ragged in lc:  # mode 2: the groups split the contracting dimension; one result per group
        out = []
        for g in range(n_groups):
            mask = _place(((pos >= starts[..., g, None]) & (pos < ends[..., g, None])), lhs.ndim, lb, ragged)
            out.append(dot_general(np.where(mask, lhs, 0), rhs, lb, rb, lc, rc, name))
        return [np.stack(out, axis=0).reshape(out_shape)]
    if ragged in lb:
        raise InterpretError("chlo.ragged_dot: a ragged batch dimension is not supported")
    (group_dim,) = group_dims
    rb_in_rhs = [b if b < group_dim else b - 1 for b in rb]
    rc_in_rhs = [c if c < group_dim else c - 1 for c in rc]
    out = np.zeros(out_shape, dtype=np.result_type(lhs, rhs) if name != "i1" else bool)
    for g in range(n_groups):
        mask = _place((pos >= starts[..., g, None]) & (pos < ends[..., g, None]), lhs.ndim, lb, ragged)
        part = dot_general(np.where(mask, lhs, 0), np.take(rhs, g, axis=group_dim), lb, rb_in_rhs, lc, rc_in_rhs,
                           name)
        out = out + part
    return [out]


def _place(mask: np.ndarray, ndim: int, batch_dims: list[int], ragged: int) -> np.ndarray:
    """``mask`` (batch dims of the group sizes, then the ragged dimension) shaped to broadcast over lhs."""
    shape = [1] * ndim
    dims = list(batch_dims[: mask.ndim - 1]) + [ragged]
    order = np.argsort(dims)
    mask = np.transpose(mask, order)
    for d, size in zip(sorted(dims), mask.shape, strict=True):
        shape[d] = size
    return mask.reshape(shape)


@handler("chlo.broadcast_add", "chlo.broadcast_subtract", "chlo.broadcast_multiply", "chlo.broadcast_maximum",
         "chlo.broadcast_minimum", "chlo.broadcast_and", "chlo.broadcast_or", "chlo.broadcast_xor")
def _broadcast_binary(ev, op, args):
    fn = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "maximum": np.maximum,
          "minimum": np.minimum, "and": np.bitwise_and, "or": np.bitwise_or,
          "xor": np.bitwise_xor}[op.name.removeprefix("chlo.broadcast_")]
    name = result_element(op)
    a, b = (arith.wide(x, name) for x in args)
    return [np.broadcast_to(fn(a, b), op.results[0].type.shape).copy()]


@handler("chlo.broadcast_compare")
def _broadcast_compare(ev, op, args):
    name = op.operands[0].type.element_type
    return [compare(args[0], args[1], enum_attr(op, "comparison_direction"), enum_attr(op, "compare_type"), name)]


@handler("chlo.tan")
def _tan(ev, op, args):
    return [np.tan(arith.upcast(args[0], result_element(op)))]


@handler("chlo.is_inf", "chlo.is_pos_inf", "chlo.is_neg_inf")
def _is_inf(ev, op, args):
    x = arith.wide(args[0], op.operands[0].type.element_type)
    kind = op.name.removeprefix("chlo.")
    return [np.isinf(x) & ((x > 0) if kind == "is_pos_inf" else (x < 0) if kind == "is_neg_inf" else True)]


@handler("chlo.sinh", "chlo.cosh", "chlo.asin", "chlo.acos", "chlo.atan", "chlo.asinh", "chlo.acosh", "chlo.atanh")
def _hyperbolic(ev, op, args):
    fn = {"sinh": np.sinh, "cosh": np.cosh, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
          "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh}[op.name.removeprefix("chlo.")]
    return [fn(arith.upcast(args[0], result_element(op)))]


@handler("chlo.conj")
def _conj(ev, op, args):
    return [np.conj(args[0]) if is_complex(result_element(op)) else args[0]]


@handler("chlo.constant_like")
def _constant_like(ev, op, args):
    from shardy_py.interpreter.values import from_dense

    value = attr(op, "value")
    v = from_dense(value) if hasattr(value, "data") else np.asarray(getattr(value, "value", 0))
    return [np.broadcast_to(v, op.results[0].type.shape).copy()]


@handler("chlo.next_after")
def _next_after(ev, op, args):
    name = result_element(op)
    if bit_width(name) not in (16, 32, 64):
        raise InterpretError(f"chlo.next_after on {name} is not supported")
    return [np.nextafter(args[0], args[1])]


@handler("chlo.square")
def _square(ev, op, args):
    name = result_element(op)
    x = arith.wide(args[0], name)
    return [x * x]


@handler("chlo.top_k")
def _top_k(ev, op, args):
    """The ``k`` largest elements of each last-dimension slice, largest first (floats by IEEE total
    order, as the ``sort`` with a ``GT, TOTALORDER`` comparator chlo lowers to), ties lowest index first."""
    (x,) = args
    k = int_attr(op, "k")
    keys = arith.total_order_key(x) if x.dtype.kind not in "iub" else x
    n = x.shape[-1]
    order = n - 1 - np.argsort(keys[..., ::-1], axis=-1, kind="stable")[..., ::-1]
    order = order[..., :k]
    return [np.take_along_axis(x, order, axis=-1), order.astype(np.int32)]
