"""``Context``: per-module caches the rules share (meshes, value users, manual axes)."""
from __future__ import annotations

from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr
from shardy_py.ir.module import Module, sharding_of
from shardy_py.ir.ops import Location, Operation, Value

_DATA_FLOW_OPS = frozenset({"sdy.named_computation", "sdy.manual_computation", "stablehlo.while",
                            "stablehlo.case", "stablehlo.optimization_barrier"})


class Context:
    """Everything a rule may need beyond the op itself; built once per ``verify`` call."""

    def __init__(self, module: Module, ops: list[Operation] | None = None) -> None:
        self.module = module
        #: The module's ops in pre-order, when the caller already walked it (None: walk when needed).
        self._ops = ops
        self.meshes: dict[str, MeshAttr] = {}
        for op in module.ops:
            if op.name == "sdy.mesh":
                name, mesh = op.properties_view.get("sym_name"), op.properties_view.get("mesh")
                if isinstance(name, str) and isinstance(mesh, MeshAttr):
                    self.meshes.setdefault(name, mesh)
        self._users: dict[Value, list[Operation]] | None = None
        self._manual: dict[int, dict[str, Operation]] = {}
        #: ``enclosing_manual_axes`` by the block of the op (blocks neither move nor die while verifying).
        self._manual_by_block: dict[int, dict[str, Operation]] = {}

    # -- meshes -------------------------------------------------------------
    def mesh_of(self, mesh_or_ref: str | MeshAttr | TensorShardingAttr | None) -> MeshAttr | None:
        """The mesh a sharding / symbol / inline mesh denotes (None if the symbol is undefined)."""
        if isinstance(mesh_or_ref, TensorShardingAttr):
            mesh_or_ref = mesh_or_ref.mesh_or_ref
        if isinstance(mesh_or_ref, MeshAttr):
            return mesh_or_ref
        if isinstance(mesh_or_ref, str):
            return self.meshes.get(mesh_or_ref)
        return None

    # -- uses ---------------------------------------------------------------
    def users(self, value: Value) -> list[Operation]:
        """Ops using ``value`` as an operand (one entry per use)."""
        if self._users is None:
            users: dict[Value, list[Operation]] = {}
            for op in (self._ops if self._ops is not None else self.module.walk()):
                for v in op.operands:
                    if v is not None:
                        users.setdefault(v, []).append(op)
            self._users = users
        return self._users.get(value, [])

    # -- shardings ----------------------------------------------------------
    def sharding_of(self, value: Value | None) -> TensorShardingAttr | None:
        """Appendix R of the catalogue, plus the data-flow-edge rule.

        A value owned by a data-flow op (named/manual computation, stablehlo while,
        case, optimization_barrier) whose only user is an ``sdy.data_flow_edge``
        takes that edge's sharding; a while-body argument resolves to its result.
        """
        if value is None:
            return None
        owner = value.owner
        if not isinstance(owner, Operation):
            region = getattr(owner, "parent", None)
            op = getattr(region, "parent", None)
            if op is not None and op.name == "stablehlo.while" and value.index < len(op.results):
                value = op.results[value.index]
                owner = op
        if isinstance(owner, Operation) and owner.name in _DATA_FLOW_OPS:
            users = self.users(value)
            if len(users) == 1 and users[0].name == "sdy.data_flow_edge":
                s = users[0].properties_view.get("sharding")
                return s if isinstance(s, TensorShardingAttr) else None
        return sharding_of(value)

    def sharding_bypassing_barriers(self, value: Value | None) -> TensorShardingAttr | None:
        """The sharding of ``value`` after walking up through ``sdy.propagation_barrier`` inputs."""
        seen = 0
        while (value is not None and isinstance(value.owner, Operation)
               and value.owner.name == "sdy.propagation_barrier" and value.owner.operands and seen < 10000):
            value = value.owner.operands[0]
            seen += 1
        return self.sharding_of(value)

    # -- manual computations ------------------------------------------------
    def enclosing_manual_axes(self, op: Operation) -> dict[str, Operation]:
        """Axis name -> the enclosing ``sdy.manual_computation`` that makes it manual (outermost wins);
        the same for every op of a block, so found once per block."""
        block = op.parent
        hit = self._manual_by_block.get(id(block))
        if hit is not None:
            return hit
        found = self._enclosing_manual_axes(op)
        if block is not None:
            self._manual_by_block[id(block)] = found
        return found

    def _enclosing_manual_axes(self, op: Operation) -> dict[str, Operation]:
        parent = op.parent_op
        while parent is not None and parent.name != "sdy.manual_computation":
            parent = parent.parent_op
        if parent is None:
            return {}
        key = id(parent)
        cached = self._manual.get(key)
        if cached is None:
            manual = parent.properties_view.get("manual_axes")
            cached = {name: parent for name in getattr(manual, "axes", ()) or ()}
            cached.update(self.enclosing_manual_axes(parent))  # the outermost owner wins, as in Shardy
            self._manual[key] = cached
        return cached


def loc_of(x: Operation | Value | None) -> Location:
    """Where an op or value was written (1:1 when unknown)."""
    loc = getattr(x, "loc", None)
    if loc is None and isinstance(x, Value):
        owner = x.owner
        loc = getattr(owner, "loc", None)
        if loc is None and not isinstance(owner, Operation):
            region = getattr(owner, "parent", None)
            loc = getattr(getattr(region, "parent", None), "loc", None)
    return loc if loc is not None else Location(1, 1)
