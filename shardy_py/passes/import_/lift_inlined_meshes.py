"""``-sdy-lift-inlined-meshes`` (import/lift_inlined_meshes.cc): erase every ``sdy.mesh`` identical
to an earlier one (its references now name the earlier one), lift every inline mesh of a sharding
and of a StableHLO collective's ``replica_groups`` mesh into an ``sdy.mesh`` symbol (``@mesh``,
``@empty_mesh`` or ``@maximal_mesh_<id>``, renamed ``_N`` on a clash) placed after the last mesh,
and tag each mesh with a ``stablehlo.mesh`` dictionary of its axes and device ids."""
from __future__ import annotations

import re

from shardy_py.ir.attr_text import quote_string, unescape_string
from shardy_py.ir.attrs import MeshAttr, MeshAxisAttr, OpaqueAttr, TensorShardingAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.ops import Operation
from shardy_py.passes.data_flow import set_attribute, set_property
from shardy_py.passes.registry import Pass, PassOption, register
from shardy_py.passes.sharding_walker import transform_shardings

EMPTY_MESH_NAME = "empty_mesh"
STABLEHLO_MESH = "stablehlo.mesh"
#: The collectives whose ``replica_groups`` may name a mesh, in the order the C++ walks them.
REPLICA_GROUP_OPS = ("stablehlo.all_gather", "stablehlo.all_reduce", "stablehlo.reduce_scatter",
                     "stablehlo.all_to_all", "stablehlo.collective_broadcast")

_REPLICA_GROUPS = re.compile(r"#stablehlo\.replica_group_mesh_axes<mesh = (.*?), (axes = \[.*\])>", re.S)
_SHLO_MESH = re.compile(r"#stablehlo\.mesh<axes = \[(.*)\]>", re.S)
_SHLO_AXIS = re.compile(r'#stablehlo\.mesh_axis<name = "((?:[^"\\]|\\.)*)", size = (-?\d+)>')
_SDY_MESH = re.compile(r"#sdy\.mesh<\[(.*?)\](?:, device_ids=\[([-\d, ]*)\])?>", re.S)
_SDY_AXIS = re.compile(r'"((?:[^"\\]|\\.)*)"=(-?\d+)')
_SYMBOL = re.compile(r"@([\w$.-]+|\"(?:[^\"\\]|\\.)*\")")


#: (The names other passes import from here.)
escape_string = quote_string
_unescape = unescape_string


def stablehlo_mesh_dict(mesh: MeshAttr) -> OpaqueAttr:
    """``getStablehloMeshAttrAsDict``: ``{axes = [{name = "a", size = 4 : i64}, ...]}`` with
    ``device_ids = dense<...> : tensor<Nxi64>`` when the mesh has explicit device ids."""
    axes = ", ".join(f"{{name = {quote_string(a.name)}, size = {a.size} : i64}}" for a in mesh.axes)
    text = f"{{axes = [{axes}]"
    ids = mesh.device_ids
    if ids:
        values = str(ids[0]) if len(set(ids)) == 1 else "[" + ", ".join(map(str, ids)) + "]"
        text += f", device_ids = dense<{values}> : tensor<{len(ids)}xi64>"
    return OpaqueAttr(text + "}")


def new_mesh_name(mesh: MeshAttr, single_device_names: bool = False) -> str:
    """The name a lifted mesh asks for: ``maximal_mesh_<id>`` (``single_device_<id>`` with
    ``use-single-device-mesh-names``, jaxlib 0.12), ``empty_mesh`` or ``mesh``."""
    if mesh.is_maximal:
        prefix = "single_device" if single_device_names else "maximal_mesh"
        return f"{prefix}_{mesh.device_ids[0]}"
    if mesh.is_empty:
        return EMPTY_MESH_NAME
    return "mesh"


class _Symbols:
    """The module's symbol names, as MLIR's ``SymbolTable`` renames an inserted clash (``name_N``,
    N from one counter)."""

    def __init__(self, module):
        self.names = {op.properties.get("sym_name") for op in module.ops if op.properties}
        self.counter = 0

    def unique(self, name: str) -> str:
        if name not in self.names:
            self.names.add(name)
            return name
        while True:
            candidate = f"{name}_{self.counter}"
            self.counter += 1
            if candidate not in self.names:
                self.names.add(candidate)
                return candidate


class _Lifter:
    def __init__(self, module, single_device_names: bool = False):
        self.module = module
        self.single_device_names = single_device_names
        self.symbols = _Symbols(module)
        #: ``@name`` (str) of an erased duplicate, a ``MeshAttr`` (or ``("stablehlo", text)`` for a
        #: StableHLO mesh) -> the name of the mesh that stands for it now.
        self.new_names: dict = {}
        self.builder: Builder | None = None
        #: Whether the module changed (a mesh erased or made, a reference renamed).
        self.changed = False

    def dedup_meshes(self) -> None:
        last = None
        for op in [op for op in self.module.ops if op.name == "sdy.mesh"]:
            mesh, name = op.properties["mesh"], op.properties["sym_name"]
            if mesh in self.new_names:
                self.new_names[name] = self.new_names[mesh]
                self.symbols.names.discard(name)
                op.erase()
                self.changed = True
            else:
                self.new_names[mesh] = name
                last = op
        body = self.module.op.regions[0].blocks[0]
        self.builder = Builder.after(last) if last is not None else Builder(body, 0)

    def create_mesh(self, name: str, mesh: MeshAttr) -> str:
        self.changed = True
        op = self.builder.create("sdy.mesh", [], result_types=[], loc=self.module.op.loc,
                                 properties={"sym_name": name, "mesh": mesh})
        unique = self.symbols.unique(name)
        set_property(op, "sym_name", unique)
        return unique

    def lift_sharding(self, sharding: TensorShardingAttr) -> TensorShardingAttr:
        key = sharding.mesh_or_ref
        name = self.new_names.get(key)
        if name is None and isinstance(key, MeshAttr):
            name = self.new_names[key] = self.create_mesh(new_mesh_name(key, self.single_device_names), key)
        if name is None:
            return sharding
        return TensorShardingAttr(name, sharding.dim_shardings, sharding.replicated_axes,
                                  sharding.unreduced_axes, sharding.reduction)

    def _mesh_key(self, text: str):
        """The map key and the ``MeshAttr`` to lift (None for a symbol) of a replica-group mesh."""
        if m := _SYMBOL.fullmatch(text):
            name = m.group(1)
            return (unescape_string(name[1:-1]) if name.startswith('"') else name), None
        if m := _SHLO_MESH.fullmatch(text):
            axes = tuple(MeshAxisAttr(unescape_string(n), int(s)) for n, s in _SHLO_AXIS.findall(m.group(1)))
            return ("stablehlo", text), MeshAttr(axes)
        if m := _SDY_MESH.fullmatch(text):
            axes = tuple(MeshAxisAttr(unescape_string(n), int(s)) for n, s in _SDY_AXIS.findall(m.group(1)))
            ids = tuple(int(i) for i in m.group(2).split(",")) if m.group(2) else ()
            mesh = MeshAttr.get(axes, ids)
            return mesh, mesh
        return None, None

    def lift_replica_groups(self, op: Operation) -> None:
        attr = op.properties.get("replica_groups", op.attributes.get("replica_groups"))
        if not isinstance(attr, OpaqueAttr):
            return
        m = _REPLICA_GROUPS.fullmatch(attr.text)
        if m is None:
            return
        key, mesh = self._mesh_key(m.group(1))
        if key is None:
            return
        name = self.new_names.get(key)
        if name is None:
            if mesh is None:
                return
            lifted = new_mesh_name(mesh, self.single_device_names) if isinstance(key, MeshAttr) else "mesh"
            name = self.new_names[key] = self.create_mesh(lifted, mesh)
        ref = "@" + (name if re.fullmatch(r"[A-Za-z_][\w$.]*", name) else quote_string(name))
        new = OpaqueAttr(f"#stablehlo.replica_group_mesh_axes<mesh = {ref}, {m.group(2)}>")
        if new != attr:
            self.changed = True
            if "replica_groups" in op.properties:
                set_property(op, "replica_groups", new)
            else:
                set_attribute(op, "replica_groups", new)


@register
class LiftInlinedMeshesPass(Pass):
    name = "sdy-lift-inlined-meshes"
    summary = "Lifts inlined `MeshAttr`s in shardings as symbol `MeshOp`s."
    options = (PassOption("use-single-device-mesh-names", bool, False,
                          "Name lifted maximal (single-device) meshes single_device_<id>, not maximal_mesh_<id>."),)

    def run(self, module, ctx) -> None:
        """Dedup the meshes, lift the inline ones, tag every mesh with ``stablehlo.mesh``."""
        lifter = _Lifter(module, self.option("use-single-device-mesh-names"))
        lifter.dedup_meshes()
        if transform_shardings(module.op, lifter.lift_sharding):
            lifter.changed = True
        by_name: dict[str, list[Operation]] = {name: [] for name in REPLICA_GROUP_OPS}
        for op in module.walk():  # one walk; the ops are lifted name by name, as Shardy's walks do
            if op.name in by_name:
                by_name[op.name].append(op)
        for ops in by_name.values():
            for op in ops:
                lifter.lift_replica_groups(op)
        for op in [op for op in module.ops if op.name == "sdy.mesh"]:
            if STABLEHLO_MESH not in op.attributes:
                set_attribute(op, STABLEHLO_MESH, stablehlo_mesh_dict(op.properties["mesh"]))
                lifter.changed = True
        if not lifter.changed:
            ctx.mark_all_preserved()
