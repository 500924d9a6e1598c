"""Rules C42-C73: the sdy collectives (shared interface checks and per-op formulas)."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from shardy_py.ir.attrs import (
    AllToAllParamListAttr,
    AxisRefAttr,
    AxisRefListAttr,
    DimensionShardingAttr,
    ListOfAxisRefListsAttr,
    MeshAttr,
    TensorShardingAttr,
)
from shardy_py.ir.ops import Operation
from shardy_py.verify.axes import (
    add_axis_or_merge,
    axis_list_str,
    axis_ref_str,
    overlaps,
    prefix_without_overlap,
    sharded_size,
    sort_and_merge,
    suffix_of,
)
from shardy_py.verify.context import Context, loc_of
from shardy_py.verify.diagnostics import Failure, fail
from shardy_py.verify.shardings import AxisListChecker, verify_tensor_sharding
from shardy_py.verify.unreduced import verify_unreduced_transition

ALLOW_MISSING_INPUT = frozenset({"sdy.all_slice", "sdy.all_reduce", "sdy.reduce_scatter"})


def _pre(op: Operation) -> str:
    return f"'{op.name}' op "


def _operand(op: Operation):
    return op.operands[0] if op.operands else None


def _out(op: Operation) -> TensorShardingAttr | None:
    s = op.properties_view.get("out_sharding")
    return s if isinstance(s, TensorShardingAttr) else None


def _mesh_note(op: Operation, mesh: MeshAttr) -> tuple[int, int, str]:
    loc = loc_of(_operand(op))
    return (loc.line, loc.column, f"the operand's mesh is {mesh}")


def verify_collective_interface(op: Operation, ctx: Context) -> Failure | None:
    """C43-C46 (phase O): operand sharding present, out_sharding valid, same mesh, same rank."""
    pre = _pre(op)
    in_s = ctx.sharding_of(_operand(op))
    if in_s is None and op.name not in ALLOW_MISSING_INPUT:
        return fail(f"{pre}its operand has no sharding; this collective needs a sharded operand")
    out = _out(op)
    if out is None:
        return None
    out_mesh = ctx.mesh_of(out)
    f = verify_tensor_sharding(out, op.results[0].type if op.results else None, out_mesh,
                               ctx.enclosing_manual_axes(op))
    if f:
        return f.prefixed(pre + "out_sharding: ")
    if op.name != "sdy.collective_permute" and in_s is not None:
        in_mesh = ctx.mesh_of(in_s)
        if in_mesh is not None and in_mesh != out_mesh:
            return fail(f"{pre}out_sharding mesh {out_mesh} differs from the operand's mesh; a collective must keep "
                        "the mesh", _mesh_note(op, in_mesh))
    if in_s is not None and in_s.rank != out.rank:
        return fail(f"{pre}out_sharding has rank {out.rank} but the operand sharding has rank {in_s.rank}")
    return None


def _operand_sharding_or_open(op: Operation, ctx: Context, out: TensorShardingAttr) -> TensorShardingAttr:
    s = ctx.sharding_of(_operand(op))
    if s is not None:
        return s
    t = _operand(op).type if _operand(op) is not None else None
    rank = len(getattr(t, "shape", ()) or ())
    return TensorShardingAttr(out.mesh_or_ref, tuple(DimensionShardingAttr((), False) for _ in range(rank)))


def _gather(d: DimensionShardingAttr, axes: Sequence[AxisRefAttr], dim: int, mesh: MeshAttr, label: str,
            op: Operation) -> list[AxisRefAttr] | Failure:
    cur = list(d.axes)
    for g in reversed(axes):
        if not cur or not suffix_of(g, cur[-1], mesh):
            have = axis_list_str(cur)
            return fail(f"{_pre(op)}{label} axis {axis_ref_str(g)} is not a suffix of the operand's sharding "
                        f"{have} on dimension {dim}")
        last = cur.pop()
        p = prefix_without_overlap(last, g)
        if p is not None:
            cur.append(p)
    return cur


def _slice(d: DimensionShardingAttr, axes: Sequence[AxisRefAttr], mesh: MeshAttr) -> list[AxisRefAttr]:
    cur = list(d.axes)
    for a in axes:
        add_axis_or_merge(cur, a, mesh)
    return cur


def _mismatch(op: Operation, expected: Sequence[AxisRefAttr], got: Sequence[AxisRefAttr], dim: int) -> Failure:
    return fail(f"{_pre(op)}out_sharding has {axis_list_str(got)} on dimension {dim} but the collective produces "
                f"{axis_list_str(expected)}")


def _axes_per_dim(op: Operation, key: str) -> list[tuple[AxisRefAttr, ...]]:
    v = op.properties_view.get(key)
    if isinstance(v, ListOfAxisRefListsAttr):
        return [lst.value for lst in v.value]
    return []


def _verify_axes_per_dim(op: Operation, ctx: Context, key: str,
                         expected_fn: Callable[[DimensionShardingAttr, Sequence[AxisRefAttr], int, MeshAttr],
                                               list[AxisRefAttr] | Failure]) -> Failure | None:
    """C47-C49: shared by all_gather, all_slice, reduce_scatter, sharded_to_unreduced."""
    out = _out(op)
    mesh = ctx.mesh_of(out)
    if out is None or mesh is None:
        return None
    per_dim = _axes_per_dim(op, key)
    checker = AxisListChecker(mesh)
    for i, axes in enumerate(per_dim):
        f = checker.check_list(axes, f" in the axes of dimension {i}")
        if f:
            return f.prefixed(_pre(op))
    if out.rank != len(per_dim):
        return fail(f"{_pre(op)}has axes for {len(per_dim)} dimension(s) but out_sharding has rank {out.rank}")
    in_s = _operand_sharding_or_open(op, ctx, out)
    for dim, (d, axes) in enumerate(zip(in_s.dim_shardings, per_dim, strict=False)):
        exp = expected_fn(d, axes, dim, mesh)
        if isinstance(exp, Failure):
            return exp
        if tuple(exp) != tuple(out.dim_shardings[dim].axes):
            return _mismatch(op, exp, out.dim_shardings[dim].axes, dim)
    return None


def verify_all_gather(op: Operation, ctx: Context) -> Failure | None:
    """C50."""
    return _verify_axes_per_dim(op, ctx, "gathering_axes",
                                lambda d, axes, dim, mesh: _gather(d, axes, dim, mesh, "gathering", op))


def verify_all_slice(op: Operation, ctx: Context) -> Failure | None:
    """C51."""
    return _verify_axes_per_dim(op, ctx, "slicing_axes", lambda d, axes, dim, mesh: _slice(d, axes, mesh))


def verify_reduce_scatter(op: Operation, ctx: Context) -> Failure | None:
    """C52: unreduced transition, then the slicing formula."""
    out = _out(op)
    if out is None:
        return None
    in_s = _operand_sharding_or_open(op, ctx, out)
    f = verify_unreduced_transition(op, ctx, [in_s], [out], None, op.properties_view.get("reduction_op", "sum"))
    if f:
        return f
    return _verify_axes_per_dim(op, ctx, "reduce_scatter_axes", lambda d, axes, dim, mesh: _slice(d, axes, mesh))


def _same_reduction_as_operand(op: Operation, ctx: Context, out: TensorShardingAttr) -> Failure | None:
    """The unreduced axes made here take any reduction kind, but the operand's unreduced axes keep theirs
    (jaxlib 0.12; the test files' commit required 'sum' instead: ir/collective_verification.mlir:1104/1114)."""
    in_s = ctx.sharding_of(_operand(op))
    if in_s is not None and in_s.unreduced_axes and in_s.reduction != out.reduction:
        return fail(f"{_pre(op)}cannot change reduction_op of existing unreduced axes")
    return None


def verify_sharded_to_unreduced(op: Operation, ctx: Context) -> Failure | None:
    """C53-C55."""
    out = _out(op)
    if out is None:
        return None
    f = _same_reduction_as_operand(op, ctx, out) or _verify_axes_per_dim(
        op, ctx, "axes", lambda d, axes, dim, mesh: _gather(d, axes, dim, mesh, "sharded-to-unreduced", op))
    if f:
        return f
    mesh = ctx.mesh_of(out)
    in_s = ctx.sharding_of(_operand(op))
    expected = list(in_s.unreduced_axes if in_s is not None else ())
    for axes in _axes_per_dim(op, "axes"):
        expected.extend(axes)
    expected = sort_and_merge(expected, mesh)
    if tuple(expected) != tuple(out.unreduced_axes):
        return fail(f"{_pre(op)}out_sharding unreduced axes are {axis_list_str(out.unreduced_axes)} but should be the "
                    f"operand's unreduced axes plus the converted axes: {axis_list_str(expected)}")
    return None


def verify_replicated_to_unreduced(op: Operation, ctx: Context) -> Failure | None:
    """C56-C62."""
    out = _out(op)
    if out is None:
        return None
    f = _same_reduction_as_operand(op, ctx, out)
    if f:
        return f
    mesh = ctx.mesh_of(out)
    in_s = ctx.sharding_of(_operand(op))
    in_dims = in_s.dim_shardings if in_s is not None else ()
    if tuple(in_dims) != tuple(out.dim_shardings):
        return fail(f"{_pre(op)}out_sharding dimension shardings must be identical to the operand's")
    axes_attr = op.properties_view.get("axes")
    axes = axes_attr.value if isinstance(axes_attr, AxisRefListAttr) else ()
    if not axes:
        return fail(f"{_pre(op)}needs at least one axis to make unreduced")
    checker = AxisListChecker(mesh)
    f = checker.check_sorted_list(axes, "replicated-to-unreduced")
    if f:
        return f.prefixed(_pre(op))
    in_unreduced = in_s.unreduced_axes if in_s is not None else ()
    for a in axes:
        if any(overlaps(b, a) for d in in_dims for b in d.axes):
            return fail(f"{_pre(op)}axis {axis_ref_str(a)} already shards a dimension of the operand; only replicated "
                        "axes can become unreduced")
        if any(overlaps(b, a) for b in in_unreduced):
            return fail(f"{_pre(op)}axis {axis_ref_str(a)} is already unreduced in the operand")
    expected = sort_and_merge([*in_unreduced, *axes], mesh)
    if tuple(expected) != tuple(out.unreduced_axes):
        return fail(f"{_pre(op)}out_sharding unreduced axes are {axis_list_str(out.unreduced_axes)} but should be the "
                    f"operand's unreduced axes plus the new ones: {axis_list_str(expected)}")
    return None


def verify_all_to_all(op: Operation, ctx: Context) -> Failure | None:
    """C63-C66."""
    out = _out(op)
    mesh = ctx.mesh_of(out)
    if out is None or mesh is None:
        return None
    pre = _pre(op)
    plist = op.properties_view.get("params")
    params = plist.value if isinstance(plist, AllToAllParamListAttr) else ()
    if not params:
        return fail(f"{pre}needs at least one parameter {{axes}}: src->tgt")
    t = op.results[0].type if op.results else None
    rank = len(getattr(t, "shape", ()) or ())
    seen: set[int] = set()
    prev_src = -1
    checker = AxisListChecker(mesh)
    for p in params:
        f = checker.check_list(p.axes)
        if f:
            return f.prefixed(pre)
        for dim, what in ((p.src_dim, "source"), (p.tgt_dim, "target")):
            if not 0 <= dim < rank:
                return fail(f"{pre}{what} dimension {dim} is out of range for a tensor of rank {rank}")
        for dim in (p.src_dim, p.tgt_dim):
            if dim in seen:
                return fail(f"{pre}dimension {dim} is used by more than one all-to-all source/target")
            seen.add(dim)
        if prev_src >= p.src_dim:
            return fail(f"{pre}parameters must be sorted by source dimension: {p.src_dim} comes after {prev_src}")
        prev_src = p.src_dim
    in_s = ctx.sharding_of(_operand(op))
    in_dims = in_s.dim_shardings if in_s is not None else ()
    if len(in_dims) < rank or len(out.dim_shardings) < rank:
        return None
    for p in params:
        exp = _gather(in_dims[p.src_dim], p.axes, p.src_dim, mesh, "all-to-all", op)
        if isinstance(exp, Failure):
            return exp
        if tuple(exp) != tuple(out.dim_shardings[p.src_dim].axes):
            return _mismatch(op, exp, out.dim_shardings[p.src_dim].axes, p.src_dim)
        exp = _slice(in_dims[p.tgt_dim], p.axes, mesh)
        if tuple(exp) != tuple(out.dim_shardings[p.tgt_dim].axes):
            return _mismatch(op, exp, out.dim_shardings[p.tgt_dim].axes, p.tgt_dim)
    for dim, (a, b) in enumerate(zip(in_dims, out.dim_shardings, strict=False)):
        if dim not in seen and a.axes != b.axes:
            return _mismatch(op, a.axes, b.axes, dim)
    return None


def verify_collective_permute(op: Operation, ctx: Context) -> Failure | None:
    """C67."""
    out = _out(op)
    in_s = ctx.sharding_of(_operand(op))
    if out is None or in_s is None:
        return None
    mesh, in_mesh = ctx.mesh_of(out), ctx.mesh_of(in_s)
    if mesh is None or in_mesh is None:
        return None
    pre = _pre(op)
    if mesh.axes != in_mesh.axes:
        return fail(f"{pre}out_sharding mesh {mesh} must have the same axes as the operand's mesh",
                    _mesh_note(op, in_mesh))
    if in_s.mesh_or_ref != out.mesh_or_ref and mesh.device_ids == in_mesh.device_ids:
        return fail(f"{pre}out_sharding names a different mesh with the same device order as the operand's mesh; "
                    "use the same mesh", _mesh_note(op, in_mesh))
    for dim, (a, b) in enumerate(zip(in_s.dim_shardings, out.dim_shardings, strict=False)):
        if a.axes == b.axes:
            continue
        n_in, n_out = sharded_size(a.axes, mesh), sharded_size(b.axes, mesh)
        if n_in != n_out:
            return fail(f"{pre}dimension {dim} is split {n_out} ways in out_sharding but {n_in} ways in the operand; "
                        "a collective permute must keep the sharded size of each dimension")
    return None


def _equivalent_ignoring_unreduced(a: TensorShardingAttr, b: TensorShardingAttr) -> bool:
    if all(not d.axes for d in a.dim_shardings):
        return all(not d.axes for d in b.dim_shardings)
    if a.mesh_or_ref != b.mesh_or_ref or a.rank != b.rank:
        return False
    return all(x.axes == y.axes for x, y in zip(a.dim_shardings, b.dim_shardings, strict=False))


def verify_all_reduce(op: Operation, ctx: Context) -> Failure | None:
    """C68-C73."""
    out = _out(op)
    mesh = ctx.mesh_of(out)
    if out is None or mesh is None:
        return None
    pre = _pre(op)
    in_s = _operand_sharding_or_open(op, ctx, out)
    if not _equivalent_ignoring_unreduced(in_s, out):
        return fail(f"{pre}out_sharding {out} must shard the dimensions exactly like the operand sharding {in_s}")
    axes_attr = op.properties_view.get("reduction_axes")
    axes = axes_attr.value if isinstance(axes_attr, AxisRefListAttr) else ()
    f = AxisListChecker(mesh).check_sorted_list(axes, "reduction")
    if f:
        return f.prefixed(pre)
    for a in axes:
        if any(overlaps(b, a) for d in in_s.dim_shardings for b in d.axes) or any(
                overlaps(b, a) for b in in_s.replicated_axes):
            return fail(f"{pre}reduction axis {axis_ref_str(a)} overlaps an axis that shards or replicates the "
                        "operand")
        if any(overlaps(b, a) for b in out.unreduced_axes):
            return fail(f"{pre}reduction axis {axis_ref_str(a)} overlaps an unreduced axis of out_sharding")
    return verify_unreduced_transition(op, ctx, [in_s], [out], None, op.properties_view.get("reduction_op", "sum"))


SYMBOL_USE_RULES: dict[str, Callable[[Operation, Context], Failure | None]] = {
    "sdy.all_gather": verify_all_gather,
    "sdy.all_slice": verify_all_slice,
    "sdy.reduce_scatter": verify_reduce_scatter,
    "sdy.sharded_to_unreduced": verify_sharded_to_unreduced,
    "sdy.replicated_to_unreduced": verify_replicated_to_unreduced,
    "sdy.all_to_all": verify_all_to_all,
    "sdy.collective_permute": verify_collective_permute,
    "sdy.all_reduce": verify_all_reduce,
}
