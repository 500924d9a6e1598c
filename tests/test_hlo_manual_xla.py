"""Differential test: manual axes (inside ``sdy.manual_computation``) against XLA's C++ export.

``mlir_module_to_xla_computation`` keeps a manual computation as a call and exports its body
without the manual subgroup, so the manual rule needs XLA's real compile pipeline: jaxlib's CPU
client compiles each module with the Shardy partitioner and ``--xla_dump_hlo_pass_re=shardy-xla``
dumps the HLO right after XLA's sdy export.  There every manual computation has become
``copy -> custom-call @SPMDFullToShardShape -> call(body) -> ... -> @SPMDShardToFullShape``, and the
``SPMDFullToShardShape`` carries the body's argument sharding exported with the manual axes
(``last_tile_dims={manual, ...}``).  Each case is one manual computation named by its location
(``loc("caseN")``, which XLA keeps as ``op_name``), whose only argument is returned unchanged.

The compile runs in a subprocess (this file run as a script) because the CPU device count and the
dump directory are process-wide XLA flags.  Unreduced axes are left out: XLA aborts the process
(a CHECK) on unreduced axes inside a manual computation, where ``export_sharding`` raises.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import attrs
import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from shardy_py.hlo import export_sharding
from shardy_py.ir.attrs import AxisRefAttr, DimensionShardingAttr, MeshAttr, MeshAxisAttr, TensorShardingAttr
from shardy_py.syntax.attr_printer import mesh_body

pytest.importorskip("jax._src.lib")
from test_hlo_export_xla import _merge_neighbours, sub_axis_chunks  # noqa: E402

#: CPU devices the worker process creates (meshes of more devices are not drawn).
WORKER_DEVICES = 32
#: Meshes drawn per test run (1-4 manual computations each); one XLA compile per mesh.
MESHES_PER_RUN = 24
FULL_TO_SHARD = re.compile(r'custom_call_target="SPMDFullToShardShape", sharding=(\{.*\}), '
                           r'metadata=\{op_name="case(\d+)"')


@attrs.frozen
class Case:
    """One manual computation: its manual axes, the body argument's (local) sharding and the
    operand's global sharding and shape (the manual axes put back in front of the dims)."""

    manual_axes: tuple[str, ...]
    local: TensorShardingAttr
    global_: TensorShardingAttr
    global_shape: tuple[int, ...]
    local_shape: tuple[int, ...]


@st.composite
def manual_cases(draw, mesh: MeshAttr) -> Case:
    names = list(mesh.axis_names)
    manual = tuple(n for n in names if draw(st.integers(0, 2)) == 0)
    if all(mesh.axis_size(n) == 1 for n in manual):  # XLA drops size-1 axes: nothing would be manual
        manual = tuple(sorted({*manual, draw(st.sampled_from([a.name for a in mesh.axes if a.size > 1]))},
                              key=names.index))
    rank = draw(st.integers(1, 3))
    dims: list[list[AxisRefAttr]] = [[] for _ in range(rank)]
    replicated: list[AxisRefAttr] = []
    for axis in mesh.axes:
        if axis.name in manual:
            continue
        for ref in sub_axis_chunks(draw, axis):
            where = draw(st.sampled_from(["dim", "dim", "replicated", "none"]))
            if where == "dim":
                dims[draw(st.integers(0, rank - 1))].append(ref)
            elif where == "replicated":
                replicated.append(ref)
    # each manual axis shards one dim of the operand (in front of the free axes) or none
    manual_dim = {n: draw(st.integers(-1, rank - 1)) for n in manual}
    local_dims, global_dims, local_shape, global_shape = [], [], [], []
    for d, axes in enumerate(dims):
        draw(st.randoms(use_true_random=False)).shuffle(axes)
        axes = _merge_neighbours(axes, mesh)
        manual_here = [AxisRefAttr(n) for n in manual if manual_dim[n] == d]
        local_dims.append(DimensionShardingAttr(tuple(axes)))
        global_dims.append(DimensionShardingAttr(tuple(manual_here + axes)))
        size = int(np.prod([r.size(mesh) for r in axes])) * draw(st.sampled_from([1, 2]))
        local_shape.append(size)
        global_shape.append(size * int(np.prod([mesh.axis_size(r.name) for r in manual_here])))
    replicated = _merge_neighbours(replicated, mesh)
    local = TensorShardingAttr("mesh", local_dims, replicated)
    global_ = TensorShardingAttr("mesh", global_dims, replicated)
    return Case(manual, local, global_, tuple(global_shape), tuple(local_shape))


@st.composite
def small_meshes(draw) -> MeshAttr:
    """Meshes of 2..WORKER_DEVICES devices (2-4 axes, size-1 axes included), some with explicit device ids."""
    sizes = draw(st.lists(st.sampled_from([1, 2, 2, 3, 4, 4, 6, 8]), min_size=2, max_size=4))
    while int(np.prod(sizes)) > WORKER_DEVICES:
        sizes[sizes.index(max(sizes))] //= 2
    if int(np.prod(sizes)) == 1:
        sizes.append(2)
    axes = [MeshAxisAttr(f"a{i}", s) for i, s in enumerate(sizes)]
    if draw(st.integers(0, 4)):
        return MeshAttr(axes)
    ids = draw(st.permutations(range(int(np.prod(sizes)))))
    return MeshAttr.get(axes, ids)


@st.composite
def mesh_with_manual_cases(draw) -> tuple[MeshAttr, list[Case]]:
    mesh = draw(small_meshes())
    return mesh, draw(st.lists(manual_cases(mesh), min_size=1, max_size=4))


def _tensor(shape) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def _bare(sharding: TensorShardingAttr) -> str:
    """``<@mesh, [...]>``: a sharding as written inside in_shardings/out_shardings."""
    return str(sharding).removeprefix("#sdy.sharding")


def module_text(index: int, mesh: MeshAttr, cases: list[Case]) -> str:
    """A module whose function has one manual computation per case (see the module docstring)."""
    args = ", ".join(f"%arg{i}: {_tensor(c.global_shape)}" for i, c in enumerate(cases))
    results = ", ".join(_tensor(c.global_shape) for c in cases)
    lines = [f"module @m{index} attributes {{mhlo.num_partitions = {mesh.total_size} : i32, "
             "mhlo.num_replicas = 1 : i32} {",
             f"  sdy.mesh @mesh = {mesh_body(mesh)}",
             f"  func.func @main({args}) -> ({results}) {{"]
    for i, c in enumerate(cases):
        manual = ", ".join(f'"{n}"' for n in c.manual_axes)
        g, local = _tensor(c.global_shape), _tensor(c.local_shape)
        lines += [f"    %r{i} = sdy.manual_computation(%arg{i}) in_shardings=[{_bare(c.global_)}] "
                  f"out_shardings=[{_bare(c.global_)}] manual_axes={{{manual}}} (%b{i}: {local}) {{",
                  f"      sdy.return %b{i} : {local}",
                  f'    }} : ({g}) -> {g} loc("case{i}")']
    lines += [f"    return {', '.join(f'%r{i}' for i in range(len(cases)))} : {results}", "  }", "}"]
    return "\n".join(lines) + "\n"


def xla_manual_exports(modules: list[tuple[str, int]], dump_dir: Path) -> list[dict[int, str]]:
    """Compile each (module text, device count) in a worker process; per module, case -> the
    ``SPMDFullToShardShape`` sharding XLA's export wrote."""
    env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={WORKER_DEVICES} "
                                     f"--xla_dump_to={dump_dir} --xla_dump_hlo_pass_re=shardy-xla",
               JAX_PLATFORMS="cpu")
    done = subprocess.run([sys.executable, __file__, str(dump_dir)], input=json.dumps(modules), env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    return [{int(case): sharding for case, sharding in per_module.items()} for per_module in found]


def _dumped_full_to_shard(dump_dir: Path, index: int) -> dict[str, str]:
    """Worker side: case -> the ``SPMDFullToShardShape`` sharding in module ``m{index}``'s shardy-xla dump, in
    XLA's tile-assignment form.  jaxlib 0.12's XLA prints these shardings in its named (V3) form
    (``{mesh['a0'=3,'a1'=2], device_ids=(...), [{'a1'}], manual={'a0'}}``), which drops size-1 axes and
    explicitly replicated axes; ``HloSharding.v3_to_v2_sharding`` gives the device tiling it stands for, which
    is what ``export_sharding`` writes."""
    from jax._src.lib import xla_client as xc

    dumped = sorted(dump_dir.glob(f"*.m{index}.*after_shardy-xla*.txt"))
    assert len(dumped) == 1, f"no shardy-xla dump for module m{index}: {sorted(dump_dir.iterdir())[:5]}"
    out = {}
    for m in FULL_TO_SHARD.finditer(dumped[0].read_text()):
        sharding = xc.HloSharding.from_string(m.group(1))
        out[m.group(2)] = str(sharding.v3_to_v2_sharding() if m.group(1).startswith("{mesh[") else sharding)
    return out


def _compile_worker() -> None:
    """Worker side: compile the modules read from stdin with jaxlib's CPU client."""
    from jax._src import compiler
    from jax._src import xla_bridge as xb
    from jax._src.lib import xla_client as xc

    backend = xb.get_backend("cpu")
    modules = json.loads(sys.stdin.read())
    for text, n in modules:
        devices = backend.devices()[:n]
        options = compiler.get_compile_options(num_replicas=1, num_partitions=n,
                                               device_assignment=np.arange(n).reshape(1, n), backend=backend)
        options.executable_build_options.use_shardy_partitioner = True
        backend.compile_and_load(text, xc.DeviceList(tuple(devices)), options)
    dump_dir = Path(sys.argv[1])
    print(json.dumps([_dumped_full_to_shard(dump_dir, index) for index in range(len(modules))]))


@pytest.fixture(scope="module")
def drawn_meshes() -> list[tuple[MeshAttr, list[Case]]]:
    """MESHES_PER_RUN hypothesis-drawn meshes with their cases (drawn here, compiled in one worker run)."""
    drawn = []

    @settings(max_examples=MESHES_PER_RUN, database=None, deadline=None, phases=[Phase.generate])
    @given(mesh_with_manual_cases())
    def collect(mesh_and_cases):
        drawn.append(mesh_and_cases)

    collect()
    return drawn


def test_manual_axes_export_matches_xla(drawn_meshes, tmp_path):
    modules = [(module_text(i, mesh, cases), mesh.total_size) for i, (mesh, cases) in enumerate(drawn_meshes)]
    theirs = xla_manual_exports(modules, tmp_path)
    mismatches, compared = [], 0
    for (mesh, cases), found in zip(drawn_meshes, theirs, strict=True):
        for i, c in enumerate(cases):
            ours = str(export_sharding(c.local, mesh, manual_axes=c.manual_axes))
            compared += 1
            if found.get(i) != ours:
                mismatches.append(f"{c.local} manual_axes={list(c.manual_axes)} on {mesh_body(mesh)}: "
                                  f"ours {ours}, XLA {found.get(i)}")
    assert not mismatches, f"{len(mismatches)} of {compared} differ:\n" + "\n".join(mismatches)
    assert compared >= MESHES_PER_RUN


if __name__ == "__main__":
    _compile_worker()
