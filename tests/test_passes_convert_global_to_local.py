"""``-sdy-convert-global-to-local`` and its helpers (export_utils): shard indices, replica groups,
local types, and the failures the C++ conversion has (an op without a pattern, a sharding that
does not divide its dimension)."""
from __future__ import annotations

import numpy as np
import pytest

import shardy_py
from shardy_py.ir.attrs import AxisRefAttr, MeshAttr, MeshAxisAttr, SubAxisInfoAttr
from shardy_py.passes.export.export_utils import replica_group_array, shard_indices
from shardy_py.passes.manager import PassError, PassManager

MESH = MeshAttr((MeshAxisAttr("x", 2), MeshAxisAttr("y", 4)))


def run(text: str, flag: str = "-sdy-convert-global-to-local") -> str:
    module = shardy_py.parse(text)
    PassManager.parse([flag]).run(module)
    return str(module)


def test_shard_index_of_each_device_along_axes_major_to_minor():
    assert shard_indices(MESH, [AxisRefAttr("x")]).tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    assert shard_indices(MESH, [AxisRefAttr("y"), AxisRefAttr("x")]).tolist() == [0, 2, 4, 6, 1, 3, 5, 7]
    assert shard_indices(MESH, [AxisRefAttr("y", SubAxisInfoAttr(2, 2))]).tolist() == [0, 1, 0, 1, 0, 1, 0, 1]


def test_shard_index_follows_the_mesh_device_order():
    mesh = MeshAttr((MeshAxisAttr("x", 2),), (1, 0))
    assert shard_indices(mesh, [AxisRefAttr("x")]).tolist() == [1, 0]


def test_replica_groups_vary_the_reduced_axes_and_fix_the_others():
    assert replica_group_array([AxisRefAttr("y", SubAxisInfoAttr(1, 2))], MESH).tolist() == \
        [[0, 2], [1, 3], [4, 6], [5, 7]]
    assert np.array_equal(replica_group_array([AxisRefAttr("y"), AxisRefAttr("x")], MESH),
                          [[0, 4, 1, 5, 2, 6, 3, 7]])


def test_all_reduce_becomes_a_stablehlo_all_reduce_with_a_fresh_channel():
    out = run('sdy.mesh @m = <["x"=2]>\n'
              'func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n'
              '  %0 = sdy.all_reduce {"x"} %a out_sharding=<@m, [{}]> : tensor<4xf32>\n'
              '  return %0 : tensor<4xf32>\n}')
    assert ('"stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, '
            'replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}>') in out


def test_enable_rgv3_writes_replica_groups_as_mesh_axes():
    out = run('sdy.mesh @m = <["x"=2]>\n'
              'func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n'
              '  %0 = sdy.all_reduce {"x"} %a out_sharding=<@m, [{}]> : tensor<4xf32>\n'
              '  return %0 : tensor<4xf32>\n}', "-sdy-convert-global-to-local=enable-rgv3=true")
    assert 'replica_groups = #stablehlo.replica_group_mesh_axes<mesh = @m, axes = [#stablehlo.axis_ref<name = "x">]>' \
        in out


def test_a_reshard_left_in_the_program_fails_the_conversion_at_its_line():
    text = ('sdy.mesh @m = <["x"=2]>\n'
            'func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n'
            '  %0 = sdy.reshard %a <@m, [{"x"}]> : tensor<4xf32>\n'
            '  return %0 : tensor<4xf32>\n}')
    with pytest.raises(PassError) as e:
        run(text)
    (d,) = e.value.diagnostics
    assert (d.line, d.message) == (3, "failed to legalize operation 'sdy.reshard' that was explicitly marked illegal")


def test_a_sharding_that_does_not_divide_its_dimension_is_a_located_error():
    text = ('sdy.mesh @m = <["x"=4]>\n'
            'func.func @f(%a: tensor<6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}]>}) -> tensor<6xf32> {\n'
            '  return %a : tensor<6xf32>\n}')
    with pytest.raises(PassError) as e:
        run(text)
    assert e.value.diagnostics[0].line == 2
    assert "not divisible" in e.value.diagnostics[0].message


def test_replica_and_partition_counts_cannot_both_exceed_one():
    with pytest.raises(PassError):
        run('func.func @f() {\n  return\n}', "-sdy-convert-global-to-local=replica-count=2 partition-count=2")
