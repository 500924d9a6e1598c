"""``-sdy-drop-sharding-and-mesh`` (export/drop_sharding_and_mesh.cc): remove every ``sdy.sharding``
(on ops, function arguments and function results) and erase every ``sdy.mesh``.

As jaxlib 0.12 does: a mesh still referenced by an op after the shardings are dropped (an
``sdy.sharding_constraint``, ``sdy.manual_computation``, ``sdy.reshard``, a collective, ...) is
kept, since erasing it would leave a dangling symbol reference; the module's own attributes
``sdy.parameters_shardings`` and ``sdy.output_shardings`` are removed too unless
``keep-module-sharding-metadata`` is set (they do not keep a mesh)."""
from __future__ import annotations

from shardy_py.ir.symbol_uses import nested_symbol_uses
from shardy_py.passes.data_flow import SHARDING, remove_attribute
from shardy_py.passes.registry import Pass, PassOption, register

#: Module attributes with the shardings of the main function's parameters and outputs.
MODULE_SHARDING_METADATA = ("sdy.parameters_shardings", "sdy.output_shardings")


def _without_sharding(d: dict | None) -> dict | None:
    if d and SHARDING in d:
        return {k: v for k, v in d.items() if k != SHARDING}
    return d


@register
class DropShardingAndMeshPass(Pass):
    name = "sdy-drop-sharding-and-mesh"
    summary = "Removes the mesh op and sharding notation from the program."
    options = (PassOption("keep-module-sharding-metadata", bool, False,
                          "Whether to keep module-level sharding metadata (sdy.parameters_shardings and "
                          "sdy.output_shardings)."),)

    def run(self, module, ctx) -> None:
        """Drop the ``sdy.sharding`` discardable attribute everywhere, then the unreferenced meshes."""
        changed = False
        if not self.option("keep-module-sharding-metadata"):
            for key in MODULE_SHARDING_METADATA:
                if key in module.op.attributes_view:
                    remove_attribute(module.op, key)
                    changed = True
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
        used = nested_symbol_uses(op for op in module.ops if op.name != "sdy.mesh")
        meshes = [op for op in module.walk() if op.name == "sdy.mesh" and op.properties["sym_name"] not in used]
        for op in meshes:
            op.erase()
        if not changed and not meshes:
            ctx.mark_all_preserved()
