"""The numpy interpreter against jaxlib's C++ reference interpreter on every JAX program of
tests/data/jax_programs (lowered in a subprocess) with random inputs: integer and boolean results
bit-exact, floating ones within 1e-4 relative or 2 ULPs."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax", reason="the oracle is StableHLO's C++ interpreter in jaxlib 0.12 (Python >= 3.12)")

import test_jax_programs  # noqa: E402
from interpreter_cases import random_values  # noqa: E402
from interpreter_oracle import cpp_eval  # noqa: E402
from test_interpreter_differential import agree  # noqa: E402
from test_jax_programs import NAMES  # noqa: E402

import shardy_py  # noqa: E402
from shardy_py.interpreter.api import entry_function  # noqa: E402

#: The ``lowered`` fixture of test_jax_programs: the programs lowered once, in a subprocess.
lowered_programs = test_jax_programs.lowered


def program_inputs(module, seed: int) -> list[tuple[np.ndarray, str]]:
    """Random arguments for the module's entry function (indices kept small, floats finite)."""
    rng = np.random.default_rng(seed)
    args = []
    for t in entry_function(module).properties_view["arg_types"]:
        if not hasattr(t, "element_type"):
            pytest.skip(f"the entry function takes a {t} argument, which jaxlib's eval_module cannot be given")
        el = t.element_type
        shape = tuple(t.shape)
        if el.startswith(("i", "ui", "si")) and el != "i1":
            a = rng.integers(0, 3, size=shape).astype(random_values(rng, (), el).dtype)
        else:
            a = random_values(rng, shape, el)
            if a.dtype.kind == "f":
                a = np.where(np.isfinite(a), a, np.ones((), a.dtype)).astype(a.dtype)
        args.append((a, el))
    return args


@pytest.mark.parametrize("name", NAMES)
def test_jax_program_matches_the_cpp_interpreter(lowered_programs, name):
    text = (lowered_programs / f"{name}.mlir").read_text()
    module = shardy_py.parse(text)
    args = program_inputs(module, 0)
    cpp = cpp_eval(text, args)
    if cpp is None:
        pytest.skip("jaxlib's interpreter does not run this program")
    ours = shardy_py.interpret(module, *[a for a, _ in args])
    assert len(ours) == len(cpp)
    for o, c in zip(ours, cpp, strict=True):
        assert agree(o, c), (o, c)
