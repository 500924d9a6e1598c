"""``-symbol-dce`` (MLIR's ``SymbolDCE``, run by Shardy's import pipeline): erase the private
functions nothing live refers to.  A public symbol (and every op of the module that defines no
symbol) is live, and so is every function a live op or an op nested in it refers to through any
symbol reference in its attributes or properties (``func.call``'s callee, a ``stablehlo.composite``'s
``decomposition = @fn``, a custom call's ``called_computations``, ...: ``ir.symbol_uses``)."""
from __future__ import annotations

from shardy_py.ir.symbol_uses import nested_symbol_uses
from shardy_py.passes.func_calls import SymbolTable
from shardy_py.passes.registry import Pass, register


def _is_private(op) -> bool:
    return op.name == "func.func" and op.properties.get("sym_visibility") == "private"


@register
class SymbolDCEPass(Pass):
    name = "symbol-dce"
    summary = "Eliminate dead symbols"

    def run(self, module, ctx) -> None:
        """Mark the public symbols and everything they refer to live; erase the other private funcs."""
        if not any(_is_private(op) for op in module.ops):  # nothing could be dead: no walk needed
            ctx.mark_all_preserved()
            return
        table = SymbolTable(module)
        live: set[int] = set()
        worklist = [op for op in module.ops if not _is_private(op)]
        while worklist:
            op = worklist.pop()
            if id(op) in live:
                continue
            live.add(id(op))
            for name in nested_symbol_uses([op]):
                target = table.lookup(name)
                if target is not None and id(target) not in live:
                    worklist.append(target)
        dead = [op for op in module.ops if _is_private(op) and id(op) not in live]
        for op in dead:
            table.erase(op)
        if not dead:
            ctx.mark_all_preserved()
