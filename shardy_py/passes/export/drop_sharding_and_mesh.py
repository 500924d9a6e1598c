"""``-sdy-drop-sharding-and-mesh`` (export/drop_sharding_and_mesh.cc): remove every ``sdy.sharding``
(on ops, function arguments and function results) and erase every ``sdy.mesh``."""
from __future__ import annotations

from shardy_py.passes.data_flow import SHARDING, remove_attribute
from shardy_py.passes.registry import Pass, register


def _without_sharding(d: dict | None) -> dict | None:
    if d and SHARDING in d:
        return {k: v for k, v in d.items() if k != SHARDING}
    return d


@register
class DropShardingAndMeshPass(Pass):
    name = "sdy-drop-sharding-and-mesh"
    summary = "Removes the mesh op and sharding notation from the program."

    def run(self, module, ctx) -> None:
        """Drop the ``sdy.sharding`` discardable attribute everywhere, then the meshes."""
        changed = False
        for op in module.walk():
            if SHARDING in op.attributes_view:
                remove_attribute(op, SHARDING)
                changed = True
            if op.name != "func.func":
                continue
            if op.regions and op.regions[0].blocks:
                for arg in op.regions[0].blocks[0].arguments:
                    if SHARDING in arg.attributes:
                        arg.attributes = _without_sharding(arg.attributes)
                        changed = True
            for key in ("arg_attrs", "res_attrs"):
                dicts = op.properties_view.get(key)
                if dicts and any(d and SHARDING in d for d in dicts):
                    op.properties[key] = [_without_sharding(d) for d in dicts]
                    changed = True
        meshes = [op for op in module.walk() if op.name == "sdy.mesh"]
        for op in meshes:
            op.erase()
        if not changed and not meshes:
            ctx.mark_all_preserved()
