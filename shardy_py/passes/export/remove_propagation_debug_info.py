"""``-sdy-remove-propagation-debug-info`` (export/remove_propagation_debug_info.cc): drop the
propagation edges and sharding origins propagation's debug options left on ops, function
arguments and function results."""
from __future__ import annotations

from shardy_py.passes.registry import Pass, register

DEBUG_ATTRS = ("sdy.propagation_edges", "sdy.block_arg_propagation_edges", "sdy.result_propagation_edges",
               "sdy.sharding_origins", "sdy.block_arg_sharding_origins", "sdy.result_sharding_origins")


def _without(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in DEBUG_ATTRS}


@register
class RemovePropagationDebugInfoPass(Pass):
    name = "sdy-remove-propagation-debug-info"
    summary = "Removes propagation debug info (propagation edges and origin shardings) during export."

    def run(self, module, ctx) -> None:
        """Remove the debug attributes everywhere (on a func: from its argument and result
        attributes; elsewhere: from the op)."""
        changed = False
        for op in module.walk():
            if op.name == "func.func":
                props = op.properties
                if op.regions and op.regions[0].blocks:
                    for arg in op.regions[0].blocks[0].arguments:
                        if any(k in DEBUG_ATTRS for k in arg.attributes):
                            arg.attributes = _without(arg.attributes)
                            changed = True
                for key in ("arg_attrs", "res_attrs"):
                    if props.get(key):
                        changed = changed or any(k in DEBUG_ATTRS for d in props[key] if d for k in d)
                        props[key] = [_without(d) if d else d for d in props[key]]
            elif any(k in DEBUG_ATTRS for k in op.attributes):
                op.attributes = _without(op.attributes)
                changed = True
        if not changed:
            ctx.mark_all_preserved()
