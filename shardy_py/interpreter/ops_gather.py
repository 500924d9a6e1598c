"""``gather``, ``dynamic_gather`` and ``scatter`` on whole arrays: every element's operand index is
computed at once with numpy index arithmetic, then read (gather) or combined into the result with the
update computation in the reference's order (scatter)."""
from __future__ import annotations

import numpy as np

from shardy_py.interpreter.arith import EXACT_ADD_DTYPES
from shardy_py.interpreter.evaluator import attr, handler, ints
from shardy_py.interpreter.regions import apply_scalar_region, binary_ufunc


def _index_vectors(indices: np.ndarray, index_vector_dim: int) -> np.ndarray:
    """``indices`` with the index vector as the last dimension (a size-1 one when it is implicit)."""
    if index_vector_dim == indices.ndim:
        return indices[..., None].astype(np.int64)
    if index_vector_dim != indices.ndim - 1:
        order = [d for d in range(indices.ndim) if d != index_vector_dim] + [index_vector_dim]
        indices = indices.transpose(order)
    return indices.astype(np.int64)


def _batch_coordinate(batch_shape, indices_dim: int, index_vector_dim: int) -> np.ndarray:
    """The coordinate along start-indices dimension ``indices_dim`` of each batch position."""
    axis = indices_dim if indices_dim < index_vector_dim else indices_dim - 1
    shape = [1] * len(batch_shape)
    shape[axis] = batch_shape[axis]
    return np.arange(batch_shape[axis]).reshape(shape)


def gather(operand: np.ndarray, indices: np.ndarray, d, slice_sizes: list[int], result_shape) -> np.ndarray:
    """``stablehlo.gather`` with dimension numbers ``d``."""
    vectors = _index_vectors(indices, d.index_vector_dim)
    batch_shape = vectors.shape[:-1]
    rank = operand.ndim
    starts = [np.zeros(batch_shape, dtype=np.int64) for _ in range(rank)]
    for k, od in enumerate(d.start_index_map):
        starts[od] = np.clip(vectors[..., k], 0, operand.shape[od] - slice_sizes[od])
    for od, idim in zip(d.operand_batching_dims, d.start_indices_batching_dims, strict=True):
        starts[od] = np.broadcast_to(_batch_coordinate(batch_shape, idim, d.index_vector_dim), batch_shape)
    nb = len(batch_shape)
    index = []
    for od in range(rank):
        window = np.arange(slice_sizes[od]).reshape([1] * nb + [slice_sizes[od] if i == od else 1
                                                                 for i in range(rank)])
        index.append(starts[od].reshape(batch_shape + (1,) * rank) + window)
    full = operand[tuple(index)]  # batch dims, then the slice's dims
    dropped = set(d.collapsed_slice_dims) | set(d.operand_batching_dims)
    full = full.reshape(batch_shape + tuple(s for od, s in enumerate(slice_sizes) if od not in dropped))
    out_rank = len(result_shape)
    batch_positions = [i for i in range(out_rank) if i not in d.offset_dims]
    order = [0] * out_rank
    for k, pos in enumerate(batch_positions):
        order[pos] = k
    for k, pos in enumerate(d.offset_dims):
        order[pos] = nb + k
    return np.transpose(full, order).reshape(result_shape)


@handler("stablehlo.gather")
def _gather(ev, op, args):
    operand, indices = args
    return [gather(operand, indices, attr(op, "dimension_numbers"), ints(op, "slice_sizes"),
                   tuple(op.results[0].type.shape))]


@handler("stablehlo.dynamic_gather")
def _dynamic_gather(ev, op, args):
    operand, indices, sizes = args
    return [gather(operand, indices, attr(op, "dimension_numbers"), [int(s) for s in sizes.reshape(-1)],
                   tuple(op.results[0].type.shape))]


def _scatter_layout(operand_shape, indices_shape, updates_shape, d):
    """What ``scatter_targets`` computes from the shapes alone: the index of each update element's
    start-index vector, and each operand dimension's offset from the update's window and batch dims."""
    rank = len(operand_shape)
    u_rank = len(updates_shape)
    scatter_dims = [i for i in range(u_rank) if i not in d.update_window_dims]
    coords = np.indices(updates_shape)
    batch_index = tuple(coords[i] for i in scatter_dims)
    base = [np.zeros(updates_shape, dtype=np.int64) for _ in range(rank)]
    for od, idim in zip(d.input_batching_dims, d.scatter_indices_batching_dims, strict=True):
        axis = idim if idim < d.index_vector_dim else idim - 1
        base[od] = base[od] + coords[scatter_dims[axis]]
    window_operand_dims = [od for od in range(rank) if od not in d.inserted_window_dims
                           and od not in d.input_batching_dims]
    for od, ud in zip(window_operand_dims, d.update_window_dims, strict=True):
        base[od] = base[od] + coords[ud]
    return batch_index if scatter_dims else None, base


def scatter_targets(operand_shape, indices: np.ndarray, updates_shape, d,
                    layout=None) -> tuple[np.ndarray, np.ndarray]:
    """(flat result index of each update element, whether it lands inside the result), row-major over
    the updates; ``layout`` is ``_scatter_layout`` of the shapes when known already."""
    vectors = _index_vectors(indices, d.index_vector_dim)
    rank = len(operand_shape)
    batch_index, base = layout or _scatter_layout(operand_shape, indices.shape, updates_shape, d)
    vec = vectors[batch_index] if batch_index is not None else np.broadcast_to(
        vectors.reshape(-1), tuple(updates_shape) + (vectors.shape[-1],))
    full = list(base)
    for k, od in enumerate(d.scatter_dims_to_operand_dims):
        full[od] = full[od] + vec[..., k]
    inside = np.ones(updates_shape, dtype=bool)
    for od in range(rank):
        inside &= (full[od] >= 0) & (full[od] < operand_shape[od])
    flat = np.ravel_multi_index(tuple(np.where(inside, f, 0) for f in full), operand_shape) if rank else \
        np.zeros(updates_shape, dtype=np.int64)
    return flat.reshape(-1), inside.reshape(-1)


def _replaces(region) -> bool:
    """Whether ``region`` returns its second argument (an update replaces the value)."""
    block = region.blocks[0]
    ops = block.ops
    return (len(block.arguments) == 2 and len(ops) == 1 and ops[0].name in ("stablehlo.return", "func.return")
            and len(ops[0].operands) == 1 and ops[0].operands[0] is block.arguments[1])


@handler("stablehlo.scatter")
def _scatter(ev, op, args):
    n = (len(args) - 1) // 2
    inputs, indices, updates = list(args[:n]), args[n], list(args[n + 1:])
    key = (op, inputs[0].shape, indices.shape, updates[0].shape)
    found = ev.memo.get(key)
    if found is None:
        d = attr(op, "scatter_dimension_numbers")
        region = op.regions[0]
        kind = "add" if binary_ufunc(region) == "stablehlo.add" else "replace" if _replaces(region) else None
        found = ev.memo[key] = (d, _scatter_layout(inputs[0].shape, indices.shape, updates[0].shape, d), kind)
    d, layout, kind = found
    targets, inside = scatter_targets(inputs[0].shape, indices, updates[0].shape, d, layout)
    results = [x.reshape(-1).copy() for x in inputs]
    targets = targets[inside]
    values = [u.reshape(-1)[inside] for u in updates]
    region = op.regions[0]
    if n == 1 and kind == "add" and results[0].dtype in EXACT_ADD_DTYPES:
        np.add.at(results[0], targets, values[0])  # in update order, as the rounds below
        return [results[0].reshape(inputs[0].shape)]
    if kind == "replace":  # the last update of each target wins
        last = targets.size - 1 - np.unique(targets[::-1], return_index=True)[1]
        for r, v in zip(results, values, strict=True):
            r[targets[last]] = v[last]
        return [r.reshape(x.shape) for r, x in zip(results, inputs, strict=True)]
    while targets.size:  # one round per repeat of a target, in update order
        first = np.unique(targets, return_index=True)[1]
        t = targets[first]
        new = apply_scalar_region(ev, region, [r[t] for r in results] + [v[first] for v in values])
        for r, v in zip(results, new, strict=True):
            r[t] = v
        rest = np.ones(targets.size, dtype=bool)
        rest[first] = False
        targets = targets[rest]
        values = [v[rest] for v in values]
    return [r.reshape(x.shape) for r, x in zip(results, inputs, strict=True)]
