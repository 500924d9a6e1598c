"""func's call ops (``mlir/Dialect/Func/IR/FuncOps.td``); ``func.func`` and ``func.return`` have
hand-written parsers in ``syntax/parser.py``."""
from __future__ import annotations

from shardy_py.dialects.registry import AttrDef, declare

declare("func.call", operands=("operands*",),
        attributes=(AttrDef("callee"), AttrDef("arg_attrs", optional=True), AttrDef("res_attrs", optional=True),
                    AttrDef("no_inline", form="unit", optional=True)),
        results=("results*",),
        format="$callee `(` $operands `)` attr-dict `:` functional-type($operands, results)")
declare("func.call_indirect", operands=("callee", "callee_operands*"),
        attributes=(AttrDef("arg_attrs", optional=True), AttrDef("res_attrs", optional=True)),
        results=("results*",), format="$callee `(` $callee_operands `)` attr-dict `:` type($callee)")
declare("func.constant", attributes=(AttrDef("value"),), results=("result",),
        format="attr-dict $value `:` type(results)")
