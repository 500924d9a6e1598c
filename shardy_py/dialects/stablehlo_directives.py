"""StableHLO's custom assembly directives (``stablehlo/dialect/AssemblyFormat.cpp``), each a
parse/print pair registered with ``syntax.format.directive``."""
from __future__ import annotations

from shardy_py.ir.types import Type
from shardy_py.syntax.format import directive


def _function_type_of(types: list[Type], result: Type) -> str:
    from shardy_py.syntax.op_writer import functional_type

    return functional_type(types, [result])


@directive("SameOperandsAndResultType")
class SameOperandsAndResultType:
    """``: T`` when every operand and the result have type T, else ``: (A, B) -> R``."""

    @staticmethod
    def parse(cur, state, *types) -> None:
        cur.ws()
        if cur.peek("("):
            ins, outs = cur.function_type()
            for t, arg in zip(ins, types[:-1], strict=False):
                state.set_types(arg, [t])
            state.set_types(types[-1], outs)
            return
        t = cur.type()
        for arg in types:
            state.set_types(arg, [t])

    @staticmethod
    def print(out, op, *types) -> None:
        result = types[-1]
        operands = list(types[:-1])
        if all(t == result for t in operands):
            out.write(str(result))
        else:
            out.write(_function_type_of(operands, result))
