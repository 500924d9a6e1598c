"""``-sdy-remove-sub-axes-in-input-output-shardings``
(export/remove_sub_axes_in_input_output_shardings.cc): in the argument and result shardings of the
main function, each open dimension loses its first sub-axis and every axis after it (closed
dimensions are left as they are)."""
from __future__ import annotations

import attrs

from shardy_py.ir.attrs import TensorShardingAttr
from shardy_py.passes.func_calls import arg_sharding, result_sharding
from shardy_py.passes.func_shardings import MissingMainFunc, main_func_or_error, set_result_sharding
from shardy_py.passes.registry import Pass, register
from shardy_py.passes.shardings import set_sharding


def without_sub_axes(sharding: TensorShardingAttr) -> TensorShardingAttr:
    """``removeSubAxesInDimensionShardings``: open dimensions cut before their first sub-axis."""
    dims = []
    for dim in sharding.dim_shardings:
        axes = dim.axes
        if not dim.is_closed:
            cut = next((i for i, axis in enumerate(axes) if axis.sub_axis_info is not None), len(axes))
            axes = axes[:cut]
        dims.append(attrs.evolve(dim, axes=axes))
    return attrs.evolve(sharding, dim_shardings=tuple(dims))


@register
class RemoveSubAxesInInputOutputShardingsPass(Pass):
    name = "sdy-remove-sub-axes-in-input-output-shardings"
    summary = "Removes sub-axes in input/output shardings."

    def run(self, module, ctx) -> None:
        try:
            func = main_func_or_error(module)
        except MissingMainFunc as e:
            ctx.error(None, str(e))
            return
        changed = False
        if func.regions and func.regions[0].blocks:
            for index, arg in enumerate(func.regions[0].blocks[0].arguments):
                sharding = arg_sharding(func, index)
                if sharding is not None and (new := without_sub_axes(sharding)) != sharding:
                    set_sharding(arg, new)
                    changed = True
        for index in range(len(func.properties_view.get("result_types") or [])):
            sharding = result_sharding(func, index)
            if sharding is not None and (new := without_sub_axes(sharding)) != sharding:
                set_result_sharding(func, index, new)
                changed = True
        if not changed:
            ctx.mark_all_preserved()
