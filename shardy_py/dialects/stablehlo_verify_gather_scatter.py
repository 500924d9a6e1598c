"""Verifiers of ``stablehlo.gather``, ``stablehlo.dynamic_gather`` and ``stablehlo.scatter``: their
dimension numbers against the operand shapes, and the inferred result type (``verifyGather``,
``inferGatherOp``, ``inferDynamicGatherOp``, ``validateScatterDimensionNumbers``, ``verifyScatterOp``
in StableHLO's ``TypeInference.cpp``)."""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.dialects.stablehlo_verify_common import (
    bounds,
    check_in_range,
    check_inferred,
    clean_when_seen,
    constant_ints,
    dims_compatible,
    element,
    emit,
    first_duplicate,
    in_types,
    ints_prop,
    op_fail,
    seq,
    shape,
    tensor,
    typed_prop,
)
from shardy_py.dialects.stablehlo_verify_regions import verify_reducer
from shardy_py.dialects.stablehlo_verify_types import block_known, entry_block, scalar_tensor, terminator_types
from shardy_py.ir.diagnostics import Failure
from shardy_py.ir.stablehlo_attrs import GatherDimensionNumbersAttr, ScatterDimensionNumbersAttr
from shardy_py.ir.types import RankedTensorType


def _distinct(op, lhs: Sequence[int], rhs: Sequence[int], lhs_name: str, rhs_name: str) -> Failure | None:
    """``checkDimsDistinct``: no dimension both in ``lhs`` and ``rhs`` (nor twice in either)."""
    dup = first_duplicate([*lhs, *rhs])
    if dup is not None:
        return emit(f"has duplicated dimension from {lhs_name} and {rhs_name}: {dup}")
    return None


def _index_vector_dim_in_range(op, dim: int, rank: int, indices: str) -> Failure | None:
    if dim < 0 or dim > rank:
        return emit(f"Expects index_vector_dim to be in range [0, rank-of('{indices}')] i.e. [0, {rank}]. "
                           f"got: {dim}.")
    return None


def _gather_dims(op, operand: tuple[int, ...], indices: tuple[int, ...], dn: GatherDimensionNumbersAttr,
                 slice_count: int) -> Failure | None:
    """``verifyGather``: the dimension numbers against the operand and start-indices ranks."""
    offset, collapsed, batching = dn.offset_dims, dn.collapsed_slice_dims, dn.operand_batching_dims
    idx_batching, index_map, ivd = dn.start_indices_batching_dims, dn.start_index_map, dn.index_vector_dim
    rank = len(operand)
    if rank != len(offset) + len(collapsed) + len(batching):
        return emit(f"offset_dims size ({len(offset)}) plus collapse_slice_dims size ({len(collapsed)}) plus "
                           f"operand_batching_dims size ({len(batching)}) is not equal to operand rank ({rank})")
    f = _index_vector_dim_in_range(op, ivd, len(indices), "start_indices")
    if f is not None:
        return f
    trailing = ivd == len(indices)
    if trailing or indices[ivd] >= 0:
        size = 1 if trailing else indices[ivd]
        if size != len(index_map):
            return emit(f"start_index_map size ({len(index_map)}) is not equal to size of index dimension "
                               f"({ivd}) of start_indices ({size})")
    if list(offset) != sorted(offset):
        return emit(f"expects offset_dims to be sorted, got: {seq(offset)}")
    if first_duplicate(offset) is not None:
        return emit(f"expects offset_dims to not repeat, got: {seq(offset)}")
    f = _distinct(op, collapsed, batching, "collapsed_slice_dims", "operand_batching_dims")
    if f is not None:
        return f
    if list(collapsed) != sorted(collapsed):
        return emit(f"expects collapsed_slice_dims to be sorted, got: {seq(collapsed)}")
    f = check_in_range(op, collapsed, 0, rank, "collapsed_slice_dims", "[0, rank-of('operand'))")
    if f is not None:
        return f
    if list(batching) != sorted(batching):
        return emit(f"expects operand_batching_dims to be sorted, got: {seq(batching)}")
    f = check_in_range(op, batching, 0, rank, "operand_batching_dims", "[0, rank-of('operand'))")
    if f is not None:
        return f
    if first_duplicate(idx_batching) is not None:
        return emit(f"expects start_indices_batching_dims to not repeat, got: {seq(idx_batching)}")
    f = check_in_range(op, idx_batching, 0, len(indices), "start_indices_batching_dims",
                       "[0, rank-of('start_indices'))")
    if f is not None:
        return f
    if ivd in idx_batching:
        return emit(f"expects start_indices_batching_dims not to include index_vector_dim {ivd}")
    if len(batching) != len(idx_batching):
        return emit("operand_batching_dims and start_indices_batching_dims should have the same size")
    for i, (od, sd) in enumerate(zip(batching, idx_batching, strict=False)):
        if not dims_compatible(operand[od], indices[sd]):
            return emit(f"operand_batching_dims[{i}] and start_indices_batching_dims[{i}] must have "
                               f"compatible sizes, but got {operand[od]} and {indices[sd]}")
    f = _distinct(op, index_map, batching, "start_index_map", "operand_batching_dims")
    if f is not None:
        return f
    f = check_in_range(op, index_map, 0, rank, "start_index_map", "[0, rank-of('operand'))")
    if f is not None:
        return f
    if slice_count != rank:
        return emit(f"slice_sizes size ({slice_count}) not equal to operand rank ({rank})")
    return None


def _slice_sizes(op, operand: tuple[int, ...], dn: GatherDimensionNumbersAttr,
                 sizes: Sequence[int]) -> Failure | None:
    """gather_c9, c12, c21: collapsed and batching dims slice at most 1; each slice fits its dimension."""
    for dims, name in ((dn.collapsed_slice_dims, "collapsed_slice_dims"),
                       (dn.operand_batching_dims, "operand_batching_dims")):
        for d in dims:
            if sizes[d] > 1:
                return emit(f"Expects that for each dim in {name}, slice_sizes[dim] should be <= 1, but got "
                                   f"{sizes[d]}")
    for i, size in enumerate(sizes):
        if size < 0 or (operand[i] >= 0 and size > operand[i]):
            return emit(f"slice size ({size}) is out of bounds for operand dimension ({operand[i]}) at "
                               f"index {i}")
    return None


def _gather_result(op, operand_type, indices_type, dn: GatherDimensionNumbersAttr,
                   slice_dim) -> Failure | None:
    """``inferGatherReturnTypeComponents``, then the result type against it."""
    indices = shape(indices_type)
    offset, ivd = dn.offset_dims, dn.index_vector_dim
    indices_rank = len(indices) + (1 if ivd == len(indices) else 0)
    result_rank = len(offset) + indices_rank - 1
    f = check_in_range(op, offset, 0, result_rank, "offset_dims", "[0, implied-result-rank)")
    if f is not None:
        return f
    removed = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    kept = [d for d in range(len(shape(operand_type))) if d not in removed]
    dims: list[int] = []
    batch_index = 0
    for i in range(result_rank):
        if i in offset:
            k = offset.index(i)
            dims.append(slice_dim(kept[k]) if k < len(kept) else -1)
            continue
        index = batch_index + (1 if batch_index >= ivd else 0)
        batch_index += 1
        dims.append(indices[index] if index < len(indices) else 1)
    idx_bounds = bounds(indices_type)
    out_bounds = None
    if idx_bounds:
        out_bounds, j = [-1] * result_rank, 0
        for i in range(result_rank):
            if i in offset:
                continue
            if j == ivd:
                j += 1
            out_bounds[i] = idx_bounds[j] if j < len(idx_bounds) else -1
            j += 1
    return check_inferred(op, [tensor(dims, element(operand_type), out_bounds)])


@clean_when_seen
def verify_gather(op, ctx) -> Failure | None:
    """``stablehlo.gather``: ``inferGatherOp``."""
    types = in_types(op)
    operand, indices = (shape(t) for t in types[:2])
    dn = typed_prop(op, "dimension_numbers")
    sizes = ints_prop(op, "slice_sizes")
    if operand is None or indices is None or not isinstance(dn, GatherDimensionNumbersAttr) or sizes is None:
        return None
    f = _gather_dims(op, operand, indices, dn, len(sizes)) or _slice_sizes(op, operand, dn, sizes)
    return f or _gather_result(op, types[0], types[1], dn, lambda d: sizes[d])


def verify_dynamic_gather(op, ctx) -> Failure | None:
    """``stablehlo.dynamic_gather``: ``inferDynamicGatherOp`` (slice sizes known when they are a constant)."""
    types = in_types(op)
    if len(types) < 3:
        return None
    operand, indices, sizes_shape = (shape(t) for t in types[:3])
    dn = typed_prop(op, "dimension_numbers")
    if operand is None or indices is None or sizes_shape is None or not isinstance(dn, GatherDimensionNumbersAttr):
        return None
    if len(sizes_shape) != 1:
        return emit(f"slice_sizes.rank != 1 (got {len(sizes_shape)})")
    f = _gather_dims(op, operand, indices, dn, sizes_shape[0])
    if f is not None:
        return f
    sizes = constant_ints(op.operands[2])
    if sizes is not None and len(sizes) == len(operand):
        f = _slice_sizes(op, operand, dn, sizes)
        if f is not None:
            return f
    return _gather_result(op, types[0], types[1], dn, (lambda d: sizes[d]) if sizes is not None else (lambda d: -1))


def _scatter_dims(op, operand: tuple[int, ...], indices: list[int], updates: tuple[int, ...],
                  dn: ScatterDimensionNumbersAttr) -> Failure | None:
    """``validateScatterDimensionNumbers`` (``indices`` already expanded by a trailing 1 where implied)."""
    window, inserted, batching = dn.update_window_dims, dn.inserted_window_dims, dn.input_batching_dims
    idx_batching, to_operand = dn.scatter_indices_batching_dims, dn.scatter_dims_to_operand_dims
    ivd = dn.index_vector_dim
    rank = len(operand)
    size = len(window) + len(inserted) + len(batching)
    if rank != size:
        return emit("Expects rank-of operand to match size-of('update_window_dims') + "
                           f"size-of('inserted_window_dims') + size-of('input_batching_dims') i.e. {size} but got "
                           f"{rank}.")
    if list(window) != sorted(window):
        return emit(f"Expects update_window_dims to be sorted; got: {seq(window)}.")
    if first_duplicate(window) is not None:
        return emit(f"Expects update_window_dims to not repeat; got: {seq(window)}.")
    checks = (
        lambda: check_in_range(op, window, 0, len(updates), "update_window_dims", "[0, rank-of('updates'))"),
        lambda: _distinct(op, inserted, batching, "inserted_window_dims", "input_batching_dims"),
        lambda: None if list(inserted) == sorted(inserted) else op_fail(
            op, f"Expects inserted_window_dims to be sorted; got: {seq(inserted)}."),
        lambda: check_in_range(op, inserted, 0, rank, "inserted_window_dims", "[0, rank-of('operand'))"),
        lambda: None if list(batching) == sorted(batching) else op_fail(
            op, f"Expects input_batching_dims to be sorted; got: {seq(batching)}."),
        lambda: check_in_range(op, batching, 0, rank, "input_batching_dims", "[0, rank-of('operand'))"),
        lambda: None if first_duplicate(idx_batching) is None else op_fail(
            op, f"Expects scatter_indices_batching_dims to not repeat; got: {seq(idx_batching)}."),
        lambda: check_in_range(op, idx_batching, 0, len(indices), "scatter_indices_batching_dims",
                               "[0, rank-of('scatter_indices'))"),
        lambda: None if ivd not in idx_batching else op_fail(
            op, f"expects scatter_indices_batching_dims not to include index_vector_dim {ivd}."),
        lambda: None if len(batching) == len(idx_batching) else op_fail(
            op, "input_batching_dims and scatter_indices_batching_dims should have the same size."),
    )
    for check in checks:
        f = check()
        if f is not None:
            return f
    for i, (od, sd) in enumerate(zip(batching, idx_batching, strict=False)):
        if not dims_compatible(operand[od], indices[sd]):
            return emit(f"input_batching_dims[{i}] and scatter_indices_batching_dims[{i}] must have compatible "
                               f"sizes, but got {operand[od]} and {indices[sd]}.")
    if ivd < len(indices) and indices[ivd] >= 0 and len(to_operand) != indices[ivd]:
        return emit(f"Scatter op has {len(to_operand)} elements in scatter_dims_to_operand_dims and the bound "
                           f"of dimension index_vector_dim={ivd} of scatter_indices is {indices[ivd]}. These two "
                           "numbers must be equal.")
    return (_distinct(op, to_operand, batching, "scatter_dims_to_operand_dims", "input_batching_dims")
            or check_in_range(op, to_operand, 0, rank, "scatter_dims_to_operand_dims", "[0, rank-of('operand'))"))


def _scatter_bounds(op, operand: tuple[int, ...], indices: list[int], updates: tuple[int, ...],
                    dn: ScatterDimensionNumbersAttr) -> Failure | None:
    """scatter_c4: window dims of the updates within the operand's, scatter dims those of the indices."""
    removed = set(dn.inserted_window_dims) | set(dn.input_batching_dims)
    max_sizes = [d for i, d in enumerate(operand) if i not in removed]
    for i, wd in enumerate(dn.update_window_dims):
        if i < len(max_sizes) and updates[wd] >= 0 and max_sizes[i] >= 0 and updates[wd] > max_sizes[i]:
            return emit("expects bounds of the window dimensions of updates to not exceed the bounds of the "
                               f"corresponding dimensions of operand. For dimension {wd}, updates bound is "
                               f"{updates[wd]}, operand bound is {max_sizes[i]}.")
    seen = 0
    for i, d in enumerate(updates):
        if i in dn.update_window_dims:
            continue
        if seen == dn.index_vector_dim:
            seen += 1
        if seen < len(indices) and not dims_compatible(d, indices[seen]):
            return emit("expects bounds of the scatter dimensions of updates to be same as the bounds of the "
                               f"corresponding dimensions of scatter indices. For scatter dimension {i}, updates "
                               f"bound is {d} , scatter_indices bound is {indices[seen]}.")
        seen += 1
    return None


def _scatter_inferred_types(op, inputs) -> Failure | None:
    """``inferScatterOp`` (InferTypeOpInterface, checked after ``verifyScatterOp``): each result has its
    input's shape and the element type the update computation returns for it (the input's when the body is
    not known)."""
    if not all(isinstance(t, RankedTensorType) for t in inputs):
        return None
    block = entry_block(op.regions[0]) if op.regions else None
    accumulators = list(inputs)
    if block is not None and block.ops:
        if not block_known(block):
            return None
        accumulators = terminator_types(block)
        if len(accumulators) < len(inputs):
            return None
    inferred = [RankedTensorType.get(shape(t), element(a), t.encoding) for t, a in zip(inputs, accumulators,
                                                                                     strict=False)]
    return check_inferred(op, inferred)


def verify_scatter(op, ctx) -> Failure | None:
    """``stablehlo.scatter``: ``verifyScatterOp`` (the update computation by ``verifyReducerShape``)."""
    types = in_types(op)
    n = (len(types) - 1) // 2
    dn = typed_prop(op, "scatter_dimension_numbers")
    shapes = [shape(t) for t in types]
    if n < 1 or len(types) != 2 * n + 1 or any(s is None for s in shapes) or \
            not isinstance(dn, ScatterDimensionNumbersAttr):
        return None
    inputs, indices, updates = shapes[:n], shapes[n], shapes[n + 1:]

    def same_shapes(group) -> bool:
        return all(len(s) == len(group[0]) and all(map(dims_compatible, s, group[0])) for s in group)

    if not same_shapes(inputs):
        return emit("Not all inputs have compatible shapes.")
    if not same_shapes(updates):
        return emit("Not all updates have compatible shapes.")
    f = _index_vector_dim_in_range(op, dn.index_vector_dim, len(indices), "scatter_indices")
    if f is not None:
        return f
    block = entry_block(op.regions[0]) if op.regions else None
    if block is not None and block_known(block):
        f = verify_reducer(block, types[:n], [scalar_tensor(element(t)) for t in types[n + 1:]], [])
        if f is not None:
            return f
    expanded = list(indices) + ([1] if dn.index_vector_dim == len(indices) else [])
    for u in updates:
        want = len(expanded) - 1 + len(dn.update_window_dims)
        if len(u) != want:
            return emit(f"expects updates tensor must be of rank {want} ( == rank-of('scatter_indices') - 1 + "
                               "size-of('update_window_dims'), where 'scatter_indices' is expanded by a trailing 1 "
                               f"dimension if 'index_vector_dim' == rank-of('scatter_indices')), but got {len(u)}.")
    for operand, u in zip(inputs, updates, strict=False):
        f = _scatter_dims(op, operand, expanded, u, dn) or _scatter_bounds(op, operand, expanded, u, dn)
        if f is not None:
            return f
    return _scatter_inferred_types(op, types[:n])  # (after verifyScatterOp, as jaxlib 0.12 reports)
