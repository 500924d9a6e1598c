"""Reductions, windows and sorting: ``reduce``, ``reduce_window``, ``select_and_scatter``, ``sort``.

A reduction folds the elements into the init value in the reference's order (row-major over the
reduced dimensions), each step a whole-array evaluation of the body; a body that is one associative
op of its two arguments on integers is done by numpy's ``ufunc.reduce`` (exact: integer arithmetic
wraps the same in any order)."""
from __future__ import annotations

import itertools

import numpy as np

from shardy_py.interpreter import arith
from shardy_py.interpreter.evaluator import InterpretError, attr, handler, int_attr, ints
from shardy_py.interpreter.ops_shape import pad
from shardy_py.interpreter.regions import apply_scalar_region, binary_ufunc
from shardy_py.interpreter.values import is_float

_UFUNCS = {"stablehlo.add": np.add, "stablehlo.multiply": np.multiply, "stablehlo.maximum": np.maximum,
           "stablehlo.minimum": np.minimum, "stablehlo.and": np.bitwise_and, "stablehlo.or": np.bitwise_or,
           "stablehlo.xor": np.bitwise_xor}


#: Dtypes whose numpy arithmetic rounds each step to the type itself (not the ml_dtypes ones).
_SEQUENTIAL_DTYPES = tuple(np.dtype(t) for t in (np.float16, np.float32, np.float64, np.complex64, np.complex128))


def _combiner(ev, region, names: list[str]):
    """A function (accumulators, values) -> new accumulators doing what ``region`` does."""
    op_name = binary_ufunc(region) if len(names) == 1 else None
    if op_name is not None:
        name = names[0]
        if is_float(name) and op_name in ("stablehlo.maximum", "stablehlo.minimum"):
            take_max = op_name == "stablehlo.maximum"
            return lambda acc, xs: [arith.float_max_min(acc[0], xs[0], take_max)]
        if name == "i1" and op_name in ("stablehlo.add", "stablehlo.multiply"):
            fn = np.logical_or if op_name == "stablehlo.add" else np.logical_and
            return lambda acc, xs: [fn(acc[0], xs[0])]
        fn = _UFUNCS[op_name]
        return lambda acc, xs: [fn(arith.wide(acc[0], name), arith.wide(xs[0], name)).astype(acc[0].dtype)]
    return lambda acc, xs: [np.asarray(v) for v in apply_scalar_region(ev, region, [*acc, *xs])]


def reduce_arrays(ev, region, inputs: list[np.ndarray], inits: list[np.ndarray], dims: list[int],
                  names: list[str]) -> list[np.ndarray]:
    """``stablehlo.reduce`` of ``inputs`` over ``dims`` with the body ``region``."""
    keep = [d for d in range(inputs[0].ndim) if d not in dims]
    out_shape = tuple(inputs[0].shape[d] for d in keep)
    moved = [np.transpose(x, keep + list(dims)).reshape(out_shape + (-1,)) for x in inputs]
    count = moved[0].shape[-1]
    op_name = binary_ufunc(region) if len(inputs) == 1 else None
    acc = [np.broadcast_to(np.asarray(i).reshape(()), out_shape).astype(x.dtype) for i, x in zip(inits, inputs,
                                                                                                strict=True)]
    if op_name in _UFUNCS and names[0] not in ("i1",) and not is_float(names[0]) and "complex" not in names[0]:
        fn = _UFUNCS[op_name]
        return [fn(acc[0], fn.reduce(moved[0], axis=-1)).astype(acc[0].dtype)]
    if op_name in ("stablehlo.add", "stablehlo.multiply") and moved[0].dtype in _SEQUENTIAL_DTYPES:
        # ``accumulate`` adds one element at a time, in order: the reference's sum, every step rounded
        fn = _UFUNCS[op_name]
        return [fn.accumulate(np.concatenate([acc[0][..., None], moved[0]], axis=-1), axis=-1)[..., -1]]
    step = _combiner(ev, region, names)
    for k in range(count):
        acc = step(acc, [m[..., k] for m in moved])
    return acc


@handler("stablehlo.reduce")
def _reduce(ev, op, args):
    n = len(args) // 2
    names = [r.type.element_type for r in op.results]
    return reduce_arrays(ev, op.regions[0], list(args[:n]), list(args[n:]), ints(op, "dimensions"), names)


def _padding_pairs(op, rank: int) -> tuple[list[int], list[int]]:
    p = attr(op, "padding")
    if p is None:
        return [0] * rank, [0] * rank
    values = [int(v) for v in p.values()]
    return values[0::2], values[1::2]


@handler("stablehlo.reduce_window")
def _reduce_window(ev, op, args):
    n = len(args) // 2
    inputs, inits = list(args[:n]), list(args[n:])
    rank = inputs[0].ndim
    window = ints(op, "window_dimensions")
    strides = ints(op, "window_strides", [1] * rank)
    base = ints(op, "base_dilations", [1] * rank)
    wdil = ints(op, "window_dilations", [1] * rank)
    low, high = _padding_pairs(op, rank)
    padded = [pad(x, np.asarray(i).reshape(()), low, high, [b - 1 for b in base]) for x, i in zip(inputs, inits,
                                                                                                  strict=True)]
    out_shape = tuple(op.results[0].type.shape)
    names = [r.type.element_type for r in op.results]
    acc = [np.broadcast_to(np.asarray(i).reshape(()), out_shape).astype(x.dtype) for i, x in zip(inits, inputs,
                                                                                                strict=True)]
    if any(d == 0 for d in out_shape):
        return acc
    step = _combiner(ev, op.regions[0], names)
    for w in itertools.product(*(range(d) for d in window)):
        index = tuple(slice(wi * wd, wi * wd + (o - 1) * s + 1, s)
                      for wi, wd, o, s in zip(w, wdil, out_shape, strides, strict=True))
        acc = step(acc, [p[index] for p in padded])
    return acc


def _window_layout(operand_shape, source_shape, window, strides, low):
    """Per window position: the flat operand index each source element's window reads there (clipped
    into the operand) and whether it is inside the operand (not padding)."""
    rank = len(operand_shape)
    positions = np.arange(int(np.prod(operand_shape))).reshape(operand_shape)
    src_index = np.indices(source_shape)
    layout = []
    for w in itertools.product(*(range(d) for d in window)):
        coords = [src_index[d] * strides[d] + w[d] - low[d] for d in range(rank)]
        inside = np.ones(source_shape, dtype=bool)
        for d in range(rank):
            inside &= (coords[d] >= 0) & (coords[d] < operand_shape[d])
        clipped = tuple(np.clip(c, 0, max(s - 1, 0)) for c, s in zip(coords, operand_shape, strict=True))
        layout.append((positions[clipped], inside))
    return layout


_SELECT = {"GE": np.greater_equal, "GT": np.greater, "LE": np.less_equal, "LT": np.less}


@handler("stablehlo.select_and_scatter")
def _select_and_scatter(ev, op, args):
    operand, source, init = args
    key = (op, operand.shape, source.shape)
    found = ev.memo.get(key)
    if found is None:
        rank = operand.ndim
        low, _ = _padding_pairs(op, rank)
        layout = _window_layout(operand.shape, source.shape, ints(op, "window_dimensions"),
                                ints(op, "window_strides", [1] * rank), low)
        simple = _simple_comparator(op.regions[0])
        name = op.operands[0].type.element_type
        compare = _SELECT.get(simple[0]) if simple is not None and "complex" not in name else None
        found = ev.memo[key] = (layout, compare, simple is not None and simple[2])
    layout, compare, swapped = found
    select, scatter = op.regions
    flat = operand.reshape(-1)
    best_val = best_pos = have = None  # per source element: the selected value, its flat operand index
    for cur_pos, inside in layout:
        cur = flat[cur_pos]
        if best_val is None:
            best_val, best_pos, have = cur, np.where(inside, cur_pos, -1), inside.copy()
            continue
        if compare is not None:
            keep = compare(cur, best_val) if swapped else compare(best_val, cur)
        else:
            (keep,) = apply_scalar_region(ev, select, [best_val, cur])
        take = inside & (~have | ~keep.astype(bool))
        best_val = np.where(take, cur, best_val)
        best_pos = np.where(take, cur_pos, best_pos)
        have |= inside
    result = np.full(operand.size, np.asarray(init).reshape(()), dtype=operand.dtype)
    order = np.flatnonzero(best_pos.reshape(-1) >= 0)
    targets = best_pos.reshape(-1)[order]
    values = source.reshape(-1)[order]
    if binary_ufunc(scatter) == "stablehlo.add" and result.dtype in arith.EXACT_ADD_DTYPES:
        np.add.at(result, targets, values)  # in source order, as the rounds below
        return [result.reshape(operand.shape)]
    while targets.size:  # one pass per repeat of a target, in source order
        first = np.unique(targets, return_index=True)[1]
        (new,) = apply_scalar_region(ev, scatter, [values[first], result[targets[first]]])
        result[targets[first]] = new
        rest = np.ones(targets.size, dtype=bool)
        rest[first] = False
        targets, values = targets[rest], values[rest]
    return [result.reshape(operand.shape)]


def _simple_comparator(region) -> tuple[str, str | None, bool] | None:
    """(direction, compare type, swapped) when ``region`` returns one compare of its first two arguments."""
    block = region.blocks[0]
    ops = block.ops
    if len(ops) != 2 or ops[0].name != "stablehlo.compare" or len(block.arguments) < 2:
        return None
    cmp, ret = ops
    if ret.operands[0] is not cmp.results[0]:
        return None
    a0, a1 = block.arguments[0], block.arguments[1]
    from shardy_py.interpreter.evaluator import enum_attr

    if tuple(cmp.operands) == (a0, a1):
        swapped = False
    elif tuple(cmp.operands) == (a1, a0):
        swapped = True
    else:
        return None
    return enum_attr(cmp, "comparison_direction"), enum_attr(cmp, "compare_type"), swapped


def _stable_order(keys: np.ndarray, descending: bool) -> np.ndarray:
    if not descending:
        return np.argsort(keys, axis=-1, kind="stable")
    n = keys.shape[-1]
    rev = np.argsort(keys[..., ::-1], axis=-1, kind="stable")[..., ::-1]
    return n - 1 - rev


@handler("stablehlo.sort")
def _sort(ev, op, args):
    dim = int_attr(op, "dimension", -1)
    rank = args[0].ndim
    dim = dim + rank if dim < 0 else dim
    moved = [np.moveaxis(a, dim, -1) for a in args]
    n = moved[0].shape[-1] if moved else 0
    simple = _simple_comparator(op.regions[0])
    name = op.operands[0].type.element_type
    order = None
    if simple is not None and simple[0] in ("LT", "GT") and "complex" not in name:
        direction, compare_type, swapped = simple
        descending = (direction == "GT") != swapped
        keys = moved[0]
        if is_float(name):
            keys = arith.total_order_key(keys) if compare_type == "TOTALORDER" else keys.astype(np.float64)
            if compare_type != "TOTALORDER" and np.isnan(keys).any():
                keys = None
        if keys is not None:
            order = _stable_order(keys, descending)
    if order is None:
        order = _comparator_order(ev, op.regions[0], moved, n)
    return [np.moveaxis(np.take_along_axis(m, order, axis=-1), -1, dim) for m in moved]


def _comparator_order(ev, region, moved: list[np.ndarray], n: int) -> np.ndarray:
    """The stable sort order of each slice under a general comparator: every pair compared at once."""
    if n > 4096:
        raise InterpretError("sort with a custom comparator supports at most 4096 elements per slice")
    pair_args = []
    for m in moved:
        pair_args.append(m[..., :, None])
        pair_args.append(m[..., None, :])
    (less,) = apply_scalar_region(ev, region, pair_args)
    less = less.astype(bool)  # less[..., i, j]: element i goes before element j
    before = less.swapaxes(-1, -2).sum(axis=-1)  # how many j go strictly before i
    tie = ~less & ~less.swapaxes(-1, -2)
    earlier_ties = np.tril(tie, -1).sum(axis=-1)
    rank = before + earlier_ties
    return np.argsort(rank, axis=-1, kind="stable")
