# ruff: noqa: E501  (expected MLIR text is printed on one line, however long; it must be exact)
"""``-sdy-resolve-permutation-factors`` (export/resolve_permutation_factors.cc at SHARDY_COMMIT), one
behaviour per test.  The expected texts are jaxlib 0.12's (its halo exchanges compute the device's
shard index in i32 and mask the neighbours that do not exist with the padding value, where the test
files' CHECK lines want i64 and no masks: see test_passes_resolve_permutation_factors_cpp.py), and
the last tests run the partitioned programs in the interpreter against numpy."""
from __future__ import annotations

import numpy as np
import pytest

import shardy_py
from shardy_py.interpreter.api import run_module
from shardy_py.ir.types import RankedTensorType
from shardy_py.passes.export.export_utils_reshape import build_reshape_groups, is_communication_free_pad_dim
from shardy_py.passes.export.resolve_permutation_factors_exchange import dim_exchange, reversed_mesh, shift_pairs
from shardy_py.passes.manager import PassError, PassManager
from shardy_py.syntax.attr_reader import parse_attribute

PASS = "sdy-resolve-permutation-factors"


def run(text: str, options: str = "") -> str:
    module = shardy_py.parse(text)
    PassManager.parse(["-" + PASS + (f"={options}" if options else "")]).run(module)
    return str(module)


def pad_module(low: int, high: int, padding: str = "0") -> str:
    """A ``tensor<4xi32>`` sharded over ``"a"=2`` padded by ``low`` / ``high``."""
    size = 4 + low + high
    return f'''sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<4xi32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"a"}}]>}}) -> tensor<{size}xi32> {{
  %c = stablehlo.constant dense<{padding}> : tensor<i32>
  %0 = stablehlo.pad %arg0, %c, low = [{low}], high = [{high}], interior = [0] {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{{"a"}}]>]>}} : (tensor<4xi32>, tensor<i32>) -> tensor<{size}xi32>
  return %0 : tensor<{size}xi32>
}}
'''


PAD_LEFT = pad_module(3, 0)


def test_a_pad_whose_shards_need_no_other_device_is_left_alone():
    text = pad_module(2, 2)
    assert run(text) == str(shardy_py.parse(text))


def test_a_pad_needing_its_left_neighbour_exchanges_a_halo():
    assert run(PAD_LEFT) == '''module {
  sdy.mesh @mesh = <["a"=2]>
  func.func @main(%arg0: tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<7xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = sdy.manual_computation(%arg0, %c) in_shardings=[<@mesh, [{"a"}]>, <@mesh, []>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<2xi32>, %arg2: tensor<i32>) {
      %2 = stablehlo.partition_id : tensor<ui32>
      %3 = stablehlo.convert %2 : (tensor<ui32>) -> tensor<i32>
      %4 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xi32>) -> tensor<2xi32>
      %c_0 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.compare GE, %3, %c_0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %6 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<i32>) -> tensor<2xi32>
      %7 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<i1>) -> tensor<2xi1>
      %8 = stablehlo.select %7, %4, %6 : tensor<2xi1>, tensor<2xi32>
      %9 = stablehlo.concatenate %8, %arg1, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<4xi32>
      %10 = stablehlo.pad %9, %arg2, low = [4], high = [4], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<4xi32>, tensor<i32>) -> tensor<12xi32>
      %c_1 = stablehlo.constant dense<2> : tensor<i32>
      %c_2 = stablehlo.constant dense<3> : tensor<i32>
      %11 = stablehlo.multiply %3, %c_1 : tensor<i32>
      %12 = stablehlo.add %11, %c_2 : tensor<i32>
      %c_3 = stablehlo.constant dense<0> : tensor<i32>
      %13 = stablehlo.maximum %12, %c_3 : tensor<i32>
      %14 = stablehlo.dynamic_slice %10, %13, sizes = [4] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<12xi32>, tensor<i32>) -> tensor<4xi32>
      sdy.return %14 : tensor<4xi32>
    } : (tensor<4xi32>, tensor<i32>) -> tensor<8xi32>
    %1 = stablehlo.slice %0 [0:7] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<8xi32>) -> tensor<7xi32>
    return %1 : tensor<7xi32>
  }
}
'''


def test_without_halo_exchange_the_padded_dimension_is_replicated():
    assert run(PAD_LEFT, "enable-halo-exchange=false") == '''module {
  sdy.mesh @mesh = <["a"=2]>
  func.func @main(%arg0: tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<7xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<4xi32>
    %1 = stablehlo.pad %0, %c, low = [3], high = [0], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<4xi32>, tensor<i32>) -> tensor<7xi32>
    %2 = sdy.reshard %1 <@mesh, [{"a"}]> : tensor<7xi32>
    return %2 : tensor<7xi32>
  }
}
'''


def test_a_pad_needing_more_than_one_hop_over_the_whole_dimension_is_replicated_even_with_halo_exchange():
    text = '''sdy.mesh @mesh = <["a"=4]>
func.func @main(%arg0: tensor<4xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<8xi32> {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.pad %arg0, %c, low = [-3], high = [7], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<4xi32>, tensor<i32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
'''
    assert run(text) == run(text, "enable-halo-exchange=false")
    assert '%0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<4xi32>' in run(text)


def test_without_halo_exchange_a_pad_of_an_unsharded_operand_keeps_its_sharded_result():
    """jaxlib 0.12 (the test files' commit crashes on the missing operand sharding)."""
    text = PAD_LEFT.replace(' {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<7xi32>', ") -> tensor<7xi32>")
    assert run(text, "enable-halo-exchange=false") == str(shardy_py.parse(text))


def test_a_prefix_slice_keeping_the_shard_size_is_left_alone():
    text = '''sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<7xf32> {
  %0 = stablehlo.slice %arg0 [0:7] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<8xf32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}
'''
    assert run(text) == str(shardy_py.parse(text))
    assert run(text, "enable-halo-exchange=false") == str(shardy_py.parse(text))


def test_a_slice_reading_its_right_neighbour_exchanges_a_halo():
    text = '''sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<6xf32> {
  %0 = stablehlo.slice %arg0 [2:8] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<8xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
'''
    assert run(text) == '''module {
  sdy.mesh @mesh = <["a"=2]>
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<6xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = sdy.manual_computation(%arg0, %cst) in_shardings=[<@mesh, [{"a"}]>, <@mesh, []>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>, %arg2: tensor<f32>) {
      %1 = stablehlo.partition_id : tensor<ui32>
      %2 = stablehlo.convert %1 : (tensor<ui32>) -> tensor<i32>
      %3 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
      %c = stablehlo.constant dense<1> : tensor<i32>
      %4 = stablehlo.compare LT, %2, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %5 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %6 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i1>) -> tensor<4xi1>
      %7 = stablehlo.select %6, %3, %5 : tensor<4xi1>, tensor<4xf32>
      %8 = stablehlo.concatenate %arg1, %7, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
      %9 = stablehlo.pad %8, %arg2, low = [3], high = [3], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<8xf32>, tensor<f32>) -> tensor<14xf32>
      %c_0 = stablehlo.constant dense<-1> : tensor<i32>
      %c_1 = stablehlo.constant dense<5> : tensor<i32>
      %10 = stablehlo.multiply %2, %c_0 : tensor<i32>
      %11 = stablehlo.add %10, %c_1 : tensor<i32>
      %c_2 = stablehlo.constant dense<0> : tensor<i32>
      %12 = stablehlo.maximum %11, %c_2 : tensor<i32>
      %13 = stablehlo.dynamic_slice %9, %12, sizes = [3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<14xf32>, tensor<i32>) -> tensor<3xf32>
      sdy.return %13 : tensor<3xf32>
    } : (tensor<8xf32>, tensor<f32>) -> tensor<6xf32>
    return %0 : tensor<6xf32>
  }
}
'''


SHIFTED_SLICE = '''sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<2xi32> {
  %0 = stablehlo.slice %arg0 [3:5] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<8xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
'''


def test_a_slice_whose_shards_start_at_different_offsets_takes_a_halo_exchange_without_neighbours():
    """jaxlib 0.12 (the test files' commit leaves it, and convert-global-to-local then fails): each
    device pads its own shard and takes its element at its own offset."""
    out = run(SHIFTED_SLICE)
    assert "collective_permute" not in out
    assert "%3 = stablehlo.concatenate %arg1, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<4xi32>) -> tensor<4xi32>" in out
    assert "%8 = stablehlo.dynamic_slice %4, %7, sizes = [1]" in out


def test_a_halo_exchanging_slice_slices_its_unsharded_dimensions_with_their_strides():
    """jaxlib 0.12 (the test files' commit slices them with stride 1, giving the wrong size)."""
    text = '''sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<6x3xf32> {
  %0 = stablehlo.slice %arg0 [2:8, 0:6:2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : (tensor<8x6xf32>) -> tensor<6x3xf32>
  return %0 : tensor<6x3xf32>
}
'''
    out = run(text)
    assert "%14 = stablehlo.slice %13 [0:3, 0:6:2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<3x6xf32>) -> tensor<3x3xf32>" in out
    assert "} : (tensor<8x6xf32>, tensor<f32>) -> tensor<6x3xf32>" in out


REVERSE = '''sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<4xf32> {
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
'''


def test_a_reverse_runs_on_a_mesh_with_the_device_order_reversed():
    assert run(REVERSE) == '''module {
  sdy.mesh @mesh_reversed = <["a"=2], device_ids=[1, 0]>
  sdy.mesh @mesh = <["a"=2]>
  func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<4xf32> {
    %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_reversed, [{"a"}]>]>} : tensor<4xf32>
    %1 = sdy.reshard %0 <@mesh, [{"a"}]> : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
'''


def test_without_halo_exchange_a_reverse_is_replicated():
    assert run(REVERSE, "enable-halo-exchange=false") == '''module {
  sdy.mesh @mesh = <["a"=2]>
  func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<4xf32> {
    %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<4xf32>
    %1 = stablehlo.reverse %0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : tensor<4xf32>
    %2 = sdy.reshard %1 <@mesh, [{"a"}]> : tensor<4xf32>
    return %2 : tensor<4xf32>
  }
}
'''


def test_reversed_meshes_are_shared_reuse_an_equal_mesh_and_get_unique_names():
    text = '''sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @mesh_reversed = <["x"=4]>
sdy.mesh @flipped = <["a"=2, "b"=2], device_ids=[1, 0, 3, 2]>
func.func @main(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %0 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>} : tensor<4x4xf32>
  %1 = stablehlo.reverse %arg0, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>} : tensor<4x4xf32>
  %2 = stablehlo.reverse %arg0, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {"b"}]>]>} : tensor<4x4xf32>
  return %0, %1, %2 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
'''
    out = run(text)
    assert out.splitlines()[1] == '  sdy.mesh @mesh_reversed_0 = <["a"=2, "b"=2], device_ids=[2, 3, 0, 1]>'
    assert out.count("<@mesh_reversed_0, [{\"a\"}, {\"b\"}]>") == 2
    assert '%4 = stablehlo.reverse %arg0, dims = [1] {sdy.sharding = #sdy.sharding_per_value<[<@flipped, [{"a"}, {"b"}]>]>}' in out


def test_an_indivisible_reverse_shifts_the_padding_to_the_low_end_first():
    text = REVERSE.replace("4xf32", "3xf32")
    assert run(text) == '''module {
  sdy.mesh @mesh_reversed = <["a"=2], device_ids=[1, 0]>
  sdy.mesh @mesh = <["a"=2]>
  func.func @main(%arg0: tensor<3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<3xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.pad %arg0, %cst, low = [0], high = [1], interior = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<2xf32>) {
      %5 = "stablehlo.collective_permute"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<2xf32>) -> tensor<2xf32>
      %6 = stablehlo.slice %5 [1:2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<2xf32>) -> tensor<1xf32>
      %7 = stablehlo.slice %arg1 [0:1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<2xf32>) -> tensor<1xf32>
      %8 = stablehlo.concatenate %6, %7, dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<1xf32>, tensor<1xf32>) -> tensor<2xf32>
      sdy.return %8 : tensor<2xf32>
    } : (tensor<4xf32>) -> tensor<4xf32>
    %2 = stablehlo.reverse %1, dims = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh_reversed, [{"a"}]>]>} : tensor<4xf32>
    %3 = sdy.reshard %2 <@mesh, [{"a"}]> : tensor<4xf32>
    %4 = stablehlo.slice %3 [0:3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<4xf32>) -> tensor<3xf32>
    return %4 : tensor<3xf32>
  }
}
'''


SPLIT = '''sdy.mesh @mesh = <["a"=4]>
func.func @main(%arg0: tensor<6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<2x3xi32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a":(1)2}, {"a":(2)2}]>]>} : (tensor<6xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}
'''


def test_an_indivisible_split_reshape_gathers_each_shard_from_a_neighbour_by_table():
    out = run(SPLIT)
    assert '%c_6 = stablehlo.constant dense<[4, 4, 3, 3]> : tensor<4xi32>' in out
    assert 'source_target_pairs = dense<[[0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>' in out
    assert '%20 = stablehlo.reshape %19 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<2xi32>) -> tensor<1x2xi32>' in out
    assert '%2 = stablehlo.slice %1 [0:2, 0:3] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a":(1)2}, {"a":(2)2}]>]>} : (tensor<2x4xi32>) -> tensor<2x3xi32>' in out


def test_without_halo_exchange_an_indivisible_reshape_group_is_replicated():
    assert run(SPLIT, "enable-halo-exchange=false") == '''module {
  sdy.mesh @mesh = <["a"=4]>
  func.func @main(%arg0: tensor<6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<2x3xi32> {
    %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<6xi32>
    %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}]>]>} : (tensor<6xi32>) -> tensor<2x3xi32>
    %2 = sdy.reshard %1 <@mesh, [{"a":(1)2}, {"a":(2)2}]> : tensor<2x3xi32>
    return %2 : tensor<2x3xi32>
  }
}
'''


def test_a_divisible_reshape_is_left_alone():
    text = SPLIT.replace("6xi32", "8xi32").replace("2x3xi32", "2x4xi32")
    assert run(text) == str(shardy_py.parse(text))


def test_a_convolution_spatial_dimension_is_replicated():
    text = '''sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<1x1x16x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}, {"a"}, {}]>}, %arg1: tensor<3x3x1x1xf32>) -> tensor<1x1x14x14xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[0, 1, i, o]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {}, {"a"}, {}]>]>} : (tensor<1x1x16x16xf32>, tensor<3x3x1x1xf32>) -> tensor<1x1x14x14xf32>
  return %0 : tensor<1x1x14x14xf32>
}
'''
    out = run(text)
    assert '%0 = sdy.reshard %arg0 <@mesh, [{}, {}, {}, {}]> : tensor<1x1x16x16xf32>' in out
    assert '%2 = sdy.reshard %1 <@mesh, [{}, {}, {"a"}, {}]> : tensor<1x1x14x14xf32>' in out


def test_more_than_one_replica_reads_the_replica_id_and_permutes_without_a_channel():
    out = run(PAD_LEFT, "replica-count=2")
    assert "%2 = stablehlo.replica_id : tensor<ui32>" in out and "partition_id" not in out
    assert '%4 = "stablehlo.collective_permute"(%arg1) <{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}>' in out


def test_replicas_and_partitions_both_above_one_is_an_error_at_the_op():
    with pytest.raises(PassError) as info:
        run(PAD_LEFT, "replica-count=2 partition-count=2")
    d = info.value.diagnostics[0]
    assert (d.line, d.message) == (4, "Shardy partitioner does not support replica_count > 1 && partition_count > 1 yet.")


def test_channel_ids_start_after_the_largest_in_the_module():
    text = PAD_LEFT.replace('  %0 = stablehlo.pad %arg0,', '''  %r = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<4xi32>) -> tensor<4xi32>
  %0 = stablehlo.pad %r,''')
    assert "channel_handle = #stablehlo.channel_handle<handle = 8, type = 1>, source_target_pairs" in run(text)


def test_a_mesh_with_device_ids_looks_the_shard_index_up_in_a_table():
    out = run(PAD_LEFT.replace('<["a"=2]>', '<["a"=2], device_ids=[1, 0]>'))
    assert "source_target_pairs = dense<[[1, 0]]>" in out
    assert "%c_0 = stablehlo.constant dense<[1, 0]> : tensor<2xi32>" in out
    assert "%3 = stablehlo.dynamic_slice %c_0, %2, sizes = [1] : (tensor<2xi32>, tensor<ui32>) -> tensor<1xi32>" in out


def test_a_reshape_sharded_on_one_side_only_is_a_located_error():
    text = '''sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xi32>) -> tensor<2x4xi32> {
  %0 = stablehlo.reshape %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : (tensor<8xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}
'''
    with pytest.raises(PassError) as info:
        run(text)
    assert info.value.diagnostics[0].line == 3
    assert "sharded on one side only" in info.value.diagnostics[0].message


def test_a_reshape_replicated_on_both_sides_is_left_alone_whether_or_not_it_has_a_sharding():
    """jaxlib 0.12 (the test files' commit fails on a sharding on one side only)."""
    text = '''sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> tensor<2x4xi32> {
  %0 = stablehlo.reshape %arg0 : (tensor<8xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}
'''
    assert run(text) == str(shardy_py.parse(text))


RNG = '''sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<2xui64>) -> (tensor<2xui64>, tensor<8x4xui32>) {
  %0:2 = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"a", ?}, {}]>]>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x4xui32>)
  return %0#0, %0#1 : tensor<2xui64>, tensor<8x4xui32>
}
'''


def test_rng_bit_generator_is_left_alone_by_default():
    assert run(RNG) == str(shardy_py.parse(RNG))


def test_rng_bit_generator_unsafe_false_generates_the_output_replicated():
    """jaxlib 0.12's option (the test files' commit has none)."""
    assert run(RNG, "rng-bit-generator-unsafe=false") == '''module {
  sdy.mesh @mesh = <["a"=2]>
  func.func @main(%arg0: tensor<2xui64>) -> (tensor<2xui64>, tensor<8x4xui32>) {
    %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = DEFAULT {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}, {}]>]>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<8x4xui32>)
    %0 = sdy.reshard %output <@mesh, [{"a", ?}, {}]> : tensor<8x4xui32>
    return %output_state, %0 : tensor<2xui64>, tensor<8x4xui32>
  }
}
'''


# --- the exchange arithmetic -------------------------------------------------------------------------

def test_shift_pairs_leave_out_the_devices_shifted_off_the_ends():
    mesh = parse_attribute('#sdy.mesh<["a"=2, "b"=4]>')
    b = parse_attribute('#sdy.sharding<@m, [{"b"}]>').dim_shardings[0].axes
    assert shift_pairs(mesh, b, 2) == [0, 2, 1, 3, 4, 6, 5, 7]
    assert shift_pairs(mesh, b, -1) == [1, 0, 2, 1, 3, 2, 5, 4, 6, 5, 7, 6]


def test_reversed_mesh_flips_the_device_order_along_a_sub_axis():
    mesh = parse_attribute('#sdy.mesh<["a"=4]>')
    major = parse_attribute('#sdy.sharding<@m, [{"a":(1)2}]>').dim_shardings[0].axes
    assert reversed_mesh(mesh, major).device_ids == (2, 3, 0, 1)


def test_dim_exchange_counts_hops_and_refuses_a_halo_spanning_the_dimension():
    near = dim_exchange(count=2, s_in=2, s_out=4, footprint=4, pad_low=3, stride=1, base_dilation=1, size=4)
    assert (near.left_hops, near.right_hops, near.needs_comm, near.can_use_halo) == (1, 0, True, True)
    assert [(s.source, s.offset) for s in near.shards] == [(0, -3), (0, 1)]
    far = dim_exchange(count=4, s_in=1, s_out=2, footprint=2, pad_low=-3, stride=1, base_dilation=1, size=4)
    assert (far.right_hops, far.can_use_halo) == (3, False)


def test_reshape_groups_cut_at_matching_products():
    [split] = build_reshape_groups(RankedTensorType.get((6,), "i32"), RankedTensorType.get((2, 3), "i32"))
    assert (split.in_start, split.in_last, split.out_start, split.out_last, split.is_split) == (0, 1, 0, 2, True)
    groups = build_reshape_groups(RankedTensorType.get((2, 6), "i32"), RankedTensorType.get((2, 2, 3), "i32"))
    assert [(g.in_start, g.in_last, g.out_start, g.out_last) for g in groups] == [(0, 1, 0, 1), (1, 2, 1, 3)]
    assert (groups[0].is_passthrough, groups[1].is_split) == (True, True)


def test_a_pad_dimension_is_communication_free_when_each_shard_reads_its_own():
    sharding = parse_attribute('#sdy.sharding<@m, [{"a"}]>')
    mesh = parse_attribute('#sdy.mesh<["a"=2]>')
    assert is_communication_free_pad_dim(0, [2], [0], [4], [8], sharding, mesh)
    assert not is_communication_free_pad_dim(0, [3], [0], [4], [7], sharding, mesh)


# --- the pipeline and the interpreter ----------------------------------------------------------------

def run_on_devices(text: str, shards: list[np.ndarray], enable_halo: bool, replicas: bool = False) -> list[np.ndarray]:
    """Partition ``text`` (already propagated) with ``shardy_py.partition`` and run its ``@main`` on
    every device in the interpreter: one per partition, or with ``replicas`` one per replica."""
    partitioned = shardy_py.partition(shardy_py.parse(text), propagate=False, enable_halo_exchange=enable_halo,
                                      replica_count=len(shards) if replicas else 1)
    main = next(op for op in partitioned.ops if op.name == "func.func")
    main.properties["sym_name"] = "device"
    local = main.properties["arg_types"][0]
    constants = "\n".join(f"  %s{i} = stablehlo.constant dense<{np.asarray(s).tolist()}> : {local}"
                          for i, s in enumerate(shards))
    names = ", ".join(f"%s{i}" for i in range(len(shards)))
    result = main.properties["result_types"][0]
    grid = [["@device"] for _ in shards] if replicas else [["@device"] * len(shards)]
    grid = "[" + ", ".join("[" + ", ".join(row) + "]" for row in grid) + "]"
    driver = f'''func.func @main() -> ({", ".join([str(result)] * len(shards))}) {{
{constants}
  %r:{len(shards)} = "interpreter.run_parallel"({names}) {{programs = {grid}}} : ({", ".join([str(local)] * len(shards))}) -> ({", ".join([str(result)] * len(shards))})
  return {", ".join(f"%r#{i}" for i in range(len(shards)))} : {", ".join([str(result)] * len(shards))}
}}'''
    module = shardy_py.parse(str(partitioned).rstrip()[:-1] + driver + "\n}\n")
    results, _ = run_module(module)
    return results


@pytest.mark.parametrize("enable_halo", [True, False])
def test_partitioned_pad_computes_the_unsharded_pad(enable_halo):
    data = np.arange(1, 5, dtype=np.int32)
    results = run_on_devices(PAD_LEFT, [data[:2], data[2:]], enable_halo)
    assert [r.tolist() for r in results] == [np.pad(data, (3, 0)).tolist()] * 2


def test_partitioned_pad_over_replicas_exchanges_halos_across_replicas():
    """With more than one replica the collective permutes have no channel (jaxlib 0.12): their
    pairs are replica ids, as the device id the offsets come from."""
    data = np.arange(1, 5, dtype=np.int32)
    results = run_on_devices(PAD_LEFT, [data[:2], data[2:]], True, replicas=True)
    assert [r.tolist() for r in results] == [np.pad(data, (3, 0)).tolist()] * 2


@pytest.mark.parametrize("enable_halo", [True, False])
def test_partitioned_split_reshape_computes_the_unsharded_reshape(enable_halo):
    text = '''sdy.mesh @mesh = <["a"=4]>
func.func @main(%arg0: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}]>}) -> tensor<2x3xi32> {
  %0 = stablehlo.slice %arg0 [0:6] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}]>]>} : (tensor<8xi32>) -> tensor<6xi32>
  %1 = stablehlo.reshape %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a":(1)2}, {"a":(2)2}]>]>} : (tensor<6xi32>) -> tensor<2x3xi32>
  return %1 : tensor<2x3xi32>
}
'''
    data = np.arange(1, 9, dtype=np.int32)
    results = run_on_devices(text, [data[i:i + 2] for i in range(0, 8, 2)], enable_halo)
    assert [r.tolist() for r in results] == [data[:6].reshape(2, 3).tolist()] * 4


@pytest.mark.parametrize("enable_halo", [True, False])
def test_partitioned_shifted_slice_computes_the_unsharded_slice(enable_halo):
    data = np.arange(1, 9, dtype=np.int32)
    results = run_on_devices(SHIFTED_SLICE, [data[:4], data[4:]], enable_halo)
    assert [r.tolist() for r in results] == [data[3:5].tolist()] * 2


@pytest.mark.parametrize("enable_halo", [True, False])
def test_partitioned_strided_slice_computes_the_unsharded_slice(enable_halo):
    text = '''sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8x6xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) -> tensor<6x3xi32> {
  %0 = stablehlo.slice %arg0 [2:8, 0:6:2] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : (tensor<8x6xi32>) -> tensor<6x3xi32>
  return %0 : tensor<6x3xi32>
}
'''
    data = np.arange(48, dtype=np.int32).reshape(8, 6)
    results = run_on_devices(text, [data[:4], data[4:]], enable_halo)
    assert [r.tolist() for r in results] == [data[2:8, 0:6:2].tolist()] * 2


@pytest.mark.parametrize("enable_halo,collective", [(True, "stablehlo.collective_permute"), (False, "stablehlo.all_gather")])
def test_per_instruction_partitioning_resolves_permutation_factors_as_its_option_says(enable_halo, collective):
    text = PAD_LEFT.replace("-> tensor<7xi32> {", '-> (tensor<7xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {')
    module = shardy_py.parse(text)
    PassManager.parse([f"-sdy-per-instruction-partitioning=enable-halo-exchange={str(enable_halo).lower()}"]).run(module)
    body = str(module).split("sdy.manual_computation", 1)[1]
    assert f'"{collective}"(%arg1)' in body
    assert ("collective_permute" in body) == enable_halo
