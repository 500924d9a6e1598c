"""GSPMD -> Shardy for torch_xla-style shardings: V1 device lists from one ``Mesh`` whose device ids
come in any order, with one to four partition specs (tensor dims over one axis, several axes or
none; unused mesh axes replicated).

Each drawn case must import onto ONE mesh; the imported module verifies clean; for every sharding,
our export, XLA's own sdy export of the imported module (jaxlib's ``mlir_module_to_xla_computation``)
and the ``import``/``export`` commands' module path all put the same set of devices on every tile
as the original text, with XLA's C++ parser (``HloSharding.from_string``) reading every text.
"""
from __future__ import annotations

import math
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import shardy_py
from shardy_py.hlo import HloSharding, export_sharding, import_shardings
from shardy_py.interop.xla_format import export_module, import_module
from shardy_py.syntax.attr_printer import mesh_body
from shardy_py.verify import verify

xc = pytest.importorskip("jax._src.lib").xla_client
_jax = pytest.importorskip("jax._src.lib")._jax

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@st.composite
def partition_specs(draw, num_axes: int) -> list[tuple[int, ...]]:
    """A spec for a tensor of rank 1-4: the mesh axes of each dim (major first); unused axes replicate."""
    rank = draw(st.integers(1, 4))
    spec: list[list[int]] = [[] for _ in range(rank)]
    for axis in draw(st.permutations(range(num_axes))):
        dim = draw(st.integers(-1, rank - 1))
        if dim >= 0:
            spec[dim].append(axis)
    return [tuple(d) for d in spec]


@st.composite
def torch_xla_cases(draw) -> tuple[list[int], list[int], list[list[tuple[int, ...]]], bool]:
    """(mesh shape, device order, partition specs, whether replication groups are sorted): torch_xla
    sorts each group; the mesh-order form is drawn too, as other writers of V1 lists keep it."""
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=4).filter(lambda s: math.prod(s) <= 64))
    order = draw(st.permutations(range(math.prod(shape))))
    specs = draw(st.lists(partition_specs(len(shape)), min_size=1, max_size=4))
    return shape, list(order), specs, draw(st.sampled_from([True, True, False]))


def v1_text(shape: list[int], order: list[int], spec: list[tuple[int, ...]], sort_groups: bool = True) -> str:
    """The HloSharding torch_xla writes: the mesh's device array transposed to the spec's axes, then
    the replicated axes as a last tile dim, each replication group's devices sorted (torch_xla's
    ``ShardingUtil``; with ``sort_groups=False`` in mesh order)."""
    used = [a for dim in spec for a in dim]
    replicated = [a for a in range(len(shape)) if a not in used]
    tile = [math.prod(shape[a] for a in dim) for dim in spec]
    group = math.prod(shape[a] for a in replicated)
    if math.prod(tile) == 1:
        return "{replicated}"
    devices = np.array(order).reshape(shape).transpose(used + replicated).reshape(-1, group)
    if sort_groups:
        devices = np.sort(devices, axis=1)
    devices = devices.reshape(-1)
    dims = tile + ([group] if group > 1 else [])
    suffix = " last_tile_dim_replicate" if group > 1 else ""
    return "{devices=[" + ",".join(map(str, dims)) + "]" + ",".join(map(str, devices)) + suffix + "}"


#: ``tile_sets`` of a replicated sharding: one tile, on every device.
EVERY_DEVICE = {(): frozenset({"every device"})}


def tile_sets(text: str, rank: int) -> dict[tuple, frozenset]:
    """Tile index -> the devices holding it, as XLA's C++ reads ``text``."""
    h = xc.HloSharding.from_string(text)
    if h.is_replicated():
        return EVERY_DEVICE
    dims = list(h.tile_assignment_dimensions())
    devices = np.array(h.tile_assignment_devices()).reshape(dims)
    groups = devices.reshape(dims[:rank] + [-1])
    return {index: frozenset(groups[index].tolist()) for index in np.ndindex(*dims[:rank])}


def shape_for(spec: list[tuple[int, ...]], mesh_shape: list[int]) -> list[int]:
    return [2 * math.prod(mesh_shape[a] for a in dim) for dim in spec]


def _tensor(shape: list[int]) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def sdy_module(mesh, shardings, shapes) -> str:
    args = ", ".join(f"%arg{i}: {_tensor(s)} {{sdy.sharding = {sh}}}" for i, (sh, s) in enumerate(zip(shardings, shapes,
                                                                                                          strict=True)))
    types = ", ".join(_tensor(s) for s in shapes)
    values = ", ".join(f"%arg{i}" for i in range(len(shapes)))
    return (f"module {{\n  sdy.mesh @mesh = {mesh_body(mesh)}\n  func.func @main({args}) -> ({types}) {{\n"
            f"    return {values} : {types}\n  }}\n}}\n")


def mhlo_module(texts, shapes) -> str:
    args = ", ".join(f'%arg{i}: {_tensor(s)} {{mhlo.sharding = "{t}"}}' for i, (t, s) in enumerate(zip(texts, shapes,
                                                                                                     strict=True)))
    types = ", ".join(_tensor(s) for s in shapes)
    values = ", ".join(f"%arg{i}" for i in range(len(shapes)))
    return f"module {{\n  func.func @main({args}) -> ({types}) {{\n    return {values} : {types}\n  }}\n}}\n"


_PARAM = re.compile(r"parameter\((\d+)\), sharding=(\{.*?\})(?:, [a-z_]+=|$)", re.M)
_ARG_SHARDING = re.compile(r'%arg(\d+): [^{]*\{[^%]*?mhlo\.sharding = "([^"]*)"')


def xla_export(text: str) -> dict[int, str]:
    """XLA's sdy export of a module: parameter number -> its HloSharding text."""
    hlo = _jax.mlir.mlir_module_to_xla_computation(text, use_tuple_args=False, return_tuple=False).as_hlo_text()
    return {int(m.group(1)): m.group(2) for m in _PARAM.finditer(hlo)}


@SETTINGS
@given(torch_xla_cases())
def test_one_torch_xla_mesh_imports_as_one_mesh_with_every_tile_on_the_same_devices(case):
    mesh_shape, order, specs, sort_groups = case
    texts = [v1_text(mesh_shape, order, spec, sort_groups) for spec in specs]
    shapes = [shape_for(spec, mesh_shape) for spec in specs]
    result = import_shardings([HloSharding.parse(t) for t in texts], [len(s) for s in shapes])
    assert list(result.meshes) == ["mesh"], (texts, result.meshes)
    mesh = result.mesh
    event("mesh with device_ids" if mesh.device_ids else "mesh in iota order")
    event("groups sorted" if sort_groups else "groups in mesh order")
    event(f"{len(specs)} partition spec(s)")
    assert mesh.total_size in (1, math.prod(mesh_shape))
    module_text = sdy_module(mesh, result.shardings, shapes)
    assert verify(shardy_py.parse(module_text)) == [], module_text
    exported_by_xla = xla_export(module_text)
    for i, (text, sharding, shape) in enumerate(zip(texts, result.shardings, shapes, strict=True)):
        ours = export_sharding(sharding, mesh)
        expected = tile_sets(text, len(shape))
        assert tile_sets(str(ours), len(shape)) == expected, (text, str(sharding), str(ours))
        if ours.is_tiled:  # XLA's C++ reads our text as the devices we mean
            xla_devices = xc.HloSharding.from_string(str(ours)).tile_assignment_devices()
            assert list(xla_devices) == ours.tile_assignment.reshape(-1).tolist()
        assert tile_sets(exported_by_xla.get(i, "{replicated}"), len(shape)) == expected, (text, module_text)


@settings(SETTINGS, max_examples=60)
@given(torch_xla_cases())
def test_import_then_export_of_an_mhlo_sharding_module_keeps_every_placement(case):
    mesh_shape, order, specs, sort_groups = case
    texts = [v1_text(mesh_shape, order, spec, sort_groups) for spec in specs]
    shapes = [shape_for(spec, mesh_shape) for spec in specs]
    imported = import_module(shardy_py.parse(mhlo_module(texts, shapes)))
    assert [name for name in imported.meshes if not name.startswith("maximal_mesh")] in ([], ["mesh"])
    assert verify(imported) == []
    exported = {int(i): t for i, t in _ARG_SHARDING.findall(str(export_module(imported)))}
    for i, (text, shape) in enumerate(zip(texts, shapes, strict=True)):
        assert tile_sets(exported.get(i, "{replicated}"), len(shape)) == tile_sets(text, len(shape)), (text, exported)


# torch_xla: Mesh([5, 0, 2, 6, 1, 4, 3, 7], (2, 2, 2), ("x", "y", "z")); mark_sharding with (x, (y, z)),
# ((y,), None) of a vector, ((z, x), None) and (None, (x, y, z)), and a (y, None) on an op.
TORCH_XLA_MODULE = """module @SyncTensorsGraph.5 {
  func.func @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,4]5,0,2,6,1,4,3,7}"}, %arg1: tensor<16xf32> {mhlo.sharding = "{devices=[2,4]0,1,4,5,2,3,6,7 last_tile_dim_replicate}"}) -> (tensor<8x16xf32> {mhlo.sharding = "{devices=[4,1,2]5,2,1,3,0,6,4,7 last_tile_dim_replicate}"}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
    %1 = stablehlo.add %arg0, %0 {mhlo.sharding = "{devices=[2,1,4]0,1,4,5,2,3,6,7 last_tile_dim_replicate}"} : tensor<8x16xf32>
    %2 = stablehlo.custom_call @Sharding(%1) {mhlo.sharding = "{devices=[1,8]5,0,2,6,1,4,3,7}"} : (tensor<8x16xf32>) -> tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
}
"""  # noqa: E501

IMPORTED = """module @SyncTensorsGraph.5 {
  sdy.mesh @mesh = <["axis_0"=2, "axis_1"=2, "axis_2"=2], device_ids=[5, 0, 2, 6, 1, 4, 3, 7]>
  func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"axis_0"}, {"axis_1", "axis_2"}]>}, %arg1: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"axis_1"}]>}) -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"axis_2", "axis_0"}, {}]>}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<8x16xf32>
    %1 = stablehlo.add %arg0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"axis_1"}, {}]>]>} : tensor<8x16xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"axis_0", "axis_1", "axis_2"}]> : tensor<8x16xf32>
    return %2 : tensor<8x16xf32>
  }
}
"""  # noqa: E501


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "shardy_py", *args], capture_output=True, text=True, timeout=120)


def test_import_command_puts_a_torch_xla_module_on_one_mesh_and_export_gives_the_placements_back(tmp_path):
    source = tmp_path / "torch_xla.mlir"
    source.write_text(TORCH_XLA_MODULE)
    imported = _cli("import", str(source))
    assert (imported.returncode, imported.stderr, imported.stdout) == (0, "", IMPORTED)
    (tmp_path / "imported.mlir").write_text(imported.stdout)
    exported = _cli("export", str(tmp_path / "imported.mlir"))
    assert exported.returncode == 0, exported.stderr
    before = re.findall(r'mhlo\.sharding = "([^"]*)"', TORCH_XLA_MODULE)
    after = re.findall(r'mhlo\.sharding = "([^"]*)"', exported.stdout)
    assert len(after) == len(before) == 5
    assert [tile_sets(t, 2) for t in after] == [tile_sets(t, 2) for t in before]


def test_import_command_locates_a_device_list_that_is_not_0_to_n(tmp_path):
    source = tmp_path / "bad.mlir"
    source.write_text('func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = "{devices=[2]0,1}"}, '
                      '%arg1: tensor<8xf32> {mhlo.sharding = "{devices=[2]5,7}"}) -> tensor<8xf32> {\n'
                      '  return %arg0 : tensor<8xf32>\n}\n')
    r = _cli("import", str(source))
    assert r.returncode == 1
    assert r.stderr.splitlines()[0] == (
        f"{source}:1:114: error: argument 1 of @main: mhlo.sharding: cannot import {{devices=[2]5,7}}: its 2 "
        "devices are not 0..1 (a Shardy mesh numbers its devices 0..N-1)")


@st.composite
def random_v1_texts(draw) -> str:
    """Any V1 tile assignment: tile dims, an optional replicated last dim, devices in any order."""
    dims = draw(st.lists(st.integers(1, 4), min_size=1, max_size=4).filter(lambda d: 1 < math.prod(d) <= 64))
    replicated = draw(st.booleans()) and len(dims) > 1 and dims[-1] > 1
    devices = draw(st.permutations(range(math.prod(dims))))
    suffix = " last_tile_dim_replicate" if replicated else ""
    return "{devices=[" + ",".join(map(str, dims)) + "]" + ",".join(map(str, devices)) + suffix + "}"


def _data_rank(text: str) -> int:
    h = HloSharding.parse(text)
    return h.tiled_data_rank if h.is_tiled else 1


@settings(SETTINGS, max_examples=200)
@given(st.lists(random_v1_texts(), min_size=1, max_size=4))
def test_random_v1_shardings_all_import_onto_valid_meshes_that_export_them_back(texts):
    ranks = [_data_rank(t) for t in texts]
    result = import_shardings([HloSharding.parse(t) for t in texts], ranks)
    event(f"{len(result.meshes)} mesh(es) for {len(texts)} sharding(s)")
    assert list(result.meshes)[0] == "mesh"
    assert list(result.meshes)[1:] == [f"mesh_{k}" for k in range(1, len(result.meshes))]
    for name, mesh in result.meshes.items():
        sdy = f"module {{\n  sdy.mesh @{name} = {mesh_body(mesh)}\n}}\n"
        assert verify(shardy_py.parse(sdy)) == [], sdy
    for text, sharding, rank in zip(texts, result.shardings, ranks, strict=True):
        ours = export_sharding(sharding, result.meshes[sharding.mesh_name])
        assert tile_sets(str(ours), rank) == tile_sets(text, rank), (text, str(sharding), str(ours))


def test_v1_text_sorts_each_replication_group_as_torch_xla_does():
    # Mesh([5, 0, 2, 6, 1, 4, 3, 7], (2, 2, 2)), spec ((y,), None) of a vector: x and z replicate
    assert v1_text([2, 2, 2], [5, 0, 2, 6, 1, 4, 3, 7], [(1,)]) == \
        "{devices=[2,4]0,1,4,5,2,3,6,7 last_tile_dim_replicate}"
    assert v1_text([2, 2, 2], [5, 0, 2, 6, 1, 4, 3, 7], [(1,)], sort_groups=False) == \
        "{devices=[2,4]5,0,1,4,2,6,3,7 last_tile_dim_replicate}"
