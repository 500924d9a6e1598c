# ruff: noqa: E501  (expected MLIR text is written on one line, however long; it must be exact)
"""Sharding rules, part 2 (``shardy_py.rules``: convolution, dot_general, dot, dynamic_slice,
dynamic_update_slice, fft, gather, pad, reduce, reduce_scatter, reduce_window, reshape, reverse,
rng_bit_generator, scatter, select, slice, sort, transpose, triangular_solve).

Each case is a function holding the op under test; the expected texts are the rules jaxlib 0.12's
C++ Shardy attaches to it under ``-sdy-populate-op-sharding-rules``, normally and with
``conservative-propagation=true`` (``test_matches_jaxlib`` re-checks the whole module against
jaxlib).  The differential runs over Shardy's own tests, the StableHLO corpus, JAX programs and
drawn reshapes are in ``test_rules_part2_differential.py``.
"""
from __future__ import annotations

import pytest
from rules_cases import Case, body_ops
from rules_oracle import cpp_populate, run_pass

import shardy_py
from shardy_py.rules import registry
from shardy_py.rules.sharding_rule import sharding_rule

CASES = {
    # jaxlib 0.12: a kernel-only or output-only spatial dimension (nothing of the input dimension
    # left for it) is a full-size permutation factor; SHARDY_COMMIT left it out (a size-1 factor).
    'convolution_nhwc_same': Case(
        '(%x: tensor<4x28x28x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<4x28x28x16xf32>',
        [
            '%0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x28x28x3xf32>, tensor<3x3x3x16xf32>) -> tensor<4x28x28x16xf32>',
        ],
        '%0 : tensor<4x28x28x16xf32>',
        '#sdy.op_sharding_rule<([i, j, l, n], [k, m, n, o])->([i, j, l, o]) {i=4, j=28, k=3, l=28, m=3, n=3, o=16} reduction={n} permutation={j, k, l, m}>',
        conservative='#sdy.op_sharding_rule<([i, l, m, j], [n, o, j, k])->([i, p, q, k]) {i=4, j=3, k=16, l=1, m=1, n=1, o=1, p=1, q=1} reduction={j}>',
    ),
    # jaxlib 0.12's rule (changed since SHARDY_COMMIT, as above)
    'convolution_window_larger_than_number_of_windows': Case(
        '(%x: tensor<2x3x10xf32>, %w: tensor<8x3x8xf32>) -> tensor<2x8x3xf32>',
        [
            '%0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x10xf32>, tensor<8x3x8xf32>) -> tensor<2x8x3xf32>',
        ],
        '%0 : tensor<2x8x3xf32>',
        '#sdy.op_sharding_rule<([i, l, j], [m, l, j])->([i, m, k]) {i=2, j=8, k=3, l=3, m=8} reduction={j, l} permutation={k}>',
        conservative='#sdy.op_sharding_rule<([i, j, l], [k, j, m])->([i, k, n]) {i=2, j=3, k=8, l=1, m=1, n=1} reduction={j}>',
    ),
    # jaxlib 0.12's rule (changed since SHARDY_COMMIT, as above)
    'convolution_feature_groups': Case(
        '(%x: tensor<2x8x50xf32>, %w: tensor<16x2x3xf32>) -> tensor<2x16x48xf32>',
        [
            '%0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<2x8x50xf32>, tensor<16x2x3xf32>) -> tensor<2x16x48xf32>',
        ],
        '%0 : tensor<2x16x48xf32>',
        '#sdy.op_sharding_rule<([i, lm, j], [ln, m, k])->([i, ln, j]) {i=2, j=48, k=3, l=4, m=2, n=4} reduction={m} permutation={j, k}>',
        conservative='#sdy.op_sharding_rule<([i, jk, m], [jl, k, n])->([i, jl, o]) {i=2, j=4, k=2, l=4, m=1, n=1, o=1} reduction={k}>',
    ),
    # jaxlib 0.12's rule (changed since SHARDY_COMMIT, as above)
    'convolution_batch_groups': Case(
        '(%x: tensor<8x4x20xf32>, %w: tensor<8x4x3xf32>) -> tensor<2x8x18xf32>',
        [
            '%0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {} {batch_group_count = 4 : i64, feature_group_count = 1 : i64} : (tensor<8x4x20xf32>, tensor<8x4x3xf32>) -> tensor<2x8x18xf32>',
        ],
        '%0 : tensor<2x8x18xf32>',
        '#sdy.op_sharding_rule<([ij, m, k], [in, m, l])->([j, in, k]) {i=4, j=2, k=18, l=3, m=4, n=2} reduction={m} permutation={k, l}>',
        conservative='#sdy.op_sharding_rule<([ij, k, m], [il, k, n])->([j, il, o]) {i=4, j=2, k=4, l=2, m=1, n=1, o=1} reduction={k}>',
    ),
    # jaxlib 0.12: an empty input spatial dimension leaves nothing for the kernel's spatial
    # dimension, which gets no factor of its own (unlike one where 1 is left, above).
    'convolution_empty_spatial_dimension': Case(
        '(%x: tensor<2x0x3xf32>, %w: tensor<2x3x4xf32>) -> tensor<2x0x4xf32>',
        [
            '%0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x0x3xf32>, tensor<2x3x4xf32>) -> tensor<2x0x4xf32>',
        ],
        '%0 : tensor<2x0x4xf32>',
        '#sdy.op_sharding_rule<([i, l, j], [m, j, k])->([i, n, k]) {i=2, j=3, k=4, l=1, m=1, n=1} reduction={j}>',
    ),
    'dot_general_batching_and_contracting': Case(
        '(%a: tensor<2x8x4x16xf32>, %b: tensor<2x6x4x16xf32>) -> tensor<2x4x8x6xf32>',
        [
            '%0 = stablehlo.dot_general %a, %b, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<2x8x4x16xf32>, tensor<2x6x4x16xf32>) -> tensor<2x4x8x6xf32>',
        ],
        '%0 : tensor<2x4x8x6xf32>',
        '#sdy.op_sharding_rule<([i, k, j, m], [i, l, j, m])->([i, j, k, l]) {i=2, j=4, k=8, l=6, m=16} reduction={m}>',
    ),
    'dot_general_matmul': Case(
        '(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32>',
        [
            '%0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>',
        ],
        '%0 : tensor<16x8xf32>',
        '#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=16, j=8, k=32} reduction={k}>',
    ),
    'dot_matrix_matrix': Case(
        '(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32>',
        [
            '%0 = stablehlo.dot %a, %b : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>',
        ],
        '%0 : tensor<16x8xf32>',
        '#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=16, j=8, k=32} reduction={k}>',
    ),
    'dot_vector_matrix': Case(
        '(%a: tensor<32xf32>, %b: tensor<32x8xf32>) -> tensor<8xf32>',
        [
            '%0 = stablehlo.dot %a, %b : (tensor<32xf32>, tensor<32x8xf32>) -> tensor<8xf32>',
        ],
        '%0 : tensor<8xf32>',
        '#sdy.op_sharding_rule<([j], [j, i])->([i]) {i=8, j=32} reduction={j}>',
    ),
    'dot_matrix_vector': Case(
        '(%a: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<16xf32>',
        [
            '%0 = stablehlo.dot %a, %b : (tensor<16x32xf32>, tensor<32xf32>) -> tensor<16xf32>',
        ],
        '%0 : tensor<16xf32>',
        '#sdy.op_sharding_rule<([i, j], [j])->([i]) {i=16, j=32} reduction={j}>',
    ),
    'dot_vector_vector': Case(
        '(%a: tensor<32xf32>, %b: tensor<32xf32>) -> tensor<f32>',
        [
            '%0 = stablehlo.dot %a, %b : (tensor<32xf32>, tensor<32xf32>) -> tensor<f32>',
        ],
        '%0 : tensor<f32>',
        '#sdy.op_sharding_rule<([i], [i])->([]) {i=32} reduction={i}>',
    ),
    'dynamic_slice': Case(
        '(%a: tensor<16x8x4xf32>, %i: tensor<i32>) -> tensor<4x8x1xf32>',
        [
            '%0 = stablehlo.dynamic_slice %a, %i, %i, %i, sizes = [4, 8, 1] : (tensor<16x8x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x1xf32>',
        ],
        '%0 : tensor<4x8x1xf32>',
        '#sdy.op_sharding_rule<([i, j, k], [], [], [])->([i, j, k]) {i=16, j=8, k=4} need_replication={i, k} blocked_propagation={i, k}>',
    ),
    # jaxlib 0.12: both slicing factors are permutations, whatever the indices; SHARDY_COMMIT had a
    # pass-through operand factor and a need-replication update factor (none for constant indices).
    'dynamic_update_slice_with_an_argument_index': Case(
        '(%a: tensor<16x8xf32>, %u: tensor<4x8xf32>, %i: tensor<i32>) -> tensor<16x8xf32>',
        [
            '%c = stablehlo.constant dense<0> : tensor<i32>',
            '%0 = stablehlo.dynamic_update_slice %a, %u, %i, %c : (tensor<16x8xf32>, tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>',
        ],
        '%0 : tensor<16x8xf32>',
        '#sdy.op_sharding_rule<([i, k], [j, k], [], [])->([i, k]) {i=16, j=4, k=8} permutation={i, j}>',
    ),
    # jaxlib 0.12's rule (changed since SHARDY_COMMIT, as above)
    'dynamic_update_slice_with_constant_indices': Case(
        '(%a: tensor<16x8xf32>, %u: tensor<4x2xf32>) -> tensor<16x8xf32>',
        [
            '%c = stablehlo.constant dense<3> : tensor<i32>',
            '%d = sdy.constant dense<2> : tensor<i32>',
            '%0 = stablehlo.dynamic_update_slice %a, %u, %c, %d : (tensor<16x8xf32>, tensor<4x2xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>',
        ],
        '%0 : tensor<16x8xf32>',
        '#sdy.op_sharding_rule<([i, k], [j, l], [], [])->([i, k]) {i=16, j=4, k=8, l=2} permutation={i, j, k, l}>',
    ),
    'fft_complex_two_dims': Case(
        '(%a: tensor<4x16x32xcomplex<f32>>) -> tensor<4x16x32xcomplex<f32>>',
        [
            '%0 = stablehlo.fft %a, type = FFT, length = [16, 32] : (tensor<4x16x32xcomplex<f32>>) -> tensor<4x16x32xcomplex<f32>>',
        ],
        '%0 : tensor<4x16x32xcomplex<f32>>',
        '#sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=4, j=16, k=32} need_replication={j, k}>',
    ),
    'fft_real_truncates_the_last_dim': Case(
        '(%a: tensor<8x64xf32>) -> tensor<8x33xcomplex<f32>>',
        [
            '%0 = stablehlo.fft %a, type = RFFT, length = [64] : (tensor<8x64xf32>) -> tensor<8x33xcomplex<f32>>',
        ],
        '%0 : tensor<8x33xcomplex<f32>>',
        '#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=64} need_replication={j} blocked_propagation={j}>',
    ),
    'gather_rows': Case(
        '(%x: tensor<64x16xf32>, %i: tensor<10x1xi32>) -> tensor<10x16xf32>',
        [
            '%0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 16>}> : (tensor<64x16xf32>, tensor<10x1xi32>) -> tensor<10x16xf32>',
        ],
        '%0 : tensor<10x16xf32>',
        '#sdy.op_sharding_rule<([k, j], [i, l])->([i, j]) {i=10, j=16, k=64, l=1} reduction={k} need_replication={l}>',
    ),
    'gather_size_one_and_partial_offset_slices': Case(
        '(%x: tensor<8x32x6xf32>, %i: tensor<5x2xi32>) -> tensor<5x1x4x6xf32>',
        [
            '%0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2, 3], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4, 6>}> : (tensor<8x32x6xf32>, tensor<5x2xi32>) -> tensor<5x1x4x6xf32>',
        ],
        '%0 : tensor<5x1x4x6xf32>',
        '#sdy.op_sharding_rule<([j, l, m], [i, n])->([i, k, l, m]) {i=5, j=8, k=1, l=32, m=6, n=2} reduction={j} need_replication={k, l, n} blocked_propagation={l}>',
    ),
    'gather_with_batching_dims': Case(
        '(%x: tensor<8x32x4xf32>, %i: tensor<8x5x1xi32>) -> tensor<8x5x4xf32>',
        [
            '%0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 4>}> : (tensor<8x32x4xf32>, tensor<8x5x1xi32>) -> tensor<8x5x4xf32>',
        ],
        '%0 : tensor<8x5x4xf32>',
        '#sdy.op_sharding_rule<([i, l, k], [i, j, m])->([i, j, k]) {i=8, j=5, k=4, l=32, m=1} reduction={l} need_replication={m}>',
    ),
    'gather_implicit_index_vector_dim_and_size_one_collapsed': Case(
        '(%x: tensor<1x32xf32>, %i: tensor<6xi32>) -> tensor<6xf32>',
        [
            '%0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<1x32xf32>, tensor<6xi32>) -> tensor<6xf32>',
        ],
        '%0 : tensor<6xf32>',
        '#sdy.op_sharding_rule<([j, k], [i])->([i]) {i=6, j=1, k=32} reduction={k} need_replication={j}>',
    ),
    'pad': Case(
        '(%a: tensor<8x10xf32>, %p: tensor<f32>) -> tensor<8x15xf32>',
        [
            '%0 = stablehlo.pad %a, %p, low = [0, 2], high = [0, 3], interior = [0, 0] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8x15xf32>',
        ],
        '%0 : tensor<8x15xf32>',
        '#sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=10} permutation={j}>',
        conservative='#sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=10} permutation={j} blocked_propagation={j}>',
    ),
    # jaxlib 0.12: a padded dimension whose size the padding leaves unchanged (low 2, high -2) is a
    # permutation too, not blocked when conservative; SHARDY_COMMIT compared the sizes only.
    'pad_keeping_the_size': Case(
        '(%a: tensor<4x5x6xf32>, %p: tensor<f32>) -> tensor<4x5x11xf32>',
        [
            '%0 = stablehlo.pad %a, %p, low = [0, 2, 0], high = [0, -2, 0], interior = [0, 0, 1] : (tensor<4x5x6xf32>, tensor<f32>) -> tensor<4x5x11xf32>',
        ],
        '%0 : tensor<4x5x11xf32>',
        '#sdy.op_sharding_rule<([i, j, k], [])->([i, j, k]) {i=4, j=5, k=6} permutation={j, k}>',
        conservative='#sdy.op_sharding_rule<([i, j, k], [])->([i, j, k]) {i=4, j=5, k=6} permutation={j, k} blocked_propagation={k}>',
    ),
    'reduce_two_inputs': Case(
        '(%a: tensor<8x32x4xf32>, %b: tensor<8x32x4xi32>, %x: tensor<f32>, %y: tensor<i32>) -> tensor<8x4xf32>',
        [
            '%0:2 = stablehlo.reduce(%a init: %x), (%b init: %y) across dimensions = [1] : (tensor<8x32x4xf32>, tensor<8x32x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<8x4xf32>, tensor<8x4xi32>)',
            ' reducer(%p: tensor<f32>, %q: tensor<f32>) (%r: tensor<i32>, %s: tensor<i32>)  {',
            '  %m = stablehlo.maximum %p, %q : tensor<f32>',
            '  %n = stablehlo.maximum %r, %s : tensor<i32>',
            '  stablehlo.return %m, %n : tensor<f32>, tensor<i32>',
            '}',
        ],
        '%0#0 : tensor<8x4xf32>',
        '#sdy.op_sharding_rule<([i, j, k], [i, j, k], [], [])->([i, k], [i, k]) {i=8, j=32, k=4} reduction={j}>',
        at=0,
    ),
    'reduce_scatter': Case(
        '(%a: tensor<8x16xf32>) -> tensor<8x4xf32>',
        [
            '%0 = "stablehlo.reduce_scatter"(%a) <{replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, scatter_dimension = 1 : i64}> ({',
            '^bb0(%x: tensor<f32>, %y: tensor<f32>):',
            '  %s = stablehlo.add %x, %y : tensor<f32>',
            '  stablehlo.return %s : tensor<f32>',
            '}) : (tensor<8x16xf32>) -> tensor<8x4xf32>',
        ],
        '%0 : tensor<8x4xf32>',
        '#sdy.op_sharding_rule<([i, j])->([i, k]) {i=8, j=16, k=4} need_replication={j, k}>',
        at=0,
    ),
    'reduce_window_pool': Case(
        '(%a: tensor<4x28x28x8xf32>, %i: tensor<f32>) -> tensor<4x14x14x8xf32>',
        [
            '%0 = "stablehlo.reduce_window"(%a, %i) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({',
            '^bb0(%x: tensor<f32>, %y: tensor<f32>):',
            '  %m = stablehlo.maximum %x, %y : tensor<f32>',
            '  stablehlo.return %m : tensor<f32>',
            '}) : (tensor<4x28x28x8xf32>, tensor<f32>) -> tensor<4x14x14x8xf32>',
        ],
        '%0 : tensor<4x14x14x8xf32>',
        '#sdy.op_sharding_rule<([i, j, k, l], [])->([i, j, k, l]) {i=4, j=14, k=14, l=8} permutation={j, k}>',
        conservative='#sdy.op_sharding_rule<([i, j, k, l], [])->([i, j, k, l]) {i=4, j=14, k=14, l=8} permutation={j, k} blocked_propagation={j, k}>',
        at=0,
    ),
    'reduce_window_padding_only': Case(
        '(%a: tensor<8x64xf32>, %i: tensor<f32>) -> tensor<8x64xf32>',
        [
            '%0 = "stablehlo.reduce_window"(%a, %i) <{padding = dense<[[0, 0], [63, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 64>}> ({',
            '^bb0(%x: tensor<f32>, %y: tensor<f32>):',
            '  %s = stablehlo.add %x, %y : tensor<f32>',
            '  stablehlo.return %s : tensor<f32>',
            '}) : (tensor<8x64xf32>, tensor<f32>) -> tensor<8x64xf32>',
        ],
        '%0 : tensor<8x64xf32>',
        '#sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=64} permutation={j}>',
        conservative='#sdy.op_sharding_rule<([i, j], [])->([i, j]) {i=8, j=64} permutation={j} blocked_propagation={j}>',
        at=0,
    ),
    # jaxlib 0.12: size-1 factors and the factors of one side only need replication; the first
    # pair of coprime sizes shares one permutation factor (SHARDY_COMMIT: separate pass-through factors).
    'reshape_merge_and_split': Case(
        '(%a: tensor<2x3x4xf32>) -> tensor<4x6xf32>',
        [
            '%0 = stablehlo.reshape %a : (tensor<2x3x4xf32>) -> tensor<4x6xf32>',
        ],
        '%0 : tensor<4x6xf32>',
        '#sdy.op_sharding_rule<([i, j, lm])->([ij, km]) {i=2, j=3, k=3, l=2, m=2} need_replication={k, l} permutation={j}>',
    ),
    # jaxlib 0.12's rule (changed since SHARDY_COMMIT, as above)
    'reshape_coprime_sizes': Case(
        '(%a: tensor<6x35xf32>) -> tensor<10x21xf32>',
        [
            '%0 = stablehlo.reshape %a : (tensor<6x35xf32>) -> tensor<10x21xf32>',
        ],
        '%0 : tensor<10x21xf32>',
        '#sdy.op_sharding_rule<([ij, km])->([ij, lm]) {i=2, j=3, k=5, l=3, m=7} need_replication={k, l} permutation={j}>',
    ),
    # jaxlib 0.12's rule (changed since SHARDY_COMMIT, as above)
    'reshape_size_one_dims': Case(
        '(%a: tensor<24x1xf32>) -> tensor<1x6x1x4x1xf32>',
        [
            '%0 = stablehlo.reshape %a : (tensor<24x1xf32>) -> tensor<1x6x1x4x1xf32>',
        ],
        '%0 : tensor<1x6x1x4x1xf32>',
        '#sdy.op_sharding_rule<([jl, m])->([i, j, k, l, n]) {i=1, j=6, k=1, l=4, m=1, n=1} need_replication={i, k, m, n}>',
    ),
    # jaxlib 0.12's rule (changed since SHARDY_COMMIT, as above)
    'reshape_to_scalar': Case(
        '(%a: tensor<1x1xf32>) -> tensor<f32>',
        [
            '%0 = stablehlo.reshape %a : (tensor<1x1xf32>) -> tensor<f32>',
        ],
        '%0 : tensor<f32>',
        '#sdy.op_sharding_rule<([i, j])->([]) {i=1, j=1} need_replication={i, j}>',
    ),
    'reshape_of_no_elements': Case(
        '(%a: tensor<0x4xf32>) -> tensor<2x0x2xf32>',
        [
            '%0 = stablehlo.reshape %a : (tensor<0x4xf32>) -> tensor<2x0x2xf32>',
        ],
        '%0 : tensor<2x0x2xf32>',
        None,
    ),
    'reshape_bounded_dynamic': Case(
        '(%a: tensor<?x2xf32, #stablehlo.bounds<5, ?>>) -> tensor<2x?xf32, #stablehlo.bounds<?, 5>>',
        [
            '%0 = stablehlo.reshape %a : (tensor<?x2xf32, #stablehlo.bounds<5, ?>>) -> tensor<2x?xf32, #stablehlo.bounds<?, 5>>',
        ],
        '%0 : tensor<2x?xf32, #stablehlo.bounds<?, 5>>',
        None,
    ),
    'reverse': Case(
        '(%a: tensor<4x5x6xf32>) -> tensor<4x5x6xf32>',
        [
            '%0 = stablehlo.reverse %a, dims = [0, 2] : tensor<4x5x6xf32>',
        ],
        '%0 : tensor<4x5x6xf32>',
        '#sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=4, j=5, k=6} permutation={i, k}>',
    ),
    'rng_bit_generator': Case(
        '(%s: tensor<2xui64>) -> tensor<16x8xui32>',
        [
            '%0:2 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<16x8xui32>)',
        ],
        '%0#1 : tensor<16x8xui32>',
        '#sdy.op_sharding_rule<([i])->([i], [j, k]) {i=2, j=16, k=8} need_replication={i} blocked_propagation={i}>',
    ),
    'scatter_add_rows': Case(
        '(%x: tensor<64x16xf32>, %i: tensor<10x1xi32>, %u: tensor<10x16xf32>) -> tensor<64x16xf32>',
        [
            '%0 = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({',
            '^bb0(%p: tensor<f32>, %q: tensor<f32>):',
            '  %s = stablehlo.add %p, %q : tensor<f32>',
            '  stablehlo.return %s : tensor<f32>',
            '}) : (tensor<64x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<64x16xf32>',
        ],
        '%0 : tensor<64x16xf32>',
        '#sdy.op_sharding_rule<([k, j], [i, l], [i, j])->([k, j]) {i=10, j=16, k=64, l=1} reduction={i} need_replication={l}>',
        at=0,
    ),
    'scatter_set_rows': Case(
        '(%x: tensor<64x16xf32>, %i: tensor<10x1xi32>, %u: tensor<10x16xf32>) -> tensor<64x16xf32>',
        [
            '%0 = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({',
            '^bb0(%p: tensor<f32>, %q: tensor<f32>):',
            '  stablehlo.return %q : tensor<f32>',
            '}) : (tensor<64x16xf32>, tensor<10x1xi32>, tensor<10x16xf32>) -> tensor<64x16xf32>',
        ],
        '%0 : tensor<64x16xf32>',
        '#sdy.op_sharding_rule<([k, j], [i, l], [i, j])->([k, j]) {i=10, j=16, k=64, l=1} need_replication={i, l}>',
        at=0,
    ),
    'scatter_two_inputs_with_batching_and_a_partial_window': Case(
        '(%x: tensor<8x32x6xf32>, %y: tensor<8x32x6xi32>, %i: tensor<8x5x1xi32>, %u: tensor<8x5x4xf32>, %v: tensor<8x5x4xi32>) -> tensor<8x32x6xf32>',
        [
            '%0:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({',
            '^bb0(%p: tensor<f32>, %q: tensor<i32>, %r: tensor<f32>, %s: tensor<i32>):',
            '  %m = stablehlo.multiply %r, %p : tensor<f32>',
            '  %n = stablehlo.multiply %q, %s : tensor<i32>',
            '  stablehlo.return %m, %n : tensor<f32>, tensor<i32>',
            '}) : (tensor<8x32x6xf32>, tensor<8x32x6xi32>, tensor<8x5x1xi32>, tensor<8x5x4xf32>, tensor<8x5x4xi32>) -> (tensor<8x32x6xf32>, tensor<8x32x6xi32>)',
        ],
        '%0#0 : tensor<8x32x6xf32>',
        '#sdy.op_sharding_rule<([i, m, k], [i, m, k], [i, j, n], [i, j, l], [i, j, l])->([i, m, k], [i, m, k]) {i=8, j=5, k=6, l=4, m=32, n=1} reduction={j} need_replication={k, l, n}>',
        at=0,
    ),
    'scatter_or_of_predicates_reduces': Case(
        '(%x: tensor<16x4xi1>, %i: tensor<3x1xi32>, %u: tensor<3x4xi1>) -> tensor<16x4xi1>',
        [
            '%0 = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({',
            '^bb0(%p: tensor<i1>, %q: tensor<i1>):',
            '  %s = stablehlo.or %p, %q : tensor<i1>',
            '  stablehlo.return %s : tensor<i1>',
            '}) : (tensor<16x4xi1>, tensor<3x1xi32>, tensor<3x4xi1>) -> tensor<16x4xi1>',
        ],
        '%0 : tensor<16x4xi1>',
        '#sdy.op_sharding_rule<([k, j], [i, l], [i, j])->([k, j]) {i=3, j=4, k=16, l=1} reduction={i} need_replication={l}>',
        at=0,
    ),
    'scatter_or_of_integers_needs_replication': Case(
        '(%x: tensor<16x4xi32>, %i: tensor<3x1xi32>, %u: tensor<3x4xi32>) -> tensor<16x4xi32>',
        [
            '%0 = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({',
            '^bb0(%p: tensor<i32>, %q: tensor<i32>):',
            '  %s = stablehlo.or %p, %q : tensor<i32>',
            '  stablehlo.return %s : tensor<i32>',
            '}) : (tensor<16x4xi32>, tensor<3x1xi32>, tensor<3x4xi32>) -> tensor<16x4xi32>',
        ],
        '%0 : tensor<16x4xi32>',
        '#sdy.op_sharding_rule<([k, j], [i, l], [i, j])->([k, j]) {i=3, j=4, k=16, l=1} need_replication={i, l}>',
        at=0,
    ),
    'select_scalar_predicate': Case(
        '(%c: tensor<i1>, %a: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32>',
        [
            '%0 = stablehlo.select %c, %a, %b : tensor<i1>, tensor<8x4xf32>',
        ],
        '%0 : tensor<8x4xf32>',
        '#sdy.op_sharding_rule<([], [i, j], [i, j])->([i, j]) {i=8, j=4}>',
    ),
    'select_tensor_predicate': Case(
        '(%c: tensor<8x4xi1>, %a: tensor<8x4xf32>, %b: tensor<8x4xf32>) -> tensor<8x4xf32>',
        [
            '%0 = stablehlo.select %c, %a, %b : tensor<8x4xi1>, tensor<8x4xf32>',
        ],
        '%0 : tensor<8x4xf32>',
        '#sdy.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=8, j=4}>',
    ),
    'slice': Case(
        '(%a: tensor<16x8x4xf32>) -> tensor<8x4x4xf32>',
        [
            '%0 = stablehlo.slice %a [2:10, 0:8:2, 0:4] : (tensor<16x8x4xf32>) -> tensor<8x4x4xf32>',
        ],
        '%0 : tensor<8x4x4xf32>',
        '#sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=16, j=8, k=4} permutation={i, j}>',
        conservative='#sdy.op_sharding_rule<([i, j, k])->([i, j, k]) {i=16, j=8, k=4} permutation={i, j} blocked_propagation={i, j}>',
    ),
    'sort_with_a_batch_dim': Case(
        '(%a: tensor<8x128xf32>) -> tensor<8x128xf32>',
        [
            '%0 = "stablehlo.sort"(%a) <{dimension = 1 : i64, is_stable = true}> ({',
            '^bb0(%x: tensor<f32>, %y: tensor<f32>):',
            '  %c = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>',
            '  stablehlo.return %c : tensor<i1>',
            '}) : (tensor<8x128xf32>) -> tensor<8x128xf32>',
        ],
        '%0 : tensor<8x128xf32>',
        '#sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=128} need_replication={j}>',
        at=0,
    ),
    'sort_two_operands_other_dims_of_size_one': Case(
        '(%k: tensor<1x16x1xf32>, %v: tensor<1x16x1xi32>) -> tensor<1x16x1xi32>',
        [
            '%0:2 = "stablehlo.sort"(%k, %v) <{dimension = 1 : i64}> ({',
            '^bb0(%x: tensor<f32>, %y: tensor<f32>, %p: tensor<i32>, %q: tensor<i32>):',
            '  %c = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>',
            '  stablehlo.return %c : tensor<i1>',
            '}) : (tensor<1x16x1xf32>, tensor<1x16x1xi32>) -> (tensor<1x16x1xf32>, tensor<1x16x1xi32>)',
        ],
        '%0#1 : tensor<1x16x1xi32>',
        '#sdy.op_sharding_rule<([i, j, k], [i, j, k])->([i, j, k], [i, j, k]) {i=1, j=16, k=1} need_replication={j} blocked_propagation={j}>',
        at=0,
    ),
    'sort_default_dimension': Case(
        '(%a: tensor<4x32xf32>) -> tensor<4x32xf32>',
        [
            '%0 = "stablehlo.sort"(%a) ({',
            '^bb0(%x: tensor<f32>, %y: tensor<f32>):',
            '  %c = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>',
            '  stablehlo.return %c : tensor<i1>',
            '}) : (tensor<4x32xf32>) -> tensor<4x32xf32>',
        ],
        '%0 : tensor<4x32xf32>',
        '#sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=32}>',
        at=0,
    ),
    'sort_negative_dimension_is_no_sort_dimension': Case(
        '(%a: tensor<4x8xf32>) -> tensor<4x8xf32>',
        [
            '%0 = "stablehlo.sort"(%a) <{dimension = -1 : i64}> ({',
            '^bb0(%x: tensor<f32>, %y: tensor<f32>):',
            '  %c = stablehlo.compare LT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>',
            '  stablehlo.return %c : tensor<i1>',
            '}) : (tensor<4x8xf32>) -> tensor<4x8xf32>',
        ],
        '%0 : tensor<4x8xf32>',
        '#sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>',
        at=0,
    ),
    'transpose': Case(
        '(%a: tensor<4x5x6xf32>) -> tensor<6x4x5xf32>',
        [
            '%0 = stablehlo.transpose %a, dims = [2, 0, 1] : (tensor<4x5x6xf32>) -> tensor<6x4x5xf32>',
        ],
        '%0 : tensor<6x4x5xf32>',
        '#sdy.op_sharding_rule<([j, k, i])->([i, j, k]) {i=6, j=4, k=5}>',
    ),
    'triangular_solve_left': Case(
        '(%a: tensor<3x8x8xf32>, %b: tensor<3x8x5xf32>) -> tensor<3x8x5xf32>',
        [
            '%0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<3x8x8xf32>, tensor<3x8x5xf32>) -> tensor<3x8x5xf32>',
        ],
        '%0 : tensor<3x8x5xf32>',
        '#sdy.op_sharding_rule<([i, j, l], [i, j, k])->([i, l, k]) {i=3, j=8, k=5, l=8} need_replication={j, k, l}>',
    ),
    'triangular_solve_left_adjoint': Case(
        '(%a: tensor<8x8xf32>, %b: tensor<8x5xf32>) -> tensor<8x5xf32>',
        [
            '%0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = true}> : (tensor<8x8xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>',
        ],
        '%0 : tensor<8x5xf32>',
        '#sdy.op_sharding_rule<([k, i], [i, j])->([k, j]) {i=8, j=5, k=8} need_replication={i, j, k}>',
    ),
    'triangular_solve_right': Case(
        '(%a: tensor<6x6xf32>, %b: tensor<4x6xf32>) -> tensor<4x6xf32>',
        [
            '%0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = false, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<6x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>',
        ],
        '%0 : tensor<4x6xf32>',
        '#sdy.op_sharding_rule<([k, j], [i, j])->([i, k]) {i=4, j=6, k=6} need_replication={i, j, k}>',
    ),
    'triangular_solve_right_transposed': Case(
        '(%a: tensor<6x6xf32>, %b: tensor<4x6xf32>) -> tensor<4x6xf32>',
        [
            '%0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = false, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<6x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>',
        ],
        '%0 : tensor<4x6xf32>',
        '#sdy.op_sharding_rule<([j, k], [i, j])->([i, k]) {i=4, j=6, k=6} need_replication={i, j, k}>',
    ),
}

#: The ops whose rules are part 2's.
PART2_OPS = frozenset("stablehlo." + name for name in (
    "convolution", "dot_general", "dot", "dynamic_slice", "dynamic_update_slice", "fft", "gather", "pad",
    "reduce", "reduce_scatter", "reduce_window", "reshape", "reverse", "rng_bit_generator", "scatter",
    "select", "slice", "sort", "transpose", "triangular_solve"))


def test_every_part2_op_has_a_registered_rule():
    registry.load_rule_modules()
    assert PART2_OPS <= set(registry.RULES)


def test_the_cases_cover_every_part2_op():
    covered = {op.name for case in CASES.values() for op in body_ops(shardy_py.parse(case.text()))}
    assert PART2_OPS <= covered


@pytest.mark.parametrize("conservative", [False, True], ids=["normal", "conservative"])
@pytest.mark.parametrize("name", list(CASES))
def test_rule(name, conservative):
    case = CASES[name]
    op = body_ops(run_pass(case.text(), conservative))[case.at]
    rule = op.attributes.get("sdy.sharding_rule")
    assert (None if rule is None else str(rule)) == case.expected(conservative)


@pytest.mark.parametrize("conservative", [False, True], ids=["normal", "conservative"])
@pytest.mark.parametrize("name", list(CASES))
def test_sharding_rule_of_the_op_is_the_populated_one(name, conservative):
    case = CASES[name]
    op = body_ops(shardy_py.parse(case.text()))[case.at]
    rule = sharding_rule(op, conservative=conservative)
    assert (None if rule is None else str(rule)) == case.expected(conservative)
    assert "sdy.sharding_rule" not in op.attributes


@pytest.mark.parametrize("conservative", [False, True], ids=["normal", "conservative"])
@pytest.mark.parametrize("name", list(CASES))
def test_matches_jaxlib(name, conservative):
    text = CASES[name].text()
    assert str(run_pass(text, conservative)) == cpp_populate(text, conservative)

