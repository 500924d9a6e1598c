"""Shardy's ops in a program run as one device (the global program, before partitioning): sharding
annotations leave values as they are, ``sdy.named_computation`` runs its body, ``sdy.constant`` is its
value, and ``sdy.manual_computation`` runs its body on every device of its mesh at once (a process
each, as ``interpreter.run_parallel`` does), each on its piece of the operands along the manual axes,
then puts the results together from the pieces along those axes: what JAX's ``shard_map`` computes.
"""
from __future__ import annotations

from shardy_py.interpreter.evaluator import InterpretError, attr, handler
from shardy_py.interpreter.process_grid import Process, ProcessGrid, ProcessId, run_processes
from shardy_py.interpreter.values import TOKEN, from_dense
from shardy_py.ir.attrs import DimensionShardingAttr, MeshAttr, TensorShardingAttr


@handler("sdy.sharding_constraint", "sdy.reshard", "sdy.propagation_barrier", "sdy.data_flow_edge")
def _sharding_identity(ev, op, args):
    """Sharding annotations that leave values as they are (the program run as one device's)."""
    return list(args)


@handler("sdy.sharding_group")
def _sharding_group(ev, op, args):
    return []


@handler("sdy.named_computation")
def _named_computation(ev, op, args):
    return ev.run_region(op.regions[0], list(args), {})


@handler("sdy.constant")
def _constant(ev, op, args):
    value = attr(op, "value")
    if value is None or not hasattr(value, "data"):
        raise InterpretError("sdy.constant: expected a dense elements attribute")
    return [from_dense(value)]


def _mesh(ev, sharding: TensorShardingAttr) -> MeshAttr:
    ref = sharding.mesh_or_ref
    if isinstance(ref, MeshAttr):
        return ref
    mesh = ev.module.meshes.get(ref)
    if mesh is None:
        raise InterpretError(f"sdy.manual_computation: mesh @{ref} is not defined")
    return mesh


def _manual_part(sharding: TensorShardingAttr, manual: frozenset[str]) -> TensorShardingAttr:
    """The sharding along the manual axes only: each dimension's leading manual axes, the manual
    unreduced axes."""
    dims = []
    for d in sharding.dim_shardings:
        n = 0
        while n < len(d.axes) and d.axes[n].name in manual:
            n += 1
        dims.append(DimensionShardingAttr(d.axes[:n], True))
    unreduced = tuple(a for a in sharding.unreduced_axes if a.name in manual)
    return TensorShardingAttr(sharding.mesh_or_ref, dims, (), unreduced, sharding.reduction)


def _shardings(op, name: str) -> list[TensorShardingAttr]:
    value = attr(op, name)
    return list(getattr(value, "shardings", ()) or ())


@handler("sdy.manual_computation")
def _manual_computation(ev, op, args):
    from shardy_py.interpreter.simulate_shards import assemble, mesh_devices, split  # (loads hlo: only here)

    if ev.process is not None:
        raise InterpretError("sdy.manual_computation inside a process of a parallel run is not supported")
    manual = frozenset(getattr(attr(op, "manual_axes"), "axes", ()) or ())
    ins, outs = _shardings(op, "in_shardings"), _shardings(op, "out_shardings")
    if len(ins) != len(args) or len(outs) != len(op.results):
        raise InterpretError("sdy.manual_computation: one sharding per operand and result expected")
    shardings = ins + outs
    if not shardings:
        return ev.run_region(op.regions[0], list(args), {})
    mesh = _mesh(ev, shardings[0])
    devices = mesh_devices(mesh)
    pieces = [split(a, _manual_part(s, manual), _mesh(ev, s)) if a is not TOKEN else None
              for a, s in zip(args, ins, strict=True)]
    grid = ProcessGrid(1, max(devices) + 1)

    def job(device: int):
        inputs = [TOKEN if p is None else p[device] for p in pieces]
        return lambda: ev.fork(Process(ProcessId(0, device), grid)).run_region(op.regions[0], inputs, {})

    results = run_processes(grid, [job(d) for d in devices])
    out = []
    for i, (result, s) in enumerate(zip(op.results, outs, strict=True)):
        if results[0][i] is TOKEN:
            out.append(TOKEN)
            continue
        per_device = dict(zip(devices, (r[i] for r in results), strict=True))
        out.append(assemble(per_device, tuple(result.type.shape), _manual_part(s, manual), _mesh(ev, s)).value)
    return out
