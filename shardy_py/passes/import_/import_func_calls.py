"""``-sdy-import-func-calls`` (import/import_func_calls.cc): every ``func.call`` becomes an
``sdy.named_computation`` named after its callee, holding the callee's body (moved for the first
call, cloned for the others, with a warning once); the callees are then erased and, by default,
data-flow edges added on every named computation."""
from __future__ import annotations

from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import clone, replace_op
from shardy_py.ir.ops import Operation, Region
from shardy_py.ir.walk import walk_post_order
from shardy_py.passes.data_flow import block_arg_owners, result_owners
from shardy_py.passes.func_calls import (
    EXECUTION_THREAD,
    SHARDING,
    SymbolTable,
    callee_of,
    func_arg_shardings,
    original_func_name,
    sharding_per_value,
    walk_calls,
)
from shardy_py.passes.import_.add_data_flow_edges import add_data_flow_edges
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.registry import Pass, PassOption, register

#: The C++ warns about a function called more than once through a static ``llvm::once_flag``: once
#: per process, whatever the module.
_warned_multiple_calls = False


def _move_region(src: Region, dst: Region) -> None:
    for block in src.blocks:
        block.parent = dst
        for arg in block.arguments:  # a function's argument attributes stay with the function
            arg.attributes = {}
    dst.blocks = list(src.blocks)
    src.blocks = []


def _convert_terminators(region: Region) -> None:
    for block in region.blocks:
        ret = block.ops[-1] if block.ops else None
        if ret is not None and ret.name == "func.return":
            new = Builder.before(ret).create("sdy.return", list(ret.operands), result_types=[], loc=ret._location)
            # a value whose type our reader did not learn still has the type the return states
            new.operand_types = [v.type if v is not None and v.type is not None else t
                                 for v, t in zip(ret.operands, ret.operand_types, strict=False)]
            ret.erase()


def import_call(call: Operation, moved: dict[str, Operation], table: SymbolTable, module, ctx,
                mesh_of=None) -> None:
    """Replace ``call`` by a named computation (``importCallOp``); ``mesh_of`` as for
    ``func_arg_shardings``."""
    global _warned_multiple_calls
    name = callee_of(call)
    func = table.lookup_func(name)
    props: dict = {"name": original_func_name(func)}
    in_shardings = func_arg_shardings(func, module, mesh_of)
    if in_shardings is not None:
        props["in_shardings"] = in_shardings
    out_shardings = sharding_per_value(call)
    if out_shardings is not None:
        props["out_shardings"] = out_shardings
    attributes = {k: v for k, v in call.attributes.items() if k != SHARDING}
    thread = func.attributes.get(EXECUTION_THREAD)
    if thread is not None:
        attributes[EXECUTION_THREAD] = thread
    named = Builder.before(call).create(
        "sdy.named_computation", list(call.operands), result_types=[r.type for r in call.results],
        properties=props, attributes=dict(sorted(attributes.items())), regions=1, loc=call._location)
    named.regions[0].blocks = []
    first = moved.get(name)
    if first is not None:
        if not _warned_multiple_calls:
            _warned_multiple_calls = True
            ctx.warning(call, f"function @{name} has multiple call ops, we need to clone the function body "
                              "for each call")
        copy = clone(first)
        copy.set_operands([])
        _move_region(copy.regions[0], named.regions[0])
    else:
        _move_region(func.regions[0], named.regions[0])
        _convert_terminators(named.regions[0])
        moved[name] = named
    replace_op(call, named.results)


@register
class ImportFuncCallsPass(Pass):
    name = "sdy-import-func-calls"
    summary = "Inline calls into `NamedComputationOp`."
    options = (PassOption("add-data-flow-edges-on-named-computations", bool, True,
                          "Whether to add data flow edges on named computations."),)

    def run(self, module, ctx) -> None:
        """Import every call (callees before callers), erase the callees, add the edges."""
        table = SymbolTable(module)
        moved: dict[str, Operation] = {}
        mesh_of = MeshTable(module).mesh_of  # (the pass adds and removes no mesh)
        walk_calls(module, lambda call: import_call(call, moved, table, module, ctx, mesh_of))
        for name in moved:
            table.erase(table.lookup(name))
        if self.option("add-data-flow-edges-on-named-computations"):
            for op in list(walk_post_order(module.op)):
                if op.name == "sdy.named_computation":
                    add_data_flow_edges(block_arg_owners(op))
                    add_data_flow_edges(result_owners(op))


