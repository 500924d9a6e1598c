"""``gather``, ``dynamic_gather`` and ``scatter`` on whole arrays: every element's operand index is
computed at once with numpy index arithmetic, then read (gather) or combined into the result with the
update computation in the reference's order (scatter)."""
from __future__ import annotations

import numpy as np

from shardy_py.interpreter.evaluator import attr, handler, ints
from shardy_py.interpreter.regions import apply_scalar_region, binary_ufunc
from shardy_py.interpreter.values import is_float


def _index_vectors(indices: np.ndarray, index_vector_dim: int) -> np.ndarray:
    """``indices`` with the index vector as the last dimension (a size-1 one when it is implicit)."""
    if index_vector_dim == indices.ndim:
        return indices[..., None].astype(np.int64)
    return np.moveaxis(indices, index_vector_dim, -1).astype(np.int64)


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


def scatter_targets(operand_shape, indices: np.ndarray, updates_shape, d) -> tuple[np.ndarray, np.ndarray]:
    """(flat result index of each update element, whether it lands inside the result), row-major over
    the updates."""
    vectors = _index_vectors(indices, d.index_vector_dim)
    rank = len(operand_shape)
    u_rank = len(updates_shape)
    scatter_dims = [i for i in range(u_rank) if i not in d.update_window_dims]
    coords = np.indices(updates_shape)
    # the start index of each update element, from its scatter dims
    batch_index = tuple(coords[i] for i in scatter_dims)
    vec = vectors[batch_index] if scatter_dims else np.broadcast_to(vectors.reshape(-1), tuple(updates_shape)
                                                                     + (vectors.shape[-1],))
    full = [np.zeros(updates_shape, dtype=np.int64) for _ in range(rank)]
    for k, od in enumerate(d.scatter_dims_to_operand_dims):
        full[od] = full[od] + vec[..., k]
    for od, idim in zip(d.input_batching_dims, d.scatter_indices_batching_dims, strict=True):
        axis = idim if idim < d.index_vector_dim else idim - 1
        full[od] = full[od] + coords[scatter_dims[axis]]
    window_operand_dims = [od for od in range(rank) if od not in d.inserted_window_dims
                           and od not in d.input_batching_dims]
    for od, ud in zip(window_operand_dims, d.update_window_dims, strict=True):
        full[od] = full[od] + coords[ud]
    inside = np.ones(updates_shape, dtype=bool)
    for od in range(rank):
        inside &= (full[od] >= 0) & (full[od] < operand_shape[od])
    flat = np.ravel_multi_index(tuple(np.where(inside, f, 0) for f in full), operand_shape) if rank else \
        np.zeros(updates_shape, dtype=np.int64)
    return flat.reshape(-1), inside.reshape(-1)


@handler("stablehlo.scatter")
def _scatter(ev, op, args):
    n = (len(args) - 1) // 2
    inputs, indices, updates = list(args[:n]), args[n], list(args[n + 1:])
    d = attr(op, "scatter_dimension_numbers")
    targets, inside = scatter_targets(inputs[0].shape, indices, updates[0].shape, d)
    results = [x.reshape(-1).copy() for x in inputs]
    targets = targets[inside]
    values = [u.reshape(-1)[inside] for u in updates]
    region = op.regions[0]
    if n == 1 and binary_ufunc(region) == "stablehlo.add" and not is_float(op.results[0].type.element_type) \
            and results[0].dtype != np.bool_ and not np.iscomplexobj(results[0]):
        np.add.at(results[0], targets, values[0])
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
