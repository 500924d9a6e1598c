"""Properties of ``shardy_py.hlo`` (Shardy <-> GSPMD) over drawn meshes and shardings.

* export places every device at the data tile its mesh coordinates give (an independent model:
  along an axis of size ``n`` split major to minor into ``pre``, ``size`` and ``n / (pre * size)``,
  sub-axis ``"x":(pre)size`` of a device at coordinate ``c`` is ``c // (n / (pre * size)) % size``);
* importing an exported sharding and exporting it again gives the same ``HloSharding`` (device
  array and subgroups); explicit device orders import when they are an iota, else clearly refuse;
* ``HloSharding.parse(str(h)) == h``, and the V1 (device list) text gives the same device array;
* ``device_slices`` cover every element of the global tensor exactly once per replica, in shards
  of at most ``local_shape``.

No jax needed: these check shardy_py against the definitions; ``test_hlo_export_xla.py`` checks
it against XLA itself.
"""
from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shardy_py import strategies as sst
from shardy_py.hlo import HloSharding, device_slices, export_sharding, import_sharding
from shardy_py.hlo import local_shape as hlo_local_shape
from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr

BASE = settings(derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
#: Tensor ranks, weighted towards tiled (not fully replicated) shardings.
RANKS = st.sampled_from((0, 1, 2, 2, 3, 3))


@st.composite
def mesh_and_sharding(draw, *, device_ids: bool = True) -> tuple[MeshAttr, TensorShardingAttr]:
    """A mesh (up to 64 devices; empty and maximal ones too) and a sharding of rank 0-3 on it."""
    mesh = draw(sst.meshes(max_devices=64, device_ids=device_ids))
    return mesh, draw(sst.tensor_shardings(mesh, draw(RANKS), mesh_ref="m"))


def mesh_devices(mesh: MeshAttr) -> np.ndarray:
    """Device id at each mesh position (row-major over the axes)."""
    if mesh.device_ids:
        return np.asarray(mesh.device_ids, dtype=np.int64)
    return np.arange(mesh.total_size, dtype=np.int64)


def expected_tile_index(mesh: MeshAttr, s: TensorShardingAttr) -> np.ndarray:
    """``out[device, dim]``: the tile of ``dim`` a device holds, from its mesh coordinates."""
    sizes = [a.size for a in mesh.axes]
    coords = dict(zip(mesh.axis_names, np.unravel_index(np.arange(mesh.total_size), sizes), strict=True))
    out = np.zeros((mesh.total_size, s.rank), dtype=np.int64)
    for k, dim in enumerate(s.dim_shardings):
        for ref in dim.axes:
            size = ref.size(mesh)
            minor = mesh.axis_size(ref.name) // (ref.pre_size * size)  # the part of the axis after the sub-axis
            out[:, k] = out[:, k] * size + (coords[ref.name] // minor) % size
    by_device = np.empty_like(out)
    by_device[mesh_devices(mesh)] = out
    return by_device


def sharded_sizes(mesh: MeshAttr, s: TensorShardingAttr) -> tuple[int, ...]:
    return tuple(math.prod(ref.size(mesh) for ref in d.axes) for d in s.dim_shardings)


@settings(BASE, max_examples=300)
@given(case=mesh_and_sharding())
def test_export_places_each_device_at_its_mesh_coordinates(case) -> None:
    mesh, s = case
    h = export_sharding(s, mesh)
    if mesh.is_maximal:
        assert h.is_maximal and h.device == mesh.device_ids[0]
    elif h.is_tiled:
        assert h.tile_dims == sharded_sizes(mesh, s)
        assert np.array_equal(h.tile_index_of_all_devices(), expected_tile_index(mesh, s)), (str(s), str(h))
    else:  # replicated or unreduced everywhere: no dimension is split
        assert h.is_replicated or h.is_unreduced, str(h)
        assert set(sharded_sizes(mesh, s)) <= {1}, (str(s), str(h))


@settings(BASE, max_examples=300)
@given(case=mesh_and_sharding(device_ids=False))
def test_import_of_export_gives_the_same_device_array(case) -> None:
    mesh, s = case
    h = export_sharding(s, mesh)
    # "{unreduced}" alone names no axes, so the import needs the mesh it is unreduced over
    new_mesh, new_sharding = import_sharding(h, s.rank, mesh if h.is_unreduced else None)
    again = export_sharding(new_sharding, new_mesh)
    assert again == h, (str(s), str(h), str(new_sharding), str(again))
    if h.is_tiled:
        assert np.array_equal(again.tile_assignment, h.tile_assignment)
        assert again.subgroup_dims == h.subgroup_dims


@st.composite
def permuted_mesh_and_sharding(draw) -> tuple[MeshAttr, TensorShardingAttr]:
    """A mesh with axes whose devices come in a drawn order, and a sharding on it."""
    axes = draw(sst.meshes(min_axes=1, max_devices=64, device_ids=False)).axes
    mesh = MeshAttr.get(axes, draw(st.permutations(range(math.prod(a.size for a in axes)))))
    return mesh, draw(sst.tensor_shardings(mesh, draw(RANKS), mesh_ref="m"))


@settings(BASE, max_examples=150)
@given(case=permuted_mesh_and_sharding())
def test_any_explicit_device_order_imports_and_exports_back(case) -> None:
    mesh, s = case
    h = export_sharding(s, mesh)
    new_mesh, new_sharding = import_sharding(h, s.rank, mesh if h.is_unreduced else None)
    again = export_sharding(new_sharding, new_mesh)
    assert again == h, (str(s), str(h), str(new_mesh), str(new_sharding), str(again))
    if h.is_tiled:
        assert np.array_equal(again.tile_assignment, h.tile_assignment)


@settings(BASE, max_examples=300)
@given(case=mesh_and_sharding())
def test_text_round_trips_and_v1_gives_the_same_devices(case) -> None:
    mesh, s = case
    h = export_sharding(s, mesh)
    assert HloSharding.parse(str(h)) == h
    from_v1 = HloSharding.parse(h.to_v1_text())
    assert from_v1 == h
    if h.is_tiled:
        assert np.array_equal(from_v1.tile_assignment, HloSharding.parse(str(h)).tile_assignment)
        assert "<=" not in h.to_v1_text()


@settings(BASE, max_examples=300)
@given(case=mesh_and_sharding(), data=st.data())
def test_device_slices_cover_every_element_once_per_replica(case, data: st.DataObject) -> None:
    mesh, s = case
    shape = tuple(data.draw(st.integers(0, 13)) for _ in range(s.rank))
    h = export_sharding(s, mesh)
    slices = device_slices(shape, s, mesh)
    local = hlo_local_shape(shape, s, mesh)
    tiles = h.tile_dims if h.is_tiled else (1,) * s.rank
    n_devices = 1 if mesh.is_maximal else mesh.total_size
    assert local == slices.local_shape == tuple(-(-d // t) for d, t in zip(shape, tiles, strict=True))
    assert sorted(slices.devices.tolist()) == (sorted(mesh_devices(mesh).tolist()) if not mesh.is_maximal
                                               else [mesh.device_ids[0]])
    extent = slices.limits - slices.starts
    assert (extent >= 0).all() and (extent <= np.asarray(local, dtype=np.int64)).all()
    count = np.zeros(shape, dtype=np.int64)
    for k in range(slices.devices.size):
        count[tuple(slice(int(a), int(b)) for a, b in zip(slices.starts[k], slices.limits[k], strict=True))] += 1
    replicas = n_devices // math.prod(tiles)
    assert (count == replicas).all(), (str(s), shape, str(h))
