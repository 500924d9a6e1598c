"""The reshape helpers of ``export/utils.cc`` (``ReshapeGroupInfo``, ``buildReshapeGroupInfos``,
``isCommunicationFreeReshape``) and the communication-free slice and pad dimensions
(``isCommunicationFreeSliceDim`` / ``isCommunicationFreePadDim``).

A reshape is cut into *groups*: the shortest runs of input and output dimensions whose sizes
multiply to the same number (``[6, 2] -> [3, 4]`` is one group, ``[2, 6] -> [2, 2, 3]`` two).
"""
from __future__ import annotations

from collections.abc import Sequence

import attrs

from shardy_py.ir.attrs import AxisRefAttr, MeshAttr, TensorShardingAttr
from shardy_py.ir.types import DYNAMIC, RankedTensorType
from shardy_py.passes.export.sharding_across_reshapes import is_sharding_equivalent_across_reshapes
from shardy_py.verify.axes import sharded_size


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


# --- slices and pads ----------------------------------------------------------------------------

def is_communication_free_slice_dim(dim: int, starts: Sequence[int], strides: Sequence[int], in_shape: Sequence[int],
                                    out_shape: Sequence[int], sharding: TensorShardingAttr, mesh: MeshAttr) -> bool:
    """``isCommunicationFreeSliceDim``: each device's slice of dimension ``dim`` lies in its own
    shard (an unsharded dimension, or a prefix slice keeping the shard size)."""
    count = sharded_size(sharding.dim_shardings[dim].axes, mesh)
    if count <= 1:
        return True
    if starts[dim] != 0 or strides[dim] != 1:
        return False
    if in_shape[dim] == DYNAMIC or out_shape[dim] == DYNAMIC:
        return False
    return _ceil_div(in_shape[dim], count) == _ceil_div(out_shape[dim], count)


def is_communication_free_pad_dim(dim: int, low: Sequence[int], interior: Sequence[int], in_shape: Sequence[int],
                                  out_shape: Sequence[int], sharding: TensorShardingAttr, mesh: MeshAttr) -> bool:
    """``isCommunicationFreePadDim``: every output shard of dimension ``dim`` reads only input
    elements of the same shard index (no interior padding)."""
    count = sharded_size(sharding.dim_shardings[dim].axes, mesh)
    if count <= 1:
        return True
    if interior[dim] != 0:
        return False
    size = in_shape[dim]
    if size == DYNAMIC:
        return False
    s_in, s_out = _ceil_div(size, count), _ceil_div(out_shape[dim], count)
    for t in range(count):
        start = t * s_out - low[dim]
        first, last = max(0, start), min(size - 1, start + s_out - 1)
        if first <= last and (first // s_in != t or last // s_in != t):
            return False
    return True


# --- reshape groups -------------------------------------------------------------------------------

@attrs.frozen
class ReshapeGroup:
    """``ReshapeGroupInfo``: input dimensions ``[in_start, in_last)`` become output dimensions
    ``[out_start, out_last)``; ``in_nontrivial`` / ``out_nontrivial`` count those of size > 1."""

    in_start: int
    in_last: int
    out_start: int
    out_last: int
    in_nontrivial: int
    out_nontrivial: int

    @property
    def in_indivisible_dim(self) -> int:
        return self.in_last - 1

    @property
    def is_split(self) -> bool:
        return self.in_nontrivial <= 1 < self.out_nontrivial

    @property
    def is_passthrough(self) -> bool:
        return self.in_nontrivial <= 1 and self.out_nontrivial <= 1

    @property
    def is_neither(self) -> bool:
        return self.in_nontrivial > 1 and self.out_nontrivial > 1

    def has_padded_dims(self, padded_in: Sequence[int], padded_out: Sequence[int], in_type: RankedTensorType,
                        out_type: RankedTensorType) -> bool:
        """``hasIndivisibility`` on padded shapes: a dimension of the group was padded."""
        return (any(padded_in[d] != in_type.shape[d] for d in range(self.in_start, self.in_last))
                or any(padded_out[d] != out_type.shape[d] for d in range(self.out_start, self.out_last)))

    def has_indivisible_dims(self, in_sharding: TensorShardingAttr, out_sharding: TensorShardingAttr, mesh: MeshAttr,
                             in_type: RankedTensorType, out_type: RankedTensorType) -> bool:
        """``hasIndivisibility`` on shardings: a dimension of the group its sharding does not divide."""
        def indivisible(start, last, sharding, type_) -> bool:
            for d in range(start, last):
                count = sharded_size(sharding.dim_shardings[d].axes, mesh)
                if count > 1 and type_.shape[d] % count:
                    return True
            return False

        return (indivisible(self.in_start, self.in_last, in_sharding, in_type)
                or indivisible(self.out_start, self.out_last, out_sharding, out_type))

    def all_axis_refs(self, in_sharding: TensorShardingAttr, out_sharding: TensorShardingAttr) -> list[AxisRefAttr]:
        """``getAllAxisRefs``: the axes of the group's input dimensions, then of its output ones."""
        refs = [a for d in range(self.in_start, self.in_last) for a in in_sharding.dim_shardings[d].axes]
        return refs + [a for d in range(self.out_start, self.out_last) for a in out_sharding.dim_shardings[d].axes]

    def in_volume(self, shape: Sequence[int]) -> int:
        return _product(shape[self.in_start:self.in_last])

    def out_volume(self, shape: Sequence[int]) -> int:
        return _product(shape[self.out_start:self.out_last])


def _product(values) -> int:
    out = 1
    for v in values:
        out *= v
    return out


class ReshapeGroupError(ValueError):
    """A group whose last dimension has size 1 (the C++ asserts it cannot happen)."""


def build_reshape_groups(in_type: RankedTensorType, out_type: RankedTensorType) -> list[ReshapeGroup]:
    """``buildReshapeGroupInfos``: grow each group one dimension at a time on the side whose
    product is smaller, until the products meet."""
    ins, outs = in_type.shape, out_type.shape
    groups: list[ReshapeGroup] = []
    i = o = 0
    while i < len(ins) or o < len(outs):
        in_start, out_start = i, o
        in_prod = out_prod = 1
        if i < len(ins):
            in_prod, i = ins[i], i + 1
        if o < len(outs):
            out_prod, o = outs[o], o + 1
        while in_prod != out_prod and (i < len(ins) or o < len(outs)):
            if in_prod < out_prod and i < len(ins):
                in_prod, i = in_prod * ins[i], i + 1
            elif out_prod < in_prod and o < len(outs):
                out_prod, o = out_prod * outs[o], o + 1
            else:
                break
        if (i - in_start > 1 and ins[i - 1] == 1) or (o - out_start > 1 and outs[o - 1] == 1):
            raise ReshapeGroupError("a reshape group ends with a dimension of size 1")
        groups.append(ReshapeGroup(in_start, i, out_start, o, sum(1 for d in ins[in_start:i] if d != 1),
                                   sum(1 for d in outs[out_start:o] if d != 1)))
    return groups


def is_communication_free_reshape(in_sharding: TensorShardingAttr, out_sharding: TensorShardingAttr,
                                  mesh: MeshAttr | None, in_type: RankedTensorType, out_type: RankedTensorType,
                                  groups: Sequence[ReshapeGroup]) -> bool:
    """``isCommunicationFreeReshape``: padding the input at its high end gives the padded output
    (equivalent shardings, divisible or every group a pass-through)."""
    def mesh_of(_sharding):
        return mesh

    if is_sharding_equivalent_across_reshapes(in_sharding, in_type, out_sharding, out_type, mesh_of, False):
        return True
    if not is_sharding_equivalent_across_reshapes(in_sharding, in_type, out_sharding, out_type, mesh_of, True):
        return False
    return all(g.is_passthrough for g in groups)
