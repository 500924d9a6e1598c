"""``-sdy-close-shardings`` (export/close_shardings.cc): every sharding in the module closed
(``TensorShardingAttr::getClosedLike``: all dimensions closed, replicated axes dropped)."""
from __future__ import annotations

import attrs

from shardy_py.ir.attrs import TensorShardingAttr
from shardy_py.passes.registry import Pass, register
from shardy_py.passes.sharding_walker import transform_shardings


def closed_like(sharding: TensorShardingAttr) -> TensorShardingAttr:
    """``getClosedLike``: each dimension closed (axes and priority kept), no replicated axes."""
    return attrs.evolve(sharding, dim_shardings=tuple(attrs.evolve(d, is_closed=True) for d in sharding.dim_shardings),
                        replicated_axes=())


@register
class CloseShardingsPass(Pass):
    name = "sdy-close-shardings"
    summary = "Closes tensor shardings and drops replicated axes."

    def run(self, module, ctx) -> None:
        """Close every sharding ``transformShardings`` reaches (each distinct sharding once)."""
        closed: dict[TensorShardingAttr, TensorShardingAttr] = {}

        def close(sharding: TensorShardingAttr) -> TensorShardingAttr:
            new = closed.get(sharding)
            if new is None:
                new = closed[sharding] = closed_like(sharding)
            return new

        if not transform_shardings(module.op, close):
            ctx.mark_all_preserved()
