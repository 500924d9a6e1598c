"""Bytes live on one device along each function's op order, and where they peak.

The model, per function (on the module with explicit collectives, so gathered and resharded
copies count):

* the function's arguments are live from start to end (their buffers belong to the caller);
* a value an op defines is live from that op to the last op of the same block that uses it, itself
  or through an op nested in its regions (a value no op uses lives at its op only); a function's
  results are used by its ``return``;
* at op ``i``, the live bytes are those of every value defined before ``i`` and used at ``i`` or
  later, plus ``i``'s results; an op with regions (``while``, ``case``, ``if``, ``sdy.manual_computation``,
  a reduction's body) or a ``func.call`` holds, instead of its results, the larger of its results and
  the peak of what its regions (the callee) define: block arguments share the buffers of the op's
  operands, so they do not count again;
* values on a maximal mesh (one device) count on that device only: the peak is the largest over
  devices.

This is an upper bound of what XLA's buffer assignment finds (it fuses ops, reuses buffers in
place and schedules differently), and a fair way to compare two shardings of one program.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from shardy_py.cost.sizes import LocalSize, mesh_of, type_size, value_size
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.passes.func_calls import callee_of, result_sharding


@dataclass(frozen=True)
class Tensor:
    """A function argument or result as one device holds it."""

    index: int
    name: str
    type: str
    local_type: str
    sharding: str | None
    bytes: int
    padded: bool
    device: int | None = None


@dataclass(frozen=True)
class Point:
    """Live bytes at one op of a function's body (``index`` in op order)."""

    index: int
    op: str
    line: int | None
    live_bytes: int


@dataclass
class FunctionMemory:
    """Arguments, results and live bytes along one function."""

    name: str
    arguments: list[Tensor]
    results: list[Tensor]
    peak_bytes: int
    #: The innermost op where the peak is reached, with the ops around it (outermost first).
    peak_path: list[tuple[str, int | None]]
    timeline: list[Point] = field(default_factory=list)

    @property
    def arguments_bytes(self) -> int:
        return sum(t.bytes for t in self.arguments)

    @property
    def results_bytes(self) -> int:
        return sum(t.bytes for t in self.results)

    @property
    def peak_op(self) -> str | None:
        return self.peak_path[-1][0] if self.peak_path else None

    @property
    def peak_line(self) -> int | None:
        return self.peak_path[-1][1] if self.peak_path else None


class _Bytes:
    """Bytes on every device plus bytes on single devices: ``(every, {device: bytes})``."""

    __slots__ = ("every", "single")

    def __init__(self, every: int = 0, single: dict | None = None):
        self.every = every
        self.single = dict(single) if single else {}

    def add(self, size: LocalSize, sign: int = 1) -> None:
        b = (size.bytes or 0) * sign
        if size.device is None:
            self.every += b
        else:
            self.single[size.device] = self.single.get(size.device, 0) + b

    def plus(self, other: _Bytes) -> _Bytes:
        out = _Bytes(self.every + other.every, self.single)
        for d, b in other.single.items():
            out.single[d] = out.single.get(d, 0) + b
        return out

    @property
    def worst(self) -> int:
        """The bytes of the most loaded device."""
        return self.every + max([0, *self.single.values()])


class MemoryModel:
    """Liveness of one module (see the module docstring); callee peaks are memoised."""

    def __init__(self, module: Module):
        self.module = module
        self.meshes = module.meshes
        self.funcs = module.funcs
        self._sizes: dict[int, LocalSize] = {}
        self._callee: dict[str, tuple[_Bytes, list]] = {}
        self._active: set[str] = set()

    def size(self, value: Value) -> LocalSize:
        key = id(value)
        s = self._sizes.get(key)
        if s is None:
            s = self._sizes[key] = value_size(value, self.meshes)
        return s

    # -- blocks ---------------------------------------------------------------------------------

    def block_peak(self, block: Block, base: _Bytes, timeline: list | None = None) -> tuple[_Bytes, list]:
        """The peak of live bytes over ``block``'s ops with ``base`` live throughout, and the path
        of ops to where it is reached."""
        ops = block.ops
        position = {}
        for i, op in enumerate(ops):
            for r in op.results:
                position[r] = i
        last = {}
        for i, op in enumerate(ops):
            for v in _used_values(op):
                if v in position:
                    last[v] = i
        ends: dict[int, list[Value]] = defaultdict(list)
        for v, i in position.items():
            ends[max(last.get(v, i), i)].append(v)
        live = _Bytes(base.every, base.single)
        best, best_path = None, []
        for i, op in enumerate(ops):
            own = _Bytes()
            for r in op.results:
                own.add(self.size(r))
            inner, inner_path = self.inner_peak(op)
            here = live.plus(own if inner is None or own.worst >= inner.worst else inner)
            if best is None or here.worst > best.worst:
                best, best_path = here, [_place(op)] + (inner_path if inner is not None and inner.worst > own.worst
                                                        else [])
            if timeline is not None:
                timeline.append(Point(i, op.name, _line(op), here.worst))
            live = live.plus(own)
            for v in ends.get(i, ()):
                live.add(self.size(v), -1)
        return (best if best is not None else _Bytes(base.every, base.single)), best_path

    def inner_peak(self, op: Operation) -> tuple[_Bytes | None, list]:
        """The peak of what ``op``'s regions (or the function it calls) define; None without any."""
        if op.name == "func.call":
            return self.callee_peak(callee_of(op))
        best, path = None, []
        for region in op.regions:
            for block in region.blocks:
                peak, p = self.block_peak(block, _Bytes())
                if best is None or peak.worst > best.worst:
                    best, path = peak, p
        return best, path

    def callee_peak(self, name: str) -> tuple[_Bytes | None, list]:
        func = self.funcs.get(name)
        if func is None or not func.regions or not func.regions[0].blocks or name in self._active:
            return None, []
        if name not in self._callee:
            self._active.add(name)
            self._callee[name] = self.block_peak(func.regions[0].blocks[0], _Bytes())
            self._active.discard(name)
        return self._callee[name]

    # -- functions ------------------------------------------------------------------------------

    def function(self, func: Operation) -> FunctionMemory:
        """Arguments, results, peak and timeline of ``func``."""
        name = str(func.properties_view.get("sym_name"))
        block = func.regions[0].blocks[0] if func.regions and func.regions[0].blocks else None
        arguments = []
        base = _Bytes()
        for i, arg in enumerate(block.arguments if block is not None else ()):
            size = self.size(arg)
            base.add(size)
            sharding = arg.attributes.get("sdy.sharding")
            arguments.append(Tensor(i, arg.name or f"%arg{i}", str(arg.type), size.local_type,
                                    str(sharding) if sharding is not None else None, size.bytes or 0, size.padded,
                                    size.device))
        results = []
        for i, t in enumerate(func.properties_view.get("result_types") or ()):
            sharding = result_sharding(func, i)
            size = type_size(t, sharding, mesh_of(sharding, self.meshes))
            results.append(Tensor(i, f"result {i}", str(t), size.local_type, str(sharding) if sharding else None,
                                  size.bytes or 0, size.padded, size.device))
        timeline: list[Point] = []
        if block is None:
            return FunctionMemory(name, arguments, results, base.worst, [], timeline)
        peak, path = self.block_peak(block, base, timeline)
        return FunctionMemory(name, arguments, results, peak.worst, path, timeline)


def _place(op: Operation) -> tuple[str, int | None]:
    return op.name, _line(op)


def _line(op: Operation) -> int | None:
    return op.loc.line if op.loc is not None else None


def _used_values(op: Operation):
    """The values ``op`` and every op nested in it read."""
    for v in op.operands:
        if v is not None:
            yield v
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                yield from _used_values(inner)


def function_memory(module: Module) -> list[FunctionMemory]:
    """``FunctionMemory`` of every function of ``module`` with a body, in module order."""
    model = MemoryModel(module)
    return [model.function(op) for op in module.ops
            if op.name == "func.func" and op.regions and op.regions[0].blocks]
