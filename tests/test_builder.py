"""named_sharding / mark_sharding: PartitionSpec semantics, priorities and clear errors."""
import pytest

import shardy_py
from shardy_py.builder import UNCONSTRAINED, ShardingSpecError, mark_sharding, named_sharding
from shardy_py.ir.attrs import MeshAttr, MeshAxisAttr

MESH = MeshAttr([MeshAxisAttr("x", 2), MeshAxisAttr("y", 4)])
MODULE = """sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
"""


def test_none_name_and_tuple_entries():
    assert str(named_sharding(MESH, (None, "x", ("y",)), mesh_name="mesh")) == \
        '#sdy.sharding<@mesh, [{}, {"x"}, {"y"}]>'


def test_tuple_entry_shards_major_to_minor():
    assert str(named_sharding(MESH, (("y", "x"),), mesh_name="mesh")) == '#sdy.sharding<@mesh, [{"y", "x"}]>'


def test_unconstrained_is_an_open_dim():
    assert str(named_sharding(MESH, (UNCONSTRAINED, "x"), mesh_name="mesh")) == '#sdy.sharding<@mesh, [{?}, {"x"}]>'


def test_per_dimension_priorities():
    assert str(named_sharding(MESH, ("x", "y"), priority=(0, 1), mesh_name="mesh")) == \
        '#sdy.sharding<@mesh, [{"x"}p0, {"y"}p1]>'


def test_mesh_attr_without_name_is_inlined():
    assert str(named_sharding(MESH, ("x",))) == '#sdy.sharding<mesh<["x"=2, "y"=4]>, [{"x"}]>'


def test_unreduced_axes_are_put_in_mesh_order():
    assert str(named_sharding(MESH, (None,), unreduced=("y", "x"), reduction="max", mesh_name="mesh")) == \
        '#sdy.sharding<@mesh, [{}], unreduced=max{"x", "y"}>'


@pytest.mark.parametrize("kwargs, message", [
    (dict(partition_spec=("z",)), "unknown mesh axis 'z'"),
    (dict(partition_spec=("x", ("y", "x"))), "'x' is used twice"),
    (dict(partition_spec=("x",), unreduced=("x",)), "'x' is used twice"),
    (dict(partition_spec=("x",), priority=(0, 1)), "priority has 2 entries"),
    (dict(partition_spec=("x",), priority=(-1,)), "non-negative"),
    (dict(partition_spec=(None,), priority=(0,)), "cannot have a priority"),
    (dict(partition_spec=(3,)), "expected None, an axis name"),
    (dict(partition_spec=("x",), reduction="mean"), "reduction must be one of"),
])
def test_bad_specs_are_rejected_with_a_clear_error(kwargs, message):
    with pytest.raises(ShardingSpecError, match=message):
        named_sharding(MESH, **kwargs)


def test_mark_sharding_on_a_func_argument():
    module = shardy_py.parse(MODULE)
    mark_sharding(module, "%arg0", "mesh", ("x", "y"), priority=(0, 1))
    assert '%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p0, {"y"}p1]>}' in str(module)


def test_mark_sharding_on_an_op_result_pads_the_spec_to_the_rank():
    module = shardy_py.parse(MODULE)
    mark_sharding(module, "%0", "mesh", ("y",))
    assert '{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}' in str(module)


def test_mark_sharding_with_an_unknown_mesh_is_an_error():
    with pytest.raises(ShardingSpecError, match="no mesh @other"):
        mark_sharding(shardy_py.parse(MODULE), "%arg0", "other", ("x",))


def test_mark_sharding_with_a_spec_longer_than_the_rank_is_an_error():
    with pytest.raises(ShardingSpecError, match="3 entries for a rank-2 tensor"):
        mark_sharding(shardy_py.parse(MODULE), "%arg0", "mesh", ("x", None, None))
