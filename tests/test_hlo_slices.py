"""Per-device shard shapes and ranges, padded the way XLA pads."""
from shardy_py.hlo import HloSharding, device_slices, local_shape
from shardy_py.ir.attrs import AxisRefAttr, DimensionShardingAttr, MeshAttr, MeshAxisAttr, TensorShardingAttr

MESH = MeshAttr([MeshAxisAttr("x", 4)])
ROWS = TensorShardingAttr(MESH, [DimensionShardingAttr([AxisRefAttr("x")]), DimensionShardingAttr()])


def test_local_shape_rounds_up():
    assert local_shape((10, 8), ROWS) == (3, 8)


def test_last_shard_is_short_and_padded():
    s = device_slices((10, 8), ROWS)
    assert s.devices.tolist() == [0, 1, 2, 3]
    assert s.starts[:, 0].tolist() == [0, 3, 6, 9]
    assert s.limits[:, 0].tolist() == [3, 6, 9, 10]
    assert s.padding[:, 0].tolist() == [0, 0, 0, 2]
    assert s.index(3) == (slice(9, 10), slice(0, 8))


def test_replicated_devices_share_a_tile():
    s = device_slices((4,), HloSharding.parse("{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"))
    assert s.starts[:, 0].tolist() == [0, 2, 0, 2]


def test_replicated_sharding_gives_every_mesh_device_the_whole_tensor():
    s = device_slices((5,), TensorShardingAttr(MESH, [DimensionShardingAttr()]))
    assert s.devices.tolist() == [0, 1, 2, 3]
    assert s.limits[:, 0].tolist() == [5, 5, 5, 5]
