"""``interpreter.run_parallel`` and the collectives (all_gather, all_reduce, reduce_scatter, all_to_all,
collective_permute, collective_broadcast, collective_reduce), send/recv, infeed/outfeed,
replica_id and partition_id, as ``stablehlo/reference/Ops.cpp`` runs them."""
from __future__ import annotations

import numpy as np

from shardy_py.interpreter.evaluator import TRACED, InterpretError, attr, handler, has_attr, int_attr
from shardy_py.interpreter.mesh_groups import mesh_axes_groups
from shardy_py.interpreter.process_grid import Process, ProcessGrid, ProcessId, run_processes
from shardy_py.interpreter.regions import apply_scalar_region
from shardy_py.interpreter.values import TOKEN, dtype_of, element_name
from shardy_py.ir.attrs import OpaqueAttr

TRACED.update({"stablehlo.all_gather", "stablehlo.all_reduce", "stablehlo.reduce_scatter", "stablehlo.all_to_all",
               "stablehlo.collective_permute", "stablehlo.collective_broadcast", "stablehlo.collective_reduce",
               "stablehlo.send", "stablehlo.recv"})


def _symbols(a) -> list:
    if hasattr(a, "elements"):
        return [_symbols(e) for e in a.elements]
    return getattr(a, "root", str(a).lstrip("@"))


@handler("interpreter.run_parallel")
def _run_parallel(ev, op, args):
    programs = _symbols(attr(op, "programs"))
    infeed = _symbols(attr(op, "infeed")) if attr(op, "infeed") is not None else []
    if not programs or not programs[0]:
        raise InterpretError("interpreter.run_parallel: programs must not be empty")
    grid = ProcessGrid(len(programs), len(programs[0]), infeed)
    jobs = []
    it = 0
    for r, row in enumerate(programs):
        for p, name in enumerate(row):
            func = ev.funcs.get(name)
            if func is None:
                raise InterpretError(f"interpreter.run_parallel: function @{name} not found")
            n = len(func.regions[0].blocks[0].arguments)
            process = Process(ProcessId(r, p), grid)
            inputs = list(args[it:it + n])
            jobs.append(lambda process=process, name=name, inputs=inputs: ev.fork(process).call(name, inputs, op.loc))
            it += n
    results = run_processes(grid, jobs)
    return [v for rs in results for v in rs]


def _process(ev, name: str):
    if ev.process is None:
        raise InterpretError(f"{name} is only supported when run via interpreter.run_parallel")
    return ev.process


def _channel(op) -> int:
    h = attr(op, "channel_handle")
    return int(getattr(h, "handle", 0)) if h is not None else 0


def _groups(op, name: str = "replica_groups", module=None) -> list[list[int]]:
    a = attr(op, name)
    if a is None:
        return []
    if isinstance(a, OpaqueAttr) and a.text.lstrip().startswith("#stablehlo.replica_group_mesh_axes"):
        return mesh_axes_groups(a.text, module)
    values = np.asarray([int(v) for v in a.values()], dtype=np.int64).reshape(a.shape)
    if values.ndim == 1:
        values = values.reshape(1, -1) if values.size else values.reshape(0, 0)
    return [[int(v) for v in row if v != -1] for row in values]


def _process_groups(ev, op, process, kind: str) -> list[list[ProcessId]]:
    grid, groups, channel = process.grid, _groups(op, module=ev.module), _channel(op)
    global_ids = has_attr(op, "use_global_device_ids")
    if kind == "permute_like":  # all_to_all, collective_broadcast, collective_permute
        return grid.cross_replica(groups) if channel <= 0 else grid.cross_partition(groups)
    if channel <= 0 and not global_ids:
        return grid.cross_replica(groups)
    if channel > 0 and not global_ids:
        return grid.cross_replica_and_partition(groups)
    return grid.flattened_ids(groups)


def _my_group(groups: list[list[ProcessId]], me: ProcessId, name: str) -> list[ProcessId]:
    for g in groups:
        if me in g:
            return g
    raise InterpretError(f"{name}: Failed to find process group with process_id: ({me.replica_id}, {me.partition_id})")


def _fold(ev, region, arrays: list[list[np.ndarray]]) -> list[np.ndarray]:
    """Reduce each operand's contributions of the processes, in order, with ``region`` (of two scalars)."""
    out = []
    for i in range(len(arrays[0])):
        acc = arrays[0][i]
        for contribution in arrays[1:]:
            (acc,) = apply_scalar_region(ev, region, [acc, contribution[i]])
        out.append(acc)
    return out


@handler("stablehlo.all_gather")
def _all_gather(ev, op, args):
    process = _process(ev, "all_gather")
    group = _my_group(_process_groups(ev, op, process, "reduce_like"), process.id, "all_gather")
    got = process.grid.rendezvous(group, _channel(op), process.id, list(args))
    dim = int_attr(op, "all_gather_dim")
    return [np.concatenate([got[pid][i] for pid in group], axis=dim) for i in range(len(args))]


def _reduce_across(ev, op, args, name: str, group: list[ProcessId], process) -> list[np.ndarray]:
    got = process.grid.rendezvous(group, _channel(op), process.id, list(args))
    ordered = [got[pid] for pid in sorted(group)]
    return _fold(ev, op.regions[0], ordered)


@handler("stablehlo.all_reduce")
def _all_reduce(ev, op, args):
    process = _process(ev, "all_reduce")
    group = _my_group(_process_groups(ev, op, process, "reduce_like"), process.id, "all_reduce")
    return _reduce_across(ev, op, args, "all_reduce", group, process)


@handler("stablehlo.reduce_scatter")
def _reduce_scatter(ev, op, args):
    process = _process(ev, "reduce_scatter")
    group = _my_group(_process_groups(ev, op, process, "reduce_like"), process.id, "reduce_scatter")
    (reduced,) = _reduce_across(ev, op, args, "reduce_scatter", group, process)
    parts = np.split(reduced, len(group), axis=int_attr(op, "scatter_dimension"))
    return [parts[group.index(process.id)]]


@handler("stablehlo.all_to_all")
def _all_to_all(ev, op, args):
    process = _process(ev, "all_to_all")
    group = _my_group(_process_groups(ev, op, process, "permute_like"), process.id, "all_to_all")
    got = process.grid.rendezvous(group, _channel(op), process.id, list(args))
    me = group.index(process.id)
    split_dim, concat_dim = int_attr(op, "split_dimension"), int_attr(op, "concat_dimension")
    count = int_attr(op, "split_count")
    return [np.concatenate([np.split(got[pid][i], count, axis=split_dim)[me] for pid in group], axis=concat_dim)
            for i in range(len(args))]


def _zeros_like(op, index: int):
    t = op.results[index].type
    return np.zeros(tuple(t.shape), dtype=dtype_of(element_name(t)))


@handler("stablehlo.collective_permute")
def _collective_permute(ev, op, args):
    process = _process(ev, "collective_permute")
    pairs = _groups(op, "source_target_pairs")
    grid, channel = process.grid, _channel(op)
    groups = grid.cross_replica(pairs) if channel <= 0 else grid.cross_partition(pairs)
    result = None
    for source, target in groups:
        if process.id not in (source, target):
            continue
        if source == target:
            result = args[0]
            continue
        got = grid.rendezvous([source, target], channel, process.id, [args[0]])
        if target == process.id:
            result = got[source][0]
    return [result if result is not None else _zeros_like(op, 0)]


def _root(op, args, group, data_count: int, index: int) -> ProcessId:
    if not has_attr(op, "has_dynamic_root") and len(args) == data_count:
        return group[0]
    root = int(np.asarray(args[-1]).reshape(-1)[index])
    if root < 0 or root >= len(group):
        raise InterpretError("collective root index out of bounds")
    return group[root]


def _data_count(op, args) -> int:
    return len(args) - 1 if has_attr(op, "has_dynamic_root") else len(args)


@handler("stablehlo.collective_broadcast")
def _collective_broadcast(ev, op, args):
    process = _process(ev, "collective_broadcast")
    groups = _process_groups(ev, op, process, "permute_like")
    n = _data_count(op, args)
    group = next((g for g in groups if process.id in g), None)
    out = []
    for i in range(n):
        if group is None:
            out.append(_zeros_like(op, i))
            continue
        got = process.grid.rendezvous(group, _channel(op), process.id, [args[i]])
        out.append(got[_root(op, args, group, n, i)][0])
    return out


@handler("stablehlo.collective_reduce")
def _collective_reduce(ev, op, args):
    process = _process(ev, "collective_reduce")
    groups = _process_groups(ev, op, process, "reduce_like")
    n = _data_count(op, args)
    group = next((g for g in groups if process.id in g), None)
    if group is None:
        return [_zeros_like(op, i) for i in range(len(op.results))]
    reduced = _reduce_across(ev, op, args[:n], "collective_reduce", group, process)
    return [reduced[i] if process.id == _root(op, args, group, n, i) else _zeros_like(op, i)
            for i in range(len(op.results))]


@handler("stablehlo.replica_id")
def _replica_id(ev, op, args):
    return [np.array(_process(ev, "replica_id").id.replica_id, dtype=np.uint32)]


@handler("stablehlo.partition_id")
def _partition_id(ev, op, args):
    return [np.array(_process(ev, "partition_id").id.partition_id, dtype=np.uint32)]


@handler("stablehlo.send")
def _send(ev, op, args):
    process = _process(ev, "send")
    process.grid.send(_channel(op), [a for a in args if a is not TOKEN])
    return [TOKEN]


@handler("stablehlo.recv")
def _recv(ev, op, args):
    process = _process(ev, "recv")
    return [*process.grid.recv(_channel(op)), TOKEN]


@handler("stablehlo.infeed")
def _infeed(ev, op, args):
    process = _process(ev, "infeed")
    name = process.grid.infeed()
    return [*ev.call(name, [], op.loc), TOKEN]


@handler("stablehlo.outfeed")
def _outfeed(ev, op, args):
    process = _process(ev, "outfeed")
    process.grid.outfeed_queue.append([a for a in args if a is not TOKEN])
    return [TOKEN]
