"""``stablehlo.reduce`` in ``-sdy-convert-global-to-local`` (jaxlib 0.12; the test files' commit only
localises it): a reduce whose operands are sharded along reduced dimensions leaves each device with a
partial result, which the pass completes when nothing after it does.

The reduction axes are those of the first operand's sharding on the reduced dimensions, less the
axes its result keeps unreduced, sorted and merged in the mesh's order.  When some are left and the
op's one user is not an ``sdy.all_reduce``/``sdy.reduce_scatter`` over any of them, the partial
results are combined over those axes, on the operand's mesh, with fresh channels:

* one operand: a ``stablehlo.all_reduce`` whose body is the reduce's;
* several operands (a reducer that pairs them, such as an arg-max): each partial result is reshaped
  with a trailing dimension of one, gathered along it (``stablehlo.all_gather``), and the gathered
  tensors are reduced again along that dimension with the same body and init values.

Found against jaxlib 0.12 (tests/test_passes_convert_global_to_local_reduce.py)."""
from __future__ import annotations

from shardy_py.ir.builder import Builder
from shardy_py.ir.clone import clone_region
from shardy_py.ir.ops import Operation
from shardy_py.passes.export.convert_global_to_local_collectives import all_gather, collective_properties
from shardy_py.passes.export.export_utils import i64_array, replica_groups, reshape
from shardy_py.rules.props import ints_prop
from shardy_py.verify.axes import sort_and_merge


def _reduction_axes(conv, op: Operation) -> list:
    sharding = conv.operand_sharding(op, 0)
    if sharding is None:
        return []
    axes = [a for d in ints_prop(op, "dimensions") or () if d < len(sharding.dim_shardings)
            for a in sharding.dim_shardings[d].axes]
    out = conv.sharding_of(op.results[0])
    if out is not None and out.unreduced_axes:
        axes = [a for a in axes if a not in out.unreduced_axes]
    mesh = conv.mesh_of(sharding)
    return sort_and_merge(axes, mesh) if axes and mesh is not None else axes


def _reduced_by_its_user(op: Operation, axes) -> bool:
    users = [u.op for r in op.results for u in r.uses]
    if len(users) != 1 or users[0].name not in ("sdy.all_reduce", "sdy.reduce_scatter"):
        return False
    theirs = users[0].properties_view.get("reduction_axes")
    return any(a in axes for a in getattr(theirs, "value", ()) or ())


def convert_reduce(conv, op: Operation) -> None:
    """Localise ``op``, then combine its partial results over the reduction axes left (see above)."""
    axes = _reduction_axes(conv, op)
    conv.localize(op)
    if not axes or _reduced_by_its_user(op, axes):
        return
    sharding = conv.operand_sharding(op, 0)
    mesh = conv.mesh_or_fail(sharding, op)
    groups, count = replica_groups(list(axes), mesh, sharding.mesh_or_ref, conv.rgv3)
    b = Builder.after(op)
    n = len(op.results)
    if n == 1:
        result = op.results[0]
        summed = b.create("stablehlo.all_reduce", [result], result_types=[result.type],
                          properties=collective_properties(conv, groups), loc=op.loc)
        summed.regions.append(clone_region(op.regions[0], summed))
        result.replace_uses_with_if(summed.results[0], lambda use: use.op is not summed)
        return
    gathered, columns = [], set()
    for result in op.results:
        shape = tuple(result.type.shape)
        column = reshape(b, result, shape + (1,), op.loc)
        columns.add(id(column.owner))
        gathered.append(all_gather(conv, b, column, len(shape), groups, shape + (count,), op.loc))
    again = b.create("stablehlo.reduce", gathered + list(op.operands[n:]), result_types=[r.type for r in op.results],
                     properties={"dimensions": i64_array([len(op.results[0].type.shape)])}, loc=op.loc)
    again.regions.append(clone_region(op.regions[0], again))
    for old, new in zip(op.results, again.results, strict=True):
        old.replace_uses_with_if(new, lambda use: id(use.op) not in columns and use.op is not again)
