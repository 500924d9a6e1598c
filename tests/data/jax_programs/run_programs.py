"""Run JAX programs of programs.py and sharded_programs.py with JAX itself, on 8 fake CPU devices
(``--xla_force_host_platform_device_count=8``): for each ``NAME.in.npz`` of the directory given
(the arguments ``arg0``, ``arg1``, ... of the lowered ``main``), compile the program and write its
results to ``NAME.out.npz`` (``out0``, ``out1``, ...: the flattened results, PRNG keys as their key
data), or ``NAME.err`` with the exception.  Run in a subprocess by tests/jax_program_runs.py.

    python tests/data/jax_programs/run_programs.py DIR
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["XLA_FLAGS"] = os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from programs import PROGRAMS as PLAIN  # noqa: E402
from sharded_programs import PROGRAMS as SHARDED  # noqa: E402

PROGRAMS = {**PLAIN, **SHARDED}


def _argument(value: np.ndarray, aval):
    if jax.dtypes.issubdtype(aval.dtype, jax.dtypes.prng_key):
        return jax.random.wrap_key_data(value)
    return value


def _result(value) -> np.ndarray:
    if jax.dtypes.issubdtype(value.dtype, jax.dtypes.prng_key):
        value = jax.random.key_data(value)
    return np.asarray(value)


def run(name: str, arguments: list[np.ndarray]) -> list[np.ndarray]:
    """The results of program ``name`` compiled for 8 CPU devices on ``arguments``."""
    lowered = PROGRAMS[name]()
    avals = [info._aval for info in jax.tree.leaves(lowered.args_info)]
    compiled = lowered.compile()
    out = compiled(*[_argument(a, v) for a, v in zip(arguments, avals, strict=True)])
    return [_result(v) for v in jax.tree.leaves(out)]


def main(directory: Path) -> None:
    for path in sorted(directory.glob("*.in.npz")):
        name = path.name.removesuffix(".in.npz")
        with np.load(path) as data:
            arguments = [data[f"arg{i}"] for i in range(len(data.files))]
        try:
            results = run(name, arguments)
        except Exception as e:  # noqa: BLE001 - written for the parent to report
            (directory / f"{name}.err").write_text(f"{type(e).__name__}: {e}")
            continue
        np.savez(directory / f"{name}.out.npz", **{f"out{i}": r for i, r in enumerate(results)})


if __name__ == "__main__":
    main(Path(sys.argv[1]))
