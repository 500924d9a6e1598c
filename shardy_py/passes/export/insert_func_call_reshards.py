"""``-sdy-insert-func-call-reshards`` (export/insert_func_call_reshards.cc, ``ir/utils.cc``
``insertReshardsOnFuncResults``): where a ``func.call`` result's sharding is not equivalent to the
callee's result sharding, an ``sdy.reshard`` after the call takes the result to the call's
sharding (fully closed when the call has none), and the call takes the callee's shardings.

Unreduced axes (jaxlib 0.12; Shardy at the test files' commit resharded them too): where the
callee's or the call's sharding of a result has unreduced axes, no reshard is inserted and the call
keeps its own sharding of that result (the callee's, fully closed, when it has none); a mismatch
left there is ``sdy-verify-unreduced-axes``'s error (``unreduced axes mismatch ... at call result``)."""
from __future__ import annotations

from shardy_py.ir.attrs import DimensionShardingAttr, TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.ops import Operation
from shardy_py.ir.walk import walk_post_order
from shardy_py.passes import data_flow as df
from shardy_py.passes.func_calls import SymbolTable, callee_of, func_result_shardings, sharding_per_value
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.registry import Pass, register
from shardy_py.passes.shardings import get_sharding


def fully_closed_like(sharding: TensorShardingAttr) -> TensorShardingAttr:
    """``TensorShardingAttr::getFullyClosedLike``: replicated, closed, same mesh and rank."""
    return TensorShardingAttr(sharding.mesh_or_ref, tuple(DimensionShardingAttr(()) for _ in sharding.dim_shardings))


def is_equivalent(sharding: TensorShardingAttr | None, other: TensorShardingAttr | None) -> bool:
    """``TensorShardingAttr::isEquivalent`` (unreduced axes compared): both fully replicated, or
    the same mesh (or mesh name), unreduced axes and axes per dimension."""
    def replicated(s):
        return s is None or (not s.unreduced_axes and all(not d.axes for d in s.dim_shardings))

    if replicated(sharding):
        return replicated(other)
    if other is None or sharding.mesh_or_ref != other.mesh_or_ref or sharding.unreduced_axes != other.unreduced_axes:
        return False
    return len(sharding.dim_shardings) == len(other.dim_shardings) and all(
        a.axes == b.axes for a, b in zip(sharding.dim_shardings, other.dim_shardings, strict=True))


def _has_unreduced(sharding: TensorShardingAttr | None) -> bool:
    return sharding is not None and bool(sharding.unreduced_axes)


def insert_reshards_on_func_results(func: Operation, call: Operation, module, mesh_of=None) -> bool:
    """``insertReshardsOnFuncResults``; whether the call or its uses changed (``mesh_of`` as for
    ``func_result_shardings``)."""
    func_shardings = func_result_shardings(func, module, mesh_of)
    if func_shardings is None:
        call_shardings = sharding_per_value(call)
        if call_shardings is None:
            return False
        func_shardings = TensorShardingPerValueAttr(tuple(fully_closed_like(s) for s in call_shardings.shardings))
    new_shardings = []
    for func_sharding, result in zip(func_shardings.shardings, call.results, strict=True):
        call_sharding = get_sharding(result)
        if _has_unreduced(func_sharding) or _has_unreduced(call_sharding):
            new_shardings.append(call_sharding if call_sharding is not None else fully_closed_like(func_sharding))
            continue
        new_shardings.append(func_sharding)
        if is_equivalent(func_sharding, call_sharding):
            continue
        reshard = Builder.after(call).create(
            "sdy.reshard", [result], result_types=[result.type], loc=call.loc,
            properties={"sharding": call_sharding if call_sharding is not None else fully_closed_like(func_sharding)})
        reshard.location_text = call.location_text
        result.replace_uses_with_if(reshard.results[0], lambda use, r=reshard: use.op is not r)
    func_shardings = TensorShardingPerValueAttr(tuple(new_shardings))
    before = call.attributes_view.get(df.SHARDING)
    df.set_attribute(call, df.SHARDING, func_shardings)
    return before != func_shardings


@register
class InsertFuncCallReshardsPass(Pass):
    name = "sdy-insert-func-call-reshards"
    summary = "Inserts reshards for func and call sharding conflicts."

    def run(self, module, ctx) -> None:
        table = SymbolTable(module)
        mesh_of = MeshTable(module).mesh_of  # (the pass adds and removes no mesh)
        changed = False
        for call in [op for op in list(walk_post_order(module.op)) if op.name == "func.call"]:
            try:
                func = table.lookup_func(callee_of(call))
            except ValueError as e:
                ctx.error(call, str(e))
                return
            changed = insert_reshards_on_func_results(func, call, module, mesh_of) or changed
        if not changed:
            ctx.mark_all_preserved()
