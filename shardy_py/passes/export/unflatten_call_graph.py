"""``-sdy-unflatten-call-graph`` (export/unflatten_call_graph.cc): calls of functions with the same
origin (``sdy.original_func_name``), the same ``sdy.func_manual_axes`` and the same argument and
result shardings all call the first such function (with ``dedup-functions-fully``, shardings
aside, the most called one); then every function loses both attributes.  The functions no longer
called are left to ``symbol-dce``."""
from __future__ import annotations

from collections import Counter

from shardy_py.ir.ops import Operation
from shardy_py.ir.walk import walk_post_order
from shardy_py.passes.data_flow import remove_attribute
from shardy_py.passes.func_calls import (
    ORIGINAL_FUNC_NAME,
    MeshOf,
    SymbolTable,
    callee_of,
    func_arg_shardings,
    func_result_shardings,
    original_func_name,
    set_callee,
    sym_name,
)
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.registry import Pass, PassOption, register

FUNC_MANUAL_AXES = "sdy.func_manual_axes"


def computation_key(func: Operation, module, ignore_shardings: bool = False, mesh_of: MeshOf | None = None) -> tuple:
    """``getComputationKey``: origin name, manual axes, argument and result shardings (None for
    the shardings when ignored; meshes resolved with ``mesh_of``, see ``func_arg_shardings``)."""
    manual = func.attributes_view.get(FUNC_MANUAL_AXES)
    if ignore_shardings:
        return (original_func_name(func), str(manual) if manual is not None else None, None, None)
    return (original_func_name(func), str(manual) if manual is not None else None,
            func_arg_shardings(func, module, mesh_of), func_result_shardings(func, module, mesh_of))


def func_cache(calls: list[tuple[Operation, Operation]], module, dedup_fully: bool,
               mesh_of: MeshOf | None = None) -> dict[tuple, Operation]:
    """``populateFuncCache``: per key, the callee of its first call; with ``dedup_fully`` the one
    whose exact key (shardings too) is called most, ties to the earlier."""
    cache: dict[tuple, Operation] = {}
    for _call, func in calls:
        cache.setdefault(computation_key(func, module, dedup_fully, mesh_of), func)
    if dedup_fully:
        counts: Counter = Counter()
        for _call, func in calls:
            key = computation_key(func, module, True, mesh_of)
            exact = computation_key(func, module, mesh_of=mesh_of)
            counts[exact] += 1
            if counts[exact] > counts[computation_key(cache[key], module, mesh_of=mesh_of)]:
                cache[key] = func
    return cache


@register
class UnflattenCallGraphPass(Pass):
    name = "sdy-unflatten-call-graph"
    summary = "Unflattens the call graph."
    options = (PassOption(
        "dedup-functions-fully", bool, False,
        "If true, regardless of the input and output shardings of functions, it keeps one callee function "
        "for each caller function. The default is false, meaning it will deduplicate only if the input and "
        "output shardings are the same."),)

    def run(self, module, ctx) -> None:
        dedup_fully = self.option("dedup-functions-fully")
        table = SymbolTable(module)
        calls = []
        for call in [op for op in list(walk_post_order(module.op)) if op.name == "func.call"]:
            try:
                calls.append((call, table.lookup_func(callee_of(call))))
            except ValueError as e:
                ctx.error(call, str(e))
                return
        mesh_of = MeshTable(module).mesh_of  # (the pass adds and removes no mesh)
        cache = func_cache(calls, module, dedup_fully, mesh_of)
        for call, func in calls:
            target = cache[computation_key(func, module, dedup_fully, mesh_of)]
            if target is not func:
                set_callee(call, sym_name(target))
        for op in module.ops:
            if op.name == "func.func":
                remove_attribute(op, ORIGINAL_FUNC_NAME)
                remove_attribute(op, FUNC_MANUAL_AXES)
