"""The JAX programs of tests/data/jax_programs (programs.py and sharded_programs.py) for the tests that
run them: their names (read without importing JAX), their lowering into one directory (in a
subprocess, 8 CPU devices), random inputs, and their execution by JAX itself on 8 fake CPU devices
(run_programs.py in a subprocess)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np

from shardy_py.interpreter.api import entry_function
from shardy_py.interpreter.simulate import random_inputs
from shardy_py.interpreter.values import element_name
from shardy_py.ir.types import RankedTensorType

DATA = Path(__file__).parent / "data" / "jax_programs"
PLAIN = sorted(re.findall(r'^    "(\w+)": ', (DATA / "programs.py").read_text(), re.M))
SHARDED = sorted(re.findall(r'^    "(\w+)": lambda', (DATA / "sharded_programs.py").read_text(), re.M))
ALL = sorted(set(PLAIN) | set(SHARDED))


def lower_all(out: Path) -> Path:
    """Write every program's ``NAME.mlir`` (plain programs with locations) into ``out``."""
    for script in ("programs.py", "sharded_programs.py"):
        subprocess.run([sys.executable, str(DATA / script), str(out)], check=True, capture_output=True, timeout=900)
    return out


def program_inputs(module, seed: int) -> list[tuple[np.ndarray, str]] | None:
    """``simulate``'s random inputs for the module's entry function (standard normal floats, integers
    1..4, booleans), with their element types; None when an argument is not a tensor (a token)."""
    func = entry_function(module)
    types = func.properties_view["arg_types"]
    if not all(isinstance(t, RankedTensorType) for t in types):
        return None
    return [(np.asarray(a), element_name(t)) for a, t in zip(random_inputs(func, seed), types, strict=True)]


def run_with_jax(inputs: dict[str, list[np.ndarray]], directory: Path) -> dict[str, list[np.ndarray] | str]:
    """Each program's results computed by JAX on 8 fake CPU devices for the given arguments (or the
    error JAX raised, as text)."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, arguments in inputs.items():
        np.savez(directory / f"{name}.in.npz", **{f"arg{i}": np.asarray(a) for i, a in enumerate(arguments)})
    subprocess.run([sys.executable, str(DATA / "run_programs.py"), str(directory)], check=True, capture_output=True,
                   timeout=1800)
    out: dict[str, list[np.ndarray] | str] = {}
    for name in inputs:
        err = directory / f"{name}.err"
        if err.exists():
            out[name] = err.read_text()
            continue
        with np.load(directory / f"{name}.out.npz") as data:
            out[name] = [data[f"out{i}"] for i in range(len(data.files))]
    return out
