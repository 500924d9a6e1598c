"""Rules B9-B33: axis-ref lists, dimension shardings, tensor shardings, shardings per value."""
from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from shardy_py.ir.attrs import AxisRefAttr, MeshAttr, TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.ops import Operation
from shardy_py.ir.types import DYNAMIC, Type
from shardy_py.verify.axes import axis_list_str, axis_ref_str, axis_sizes, can_merge, is_mesh_sorted, mesh_sort_key
from shardy_py.verify.context import Context, loc_of
from shardy_py.verify.diagnostics import Failure, fail
from shardy_py.verify.typeutil import is_shaped, shape_of, tuple_elements, type_str

MeshLookup = Callable[[TensorShardingAttr], "MeshAttr | None"]


class AxisListChecker:
    """Checks several axis lists against one mesh with shared state (B9-B11, B14-B19).

    ``seen`` collects every axis ref checked so far (duplicates are reported
    across lists); ``sub_axes`` gathers the sub-axes per axis name for the
    final ``check_sub_axes`` pass.
    """

    def __init__(self, mesh: MeshAttr) -> None:
        self.mesh = mesh
        self.sizes = axis_sizes(mesh)
        self.seen: set[AxisRefAttr] = set()
        self.sub_axes: dict[str, list[AxisRefAttr]] = {}

    def check_list(self, refs: Sequence[AxisRefAttr], what: str = "") -> Failure | None:
        """B9 unknown axis, B10 duplicate ref, B11 adjacent mergeable sub-axes."""
        prev: AxisRefAttr | None = None
        for ref in refs:
            if ref.name not in self.sizes:
                known = ", ".join(f'"{n}"' for n in self.sizes) or "none"
                return fail(f'axis "{ref.name}"{what} is not an axis of the mesh (mesh axes: {known})')
            if ref in self.seen:
                return fail(f"axis {axis_ref_str(ref)}{what} is used more than once; each axis ref may appear "
                            "only once per sharding")
            self.seen.add(ref)
            if ref.sub_axis_info is None:
                prev = ref
                continue
            self.sub_axes.setdefault(ref.name, []).append(ref)
            if prev is not None and can_merge(prev, ref):
                return fail(f"adjacent sub-axes {axis_ref_str(prev)}, {axis_ref_str(ref)}{what} can be merged into "
                            "one; write the merged (sub-)axis instead")
            prev = ref
        return None

    def check_sorted_list(self, refs: Sequence[AxisRefAttr], kind: str) -> Failure | None:
        """B12/B13: the list must follow the mesh axis order, then ``check_list``."""
        if not is_mesh_sorted(refs, self.mesh):
            order = ", ".join(f'"{a.name}"' for a in self.mesh.axes)
            return fail(f"{kind} axes {axis_list_str(refs)} must be sorted in mesh axis order ({order})")
        return self.check_list(refs, f" in {kind} axes")

    def check_sub_axes(self) -> Failure | None:
        """B14-B19 over every sub-axis gathered so far."""
        key = mesh_sort_key(self.mesh)
        for name, subs in self.sub_axes.items():
            size = self.sizes[name]
            if AxisRefAttr(name) in self.seen:
                return fail(f'axis "{name}" is used both as a full axis and through a sub-axis; use one or the other')
            prev = None
            for ref in sorted(subs, key=key):
                info = ref.sub_axis_info
                r = axis_ref_str(ref)
                if info.pre_size < 1:
                    return fail(f"sub-axis {r} has pre-size {info.pre_size}; the pre-size must be at least 1")
                if info.size <= 1:
                    return fail(f"sub-axis {r} has size {info.size}; a sub-axis must have size greater than 1")
                nxt = info.pre_size * info.size
                if size % nxt != 0:
                    return fail(f"sub-axis {r} does not fit axis \"{name}\" of size {size}: pre-size*size = {nxt} "
                                f"must divide {size}")
                if info.size == size:
                    return fail(f"sub-axis {r} spans all of axis \"{name}\" (size {size}); write \"{name}\" instead")
                if prev is not None and prev.sub_axis_info.pre_size * prev.sub_axis_info.size > info.pre_size:
                    return fail(f"sub-axes {axis_ref_str(prev)} and {r} overlap")
                prev = ref
        return None


def _bad_scalar_sharding(s: TensorShardingAttr) -> bool:
    return bool(s.dim_shardings or s.replicated_axes or s.unreduced_axes)


def verify_tensor_sharding(s: TensorShardingAttr, type_: Type | None, mesh: MeshAttr | None,
                           manual_owners: dict[str, Operation] | None = None, typeless: bool = False) -> Failure | None:
    """B22-B29: ``s`` is a valid sharding for a value of type ``type_``.

    ``mesh`` is the resolved mesh (None when the symbol is undefined);
    ``manual_owners`` maps axes made manual by enclosing manual computations to
    their op; ``typeless`` is the zero-value special case of B33.
    """
    f = _verify_tensor_sharding_cached(s, type_, mesh, typeless)
    if f is not None or not manual_owners:
        return f
    if mesh is None or mesh.is_maximal or (typeless and all(not d.axes for d in s.dim_shardings)):
        return None
    for ref in _all_axes(s):
        owner = manual_owners.get(ref.name)
        if owner is not None:
            return bound_axis_failure(ref.name, owner)
    return None


@functools.lru_cache(maxsize=8192)
def _verify_tensor_sharding_cached(s: TensorShardingAttr, type_: Type | None, mesh: MeshAttr | None,
                                   typeless: bool) -> Failure | None:
    """B22-B28 (everything but the enclosing manual axes), memoised: modules repeat a few shardings."""
    if mesh is None:
        return fail(f"sharding refers to mesh @{s.mesh_or_ref}, which is not defined by any sdy.mesh in the module")
    if mesh.is_maximal or (typeless and all(not d.axes for d in s.dim_shardings)):
        if _bad_scalar_sharding(s):
            what = "a maximal mesh" if mesh.is_maximal else "no value"
            return fail(f"a sharding on {what} must have no dimension shardings and no replicated or unreduced "
                        f"axes, got {s.rank} dimension sharding(s)"
                        + (", replicated axes" if s.replicated_axes else "")
                        + (", unreduced axes" if s.unreduced_axes else ""))
        return None
    shape_type = type_
    elems = tuple_elements(type_)
    if elems is not None:
        if len(elems) != 1:
            return fail(f"a sharding can only describe a tuple with exactly one element, got {type_str(type_)} "
                        f"with {len(elems)}")
        shape_type = elems[0]
    if not is_shaped(shape_type):
        if _bad_scalar_sharding(s):
            return fail(f"type {type_str(type_)} is not a shaped type, so its sharding must be rank 0 with no "
                        f"replicated or unreduced axes; got {s}")
        return None
    shape = shape_of(shape_type)
    if shape is None:
        return fail(f"type {type_str(type_)} is unranked; only ranked tensors can carry a sharding")
    if s.rank != len(shape):
        return fail(f"sharding has {s.rank} dimension sharding(s) but the tensor {type_str(type_)} has rank "
                    f"{len(shape)}")
    checker = AxisListChecker(mesh)
    for dim, (d, size) in enumerate(zip(s.dim_shardings, shape, strict=False)):
        if d.priority is not None:
            if d.priority < 0:
                return fail(f"dim {dim} has priority p{d.priority}; priorities must be non-negative")
            if d.is_closed and not d.axes:
                return fail(f"dim {dim} is closed and has no axes, so it cannot have a priority (p{d.priority}); "
                            "drop the priority or open the dimension with '?'")
        f = checker.check_list(d.axes, f" in dim {dim}")
        if f:
            return f
        del size  # divisibility is not checked during IR verification (B28)
    return checker.check_sorted_list(s.replicated_axes, "replicated") or checker.check_sorted_list(
        s.unreduced_axes, "unreduced") or checker.check_sub_axes()


def _all_axes(s: TensorShardingAttr):
    for d in s.dim_shardings:
        yield from d.axes
    yield from s.replicated_axes
    yield from s.unreduced_axes


def bound_axis_failure(axis: str, owner: Operation) -> Failure:
    """B29/C15: ``axis`` is already manual in the enclosing ``owner``."""
    loc = loc_of(owner)
    return fail(f'axis "{axis}" is already manual in an enclosing sdy.manual_computation and cannot be used here',
                (loc.line, loc.column, f'enclosing sdy.manual_computation making axis "{axis}" manual'))


def value_prefix(ctx_word: str, n: int, index: int) -> str:
    """``"result: "`` for a single value, ``"result 1: "`` for one of several."""
    if n == 1:
        return f"{ctx_word}: " if ctx_word else ""
    return f"{ctx_word} {index}: ".lstrip()


def verify_sharding_per_value(attr: TensorShardingPerValueAttr, types: Sequence[Type | None], ctx: Context,
                              op: Operation, word: str, manual_owners: dict[str, Operation] | None = None,
                              mesh_of: MeshLookup | None = None) -> Failure | None:
    """B32/B33: one valid sharding per value (``word`` names the values in messages)."""
    mesh_of = mesh_of or ctx.mesh_of
    shardings = attr.shardings
    if not types and len(shardings) == 1:
        first = shardings[0]
        mesh = mesh_of(first)
        if (mesh is not None and mesh.is_maximal) or all(not d.axes for d in first.dim_shardings):
            f = verify_tensor_sharding(first, None, mesh, manual_owners, typeless=True)
            return f.prefixed(f"{word} 0: ") if f else None
    if len(shardings) != len(types):
        return fail(f"{word} shardings: expected one sharding per value, got {len(shardings)} sharding(s) for "
                    f"{len(types)} value(s)")
    for i, (s, t) in enumerate(zip(shardings, types, strict=False)):
        f = verify_tensor_sharding(s, t, mesh_of(s), manual_owners)
        if f:
            return f.prefixed(value_prefix(word, len(types), i))
    return None


__all__ = ["AxisListChecker", "verify_tensor_sharding", "verify_sharding_per_value", "bound_axis_failure",
           "value_prefix", "DYNAMIC"]
