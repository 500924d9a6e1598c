"""StableHLO's element-wise ops under ``verify`` (``dialects.stablehlo_verify_elementwise``): ODS element types,
the shape traits, result accuracy and the inferred types, each with the error (line and message) jaxlib 0.12 gives,
and valid modules that both accept."""
from __future__ import annotations

from stablehlo_verify_oracle import rule_tests
from test_stablehlo_verify_shapes import fn

CASES = {
    "add_shape": (
        fn("%a: tensor<1x?xf32>", '"stablehlo.add"(%a, %a) : (tensor<1x?xf32>, tensor<1x?xf32>) -> tensor<2x2xf32>',
           "tensor<2x2xf32>"),
        (2, "'stablehlo.add' op requires the same shape for all operands and results")),
    "add_element_type": (
        fn("%a: tensor<?xf64>, %b: tensor<?xf32>", "stablehlo.add %a, %b : (tensor<?xf64>, tensor<?xf32>) -> "
           "tensor<?xf64>", "tensor<?xf64>"),
        (2, "op requires the same element type for all operands and results")),
    "or_float": (
        fn("%a: tensor<4xf32>", '"stablehlo.or"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>',
           "tensor<4xf32>"),
        (2, "'stablehlo.or' op operand #0 must be ranked tensor of bool or 2/4/8/16/32/64-bit integer values, but got "
            "'tensor<4xf32>'")),
    "floor_integer": (
        fn("%a: tensor<4xi32>", '"stablehlo.floor"(%a) : (tensor<4xi32>) -> tensor<4xi32>', "tensor<4xi32>"),
        (2, "'stablehlo.floor' op operand #0 must be ranked tensor of 4/6/8/16/32/64-bit float or per-tensor integer "
            "quantized values, but got 'tensor<4xi32>'")),
    "abs_unsigned": (
        fn("%a: tensor<4xui32>", '"stablehlo.abs"(%a) : (tensor<4xui32>) -> tensor<4xui32>', "tensor<4xui32>"),
        (2, "'stablehlo.abs' op operand #0 must be ranked tensor of 2/4/8/16/32/64-bit signless integer or "
            "4/6/8/16/32/64-bit float or complex type with 32/64-bit float elements or per-tensor integer quantized "
            "values, but got 'tensor<4xui32>'")),
    "is_finite_shape": (
        fn("%a: tensor<3xf32>", '"stablehlo.is_finite"(%a) : (tensor<3xf32>) -> tensor<4xi1>', "tensor<4xi1>"),
        (2, "'stablehlo.is_finite' op all non-scalar operands/results must have the same shape and base type")),
    "abs_inferred": (
        fn("%a: tensor<2xcomplex<f32>>", '"stablehlo.abs"(%a) : (tensor<2xcomplex<f32>>) -> tensor<2xf64>',
           "tensor<2xf64>"),
        (2, "'stablehlo.abs' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation "
            "'tensor<2xf64>'")),
    "negate_compatible_types": (
        fn("%a: tensor<2xf32>", '"stablehlo.negate"(%a) : (tensor<2xf32>) -> tensor<2xf16>', "tensor<2xf16>"),
        (2, "'stablehlo.negate' op requires compatible types for all operands and results")),
    "cbrt_result_accuracy": (
        fn("%a: tensor<f32>", '"stablehlo.cbrt"(%a) {result_accuracy = #stablehlo.result_accuracy<atol = 1.0, '
           "rtol = 0.0, ulps = 4, mode = #stablehlo.result_accuracy_mode<HIGHEST>>} : (tensor<f32>) -> tensor<f32>",
           "tensor<f32>"),
        (2, "Invalid tolerances for ResultAccuracyAttr with mode HIGHEST, must be all zero.")),
    "clamp_min_shape": (
        fn("%a: tensor<1xi32>, %m: tensor<2xi32>", "stablehlo.clamp %m, %a, %a : (tensor<2xi32>, tensor<1xi32>, "
           "tensor<1xi32>) -> tensor<1xi32>", "tensor<1xi32>"),
        (2, "min shape [2] is not scalar and is not compatible to operand shape [1]")),
    "select_types": (
        fn("%p: tensor<2x3xi1>, %a: tensor<2x3xf32>, %b: tensor<2x3xi32>",
           '"stablehlo.select"(%p, %a, %b) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>',
           "tensor<2x3xf32>"),
        (2, "requires compatible types for non-predicate operands")),
    "bitcast_convert_widths": (
        fn("%a: tensor<2xf64>", "stablehlo.bitcast_convert %a : (tensor<2xf64>) -> tensor<2x4xf32>",
           "tensor<2x4xf32>"),
        (2, "requires compatible bit widths. Got: 'tensor<2xf64>' and 'tensor<2x4xf32>', but 32 * 4 != 64.")),
    "reduce_precision_exponent": (
        fn("%a: tensor<2xf32>", '"stablehlo.reduce_precision"(%a) {exponent_bits = 0 : i32, mantissa_bits = 2 : i32}'
           " : (tensor<2xf32>) -> tensor<2xf32>", "tensor<2xf32>"),
        (2, "'stablehlo.reduce_precision' op attribute 'exponent_bits' failed to satisfy constraint: 32-bit "
            "signless integer attribute whose value is positive")),
}

VALID = {
    "add_dynamic": fn("%a: tensor<?x2xf32>, %b: tensor<3x2xf32>", "stablehlo.add %a, %b : (tensor<?x2xf32>, "
                      "tensor<3x2xf32>) -> tensor<3x2xf32>", "tensor<3x2xf32>"),
    "compare": fn("%a: tensor<3xui8>", "stablehlo.compare LT, %a, %a, UNSIGNED : (tensor<3xui8>, tensor<3xui8>) -> "
                  "tensor<3xi1>", "tensor<3xi1>"),
    "clamp_scalar_bounds": fn("%a: tensor<4xf32>, %m: tensor<f32>", "stablehlo.clamp %m, %a, %m : (tensor<f32>, "
                              "tensor<4xf32>, tensor<f32>) -> tensor<4xf32>", "tensor<4xf32>"),
    "bitcast_convert_split": fn("%a: tensor<2xf64>", "stablehlo.bitcast_convert %a : (tensor<2xf64>) -> "
                                "tensor<2x2xf32>", "tensor<2x2xf32>"),
    "real": fn("%a: tensor<2xcomplex<f64>>", "stablehlo.real %a : (tensor<2xcomplex<f64>>) -> tensor<2xf64>",
               "tensor<2xf64>"),
}


test_rule, test_valid_module_is_clean, test_jaxlib_gives_the_same_errors = rule_tests(CASES, VALID)
