"""StableHLO's linear-algebra, random-number, quantization and call ops (``StablehloOps.td``):
dot/dot_general with their hand-written precision, algorithm and dimension syntax, einsum, fft,
triangular_solve and batch_norm_* (generic form only), rng, rng_bit_generator, custom_call,
composite, optimization_barrier, uniform_quantize/dequantize."""
from __future__ import annotations

from shardy_py.dialects import stablehlo_verify_dot as dot
from shardy_py.dialects import stablehlo_verify_misc as misc
from shardy_py.dialects.attr_codecs import Enum, I64Array
from shardy_py.dialects.registry import declare
from shardy_py.dialects.stablehlo_ops import FN, attr
from shardy_py.dialects.stablehlo_verify_batch_norm import verify_batch_norm
from shardy_py.dialects.stablehlo_verify_calls import verify_composite, verify_custom_call
from shardy_py.ir import attrs as A

FFT_TYPE = Enum("stablehlo", "fft_type", ("FFT", "IFFT", "RFFT", "IRFFT"))
RNG_DISTRIBUTION = Enum("stablehlo", "rng_distribution", ("UNIFORM", "NORMAL"))
RNG_ALGORITHM = Enum("stablehlo", "rng_algorithm", ("DEFAULT", "THREE_FRY", "PHILOX"))

# -- linear algebra ------------------------------------------------------------------------------
declare("stablehlo.dot", operands=("lhs", "rhs"), attributes=(attr("precision_config", optional=True),),
        results=("result",),
        format="$lhs `,` $rhs `` custom<PrecisionConfig>($precision_config) " + FN, verify=dot.verify_dot)
declare("stablehlo.dot_general", operands=("lhs", "rhs"),
        attributes=(attr("dot_dimension_numbers"), attr("precision_config", optional=True),
                    attr("algorithm", optional=True)),
        results=("result",),
        format="$lhs `,` $rhs `,` custom<DotDimensionNumbers>($dot_dimension_numbers) `` "
               "custom<PrecisionConfigAndAlgorithm>($precision_config, $algorithm) " + FN,
        verify=dot.verify_dot_general)
declare("stablehlo.einsum", operands=("lhs", "rhs"), attributes=(attr("einsum_config"),), results=("result",),
        format="$lhs `,` $rhs `,` `config` `=` $einsum_config " + FN)
declare("stablehlo.unary_einsum", operands=("operand",), attributes=(attr("einsum_config"),), results=("result",),
        format="$operand `,` `config` `=` $einsum_config " + FN)
declare("stablehlo.fft", operands=("operand",),
        attributes=(attr("fft_type", FFT_TYPE), attr("fft_length", I64Array)),
        results=("result",), format="$operand `,` `type` `=` $fft_type `,` `length` `=` $fft_length " + FN,
        verify=misc.verify_fft)
declare("stablehlo.triangular_solve", operands=("a", "b"),
        attributes=(attr("left_side"), attr("lower"), attr("unit_diagonal"), attr("transpose_a")),
        results=("result",), verify=misc.verify_triangular_solve)
_BATCH_NORM = (attr("epsilon"), attr("feature_index"))
declare("stablehlo.batch_norm_grad", operands=("operand", "scale", "mean", "variance", "grad_output"),
        attributes=_BATCH_NORM, results=("grad_operand", "grad_scale", "grad_offset"),
        verify=verify_batch_norm)
declare("stablehlo.batch_norm_inference", operands=("operand", "scale", "offset", "mean", "variance"),
        attributes=_BATCH_NORM, results=("result",), verify=verify_batch_norm)
declare("stablehlo.batch_norm_training", operands=("operand", "scale", "offset"),
        attributes=_BATCH_NORM, results=("output", "batch_mean", "batch_var"),
        verify=verify_batch_norm)

# -- random numbers ---------------------------------------------------------------------------
declare("stablehlo.rng", operands=("a", "b", "shape"), attributes=(attr("rng_distribution", RNG_DISTRIBUTION),),
        results=("result",),
        format="$a `,` $b `,` $shape `,` `distribution` `=` $rng_distribution " + FN, verify=misc.verify_rng)
# two named results: the registry names them %output_state, %output (ODS getAsmResultNames)
declare("stablehlo.rng_bit_generator", operands=("initial_state",),
        attributes=(attr("rng_algorithm", RNG_ALGORITHM),), results=("output_state", "output"),
        format="$initial_state `,` `algorithm` `=` $rng_algorithm " + FN, verify=misc.verify_rng_bit_generator)

# -- quantization ---------------------------------------------------------------------------------
declare("stablehlo.uniform_quantize", operands=("operand",), results=("result",), format="operands " + FN)
declare("stablehlo.uniform_dequantize", operands=("operand",), results=("result",), format="operands " + FN)

# -- calls and barriers ---------------------------------------------------------------------------
declare("stablehlo.custom_call", operands=("inputs*",),
        attributes=(attr("call_target_name"), attr("has_side_effect", default=A.OpaqueAttr("false")),
                    attr("backend_config", optional=True),
                    attr("api_version", default=A.OpaqueAttr("1 : i32")),
                    attr("called_computations", default=A.OpaqueAttr("[]")),
                    attr("operand_layouts", optional=True), attr("result_layouts", optional=True),
                    attr("output_operand_aliases", default=A.OpaqueAttr("[]"))),
        results=("results*",),
        format="custom<CustomCallTarget>($call_target_name) `(` $inputs `)` " + FN, verify=verify_custom_call)
declare("stablehlo.composite", operands=("inputs*",),
        attributes=(attr("name"), attr("composite_attributes", default=A.OpaqueAttr("{}")), attr("decomposition"),
                    attr("version", default=A.OpaqueAttr("0 : i32"))),
        results=("results*",), regions=("composite_regions*",),
        format="$name operands (` ` `(` $composite_regions^ `)`)? " + FN)
#: ``CompositeOp::verifySymbolUses``: checked with the symbol uses, after every op (``verify.driver``).
SYMBOL_USE_VERIFIERS = {"stablehlo.composite": verify_composite}
declare("stablehlo.optimization_barrier", operands=("operand*",), results=("result*",),
        format="attr-dict ($operand^ `:` custom<PairwiseOpType>(type($operand), type($result))):(`(` `)`)?",
        infer_results=lambda op: [v.type for v in op.operands])
