"""The func dialect's ops (``mlir/Dialect/Func/IR/FuncOps.td``): ``func``, ``return``, ``call``,
``call_indirect`` and ``constant``.  ``func.func``'s syntax is hand-written in MLIR, and here
(``dialects.func_syntax``).

Inside a function body MLIR prints these ops without their ``func.`` prefix (the func dialect is
the default dialect there), which the printer does for every declared func op.
"""
from __future__ import annotations

from shardy_py.dialects.func_syntax import func_as_attrs, func_from_attrs, parse_func, print_func
from shardy_py.dialects.registry import AttrDef, declare
from shardy_py.ir.ops import Operation
from shardy_py.syntax.names import RESULT_NAMERS

_ARG_RES_ATTRS = (AttrDef("arg_attrs", optional=True), AttrDef("res_attrs", optional=True))


def _callee_results(op: Operation) -> list:
    """``call_indirect``'s result types: the results of its callee's function type (ODS
    ``TypesMatchWith<"callee result types match result types", ...>``)."""
    from shardy_py.syntax.fn_types import split_function_type

    return split_function_type(str(op.operands[0].type))[1]


declare("func.func", attributes=(AttrDef("sym_name"), AttrDef("function_type"),
                                 AttrDef("sym_visibility", optional=True), *_ARG_RES_ATTRS), regions=("body",),
        traits=("IsolatedFromAbove", "FunctionOpInterface"), parse=parse_func, print=print_func,
        as_attrs=func_as_attrs, from_attrs=func_from_attrs, default_dialect="func")
declare("func.return", operands=("operands*",), format="attr-dict ($operands^ `:` type($operands))?",
        expect={":": "':' and the operand types"})
declare("func.call", operands=("operands*",),
        attributes=(AttrDef("callee"), *_ARG_RES_ATTRS, AttrDef("no_inline", form="unit", optional=True)),
        results=("results*",),
        format="$callee `(` $operands `)` prop-dict attr-dict `:` functional-type($operands, results)")
declare("func.call_indirect", operands=("callee", "callee_operands*"), attributes=_ARG_RES_ATTRS,
        results=("results*",), format="$callee `(` $callee_operands `)` attr-dict `:` type($callee)",
        infer_results=_callee_results)
declare("func.constant", attributes=(AttrDef("value"),), results=("result",),
        format="attr-dict $value `:` type(results)")

# ``ConstantOp::getAsmResultNames``: a function constant is ``%f``.
RESULT_NAMERS["func.constant"] = lambda op: [(0, "f")]
