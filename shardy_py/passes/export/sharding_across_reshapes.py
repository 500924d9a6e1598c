"""``isShardingEquivalentAcrossReshapes`` (ir/utils.cc): whether two shardings of two tensors with the
same elements in row-major order (one a reshape of the other) put every element on the same devices.

Each sharding is turned into its mesh axes with their *linear stride*: walking the dimensions from
the last, an axis sharding dimension ``i`` steps over ``cumulative * ceil(dim / axes size)`` elements,
times the sizes of the axes after it in the dimension, where ``cumulative`` is the product of the
later dimensions.  The axes are sorted by stride (stably), and neighbouring sub-axes of one axis
that follow each other in the mesh (``"a":(2)2`` then ``"a":(1)2``) and in memory are merged into
one (the full axis when they make it up).  The two shardings are equivalent when these lists match
axis for axis, stride for stride (within 1e-6).

With ``allow_non_divisible`` a dimension's stride is ``dim / axes size`` (not rounded up), and the
lists must match axis for axis with the same *prefix size* (the number of elements before the
axis's block: the product of the earlier dimensions and of the axes before it in its dimension),
so a reshape may be carried out with padding and slicing.
"""
from __future__ import annotations

import math

import attrs

from shardy_py.ir.attrs import AxisRefAttr, MeshAttr, SubAxisInfoAttr, TensorShardingAttr
from shardy_py.ir.types import RankedTensorType, Type
from shardy_py.verify.axes import axis_size, pre_size

#: ``isNear``'s tolerance.
EPSILON = 1e-6


@attrs.define
class _AxisStride:
    axis: AxisRefAttr
    stride: float
    prefix_size: int
    dim_size: int


def _near(a: float, b: float) -> bool:
    return abs(a - b) < EPSILON


def _axis_strides(sharding: TensorShardingAttr, type_: RankedTensorType, mesh: MeshAttr,
                  allow_non_divisible: bool) -> list[_AxisStride]:
    """``getAxisStrides``: the axes of ``sharding`` by linear stride, contiguous sub-axes merged."""
    strides: list[_AxisStride] = []
    cumulative = 1.0
    shape = type_.shape
    for i in range(len(shape) - 1, -1, -1):
        axes = sharding.dim_shardings[i].axes
        total = math.prod(axis_size(a, mesh) for a in axes)
        per_shard = shape[i] / total if allow_non_divisible else float(-(-shape[i] // total))
        stride = cumulative * per_shard
        base_prefix = math.prod(shape[:i])
        preceding = total
        for axis in reversed(axes):
            preceding //= axis_size(axis, mesh)
            strides.append(_AxisStride(axis, stride, base_prefix * preceding, shape[i]))
            stride *= axis_size(axis, mesh)
        cumulative *= shape[i]
    strides.sort(key=lambda s: s.stride)
    merged: list[_AxisStride] = []
    for entry in strides:
        if merged and _continues(merged[-1], entry, mesh, allow_non_divisible):
            back = merged[-1]
            prev, cur = back.axis, entry.axis
            low = min(pre_size(prev), pre_size(cur))
            size = axis_size(prev, mesh) * axis_size(cur, mesh)
            back.axis = (AxisRefAttr(prev.name) if low == 1 and size == mesh.axis_size(prev.name)
                         else AxisRefAttr(prev.name, SubAxisInfoAttr(low, size)))
            back.prefix_size = min(back.prefix_size, entry.prefix_size)
            continue
        merged.append(entry)
    return merged


def _continues(back: _AxisStride, entry: _AxisStride, mesh: MeshAttr, allow_non_divisible: bool) -> bool:
    """Whether ``entry`` is the sub-axis of ``back``'s axis just above it, laid out right after it."""
    prev, cur = back.axis, entry.axis
    if prev.name != cur.name or pre_size(cur) * axis_size(cur, mesh) != pre_size(prev):
        return False
    if allow_non_divisible:
        return back.prefix_size == entry.prefix_size or (
            back.prefix_size == entry.prefix_size * entry.dim_size and axis_size(cur, mesh) == entry.dim_size)
    return _near(entry.stride, back.stride * axis_size(prev, mesh))


def is_sharding_equivalent_across_reshapes(s1: TensorShardingAttr | None, t1: Type, s2: TensorShardingAttr | None,
                                           t2: Type, mesh_of, allow_non_divisible: bool = False) -> bool:
    """Whether ``s1`` on ``t1`` and ``s2`` on ``t2`` place the elements alike (module docstring).
    ``mesh_of(sharding)`` resolves a sharding's mesh (None when it cannot)."""
    if s1 == s2 and t1 == t2:
        return True
    if s1 is None or s2 is None or s1.mesh_name != s2.mesh_name:
        return False
    if s1.replicated_axes != s2.replicated_axes:
        return False
    if not isinstance(t1, RankedTensorType) or not isinstance(t2, RankedTensorType):
        return False
    if t1.encoding is not None or t2.encoding is not None:
        return False
    mesh = mesh_of(s1)
    if mesh is None:
        return False
    a = _axis_strides(s1, t1, mesh, allow_non_divisible)
    b = _axis_strides(s2, t2, mesh, allow_non_divisible)
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if x.axis != y.axis:
            return False
        if allow_non_divisible:
            if x.prefix_size != y.prefix_size:
                return False
        elif not _near(x.stride, y.stride):
            return False
    return True
