"""``shardy_py.simulate(module, *args)``: run a sharded program on simulated devices and check it
against the program run as one device.

1. The global inputs: ``args``, or random values of each argument's element type (``seed``);
2. the unpartitioned program runs on them (``sdy.manual_computation`` on every device of its mesh);
3. ``shardy_py.partition`` gives the program each device runs (propagation, the export pipeline with
   explicit collectives, padding, local shapes), its arguments' and results' shardings kept;
4. each device (a process of a ``1 x N`` grid, ``stablehlo.partition_id`` its device id) runs it on its
   piece of every input (``simulate_shards.split``), all at once, the collectives meeting in the grid;
5. each result is put together from the devices' pieces (``simulate_shards.assemble``) and compared with
   the unpartitioned result (``simulate_compare``).

The answer, a ``SimulationResult``, has the arrays (global inputs, both results, every device's inputs
and results), per output the largest difference, and per device the bytes it held and the collectives
it ran; ``str(result)`` is the report ``python -m shardy_py simulate`` prints.
"""
from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from shardy_py.interpreter import load_ops
from shardy_py.interpreter.api import entry_arguments, entry_function, owned
from shardy_py.interpreter.evaluator import Evaluator, InterpretError
from shardy_py.interpreter.process_grid import CollectiveRecord, Process, ProcessGrid, ProcessId, run_processes
from shardy_py.interpreter.simulate_compare import largest_difference, replicas_agree, within_tolerance
from shardy_py.interpreter.simulate_shards import assemble, mesh_devices, mesh_position, split
from shardy_py.interpreter.values import TOKEN, dtype_of, element_name
from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr
from shardy_py.ir.ops import Location
from shardy_py.ir.types import RankedTensorType

load_ops()


class SimulationError(Exception):
    """``simulate`` could not run: ``diagnostics`` are (location or None, message) pairs."""

    def __init__(self, message: str, diagnostics: list[tuple[Location | None, str]] | None = None):
        super().__init__(message)
        self.message = message
        self.diagnostics = diagnostics if diagnostics is not None else []


@dataclass
class OutputComparison:
    """One result of the entry function: ``expected`` (the unpartitioned run), ``actual`` (put together
    from the devices' pieces), the largest difference between them, the largest difference between
    devices holding the same slice, and whether both are within tolerance."""

    index: int
    type: object
    sharding: TensorShardingAttr | None
    expected: object
    actual: object
    difference: float
    replica_difference: float
    equal: bool


@dataclass
class DeviceRun:
    """What one device did: its inputs and results (local pieces), the bytes of both, the most bytes of
    values alive at once in its program (``peak_bytes``), and the collectives it ran."""

    device: int
    position: dict[str, int] | None
    inputs: list
    results: list
    peak_bytes: int
    collectives: list[CollectiveRecord] = field(default_factory=list)

    @property
    def input_bytes(self) -> int:
        return _nbytes(self.inputs)

    @property
    def result_bytes(self) -> int:
        return _nbytes(self.results)

    @property
    def collective_counts(self) -> Counter:
        """How many times it ran each collective (by op name without the dialect)."""
        return Counter(r.op.name.split(".", 1)[-1] for r in self.collectives)

    @property
    def sent_bytes(self) -> int:
        return sum(r.sent_bytes for r in self.collectives)

    @property
    def received_bytes(self) -> int:
        return sum(r.received_bytes for r in self.collectives)


@dataclass
class SimulationResult:
    """The answer of ``simulate`` (see the module docstring); ``ok`` when every output matches."""

    inputs: list
    outputs: list[OutputComparison]
    devices: list[DeviceRun]
    partitioned: object
    mesh_name: str | None
    mesh: MeshAttr | None
    seed: int | None
    global_peak_bytes: int
    #: Why outputs may differ by design (printed under the verdict).
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(o.equal for o in self.outputs)

    @property
    def expected(self) -> list:
        """The unpartitioned program's results."""
        return [o.expected for o in self.outputs]

    @property
    def actual(self) -> list:
        """The results put together from the devices' pieces."""
        return [o.actual for o in self.outputs]

    def report(self, name: str = "", each_device: bool = False) -> str:
        """The text ``python -m shardy_py simulate`` prints (one row per device with ``each_device``,
        else one per group of devices that held and ran the same)."""
        from shardy_py.simulation.report import report_text

        return report_text(self, name, each_device)

    def __str__(self) -> str:
        return self.report()


def _nbytes(values) -> int:
    return sum(v.nbytes for v in values if isinstance(v, np.ndarray))


def random_inputs(func, seed: int) -> list:
    """Random values for every argument of ``func``, drawn per element type from ``seed``: standard
    normal floats (complex: both parts), booleans, small positive integers 1..4 (valid divisors; gathers
    clamp indices), tokens."""
    rng = np.random.default_rng(seed)
    out = []
    for t in func.properties_view.get("arg_types", []):
        if not isinstance(t, RankedTensorType):
            out.append(TOKEN)
            continue
        name = element_name(t)
        dt = dtype_of(name)
        shape = tuple(t.shape)
        if dt == np.bool_:
            out.append(rng.integers(0, 2, size=shape).astype(bool))
        elif dt.kind in "iu":
            out.append(rng.integers(1, 5, size=shape).astype(dt))
        elif dt.kind == "c":
            out.append((rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt))
        else:
            out.append(rng.standard_normal(shape).astype(dt))
    return out


def _located(e: InterpretError, where: str) -> SimulationError:
    return SimulationError(f"{where}: {e.message}", [(e.loc, f"{where}: {e.message}")])


def _mesh_of(sharding: TensorShardingAttr | None, meshes: dict[str, MeshAttr]) -> MeshAttr | None:
    if sharding is None:
        return None
    ref = sharding.mesh_or_ref
    return ref if isinstance(ref, MeshAttr) else meshes.get(ref)


def _func_shardings(func) -> tuple[list, list]:
    from shardy_py.passes.data_flow import SHARDING

    block = func.regions[0].blocks[0]
    args = [a.attributes.get(SHARDING) for a in block.arguments]
    res_attrs = list(func.properties_view.get("res_attrs") or [])
    count = len(func.properties_view.get("result_types") or [])
    res_attrs += [{}] * (count - len(res_attrs))
    results = [(r or {}).get(SHARDING) for r in res_attrs]
    return ([s if isinstance(s, TensorShardingAttr) else None for s in args],
            [s if isinstance(s, TensorShardingAttr) else None for s in results])


def _partition(module, function: str, propagate: bool, options: dict):
    """The per-device program and the shardings of its entry function's arguments and results."""
    from shardy_py.passes.manager import PassError, PassManager
    from shardy_py.passes.partition import partition
    from shardy_py.passes.registry import lookup

    try:
        kept = partition(module, propagate=propagate, keep_shardings=True, **options)
        meshes = dict(kept.meshes)
        arg_shardings, result_shardings = _func_shardings(entry_function(kept, function))
        PassManager([lookup("sdy-drop-sharding-and-mesh")()]).run(kept)
    except PassError as e:
        diagnostics = [(Location(d.line, d.column), f"partition: {d.message}") for d in e.diagnostics]
        raise SimulationError(f"partition: {e}", diagnostics or [(None, f"partition: {e}")]) from None
    return kept, meshes, arg_shardings, result_shardings


def _device_count(shardings: list, meshes: dict[str, MeshAttr]) -> tuple[int, MeshAttr | None]:
    """The number of devices (the largest device id of any mesh, plus one) and the largest mesh."""
    candidates = list(meshes.values()) + [_mesh_of(s, meshes) for s in shardings]
    candidates = [m for m in candidates if m is not None]
    if not candidates:
        return 1, None
    biggest = max(candidates, key=lambda m: len(mesh_devices(m)))
    return max(max(mesh_devices(m), default=0) for m in candidates) + 1, biggest


def _pieces(value, sharding: TensorShardingAttr | None, meshes: dict, n: int) -> list:
    """The piece of ``value`` each device 0..n-1 gets (a device outside the sharding's mesh gets the piece
    of the device ``d mod`` the mesh's size)."""
    mesh = _mesh_of(sharding, meshes)
    if not isinstance(value, np.ndarray) or mesh is None:
        return [value] * n
    by_device = split(value, sharding, mesh)
    held = sorted(by_device)
    return [by_device.get(d, by_device[held[d % len(held)]]) for d in range(n)]


def _assemble(per_device: list, result_type, sharding: TensorShardingAttr | None, meshes: dict):
    """(global value, replica difference) of one result from every device's piece."""
    first = per_device[0]
    if not isinstance(first, np.ndarray):
        return first, 0.0
    mesh = _mesh_of(sharding, meshes)
    if mesh is None:
        spread = max((largest_difference(p, first) for p in per_device[1:]), default=0.0)
        return first, spread
    pieces = {d: p for d, p in enumerate(per_device) if d in set(mesh_devices(mesh))}
    got = assemble(pieces, tuple(result_type.shape), sharding, mesh)
    return got.value, got.replica_difference


def simulate(module, *args, seed: int = 0, function: str = "main", propagate: bool = True,
             **partition_options) -> SimulationResult:
    """Run ``module`` (a parsed ``Module`` or MLIR text) partitioned on simulated devices and compare
    every output with the unpartitioned run (see the module docstring).  ``args`` are the global inputs
    (numpy arrays); without them random ones are drawn from ``seed``.  ``partition_options`` go to
    ``shardy_py.partition`` (``enable_rgv3``, ``per_dim_all_gather``, ...).  Raises
    ``SimulationError`` (with located ``diagnostics``) when a step fails.

    >>> import shardy_py
    >>> r = shardy_py.simulate(open("examples/mlp.mlir").read())
    >>> r.ok, len(r.devices), r.outputs[0].actual.shape
    (True, 8, (16, 64))
    """
    if isinstance(module, str):
        from shardy_py.syntax.parser import parse_module

        module = parse_module(module)
    func = None
    try:
        func = entry_function(module, function)
        if func is None:
            raise InterpretError("the module has no function to run", None)
        inputs = entry_arguments(func, list(args) if args else random_inputs(func, seed))
        ev = Evaluator(module, out=sys.stdout)
        with np.errstate(all="ignore"):
            expected = owned(ev.run_region(func.regions[0], inputs, {}))
    except InterpretError as e:
        if e.loc is None and func is not None:
            e.loc = func.loc
        raise _located(e, "the unpartitioned program") from None
    local, meshes, arg_shardings, result_shardings = _partition(module, function, propagate, partition_options)
    local_func = entry_function(local, function)
    n, mesh = _device_count(arg_shardings + result_shardings, meshes)
    per_arg = [_pieces(v, s, meshes, n) for v, s in zip(inputs, arg_shardings, strict=True)]
    grid = ProcessGrid(1, n)
    traces: list[list] = [[] for _ in range(n)]
    local_ev = Evaluator(local, out=sys.stdout)
    name = local_func.properties_view.get("sym_name")

    def job(device: int):
        def run():
            try:
                process = Process(ProcessId(0, device), grid, traces[device])
                return owned(local_ev.fork(process).call(name, [p[device] for p in per_arg], local_func.loc))
            except InterpretError as e:
                e.message = f"the partitioned program on device {device}: {e.message}"
                raise
        return run

    try:
        results = run_processes(grid, [job(d) for d in range(n)])
    except InterpretError as e:
        raise SimulationError(e.message, [(e.loc or func.loc, e.message)]) from None
    global_types = func.properties_view.get("result_types") or []
    outputs = []
    for i, (want, s) in enumerate(zip(expected, result_shardings, strict=True)):
        got, spread = _assemble([r[i] for r in results], global_types[i], s, meshes)
        if isinstance(want, np.ndarray):
            diff = largest_difference(got, want)
            equal = within_tolerance(got, want) and replicas_agree(spread, want)
        else:
            diff, equal = 0.0, True
        outputs.append(OutputComparison(i, global_types[i], s, want, got, diff, spread, equal))
    peak = _peak_bytes(local, name)
    devices = [DeviceRun(d, mesh_position(mesh, d) if mesh is not None else None, [p[d] for p in per_arg],
                         results[d], peak, traces[d]) for d in range(n)]
    global_peak = _peak_bytes(_unsharded(module), func.properties_view.get("sym_name"))
    notes = []
    if partition_options.get("rng_bit_generator_unsafe", True) and any(
            op.name == "stablehlo.rng_bit_generator" for op in local.walk()):
        notes.append(RNG_NOTE)
    return SimulationResult(inputs, outputs, devices, local, _mesh_name(module, mesh), mesh,
                            None if args else seed, global_peak, notes)


#: Why a sharded ``stablehlo.rng_bit_generator`` gives other numbers than the unpartitioned run.
RNG_NOTE = ("a stablehlo.rng_bit_generator whose output is sharded generates each device's piece from the state "
            "it is given (rng-bit-generator-unsafe, jaxlib 0.12's default), not its piece of the unpartitioned "
            "numbers; --no-rng-bit-generator-unsafe (rng_bit_generator_unsafe=False) generates the whole output "
            "on every device and keeps its piece")


def _peak_bytes(module, function: str) -> int:
    """The most bytes of values alive at once in ``function`` (``shardy_py.cost.memory``'s model: arguments
    held throughout, each value until its last use, a region's or callee's peak inside its op)."""
    from shardy_py.cost.memory import function_memory

    return next((f.peak_bytes for f in function_memory(module) if f.name == function), 0)


def _unsharded(module):
    """A copy of ``module`` without shardings and meshes: its values at their global sizes."""
    from shardy_py.ir.clone import clone_module
    from shardy_py.passes.manager import PassManager
    from shardy_py.passes.registry import lookup

    copy = clone_module(module)
    PassManager([lookup("sdy-drop-sharding-and-mesh")()]).run(copy)
    return copy


def _mesh_name(module, mesh: MeshAttr | None) -> str | None:
    if mesh is None:
        return None
    for name, m in module.meshes.items():
        if m.axes == mesh.axes and tuple(m.device_ids) == tuple(mesh.device_ids):
            return name
    return None
