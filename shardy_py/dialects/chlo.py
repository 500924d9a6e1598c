"""CHLO ops (``stablehlo/dialect/ChloOps.td``): element-wise ops with explicit broadcasting, special
functions, constants, top_k, ragged_dot and scan."""
from __future__ import annotations

from shardy_py.dialects import chlo_verify as V
from shardy_py.dialects.attr_codecs import I64, Bool
from shardy_py.dialects.registry import AttrDef, declare
from shardy_py.ir import attrs as A
from shardy_py.syntax.names import BLOCK_ARG_NAMERS

_BROADCAST = "$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type(results)"
_UNARY = "$operand attr-dict `:` type($operand) `->` type($result)"

BROADCAST_BINARY = ("add", "atan2", "divide", "maximum", "minimum", "multiply", "next_after", "polygamma", "power",
                    "remainder", "shift_left", "shift_right_arithmetic", "shift_right_logical", "subtract", "zeta",
                    "and", "or", "xor", "complex")
UNARY = ("_asin_acos_kernel", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bessel_i1e", "conj", "cosh",
         "sinh", "tan", "digamma", "erf", "erf_inv", "erfc", "is_inf", "is_neg_inf", "is_pos_inf", "lgamma", "square")



def _value_type(op):
    """``ConstantOp::inferReturnTypes``: the type of the elements attribute ``value``."""
    from shardy_py.ir.types import parse_type

    return parse_type(str(op.properties["value"]).rsplit(" : ", 1)[1])


for _name in BROADCAST_BINARY:
    declare(f"chlo.broadcast_{_name}", operands=("lhs", "rhs"),
            attributes=(AttrDef("broadcast_dimensions", optional=True),), results=("result",), format=_BROADCAST,
            verify=V.verify_broadcast_binary)
declare("chlo.broadcast_compare", operands=("lhs", "rhs"),
        attributes=(AttrDef("broadcast_dimensions", optional=True), AttrDef("comparison_direction"),
                    AttrDef("compare_type", optional=True)),
        results=("result",), format=_BROADCAST, verify=V.verify_broadcast_binary)
for _name in UNARY:
    declare(f"chlo.{_name}", operands=("operand",), results=("result",), format=_UNARY,
            verify=None if _name.startswith("is_") else V.verify_compatible_types)
for _name, (a, b) in {"next_after": ("x", "y"), "polygamma": ("n", "x"), "zeta": ("x", "q"),
                      "mulhi": ("lhs", "rhs")}.items():
    declare(f"chlo.{_name}", operands=(a, b), results=("result",),
            format=f"${a} `,` ${b} attr-dict `:` type(${a}) `,` type(${b}) `->` type(results)",
            verify=V.verify_mulhi if _name == "mulhi" else V.verify_compatible_types)
declare("chlo.constant", attributes=(AttrDef("value"),), results=("output",), format="attr-dict $value",
        infer_results=lambda op: [_value_type(op)])
declare("chlo.constant_like", operands=("operand",), attributes=(AttrDef("value"),), results=("result",),
        verify=V.verify_constant_like)
declare("chlo.broadcast_select", operands=("pred", "on_true", "on_false"), results=("result",),
        format="$pred `,` $on_true `,` $on_false attr-dict `:` `(` type($pred) `,` type($on_true) `,` "
               "type($on_false) `)` `->` type(results)")
declare("chlo.top_k", operands=("operand",),
        attributes=(AttrDef("k", codec=I64), AttrDef("is_stable", codec=Bool, default=A.OpaqueAttr("true"))),
        results=("values", "indices"),
        format="`(`$operand `,` `k` `=` $k (`,` `is_stable` `=` $is_stable^)? `)` attr-dict `:` type($operand) `->` "
               "`(`type($values)`,` type($indices)`)`",
        verify=V.verify_top_k)
declare("chlo.ragged_dot", operands=("lhs", "rhs", "group_sizes"),
        attributes=(AttrDef("ragged_dot_dimension_numbers"), AttrDef("precision_config", optional=True)),
        results=("result",), verify=V.verify_ragged_dot)


def _parse_scan(cur, state) -> None:
    """``(%inputs) inits (%inits) dimension=N [attributes {...}] {region} : (A...) -> (R...)``."""
    cur.expect("(", "'(' and the inputs")
    inputs = cur.value_uses()
    cur.expect(")")
    if not cur.keyword("inits"):
        raise cur.error(f"expected 'inits', found {cur.found()}")
    cur.expect("(", "'(' and the initial carries")
    inits = cur.value_uses()
    cur.expect(")")
    if not cur.keyword("dimension"):
        raise cur.error(f"expected 'dimension', found {cur.found()}")
    cur.expect("=")
    dim = I64.parse(cur)
    if cur.keyword("attributes"):
        d = cur.attr_dict()
        if d is None:
            raise cur.error("expected '{' after 'attributes'")
        state.attributes, state.attribute_locs = d
    state.all_regions = [cur.region()]
    state.regions_first = True  # (MLIR reads the body's ops here: their errors come before any after it)
    cur.expect(":", "':' and the function type")
    ins, outs = cur.function_type()
    if len(ins) != len(inputs) + len(inits):
        raise cur.error("operand types must match the number of inputs and inits")
    if len(outs) < len(inits):
        raise cur.error("not enough result types to cover the required carries")
    state.all_operands = inputs + inits
    state.all_operand_types = ins
    state.all_result_types = outs
    state.properties["dimension"] = dim
    state.properties["operandSegmentSizes"] = A.OpaqueAttr(f"array<i32: {len(inputs)}, {len(inits)}>")
    state.properties["resultSegmentSizes"] = A.OpaqueAttr(f"array<i32: {len(outs) - len(inits)}, {len(inits)}>")


def _print_scan(out, op) -> None:
    from shardy_py.dialects.attr_codecs import ints_of

    n_inputs, _ = ints_of(op.properties["operandSegmentSizes"])
    k = len(op.operands)
    out.write("(" + ", ".join(out.operand(op, i) for i in range(n_inputs)) + ") inits ("
              + ", ".join(out.operand(op, i) for i in range(n_inputs, k)) + ") dimension="
              + I64.print(op.properties["dimension"]) + " ")
    out.attr_dict(op, {"dimension", "operandSegmentSizes", "resultSegmentSizes"}, with_keyword=True)
    out.write(" ")
    out.region(op.regions[0], entry_args=True)
    ins = [v.type if v is not None and v.type is not None else t  # (a value of no known type: as written)
           for v, t in zip(op.operands, op.operand_types_view, strict=False)]
    out.write(" : " + out.functional_type(ins, [r.type for r in op.results]))


declare("chlo.scan", operands=("inputs*", "inits*"),
        attributes=(AttrDef("dimension"), AttrDef("scan_dim_size", optional=True),
                    AttrDef("is_reverse", optional=True, default=A.OpaqueAttr("false")),
                    AttrDef("is_associative", optional=True)),
        results=("outputs*", "carries*"), regions=("body",), parse=_parse_scan, print=_print_scan,
        traits=("AttrSizedOperandSegments", "AttrSizedResultSegments", "IsolatedFromAbove"), verify=V.verify_scan,
        verify_regions=V.verify_scan_results)


def _scan_arg_names(op, region) -> list[str]:
    """``ScanOp::getAsmBlockArgumentNames``: ``%input`` for the inputs, ``%carry`` for the carries."""
    from shardy_py.dialects.attr_codecs import ints_of

    n_inputs = ints_of(op.properties["operandSegmentSizes"])[0] if "operandSegmentSizes" in op.properties else 0
    args = region.blocks[0].arguments if region.blocks else []
    return ["input" if i < n_inputs else "carry" for i in range(len(args))]


BLOCK_ARG_NAMERS["chlo.scan"] = _scan_arg_names
