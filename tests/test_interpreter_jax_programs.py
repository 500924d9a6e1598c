"""The numpy interpreter against jaxlib's C++ reference interpreter on every JAX program of
tests/data/jax_programs (programs.py and sharded_programs.py, lowered in a subprocess) with random
inputs: integer and boolean results bit-exact, floating ones within 1e-4 relative or 2 ULPs.

The oracle decomposes CHLO ops with StableHLO's own pass and passes complex values as real and
imaginary parts (interpreter_oracle).  What the C++ interpreter cannot run at all is pinned: JAX's
``shard_map`` (``sdy.manual_computation``), ``stablehlo.rng_bit_generator`` ("unsupported at the
moment"), LAPACK and host-callback custom calls (which the numpy interpreter does not run either)."""
from __future__ import annotations

import pytest

pytest.importorskip("jax", reason="the oracle is StableHLO's C++ interpreter in jaxlib 0.12 (Python >= 3.12)")

from interpreter_oracle import cpp_eval_answer  # noqa: E402
from jax_program_runs import ALL, program_inputs  # noqa: E402
from test_interpreter_differential import agree  # noqa: E402

import shardy_py  # noqa: E402
from shardy_py.interpreter.evaluator import InterpretError  # noqa: E402

#: Programs the C++ interpreter dies on, and why.
CPP_CANNOT = {
    "all_gather": "sdy.manual_computation", "ppermute": "sdy.manual_computation",
    "shard_map_matmul": "sdy.manual_computation", "shard_map_psum": "sdy.manual_computation",
    "rng_bit_generator": "stablehlo.rng_bit_generator",
    "custom_call_cholesky": "custom_call @lapack_spotrf_ffi", "custom_call_eigh": "custom_call @lapack_ssyevd_ffi",
    "pure_callback": "custom_call @xla_ffi_python_cpu_callback",
}
#: Programs neither interpreter runs: host callbacks and LAPACK kernels (custom calls).
NEITHER = {"custom_call_cholesky", "custom_call_eigh", "pure_callback", "io_callback", "io_callback_sharded"}


@pytest.fixture(scope="module")
def lowered(all_jax_programs):
    return all_jax_programs


@pytest.mark.parametrize("name", ALL)
def test_jax_program_matches_the_cpp_interpreter(lowered, name):
    text = (lowered / f"{name}.mlir").read_text()
    module = shardy_py.parse(text)
    args = program_inputs(module, 0)
    if args is None:
        assert name in NEITHER
        pytest.skip("the program takes a token (an ordered host callback)")
    answer = cpp_eval_answer(text, args)
    if name in CPP_CANNOT:
        assert not answer.get("ok"), f"jaxlib's interpreter runs {name} now"
        pytest.skip(f"jaxlib's interpreter cannot run {CPP_CANNOT[name]}")
    assert answer.get("ok"), answer
    ours = shardy_py.interpret(module, *[a for a, _ in args])
    assert len(ours) == len(answer["results"])
    for o, c in zip(ours, answer["results"], strict=True):
        assert agree(o, c), (o, c)


@pytest.mark.parametrize("name", sorted(set(CPP_CANNOT) - NEITHER))
def test_programs_the_cpp_cannot_run_run_here(lowered, name):
    module = shardy_py.parse((lowered / f"{name}.mlir").read_text())
    results = shardy_py.interpret(module, *[a for a, _ in program_inputs(module, 0)])
    assert len(results) == len(module.funcs["main"].properties_view["result_types"])


@pytest.mark.parametrize("name", sorted(NEITHER - {"io_callback", "io_callback_sharded"}))
def test_custom_calls_are_a_located_error(lowered, name):
    module = shardy_py.parse((lowered / f"{name}.mlir").read_text())
    with pytest.raises(InterpretError, match="Unsupported custom call") as e:
        shardy_py.interpret(module, *[a for a, _ in program_inputs(module, 0)])
    assert e.value.loc is not None and e.value.loc.line > 0
