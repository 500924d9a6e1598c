"""``shardy_py.simulate`` on every JAX program of tests/data/jax_programs (programs.py and
sharded_programs.py, with their shardings on a 2x4 mesh): propagated, partitioned, run on 8 simulated
devices (1 for the programs without shardings), every output equal to the unpartitioned run (integers
bit-exact, floats within 1e-4); and the same outputs equal to JAX's own execution of the program on 8
fake CPU devices (``--xla_force_host_platform_device_count=8``) with the same inputs.

Against JAX, floats are compared within 2e-3 relative: XLA's CPU code approximates tanh and the like
and reorders sums; on ``mlp_grad`` XLA's gradient is 1.2e-3 (relative) from the float64 value where
ours is 9e-5 from it.  ``benchmarks/simulate_jax_programs.py`` prints the whole table."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax", reason="the programs are lowered and run by JAX (pip install 'jax==0.12.0.1')")

from jax_program_runs import ALL, program_inputs, run_with_jax  # noqa: E402

import shardy_py  # noqa: E402
from shardy_py.interpreter.simulate import SimulationError  # noqa: E402
from shardy_py.interpreter.simulate_shards import mesh_devices  # noqa: E402

#: Programs whose unpartitioned run fails: custom calls the interpreter does not run.
CUSTOM_CALLS = {"custom_call_cholesky": "lapack_spotrf_ffi", "custom_call_eigh": "lapack_ssyevd_ffi",
                "pure_callback": "xla_ffi_python_cpu_callback", "io_callback": "xla_ffi_python_cpu_callback",
                "io_callback_sharded": "xla_ffi_python_cpu_callback"}
#: Programs JAX cannot run on CPU devices, with the error it gives.
JAX_CANNOT = {"unreduced_dot": "Non-replicated subgroup (e.g., manual or unreduced subgroup)"}
#: Relative tolerance of floats against JAX (see the module docstring).
JAX_TOLERANCE = 2e-3

_SIMULATED: dict = {}


@pytest.fixture(scope="module")
def lowered(all_jax_programs):
    return all_jax_programs


def _inputs(lowered, name):
    module = shardy_py.parse((lowered / f"{name}.mlir").read_text())
    args = program_inputs(module, 0)
    return module, None if args is None else [a for a, _ in args]


@pytest.fixture(scope="module")
def jax_results(lowered, tmp_path_factory):
    inputs = {}
    for name in ALL:
        _, args = _inputs(lowered, name)
        if args is not None and name not in CUSTOM_CALLS:
            inputs[name] = args
    return run_with_jax(inputs, tmp_path_factory.mktemp("jax_runs"))


def simulated(lowered, name):
    if name not in _SIMULATED:
        module, args = _inputs(lowered, name)
        _SIMULATED[name] = shardy_py.simulate(module, *(args or []))
    return _SIMULATED[name]


@pytest.mark.parametrize("name", sorted(set(ALL) - set(CUSTOM_CALLS)))
def test_simulated_outputs_equal_the_unpartitioned_run(lowered, name):
    r = simulated(lowered, name)
    assert r.ok, r.report(name)
    meshes = shardy_py.parse((lowered / f"{name}.mlir").read_text()).meshes.values()
    assert len(r.devices) == max((len(mesh_devices(m)) for m in meshes), default=1)


@pytest.mark.parametrize("name", sorted(CUSTOM_CALLS))
def test_custom_calls_are_located_errors(lowered, name):
    module, args = _inputs(lowered, name)
    with pytest.raises(SimulationError) as e:
        shardy_py.simulate(module, *(args or []))
    (loc, message), = e.value.diagnostics[:1]
    assert message == f"the unpartitioned program: Unsupported custom call: {CUSTOM_CALLS[name]}"
    assert loc is not None and loc.line > 0


def _agrees_with_jax(ours: np.ndarray, theirs: np.ndarray) -> bool:
    if ours.shape != theirs.shape:
        return False
    if ours.dtype.kind in "iub":
        return bool(np.array_equal(ours, theirs))
    a, b = ours.astype(np.complex128), theirs.astype(np.complex128)
    return bool(np.all(np.abs(a - b) <= JAX_TOLERANCE * np.maximum(1.0, np.abs(b))))


@pytest.mark.parametrize("name", sorted(set(ALL) - set(CUSTOM_CALLS)))
def test_simulated_outputs_equal_jaxs_execution(lowered, jax_results, name):
    theirs = jax_results[name]
    if name in JAX_CANNOT:
        assert isinstance(theirs, str) and JAX_CANNOT[name] in theirs
        pytest.skip(f"JAX cannot run {name} on CPU devices: {JAX_CANNOT[name]}")
    assert not isinstance(theirs, str), theirs
    r = simulated(lowered, name)
    assert len(r.outputs) == len(theirs)
    for o, t in zip(r.outputs, theirs, strict=True):
        assert _agrees_with_jax(np.asarray(o.actual), t), (name, o.index, o.actual, t)
