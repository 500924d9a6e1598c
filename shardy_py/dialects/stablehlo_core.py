"""StableHLO ops without regions (``StablehloOps.td``): operands, properties and assembly formats.

Ops whose C++ declares no assembly format (gather, triangular_solve, batch_norm_*, send, ...) are
declared with their parts only: MLIR prints them in generic form in the pretty print too.
"""
from __future__ import annotations

from shardy_py.dialects import stablehlo_core_directives  # noqa: F401  (registers the directives)
from shardy_py.dialects.attr_codecs import I32, I64, Bool, Enum, I64Array
from shardy_py.dialects.registry import AttrDef, declare
from shardy_py.ir import attrs as A
from shardy_py.ir.ops import Operation
from shardy_py.ir.types import RankedTensorType
from shardy_py.syntax.names import RESULT_NAMERS

_FN = "attr-dict `:` functional-type(operands, results)"

COMPARISON_DIRECTION = Enum("stablehlo", "comparison_direction", ("EQ", "NE", "GE", "GT", "LE", "LT"))
COMPARISON_TYPE = Enum("stablehlo", "comparison_type", ("NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"))
FFT_TYPE = Enum("stablehlo", "fft_type", ("FFT", "IFFT", "RFFT", "IRFFT"))
RNG_DISTRIBUTION = Enum("stablehlo", "rng_distribution", ("UNIFORM", "NORMAL"))
RNG_ALGORITHM = Enum("stablehlo", "rng_algorithm", ("DEFAULT", "THREE_FRY", "PHILOX"))


def _a(name: str, codec=None, optional: bool = False, default=None, form: str = "attr") -> AttrDef:
    return AttrDef(name, form=form, optional=optional, default=default, codec=codec)


# -- constants, iotas, tokens, ids --------------------------------------------------------------

def _parse_constant(cur, state) -> None:
    """``parseConstantOp``: ``{attrs} dense<...> : type`` (the value's type is the result type), or the
    generic body ``() <{value = ...}> {attrs} : () -> type`` when the two types differ."""
    state.all_operands = []
    if cur.accept("("):
        cur.expect(")")
        if cur.peek("<{"):
            cur.pos += 1
            start, end = cur.balanced()
            state.properties.update(cur.p.attr_dict(start, end)[0])
            cur.expect(">")
        d = cur.attr_dict()
        if d is not None:
            state.attributes, state.attribute_locs = d
        cur.expect(":")
        _, outs = cur.function_type()
        state.all_result_types = outs
        return
    d = cur.attr_dict()
    if d is not None:
        state.attributes, state.attribute_locs = d
    start, end = cur.attribute_span()
    value = cur.p.attr_value(start, end)
    text = str(value)
    state.properties["value"] = value
    type_text = text.rsplit(" : ", 1)[1] if " : " in text else None
    if type_text is None:
        raise cur.error("expected the constant's value with its type, like dense<1> : tensor<i32>")
    from shardy_py.ir.types import parse_type

    state.all_result_types = [parse_type(type_text)]
    state.all_operands = []


def _print_constant(out, op: Operation) -> None:
    value = op.properties["value"]
    text = str(value)
    result_type = str(op.results[0].type) if op.results else ""
    if text.rsplit(" : ", 1)[-1] != result_type:
        # printConstantOp: the generic body when the value's type is not the result type
        from shardy_py.syntax.op_writer import attr_entries

        out.write("() <{" + attr_entries(op.properties) + "}>")
        discardable = attr_entries(op.attributes)
        out.write((" {" + discardable + "}" if discardable else "") + f" : () -> {result_type}")
        return
    out.attr_dict(op, {"value"})
    out.write(" " + text)


declare("stablehlo.constant", attributes=(_a("value"),), results=("output",), parse=_parse_constant,
        print=_print_constant)
declare("stablehlo.iota", attributes=(_a("iota_dimension", I64),), results=("output",),
        format="`dim` `=` $iota_dimension attr-dict `:` type($output)")
declare("stablehlo.dynamic_iota", operands=("output_shape",), attributes=(_a("iota_dimension", I64),),
        results=("result",), format="$output_shape `,` `dim` `=` $iota_dimension " + _FN)
declare("stablehlo.create_token", results=("output",), format="attr-dict `:` type(results)")
declare("stablehlo.replica_id", results=("result",), format="attr-dict `:` type(results)")
declare("stablehlo.partition_id", results=("result",), format="attr-dict `:` type(results)")
declare("stablehlo.after_all", operands=("inputs*",), results=("result",),
        format="$inputs attr-dict `:` custom<VariadicSameOperandsAndResultType>(ref($inputs), type($inputs), "
               "type($result))")

# -- element-wise extras ---------------------------------------------------------------------
declare("stablehlo.complex", operands=("lhs", "rhs"), results=("result",),
        format="operands attr-dict `:` custom<ComplexOpType>(type($lhs), type($rhs), type($result))")
declare("stablehlo.is_finite", operands=("x",), results=("y",), format="operands " + _FN)
declare("stablehlo.clamp", operands=("min", "operand", "max"), results=("result",),
        format="$min `,` $operand `,` $max attr-dict `:` custom<SameOperandsAndResultType>(type($min), "
               "type($operand), type($max), type($result))")
declare("stablehlo.select", operands=("pred", "on_true", "on_false"), results=("result",),
        format="operands attr-dict `:` custom<SelectOpType>(type($pred), type($on_true), type($on_false), "
               "type($result))")
declare("stablehlo.compare", operands=("lhs", "rhs"),
        attributes=(_a("comparison_direction", COMPARISON_DIRECTION),
                    _a("compare_type", COMPARISON_TYPE, optional=True)),
        results=("result",),
        format="$comparison_direction `,` $lhs `,` $rhs (`,` $compare_type^)? " + _FN)
declare("stablehlo.reduce_precision", operands=("operand",),
        attributes=(_a("exponent_bits"), _a("mantissa_bits")), results=("output",),
        format="$operand `,` `format` `=` custom<ExponentMantissa>($exponent_bits, $mantissa_bits) attr-dict `:` "
               "custom<SameOperandsAndResultType>(type($operand), type($output))")
declare("stablehlo.bitcast_convert", operands=("operand",), results=("result",), format="operands " + _FN)
declare("stablehlo.cholesky", operands=("a",), attributes=(_a("lower", Bool, default=A.OpaqueAttr("false")),),
        results=("result",),
        format="$a (`,` `lower` `=` $lower^)? attr-dict `:` custom<SameOperandsAndResultType>(type($a), "
               "type($result))")

# -- tuples ---------------------------------------------------------------------------------------
declare("stablehlo.get_tuple_element", operands=("operand",), attributes=(_a("index", I32),), results=("result",),
        format="$operand `[` $index `]` " + _FN)
declare("stablehlo.tuple", operands=("val*",), results=("result",),
        format="$val attr-dict `:` custom<TupleOpType>(type($val), type($result))")

# -- shapes -------------------------------------------------------------------------------------
declare("stablehlo.slice", operands=("operand",),
        attributes=(_a("start_indices"), _a("limit_indices"), _a("strides")), results=("result",),
        format="$operand custom<SliceRanges>($start_indices, $limit_indices, $strides) " + _FN)
declare("stablehlo.dynamic_slice", operands=("operand", "start_indices*"), attributes=(_a("slice_sizes", I64Array),),
        results=("result",),
        format="$operand `,` custom<VariadicOperandWithAttribute>($start_indices) `sizes` `=` $slice_sizes " + _FN)
declare("stablehlo.dynamic_update_slice", operands=("operand", "update", "start_indices*"), results=("result",),
        format="operands " + _FN)
declare("stablehlo.broadcast", operands=("operand",), attributes=(_a("broadcast_sizes", I64Array),),
        results=("result",), format="$operand `,` `sizes` `=` $broadcast_sizes " + _FN)
declare("stablehlo.broadcast_in_dim", operands=("operand",), attributes=(_a("broadcast_dimensions", I64Array),),
        results=("result",), format="$operand `,` `dims` `=` $broadcast_dimensions " + _FN)
declare("stablehlo.dynamic_broadcast_in_dim", operands=("operand", "output_dimensions"),
        attributes=(_a("broadcast_dimensions", I64Array), _a("known_expanding_dimensions", I64Array, optional=True),
                    _a("known_nonexpanding_dimensions", I64Array, optional=True)),
        results=("result",),
        format="$operand `,` $output_dimensions `,` `dims` `=` $broadcast_dimensions " + _FN)
declare("stablehlo.concatenate", operands=("inputs*",), attributes=(_a("dimension", I64),), results=("result",),
        format="custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension " + _FN)
declare("stablehlo.reshape", operands=("operand",), results=("result",), format="operands " + _FN)
declare("stablehlo.dynamic_reshape", operands=("operand", "output_shape"), results=("result",),
        format="operands " + _FN)
declare("stablehlo.transpose", operands=("operand",), attributes=(_a("permutation", I64Array),), results=("result",),
        format="$operand `,` `dims` `=` $permutation " + _FN)
declare("stablehlo.reverse", operands=("operand",), attributes=(_a("dimensions", I64Array),), results=("result",),
        format="$operand `,` `dims` `=` $dimensions attr-dict `:` custom<SameOperandsAndResultType>(type($operand), "
               "type($result))")
declare("stablehlo.pad", operands=("operand", "padding_value"),
        attributes=(_a("edge_padding_low", I64Array), _a("edge_padding_high", I64Array),
                    _a("interior_padding", I64Array)),
        results=("result",),
        format="$operand `,` $padding_value `,` `low` `=` $edge_padding_low `,` `high` `=` $edge_padding_high `,` "
               "`interior` `=` $interior_padding " + _FN)
declare("stablehlo.dynamic_pad", operands=("operand", "padding_value", "edge_padding_low", "edge_padding_high",
                                           "interior_padding"), results=("result",), format="operands " + _FN)
declare("stablehlo.real_dynamic_slice", operands=("operand", "start_indices", "limit_indices", "strides"),
        results=("result",), format="operands " + _FN)
declare("stablehlo.get_dimension_size", operands=("operand",), attributes=(_a("dimension", I64),), results=("result",),
        format="$operand `,` `dim` `=` $dimension " + _FN)
declare("stablehlo.set_dimension_size", operands=("operand", "size"), attributes=(_a("dimension", I64),),
        results=("result",), format="$operand `,` $size `,` `dim` `=` $dimension " + _FN)
declare("stablehlo.torch_index_select", operands=("operand", "index"), attributes=(_a("dim"), _a("batch_dims")),
        results=("result",))

# -- linear algebra ------------------------------------------------------------------------------
declare("stablehlo.dot", operands=("lhs", "rhs"), attributes=(_a("precision_config", optional=True),),
        results=("result",),
        format="$lhs `,` $rhs `` custom<PrecisionConfig>($precision_config) " + _FN)
declare("stablehlo.dot_general", operands=("lhs", "rhs"),
        attributes=(_a("dot_dimension_numbers"), _a("precision_config", optional=True),
                    _a("algorithm", optional=True)),
        results=("result",),
        format="$lhs `,` $rhs `,` custom<DotDimensionNumbers>($dot_dimension_numbers) `` "
               "custom<PrecisionConfigAndAlgorithm>($precision_config, $algorithm) " + _FN)
declare("stablehlo.einsum", operands=("lhs", "rhs"), attributes=(_a("einsum_config"),), results=("result",),
        format="$lhs `,` $rhs `,` `config` `=` $einsum_config " + _FN)
declare("stablehlo.unary_einsum", operands=("operand",), attributes=(_a("einsum_config"),), results=("result",),
        format="$operand `,` `config` `=` $einsum_config " + _FN)
declare("stablehlo.fft", operands=("operand",), attributes=(_a("fft_type", FFT_TYPE), _a("fft_length", I64Array)),
        results=("result",), format="$operand `,` `type` `=` $fft_type `,` `length` `=` $fft_length " + _FN)
declare("stablehlo.triangular_solve", operands=("a", "b"),
        attributes=(_a("left_side"), _a("lower"), _a("unit_diagonal"), _a("transpose_a")), results=("result",))
declare("stablehlo.batch_norm_grad", operands=("operand", "scale", "mean", "variance", "grad_output"),
        attributes=(_a("epsilon"), _a("feature_index")), results=("grad_operand", "grad_scale", "grad_offset"))
declare("stablehlo.batch_norm_inference", operands=("operand", "scale", "offset", "mean", "variance"),
        attributes=(_a("epsilon"), _a("feature_index")), results=("result",))
declare("stablehlo.batch_norm_training", operands=("operand", "scale", "offset"),
        attributes=(_a("epsilon"), _a("feature_index")), results=("output", "batch_mean", "batch_var"))

# -- random numbers ---------------------------------------------------------------------------
declare("stablehlo.rng", operands=("a", "b", "shape"), attributes=(_a("rng_distribution", RNG_DISTRIBUTION),),
        results=("result",),
        format="$a `,` $b `,` $shape `,` `distribution` `=` $rng_distribution " + _FN)
declare("stablehlo.rng_bit_generator", operands=("initial_state",),
        attributes=(_a("rng_algorithm", RNG_ALGORITHM),), results=("output_state", "output"),
        format="$initial_state `,` `algorithm` `=` $rng_algorithm " + _FN)
RESULT_NAMERS["stablehlo.rng_bit_generator"] = lambda op: [(0, "output_state"), (1, "output")]

# -- calls to the outside world -----------------------------------------------------------------
declare("stablehlo.custom_call", operands=("inputs*",),
        attributes=(_a("call_target_name"), _a("has_side_effect", default=A.OpaqueAttr("false")),
                    _a("backend_config", optional=True),
                    _a("api_version", default=A.OpaqueAttr("1 : i32")),
                    _a("called_computations", default=A.OpaqueAttr("[]")),
                    _a("operand_layouts", optional=True), _a("result_layouts", optional=True),
                    _a("output_operand_aliases", default=A.OpaqueAttr("[]"))),
        results=("results*",),
        format="custom<CustomCallTarget>($call_target_name) `(` $inputs `)` " + _FN)
declare("stablehlo.optimization_barrier", operands=("operand*",), results=("result*",),
        format="attr-dict ($operand^ `:` custom<PairwiseOpType>(type($operand), type($result))):(`(` `)`)?")
declare("stablehlo.composite", operands=("inputs*",),
        attributes=(_a("name"), _a("composite_attributes", default=A.OpaqueAttr("{}")), _a("decomposition"),
                    _a("version", default=A.OpaqueAttr("0 : i32"))),
        results=("results*",), regions=("composite_regions*",),
        format="$name operands (` ` `(` $composite_regions^ `)`)? " + _FN)
declare("stablehlo.uniform_quantize", operands=("operand",), results=("result",), format="operands " + _FN)
declare("stablehlo.uniform_dequantize", operands=("operand",), results=("result",), format="operands " + _FN)
for _name, _ops, _results, _attrs in (
        ("infeed", ("token",), ("results*",), (AttrDef("infeed_config", default=A.OpaqueAttr('""'), materialize=True),
                                               _a("layout", optional=True))),
        ("outfeed", ("inputs*", "token"), ("result",),
         (AttrDef("outfeed_config", default=A.OpaqueAttr('""'), materialize=True),)),
        ("send", ("inputs*", "token"), ("result",), (_a("channel_handle"),
                                                   _a("is_host_transfer", default=A.OpaqueAttr("false")),
                                                   _a("source_target_pairs", optional=True))),
        ("recv", ("token",), ("results*",), (_a("channel_handle"),
                                             _a("is_host_transfer", default=A.OpaqueAttr("false")),
                                             _a("source_target_pairs", optional=True))),
):
    declare(f"stablehlo.{_name}", operands=_ops, results=_results, attributes=_attrs)


def element_type(t) -> str:
    return t.element_type if isinstance(t, RankedTensorType) else ""
