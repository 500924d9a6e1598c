"""``-sdy-inline-meshes`` (common/inline_meshes.cc): every sharding that names a mesh (``@mesh``)
gets the mesh itself, a StableHLO collective whose ``replica_groups`` names an ``sdy.mesh`` gets
it as a ``#stablehlo.mesh``, and every ``sdy.mesh`` is erased."""
from __future__ import annotations

import re

import attrs

from shardy_py.ir.attr_text import quote_string, unescape_string
from shardy_py.ir.attrs import MeshAttr, OpaqueAttr, TensorShardingAttr
from shardy_py.passes.data_flow import set_attribute, set_property
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.registry import Pass, register
from shardy_py.passes.sharding_walker import transform_shardings

_SYMBOL_MESH = re.compile(r'#stablehlo\.replica_group_mesh_axes<mesh = @([\w$.-]+|"(?:[^"\\]|\\.)*"), (axes = .*)>',
                          re.S)


def stablehlo_mesh_text(mesh: MeshAttr) -> str:
    """``convertMeshAttr``: ``mesh`` as a ``#stablehlo.mesh`` (its device ids, when explicit, as an
    ``i64`` tensor)."""
    axes = ", ".join(f"<name = {quote_string(a.name)}, size = {a.size}>" for a in mesh.axes)
    text = f"#stablehlo.mesh<axes=[{axes}]"
    ids = mesh.device_ids
    if ids:
        values = str(ids[0]) if len(set(ids)) == 1 else "[" + ", ".join(map(str, ids)) + "]"
        text += f", device_ids=dense<{values}> : tensor<{len(ids)}xi64>"
    return text + ">"


def _symbol_name(text: str) -> str:
    if text.startswith('"'):
        return unescape_string(text[1:-1])
    return text


@register
class InlineMeshesPass(Pass):
    name = "sdy-inline-meshes"
    summary = "Inlines the mesh definition into sharding attributes."

    def run(self, module, ctx) -> None:
        """Inline the meshes of shardings and replica groups, then erase the ``sdy.mesh`` ops."""
        table = MeshTable(module)
        unknown: list[str] = []

        def inline(sharding: TensorShardingAttr) -> TensorShardingAttr:
            if isinstance(sharding.mesh_or_ref, str):
                mesh = table.lookup(sharding.mesh_or_ref)
                if mesh is None:  # the C++ asserts; a module that verifies has no such sharding
                    unknown.append(sharding.mesh_or_ref)
                    return sharding
                return attrs.evolve(sharding, mesh_or_ref=mesh)
            return sharding

        changed = transform_shardings(module.op, inline)
        if unknown:
            ctx.error(None, f"sdy-inline-meshes: a sharding names an unknown mesh @{unknown[0]}")
            return
        for op in module.walk():
            in_properties = "replica_groups" in op.properties_view
            attr = op.properties_view.get("replica_groups") if in_properties \
                else op.attributes_view.get("replica_groups")
            if not isinstance(attr, OpaqueAttr):
                continue
            m = _SYMBOL_MESH.fullmatch(attr.text)
            mesh = table.meshes.get(_symbol_name(m.group(1))) if m else None
            if mesh is None:
                continue
            new = OpaqueAttr(f"#stablehlo.replica_group_mesh_axes<mesh = {stablehlo_mesh_text(mesh)}, "
                             f"{m.group(2)}>")
            (set_property if in_properties else set_attribute)(op, "replica_groups", new)
            changed = True
        meshes = [op for op in module.ops if op.name == "sdy.mesh"]
        for op in meshes:
            op.erase()
        if not changed and not meshes:
            ctx.mark_all_preserved()
