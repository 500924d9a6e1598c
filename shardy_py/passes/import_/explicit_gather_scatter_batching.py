"""``-sdy-explicit-gather-scatter-batching`` (import/explicit_gather_scatter_batching.cc): turn the
implicit batch dimension 0 of a ``stablehlo.gather``/``stablehlo.scatter`` into an explicit
operand/start-indices batching dimension, when the index component for operand dimension 0 comes
from an ``iota`` along dimension 0 (possibly through reshapes, broadcasts, clamps and selects) and
dimension 0 is collapsed (gather) or inserted (scatter).

The C++ applies two rewrite patterns with MLIR's greedy pattern driver on each function; what that
driver does besides the patterns (constants hoisted and uniqued, dead ops erased) is
``shardy_py.passes.greedy_driver``.
"""
from __future__ import annotations

from shardy_py.dialects.attr_codecs import i64_array, ints_of
from shardy_py.ir import attrs as A
from shardy_py.ir.builder import Builder
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.ir.stablehlo_attrs import GatherDimensionNumbersAttr, ScatterDimensionNumbersAttr
from shardy_py.ir.types import RankedTensorType
from shardy_py.passes.greedy_driver import erase_dead_ops, unique_constants
from shardy_py.passes.registry import Pass, register
from shardy_py.syntax.attr_reader import parse_attribute

_FALSE = A.OpaqueAttr("false")


def _int(attr) -> int:
    """The integer of a stored integer attribute (``1 : i64``)."""
    return ints_of(attr)[0]


def _defining(value: Value, name: str) -> Operation | None:
    """The op defining ``value`` when it is a ``name`` op."""
    owner = value.owner
    if isinstance(owner, Block) or owner is None or owner.name != name:
        return None
    return owner


def _struct(attr, cls):
    """The dimension numbers ``attr`` as a ``cls`` value (read from its text when stored opaque)."""
    return attr if isinstance(attr, cls) else parse_attribute(str(attr))


def unwrap_reshapes(value: Value) -> Value:
    """``unwrapReshapes``: follow ``value`` up through reshapes, broadcasts, clamps (their operand)
    and selects (the ``on_false`` side when an ``iota`` defines it, else ``on_true``)."""
    while True:
        op = value.owner
        if isinstance(op, Block) or op is None:
            return value
        if op.name in ("stablehlo.reshape", "stablehlo.broadcast_in_dim"):
            value = op.operands[0]
        elif op.name == "stablehlo.clamp":
            value = op.operands[1]
        elif op.name == "stablehlo.select":
            on_false = op.operands[2]
            value = on_false if _defining(on_false, "stablehlo.iota") else op.operands[1]
        else:
            return value


def comes_from_iota(indices: Value, index_vector_dim: int, removed: int) -> bool:
    """``verifyIotaOrigin``: the index component ``removed`` of ``indices`` (a component of a
    ``concatenate`` along the index vector dimension, or the whole) unwraps to an ``iota`` along
    dimension 0."""
    candidate = indices
    concat = _defining(indices, "stablehlo.concatenate")
    if concat is not None:
        if _int(concat.properties["dimension"]) != index_vector_dim or removed >= len(concat.operands):
            return False
        candidate = concat.operands[removed]
    iota = _defining(unwrap_reshapes(candidate), "stablehlo.iota")
    return iota is not None and _int(iota.properties["iota_dimension"]) == 0


def _concatenate(b: Builder, inputs: list[Value], type_: RankedTensorType, dim: int, loc) -> Value:
    op = b.create("stablehlo.concatenate", inputs, result_types=[type_],
                  properties={"dimension": A.OpaqueAttr(f"{dim} : i64")}, loc=loc)
    return op.results[0]


def drop_index_component(op: Operation, indices: Value, index_vector_dim: int, removed: int) -> Value:
    """``sliceAndConcatenateIndices``: ``indices`` without component ``removed`` of the index vector
    dimension, built before ``op``: the other inputs of a ``concatenate`` of one component each
    (the one left, when only one is), else slices of ``indices`` around it, concatenated."""
    type_: RankedTensorType = indices.type
    shape = list(type_.shape)
    total = shape[index_vector_dim]
    reduced = list(shape)
    reduced[index_vector_dim] -= 1
    reduced_type = RankedTensorType.get(reduced, type_.element_type, type_.encoding)
    b = Builder.before(op)
    concat = _defining(indices, "stablehlo.concatenate")
    if (concat is not None and _int(concat.properties["dimension"]) == index_vector_dim
            and len(concat.operands) == total):
        inputs = [v for i, v in enumerate(concat.operands) if i != removed]
        if len(inputs) == 1:
            return inputs[0]
        return _concatenate(b, inputs, reduced_type, index_vector_dim, op.loc)
    parts: list[Value] = []
    for start, limit in ((0, removed), (removed + 1, total)):
        if start >= limit:
            continue
        starts = [0] * len(shape)
        limits = list(shape)
        starts[index_vector_dim], limits[index_vector_dim] = start, limit
        part_shape = list(shape)
        part_shape[index_vector_dim] = limit - start
        part_type = RankedTensorType.get(part_shape, type_.element_type, type_.encoding)
        piece = b.create("stablehlo.slice", [indices], result_types=[part_type], loc=op.loc,
                         properties={"start_indices": i64_array(starts), "limit_indices": i64_array(limits),
                                     "strides": i64_array([1] * len(shape))})
        parts.append(piece.results[0])
    if len(parts) == 1:
        return parts[0]
    return _concatenate(b, parts, reduced_type, index_vector_dim, op.loc)


def _batch_component(operand: Value, indices: Value, index_vector_dim: int, index_map) -> int | None:
    """The position of operand dimension 0 in ``index_map`` when the op may have an implicit batch
    dimension 0 (both ranked, non-scalar, an index vector of more than one component, equal sizes of
    dimension 0), else None."""
    operand_type, indices_type = operand.type, indices.type
    if not isinstance(operand_type, RankedTensorType) or not isinstance(indices_type, RankedTensorType):
        return None
    if operand_type.rank == 0 or indices_type.rank == 0:
        return None
    if index_vector_dim >= indices_type.rank or indices_type.shape[index_vector_dim] <= 1:
        return None
    if indices_type.shape[0] != operand_type.shape[0] or 0 not in index_map:
        return None
    return list(index_map).index(0)


def rewrite_gather(op: Operation) -> bool:
    """``ExplicitGatherBatchingPattern``; True when ``op`` was rewritten."""
    dims = _struct(op.properties["dimension_numbers"], GatherDimensionNumbersAttr)
    if dims.operand_batching_dims:
        return False
    operand, indices = op.operands
    removed = _batch_component(operand, indices, dims.index_vector_dim, dims.start_index_map)
    if removed is None or not comes_from_iota(indices, dims.index_vector_dim, removed):
        return False
    if 0 not in dims.collapsed_slice_dims:
        return False
    new_dims = GatherDimensionNumbersAttr(
        offset_dims=dims.offset_dims,
        collapsed_slice_dims=tuple(d for d in dims.collapsed_slice_dims if d != 0),
        operand_batching_dims=(0,), start_indices_batching_dims=(0,),
        start_index_map=tuple(d for i, d in enumerate(dims.start_index_map) if i != removed),
        index_vector_dim=dims.index_vector_dim)
    op.set_operand(1, drop_index_component(op, indices, dims.index_vector_dim, removed))
    op.properties["dimension_numbers"] = new_dims
    op.properties.setdefault("indices_are_sorted", _FALSE)
    return True


def rewrite_scatter(op: Operation) -> bool:
    """``ExplicitScatterBatchingPattern``; True when ``op`` was rewritten."""
    dims = _struct(op.properties["scatter_dimension_numbers"], ScatterDimensionNumbersAttr)
    if dims.input_batching_dims:
        return False
    count = (len(op.operands) - 1) // 2
    indices = op.operands[count]
    removed = _batch_component(op.operands[0], indices, dims.index_vector_dim,
                               dims.scatter_dims_to_operand_dims)
    if removed is None or not comes_from_iota(indices, dims.index_vector_dim, removed):
        return False
    if 0 not in dims.inserted_window_dims:
        return False
    new_dims = ScatterDimensionNumbersAttr(
        update_window_dims=dims.update_window_dims,
        inserted_window_dims=tuple(d for d in dims.inserted_window_dims if d != 0),
        input_batching_dims=(0,), scatter_indices_batching_dims=(0,),
        scatter_dims_to_operand_dims=tuple(d for i, d in enumerate(dims.scatter_dims_to_operand_dims)
                                           if i != removed),
        index_vector_dim=dims.index_vector_dim)
    op.set_operand(count, drop_index_component(op, indices, dims.index_vector_dim, removed))
    op.properties["scatter_dimension_numbers"] = new_dims
    op.properties.setdefault("indices_are_sorted", _FALSE)
    op.properties.setdefault("unique_indices", _FALSE)
    return True


@register
class ExplicitGatherScatterBatchingPass(Pass):
    name = "sdy-explicit-gather-scatter-batching"
    summary = "Converts implicit batch dims in gather/scatter to explicit batching dims."
    anchor = "func.func"

    def run(self, func, ctx) -> None:
        unique_constants(func)
        for op in list(func.walk()):
            if op.name == "stablehlo.gather":
                rewrite_gather(op)
            elif op.name == "stablehlo.scatter":
                rewrite_scatter(op)
        erase_dead_ops(func)
