"""CHLO ops (``stablehlo/dialect/ChloOps.td``): element-wise ops with explicit broadcasting, special
functions, constants, top_k, ragged_dot and scan."""
from __future__ import annotations

from shardy_py.dialects.attr_codecs import I64, Bool
from shardy_py.dialects.registry import AttrDef, declare
from shardy_py.ir import attrs as A

_BROADCAST = "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"
_UNARY = "$operand attr-dict `:` type($operand) `->` type($result)"

BROADCAST_BINARY = ("add", "atan2", "divide", "maximum", "minimum", "multiply", "next_after", "polygamma", "power",
                    "remainder", "shift_left", "shift_right_arithmetic", "shift_right_logical", "subtract", "zeta",
                    "and", "or", "xor", "complex")
UNARY = ("_asin_acos_kernel", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bessel_i1e", "conj", "cosh",
         "sinh", "tan", "digamma", "erf", "erf_inv", "erfc", "is_inf", "is_neg_inf", "is_pos_inf", "lgamma", "square")

for _name in BROADCAST_BINARY:
    declare(f"chlo.broadcast_{_name}", operands=("lhs", "rhs"),
            attributes=(AttrDef("broadcast_dimensions", optional=True),), results=("result",), format=_BROADCAST)
declare("chlo.broadcast_compare", operands=("lhs", "rhs"),
        attributes=(AttrDef("broadcast_dimensions", optional=True), AttrDef("comparison_direction"),
                    AttrDef("compare_type", optional=True)),
        results=("result",), format=_BROADCAST)
for _name in UNARY:
    declare(f"chlo.{_name}", operands=("operand",), results=("result",), format=_UNARY)
for _name, (a, b) in {"next_after": ("x", "y"), "polygamma": ("n", "x"), "zeta": ("x", "q"),
                      "mulhi": ("lhs", "rhs")}.items():
    declare(f"chlo.{_name}", operands=(a, b), results=("result",),
            format=f"${a} `,` ${b} attr-dict `:` type(${a}) `,` type(${b}) `->` type(results)")
declare("chlo.constant", attributes=(AttrDef("value"),), results=("output",), format="attr-dict $value")
declare("chlo.constant_like", operands=("operand",), attributes=(AttrDef("value"),), results=("result",))
declare("chlo.broadcast_select", operands=("pred", "on_true", "on_false"), results=("result",),
        format="$pred `,` $on_true `,` $on_false attr-dict `:` `(` type($pred) `,` type($on_true) `,` "
               "type($on_false) `)` `->` type(results)")
declare("chlo.top_k", operands=("operand",),
        attributes=(AttrDef("k", codec=I64), AttrDef("is_stable", codec=Bool, default=A.OpaqueAttr("true"))),
        results=("values", "indices"),
        format="`(`$operand `,` `k` `=` $k (`,` `is_stable` `=` $is_stable^)? `)` attr-dict `:` type($operand) `->` "
               "`(`type($values)`,` type($indices)`)`")
declare("chlo.ragged_dot", operands=("lhs", "rhs", "group_sizes"),
        attributes=(AttrDef("ragged_dot_dimension_numbers"), AttrDef("precision_config", optional=True)),
        results=("result",))
declare("chlo.scan", operands=("inputs*", "inits*"),
        attributes=(AttrDef("dimension"), AttrDef("scan_dim_size", optional=True),
                    AttrDef("is_reverse", default=A.OpaqueAttr("false")), AttrDef("is_associative", optional=True)),
        results=("outputs*", "carries*"), regions=("body",),
        traits=("AttrSizedOperandSegments", "AttrSizedResultSegments", "IsolatedFromAbove"))
