"""StableHLO's shape ops under ``verify`` (``dialects.stablehlo_verify_shapes``): each rule on a module of one op,
with the error (line and message) that jaxlib 0.12 gives for it, and valid modules that both accept."""
from __future__ import annotations

from stablehlo_verify_oracle import rule_tests


def fn(args: str, op: str, result: str) -> str:
    """A function of ``args`` whose body is ``%0 = op`` returning ``result`` (the op is on line 2)."""
    return f"func.func @f({args}) -> {result} {{\n  %0 = {op}\n  func.return %0 : {result}\n}}\n"


#: name -> (module, (line, message)) with jaxlib 0.12's first error.
CASES = {
    "broadcast_in_dim_dims_size": (
        fn("%a: tensor<1x2xi32>", "stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<1x2xi32>) -> tensor<1x2x3xi32>",
           "tensor<1x2x3xi32>"),
        (2, "broadcast_dimensions size (1) does not match operand rank (2)")),
    "broadcast_in_dim_size": (
        fn("%a: tensor<3xi32>", "stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xi32>) -> tensor<1x2x3xi32>",
           "tensor<1x2x3xi32>"),
        (2, "size of operand dimension 0 (3) is not equal to 1 or size of result dimension 1 (2)")),
    "broadcast_inferred": (
        fn("%a: tensor<3xi32>", "stablehlo.broadcast %a, sizes = [2] : (tensor<3xi32>) -> tensor<2x4xi32>",
           "tensor<2x4xi32>"),
        (2, "'stablehlo.broadcast' op inferred type(s) 'tensor<2x3xi32>' are incompatible with return type(s) of "
            "operation 'tensor<2x4xi32>'")),
    "concatenate_shapes": (
        fn("%a: tensor<1x3xi32>, %b: tensor<2x2xi32>",
           "stablehlo.concatenate %a, %b, dim = 0 : (tensor<1x3xi32>, tensor<2x2xi32>) -> tensor<3x3xi32>",
           "tensor<3x3xi32>"),
        (2, "shapes of operand (0) and (1) are not compatible at non-concat index 1: (1, 3) != (2, 2)")),
    "concatenate_inferred": (
        fn("%a: tensor<1xi32>, %b: tensor<2xi32>",
           "stablehlo.concatenate %a, %b, dim = 0 : (tensor<1xi32>, tensor<2xi32>) -> tensor<4xi32>", "tensor<4xi32>"),
        (2, "'stablehlo.concatenate' op inferred type(s) 'tensor<3xi32>' are incompatible with return type(s) of "
            "operation 'tensor<4xi32>'")),
    "slice_limit": (
        fn("%a: tensor<3x4xi32>", "stablehlo.slice %a [0:2, 0:5] : (tensor<3x4xi32>) -> tensor<2x5xi32>",
           "tensor<2x5xi32>"),
        (2, "limit index 5 is larger than dimension size 4 in dimension 1")),
    "slice_start_after_limit": (
        fn("%a: tensor<3x4xi32>", "stablehlo.slice %a [0:2, 3:2] : (tensor<3x4xi32>) -> tensor<2x0xi32>",
           "tensor<2x0xi32>"),
        (2, "start index 3 is larger than limit index 2 in dimension 1")),
    "dynamic_slice_size": (
        fn("%a: tensor<3x4xi32>, %i: tensor<i64>",
           "stablehlo.dynamic_slice %a, %i, %i, sizes = [1, 10] : (tensor<3x4xi32>, tensor<i64>, tensor<i64>) -> "
           "tensor<1x10xi32>", "tensor<1x10xi32>"),
        (2, "has slice size 10 greater than dimension size 4 in dimension 1 of operand")),
    "dynamic_update_slice_rank": (
        fn("%a: tensor<3x4xi64>, %u: tensor<2xi64>, %i: tensor<i64>",
           "stablehlo.dynamic_update_slice %a, %u, %i, %i : (tensor<3x4xi64>, tensor<2xi64>, tensor<i64>, "
           "tensor<i64>) -> tensor<3x4xi64>", "tensor<3x4xi64>"),
        (2, "update rank does not match operand rank: 1 vs 2.")),
    "pad_interior": (
        fn("%a: tensor<2x3xf32>, %p: tensor<f32>",
           "stablehlo.pad %a, %p, low = [0, 0], high = [0, 0], interior = [0, -1] : (tensor<2x3xf32>, tensor<f32>) "
           "-> tensor<2x1xf32>", "tensor<2x1xf32>"),
        (2, "Interior padding cannot be negative: -1")),
    "reshape_elements": (
        fn("%a: tensor<2x4xf32>", "stablehlo.reshape %a : (tensor<2x4xf32>) -> tensor<3x3xf32>", "tensor<3x3xf32>"),
        (2, "number of output elements (9) doesn't match expected number of elements (8)")),
    "transpose_permutation": (
        fn("%a: tensor<1x2xi32>", "stablehlo.transpose %a, dims = [0, 2] : (tensor<1x2xi32>) -> tensor<1x2xi32>",
           "tensor<1x2xi32>"),
        (2, "attribute permutation must be a permutation of [0, 1] but got 0, 2")),
    "reverse_unique": (
        fn("%a: tensor<3x4xf32>", "stablehlo.reverse %a, dims = [0, 0] : tensor<3x4xf32>", "tensor<3x4xf32>"),
        (2, "dimensions should be unique. Got: 0, 0")),
    "iota_dimension": (
        fn("", "stablehlo.iota dim = 1 : tensor<4xf32>", "tensor<4xf32>"),
        (2, "iota dimension cannot go beyond the output rank.")),
    "get_dimension_size_dimension": (
        fn("%a: tensor<2x3xf32>", "stablehlo.get_dimension_size %a, dim = 2 : (tensor<2x3xf32>) -> tensor<i32>",
           "tensor<i32>"),
        (2, "requires dimension attribute in range [0, 2); found (2)")),
    "get_dimension_size_negative": (
        fn("%a: tensor<2x3xf32>",
           '"stablehlo.get_dimension_size"(%a) {dimension = -1 : i64} : (tensor<2x3xf32>) -> tensor<i32>',
           "tensor<i32>"),
        (2, "'stablehlo.get_dimension_size' op attribute 'dimension' failed to satisfy constraint: 64-bit signless "
            "integer attribute whose value is non-negative")),
}

VALID = {
    "broadcast_in_dim": fn("%a: tensor<1x3xf32>", "stablehlo.broadcast_in_dim %a, dims = [0, 2] : "
                           "(tensor<1x3xf32>) -> tensor<4x2x3xf32>", "tensor<4x2x3xf32>"),
    "concatenate_dynamic": fn("%a: tensor<?x3xf32>, %b: tensor<2x3xf32>", "stablehlo.concatenate %a, %b, dim = 0 : "
                              "(tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>", "tensor<?x3xf32>"),
    "slice_strided": fn("%a: tensor<8x4xf32>", "stablehlo.slice %a [1:8:3, 0:4] : (tensor<8x4xf32>) -> "
                        "tensor<3x4xf32>", "tensor<3x4xf32>"),
    "pad_negative_edges": fn("%a: tensor<5xf32>, %p: tensor<f32>", "stablehlo.pad %a, %p, low = [-1], high = [2], "
                             "interior = [1] : (tensor<5xf32>, tensor<f32>) -> tensor<10xf32>", "tensor<10xf32>"),
    "transpose_dynamic": fn("%a: tensor<?x2xf32>", "stablehlo.transpose %a, dims = [1, 0] : (tensor<?x2xf32>) -> "
                            "tensor<2x?xf32>", "tensor<2x?xf32>"),
}


test_rule, test_valid_module_is_clean, test_jaxlib_gives_the_same_errors = rule_tests(CASES, VALID)
