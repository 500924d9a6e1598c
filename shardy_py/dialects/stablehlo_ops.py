"""StableHLO ops without regions, outside the collectives (``StablehloOps.td``): operands,
properties and assembly formats, each op declared once.

Ops whose C++ declares no assembly format (triangular_solve, batch_norm_*, torch_index_select)
are declared with their parts only: MLIR prints them in generic form in the pretty print too.
The linear-algebra, random-number and call ops are in ``dialects.stablehlo_ops_calls``.
"""
from __future__ import annotations

from shardy_py.dialects import stablehlo_directives  # noqa: F401  (registers the custom directives)
from shardy_py.dialects import stablehlo_verify_elementwise as elementwise
from shardy_py.dialects import stablehlo_verify_io as IO
from shardy_py.dialects import stablehlo_verify_misc as misc
from shardy_py.dialects import stablehlo_verify_shapes as shapes
from shardy_py.dialects.attr_codecs import I32, I64, Bool, Enum, I64Array
from shardy_py.dialects.registry import AttrDef, declare
from shardy_py.ir import attrs as A
from shardy_py.ir.ops import Operation
from shardy_py.ir.types import RankedTensorType, Type, parse_type
from shardy_py.syntax.fn_types import split_top

#: The tail most region-less formats end with.
FN = "attr-dict `:` functional-type(operands, results)"
_TOKEN = "!stablehlo.token"

COMPARISON_DIRECTION = Enum("stablehlo", "comparison_direction", ("EQ", "NE", "GE", "GT", "LE", "LT"))
COMPARISON_TYPE = Enum("stablehlo", "comparison_type", ("NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"))


def attr(name: str, codec=None, optional: bool = False, default=None) -> AttrDef:
    """An inherent attribute written by ``codec`` (whole attribute text when None)."""
    return AttrDef(name, optional=optional, default=default, codec=codec)


def _operand_type(index: int):
    """``infer_results`` for an op whose one result has the type of operand ``index``."""
    return lambda op: [op.operands[index].type]


# -- constants, iotas, tokens, ids --------------------------------------------------------------

def split_typed_value(text: str) -> tuple[str, Type] | None:
    """``dense<1> : tensor<i32>`` as its value text and its type (None without a ``: type``)."""
    pieces = split_top(text, ":")
    if len(pieces) != 2 or not pieces[1]:
        return None
    return pieces[0], parse_type(pieces[1])


def _parse_constant(cur, state) -> None:
    """``parseConstantOp``: ``{attrs} dense<...> : type`` (the result has the value's type), or the
    generic body ``() <{value = ...}> {attrs} : () -> type`` that the printer writes when they differ."""
    state.all_operands = []
    if cur.accept("("):
        cur.expect(")", "')'")
        if cur.peek("<{"):
            cur.pos += 1
            start, end = cur.balanced()
            state.properties.update(cur.p.attr_dict(start, end)[0])
            cur.expect(">", "'>'")
        d = cur.attr_dict()
        if d is not None:
            state.attributes, state.attribute_locs = d
        cur.expect(":", "':'")
        at = cur.ws()
        ins, outs = cur.function_type()
        if ins or len(outs) != 1:
            raise cur.error("expected '() -> type'", at)
        state.all_result_types = outs
        return
    d = cur.attr_dict()
    if d is not None:
        state.attributes, state.attribute_locs = d
    start, end = cur.attribute_span()
    typed = split_typed_value(str(cur.p.attr_value(start, end)))
    if typed is None:
        raise cur.error("expected the constant's value with its type, like dense<1> : tensor<i32>", start)
    value, value_type = typed
    state.properties["value"] = A.OpaqueAttr(f"{value} : {value_type}")
    state.all_result_types = [value_type]


def _print_constant(out, op: Operation) -> None:
    """``printConstantOp``: the generic body when the value's type is not the result type."""
    value = op.properties.get("value")  # (absent in a generic form that lacks it: MLIR's verifier says so)
    typed = split_typed_value(str(value)) if value is not None else None
    result_type = op.results[0].type if op.results else None
    if typed is None or str(typed[1]) != str(result_type):
        from shardy_py.syntax.op_writer import attr_entries

        out.write("() <{" + attr_entries(op.properties) + "}>")
        discardable = attr_entries(op.attributes)
        out.write((" {" + discardable + "}" if discardable else "") + f" : () -> {result_type}")
        return
    out.attr_dict(op, {"value"})
    out.write(f" {value}")


def _constant_type(op: Operation) -> list[Type]:
    typed = split_typed_value(str(op.properties["value"]))
    if typed is None:
        raise ValueError(f"the constant's value has no type: {op.properties['value']}")
    return [typed[1]]


declare("stablehlo.constant", attributes=(attr("value"),), results=("output",), parse=_parse_constant,
        print=_print_constant, infer_results=_constant_type, verify=misc.verify_constant)
declare("stablehlo.iota", attributes=(attr("iota_dimension", I64),), results=("output",),
        format="`dim` `=` $iota_dimension attr-dict `:` type($output)", verify=shapes.verify_iota)
declare("stablehlo.dynamic_iota", operands=("output_shape",), attributes=(attr("iota_dimension", I64),),
        results=("result",), format="$output_shape `,` `dim` `=` $iota_dimension " + FN,
        verify=shapes.verify_dynamic_iota)
declare("stablehlo.create_token", results=("output",), format="attr-dict `:` type(results)",
        infer_results=lambda op: [parse_type(_TOKEN)], verify=IO.verify_token_result)
declare("stablehlo.replica_id", results=("result",), format="attr-dict `:` type(results)",
        infer_results=lambda op: [parse_type("tensor<ui32>")], verify=IO.verify_id_result)
declare("stablehlo.partition_id", results=("result",), format="attr-dict `:` type(results)",
        infer_results=lambda op: [parse_type("tensor<ui32>")], verify=IO.verify_id_result)
declare("stablehlo.after_all", operands=("inputs*",), results=("result",),
        format="$inputs attr-dict `:` custom<VariadicSameOperandsAndResultType>(ref($inputs), type($inputs), "
               "type($result))",
        infer_results=lambda op: [parse_type(_TOKEN)], verify=IO.verify_token_result)

# -- element-wise ops beyond the plain unary/binary ones ------------------------------------------


def _compare_type(op: Operation) -> list[Type]:
    """``i1`` elements in the operands' shape."""
    t = op.operands[0].type
    if isinstance(t, RankedTensorType):
        dims = "".join(("?" if d < 0 else str(d)) + "x" for d in t.shape)
        return [parse_type(f"tensor<{dims}i1>")]
    return [parse_type("tensor<*xi1>")]


declare("stablehlo.complex", operands=("lhs", "rhs"), results=("result",),
        format="operands attr-dict `:` custom<ComplexOpType>(type($lhs), type($rhs), type($result))",
        verify=elementwise.verify_complex)
declare("stablehlo.is_finite", operands=("x",), results=("y",), format="operands " + FN,
        verify=elementwise.verify_elementwise)
declare("stablehlo.clamp", operands=("min", "operand", "max"), results=("result",),
        format="$min `,` $operand `,` $max attr-dict `:` custom<SameOperandsAndResultType>(type($min), "
               "type($operand), type($max), type($result))",
        infer_results=_operand_type(1),
        verify=elementwise.verify_clamp)
declare("stablehlo.select", operands=("pred", "on_true", "on_false"), results=("result",),
        format="operands attr-dict `:` custom<SelectOpType>(type($pred), type($on_true), type($on_false), "
               "type($result))",
        infer_results=_operand_type(1),
        verify=elementwise.verify_select)
declare("stablehlo.compare", operands=("lhs", "rhs"),
        attributes=(attr("comparison_direction", COMPARISON_DIRECTION),
                    attr("compare_type", COMPARISON_TYPE, optional=True)),
        results=("result",),
        format="$comparison_direction `,` $lhs `,` $rhs (`,` $compare_type^)? " + FN,
        infer_results=_compare_type,
        verify=elementwise.verify_compare)
declare("stablehlo.reduce_precision", operands=("operand",),
        attributes=(attr("exponent_bits"), attr("mantissa_bits")), results=("output",),
        format="$operand `,` `format` `=` custom<ExponentMantissa>($exponent_bits, $mantissa_bits) attr-dict `:` "
               "custom<SameOperandsAndResultType>(type($operand), type($output))",
        infer_results=_operand_type(0),
        verify=elementwise.verify_reduce_precision)
declare("stablehlo.bitcast_convert", operands=("operand",), results=("result",), format="operands " + FN,
        verify=elementwise.verify_bitcast_convert)
declare("stablehlo.cholesky", operands=("a",), attributes=(attr("lower", Bool, default=A.OpaqueAttr("false")),),
        results=("result",),
        format="$a (`,` `lower` `=` $lower^)? attr-dict `:` custom<SameOperandsAndResultType>(type($a), "
               "type($result))",
        infer_results=_operand_type(0), verify=misc.verify_cholesky)

# -- tuples ---------------------------------------------------------------------------------------


def _tuple_element(op: Operation) -> list[Type]:
    """The ``index``-th element type of the operand's tuple type."""
    text = str(op.operands[0].type)
    index = int(str(op.properties["index"]).split(" : ")[0])
    return [parse_type(split_top(text[len("tuple<"):-1])[index])]


declare("stablehlo.get_tuple_element", operands=("operand",), attributes=(attr("index", I32),),
        results=("result",), format="$operand `[` $index `]` " + FN, infer_results=_tuple_element,
        verify=shapes.verify_get_tuple_element)
declare("stablehlo.tuple", operands=("val*",), results=("result",),
        format="$val attr-dict `:` custom<TupleOpType>(type($val), type($result))",
        infer_results=lambda op: [parse_type("tuple<" + ", ".join(str(v.type) for v in op.operands) + ">")])

# -- shapes -------------------------------------------------------------------------------------
declare("stablehlo.slice", operands=("operand",),
        attributes=(attr("start_indices"), attr("limit_indices"), attr("strides")), results=("result",),
        format="$operand custom<SliceRanges>($start_indices, $limit_indices, $strides) " + FN,
        verify=shapes.verify_slice)
declare("stablehlo.dynamic_slice", operands=("operand", "start_indices*"),
        attributes=(attr("slice_sizes", I64Array),), results=("result",),
        format="$operand `,` custom<VariadicOperandWithAttribute>($start_indices) `sizes` `=` $slice_sizes " + FN,
        verify=shapes.verify_dynamic_slice)
declare("stablehlo.dynamic_update_slice", operands=("operand", "update", "start_indices*"), results=("result",),
        format="operands " + FN, infer_results=_operand_type(0), verify=shapes.verify_dynamic_update_slice)
declare("stablehlo.broadcast", operands=("operand",), attributes=(attr("broadcast_sizes", I64Array),),
        results=("result",), format="$operand `,` `sizes` `=` $broadcast_sizes " + FN, verify=shapes.verify_broadcast)
declare("stablehlo.broadcast_in_dim", operands=("operand",), attributes=(attr("broadcast_dimensions", I64Array),),
        results=("result",), format="$operand `,` `dims` `=` $broadcast_dimensions " + FN,
        verify=shapes.verify_broadcast_in_dim)
declare("stablehlo.dynamic_broadcast_in_dim", operands=("operand", "output_dimensions"),
        attributes=(attr("broadcast_dimensions", I64Array),
                    attr("known_expanding_dimensions", I64Array, optional=True),
                    attr("known_nonexpanding_dimensions", I64Array, optional=True)),
        results=("result",),
        format="$operand `,` $output_dimensions `,` `dims` `=` $broadcast_dimensions " + FN,
        verify=shapes.verify_dynamic_broadcast_in_dim)
declare("stablehlo.concatenate", operands=("inputs*",), attributes=(attr("dimension", I64),), results=("result",),
        format="custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension " + FN,
        verify=shapes.verify_concatenate)
declare("stablehlo.reshape", operands=("operand",), results=("result",), format="operands " + FN,
        verify=shapes.verify_reshape)
declare("stablehlo.dynamic_reshape", operands=("operand", "output_shape"), results=("result",), format="operands " + FN,
        verify=shapes.verify_dynamic_reshape)
declare("stablehlo.transpose", operands=("operand",), attributes=(attr("permutation", I64Array),),
        results=("result",), format="$operand `,` `dims` `=` $permutation " + FN, verify=shapes.verify_transpose)
declare("stablehlo.reverse", operands=("operand",), attributes=(attr("dimensions", I64Array),), results=("result",),
        format="$operand `,` `dims` `=` $dimensions attr-dict `:` custom<SameOperandsAndResultType>(type($operand), "
               "type($result))",
        infer_results=_operand_type(0), verify=shapes.verify_reverse)
declare("stablehlo.pad", operands=("operand", "padding_value"),
        attributes=(attr("edge_padding_low", I64Array), attr("edge_padding_high", I64Array),
                    attr("interior_padding", I64Array)),
        results=("result",),
        format="$operand `,` $padding_value `,` `low` `=` $edge_padding_low `,` `high` `=` $edge_padding_high `,` "
               "`interior` `=` $interior_padding " + FN, verify=shapes.verify_pad)
declare("stablehlo.dynamic_pad", operands=("operand", "padding_value", "edge_padding_low", "edge_padding_high",
                                           "interior_padding"), results=("result",), format="operands " + FN,
        verify=shapes.verify_dynamic_pad)
declare("stablehlo.real_dynamic_slice", operands=("operand", "start_indices", "limit_indices", "strides"),
        results=("result",), format="operands " + FN, verify=shapes.verify_real_dynamic_slice)
declare("stablehlo.get_dimension_size", operands=("operand",), attributes=(attr("dimension", I64),),
        results=("result",), format="$operand `,` `dim` `=` $dimension " + FN,
        infer_results=lambda op: [parse_type("tensor<i32>")], verify=shapes.verify_get_dimension_size)
declare("stablehlo.set_dimension_size", operands=("operand", "size"), attributes=(attr("dimension", I64),),
        results=("result",), format="$operand `,` $size `,` `dim` `=` $dimension " + FN,
        verify=shapes.verify_set_dimension_size)
declare("stablehlo.torch_index_select", operands=("operand", "index"), attributes=(attr("dim"), attr("batch_dims")),
        results=("result",))
