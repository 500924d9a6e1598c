"""GSPMD -> Shardy import: mesh inference by common factorisation, V1 iota detection, explicit device_ids
for any other device order, one mesh per batch when one fits, clear errors."""
import pytest

from shardy_py.hlo import (
    HloSharding,
    UnsupportedShardingError,
    export_sharding,
    import_sharding,
    import_shardings,
    infer_mesh,
)
from shardy_py.hlo.importer import shortest_common_factorization


def test_shortest_common_factorization_examples():
    assert shortest_common_factorization([4, 8], [8, 4]) == [4, 2, 4]
    assert shortest_common_factorization([6, 1, 4], [2, 6, 2]) == [2, 3, 2, 2]
    assert shortest_common_factorization([2, 3], [3, 2]) == []


def test_transposed_iota_imports_to_two_axes():
    mesh, s = import_sharding("{devices=[4,2]<=[2,4]T(1,0)}", 2)
    assert str(mesh) == '#sdy.mesh<["axis_0"=2, "axis_1"=4]>'
    assert str(s) == '#sdy.sharding<@mesh, [{"axis_1"}, {"axis_0"}]>'


def test_tile_dims_split_into_several_axes():
    mesh, s = import_sharding("{devices=[6,35]<=[7,10,3]T(2,1,0)}", 2)
    assert str(mesh) == '#sdy.mesh<["axis_0"=7, "axis_1"=2, "axis_2"=5, "axis_3"=3]>'
    assert str(s) == '#sdy.sharding<@mesh, [{"axis_3", "axis_1"}, {"axis_2", "axis_0"}]>'


def test_v1_list_that_is_an_iota_in_disguise_is_imported():
    mesh, s = import_sharding("{devices=[4,2]0,4,1,5,2,6,3,7}", 2)
    assert str(s) == '#sdy.sharding<@mesh, [{"axis_1"}, {"axis_0"}]>'


def test_unreduced_and_replicated_subgroups_become_axis_lists():
    _, s = import_sharding("{devices=[1,1,4,4]<=[2,4,2]T(1,0,2) last_tile_dims={unreduced, replicated}}", 2)
    assert str(s) == '#sdy.sharding<@mesh, [{}, {}], replicated={"axis_0", "axis_2"}, unreduced={"axis_1"}>'


def test_maximal_imports_to_a_one_device_mesh():
    mesh, s = import_sharding("{maximal device=3}", 2)
    assert str(mesh) == "#sdy.mesh<[], device_ids=[3]>"
    assert str(s) == "#sdy.sharding<@maximal_mesh_3, []>"


def test_replicated_and_unknown_import_closed_and_open():
    assert str(import_sharding("{replicated}", 2)[1]) == "#sdy.sharding<@mesh, [{}, {}]>"
    assert str(import_sharding("{unknown}", 1)[1]) == "#sdy.sharding<@mesh, [{?}]>"


# (behaviour, HloSharding text, imported mesh, imported sharding, export of the import)
DEVICE_ID_IMPORTS = [
    ("non-factorisable iota", "{devices=[2,3]<=[2,3]T(1,0)}",
     '#sdy.mesh<["axis_0"=2, "axis_1"=3], device_ids=[0, 3, 1, 4, 2, 5]>',
     '#sdy.sharding<@mesh, [{"axis_0"}, {"axis_1"}]>', "{devices=[2,3]0,3,1,4,2,5}"),
    ("V1 permutation: one axis per tile dim", "{devices=[2,2]0,3,1,2}",
     '#sdy.mesh<["axis_0"=2, "axis_1"=2], device_ids=[0, 3, 1, 2]>',
     '#sdy.sharding<@mesh, [{"axis_0"}, {"axis_1"}]>', "{devices=[2,2]0,3,1,2}"),
    ("permuted replication groups: a replicated axis", "{devices=[2,1,2]3,0,2,1 last_tile_dim_replicate}",
     '#sdy.mesh<["axis_0"=2, "axis_1"=2], device_ids=[0, 3, 1, 2]>',
     '#sdy.sharding<@mesh, [{"axis_0"}, {}]>', "{devices=[2,1,2]0,3,1,2 last_tile_dim_replicate}"),
]


@pytest.mark.parametrize(("text", "mesh", "sharding", "exported"), [c[1:] for c in DEVICE_ID_IMPORTS],
                         ids=[c[0] for c in DEVICE_ID_IMPORTS])
def test_device_orders_that_are_no_iota_import_with_device_ids(text, mesh, sharding, exported):
    new_mesh, s = import_sharding(text, 2)
    assert (str(new_mesh), str(s), str(export_sharding(s, new_mesh))) == (mesh, sharding, exported)


def test_shardings_of_one_permuted_mesh_import_onto_one_mesh():
    # torch_xla: Mesh([5, 0, 2, 6, 1, 4, 3, 7], (2, 2, 2)) with specs (x, (y, z)), (y, None), ((z, x), None)
    texts = ["{devices=[2,4]5,0,2,6,1,4,3,7}", "{devices=[2,1,4]0,1,4,5,2,3,6,7 last_tile_dim_replicate}",
             "{devices=[4,1,2]5,2,1,3,0,6,4,7 last_tile_dim_replicate}"]
    result = import_shardings([HloSharding.parse(t) for t in texts], [2, 2, 2])
    assert {name: str(m) for name, m in result.meshes.items()} == {
        "mesh": '#sdy.mesh<["axis_0"=2, "axis_1"=2, "axis_2"=2], device_ids=[5, 0, 2, 6, 1, 4, 3, 7]>'}
    assert [str(s) for s in result.shardings] == [
        '#sdy.sharding<@mesh, [{"axis_0"}, {"axis_1", "axis_2"}]>',
        '#sdy.sharding<@mesh, [{"axis_1"}, {}]>',
        '#sdy.sharding<@mesh, [{"axis_2", "axis_0"}, {}]>',
    ]


def test_shardings_that_share_no_mesh_get_as_few_meshes_as_needed():
    texts = ["{devices=[2,2]0,1,2,3}", "{devices=[4]0,3,1,2}", "{devices=[2,2]<=[4]}", "{replicated}"]
    result = import_shardings([HloSharding.parse(t) for t in texts], [2, 1, 2, 1])
    assert {name: str(m) for name, m in result.meshes.items()} == {
        "mesh": '#sdy.mesh<["axis_0"=2, "axis_1"=2]>',
        "mesh_1": '#sdy.mesh<["axis_0"=4], device_ids=[0, 3, 1, 2]>'}
    assert [str(s) for s in result.shardings] == [
        '#sdy.sharding<@mesh, [{"axis_0"}, {"axis_1"}]>',
        '#sdy.sharding<@mesh_1, [{"axis_0"}]>',
        '#sdy.sharding<@mesh, [{"axis_0"}, {"axis_1"}]>',
        "#sdy.sharding<@mesh, [{}]>",
    ]


def test_infer_mesh_says_when_no_single_mesh_fits():
    with pytest.raises(UnsupportedShardingError, match="no common mesh: {devices=\\[2,2\\]0,1,2,3} and the other 1"):
        infer_mesh([HloSharding.parse("{devices=[2,2]0,1,2,3}"), HloSharding.parse("{devices=[4]0,3,1,2}")])


def test_devices_outside_0_to_n_minus_1_are_a_clear_error():
    with pytest.raises(UnsupportedShardingError, match=r"its 2 devices are not 0\.\.1"):
        import_sharding("{devices=[2]5,7}", 1)


def test_a_device_listed_twice_is_a_clear_error():
    with pytest.raises(UnsupportedShardingError, match="a device appears twice"):
        import_sharding("{devices=[2]1,1}", 1)


def test_import_onto_a_given_mesh_with_device_ids():
    mesh = import_sharding("{devices=[2,2]0,3,1,2}", 2)[0]
    _, s = import_sharding("{devices=[4]0,1,3,2}", 1, mesh)  # axis_1 major, then axis_0
    assert str(s) == '#sdy.sharding<@mesh, [{"axis_1", "axis_0"}]>'
    assert str(export_sharding(s, mesh)) == "{devices=[4]0,1,3,2}"


def test_batch_import_derives_one_mesh_for_all_shardings():
    texts = ["{devices=[4,2]<=[8]}", "{devices=[2,4]<=[8]}", "{maximal device=1}", "{replicated}"]
    result = import_shardings([HloSharding.parse(t) for t in texts], [2, 2, 0, 1])
    assert str(result.mesh) == '#sdy.mesh<["axis_0"=2, "axis_1"=2, "axis_2"=2]>'
    assert [str(s) for s in result.shardings] == [
        '#sdy.sharding<@mesh, [{"axis_0", "axis_1"}, {"axis_2"}]>',
        '#sdy.sharding<@mesh, [{"axis_0"}, {"axis_1", "axis_2"}]>',
        "#sdy.sharding<@maximal_mesh_1, []>",
        "#sdy.sharding<@mesh, [{}]>",
    ]
    assert list(result.maximal_meshes) == ["maximal_mesh_1"]


def test_batch_import_onto_the_common_mesh_keeps_every_device_array():
    texts = ["{devices=[4,2]<=[8]}", "{devices=[2,4]<=[2,4]T(1,0)}", "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"]
    hs = [HloSharding.parse(t) for t in texts]
    result = import_shardings(hs, [2, 2, 2])
    for h, s in zip(hs, result.shardings, strict=True):
        assert (export_sharding(s, result.mesh).tile_assignment == h.tile_assignment).all()


def test_tuple_sharding_imports_per_element():
    h = HloSharding.parse("{{devices=[2]<=[2]}, {replicated}}")
    result = import_shardings([h], [[1, 0]])
    assert [str(s) for s in result.shardings[0]] == ['#sdy.sharding<@mesh, [{"axis_0"}]>', "#sdy.sharding<@mesh, []>"]


def test_shardings_over_different_device_counts_get_a_mesh_each():
    texts = ["{devices=[2]0,1}", "{devices=[4]0,1,2,3}"]
    result = import_shardings([HloSharding.parse(t) for t in texts], [1, 1])
    assert {name: str(m) for name, m in result.meshes.items()} == {
        "mesh": '#sdy.mesh<["axis_0"=2]>', "mesh_1": '#sdy.mesh<["axis_0"=4]>'}
    assert [str(s) for s in result.shardings] == ['#sdy.sharding<@mesh, [{"axis_0"}]>',
                                                  '#sdy.sharding<@mesh_1, [{"axis_0"}]>']
