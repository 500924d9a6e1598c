"""StableHLO ops (``stablehlo/dialect/StablehloOps.td`` at the commit in
``conformance/stablehlo/STABLEHLO_COMMIT``): each declared once, with its assembly format.

Element-wise ops share one declaration shape; ops with hand-written C++ syntax use the custom
directives of ``dialects.stablehlo_directives``.
"""
from __future__ import annotations

from shardy_py.dialects import stablehlo_directives  # noqa: F401  (registers the custom directives)
from shardy_py.dialects.registry import AttrDef, declare
from shardy_py.dialects.stablehlo_verify_elementwise import verify_elementwise
from shardy_py.ir import attrs as A
from shardy_py.ir.ops import Operation, Region
from shardy_py.ir.types import RankedTensorType
from shardy_py.syntax.names import BLOCK_ARG_NAMERS, RESULT_NAMERS

_UNARY = "$operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))"
_BINARY = "$lhs `,` $rhs attr-dict `:` custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))"

UNARY_ELEMENTWISE = (
    "abs", "cbrt", "ceil", "convert", "count_leading_zeros", "cosine", "exponential", "exponential_minus_one",
    "floor", "imag", "is_finite", "log", "log_plus_one", "logistic", "not", "negate", "popcnt", "real",
    "round_nearest_afz", "round_nearest_even", "rsqrt", "sign", "sine", "sqrt", "tan", "tanh",
)
BINARY_ELEMENTWISE = (
    "add", "atan2", "divide", "maximum", "minimum", "multiply", "or", "and", "xor", "power", "remainder",
    "shift_left", "shift_right_arithmetic", "shift_right_logical", "subtract",
)

# The element-wise ops infer their result type from the operands (the same shape; convert and the
# complex/predicate ops change the element type, so their results are spelled when built).
_ELEMENT_TYPE_CHANGING = frozenset({"convert", "imag", "real", "is_finite", "abs"})

#: Ops with a ``result_accuracy`` (``DefaultValuedOptionalAttr``, DEFAULT mode when absent).
WITH_RESULT_ACCURACY = frozenset({"cbrt", "cosine", "exponential", "exponential_minus_one", "log", "log_plus_one",
                                  "logistic", "rsqrt", "sine", "sqrt", "tan", "tanh"})
DEFAULT_ACCURACY = A.OpaqueAttr("#stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<DEFAULT>>")

for _name in UNARY_ELEMENTWISE:
    declare(f"stablehlo.{_name}", operands=("operand",), results=("result",), format=_UNARY,
            attributes=(AttrDef("result_accuracy", optional=True, default=DEFAULT_ACCURACY),)
            if _name in WITH_RESULT_ACCURACY else (),
            traits=() if _name in _ELEMENT_TYPE_CHANGING else ("SameOperandsAndResultType",),
            verify=verify_elementwise)
for _name in BINARY_ELEMENTWISE:
    declare(f"stablehlo.{_name}", operands=("lhs", "rhs"), results=("result",), format=_BINARY,
            traits=("SameOperandsAndResultType",), verify=verify_elementwise)


def _constant_names(op: Operation) -> list[tuple[int, str]]:
    """``ConstantOp::getAsmResultNames``: ``%c`` for integer elements, ``%cst`` otherwise."""
    t = op.results[0].type if op.results else None
    element = t.element_type if isinstance(t, RankedTensorType) else ""
    integer = element.startswith(("i", "si", "ui")) and element[-1:].isdigit()
    return [(0, "c" if integer else "cst")]


def _while_args(op: Operation, region: Region) -> str:
    """``WhileOp::getAsmBlockArgumentNames``: both regions' arguments are ``%iterArg``."""
    return "iterArg"


RESULT_NAMERS["stablehlo.constant"] = _constant_names
BLOCK_ARG_NAMERS["stablehlo.while"] = _while_args
