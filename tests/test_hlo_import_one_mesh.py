"""GSPMD -> Shardy: a batch of shardings that one Shardy mesh can express imports onto one mesh,
even where neither the devices' own order nor the lex-sorted frame shows it, and even where the
shardings split a mesh axis into different sub-axes (beyond XLA's import, which aborts there).

The drawn cases start from Shardy: a random mesh (any device order) and random shardings on it,
sub-axes included, one of them using every axis; exported to GSPMD (``export_sharding``), they
must import back onto ONE mesh that puts every tile on the same devices, and that mesh must
verify clean.
"""
from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shardy_py
from shardy_py import strategies as sst
from shardy_py.hlo import HloSharding, export_sharding, import_shardings
from shardy_py.hlo.device_order import candidate_frames, prime_factors
from shardy_py.hlo.factorization import coarse_mesh_sizes
from shardy_py.ir.attrs import AxisRefAttr, DimensionShardingAttr, MeshAttr, TensorShardingAttr
from shardy_py.strategies.attributes import axis_pieces, fix_order
from shardy_py.syntax.attr_printer import mesh_body
from shardy_py.verify import verify


def tile_sets(h: HloSharding, rank: int) -> dict[tuple, frozenset]:
    """Tile index -> the devices holding it."""
    if not h.is_tiled or h.num_devices == 1:
        return {}
    devices = h.tile_assignment
    groups = devices.reshape(list(devices.shape[:rank]) + [-1])
    return {index: frozenset(groups[index].tolist()) for index in np.ndindex(*devices.shape[:rank])}


def mesh_verifies(name: str, mesh: MeshAttr) -> bool:
    return verify(shardy_py.parse(f"module {{\n  sdy.mesh @{name} = {mesh_body(mesh)}\n}}\n")) == []


def test_coarse_mesh_sizes_merge_where_local_meshes_cross():
    assert coarse_mesh_sizes([[2, 3], [3, 2]]) == [6]
    assert coarse_mesh_sizes([[2, 2, 3], [4, 3]]) == [4, 3]
    assert coarse_mesh_sizes([[2, 6], [3, 4]]) == [12]
    assert coarse_mesh_sizes([[2, 3], [4]]) is None


def test_prime_factors_smallest_first():
    assert prime_factors(1) == []
    assert prime_factors(12) == [2, 2, 3]
    assert prime_factors(97) == [97]


def test_candidate_frames_are_distinct_transposes_of_a_fully_tiled_array():
    h = HloSharding.parse("{devices=[2,2]0,1,2,3}")
    frames = [tuple(f.tolist()) for f in candidate_frames([h, HloSharding.parse("{devices=[4]3,2,1,0}")])]
    assert frames == [(0, 1, 2, 3), (0, 2, 1, 3)] + frames[2:]
    assert len(frames) == len(set(frames))


def test_iota_shardings_whose_local_meshes_cross_share_one_axis_of_sub_axes():
    # XLA's import has no common factorisation of [2, 3] and [3, 2] and aborts.
    shardings = [HloSharding.parse("{devices=[2,3]<=[6]}"), HloSharding.parse("{devices=[3,2]<=[6]}")]
    result = import_shardings(shardings, [2, 2])
    assert list(result.meshes) == ["mesh"]
    assert str(result.mesh) == '#sdy.mesh<["axis_0"=6]>'
    assert [str(s) for s in result.shardings] == [
        '#sdy.sharding<@mesh, [{"axis_0":(1)2}, {"axis_0":(2)3}]>',
        '#sdy.sharding<@mesh, [{"axis_0":(1)3}, {"axis_0":(3)2}]>',
    ]
    for h, s in zip(shardings, result.shardings, strict=True):
        assert tile_sets(export_sharding(s, result.mesh), 2) == tile_sets(h, 2)


def test_a_shared_order_that_the_lex_frame_misses_is_found():
    texts = ["{devices=[6]1,3,5,0,2,4}", "{devices=[2,3]0,1,2,3,4,5 last_tile_dim_replicate}"]
    shardings = [HloSharding.parse(t) for t in texts]
    result = import_shardings(shardings, [1, 1])
    assert list(result.meshes) == ["mesh"]
    assert mesh_verifies("mesh", result.mesh)
    assert tile_sets(export_sharding(result.shardings[0], result.mesh), 1) == tile_sets(shardings[0], 1)
    assert tile_sets(export_sharding(result.shardings[1], result.mesh), 1) == tile_sets(shardings[1], 1)


def test_shardings_no_mesh_can_share_still_get_two_meshes():
    # [4] and [2,2] over the same devices in orders no single device frame reconciles.
    texts = ["{devices=[4]0,1,2,3}", "{devices=[4]0,2,3,1}"]
    result = import_shardings([HloSharding.parse(t) for t in texts], [1, 1])
    assert list(result.meshes) == ["mesh", "mesh_1"]


@st.composite
def shardings_of_one_mesh(draw) -> tuple[MeshAttr, list[TensorShardingAttr], list[int]]:
    """A mesh of 2-64 devices in any order and 2-4 shardings on it (sub-axes, replicated axes), in
    any order, one of which tiles every device (its axes and sub-axes in any order, so the device
    frame is found by the search, not by sorting): the case where the search is complete."""
    mesh = draw(sst.meshes(min_axes=1, max_axes=3, allow_maximal=False).filter(lambda m: m.total_size > 1))
    rank = draw(st.integers(1, 3))
    dims: list[list[AxisRefAttr]] = [[] for _ in range(rank)]
    pieces = [p for p in draw(axis_pieces(mesh, split_odds=2)) if mesh_size(mesh, p) > 1]
    for ref in draw(st.permutations(pieces)):
        dims[draw(st.integers(0, rank - 1))].append(ref)
    full = TensorShardingAttr("mesh", tuple(DimensionShardingAttr(tuple(fix_order(d)), True) for d in dims))
    others = draw(st.lists(st.integers(1, 4).flatmap(
        lambda r: sst.tensor_shardings(mesh, r, mesh_ref="mesh", allow_open=False, allow_priority=False,
                                       unreduced=False)), min_size=1, max_size=3))
    shardings = draw(st.permutations([full, *others]))
    return mesh, shardings, [len(s.dim_shardings) for s in shardings]


def mesh_size(mesh: MeshAttr, ref: AxisRefAttr) -> int:
    return ref.sub_axis_info.size if ref.sub_axis_info else next(a.size for a in mesh.axes if a.name == ref.name)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shardings_of_one_mesh())
def test_shardings_exported_from_one_mesh_import_back_onto_one_mesh(case):
    mesh, shardings, ranks = case
    exported = [export_sharding(s, mesh) for s in shardings]
    result = import_shardings(exported, ranks)
    tiled = [h for h in exported if h.is_tiled and h.num_devices > 1]
    assert len(result.meshes) == 1, ([str(h) for h in exported], result.meshes)
    assert mesh_verifies("mesh", result.mesh)
    assert result.mesh.total_size == (math.prod(a.size for a in mesh.axes) if tiled else 1)
    for h, s, rank in zip(exported, result.shardings, ranks, strict=True):
        assert tile_sets(export_sharding(s, result.mesh), rank) == tile_sets(h, rank), (str(h), str(s))


def test_xla_exports_the_sub_axes_of_a_coarse_mesh_back_to_the_original_texts():
    jax_lib = pytest.importorskip("jax._src.lib")
    texts = ["{devices=[2,3]<=[6]}", "{devices=[3,2]<=[6]}"]
    result = import_shardings([HloSharding.parse(t) for t in texts], [2, 2])
    args = ", ".join(f"%arg{i}: tensor<6x6xf32> {{sdy.sharding = {s}}}" for i, s in enumerate(result.shardings))
    module = (f"module {{\n  sdy.mesh @mesh = {mesh_body(result.mesh)}\n"
              f"  func.func @main({args}) -> (tensor<6x6xf32>, tensor<6x6xf32>) {{\n"
              "    return %arg0, %arg1 : tensor<6x6xf32>, tensor<6x6xf32>\n  }\n}\n")
    hlo = jax_lib._jax.mlir.mlir_module_to_xla_computation(module, use_tuple_args=False,
                                                           return_tuple=False).as_hlo_text()
    assert re.findall(r"parameter\(\d\), sharding=(\{[^}]*\})", hlo) == texts
