"""Frozen, hashable value classes for the Shardy (``sdy``) attributes.

Names follow Shardy's Python bindings (``MeshAttr``, ``TensorShardingAttr``, ...).
Instances are immutable values: two attributes with the same contents compare
and hash equal.  Parsing is memoised by text (``shardy_py.syntax.sdy_parser``),
so the same attribute text in a module yields the *same* object, the way MLIR
uniques attributes in its context.

``str(attr)`` gives the canonical text the C++ Shardy printer produces, in the
standalone form (``#sdy.sharding<@mesh, [{"a"}, {}]>``); nested attributes
(axis refs, dimension shardings, ...) print in their nested form.
"""
from __future__ import annotations

from typing import Literal, Union

import attrs

from shardy_py.ir import hooks

ReductionKind = Literal["sum", "max", "min"]
REDUCTION_KINDS: tuple[str, ...] = ("sum", "max", "min")
PROPAGATION_DIRECTIONS: tuple[str, ...] = ("NONE", "FORWARD", "BACKWARD", "BOTH")


def _tuple(xs) -> tuple:
    return tuple(xs)


class Attr:
    """Base of every attribute class; ``str()`` prints canonical text."""

    __slots__ = ()

    def __str__(self) -> str:
        return hooks.print_attr(self)


def _frozen(cls):
    return attrs.frozen(cls, cache_hash=True, repr=True, str=False)


def _canonical_opaque_text(text: str) -> str:
    """``text``, except that an array whose every element is an sdy attribute is written the way
    the C++ prints an array attribute: ``[a, b]``, each element canonical."""
    if text[:1] != "[" or "#sdy" not in text:
        return text
    items = hooks.parse_sdy_array(text)
    return text if items is None else "[" + ", ".join(str(x) for x in items) + "]"


@_frozen
class OpaqueAttr(Attr):
    """An attribute this package does not model (builtin or other dialect).

    ``text`` is kept verbatim (whitespace-normalised) and printed back as is, but for an array of
    sdy attributes (``sdy.result_propagation_edges = [#sdy.propagation_edges<...>, ...]``), which is
    kept in canonical form and whose elements ``sdy_array`` gives.
    """

    text: str = attrs.field(converter=_canonical_opaque_text)

    @property
    def sdy_array(self) -> tuple[Attr, ...] | None:
        """The elements when this is an array of sdy attributes (``[]`` included); else None."""
        if self.text[:1] != "[":
            return None
        return hooks.parse_sdy_array(self.text)


#: A unit attribute (``{foo}``): printed as its name only.
UNIT_ATTR = OpaqueAttr("")


@_frozen
class MeshAxisAttr(Attr):
    """A named mesh axis: ``"name"=size``."""

    name: str
    size: int


@_frozen
class MeshAttr(Attr):
    """A mesh: ordered axes and optional explicit device ids.

    ``device_ids`` is empty when the devices are in iota order (the C++ builder
    drops iota ids, so ``<["a"=2], device_ids=[0, 1]>`` equals ``<["a"=2]>``);
    a maximal mesh has no axes and exactly one device id.
    """

    axes: tuple[MeshAxisAttr, ...] = attrs.field(converter=_tuple)
    device_ids: tuple[int, ...] = attrs.field(converter=_tuple, default=())

    @classmethod
    def get(cls, axes, device_ids=()) -> MeshAttr:
        """Build a mesh the way the C++ builder does: iota device ids are dropped."""
        axes = tuple(axes)
        ids = tuple(device_ids)
        if axes and ids:
            total = 1
            for a in axes:
                total *= a.size
            if len(ids) == total and all(i == d for i, d in enumerate(ids)):
                ids = ()
        return cls(axes, ids)

    @property
    def axis_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.axes)

    def axis_size(self, name: str) -> int | None:
        """Size of the axis called ``name``, or None when the mesh has no such axis."""
        for a in self.axes:
            if a.name == name:
                return a.size
        return None

    @property
    def total_size(self) -> int:
        """Number of devices: the product of the axis sizes (1 for an empty mesh)."""
        n = 1
        for a in self.axes:
            n *= a.size
        return n

    @property
    def is_maximal(self) -> bool:
        """True for ``<[], device_ids=[N]>``: everything on one device."""
        return not self.axes and len(self.device_ids) == 1

    @property
    def is_empty(self) -> bool:
        return not self.axes and not self.device_ids


@_frozen
class SubAxisInfoAttr(Attr):
    """Sub-axis info ``(pre_size)size``: with the axis (of size ``n``) reshaped to
    ``[pre_size, size, n // (pre_size * size)]``, the middle dimension; ``pre_size`` is the product
    of the sizes of the sub-axes major to it (``"x":(1)2`` is the major half of ``"x"=4``)."""

    pre_size: int
    size: int


@_frozen
class AxisRefAttr(Attr):
    """A reference to a mesh axis, or to a sub-axis of it: ``"a"`` or ``"a":(2)4``."""

    name: str
    sub_axis_info: SubAxisInfoAttr | None = None

    def size(self, mesh: MeshAttr) -> int | None:
        """Size of the referenced (sub-)axis in ``mesh`` (None for an unknown axis)."""
        if self.sub_axis_info is not None:
            return self.sub_axis_info.size
        return mesh.axis_size(self.name)

    @property
    def pre_size(self) -> int:
        return 1 if self.sub_axis_info is None else self.sub_axis_info.pre_size


@_frozen
class DimensionShardingAttr(Attr):
    """How one tensor dimension is sharded: major-to-minor axes, open/closed, priority."""

    axes: tuple[AxisRefAttr, ...] = attrs.field(converter=_tuple, default=())
    is_closed: bool = True
    priority: int | None = None

    @property
    def is_open(self) -> bool:
        return not self.is_closed


MeshOrRef = Union[str, MeshAttr]


@_frozen
class TensorShardingAttr(Attr):
    """A tensor sharding: a mesh (``@name`` as ``str`` or an inline ``MeshAttr``),
    one ``DimensionShardingAttr`` per dimension, replicated and unreduced axes,
    and the reduction kind of the unreduced axes."""

    mesh_or_ref: MeshOrRef
    dim_shardings: tuple[DimensionShardingAttr, ...] = attrs.field(converter=_tuple, default=())
    replicated_axes: tuple[AxisRefAttr, ...] = attrs.field(converter=_tuple, default=())
    unreduced_axes: tuple[AxisRefAttr, ...] = attrs.field(converter=_tuple, default=())
    reduction: str = "sum"

    @property
    def mesh_name(self) -> str | None:
        """The referenced mesh symbol, or None for an inline mesh."""
        return self.mesh_or_ref if isinstance(self.mesh_or_ref, str) else None

    @property
    def rank(self) -> int:
        return len(self.dim_shardings)

    def _repr_html_(self) -> str | None:
        """Notebook picture when the mesh is inline (None for ``@mesh``); ``shardy_py.show.ShardingView``
        draws any sharding with its mesh and shape."""
        return hooks.sharding_html(self)


@_frozen
class TensorShardingPerValueAttr(Attr):
    """One ``TensorShardingAttr`` per op result (the ``sdy.sharding`` of an op)."""

    shardings: tuple[TensorShardingAttr, ...] = attrs.field(converter=_tuple, default=())


@_frozen
class DimMappingAttr(Attr):
    """Factor indices a tensor dimension maps to (``ij`` is ``(0, 1)``)."""

    factor_indices: tuple[int, ...] = attrs.field(converter=_tuple, default=())


@_frozen
class TensorMappingAttr(Attr):
    """One ``DimMappingAttr`` per tensor dimension."""

    dim_mappings: tuple[DimMappingAttr, ...] = attrs.field(converter=_tuple, default=())

    @property
    def rank(self) -> int:
        return len(self.dim_mappings)


@_frozen
class OpShardingRuleAttr(Attr):
    """``#sdy.op_sharding_rule<([i, j])->([j, i]) {i=8, j=4} ...>``."""

    factor_sizes: tuple[int, ...] = attrs.field(converter=_tuple)
    operand_mappings: tuple[TensorMappingAttr, ...] = attrs.field(converter=_tuple)
    result_mappings: tuple[TensorMappingAttr, ...] = attrs.field(converter=_tuple)
    reduction_factors: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    need_replication_factors: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    permutation_factors: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    blocked_propagation_factors: tuple[int, ...] = attrs.field(converter=_tuple, default=())
    is_custom_rule: bool = False


@_frozen
class ManualAxesAttr(Attr):
    """Axis names of a manual_computation that are manual, in stored order."""

    axes: tuple[str, ...] = attrs.field(converter=_tuple, default=())


@_frozen
class AxisRefListAttr(Attr):
    """``{"a", "b":(1)2}``: a list of axis refs (all_reduce, replicated_to_unreduced)."""

    value: tuple[AxisRefAttr, ...] = attrs.field(converter=_tuple, default=())


@_frozen
class ListOfAxisRefListsAttr(Attr):
    """``[{"a"}, {}]``: one axis list per dimension (all_gather, all_slice, ...)."""

    value: tuple[AxisRefListAttr, ...] = attrs.field(converter=_tuple, default=())


@_frozen
class AllToAllParamAttr(Attr):
    """``{"a"}: 0->2``: axes moved from ``src_dim`` to ``tgt_dim``."""

    axes: tuple[AxisRefAttr, ...] = attrs.field(converter=_tuple)
    src_dim: int
    tgt_dim: int


@_frozen
class AllToAllParamListAttr(Attr):
    """``[{"a"}: 0->2, ...]``."""

    value: tuple[AllToAllParamAttr, ...] = attrs.field(converter=_tuple, default=())


@_frozen
class EdgeValueRefAttr(Attr):
    """``operand-N`` or ``result-N`` in propagation edges."""

    type: str  # "operand" or "result"
    index: int


@_frozen
class AxisToPropagationDetailsAttr(Attr):
    """``{"a" = operand-0 -> [result-0]}``."""

    axis_name: AxisRefAttr
    source: EdgeValueRefAttr
    targets: tuple[EdgeValueRefAttr, ...] = attrs.field(converter=_tuple)


@_frozen
class PropagationOneStepAttr(Attr):
    """``{step-N = [...]}``."""

    step_index: int
    axis_entries: tuple[AxisToPropagationDetailsAttr, ...] = attrs.field(converter=_tuple)


@_frozen
class PropagationEdgesAttr(Attr):
    """``#sdy.propagation_edges<[{step-0 = [...]}, ...]>``."""

    value: tuple[PropagationOneStepAttr, ...] = attrs.field(converter=_tuple)


SDY_ATTR_CLASSES = (
    MeshAxisAttr, MeshAttr, SubAxisInfoAttr, AxisRefAttr, DimensionShardingAttr,
    TensorShardingAttr, TensorShardingPerValueAttr, DimMappingAttr, TensorMappingAttr,
    OpShardingRuleAttr, ManualAxesAttr, AxisRefListAttr, ListOfAxisRefListsAttr,
    AllToAllParamAttr, AllToAllParamListAttr, EdgeValueRefAttr,
    AxisToPropagationDetailsAttr, PropagationOneStepAttr, PropagationEdgesAttr,
)
