"""StableHLO's dot, dot_general, convolution, gather, scatter, fft and the linear-algebra and random-number ops
under ``verify`` (``dialects.stablehlo_verify_dot``, ``_conv``, ``_gather_scatter``, ``_misc``): each rule on a
module of one op, with the error (line and message) jaxlib 0.12 gives for it, and valid modules both accept."""
from __future__ import annotations

from stablehlo_verify_oracle import rule_tests
from test_stablehlo_verify_shapes import fn

_CONV = ("stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {{{window}}} "
         "{{batch_group_count = {batch} : i64, feature_group_count = {feature} : i64}} : "
         "(tensor<{lhs}xf32>, tensor<{rhs}xf32>) -> tensor<{out}xf32>")


def conv(lhs="1x8x8x4", rhs="3x3x4x16", out="1x6x6x16", window="stride = [1, 1]", batch=1, feature=1) -> str:
    op = _CONV.format(lhs=lhs, rhs=rhs, out=out, window=window, batch=batch, feature=feature)
    return fn(f"%a: tensor<{lhs}xf32>, %k: tensor<{rhs}xf32>", op, f"tensor<{out}xf32>")


def gather(dims: str, sizes: str, out: str) -> str:
    op = ('"stablehlo.gather"(%a, %i) {dimension_numbers = #stablehlo.gather<' + dims + '>, slice_sizes = '
          f"array<i64: {sizes}>}} : (tensor<2x4x9xi32>, tensor<1x5x2xi64>) -> tensor<{out}xi32>")
    return fn("%a: tensor<2x4x9xi32>, %i: tensor<1x5x2xi64>", op, f"tensor<{out}xi32>")


_GATHER = "offset_dims = [2], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2"

CASES = {
    "dot_ranks": (
        fn("%a: tensor<2x2x3xf32>, %b: tensor<3x2xf32>", '"stablehlo.dot"(%a, %b) : (tensor<2x2x3xf32>, '
           "tensor<3x2xf32>) -> tensor<2x2xf32>", "tensor<2x2xf32>"),
        (2, "expected both lhs/rhs ranks to be either 1 or 2")),
    "dot_general_contracting_sizes": (
        fn("%a: tensor<2x3xf32>, %b: tensor<4x5xf32>", "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
           "(tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>", "tensor<2x5xf32>"),
        (2, "contracting dimension sizes must match for lhs/rhs")),
    "dot_general_out_of_range": (
        fn("%a: tensor<2x3xf32>, %b: tensor<3x5xf32>", "stablehlo.dot_general %a, %b, contracting_dims = [2] x [0] : "
           "(tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>", "tensor<2x5xf32>"),
        (2, "lhs_contracting_dimensions value: 2 is out of range: [0, 2)")),
    "dot_general_result_shape": (
        fn("%a: tensor<2x3xf32>, %b: tensor<3x5xf32>", "stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
           "(tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x4xf32>", "tensor<2x4xf32>"),
        (2, "inferred shape '[2, 5]' is incompatible with return type of operation 'tensor<2x4xf32>'")),
    "convolution_feature_groups": (
        conv(feature=3, rhs="3x3x4x15", out="1x6x6x15"),
        (2, "expects input feature dimension (4) to be a multiple of feature_group_count. Got feature_group_count "
            "= 3.")),
    "convolution_stride": (
        conv(window="stride = [1, 0]"),
        (2, "expects window to have positive stride for 1-th window dimension, but got 0.")),
    "convolution_result_shape": (
        conv(out="1x8x8x16"),
        (2, "inferred shape '[1, 6, 6, 16]' is incompatible with return type of operation 'tensor<1x8x8x16xf32>'")),
    "gather_offset_dims": (
        gather("offset_dims = [2, 1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 2",
               "1, 1, 8", "1x5x1x8"),
        (2, "expects offset_dims to be sorted, got: [2, 1]")),
    "gather_slice_size": (
        gather(_GATHER, "1, 1, 10", "1x5x10"),
        (2, "slice size (10) is out of bounds for operand dimension (9) at index 2")),
    "gather_result": (
        gather(_GATHER, "1, 1, 8", "1x5x9"),
        (2, "'stablehlo.gather' op inferred type(s) 'tensor<1x5x8xi32>' are incompatible with return type(s) of "
            "operation 'tensor<1x5x9xi32>'")),
    "fft_rank": (
        fn("%a: tensor<3x9xcomplex<f32>>", "stablehlo.fft %a, type = FFT, length = [1, 2, 3, 4] : "
           "(tensor<3x9xcomplex<f32>>) -> tensor<3x9xcomplex<f32>>", "tensor<3x9xcomplex<f32>>"),
        (2, "rank must be between 1 and 3, but got 4.")),
    "cholesky_minor_dims": (
        fn("%a: tensor<1x2xf32>", '"stablehlo.cholesky"(%a) : (tensor<1x2xf32>) -> tensor<1x2xf32>',
           "tensor<1x2xf32>"),
        (2, "minor dimensions of 'a' must have equal size, got shape 1, 2.")),
    "triangular_solve_rank": (
        fn("%a: tensor<4xf32>, %b: tensor<4x3xf32>", '"stablehlo.triangular_solve"(%a, %b) {left_side = true, '
           "lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true} : (tensor<4xf32>, "
           "tensor<4x3xf32>) -> tensor<4x3xf32>", "tensor<4x3xf32>"),
        (2, "operand 'a' must have rank >= 2, but got 'tensor<4xf32>'")),
}

VALID = {
    "dot_matrix_vector": fn("%a: tensor<2x3xf32>, %b: tensor<3xf32>", "stablehlo.dot %a, %b : (tensor<2x3xf32>, "
                            "tensor<3xf32>) -> tensor<2xf32>", "tensor<2xf32>"),
    "dot_general_batching": fn("%a: tensor<4x2x3xf32>, %b: tensor<4x3x5xf32>", "stablehlo.dot_general %a, %b, "
                               "batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x2x3xf32>, "
                               "tensor<4x3x5xf32>) -> tensor<4x2x5xf32>", "tensor<4x2x5xf32>"),
    "convolution_padded_strided": conv(window="stride = [2, 2], pad = [[1, 1], [1, 1]]", out="1x4x4x16"),
    "convolution_batch_groups": conv(lhs="4x8x8x4", batch=2, out="2x6x6x16"),
    "gather": gather(_GATHER, "1, 1, 8", "1x5x8"),
    "fft_rfft": fn("%a: tensor<3x16xf32>", "stablehlo.fft %a, type = RFFT, length = [16] : (tensor<3x16xf32>) -> "
                   "tensor<3x9xcomplex<f32>>", "tensor<3x9xcomplex<f32>>"),
}


test_rule, test_valid_module_is_clean, test_jaxlib_gives_the_same_errors = rule_tests(CASES, VALID)
