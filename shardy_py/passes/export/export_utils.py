"""The partitioner's helpers of ``export/utils.cc`` and ``ir/utils.cc``: local types of sharded
tensors, the shard a device holds along some axes (``getShardIndex``), replica groups
(``getReplicaGroups``, and the mesh-axes form of ``enable-rgv3``), the device id
(``getDeviceId``) and the text of the stablehlo attributes the partitioner writes; and
``alignSubAxesByDecomposition`` (``align_per_dim``), which the collective passes share.

Stablehlo ops keep their inherent attributes as ``OpaqueAttr`` texts in MLIR's canonical form,
so the builders here write those texts.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from shardy_py.ir.attrs import AxisRefAttr, MeshAttr, OpaqueAttr, SubAxisInfoAttr, TensorShardingAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.dense_attrs import DenseElementsAttr
from shardy_py.ir.ops import Value
from shardy_py.ir.types import DYNAMIC, RankedTensorType, Type
from shardy_py.syntax.attr_printer import mesh_body, quote_string, symbol_ref
from shardy_py.verify.axes import (
    axis_size,
    axis_sort_key,
    can_coexist,
    contains,
    overlaps,
    prefix_without_overlap,
    sharded_size,
    suffix_without_overlap,
)

I64 = "i64"
SCALAR_I64 = RankedTensorType.get((), I64)
#: The integer type jaxlib 0.12 computes with the device id in (offsets, shard indices, lookup tables):
#: i32 (the test files' Shardy converted the ui32 id to i64).
INDEX = "i32"
SCALAR_INDEX = RankedTensorType.get((), INDEX)


class PartitionError(Exception):
    """The partitioner cannot rewrite an op (where the C++ fails or crashes): ``op`` and why."""

    def __init__(self, op, message: str):
        super().__init__(message)
        self.op = op


# --- shapes -----------------------------------------------------------------------------------

def total_size(mesh: MeshAttr) -> int:
    """The number of devices of ``mesh``."""
    n = 1
    for a in mesh.axes:
        n *= a.size
    return n


def local_type(type_: Type, sharding: TensorShardingAttr | None, mesh: MeshAttr | None, op=None) -> Type:
    """``TensorShardingAttr::getLocalType`` (divisible shardings only): each dimension divided by
    the size of the axes sharding it; ``type_`` itself without a sharding, mesh or ranked type."""
    if sharding is None or mesh is None or not isinstance(type_, RankedTensorType):
        return type_
    if len(sharding.dim_shardings) != len(type_.shape):
        return type_
    shape = []
    changed = False
    for size, dim in zip(type_.shape, sharding.dim_shardings, strict=True):
        n = sharded_size(dim.axes, mesh)
        if size == DYNAMIC or n == 1:
            shape.append(size)
            continue
        if size % n:
            raise PartitionError(op, f"dimension of size {size} is not divisible by the {n} shards of its "
                                     "sharding (run sdy-pad-for-divisibility first)")
        shape.append(size // n)
        changed = True
    return RankedTensorType.get(shape, type_.element_type, type_.encoding) if changed else type_


# --- devices and axes ---------------------------------------------------------------------------

def shard_indices(mesh: MeshAttr, axes: Sequence[AxisRefAttr]) -> np.ndarray:
    """``getShardIndex`` for every device id ``0 .. N-1`` at once: the index, along ``axes`` (major
    to minor), of the shard each device holds."""
    n = total_size(mesh)
    devices = np.arange(n, dtype=np.int64)
    if mesh.device_ids:
        logical = np.empty(n, dtype=np.int64)
        logical[np.asarray(mesh.device_ids, dtype=np.int64)] = np.arange(n, dtype=np.int64)
    else:
        logical = devices
    sizes = {a.name: a.size for a in mesh.axes}
    names = [a.name for a in mesh.axes]
    index = np.zeros(n, dtype=np.int64)
    for axis in axes:
        size = axis_size(axis, mesh)
        position = names.index(axis.name)
        suffix = 1
        for name in names[position + 1:]:
            suffix *= sizes[name]
        pre = 1 if axis.sub_axis_info is None else axis.sub_axis_info.pre_size
        stride = sizes[axis.name] // (pre * size)
        index = index * size + (logical // (suffix * stride)) % size
    return index


def ordered_axis_refs(axes: Sequence[AxisRefAttr], mesh: MeshAttr) -> list[AxisRefAttr]:
    """``getOrderedAxisRefs`` of an axis list: every mesh axis in mesh order, cut into the
    sub-axes ``axes`` use."""
    cuts: dict[str, set[int]] = {a.name: {1, a.size} for a in mesh.axes}
    for axis in axes:
        info = axis.sub_axis_info
        if info is not None:
            cuts[axis.name].update((info.pre_size, info.pre_size * info.size))
    out: list[AxisRefAttr] = []
    for a in mesh.axes:
        points = sorted(cuts[a.name])
        if len(points) == 2:
            out.append(AxisRefAttr(a.name))
            continue
        pairs = zip(points[:-1], points[1:], strict=True)
        out.extend(AxisRefAttr(a.name, SubAxisInfoAttr(lo, hi // lo)) for lo, hi in pairs)
    return out


def replica_group_array(axes: Sequence[AxisRefAttr], mesh: MeshAttr) -> np.ndarray:
    """``getReplicaGroups``: a (groups, group size) array of device ids; each group varies ``axes``
    (major to minor) and fixes the other axes."""
    refs = ordered_axis_refs(axes, mesh)
    position = {axis: i for i, axis in enumerate(axes)}
    kept = [i for i, r in enumerate(refs) if r not in position]
    reduced = sorted((i for i, r in enumerate(refs) if r in position), key=lambda i: position[refs[i]])
    total = total_size(mesh)
    devices = np.asarray(mesh.device_ids, dtype=np.int64) if mesh.device_ids else np.arange(total, dtype=np.int64)
    group = sharded_size(axes, mesh)
    array = devices.reshape([axis_size(r, mesh) for r in refs]).transpose(kept + reduced)
    return array.reshape(total // group, group)


def dense_text(values, shape: Sequence[int], element: str = I64) -> str:
    """``dense<...> : tensor<shape x element>`` (a splat when all values are equal)."""
    ints = tuple([int(v) for v in np.asarray(values).reshape(-1)])
    key = (ints, tuple(shape), element)
    text = _DENSE_TEXTS.get(key)
    if text is None:  # (the same tables and groups recur for every collective over the same axes)
        if len(_DENSE_TEXTS) > 4096:
            _DENSE_TEXTS.clear()
        type_ = RankedTensorType.get(key[1], element)
        text = _DENSE_TEXTS[key] = DenseElementsAttr.from_values(type_, list(ints)).mlir_text()
    return text


#: ``dense_text`` by (values, shape, element type).
_DENSE_TEXTS: dict[tuple, str] = {}


def _mesh_text(mesh_or_ref) -> str:
    if isinstance(mesh_or_ref, str):
        return symbol_ref(mesh_or_ref)
    return "#sdy.mesh" + mesh_body(mesh_or_ref)


def mesh_axes_groups_text(axes: Sequence[AxisRefAttr], mesh_or_ref) -> str:
    """``#stablehlo.replica_group_mesh_axes<mesh = @m, axes = [...]>`` (``enable-rgv3``)."""
    refs = []
    for axis in axes:
        text = f"#stablehlo.axis_ref<name = {quote_string(axis.name)}"
        if axis.sub_axis_info is not None:
            text += (f", sub_axis_info = #stablehlo.sub_axis_info<pre_size = {axis.sub_axis_info.pre_size}, "
                     f"size = {axis.sub_axis_info.size}>")
        refs.append(text + ">")
    return f"#stablehlo.replica_group_mesh_axes<mesh = {_mesh_text(mesh_or_ref)}, axes = [{', '.join(refs)}]>"


def replica_groups(axes: Sequence[AxisRefAttr], mesh: MeshAttr, mesh_or_ref, rgv3: bool) -> tuple[OpaqueAttr, int]:
    """The ``replica_groups`` attribute over ``axes`` and the size of a group: mesh axes with
    ``rgv3`` when no axis is a sub-axis, else the explicit device-id groups."""
    if rgv3 and all(a.sub_axis_info is None for a in axes):
        return OpaqueAttr(mesh_axes_groups_text(axes, mesh_or_ref)), sharded_size(axes, mesh)
    array = replica_group_array(axes, mesh)
    return OpaqueAttr(dense_text(array, array.shape)), int(array.shape[1])


def zero_value_text(type_: RankedTensorType) -> str:
    """``Builder::getZeroAttr`` of a tensor type, as printed."""
    element = type_.element_type
    if element == "i1":
        zero = "false"
    elif element.startswith(("i", "ui", "si")):
        zero = "0"
    elif element.startswith("complex"):
        zero = "(0.000000e+00,0.000000e+00)"
    else:
        zero = "0.000000e+00"
    return f"dense<{zero}> : {type_}"


def i64(value: int) -> OpaqueAttr:
    return OpaqueAttr(f"{int(value)} : i64")


def i64_array(values: Sequence[int]) -> OpaqueAttr:
    values = [int(v) for v in values]
    return OpaqueAttr(f"array<i64: {', '.join(map(str, values))}>" if values else "array<i64>")


def channel_handle(handle: int, kind: int = 1) -> OpaqueAttr:
    return OpaqueAttr(f"#stablehlo.channel_handle<handle = {handle}, type = {kind}>")


def channel_handle_value(attr) -> int:
    """The ``handle`` of a ``#stablehlo.channel_handle<...>`` attribute (0 for another attribute)."""
    text = str(attr)
    start = text.find("handle =")
    if start < 0:
        return 0
    return int(text[start + len("handle ="):].split(",")[0].strip().rstrip(">"))


def next_channel_id(root) -> int:
    """``getNextChannelId``: one more than the largest ``channel_handle`` of any op in ``root``."""
    largest = 0
    for op in root.walk():
        handle = op.properties_view.get("channel_handle")
        if handle is None:
            handle = op.attributes_view.get("channel_handle")
        if handle is not None:
            largest = max(largest, channel_handle_value(handle))
    return largest + 1


# --- ops ------------------------------------------------------------------------------------------

def constant(b: Builder, text: str, type_: RankedTensorType, loc=None) -> Value:
    """``stablehlo.constant`` of the elements attribute ``text`` (``dense<...> : type``)."""
    return b.create("stablehlo.constant", [], result_types=[type_], properties={"value": OpaqueAttr(text)},
                    loc=loc).results[0]


def scalar_i64(b: Builder, value: int, loc=None) -> Value:
    return constant(b, dense_text([value], ()), SCALAR_I64, loc)


def scalar_index(b: Builder, value: int, loc=None) -> Value:
    """A ``tensor<i32>`` constant (``INDEX``: the device-id arithmetic's type)."""
    return constant(b, dense_text([value], (), INDEX), SCALAR_INDEX, loc)


def device_id(b: Builder, replica_count: int, partition_count: int, loc=None) -> Value:
    """``getDeviceId``: ``stablehlo.replica_id`` (more than one replica) or ``partition_id``, a
    ``tensor<ui32>`` (jaxlib 0.12 indexes its lookup tables with it as it is)."""
    name = "stablehlo.replica_id" if replica_count > 1 else "stablehlo.partition_id"
    return b.create(name, [], result_types=[RankedTensorType.get((), "ui32")], loc=loc).results[0]


def device_index(b: Builder, device: Value, loc=None) -> Value:
    """The ``tensor<ui32>`` device id converted to ``INDEX`` for arithmetic."""
    return b.create("stablehlo.convert", [device], result_types=[SCALAR_INDEX], loc=loc).results[0]


def table_lookup(b: Builder, table: np.ndarray, device: Value, element: str = INDEX, loc=None) -> Value:
    """``table[device]`` as a rank-1, one-element tensor (a constant table and a dynamic slice)."""
    n = len(table)
    const = constant(b, _bool_text(table) if element == "i1" else dense_text(table, (n,), element),
                     RankedTensorType.get((n,), element), loc)
    return b.create("stablehlo.dynamic_slice", [const, device], result_types=[RankedTensorType.get((1,), element)],
                    properties={"slice_sizes": i64_array([1])}, loc=loc).results[0]


def _bool_text(table: np.ndarray) -> str:
    values = ["true" if v else "false" for v in table]
    if len(set(values)) == 1:
        return f"dense<{values[0]}> : tensor<{len(values)}xi1>"
    return f"dense<[{', '.join(values)}]> : tensor<{len(values)}xi1>"


def reshape(b: Builder, value: Value, shape: Sequence[int], loc=None) -> Value:
    t = RankedTensorType.get(tuple(shape), value.type.element_type)
    return b.create("stablehlo.reshape", [value], result_types=[t], loc=loc).results[0]


def transpose(b: Builder, value: Value, permutation: Sequence[int], loc=None) -> Value:
    shape = [value.type.shape[p] for p in permutation]
    t = RankedTensorType.get(tuple(shape), value.type.element_type)
    return b.create("stablehlo.transpose", [value], result_types=[t],
                    properties={"permutation": i64_array(permutation)}, loc=loc).results[0]


def dimension_offset(b: Builder, mesh: MeshAttr, axes: Sequence[AxisRefAttr], shard_size: int,
                     counts: tuple[int, int], loc=None) -> Value:
    """``getDimensionOffset``: the global offset (an ``INDEX`` scalar) of this device's shard along ``axes``."""
    device = device_id(b, *counts, loc=loc)
    lookup = table_lookup(b, shard_indices(mesh, axes) * shard_size, device, loc=loc)
    return b.create("stablehlo.reshape", [lookup], result_types=[SCALAR_INDEX], loc=loc).results[0]


def dynamic_slice_for_axes(b: Builder, value: Value, mesh: MeshAttr, axes_per_dim, local: RankedTensorType,
                           counts: tuple[int, int], loc=None) -> Value:
    """``emitDynamicSliceForAxes``: this device's ``local``-shaped piece of ``value`` along the axes
    slicing each dimension."""
    starts = []
    for dim, axes in enumerate(axes_per_dim):
        axes = tuple(axes)
        if not axes:
            starts.append(scalar_index(b, 0, loc))
        else:
            starts.append(dimension_offset(b, mesh, axes, local.shape[dim], counts, loc))
    return b.create("stablehlo.dynamic_slice", [value, *starts], result_types=[local],
                    properties={"slice_sizes": i64_array(local.shape)}, loc=loc).results[0]


def reduction_body(b_op, element: str, reduction: str) -> None:
    """Fill the region of ``b_op`` (an all-reduce / reduce-scatter) with the scalar reduction
    ``reduction`` (sum, min, max) of ``element``."""
    from shardy_py.ir.edit import add_argument

    block = b_op.regions[0].blocks[0]
    scalar = RankedTensorType.get((), element)
    lhs, rhs = add_argument(block, scalar), add_argument(block, scalar)
    name = {"sum": "stablehlo.add", "min": "stablehlo.minimum", "max": "stablehlo.maximum"}[reduction]
    inner = Builder.at_end(block)
    result = inner.create(name, [lhs, rhs], result_types=[scalar], loc=b_op.loc).results[0]
    inner.create("stablehlo.return", [result], result_types=[], loc=b_op.loc)


def overlap_of(a: AxisRefAttr, b: AxisRefAttr) -> AxisRefAttr:
    """The common part of two overlapping refs to one axis."""
    if a.sub_axis_info is None:
        return b
    if b.sub_axis_info is None:
        return a
    lo = max(a.sub_axis_info.pre_size, b.sub_axis_info.pre_size)
    hi = min(a.sub_axis_info.pre_size * a.sub_axis_info.size, b.sub_axis_info.pre_size * b.sub_axis_info.size)
    return AxisRefAttr(a.name, SubAxisInfoAttr(lo, hi // lo))


def align(axes: list[AxisRefAttr], ordered_others: list[AxisRefAttr], mesh: MeshAttr) -> None:
    """Cut each axis of ``axes`` that partly overlaps one of ``ordered_others`` into its
    non-overlapping prefix, the overlap and the suffix (in place)."""
    i = 0
    while i < len(axes):
        axis = axes[i]
        j = next((k for k, other in enumerate(ordered_others) if overlaps(axis, other)), None)
        moved_on = False
        while j is not None and j < len(ordered_others):
            other = ordered_others[j]
            if not (can_coexist(other, axis) and not contains(other, axis) and overlaps(other, axis)):
                break
            del axes[i]
            prefix = prefix_without_overlap(axis, other)
            if prefix is not None:
                axes.insert(i, prefix)
                i += 1
            axes.insert(i, overlap_of(axis, other))
            i += 1
            suffix = suffix_without_overlap(axis, other, mesh)
            if suffix is None:
                moved_on = True
                break
            axes.insert(i, suffix)
            axis = suffix
            j += 1
        if not moved_on:
            i += 1


def align_per_dim(axes_per_dim: list[list[AxisRefAttr]], others: list[AxisRefAttr], mesh: MeshAttr) -> None:
    """``align`` each dimension's axes of ``axes_per_dim`` with ``others`` (alignSubAxesByDecomposition)."""
    if not others:
        return
    ordered = sorted(others, key=axis_sort_key)
    for axes in axes_per_dim:
        align(axes, ordered, mesh)
