"""``import`` (and ``import_module``) with the user's mesh: torch_xla users name their mesh and axes
(``Mesh(device_ids, (2, 2, 2), ("x", "y", "z"))``) instead of getting ``axis_0, axis_1, ...``."""
from __future__ import annotations

import pytest

import shardy_py
from shardy_py.cli import main
from shardy_py.interop.xla_format import XlaFormatError, import_module

# torch_xla: Mesh([5, 0, 2, 6, 1, 4, 3, 7], (2, 2, 2), ("x", "y", "z")); mark_sharding with (x, (y, z)),
# ((y,), None) of a vector and ((z, x), None) of the result.
MODULE = """module {
  func.func @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]5,0,2,6,1,4,3,7}"}, %arg1: tensor<16xf32> {mhlo.sharding = "{devices=[2,4]0,1,4,5,2,3,6,7 last_tile_dim_replicate}"}) -> (tensor<8x16xf32> {mhlo.sharding = "{devices=[4,1,2]5,2,1,3,0,6,4,7 last_tile_dim_replicate}"}) {
    return %arg0 : tensor<8x16xf32>
  }
}
"""  # noqa: E501

ON_THE_USERS_MESH = """module {
  sdy.mesh @tp = <["x"=2, "y"=2, "z"=2], device_ids=[5, 0, 2, 6, 1, 4, 3, 7]>
  func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@tp, [{"x"}, {"y", "z"}]>}, %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@tp, [{"y"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@tp, [{"z", "x"}, {}]>}) {
    return %arg0 : tensor<8x16xf32>
  }
}
"""  # noqa: E501


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "torch_xla.mlir"
    path.write_text(MODULE)
    return str(path)


def run(capsys, *argv):
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_users_mesh_with_its_device_order(capsys, source):
    assert run(capsys, "import", source, "--mesh", "x=2,y=2,z=2", "--device-ids", "5,0,2,6,1,4,3,7",
               "--mesh-name", "tp") == (0, ON_THE_USERS_MESH, "")


def test_the_users_mesh_as_sdy_text(capsys, source):
    mesh = '#sdy.mesh<["x"=2, "y"=2, "z"=2], device_ids=[5, 0, 2, 6, 1, 4, 3, 7]>'
    assert run(capsys, "import", source, "--mesh", mesh, "--mesh-name", "tp") == (0, ON_THE_USERS_MESH, "")


def test_axis_names_name_the_inferred_mesh(capsys, source):
    assert run(capsys, "import", source, "--axis-names", "x,y,z") == (0, ON_THE_USERS_MESH.replace("@tp", "@mesh"), "")


def test_python_api_takes_the_same(source):
    module = shardy_py.parse(MODULE)
    mesh = '#sdy.mesh<["x"=2, "y"=2, "z"=2], device_ids=[5, 0, 2, 6, 1, 4, 3, 7]>'
    assert str(import_module(module, mesh=mesh, mesh_name="tp")) == ON_THE_USERS_MESH
    assert str(import_module(module, axis_names=["x", "y", "z"], mesh_name="tp")) == ON_THE_USERS_MESH


def test_a_mesh_the_shardings_do_not_fit_is_a_located_error(capsys, source):
    status, out, err = run(capsys, "import", source, "--mesh", "x=2,y=2,z=2")
    assert (status, out) == (1, "")
    assert err.startswith(f"{source}:2:44: error: argument 0 of @main: cannot import these shardings on the given "
                          "mesh: cannot import {devices=[2,4]5,0,2,6,1,4,3,7}: its devices are not a product of the "
                          "mesh's axes in the mesh's device order\n")


def test_too_few_axis_names_is_a_located_error(capsys, source):
    status, _, err = run(capsys, "import", source, "--axis-names", "x,y")
    assert status == 1
    assert "the inferred mesh has 3 axes (sizes 2, 2, 2) but 2 axis names were given" in err


@pytest.mark.parametrize("argv,message", [
    (["--mesh", "x:2"], "--mesh: write each axis as NAME=SIZE ('data=2,model=4'), not 'x:2'"),
    (["--device-ids", "0,1"], "--device-ids goes with --mesh"),
    (["--mesh", "x=8", "--axis-names", "a"], "--axis-names names the axes of an inferred mesh; --mesh names its own"),
    (["--mesh", "x=8", "--device-ids", "0,a"], "--device-ids: a comma-separated list of integers, not '0,a'"),
])
def test_malformed_options_are_usage_errors(capsys, source, argv, message):
    assert run(capsys, "import", source, *argv) == (2, "", f"shardy-py import: {message}\n")


def test_a_round_trip_module_names_its_own_meshes():
    text = ('module attributes {mhlo.frontend_attributes = '
            '{xla.sdy.meshes = "{mesh = #sdy.mesh<[\\22x\\22=2]>}"}} {\n}\n')
    with pytest.raises(XlaFormatError, match="names its meshes and axes itself"):
        import_module(shardy_py.parse(text), axis_names=["data"])
